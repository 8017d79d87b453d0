"""Saves survive failures, and edited saves are refused: faults injected into the writes.

A save is written to a temporary file beside it and moved over it in one step, so a write
that fails (disk full, an I/O error, a failed rename) or a program killed in the middle leaves
the previous save as it was. A session rebuilt from a record does not autosave once per
replayed action. A save whose moves or seat colours were changed by hand is refused with the
message that says why.
"""
from __future__ import annotations

import errno
import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from gonzaga.table import persistence as P
from gonzaga.rules import Plan, Wedding, legal_actions, legal_weddings
from gonzaga.table.session import SeatSpec, Session
from gonzaga.words import i18n

pytestmark = pytest.mark.rule("E-save")

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(autouse=True)
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("GONZAGA_HOME", str(tmp_path / "home"))
    return tmp_path / "home"


def hotseat(seed=5, actions=1, **kw) -> Session:
    s = Session.new([SeatSpec("Ann", "human", colour="red"), SeatSpec("Bob", "human", colour="blue")], seed, **kw)
    for _ in range(actions):
        seat = s.state.to_act()[0]
        assert s.submit(legal_actions(s.state, seat)[0]) is None
    return s


def folder_listing(d: Path) -> list[str]:
    return sorted(p.name for p in d.iterdir())


# ---------------------------------------------------------------- faults

