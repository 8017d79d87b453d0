"""The authoritative game server for online play (issue 14): ``gonzaga serve``.

One asyncio process holds every game as a :class:`GameRoom`: the full state from the rules
engine, its :class:`GameRecord`, and the seats (names, kinds, token hashes, the connection that
holds each one). Clients only ever receive their own seat's view (``rules.view``, encoded by
``viewcodec``), never the full state. The behaviour is docs/online-contract.md; the messages are
``protocol.py``.

Every accepted action is checked by the rules, written to the store (``storage.py``) in one
transaction, applied, and then sent to each connected seat as an ``update`` with the action as
that seat may know it. AI seats are played here, off the event loop, by a small thread pool,
from their seat's view only. A server started on the same data folder rebuilds every game by
replaying its stored actions, so clients come back with ``resume`` and their token.

Hostile input (bad JSON, wrong version, deep nesting, oversized frames, floods, exceptions in a
handler) is answered on its own connection and never stops the server or touches another game.
"""
from __future__ import annotations

import argparse
import asyncio
import hashlib
import logging
import multiprocessing
import random
import secrets
import signal
import sys
import threading
import time
from collections import deque
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from pathlib import Path
from typing import Callable, Optional, Union

from websockets.asyncio.server import ServerConnection, serve
from websockets.exceptions import ConnectionClosed
from websockets.extensions.permessage_deflate import ServerPerMessageDeflateFactory

from ..ai.roster import is_known, make_bot
from ..ai.match import bot_seed
from ..ai.worker import PROCESS_BOTS, decide_once, strip_view
from ..rules import (Action, ActionSyntaxError, GameConfig, GameRecord, GameState, Place, Plan,
                     Setup, Wedding, apply, check, deal, new_game, parse_action, view)
from ..rules.content import Content, load_content
from ..rules.record import replay
from ..rules.state import evolve
from . import protocol as P
from .storage import GameStore, StoredGame, StoreError, open_store
from .viewcodec import view_to_json

log = logging.getLogger(__name__)

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 7373
AI_WORKERS = 2
CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 6
FLOOD_MESSAGES = 30  # more than this many messages in FLOOD_WINDOW seconds is a flood
FLOOD_WINDOW = 1.0
FLOOD_CLOSE_AFTER = 3  # flood errors before the connection is closed
MAX_GAME_CONNECTIONS = 8
MAX_CONNECTIONS = 2000
MAX_UNFINISHED_GAMES = 5000
MAX_OUTBOX = 500  # messages waiting for a client that does not read: past this it is cut off
CLOSE_TRY_LATER = 1013
CLOSE_POLICY = 1008
AI_RETRY_SECS = 1.0  # an AI action that could not be stored is asked again after this


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def new_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def _ai_name(bot: str) -> str:
    return f"AI ({bot})"[:24]


# ---------------------------------------------------------------- connections

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


# ---------------------------------------------------------------- games

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


class GameRoom:
    """One game: its full state, its record, its seats and the connections that hold them."""

    def __init__(self, game_id: str, code: str, config: GameConfig, seed: int, seats: list[Seat],
                 content: Content, host_seat: int = 0):
        self.id = game_id
        self.code = code
        self.config = config
        self.seed = seed
        self.seats = seats
        self.host_seat = host_seat
        self.content = content
        self.record = GameRecord(config, seed, [], content.map_id)
        self.state: GameState = new_game(config, content)
        self.started = False
        self.finished = False
        self.bots: dict[int, tuple] = {}  # seat: (level, bot)
        self.pending: set[int] = set()  # AI seats being asked now

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

    def bot(self, seat: int):
        level = self.seats[seat].bot
        have = self.bots.get(seat)
        if have is None or have[0] != level:
            have = (level, make_bot(level, bot_seed(self.seed, seat)))
            self.bots[seat] = have
        return have[1]

    def update(self, seat: int, last: Optional[P.LastAction], infos: Optional[list] = None) -> P.Update:
        return P.Update(game=self.id, n=self.n, seat=seat, view=view_to_json(seat_view(self.state, seat)),
                        last=last, seats=infos if infos is not None else self.seat_infos())


def seat_view(state: GameState, seat: int) -> GameState:
    """What ``seat`` is sent: ``view(state, seat)``; once the game is over, with every seat's
    objective shown (they are scored then, as at the table)."""
    v = view(state, seat)
    if not state.is_over:
        return v
    return evolve(v, seats=tuple(evolve(s, objective=full.objective) for s, full in zip(v.seats, state.seats)))


