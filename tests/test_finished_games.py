"""Finished games stay (issue 40): each finished game is kept in the user data folder, listed on
the load screen with its date, seats and scores, can be watched again after another game has
started, and stays until the player deletes it (Delete, then Delete? to be sure)."""
from __future__ import annotations

import time

import pytest

from gonzaga.table import finished, persistence
from gonzaga.table.session import SeatSpec
from gonzaga.words import formats, i18n
from scene_events import click

BOTS = [SeatSpec("Ann AI", "ai", "greedy", "red"), SeatSpec("Bob AI", "ai", "greedy", "blue")]


def play_to_the_end(app, seed):
    """The AI seats decide in the app's worker, beside the frames: the budget is time (two
    minutes), not frames, and each frame leaves the worker a moment, as a real frame does."""
    from gonzaga.scenes.game import GameScene
    app.start_session(BOTS, seed)
    end = time.monotonic() + 120
    while time.monotonic() < end:
        app.run_frames(1)
        if app.session.is_over and app.stack.find(GameScene).end_reported:
            return app.session
        top = app.stack.top
        if top.name in ("reveal", "curtain"):
            top.close()
        time.sleep(0.001)
    raise AssertionError("the game did not end")


def press(app, label):
    for w in app.stack.top.widgets.items:
        if getattr(w, "label", None) == label and w.visible and w.enabled:
            click(app, w.rect.center, 2)
            return
    raise AssertionError(f"no button {label!r} in {[getattr(w, 'label', None) for w in app.stack.top.widgets.items]}")


@pytest.fixture
def app(make_app):
    return make_app((1280, 720))


def test_a_finished_game_is_kept_listed_watched_and_deleted(app):
    s = play_to_the_end(app, 7)
    kept = list(persistence.finished_dir().glob("*.json"))
    assert len(kept) == 1
    scores = [st.score for st in s.state.seats]
    app.start_session(BOTS, 8)  # another game: the autosave is now that one
    app.run_frames(3)
    app.to_title()
    app.stack.push("load")
    app.run_frames(2)
    load = app.stack.top
    assert load.name == "load" and len(load.finished) == 1
    info = load.finished[0]
    assert [p for _, p in info.scores] == scores and [n for n, _ in info.scores] == ["Ann AI", "Bob AI"]
    label = i18n.t("finished.entry", when=formats.saved_when(info.saved_at),
                   scores=f"Ann AI {scores[0]}, Bob AI {scores[1]}")
    assert label in load.visible_text()
    press(app, label)  # watch it again
    assert app.stack.top.name == "replay" or type(app.stack.top).__name__.startswith("Replay")
    app.stack.pop(app.stack.top)
    app.run_frames(2)
    assert app.stack.top is load
    press(app, i18n.t("finished.delete"))
    assert kept[0].exists()  # the first click only asks
    press(app, i18n.t("finished.delete_sure"))
    assert not kept[0].exists() and load.finished == []


def test_the_same_game_is_kept_once(app):
    s = play_to_the_end(app, 7)
    path = finished.keep_finished(s)
    assert path is not None and list(persistence.finished_dir().glob("*.json")) == [path]
    before = path.stat().st_mtime_ns
    assert app.open_save(path)  # a kept game opened again ends on screen again: still one file
    app.run_frames(5)
    assert list(persistence.finished_dir().glob("*.json")) == [path] and path.stat().st_mtime_ns == before


def test_delete_only_touches_the_finished_games_folder(app, tmp_path):
    other = tmp_path / "mine.json"
    other.write_text("{}")
    with pytest.raises(ValueError):
        finished.delete_finished(other)
    assert other.exists()
