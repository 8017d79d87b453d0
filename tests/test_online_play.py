"""Issue 39, a real online game: the grace period and taking a seat back, the game log after a
resume, names refused and chat cleaned, chat and emotes rate-limited, resign, rematch with the
same seats, spectators who only ever see the public view, and the turn timer.

Each test runs ``ServerThread`` and talks to it with real WebSocket clients (``test_net_server``'s
``Client``); every wait is bounded.
"""
from __future__ import annotations

import json
import threading
import time
from types import SimpleNamespace

import pytest

from gonzaga.net import protocol as P
from gonzaga.net import rooms, upkeep
from gonzaga.net.cleantext import clean_chat, name_problem
from gonzaga.net.remote import seat_specs
from gonzaga.net.rooms import GameRoom, Seat
from gonzaga.net.serve import ServerThread
from gonzaga.rules import parse_action
from gonzaga.rules.refusals import Illegal
from gonzaga.words import i18n

from test_net_server import HOST, Client, join, play, seat, stored, true_states


@pytest.fixture
def srv(tmp_path):
    t = ServerThread(tmp_path / "data", test_seeds=True, any_level=True)
    t.start()
    yield t
    t.stop()


class ServerClock:
    """The turn timers' clock moved on by the test instead of waited for: the server's rooms and
    its periodic task read ``time.monotonic`` through their modules' ``time``, here the real
    clock plus what the test has advanced."""

    def __init__(self, monkeypatch):
        self.skew = 0.0
        clock = SimpleNamespace(monotonic=lambda: time.monotonic() + self.skew)
        monkeypatch.setattr(rooms, "time", clock)
        monkeypatch.setattr(upkeep, "time", clock)

    def advance(self, seconds: float) -> None:
        self.skew += seconds


@pytest.fixture
def server_clock(monkeypatch):
    return ServerClock(monkeypatch)


def table_clock(srv, game: str) -> list:
    """A game's table on a clock the test sets (the grace period is the table's): ``[now]``."""
    now = [1000.0]
    done = threading.Event()

    def swap():
        srv.server.rooms[game].table.clock = lambda: now[0]
        done.set()
    srv.server.loop.call_soon_threadsafe(swap)
    assert done.wait(10)
    return now


def create(url: str, seats: list, seed: int = 7, **options) -> Client:
    c = Client(url, seed)
    c.send(type="create", name="Ann", seats=seats, seed=seed, **options)
    c.expect("joined")
    c.expect("lobby")
    return c


def two(srv, **options) -> tuple[Client, Client]:
    host = create(srv.url, [HOST, seat("open", "blue")], **options)
    friend = join(srv.url, host.code, "Bea")
    host.send(type="start", token=host.token)
    host.expect("update")
    friend.expect("update")
    return host, friend


def refused(c: Client, code: str) -> dict:
    m = c.expect("error", skip=("lobby", "pong", "update", "said"))
    assert m["code"] == code, m
    return m


def lobby_until(c: Client, pred, timeout: float = 10.0) -> dict:
    end = time.monotonic() + timeout
    while True:
        m = c.expect("lobby", max(0.05, end - time.monotonic()), skip=("update", "pong", "said", "history"))
        if pred(m):
            return m


# ---------------------------------------------------------------- names and chat text

@pytest.mark.parametrize("name", ["Ann\u202eevil", "A\x00nn", "Ann\nBea", "An\u200bn", "   ", "\u2066x\u2069",
                                  " Ann", "Ann  Bea"])
def test_unclean_names_are_refused_with_a_clear_message(srv, name):
    assert name_problem(name) is not None
    c = Client(srv.url)
    c.send(type="create", name=name, seats=[HOST, seat("open", "blue")])
    m = c.error("bad_message")
    assert m["message"].startswith("name: ") and "Value error" not in m["message"] and m["key"] == "net.bad_message"
    c.close()


def test_clean_chat_drops_control_invisible_and_direction_characters():
    assert clean_chat("hi\u202e there\x00\n\tfriend\u200b!") == "hi there friend!"
    assert clean_chat("\u2066\u200b \n") == ""
    assert len(clean_chat("x" * 500)) == 200


# ---------------------------------------------------------------- grace and taking a seat back

