"""The title's first frame loads only what the title draws (issue 45's start-up figure): the
game's table floor (the authority, its AI worker, statistics, hints), the board renderer and
the game screen load when a game first opens, not before (the map behind the menus: from the
third frame). Checked in a fresh process, with a game in progress and a tutorial under way in
the player's folder (the title reads both, on its second frame, for its Continue lines), and then the other way round: opening that game does load them, so the list
below names modules the game really uses."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from gonzaga.table import persistence, tutorial
from gonzaga.table.seats import SeatSpec
from gonzaga.table.session import Session

ROOT = Path(__file__).resolve().parent.parent

# modules a game needs and the title's first frame does not
LATER = ("gonzaga.table.core", "gonzaga.table.session", "gonzaga.table.pacing", "gonzaga.ai.worker",
         "gonzaga.table.hints", "gonzaga.table.seatview", "gonzaga.render.board_view", "gonzaga.scenes.game")
AT_THE_END = ("gonzaga.table.stats",)  # the statistics: when a game ends

PROBE = """
import json, sys
from gonzaga.app import App
from gonzaga.table import persistence
app = App(persistence.Settings(speed="instant"), size=(1280, 720))
app.run_frames(2)  # the first frame, then the title reads the games in progress for its Continue line
first = sorted(m for m in sys.modules if m.startswith("gonzaga"))
title = app.stack.top
continue_shown = bool(title.games)
if "--open" in sys.argv:
    app.open_save(title.games[0].path)
    app.run_frames(2)
opened = sorted(m for m in sys.modules if m.startswith("gonzaga"))
app.close()
print("PROBE " + json.dumps({"first": first, "opened": opened, "top": app.stack.top.name,
                              "continue": continue_shown}))
"""


def _probe(home: Path, *args: str) -> dict:
    env = dict(os.environ, GONZAGA_HOME=str(home), SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy",
               GONZAGA_NOTIFY="off")
    out = subprocess.run([sys.executable, "-c", PROBE, *args], cwd=ROOT, env=env, capture_output=True, text=True,
                         timeout=120)
    line = next((x for x in out.stdout.splitlines() if x.startswith("PROBE ")), None)
    assert line is not None, out.stderr[-2000:]
    return json.loads(line[len("PROBE "):])


def _a_player_folder(home: Path, monkeypatch) -> None:
    """A game in progress (its own autosave) and the tutorial stopped at its second section."""
    monkeypatch.setenv("GONZAGA_HOME", str(home))
    seats = [SeatSpec("Ann", "human", colour="red"), SeatSpec("Bob", "human", colour="blue")]
    session = Session.new(seats, 5)
    persistence.autosave(session, persistence.new_autosave_path())
    session.close()
    assert tutorial.save_progress(tutorial.Progress(section=tutorial.SECTIONS[1].id, started=True))


def test_the_first_frame_loads_no_part_of_a_game(tmp_path, monkeypatch):
    home = tmp_path / "home"
    _a_player_folder(home, monkeypatch)
    got = _probe(home)
    assert got["continue"]  # the title did read the game in progress
    early = [m for m in got["first"] if m.startswith(LATER + AT_THE_END)]
    assert not early, f"loaded by the title's first two frames: {early}"


def test_opening_a_game_loads_what_the_first_frame_left_out(tmp_path, monkeypatch):
    home = tmp_path / "home"
    _a_player_folder(home, monkeypatch)
    got = _probe(home, "--open")
    assert got["top"] in ("game", "curtain")  # resumed (behind the curtain in hot-seat)
    missing = [m for m in LATER if m not in got["opened"]]
    assert not missing, f"a game opened without {missing}: the list names modules no game needs"
    json.dumps(got)  # what the probe printed is plain data
