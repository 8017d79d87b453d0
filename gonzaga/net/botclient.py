"""Programs that play online seats as remote humans would, for ``gonzaga netplay-check`` (issue 14).

A ``SeatClient`` is one seat of one game over its own WebSocket: it creates the game (the host) or
joins it by its invite code, the host starts it once no seat is open, and then it plays a legal
action chosen at random (seeded) from its own view only: ``legal_actions(view_from_json(...))``.
When the connection drops it connects again and sends ``resume`` with its token (bounded tries).
It never sends more than ``SENDS_PER_SECOND`` messages a second, under the server's flood limit.

Run as a process (``python -m gonzaga.net.botclient``), it talks to the check by JSON lines:
``--role host`` creates ``--games`` games and prints their codes; ``--role guest`` reads
``{"code": ...}`` lines on stdin and joins them; ``--role load`` plays whole games on its own (every
seat, many games at once) until they end or ``--seconds`` run out. Each prints a last ``done``
line with its figures; with ``--log`` every message received is written there, one JSON per line.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import random
import sys
import time
from collections import Counter
from typing import Any, Callable, Optional, Union, cast

from pydantic import BaseModel
from websockets.asyncio.client import ClientConnection
from websockets.exceptions import ConnectionClosed, InvalidHandshake

from ..ai.match import bot_seed
from ..rules import COLOURS, Content, GameState, legal_actions, load_content
from . import protocol as P
from .invite import connect_pinned
from .viewcodec import view_from_json

SENDS_PER_SECOND = 25  # the server answers "flood" over 30 messages a second on one connection
RECONNECT_TRIES = 150  # about 30 s of tries: a restarted server is back within a few seconds
RETRIES_PER_TURN = 3  # a refused legal action is chosen again at most this often
DROPPED = (ConnectionClosed, OSError, InvalidHandshake, asyncio.TimeoutError)


class BotError(Exception):
    """A bot cannot go on (refused by the server, out of time): the message says why."""


def my_turn(view: dict[str, Any], seat: int) -> bool:
    """True when the view says ``seat`` must act now (a cheap look before decoding the view)."""
    phase = view.get("phase")
    if phase == "plan":
        return bool(view["seats"][seat]["plan"] is None)
    if phase == "place":
        order, turn = view["order"], view["turn"]
        return bool(0 <= turn < len(order) and order[turn] == seat)
    return False


class SeatClient:
    """One seat of one game on its own connection, played from that seat's view only."""

    def __init__(self, url: str, content: Content, seed: int, deadline: float, *, name: str = "Bot",
                 log: Optional[Callable[[dict[str, Any]], None]] = None, progress: Optional[Callable[[dict[str, Any]], None]] = None,
                 validate: bool = True):
        self.url, self.content, self.seed, self.deadline, self.name = url, content, seed, deadline, name
        self.log, self.progress, self.validate = log, progress, validate
        self.ws: Optional[ClientConnection] = None
        self.game: Optional[str] = None
        self.code: Optional[str] = None
        self.token: Optional[str] = None
        self.seat: Optional[int] = None
        self.host = False
        self.rng: Optional[random.Random] = None
        self.n = 0  # actions in the game as last told
        self.phase = "lobby"
        self.over = False
        self.start_sent = False
        self.sent_n: Optional[int] = None  # the n of the act awaiting its update (None: none)
        self.sent_at: Optional[float] = None
        self.retries = 0
        self.last_view: Optional[GameState] = None
        self.acts = 0
        self.reconnects = 0
        self.refused = 0  # a legal action (chosen from the view) that the server refused
        self.invalid = 0  # server messages the protocol refuses
        self.errors: Counter[str] = Counter()
        self.latencies: list[float] = []  # seconds from sending an act to the update holding it
        self._next_send = 0.0

    # ------------------------------------------------------------ connection

    def _left(self) -> float:
        left = self.deadline - time.monotonic()
        if left <= 0:
            raise BotError(f"seat {self.seat} of game {self.game}: out of time")
        return left

    async def _connect(self) -> None:
        self.ws = await connect_pinned(self.url, max_size=P.MAX_SERVER_BYTES,
                                       open_timeout=min(5.0, self._left()),
                                ping_interval=None, close_timeout=1)

    async def close(self) -> None:
        if self.ws is not None:
            try:
                await asyncio.wait_for(self.ws.close(), 2)
            except (*DROPPED, RuntimeError):
                pass

    async def _send(self, msg: BaseModel) -> None:
        loop = asyncio.get_running_loop()
        gap = self._next_send - loop.time()
        if gap > 0:
            await asyncio.sleep(gap)
        self._next_send = loop.time() + 1.0 / SENDS_PER_SECOND
        await self._ws().send(P.encode(msg))

    def _ws(self) -> ClientConnection:
        if self.ws is None:
            raise BotError(f"seat {self.seat} of game {self.game}: not connected")
        return self.ws

    async def _until_joined(self) -> None:
        """Read (and handle) messages until the server says which seat this is."""
        for _ in range(50):  # a joined comes first; a few others (an old lobby) may precede it
            text = await asyncio.wait_for(self._ws().recv(), min(10.0, self._left()))
            obj = await self._handle(text)
            if obj.get("type") == "joined":
                return
            if obj.get("type") == "error":
                raise BotError(f"the server refused {self.name}: {obj.get('code')} {obj.get('message')}")
        raise BotError(f"{self.name}: no joined message from the server")

    async def create(self, seats: int, game_seed: Optional[int] = None) -> None:
        """Make a game: this seat is its host (seat 0), the others are open."""
        self.host = True
        await self._connect()
        req = [P.SeatRequest(kind="host" if i == 0 else "open", colour=cast(Any, COLOURS[i])) for i in range(seats)]
        await self._send(P.Create(name=self.name, seats=req, seed=game_seed))
        await self._until_joined()

    async def join(self, code: str) -> None:
        await self._connect()
        await self._send(P.Join(code=code, name=self.name))
        await self._until_joined()

    async def _reconnect(self) -> None:
        """Connect again and resume this seat with its token (bounded tries)."""
        await self.close()
        for attempt in range(RECONNECT_TRIES):
            try:
                await self._connect()
                assert self.game is not None and self.token is not None  # joined before it was dropped
                await self._send(P.Resume(game=self.game, token=self.token))
                await self._until_joined()
            except DROPPED:
                await asyncio.sleep(min(0.05 * (attempt + 1), 0.3, self._left()))
                continue
            self.reconnects += 1
            return
        raise BotError(f"seat {self.seat} of game {self.game}: cannot reconnect")

    # ------------------------------------------------------------ playing

    async def run(self) -> None:
        """Play until the game is over (reconnecting when dropped); BotError if it cannot."""
        for _ in range(100_000):  # a game is a few hundred messages; this only bounds the loop
            if self.over:
                return
            try:
                text = await asyncio.wait_for(self._ws().recv(), self._left())
                await self._handle(text)
            except asyncio.TimeoutError:
                self._left()  # raises BotError when out of time; else the recv timed out
            except DROPPED:
                await self._reconnect()
        raise BotError(f"seat {self.seat} of game {self.game}: too many messages")

    async def _handle(self, text: Union[str, bytes]) -> dict[str, Any]:
        try:
            obj = json.loads(text)
        except ValueError:
            obj = {}
        if not isinstance(obj, dict):
            obj = {}
        if self.log is not None:  # with the seat this client holds, which the check trusts, not the message
            self.log({"game": self.game, "seat": self.seat, "msg": obj})
        if self.validate:
            try:
                P.parse_server(text)
            except P.ProtocolError:
                self.invalid += 1
                return obj
        kind = obj.get("type")
        if kind == "joined":
            self.game, self.code, self.token, self.seat = obj["game"], obj["code"], obj["token"], obj["seat"]
            self.host = bool(obj["host"])
            if self.rng is None:
                self.rng = random.Random(bot_seed(self.seed, self.seat))
            self.sent_n = None  # anything in flight before a drop is forgotten: the snapshot says
            self.start_sent = False
        elif kind == "lobby":
            if (self.host and not obj["started"] and not self.start_sent
                    and all(s["kind"] != "open" for s in obj["seats"])):
                self.start_sent = True
                assert self.token is not None  # the host's joined came first
                await self._send(P.Start(token=self.token))
        elif kind == "update":
            await self._on_update(obj)
        elif kind == "error":
            await self._on_error(obj)
        return obj

    async def _on_update(self, u: dict[str, Any]) -> None:
        n, view, last = u["n"], u["view"], u.get("last")
        if (self.sent_at is not None and last is not None and last.get("seat") == self.seat
                and self.sent_n is not None and n > self.sent_n):
            self.latencies.append(time.monotonic() - self.sent_at)
            self.sent_at = None
        if last is None:
            self.sent_n = None  # a snapshot: an act sent before it may never have arrived
        self.n, self.phase = n, view["phase"]
        if self.progress is not None:
            self.progress({"game": self.game, "n": n, "phase": self.phase, "round": view["round"]})
        if self.phase == "over":
            self.over = True
            return
        if self.seat is not None and my_turn(view, self.seat) and (self.sent_n is None or n > self.sent_n):
            self.last_view = view_from_json(view, self.content)
            self.retries = 0
            await self._act()

    async def _act(self) -> None:
        assert self.last_view is not None and self.seat is not None and self.rng is not None and self.token
        acts = legal_actions(self.last_view, self.seat)
        if not acts:
            raise BotError(f"seat {self.seat} of game {self.game}: its turn, but no legal action in its view")
        action = self.rng.choice(acts)
        self.sent_n = self.n
        await self._send(P.Act(token=self.token, n=self.n, action=action.to_text()))
        self.sent_at = time.monotonic()
        self.acts += 1

    async def _on_error(self, e: dict[str, Any]) -> None:
        code = str(e.get("code"))
        self.errors[code] += 1
        if code == "stale":
            return  # another seat acted first: its update is on the way, the turn is played from it
        if code in ("illegal", "not_your_seat", "server") and self.sent_n == self.n and self.last_view is not None:
            # the server refused an action chosen from this seat's legal actions: count it, try again
            self.refused += code != "server"
            if self.retries < RETRIES_PER_TURN:
                self.retries += 1
                await self._act()
            return
        if code == "bad_token":
            raise BotError(f"seat {self.seat} of game {self.game}: the server no longer knows its token")

    def figures(self) -> dict[str, Any]:
        return {"acts": self.acts, "reconnects": self.reconnects, "refused": self.refused,
                "invalid": self.invalid, "errors": dict(self.errors)}


