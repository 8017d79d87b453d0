"""The tools' help (issue 40, item 8): every option of simulate, replay, legal and render-map
says what it is for, and simulate lists the AI levels by name (from gonzaga/ai/roster.py)."""
from __future__ import annotations

import re

import pytest

from gonzaga.ai.roster import bot_names
from gonzaga.cli import run


def _help(capsys, *argv):
    try:
        code = run([*argv, "--help"])
    except SystemExit as e:
        code = e.code
    assert code in (0, None)
    return capsys.readouterr().out


@pytest.mark.parametrize("command", ["simulate", "replay", "legal", "render-map"])
def test_every_option_has_a_description(capsys, command):
    out = _help(capsys, command)
    head, _, rest = out.partition("\n\n")
    assert rest.split("\n\n")[0].strip() and not rest.lstrip().startswith(("options", "positional")), out
    for line in out.splitlines():
        m = re.match(r"^  (--?[\w-]+(?: [A-Z.x]+)?|[\w.]+)\s*$", line)  # an option alone on its line
        assert not m, f"{command}: {line!r} has no description"
    options = re.findall(r"^  (-[-\w]+|[\w.]+)", out, re.M)
    assert options


def test_simulate_lists_the_bot_names(capsys):
    out = " ".join(_help(capsys, "simulate").split())
    for name in bot_names():
        assert name in out
