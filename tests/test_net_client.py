"""Issue 14, the desktop client of online play (no pygame): ``net/client.py`` (the connection in a
background thread) and ``net/remote.py`` (the table and the RemoteSession the game screen plays
through), against a real ``ServerThread`` on a loopback port.

Loops are bounded by counts (``pump``); the short sleep inside only lets the server's thread run.
"""
from __future__ import annotations

import socket
import threading
import time

import pytest

from gonzaga.net import protocol as P
from gonzaga.net.client import CLOSED, CONNECTED, LOST, OPEN_TIMEOUT, Connection
from gonzaga.net.remote import RemoteSession, Table, seat_specs
from gonzaga.net.typed import parse_address, parse_code, parse_name
from gonzaga.net.serve import ServerThread
from gonzaga.rules import Donate, Place, Plan, check, legal_actions, load_content, replay
from gonzaga.table.session import Session
from gonzaga.words import i18n

CONTENT = load_content()
STEPS = 4000  # ticks at most while waiting for the server (each sleeps 2 ms: a safety net of ~10 s)


def pump(tables, until, steps: int = STEPS) -> bool:
    """Tick every table until ``until()`` holds; False if it never did within ``steps`` ticks."""
    for _ in range(steps):
        for t in tables:
            t.tick()
        if until():
            return True
        time.sleep(0.002)
    return False


@pytest.fixture
def server(tmp_path):
    srv = ServerThread(tmp_path / "server", test_seeds=True, any_level=True).start()
    yield srv
    srv.stop()


@pytest.fixture(autouse=True)
def english():
    i18n.set_language("en")
    yield
    i18n.set_language("en")


def two_seats(server, guest_name: str = "Bob", seed: int = 11, **options) -> tuple[Table, Table]:
    """A 2-seat game created by Ann (seat 0) and joined by ``guest_name``, not started."""
    host = Table.host(server.url, "Ann", [P.SeatRequest(kind="host", colour="red"),
                                          P.SeatRequest(kind="open", colour="blue")], CONTENT, seed=seed, **options)
    assert pump([host], lambda: host.code is not None and host.seats), host.error
    guest = Table.join(server.url, host.code, guest_name, CONTENT)
    assert pump([host, guest], lambda: guest.joined and not host.open_seats() and host.seats[1].connected)
    return host, guest


def started(server, **kw) -> tuple[Table, Table]:
    host, guest = two_seats(server, **kw)
    assert host.start()
    assert pump([host, guest], lambda: host.session is not None and guest.session is not None)
    return host, guest


def choose(s: RemoteSession):
    """A simple legal choice from this seat's view: the first plan, else a placement, else a donation."""
    acts = legal_actions(s.state, s.seat)
    if s.state.phase == "place":
        return next((a for a in acts if not isinstance(a, Donate)), acts[0])
    return acts[0]


def play_moves(tables, moves: int) -> int:
    """Each table plays its seat whenever it is to act, for ``moves`` moves in all (or the end)."""
    played = 0
    for _ in range(moves * 40):
        if played >= moves or all(t.session.is_over for t in tables):
            break
        acted = False
        for t in tables:
            s = t.session
            if not s.is_over and s.pending is None and s.seat in s.state.to_act():
                assert s.submit(choose(s)) is None
                played += 1
                acted = True
        versions = [t.session.version for t in tables]
        if acted or not pump(tables, lambda versions=versions: [t.session.version for t in tables] != versions, 500):
            continue
    return played


# ---------------------------------------------------------------- what the player types

def test_addresses_codes_and_names_are_checked():
    assert parse_address("192.168.1.20:7373") == ("wss://192.168.1.20:7373", "")  # encrypted unless ws:// is written
    assert parse_address(" ws://example.org ") == ("ws://example.org:7373", "")
    assert parse_address("ws://[::1]:9000")[0] == "ws://[::1]:9000"
    for bad in ("", "http://host:80", "ws://host:99999", "ws://host/path", "host name", "ws://:80"):
        url, why = parse_address(bad)
        assert url is None and why, bad
    assert parse_code(" csw-2qr ") == ("CSW2QR", "")
    for bad in ("", "ABCDE", "ABCDEFG", "ABCDE0", "ABCDEI"):
        code, why = parse_code(bad)
        assert code is None and "6 letters" in why, bad
    assert parse_name("  Ann   Maria ") == ("Ann Maria", "")
    assert parse_name(" ")[0] is None and parse_name("x" * 25)[0] is None


# ---------------------------------------------------------------- the connection

