"""Issue 39, the server's hardening: the hidden setup from the system's randomness and never sent
or logged, client seeds and AI budgets refused, a host's own server, per-address limits, one
answer for a wrong invite code, idle games leaving memory, and logs that do not flood."""
from __future__ import annotations

import json
import logging
import random
import socket
import ssl
import struct
import threading
import time

import pytest
from websockets.sync.client import connect

from gonzaga.net import protocol as P
from gonzaga.net.admission import Admission, Limits, Refused
from gonzaga.net.serve import RepeatFilter, ServerThread, TlsFiles
from gonzaga.net.tls import client_context
from gonzaga.net import upkeep
from gonzaga.net.upkeep import Upkeep
from gonzaga.rules import legal_actions, load_content
from gonzaga.net.viewcodec import view_from_json

pytestmark = pytest.mark.rule("E-net")  # the server's duties: who may connect, create and join, and how often

CONTENT = load_content()
HOST = {"kind": "host", "colour": "red"}
OPEN = {"kind": "open", "colour": "blue"}


class C:
    """A small client; ``source`` picks the loopback address it connects from (127.0.0.x)."""

    def __init__(self, url: str, source: str = "127.0.0.1"):
        self.ws = connect(url, open_timeout=20, close_timeout=2, max_size=P.MAX_SERVER_BYTES,
                          source_address=(source, 0)).__enter__()
        self.got: list[dict] = []
        self.token = self.seat = self.code = self.game = self.n = self.view = None

    def send(self, **msg) -> None:
        self.ws.send(json.dumps({"v": 2, **msg}))
        time.sleep(0.04)  # under the flood limit

    def recv(self, timeout: float = 10.0) -> dict:
        m = json.loads(self.ws.recv(timeout=timeout))
        self.got.append(m)
        if m["type"] == "joined":
            self.token, self.seat, self.code, self.game = m["token"], m["seat"], m["code"], m["game"]
        elif m["type"] == "update":
            self.n, self.view = m["n"], view_from_json(m["view"], CONTENT)
        return m

    def expect(self, kind: str, timeout: float = 10.0) -> dict:
        end = time.monotonic() + timeout
        while True:
            m = self.recv(max(0.01, end - time.monotonic()))
            if m["type"] == kind:
                return m
            assert m["type"] in ("lobby", "update", "pong", "news", "clocks"), m

    def error(self, code: str) -> dict:
        m = self.expect("error")
        assert m["code"] == code, m
        return m

    def close(self) -> None:
        try:
            self.ws.close()
        except Exception:
            pass


def until(cond, what: str, seconds: float = 10.0) -> None:
    """Wait for the server's side of a socket event (a connection's end reaching it) by polling
    ``cond`` with a deadline, not for a fixed time."""
    end = time.monotonic() + seconds
    while not cond():
        assert time.monotonic() < end, f"never happened: {what}"
        time.sleep(0.01)


def held(srv, address: str) -> int:
    """The connections the server counts for ``address`` (its admission's own count)."""
    a = srv.server.admission._addresses.get(address)
    return 0 if a is None else a.conns


@pytest.fixture
def public(tmp_path):
    """A server with the public limits (as ``gonzaga serve``)."""
    t = ServerThread(tmp_path / "data", limits=Limits()).start()
    yield t
    t.stop()


def create(url: str, seats=(HOST, OPEN), source="127.0.0.1", **extra) -> C:
    c = C(url, source)
    c.send(type="create", name="Ann", seats=list(seats), **extra)
    return c


# ---------------------------------------------------------------- chance and secrets

def test_the_setup_is_dealt_from_the_system_randomness(public, monkeypatch):
    assert isinstance(Admission().deal_rng(), random.SystemRandom)
    drawn = []
    real = public.admission.deal_rng

    def spy():
        drawn.append(real())
        return drawn[-1]
    monkeypatch.setattr(public.admission, "deal_rng", spy)
    monkeypatch.setattr(random.Random, "seed", lambda *a, **k: pytest.fail("a seeded generator dealt"))
    host = create(public.url, (HOST, {"kind": "ai", "colour": "blue", "bot": "easy"}))
    host.expect("joined")
    host.send(type="start", token=host.token)
    host.expect("update")
    assert len(drawn) == 1 and isinstance(drawn[0], random.SystemRandom)
    host.close()


