"""The per-address connection limit applied at accept, before any TLS work (issue 39).

An address over ``Limits.conns_per_address`` has its TCP connection closed as soon as it is
accepted: no ServerHello, no key exchange, no WebSocket handshake, so a flood from one address
costs the server neither the handshake's CPU nor its memory.

How: websockets' ``serve`` runs *without* ``ssl`` and makes each connection with
``Gate.connection_class()``, a :class:`GatedConnection`. Its ``connection_made`` receives the
plain TCP transport: it asks ``Admission.connect`` (the one bookkeeping of connections per
address), resets the connection when refused, and otherwise upgrades it with ``loop.start_tls``
(asyncio's own TLS, the same as ``create_server(ssl=...)`` would use) before handing the
encrypted transport to websockets. The slot is released exactly once (``_release``): when the
connection is lost, or when its TLS handshake fails or is cut short.

**Handshakes under way, server-wide (issue 47).** Silent sockets from many addresses, each
under its own limit, could still hold the server's every connection in the TLS and WebSocket
handshakes (2,000 of them, 313 KB each). ``Limits.handshakes`` caps the connections admitted
and not yet through the WebSocket handshake, checked at accept like the per-address limit: one
over it is reset at once. A connection leaves the count when its WebSocket handshake ends
(``handshake``, whatever its outcome) or the connection does, exactly once (``_shaken``).

**What an address is** (:func:`address_of`, the one key of every per-address limit): an IPv4
address; an IPv6 address's /64 network (one host is given a /64: counted per address, it would
be 2^64 addresses); an IPv4-mapped IPv6 address is its IPv4 address.

A refused client sees its connection reset before the handshake (``wss://``: the TLS handshake
fails with ConnectionResetError; ``ws://``: no HTTP answer), not the WebSocket close 1013 it got
when the limit was applied after the handshakes.
"""
from __future__ import annotations

import asyncio
import asyncio.sslproto as sslproto
import ipaddress
import logging
import socket
import ssl
import struct
from typing import Any, Optional, cast

from websockets.asyncio.server import ServerConnection

from .admission import Admission

log = logging.getLogger(__name__)


IPV6_PREFIX = 64  # an IPv6 host is given a /64: its addresses count as one


def address_of(peername: Any) -> str:
    """What every per-address limit counts (the one place that decides it): the peer's IPv4
    address, or its IPv6 address's /64 network (``2001:db8:1:2::/64``); an IPv4-mapped IPv6
    address (``::ffff:10.0.0.1``) is its IPv4 address. Without a peer: ``"a client"``."""
    if not isinstance(peername, (tuple, list)) or not peername:
        return "a client"
    host = str(peername[0])
    try:
        ip = ipaddress.ip_address(host.partition("%")[0])  # without an IPv6 zone ("fe80::1%eth0")
    except ValueError:
        return host
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, IPV6_PREFIX), strict=False))
    return str(ip)


def forwarded(peer: str, header: Optional[str], proxies: frozenset[str]) -> str:
    """A connection's address for the per-address limits: the address a trusted proxy (``peer``
    in ``proxies``) forwarded in ``X-Forwarded-For`` (its last entry: the one the proxy added),
    else the peer's own. From anyone else the header is ignored: a client cannot choose its address."""
    if peer not in proxies or not header:
        return peer
    last = header.split(",")[-1].strip().strip("[]")
    return address_of((last, 0)) if last else peer


class Gate:
    """What the accepted connections of one server share: its admission rules, its TLS
    settings (None: plain ``ws://``), and the handshakes under way (cut short at ``close``)."""

    def __init__(self, admission: Admission, tls: Optional[ssl.SSLContext], *,
                 handshake_timeout: float = 10.0, shutdown_timeout: float = 2.0):
        self.admission = admission
        self.tls = tls
        self.shaking = 0  # connections admitted and not yet through the WebSocket handshake
        self.refused_busy = 0  # connections reset at accept because of ``Limits.handshakes``
        self.handshake_timeout = handshake_timeout
        self.shutdown_timeout = shutdown_timeout
        self.handshakes: set[asyncio.Task[None]] = set()

    def connection_class(self) -> type[ServerConnection]:
        """The class ``serve(create_connection=...)`` makes each connection with."""
        return type("GatedServerConnection", (GatedConnection,), {"gate": self})

    def close(self) -> None:
        """Cut short the TLS handshakes still under way (the server is stopping)."""
        for task in list(self.handshakes):
            task.cancel()