def test_nobody_listening_gives_lost_not_an_exception():
    with socket.socket() as s:  # a port nobody listens on (bound, never listening)
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
        c = Connection(f"ws://127.0.0.1:{port}")
        assert pump([], lambda: c.status != "connecting")
    assert c.status == LOST
    assert c.error == f"Nobody answered at 127.0.0.1:{port}: is the game still hosted there?"
    assert c.poll() == [] and not c.send(P.Ping())
    c.close()
    assert c.status == CLOSED and c.join()


def test_something_else_than_a_game_server():
    """A web server that is not a game's: "it is not a Gonzaga game", in plain words."""
    srv = socket.socket()
    srv.bind(("127.0.0.1", 0))
    srv.listen(1)
    port = srv.getsockname()[1]

    def answer():
        conn, _ = srv.accept()
        with conn:
            conn.recv(4096)
            conn.sendall(b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n")

    t = threading.Thread(target=answer, daemon=True)
    t.start()
    c = Connection(f"ws://127.0.0.1:{port}")
    try:
        assert pump([], lambda: c.status != "connecting")
        assert c.status == LOST and c.error == f"127.0.0.1:{port} answered, but it is not a Gonzaga game."
    finally:
        c.close()
        t.join(5)
        srv.close()


def test_connection_sends_and_receives_in_order(server):
    c = Connection(server.url)
    for _ in range(3):
        assert c.send(P.Ping())  # queued before the connection is open: sent once it is
    got = []
    assert pump([], lambda: got.extend(c.poll()) or len(got) >= 3)
    assert c.status == CONNECTED and [m.type for m in got] == ["pong"] * 3
    c.close()
    assert c.join()


# ---------------------------------------------------------------- a whole game

def test_two_remote_sessions_play_a_game_to_the_end(server):
    host, guest = started(server)
    assert host.seat == 0 and guest.seat == 1 and host.is_host and not guest.is_host
    for t in (host, guest):
        s = t.session
        assert s.humans == [t.seat] and s.is_human(t.seat) and not s.is_human(1 - t.seat)
        assert [x.name for x in s.seats] == ["Ann", "Bob"] and s.state.viewer == t.seat
        assert s.state.seats[1 - t.seat].objective is None  # never the other seat's secret
    assert play_moves([host, guest], 400) > 0
    assert host.session.is_over and guest.session.is_over
    # both planned at once every round: a plan that came second was sent again, never refused
    assert (host.notice, guest.notice, host.refusal, guest.refusal) == (None, None, None, None)
    # the log is the local game's own, word for word (Session's log code on the views)
    room = server.server.rooms[host.game]
    local = Session([x for x in seat_specs(host.seats)], room.record, content=CONTENT)
    assert host.session.log_lines() == local.log_lines() == guest.session.log_lines()
    assert host.session.score_rows() == local.score_rows()
    assert host.session.state.winners == replay(room.record).winners
    rounds = host.session.round_scores()
    assert rounds.final == [s.score for s in local.state.seats] and rounds.rounds == list(range(1, local.state.round + 1))
    assert host.session.n == len(room.record.actions)
    # the statistics count it once per computer, as an online game of that seat
    from gonzaga.table import stats
    e = stats.entry_for(guest.session)
    assert e.mode == "online" and e.id == stats.online_id(guest.game) != stats.online_id(host.game + "x") and e.seats == 2 and e.opponents == []
    assert e.won == (1 in host.session.state.winners) and e.score == local.state.seats[1].score
    for t in (host, guest):
        t.close()
    assert host.conn.join() and guest.conn.join()


def test_an_illegal_move_is_refused_at_once_with_its_rule(server):
    host, guest = started(server)
    s = host.session
    n = s.n
    bad = Place(0, 1, (0, 0), 0)  # a placement while the seats plan
    why = s.submit(bad)
    assert why is not None and why.rule == check(s.state, bad).rule and why.rule
    assert s.pending is None and s.n == n  # nothing was sent
    assert s.submit(Plan(1, "italia", "A")).rule == "R5"  # the other computer's seat
    # a move the server's rules refuse after this computer sent it (its check bypassed here): the
    # rule's id and sentence come back, and the seat is to act again
    illegal = next(a for a in (Plan(0, "nowhere", "A"), Plan(0, "italia", "D")) if check(s.state, a) is not None)
    expected = check(s.state, illegal)
    assert host.act(s.n, illegal)
    s.pending = (illegal, s.n)
    assert pump([host, guest], lambda: host.refusal is not None)
    assert host.refusal == expected and s.pending is None and s.state.seats[0].plan is None
    assert host.refusal.key  # keyed, so the player's language words it (not the server's English)


def test_a_dropped_client_comes_back_to_its_seat(server):
    host, guest = started(server)
    assert host.session.submit(choose(host.session)) is None
    # the guest has heard of the host's plan before its network goes (on a busy machine it may not
    # have yet, and would hear it after its return)
    assert pump([host, guest], lambda: host.session.pending is None and host.session.state.seats[0].plan is not None
                and guest.session.n == host.session.n)
    guest.conn._ws.socket.shutdown(socket.SHUT_RDWR)  # the network goes away under the guest
    assert pump([host, guest], lambda: guest.status == LOST and not host.seats[1].connected)
    assert guest.error == "The connection to the host was lost."
    assert host.waiting_for() == [1]  # the host's screen says "Waiting for Bob"
    assert guest.session.submit(choose(guest.session)).message.startswith("Not connected")
    lines = len(guest.session.log)
    guest.retry()
    # back, and told so (the news of its return may come a moment after its seat and snapshot)
    assert pump([host, guest], lambda: guest.status == CONNECTED and host.seats[1].connected
                and guest.session.n == host.session.n
                and "log.seat_back" in [e.key for e in guest.session.log[lines:]])
    assert guest.seat == 1 and guest.session.seat == 1 and host.waiting_for() == []
    # nothing happened meanwhile but the return itself, told in the log (issue 50): no gap
    # (the drop may reach the guest too: it was said while the guest was away, and the log is whole)
    told = [e.key for e in guest.session.log[lines:]]
    assert told[-1:] == ["log.seat_back"] and set(told) <= {"log.seat_dropped", "log.seat_back"}
    assert play_moves([host, guest], 6) == 6  # and the game goes on


def test_the_host_hands_an_absent_seat_to_the_ai(server):
    host, guest = started(server, grace=0)
    guest.conn._ws.socket.shutdown(socket.SHUT_RDWR)
    assert pump([host, guest], lambda: host.waiting_for() == [1])
    assert host.set_seat(1, "ai", "greedy")
    assert pump([host], lambda: host.seats[1].kind == "ai" and host.session.seats[1].is_ai)
    assert host.waiting_for() == []
    assert play_moves([host], 4) > 0  # the server's AI plays seat 1 (a few moves: the game goes on)
    guest.retry()  # back: the guest takes the seat from the AI again, with the game log so far
    assert pump([host, guest], lambda: host.seats[1].kind == "human" and guest.session is not None
                and guest.session.n == host.session.n and guest.session.log)
    assert guest.problem is None and not guest.session.seats[1].is_ai


def test_a_vanished_server_gives_the_lost_state(server):
    host, guest = started(server)
    server.stop()
    assert pump([host, guest], lambda: host.status == LOST and guest.status == LOST)
    assert host.error in ("The host closed the game.", "The connection to the host was lost.")
    why = host.session.submit(choose(host.session))
    assert why is not None and why.message.startswith("Not connected")
    host.retry()  # nobody answers any more: lost again, with why
    assert pump([host], lambda: host.status == LOST)
    assert host.error.startswith("Nobody answered at 127.0.0.1:")
    assert host.session.state.phase == "plan"  # the screen keeps the last state it had


def test_the_hosts_own_server_is_waited_for_when_the_machine_is_busy(server):
    """A connection to a server this computer started waits past OPEN_TIMEOUT: it is there, and a
    slow answer only means a busy machine (a CI run once lost a hosted game's start this way)."""
    busy = OPEN_TIMEOUT + 1.0
    server._loop.call_soon_threadsafe(time.sleep, busy)  # the server's loop answers nothing meanwhile
    start = time.monotonic()
    host = Table.host(server.url, "Ann", [P.SeatRequest(kind="host", colour="red"),
                                          P.SeatRequest(kind="open", colour="blue")], CONTENT, server=server)
    assert pump([host], lambda: host.code is not None or host.status == LOST, STEPS * 2), host.error
    assert host.code is not None and time.monotonic() - start >= busy - 0.5, host.error
    host.close()


def test_a_game_resumes_on_a_restarted_server(tmp_path):
    """Everything is in the server's folder: a new server on it, and the seats come back with their tokens."""
    srv = ServerThread(tmp_path / "server", test_seeds=True, any_level=True).start()
    try:
        host, guest = started(srv)
        assert play_moves([host, guest], 4) == 4
        room = srv.server.rooms[host.game]
        assert pump([host, guest], lambda: host.session.pending is None and guest.session.pending is None
                    and host.session.n == guest.session.n == len(room.record.actions))
        n = host.session.n
    finally:
        srv.stop()
    srv2 = ServerThread(tmp_path / "server", test_seeds=True, any_level=True).start()
    try:
        back = Table.resume(srv2.url, host.game, host.token, CONTENT)
        assert pump([back], lambda: back.session is not None)
        assert back.seat == 0 and back.session.n == n and back.is_host
        host.close()
        guest.close()
        back.close()
    finally:
        srv2.stop()


# ---------------------------------------------------------------- the lobby

def test_lobby_seats_and_start(server):
    host = Table.host(server.url, "Ann", [P.SeatRequest(kind="host", colour="red"),
                                          P.SeatRequest(kind="open", colour="yellow"),
                                          P.SeatRequest(kind="ai", colour="green", bot="greedy")], CONTENT)
    assert pump([host], lambda: len(host.seats) == 3)
    assert host.open_seats() == [1]
    assert host.start()  # a seat is still open: refused, said plainly
    assert pump([host], lambda: host.notice is not None)
    assert host.notice == "Every seat needs a friend or an AI before the game can start."
    assert host.set_seat(1, "ai", "random")
    assert pump([host], lambda: host.seats[1].kind == "ai")
    assert host.set_seat(1, "open")
    assert pump([host], lambda: host.seats[1].kind == "open")
    guest = Table.join(server.url, host.code, "Bob", CONTENT)
    assert pump([host, guest], lambda: guest.joined)
    full = Table.join(server.url, host.code, "Cid", CONTENT)  # no seat left for a third human
    assert pump([host, guest, full], lambda: full.problem is not None)
    # the server answers a full game's code as a wrong one (issue 39: a guess learns nothing)
    assert full.problem.startswith("No game waiting for players has this invite code") and full.status == CLOSED
    wrong = Table.join(server.url, "ZZZZZZ", "Dan", CONTENT)
    assert pump([wrong], lambda: wrong.problem is not None)
    assert wrong.problem == i18n.t("online.err_unknown_game")
    assert not guest.start() and not guest.set_seat(2, "open")  # only the host's computer offers them
    assert host.start()
    assert pump([host, guest], lambda: host.session is not None and guest.session is not None)
    late = Table.join(server.url, host.code, "Eve", CONTENT)
    assert pump([late], lambda: late.problem is not None)
    assert late.problem == i18n.t("online.err_unknown_game")  # a started game's code too


class FakeConnection:
    """A connection that hands the table given server messages (what a hostile or other server sends)."""

    def __init__(self, messages):
        self.messages = list(messages)
        self.sent = []
        self.status = CONNECTED
        self.error = ""

    def send(self, msg) -> bool:
        self.sent.append(msg)
        return True

    def poll(self):
        out, self.messages = self.messages, []
        return out

    def close(self) -> None:
        self.status = CLOSED


def test_another_board_is_refused_plainly():
    other = {"name": "europa", "version": 1, "digest": "0123456789ab"}
    joined = P.Joined(game="g1", code="ABCDEF", seat=1, token="t" * 32, host=False, map=other)
    t = Table.join("ws://127.0.0.1:1", "ABCDEF", "Bob", CONTENT, connection=FakeConnection([joined]))
    assert t.tick() and t.status == CLOSED
    assert t.problem == "The host plays on a different board: both players need the same version of Gonzaga."
    same = P.Joined(game="g1", code="ABCDEF", seat=1, token="t" * 32, host=False, map=CONTENT.map_id)
    t = Table.join("ws://127.0.0.1:1", "ABCDEF", "Bob", CONTENT, connection=FakeConnection([same]))
    assert t.tick() and t.problem is None and t.joined


def test_a_view_this_copy_cannot_read_stops_plainly():
    fake = FakeConnection([P.Joined(game="g1", code="ABCDEF", seat=0, token="t" * 32, host=True, map=CONTENT.map_id),
                           P.Update(game="g1", n=1, seat=0, view={"phase": "nonsense"}, last=None, seats=[])])
    t = Table.join("ws://127.0.0.1:1", "ABCDEF", "Bob", CONTENT, connection=fake)
    t.tick()
    assert t.problem.startswith("The host's game is another version") and t.session is None


def _views_of_a_game(moves: int):
    """Seat 0's views of a two-seat game after the setup and each of ``moves`` plans:
    [(n, view, the seat that planned)]."""
    import random
    from gonzaga.rules import GameConfig, new_game, play_setup, view
    from gonzaga.rules.engine import apply
    from gonzaga.net.viewcodec import view_to_json
    st, _ = play_setup(new_game(GameConfig(seats=2), CONTENT), random.Random(7))
    out = [(1, view_to_json(view(st, 0)), None)]
    for n in range(2, moves + 2):
        seat = min(st.to_act())
        st = apply(st, next(a for a in legal_actions(st, seat) if isinstance(a, Plan)))
        out.append((n, view_to_json(view(st, 0)), seat))
    return out


def _table_at_the_first_view(views):
    """A seat-0 table on a fake connection that has taken the first view; the way to send updates."""
    joined = P.Joined(game="g1", code="ABCDEF", seat=0, token="t" * 32, host=False, map=CONTENT.map_id)

    def update(i):
        n, v, seat = views[i]
        last = None if seat is None else P.LastAction(kind="plan", seat=seat)
        return P.Update(game="g1", n=n, seat=0, view=v, last=last, seats=[])
    fake = FakeConnection([joined, update(0)])
    t = Table.join("ws://127.0.0.1:1", "ABCDEF", "Bob", CONTENT, connection=fake)
    t.tick()
    assert t.session is not None and t.session.n == views[0][0]
    return t, fake, update


def test_updates_held_under_an_overlay_come_before_those_arriving_as_it_closes():
    """An overlay (the reveal) holds the updates; the frame it closes, the held ones are applied
    first and then what has just arrived: the screen ends at the newest position. Applied the other
    way round, the held update read as a snapshot took the state back, and at a game's end nothing
    came after it to mend that (the host's screen stayed two actions short of 'over')."""
    from gonzaga.net.viewcodec import view_to_json
    views = _views_of_a_game(2)
    t, fake, update = _table_at_the_first_view(views)
    fake.messages = [update(1)]
    t.tick(hold=True)  # the reveal is open: the update waits
    assert t.session.n == 1
    fake.messages = [update(2)]
    t.tick(hold=False)  # the reveal closed; the next update came in the same frame
    assert t.session.n == 3 and view_to_json(t.session.state) == views[2][1]  # the newest position
    assert len(t.session.record.actions) == 2  # both plans, in order: none read as a gap


def test_an_update_older_than_the_position_shown_is_not_taken():
    """The server's positions only go forward; one older than the screen's (however it came) is
    left, with a line in the log, rather than taking the game back."""
    from gonzaga.net.viewcodec import view_to_json
    views = _views_of_a_game(2)
    t, fake, update = _table_at_the_first_view(views)
    fake.messages = [update(1), update(2), update(1)]
    t.tick()
    assert t.session.n == 3 and view_to_json(t.session.state) == views[2][1]


def test_an_update_at_the_position_shown_is_taken():
    """Only an older position is left: a snapshot at the same one (a seat handed to the computer,
    a player back) still brings its news of the seats."""
    views = _views_of_a_game(1)
    t, fake, update = _table_at_the_first_view(views)
    seats = [P.SeatInfo(name="Ann", kind="human", colour="red", connected=True),
             P.SeatInfo(name="Bob", kind="ai", colour="blue", bot="greedy", connected=True)]
    fake.messages = [update(0).model_copy(update={"seats": seats})]
    t.tick()
    assert t.session.n == views[0][0] and [s.kind for s in t.seats] == ["human", "ai"]


def test_news_held_under_an_overlay_reaches_the_log_when_it_closes():
    """A seat change told while the reveal is open waits with the updates, then is in the log."""
    from gonzaga.net import logcodec, seatnews
    t, fake, update = _table_at_the_first_view(_views_of_a_game(1))
    line = logcodec.encode([seatnews.line(1, "log.seat_dropped", "Bob", seconds=30)])[0]
    before = len(t.session.log)
    fake.messages = [P.News(game="g1", n=1, line=line)]
    t.tick(hold=True)
    assert len(t.session.log) == before  # waits under the reveal
    t.tick(hold=False)
    assert len(t.session.log) == before + 1 and t.session.log[-1] == logcodec.decode_line(line)


def test_past_the_cap_of_held_updates_the_oldest_go_and_the_screen_ends_at_the_newest(monkeypatch):
    """An overlay left open for long holds at most ``MAX_HELD`` updates: past it the oldest are
    dropped (each update carries the whole view, so the newest alone is the truth), and when the
    overlay closes the screen shows the newest position."""
    from gonzaga.net import remote
    from gonzaga.net.viewcodec import view_to_json
    monkeypatch.setattr(remote, "MAX_HELD", 1)
    views = _views_of_a_game(2)
    t, fake, update = _table_at_the_first_view(views)
    fake.messages = [update(1), update(2)]
    t.tick(hold=True)
    assert t.session.n == 1 and [u.n for u in t._held] == [3]  # the newest kept
    t.tick(hold=False)
    assert t.session.n == 3 and view_to_json(t.session.state) == views[2][1]
