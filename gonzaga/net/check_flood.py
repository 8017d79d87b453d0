"""``gonzaga netplay-check --flood N`` (issue 39): one address floods a public server while a
game of two other addresses begins, and a fourth guesses invite codes.

Against its own ``gonzaga serve`` with the public per-address limits (``wss://``, log level
info, as an operator runs it), from loopback addresses (Linux answers on all of 127.0.0.0/8, and
the server counts each by its address):

- 127.0.0.1 opens N WebSocket connections (at most ``IN_FLIGHT`` handshakes at once) and sends
  N ``create`` messages over whichever of them the server keeps, each connection under the
  per-connection message rate (the creates must reach the server to be counted by it);
- meanwhile 127.0.0.2 creates a game, 127.0.0.3 joins it with the invite code, the host starts
  it and both plan: ``flood_legit_join_s`` (the host's first connection to the guest's
  ``joined``) and ``flood_legit_first_move_s`` (then to the guest's plan acknowledged), each to
  be under ``LEGIT_SECONDS``;
- then 127.0.0.4 sends ``GUESSES`` wrong invite codes over four connections, as fast as the
  message rate allows: ``flood_wrong_codes_answered`` is how many were judged (``unknown_game``)
  rather than refused (``limit``), within a burst shorter than a minute: so at most that many a
  minute, to be at most the limit (10). The real code from that address is then refused too.

The figures: connections refused and kept. A connection over the address's limit is closed by
the server as soon as it is accepted, before any TLS work (``gate.py``): the client's handshake
ends with a reset (``flood_connections_closed_at_accept``); a
WebSocket close after the handshakes (1013 for the limit) is counted by its code, and fails the
check; other failures (time-outs) are ``flood_connections_failed``. Then creates accepted and
refused by answer, the server's memory before and at its peak, the CPU time it spent from the
flood's start to the end of the guesses (``flood_server_cpu_s``), what its log file grew by, and
tracebacks in its log and its stderr (none may appear). The check raises this process's soft
limit on open files (``RLIMIT_NOFILE``) as far as the hard limit allows; the server, started
afterwards, inherits it. When N connections cannot fit, the check opens as many as fit and says
so in ``problems``.

What belongs here: the flood phase only. The server process and the rest are ``check.py``,
which passes its helpers in (this module does not import it).
"""
from __future__ import annotations

import asyncio
import json
import random
import time
from collections import Counter
from pathlib import Path
from typing import Any, Optional

from websockets.exceptions import ConnectionClosed, InvalidHandshake

from ..rules import legal_actions
from ..rules.content import Content
from . import protocol as P
from .protocol import CODE_ALPHABET, CODE_LENGTH
from .invite import connect_pinned
from .tls import PinMismatch
from .viewcodec import view_from_json

try:
    import resource
except ImportError:  # Windows: no RLIMIT_NOFILE to raise (its C runtime's limit is not the sockets')
    resource = None  # type: ignore[assignment]

FLOOD_ADDRESS, HOST_ADDRESS, GUEST_ADDRESS, GUESS_ADDRESS = "127.0.0.1", "127.0.0.2", "127.0.0.3", "127.0.0.4"
IN_FLIGHT = 200  # handshakes the flood has under way at once
CREATE_GAP = 1 / 20  # seconds between two creates on one connection: under the server's 30 a second
LEGIT_SECONDS = 5.0  # the bound for a legitimate player's join, and for its first move
GUESSES = 40  # wrong invite codes sent from one address
GUESS_CONNECTIONS = 4
WRONG_CODES_PER_MINUTE = 10  # the bound (admission.Limits.wrong_codes_per_minute)
LOG_GROWTH_MAX = 64 * 1024  # bytes the server's log may grow by during the flood
FDS_SPARE = 256  # open files kept for everything else (the bots, the logs, the server's own)
WAIT = 20.0  # seconds any one answer may take before the phase gives up on it


def raise_fd_limit(want: int) -> int:
    """Raise the soft ``RLIMIT_NOFILE`` towards ``want`` (as far as the hard limit allows); the
    soft limit now in force (``want`` itself where there is no such limit: Windows)."""
    if resource is None:
        return want
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = want if hard == resource.RLIM_INFINITY else min(want, hard)
    if soft != resource.RLIM_INFINITY and soft < target:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
            soft = target
        except (ValueError, OSError):
            pass
    return soft


async def _open(url: str, source: str) -> Any:
    return await connect_pinned(url, max_size=P.MAX_SERVER_BYTES, open_timeout=WAIT, ping_interval=None,
                                close_timeout=1, local_addr=(source, 0))


