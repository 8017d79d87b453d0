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
import math
import multiprocessing
import secrets
import time
from concurrent.futures import Future, ProcessPoolExecutor, ThreadPoolExecutor
from collections import deque
from typing import Any, Callable, Iterator, Literal, Optional, Protocol, Union, cast

from pydantic import BaseModel

from websockets.asyncio.server import ServerConnection
from websockets.exceptions import ConnectionClosed

from ..ai.base import Bot
from ..ai.roster import make_bot, searches, split_name
from ..ai.worker import decide_once, strip_view, watch_parent
from ..rules import Action, ActionSyntaxError, GameConfig, GameRecord, GameState, parse_action
from ..rules.content import Content
from ..rules import Illegal, Place, Plan, Setup, Wedding
from ..rules.view import public_view
from ..table import gamelog, history
from ..table.core import Table
from ..table.seats import SeatRefused, SeatSpec
from ..table.store import StoreFailed
from ..table.gamelog import LogEntry
from ..table.reviews import public_finished
from ..table.store import Change
from ..words import i18n
from . import logcodec, seatnews
from .admission import Refused
from .gate import address_of, forwarded
from .groupcommit import GroupCommit
from . import protocol as P
from .protocol import CODE_ALPHABET, CODE_LENGTH
from .storage import GameStore, StoredGame, StoreError
from .turnclock import TurnClocks
from .viewcodec import view_to_json

log = logging.getLogger(__name__)

MAX_OUTBOX = 500  # messages waiting for a client that does not read: past this it is cut off
CHAT_KEPT = 20  # the latest chat lines a room keeps for whoever comes later (and the shared store: sharing.py)


class RoomServer(Protocol):
    """What a room's store and worker use of the server (``server.GameServer``)."""
    store: GameStore
    commits: Optional[GroupCommit]
    actions_accepted: int
    procs: Optional[ProcessPoolExecutor]
    pool: ThreadPoolExecutor
    workers: int
    loop: Optional[asyncio.AbstractEventLoop]
    stopping: bool

    def _ai_ready(self, room: "GameRoom") -> None: ...


class Conn:
    """One client connection: its outgoing queue (written by its own task, so a slow reader never
    holds up a game), the seat it holds, and its flood counters. With grouped commits
    (``commits``), a message sent while its game's last action is on its way to disk is held
    (``held``, with that write's number) until it is durable, and so is every later one, in
    order: nobody is told of an action that a crash could still take back (``groupcommit.py``)."""

    def __init__(self, ws: ServerConnection, commits: Optional[GroupCommit] = None,
                 proxies: frozenset[str] = frozenset()):
        self.ws = ws
        self.out: asyncio.Queue[Union[str, tuple[int, str], None]] = asyncio.Queue()
        self.commits = commits
        self.held: deque[tuple[int, Union[str, tuple[int, str], None]]] = deque()
        self.room: Optional["GameRoom"] = None
        self.seat: Optional[int] = None
        self.times: deque[float] = deque()
        self.floods = 0
        self.closing = False
        self.dead = False
        self.peer = _peer(ws)
        self.address = address_of(_peername(ws))  # what the per-address limits count (gate.py)
        if proxies:  # behind a trusted proxy (serve --trusted-proxy): the player's own address
            request = getattr(ws, "request", None)
            self.address = forwarded(self.address, request.headers.get("X-Forwarded-For") if request else None, proxies)

    def send(self, msg: Union[BaseModel, str]) -> None:
        if self.dead or self.closing:
            return
        if self.out.qsize() + len(self.held) >= MAX_OUTBOX:
            log.warning("%s does not read its messages: cut off", self.peer)
            self.dead = True
            self.held.clear()
            try:
                self.ws.transport.abort()
            except Exception:  # pragma: no cover - the transport is already gone
                pass
            return
        self._put(msg if isinstance(msg, str) else P.encode(msg))

    def _put(self, item: Union[str, tuple[int, str], None]) -> None:
        c = self.commits
        after = self.room.written if self.room is not None else 0  # the last write of its game
        if c is not None and (self.held or after > c.durable):  # after that write, in order
            if not self.held:
                c.hold(self, after)
            self.held.append((after, item))
        else:
            self.out.put_nowait(item)

    def release(self, durable: int) -> Optional[int]:
        """The writes up to ``durable`` are on disk: what was held for them goes out; the write
        the first message still held waits for (None: nothing held)."""
        while self.held and self.held[0][0] <= durable:
            self.out.put_nowait(self.held.popleft()[1])
        return self.held[0][0] if self.held else None

    def finish(self) -> None:
        """Its handler is done: the writer stops after the messages queued (and held) before."""
        self._put(None)

    def abandon(self, code: int, reason: str) -> None:
        """What this connection was not yet told is dropped (it follows writes that failed), and
        it is closed at once: its client comes back with ``resume`` to what is stored."""
        self.held.clear()
        if not (self.dead or self.closing):
            self.closing = True
            self.out.put_nowait((code, reason))

    def flooded(self, limit: int, window: float, close_after: int) -> bool:
        """Whether this message makes more than ``limit`` in ``window`` seconds (refused then;
        closed after ``close_after`` such floods)."""
        now = time.monotonic()
        t = self.times
        t.append(now)
        while t and now - t[0] > window:
            t.popleft()
        if len(t) <= limit:
            return False
        self.floods += 1
        self.refuse(Refused("flood", "net.flood", n=limit))
        if self.floods >= close_after:
            log.warning("%s flooded: closed", self.peer)
            self.close(1008, "flood")
        return True

    def refuse(self, r: Refused, version: Optional[int] = None) -> None:
        """Tell this connection its message was refused: the code, the words' key and
        parameters, the English and the rule (``version``: an older client's, see ``P.error_text``)."""
        self.send(P.error_text(r.code, r.key, r.message, r.rule, r.params, version))

    def close(self, code: int, reason: str) -> None:
        """Close after the messages already queued have gone out."""
        if self.dead or self.closing:
            return
        self.closing = True
        self._put((code, reason))

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



