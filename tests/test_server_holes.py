"""Issue 47, the three holes a hostile client found: connections still in a handshake are capped
server-wide when they are accepted; every per-address limit counts an IPv6 host's /64 as one
address (and an IPv4-mapped IPv6 address as its IPv4 address); only the connection that holds a
seat may resign it."""
from __future__ import annotations

import json
import socket
import time

import pytest
from websockets.exceptions import ConnectionClosed, InvalidHandshake
from websockets.sync.client import connect

from gonzaga.net.admission import Admission, Limits
from gonzaga.net.gate import address_of
from gonzaga.net.serve import ServerThread, TlsFiles
from gonzaga.net.tls import client_context

from test_online_admission import _tls_answer
from test_online_play import lobby_until, two
from test_net_server import Client

pytestmark = pytest.mark.rule("E-net")


def _silent(port: int, source: str) -> socket.socket:
    """A TCP connection that says nothing: it sits in the server's handshake until it times out."""
    s = socket.create_connection(("127.0.0.1", port), timeout=5, source_address=(source, 0))
    return s


def _shaking(srv, n: int) -> None:
    """Wait (on the clock, bounded) until the server counts ``n`` connections in a handshake."""
    end = time.monotonic() + 20
    while srv.server.gate.shaking != n:
        assert time.monotonic() < end, f"{srv.server.gate.shaking} handshakes, not {n}"
        time.sleep(0.02)


@pytest.mark.parametrize("tls", [True, False], ids=["wss", "ws"])
def test_connections_in_a_handshake_are_capped_server_wide_at_accept(tmp_path, tls):
    """Three silent sockets from three addresses (each far under its own limit) hold the cap of
    three handshakes: a fourth connection, from a fourth address, is reset at accept (no
    ServerHello); once one silent socket goes, a connection is admitted again; connections through
    their WebSocket handshake no longer count."""
    files = TlsFiles.own(tmp_path / "cert") if tls else None
    srv = ServerThread(tmp_path / "data", limits=Limits(handshakes=3), tls=files).start()
    ctx = client_context(files.pin) if files else None
    url = srv.url.partition("#")[0]
    silent: list[socket.socket] = []
    opened = []
    try:
        silent = [_silent(srv.port, f"127.0.0.{20 + i}") for i in range(3)]
        _shaking(srv, 3)  # the server has accepted them
        if tls:
            assert _tls_answer(srv.port, "127.0.0.30", ctx) == b""  # reset before any TLS work
        else:
            with pytest.raises((OSError, InvalidHandshake, ConnectionClosed)):  # reset at accept: no HTTP answer
                with connect(url, open_timeout=5, source_address=("127.0.0.30", 0)):
                    pass
        assert srv.server.gate.refused_busy == 1 and srv.server.gate.shaking == 3
        silent.pop().close()
        _shaking(srv, 2)  # its end reached the server: a handshake slot is free
        for i in range(3):  # each gets through its handshakes, then stops counting
            opened.append(connect(url, ssl=ctx, open_timeout=10, close_timeout=2,
                                  source_address=(f"127.0.0.{40 + i}", 0)).__enter__())
            opened[-1].send(json.dumps({"v": 2, "type": "ping"}))
            assert json.loads(opened[-1].recv(timeout=10))["type"] == "pong"
            _shaking(srv, 2)
        if tls:
            assert _tls_answer(srv.port, "127.0.0.31", ctx)[:1] == b"\x16"  # a ServerHello: admitted
    finally:
        for s in silent:
            s.close()
        for ws in opened:
            ws.close()
        srv.stop()


