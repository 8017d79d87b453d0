"""The server's one periodic task (issue 39): every ``TICK`` seconds the turn timers
(``timers.sweep``), and every ``SWEEP_SECONDS`` what keeps a long-running server's memory
bounded. That sweep:

- deletes a lobby (a game not started) nobody has been connected to for the limits'
  ``lobby_idle_seconds``, from memory and from the store; a lobby loaded at start counts as
  idle from then, so none is kept across restarts for ever;
- lets go of a finished game nobody has been connected to for ``finished_idle_seconds``: it
  stays in the store, and a ``resume`` with one of its tokens loads it again (``reload_game``);
- forgets the per-address counters that have nothing left to count.

Unfinished started games stay in memory: they are what the server is for (the contract caps
them at ``MAX_UNFINISHED_GAMES``).
"""
from __future__ import annotations

import asyncio
import logging
import time
from typing import Callable, Optional, Protocol
from concurrent.futures import ProcessPoolExecutor

from . import timers
from .admission import Admission
from .rooms import GameRoom
from .storage import GameStore, StoredGame

log = logging.getLogger(__name__)

TICK = 1.0  # seconds between two checks of the turn timers
SWEEP_SECONDS = 30.0  # seconds between two memory sweeps


class KeptServer(timers.TimedServer, Protocol):
    """What the upkeep uses of the server (``server.GameServer``, which imports this module)."""
    loop: Optional[asyncio.AbstractEventLoop]
    upkeep: Optional["Upkeep"]
    store: GameStore
    admission: Admission
    rooms: dict[str, GameRoom]
    by_code: dict[str, GameRoom]
    tokens: dict[str, tuple[GameRoom, int]]
    stopping: bool

    def _rebuild(self, g: StoredGame) -> GameRoom: ...

    def _register(self, room: GameRoom) -> None: ...


class Upkeep:
    """When each game was last seen with a connection, and the sweep that acts on it."""

    def __init__(self, server: KeptServer, clock: Callable[[], float] = time.monotonic):
        self.server = server
        self.clock = clock
        self.seen: dict[str, float] = {}
        self.swept = clock()  # when the last memory sweep ran (the first runs SWEEP_SECONDS from now)

    def sweep(self) -> tuple[int, int]:
        """One pass: (lobbies deleted, finished games let go of)."""
        srv = self.server
        limits = srv.admission.limits
        now = self.clock()
        expired = released = 0
        for room in list(srv.rooms.values()):
            if room.conns():
                self.seen[room.id] = now
                continue
            idle = now - self.seen.setdefault(room.id, now)
            if room.follower:  # another process runs it (sharing.py): only this copy goes
                if idle >= limits.finished_idle_seconds:
                    forget_room(srv, room)
                    released += 1
                continue
            if not room.started and limits.lobby_idle_seconds is not None and idle >= limits.lobby_idle_seconds:
                try:
                    srv.store.delete_game(room.id)
                except Exception as e:  # kept for the next sweep
                    log.error("an idle lobby could not be deleted: %s", e)
                    continue
                forget_room(srv, room)
                expired += 1
            elif room.finished and idle >= limits.finished_idle_seconds:  # its table asks no AI seat any more
                forget_room(srv, room)
                released += 1
        for gid in [g for g in self.seen if g not in srv.rooms]:
            del self.seen[gid]
        srv.admission.forget_quiet(now)
        if expired or released:
            log.info("upkeep: %d idle lobbies deleted, %d finished games left memory", expired, released)
        return expired, released

    def tick(self) -> None:
        """The turn timers, then the memory sweep when it is due; again in TICK seconds until the
        server stops. A part that fails is logged (the log filter keeps it from flooding) and
        runs again at the next tick."""
        srv = self.server
        if srv.stopping or srv.loop is None:
            return
        try:
            timers.sweep(srv, time.monotonic())  # the rooms' waits are on this clock
        except Exception:
            log.exception("the turn timers failed")
        turns = getattr(srv, "turns", None)  # turn-based games (turns.py): their clocks are the wall clock's
        if turns is not None:
            try:
                turns.tick()
            except Exception:
                log.exception("the turn-based games' clocks failed")
        if self.clock() - self.swept >= SWEEP_SECONDS:
            self.swept = self.clock()
            try:
                self.sweep()
            except Exception:
                log.exception("the upkeep sweep failed")
        srv.loop.call_later(TICK, self.tick)


def start(server: KeptServer) -> None:
    """Run the server's periodic task from now on (once per server, on its loop)."""
    if server.upkeep is not None or server.loop is None:
        return
    server.upkeep = Upkeep(server)
    server.loop.call_later(TICK, server.upkeep.tick)


def forget_room(server: KeptServer, room: GameRoom) -> None:
    """Take a game out of the server's memory (not out of the store)."""
    if server.rooms.get(room.id) is room:
        del server.rooms[room.id]
    if server.by_code.get(room.code) is room:
        del server.by_code[room.code]
    for seat in room.seats:
        if seat.token_hash and server.tokens.get(seat.token_hash, (None,))[0] is room:
            del server.tokens[seat.token_hash]


def reload_game(server: KeptServer, game_id: str) -> Optional[GameRoom]:
    """A game the server let go of (finished, idle), loaded again from the store for a resume;
    None when the store does not have it."""
    if server.stopping:
        return None
    try:
        g = server.store.load_game(game_id)
    except Exception as e:
        log.error("game %s cannot be read again: %s", game_id, e)
        return None
    if g is None:
        return None
    try:
        room = server._rebuild(g)
    except Exception as e:
        log.error("game %s cannot be resumed: %s", game_id, e)
        return None
    server._register(room)
    return room


def load_by_code(server: KeptServer, code: str) -> Optional[GameRoom]:
    """An unfinished game out of memory (a turn-based one nobody has open) read from the store
    by its invite code, for a spectator's ``watch``; None when the store has none."""
    find = getattr(server.store, "game_of_code", None)
    if find is None or server.stopping:
        return None
    try:
        game_id = find(code)
    except Exception as e:
        log.error("an invite code could not be looked up: %s", e)
        return None
    if game_id is None:
        return None
    room = server.rooms.get(game_id) or reload_game(server, game_id)
    if room is not None and room.finished:
        return None  # a finished game is not watched from the store
    return room


def end_processes(pool: ProcessPoolExecutor) -> None:
    """Shut an AI process pool down now: queued decisions are dropped and a worker in the middle
    of a search is terminated (waiting for it would hold up the server's exit past its budget)."""
    pool.shutdown(wait=False, cancel_futures=True)
    for proc in list((getattr(pool, "_processes", None) or {}).values()):
        try:
            proc.terminate()
        except (OSError, ValueError, AttributeError):  # already gone
            pass
