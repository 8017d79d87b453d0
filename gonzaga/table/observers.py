"""What leaves the table: each observer is told only what its seat may know.

An observer is a callable registered with ``Table.observe(callback, seat)``; after every change
it gets ``callback(view, action, table)``: ``view`` is ``Table.view_for(seat)`` (its seat's view,
or for ``seat=None``, a shared screen or a spectator, the public view) and ``action`` the last
action as that seat may know it (:func:`known_action`; None after a take-back). Secrets are kept
by construction here, not by the screens' discipline (boardgame.io's ``filterPlayerView``).
"""
from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Callable, Optional, Protocol

from ..rules import Action, GameState, Plan, Setup
from ..rules.view import HIDDEN

log = logging.getLogger(__name__)


class Viewed(Protocol):
    """What observers are told about: the ``Table`` (a protocol, so that this module does not
    import the table's, which imports it)."""

    def view_for(self, seat: Optional[int]) -> GameState: ...


# callback(view, action as the seat may know it, table)
ObserverCallback = Callable[[GameState, Optional[Action], Viewed], None]


def known_action(action: Optional[Action], seat: Optional[int]) -> Optional[Action]:
    """``action`` as ``seat`` may know it: the setup without its decks and objectives, another
    seat's plan as a hidden plan (as views show it before the reveal), the rest as played."""
    if action is None:
        return None
    if isinstance(action, Setup):
        return Setup(action.scenario, action.last_turn_seat, (), ())
    if isinstance(action, Plan) and action.seat != seat:
        return Plan(action.seat, HIDDEN, HIDDEN, False)
    return action


@dataclass(eq=False)
class Observer:
    callback: ObserverCallback
    seat: Optional[int]


class Observers:
    """The table's observers; telling them never stops the game (a failing one is logged)."""

    def __init__(self) -> None:
        self._all: list[Observer] = []

    def add(self, callback: ObserverCallback, seat: Optional[int]) -> Observer:
        o = Observer(callback, seat)
        self._all.append(o)
        return o

    def remove(self, o: Observer) -> None:
        if o in self._all:
            self._all.remove(o)

    def tell(self, table: Viewed, action: Optional[Action]) -> None:
        # each seat's view is worked out once per change, however many observers it has (a server
        # table has three for the public view); again if an observer has changed the state
        views: dict[Optional[int], tuple[object, GameState]] = {}
        for o in list(self._all):
            try:
                now = getattr(table, "state", None)
                had = views.get(o.seat)
                if had is None or had[0] is not now or now is None:
                    had = views[o.seat] = (now, table.view_for(o.seat))
                o.callback(had[1], known_action(action, o.seat), table)
            except Exception:
                log.exception("an observer of seat %s failed", o.seat)

    def __len__(self) -> int:
        return len(self._all)