# ---------------------------------------------------------------- the processes

def _emit(obj: dict[str, Any]) -> None:
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()


def _sum_figures(clients: list[SeatClient]) -> dict[str, Any]:
    out: dict[str, Any] = {"acts": 0, "reconnects": 0, "refused": 0, "invalid": 0}
    errors: Counter[str] = Counter()
    for c in clients:
        f = c.figures()
        for k in ("acts", "reconnects", "refused", "invalid"):
            out[k] += f[k]
        errors.update(f["errors"])
    out["errors"] = dict(errors)
    return out


async def _play_all(clients: list[SeatClient]) -> list[str]:
    """Run every client to its game's end; the reasons of those that could not."""
    results = await asyncio.gather(*(c.run() for c in clients), return_exceptions=True)
    for c in clients:
        await c.close()
    return [f"{type(r).__name__}: {r}" for r in results if isinstance(r, BaseException)]


async def host_main(a: argparse.Namespace, content: Content, deadline: float,
                    log: Optional[Callable[[dict[str, Any]], None]]) -> dict[str, Any]:
    """Create ``a.games`` games (this process is seat 0 of each), print their codes, play them."""
    clients = []
    for g in range(a.games):
        def progress(p: dict[str, Any], g: int = g) -> None:
            _emit({"ev": "progress", "g": g, **p})
        c = SeatClient(a.url, content, a.seed + g, deadline, name="Host", log=log, progress=progress)
        await c.create(a.seats)  # the server deals: a client seed is refused (issue 39)
        clients.append(c)
        _emit({"ev": "created", "g": g, "game": c.game, "code": c.code, "seat": c.seat})
    failures = await _play_all(clients)
    return {**_sum_figures(clients), "games_over": sum(c.over for c in clients), "failures": failures}


