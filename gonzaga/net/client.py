"""The connection to an online game's server (issue 14), kept off the frame loop.

``Connection(url)`` opens a WebSocket (``websockets.sync.client``) in a background thread and
keeps two bounded queues: messages to send (``send`` returns at once; they go out in order once
the connection is open) and the server's messages, parsed with ``protocol.parse_server``, which
the frame loop takes with ``poll()`` (never blocks). ``status`` is "connecting", "connected",
"lost" (the server refused, vanished or broke the connection: ``error`` says so in plain words)
or "closed" (we closed it). ``reconnect()`` opens a new connection to the same address; the caller
then sends ``resume`` with its seat's token (see ``remote.py``).

Pure Python (no pygame). Every thread is a daemon and ends with its socket.
"""
from __future__ import annotations

import logging
import queue
import socket
import ssl
import threading
import time
from collections import deque
from typing import Any, Optional
from urllib.parse import urlsplit

from pydantic import BaseModel

from ..words import i18n
from . import protocol
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidURI
from websockets.sync.client import ClientConnection, connect

from .invite import BadPin, split_pin
from .tls import PinMismatch, check_pin, client_context, peer_der

log = logging.getLogger(__name__)

CONNECTING, CONNECTED, LOST, CLOSED = "connecting", "connected", "lost", "closed"
Problem = tuple[str, dict[str, Any]]  # an i18n key of words/en_online and its parameters
Outbox = queue.Queue[Optional[str]]  # messages to send, in order; None: the writer stops
OPEN_TIMEOUT = 6.0  # seconds to open a connection (a host on the same network answers in milliseconds)
# this computer's own server, started by this game: it is there, so a slow answer only means a
# busy machine (an AI search, the disk), and giving up would fail a game that was about to open
OWN_SERVER_TIMEOUT = 30.0
CLOSE_TIMEOUT = 2.0
MAX_INCOMING = 1024  # server messages waiting for the frame loop; more means the game is far behind
MAX_OUTGOING = 64  # messages waiting to be sent; a player sends one per decision
PACE = (20, 1.0)  # at most 20 messages a second: well under the server's flood limit (30)


def _address(url: str) -> str:
    url = url.partition("#")[0]
    try:
        return urlsplit(url).netloc or url
    except ValueError:
        return url


def problem_for(e: BaseException, url: str) -> Problem:
    """Why a connection could not be opened or was lost: an i18n key of ``words/en_online`` and its
    parameters (the player reads plain words; the log keeps the exception)."""
    address = _address(url)
    if isinstance(e, PinMismatch):  # before OSError: the one answer a man in the middle gets
        return "online.err_pin", {"address": address}
    # a reset before any answer: a server holding its limit of connections from this address resets
    # the next one at accept, before TLS (net/gate.py); a plain ws:// server ends it instead (err_tls)
    if isinstance(e, ConnectionResetError):
        return "online.err_closed_at_once", {"address": address}
    if isinstance(e, ssl.SSLCertVerificationError):
        return "online.err_cert", {"address": address}
    if isinstance(e, ssl.SSLError):
        return "online.err_tls", {"address": address}
    if isinstance(e, (BadPin, InvalidURI)):
        return "online.err_bad_address", {"address": url}
    if isinstance(e, ConnectionClosed):
        code = e.rcvd.code if e.rcvd is not None else None
        if code == 1013:
            return "online.err_busy", {}
        if code == 1001:
            return "online.err_host_left", {}
        return "online.err_lost", {}
    if isinstance(e, InvalidHandshake):
        return "online.err_not_gonzaga", {"address": address}
    if isinstance(e, ConnectionRefusedError):
        return "online.err_refused", {"address": address}
    if isinstance(e, (TimeoutError, socket.timeout)):
        return "online.err_timeout", {"address": address}
    if isinstance(e, socket.gaierror):
        return "online.err_unknown_host", {"address": address}
    if isinstance(e, OSError):
        return "online.err_network", {"address": address, "reason": e.strerror or str(e)}
    return "online.err_network", {"address": address, "reason": str(e) or type(e).__name__}


