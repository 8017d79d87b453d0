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

A refused client sees its connection reset before the handshake (``wss://``: the TLS handshake
fails with ConnectionResetError; ``ws://``: no HTTP answer), not the WebSocket close 1013 it got
when the limit was applied after the handshakes.
"""
from __future__ import annotations

import asyncio
import logging
import socket
import ssl
import struct
from typing import Any, Optional

from websockets.asyncio.server import ServerConnection

from .admission import Admission

log = logging.getLogger(__name__)


def address_of(peername: Any) -> str:
    """What the per-address limits count: the peer's IP address (without the port)."""
    if isinstance(peername, (tuple, list)) and peername:
        return str(peername[0])
    return "a client"


class Gate:
    """What the accepted connections of one server share: its admission rules, its TLS
    settings (None: plain ``ws://``), and the handshakes under way (cut short at ``close``)."""

    def __init__(self, admission: Admission, tls: Optional[ssl.SSLContext], *,
                 handshake_timeout: float = 10.0, shutdown_timeout: float = 2.0):
        self.admission = admission
        self.tls = tls
        self.handshake_timeout = handshake_timeout
        self.shutdown_timeout = shutdown_timeout
        self.handshakes: set[asyncio.Task] = set()

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

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._held: Optional[str] = None  # the address this connection counts for, until released
        self._made = False  # websockets has the (encrypted) transport
        self._early: list[Optional[bytes]] = []  # data (None: end of file) that came before that

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        address = address_of(transport.get_extra_info("peername"))
        if not self.gate.admission.connect(address):
            _reset(transport)
            return
        self._held = address
        if self.gate.tls is None:
            self._hand_over(transport)
            return
        task = self.loop.create_task(self._secure(transport))
        self.gate.handshakes.add(task)
        task.add_done_callback(self.gate.handshakes.discard)

    async def _secure(self, raw: asyncio.BaseTransport) -> None:
        assert self.gate.tls is not None
        try:
            transport = await self.loop.start_tls(
                raw, self, self.gate.tls, server_side=True,
                ssl_handshake_timeout=self.gate.handshake_timeout,
                ssl_shutdown_timeout=self.gate.shutdown_timeout)
        except (Exception, asyncio.CancelledError) as e:  # failed, timed out, or the server stops
            raw.abort()
            self._release()
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

    def eof_received(self) -> Optional[bool]:
        if self._made:
            return super().eof_received()
        self._early.append(None)
        return None

    def connection_lost(self, exc: Optional[Exception]) -> None:
        self._release()
        if self._made:  # websockets never saw a connection refused or whose handshake failed
            super().connection_lost(exc)

    def _release(self) -> None:
        """Give the address's slot back, once."""
        address, self._held = self._held, None
        if address is not None:
            self.gate.admission.disconnect(address)


def _reset(transport: asyncio.BaseTransport) -> None:
    """Close with a reset, not an orderly end: the client learns at once that it was refused (an
    unexpected end of TLS is also what a plain server gives), and no TIME_WAIT is kept for it."""
    sock = transport.get_extra_info("socket")
    if sock is not None:
        try:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        except OSError:  # not a TCP socket: the abort alone closes it
            pass
    transport.abort()
