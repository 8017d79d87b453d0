"""The game log's lines that no action writes (issue 50): a seat's player dropped out, came
back, ran out of grace, resigned; the computer took a seat or made a move for a player whose
turn timer ran out; a spectator came or left. The server writes them (``rooms.py``: told at
once as ``news``, kept for a resume's ``history``); the client writes the timer's line itself
from ``LastAction.by_ai``. Keys and parameters only, put into words by each reader (``logcodec``
carries them): every key is in ``SEAT_KEYS``, checked against the catalogs by the tests.
"""
from __future__ import annotations

from typing import Callable, Optional

from ..rules import Action, GameState, Plan
from ..table.gamelog import LogEntry

SEAT_KEYS = (
    "log.seat_dropped",      # {name}: their computer's connection dropped; the seat is kept {seconds}
    "log.seat_back",         # {name} is back
    "log.seat_grace_over",   # {name}'s grace period is over: the host may let the computer play
    "log.seat_to_ai",        # the computer ({level}) plays for {name} from now on
    "log.seat_taken_back",   # {name} takes their seat back from the computer
    "log.seat_resigned",     # {name} resigned: the computer plays the seat to the end
    "log.watcher_came",      # a spectator is watching ({n} in all)
    "log.watcher_left",      # a spectator left ({n} watching)
    "log.ai_planned_for",    # time ran out: the computer planned for {name}
    "log.ai_placed_for",     # time ran out: the computer placed for {name}
    "log.seat_missed_out",   # t47turn: {name} missed {n} moves in a row: the computer plays the seat to the end
)


def line(rnd: int, key: str, name: object = None, **params: object) -> LogEntry:
    """One seat change as a log line of round ``rnd``; ``name`` the seat's (a string, or a term)."""
    assert key in SEAT_KEYS, key
    if name is not None:
        params["name"] = name
    return LogEntry(rnd, key, dict(params))


def timed_line(prev: GameState, action: Action, name: Callable[[int], object]) -> LogEntry:
    """The line before an action the computer made for a seat whose turn timer ran out."""
    seat: Optional[int] = getattr(action, "seat", None)
    assert seat is not None, "only a seat's decision is timed"
    key = "log.ai_planned_for" if isinstance(action, Plan) else "log.ai_placed_for"
    return line(prev.round, key, name(seat), round=prev.round)
