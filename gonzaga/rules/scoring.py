"""Scoring (X1-X6) as pure functions of the board and the pieces."""
from __future__ import annotations

from typing import Sequence

from .state import GameState, SeatState

SITE_FLOURISHING = 3  # X1
SITE_INACTIVE = 1  # X1
SEA_LEAGUE = 10  # X2
SEA_LEAGUE_HARBORS = 3  # X2
DONATION = 3  # X3
GONZAGA_TILE = 15  # X4
OBJECTIVE_TABLE = (0, 2, 5, 10, 15, 25, 35)  # X5: points by cities held, 0-6


def site_points(state: GameState, new_mask: int) -> int:
    """X1: 3 per site under ``new_mask`` in a flourishing region, 1 per site elsewhere."""
    board = state.board
    covered = new_mask & board.sites
    if not covered:
        return 0
    flourishing = covered & board.flourishing_sites(state.flourishing)
    return SITE_FLOURISHING * flourishing.bit_count() + SITE_INACTIVE * (covered ^ flourishing).bit_count()


def new_leagues(state: GameState, seat: SeatState, new_mask: int) -> list[str]:
    """X2: seas in which the seat reaches 3 harbors for the first time with ``new_mask``."""
    held = seat.held | new_mask
    out = []
    for sea, harbors in state.board.sea_harbors.items():
        if sea not in seat.leagues and (held & harbors).bit_count() >= SEA_LEAGUE_HARBORS:
            out.append(sea)
    return out


def immediate_points(state: GameState, seat: int, new_mask: int) -> int:
    """Points a new fief or ring(s) on ``new_mask`` would score now (X1 + X2)."""
    s = state.seats[seat]
    return site_points(state, new_mask) + SEA_LEAGUE * len(new_leagues(state, s, new_mask))


def largest_group(state: GameState, seat: int) -> int:
    """X4: pieces in the seat's largest group of pieces sharing hex sides (barriers ignored)."""
    board = state.board
    masks = [p.mask for p in state.pieces if p.seat == seat]
    if not masks:
        return 0
    grown = [board.neighbours_mask(m) | m for m in masks]
    seen = [False] * len(masks)
    best = 0
    for i in range(len(masks)):
        if seen[i]:
            continue
        seen[i] = True
        stack = [i]
        size = 0
        while stack:
            j = stack.pop()
            size += 1
            for k in range(len(masks)):
                if not seen[k] and grown[j] & masks[k]:
                    seen[k] = True
                    stack.append(k)
        best = max(best, size)
    return best


def objective_cities_held(state: GameState, seat: int) -> int:
    s = state.seats[seat]
    if s.objective is None:
        return 0
    board = state.board
    cities = board.mask_of(state.content.objective_cities(s.objective))
    return (s.held & cities).bit_count()


def sites_held(state: GameState, seat: int) -> int:
    """Cities and harbors the seat holds (the X6 tie-break)."""
    return (state.seats[seat].held & state.board.sites).bit_count()


def free_flourishing_sites(state: GameState) -> int:
    """E1: sites in flourishing regions that nobody holds."""
    held = state.all_fiefs | state.all_rings
    return (state.board.flourishing_sites(state.flourishing) & ~held).bit_count()


def gonzaga_tile(groups: Sequence[int]) -> list[int]:
    """X4: the Gonzaga tile's points per seat, from each seat's largest group: every seat
    with the largest group scores it (a shared tile is scored in full by each), and nobody
    without a piece on the board."""
    best = max(groups)
    return [GONZAGA_TILE if best > 0 and g == best else 0 for g in groups]


def winners(totals: Sequence[int], sites: Sequence[int]) -> list[int]:
    """X6: the seats with the highest total; a tie goes to the most sites held (``sites``: the
    cities and harbors each seat holds); still tied, a shared victory."""
    top = max(totals)
    leaders = [i for i in range(len(totals)) if totals[i] == top]
    if len(leaders) == 1:
        return leaders
    held = {i: sites[i] for i in leaders}
    most = max(held.values())
    winners = [i for i in leaders if held[i] == most]
    return winners


def recount(state: GameState) -> list[dict[str, int]]:
    """Every seat's points recomputed from the board alone (for tests and the end screen).

    Site points are per piece in placement order, since a site covered twice
    (a ring on a fief) scores for both pieces.
    """
    out = []
    for i, s in enumerate(state.seats):
        sites = 0
        held = 0
        leagues = 0
        seen_leagues: set[str] = set()
        for p in state.pieces:
            if p.seat != i:
                continue
            sites += site_points(state, p.mask)
            held |= p.mask
            for sea, harbors in state.board.sea_harbors.items():
                if sea not in seen_leagues and (held & harbors).bit_count() >= SEA_LEAGUE_HARBORS:
                    seen_leagues.add(sea)
                    leagues += SEA_LEAGUE
        out.append({"sites": sites, "leagues": leagues, "donations": DONATION * s.donations})
    return out