def test_a_client_seed_is_refused_unless_test_seeds(public, tmp_path):
    c = create(public.url, seed=5)
    c.error("not_allowed")
    c.close()
    with ServerThread(tmp_path / "t", test_seeds=True) as t:
        c = create(t.url, seed=5)
        c.expect("joined")
        c.close()


def test_no_message_and_no_log_record_holds_the_seed_or_a_deck(public, caplog):
    caplog.set_level(logging.DEBUG)
    host = create(public.url)
    host.expect("joined")
    guest = C(public.url, "127.0.0.2")
    guest.send(type="join", code=host.code, name="Bea")
    guest.expect("joined")
    host.send(type="start", token=host.token)
    for c in (host, guest):
        c.expect("update")
    for _ in range(6):  # a few plans and placements
        for c in (host, guest):
            acts = legal_actions(c.view, c.seat) if c.view.phase != "over" else []
            if acts and c.seat in c.view.to_act():
                c.send(type="act", token=c.token, n=c.n, action=acts[0].to_text())
        for c in (host, guest):
            try:
                while True:
                    c.recv(0.3)
            except TimeoutError:
                pass
    store_game = public.server.store.load_game(host.game)
    setup = store_game.actions[0]
    decks = setup.split("decks=")[1].split(" ")[0].split("|")
    hidden = [str(store_game.seed), "decks="] + [".".join(d.split(".")[:6]) for d in decks]
    assert store_game.seed >= 2 ** 40  # 63 random bits, not a 31-bit draw
    sent = json.dumps(host.got + guest.got)
    logged = "\n".join(r.getMessage() for r in caplog.records)
    assert "joined" in logged  # the records of the game were captured
    for h in hidden:
        assert h not in sent and h not in logged, h
    host.close()
    guest.close()


# ---------------------------------------------------------------- who may create, and with what AI

def test_a_hosts_own_server_creates_only_for_its_host(tmp_path):
    with ServerThread(tmp_path / "h", host_key="k" * 32) as t:
        c = create(t.url)
        c.error("not_allowed")
        c.close()
        c = create(t.url, host_key="x" * 32)
        c.error("not_allowed")
        c.close()
        host = create(t.url, host_key="k" * 32)
        host.expect("joined")
        guest = C(t.url)
        guest.send(type="join", code=host.code, name="Bea")  # guests join as before
        assert guest.expect("joined")["seat"] == 1
        host.close()
        guest.close()


@pytest.mark.parametrize("bot", ["expert@999999", "hard@3", "greedy", "random"])
def test_only_the_shipped_levels_without_a_budget(public, bot):
    c = create(public.url, (HOST, {"kind": "ai", "colour": "blue", "bot": bot}))
    m = c.error("not_allowed")
    assert m["params"]["levels"] == "easy, medium, hard, expert" and m["key"] in ("net.no_level", "net.no_budget")
    c.close()
    ok = create(public.url, (HOST, {"kind": "ai", "colour": "blue", "bot": "expert"}), source="127.0.0.3")
    ok.expect("joined")
    ok.send(type="set_seat", token=ok.token, seat=1, kind="ai", bot=bot)  # nor later, by set_seat
    ok.error("not_allowed")
    ok.close()


# ---------------------------------------------------------------- invite codes and limits

def test_one_answer_for_a_wrong_code_and_a_lockout(public):
    host = create(public.url)
    host.expect("joined")
    started = create(public.url, source="127.0.0.3")
    started.expect("joined")
    friend = C(public.url, "127.0.0.3")
    friend.send(type="join", code=started.code, name="Bea")
    friend.expect("joined")
    started.send(type="start", token=started.token)
    started.expect("update")
    full = C(public.url, "127.0.0.4")
    full.send(type="join", code=host.code, name="Cy")
    full.expect("joined")  # host's game is now full
    g = C(public.url, "127.0.0.2")
    answers = set()
    for code in ("ZZZZZZ", started.code, host.code):  # unknown, started, full: one answer
        g.send(type="join", code=code, name="Mal")
        m = g.error("unknown_game")
        answers.add(json.dumps(m, sort_keys=True))
    assert len(answers) == 1
    for k in range(7):  # ten wrong codes in a minute: answered
        g.send(type="join", code=f"QQQQQ{k + 2}", name="Mal")
        g.error("unknown_game")
    g.send(type="join", code=host.code, name="Mal")  # the eleventh: locked out, whatever the code
    m = g.error("limit")
    assert m["key"] == "net.locked_out" and m["params"]["seconds"] > 0
    other = C(public.url, "127.0.0.5")  # another address is not locked out
    other.send(type="join", code="ZZZZZZ", name="Bo")
    other.error("unknown_game")
    for c in (host, started, friend, full, g, other):
        c.close()


