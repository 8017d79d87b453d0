"""Leaving a game and playing again (issue 39): the server's handlers for ``resign`` and
``rematch``, mixed into :class:`~gonzaga.net.server.GameServer`.

- ``resign``: the seat's own player leaves for good. The table decides (``Table.resign``: only
  the seat's own player, in a game being played); the AI level ``RESIGN_LEVEL`` then plays the
  seat to the end, so the others' game goes on as it was dealt; the seat is shown resigned and
  cannot be taken back. The player keeps their token, so they may still watch their seat.
- ``rematch``: in a finished game, each player asks; when every seat that has a player (its
  token) has asked, while connected, a new game begins with the same seats (names, colours,
  AI levels, the host's choices) and a fresh deal. Each player's connection gets ``joined`` for
  the new game (a new token) and its snapshot; the spectators are moved to it (``watching``,
  then its updates). A player who disconnects withdraws their ask. On several processes the
  players may be connected to different ones: ``sharing_rematch.py`` decides there.
"""
from __future__ import annotations

import logging
import secrets
from typing import Any, Optional, Protocol

from . import protocol as P
from .admission import Refused
from ..rules import GameConfig
from .rooms import Conn, GameRoom, Seat, _ai_name, token_hash
from .sharing import Sharing
from .storage import GameStore


log = logging.getLogger(__name__)

RESIGN_LEVEL = "medium"
RESIGN_CODES = {"game_over": "started", "not_begun": "not_started"}  # the table's refusal -> the error code


class EndgameHost(Protocol):
    """What resign and rematch use of the server (``server.GameServer``)."""
    store: GameStore
    sharing: Optional[Sharing]  # several processes on one database, else None

    def _holder(self, conn: Conn, token: str) -> tuple[GameRoom, int]: ...
    def _broadcast_lobby(self, room: GameRoom, extra: Optional[Conn] = None) -> None: ...
    def _pump(self, room: GameRoom) -> None: ...
    def unfinished(self) -> int: ...
    def max_unfinished(self) -> int: ...
    def _new_token(self) -> str: ...
    def _open_room(self, config: GameConfig, seed: int, seats: list[Seat], host_seat: int,
                   options: dict[str, Any]) -> GameRoom: ...
    def _attach(self, conn: Conn, room: GameRoom, seat: int) -> None: ...
    def _joined(self, conn: Conn, room: GameRoom, seat: int, token: str) -> None: ...
    def _deal(self, room: GameRoom) -> None: ...
    def _rematch(self, room: GameRoom, players: list[int],
                 hashes: Optional[dict[int, str]] = None) -> GameRoom: ...


class EndgameHandlers:
    """Resign and rematch (a mixin of ``GameServer``)."""

    def on_resign(self: EndgameHost, conn: "Conn", m: P.Resign) -> None:
        room, seat = self._holder(conn, m.token)  # never from a spectator's connection that knows a token
        why = room.table.resign(seat, RESIGN_LEVEL, by=seat)  # who may, and when: the table's
        if why is not None:
            raise Refused.of(RESIGN_CODES.get(why.key, "bad_message"), why)
        old = room.seats[seat]
        seats = list(room.seats)
        seats[seat] = Seat(_ai_name(RESIGN_LEVEL), "ai", old.colour, RESIGN_LEVEL, old.token_hash,
                           player=old.name, resigned=True)
        seats[seat].conn = old.conn  # still watching their seat
        try:
            self.store.replace_seats(room.id, [s.to_json() for s in seats])
        except Exception as e:  # the table has moved on: the seat stays the AI's in this run
            log.error("game %s: the resignation could not be stored: %s", room.id, e)
        room.seats = seats
        log.info("game %s: seat %d resigned", room.id, seat)
        room.tell_news("log.seat_resigned", seat)
        self._broadcast_lobby(room)
        self._pump(room)

    def on_rematch(self: EndgameHost, conn: "Conn", m: P.Rematch) -> None:
        room, seat = self._holder(conn, m.token)
        if not room.finished:
            raise Refused("not_over", "net.rematch_not_over")
        if self.sharing is not None:  # its players may be connected to other processes
            self.sharing.rematches.ask(room, seat)
            return
        room.rematch.add(seat)
        players = [i for i, s in enumerate(room.seats) if s.token_hash]
        if not all(i in room.rematch and room.seats[i].conn is not None for i in players):
            self._broadcast_lobby(room)
            return
        self._rematch(room, players)

    def _rematch(self: EndgameHost, room: GameRoom, players: list[int],
                 hashes: Optional[dict[int, str]] = None) -> GameRoom:
        """Every player asked: the same seats, a fresh deal. Each player's token for the new game
        is made here, or (``hashes``: several processes) by the process holding their connection,
        which gives it to them: the seat gets its hash, and this process knows the tokens of its
        own players only (``room.rematch.minted``)."""
        if self.unfinished() >= self.max_unfinished():
            raise Refused("server", "net.server_full")
        tokens, seats = {}, []
        for i, s in enumerate(room.seats):
            if i in players:
                if hashes is None:
                    tokens[i] = self._new_token()
                    digest = token_hash(tokens[i])
                else:
                    digest = hashes[i]
                    mine = room.rematch.minted.get(i)
                    if mine is not None and token_hash(mine) == digest:
                        tokens[i] = mine
                seats.append(Seat(s.player or s.name if s.kind == "ai" else s.name, "human", s.colour, None, digest))
            else:
                seats.append(Seat(s.name, "ai", s.colour, s.bot))
        new = self._open_room(room.config, secrets.randbits(63), seats, room.host_seat, room.options())
        # all of them on one process (they asked while connected); several: those connected here
        conns = {i: c for i in tokens if (c := room.seats[i].conn) is not None}
        room.hand_over(new)  # the asks are done; the spectators go to the new game
        log.info("game %s: rematch as game %s", room.id, new.id)
        for i, c in conns.items():
            self._attach(c, new, i)
            self._joined(c, new, i, tokens[i])
        self._broadcast_lobby(new)
        self._deal(new)
        return new