def clock_now() -> float:
    """The server's clock for the turn timers (tests move this module's ``time`` on)."""
    return time.monotonic()


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def new_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def _ai_name(bot: str) -> str:
    return f"AI ({bot})"[:24]


def last_for(action: Action, seat: Optional[int], by_ai: bool = False) -> P.LastAction:
    """The action as ``seat`` may know it (setup: nothing; another seat's plan: only who planned; None:
    a spectator, who is nobody); ``by_ai``: the turn timer ran out and the computer chose it."""
    if isinstance(action, Setup):
        return P.LastAction(kind="setup")
    if isinstance(action, Plan):
        return P.LastAction(kind="plan", seat=action.seat, text=action.to_text() if action.seat == seat else None,
                            by_ai=by_ai)
    kind: Literal["place", "wedding", "donate"] = "place" if isinstance(action, Place) else \
        "wedding" if isinstance(action, Wedding) else "donate"
    return P.LastAction(kind=kind, seat=action.seat, text=action.to_text(), by_ai=by_ai)


class Seat:
    """A seat of a room. An AI seat that keeps a ``token_hash`` was a player's: ``player`` is their
    name (they may take the seat back) unless they ``resigned``."""

    def __init__(self, name: str, kind: str, colour: str, bot: Optional[str] = None,
                 token_hash: Optional[str] = None, player: Optional[str] = None, resigned: bool = False):
        self.name, self.kind, self.colour, self.bot, self.token_hash = name, kind, colour, bot, token_hash
        self.player, self.resigned = player, resigned
        self.conn: Optional[Conn] = None

    def info(self, grace_left: Optional[float] = None) -> P.SeatInfo:
        return P.SeatInfo(name=self.name, kind=cast(Any, self.kind), colour=cast(Any, self.colour), bot=self.bot,
                          connected=self.kind == "ai" or (self.kind == "human" and self.conn is not None),
                          player=self.player if self.kind == "ai" else None, resigned=self.resigned,
                          grace_left=grace_left)

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