def test_the_handshake_count_comes_back_when_handshakes_fail_or_end(tmp_path):
    """Handshakes cut short (a reset mid-TLS, bytes that are not TLS) leave the count: with a cap
    of one, connection after connection is still admitted."""
    files = TlsFiles.own(tmp_path / "cert")
    srv = ServerThread(tmp_path / "data", limits=Limits(handshakes=1), tls=files).start()
    ctx = client_context(files.pin)
    try:
        for i in range(3):
            _tls_answer(srv.port, "127.0.0.50", ctx, hello=False)  # not TLS: the handshake fails
            _shaking(srv, 0)
            assert _tls_answer(srv.port, "127.0.0.51", ctx)[:1] == b"\x16", i  # admitted each time
            _shaking(srv, 0)
    finally:
        srv.stop()


@pytest.mark.parametrize("peer,key", [
    (("203.0.113.7", 5000), "203.0.113.7"),
    (("2001:db8:1:2:aaaa:bbbb:cccc:dddd", 5000, 0, 0), "2001:db8:1:2::/64"),
    (("2001:db8:1:2::1", 5001, 0, 0), "2001:db8:1:2::/64"),  # the same host's /64
    (("2001:db8:1:3::1", 5001, 0, 0), "2001:db8:1:3::/64"),  # the next /64: another host
    (("::ffff:198.51.100.4", 5000, 0, 0), "198.51.100.4"),  # IPv4-mapped: the IPv4 address
    (("fe80::1%eth0", 5000, 0, 2), "fe80::/64"),
    (None, "a client"),
])
def test_the_one_key_of_every_per_address_limit(peer, key):
    assert address_of(peer) == key


def test_one_ipv6_host_cannot_spread_over_its_64():
    """Connections, games and wrong codes from addresses of one /64 count as one address's."""
    adm = Admission(Limits(conns_per_address=2, wrong_codes_per_minute=3), clock=lambda: 1000.0)
    hosts = [address_of((f"2001:db8:7:7::{i:x}", 1, 0, 0)) for i in range(1, 6)]
    assert adm.connect(hosts[0]) and adm.connect(hosts[1])
    assert not adm.connect(hosts[2])  # a third address of the same /64: over the limit
    assert adm.connect(address_of(("2001:db8:7:8::1", 1, 0, 0)))  # another /64 is another host
    assert adm.connect(address_of(("::ffff:10.0.0.1", 1, 0, 0))) and adm.connect("10.0.0.1")
    assert not adm.connect(address_of(("10.0.0.1", 1)))  # mapped and plain IPv4 are one address
    for h in hosts[:3]:
        adm.wrong_guess(h)
    with pytest.raises(Exception) as e:
        adm.check_guess(hosts[4])
    assert e.value.key == "net.locked_out"


@pytest.fixture
def srv(tmp_path):
    t = ServerThread(tmp_path / "data", test_seeds=True, any_level=True)
    t.start()
    yield t
    t.stop()


def test_only_the_connection_that_holds_a_seat_resigns_it(srv):
    """A spectator's connection, or any other one, that knows a player's token cannot resign that
    player's seat (as for chat and rematch); the seat's own connection can."""
    host, friend = two(srv)
    spy = Client(srv.url)
    spy.send(type="watch", code=host.code)
    spy.expect("watching", skip=("lobby", "update", "history", "said", "pong"))
    spy.send(type="resign", token=friend.token)
    m = spy.expect("error", skip=("lobby", "update", "history", "said", "pong"))
    assert (m["code"], m["key"]) == ("bad_token", "net.hold_seat")
    other = Client(srv.url)  # a fresh connection that never resumed the seat
    other.send(type="resign", token=friend.token)
    m = other.expect("error")
    assert (m["code"], m["key"]) == ("bad_token", "net.hold_seat")
    host.send(type="ping")
    host.expect("pong", skip=("update", "said", "lobby"))
    assert all(not s["resigned"] for s in host.lobbies[-1]["seats"]) and host.lobbies[-1]["seats"][1]["kind"] == "human"
    friend.send(type="resign", token=friend.token)  # the seat's own connection
    m = lobby_until(host, lambda m: m["seats"][1]["kind"] == "ai")
    assert m["seats"][1]["resigned"] is True
    for c in (host, friend, spy, other):
        c.ws.close()
