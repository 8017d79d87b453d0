"""One test suite for every GameStore (issue 47): SQLite (the embedded default) and PostgreSQL
(a real server started by the suite, tests/pg_server.py), held to the same promises: every
method, a refused action writes nothing, two connections racing for one index (exactly one wins),
a store opened again sees everything, unicode in every text."""
import threading

import pytest

from gonzaga.net.storage import SQLiteStore, StoredGame, StoreError

BACKENDS = ["sqlite", "postgres"]


@pytest.fixture(params=BACKENDS)
def opener(request, tmp_path):
    """``opener()`` opens one more store (its own connection) on the same database; every store
    opened is closed at the end."""
    opened = []
    if request.param == "sqlite":
        def make():
            return SQLiteStore(tmp_path / "gonzaga-server.sqlite3")
    else:
        url, password = request.getfixturevalue("pg_database")
        from gonzaga.net.store_pg import PostgresStore  # psycopg only for the PostgreSQL half

        def make():
            return PostgresStore(url, password=password)

    def open_one():
        store = make()
        opened.append(store)
        return store
    yield open_one
    for s in opened:
        s.close()


@pytest.fixture
def store(opener):
    return opener()


def game(gid="g1", code="ABCDEF", **kw):
    seats = kw.pop("seats", [
        {"name": "Isabella d'Este", "kind": "human", "colour": "red", "bot": None, "token_hash": "a" * 64},
        {"name": "Федерико 贡扎加 🦁", "kind": "ai", "colour": "blue", "bot": "steady", "token_hash": None},
        {"name": "", "kind": "open", "colour": "green", "bot": None, "token_hash": None},
    ])
    config = kw.pop("config", {"seats": 3, "map": "mantua", "online": {"pace": "live", "timer": None},
                               "names": ["Zoë", "Łucja"], "weights": [0.5, 1.25]})
    return StoredGame(gid, code, config, kw.pop("seed", 2**62 + 7), seats, **kw)


def test_a_game_comes_back_as_it_was_stored(store):
    g = game(host_seat=2)
    store.create_game(g)
    got = store.load_game("g1")
    assert got == StoredGame("g1", "ABCDEF", g.config, 2**62 + 7, g.seats, 2, False, False, [])
    assert store.load_game("nope") is None
    assert store.load_games() == [got]


def test_a_new_game_is_stored_without_its_actions(store):
    store.create_game(game(actions=["ignored"]))
    assert store.load_game("g1").actions == []
    store.append_action("g1", 0, "first")  # index 0 is the next: nothing was stored from the list
    assert store.load_game("g1").actions == ["first"]


def test_seats_started_and_finished_are_stored(store):
    store.create_game(game())
    seats = [{"name": "Bea", "kind": "human", "colour": "red", "bot": None, "token_hash": "b" * 64}]
    store.replace_seats("g1", seats)
    store.set_started("g1")
    got = store.load_game("g1")
    assert (got.seats, got.started, got.finished) == (seats, True, False)
    store.set_finished("g1")
    assert store.load_game("g1").finished is True


@pytest.mark.parametrize("call", ["replace_seats", "set_started", "set_finished"])
def test_changing_a_game_that_is_not_there_is_refused(store, call):
    args = ([],) if call == "replace_seats" else ()
    with pytest.raises(StoreError, match="no game 'ghost'"):
        getattr(store, call)("ghost", *args)


def test_the_actions_come_back_in_order_with_every_character(store):
    store.create_game(game())
    texts = [f"place {i} fief-{i}" for i in range(40)] + ["chat «Ciao, 贡扎加» 🦁\ttab", "x" * 5000]
    for i, t in enumerate(texts):
        store.append_action("g1", i, t)
    assert store.load_game("g1").actions == texts


@pytest.mark.parametrize("index", [0, 1, 3, 5, -1])
def test_only_the_next_index_is_stored_and_a_refusal_writes_nothing(store, index):
    store.create_game(game())
    store.append_action("g1", 0, "a")
    store.append_action("g1", 1, "b")
    with pytest.raises(StoreError, match="has 2 actions stored: action -?[0-9]+ is not the next"):
        store.append_action("g1", index, "intruder")
    assert store.load_game("g1").actions == ["a", "b"]
    store.append_action("g1", 2, "c")  # the store goes on after a refusal
    assert store.load_game("g1").actions == ["a", "b", "c"]


