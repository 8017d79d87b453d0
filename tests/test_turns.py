"""Issue 47, turn-based games and My games, against a real server in this process (t47turn):
seats must be accounts'; each decision has its time (on the clock the server takes, moved on by
the test); a move out of time is the AI's and counts as missed, a player's own move forgets the
misses, and at the limit the seat is the AI's for good; the deadlines outlive a restart; My games
lists the account's games (its turn first) and never another account's."""
from __future__ import annotations

import json
import sqlite3

import pytest

from gonzaga.net import turns
from gonzaga.net.storage import DB_NAME

from test_net_server import Client, HOST, seat
from turn_helpers import (HOUR, _server, account, caught_up, my_games, play_until, registers, row_of, srv,  # noqa: F401
                          turn_game, wait_for, wall)

pytestmark = pytest.mark.rule("E-net")


# ---------------------------------------------------------------- creating and joining

def test_a_turn_based_game_refuses_seats_without_an_account(srv):
    guest = Client(srv.url)
    guest.send(type="create", name="Gus", seats=[HOST, seat("open", "blue")], pace="turn", move_hours=24)
    m = guest.error("account_needed")
    assert m["key"] == "turns.account_needed"
    guest.send(type="create", name="Gus", seats=[HOST, seat("open", "blue")], pace="turn", move_hours=0)
    assert guest.error("bad_message")["key"] in ("turns.move_hours", "net.bad_message")
    ann = account(srv.url, "Ann")
    ann.send(type="create", name="Ann", seats=[HOST, seat("open", "blue")], pace="turn", move_hours=24)
    ann.expect("joined")
    guest.send(type="join", code=ann.code, name="Gus")  # a guest without an account may not take the seat
    assert guest.error("account_needed")["key"] == "turns.account_needed"
    bea = account(srv.url, "Bea")
    bea.send(type="join", code=ann.code, name="Bea")
    assert bea.expect("joined")["seat"] == 1
    live = Client(srv.url)  # a live game without accounts, as before
    live.send(type="create", name="Gus", seats=[HOST, seat("open", "blue")])
    live.expect("joined")


# ---------------------------------------------------------------- the clocks

def test_a_move_out_of_time_is_the_ais_and_counts_as_missed_and_a_players_move_forgets_it(srv, wall):
    ann, bea = turn_game(srv.url, hours=12, limit=3)
    listing = my_games(bea)
    r = row_of(listing, bea.game)
    assert r["your_turn"] and r["pace"] == "turn" and r["missed"] == 0
    assert 12 * HOUR - 60 <= r["left"] <= 12 * HOUR
    ann.act(ann.my_actions()[0])  # Ann plans in time; Bea does not
    wait_for(lambda: srv.server.rooms[ann.game].n == 2, what="Ann's plan")
    wall.skip(12 * HOUR + 5)
    wait_for(lambda: srv.server.rooms[ann.game].n >= 3, what="the AI's plan for Bea")
    room = srv.server.rooms[ann.game]
    assert room.seats[1].kind == "human"  # one missed move: still Bea's seat
    assert 2 in room.timed  # the move the computer made for her is marked, for the log
    assert row_of(my_games(bea), bea.game)["missed"] == 1
    assert row_of(my_games(ann), ann.game)["missed"] == 0
    # the place phase: whoever is due gets a full time again; Bea moves herself when it is hers
    play_until(room, ann, 1)
    caught_up(bea, room)
    bea.act(bea.my_actions()[0])
    wait_for(lambda: turns_missed(srv, bea.game, 1) == 0, what="Bea's own move")
    assert row_of(my_games(bea), bea.game)["missed"] == 0


def turns_missed(srv, game: str, seat_no: int) -> int:
    return srv.server.turns.paces[game].missed[seat_no]


def test_at_the_missed_limit_the_seat_is_the_ais_for_good_and_everyone_is_told(srv, wall):
    ann, bea = turn_game(srv.url, hours=24, limit=2)
    ann.act(ann.my_actions()[0])
    room = srv.server.rooms[ann.game]
    wait_for(lambda: room.n == 2)
    wall.skip(24 * HOUR + 5)  # Bea's first miss
    wait_for(lambda: room.n >= 3, what="the AI's plan for Bea")
    assert room.seats[1].kind == "human" and turns_missed(srv, bea.game, 1) == 1
    play_until(room, ann, 1)
    assert 1 in room.state.to_act()
    wall.skip(24 * HOUR + 5)  # the second miss in a row: the limit
    wait_for(lambda: room.seats[1].kind == "ai", what="the hand-over")
    s = room.seats[1]
    assert s.resigned and s.player == "Bea"  # the table's resignation: it cannot be taken back
    news = []
    wait_for(lambda: any(m["line"][1] == "log.seat_missed_out" for m in _drain(ann, news)), what="the news")
    bea.send(type="resume", game=bea.game, token=bea.token)  # Bea comes back: the seat stays the AI's
    bea.expect("joined", skip=("lobby", "pong", "update", "history", "said"))
    bea.settle(0.3)
    assert room.seats[1].kind == "ai"