async def guest_main(a: argparse.Namespace, content: Content, deadline: float,
                     log: Optional[Callable[[dict[str, Any]], None]]) -> dict[str, Any]:
    """Join the games whose codes arrive on stdin (one JSON line each), play them."""
    clients, tasks = [], []
    loop = asyncio.get_running_loop()
    for _ in range(a.games):
        line = await asyncio.wait_for(loop.run_in_executor(None, sys.stdin.readline),
                                      max(0.1, deadline - time.monotonic()))
        if not line:
            break
        msg = json.loads(line)
        c = SeatClient(a.url, content, a.seed + msg["g"], deadline, name=f"Guest{a.index}", log=log)
        await c.join(msg["code"])
        _emit({"ev": "joined", "g": msg["g"], "seat": c.seat})
        clients.append(c)
        tasks.append(asyncio.ensure_future(c.run()))  # play as soon as joined: the host may start
    results = await asyncio.gather(*tasks, return_exceptions=True)
    for c in clients:
        await c.close()
    failures = [f"{type(r).__name__}: {r}" for r in results if isinstance(r, BaseException)]
    if len(clients) < a.games:
        failures.append(f"only {len(clients)} of {a.games} invite codes arrived")
    return {**_sum_figures(clients), "games_over": sum(c.over for c in clients), "failures": failures}


