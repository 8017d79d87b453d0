"""Where a table writes each change BEFORE it becomes visible (nobody has seen a move the store
does not hold).

A store has one method, ``keep(change)``. The table calls it with the position as it will be
(:class:`Change`: the record with the new action, the new state, the seats, the name, the
assists); when it raises, the table changes nothing and raises :class:`StoreFailed`.

- :class:`NoStore`: nothing is kept (tests, the tutorial, a replay).
- :class:`CallbackStore`: the desktop's autosave, ``on_change(change)``. Its policy is the desktop
  game's: a save that fails is logged and the game goes on (the app puts up its banner).
- The server's SQLite store (``net/server.py``) appends the action in one transaction and lets a
  failure refuse the move.
"""
from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Callable, Optional, Protocol

from ..rules import Action, GameRecord, GameState
from .seats import SeatSpec

log = logging.getLogger(__name__)


class StoreFailed(Exception):
    """The store could not keep a change: the table is unchanged."""


@dataclass
class Change:
    """The table as it will be after a change (what a save is made from).

    ``kind`` is "action" (``action`` appended as the record's ``index``-th action) or "rewind"
    (the record cut back to ``index`` actions by a take-back)."""

    kind: str
    index: int
    action: Optional[Action]
    record: GameRecord
    state: GameState
    seats: list[SeatSpec]
    name: str = ""
    assists: dict[str, int] = field(default_factory=dict)
    version: int = 0


class Store(Protocol):
    """What a table writes its changes to (this module's docstring)."""

    def keep(self, change: Change) -> None: ...


class NoStore:
    def keep(self, change: Change) -> None:
        pass


class CallbackStore:
    """The desktop's store: ``callback(change)`` (the autosave); a failure never stops the game."""

    def __init__(self, callback: Callable[[Change], None]):
        self.callback = callback

    def keep(self, change: Change) -> None:
        try:
            self.callback(change)
        except Exception:  # an autosave problem must not stop the game (the app shows a banner)
            log.exception("on_change callback failed")