def test_a_dropped_seat_is_kept_for_the_grace_period_then_its_player_takes_it_back(srv):
    host, friend = two(srv, grace=2)
    now = table_clock(srv, host.game)
    friend.close()
    lobby_until(host, lambda m: not m["seats"][1]["connected"])
    host.send(type="set_seat", token=host.token, seat=1, kind="ai", bot="greedy")
    assert host.error("grace")["key"] == "refusal.grace_left"  # within the grace period: refused
    now[0] += 1.9
    host.send(type="set_seat", token=host.token, seat=1, kind="ai", bot="greedy")
    assert host.error("grace")["key"] == "refusal.grace_left"  # still within it
    now[0] += 0.2
    host.send(type="set_seat", token=host.token, seat=1, kind="ai", bot="greedy")
    m = lobby_until(host, lambda m: m["seats"][1]["kind"] == "ai")
    assert m["seats"][1]["player"] == "Bea" and m["grace"] == 2
    back = Client(srv.url, 3)
    back.send(type="resume", game=host.game, token=friend.token)
    assert back.expect("joined")["seat"] == 1
    assert back.expect("update")["seats"][1] == {"name": "Bea", "kind": "human", "colour": "blue", "bot": None,
                                                 "connected": True, "player": None, "resigned": False,
                                                 "grace_left": None}
    play([host, back])  # the player plays their seat again, to the end
    for c in (host, back):
        c.close()


def test_the_full_game_log_comes_back_after_a_resume(srv):
    host, friend = two(srv)
    play([host, friend], stop_when=lambda: (host.n or 0) >= 12)
    friend.close()
    back = Client(srv.url, 2)
    back.send(type="resume", game=host.game, token=friend.token)
    back.expect("joined")
    snap = back.expect("update")
    h = back.expect("history")
    assert h["n"] == snap["n"] >= 12
    keys = [line[1] for line in h["lines"]]
    assert keys[0] == "log.setup" and keys.count("log.planned") >= 4 and "log.place" in keys or "log.donate" in keys
    from gonzaga.net.logcodec import decode_line
    assert all(decode_line(line) is not None for line in h["lines"])  # each line can be put into words
    # the log holds nothing a seat may not know: no plan before its reveal, no objective, no deck
    g = stored(srv.data_dir, host.game)
    text = json.dumps(h)
    for s in true_states(g)[-1].seats:
        assert s.objective not in text
    for c in (host, back):
        c.close()


# ---------------------------------------------------------------- chat and emotes

def test_chat_is_cleaned_rate_limited_and_heard_by_everyone(srv):
    host, friend = two(srv)
    friend.send(type="chat", token=friend.token, text="good \u202eluck\x00 \n all")
    said = host.expect("said", skip=("lobby", "update", "pong"))
    assert said == {"v": 2, "type": "said", "game": host.game, "seat": 1, "name": "Bea", "text": "good luck all",
                    "emote": None, "round": 1}  # the round it was said in (issue 50)
    assert friend.expect("said", skip=("lobby", "update", "pong"))["text"] == "good luck all"
    friend.send(type="chat", token=friend.token, text="\u200b\u2066 ")
    refused(friend, "bad_message")
    friend.send(type="emote", token=friend.token, emote="well_played")
    assert host.expect("said", skip=("lobby", "update", "pong"))["emote"] == "well_played"
    friend.send(type="emote", token=friend.token, emote="rude")
    refused(friend, "bad_message")
    for _ in range(3):
        friend.send(type="emote", token=friend.token, emote="hello")
    friend.send(type="chat", token=friend.token, text="one too many")  # the 6th line in 10 s
    refused(friend, "slow")
    for c in (host, friend):
        c.close()


# ---------------------------------------------------------------- resign and rematch

def test_resign_hands_the_seat_to_the_ai_for_good(srv):
    host, friend = two(srv)
    friend.send(type="resign", token=friend.token)
    m = lobby_until(host, lambda m: m["seats"][1]["kind"] == "ai")
    assert m["seats"][1]["resigned"] is True and m["seats"][1]["player"] == "Bea"
    friend.send(type="resign", token=friend.token)
    friend.error("bad_message")  # an AI's seat now
    friend.close()
    back = Client(srv.url)
    back.send(type="resume", game=host.game, token=friend.token)
    back.expect("joined")
    assert back.expect("update")["seats"][1]["kind"] == "ai"  # not taken back
    play([host])  # the AI plays the seat to the end
    assert stored(srv.data_dir, host.game).finished
    for c in (host, back):
        c.close()