class Asks:
    """The seats that asked for a rematch of a finished game. Each change is passed to
    ``changed`` (seat, asked; seat None: every ask is done) when it is set: several processes
    keep the asks where they all read them (sharing.py)."""

    def __init__(self) -> None:
        self.seats: set[int] = set()
        self.changed: Optional[Callable[[Optional[int], bool], None]] = None
        # across processes: the token this process made for each of its asking players' seat in
        # the new game (only its hash is kept in the store; sharing.py)
        self.minted: dict[int, str] = {}

    def add(self, seat: int) -> None:
        if seat not in self.seats:
            self.seats.add(seat)
            self._tell(seat, True)

    def discard(self, seat: int) -> None:
        self.minted.pop(seat, None)
        if seat in self.seats:
            self.seats.discard(seat)
            self._tell(seat, False)

    def clear(self) -> None:
        self.minted.clear()
        if self.seats:
            self.seats.clear()
            self._tell(None, False)

    def restore(self, seats: set[int]) -> None:
        """The asks as they were kept (read back: nothing to keep again)."""
        self.seats = set(seats)

    def _tell(self, seat: Optional[int], asked: bool) -> None:
        if self.changed is not None:
            self.changed(seat, asked)

    def __contains__(self, seat: object) -> bool:
        return seat in self.seats

    def __iter__(self) -> Iterator[int]:
        return iter(self.seats)

    def __len__(self) -> int:
        return len(self.seats)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Asks):
            return self.seats == other.seats
        return isinstance(other, (set, frozenset)) and self.seats == other

    __hash__ = None  # type: ignore[assignment]  # changes: not a key


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
        self.listed = bool(o.get("listed", False))  # in the server's list of open games (listing.py)
        self.created = float(o.get("created") or 0.0)  # when, by the server's wall clock (set by ``create``)
        # t47turn: live, or turn-based (its clocks and missed moves: turns.py)
        self.pace: str = "turn" if o.get("pace") == "turn" else "live"
        self.move_hours = int(o.get("move_hours") or 0)
        self.missed_limit = int(o.get("missed_limit") or 3)
        # t47lobby: the rating range a joining account must be inside, and whether it starts by itself
        # once full (quick match's tables: nobody waits for a host's Start)
        self.rating_min, self.rating_max = o.get("rating_min"), o.get("rating_max")
        self.auto_start = bool(o.get("auto_start", False))
        self.table.grace = float(self.grace)
        for i, s in enumerate(seats):  # an AI seat that still has its player's token: handed over or resigned
            if s.kind == "ai" and s.token_hash:
                (self.table.resigned if s.resigned else self.table.handed).add(i)
        self.watchers: list[Conn] = []  # spectators: the public view only
        self.rematch = Asks()  # seats that asked for a rematch (a finished game)
        self.said: deque[P.Said] = deque(maxlen=CHAT_KEPT)  # the latest chat lines, for whoever comes back
        self.chat_times: dict[int, deque[float]] = {}  # per seat: when its latest lines were said
        # the turn timer: each human seat's clock, started when its player sees the decision
        # (turnclock.py); what everyone was last told of them
        self.clocks: Optional[TurnClocks] = TurnClocks(self.turn_secs) if self.turn_secs else None
        self.clocks_told: Optional[tuple[object, ...]] = None
        # the game log's lines no action wrote (seat changes: seatnews.py), each with the number of
        # actions the game had then; the actions the computer made for a seat whose time ran out
        self.news: deque[tuple[int, LogEntry]] = deque(maxlen=200)
        self.timed: set[int] = set()
        self.by_hand = False  # a player's own action is being applied (``act``): not the timer's
        self.grace_told: set[int] = set()  # dropped seats whose grace period was told as over
        self.written = 0  # the seq of its last action queued for the disk (grouped commits: Conn holds)
        # several server processes (sharing.py): a follower's table writes nothing and is moved on
        # by the owner's news; an owner's ``mirror`` passes what everyone is told to the followers
        self.follower = False
        self.mirror: Optional[Callable[[str], None]] = None
        self.keep_said: Optional[Callable[[str], None]] = None  # a chat line kept where they share them

    def options(self) -> dict[str, Any]:
        return {"grace": self.grace, "turn_secs": self.turn_secs, "watchers": self.watchable,
                "listed": self.listed, "created": self.created,
                "pace": self.pace, "move_hours": self.move_hours, "missed_limit": self.missed_limit,
                "rating_min": self.rating_min, "rating_max": self.rating_max, "auto_start": self.auto_start}

    @property
    def state(self) -> GameState:
        return self.table.state

    @property
    def record(self) -> GameRecord:
        return self.table.record

    @property
    def round(self) -> Optional[int]:
        """The round being played (None before the deal): a chat line is said in it."""
        return self.state.round if self.started else None

    def hand_over(self, new: "GameRoom") -> None:
        """A rematch began as ``new``: the asks are done, and the spectators follow the players
        there (``watching`` for the new game, then its updates)."""
        self.rematch.clear()
        for c in list(self.watchers):
            self.watchers.remove(c)
            new.watchers.append(c)
            c.room, c.seat = new, None
            c.send(P.Watching(game=new.id, code=new.code, map=new.content.map_id))

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
        return [s.info(self.grace_left(i)) for i, s in enumerate(self.seats)]

    def grace_left(self, seat: int) -> Optional[float]:
        """Seconds before the host may hand dropped human ``seat`` to the computer (0: now), by the
        table's clock; None for a seat that is connected, not a human's, or a game not being played."""
        t = self.table
        since = t.away.get(seat)
        if since is None or not self.started or self.finished or self.seats[seat].kind != "human" \
                or self.seats[seat].conn is not None or self.pace == "turn":  # turn-based: no grace, missed moves
            return None
        left = min(3600.0, t.grace - (t.clock() - since))  # the table decides by it (seats.grace_problem)
        return 0.0 if left <= 0 else math.ceil(left * 10) / 10  # rounded up: 0.0 only once it is over

    def conns(self) -> list[tuple[int, Conn]]:
        return [(i, s.conn) for i, s in enumerate(self.seats) if s.conn is not None]

    def everyone(self) -> list[Conn]:
        """The seats' connections and the spectators'."""
        return [c for _, c in self.conns()] + list(self.watchers)

    def lobby(self) -> P.Lobby:
        return P.Lobby(game=self.id, code=self.code, seats=self.seat_infos(), started=self.started,
                       grace=self.grace, turn_secs=self.turn_secs, rematch=sorted(self.rematch),
                       watchers=len(self.watchers), pace=cast(Any, self.pace), move_hours=self.move_hours,
                       missed_limit=self.missed_limit)

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
        news: dict[int, list[LogEntry]] = {}
        for n, e in self.news:  # the seat changes, each after the action it followed
            news.setdefault(n, []).append(e)
        lines = list(news.get(0, []))
        for i, (prev, a, new) in enumerate(zip(states, self.record.actions, states[1:])):
            if isinstance(a, Setup):  # the log reads the scenario and first seat from the state
                a = Setup(new.scenario or "", new.last_turn_seat, (), ())
            if i in self.timed:
                lines.append(seatnews.timed_line(prev, a, self.seat_name))
            lines += gamelog.write(public_view(prev), a, public_view(new), self.seat_name)
            lines += news.get(i + 1, [])
        rs = history.round_scores(states)  # scores are public: everyone's chart from round 1
        return P.History(game=self.id, n=self.n, lines=logcodec.encode(lines)[-2000:], rounds=rs.rounds,
                         scores=rs.scores)

    def act(self, seat: int, action: Action) -> Optional[Illegal]:
        """A player's own action, through the table (not the turn timer's: ``applied``)."""
        self.by_hand = True
        try:
            return self.table.act(seat, action)
        finally:
            self.by_hand = False

    def applied(self, prev: GameState, action: Action, new: GameState) -> None:
        """The table applied ``action`` (its ``on_applied``): one the computer made for a human
        seat whose time ran out is marked, for the log (the player's own go through ``act``)."""
        seat = getattr(action, "seat", None)
        if not self.by_hand and seat is not None and not isinstance(action, Setup) \
                and self.table.seats[seat].kind == "human":
            self.timed.add(self.n - 1)

    def tell(self, msg: BaseModel) -> str:
        """Everyone at the table (the seats' connections and the spectators, and those on other
        server processes: ``mirror``) is told ``msg``; its text."""
        text = P.encode(msg)
        for c in self.everyone():
            c.send(text)
        if self.mirror is not None:
            self.mirror(text)
        return text

    def say(self, msg: P.Said) -> None:
        """A chat line (or an emote) told to everyone at the table and kept for whoever comes
        later: the latest ``CHAT_KEPT`` here, and as told where several processes share them
        (``keep_said``, sharing.py)."""
        self.said.append(msg)
        text = self.tell(msg)
        if self.keep_said is not None:
            self.keep_said(text)

    def tell_news(self, key: str, seat: Optional[int] = None, **params: Any) -> None:
        """A seat change told to everyone as a line of the game log (``seatnews.py``), kept for
        resumes; nothing in a game not being played (the lobby shows its seats itself)."""
        if not self.started:
            return
        e = seatnews.line(self.state.round, key, None if seat is None else self.seat_name(seat), **params)
        self.news.append((self.n, e))
        self.tell(P.News(game=self.id, n=self.n, line=logcodec.encode([e])[0]))

    def tell_clocks(self, now: float, force: bool = False) -> None:
        """Every human seat's clock after a change (a seat newly due gets one that waits to be
        seen), told to everyone when it changed since they were last told (or when ``force``)."""
        c = self.clocks
        if c is None or not self.started:
            return
        self.sync_clocks(now)
        sig = (self.n, c.signature(now))
        if sig == self.clocks_told and not force:
            return
        self.clocks_told = sig
        self.tell(P.Clocks(game=self.id, n=self.n, clocks=[
            P.SeatClock(seat=i, left=round(c.left(i, now) or 0.0, 1), running=c.running(i, now))
            for i in sorted(c.clocks)]))

    def seen(self, seat: int, n: int, now: float) -> None:
        """``seat``'s screen shows its decision at ``n`` actions: its clock starts, once, and
        everyone is told (another position's count starts nothing)."""
        if self.clocks is not None and n == self.n and self.started and not self.finished:
            self.sync_clocks(now)
            if self.clocks.seen(seat, turn_position(self.state), now):
                self.tell_clocks(now)

    def arrived(self, seat: int, fresh: bool) -> None:
        """``seat``'s player holds it now (``fresh``: no connection held it): back, if it was away."""
        if seat in self.table.away and self.seats[seat].kind == "human" and fresh and self.pace != "turn":
            self.tell_news("log.seat_back", seat)
        self.table.mark_away(seat, False)
        self.grace_told.discard(seat)

    def left(self, seat: int, tell: bool) -> None:
        """``seat``'s connection dropped: away from now on (the grace period starts); told."""
        self.table.mark_away(seat, True)
        if tell and self.seats[seat].kind == "human" and not self.finished and self.pace != "turn":  # turn-based: players come and go
            self.tell_news("log.seat_dropped", seat, seconds=self.grace)

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

    def sync_clocks(self, now: float) -> None:
        """The clocks of the human seats due to decide now (see ``TurnClocks.sync``)."""
        if self.clocks is None:
            return
        st = self.state
        playing = self.table.started and not self.table.is_over
        due = {i for i in st.to_act() if self.table.seats[i].kind == "human"} if playing else set()
        self.clocks.sync(due, turn_position(st), now)

    def turn_left(self, seat: Optional[int], v: Optional[GameState] = None,
                  now: Optional[float] = None) -> Optional[float]:
        """Seconds ``seat`` has left under the turn timer at ``v``'s position (None: no timer, or
        not a human seat's turn): the count of its clock (``turnclock.py``), the whole timer
        until the player's screen shows the decision, so the client's countdown is the server's."""
        st = self.state if v is None else v
        if self.clocks is None or seat is None or not self.table.started or self.table.is_over \
                or seat not in st.to_act() or self.table.seats[seat].kind != "human":
            return None
        if turn_position(st) != turn_position(self.state):
            return None  # an update of an earlier position: the game has moved on since
        now = time.monotonic() if now is None else now
        self.sync_clocks(now)  # a seat newly due gets its clock (everyone is told by the server)
        left = self.clocks.left(seat, now)
        return None if left is None else round(left, 1)


