"""The server's durable store without a server (issue 39), fast enough for the mutation run: the
acknowledgement log (``net/acklog.py``) and the action store's own checks (``net/storage.py``):
an action never stored after a gap, every stored action acknowledged, a damaged or deleted
acknowledgement read for what it is, and a database with one action fewer than acknowledged
refused at the start."""
from __future__ import annotations

import pytest

from gonzaga.net.acklog import ACKS_NAME, DELETED, AckLog, _line
from gonzaga.net.storage import StoredGame, StoreError, open_store

pytestmark = pytest.mark.rule("E-net")


def game_with(tmp_path, n: int, game_id: str = "g1"):
    store = open_store(tmp_path)
    store.create_game(StoredGame(game_id, "ABCDEF", {"seats": 2}, 1, []))
    for i in range(n):
        store.append_action(game_id, i, f"a{i}")
    return store


def test_every_stored_action_is_acknowledged_with_the_new_count(tmp_path):
    store = game_with(tmp_path, 3)
    try:
        assert AckLog(tmp_path / ACKS_NAME).read() == ({"g1": 3}, 0)
    finally:
        store.close()


def test_an_action_is_never_stored_after_a_gap_nor_twice(tmp_path):
    store = game_with(tmp_path, 1)
    try:
        for index in (0, 2, 5):
            with pytest.raises(StoreError, match="is not the next"):
                store.append_action("g1", index, "x")
        store.append_action("g1", 1, "a1")
        assert store.load_game("g1").actions == ["a0", "a1"]
        assert AckLog(tmp_path / ACKS_NAME).read() == ({"g1": 2}, 0)
    finally:
        store.close()


def test_a_damaged_line_is_counted_and_left_out(tmp_path):
    path = tmp_path / ACKS_NAME
    path.write_bytes(_line("g1", 2) + b"g1 7 deadbeef\n" + _line("g2", 1) + b"g2 9 nonsense\n")
    assert AckLog(path).read() == ({"g1": 2, "g2": 1}, 2)


def test_a_deleted_game_is_no_longer_expected(tmp_path):
    path = tmp_path / ACKS_NAME
    path.write_bytes(_line("g1", 4) + _line("g2", 1) + _line("g1", DELETED))
    assert AckLog(path).read() == ({"g2": 1}, 0)
    store = game_with(tmp_path / "data", 2)
    store.create_game(StoredGame("g2", "BCDEFG", {"seats": 2}, 1, []))
    store.delete_game("g2")
    store.close()
    store = open_store(tmp_path / "data")  # a deleted game is not a lost one
    try:
        assert not store.warnings and store.load_game("g2") is None
    finally:
        store.close()


@pytest.mark.parametrize("missing", [1, 3])
def test_a_database_with_fewer_actions_than_acknowledged_is_refused(tmp_path, missing):
    store = game_with(tmp_path, 3)
    store.close()
    with open(tmp_path / ACKS_NAME, "ab") as f:  # the players were told of more than the database holds
        f.write(_line("g1", 3 + missing))
    with pytest.raises(StoreError) as e:
        open_store(tmp_path)
    assert f"3 of {3 + missing} actions" in str(e.value) and "Nothing was changed" in str(e.value)
