"""Position knowledge shared by the AI levels: what a piece is worth, what a position is worth.

Everything here reads a state (a seat's view, or a determinized full state) and never
changes it. Values are in game points, so the terms can be added:

- immediate points (X1 sites, X2 sea leagues, X3 donation);
- the objective (X5): the step in the objective table when a new objective city is held
  (pieces never leave the board, so a held city is worth its points for certain);
- sea-league progress (X2): a potential for 1 or 2 harbors of a sea, while enough of that
  sea's harbors are still free;
- the largest dominion (X4, 15 points): growth of the seat's largest group of pieces;
- rings (K1, W6): a ring in supply is worth something while rounds remain to use it;
- blocking: taking a harbor a rival needs for a sea league.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Optional

from ..rules import Action, Donate, GameState, Place, Plan, Wedding, legal_plans, wedding_ring_sets
from ..rules import scoring
from ..rules.board import bits, shift
from ..rules.placement import anchor_masks
from ..rules.scoring import SEA_LEAGUE_HARBORS

OBJ = scoring.OBJECTIVE_TABLE
LEAGUE_POT = (0.0, 1.5, 4.5)  # potential of holding 0, 1, 2 harbors of a sea without a league
GROUP_STEP = 2.2  # points per piece added to the largest group (a race for 15 points)
RING_VALUE = 1.5  # a ring in supply, while rounds remain
BLOCK_TWO = 3.0  # taking a free harbor of a sea where a rival holds 2 and has no league
BLOCK_ONE = 0.5
DONATION = float(scoring.DONATION)


def rounds_left(state: GameState, seat: int) -> int:
    """Rounds after this one (at most): the cards left in the seat's deck."""
    s = state.seats[seat]
    n = len(s.deck)
    if state.last_round is not None:
        n = min(n, max(0, state.last_round - state.round))
    return n


def components(state: GameState, seat: int) -> list[list[int]]:
    """The seat's groups (X4) as [hex mask, grown mask, pieces], largest first."""
    board = state.board
    comps: list[list[int]] = []
    for p in state.pieces:
        if p.seat != seat:
            continue
        grown = board.neighbours_mask(p.mask) | p.mask
        merged = [p.mask, grown, 1]
        keep = []
        for c in comps:
            if c[1] & p.mask or grown & c[0]:
                merged[0] |= c[0]
                merged[1] |= c[1]
                merged[2] += c[2]
            else:
                keep.append(c)
        keep.append(merged)
        comps = keep
    comps.sort(key=lambda c: -c[2])
    return comps


