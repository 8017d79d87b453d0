"""The turn timer of an online game (issue 39), checked once a second by the server's periodic
task (``upkeep.start``).

A host may choose a turn timer (``create``'s ``turn_secs``): a human seat that has been due to
decide for that long at the same position (its plan, or its placement) gets one decision made
for it by the AI level ``TIMER_LEVEL``. The table decides whether it may (``Table.time_out``:
a human seat whose turn it is, in a game being played) and its pacing asks the AI from that
seat's view only; the player may still act first, then the AI's answer is dropped. Nothing
here changes a room's state but through its table.
"""
from __future__ import annotations

import logging
from typing import Protocol

from .rooms import GameRoom, turn_position


class TimedServer(Protocol):
    """What the turn timers use of the server (``server.GameServer``): they do not import it."""

    rooms: dict[str, GameRoom]

    def _pump(self, room: GameRoom) -> None: ...


log = logging.getLogger(__name__)

TIMER_LEVEL = "medium"


def sweep(server: TimedServer, now: float) -> None:
    """Check the turn timer of every game being played under one."""
    for room in list(server.rooms.values()):
        if room.turn_secs and room.started and not room.finished:
            check_room(server, room, now)


def check_room(server: TimedServer, room: GameRoom, now: float) -> None:
    """Start, keep or end each human seat's wait at the current position; a wait over the
    room's turn timer is handed to the table as a time-out."""
    t = room.table
    st = t.state
    position = turn_position(st)
    due = {i for i in st.to_act() if t.seats[i].kind == "human"}
    for seat in list(room.waiting_since):
        if seat not in due or room.waiting_since[seat][0] != position:
            del room.waiting_since[seat]
    for seat in due:
        pos, since = room.waiting_since.setdefault(seat, (position, now))
        if since is not None and room.turn_secs is not None and now - since >= room.turn_secs:
            room.waiting_since[seat] = (position, None)  # once per position
            why = t.time_out(seat, TIMER_LEVEL)
            if why is None:
                log.info("game %s: seat %d's turn timer ran out: the AI decides", room.id, seat)
                server._pump(room)
