"""The authoritative game server for online play (issue 14): ``gonzaga serve``.

One asyncio process holds every game as a :class:`GameRoom`: the full state from the rules
engine, its :class:`GameRecord`, and the seats (names, kinds, token hashes, the connection that
holds each one). Clients only ever receive their own seat's view (``rules.view``, encoded by
``viewcodec``), never the full state. The behaviour is docs/online-contract.md; the messages are
``protocol.py``.

Each room's game moves on only through its :class:`gonzaga.table.Table`, the same authority as
the desktop game's: it checks an action (who may send it, and the rules), writes it to the
store (``storage.py``) in one transaction before anyone sees it, applies it, and tells each
seat's observer, which sends its connection an ``update`` with its own view and the action as
that seat may know it (``rooms.py``). AI seats are asked by the table's pacing, off the event
loop, from their seat's view only. A server started on the same data folder rebuilds every game
by replaying its stored actions, so clients come back with ``resume`` and their token.

Hostile input (bad JSON, wrong version, deep nesting, oversized frames, floods, exceptions in a
handler) is answered on its own connection and never stops the server or touches another game.
"""
from __future__ import annotations

import asyncio
import logging
import random
import secrets
import time
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from pathlib import Path
from typing import Any, Callable, Optional, Union

from websockets.asyncio.server import ServerConnection
from websockets.exceptions import ConnectionClosed

from ..ai.roster import is_known, shipped_levels
from ..rules import (Action, GameConfig, GameState, parse_action)
from ..rules.content import Content, load_content
from ..table.store import StoreFailed
from ..table.observers import ObserverCallback, Viewed
from ..table.persistence import data_dir
from ..words import i18n
from . import protocol as P
from . import listing, quickmatch, turns, upkeep
from .account_desk import AccountDesk
from .account_store import AccountStore
from .admission import Admission, Refused
from .endgame import EndgameHandlers
from .gate import Gate
from .groupcommit import GroupCommit
from .sharing import Sharing
from .social import SocialHandlers
from .rooms import (Conn, GameRoom, RoomStore, RoomWorker, Seat, _ai_name, clock_now, last_for, new_code, play_act,
                    token_hash)
from .storage import GameStore, StoredGame

log = logging.getLogger(__name__)

DEFAULT_HOST = "127.0.0.1"
AI_WORKERS = 2
FLOOD_MESSAGES = 30  # more than this many messages in FLOOD_WINDOW seconds is a flood
FLOOD_WINDOW = 1.0
FLOOD_CLOSE_AFTER = 3  # flood errors before the connection is closed
MAX_GAME_CONNECTIONS = 8
MAX_CONNECTIONS = 2000
MAX_UNFINISHED_GAMES = 5000
CLOSE_TRY_LATER = 1013
CLOSE_POLICY = 1008
AI_RETRY_SECS = 1.0  # an AI action that could not be stored is asked again after this
# the host's choices in ``create`` a room keeps (pace, move_hours, missed_limit: turn-based games,
# turns.py; rating_min, rating_max, auto_start: the lobby's terms, t47lobby)
ROOM_OPTIONS = {"grace", "turn_secs", "watchers", "listed", "pace", "move_hours", "missed_limit",
                "rating_min", "rating_max", "auto_start"}


# ---------------------------------------------------------------- the server