def test_an_action_of_a_game_that_is_not_there_is_refused(store):
    with pytest.raises(StoreError, match="no game 'ghost'"):
        store.append_action("ghost", 0, "a")
    assert store.load_games() == []


def test_a_second_game_with_the_same_id_or_code_is_refused(store):
    store.create_game(game())
    with pytest.raises(StoreError):
        store.create_game(game(code="OTHER1"))
    with pytest.raises(StoreError):
        store.create_game(game(gid="g2"))
    assert [g.id for g in store.load_games()] == ["g1"]


def test_invite_codes_taken_and_freed_by_a_deletion(store):
    assert not store.code_taken("ABCDEF")
    store.create_game(game())
    store.append_action("g1", 0, "a")
    assert store.code_taken("ABCDEF") and not store.code_taken("ABCDEG")
    store.delete_game("g1")
    assert store.load_game("g1") is None and not store.code_taken("ABCDEF")
    store.create_game(game())  # the id and the code can be used again, with no action left over
    assert store.load_game("g1").actions == []
    store.delete_game("never-was")  # forgetting a game that is not there is no error


def test_games_load_in_the_order_they_were_created_and_the_finished_can_be_left_out(store):
    for i, gid in enumerate(["zeta", "alpha", "mid"]):
        store.create_game(game(gid, f"CODE0{i}"))
    store.set_finished("alpha")
    assert [g.id for g in store.load_games()] == ["zeta", "alpha", "mid"]
    assert [g.id for g in store.load_games(finished=False)] == ["zeta", "mid"]
    store.append_action("mid", 0, "m0")
    store.append_action("zeta", 0, "z0")
    assert {g.id: g.actions for g in store.load_games(finished=False)} == {"zeta": ["z0"], "mid": ["m0"]}


def test_a_store_opened_again_after_close_sees_everything(opener):
    first = opener()
    first.create_game(game())
    first.set_started("g1")
    for i in range(3):
        first.append_action("g1", i, f"a{i}")
    before = first.load_games()
    first.close()
    again = opener()
    assert again.load_games() == before
    again.append_action("g1", 3, "a3")  # and carries on where the first left off
    assert again.load_game("g1").actions == ["a0", "a1", "a2", "a3"]


def test_a_closed_store_answers_with_a_store_error(opener):
    s = opener()
    s.create_game(game())
    s.close()
    with pytest.raises(StoreError):
        s.append_action("g1", 0, "late")
    with pytest.raises(StoreError):
        s.load_games()


def test_what_one_connection_commits_the_other_reads_at_once(opener):
    a, b = opener(), opener()
    a.create_game(game())
    a.append_action("g1", 0, "from a")
    assert b.load_game("g1").actions == ["from a"]
    b.append_action("g1", 1, "from b")
    assert a.load_game("g1").actions == ["from a", "from b"]


ROUNDS = 25