def play_act(room: GameRoom, seat: int, n: int, text: str) -> None:
    """``seat``'s action ``text`` at ``n`` actions, through the room's table (a client's ``act``,
    or one another server process passed on: sharing.py); Refused when it is not applied."""
    if not room.started:
        raise Refused("not_started", "refusal.not_begun", "E-table")
    try:
        action = parse_action(text)
    except (ActionSyntaxError, ValueError, TypeError, OverflowError):
        raise Refused("bad_message", "net.not_an_action") from None
    if n != room.n:
        raise Refused("stale", "net.stale", n=room.n, sent=n)
    try:
        why = room.act(seat, action)  # who may, the rules, the store: decided by the table
    except StoreFailed:
        raise Refused("server", "net.not_stored") from None
    if isinstance(why, SeatRefused):
        raise Refused.of("not_your_seat", why)
    if why is not None:
        raise Refused.of("illegal", why)


def turn_position(st: GameState) -> tuple[int, str, int]:
    """What the turn timer counts at: a seat's wait starts again when this changes."""
    return (st.round, st.phase, st.turn if st.phase == "place" else -1)


def _choose(bot: Bot, v: GameState, seat: int) -> Action:
    return bot.choose(v, seat)


class RoomStore:
    """A room's store for its table: each action appended to the database in one transaction
    (raising when it cannot: the table then changes nothing), or, with grouped commits, queued
    for the writer thread (``groupcommit.py``: what follows is held until it is durable, and a
    refused write sends the game back to what is stored: ``unstored.py``). Nothing is taken back online."""

    def __init__(self, server: RoomServer, room: GameRoom):
        self.server, self.room = server, room

    def keep(self, change: Change) -> None:
        if change.kind != "action":
            raise StoreError("an online game is kept as it was played: nothing is taken back")
        assert change.action is not None  # an "action" change carries its action
        if self.server.commits is not None:
            self.room.written = self.server.commits.append_soon(self.room.id, change.index, change.action.to_text(),
                                                                self.room)
        else:
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
