"""The turn timer of an online game (issue 39) and the grace periods' end (issue 50), checked
once a second by the server's periodic task (``upkeep.start``).

A host may choose a turn timer (``create``'s ``turn_secs``): a human seat's clock
(``turnclock.py``) starts when its player's screen shows the decision (or ``SEEN_CAP`` seconds
after it became due); when it has run for the whole timer, one decision is made for that seat by
the AI level ``TIMER_LEVEL``. The table decides whether it may (``Table.time_out``: a human seat
whose turn it is, in a game being played) and its pacing asks the AI from that seat's view only;
the player may still act first, then the AI's answer is dropped. Nothing here changes a room's
state but through its table.

A dropped seat's grace period running out is told at once (a log line, and the lobby with the
seats, so the host's screen offers the hand-over without another click).
"""
from __future__ import annotations

import logging
from typing import Any, Protocol

from .rooms import GameRoom


class TimedServer(Protocol):
    """What the turn timers use of the server (``server.GameServer``): they do not import it."""

    rooms: dict[str, GameRoom]

    def _pump(self, room: GameRoom) -> None: ...

    def _broadcast_lobby(self, room: GameRoom, extra: Any = None) -> None: ...


log = logging.getLogger(__name__)

TIMER_LEVEL = "medium"


def sweep(server: TimedServer, now: float) -> None:
    """Check the turn timer and the grace periods of every game being played."""
    for room in list(server.rooms.values()):
        if room.started and not room.finished and not room.follower:  # the owner's process runs them
            if room.clocks is not None:
                check_room(server, room, now)
            if room.pace != "turn":  # turn-based: players come and go, missed moves decide (turns.py)
                check_grace(server, room)


def check_room(server: TimedServer, room: GameRoom, now: float) -> None:
    """Keep each human seat's clock at the current position (everyone told when one starts by
    itself); a clock run out is handed to the table as a time-out."""
    t = room.table
    room.sync_clocks(now)
    assert room.clocks is not None  # checked only for a room with a turn timer
    for seat in room.clocks.expired(now):  # once per position
        why = t.time_out(seat, TIMER_LEVEL)
        if why is None:
            log.info("game %s: seat %d's turn timer ran out: the AI decides", room.id, seat)
            server._pump(room)
    room.tell_clocks(now)


def check_grace(server: TimedServer, room: GameRoom) -> None:
    """A dropped seat whose grace period has just run out: told in the log and the seats."""
    changed = False
    for seat in range(len(room.seats)):
        if seat not in room.grace_told and room.grace_left(seat) == 0.0:
            room.grace_told.add(seat)
            room.tell_news("log.seat_grace_over", seat)
            changed = True
    if changed:
        server._broadcast_lobby(room)
