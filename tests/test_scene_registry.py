"""Scenes open one another by name (issue 38): every name asked of the scene stack in the code is
registered, and an unknown name is a clear error, not a silent no-op."""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from gonzaga.scenes.base import SceneStack
from gonzaga.scenes.catalog import SCENES, resolve, scene_registry
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
    reg.register("title", resolve(SCENES["title"]))
    with pytest.raises(ValueError):
        reg.register("title", resolve(SCENES["title"]))


def test_every_scene_factory_names_a_callable():
    # The table holds "module:attribute" strings, imported when a scene is first made: a typo
    # would only show when that screen opens, so every one is resolved here.
    assert set(SCENES) == set(scene_registry().names())
    for name, target in SCENES.items():
        assert callable(resolve(target)), name
    with pytest.raises(AttributeError):
        resolve("gonzaga.scenes.title:NoSuchScene")


def test_the_title_shows_before_the_game_screen_is_loaded():
    # The first frame does not wait for the game screen, the dialogs or the replay viewer.
    code = (
        "import sys, gonzaga.app, gonzaga.scenes.title; "
        "print(sorted(m for m in ('gonzaga.scenes.game', 'gonzaga.scenes.dialogs', "
        "'gonzaga.scenes.replay_view', 'gonzaga.scenes.tutorial') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip().splitlines()[-1] == "[]"


def test_a_name_makes_its_scene_for_the_app(make_app):
    app = make_app()
    top = app.stack.push("settings")
    assert app.stack.top is top and top.name == "settings" and top.app is app
    assert app.stack.find("settings") is top
    app.stack.replace("title")
    assert [s.name for s in app.stack.scenes] == ["title"]
