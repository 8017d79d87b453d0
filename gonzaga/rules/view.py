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
from .legality import legal_plans  # local: legality imports state, not view

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
    """What everyone at the table may see (a shared screen, a spectator): no objective, no deck
    order, no plan before the reveal (a seat that has planned shows a hidden plan); ``viewer`` is
    None. Once the game is over every objective is shown (they are scored then, as at the table)."""
    seats = []
    for i, s in enumerate(state.seats):
        changes = dict(deck=tuple(sorted(s.deck)), deck_hidden=True)
        changes["objective"] = s.objective if state.phase == "over" else None
        if state.phase == "plan" and s.plan is not None:
            changes["plan"] = Plan(i, HIDDEN, HIDDEN, False)
        seats.append(evolve(s, **changes))
    return evolve(state, seats=tuple(seats), viewer=None)


def shown_view(state: GameState, seat: Optional[int]) -> GameState:
    """What a table shows ``seat`` (None: everyone, ``public_view``): ``view(state, seat)``, and
    once the game is over with every seat's objective shown, as at the table."""
    if seat is None:
        return public_view(state)
    v = view(state, seat)
    if state.phase != "over":
        return v
    return evolve(v, seats=tuple(evolve(s, objective=full.objective) for s, full in zip(v.seats, state.seats)))


def has_planned(state: GameState, seat: int) -> bool:
    return state.seats[seat].plan is not None


def determinize(v: GameState, rng: random.Random,
                plan_for: Optional[Callable[[GameState, int], Plan]] = None) -> GameState:
    """A full state consistent with the view ``v``: decks shuffled, unknown objectives drawn.

    Hidden plans of seats that already planned are replaced by ``plan_for(state, seat)``
    (default: a uniformly random legal plan); the game's end is not revealed by them.
    """

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
