"""What one seat may know (spec E): the state with every secret of the others removed.

A view hides: the order of every deck (the seat's own too: only which fiefs are
left is known), the other seats' objectives, and the other seats' plans until
the reveal. AI seats choose from views; ``determinize`` fills the hidden parts
with guesses consistent with the view so that search can run on full states.
"""
from __future__ import annotations

import random
from typing import Callable, Optional

from .actions import Plan
from .state import GameState, evolve

HIDDEN = "hidden"


def view(state: GameState, seat: int) -> GameState:
    """The state as ``seat`` sees it (``viewer`` is set to ``seat``)."""
    seats = []
    for i, s in enumerate(state.seats):
        changes = dict(deck=tuple(sorted(s.deck)), deck_hidden=True)
        if i != seat:
            changes["objective"] = None
            if state.phase == "plan" and s.plan is not None:
                changes["plan"] = Plan(i, HIDDEN, HIDDEN, False)
        seats.append(evolve(s, **changes))
    return evolve(state, seats=tuple(seats), viewer=seat)


def public_view(state: GameState) -> GameState:
    """What anyone at the table may see (a shared screen between turns): ``view`` for no seat:
    every deck's order, every objective and every plan before the reveal are hidden."""
    seats = []
    for i, s in enumerate(state.seats):
        changes = dict(deck=tuple(sorted(s.deck)), deck_hidden=True, objective=None)
        if state.phase == "plan" and s.plan is not None:
            changes["plan"] = Plan(i, HIDDEN, HIDDEN, False)
        seats.append(evolve(s, **changes))
    return evolve(state, seats=tuple(seats), viewer=None)


def has_planned(state: GameState, seat: int) -> bool:
    return state.seats[seat].plan is not None


def determinize(v: GameState, rng: random.Random,
                plan_for: Optional[Callable[[GameState, int], Plan]] = None) -> GameState:
    """A full state consistent with the view ``v``: decks shuffled, unknown objectives drawn.

    Hidden plans of seats that already planned are replaced by ``plan_for(state, seat)``
    (default: a uniformly random legal plan); the game's end is not revealed by them.
    """
    from .legality import legal_plans  # local: legality imports state, not view

    me = v.viewer
    if me is None:
        return v
    known = {v.seats[me].objective}
    pool = [o.id for o in v.content.objectives if o.id not in known]
    rng.shuffle(pool)
    seats = []
    for i, s in enumerate(v.seats):
        deck = list(s.deck)
        rng.shuffle(deck)
        changes = dict(deck=tuple(deck), deck_hidden=False)
        if i != me:
            changes["objective"] = pool.pop()
        seats.append(evolve(s, **changes))
    state = evolve(v, seats=tuple(seats), viewer=None)
    if state.phase == "plan":
        for i, s in enumerate(state.seats):
            if i != me and s.plan is not None and s.plan.region == HIDDEN:
                state = state.with_seat(i, plan=None)
                choice = plan_for(state, i) if plan_for else rng.choice(legal_plans(state, i))
                state = state.with_seat(i, plan=choice)
    return state