async def _next(ws: Any, kinds: tuple[str, ...], seconds: float = WAIT) -> dict[str, Any]:
    """The next message of one of ``kinds`` or an error (others are passed over); raises
    ConnectionClosed, or TimeoutError when none comes in time."""
    end = time.monotonic() + seconds
    while True:
        m: dict[str, Any] = json.loads(await asyncio.wait_for(ws.recv(), max(0.01, end - time.monotonic())))
        if m.get("type") in kinds or m.get("type") == "error":
            return m


# ---------------------------------------------------------------- the flooding address

class Flood:
    """N connections and N creates from ``FLOOD_ADDRESS``; what the server made of them."""

    def __init__(self, url: str, connections: int, creates: int):
        self.url, self.connections = url, connections
        self.creates: asyncio.Queue[Any] = asyncio.Queue()
        for k in range(creates):
            self.creates.put_nowait(k)
        self.stats: Counter[str] = Counter()
        self.kept: list[Any] = []
        self.tried = 0  # connections whose fate is known (kept, closed or failed)
        self._gate = asyncio.Semaphore(IN_FLIGHT)

    async def run(self) -> None:
        await asyncio.gather(*(self._one() for _ in range(self.connections)))

    async def _one(self) -> None:
        async with self._gate:
            try:
                ws = await _open(self.url, FLOOD_ADDRESS)
            except ConnectionResetError:  # over the limit: reset at accept, before TLS (gate.py)
                self.stats["conn_closed_at_accept"] += 1
                self.tried += 1
                return
            except (OSError, InvalidHandshake, asyncio.TimeoutError, PinMismatch):
                self.stats["conn_failed"] += 1
                self.tried += 1
                return
        self.kept.append(ws)
        code = await self._send_creates(ws)
        if code is not None:
            self.kept.remove(ws)
            self.stats[f"conn_closed_{code}"] += 1
        self.tried += 1

    async def _send_creates(self, ws: Any) -> Optional[int]:
        """Creates from the queue on ``ws`` until none is left; the close code if the server
        closed it (the create it was carrying goes back to the queue), else None."""
        seat_requests = [P.SeatRequest(kind="host", colour="red"), P.SeatRequest(kind="open", colour="blue")]
        frame = P.encode(P.Create(name="Mallory", seats=seat_requests))
        try:
            # a connection over the address's limit is closed at once: see it before taking a create
            first = await asyncio.wait_for(ws.recv(), 0.2)
            self.stats[f"unexpected_{json.loads(first).get('type')}"] += 1
        except asyncio.TimeoutError:
            pass
        except ConnectionClosed as e:
            return e.rcvd.code if e.rcvd else 0
        while True:
            try:
                k = self.creates.get_nowait()
            except asyncio.QueueEmpty:
                return None
            try:
                t0 = time.monotonic()
                await ws.send(frame)
                m = await _next(ws, ("joined",))
            except ConnectionClosed as e:
                self.creates.put_nowait(k)
                return e.rcvd.code if e.rcvd else 0
            except asyncio.TimeoutError:
                self.stats["create_unanswered"] += 1
                continue
            self.stats["create_accepted" if m["type"] == "joined" else f"create_{m.get('code')}"] += 1
            await asyncio.sleep(max(0.0, CREATE_GAP - (time.monotonic() - t0)))

    async def close(self) -> None:
        await asyncio.gather(*(ws.close() for ws in self.kept), return_exceptions=True)


# ---------------------------------------------------------------- the legitimate game

async def legit_game(url: str, content: Content) -> dict[str, Any]:
    """A game of two other addresses during the flood: created, joined, started, and each seat's
    first plan acknowledged; the seconds each step took."""
    out: dict[str, Any] = {}
    host = guest = None
    try:
        t0 = time.monotonic()
        host = await _open(url, HOST_ADDRESS)
        await host.send(P.encode(P.Create(name="Ann", seats=[P.SeatRequest(kind="host", colour="red"),
                                                              P.SeatRequest(kind="open", colour="blue")])))
        h = await _next(host, ("joined",))
        if h["type"] != "joined":
            return {**out, "failed": f"the host's create was answered {h.get('code')}: {h.get('message')}"}
        guest = await _open(url, GUEST_ADDRESS)
        await guest.send(P.encode(P.Join(code=h["code"], name="Bea")))
        g = await _next(guest, ("joined",))
        if g["type"] != "joined":
            return {**out, "failed": f"the guest's join was answered {g.get('code')}: {g.get('message')}"}
        out["join_s"] = time.monotonic() - t0
        out["code"] = h["code"]
        t1 = time.monotonic()
        await host.send(P.encode(P.Start(token=h["token"])))
        n_seen = 0
        for ws, me in ((guest, g), (host, h)):  # the guest moves first: its move is the one timed
            snap = await _next(ws, ("update",))
            while snap["type"] == "update" and snap["n"] < n_seen:  # the host: up to the guest's move
                snap = await _next(ws, ("update",))
            if snap["type"] != "update":
                return {**out, "failed": f"seat {me['seat']} got {snap.get('code')} instead of the game"}
            action = legal_actions(view_from_json(snap["view"], content), me["seat"])[0]
            await ws.send(P.encode(P.Act(token=me["token"], n=snap["n"], action=action.to_text())))
            while True:
                m = await _next(ws, ("update",))
                if m["type"] == "error":
                    return {**out, "failed": f"seat {me['seat']}'s move was refused: {m.get('code')}"}
                if (m.get("last") or {}).get("seat") == me["seat"]:
                    n_seen = m["n"]
                    break
            out.setdefault("first_move_s", time.monotonic() - t1)
            out["moves"] = out.get("moves", 0) + 1
        return out
    except (OSError, InvalidHandshake, PinMismatch, ConnectionClosed, asyncio.TimeoutError, ValueError, KeyError) as e:
        return {**out, "failed": f"{type(e).__name__}: {e}"[:200]}
    finally:
        for ws in (host, guest):
            if ws is not None:
                await ws.close()