class _FailingFile:
    """A file object whose write puts half of the data down, then fails as a full disk does."""

    def __init__(self, f, trip):
        self._f = f
        self._trip = trip

    def write(self, data):
        if self._trip():
            self._f.write(data[: len(data) // 2])
            self._f.flush()
            raise OSError(errno.ENOSPC, "No space left on device")
        return self._f.write(data)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self._f.close()

    def __getattr__(self, name):
        return getattr(self._f, name)


def inject(monkeypatch, fault: str) -> list:
    """Make the next save fail at ``fault``; returns a list that records each time it fired."""
    fired: list = []

    def once() -> bool:
        if fired:
            return False
        fired.append(fault)
        return True

    if fault == "write":  # a full disk half-way through the data, whichever call writes it
        real_write, real_fdopen = os.write, os.fdopen

        def write(fd, data):
            if len(data) > 64 and once():
                real_write(fd, bytes(data[: len(data) // 2]))
                raise OSError(errno.ENOSPC, "No space left on device")
            return real_write(fd, data)

        monkeypatch.setattr(os, "write", write)
        monkeypatch.setattr(os, "fdopen", lambda *a, **k: _FailingFile(real_fdopen(*a, **k), once))
    elif fault in ("fsync", "interrupt"):  # an I/O error, or Ctrl-C, while the data is flushed
        def fsync(fd):
            if once():
                raise OSError(errno.EIO, "Input/output error") if fault == "fsync" else KeyboardInterrupt()
        monkeypatch.setattr(os, "fsync", fsync)
    elif fault == "replace":
        real_replace = os.replace

        def replace(src, dst, **k):
            if Path(dst).suffix == ".json" and once():
                raise OSError(errno.EXDEV, "Invalid cross-device link")
            return real_replace(src, dst, **k)
        monkeypatch.setattr(os, "replace", replace)
    return fired


@pytest.mark.parametrize("fault", ["write", "fsync", "replace", "interrupt"])
def test_a_write_that_fails_midway_leaves_the_previous_save_intact(monkeypatch, fault):
    old = hotseat(actions=1)
    path = P.save_game(old, P.saves_dir() / "game.json", "x")
    before = path.read_bytes()
    new = hotseat(actions=3)
    with monkeypatch.context() as m:
        fired = inject(m, fault)
        with pytest.raises(KeyboardInterrupt if fault == "interrupt" else OSError):
            P.save_game(new, path, "x")
    assert fired == [fault], "the fault was injected"
    assert path.read_bytes() == before, "the previous save is untouched"
    assert folder_listing(path.parent) == ["game.json"], "no partial or temporary file is left"
    assert len(P.load_save(path).record.actions) == 2
    P.save_game(new, path, "x")  # the next try, without the fault, writes the new game
    assert len(P.load_save(path).record.actions) == 4


def test_the_new_save_appears_in_one_step(monkeypatch):
    """When the target changes, the whole new save is already written in a file beside it."""
    old = hotseat(actions=1)
    path = P.save_game(old, P.saves_dir() / "game.json", "x")
    before = path.read_bytes()
    new = hotseat(actions=3)
    seen = []
    real_replace = os.replace

    def replace(src, dst, **k):
        if Path(dst) == path:
            seen.append((Path(src).parent == path.parent, path.read_bytes() == before,
                         len(json.loads(Path(src).read_text())["record"]["actions"])))
        return real_replace(src, dst, **k)

    monkeypatch.setattr(os, "replace", replace)
    P.save_game(new, path, "x")
    assert seen == [(True, True, 4)]


def test_autosave_failing_midway_keeps_the_last_autosave_and_the_game_goes_on(monkeypatch):
    auto = P.new_autosave_path()
    s = hotseat(actions=0, on_change=lambda c: P.autosave(c, auto))
    seat = s.state.to_act()[0]
    s.submit(legal_actions(s.state, seat)[0])
    before = auto.read_bytes()
    with monkeypatch.context() as m:
        fired = inject(m, "write")
        seat = s.state.to_act()[0]
        assert s.submit(legal_actions(s.state, seat)[0]) is None  # the game is not stopped
    assert fired
    assert auto.read_bytes() == before
    assert len(P.read_save(auto).record.actions) == 2
    seat = s.state.to_act()[0]
    s.submit(legal_actions(s.state, seat)[0])
    assert len(P.read_save(auto).record.actions) == len(s.record.actions)


def test_a_program_killed_before_the_rename_leaves_the_previous_save(home, tmp_path):
    """A real crash: the child process dies (``os._exit``) between writing and renaming."""
    child = textwrap.dedent("""
        import os, sys
        from gonzaga.table import persistence as P
        from gonzaga.rules import legal_actions
        from gonzaga.table.session import SeatSpec, Session
        s = Session.new([SeatSpec("Ann", "human", colour="red"), SeatSpec("Bob", "human", colour="blue")], 5)
        P.save_game(s, P.saves_dir() / "game.json", "x")
        s.submit(legal_actions(s.state, 0)[0])
        os.replace = lambda *a, **k: os._exit(3)
        P.save_game(s, P.saves_dir() / "game.json", "x")
        sys.exit(0)
    """)
    env = {**os.environ, "GONZAGA_HOME": str(home), "PYTHONPATH": str(ROOT)}
    r = subprocess.run([sys.executable, "-c", child], env=env, cwd=tmp_path, capture_output=True, text=True,
                       timeout=120)
    assert r.returncode == 3, r.stderr
    path = P.saves_dir() / "game.json"
    ls = P.load_save(path)
    assert len(ls.record.actions) == 1  # the save before the crash
    good, bad = P.list_saves()
    assert [g.path.name for g in good] == ["game.json"] and not bad  # a leftover temp file is no save


# ---------------------------------------------------------------- rebuilding a session

def test_a_session_rebuilt_from_a_record_does_not_autosave_per_replayed_action(monkeypatch):
    s = hotseat(actions=5)
    writes = []
    real = P.atomic_write_text
    monkeypatch.setattr(P, "atomic_write_text", lambda path, text: (writes.append(path), real(path, text)))
    auto = P.new_autosave_path()
    again = Session(s.seats, s.record, on_change=lambda c: P.autosave(c, auto))
    assert writes == [] and not auto.exists()
    assert len(again.record.actions) == 6
    seat = again.state.to_act()[0]
    again.submit(legal_actions(again.state, seat)[0])
    assert writes == [auto]


# ---------------------------------------------------------------- edited saves

def _refused(path: Path) -> str:
    with pytest.raises(P.SaveError) as err:
        P.load_save(path)
    assert not path.exists() and err.value.moved_to is not None and err.value.moved_to.exists()
    return err.value.message


def _edit(path: Path, change) -> None:
    d = json.loads(path.read_text())
    change(d)
    path.write_text(json.dumps(d))


@pytest.mark.parametrize("colours", [("blue", "red"), ("green", "blue"), ("red", "yellow")])
def test_a_save_whose_seat_colours_were_edited_is_refused(colours):
    path = P.save_game(hotseat(actions=2), P.saves_dir() / "c.json", "x")

    def change(d):
        for seat, colour in zip(d["seats"], colours):
            seat["colour"] = colour
    _edit(path, change)
    msg = _refused(path)
    assert "colours" in msg and msg.startswith(i18n.t("save.invalid", detail="\0").split("\0")[0])


def wedding_session(seed=3) -> tuple[Session, Wedding]:
    """A hot-seat game in which both seats plan Alliance; the first to act weds one ring."""
    s = hotseat(seed=seed, actions=0)
    for seat in (0, 1):
        region = s.state.region_cards()[seat]
        assert s.submit(Plan(seat, region, "C")) is None
    seat = s.state.to_act()[0]
    w = next(w for w in legal_weddings(s.state, seat) if len(w.rings) == 1)
    assert s.submit(w) is None
    return s, w


def test_a_save_whose_ring_was_moved_to_another_legal_hex_is_refused():
    s, w = wedding_session()
    path = P.save_game(s, P.saves_dir() / "r.json", "x")
    assert P.read_save(path).state.seats[w.seat].ring_mask == s.state.seats[w.seat].ring_mask
    # the ring moved to another hex where a ring may go: the moves replay, the summary does not match
    alt = next(x for x in legal_weddings(_before_wedding(s), w.seat) if len(x.rings) == 1 and x.rings != w.rings)
    _edit(path, lambda d: d["record"]["actions"].__setitem__(-1, alt.to_text()))
    assert _refused(path) == i18n.t("save.digest")


def test_a_save_whose_ring_was_moved_where_no_ring_may_go_is_refused():
    s, w = wedding_session()
    path = P.save_game(s, P.saves_dir() / "r.json", "x")
    _edit(path, lambda d: d["record"]["actions"].__setitem__(-1, f"wed {w.seat} 999,999"))
    msg = _refused(path)
    assert msg.startswith(i18n.t("save.replay", detail="\0").split("\0")[0]), msg


def test_a_save_with_a_ring_added_without_its_summary_is_refused_when_illegal():
    """Without a summary to compare, the replay still checks every move: two rings on one hex."""
    s, w = wedding_session()
    path = P.save_game(s, P.saves_dir() / "r.json", "x")

    def change(d):
        del d["record"]["summary"]
        d["record"]["actions"][-1] = f"wed {w.seat} {w.rings[0][0]},{w.rings[0][1]} {w.rings[0][0]},{w.rings[0][1]}"
    _edit(path, change)
    msg = _refused(path)
    assert msg.startswith(i18n.t("save.replay", detail="\0").split("\0")[0]), msg


def _before_wedding(s: Session):
    from gonzaga.rules import GameRecord, replay
    rec = GameRecord(s.record.config, s.record.seed, list(s.record.actions[:-1]))
    return replay(rec, s.state.content)