def last_for(action: Action, seat: int) -> P.LastAction:
    """The action as ``seat`` may know it (setup: nothing; another seat's plan: only who planned)."""
    if isinstance(action, Setup):
        return P.LastAction(kind="setup")
    if isinstance(action, Plan):
        return P.LastAction(kind="plan", seat=action.seat, text=action.to_text() if action.seat == seat else None)
    kind = "place" if isinstance(action, Place) else "wedding" if isinstance(action, Wedding) else "donate"
    return P.LastAction(kind=kind, seat=action.seat, text=action.to_text())


class Refused(Exception):
    """A message refused with an error code (sent to its sender only; nothing changed)."""

    def __init__(self, code: str, message: str, rule: Optional[str] = None):
        super().__init__(message)
        self.code, self.message, self.rule = code, message, rule


def _choose(bot, v: GameState, seat: int) -> Action:
    return bot.choose(v, seat)


def _fallback(v: GameState, seat: int) -> Action:
    from ..session import _fallback as fb  # the first legal plan, or a donation
    return fb(v, seat)


# ---------------------------------------------------------------- the server

class GameServer:
    """Every game of one server process; the WebSocket handler is :meth:`handler`.

    Everything but the AI's thinking runs on the event loop's thread, so the rooms need no locks.
    """

    def __init__(self, store: GameStore, content: Optional[Content] = None, workers: int = AI_WORKERS):
        self.store = store
        self.content = content or load_content()
        self.rooms: dict[str, GameRoom] = {}
        self.by_code: dict[str, GameRoom] = {}
        self.tokens: dict[str, tuple[GameRoom, int]] = {}
        self.conns: set[Conn] = set()
        self.pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="gonzaga-ai")
        # search levels think in processes: in a thread they would hold the GIL against the event
        # loop (and, in the desktop game that hosts, against its frame loop)
        self.workers = workers
        self.procs: Optional[ProcessPoolExecutor] = None
        self.loop: Optional[asyncio.AbstractEventLoop] = None
        self.stopping = False
        self.actions_accepted = 0

    # ------------------------------------------------------------ loading

    def load(self) -> int:
        """Rebuild every stored game by replaying its actions; the number of games loaded."""
        count = 0
        for g in self.store.load_games():
            try:
                room = self._rebuild(g)
            except Exception as e:
                log.error("game %s cannot be resumed and is left out: %s", g.id, e)
                continue
            self._register(room)
            count += 1
        log.info("%d games loaded (%d unfinished)", count, self.unfinished())
        return count

    def _rebuild(self, g: StoredGame) -> GameRoom:
        config = GameConfig.from_json(g.config)
        seats = [Seat.from_json(d) for d in g.seats]
        if len(seats) != config.seats:
            raise ValueError("the seats do not match the config")
        room = GameRoom(g.id, g.code, config, g.seed, seats, self.content, g.host_seat)
        actions = [parse_action(t) for t in g.actions]
        record = GameRecord(config, g.seed, actions, self.content.map_id)
        room.state = replay(record, self.content)
        room.record = record
        room.started = g.started or bool(actions)
        room.finished = g.finished or room.state.is_over
        if room.finished and not g.finished:
            self._store_quietly(self.store.set_finished, room.id)
        if room.started and not g.started:
            self._store_quietly(self.store.set_started, room.id)
        return room

    def _register(self, room: GameRoom) -> None:
        self.rooms[room.id] = room
        self.by_code[room.code] = room
        for i, s in enumerate(room.seats):
            if s.token_hash:
                self.tokens[s.token_hash] = (room, i)

    def unfinished(self) -> int:
        return sum(1 for r in self.rooms.values() if not r.finished)

    def _store_quietly(self, fn, *args) -> bool:
        try:
            fn(*args)
            return True
        except Exception as e:
            log.error("the store failed: %s", e)
            return False

    def start_ai(self) -> None:
        """Let every AI seat that is to act go on (after loading)."""
        for room in list(self.rooms.values()):
            self._schedule_ai(room)

    def close(self) -> None:
        self.stopping = True
        self.pool.shutdown(wait=False, cancel_futures=True)
        if self.procs is not None:
            self.procs.shutdown(wait=False, cancel_futures=True)

    def _submit_ai(self, room: "GameRoom", seat: int, st: GameState):
        """Ask seat's AI level for its decision from its view: a future of the action."""
        level = room.seats[seat].bot
        v = view(st, seat)
        if level.split("@")[0] in PROCESS_BOTS:
            if self.procs is None:
                self.procs = ProcessPoolExecutor(max_workers=self.workers,
                                                 mp_context=multiprocessing.get_context("spawn"))
            light, directory = strip_view(v)
            return self.procs.submit(decide_once, level, bot_seed(room.seed, seat), light, directory, seat)
        return self.pool.submit(_choose, room.bot(seat), v, seat)

    # ------------------------------------------------------------ connections

    async def handler(self, ws: ServerConnection) -> None:
        if self.loop is None:
            self.loop = asyncio.get_running_loop()
        if len(self.conns) >= MAX_CONNECTIONS or self.stopping:
            await ws.close(CLOSE_TRY_LATER, "the server is busy")
            return
        conn = Conn(ws)
        self.conns.add(conn)
        writer = asyncio.create_task(conn.writer())
        log.debug("%s connected", conn.peer)
        try:
            async for raw in ws:
                if conn.closing or conn.dead:
                    break
                if self._flooded(conn):
                    continue
                self.dispatch(conn, raw)
        except ConnectionClosed:
            pass
        finally:
            self.conns.discard(conn)
            self._detach(conn)
            if not writer.done():
                conn.out.put_nowait(None)
                try:
                    await asyncio.wait_for(writer, 2.0)
                except (asyncio.TimeoutError, asyncio.CancelledError):
                    writer.cancel()
            log.debug("%s disconnected (%s)", conn.peer, ws.close_code)

    def _flooded(self, conn: Conn) -> bool:
        now = time.monotonic()
        t = conn.times
        t.append(now)
        while t and now - t[0] > FLOOD_WINDOW:
            t.popleft()
        if len(t) <= FLOOD_MESSAGES:
            return False
        conn.floods += 1
        conn.error("flood", f"at most {FLOOD_MESSAGES} messages a second")
        if conn.floods >= FLOOD_CLOSE_AFTER:
            log.warning("%s flooded: closed", conn.peer)
            conn.close(CLOSE_POLICY, "flood")
        return True

    def dispatch(self, conn: Conn, raw: Union[str, bytes]) -> None:
        """One client message: answered, refused or logged, never raised."""
        try:
            msg = P.parse_client(raw)
        except P.ProtocolError as e:
            conn.error(e.code, e.message)
            if e.code == "too_large":
                conn.close(1009, "message too big")
            return
        try:
            handle = getattr(self, f"on_{msg.type}")
            handle(conn, msg)
        except Refused as r:
            conn.error(r.code, r.message, r.rule)
        except Exception:
            log.exception("the server failed on a %s message from %s", msg.type, conn.peer)
            conn.error("server", "the server failed on this message; nothing was changed")

    # ------------------------------------------------------------ seats and presence

    def _attach(self, conn: Conn, room: GameRoom, seat: int) -> None:
        """``conn`` now holds ``seat``: the newest connection receives, an older one is dropped."""
        if conn.room is not room or conn.seat != seat:
            self._detach(conn, announce=conn.room is not room)
        s = room.seats[seat]
        old = s.conn
        if old is not None and old is not conn:
            old.room = old.seat = None
            old.close(1000, "replaced by a newer connection")
        elif old is None and len(room.conns()) >= MAX_GAME_CONNECTIONS:
            conn.close(CLOSE_TRY_LATER, "too many connections to this game")
            raise Refused("server", "too many connections to this game")
        s.conn = conn
        conn.room, conn.seat = room, seat

    def _detach(self, conn: Conn, announce: bool = True) -> None:
        room, seat = conn.room, conn.seat
        conn.room = conn.seat = None
        if room is None or seat is None:
            return
        s = room.seats[seat]
        if s.conn is conn:
            s.conn = None
            if announce and not self.stopping:
                self._broadcast_lobby(room)

    def _broadcast_lobby(self, room: GameRoom, extra: Optional[Conn] = None) -> None:
        text = P.encode(room.lobby())
        for _, c in room.conns():
            c.send(text)
        if extra is not None:
            extra.send(text)

    def _seat_of(self, token: str, room: Optional[GameRoom] = None) -> tuple[GameRoom, int]:
        found = self.tokens.get(token_hash(token))
        if found is None or (room is not None and found[0] is not room):
            raise Refused("bad_token", "that token is no seat's of this game" if room else
                          "that token is no seat's in any game")
        return found

    def _host(self, token: str) -> tuple[GameRoom, int]:
        room, seat = self._seat_of(token)
        if seat != room.host_seat:
            raise Refused("not_host", "only the host may do that")
        return room, seat

    def _new_token(self) -> str:
        while True:
            t = secrets.token_urlsafe(24)
            if token_hash(t) not in self.tokens:
                return t

    def _joined(self, conn: Conn, room: GameRoom, seat: int, token: str) -> None:
        conn.send(P.Joined(game=room.id, code=room.code, seat=seat, token=token,
                           host=seat == room.host_seat, map=self.content.map_id))

    def _save_seats(self, room: GameRoom, seats: list[Seat]) -> None:
        try:
            self.store.replace_seats(room.id, [s.to_json() for s in seats])
        except Exception as e:
            log.error("game %s: the seats could not be stored: %s", room.id, e)
            raise Refused("server", "the server could not store that; nothing was changed") from None

    # ------------------------------------------------------------ messages

    def on_ping(self, conn: Conn, m: P.Ping) -> None:
        conn.send(P.Pong())

    def on_create(self, conn: Conn, m: P.Create) -> None:
        if self.unfinished() >= MAX_UNFINISHED_GAMES:
            raise Refused("server", "the server is full")
        reqs = m.seats
        if reqs[0].kind != "host":
            raise Refused("bad_message", "seat 0 must be the host's")
        if any(r.kind == "host" for r in reqs[1:]):
            raise Refused("bad_message", "only seat 0 is the host's")
        colours = [r.colour for r in reqs]
        if len(set(colours)) != len(colours):
            raise Refused("bad_message", "each seat needs its own colour")
        scenario = None
        if m.scenario:
            try:
                sc = self.content.scenario(m.scenario)
            except KeyError:
                raise Refused("bad_message", f"there is no scenario {m.scenario!r}") from None
            if sc.seats != len(reqs):
                raise Refused("bad_message", f"{sc.name} is a scenario for {sc.seats} seats")
            scenario = sc.name
        token = self._new_token()
        seats = []
        for i, r in enumerate(reqs):
            if r.kind == "host":
                seats.append(Seat(m.name, "human", r.colour, None, token_hash(token)))
            elif r.kind == "ai":
                bot = self._bot_level(r.bot, i)
                seats.append(Seat(_ai_name(bot), "ai", r.colour, bot))
            else:
                seats.append(Seat("", "open", r.colour))
        config = GameConfig(seats=len(reqs), colours=tuple(colours), scenario=scenario)
        seed = m.seed if m.seed is not None else secrets.randbelow(2 ** 31) + 1
        game_id = secrets.token_hex(8)
        while game_id in self.rooms:
            game_id = secrets.token_hex(8)
        code = new_code()
        while code in self.by_code:
            code = new_code()
        room = GameRoom(game_id, code, config, seed, seats, self.content)
        try:
            self.store.create_game(room.stored())
        except Exception as e:
            log.error("a new game could not be stored: %s", e)
            raise Refused("server", "the server could not store the game") from None
        self._register(room)
        log.info("game %s (%s) created: %d seats, seed %d", game_id, code, len(seats), seed)
        self._attach(conn, room, 0)
        self._joined(conn, room, 0, token)
        self._broadcast_lobby(room)

    def _bot_level(self, bot: Optional[str], seat: int) -> str:
        bot = bot or "medium"
        if not is_known(bot):
            raise Refused("bad_message", f"seat {seat}: there is no AI level {bot!r}")
        return bot

    def on_join(self, conn: Conn, m: P.Join) -> None:
        room = self.by_code.get(m.code)
        if room is None:
            raise Refused("unknown_game", "no game has that invite code")
        if room.started:
            raise Refused("started", "that game has already begun")
        seat = next((i for i, s in enumerate(room.seats) if s.kind == "open"), None)
        if seat is None:
            raise Refused("full", "that game has no open seat left")
        token = self._new_token()
        old = room.seats[seat]
        new = Seat(m.name, "human", old.colour, None, token_hash(token))
        seats = list(room.seats)
        seats[seat] = new
        self._save_seats(room, seats)
        room.seats = seats
        self.tokens[new.token_hash] = (room, seat)
        log.info("game %s: %s joined as seat %d", room.id, m.name, seat)
        self._attach(conn, room, seat)
        self._joined(conn, room, seat, token)
        self._broadcast_lobby(room)

    def on_resume(self, conn: Conn, m: P.Resume) -> None:
        room = self.rooms.get(m.game)
        if room is None:
            raise Refused("unknown_game", "there is no such game on this server")
        _, seat = self._seat_of(m.token, room)
        self._attach(conn, room, seat)
        self._joined(conn, room, seat, m.token)
        if room.started:
            conn.send(room.update(seat, None))
        self._broadcast_lobby(room)

    def on_set_seat(self, conn: Conn, m: P.SetSeat) -> None:
        room, _ = self._host(m.token)
        k = m.seat
        if k >= len(room.seats):
            raise Refused("bad_message", f"there is no seat {k}")
        if k == room.host_seat:
            raise Refused("bad_message", "the host's seat cannot change")
        old = room.seats[k]
        if room.started:
            if room.finished:
                raise Refused("started", "the game is over")
            if m.kind != "ai":
                raise Refused("started", "in a started game a seat can only be handed to an AI")
            if old.kind != "human":
                raise Refused("bad_message", f"seat {k} is not a human's seat")
            if old.conn is not None:
                raise Refused("bad_message", f"seat {k} is connected: {old.name} is playing")
        bot = self._bot_level(m.bot, k) if m.kind == "ai" else None
        new = Seat(_ai_name(bot), "ai", old.colour, bot) if bot else Seat("", "open", old.colour)
        seats = list(room.seats)
        seats[k] = new
        self._save_seats(room, seats)
        removed = old.conn
        if old.token_hash:
            self.tokens.pop(old.token_hash, None)
        if removed is not None:
            removed.room = removed.seat = None
        room.seats = seats
        room.bots.pop(k, None)
        log.info("game %s: seat %d is now %s", room.id, k, bot or "open")
        self._broadcast_lobby(room, extra=removed)
        self._schedule_ai(room)

    def on_start(self, conn: Conn, m: P.Start) -> None:
        room, _ = self._host(m.token)
        if room.started:
            raise Refused("started", "the game has already begun")
        for i, s in enumerate(room.seats):
            if s.kind == "open":
                raise Refused("bad_message", f"seat {i} is still open")
        setup = deal(room.state, random.Random(room.seed))
        self._accept(room, setup)
        log.info("game %s started", room.id)

    def on_act(self, conn: Conn, m: P.Act) -> None:
        room, seat = self._seat_of(m.token)
        if not room.started:
            raise Refused("not_started", "the game has not begun")
        try:
            action = parse_action(m.action)
        except (ActionSyntaxError, ValueError, TypeError, OverflowError):
            raise Refused("bad_message", "action: not an action of this game") from None
        if m.n != room.n:
            raise Refused("stale", f"the game has {room.n} actions, not {m.n}: wait for the update")
        if isinstance(action, Setup):
            raise Refused("illegal", "the setup is dealt by the server", "S2")
        if action.seat != seat:
            raise Refused("not_your_seat", f"that action is for seat {action.seat}; this is seat {seat}")
        why = check(room.state, action)
        if why is not None:
            raise Refused("illegal", why.message, why.rule)
        self._accept(room, action)

    # ------------------------------------------------------------ playing

    def _accept(self, room: GameRoom, action: Action) -> None:
        """Store, apply and tell: the one way a game moves on. Refused("server") when the store
        fails (the game is then unchanged)."""
        new_state = apply(room.state, action)
        n = room.n
        try:
            self.store.append_action(room.id, n, action.to_text())
        except Exception as e:
            log.error("game %s: action %d could not be stored: %s", room.id, n, e)
            raise Refused("server", "the server could not store the action; nothing was changed") from None
        room.record.actions.append(action)
        room.state = new_state
        self.actions_accepted += 1
        if isinstance(action, Setup):
            room.started = True
            self._store_quietly(self.store.set_started, room.id)
        if new_state.is_over and not room.finished:
            room.finished = True
            room.bots.clear()  # a finished game keeps only its state, for resumes
            self._store_quietly(self.store.set_finished, room.id)
            log.info("game %s is over: winners %s", room.id, list(new_state.winners))
        infos = room.seat_infos()
        for i, c in room.conns():
            c.send(room.update(i, last_for(action, i), infos))
        self._schedule_ai(room)

    def _schedule_ai(self, room: GameRoom) -> None:
        if not room.started or room.finished or self.stopping or self.loop is None:
            return
        st = room.state
        for seat in st.to_act():
            if room.seats[seat].kind != "ai" or seat in room.pending:
                continue
            room.pending.add(seat)
            try:
                fut = self._submit_ai(room, seat, st)
            except Exception as e:  # a bot that cannot be made, or the pool is shut down
                log.error("game %s: seat %d's AI cannot play: %s", room.id, seat, e)
                room.pending.discard(seat)
                self._ai_answer(room, seat, None)
                continue
            loop = self.loop

            def done(f, room=room, seat=seat, loop=loop):
                try:
                    action = f.result()
                except BaseException as e:  # noqa: BLE001 - a failing bot falls back
                    if not self.stopping:
                        log.error("game %s: seat %d's AI failed: %r", room.id, seat, e)
                    action = None
                try:
                    loop.call_soon_threadsafe(self._ai_done, room, seat, action)
                except RuntimeError:  # the loop is closed: the server has stopped
                    pass
            fut.add_done_callback(done)

    def _ai_done(self, room: GameRoom, seat: int, action: Optional[Action]) -> None:
        room.pending.discard(seat)
        if self.stopping or self.rooms.get(room.id) is not room:
            return
        self._ai_answer(room, seat, action)

    def _ai_answer(self, room: GameRoom, seat: int, action: Optional[Action]) -> None:
        st = room.state
        if room.finished or room.seats[seat].kind != "ai" or seat not in st.to_act():
            self._schedule_ai(room)
            return
        if (action is None or isinstance(action, Setup) or getattr(action, "seat", None) != seat
                or check(st, action) is not None):
            if action is not None:
                log.warning("game %s: seat %d's AI chose %s, which is illegal: falling back",
                            room.id, seat, action.to_text() if hasattr(action, "to_text") else action)
            action = _fallback(view(st, seat), seat)
        try:
            self._accept(room, action)
        except Refused:
            if self.loop is not None:
                self.loop.call_later(AI_RETRY_SECS, self._schedule_ai, room)
        except Exception:
            log.exception("game %s: seat %d's AI action failed", room.id, seat)


