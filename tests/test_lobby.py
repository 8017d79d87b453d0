"""Issue 47, the public lobby and quick match, against a real server in this process: a listed
table shows its seats (taken, open, AI levels), pace, rating range and its host's name and
rating; a table with a range refuses an account outside it (and a player not signed in); quick
match seats a player at the fitting table waiting longest, opens a table when none fits, and
two players pressing at once end at one table (which then starts by itself)."""
from __future__ import annotations

import threading
import time

import pytest

from gonzaga.net import listing
from gonzaga.net import ratings as R
from gonzaga.net.account_store import SQLiteAccountStore
from gonzaga.net.serve import ServerThread

from online_helpers import Player, register
from test_net_server import HOST, seat

pytestmark = pytest.mark.rule("E-net")


@pytest.fixture
def srv(tmp_path):
    t = ServerThread(tmp_path / "data", test_seeds=True, any_level=True, accounts=True).start()
    t.data = tmp_path / "data"
    yield t
    t.stop()


def rate(srv, name: str, mu: float, sigma: float, games: int, game: str = "hand") -> float:
    """Give account ``name`` a rating by hand (as a rated game would): its shown rating."""
    store = SQLiteAccountStore.in_folder(srv.data)
    try:
        acc = store.by_name(name)
        shown = mu - 3 * sigma
        assert store.record_game(f"{game}-{name}", [(acc.id, mu, sigma, games, shown, 1)], time.time())
        return shown
    finally:
        store.close()


def create(c: Player, seats, **terms) -> dict:
    c.send(type="create", name="x", seats=seats, listed=True, **terms)
    m = c.expect_any(("joined", "error"))
    assert m["type"] == "joined", m
    return m


def listed(source: str, srv, **ask) -> dict:
    return Player(srv.url, source).ask_kind({"type": "list_games", **ask}, "games")


def test_a_new_account_has_the_rating_zero_the_listing_says():
    assert R.new_rating().shown == listing.NEW_RATING


def test_the_listing_shows_seats_ai_levels_pace_range_and_the_hosts_rating(srv):
    ann, _ = register(srv.url, "Ann")
    shown = rate(srv, "Ann", 30.0, 6.0, 12)  # 12.0, not provisional
    create(ann, [HOST, seat("open", "blue"), seat("ai", "green", "easy")], pace="turn", move_hours=24,
           rating_min=5, rating_max=40)
    bea = Player(srv.url, "127.0.0.2")
    create(bea, [HOST, seat("open", "blue")])  # live, no range, host not signed in
    games = listed("127.0.0.3", srv)["games"]
    by_host = {g["host"]: g for g in games}
    a, x = by_host["Ann"], by_host["x"]
    assert (a["pace"], a["move_hours"], a["rating_min"], a["rating_max"]) == ("turn", 24, 5, 40)
    assert (a["host_rating"], a["host_games"], a["taken"], a["seats"]) == (shown, 12, 2, 3)
    assert a["seating"] == [{"kind": "human", "name": "Ann", "bot": None}, {"kind": "open", "name": "", "bot": None},
                            {"kind": "ai", "name": "", "bot": "easy"}]
    assert a["rated"] is False and x["rated"] is True  # an AI seated from the start: unrated (docs/server.md)
    assert (x["pace"], x["rating_min"], x["rating_max"], x["host_rating"]) == ("live", None, None, None)
    # the filters: pace, size, and the asker's rating (told back)
    assert [g["host"] for g in listed("127.0.0.3", srv, pace="turn")["games"]] == ["Ann"]
    assert [g["host"] for g in listed("127.0.0.3", srv, seats=2)["games"]] == ["x"]
    cleo, _ = register(srv.url, "Cleo", source="127.0.0.4")  # rating 0: outside Ann's 5..40
    fit = cleo.ask_kind({"type": "list_games", "fits": True}, "games")
    assert fit["rating"] == 0.0 and [g["host"] for g in fit["games"]] == ["x"]


def test_a_table_with_a_rating_range_refuses_accounts_outside_it(srv):
    ann, _ = register(srv.url, "Ann")
    rate(srv, "Ann", 30.0, 6.0, 12)  # 12.0
    code = create(ann, [HOST, seat("open", "blue"), seat("open", "green")], rating_min=5, rating_max=20)["code"]
    low, _ = register(srv.url, "Bea", source="127.0.0.2")  # 0.0
    m = low.ask_kind({"type": "join", "code": code, "name": "Bea"}, "joined")
    assert (m["type"], m["code"], m["key"], m["params"]) == \
        ("error", "not_allowed", "lobby.outside_range", {"rating": 0.0, "low": "5", "high": "20"})
    guest = Player(srv.url, "127.0.0.3")  # not signed in
    m = guest.ask_kind({"type": "join", "code": code, "name": "Guest"}, "joined")
    assert (m["code"], m["key"]) == ("not_allowed", "lobby.range_sign_in")
    high, _ = register(srv.url, "Dino", source="127.0.0.4")
    rate(srv, "Dino", 40.0, 5.0, 3)  # 25.0: above
    assert high.ask_kind({"type": "join", "code": code, "name": "Dino"}, "joined")["key"] == "lobby.outside_range"
    mid, _ = register(srv.url, "Ed", source="127.0.0.5")
    rate(srv, "Ed", 25.0, 5.0, 3)  # 10.0: inside
    assert mid.ask_kind({"type": "join", "code": code, "name": "Ed"}, "joined")["type"] == "joined"
    # a creator outside their own range, or without an account, is refused too
    m = low.ask_kind({"type": "create", "name": "Bea", "seats": [HOST, seat("open", "blue")], "rating_min": 5},
                     "joined")
    assert (m["code"], m["key"]) == ("not_allowed", "lobby.range_not_yours")
    m = guest.ask_kind({"type": "create", "name": "G", "seats": [HOST, seat("open", "blue")], "rating_max": 5},
                       "joined")
    assert m["key"] == "lobby.range_sign_in"


