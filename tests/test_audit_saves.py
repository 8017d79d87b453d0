"""The saves' gaps an audit found (issue 38): a version 1 save resumed with its old card
numbering, a file that grows while it is read, three damaged files moved aside in one second."""
from __future__ import annotations

import datetime
import json
import os
from types import SimpleNamespace

import pytest

from gonzaga.table import persistence as P
from gonzaga.table import save_schema as S
from gonzaga.rules import GameRecord, load_content
from gonzaga.table.session import SeatSpec, Session

pytestmark = pytest.mark.rule("E-save")


@pytest.fixture
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("GONZAGA_HOME", str(tmp_path / "home"))
    return tmp_path / "home"


@pytest.fixture(scope="module")
def content():
    return load_content()


def v1_save(content, path, colours, plans):
    """A save of format 1 (the old card numbering) written by hand from a one-round game played
    with that numbering (tests/test_record_upgrade.py's record), summary included."""
    from test_record_upgrade import _v1_record
    rec, played = _v1_record(content, colours, plans)
    as_played = GameRecord(played.config, rec.seed, list(rec.actions))
    seats = [SeatSpec(f"P{i}", "human", colour=c) for i, c in enumerate(colours)]
    P.save_game(Session(seats, as_played, content=content), path, "old")
    d = json.loads(path.read_text())
    d["save_version"] = 1
    d["record"]["version"] = 1
    del d["record"]["config"]["numbering"]  # format 1 had no such field
    path.write_text(json.dumps(d))
    return played


@pytest.mark.rule("E-save", "D1", "R4")
def test_a_v1_save_whose_turn_order_hinged_on_the_old_numbers_resumes_as_played(home, content):
    """Gap 4: green fief 10 was card 13 and placed first; under D1 it is card 14. ``load_save``
    hands back the upgraded record (version 2, numbering "v1"), so the session resumed from it
    replays the placements in the order they were made, and a new save says so."""
    path = P.saves_dir() / "old.json"
    played = v1_save(content, path, ("green", "blue"), [("hispania", "B"), ("francia", "B")])
    ls = P.load_save(path, content)
    assert ls.record.version == 2 and ls.record.config.numbering == "v1"
    s = Session(ls.seats, ls.record, content=content)  # replays every placement: none out of turn
    assert s.state == ls.state and s.state.scores() == played.scores()
    again = json.loads(P.save_game(s, P.saves_dir() / "again.json").read_text())
    assert again["save_version"] == P.SAVE_VERSION and again["record"]["config"]["numbering"] == "v1"
    assert P.load_save(P.saves_dir() / "again.json", content).state == ls.state


@pytest.mark.rule("E-save", "D1")
def test_a_v1_save_without_such_a_tie_takes_the_printed_numbering(home, content):
    path = P.saves_dir() / "plain.json"
    played = v1_save(content, path, ("red", "yellow"), [("hispania", "B"), ("francia", "B")])
    ls = P.load_save(path, content)
    assert ls.record.version == 2 and ls.record.config.numbering == "printed"
    assert Session(ls.seats, ls.record, content=content).state.scores() == played.scores()


def _growing(monkeypatch, path, extra: bytes):
    """The file grows by ``extra`` once it is open, before its first read (another program)."""
    real_read = os.read
    done = []

    def read(fd, n):
        if not done:
            done.append(True)
            with open(path, "ab") as f:
                f.write(extra)
        return real_read(fd, n)
    monkeypatch.setattr(S.os, "read", read)


@pytest.mark.parametrize("extra", [10, 5000], ids=["within-the-limit", "past-the-limit"])
def test_a_file_that_grows_while_it_is_read_is_refused(tmp_path, monkeypatch, extra):
    """Gap 5: never half of a file, never a file longer than it said it was: refused, with a
    message that says what happened (not "too large" for a file under the limit)."""
    path = tmp_path / "growing.json"
    path.write_bytes(b'{"a": 1}' + b" " * 100)
    _growing(monkeypatch, path, b" " * extra)
    with pytest.raises(S.FileProblem) as e:
        S.read_bounded(path, limit=1000)
    assert e.value.key == "save.changed"
    assert "changed while it was being read" in e.value.message()
    monkeypatch.undo()
    assert len(S.read_bounded(path, limit=10_000)) == 108 + extra  # still, it now reads whole


def test_a_file_that_grows_while_it_is_loaded_is_refused_with_a_clear_message(home, monkeypatch):
    s = Session.new([SeatSpec("Ann", colour="red"), SeatSpec("Bob", colour="blue")], 3)
    path = P.save_game(s, P.saves_dir() / "g.json", "g")
    _growing(monkeypatch, path, b"\n" * 10)
    with pytest.raises(P.SaveError) as e:
        P.read_save(path)
    assert "changed while it was being read" in e.value.message


def test_three_damaged_files_moved_aside_in_one_second_keep_three_names(home, monkeypatch):
    """Gap 6: the clock stands still; each damaged autosave gets a name of its own."""
    frozen = datetime.datetime(2026, 5, 4, 12, 0, 0)
    monkeypatch.setattr(P, "_dt", SimpleNamespace(datetime=SimpleNamespace(now=lambda: frozen)))
    path = P.autosaves_dir() / "20260504-115959-abcdef.json"
    moved = []
    for i in range(3):
        path.write_text(f"damaged {i}")
        with pytest.raises(P.SaveError) as e:
            P.load_save(path)
        moved.append(e.value.moved_to)
    assert len(set(moved)) == 3 and all(m.name.startswith(path.name + ".damaged-20260504-120000") for m in moved)
    assert [m.read_text() for m in moved] == ["damaged 0", "damaged 1", "damaged 2"]
    assert not path.exists()


def test_a_save_of_the_next_format_is_refused_as_newer(home):
    s = Session.new([SeatSpec("Ann", colour="red"), SeatSpec("Bob", colour="blue")], 3)
    path = P.save_game(s, P.saves_dir() / "next.json", "n")
    d = json.loads(path.read_text())
    d["save_version"] = P.SAVE_VERSION + 1
    path.write_text(json.dumps(d))
    with pytest.raises(P.SaveError) as e:
        P.read_save(path)
    assert "newer version" in e.value.message and str(P.SAVE_VERSION + 1) in e.value.message


def test_stale_temporary_files_go_and_fresh_ones_stay(tmp_path):
    """A fresh ``.*.tmp`` is another write in progress: only old ones are removed."""
    old, fresh, other = tmp_path / ".a.json.x.tmp", tmp_path / ".b.json.y.tmp", tmp_path / "c.json"
    for p in (old, fresh, other):
        p.write_text("x")
    os.utime(old, (1, 1))
    assert P.clean_stale_temps(tmp_path) == 1
    assert not old.exists() and fresh.exists() and other.exists()