# ---------------------------------------------------------------- running

async def run_server(data_dir: Union[str, Path], host: str, port: int, stop: asyncio.Event,
                     ready: Callable[[int, GameServer], None], *, content: Optional[Content] = None,
                     workers: int = AI_WORKERS) -> None:
    """Open the store, load the games, listen; ``ready(port, server)`` once listening; return
    after ``stop`` is set, with every connection and the database closed."""
    store = open_store(data_dir)
    server = GameServer(store, content, workers)
    try:
        server.loop = asyncio.get_running_loop()
        server.load()
        async with serve(server.handler, host, port, max_size=P.MAX_CLIENT_BYTES, extensions=[DEFLATE],
                         close_timeout=2, logger=logging.getLogger("gonzaga.net.websockets")) as ws_server:
            real_port = next(iter(ws_server.sockets)).getsockname()[1]
            server.start_ai()
            ready(real_port, server)
            await stop.wait()
            server.stopping = True
            ws_server.close(close_connections=True)
            try:
                await asyncio.wait_for(ws_server.wait_closed(), 3.0)
            except asyncio.TimeoutError:
                log.warning("some connections did not close in time")
    finally:
        server.close()
        store.close()


# views compress to under half; websockets' own settings but deflate level 1, which costs a third
# of the default level's time for nearly the same size
DEFLATE = ServerPerMessageDeflateFactory(server_max_window_bits=12, client_max_window_bits=12,
                                         compress_settings={"memLevel": 5, "level": 1})


