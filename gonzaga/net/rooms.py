"""A room of the online server (``server.py``): its game, held by a :class:`gonzaga.table.Table`
(the one authority, the same as the desktop game's), and what connects that table to the
server: :class:`RoomStore` (each action appended to the database before anyone sees it) and
:class:`RoomWorker` (the AI seats' decisions, asked through the server's pools off the event loop).

Here too the seats of a room (:class:`Seat`) and the client connection that holds one
(:class:`Conn`). The tokens and the messages stay in ``server.py``, which gives each room's
store and worker the server itself (they see it as a :class:`RoomServer`: they do not import it).
"""
from __future__ import annotations

import asyncio
import logging
import multiprocessing
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from collections import deque
from typing import Optional, Protocol, Union

from websockets.asyncio.server import ServerConnection
from websockets.exceptions import ConnectionClosed

from ..ai.roster import make_bot
from ..ai.worker import PROCESS_BOTS, decide_once, strip_view, watch_parent
from ..rules import Action, GameConfig, GameRecord, GameState
from ..rules.content import Content
from ..rules.view import shown_view
from ..table import SeatSpec, Table
from . import protocol as P
from .storage import GameStore, StoredGame, StoreError
from .viewcodec import view_to_json

log = logging.getLogger(__name__)

MAX_OUTBOX = 500  # messages waiting for a client that does not read: past this it is cut off


class RoomServer(Protocol):
    """What a room's store and worker use of the server (``server.GameServer``)."""
    store: GameStore
    actions_accepted: int
    procs: Optional[ProcessPoolExecutor]
    pool: ThreadPoolExecutor
    workers: int
    loop: Optional[asyncio.AbstractEventLoop]
    stopping: bool

    def _ai_ready(self, room: "GameRoom") -> None: ...


class Conn:
    """One client connection: its outgoing queue (written by its own task, so a slow reader never
    holds up a game), the seat it holds, and its flood counters."""

    def __init__(self, ws: ServerConnection):
        self.ws = ws
        self.out: asyncio.Queue = asyncio.Queue()
        self.room: Optional["GameRoom"] = None
        self.seat: Optional[int] = None
        self.times: deque = deque()
        self.floods = 0
        self.closing = False
        self.dead = False
        self.peer = _peer(ws)
        self.address = self.peer.rpartition(":")[0] or self.peer  # what the per-address limits count

    def send(self, msg: Union[P.BaseModel, str]) -> None:
        if self.dead or self.closing:
            return
        if self.out.qsize() >= MAX_OUTBOX:
            log.warning("%s does not read its messages: cut off", self.peer)
            self.dead = True
            try:
                self.ws.transport.abort()
            except Exception:  # pragma: no cover - the transport is already gone
                pass
            return
        self.out.put_nowait(msg if isinstance(msg, str) else P.encode(msg))

    def error(self, code: str, message: str, rule: Optional[str] = None) -> None:
        self.send(P.Error(code=code, message=message, rule=rule))

    def close(self, code: int, reason: str) -> None:
        """Close after the messages already queued have gone out."""
        if self.dead or self.closing:
            return
        self.closing = True
        self.out.put_nowait((code, reason))

    async def writer(self) -> None:
        try:
            while True:
                item = await self.out.get()
                if item is None:
                    return
                if isinstance(item, tuple):
                    await self.ws.close(*item)
                    return
                await self.ws.send(item)
        except ConnectionClosed:
            pass
        except Exception:  # pragma: no cover - logged, the connection is given up
            log.exception("sending to %s failed", self.peer)
        finally:
            self.dead = True


def _peer(ws) -> str:
    try:
        a = ws.remote_address
        return f"{a[0]}:{a[1]}"
    except Exception:
        return "a client"


class Seat:
    def __init__(self, name: str, kind: str, colour: str, bot: Optional[str] = None,
                 token_hash: Optional[str] = None):
        self.name, self.kind, self.colour, self.bot, self.token_hash = name, kind, colour, bot, token_hash
        self.conn: Optional[Conn] = None

    def info(self) -> P.SeatInfo:
        return P.SeatInfo(name=self.name, kind=self.kind, colour=self.colour, bot=self.bot,
                          connected=self.kind == "ai" or (self.kind == "human" and self.conn is not None))

    def to_json(self) -> dict:
        return {"name": self.name, "kind": self.kind, "colour": self.colour, "bot": self.bot,
                "token_hash": self.token_hash}

    @classmethod
    def from_json(cls, d: dict) -> "Seat":
        kind = d["kind"]
        if kind not in ("human", "ai", "open"):
            raise ValueError(f"bad seat kind {kind!r}")
        return cls(str(d.get("name") or ""), kind, d["colour"], d.get("bot"), d.get("token_hash"))




def _spec(s: "Seat") -> SeatSpec:
    return SeatSpec(s.name, s.kind, s.bot or "", s.colour)


