"""Is an action legal now? If not, which rule fails and why, in words.

``check`` answers for any action; ``legal_actions`` lists them for a seat.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from . import hexgrid
from .actions import ACTION_CARDS, ACTION_NAMES, INACTIVE, Action, Donate, Place, Plan, Setup, Wedding
from .board import shift
from .placement import placements
from .state import GameState


@dataclass(frozen=True)
class Illegal:
    """Why an action is illegal: the failing rule's id and a sentence for the player."""

    rule: str
    message: str

    def __str__(self) -> str:
        return f"{self.rule}: {self.message}"


class IllegalAction(ValueError):
    """Raised by ``apply`` for an illegal action; carries the failing rule."""

    def __init__(self, action: Action, why: Illegal):
        super().__init__(f"illegal action {action.to_text()!r}: {why}")
        self.action = action
        self.why = why
        self.rule = why.rule


def _region_label(state: GameState, region: str) -> str:
    return "the inactive regions" if region == INACTIVE else state.content.region_names.get(region, region)


def check(state: GameState, action: Action) -> Optional[Illegal]:
    """None when ``action`` is legal in ``state``; otherwise the failing rule."""
    if isinstance(action, Setup):
        return _check_setup(state, action)
    if state.phase == "over":
        return Illegal("E3", "the game is over")
    seat = action.seat
    if not 0 <= seat < state.n:
        return Illegal("S1", f"there is no seat {seat}")
    if isinstance(action, Plan):
        return _check_plan(state, action)
    if state.phase != "place":
        return Illegal("R2", "every seat must plan before anybody places")
    if state.order[state.turn] != seat:
        return Illegal("R4", "it is not this seat's turn")
    if isinstance(action, Donate):
        return None  # R6: donation is always allowed
    if isinstance(action, Place):
        return check_place(state, action)
    if isinstance(action, Wedding):
        return check_wedding(state, action)
    return Illegal("R5", "unknown action")


def _check_setup(state: GameState, a: Setup) -> Optional[Illegal]:
    if state.phase != "setup":
        return Illegal("S2", "the game is already set up")
    try:
        sc = state.content.scenario(a.scenario)
    except KeyError:
        return Illegal("S2", f"there is no scenario tile {a.scenario!r}")
    if sc.seats != state.config.seats:
        return Illegal("S2", f"{sc.name} is a tile for {sc.seats} seats")
    if len(a.decks) != state.config.seats or len(a.objectives) != state.config.seats:
        return Illegal("S1", "one deck and one objective per seat")
    for d in a.decks:
        if sorted(d) != sorted(state.content.fiefs):
            return Illegal("S4", "each deck holds the twelve fief cards once")
    ids = {o.id for o in state.content.objectives}
    if len(set(a.objectives)) != len(a.objectives) or not set(a.objectives) <= ids:
        return Illegal("S5", "each seat gets a different objective card")
    if not 0 <= a.last_turn_seat < state.config.seats:
        return Illegal("S4", "the Last Turn card must go to a seat")
    return None


def plan_problem(state: GameState, seat: int, region: str, action: str, king: bool) -> Optional[Illegal]:
    """The card rules of a plan (S3, R2, R3, K1), without the phase."""
    s = state.seats[seat]
    if region not in state.region_cards():
        return Illegal("S3", f"{_region_label(state, region)} has no region card in this scenario")
    if action not in ACTION_CARDS:
        return Illegal("S3", f"{action!r} is not an action card")
    if region in s.unavailable:
        return Illegal("R3", f"the {_region_label(state, region)} card was played last round")
    if action in s.unavailable:
        return Illegal("R3", f"the {ACTION_NAMES[action]} card was played last round")
    if king:
        if "K" in s.unavailable:
            return Illegal("K4", "the King's Privilege was played last round")
        if s.rings < 1:
            return Illegal("K1", "the King's Privilege needs a ring in supply")
    return None


