"""Scenes open one another by name (issue 38): every name asked of the scene stack in the code is
registered, and an unknown name is a clear error, not a silent no-op."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from gonzaga.scenes.base import SceneStack
from gonzaga.scenes.catalog import SCENES, scene_registry
from gonzaga.scenes.registry import SceneRegistry, UnknownScene

ROOT = Path(__file__).resolve().parent.parent / "gonzaga"
ASKED = re.compile(r"""stack\.(?:push|replace|find)\(\s*["']([a-z_]+)["']""")


def test_every_name_the_code_asks_for_is_registered():
    asked = {m.group(1) for f in ROOT.rglob("*.py") for m in ASKED.finditer(f.read_text(encoding="utf-8"))}
    assert {"title", "game", "curtain", "rules_reference"} <= asked  # the pattern finds them
    names = set(scene_registry().names())
    assert asked - names - {"reveal"} == set()  # "reveal" is also found by name (find)
    assert "reveal" in names


def test_an_unknown_name_is_refused_plainly():
    stack = SceneStack(None, scene_registry())
    with pytest.raises(UnknownScene, match="no scene is registered as 'nope'"):
        stack.push("nope")
    assert stack.scenes == []
    reg = SceneRegistry()
    reg.register("title", SCENES["title"])
    with pytest.raises(ValueError):
        reg.register("title", SCENES["title"])


def test_a_name_makes_its_scene_for_the_app(make_app):
    app = make_app()
    top = app.stack.push("settings")
    assert app.stack.top is top and top.name == "settings" and top.app is app
    assert app.stack.find("settings") is top
    app.stack.replace("title")
    assert [s.name for s in app.stack.scenes] == ["title"]
