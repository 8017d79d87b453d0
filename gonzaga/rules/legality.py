"""Is an action legal now? If not, which rule fails and why (a refusal key of ``refusals``).

``check`` answers for any action; ``legal_actions`` lists them for a seat.
"""
from __future__ import annotations

from typing import Iterator, Optional

from . import hexgrid
from .actions import ACTION_CARDS, INACTIVE, Action, Donate, Place, Plan, Setup, Wedding
from .board import Board, shift
from .hexgrid import Hex
from .placement import placements
from .refusals import Illegal
from .state import GameState


class IllegalAction(ValueError):
    """Raised by ``apply`` for an illegal action; carries the failing rule."""

    def __init__(self, action: Action, why: Illegal):
        super().__init__(f"illegal action {action.to_text()!r}: {why}")
        self.action = action
        self.why = why
        self.rule = why.rule


def _in_region(rule: str, key: str, state: GameState, region: str) -> Illegal:
    """A refusal naming a planned region: the inactive regions have a key of their own."""
    if region == INACTIVE:
        return Illegal.of(rule, f"{key}_inactive")
    return Illegal.of(rule, key, region=state.content.region_names.get(region, region))


def check(state: GameState, action: Action) -> Optional[Illegal]:
    """None when ``action`` is legal in ``state``; otherwise the failing rule."""
    if isinstance(action, Setup):
        return _check_setup(state, action)
    if state.phase == "over":
        return Illegal.of("E3", "game_over")
    seat = action.seat
    if not 0 <= seat < state.n:
        return Illegal.of("S1", "no_seat", seat=seat)
    if isinstance(action, Plan):
        return _check_plan(state, action)
    if state.phase != "place":
        return Illegal.of("R2", "plan_first")
    if state.order[state.turn] != seat:
        return Illegal.of("R4", "not_your_turn")
    if isinstance(action, Donate):
        return None  # R6: donation is always allowed
    if isinstance(action, Place):
        return check_place(state, action)
    if isinstance(action, Wedding):
        return check_wedding(state, action)
    return Illegal.of("R5", "unknown_action")


def _check_setup(state: GameState, a: Setup) -> Optional[Illegal]:
    if state.phase != "setup":
        return Illegal.of("S2", "set_up_already")
    try:
        sc = state.content.scenario(a.scenario)
    except KeyError:
        return Illegal.of("S2", "no_scenario", scenario=a.scenario)
    if sc.seats != state.config.seats:
        return Illegal.of("S2", "scenario_seats", scenario=sc.name, seats=sc.seats)
    if len(a.decks) != state.config.seats or len(a.objectives) != state.config.seats:
        return Illegal.of("S1", "deck_per_seat")
    for d in a.decks:
        if sorted(d) != sorted(state.content.fiefs):
            return Illegal.of("S4", "deck_cards")
    ids = {o.id for o in state.content.objectives}
    if len(set(a.objectives)) != len(a.objectives) or not set(a.objectives) <= ids:
        return Illegal.of("S5", "objective_cards")
    if not 0 <= a.last_turn_seat < state.config.seats:
        return Illegal.of("S4", "last_turn_seat")
    return None


def plan_problem(state: GameState, seat: int, region: str, action: str, king: bool) -> Optional[Illegal]:
    """The card rules of a plan (S3, R2, R3, K1), without the phase."""
    s = state.seats[seat]
    if region not in state.region_cards():
        return _in_region("S3", "no_region_card", state, region)
    if action not in ACTION_CARDS:
        return Illegal.of("S3", "not_action_card", card=action)
    if region in s.unavailable:
        return (Illegal.of("R3", "inactive_card_played") if region == INACTIVE else
                Illegal.of("R3", "region_card_played", region=state.content.region_names.get(region, region)))
    if action in s.unavailable:
        return Illegal.of("R3", "action_card_played", action=action)
    if king:
        if "K" in s.unavailable:
            return Illegal.of("K4", "king_played")
        if s.rings < 1:
            return Illegal.of("K1", "king_ring")
    return None


def _check_plan(state: GameState, a: Plan) -> Optional[Illegal]:
    if state.phase != "plan":
        return Illegal.of("R2", "plans_before_reveal")
    if state.seats[a.seat].plan is not None:
        return Illegal.of("R2", "planned_already")
    return plan_problem(state, a.seat, a.region, a.action, a.king)


def placement_problem(state: GameState, seat: int, fief: int, anchor: Hex, rotation: int,
                      region: str, action: str) -> Optional[Illegal]:
    """Why this fief may not go here under this plan (P1-P9), or None."""
    board = state.board
    o = board.orientation(fief, rotation)
    a = board.index_of.get(anchor)
    mask = 0 if a is None else board.placement_mask(a, o)
    if a is None or mask & board.valid != mask:
        return Illegal.of("P6", "off_map")
    if mask & state.all_fiefs:
        return Illegal.of("P7", "fief_there")
    if mask & state.seats[seat].ring_mask:
        return Illegal.of("P7", "own_ring_there")
    for off in o.castle_offsets:
        if not board.land >> (a + off) & 1:
            return Illegal.of("P8", "castle_on_sea")
    for off, d in o.edges:
        if board.barrier[d] >> (a + off) & 1:
            return Illegal.of("P9", "barrier")
    if not mask & board.region_mask(region, state.flourishing):
        return _in_region("P1", "not_in_region", state, region)
    h = (mask & board.harbor).bit_count()
    c = (mask & board.city).bit_count()
    if action == "A" and (h == 0 or c > 0):
        return Illegal.of("P2", "harbors_need" if c == 0 else "harbors_no_city")
    if action == "B" and h > 0:
        return Illegal.of("P3", "cities_no_harbor")
    if action == "C" and (h == 0 or c == 0):
        return Illegal.of("P4", "alliance_need")
    return None


