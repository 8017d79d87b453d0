"""Issue 50, seat changes told and time that is fair, on a real server (``ServerThread``, real
WebSocket clients from ``test_net_server``): every seat change (a drop, the grace period's end,
the computer taking a seat, a return, a resignation, a spectator coming and going) reaches
everyone at once as a line of the game log, worded in English and Italian, and comes back in a
resume's log; the grace period is counted by the server's figure and its end is pushed without
anyone asking; a move the computer made for a player whose time ran out is marked so, in the
update and in the log. The server's clocks are the ones the code takes (the table's clock, the
rooms' ``time``), moved on by the test: nothing waits for the real time to pass.
"""
from __future__ import annotations

import time

import pytest

from gonzaga.net import logcodec
from gonzaga.net.turnclock import SEEN_CAP
from gonzaga.rules import parse_action
from gonzaga.words import i18n

from test_net_server import HOST, Client, join, seat
from test_online_play import create, lobby_until, server_clock, srv, table_clock, two  # noqa: F401 (fixtures)

pytestmark = pytest.mark.rule("E-net")


def news_until(c: Client, key: str, timeout: float = 15.0) -> dict:
    """The next ``news`` line of ``key`` that ``c`` is told (others on the way are kept in ``told``)."""
    end = time.monotonic() + timeout
    while True:
        m = c.expect("news", max(0.05, end - time.monotonic()), skip=("update", "pong", "said", "history", "lobby"))
        if m["line"][1] == key:
            return m


def words(line: list, lang: str) -> str:
    """A log line the server sent, as a player of ``lang`` reads it."""
    e = logcodec.decode_line(line)
    assert e is not None, line
    i18n.set_language(lang)
    try:
        return e.text()
    finally:
        i18n.set_language("en")


# what each seat change says (Bea is seat 1, the host Ann seat 0), in English and in Italian
SAID = {
    "log.seat_dropped": ("Bea's connection dropped: their seat is kept for them for 60 s.",
                         "La connessione di Bea è caduta: il suo posto è tenuto per 60 s."),
    "log.seat_back": ("Bea is back.", "Bea è tornato."),
    "log.seat_grace_over": ("Bea has not come back: the host may let the computer play for them.",
                            "Bea non è tornato: chi ospita può far giocare il computer al suo posto."),
    "log.seat_to_ai": ("The computer (Greedy) plays for Bea from now on.",
                       "Da ora il computer (Avido) gioca al posto di Bea."),
    "log.seat_taken_back": ("Bea is back and plays their own seat again.",
                            "Bea è tornato e gioca di nuovo il proprio posto."),
    "log.seat_resigned": ("Bea resigned: the computer plays their seat to the end.",
                          "Bea ha abbandonato: il computer gioca il suo posto fino alla fine."),
    "log.watcher_came": ("A spectator is watching (1 in all).", "Uno spettatore guarda la partita (1 in tutto)."),
    "log.watcher_left": ("A spectator left (0 still watching).", "Uno spettatore se n'è andato (ne restano 0)."),
}


def test_every_seat_change_is_told_at_once_and_kept_in_the_log_in_english_and_italian(srv):
    host, friend = two(srv, grace=60)
    now = table_clock(srv, host.game)  # the grace period is counted on the table's clock
    seen: list[dict] = []

    def told(key: str) -> None:
        m = news_until(host, key)
        assert (words(m["line"], "en"), words(m["line"], "it")) == SAID[key], key
        assert m["n"] == host.n  # after the actions so far
        seen.append(m)

    watcher = Client(srv.url)
    watcher.send(type="watch", code=host.code)
    told("log.watcher_came")
    watcher.close()
    told("log.watcher_left")
    friend.close()
    told("log.seat_dropped")
    m = lobby_until(host, lambda m: not m["seats"][1]["connected"])
    assert m["seats"][1]["grace_left"] == 60.0  # the server's own figure, for the countdown
    now[0] += 25
    host.send(type="ping")
    host.send(type="set_seat", token=host.token, seat=1, kind="ai", bot="greedy")
    e = host.error("grace")  # too early: the refusal says how long, in seconds
    assert e["key"] == "refusal.grace_left" and e["params"]["seconds"] == 35
    back = Client(srv.url, 3)  # Bea comes back within the grace period
    back.send(type="resume", game=host.game, token=friend.token)
    told("log.seat_back")
    back.close()
    told("log.seat_dropped")
    now[0] += 60  # the grace period runs out: told without anyone asking, the seats too
    told("log.seat_grace_over")
    m = lobby_until(host, lambda m: m["seats"][1]["grace_left"] == 0.0)
    assert not m["seats"][1]["connected"]
    host.send(type="set_seat", token=host.token, seat=1, kind="ai", bot="greedy")
    told("log.seat_to_ai")
    again = Client(srv.url, 4)
    again.send(type="resume", game=host.game, token=friend.token)
    told("log.seat_taken_back")
    again.send(type="resign", token=friend.token)
    told("log.seat_resigned")
    # a resume's log holds every change in its place among the actions
    late = Client(srv.url, 5)
    late.send(type="resume", game=host.game, token=host.token)
    late.expect("joined")
    h = late.expect("history")
    keys = [line[1] for line in h["lines"]]
    changes = [k for k in keys if k in SAID]
    assert changes == [m["line"][1] for m in seen]
    assert keys.index("log.watcher_came") > keys.index("log.setup")
    for c in (host, again, late):
        c.close()


