"""Fast random playouts: whole games to the end, every action through ``apply``.

The policy: each seat plans uniformly among its legal plans; a seat to act
picks uniformly among its legal placements and a donation, with a random wedding
(a ring on an open hex of the region, maybe a second beside it) as one more option under an Alliance plan.
Used by ``gonzaga bench`` (playouts_per_s) and available to search bots.
"""
from __future__ import annotations

import random
from typing import Optional

from .actions import ACTION_CARDS, Action, Donate, Place, Plan, Wedding
from .board import bits
from .engine import apply
from .placement import anchor_masks
from .state import GameState


def random_action(state: GameState, seat: int, rng: random.Random) -> Action:
    """One uniformly drawn legal action for ``seat`` (placements drawn without listing them all)."""
    if state.phase == "plan":
        return _random_plan(state, seat, rng)
    s = state.seats[seat]
    plan, fief = s.plan, s.fief
    assert plan is not None and fief is not None, "a seat places only after planning, with a fief"
    board = state.board
    masks = anchor_masks(board, fief, board.region_mask(plan.region, state.flourishing),
                         plan.action, state.all_fiefs, s.ring_mask)
    total = sum(m.bit_count() for _, m in masks)
    wed = 1 if plan.action == "C" and s.rings > 0 else 0
    k = rng.randrange(total + 1 + wed)
    if k < total:
        for o, m in masks:
            c = m.bit_count()
            if k < c:
                for a in bits(m):
                    if k == 0:
                        return Place(seat, fief, board.hex_at[a], o.rotation)
                    k -= 1
            k -= c
    if k == total + 1:
        wedding = _random_wedding(state, seat, rng)
        if wedding:
            return wedding
    return Donate(seat)


def _random_plan(state: GameState, seat: int, rng: random.Random) -> Plan:
    """Uniform over ``legal_plans(state, seat)`` without building the list."""
    s = state.seats[seat]
    gone = s.unavailable
    regions = [r for r in state.region_cards() if r not in gone]
    actions = [a for a in ACTION_CARDS if a not in gone]
    kings = (False, True) if s.rings >= 1 and "K" not in gone else (False,)
    k = rng.randrange(len(regions) * len(actions) * len(kings))
    k, ki = divmod(k, len(kings))
    ri, ai = divmod(k, len(actions))
    return Plan(seat, regions[ri], actions[ai], kings[ki])


def _random_wedding(state: GameState, seat: int, rng: random.Random) -> Optional[Wedding]:
    """A first ring on a random open hex of the planned region, maybe a second beside it."""
    s = state.seats[seat]
    board = state.board
    open_hexes = board.valid & ~(s.fief_mask | state.all_rings)
    assert s.plan is not None, "a wedding follows a plan"
    first = list(bits(board.region_mask(s.plan.region, state.flourishing) & open_hexes))
    if not first:
        return None
    i = rng.choice(first)
    options: list[Optional[int]] = [None]
    if s.rings >= 2:
        options += [i + d for d in board.deltas if open_hexes >> (i + d) & 1]
    j = rng.choice(options)
    rings = (board.hex_at[i],) if j is None else tuple(board.hex_at[x] for x in sorted((i, j)))
    return Wedding(seat, rings)


def random_playout(state: GameState, rng: random.Random) -> GameState:
    """Play ``state`` (after its setup) to the end with the random policy."""
    while not state.is_over:
        for seat in state.to_act():
            state = apply(state, random_action(state, seat, rng))
            if state.phase != "plan":
                break
    return state