class GatedConnection(ServerConnection):
    """A websockets server connection admitted on its TCP connection (see the module)."""

    gate: Gate  # set on the subclass ``Gate.connection_class`` makes

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._held: Optional[str] = None  # the address this connection counts for, until released
        self._shaking = False  # counted in ``gate.shaking`` until its WebSocket handshake ends
        self._made = False  # websockets has the (encrypted) transport
        self._early: list[Optional[bytes]] = []  # data (None: end of file) that came before that

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        raw = cast(asyncio.Transport, transport)  # a TCP connection: asyncio's server makes one
        gate = self.gate
        cap = gate.admission.limits.handshakes
        if cap is not None and gate.shaking >= cap:
            gate.refused_busy += 1
            _reset(raw)
            return
        address = address_of(transport.get_extra_info("peername"))
        if not gate.admission.connect(address):
            _reset(raw)
            return
        self._held = address
        self._shaking = True
        gate.shaking += 1
        if self.gate.tls is None:
            self._hand_over(raw)
            return
        task = self.loop.create_task(self._secure(raw))
        self.gate.handshakes.add(task)
        task.add_done_callback(self.gate.handshakes.discard)

    async def _secure(self, raw: asyncio.Transport) -> None:
        assert self.gate.tls is not None
        try:
            transport = await _start_tls(self.loop, raw, self, self.gate.tls, self.gate.handshake_timeout,
                                         self.gate.shutdown_timeout)
            if transport is None:  # asyncio's own: the connection closed during the handshake
                raise ConnectionResetError("the connection closed during the TLS handshake")
        except (Exception, asyncio.CancelledError) as e:  # failed, timed out, or the server stops
            raw.abort()
            self._release()
            self._shaken()
            log.debug("TLS handshake with %s failed: %r", address_of(raw.get_extra_info("peername")), e)
            return
        self._hand_over(transport)

    def _hand_over(self, transport: asyncio.BaseTransport) -> None:
        """Give websockets the transport, and then what came on it before (asyncio's TLS may
        deliver the client's first bytes before ``start_tls`` has returned)."""
        self._made = True
        super().connection_made(transport)
        early, self._early = self._early, []
        for data in early:
            if data is None:
                super().eof_received()
            else:
                super().data_received(data)

    def data_received(self, data: bytes) -> None:
        if self._made:
            super().data_received(data)
        else:
            self._early.append(bytes(data))

    def eof_received(self) -> None:
        if self._made:
            super().eof_received()
        else:
            self._early.append(None)

    async def handshake(self, *args: Any, **kwargs: Any) -> None:
        """The WebSocket handshake (websockets' own); the connection leaves the server-wide count
        of handshakes under way when it ends, accepted or not."""
        try:
            await super().handshake(*args, **kwargs)
        finally:
            self._shaken()

    def connection_lost(self, exc: Optional[Exception]) -> None:
        self._release()
        self._shaken()
        if self._made:  # websockets never saw a connection refused or whose handshake failed
            super().connection_lost(exc)

    def _release(self) -> None:
        """Give the address's slot back, once."""
        address, self._held = self._held, None
        if address is not None:
            self.gate.admission.disconnect(address)


    def _shaken(self) -> None:
        """Out of the handshakes under way, once."""
        if self._shaking:
            self._shaking = False
            self.gate.shaking -= 1


class _SmallReads(sslproto.SSLProtocol):
    """asyncio's TLS with a read buffer of 32 KiB instead of 256 KiB: every connection allocates
    it whole, so 400 connections held 100 MB more over wss than over ws (issue 47); a client's
    message is at most 16 KiB and a TLS record 16 KiB, so reading less at a time costs nothing."""

    max_size = 32 * 1024


async def _start_tls(loop: asyncio.AbstractEventLoop, raw: asyncio.Transport, protocol: asyncio.BaseProtocol,
                     context: ssl.SSLContext, handshake_timeout: float,
                     shutdown_timeout: float) -> Optional[asyncio.Transport]:
    """``loop.start_tls(raw, protocol, context, server_side=True, ...)`` as asyncio 3.11-3.13 does
    it (``base_events.start_tls``), with :class:`_SmallReads` for asyncio's ``SSLProtocol``."""
    waiter = loop.create_future()
    secured = _SmallReads(loop, protocol, context, waiter, True, None,  # (typeshed says int; asyncio takes float)
                          ssl_handshake_timeout=handshake_timeout,  # type: ignore[arg-type]
                          ssl_shutdown_timeout=shutdown_timeout, call_connection_made=False)
    raw.pause_reading()  # so that no data reaches it before its connection_made
    raw.set_protocol(secured)
    made = loop.call_soon(secured.connection_made, raw)
    resumed = loop.call_soon(raw.resume_reading)
    try:
        await waiter
    except BaseException:
        raw.close()
        made.cancel()
        resumed.cancel()
        raise
    return secured._app_transport


def _reset(transport: asyncio.Transport) -> None:
    """Close with a reset, not an orderly end: the client learns at once that it was refused (an
    unexpected end of TLS is also what a plain server gives), and no TIME_WAIT is kept for it."""
    sock = transport.get_extra_info("socket")
    if sock is not None:
        try:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        except OSError:  # not a TCP socket: the abort alone closes it
            pass
    transport.abort()