class GameRoom:
    """One game: its table (state, record, the one authority), its seats and the connections
    that hold them."""

    def __init__(self, game_id: str, code: str, config: GameConfig, seed: int, seats: list[Seat],
                 content: Content, host_seat: int = 0, actions: tuple = ()):
        self.id = game_id
        self.code = code
        self.config = config
        self.seed = seed
        self._seats = seats
        self.host_seat = host_seat
        self.content = content
        self.table = Table([_spec(s) for s in seats], GameRecord(config, seed, list(actions), content.map_id),
                           content=content, host=host_seat)
        self.started = bool(actions)
        self.finished = self.table.is_over

    @property
    def state(self) -> GameState:
        return self.table.state

    @property
    def record(self) -> GameRecord:
        return self.table.record

    @property
    def seats(self) -> list[Seat]:
        return self._seats

    @seats.setter
    def seats(self, seats: list[Seat]) -> None:
        """New seats from the lobby (before the start), or after a hand-over the table made."""
        for i, s in enumerate(seats):
            spec, have = _spec(s), self.table.seats[i]
            if (spec.kind, spec.bot) == (have.kind, have.bot):
                continue
            if self.table.started:
                raise ValueError(f"seat {i} changes only through the table (a hand-over)")
            self.table.set_seat(i, spec)
        self._seats = seats

    @property
    def n(self) -> int:
        return len(self.record.actions)

    def seat_infos(self) -> list[P.SeatInfo]:
        return [s.info() for s in self.seats]

    def conns(self) -> list[tuple[int, Conn]]:
        return [(i, s.conn) for i, s in enumerate(self.seats) if s.conn is not None]

    def lobby(self) -> P.Lobby:
        return P.Lobby(game=self.id, code=self.code, seats=self.seat_infos(), started=self.started)

    def stored(self) -> StoredGame:
        return StoredGame(self.id, self.code, self.config.to_json(), self.seed,
                          [s.to_json() for s in self.seats], self.host_seat, self.started, self.finished)

    def update(self, seat: int, last: Optional[P.LastAction], infos: Optional[list] = None,
               v: Optional[GameState] = None) -> P.Update:
        v = self.table.view_for(seat) if v is None else v
        return P.Update(game=self.id, n=self.n, seat=seat, view=view_to_json(v),
                        last=last, seats=infos if infos is not None else self.seat_infos())


def seat_view(state: GameState, seat: int) -> GameState:
    """What ``seat`` is sent: ``rules.view.shown_view`` (its view; once the game is over, with
    every seat's objective shown, as at the table)."""
    return shown_view(state, seat)


def _choose(bot, v: GameState, seat: int) -> Action:
    return bot.choose(v, seat)


class RoomStore:
    """A room's store for its table: each action appended to the database in one transaction
    (raising when it cannot: the table then changes nothing). Nothing is ever taken back online."""

    def __init__(self, server: RoomServer, room: GameRoom):
        self.server, self.room = server, room

    def keep(self, change) -> None:
        if change.kind != "action":
            raise StoreError("an online game is kept as it was played: nothing is taken back")
        self.server.store.append_action(self.room.id, change.index, change.action.to_text())
        self.server.actions_accepted += 1


class RoomWorker:
    """A room's decision worker (the interface of ``ai.worker.DecisionWorker``) over the server's
    pools: cheap levels in its thread pool, search levels in its processes. A finished decision
    wakes the room's table on the event loop."""

    def __init__(self, server: RoomServer, room: GameRoom):
        self.server, self.room = server, room
        self._futures: dict[int, object] = {}
        self._bots: dict[tuple, object] = {}
        self._n = 0

    def request(self, bot_name: str, seed: int, v: GameState, seat: int) -> int:
        server = self.server
        if bot_name.split("@")[0] in PROCESS_BOTS:
            if server.procs is None:
                server.procs = ProcessPoolExecutor(max_workers=server.workers,
                                                   mp_context=multiprocessing.get_context("spawn"),
                                                   initializer=watch_parent)  # exits with its server
            light, directory = strip_view(v)
            fut = server.procs.submit(decide_once, bot_name, seed, light, directory, seat)
        else:
            bot = self._bots.get((bot_name, seed, seat))
            if bot is None:
                bot = self._bots[(bot_name, seed, seat)] = make_bot(bot_name, seed)
            fut = server.pool.submit(_choose, bot, v, seat)
        self._n += 1
        self._futures[self._n] = fut
        loop, room = server.loop, self.room

        def done(f):
            if not server.stopping and f.exception() is not None:
                log.error("game %s: seat %d's AI failed: %r", room.id, seat, f.exception())
            try:
                loop.call_soon_threadsafe(server._ai_ready, room)
            except RuntimeError:  # the loop is closed: the server has stopped
                pass
        if loop is not None:
            fut.add_done_callback(done)
        return self._n

    def result(self, ticket: int) -> Optional[Action]:
        fut = self._futures.get(ticket)
        if fut is None or not fut.done():
            return None
        del self._futures[ticket]
        return fut.result()  # a failing bot raises here: the table falls back to a safe action

    def cancel_all(self) -> None:
        for f in self._futures.values():
            f.cancel()
        self._futures.clear()

    def close(self) -> None:
        self.cancel_all()
        self._bots.clear()