class GameServer(SocialHandlers, EndgameHandlers):
    """Every game of one server process; the WebSocket handler is :meth:`handler`. Chat, emotes
    and spectators are handled in ``social.py``, resign and rematch in ``endgame.py``, the turn
    timer in ``timers.py``, checked with the memory upkeep by one periodic task (``upkeep.py``).

    Everything but the AI's thinking runs on the event loop's thread, so the rooms need no locks.
    """

    def __init__(self, store: GameStore, content: Optional[Content] = None, workers: int = AI_WORKERS,
                 admission: Optional[Admission] = None, accounts: Optional[AccountStore] = None):
        self.store, self.accounts = store, AccountDesk(accounts)  # account_desk.py (None: no accounts here)
        self.admission = admission or Admission()
        self.content = content or load_content()
        self.rooms: dict[str, GameRoom] = {}
        self.by_code: dict[str, GameRoom] = {}
        self.tokens: dict[str, tuple[GameRoom, int]] = {}
        self.conns: set[Conn] = set()
        self.pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="gonzaga-ai")
        # search levels think in processes: in a thread they would hold the GIL against the event loop
        self.workers = workers
        self.procs: Optional[ProcessPoolExecutor] = None
        self.loop: Optional[asyncio.AbstractEventLoop] = None
        self.stopping = False
        self.gate: Optional[Gate] = None  # the connections' admission at accept, once it listens (serve.py)
        self.upkeep: Optional[upkeep.Upkeep] = None  # the periodic task, once the loop runs (upkeep.start)
        self.actions_accepted = 0
        self.commits: Optional[GroupCommit] = None  # grouped commits, once on a loop (unstored.py)
        self.turns = turns.TurnKeeper(self)  # turn-based games and My games (t47turn): checks its messages first
        self.sharing: Optional[Sharing] = None  # several processes on one database (serve.py sets it)

    # ------------------------------------------------------------ loading

    def load(self) -> int:
        """Rebuild every unfinished game by replaying its actions (a finished one is loaded when a
        resume asks for it); the number of games loaded."""
        count = 0
        for g in self.store.load_games(finished=False):
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
        actions = [parse_action(t) for t in g.actions]
        room = GameRoom(g.id, g.code, config, g.seed, seats, self.content, g.host_seat, tuple(actions),
                        options=g.config.get("online") if isinstance(g.config.get("online"), dict) else None)
        room.started = g.started or bool(actions)
        room.finished = g.finished or room.state.is_over
        if room.finished and not g.finished:
            self._store_quietly(self.store.set_finished, room.id)
        if room.started and not g.started:
            self._store_quietly(self.store.set_started, room.id)
        return room

    def _register(self, room: GameRoom) -> None:
        """Serve ``room``: its table keeps through the database, asks the AI through the server's
        pools and tells each seat's connection its own view."""
        t = room.table
        t.store = RoomStore(self, room)
        t.ai.worker = RoomWorker(self, room)
        t.on_applied = room.applied  # marks the moves the computer made for a player out of time
        for i in range(len(room.seats)):
            t.observe(self._observer(room, i), seat=i)
        t.observe(self._observer(room, None), seat=None)
        if self.sharing is not None:
            self.sharing.registered(room)
        self.rooms[room.id] = room
        self.by_code[room.code] = room
        for i, s in enumerate(room.seats):
            if s.token_hash:
                self.tokens[s.token_hash] = (room, i)
            if s.kind == "human":  # nobody is connected yet: away until they are (the grace period)
                t.mark_away(i, True)
        self.turns.registered(room)

    def _observer(self, room: GameRoom, seat: Optional[int]) -> ObserverCallback:
        """The table's observer of ``seat`` of ``room`` (None: the spectators')."""
        def tell(v: GameState, action: Optional[Action], table: Viewed) -> None:
            if seat is None:
                self._tell_watchers(room, v, action)
            else:
                self._tell(room, seat, v, action)
        return tell

    def max_game_connections(self) -> int:
        return MAX_GAME_CONNECTIONS

    def max_unfinished(self) -> int:
        return MAX_UNFINISHED_GAMES

    def unfinished(self) -> int:
        return sum(1 for r in self.rooms.values() if not r.finished)

    def _store_quietly(self, fn: Callable[..., object], *args: object) -> bool:
        try:
            fn(*args)
            return True
        except Exception as e:
            log.error("the store failed: %s", e)
            return False

    def start_ai(self) -> None:
        """Let every AI seat that is to act go on (after loading)."""
        for room in list(self.rooms.values()):
            self._pump(room)
        upkeep.start(self)

    def close(self) -> None:
        self.stopping = True
        self.pool.shutdown(wait=False, cancel_futures=True)
        if self.procs is not None:
            upkeep.end_processes(self.procs)  # a search in progress would hold up the exit

    # ------------------------------------------------------------ connections

    async def handler(self, ws: ServerConnection) -> None:
        if self.loop is None:
            self.loop = asyncio.get_running_loop()
            upkeep.start(self)
        if len(self.conns) >= MAX_CONNECTIONS or self.stopping:
            await ws.close(CLOSE_TRY_LATER, "the server is busy")
            return
        conn = Conn(ws, self.commits, self.admission.proxies)  # over its address's limit, it was closed at accept (gate.py)
        self.conns.add(conn)
        writer = asyncio.create_task(conn.writer())
        log.debug("%s connected", conn.peer)
        try:
            async for raw in ws:
                if conn.closing or conn.dead:
                    break
                if conn.flooded(FLOOD_MESSAGES, FLOOD_WINDOW, FLOOD_CLOSE_AFTER):
                    continue
                self.dispatch(conn, raw)
        except ConnectionClosed:
            pass
        finally:
            self.conns.discard(conn)
            self._detach(conn)
            if not writer.done():
                conn.finish()
                try:
                    await asyncio.wait_for(writer, 2.0)
                except (asyncio.TimeoutError, asyncio.CancelledError):
                    writer.cancel()
            log.debug("%s disconnected (%s)", conn.peer, ws.close_code)

    def dispatch(self, conn: Conn, raw: Union[str, bytes]) -> None:
        """One client message: answered, refused or logged, never raised."""
        try:
            msg = P.parse_client(raw)
        except P.ProtocolError as e:
            refused = Refused(e.code, e.key, **e.params)
            refused.message = e.message
            conn.refuse(refused, e.theirs)
            if e.code == "too_large":
                conn.close(1009, "message too big")
            return
        try:
            handle = self.accounts.handler(conn, msg, self.turns.handler(msg, getattr(self, f"on_{msg.type}", None)))
            if self.sharing is not None:  # where the game's lease is (several processes)
                handle = self.sharing.wrap(conn, msg, handle)
            handle(conn, msg)
        except Refused as r:
            conn.refuse(r)
        except Exception:
            log.exception("the server failed on a %s message from %s", msg.type, conn.peer)
            conn.refuse(Refused("server", "net.server_failed"))

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
        elif old is None and len(room.everyone()) >= MAX_GAME_CONNECTIONS:
            conn.close(CLOSE_TRY_LATER, "too many connections to this game")
            raise Refused("server", "net.game_conns")
        s.conn = conn
        conn.room, conn.seat = room, seat
        room.arrived(seat, old is None)

    def _detach(self, conn: Conn, announce: bool = True) -> None:
        room, seat = conn.room, conn.seat
        conn.room = conn.seat = None
        if room is not None and conn in room.watchers:
            room.watchers.remove(conn)
            room.tell_news("log.watcher_left", n=len(room.watchers))
            return
        if room is None or seat is None:
            return
        s = room.seats[seat]
        if s.conn is conn:
            s.conn = None
            room.left(seat, tell=not self.stopping)  # the grace period starts
            room.rematch.discard(seat)  # a rematch needs everyone there
            if announce and not self.stopping:
                self._broadcast_lobby(room)

    def _broadcast_lobby(self, room: GameRoom, extra: Optional[Conn] = None) -> None:
        text = room.tell(room.lobby())
        if extra is not None:
            extra.send(text)

    def on_seen(self, conn: Conn, m: P.Seen) -> None:
        """The player's screen shows its decision: its turn clock starts (``GameRoom.seen``)."""
        room, seat = self._holder(conn, m.token)
        room.seen(seat, m.n, clock_now())

    def _seat_of(self, token: str, room: Optional[GameRoom] = None) -> tuple[GameRoom, int]:
        found = self.tokens.get(token_hash(token))
        if found is None or (room is not None and found[0] is not room):
            raise Refused("bad_token", "net.token_here" if room else "net.token_anywhere")
        return found

    def _holder(self, conn: Conn, token: str) -> tuple[GameRoom, int]:
        """The seat of ``token`` when ``conn`` is the connection that holds it (chat, resign,
        rematch: a spectator's or an old connection that knows a token acts for nobody)."""
        room, seat = self._seat_of(token)
        if conn.room is not room or conn.seat != seat:
            raise Refused("bad_token", "net.hold_seat")
        return room, seat

    def _host(self, token: str) -> tuple[GameRoom, int]:
        room, seat = self._seat_of(token)
        if seat != room.host_seat:
            raise Refused("not_host", "net.host_action")
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
            raise Refused("server", "net.not_stored") from None

    # ------------------------------------------------------------ messages

    def on_ping(self, conn: Conn, m: P.Ping) -> None:
        conn.send(P.Pong())
    on_list_games = listing.on_list_games  # the open games (issue 50)
    on_quick_match = quickmatch.on_quick_match  # issue 47 (t47lobby)

    def on_create(self, conn: Conn, m: P.Create) -> None:
        self.admission.check_create(conn.address, m.host_key, m.seed, self._is_lobby)
        listing.check_terms(self, conn, m)  # a rating range: the creator's account inside it
        if self.unfinished() >= self.max_unfinished():
            raise Refused("server", "net.server_full")
        reqs = m.seats
        if reqs[0].kind != "host":
            raise Refused("bad_message", "net.seat0_host")
        if any(r.kind == "host" for r in reqs[1:]):
            raise Refused("bad_message", "net.one_host")
        colours = [r.colour for r in reqs]
        if len(set(colours)) != len(colours):
            raise Refused("bad_message", "net.colours")
        scenario = None
        if m.scenario:
            try:
                sc = self.content.scenario(m.scenario)
            except KeyError:
                raise Refused("illegal", "refusal.no_scenario", "S2", scenario=m.scenario) from None
            if sc.seats != len(reqs):
                raise Refused("illegal", "refusal.scenario_seats", "S2", scenario=sc.name, seats=sc.seats)
            scenario = sc.name
        token = self._new_token()
        seats = []
        for i, r in enumerate(reqs):
            if r.kind == "host":
                seats.append(Seat(self.accounts.seat_name(conn, m.name), "human", r.colour, None, token_hash(token)))
            elif r.kind == "ai":
                bot = self._bot_level(r.bot, i)
                seats.append(Seat(_ai_name(bot), "ai", r.colour, bot))
            else:
                seats.append(Seat("", "open", r.colour))
        config = GameConfig(seats=len(reqs), colours=tuple(colours), scenario=scenario)
        # the seed seeds the AI seats only: the setup is dealt from the system's randomness
        seed = m.seed if m.seed is not None else secrets.randbits(63)
        room = self._open_room(config, seed, seats, 0, {**m.model_dump(include=ROOM_OPTIONS), "created": time.time()})
        self.admission.created(conn.address, room.id)
        log.info("game %s created: %d seats", room.id, len(seats))  # never the seed nor the code
        self._attach(conn, room, 0)
        self._joined(conn, room, 0, token)
        self._broadcast_lobby(room)

    def _open_room(self, config: GameConfig, seed: int, seats: list[Seat], host_seat: int,
                   options: dict[str, Any]) -> GameRoom:
        """A new game (a created one, or a rematch) with a fresh id and invite code: stored, then
        served; Refused when the store cannot keep it."""
        game_id = secrets.token_hex(8)
        while game_id in self.rooms:
            game_id = secrets.token_hex(8)
        code = new_code()
        while code in self.by_code or self.store.code_taken(code):
            code = new_code()
        room = GameRoom(game_id, code, config, seed, seats, self.content, host_seat, options=options)
        try:
            self.store.create_game(room.stored())
        except Exception as e:
            log.error("a new game could not be stored: %s", e)
            raise Refused("server", "net.not_stored") from None
        self._register(room)
        return room

    def _bot_level(self, bot: Optional[str], seat: int) -> str:
        bot = bot or "medium"
        if not is_known(bot):
            raise Refused("bad_message", "net.no_level", seat=seat, bot=bot, levels=", ".join(shipped_levels()))
        self.admission.check_level(bot, seat)
        return bot

    def _is_lobby(self, game_id: str) -> bool:
        room = self.rooms.get(game_id)
        return room is not None and not room.started

    def on_join(self, conn: Conn, m: P.Join) -> None:
        self.admission.check_guess(conn.address)
        room, seat = listing.seat_to_join(self, conn, self.by_code.get(m.code))  # an open seat it may take
        token = self._new_token()
        old = room.seats[seat]
        new = Seat(self.accounts.seat_name(conn, m.name), "human", old.colour, None, token_hash(token))
        seats = list(room.seats)
        seats[seat] = new
        self._save_seats(room, seats)
        room.seats = seats
        self.tokens[token_hash(token)] = (room, seat)
        log.info("game %s: %s joined as seat %d", room.id, m.name, seat)
        self._attach(conn, room, seat)
        self._joined(conn, room, seat, token)
        self._broadcast_lobby(room)
        quickmatch.start_when_full(self, room)  # a table that starts by itself (t47lobby)

    def on_resume(self, conn: Conn, m: P.Resume) -> None:
        room = self.rooms.get(m.game) or upkeep.reload_game(self, m.game)
        if room is None:
            raise Refused("unknown_game", "net.no_game")
        _, seat = self._seat_of(m.token, room)
        s = room.seats[seat]
        if s.kind == "ai" and s.player and not s.resigned and not room.finished:
            self._give_back(room, seat)  # back after a hand-over: the player takes the seat again
        self._attach(conn, room, seat)
        self._joined(conn, room, seat, m.token)
        if room.started:
            conn.send(room.update(seat, None))
            self._catch_up(conn, room)
            room.tell_clocks(clock_now(), force=True)  # the seat back is told every clock (everyone again)
        self._broadcast_lobby(room)

    def _give_back(self, room: GameRoom, seat: int) -> None:
        """The table gives ``seat`` back to its player (it decides whether it may)."""
        old = room.seats[seat]
        assert old.player  # resume asks only for a seat an AI keeps for its player
        why = room.table.give_back(seat, old.player, by=seat)
        if why is not None:
            log.info("game %s: seat %d stays the AI's: %s", room.id, seat, why.message)
            return
        new = Seat(old.player, "human", old.colour, None, old.token_hash)
        seats = list(room.seats)
        seats[seat] = new
        self._save_seats(room, seats)
        room.seats = seats
        log.info("game %s: seat %d taken back by its player", room.id, seat)
        room.tell_news("log.seat_taken_back", seat)

    def on_set_seat(self, conn: Conn, m: P.SetSeat) -> None:
        room, _ = self._host(m.token)
        k = m.seat
        if k >= len(room.seats):
            raise Refused("bad_message", "refusal.no_seat", seat=k)
        if k == room.host_seat:
            raise Refused("bad_message", "net.host_seat")
        old = room.seats[k]
        if room.started:
            if room.finished:
                raise Refused("started", "refusal.game_over", "E3")
            if m.kind != "ai":
                raise Refused("started", "net.only_ai")
            if old.conn is not None:  # the table's own word on it once its player is away
                raise Refused("bad_message", "refusal.seat_connected", "E-table", seat=k)
            why = room.table.handover_problem(k, by=room.host_seat)  # the host asks (checked above)
            if why is not None:
                raise Refused.of("grace" if why.key == "grace_left" else "bad_message", why)
        bot = self._bot_level(m.bot, k) if m.kind == "ai" else None
        if room.started:  # the player keeps their token: they may take the seat back (resume)
            assert bot is not None  # a started game's seat goes only to an AI (checked above)
            new = Seat(_ai_name(bot), "ai", old.colour, bot, old.token_hash, player=old.name)
        else:
            new = Seat(_ai_name(bot), "ai", old.colour, bot) if bot else Seat("", "open", old.colour)
        seats = list(room.seats)
        seats[k] = new
        self._save_seats(room, seats)
        removed = old.conn
        if old.token_hash and not room.started:
            self.tokens.pop(old.token_hash, None)
        if removed is not None:
            removed.room = removed.seat = None
        if room.started and bot is not None:
            room.table.hand_to_ai(k, bot, by=room.host_seat)
        room.seats = seats
        log.info("game %s: seat %d is now %s", room.id, k, bot or "open")
        if room.started and bot is not None:
            room.tell_news("log.seat_to_ai", k, level=i18n.Term("t", f"level.{bot.split('@')[0]}", {}))
        self._broadcast_lobby(room, extra=removed)
        self._pump(room)

    def on_start(self, conn: Conn, m: P.Start) -> None:
        room, _ = self._host(m.token)
        if room.started:
            raise Refused("started", "net.begun")
        for i, s in enumerate(room.seats):
            if s.kind == "open":
                raise Refused("bad_message", "net.seat_open", seat=i)
        self._deal(room)

    def _deal(self, room: GameRoom) -> None:
        """Deal and begin ``room`` (every seat taken)."""
        rng = random.Random(room.seed) if self.admission.test_seeds else self.admission.deal_rng()
        try:
            room.table.start(rng)
        except StoreFailed:
            raise Refused("server", "net.not_stored") from None
        room.started = True
        self._store_quietly(self.store.set_started, room.id)
        log.info("game %s started", room.id)
        self._settle(room)

    def on_act(self, conn: Conn, m: P.Act) -> None:
        room, seat = self._seat_of(m.token)
        play_act(room, seat, m.n, m.action)  # who may, the rules, the store: decided by the table
        self._settle(room)

    # ------------------------------------------------------------ playing

    def _tell(self, room: GameRoom, seat: int, v: GameState, action: Optional[Action]) -> None:
        """The table's observer of ``seat``: its connection gets its own view and the action as it
        may know it (a hand-over, with no action, is told by the lobby message instead)."""
        c = room.seats[seat].conn
        if c is not None and action is not None:
            c.send(room.update(seat, last_for(action, seat, room.n - 1 in room.timed), v=v))

    def _settle(self, room: GameRoom) -> None:
        """After a change: mark a finished game, and let the AI seats go on."""
        if room.table.is_over and not room.finished:
            room.finished = True
            room.table.close()  # a finished game keeps only its state, for resumes
            self._store_quietly(self.store.set_finished, room.id)
            log.info("game %s is over: winners %s", room.id, list(room.state.winners))
        self._pump(room)

    def _ai_ready(self, room: GameRoom) -> None:
        """An AI decision of ``room`` is ready (called on the event loop)."""
        if not self.stopping and self.rooms.get(room.id) is room:
            self._pump(room)

    def _pump(self, room: GameRoom) -> None:
        """Let the table's AI seats act on every answer that is ready (asking for the next ones);
        an answer the store could not keep is tried again after AI_RETRY_SECS."""
        if not room.started or room.finished or self.stopping or self.loop is None or room.follower:
            return
        t = room.table
        try:
            while t.tick() or t.ai.instant():
                pass
        except Exception:
            log.exception("game %s: the AI seats failed", room.id)
        if t.ai.stalled:
            t.ai.stalled = False
            self.loop.call_later(AI_RETRY_SECS, self._pump, room)
        if t.is_over and not room.finished:
            self._settle(room)


# ---------------------------------------------------------------- running

def new_host_key() -> str:
    """The key a host's own server gives its host's client (never stored, never sent to a guest)."""
    return secrets.token_urlsafe(24)


def default_data_dir() -> Path:
    return data_dir() / "server"
