"""Two save-file slips and a replay message (issue 40, item 9): a save named "autosave" (in any
case) is never the autosave file, a game resumed with Continue has no name "Autosave", and
``gonzaga replay`` says what is wrong before quoting a long action."""
from __future__ import annotations

import json

import pygame

from gonzaga.table import persistence
from gonzaga.table.session import SeatSpec
from scene_events import key

SEATS = [SeatSpec("Me", "human", colour="red"), SeatSpec("Bot", "ai", "greedy", "blue")]


def test_a_save_named_autosave_in_any_case_is_not_the_autosave_file(tmp_path, monkeypatch):
    monkeypatch.setenv("GONZAGA_HOME", str(tmp_path))
    auto = persistence.legacy_autosave_path()  # an older version's autosave, moved at start
    for name in ("autosave", "Autosave", "AUTOSAVE", " autosave ", "autosave."):
        p = persistence.named_save_path(name)
        assert p.name.casefold() != auto.name.casefold(), name
        assert p.parent == auto.parent and not persistence.is_autosave_file(p)


def test_names_that_differ_only_in_case_are_one_file_on_every_system(tmp_path):
    (tmp_path / "Tuesday_game.json").write_text("{}")
    assert persistence.named_save_path("tuesday game", tmp_path) == tmp_path / "Tuesday_game.json"
    assert persistence.named_save_path("Wednesday", tmp_path) == tmp_path / "Wednesday.json"


def test_a_game_resumed_with_continue_saves_beside_the_autosave(make_app):
    """Continue, then Save game with the name it offers: the autosave stays the autosave."""
    from gonzaga.scenes.game import GameScene
    app = make_app((1280, 720))
    app.start_session(SEATS, 3)
    app.run_frames(3)
    auto = app.autosave_file
    app.to_title()
    assert json.loads(auto.read_text())["name"] == ""  # never the word "Autosave"
    # an autosave written by an earlier version, with the label as the game's name
    d = json.loads(auto.read_text())
    d["name"] = "Autosave"
    auto.write_text(json.dumps(d))
    assert app.open_save(auto)
    app.run_frames(3)
    g = app.stack.find(GameScene)
    assert g.face._GameFace__s.name == ""
    key(app, pygame.K_ESCAPE, frames=2)
    while app.stack.top is not g and app.stack.top.name != "menu":  # the curtain of a resumed game
        key(app, pygame.K_RETURN, frames=2)
        key(app, pygame.K_ESCAPE, frames=2)
    menu = app.stack.top
    assert menu.name == "menu"
    menu.save()
    app.run_frames(1)
    prompt = app.stack.top
    offered = prompt.field.value
    assert offered.casefold() != "autosave"
    key(app, pygame.K_RETURN, frames=2)
    written = [p.name for p in persistence.saves_dir().glob("*.json")]
    assert len(written) == 1 and written[0].casefold() != auto.name.casefold()


def test_replay_of_an_unknown_scenario_says_what_is_wrong_first(tmp_path, capsys):
    from gonzaga.cli import run
    from gonzaga.table.session import Session
    seats = [SeatSpec(n, "ai", "greedy", c) for n, c in zip("ABCD", ("red", "yellow", "green", "blue"))]
    s = Session.new(seats, 5)
    p = persistence.save_game(s, tmp_path / "four.json")
    d = json.loads(p.read_text())
    first = d["record"]["actions"][0]
    d["record"]["actions"][0] = first.replace(first.split()[1], "Cohombo", 1)
    d["record"].pop("summary", None)
    p.write_text(json.dumps(d))
    assert run(["replay", str(p)]) == 2
    err = capsys.readouterr().err.strip()
    assert "no scenario tile 'Cohombo'" in err, err
    assert err.index("no scenario tile") < err.index("decks="), err
