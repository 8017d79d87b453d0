"""Save files: round trip, autosave, damaged files (moved aside, never deleted), examples in saves/."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from gonzaga.table import in_progress, persistence as P
from gonzaga.rules import legal_actions
from gonzaga.table.session import SeatSpec, Session

REPO_SAVES = Path(__file__).resolve().parent.parent / "saves"


@pytest.fixture(autouse=True)
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("GONZAGA_HOME", str(tmp_path / "home"))
    return tmp_path / "home"


def hotseat(seed=5, **kw):
    return Session.new([SeatSpec("Ann", "human", colour="red"), SeatSpec("Bob", "human", colour="blue")], seed, **kw)


def test_round_trip(tmp_path):
    s = hotseat()
    s.submit(legal_actions(s.state, 0)[0])
    s.submit(legal_actions(s.state, 1)[0])
    path = P.save_game(s, tmp_path / "g.json", "Tuesday")
    d = json.loads(path.read_text())
    assert d["save_version"] == P.SAVE_VERSION and d["record"]["summary"]["digest"]
    ls = P.load_save(path)
    assert ls.model.name == "Tuesday"
    assert ls.state.scores() == s.state.scores() and ls.state.phase == s.state.phase
    again = Session(ls.seats, ls.record)
    assert again.log_lines() == s.log_lines()
    assert [x.to_json() for x in again.seats] == [x.to_json() for x in s.seats]


def test_atomic_write_leaves_no_temp_files(tmp_path):
    P.atomic_write_text(tmp_path / "a.json", "{}")
    P.atomic_write_text(tmp_path / "a.json", "[1]")
    assert [p.name for p in tmp_path.iterdir()] == ["a.json"]
    assert (tmp_path / "a.json").read_text() == "[1]"


def test_autosave_after_each_action():
    auto = P.new_autosave_path()
    s = hotseat(on_change=lambda c: P.autosave(c, auto))
    seen = []
    for seat in (0, 1):
        s.submit(legal_actions(s.state, seat)[0])
        seen.append(len(P.read_save(auto).record.actions))
    assert seen == [2, 3]  # setup + each plan
    assert [g.path for g in in_progress.list_in_progress()[0]] == [auto]


def _bad_case(tmp_path, name, mutate):
    s = hotseat()
    s.submit(legal_actions(s.state, 0)[0])
    path = P.save_game(s, P.saves_dir() / name, "x")
    mutate(path)
    with pytest.raises(P.SaveError) as err:
        P.load_save(path)
    e = err.value
    assert not path.exists(), "the bad file is moved aside"
    assert e.moved_to is not None and e.moved_to.exists(), "never deleted"
    return e.message


def test_corrupt_file(tmp_path):
    msg = _bad_case(tmp_path, "c.json", lambda p: p.write_bytes(b"\x00\xffgarbage{{{"))
    assert "damaged" in msg


def test_truncated_file(tmp_path):
    msg = _bad_case(tmp_path, "t.json", lambda p: p.write_text(p.read_text()[:120]))
    assert "truncated" in msg


def test_newer_version(tmp_path):
    def newer(p):
        d = json.loads(p.read_text())
        d["save_version"] = 99
        p.write_text(json.dumps(d))
    msg = _bad_case(tmp_path, "n.json", newer)
    assert "newer version" in msg and "99" in msg


def test_hand_edited_field(tmp_path):
    def edit(p):
        d = json.loads(p.read_text())
        d["seats"][0]["kind"] = "wizard"
        p.write_text(json.dumps(d))
    msg = _bad_case(tmp_path, "h.json", edit)
    assert "edited by hand" in msg and "kind" in msg


def test_illegal_action_in_record(tmp_path):
    def illegal(p):
        d = json.loads(p.read_text())
        d["record"]["actions"].append("donate 0")  # placing before everybody planned
        p.write_text(json.dumps(d))
    msg = _bad_case(tmp_path, "i.json", illegal)
    assert "do not replay" in msg and "illegal" in msg


def test_summary_mismatch(tmp_path):
    def digest(p):
        d = json.loads(p.read_text())
        d["record"]["summary"]["digest"] = "0" * 16
        p.write_text(json.dumps(d))
    msg = _bad_case(tmp_path, "d.json", digest)
    assert "summary" in msg


def test_listing_reports_bad_files_and_goes_on():
    s = hotseat()
    P.save_game(s, P.named_save_path("good one"), "good one")
    (P.saves_dir() / "broken.json").write_text("{\"format\": \"gonzaga-save\", ")
    good, bad = P.list_saves()
    assert [g.name for g in good] == ["good one"]
    assert len(bad) == 1 and bad[0].moved_to.exists()
    good, bad = P.list_saves()  # the bad file is out of the way now
    assert len(good) == 1 and not bad


@pytest.mark.parametrize("path", sorted(REPO_SAVES.glob("*.json")), ids=lambda p: p.name)
def test_example_saves_load_and_replay(path):
    ls = P.read_save(path)  # read only: never move the repository's files
    d = json.loads(path.read_text())
    assert d["save_version"] <= P.SAVE_VERSION
    assert ls.state.round == d["record"]["summary"]["round"]
    assert list(ls.state.scores()) == d["record"]["summary"]["scores"]
    Session(ls.seats, ls.record)  # a session resumes from it


def test_example_saves_cover_every_format_version():
    versions = {json.loads(p.read_text())["save_version"] for p in REPO_SAVES.glob("*.json")}
    assert versions == set(range(1, P.SAVE_VERSION + 1))


def test_settings_bad_values_fall_back(home):
    P.save_settings(P.Settings(speed="fast", language="it"))
    assert P.load_settings().speed == "fast"
    P.settings_path().write_text(json.dumps({"speed": "warp", "language": "it", "unknown": 1}))
    s = P.load_settings()
    assert s.speed == "normal" and s.language == "it"
    P.settings_path().write_text("not json")
    assert P.load_settings() == P.Settings()


def test_save_from_another_board(tmp_path):
    def other(p):
        d = json.loads(p.read_text())
        assert d["record"]["map"]["digest"]
        d["record"]["map"]["digest"] = "0" * 12
        d["record"]["map"]["name"] = "Atlantis"
        p.write_text(json.dumps(d))
    msg = _bad_case(tmp_path, "m.json", other)
    assert "another version of the board" in msg


def test_save_from_an_earlier_edition_of_the_board_is_replayed_on_this_one(tmp_path):
    s = hotseat()
    s.submit(legal_actions(s.state, 0)[0])
    path = P.save_game(s, P.saves_dir() / "e.json", "x")
    d = json.loads(path.read_text())
    d["record"]["map"]["digest"] = "0" * 12  # same board name, an earlier digest
    path.write_text(json.dumps(d))
    ls = P.load_save(path)
    assert ls.record.map_id == ls.state.content.map_id  # saved again, it names this board
    assert len(ls.record.actions) == 2


def test_save_format_1_is_upgraded_not_refused(tmp_path):
    """D1: a version 1 save (old card numbering) loads and is written back as the current version."""
    s = hotseat()
    s.submit(legal_actions(s.state, 0)[0])
    path = P.save_game(s, P.saves_dir() / "old.json", "x")
    d = json.loads(path.read_text())
    d["save_version"] = 1
    d["record"]["version"] = 1
    del d["record"]["config"]["numbering"]
    path.write_text(json.dumps(d))
    ls = P.load_save(path)
    assert ls.record.config.numbering == "printed"  # no tie decided by the numbering
    again = P.save_game(Session(ls.seats, ls.record), P.saves_dir() / "again.json")
    d2 = json.loads(again.read_text())
    assert d2["save_version"] == P.SAVE_VERSION and d2["record"]["version"] == 2