@pytest.mark.rule("E-net")
def test_a_seat_an_ai_plays_for_its_player_keeps_the_players_name_everywhere():
    """The seat panels, the chat and the game log name a resigned or dropped player's seat alike:
    by the player (the AI only plays for them); an AI's own seat by its level."""
    held = Seat("AI (hard)", "ai", "blue", bot="hard", token_hash="x", player="Bea", resigned=True)
    own = Seat("AI (greedy)", "ai", "green", bot="greedy")
    human = Seat("Ann", "human", "red", token_hash="y")
    room = SimpleNamespace(seats=[human, held, own])
    assert [P.player_name(s) for s in room.seats] == ["Ann", "Bea", None]
    assert [GameRoom.seat_name(room, i) for i in (0, 1)] == ["Ann", "Bea"]  # type: ignore[arg-type]
    assert str(GameRoom.seat_name(room, 2)) == i18n.t("online.ai_name", level=i18n.t("level.greedy"))  # type: ignore[arg-type]
    assert [s.name for s in seat_specs([s.info() for s in room.seats])][:2] == ["Ann", "Bea"]


def test_rematch_with_the_same_seats_once_everyone_asks(srv):
    host = create(srv.url, [HOST, seat("open", "blue"), seat("ai", "green", "greedy")])
    friend = join(srv.url, host.code, "Bea")
    host.send(type="start", token=host.token)
    host.send(type="rematch", token=host.token)
    host.error("not_over")
    play([host, friend])
    old, old_token = host.game, friend.token
    host.send(type="rematch", token=host.token)
    assert lobby_until(host, lambda m: m["rematch"] == [0])["rematch"] == [0]
    friend.send(type="rematch", token=friend.token)
    for c in (host, friend):
        j = c.expect("joined", skip=("lobby", "update", "pong"))
        assert j["game"] != old
        c.updates.clear()
        u = c.expect("update")
        assert u["n"] == 1 and u["last"]["kind"] == "setup"
        assert [s["name"] for s in u["seats"]] == ["Ann", "Bea", "AI (greedy)"]
    assert friend.token != old_token and host.game == friend.game
    g = stored(srv.data_dir, host.game)
    assert g.actions[0] != stored(srv.data_dir, old).actions[0]  # a fresh deal
    for c in (host, friend):
        c.close()


# ---------------------------------------------------------------- spectators

def test_a_spectator_sees_only_the_public_view(srv):
    host = create(srv.url, [HOST, seat("open", "blue"), seat("ai", "green", "greedy")], seed=1_234_567_891)
    friend = join(srv.url, host.code, "Bea")
    watcher = Client(srv.url)
    watcher.send(type="watch", code=host.code)
    assert watcher.expect("watching", skip=())["game"] == host.game
    seen = []
    host.send(type="start", token=host.token)
    end = time.monotonic() + 90
    while not (host.over and friend.over):
        assert time.monotonic() < end
        for c in (host, friend):
            while c.poll() is not None:
                pass
            c.try_act()
        while True:
            try:
                seen.append(watcher.ws.recv(timeout=0.01))
            except TimeoutError:
                break
    end = time.monotonic() + 3
    while time.monotonic() < end:
        try:
            seen.append(watcher.ws.recv(timeout=0.3))
        except TimeoutError:
            break
    g = stored(srv.data_dir, host.game)
    states = true_states(g)
    actions = [parse_action(t) for t in g.actions]
    secrets = {str(g.seed), g.actions[0]}
    decks = g.actions[0].split("decks=", 1)[1].split(" ", 1)[0]
    secrets |= {".".join(d.split(".")[:6]) for d in decks.split("|") if d.count(".") >= 6}
    updates = 0
    for text in seen:
        msg = json.loads(text)
        P.parse_server(text)
        for s in secrets:
            assert len(s) < 6 or s not in text, "a spectator received a secret"
        if msg["type"] != "update":
            continue
        updates += 1
        assert msg["seat"] is None and msg["view"]["viewer"] is None
        n = msg["n"]
        if states[n].phase != "over":
            assert all(s["objective"] is None for s in msg["view"]["seats"])  # no seat's objective
        if msg["last"] and msg["last"]["kind"] == "plan":
            assert msg["last"]["text"] is None  # nobody's own plan
        if states[n].phase == "plan":
            for s in msg["view"]["seats"]:  # a plan is only ever shown hidden before the reveal
                assert s["plan"] is None or s["plan"]["region"] == "hidden"
    assert updates == len(actions)  # every action was seen
    bad = Client(srv.url)
    bad.send(type="watch", code="ZZZZZZ")
    assert bad.error("unknown_game")["key"] == "net.no_waiting_game"
    for c in (host, friend, watcher, bad):
        c.close()


