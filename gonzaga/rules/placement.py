"""The placement generator: every legal spot of a fief under a plan, all anchors at once.

For each distinct rotation the legal anchors are one bitmask (bit ``a`` set: the
fief's anchor cell may go on hex ``a``), built from the board's masks by shifts.
``brute_force_placements`` checks the same thing hex by hex for the tests.
"""
from __future__ import annotations

from .board import Board, Orientation, bits
from .hexgrid import Hex


def anchor_masks(board: Board, fief: int, region_mask: int, action: str,
                 fiefs_on_board: int, own_rings: int) -> list[tuple[Orientation, int]]:
    """Per distinct rotation, the mask of anchors where the fief is legal (P1-P10).

    The parts that never change (on the map, castles on land, barriers, which anchors
    cover a harbor or a city) are precomputed per orientation by the board; only the
    pieces already placed are shifted here.
    """
    occupied = fiefs_on_board | own_rings  # P7: no fief under, not the seat's own ring
    out = []
    for o in board.orientations[fief]:
        blocked = 0
        for off in o.offsets:  # shifts inlined: this is the engine's hottest loop
            blocked |= occupied >> off if off >= 0 else occupied << -off
        m = o.ok & ~blocked  # P6, P7, P8, P9
        if m:
            m &= board.region_touch(o, region_mask)  # P1
            if action == "A":  # P2: a harbor, no city
                m &= o.harbor_touch & ~o.city_touch
            elif action == "B":  # P3: no harbor (so: cities only, or no site at all)
                m &= ~o.harbor_touch
            else:  # P4: a city and a harbor
                m &= o.harbor_touch & o.city_touch
        out.append((o, m))
    return out


def placements(board: Board, fief: int, region_mask: int, action: str,
               fiefs_on_board: int, own_rings: int) -> list[tuple[Hex, int]]:
    """Legal (anchor hex, rotation) pairs, one per distinct placement, sorted."""
    res = []
    hex_at = board.hex_at
    for o, m in anchor_masks(board, fief, region_mask, action, fiefs_on_board, own_rings):
        for a in bits(m):
            res.append((hex_at[a], o.rotation))
    res.sort(key=lambda p: (p[0][1], p[0][0], p[1]))
    return res


def count_placements(board: Board, fief: int, region_mask: int, action: str,
                     fiefs_on_board: int, own_rings: int) -> int:
    return sum(m.bit_count() for _, m in
               anchor_masks(board, fief, region_mask, action, fiefs_on_board, own_rings))