def _check_plan(state: GameState, a: Plan) -> Optional[Illegal]:
    if state.phase != "plan":
        return Illegal("R2", "plans are made before the reveal")
    if state.seats[a.seat].plan is not None:
        return Illegal("R2", "this seat has already planned this round")
    return plan_problem(state, a.seat, a.region, a.action, a.king)


def placement_problem(state: GameState, seat: int, fief: int, anchor, rotation: int,
                      region: str, action: str) -> Optional[Illegal]:
    """Why this fief may not go here under this plan (P1-P9), or None."""
    board = state.board
    o = board.orientation(fief, rotation)
    a = board.index_of.get(anchor)
    mask = 0 if a is None else board.placement_mask(a, o)
    if a is None or mask & board.valid != mask:
        return Illegal("P6", "part of the fief would hang off the map")
    if mask & state.all_fiefs:
        return Illegal("P7", "a fief is already there")
    if mask & state.seats[seat].ring_mask:
        return Illegal("P7", "one of your own rings is there")
    for off in o.castle_offsets:
        if not board.land >> (a + off) & 1:
            return Illegal("P8", "a castle would stand on the sea")
    for off, d in o.edges:
        if board.barrier[d] >> (a + off) & 1:
            return Illegal("P9", "the fief would cross a barrier")
    if not mask & board.region_mask(region, state.flourishing):
        return Illegal("P1", f"no hex of the fief is in {_region_label(state, region)}")
    h = (mask & board.harbor).bit_count()
    c = (mask & board.city).bit_count()
    if action == "A" and (h == 0 or c > 0):
        return Illegal("P2", "Harbors: cover at least one harbor and no city" if c == 0
                       else "Harbors: the fief may not cover a city")
    if action == "B" and h > 0:
        return Illegal("P3", "Cities: the fief may not cover a harbor")
    if action == "C" and (h == 0 or c == 0):
        return Illegal("P4", "Alliance: cover at least one city and one harbor (or hold a wedding)")
    return None


def check_place(state: GameState, a: Place) -> Optional[Illegal]:
    s = state.seats[a.seat]
    if a.fief != s.fief:
        return Illegal("R1", f"this round's fief is {s.fief}, not {a.fief}")
    if not 0 <= a.rotation <= 5:
        return Illegal("P10", "a rotation is 0 to 5 sixths of a turn")
    return placement_problem(state, a.seat, a.fief, a.anchor, a.rotation, s.plan.region, s.plan.action)


def ring_problem(state: GameState, seat: int, h, taken: int = 0) -> Optional[Illegal]:
    """Why a ring of ``seat`` may not go on ``h`` (P6, W4), or None."""
    board = state.board
    if not board.on_board(h):
        return Illegal("P6", "a ring must go on a hex of the map")
    i = board.index_of[h]
    if state.seats[seat].fief_mask >> i & 1:
        return Illegal("W4", "a ring may not go on your own fief")
    if (state.all_rings | taken) >> i & 1:
        return Illegal("W4", "that hex already has a ring")
    return None


def check_wedding(state: GameState, a: Wedding) -> Optional[Illegal]:
    s = state.seats[a.seat]
    if s.plan.action != "C":
        return Illegal("W1", "a wedding needs the Alliance card")
    if not 1 <= len(a.rings) <= 2:
        return Illegal("W3", "a wedding places one or two rings")
    if s.rings < len(a.rings):
        return Illegal("W6", "not enough rings in supply")
    board = state.board
    taken = 0
    for h in a.rings:
        why = ring_problem(state, a.seat, h, taken)
        if why:
            return why
        taken |= 1 << board.index_of[h]
    rmask = board.region_mask(s.plan.region, state.flourishing)
    in_region = [bool(rmask >> board.index_of[h] & 1) for h in a.rings]
    if not any(in_region):
        return Illegal("W2", f"the first ring must go in {_region_label(state, s.plan.region)}")
    if len(a.rings) == 2 and not hexgrid.are_adjacent(*a.rings):
        return Illegal("W3", "the second ring must be next to the first")
    return None