def _drain(c: Client, into: list) -> list:
    while (m := c.poll(0.05)) is not None:
        if m["type"] == "news":
            into.append(m)
    return into


def test_a_turn_based_game_keeps_its_deadline_across_a_restart(tmp_path, wall):
    data = tmp_path / "data"
    t = _server(data)
    ann, bea = turn_game(t.url, hours=72)
    game = ann.game
    before = row_of(my_games(ann), game)["left"]
    session = ann.session
    ann.close()
    bea.close()
    t.stop()
    db = sqlite3.connect(data / DB_NAME)
    (deadlines,) = db.execute("SELECT deadlines FROM game_turns WHERE game_id = ?", (game,)).fetchone()
    db.close()
    assert set(json.loads(deadlines)) == {"0", "1"}  # both seats plan: each its deadline, absolute
    wall.skip(2 * HOUR)
    t = _server(data)
    try:
        ann = account(t.url, "Ann", session)
        after = row_of(my_games(ann), game)["left"]
        assert before - 2 * HOUR - 30 <= after <= before - 2 * HOUR + 1  # the same deadline, two hours nearer
        wall.skip(70 * HOUR + 5)  # past it: the AI plans for both
        wait_for(lambda: t.server.rooms[game].n >= 3, what="the AI's plans after the restart")
    finally:
        t.stop()


# ---------------------------------------------------------------- out of memory, and My games

def test_an_idle_turn_based_game_leaves_memory_and_comes_back_when_its_time_runs_out_or_a_player_opens_it(srv, wall):
    ann, bea = turn_game(srv.url, hours=12)
    game = ann.game
    ann.close()
    bea.close()
    room = srv.server.rooms[game]
    wait_for(lambda: all(s.conn is None for s in room.seats), what="the disconnections")
    assert [i.grace_left for i in room.seat_infos()] == [None, None]  # no grace period: nothing to hand over
    wall.skip(turns.TURN_IDLE + 5)
    wait_for(lambda: game not in srv.server.rooms, what="the release")
    ann2 = account(srv.url, "Ann", ann.session)
    r = row_of(my_games(ann2), game)  # from the index, not loaded
    assert r["your_turn"] and game not in srv.server.rooms
    ann2.send(type="open_game", game=game)  # another computer without the token: a new one
    j = ann2.expect("joined", skip=("lobby", "pong", "update", "history"))
    assert j["seat"] == 0 and j["token"] != ann.token and game in srv.server.rooms
    old = Client(srv.url)  # the old token acts no more
    old.send(type="whoami", session=ann.session)
    old.expect("account")
    old.send(type="resume", game=game, token=ann.token)
    assert old.error("bad_token")
    ann2.close()
    old.close()
    wall.skip(turns.TURN_IDLE + 5)
    wait_for(lambda: game not in srv.server.rooms, what="the second release")
    wall.skip(12 * HOUR)
    wait_for(lambda: game in srv.server.rooms and srv.server.rooms[game].n >= 3, timeout=60,
             what="the reload when the time ran out")


def test_my_games_puts_your_turn_first_and_never_lists_another_accounts_game(srv):
    carl, bea = turn_game(srv.url, names=("Carl", "Bea"))  # first: its deadlines are the nearest
    bea.act(bea.my_actions()[0])  # Bea has planned: Carl's turn
    wait_for(lambda: srv.server.rooms[carl.game].n == 2)
    mine = account(srv.url, "Bea", bea.session)  # Bea's second game, against Eve: both plan, Bea's turn
    mine.send(type="create", name="Bea", seats=[HOST, seat("open", "blue")], seed=3, pace="turn", move_hours=12)
    mine.expect("joined")
    eve = account(srv.url, "Eve")
    eve.send(type="join", code=mine.code, name="Eve")
    eve.expect("joined")
    mine.send(type="start", token=mine.token)
    mine.expect("update")
    lobby = account(srv.url, "Bea", bea.session)  # Bea's third: a live lobby
    lobby.send(type="create", name="Bea", seats=[HOST, seat("open", "green")])
    lobby.expect("joined")
    other = account(srv.url, "Dora")  # Dora's lobby: never Bea's
    other.send(type="create", name="Dora", seats=[HOST, seat("open", "green")])
    other.expect("joined")
    listing = my_games(bea)
    assert [(r["game"], r["your_turn"], r["started"]) for r in listing["games"]] == \
        [(mine.game, True, True), (carl.game, False, True), (lobby.game, False, False)]
    first, second = listing["games"][:2]
    assert first["left"] > second["left"]  # your turn first, though Carl's deadline is nearer
    assert first["players"] == ["Bea", "Eve"] and second["players"] == ["Carl", "Bea"] and second["to_act"] == [0]
    assert listing["games"][2]["pace"] == "live"
    assert [r["game"] for r in my_games(carl)["games"]] == [carl.game]
    assert other.game not in {r["game"] for r in listing["games"]}
    dora = other
    nobody = Client(srv.url)
    nobody.send(type="my_games")
    assert nobody.error("bad_session")["key"] == "accounts.not_signed_in"
    dora.send(type="open_game", game=carl.game)  # Dora holds no seat there
    assert dora.error("unknown_game")