class SeatContext:
    """Per decision, per seat: the masks and counts the piece valuation needs."""

    def __init__(self, state: GameState, seat: int, objective: Optional[str] = None):
        self.state = state
        self.seat = seat
        board = self.board = state.board
        s = self.s = state.seats[seat]
        self.held = s.held
        objective = objective if objective is not None else s.objective
        self.obj_mask = (board.mask_of(state.content.objective_cities(objective))
                         if objective else 0)
        self.obj_held = (self.held & self.obj_mask).bit_count()
        self.left = rounds_left(state, seat)
        taken = state.all_fiefs | state.all_rings
        self.free_sites = board.sites & ~taken
        # sea leagues: my count per sea, and the seas where a rival is close
        self.seas = []  # (harbor mask, my count, free harbors, leagued)
        block = 0
        block1 = 0
        for sea, hm in board.sea_harbors.items():
            mine = (self.held & hm).bit_count()
            free = (hm & self.free_sites).bit_count()
            self.seas.append((hm, mine, free, sea in s.leagues))
            for j, r in enumerate(state.seats):
                if j == seat or sea in r.leagues:
                    continue
                k = (r.held & hm).bit_count()
                if k == 2:
                    block |= hm
                elif k == 1:
                    block1 |= hm
        self.block2 = block & self.free_sites
        self.block1 = block1 & self.free_sites & ~self.block2
        self.comps = components(state, seat)
        self.largest = self.comps[0][2] if self.comps else 0
        self.own_near = board.neighbours_mask(self.held) if self.held else 0
        self.time_scale = min(1.0, (self.left + 1) / 4.0)
        self.ring_value = RING_VALUE if s.rings <= self.left + 1 else RING_VALUE * 0.5
        if self.left == 0:
            self.ring_value = 0.0

    def value(self, mask: int, rings: int = 0) -> float:
        """Worth of a new piece (fief, or ``rings`` rings) on ``mask`` for this seat."""
        state = self.state
        v = float(scoring.immediate_points(state, self.seat, mask))
        new = mask & ~self.held
        if self.obj_mask:
            k = (new & self.obj_mask).bit_count()
            if k:
                v += OBJ[min(6, self.obj_held + k)] - OBJ[self.obj_held]
        if new & self.board.harbor:
            ts = self.time_scale
            for hm, mine, free, leagued in self.seas:
                k = (new & hm).bit_count()
                if not k or leagued:
                    continue
                after = mine + k
                if after >= SEA_LEAGUE_HARBORS:
                    continue  # the league itself is in the immediate points
                free_after = free - (mask & hm & self.free_sites).bit_count()
                pot_after = LEAGUE_POT[after] if after + free_after >= SEA_LEAGUE_HARBORS else 0.0
                pot_before = LEAGUE_POT[mine] if mine + free >= SEA_LEAGUE_HARBORS else 0.0
                v += ts * (pot_after - pot_before)
            b2 = (mask & self.block2).bit_count()
            b1 = (mask & self.block1).bit_count()
            v += ts * (BLOCK_TWO * b2 + BLOCK_ONE * b1)
        # X4: pieces joined to the largest group
        pieces = rings if rings else 1
        if self.comps:
            grown = self.board.neighbours_mask(mask) | mask
            size = pieces
            for c in self.comps:
                if c[0] & grown:
                    size += c[2]
            gain = size - self.largest
            if gain > 0:
                v += GROUP_STEP * gain
        else:
            v += GROUP_STEP * pieces
        if rings:
            v -= self.ring_value * rings
        return v


# ---------------------------------------------------------------- candidates

def placement_candidates(ctx: SeatContext, region: str, action: str, fief: Optional[int] = None,
                         limit_plain: int = 1) -> list[tuple[float, Action, int]]:
    """(value, placement) for the placements worth considering under a plan.

    Every placement that covers a site or touches the seat's own pieces, plus
    ``limit_plain`` others (a plain placement is worth little but is legal).
    """
    state = ctx.state
    board = ctx.board
    seat = ctx.seat
    s = ctx.s
    fief = s.fief if fief is None else fief
    assert fief is not None  # a seat places in the place phase, with its fief
    out: list[tuple[float, Action, int]] = []
    plain = limit_plain
    interesting_src = board.sites | ctx.own_near
    for o, m in anchor_masks(board, fief, board.region_mask(region, state.flourishing), action,
                             state.all_fiefs, s.ring_mask):
        if not m:
            continue
        touch = 0
        for off in o.offsets:
            touch |= shift(interesting_src, off)
        good = m & touch
        for a in bits(good):
            mask = board.placement_mask(a, o)
            out.append((ctx.value(mask), Place(seat, fief, board.hex_at[a], o.rotation), mask))
        rest = m & ~good
        while plain > 0 and rest:
            low = rest & -rest
            a = low.bit_length() - 1
            rest ^= low
            plain -= 1
            mask = board.placement_mask(a, o)
            out.append((ctx.value(mask), Place(seat, fief, board.hex_at[a], o.rotation), mask))
    return out


def wedding_candidates(ctx: SeatContext, region: str) -> list[tuple[float, Action, int]]:
    """(value, wedding) for weddings whose rings stand on sites or next to own pieces."""
    state = ctx.state
    board = ctx.board
    s = ctx.s
    if s.rings < 1:
        return []
    blocked = s.fief_mask | state.all_rings
    open_ = board.valid & ~blocked
    # a ring may score a site another seat's fief holds (W4, P5)
    useful = (board.sites | ctx.own_near) & open_
    first = board.region_mask(region, state.flourishing) & useful
    hex_at = board.hex_at
    return [(ctx.value(mask, rings=len(ks)), Wedding(ctx.seat, tuple(hex_at[k] for k in ks)), mask)
            for mask, ks in wedding_ring_sets(board, first, useful, s.rings >= 2)]


