"""Issue 47, the server's CPU per action: what the server negotiates on the wire.

The server no longer deflates (``serve.COMPRESSION``): a client offering per-message deflate,
as every version of the game's client does (websockets' default), is answered without the
extension (RFC 7692: the server may decline) and plays as before, over ws:// and wss://; a
compressed frame, which the server never agreed to, is a protocol error (closed 1002), so the
server never inflates anything a client sends.
"""
from __future__ import annotations

import base64
import json
import os
import socket
import struct
import zlib

import pytest
from websockets.exceptions import ConnectionClosedError
from websockets.sync.client import connect

from gonzaga.net import protocol as P
from gonzaga.net import tls
from gonzaga.net.invite import split_pin
from gonzaga.net.serve import ServerThread, TlsFiles
from gonzaga.rules import COLOURS
from online_helpers import on_loop

OFFER = "permessage-deflate; client_max_window_bits"  # what websockets' clients offer by default


@pytest.fixture
def ws_server(tmp_path):
    srv = ServerThread(tmp_path / "server").start()
    yield srv
    srv.stop()


@pytest.fixture
def wss_server(tmp_path):
    srv = ServerThread(tmp_path / "server", tls=TlsFiles.own(tmp_path / "cert")).start()
    yield srv
    srv.stop()


def _create_and_lobby(ws) -> dict:
    ws.send(P.encode(P.Create(name="Ann", seats=[P.SeatRequest(kind="host", colour=COLOURS[0]),
                                                 P.SeatRequest(kind="open", colour=COLOURS[1])])))
    while True:
        m = json.loads(ws.recv(timeout=10))
        if m["type"] in ("joined", "error"):
            return m


@pytest.mark.parametrize("secure", [False, True], ids=["ws", "wss"])
def test_a_client_offering_deflate_is_answered_without_it_and_plays(request, secure):
    srv = request.getfixturevalue("wss_server" if secure else "ws_server")
    url, pin = split_pin(srv.url)
    ssl_ctx = tls.client_context(pin) if secure else None
    with connect(url, open_timeout=20, ssl=ssl_ctx, proxy=None, compression="deflate",
                 max_size=P.MAX_SERVER_BYTES) as ws:
        assert ws.request is not None and OFFER in ws.request.headers["Sec-WebSocket-Extensions"]
        assert ws.response is not None and "Sec-WebSocket-Extensions" not in ws.response.headers
        assert ws.protocol.extensions == []
        m = _create_and_lobby(ws)
        assert m["type"] == "joined" and m["seat"] == 0, m
        ws.send(P.encode(P.Ping()))
        while json.loads(ws.recv(timeout=10))["type"] != "pong":
            pass
    with connect(url, open_timeout=20, ssl=ssl_ctx, proxy=None, compression=None) as ws:  # nothing offered
        assert ws.protocol.extensions == []
        assert _create_and_lobby(ws)["type"] == "joined"


def _raw_handshake(port: int) -> socket.socket:
    s = socket.create_connection(("127.0.0.1", port), timeout=10)
    key = base64.b64encode(os.urandom(16)).decode()
    s.sendall((f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
               f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n"
               f"Sec-WebSocket-Extensions: {OFFER}\r\n\r\n").encode())
    head = b""
    while b"\r\n\r\n" not in head:
        chunk = s.recv(4096)
        assert chunk, head
        head += chunk
    assert head.startswith(b"HTTP/1.1 101"), head
    assert b"sec-websocket-extensions" not in head.lower(), head
    return s


def _frame(payload: bytes, rsv1: bool) -> bytes:
    """A client's masked text frame (payload under 126 bytes)."""
    mask = os.urandom(4)
    body = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
    return bytes([0x81 | (0x40 if rsv1 else 0), 0x80 | len(payload)]) + mask + body


def _read_frame(s: socket.socket) -> tuple[int, bytes]:
    def exact(n: int) -> bytes:
        out = b""
        while len(out) < n:
            chunk = s.recv(n - len(out))
            if not chunk:
                raise ConnectionError("closed")
            out += chunk
        return out
    b0, b1 = exact(2)
    n = b1 & 0x7F
    if n == 126:
        n = struct.unpack("!H", exact(2))[0]
    elif n == 127:
        n = struct.unpack("!Q", exact(8))[0]
    return b0 & 0x0F, exact(n)


def test_a_compressed_frame_is_a_protocol_error_never_inflated(ws_server):
    """A ``ping`` deflated as a client with the extension would send it: the server, which did
    not agree to deflate, closes with 1002 instead of inflating it (a deflate bomb has nothing
    to work on)."""
    s = _raw_handshake(ws_server.port)
    try:
        plain = P.encode(P.Ping()).encode()
        s.sendall(_frame(plain, rsv1=False))  # the same message uncompressed is answered
        while True:
            op, data = _read_frame(s)
            if op == 0x1 and json.loads(data)["type"] == "pong":
                break
        c = zlib.compressobj(wbits=-12)
        deflated = (c.compress(plain) + c.flush(zlib.Z_SYNC_FLUSH))[:-4]
        s.sendall(_frame(deflated, rsv1=True))
        while True:
            op, data = _read_frame(s)
            if op == 0x8:  # close
                assert struct.unpack("!H", data[:2])[0] == 1002, data
                break
            assert op == 0x1 and json.loads(data)["type"] != "pong", data  # never answered
    finally:
        s.close()


def test_tls_connections_read_through_a_small_buffer_and_still_take_the_largest_message(wss_server):
    """asyncio's TLS allocates a 256 KiB read buffer for each connection (100 MB for 400
    connections); the server's is 32 KiB (``gate._SmallReads``), and a client message of the
    largest size allowed still arrives whole (answered as a message, not as too large or cut)."""
    url, pin = split_pin(wss_server.url)
    with connect(url, open_timeout=20, ssl=tls.client_context(pin), proxy=None) as ws:
        ws.send(P.encode(P.Ping()))
        assert json.loads(ws.recv(timeout=10))["type"] == "pong"
        sizes = on_loop(wss_server.server, lambda: [len(c.ws.transport._ssl_protocol._ssl_buffer)
                                                    for c in wss_server.server.conns])
        assert sizes == [32 * 1024]
        big = json.dumps({"v": P.PROTOCOL_VERSION, "type": "ping", "x": ""})
        big = big[:-2] + "x" * (P.MAX_CLIENT_BYTES - len(big)) + '"}'
        assert len(big.encode()) == P.MAX_CLIENT_BYTES
        ws.send(big)
        m = json.loads(ws.recv(timeout=10))
        assert m["type"] == "error" and m["code"] == "bad_message", m  # read whole: its fields refused
        ws.send(big + " ")  # one byte more: over websockets' own limit, closed 1009 as before
        with pytest.raises(ConnectionClosedError) as e:
            ws.recv(timeout=10)
        assert e.value.rcvd is not None and e.value.rcvd.code == 1009