def test_the_grace_period_ends_on_the_hosts_screen_without_a_click(srv):
    """The issue's "nothing changes until the host clicks again": the server's sweep pushes it."""
    host, friend = two(srv, grace=30)
    now = table_clock(srv, host.game)
    friend.close()
    lobby_until(host, lambda m: m["seats"][1]["grace_left"] == 30.0)
    now[0] += 30.5
    # nothing is sent by the host from here on: the seats and the log line come by themselves
    m = lobby_until(host, lambda m: m["seats"][1]["grace_left"] == 0.0)
    assert m["seats"][1]["kind"] == "human" and not m["seats"][1]["connected"]
    over = [x for x in host.told if x["type"] == "news" and x["line"][1] == "log.seat_grace_over"]
    assert len(over) == 1 and over[0]["line"][2]["name"] == "Bea"  # told once, before the seats
    host.close()


def test_a_move_the_computer_made_for_a_player_out_of_time_is_marked_and_logged(srv, server_clock):
    host, friend = two(srv, turn_secs=10)
    n = host.n
    host.send(type="act", token=host.token, n=n, action=host.my_actions()[0].to_text())  # Ann plans herself
    host.expect("update")
    server_clock.advance(SEEN_CAP + 10)  # Bea's screen never said: her clock started at the cap, then ran out
    u = friend.expect("update")
    while u["n"] < n + 2:
        u = friend.expect("update")
    assert u["last"]["kind"] == "plan" and u["last"]["seat"] == 1 and u["last"]["by_ai"] is True
    assert parse_action(u["last"]["text"]).seat == 1  # her own update shows the plan chosen for her
    mine = [x for x in host.updates if x["n"] == n + 1][-1]
    assert mine["last"]["by_ai"] is False  # Ann's own plan
    late = Client(srv.url, 6)
    late.send(type="resume", game=host.game, token=host.token)
    late.expect("joined")
    lines = late.expect("history")["lines"]
    keys = [line[1] for line in lines]
    i = keys.index("log.ai_planned_for")
    assert words(lines[i], "en").endswith("time ran out: the computer planned for Bea.")
    assert words(lines[i], "it").endswith("tempo scaduto: il computer ha pianificato per Bea.")
    assert keys[i + 1] == "log.planned"  # before the plan's own line, not for Ann's
    assert keys.count("log.ai_planned_for") == 1
    for c in (host, friend, late):
        c.close()


def test_everyone_is_told_whose_clock_runs_and_a_clock_starts_when_its_screen_shows_it(srv, server_clock):
    host = create(srv.url, [HOST, seat("open", "blue")], turn_secs=30)
    friend = join(srv.url, host.code, "Bea")
    watcher = Client(srv.url)
    watcher.send(type="watch", code=host.code)
    watcher.expect("watching", skip=("lobby",))
    host.send(type="start", token=host.token)
    host.expect("update")
    friend.expect("update")
    first = watcher.expect("clocks", skip=("lobby", "update", "history", "news"))
    assert [(c["seat"], c["left"], c["running"]) for c in first["clocks"]] == [(0, 30.0, False), (1, 30.0, False)]
    server_clock.advance(12)  # Bea reads the table for 12 s: her time is not running
    friend.send(type="seen", token=friend.token, n=friend.n)
    m = watcher.expect("clocks", skip=("lobby", "update", "history", "news"))
    assert [(c["seat"], c["left"], c["running"]) for c in m["clocks"]] == [(0, 30.0, False), (1, 30.0, True)]
    friend.send(type="seen", token=friend.token, n=friend.n)  # said twice: the clock is not started again
    server_clock.advance(5)
    host.send(type="seen", token=host.token, n=host.n - 1)  # a stale count starts nothing
    host.send(type="ping")
    host.expect("pong", skip=("lobby", "update", "news", "clocks"))
    host.send(type="act", token=host.token, n=host.n, action=host.my_actions()[0].to_text())
    m = watcher.expect("clocks", skip=("lobby", "update", "history", "news"))
    assert [(c["seat"], c["running"]) for c in m["clocks"]] == [(1, True)]
    assert 24.5 <= m["clocks"][0]["left"] <= 25.0  # 30 - 5, counted from when her screen showed it
    for c in (host, friend, watcher):
        c.close()


# ---------------------------------------------------------------- the words of the seats (pure)