def test_a_full_listed_table_says_so(srv):
    host = Player(srv.url)
    code = create(host, [HOST, seat("open", "blue")])["code"]
    assert Player(srv.url, "127.0.0.2").ask_kind({"type": "join", "code": code, "name": "B"}, "joined")["type"] == "joined"
    m = Player(srv.url, "127.0.0.3").ask_kind({"type": "join", "code": code, "name": "C"}, "joined")
    assert (m["code"], m["key"]) == ("full", "lobby.table_full")


def quick(c: Player, **prefs) -> dict:
    c.send(type="quick_match", name="Q", **prefs)
    m = c.expect_any(("joined", "error"))
    assert m["type"] == "joined", m
    return m


def test_quick_match_joins_the_fitting_table_waiting_longest(srv):
    tables = {}
    for i, (seats, terms) in enumerate(((3, {}), (2, {"pace": "turn", "move_hours": 24}), (2, {}), (2, {}))):
        host, _ = register(srv.url, f"Host{i}", source=f"127.0.1.{i}")
        tables[i] = create(host, [HOST] + [seat("open", c) for c in ("blue", "green")[: seats - 1]], **terms)["game"]
        time.sleep(0.02)  # created in this order
    ann = Player(srv.url, "127.0.0.9")
    assert quick(ann, seats=2)["game"] == tables[2]  # live and two seats: 2 and 3 fit, 2 waits longest
    assert quick(Player(srv.url, "127.0.0.8"), pace="turn", move_hours=24)["game"] == tables[1]
    assert quick(Player(srv.url, "127.0.0.7"))["game"] == tables[0]  # any size: the oldest live one


def test_quick_match_opens_a_listed_table_when_none_fits_and_it_starts_once_full(srv):
    ann, _ = register(srv.url, "Ann")
    rate(srv, "Ann", 30.0, 6.0, 12)  # 12.0
    bea, _ = register(srv.url, "Bea", source="127.0.0.3")
    ranged = create(bea, [HOST, seat("open", "blue")], rating_max=5)["game"]  # Ann's 12 is outside
    mine = quick(ann, seats=3)
    assert mine["game"] != ranged and mine["seat"] == 0
    games = {g["code"]: g for g in listed("127.0.0.4", srv)["games"]}
    g = games[mine["code"]]
    assert (g["seats"], g["taken"], g["pace"], g["host"], g["host_rating"]) == (3, 1, "live", "Ann", 12.0)
    assert [s["kind"] for s in g["seating"]] == ["human", "open", "open"] and g["rated"] is True
    # the same account pressing again (another computer) is not seated at its own table
    again = Player(srv.url, "127.0.0.5")
    again.ask(type="whoami", session=_session(srv, ann))
    assert quick(again, seats=3)["game"] != mine["game"]


def _session(srv, player: Player) -> str:
    """A new session of ``player``'s account (signed in again from the test)."""
    m = Player(srv.url, "127.0.0.6").ask(type="sign_in", name="Ann", password="correct horse", device="other")
    return m["session"]


def test_two_quick_matches_at_once_end_at_one_table_which_starts(srv):
    for round_ in range(5):
        a, b = Player(srv.url, f"127.0.2.{round_}"), Player(srv.url, f"127.0.3.{round_}")
        go = threading.Barrier(2)
        answers: dict = {}

        def press(c: Player, who: str, go=go, answers=answers) -> None:
            go.wait()
            c.send(type="quick_match", name=who, seats=2)
            answers[who] = c.expect_any(("joined", "error"))
        threads = [threading.Thread(target=press, args=(c, w)) for c, w in ((a, "A"), (b, "B"))]
        for t in threads:
            t.start()
        for t in threads:
            t.join(30)
        assert answers["A"]["type"] == answers["B"]["type"] == "joined", answers
        assert answers["A"]["game"] == answers["B"]["game"]  # one table, not two half-empty ones
        assert {answers["A"]["seat"], answers["B"]["seat"]} == {0, 1}
        first = a.expect("update", skip=("lobby", "pong", "history", "news", "clocks"))
        assert first["last"]["kind"] == "setup"  # full: it started by itself
    assert listed("127.0.0.4", srv)["games"] == []