def test_a_host_may_allow_no_spectators(srv):
    host = create(srv.url, [HOST, seat("open", "blue")], watchers=False)
    w = Client(srv.url)
    w.send(type="watch", code=host.code)
    w.error("unknown_game")
    for c in (host, w):
        c.close()


# ---------------------------------------------------------------- the turn timer

@pytest.mark.rule("E-net")
def test_the_turn_timer_lets_an_ai_make_a_slow_players_move(srv, server_clock):
    host, friend = two(srv, turn_secs=10)
    n = host.n
    for c in (host, friend):  # both screens show the plan to make: both clocks start
        c.send(type="seen", token=c.token, n=n)
    running = {}
    while len(running) < 2:
        m = host.expect("clocks")
        running = {c["seat"] for c in m["clocks"] if c["running"]}
    server_clock.advance(10)  # nobody plays for the whole timer: at the next sweep the AI plans for both
    end = time.monotonic() + 15
    while (host.n or 0) < n + 2:
        assert time.monotonic() < end, "the turn timer never ran out"
        host.poll(0.2)
        friend.poll(0.01)
    g = stored(srv.data_dir, host.game)
    assert [parse_action(t).seat for t in g.actions[n:n + 2]] in ([0, 1], [1, 0])
    for c in (host, friend):
        c.close()


@pytest.mark.rule("E-net")
def test_updates_tell_the_seat_due_its_seconds_left_from_the_servers_count(srv, server_clock):
    host, friend = two(srv, turn_secs=30)
    # the start's snapshot: both seats are to plan, each told its own time (seconds, not a date)
    for c in (host, friend):
        assert 29.0 <= c.updates[-1]["turn_left"] <= 30.0, c.updates[-1].get("turn_left")
        c.send(type="seen", token=c.token, n=c.n)  # the plan is on both screens: the clocks start
    while not all(x["running"] for x in friend.expect("clocks")["clocks"]):
        pass
    server_clock.advance(2.0)
    host.send(type="act", token=host.token, n=host.n, action=host.my_actions()[0].to_text())
    mine, theirs = host.expect("update"), friend.expect("update")
    assert mine["turn_left"] is None  # planned: not due any more
    assert 26.0 <= theirs["turn_left"] <= 28.5, theirs["turn_left"]  # the same count, not a fresh 30
    friend.close()
    again = Client(srv.url)  # a seat that comes back is told what is left, not the whole timer
    again.seat = friend.seat
    again.send(type="resume", game=friend.game, token=friend.token)
    again.expect("joined")
    assert 25.0 <= again.expect("update")["turn_left"] <= 28.5
    for c in (host, again):
        c.close()


@pytest.mark.rule("E-net")
def test_without_a_turn_timer_no_update_counts(srv):
    host, friend = two(srv)
    host.send(type="act", token=host.token, n=host.n, action=host.my_actions()[0].to_text())
    friend.expect("update")
    assert all(u.get("turn_left") is None for c in (host, friend) for u in c.updates)
    for c in (host, friend):
        c.close()


# ---------------------------------------------------------------- the table decides

@pytest.mark.rule("E-table")
def test_the_table_decides_hand_overs_give_backs_resignations_and_time_outs():
    from gonzaga.table.pacing import InlineWorker
    from test_table import table
    now = [100.0]
    t = table(("human", "human", "human"), worker=InlineWorker(), clock=lambda: now[0])
    t.host, t.grace = 0, 60.0
    t.mark_away(1, True)
    assert t.hand_to_ai(1, "greedy", by=0) == Illegal.of("E-table", "grace_left", seat=1, seconds=60)  # within the grace
    now[0] += 61
    assert t.hand_to_ai(1, "greedy", by=0) is None
    assert t.give_back(1, "P1", by=0) is not None  # only its own player takes it back
    assert t.give_back(1, "P1", by=1) is None and t.seats[1].kind == "human"
    assert t.resign(2, "greedy", by=0) is not None  # only one's own seat
    assert t.resign(2, "greedy", by=2) is None and t.seats[2].kind == "ai"
    assert t.give_back(2, "P2", by=2) is not None  # a resignation is for good
    assert t.time_out(2, "greedy") is not None  # an AI's seat has no timer
    assert t.time_out(0, "greedy") is None  # seat 0 is to plan: the AI stands in, once
    for _ in range(10):
        t.tick()
    assert t.state.seats[0].plan is not None and t.seats[0].kind == "human"
