"""The placement generator: every legal spot of a fief under a plan, all anchors at once.

For each distinct rotation the legal anchors are one bitmask (bit ``a`` set: the
fief's anchor cell may go on hex ``a``), built from the board's masks by shifts.
``brute_force_placements`` checks the same thing hex by hex for the tests.
"""
from __future__ import annotations

from .board import Board, Orientation, bits, shift
from .hexgrid import Hex


def anchor_masks(board: Board, fief: int, region_mask: int, action: str,
                 fiefs_on_board: int, own_rings: int) -> list[tuple[Orientation, int]]:
    """Per distinct rotation, the mask of anchors where the fief is legal (P1-P10)."""
    free = board.valid & ~fiefs_on_board & ~own_rings  # P6, P7
    land = board.land
    harbor = board.harbor
    city = board.city
    barrier = board.barrier
    out = []
    for o in board.orientations[fief]:
        m = -1
        for off in o.offsets:  # P6, P7 (shifts inlined: this is the engine's hottest loop)
            m &= free >> off if off >= 0 else free << -off
        for off in o.castle_offsets:  # P8
            m &= land >> off if off >= 0 else land << -off
        if m:
            touch = h = c = 0
            for off in o.offsets:
                if off >= 0:
                    touch |= region_mask >> off
                    h |= harbor >> off
                    c |= city >> off
                else:
                    touch |= region_mask << -off
                    h |= harbor << -off
                    c |= city << -off
            m &= touch  # P1
            if action == "A":  # P2: a harbor, no city
                m &= h & ~c
            elif action == "B":  # P3: no harbor (so: cities only, or no site at all)
                m &= ~h
            else:  # P4: a city and a harbor
                m &= h & c
            for off, d in o.edges:  # P9
                m &= ~shift(barrier[d], off)
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
