"""What the players of an online game say, and who watches (issue 39): the server's handlers
for ``chat``, ``emote`` and ``watch``, mixed into :class:`~gonzaga.net.server.GameServer`.

- A chat line is cleaned (``cleantext.clean_chat``: no control, invisible or text-direction
  characters, spaces collapsed, at most 200 characters) and sent to everyone at the table,
  spectators included, as ``said`` with the seat and its name; an emote is one of
  ``protocol.EMOTES``. A seat says at most ``CHAT_LINES`` lines in ``CHAT_WINDOW`` seconds
  (beyond: ``slow``, the line is not sent). Only seats speak: a spectator has no token.
- A spectator (``watch`` with the invite code) receives ``watching``, the lobby, and, once the
  game runs, ``update`` with ``seat`` null and the public view (``rules.view.public_view``:
  no objective before the end, no deck order, no plan before the reveal), the action as
  nobody's own (another seat's plan: only who planned). A wrong code, or a game whose host
  allows no spectators, gets the one answer every wrong code gets.
- After a ``resume`` or a ``watch``, the game log so far (``history``) and the latest chat.
"""
from __future__ import annotations

import time
from collections import deque
from typing import Optional, Protocol

from ..rules import Action, GameState
from . import protocol as P
from . import upkeep
from ..rules.content import Content
from .admission import Admission, Refused
from .rooms import Conn, GameRoom, clock_now, last_for
from .cleantext import clean_chat


CHAT_LINES = 5  # lines (chat or emotes) a seat may say ...
CHAT_WINDOW = 10.0  # ... in this many seconds


class SocialHost(Protocol):
    """What chat and spectators use of the server (``server.GameServer``)."""
    admission: Admission
    by_code: dict[str, GameRoom]
    content: Content

    def _holder(self, conn: Conn, token: str) -> tuple[GameRoom, int]: ...
    def max_game_connections(self) -> int: ...
    def _detach(self, conn: Conn, announce: bool = True) -> None: ...
    def _broadcast_lobby(self, room: GameRoom, extra: Optional[Conn] = None) -> None: ...
    def _say(self, room: GameRoom, seat: int, text: Optional[str] = None, emote: Optional[str] = None) -> None: ...
    def _speaker(self, conn: Conn, token: str) -> tuple[GameRoom, int]: ...
    def _catch_up(self, conn: Conn, room: GameRoom) -> None: ...


class SocialHandlers:
    """Chat, emotes and spectators (a mixin of ``GameServer``: it uses its seats and tokens)."""

    def _speaker(self: SocialHost, conn: "Conn", token: str) -> tuple["GameRoom", int]:
        room, seat = self._holder(conn, token)
        times = room.chat_times.setdefault(seat, deque())
        now = time.monotonic()
        while times and now - times[0] > CHAT_WINDOW:
            times.popleft()
        if len(times) >= CHAT_LINES:
            raise Refused("slow", "net.slow", lines=CHAT_LINES, seconds=int(CHAT_WINDOW))
        times.append(now)
        return room, seat

    def _say(self, room: "GameRoom", seat: int, text: Optional[str] = None, emote: Optional[str] = None) -> None:
        s = room.seats[seat]
        name = P.player_name(s) or s.name
        msg = P.Said(game=room.id, seat=seat, name=name[:24], text=text, emote=emote, round=room.round)
        room.say(msg)  # everyone at the table, on other server processes too, and kept (sharing.py)

    def on_chat(self: SocialHost, conn: "Conn", m: P.Chat) -> None:
        text = clean_chat(m.text)
        if not text:
            raise Refused("bad_message", "net.chat_empty")
        room, seat = self._speaker(conn, m.token)
        self._say(room, seat, text=text)

    def on_emote(self: SocialHost, conn: "Conn", m: P.Emote) -> None:
        room, seat = self._speaker(conn, m.token)
        self._say(room, seat, emote=m.emote)

    # ------------------------------------------------------------ spectators

    def on_watch(self: SocialHost, conn: "Conn", m: P.Watch) -> None:
        self.admission.check_guess(conn.address)
        # a turn-based game nobody has open may be out of memory: read from the store (self: a GameServer)
        room = self.by_code.get(m.code) or upkeep.load_by_code(self, m.code)  # type: ignore[arg-type]
        if room is None or not room.watchable:  # the one answer of a wrong code
            self.admission.wrong_guess(conn.address)
            raise Refused("unknown_game", "net.no_waiting_game")
        if conn in room.watchers:
            return
        if len(room.everyone()) >= self.max_game_connections():
            raise Refused("limit", "net.game_conns")
        self._detach(conn)
        room.watchers.append(conn)
        conn.room, conn.seat = room, None
        conn.send(P.Watching(game=room.id, code=room.code, map=self.content.map_id))
        if room.started:
            conn.send(room.update(None, None))
            self._catch_up(conn, room)
        room.tell_news("log.watcher_came", n=len(room.watchers))  # the players know who watches
        room.tell_clocks(clock_now(), force=True)  # the spectator sees whose clock runs too
        self._broadcast_lobby(room)

    def _tell_watchers(self, room: "GameRoom", v: GameState, action: Optional[Action]) -> None:
        """The table's public observer: every spectator gets the public view and the action as
        nobody's own (an update, with no action, is a hand-over: the lobby tells it)."""
        room.tell_clocks(clock_now())  # after every change (the last observer told): whose clock runs now
        if not room.watchers or action is None:
            return
        text = P.encode(room.update(None, last_for(action, None, room.n - 1 in room.timed), v=v))
        for c in list(room.watchers):
            c.send(text)

    def _catch_up(self, conn: "Conn", room: "GameRoom") -> None:
        """After a snapshot: the game log so far and the latest chat lines."""
        conn.send(room.history())
        for said in room.said:
            conn.send(said)