# ---------------------------------------------------------------- guessing invite codes

async def guess_codes(url: str, real_code: Optional[str], rng: random.Random) -> dict[str, Any]:
    """``GUESSES`` wrong codes from one address over ``GUESS_CONNECTIONS`` connections at once;
    then the real code from the same address. The answers counted."""
    answers: Counter[str] = Counter()
    wrong: list[Any] = []
    while len(wrong) < GUESSES:
        c = "".join(rng.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
        if c != real_code:
            wrong.append(c)
    t0 = time.monotonic()

    async def one(codes: list[str]) -> None:
        ws = await _open(url, GUESS_ADDRESS)
        try:
            for c in codes:
                t = time.monotonic()
                await ws.send(P.encode(P.Join(code=c, name="Eve")))
                m = await _next(ws, ("joined",))
                answers[m.get("code") or m["type"]] += 1
                await asyncio.sleep(max(0.0, CREATE_GAP - (time.monotonic() - t)))
        finally:
            await ws.close()

    await asyncio.gather(*(one(wrong[i::GUESS_CONNECTIONS]) for i in range(GUESS_CONNECTIONS)))
    out = {"sent": GUESSES, "seconds": time.monotonic() - t0, "answers": dict(answers)}
    if real_code is not None:
        ws = await _open(url, GUESS_ADDRESS)
        try:
            await ws.send(P.encode(P.Join(code=real_code, name="Eve")))
            m = await _next(ws, ("joined",))
            out["real_code_answer"] = m.get("code") or m["type"]
        finally:
            await ws.close()
    return out


# ---------------------------------------------------------------- the phase

def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0


def tracebacks(*paths: Path) -> int:
    """Traceback headers in the given files (missing files count none)."""
    n = 0
    for p in paths:
        try:
            with open(p, encoding="utf-8", errors="replace") as f:
                n += sum(1 for line in f if line.startswith("Traceback"))
        except OSError:
            pass
    return n


async def flood(a: Any, server: Any, content: Content, res: dict[str, Any], problems: list[str]) -> None:
    """The flood phase against ``server`` (a ``check.ServerProcess`` with the public limits, not
    yet started); its figures as ``res["flood_..."]``, what fails in ``problems``."""
    want = a.flood
    soft = raise_fd_limit(2 * want + FDS_SPARE)
    res["flood_fd_soft_limit"] = soft
    conns = max(0, min(want, soft - FDS_SPARE))  # the server's end of each shares the same limit
    if conns < want:
        problems.append(f"flood: only {conns} connections were opened, not {want}: the open-files limit "
                        f"(RLIMIT_NOFILE) is {soft} and its hard limit allows no more (ulimit -Hn)")
    await server.start()
    log_file = server.data / "gonzaga-server.log"
    log0, rss0, cpu0 = _size(log_file), server.rss_kb(), server.cpu_seconds()
    peak = rss0 or 0
    f = Flood(server.url, conns, want)
    t0 = time.monotonic()
    flooding = asyncio.ensure_future(f.run())
    for _ in range(int(WAIT / 0.05)):  # the game begins once the flood is under way
        if f.tried >= min(conns, IN_FLIGHT) // 2 or flooding.done():
            break
        await asyncio.sleep(0.05)
    legit = asyncio.ensure_future(legit_game(server.url, content))
    while not (flooding.done() and legit.done()):
        await asyncio.sleep(0.25)
        peak = max(peak, server.rss_kb() or 0)
    flood_seconds = time.monotonic() - t0
    game = legit.result()
    flooding.result()
    guesses = await guess_codes(server.url, game.get("code"), random.Random(a.seed))
    peak = max(peak, server.rss_kb() or 0)
    cpu1 = server.cpu_seconds()
    kept = len(f.kept)
    await f.close()
    status = await server.stop()
    s = f.stats
    by_code = {k[len("conn_closed_"):]: v for k, v in s.items()
               if k.startswith("conn_closed_") and k != "conn_closed_at_accept"}
    refused_conns = s["conn_failed"] + s["conn_closed_at_accept"] + sum(by_code.values())
    res.update({
        "flood_connections": conns, "flood_connections_refused": refused_conns, "flood_connections_kept": kept,
        "flood_connections_closed_at_accept": s["conn_closed_at_accept"],
        "flood_connections_failed": s["conn_failed"],
        "flood_connections_closed_by_code": by_code,
        "flood_creates": want, "flood_creates_accepted": s["create_accepted"],
        "flood_creates_refused": sum(v for k, v in s.items() if k.startswith("create_") and k != "create_accepted"),
        "flood_creates_answers": {k[len("create_"):]: v for k, v in s.items() if k.startswith("create_")},
        "flood_creates_unsent": f.creates.qsize(), "flood_seconds": round(flood_seconds, 1),
        "flood_legit_join_s": round(game["join_s"], 2) if "join_s" in game else None,
        "flood_legit_first_move_s": round(game["first_move_s"], 2) if "first_move_s" in game else None,
        "flood_legit_moves": game.get("moves", 0),
        "flood_wrong_codes_sent": guesses["sent"],
        "flood_wrong_codes_answered": guesses["answers"].get("unknown_game", 0),
        "flood_wrong_codes_refused": guesses["answers"].get("limit", 0),
        "flood_wrong_codes_seconds": round(guesses["seconds"], 1),
        "flood_real_code_after_lockout": guesses.get("real_code_answer"),
        "flood_server_rss_mb_before": round(rss0 / 1024, 1) if rss0 else None,
        "flood_server_rss_mb_peak": round(peak / 1024, 1) if peak else None,
        "flood_server_cpu_s": round(cpu1 - cpu0, 2) if cpu0 is not None and cpu1 is not None else None,
        "flood_server_log_bytes": _size(log_file) - log0,
        "flood_server_tracebacks": tracebacks(log_file, *server.stderr_files()),
    })
    if game.get("failed"):
        problems.append(f"flood: the legitimate game failed: {game['failed']}")
    if status != 0:
        problems.append(f"flood: the server did not end cleanly on SIGTERM (status {status})")
    problems += judge(res, guesses["answers"])


def judge(res: dict[str, Any], guess_answers: dict[str, Any]) -> list[str]:
    """What the flood's figures fail of the issue's bounds (empty when they hold)."""
    out = []
    for k in ("flood_legit_join_s", "flood_legit_first_move_s"):
        if res.get(k) is None or res[k] >= LEGIT_SECONDS:
            out.append(f"{k} is {res.get(k)}, not under {LEGIT_SECONDS:g} s")
    if res["flood_connections"] > 16 and res["flood_connections_refused"] == 0:
        out.append("flood: no connection of the flooding address was refused")
    late = res["flood_connections_closed_by_code"].get("1013", 0)
    if late:  # the address's limit is applied at accept, before the server does any TLS work
        out.append(f"flood: {late} connections were refused only after their TLS and WebSocket handshakes (1013)")
    if res["flood_creates"] > 5 and res["flood_creates_refused"] == 0:
        out.append("flood: no create of the flooding address was refused")
    if res["flood_creates_unsent"]:
        out.append(f"flood: {res['flood_creates_unsent']} creates found no connection to be sent on")
    if res["flood_wrong_codes_seconds"] < 60 and res["flood_wrong_codes_answered"] > WRONG_CODES_PER_MINUTE:
        out.append(f"flood: {res['flood_wrong_codes_answered']} wrong invite codes were judged within "
                   f"{res['flood_wrong_codes_seconds']} s, more than {WRONG_CODES_PER_MINUTE} a minute")
    other = {k: v for k, v in guess_answers.items() if k not in ("unknown_game", "limit")}
    if other:
        out.append(f"flood: wrong invite codes answered {other}")
    if res.get("flood_real_code_after_lockout") not in (None, "limit"):
        out.append(f"flood: after the lockout the real code was answered {res['flood_real_code_after_lockout']}")
    if res["flood_server_tracebacks"]:
        out.append(f"flood: the server wrote {res['flood_server_tracebacks']} traceback(s)")
    if res["flood_server_log_bytes"] > LOG_GROWTH_MAX:
        out.append(f"flood: the server's log grew by {res['flood_server_log_bytes']} bytes")
    return out