def test_lockouts_double_up_to_the_limit():
    now = [0.0]
    a = Admission(Limits(), clock=lambda: now[0])
    for lockout in (60, 120, 240):
        for _ in range(10):
            a.wrong_guess("1.2.3.4")
        with pytest.raises(Exception) as e:
            a.check_guess("1.2.3.4")
        assert e.value.code == "limit"
        now[0] += lockout - 1
        with pytest.raises(Refused):
            a.check_guess("1.2.3.4")
        now[0] += 1.5
        a.check_guess("1.2.3.4")


def test_a_game_plays_on_while_one_address_floods(public):
    """Many connections and creates from 127.0.0.1; a game of 127.0.0.2 and 127.0.0.3 goes on."""
    host = create(public.url, source="127.0.0.2")
    host.expect("joined")
    guest = C(public.url, "127.0.0.3")
    guest.send(type="join", code=host.code, name="Bea")
    guest.expect("joined")
    refused = {"conn": 0, "create": 0}
    flooders: list = []
    stop = threading.Event()

    def flood():
        for _ in range(60):
            try:
                c = C(public.url)
            except Exception:  # closed at accept: over the address's connections
                refused["conn"] += 1
                continue
            flooders.append(c)
            try:
                c.send(type="create", name="Mal", seats=[HOST, OPEN])
                m = c.recv(5)
                if m["type"] == "error" and m["code"] == "limit":
                    refused["create"] += 1
            except Exception:
                refused["conn"] += 1
    t = threading.Thread(target=flood)
    t.start()
    host.send(type="start", token=host.token)
    moves = 0
    end = time.monotonic() + 60
    while (moves < 8 or t.is_alive()) and time.monotonic() < end:
        for c in (host, guest):
            try:
                c.recv(0.2)
            except TimeoutError:
                pass
            if c.view is not None and c.view.phase != "over" and c.seat in c.view.to_act():
                acts = legal_actions(c.view, c.seat)
                c.send(type="act", token=c.token, n=c.n, action=acts[0].to_text())
                c.view = None  # wait for the update
                moves += 1
    stop.set()
    t.join(30)
    assert moves >= 8
    assert refused["conn"] > 0 and refused["create"] > 0, refused
    assert len(flooders) == public.admission.limits.conns_per_address and refused["conn"] == 60 - len(flooders)
    for c in (host, guest, *flooders):
        c.close()


def _tls_answer(port: int, source: str, ctx: ssl.SSLContext, hello: bool = True) -> bytes:
    """What the server sends back on a fresh TCP connection from ``source`` to a ClientHello (or
    to bytes that are not TLS), read until it closes or stays quiet for 2 s."""
    out = ssl.MemoryBIO()
    tls = ctx.wrap_bio(ssl.MemoryBIO(), out)
    with pytest.raises(ssl.SSLWantReadError):
        tls.do_handshake()
    got = b""
    try:  # a reset may come as early as the connect
        with socket.create_connection(("127.0.0.1", port), timeout=2, source_address=(source, 0)) as s:
            s.sendall(out.read() if hello else b"GET / HTTP/1.1\r\n\r\n")
            while chunk := s.recv(4096):
                got += chunk
    except (ConnectionResetError, BrokenPipeError, socket.timeout):
        pass
    return got


