"""Two simple bots the rest of the project leans on: ``random`` and ``greedy``."""
from __future__ import annotations

from ..rules import Action, Donate, GameState, Place, Plan, Wedding, legal_actions, legal_plans, wedding_ring_sets
from ..rules import scoring
from ..rules.board import bits, shift
from ..rules.placement import anchor_masks
from .base import Bot


class RandomBot(Bot):
    """Uniform over the legal actions."""

    name = "random"

    def choose(self, view: GameState, seat: int) -> Action:
        return self.rng.choice(legal_actions(view, seat))


def scoring_placements(state: GameState, seat: int, region: str, action: str,
                       fief: int | None = None) -> list[tuple[int, Place]]:
    """(points, placement) for every legal placement that scores (X1 + X2) under a plan."""
    board = state.board
    s = state.seats[seat]
    fief = s.fief if fief is None else fief
    assert fief is not None  # a seat places in the place phase, with its fief
    out: list[tuple[int, Place]] = []
    for o, m in anchor_masks(board, fief, board.region_mask(region, state.flourishing), action,
                             state.all_fiefs, s.ring_mask):
        if not m:
            continue
        touch_site = 0
        for off in o.offsets:
            touch_site |= shift(board.sites, off)
        for a in bits(m & touch_site):
            mask = board.placement_mask(a, o)
            out.append((scoring.immediate_points(state, seat, mask),
                        Place(seat, fief, board.hex_at[a], o.rotation)))
    return out


def scoring_weddings(state: GameState, seat: int, region: str) -> list[tuple[int, Wedding]]:
    """(points, wedding) for weddings whose rings stand on at least one site."""
    board = state.board
    s = state.seats[seat]
    if s.rings < 1:
        return []
    blocked = s.fief_mask | state.all_rings
    free_sites = board.sites & ~blocked
    first = board.region_mask(region, state.flourishing) & ~blocked
    hex_at = board.hex_at
    return [(scoring.immediate_points(state, seat, mask), Wedding(seat, tuple(hex_at[k] for k in ks)))
            for mask, ks in wedding_ring_sets(board, first, free_sites, s.rings >= 2, single=free_sites)]


def best_scoring(state: GameState, seat: int, region: str, action: str,
                 fief: int | None = None) -> list[tuple[int, Action]]:
    opts: list[tuple[int, Action]] = list(scoring_placements(state, seat, region, action, fief))
    if action == "C":
        opts.extend(scoring_weddings(state, seat, region))
    return opts


class GreedyBot(Bot):
    """Most immediate points; never donates when a scoring placement exists.

    Planning: the plan (without the King's Privilege) whose best placement
    scores most on the board as it stands. Placing: the best-scoring legal
    action under the revealed plan, else a donation (3 points).
    """

    name = "greedy"

    def choose(self, view: GameState, seat: int) -> Action:
        if view.phase == "plan":
            return self._plan(view, seat)
        s = view.seats[seat]
        assert s.plan is not None  # the place phase: every seat has planned
        opts = best_scoring(view, seat, s.plan.region, s.plan.action)
        if opts:
            top = max(p for p, _ in opts)
            return self.rng.choice([a for p, a in opts if p == top])
        return Donate(seat)

    def _plan(self, view: GameState, seat: int) -> Plan:
        plans = [p for p in legal_plans(view, seat) if not p.king]
        best: float = -1
        choices: list[Plan] = []
        for p in plans:
            opts = best_scoring(view, seat, p.region, p.action)
            # weddings spend rings: value them a little below an equal fief placement
            pts = max((pts - (0.5 if isinstance(a, Wedding) else 0) for pts, a in opts), default=0)
            if pts > best:
                best, choices = pts, [p]
            elif pts == best:
                choices.append(p)
        return self.rng.choice(choices)