def _url(host: str, port: int) -> str:
    return f"ws://[{host}]:{port}" if ":" in host else f"ws://{host}:{port}"


class ServerThread:
    """The server in a background thread with its own event loop (the desktop game's "Host online
    game", and tests)."""

    def __init__(self, data_dir: Union[str, Path], host: str = DEFAULT_HOST, port: int = 0, *,
                 content: Optional[Content] = None, workers: int = AI_WORKERS):
        self.data_dir = Path(data_dir)
        self.host = host
        self.port = port
        self.content = content
        self.workers = workers
        self.server: Optional[GameServer] = None
        self._thread: Optional[threading.Thread] = None
        self._loop: Optional[asyncio.AbstractEventLoop] = None
        self._stop: Optional[asyncio.Event] = None
        self._ready = threading.Event()
        self._error: Optional[BaseException] = None

    @property
    def url(self) -> str:
        return _url(self.host, self.port)

    def start(self, timeout: float = 30.0) -> "ServerThread":
        """Returns once the server listens; OSError when it cannot."""
        self._thread = threading.Thread(target=self._run, name="gonzaga-server", daemon=True)
        self._thread.start()
        if not self._ready.wait(timeout):
            raise OSError("the server did not start in time")
        if self._error is not None:
            err = self._error
            if isinstance(err, OSError):
                raise err
            raise OSError(f"the server cannot start: {err}") from err
        return self

    def _run(self) -> None:
        try:
            asyncio.run(self._main())
        except BaseException as e:  # reported by start()
            if not self._ready.is_set():
                self._error = e
            else:
                log.exception("the server thread failed")
        finally:
            self._ready.set()

    async def _main(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._stop = asyncio.Event()

        def ready(port: int, server: GameServer) -> None:
            self.port = port
            self.server = server
            self._ready.set()
        await run_server(self.data_dir, self.host, self.port, self._stop, ready,
                         content=self.content, workers=self.workers)

    def stop(self, timeout: float = 5.0) -> None:
        loop, stop = self._loop, self._stop
        if loop is not None and stop is not None:
            try:
                loop.call_soon_threadsafe(stop.set)
            except RuntimeError:  # the loop has already ended
                pass
        if self._thread is not None:
            self._thread.join(timeout)

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def __enter__(self) -> "ServerThread":
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()


class _UsageError(Exception):
    pass


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # one line, not argparse's usage block
        raise _UsageError(f"{self.prog}: {message}")


def _port(text: str) -> int:
    try:
        p = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a port number: {text!r}") from None
    if not 0 <= p <= 65535:
        raise argparse.ArgumentTypeError(f"a port is 0 to 65535 (found {p})")
    return p


def default_data_dir() -> Path:
    from ..persistence import data_dir
    return data_dir() / "server"


def main(argv: Optional[list[str]] = None) -> int:
    """``gonzaga serve``: run the server until SIGTERM or SIGINT; the exit status."""
    p = _Parser(prog="gonzaga serve", description="Run the online game server.")
    p.add_argument("--host", default=DEFAULT_HOST, help=f"address to listen on (default {DEFAULT_HOST})")
    p.add_argument("--port", type=_port, default=DEFAULT_PORT, help=f"port (default {DEFAULT_PORT}; 0: any free one)")
    p.add_argument("--data", default=None, help="folder for the game database (default: the user data folder's 'server')")
    p.add_argument("--log-level", default="info", type=str.lower,
                   choices=["debug", "info", "warning", "error"], help="how much to log on stderr")
    try:
        args = p.parse_args(sys.argv[1:] if argv is None else argv)
    except _UsageError as e:
        print(str(e), file=sys.stderr)
        return 2
    logging.basicConfig(stream=sys.stderr, level=getattr(logging, args.log_level.upper()),
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    data = Path(args.data) if args.data else default_data_dir()
    try:
        return asyncio.run(_serve_main(args.host, args.port, data))
    except KeyboardInterrupt:  # a second Ctrl-C, or a platform without signal handlers
        return 0
    except StoreError as e:
        print(f"gonzaga serve: {e}", file=sys.stderr)
        return 1
    except OSError as e:
        print(f"gonzaga serve: cannot listen on {args.host}:{args.port}: {e.strerror or e}", file=sys.stderr)
        return 1


async def _serve_main(host: str, port: int, data: Path) -> int:
    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        try:
            loop.add_signal_handler(sig, stop.set)
        except (NotImplementedError, RuntimeError, ValueError):  # Windows: Ctrl-C raises KeyboardInterrupt
            pass

    def ready(real_port: int, server: GameServer) -> None:
        print(f"serving on {_url(host, real_port)}", flush=True)
    await run_server(data, host, port, stop, ready)
    log.info("stopped")
    return 0