def _reset_mid_handshake(port: int, source: str, ctx: ssl.SSLContext) -> None:
    """A ClientHello, the server's first answer, then a reset (the client's end vanishes)."""
    out = ssl.MemoryBIO()
    with pytest.raises(ssl.SSLWantReadError):
        ctx.wrap_bio(ssl.MemoryBIO(), out).do_handshake()
    with socket.create_connection(("127.0.0.1", port), timeout=5, source_address=(source, 0)) as s:
        s.sendall(out.read())
        assert s.recv(4096)[:1] == b"\x16"
        s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))


def test_an_address_over_its_limit_is_closed_before_the_tls_handshake(tmp_path):
    """Over its connections, an address's TCP connection is closed at accept: its ClientHello gets
    no ServerHello (no TLS work at all); within the limit, and from other addresses, nothing
    changes; a slot comes back when a connection ends, also one whose handshake failed or was cut short."""
    files = TlsFiles.own(tmp_path / "cert")
    srv = ServerThread(tmp_path / "data", limits=Limits(conns_per_address=2), tls=files).start()
    ctx = client_context(files.pin)
    url = srv.url.partition("#")[0]
    opened: list = []

    def open_ws(source: str):
        opened.append(connect(url, ssl=ctx, open_timeout=20, close_timeout=2,
                              source_address=(source, 0)).__enter__())
        return opened[-1]
    try:
        assert _tls_answer(srv.port, "127.0.0.5", ctx)[:1] == b"\x16"  # a ServerHello: a TLS handshake record
        until(lambda: held(srv, "127.0.0.5") == 0, "that connection's end reaches the server")
        kept = [open_ws("127.0.0.5"), open_ws("127.0.0.5")]
        assert _tls_answer(srv.port, "127.0.0.5", ctx) == b""  # the third: closed before any TLS
        other = open_ws("127.0.0.6")  # another address is not held up
        other.send(json.dumps({"v": 2, "type": "ping"}))
        assert json.loads(other.recv(timeout=10))["type"] == "pong"
        kept.pop().close()
        until(lambda: held(srv, "127.0.0.5") == 1, "a closed connection's slot comes back")
        _tls_answer(srv.port, "127.0.0.5", ctx, hello=False)  # a failed handshake (not TLS)...
        until(lambda: held(srv, "127.0.0.5") == 1, "a failed handshake's slot comes back")
        _reset_mid_handshake(srv.port, "127.0.0.5", ctx)  # ...and one cut short...
        until(lambda: held(srv, "127.0.0.5") == 1, "a handshake cut short gives its slot back")
        kept.append(open_ws("127.0.0.5"))  # ...each gave its slot back: two are held again
        assert _tls_answer(srv.port, "127.0.0.5", ctx) == b""
    finally:
        for ws in opened:
            ws.close()
        srv.stop()