def action_candidates(ctx: SeatContext, region: str, action: str, fief: Optional[int] = None,
                      weddings: bool = True) -> list[tuple[float, Action, int]]:
    """Every candidate under a plan, best first, with the donation (always legal, R6)."""
    opts = placement_candidates(ctx, region, action, fief)
    if action == "C" and weddings:
        opts.extend(wedding_candidates(ctx, region))
    opts.append((DONATION, Donate(ctx.seat), 0))
    opts.sort(key=lambda x: -x[0])
    return opts


# ---------------------------------------------------------------- position value

def position_values(state: GameState, objectives: Optional[dict[int, str]] = None) -> list[float]:
    """Each seat's expected final score, as points: score so far plus potentials.

    ``objectives`` fills objectives the state does not know (a view); a seat with no
    known objective gets the objective points of the cities it holds on average.
    """
    if state.is_over:
        return [float(s.score) for s in state.seats]
    board = state.board
    taken = state.all_fiefs | state.all_rings
    free_sites = board.sites & ~taken
    n = state.n
    out = []
    groups = []
    for i, s in enumerate(state.seats):
        left = rounds_left(state, i)
        ts = min(1.0, (left + 1) / 4.0)
        v = float(s.site_points + s.league_points + s.donation_points)
        obj = s.objective or (objectives or {}).get(i)
        if obj:
            held = (s.held & board.mask_of(state.content.objective_cities(obj))).bit_count()
            v += OBJ[held]
        for sea, hm in board.sea_harbors.items():
            if sea in s.leagues:
                continue
            mine = (s.held & hm).bit_count()
            if mine and mine + (hm & free_sites).bit_count() >= SEA_LEAGUE_HARBORS:
                v += ts * LEAGUE_POT[min(mine, 2)]
        v += min(s.rings, left + 1) * (RING_VALUE if left else 0.0)
        comps = components(state, i)
        groups.append(comps[0][2] if comps else 0)
        out.append(v)
    temp = tile_temperature(rounds_left(state, 0))
    best = max(groups)
    weights = [math.exp((g - best) / temp) if g else 0.0 for g in groups]
    total = sum(weights) or 1.0
    return [out[i] + scoring.GONZAGA_TILE * weights[i] / total for i in range(n)]


def tile_temperature(left: int) -> float:
    """The softmax temperature of a seat's chance at the Gonzaga tile (X4) by the largest
    groups: sharper as the end nears (``left`` rounds after this one)."""
    return 0.6 + 0.6 * left


def win_utility(state: GameState, seat: int, values: Optional[list[float]] = None, scale: float = 8.0) -> float:
    """In [0, 1]: 1 for a sure win. At the end, the result (shared wins split)."""
    if state.is_over:
        return 1.0 / len(state.winners) if seat in state.winners else 0.0
    values = values if values is not None else position_values(state)
    mine = values[seat]
    rival = max(v for j, v in enumerate(values) if j != seat)
    return 1.0 / (1.0 + math.exp(-(mine - rival) / scale))


# ---------------------------------------------------------------- plan values

@dataclass
class PlanOption:
    plan: Plan
    value: float  # best candidate value under the plan, adjusted for contention
    best: list[tuple[float, Action, int]]  # the top candidates (value, action, mask)


def plan_table(ctx: SeatContext, plans: Optional[list[Plan]] = None, top: int = 6) -> list[PlanOption]:
    """For each legal plan: the candidates under it (K variants share their base plan's)."""
    state = ctx.state
    plans = plans if plans is not None else legal_plans(state, ctx.seat)
    cache: dict[tuple[str, str], list[tuple[float, Action, int]]] = {}
    out = []
    for p in plans:
        key = (p.region, p.action)
        if key not in cache:
            cache[key] = action_candidates(ctx, p.region, p.action)[:top]
        cands = cache[key]
        out.append(PlanOption(p, cands[0][0] if cands else DONATION, cands))
    return out