async def _tick(every: float, games: list[list[SeatClient]]) -> None:
    """Print the actions acknowledged so far at each multiple of ``every`` seconds of the system's
    monotonic clock, the same in every process: a load tool sums several processes' counts at
    one instant (lab/profile_server.py: the server's CPU per action while the games are played)."""
    while True:
        await asyncio.sleep(every - time.monotonic() % every)
        _emit({"ev": "count", "t": round(time.monotonic(), 3),
               "actions": sum(max(0, game[0].n - 1) for game in games)})


async def load_main(a: argparse.Namespace, content: Content, deadline: float) -> dict[str, Any]:
    """Play ``a.games`` whole games at once (every seat here), until they end or time runs out."""
    stop = time.monotonic() + a.seconds
    slots = asyncio.Semaphore(32)  # connection handshakes in flight at once

    async def one_game(g: int) -> list[SeatClient]:
        seed = a.seed + g
        async with slots:
            host = SeatClient(a.url, content, seed, deadline, name="Host", validate=False)
            await host.create(a.seats)
            guests = [SeatClient(a.url, content, seed, deadline, name=f"Guest{i}", validate=False)
                      for i in range(1, a.seats)]
            assert host.code is not None  # created: the server gave its code
            for c in guests:
                await c.join(host.code)
        return [host, *guests]

    begun = time.monotonic()
    made = await asyncio.gather(*(one_game(g) for g in range(a.games)), return_exceptions=True)
    games = [m for m in made if not isinstance(m, BaseException)]
    failures = [f"{type(m).__name__}: {m}" for m in made if isinstance(m, BaseException)]
    clients = [c for game in games for c in game]
    tasks = [asyncio.ensure_future(c.run()) for c in clients]
    ticker = asyncio.ensure_future(_tick(a.ticks, games)) if a.ticks > 0 else None
    if tasks:
        done, pending = await asyncio.wait(tasks, timeout=max(0.0, stop - time.monotonic()))
        for t in pending:
            t.cancel()
        await asyncio.gather(*pending, return_exceptions=True)
        failures += [f"{type(t.exception()).__name__}: {t.exception()}" for t in done if t.exception()]
    if ticker is not None:
        ticker.cancel()
    elapsed = time.monotonic() - begun
    for c in clients:
        await c.close()
    actions = sum(max(0, game[0].n - 1) for game in games)  # the setup is the server's, not a client's
    return {**_sum_figures(clients), "games": len(games), "games_over": sum(game[0].over for game in games),
            "actions": actions, "elapsed": elapsed, "failures": failures[:20],
            "latencies_ms": [round(x * 1000, 3) for c in clients for x in c.latencies]}


def _args(argv: list[str]) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="gonzaga.net.botclient")
    p.add_argument("--url", required=True)
    p.add_argument("--role", choices=("host", "guest", "load"), required=True)
    p.add_argument("--games", type=int, required=True)
    p.add_argument("--seats", type=int, default=2)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--index", type=int, default=0, help="this guest's number, for its name")
    p.add_argument("--log", default=None, help="write every message received here (JSON lines)")
    p.add_argument("--seconds", type=float, default=30.0, help="load: stop playing after this long")
    p.add_argument("--timeout", type=float, default=120.0, help="give up after this long")
    p.add_argument("--ticks", type=float, default=0.0, help="load: print the actions acknowledged so far every "
                   "this many seconds while playing (0: never)")
    return p.parse_args(argv)


def main(argv: Optional[list[str]] = None) -> int:
    a = _args(sys.argv[1:] if argv is None else argv)
    if not a.url.startswith(("ws://127.0.0.1:", "wss://127.0.0.1:")):
        print("gonzaga.net.botclient: only a loopback server (ws:// or wss://127.0.0.1:PORT)", file=sys.stderr)
        return 2
    content = load_content()
    deadline = time.monotonic() + a.timeout
    out = open(a.log, "a", encoding="utf-8") if a.log else None
    log: Optional[Callable[[dict[str, Any]], None]] = None
    if out is not None:
        def log(obj: dict[str, Any]) -> None:
            out.write(json.dumps(obj) + "\n")
    try:
        if a.role == "load":
            res = asyncio.run(load_main(a, content, deadline))
        else:
            res = asyncio.run((host_main if a.role == "host" else guest_main)(a, content, deadline, log))
    except (BotError, *DROPPED) as e:
        res = {"games_over": 0, "failures": [f"{type(e).__name__}: {e}"]}
    finally:
        if out:
            out.close()
    _emit({"ev": "done", **res})
    return 0 if not res.get("failures") else 1


if __name__ == "__main__":
    sys.exit(main())
