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
import hashlib
import logging
import multiprocessing
import secrets
import time
from concurrent.futures import Future, ProcessPoolExecutor, ThreadPoolExecutor
from collections import deque
from typing import Any, Literal, Optional, Protocol, Union, cast

from pydantic import BaseModel

from websockets.asyncio.server import ServerConnection
from websockets.exceptions import ConnectionClosed

from ..ai.base import Bot
from ..ai.roster import make_bot, searches, split_name
from ..ai.worker import decide_once, strip_view, watch_parent
from ..rules import Action, GameConfig, GameRecord, GameState
from ..rules.content import Content
from ..rules import Place, Plan, Setup, Wedding
from ..rules.view import public_view
from ..table import SeatSpec, Table, gamelog, history
from ..table.reviews import public_finished
from ..table.store import Change
from ..words import i18n
from . import logcodec
from .admission import Refused
from .gate import address_of
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
        self.out: asyncio.Queue[Union[str, tuple[int, str], None]] = asyncio.Queue()
        self.room: Optional["GameRoom"] = None
        self.seat: Optional[int] = None
        self.times: deque[float] = deque()
        self.floods = 0
        self.closing = False
        self.dead = False
        self.peer = _peer(ws)
        self.address = address_of(_peername(ws))  # what the per-address limits count (gate.py)

    def send(self, msg: Union[BaseModel, str]) -> None:
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

    def refuse(self, r: Refused, version: Optional[int] = None) -> None:
        """Tell this connection its message was refused: the code, the words' key and
        parameters, the English and the rule (``version``: an older client's, see ``P.error_text``)."""
        self.send(P.error_text(r.code, r.key, r.message, r.rule, r.params, version))

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


def _peername(ws: ServerConnection) -> Any:
    try:
        return ws.remote_address
    except Exception:  # the transport is already gone
        return None


def _peer(ws: ServerConnection) -> str:
    a = _peername(ws)
    try:
        return f"{a[0]}:{a[1]}"
    except Exception:
        return "a client"


# ---------------------------------------------------------------- names, codes and what a seat is told

CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 6


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def new_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def _ai_name(bot: str) -> str:
    return f"AI ({bot})"[:24]


def last_for(action: Action, seat: Optional[int]) -> P.LastAction:
    """The action as ``seat`` may know it (setup: nothing; another seat's plan: only who planned; None:
    a spectator, who is nobody)."""
    if isinstance(action, Setup):
        return P.LastAction(kind="setup")
    if isinstance(action, Plan):
        return P.LastAction(kind="plan", seat=action.seat, text=action.to_text() if action.seat == seat else None)
    kind: Literal["place", "wedding", "donate"] = "place" if isinstance(action, Place) else \
        "wedding" if isinstance(action, Wedding) else "donate"
    return P.LastAction(kind=kind, seat=action.seat, text=action.to_text())


class Seat:
    """A seat of a room. An AI seat that keeps a ``token_hash`` was a player's: ``player`` is their
    name (they may take the seat back) unless they ``resigned``."""

    def __init__(self, name: str, kind: str, colour: str, bot: Optional[str] = None,
                 token_hash: Optional[str] = None, player: Optional[str] = None, resigned: bool = False):
        self.name, self.kind, self.colour, self.bot, self.token_hash = name, kind, colour, bot, token_hash
        self.player, self.resigned = player, resigned
        self.conn: Optional[Conn] = None

    def info(self) -> P.SeatInfo:
        return P.SeatInfo(name=self.name, kind=cast(Any, self.kind), colour=cast(Any, self.colour), bot=self.bot,
                          connected=self.kind == "ai" or (self.kind == "human" and self.conn is not None),
                          player=self.player if self.kind == "ai" else None, resigned=self.resigned)

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "kind": self.kind, "colour": self.colour, "bot": self.bot,
                "token_hash": self.token_hash, "player": self.player, "resigned": self.resigned}

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> "Seat":
        kind = d["kind"]
        if kind not in ("human", "ai", "open"):
            raise ValueError(f"bad seat kind {kind!r}")
        return cls(str(d.get("name") or ""), kind, d["colour"], d.get("bot"), d.get("token_hash"),
                   d.get("player") or None, bool(d.get("resigned")))


def _spec(s: "Seat") -> SeatSpec:
    return SeatSpec(s.name, s.kind, s.bot or "", s.colour)