# ---------------------------------------------------------------- generators

def legal_plans(state: GameState, seat: int) -> list[Plan]:
    """Every plan the seat may make (S3, R3, K1, K4), in a fixed order."""
    s = state.seats[seat]
    gone = s.unavailable
    king_ok = s.rings >= 1 and "K" not in gone
    out = []
    for region in state.region_cards():
        if region in gone:
            continue
        for action in ACTION_CARDS:
            if action in gone:
                continue
            out.append(Plan(seat, region, action, False))
            if king_ok:
                out.append(Plan(seat, region, action, True))
    return out


def legal_placements(state: GameState, seat: int, region: Optional[str] = None,
                     action: Optional[str] = None, fief: Optional[int] = None) -> list[Place]:
    """Every distinct legal placement of the seat's fief (default: under its plan)."""
    s = state.seats[seat]
    fief = s.fief if fief is None else fief
    region = s.plan.region if region is None else region
    action = s.plan.action if action is None else action
    board = state.board
    spots = placements(board, fief, board.region_mask(region, state.flourishing), action,
                       state.all_fiefs, s.ring_mask)
    return [Place(seat, fief, a, k) for a, k in spots]


def legal_weddings(state: GameState, seat: int, region: Optional[str] = None) -> list[Wedding]:
    """Every legal wedding, each ring set once (rings in (r, q) order)."""
    s = state.seats[seat]
    if s.rings < 1:
        return []
    region = s.plan.region if region is None else region
    board = state.board
    blocked = s.fief_mask | state.all_rings
    open_hexes = board.valid & ~blocked
    first = board.region_mask(region, state.flourishing) & open_hexes
    sets = sorted(ks for _, ks in wedding_ring_sets(board, first, open_hexes, s.rings >= 2))
    hex_at = board.hex_at
    return [Wedding(seat, tuple(hex_at[i] for i in rs)) for rs in sets]


def wedding_ring_sets(board, first: int, second: int, pairs: bool, single: int = -1):
    """Each ring set of a wedding once, as (mask, bit indices in bit order, which is (r, q)
    order): one ring on a hex of ``first`` that is also in ``single``, then (with ``pairs``,
    W3) a ring on ``first`` and a second beside it on ``second``. The caller's masks say
    which hexes are open: W2 puts ``first`` in the planned region, W4 keeps rings off the
    seat's fiefs and off every ring, W6 allows a pair only with two rings in supply.

    The order (by first ring, singles before pairs, neighbours in ``board.deltas`` order) is
    part of the contract: the AI's tables and seeded bots read the sets in it."""
    seen = set()
    deltas = board.deltas
    for i in _iter_bits(first):
        options = [(i,)] if single >> i & 1 else []
        if pairs:
            options += [(i, i + d) if d > 0 else (i + d, i) for d in deltas if second >> (i + d) & 1]
        for ks in options:
            if ks not in seen:
                seen.add(ks)
                mask = 0
                for k in ks:
                    mask |= 1 << k
                yield mask, ks


def _iter_bits(mask: int):
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def legal_actions(state: GameState, seat: int) -> list[Action]:
    """Everything ``seat`` may do now, in a fixed order (empty if it may not act)."""
    if seat not in state.to_act():
        return []
    if state.phase == "plan":
        return list(legal_plans(state, seat))
    s = state.seats[seat]
    acts: list[Action] = list(legal_placements(state, seat))
    if s.plan.action == "C":
        acts.extend(legal_weddings(state, seat))
    acts.append(Donate(seat))
    return acts


def is_legal(state: GameState, action: Action) -> bool:
    return check(state, action) is None


__all__ = ["Illegal", "IllegalAction", "check", "is_legal", "legal_actions", "legal_plans",
           "legal_placements", "legal_weddings", "placement_problem", "plan_problem",
           "ring_problem", "shift", "wedding_ring_sets"]