def test_two_connections_racing_for_the_same_index_exactly_one_wins(opener):
    """Two stores (two connections; for PostgreSQL they could be two processes) write every index
    at the same moment: each index is won by exactly one, the other is refused, and the game's
    record has no gap and no double."""
    stores = [opener(), opener()]
    stores[0].create_game(game())
    barrier = threading.Barrier(2)
    won: list[list[int]] = [[], []]
    refused: list[list[int]] = [[], []]
    errors: list[BaseException] = []

    def writer(k: int) -> None:
        try:
            for i in range(ROUNDS):
                barrier.wait(timeout=30)
                try:
                    stores[k].append_action("g1", i, f"{i} by {k}")
                    won[k].append(i)
                except StoreError as e:
                    assert "is not the next" in str(e), e
                    refused[k].append(i)
        except BaseException as e:  # reported below, in the test's thread
            errors.append(e)
            barrier.abort()

    threads = [threading.Thread(target=writer, args=(k,)) for k in (0, 1)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    assert not errors, errors
    assert sorted(won[0] + won[1]) == list(range(ROUNDS))  # every index won once...
    assert sorted(refused[0] + refused[1]) == list(range(ROUNDS))  # ...and refused once
    actions = stores[1].load_game("g1").actions
    assert [int(a.split()[0]) for a in actions] == list(range(ROUNDS))
    assert all(a == f"{i} by {0 if i in won[0] else 1}" for i, a in enumerate(actions))


def test_a_batch_stores_each_good_action_and_refuses_exactly_the_others(store):
    """``append_actions`` (grouped commits, issue 47): several games in one call, in order; an
    index that is not its game's next, and an action of a game that is not there, are refused
    alone (with a StoreError each), the rest stored."""
    store.create_game(game("g1", "AAAAAA"))
    store.create_game(game("g2", "BBBBBB"))
    store.append_action("g2", 0, "b0")
    got = store.append_actions([("g1", 0, "a0"), ("g2", 1, "b1"), ("g1", 1, "a1"), ("g2", 5, "b5"),
                                ("nope", 0, "x"), ("g1", 2, "a2")])
    assert [e is None for e in got] == [True, True, True, False, False, True]
    assert all(isinstance(e, StoreError) for e in got if e is not None)
    assert store.load_game("g1").actions == ["a0", "a1", "a2"]
    assert store.load_game("g2").actions == ["b0", "b1"]
    assert store.append_actions([]) == []


# ---------------------------------------------------------------- t47turn: the turn rows and My games' index

def test_turn_rows_and_my_games_index_on_every_store(opener):
    from gonzaga.net.turn_index import TurnRow, index_of
    store = opener()
    for gid, code in (("g1", "ABCDEF"), ("g2", "GHJKLM"), ("g3", "NPQRST")):
        store.create_game(game(gid, code))
    ix = index_of(store)
    assert ix is not None and ix.get("g1") is None
    ix.put(TurnRow("g1", "turn", 24, 3, 5, 2, {0: 2000.5, 2: 1000.25}, (1, 0, 2)))
    ix.put(TurnRow("g2", "turn", 12, 2, 9, 4, {1: 500.0}, (0, 0, 0)))
    ix.put(TurnRow("g3", "live", finished_at=3000.0))
    ix.put(TurnRow("g2", "turn", 12, 2, 10, 4, {1: 900.0}, (0, 1, 0)))  # written again: the latest counts
    assert ix.get("g1") == TurnRow("g1", "turn", 24, 3, 5, 2, {0: 2000.5, 2: 1000.25}, (1, 0, 2))
    assert ix.get("g2").n == 10 and ix.get("g2").deadlines == {1: 900.0}
    assert ix.due(950.0) == ["g2"] and ix.due(1500.0) == ["g2", "g1"] and ix.due(100.0) == []
    store.set_finished("g3")
    for account, gid, seat in ((7, "g1", 0), (7, "g1", 0), (7, "g3", 2), (8, "g2", 1), (7, "g2", 0)):
        ix.add_seat(account, gid, seat)  # the second (7, g1, 0) is nothing
    assert [(r.game_id, r.seat) for r in ix.mine(7, 0.0)] == [("g1", 0), ("g2", 0), ("g3", 2)]
    assert [r.game_id for r in ix.mine(7, 3000.5)] == ["g1", "g2"]  # g3 finished before that
    assert [r.game_id for r in ix.mine(8, 0.0)] == ["g2"] and ix.mine(9, 0.0) == []
    mine = ix.mine(7, 0.0)[0]
    assert mine.code == "ABCDEF" and mine.seats[1]["name"] == "Федерико 贡扎加 🦁" and mine.turn.missed == (1, 0, 2)
    assert ix.seats_of(7, "g1") == [0] and ix.seats_of(8, "g1") == []
    store.delete_game("g1")  # an expired lobby: its rows go with it
    assert ix.get("g1") is None and [r.game_id for r in ix.mine(7, 0.0)] == ["g2", "g3"]