def check_place(state: GameState, a: Place) -> Optional[Illegal]:
    s = state.seats[a.seat]
    if a.fief != s.fief:
        return Illegal.of("R1", "wrong_fief", fief=s.fief, asked=a.fief)
    if not 0 <= a.rotation <= 5:
        return Illegal.of("P10", "rotation")
    plan = s.plan
    assert plan is not None  # ``check`` lets only the seat whose turn it is place, after the reveal
    return placement_problem(state, a.seat, a.fief, a.anchor, a.rotation, plan.region, plan.action)


def ring_problem(state: GameState, seat: int, h: Hex, taken: int = 0) -> Optional[Illegal]:
    """Why a ring of ``seat`` may not go on ``h`` (P6, W4), or None."""
    board = state.board
    if not board.on_board(h):
        return Illegal.of("P6", "ring_off_map")
    i = board.index_of[h]
    if state.seats[seat].fief_mask >> i & 1:
        return Illegal.of("W4", "ring_own_fief")
    if (state.all_rings | taken) >> i & 1:
        return Illegal.of("W4", "ring_there")
    return None


def check_wedding(state: GameState, a: Wedding) -> Optional[Illegal]:
    s = state.seats[a.seat]
    plan = s.plan
    assert plan is not None  # as in check_place
    if plan.action != "C":
        return Illegal.of("W1", "wedding_card")
    if not 1 <= len(a.rings) <= 2:
        return Illegal.of("W3", "wedding_rings")
    if s.rings < len(a.rings):
        return Illegal.of("W6", "rings_short")
    board = state.board
    taken = 0
    for h in a.rings:
        why = ring_problem(state, a.seat, h, taken)
        if why:
            return why
        taken |= 1 << board.index_of[h]
    rmask = board.region_mask(plan.region, state.flourishing)
    in_region = [bool(rmask >> board.index_of[h] & 1) for h in a.rings]
    if not any(in_region):
        return _in_region("W2", "first_ring", state, plan.region)
    if len(a.rings) == 2 and not hexgrid.are_adjacent(*a.rings):
        return Illegal.of("W3", "second_ring")
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
    if region is None or action is None:
        plan = s.plan
        assert plan is not None, "no plan: say the region and action"
        region = plan.region if region is None else region
        action = plan.action if action is None else action
    assert fief is not None, "no fief card: say the fief"
    board = state.board
    spots = placements(board, fief, board.region_mask(region, state.flourishing), action,
                       state.all_fiefs, s.ring_mask)
    return [Place(seat, fief, a, k) for a, k in spots]


def legal_weddings(state: GameState, seat: int, region: Optional[str] = None) -> list[Wedding]:
    """Every legal wedding, each ring set once (rings in (r, q) order)."""
    s = state.seats[seat]
    if s.rings < 1:
        return []
    if region is None:
        plan = s.plan
        assert plan is not None, "no plan: say the region"
        region = plan.region
    board = state.board
    blocked = s.fief_mask | state.all_rings
    open_hexes = board.valid & ~blocked
    first = board.region_mask(region, state.flourishing) & open_hexes
    sets = sorted(ks for _, ks in wedding_ring_sets(board, first, open_hexes, s.rings >= 2))
    hex_at = board.hex_at
    return [Wedding(seat, tuple(hex_at[i] for i in rs)) for rs in sets]


def wedding_ring_sets(board: Board, first: int, second: int, pairs: bool,
                      single: int = -1) -> Iterator[tuple[int, tuple[int, ...]]]:
    """Each ring set of a wedding once, as (mask, bit indices in bit order, which is (r, q)
    order): one ring on a hex of ``first`` that is also in ``single``, then (with ``pairs``,
    W3) a ring on ``first`` and a second beside it on ``second``. The caller's masks say
    which hexes are open: W2 puts ``first`` in the planned region, W4 keeps rings off the
    seat's fiefs and off every ring, W6 allows a pair only with two rings in supply.

    The order (by first ring, singles before pairs, neighbours in ``board.deltas`` order) is
    part of the contract: the AI's tables and seeded bots read the sets in it."""
    seen: set[tuple[int, ...]] = set()
    deltas = board.deltas
    for i in _iter_bits(first):
        options: list[tuple[int, ...]] = [(i,)] if single >> i & 1 else []
        if pairs:
            options += [(i, i + d) if d > 0 else (i + d, i) for d in deltas if second >> (i + d) & 1]
        for ks in options:
            if ks not in seen:
                seen.add(ks)
                mask = 0
                for k in ks:
                    mask |= 1 << k
                yield mask, ks


def _iter_bits(mask: int) -> Iterator[int]:
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
    if s.plan is not None and s.plan.action == "C":
        acts.extend(legal_weddings(state, seat))
    acts.append(Donate(seat))
    return acts


def is_legal(state: GameState, action: Action) -> bool:
    return check(state, action) is None


__all__ = ["Illegal", "IllegalAction", "check", "is_legal", "legal_actions", "legal_plans",
           "legal_placements", "legal_weddings", "placement_problem", "plan_problem",
           "ring_problem", "shift", "wedding_ring_sets"]
