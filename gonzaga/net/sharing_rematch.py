"""A rematch whose players are connected to different processes on one PostgreSQL database
(issue 47; the rest of the processes' sharing is ``sharing.py``).

A finished game has no lease: each player asks through the process holding their connection.
The token of their seat in the new game is made there and stays there (only its hash is written
with the ask, ``rematch_asks``: schema script ``postgres/0006_rematch_asks_minted.sql``). The
asks are decided one process at a time, under the database's advisory lock: the process that
finds every player's ask made by a live process begins the rematch with their hashes and tells
the others (``m``), and each gives its own players their seats with the tokens it made. An ask
made through a process that died counts again once its player asks again or comes back
(``resume``) through another, which makes the ask its own. Within ``LEASE_SECONDS`` of a
process being killed its asks still count: a rematch begun then has a seat whose token died with
that process: its player is not given that seat, which the new game counts away (its grace
period, then the host may hand it to the AI).
"""
from __future__ import annotations

import logging
from typing import Any, Callable, Optional, Protocol

from .admission import Refused
from .rooms import Conn, GameRoom, token_hash

log = logging.getLogger(__name__)

REMATCH_LOCK = 4_700_049  # the advisory lock a rematch ask is decided under, one process at a time


class RematchServer(Protocol):
    """What this part uses of ``server.GameServer``."""
    store: Any

    def _broadcast_lobby(self, room: GameRoom, extra: Any = None) -> None: ...

    def _new_token(self) -> str: ...

    def _attach(self, conn: Conn, room: GameRoom, seat: int) -> None: ...

    def _joined(self, conn: Conn, room: GameRoom, seat: int, token: str) -> None: ...

    def _rematch(self, room: GameRoom, players: list[int],
                 hashes: Optional[dict[int, str]] = None) -> GameRoom: ...


class RematchLeases(Protocol):
    """What this part uses of ``leases_pg.GameLeases``."""
    process: str

    def exclusive(self, key: int, fn: Callable[[], Any]) -> Any: ...

    def tell(self, kind: str, game_id: str, n: int = 0, extra: str = "") -> None: ...


class SharedRematch:
    """The rematch asks of the finished games of one process among several (see above);
    ``load`` reads a game this process does not have (``Sharing.load``)."""

    def __init__(self, server: RematchServer, leases: RematchLeases,
                 load: Callable[[str], Optional[GameRoom]]):
        self.server, self.leases, self.load = server, leases, load

    @property
    def store(self) -> Any:
        return self.server.store

    def ask(self, room: GameRoom, seat: int) -> None:
        """``seat``'s player, connected here, asks for a rematch of the finished ``room``; its other
        players may be connected to other processes. The token of the player's seat in the new
        game is made here and stays here (``room.rematch.minted``; the ask is written with its
        hash). One process at a time (the database's advisory lock): the ask is written, the asks
        that count are read (those made by a live process: a player held by a process that died
        asks again, or comes back, ``came_back``), and the process that finds every player's
        there begins the rematch with their hashes and tells the others (``m``), each of which
        gives its own players their tokens (``began``). Else the others are told (``q``)
        and show the ask to their players."""
        srv, gid = self.server, room.id
        token = room.rematch.minted.get(seat) or srv._new_token()

        def decide() -> Optional[GameRoom]:
            self.store.keep_ask(gid, seat, True, token_hash(token), self.leases.process)  # before the read
            room.rematch.minted[seat] = token
            room.rematch.restore(set(room.rematch) | {seat})
            live = self.store.live_asks(gid)
            players = [i for i, s in enumerate(room.seats) if s.token_hash]
            if not all(i in live for i in players):
                return None
            new = srv._rematch(room, players, live)
            self.store.keep_ask(gid, None, False)  # done, under the lock: nobody begins it twice
            return new
        new = self.leases.exclusive(REMATCH_LOCK, decide)
        self._tell("m" if new is not None else "q", gid, new.id if new is not None else "")
        if new is None:
            srv._broadcast_lobby(room)

    def _tell(self, kind: str, gid: str, extra: str = "") -> None:
        try:
            self.leases.tell(kind, gid, 0, extra)
        except Exception as e:  # the others read the asks when their players ask or come back
            log.warning("game %s: the other processes could not be told (%s): %s", gid, kind, e)

    def came_back(self, c: Conn) -> None:
        """A player came back (``resume``) to a finished game through this process while their
        rematch ask stands: the ask becomes this process's own (the one that made it may be gone,
        and with it the token it made), and the rematch may begin with it."""
        room, seat = c.room, c.seat
        if room is None or seat is None or not room.finished or seat not in room.rematch:
            return
        try:
            self.ask(room, seat)
        except Refused as r:
            c.refuse(r)
        except Exception:
            log.exception("game %s: a rematch ask taken over failed", room.id)

    def began(self, old: GameRoom, new_id: str) -> None:
        """Another process began the rematch of ``old`` as ``new_id``: each of this process's
        asking players takes their seat there with the token made here, and the spectators here
        follow them (as on the process that began it)."""
        srv = self.server
        new = self.load(new_id)
        if new is None:
            log.warning("game %s: its rematch %s cannot be read", old.id, new_id)
            return
        for seat, token in list(old.rematch.minted.items()):
            c = old.seats[seat].conn if seat < len(old.seats) else None
            if c is None or seat >= len(new.seats) or new.seats[seat].token_hash != token_hash(token):
                continue  # gone meanwhile, or the ask became another process's
            srv._attach(c, new, seat)
            srv._joined(c, new, seat, token)
            if new.started:
                c.send(new.update(seat, None))
        old.hand_over(new)
        srv._broadcast_lobby(new)
