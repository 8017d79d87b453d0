"""The planning preview: for each region and action card a seat could play this round,
where its fief could go and the best points it would score there at once.

Reads the state only (the fief each seat turned up, the pieces on the board: all public);
never another seat's hidden plan or objective. Points are what the placement ghost shows:
``scoring.immediate_points`` (sites 3 or 1, +10 per sea league completed).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from ..rules import ACTION_CARDS, GameState, legal_placements
from ..rules import scoring
from ..rules.hexgrid import Hex

PLAN_ACTIONS = tuple(a for a in ACTION_CARDS if a != "K")  # "A", "B", "C"


@dataclass(frozen=True)
class PlanPreview:
    """One (region, action) pair: ``best`` points (None: no legal spot), the hexes any
    legal placement covers, and one best placement (anchor, rotation, cells)."""

    region: str
    action: str
    best: Optional[int]
    spots: int
    cover: frozenset[Hex]
    best_anchor: Optional[Hex] = None
    best_rotation: int = 0
    best_cells: tuple[Hex, ...] = ()


def preview_pair(state: GameState, seat: int, region: str, action: str) -> PlanPreview:
    s = state.seats[seat]
    if s.fief is None:
        return PlanPreview(region, action, None, 0, frozenset())
    fief = state.content.fiefs[s.fief]
    board = state.board
    best = None
    best_p = None
    cover: set[Hex] = set()
    places = legal_placements(state, seat, region, action)
    for p in places:
        cells, _ = fief.footprint(p.anchor, p.rotation)
        cover.update(cells)
        pts = scoring.immediate_points(state, seat, board.mask_of(cells))
        if best is None or pts > best:
            best, best_p = pts, (p, cells)
    if best_p is None:
        return PlanPreview(region, action, None, 0, frozenset())
    p, cells = best_p
    return PlanPreview(region, action, best, len(places), frozenset(cover), p.anchor, p.rotation, tuple(cells))


def plan_previews(state: GameState, seat: int) -> dict[tuple[str, str], PlanPreview]:
    """Every region card of the round with every action card A, B, C (the cards played
    last round included: the screen greys them)."""
    return {(r, a): preview_pair(state, seat, r, a) for r in state.region_cards() for a in PLAN_ACTIONS}