class GameRoom:
    """One game: its table (state, record, the one authority), its seats and the connections
    that hold them."""

    def __init__(self, game_id: str, code: str, config: GameConfig, seed: int, seats: list[Seat],
                 content: Content, host_seat: int = 0, actions: tuple[Action, ...] = (),
                 options: Optional[dict[str, Any]] = None):
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
        # the host's choices (kept in the stored config's "online"): the grace period before a
        # dropped seat may go to an AI, the turn timer, whether spectators may watch
        o = options or {}
        self.grace = int(o.get("grace", P.GRACE_DEFAULT))
        self.turn_secs: Optional[int] = o.get("turn_secs")
        self.watchable = bool(o.get("watchers", True))
        self.table.grace = float(self.grace)
        for i, s in enumerate(seats):  # an AI seat that still has its player's token: handed over or resigned
            if s.kind == "ai" and s.token_hash:
                (self.table.resigned if s.resigned else self.table.handed).add(i)
        self.watchers: list[Conn] = []  # spectators: the public view only
        self.rematch: set[int] = set()  # seats that asked for a rematch (a finished game)
        self.said: deque[P.Said] = deque(maxlen=20)  # the latest chat lines, for whoever comes back
        self.chat_times: dict[int, deque[float]] = {}  # per seat: when its latest lines were said
        # the turn timer, per human seat due to act: (the position, since when; None once timed out)
        self.waiting_since: dict[int, tuple[tuple[int, str, int], Optional[float]]] = {}

    def options(self) -> dict[str, Any]:
        return {"grace": self.grace, "turn_secs": self.turn_secs, "watchers": self.watchable}

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
            if spec.kind == have.kind and (spec.kind != "ai" or spec.bot == have.bot):
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

    def everyone(self) -> list[Conn]:
        """The seats' connections and the spectators'."""
        return [c for _, c in self.conns()] + list(self.watchers)

    def lobby(self) -> P.Lobby:
        return P.Lobby(game=self.id, code=self.code, seats=self.seat_infos(), started=self.started,
                       grace=self.grace, turn_secs=self.turn_secs, rematch=sorted(self.rematch),
                       watchers=len(self.watchers))

    def seat_name(self, seat: int) -> Union[str, i18n.Term]:
        """A seat's name in the game log: its player's name (also while an AI plays for them), or
        an AI's, put into words by the reader."""
        s = self.seats[seat]
        name = P.player_name(s)
        if name:
            return name
        if s.kind == "ai":
            level = split_name(s.bot or "medium")[0]
            return i18n.Term("t", "online.ai_name", {"level": i18n.Term("t", f"level.{level}", {})})
        return s.colour

    def history(self) -> P.History:
        """The game log so far, written from the public view of every position (the same for
        every seat and a spectator: no secret is in it)."""
        states = history.states(self.record, self.content)
        lines = []
        for prev, a, new in zip(states, self.record.actions, states[1:]):
            if isinstance(a, Setup):  # the log reads the scenario and first seat from the state
                a = Setup(new.scenario or "", new.last_turn_seat, (), ())
            lines += gamelog.write(public_view(prev), a, public_view(new), self.seat_name)
        return P.History(game=self.id, n=self.n, lines=logcodec.encode(lines)[-2000:])

    def stored(self) -> StoredGame:
        return StoredGame(self.id, self.code, {**self.config.to_json(), "online": self.options()}, self.seed,
                          [s.to_json() for s in self.seats], self.host_seat, self.started, self.finished)

    def update(self, seat: Optional[int], last: Optional[P.LastAction], infos: Optional[list[P.SeatInfo]] = None,
               v: Optional[GameState] = None) -> P.Update:
        v = self.table.view_for(seat) if v is None else v
        over = seat is not None and v.phase == "over"  # issue 48: a player's review of their seat
        return P.Update(game=self.id, n=self.n, seat=seat, view=view_to_json(v),
                        last=last, seats=infos if infos is not None else self.seat_infos(),
                        turn_left=self.turn_left(seat, v), record=public_finished(self.record, self.state) if over else None)

    def turn_left(self, seat: Optional[int], v: Optional[GameState] = None,
                  now: Optional[float] = None) -> Optional[float]:
        """Seconds ``seat`` has left under the turn timer at ``v``'s position (None: no timer, or
        not a human seat's turn). A seat told it is due starts its count now, the same count
        ``timers.check_room`` keeps, so the client's countdown is the server's."""
        st = self.state if v is None else v
        if not self.turn_secs or seat is None or not self.table.started or self.table.is_over \
                or seat not in st.to_act() or self.table.seats[seat].kind != "human":
            return None
        position = turn_position(st)
        if position != turn_position(self.state):
            return None  # an update of an earlier position: the game has moved on since
        now = time.monotonic() if now is None else now
        waiting = self.waiting_since.get(seat)
        if waiting is None or waiting[0] != position:
            waiting = self.waiting_since[seat] = (position, now)
        since = waiting[1]  # None: the time ran out and the AI is deciding (timers.check_room)
        return 0.0 if since is None else round(max(0.0, self.turn_secs - (now - since)), 1)


def turn_position(st: GameState) -> tuple[int, str, int]:
    """What the turn timer counts at: a seat's wait starts again when this changes."""
    return (st.round, st.phase, st.turn if st.phase == "place" else -1)


def _choose(bot: Bot, v: GameState, seat: int) -> Action:
    return bot.choose(v, seat)


class RoomStore:
    """A room's store for its table: each action appended to the database in one transaction
    (raising when it cannot: the table then changes nothing). Nothing is ever taken back online."""

    def __init__(self, server: RoomServer, room: GameRoom):
        self.server, self.room = server, room

    def keep(self, change: Change) -> None:
        if change.kind != "action":
            raise StoreError("an online game is kept as it was played: nothing is taken back")
        assert change.action is not None  # an "action" change carries its action
        self.server.store.append_action(self.room.id, change.index, change.action.to_text())
        self.server.actions_accepted += 1


class RoomWorker:
    """A room's decision worker (the interface of ``ai.worker.DecisionWorker``) over the server's
    pools: cheap levels in its thread pool, search levels in its processes. A finished decision
    wakes the room's table on the event loop."""

    def __init__(self, server: RoomServer, room: GameRoom):
        self.server, self.room = server, room
        self._futures: dict[int, Future[Action]] = {}
        self._bots: dict[tuple[str, int, int], Bot] = {}
        self._n = 0

    def request(self, bot_name: str, seed: int, v: GameState, seat: int) -> int:
        server = self.server
        if searches(bot_name):
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

        def done(f: Future[Action]) -> None:
            if not server.stopping and f.exception() is not None:
                log.error("game %s: seat %d's AI failed: %r", room.id, seat, f.exception())
            try:
                assert loop is not None  # only added when there is one
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