def _room_state(phase: str):
    """A started two-seat game's full state (seat 0 has planned when ``phase`` is "plan")."""
    from gonzaga.net.rooms import GameRoom, Seat
    from gonzaga.rules import GameConfig, legal_actions, load_content
    import random
    room = GameRoom("g", "ABCDEF", GameConfig(seats=2), 5, [Seat("Ann", "human", "red"), Seat("Bea", "human", "blue")],
                    load_content())
    room.table.start(random.Random(5))
    room.table.act(0, legal_actions(room.table.view_for(0), 0)[0])
    assert room.state.phase == phase
    return room.state


def test_a_plan_chosen_while_away_is_shown_on_return_only_for_this_round_and_this_player():
    from gonzaga.net.seatnews import line
    from gonzaga.net.seatwords import chosen_while_away
    st = _room_state("plan")
    plan = st.seats[0].plan
    told = [line(st.round, "log.ai_planned_for", "Ann", round=st.round)]
    assert chosen_while_away(told, st, 0, "Ann") == plan
    assert chosen_while_away(told, st, 0, "Bea") is None  # another player's
    assert chosen_while_away([line(st.round - 1, "log.ai_planned_for", "Ann", round=st.round - 1)], st, 0, "Ann") is None
    assert chosen_while_away([], st, 0, "Ann") is None  # Ann planned herself
    assert chosen_while_away(told, st, 1, "Bea") is None  # no plan yet: nothing chosen


def test_a_resigned_seat_is_never_named_the_winner():
    from types import SimpleNamespace
    from gonzaga.net.seatwords import result_text
    names = ["Ann", "Bea", "Cid"].__getitem__
    one = SimpleNamespace(winners=(1,))
    assert result_text(one, lambda i: False, names) == "Bea wins!"
    assert result_text(one, lambda i: i == 1, names) == "Highest score: Bea, played by the computer after resigning."
    shared = SimpleNamespace(winners=(0, 1))
    assert result_text(shared, lambda i: i == 1, names) == "Ann wins!"  # the other winner played to the end
    i18n.set_language("it")
    try:
        assert result_text(one, lambda i: i == 1, names) == \
            "Punteggio più alto: Bea, giocato dal computer dopo l'abbandono."
    finally:
        i18n.set_language("en")


def test_the_clocks_told_run_down_by_this_computers_clock_only_once_they_run():
    from gonzaga.net.turnclock import ToldClocks
    t = ToldClocks()
    t.told([(0, 30.0, True), (1, 30.0, False)], 7, at=100.0)
    assert t.clock_of(0, 7, 112.5) == (17.5, True)  # counted from the message's arrival
    assert t.clock_of(1, 7, 112.5) == (30.0, False)  # waits for Bea's screen
    assert t.clock_of(0, 7, 200.0) == (0.0, True)  # never below zero
    assert t.clock_of(0, 6, 101.0) is None  # told for another position
    assert t.clock_of(2, 7, 101.0) is None
    t.graces([(0, None), (1, 45.0)], at=10.0)
    assert t.grace_left(1, 30.0) == 25.0 and t.grace_left(1, 60.0) == 0.0 and t.grace_left(0, 30.0) is None


def test_a_grace_period_said_over_is_over_for_the_host_s_request_too():
    """The seats' grace countdown, the 'grace period over' news and the host's hand-over are one
    decision: whenever the room says no time is left, the table lets the host hand the seat over
    (the countdown was rounded to a tenth, so for the last 50 ms the news said over while the
    table still refused: 'may come back for 1 more seconds')."""
    import random
    from gonzaga.net.rooms import GameRoom, Seat
    from gonzaga.rules import GameConfig, load_content, new_game, play_setup
    content = load_content()
    _, setup = play_setup(new_game(GameConfig(seats=2), content), random.Random(3))
    room = GameRoom("g1", "ABCDEF", GameConfig(seats=2), 3, [Seat("Ann", "human", "red"), Seat("Bea", "human", "blue")],
                    content, actions=(setup,), options={"grace": 2})
    now = [100.0]
    room.table.clock = lambda: now[0]
    room.table.mark_away(1, True)
    for elapsed in (0.0, 1.0, 1.9, 1.949, 1.95, 1.96, 1.999, 2.0, 2.5):
        now[0] = 100.0 + elapsed
        left = room.grace_left(1)
        allowed = room.table.handover_problem(1, by=room.host_seat) is None
        assert (left == 0.0) == allowed, (elapsed, left, allowed)
        assert allowed == (elapsed >= 2.0)
    # the countdown shown is the time left rounded up to a tenth (by hand: 2 - 1.25 = 0.75 -> 0.8)
    for elapsed, shown in ((0.0, 2.0), (0.5, 1.5), (1.25, 0.8), (1.949, 0.1), (1.999, 0.1), (2.0, 0.0)):
        now[0] = 100.0 + elapsed
        assert room.grace_left(1) == shown, (elapsed, room.grace_left(1))