def test_chat_spectators_resign_and_rematch_keep_working_in_a_turn_based_game(srv):
    ann, bea = turn_game(srv.url, hours=24)
    watcher = Client(srv.url)
    watcher.send(type="watch", code=ann.code)
    assert watcher.expect("watching", skip=("lobby", "pong", "update", "history"))["game"] == ann.game
    bea.send(type="chat", token=bea.token, text="buongiorno")
    said = ann.expect("said", skip=("lobby", "pong", "update", "history"))
    assert (said["name"], said["text"]) == ("Bea", "buongiorno")
    ann.send(type="resign", token=ann.token)
    bea.send(type="resign", token=bea.token)  # both: the AI plays both seats to the end
    room = srv.server.rooms[ann.game]
    wait_for(lambda: room.finished, timeout=120, what="the game's end")
    finished = row_of(my_games(ann), ann.game)
    assert finished["finished"] and not finished["your_turn"] and finished["left"] is None
    ann.send(type="rematch", token=ann.token)
    bea.send(type="rematch", token=bea.token)
    j = ann.expect("joined", timeout=30, skip=("lobby", "pong", "update", "history", "said", "news", "clocks"))
    new = srv.server.rooms[j["game"]]
    assert (new.pace, new.move_hours, new.missed_limit) == ("turn", 24, 3)
    assert [r["game"] for r in my_games(ann)["games"]][:1] == [j["game"]]  # the new game, your turn, first


def test_a_turn_based_game_s_row_is_written_off_the_event_loop(srv, monkeypatch):
    """The turn index's row after a move is written on the store's writer thread, after the move:
    while that write is held up, the server still answers everyone (here a ping)."""
    import threading
    ann, bea = turn_game(srv.url, hours=12, limit=3)
    index = srv.server.turns.index
    entered, gate = threading.Event(), threading.Event()
    real = index.db.write

    def slow(what, statements):
        if what == "store a game's turn":
            entered.set()
            gate.wait(20)
        return real(what, statements)
    monkeypatch.setattr(index.db, "write", slow)
    try:
        ann.act(ann.my_actions()[0])
        assert entered.wait(10), "the row was not written"
        other = Client(srv.url)
        other.send(type="ping")
        assert other.expect("pong", timeout=5)["type"] == "pong"  # the loop is not waiting for the row
        other.close()
    finally:
        gate.set()
    wait_for(lambda: index.get(ann.game) is not None and index.get(ann.game).n == srv.server.rooms[ann.game].n,
             what="the row of the move")


def test_a_turn_based_game_out_of_memory_can_be_watched_by_its_code(srv, wall):
    """Nobody has the game open, so it left memory: a spectator's ``watch`` with its invite code
    reads it from the store (it used to answer "unknown game" until a player opened it); a
    wrong code still gets the one answer of a wrong code."""
    ann, bea = turn_game(srv.url, hours=12)
    game, code = ann.game, ann.code
    ann.act(ann.my_actions()[0])
    wait_for(lambda: srv.server.rooms[game].n == 2, what="Ann's plan")
    ann.close()
    bea.close()
    wall.skip(turns.TURN_IDLE + 5)
    wait_for(lambda: game not in srv.server.rooms, what="the release")
    watcher = Client(srv.url)
    watcher.send(type="watch", code=code)
    assert watcher.expect("watching")["game"] == game
    u = watcher.expect("update", skip=("lobby", "pong", "history", "news", "clocks"))
    assert u["n"] == 2 and u["seat"] is None
    watcher.close()
    other = Client(srv.url)
    other.send(type="watch", code="ZZZZZZ")
    assert other.error("unknown_game")["key"] == "net.no_waiting_game"
    other.close()


def test_a_rated_game_that_ends_with_nobody_connected_after_a_reload_is_rated(srv, wall):
    """Ann and Bea (accounts) leave a turn-based game; it leaves memory, comes back when a time
    runs out, their missed moves make both seats the AI's for good and it ends with nobody
    connected: it is rated all the same (it used to be watched only once a signed-in player
    held a seat in this run)."""
    ann, bea = turn_game(srv.url, hours=1, limit=1)
    game = ann.game
    ann.close()
    bea.close()
    wall.skip(turns.TURN_IDLE + 5)
    wait_for(lambda: game not in srv.server.rooms, what="the release")
    wall.skip(HOUR + 5)
    wait_for(lambda: game in srv.server.rooms, timeout=60, what="the reload when the time ran out")
    room = srv.server.rooms[game]
    wait_for(lambda: room.table.is_over, timeout=120, what="the end, every seat the AI's")
    store = srv.server.accounts.store
    wait_for(lambda: all((s := store.standing(store.by_name(n).id)) is not None and s.games == 1
                         for n in ("Ann", "Bea")), what="the ratings")
