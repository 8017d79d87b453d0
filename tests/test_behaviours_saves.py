"""Issue 45, the load screen's list of saves: newest first by when each file was written (not by
name), and a damaged save moved aside (renamed, never deleted) so that it is reported once.
Issue 51: deleting a game in progress deletes only a game in progress (an autosave of
``saves/in-progress``), never a named save, a finished game or any other file."""
from __future__ import annotations

import os

import pytest

from gonzaga.rules import load_content
from gonzaga.table import in_progress, persistence
from gonzaga.table.seats import SeatSpec
from gonzaga.table.session import Session

pytestmark = pytest.mark.rule("E-save")

CONTENT = load_content()


@pytest.fixture
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("GONZAGA_HOME", str(tmp_path / "home"))
    return tmp_path / "home"


def test_saves_list_newest_first_whatever_their_names(home):
    folder = persistence.saves_dir()
    folder.mkdir(parents=True, exist_ok=True)
    seats = [SeatSpec("Ann", "human", colour="red"), SeatSpec("Bot", "ai", "easy", "blue")]
    written = {}
    for name, seed, when in (("a-first.json", 3, 3000), ("b-second.json", 4, 1000), ("c-third.json", 5, 2000)):
        path = persistence.save_game(Session.new(seats, seed, content=CONTENT), folder / name, name=name)
        os.utime(path, (1_700_000_000 + when, 1_700_000_000 + when))
        written[name] = when
    good, bad = persistence.list_saves(folder, CONTENT)
    assert bad == []
    assert [g.path.name for g in good] == sorted(written, key=lambda n: written[n], reverse=True)


def test_a_damaged_save_is_moved_aside_and_reported_once(home):
    folder = persistence.saves_dir()
    folder.mkdir(parents=True, exist_ok=True)
    bad_file = folder / "broken.json"
    bad_file.write_text('{"save_version": 2, "record": ', encoding="utf-8")
    good, bad = persistence.list_saves(folder, CONTENT)
    assert good == [] and len(bad) == 1
    moved = bad[0].moved_to
    assert moved is not None and moved.exists() and moved.parent == folder and not bad_file.exists()
    assert moved.read_text(encoding="utf-8") == '{"save_version": 2, "record": '  # kept as it was
    assert persistence.list_saves(folder, CONTENT) == ([], [])  # reported once: it is out of the way


def test_deleting_a_game_in_progress_touches_no_other_save(home):
    seats = [SeatSpec("Ann", "human", colour="red"), SeatSpec("Bot", "ai", "easy", "blue")]
    going = persistence.save_game(Session.new(seats, 3, content=CONTENT), persistence.new_autosave_path(), name="")
    named = persistence.save_game(Session.new(seats, 4, content=CONTENT), persistence.saves_dir() / "mine.json",
                                  name="mine")
    kept = persistence.finished_dir() / "old.json"
    kept.write_bytes(named.read_bytes())
    for other in (named, kept):
        with pytest.raises(ValueError):
            in_progress.delete(other)
        assert other.exists()
    in_progress.delete(going)
    assert not going.exists() and in_progress.list_in_progress(CONTENT) == ([], [])
