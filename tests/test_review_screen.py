"""The post-game review screen (issue 48): opened from the finished games' list, a replay and the
end screen; whose decisions (the only human's, else the player chooses); the keys and the mouse
step through the timeline; a stopped review goes on where it stopped; a kept review opens at once."""
from __future__ import annotations

import shutil
import time
from pathlib import Path

import pygame
import pytest

from gonzaga.scenes import review as RS
from gonzaga.table import persistence, reviews
from gonzaga.table.replay import replay_of_save
from scene_events import click, key
from test_finished_games import press

SAVES = Path(__file__).resolve().parent.parent / "saves"


@pytest.fixture
def app(make_app, monkeypatch):
    monkeypatch.setattr(RS, "BUDGET", 8)
    monkeypatch.setattr(RS, "USE_PROCESSES", False)
    return make_app((1280, 720))


def finish(app, scene, seconds=120.0):
    """Frames until the review is complete (by the clock: the analysis runs beside the frames)."""
    end = time.monotonic() + seconds
    while not scene.job.complete:
        assert time.monotonic() < end and not scene.job.failed
        app.run_frames(1)
        time.sleep(0.005)
    app.run_frames(1)


def test_from_the_finished_list_choose_a_seat_step_with_keys_and_reopen_at_once(app):
    path = persistence.finished_dir() / "finished-game.json"
    shutil.copyfile(SAVES / "v1-finished.json", path)
    app.stack.push("load")
    app.run_frames(2)
    press(app, "Review")
    scene = app.stack.top
    assert scene.name == "review" and scene.seat is None  # two AI seats: whose decisions?
    assert "Whose decisions should the expert review?" in scene.visible_text()
    press(app, "Review Ferrara")
    assert scene.seat == 1 and scene.job.running
    finish(app, scene)
    rev = scene.review
    assert rev.complete and rev.seat == 1 and len(scene.moves) == rev.total
    assert any(t.startswith("About ") or t.startswith("No decision") for t in scene.visible_text())
    top = rev.costliest()
    if top:  # the costliest is chosen first
        assert scene.moves[scene.sel][0] == top[0].index
    key(app, pygame.K_HOME)
    assert scene.sel == 0
    key(app, pygame.K_RIGHT)
    key(app, pygame.K_RIGHT)
    assert scene.sel == 2
    key(app, pygame.K_LEFT)
    assert scene.sel == 1
    key(app, pygame.K_END)
    assert scene.sel == len(scene.moves) - 1
    click(app, scene._bars[3].center)
    assert scene.sel == 3
    if top:
        key(app, pygame.K_TAB)
        assert scene.moves[scene.sel][0] in {v.index for v in top}
    key(app, pygame.K_ESCAPE)
    assert app.stack.top.name == "load"
    assert reviews.load_review(rev_record(path), 1, 8) is not None  # kept with the finished game
    press(app, "Review")
    app.stack.top.choose(1)
    again = app.stack.top
    assert again.job.complete and not again.job.running  # opened again: at once, no analysis
    assert again.review.to_json() == rev.to_json()


def rev_record(path):
    return persistence.read_save(path).record


def test_stop_and_go_on(app):
    ls = persistence.read_save(SAVES / "v1-finished.json", app.content)
    face, _ = replay_of_save(SAVES / "v1-finished.json", app.content)  # what a replay hands over
    app.stack.push("review", face, 0)
    scene = app.stack.top
    end = time.monotonic() + 60
    while len(scene.review.verdicts) < 1:
        assert time.monotonic() < end
        app.run_frames(1)
        time.sleep(0.005)
    key(app, pygame.K_SPACE)  # stop
    assert not scene.job.running
    done = len(scene.review.verdicts)
    assert any(t.startswith("Stopped:") for t in scene.visible_text())
    assert reviews.load_review(ls.record, 0, 8) is not None  # the part done is kept
    press(app, "Go on")
    assert scene.job.running
    finish(app, scene)
    assert scene.review.complete and len(scene.review.verdicts) > done


def test_the_end_screen_and_a_replay_open_the_review(app):
    import test_finished_games as F
    s = F.play_to_the_end(app, 11)  # two greedy seats
    g = app.stack.top
    assert s.is_over
    press(app, "Review")
    assert app.stack.top.name == "review" and app.stack.top.seat is None  # two AI seats: choose
    key(app, pygame.K_1)
    assert app.stack.top.seat == 0
    key(app, pygame.K_ESCAPE)
    assert app.stack.top is g
    g.watch_replay()
    app.run_frames(2)
    assert app.stack.top.name == "replay"
    press(app, "Review")
    assert app.stack.top.name == "review"


def test_a_solo_game_reviews_the_human_seat_at_once(app):
    from gonzaga.table.session import SeatSpec
    ls = persistence.read_save(SAVES / "v1-finished.json", app.content)
    seats = [SeatSpec("AI", "ai", "greedy", "red"), SeatSpec("Me", "human", "", "yellow")]
    scene = RS.ReviewScene(app, ls.record, seats, ls.state.content)
    try:
        assert scene.seat == 1 and scene.job.running
        assert all(v.viewer == 1 for _, v, _ in scene.moves)  # only that seat's views
    finally:
        scene.leave()