def test_a_request_sent_with_the_last_handshake_bytes_is_answered(tmp_path):
    """The client's TLS Finished and its WebSocket request in one TCP segment: asyncio's TLS hands
    the request over before ``start_tls`` returns, and the gate keeps it for websockets."""
    files = TlsFiles.own(tmp_path / "cert")
    srv = ServerThread(tmp_path / "data", limits=Limits(conns_per_address=2), tls=files).start()
    request = (f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{srv.port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
               "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n").encode()
    try:
        for _ in range(3):  # each one's slot comes back when it is closed
            incoming, out = ssl.MemoryBIO(), ssl.MemoryBIO()
            tls = client_context(files.pin).wrap_bio(incoming, out)
            with socket.create_connection(("127.0.0.1", srv.port), timeout=10) as s:
                while True:
                    try:
                        tls.do_handshake()
                        break
                    except ssl.SSLWantReadError:
                        s.sendall(out.read())
                        incoming.write(s.recv(65536))
                tls.write(request)
                s.sendall(out.read())  # the Finished and the request together
                answer = b""
                while b"\r\n\r\n" not in answer:
                    try:
                        answer += tls.read(65536)
                    except ssl.SSLWantReadError:
                        data = s.recv(65536)
                        assert data, answer
                        incoming.write(data)
            assert answer.startswith(b"HTTP/1.1 101"), answer
            until(lambda: held(srv, "127.0.0.1") == 0, "the closed connection's slot comes back")
    finally:
        srv.stop()


def test_creates_a_minute_and_lobbies_at_once_per_address():
    now = [0.0]
    a = Admission(Limits(creates_per_minute=5, lobbies_per_address=3), clock=lambda: now[0])
    lobbies = set()
    for k in range(3):
        a.check_create("9.9.9.9", None, None, lambda g: g in lobbies)
        a.created("9.9.9.9", f"g{k}")
        lobbies.add(f"g{k}")
    with pytest.raises(Exception) as e:
        a.check_create("9.9.9.9", None, None, lambda g: g in lobbies)
    assert e.value.code == "limit" and "waiting to start" in e.value.message
    lobbies.clear()  # they started
    for k in range(2):
        a.check_create("9.9.9.9", None, None, lambda g: g in lobbies)
        a.created("9.9.9.9", f"h{k}")
    with pytest.raises(Exception) as e:  # the sixth in a minute
        a.check_create("9.9.9.9", None, None, lambda g: False)
    assert "a minute" in e.value.message
    now[0] += 61
    a.check_create("9.9.9.9", None, None, lambda g: False)


# ---------------------------------------------------------------- memory

def test_idle_lobbies_expire_and_finished_games_leave_memory(public):
    srv = public.server
    now = [1000.0]
    up = Upkeep(srv, clock=lambda: now[0])
    c = create(public.url)
    c.expect("joined")
    gid = c.game
    c.close()
    until(lambda: srv.rooms[gid].seats[0].conn is None, "the connection's end reaches the server")
    up.sweep()
    now[0] += srv.admission.limits.lobby_idle_seconds + 1
    done = threading.Event()
    srv.loop.call_soon_threadsafe(lambda: (up.sweep(), done.set()))
    assert done.wait(5)
    assert gid not in srv.rooms and srv.store.load_game(gid) is None  # gone from the store too


def test_the_servers_periodic_task_runs_the_memory_sweep(tmp_path, monkeypatch):
    """The one periodic task that checks the turn timers also runs the memory sweep when due
    (here at every tick): a lobby left idle goes without anyone calling ``sweep``."""
    monkeypatch.setattr(upkeep, "SWEEP_SECONDS", 0.0)
    t = ServerThread(tmp_path / "data", limits=Limits(lobby_idle_seconds=1.0)).start()
    try:
        c = create(t.url)
        c.expect("joined")
        gid = c.game
        c.close()
        end = time.monotonic() + 10
        while gid in t.server.rooms:
            assert time.monotonic() < end, "the idle lobby was never swept"
            time.sleep(0.1)
        assert t.server.store.load_game(gid) is None
    finally:
        t.stop()


def test_repeated_log_records_are_rate_limited():
    now = [0.0]
    f = RepeatFilter(clock=lambda: now[0])
    def rec():
        return logging.LogRecord("asyncio", logging.ERROR, "x", 1, "socket.accept() out of system resource",
                                        None, (OSError, OSError(24, "Too many open files"), None))
    passed = [f.filter(r) for r in (rec() for _ in range(1000))]
    assert sum(passed) == RepeatFilter.BURST
    now[0] += 61
    r = rec()
    assert f.filter(r) and "995 more like this" in r.msg and r.exc_info is not None


def test_a_finished_game_leaves_memory_and_a_resume_loads_it_again(public):
    srv = public.server
    now = [1000.0]
    up = Upkeep(srv, clock=lambda: now[0])
    host = create(public.url, (HOST, {"kind": "ai", "colour": "blue", "bot": "easy"}))
    host.expect("joined")
    host.send(type="start", token=host.token)
    host.expect("update")
    host.close()
    until(lambda: srv.rooms[host.game].seats[0].conn is None, "the connection's end reaches the server")
    done = threading.Event()

    def finish_and_sweep():
        srv.rooms[host.game].finished = True  # as if played to the end, nobody connected
        up.sweep()
        now[0] += srv.admission.limits.finished_idle_seconds + 1
        up.sweep()
        done.set()
    srv.loop.call_soon_threadsafe(finish_and_sweep)
    assert done.wait(5)
    assert host.game not in srv.rooms and not srv.tokens
    back = C(public.url)
    back.send(type="resume", game=host.game, token=host.token)
    assert back.expect("joined")["seat"] == 0
    assert back.expect("update")["n"] >= 1  # the game as stored, replayed
    assert host.game in srv.rooms
    back.close()
