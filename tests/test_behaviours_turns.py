"""Issue 51, the ratings', turn-based games' and My games' behaviours that tests of single lines
missed, each checked against an answer worked out by hand from the promise of the modules'
docstrings (net/ratings.py, net/turns.py, net/mygames_poll.py) and docs/server.md:

- a finished game's places: points, then sites held (X6); a seat that resigned below every seat
  that did not, whatever its points;
- a rating is provisional for its first ten rated games, not the tenth one after them;
- the watch of My games tells a game that became your turn once: not again after its server
  failed to answer one round, and never the game on the screen;
- My games lists a finished game for seven days (``RECENT_DAYS``), not seven hours;
- a host's hand-over refused in a turn-based game names the missed-move limit it waits for.
"""
from __future__ import annotations

import random

import pytest

from gonzaga.net import protocol as P
from gonzaga.net import turns, upkeep
from gonzaga.net import ratings as R
from gonzaga.net.accounts import PROVISIONAL_GAMES
from gonzaga.net.mygames_poll import EVERY, ServerGames, TurnWatch
from gonzaga.net.serve import ServerThread
from gonzaga.net.turn_index import TurnRow
from gonzaga.rules import GameConfig, apply, deal, new_game
from gonzaga.rules.playout import random_playout
from gonzaga.rules.scoring import sites_held

from online_helpers import Player, on_loop, seed_accounts
from turn_helpers import _server, registers, turn_game  # noqa: F401 (registers: an autouse fixture)

pytestmark = pytest.mark.rule("E-net")


# ---------------------------------------------------------------- the places of a rated game

@pytest.fixture(scope="module")
def tied_game():
    """A three-seat game played to its end at random (seed 3): seats 0 and 2 tie on points and
    seat 0 holds one site more; seat 1 leads."""
    st = new_game(GameConfig(seats=3))
    st = apply(st, deal(st, random.Random(3)))
    end = random_playout(st, random.Random(3))
    assert end.phase == "over"
    assert [s.score for s in end.seats] == [35, 37, 35]
    assert [sites_held(end, i) for i in range(3)] == [6, 9, 5]
    return end


def test_equal_points_are_told_apart_by_the_sites_held(tied_game):
    assert R.final_ranks(tied_game, [False, False, False]) == [2, 1, 3]


def test_a_resigned_seat_ranks_below_every_seat_that_played_on_whatever_its_points(tied_game):
    assert R.final_ranks(tied_game, [False, True, False]) == [1, 3, 2]  # the leader resigned: last
    assert R.final_ranks(tied_game, [True, True, False]) == [3, 2, 1]  # two resigned: by points among them
    assert R.final_ranks(tied_game, [True, True, True]) == [2, 1, 3]


# ---------------------------------------------------------------- provisional ratings

@pytest.fixture
def rated_server(tmp_path):
    """A server whose accounts have 9 and 10 rated games (``PROVISIONAL_GAMES`` is 10)."""
    assert PROVISIONAL_GAMES == 10
    seed_accounts(tmp_path / "data", {"Nine": [1.0 + k for k in range(9)], "Ten": [2.0 + k for k in range(10)]})
    t = ServerThread(tmp_path / "data", test_seeds=True, accounts=True).start()
    yield t
    t.stop()


def test_a_rating_is_provisional_for_its_first_ten_games_only(rated_server):
    board = Player(rated_server.url).ask_kind({"type": "leaderboard"}, "standings")
    rows = {r["name"]: (r["games"], r["provisional"]) for r in board["rows"]}
    assert rows == {"Nine": (9, True), "Ten": (10, False)}
    for name, games, provisional in (("Nine", 9, True), ("Ten", 10, False)):
        p = Player(rated_server.url).ask_kind({"type": "profile", "name": name}, "profile_info")
        assert (p["games"], p["provisional"]) == (games, provisional)


# ---------------------------------------------------------------- the watch of My games

class Answered:
    """One round of My games asks, answered at once with ``results``."""

    def __init__(self, results: dict):
        self.results = results

    def poll(self) -> bool:
        return True

    def close(self) -> None:
        pass


def row(game: str, your_turn: bool = True) -> P.MyGameRow:
    return P.MyGameRow(game=game, code="ABCDEF", seat=0, pace="turn", move_hours=24, your_turn=your_turn,
                       started=True, round=2)


def test_the_watch_tells_a_game_once_even_when_its_server_missed_a_round():
    a, b = "wss://a.example", "wss://b.example"
    rounds = [
        {a: ServerGames(a, "Ann", [row("g1")]), b: ServerGames(b, "Ann", [row("h1", False)])},
        {a: ServerGames(a, problem="the server does not answer"), b: ServerGames(b, "Ann", [row("h1")])},
        {a: ServerGames(a, "Ann", [row("g1"), row("g2")]), b: ServerGames(b, "Ann", [row("h1"), row("h2")])},
    ]
    now, told = [0.0], []
    w = TurnWatch(lambda url, r: told.append((url, r.game)), clock=lambda: now[0], start=lambda: Answered(rounds.pop(0)))
    w.playing = "h2"  # the game on this screen
    w.tick()  # the first round learns where things stand
    assert told == [] and w.count == 1
    now[0] += EVERY
    w.tick()  # a does not answer; h1 on b became your turn
    assert told == [(b, "h1")] and w.count == 1
    now[0] += EVERY
    w.tick()  # a is back: g1 was your turn before it failed (told no more), g2 is new; h2 is on the screen
    assert told == [(b, "h1"), (a, "g2")] and w.count == 4


# ---------------------------------------------------------------- turn-based games on a server

@pytest.fixture
def srv(tmp_path):
    """A server with accounts and turn-based games (``turn_helpers``), in this process."""
    t = _server(tmp_path / "data")
    yield t
    t.stop()


def test_my_games_lists_a_finished_game_for_seven_days_then_no_more(srv):
    assert turns.RECENT_DAYS == 7
    ann, bea = turn_game(srv.url, hours=12, limit=3)
    server, game = srv.server, bea.game
    ended = 1_800_000_000.0  # seconds since the epoch

    def finish() -> None:  # as the server writes a game's end, then lets it go from memory
        server.store.set_finished(game)
        server.turns.index.put(TurnRow(game, "turn", 12, 3, 2, 1, finished_at=ended))
        room = server.rooms[game]
        room.table.close()
        upkeep.forget_room(server, room)
    on_loop(server, finish)
    account = server.accounts.store.by_name("Bea").id

    def listed(days: float) -> list:
        rows = on_loop(server, lambda: server.turns.my_games(account, "Bea", now=ended + days * 86400.0).games)
        return [(r.game, r.finished) for r in rows]
    assert listed(0.5) == [(game, True)] and listed(6.9) == [(game, True)]
    assert listed(7.1) == []


def test_a_hand_over_refused_in_a_turn_based_game_names_its_missed_move_limit(srv):
    ann, bea = turn_game(srv.url, hours=12, limit=4)
    ann.send(type="set_seat", token=ann.token, seat=1, kind="ai", bot="easy")
    m = ann.error("not_allowed")
    assert (m["key"], m["params"]) == ("turns.no_handover", {"limit": 4})
    assert "after 4 missed moves" in m["message"]