class Connection:
    """One WebSocket to a game server, driven by background threads."""

    def __init__(self, url: str, *, open_timeout: float = OPEN_TIMEOUT, max_incoming: int = MAX_INCOMING,
                 max_outgoing: int = MAX_OUTGOING):
        self.url = url
        self.open_timeout = open_timeout
        self.max_outgoing = max_outgoing
        self._lock = threading.Lock()
        self._incoming: queue.Queue[BaseModel] = queue.Queue(max_incoming)
        self._gen = 0  # which attempt is current: an older thread never changes the status
        self._status = CONNECTING
        self._problem: Optional[Problem] = None
        self._ws: Optional[ClientConnection] = None
        self._outgoing: Outbox = queue.Queue(max_outgoing)
        self._threads: list[threading.Thread] = []
        self._start()

    # ------------------------------------------------------------ what the frame loop reads

    @property
    def status(self) -> str:
        with self._lock:
            return self._status

    @property
    def error(self) -> str:
        """Why the connection is lost, in the interface language ("" while it works)."""
        with self._lock:
            p = self._problem
        return i18n.t(p[0], **p[1]) if p else ""

    @property
    def problem(self) -> Optional[Problem]:
        with self._lock:
            return self._problem

    def poll(self, limit: int = MAX_INCOMING) -> list[BaseModel]:
        """The server's messages received since the last call (at most ``limit``), oldest first."""
        out: list[BaseModel] = []
        for _ in range(limit):
            try:
                out.append(self._incoming.get_nowait())
            except queue.Empty:
                break
        return out

    def send(self, msg: BaseModel) -> bool:
        """Queue a message for the server; False when it cannot go (lost, closed, or too many waiting)."""
        text = protocol.encode(msg)
        with self._lock:
            if self._status not in (CONNECTING, CONNECTED):
                return False
            out = self._outgoing
        try:
            out.put_nowait(text)
        except queue.Full:
            log.warning("%d messages already wait to be sent: %s dropped", self.max_outgoing, getattr(msg, "type", "?"))
            return False
        return True

    # ------------------------------------------------------------ opening and closing

    def _start(self) -> None:
        with self._lock:
            self._gen += 1
            gen = self._gen
            self._status = CONNECTING
            self._problem = None
            self._ws = None
            self._outgoing = out = Outbox(self.max_outgoing)
        t = threading.Thread(target=self._run, args=(gen, out), name="gonzaga-net-read", daemon=True)
        self._track(t)
        t.start()

    def reconnect(self) -> None:
        """Open a new connection to the same address (messages not yet sent are dropped)."""
        with self._lock:
            old, self._ws = self._ws, None
            self._gen += 1  # the old threads may still report: they are ignored from now on
        self._close_ws(old)
        self._start()

    def close(self) -> None:
        """Close for good (returns at once; the socket closes in the background, see ``join``)."""
        with self._lock:
            self._gen += 1
            self._status = CLOSED
            old, self._ws = self._ws, None
            out = self._outgoing
        try:
            out.put_nowait(None)  # the writer stops
        except queue.Full:
            pass
        self._close_ws(old)

    def join(self, timeout: float = 5.0) -> bool:
        """Wait for this connection's threads to end (tests, shutdown); True when they did."""
        with self._lock:
            threads = list(self._threads)
        for t in threads:
            t.join(timeout)
        return not any(t.is_alive() for t in threads)

    def _track(self, t: threading.Thread) -> None:
        with self._lock:
            self._threads = [x for x in self._threads if x.is_alive()] + [t]

    def _close_ws(self, ws: Optional[ClientConnection]) -> None:
        if ws is None:
            return
        t = threading.Thread(target=self._quiet_close, args=(ws,), name="gonzaga-net-close", daemon=True)
        self._track(t)
        t.start()

    @staticmethod
    def _quiet_close(ws: ClientConnection) -> None:
        try:
            ws.close()
        except Exception:  # closing a broken socket: nothing more to do
            log.debug("closing the connection", exc_info=True)

    def _fail(self, gen: int, problem: Problem) -> None:
        with self._lock:
            if gen == self._gen and self._status != CLOSED:
                self._status = LOST
                self._problem = problem

    # ------------------------------------------------------------ the threads

    def _run(self, gen: int, out: Outbox) -> None:
        """Open the connection (no proxy: a game is on this network), then serve it until it ends."""
        try:
            url, pin = split_pin(self.url)
            tls = client_context(pin) if url.startswith("wss://") else None
            with connect(url, open_timeout=self.open_timeout, close_timeout=CLOSE_TIMEOUT, proxy=None,
                         max_size=protocol.MAX_SERVER_BYTES, user_agent_header="gonzaga", ssl=tls) as ws:
                if pin is not None:  # before anything is sent: a code or token never reaches another server
                    check_pin(peer_der(ws), pin)
                self._serve(gen, ws, out)
        except Exception as e:
            log.info("cannot connect to %s: %r", self.url, e)
            self._fail(gen, problem_for(e, self.url))

    def _serve(self, gen: int, ws: ClientConnection, out: Outbox) -> None:
        """Start the writer, then read until the connection ends."""
        with self._lock:
            current = gen == self._gen and self._status != CLOSED
            if current:
                self._ws = ws
                self._status = CONNECTED
        if not current:  # closed or replaced while it was opening
            self._quiet_close(ws)
            return
        log.info("connected to %s", self.url)
        writer = threading.Thread(target=self._write, args=(gen, ws, out), name="gonzaga-net-write", daemon=True)
        self._track(writer)
        writer.start()
        problem: Problem = ("online.err_lost", {})
        try:
            for text in ws:  # ends when the connection does (the server's or ours)
                try:
                    msg = protocol.parse_server(text)
                except protocol.ProtocolError as e:  # never trusted, never fatal: skipped
                    log.warning("a server message was refused (%s): %s", e.code, e.message)
                    continue
                try:
                    self._incoming.put_nowait(msg)
                except queue.Full:  # the frame loop is far behind: start again from a snapshot
                    log.warning("%d server messages wait: the connection is dropped", self._incoming.maxsize)
                    problem = ("online.err_behind", {})
                    break
            else:  # the server closed the connection: a host who stopped hosting says so
                if ws.close_reason == protocol.CLOSE_HOST_STOPPED:
                    problem = ("online.err_host_closed", {})
        except Exception as e:
            log.info("connection to %s ended: %r", self.url, e)
            problem = problem_for(e, self.url)
        finally:
            try:
                out.put_nowait(None)
            except queue.Full:
                pass
            self._quiet_close(ws)
        self._fail(gen, problem)

    def _write(self, gen: int, ws: ClientConnection, out: Outbox) -> None:
        """Send queued messages in order until the connection ends (a None in the queue), never
        more than ``PACE`` allows (this thread waits; the frame loop never does)."""
        sent: deque[float] = deque(maxlen=PACE[0])
        while True:  # one message per turn; ends on the None every ending path puts in the queue
            text = out.get()
            if text is None:
                return
            if len(sent) == PACE[0]:
                time.sleep(max(0.0, sent[0] + PACE[1] - time.monotonic()))
            sent.append(time.monotonic())
            try:
                ws.send(text)
            except Exception as e:
                log.info("sending to %s failed: %r", self.url, e)
                self._fail(gen, problem_for(e, self.url))
                return
