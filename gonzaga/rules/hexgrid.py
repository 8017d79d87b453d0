"""Axial hex coordinates (pointy-top), as in Red Blob Games' hex guide.

A hex is a plain ``(q, r)`` tuple. The six neighbours of (q, r) are
(q±1, r), (q, r±1), (q+1, r-1), (q-1, r+1) (spec D1).
"""
from __future__ import annotations

import math
from typing import Iterable

Hex = tuple[int, int]

# Direction order is fixed: the bitboard shifts in ``board.py`` follow it.
# 0 east, 1 north-east, 2 north-west, 3 west, 4 south-west, 5 south-east
DIRECTIONS: tuple[Hex, ...] = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))

SQRT3 = math.sqrt(3.0)


def add(a: Hex, b: Hex) -> Hex:
    return (a[0] + b[0], a[1] + b[1])


def sub(a: Hex, b: Hex) -> Hex:
    return (a[0] - b[0], a[1] - b[1])


def neighbors(h: Hex) -> list[Hex]:
    """The six neighbours of ``h`` in direction order."""
    q, r = h
    return [(q + dq, r + dr) for dq, dr in DIRECTIONS]


def are_adjacent(a: Hex, b: Hex) -> bool:
    return sub(b, a) in DIRECTIONS


def distance(a: Hex, b: Hex) -> int:
    dq, dr = a[0] - b[0], a[1] - b[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def rotate(h: Hex, turns: int) -> Hex:
    """Rotate ``h`` about (0, 0) by ``turns`` sixths of a turn, clockwise on screen."""
    q, r = h
    for _ in range(turns % 6):
        # cube (q, r, s) -> (-r, -s, -q): one step clockwise with y pointing down
        q, r = -r, q + r
    return (q, r)


def normalize(cells: Iterable[Hex]) -> tuple[Hex, ...]:
    """Translate cells so the smallest (r, q) cell is at the origin; sorted."""
    cells = sorted(cells, key=lambda h: (h[1], h[0]))
    q0, r0 = cells[0]
    return tuple((q - q0, r - r0) for q, r in cells)


def components(cells: Iterable[Hex]) -> list[set[Hex]]:
    """The connected parts of a set of hexes, largest first."""
    cells, out = set(cells), []
    while cells:
        start = min(cells)
        part, stack = {start}, [start]
        while stack:
            for n in neighbors(stack.pop()):
                if n in cells and n not in part:
                    part.add(n)
                    stack.append(n)
        cells -= part
        out.append(part)
    return sorted(out, key=len, reverse=True)


def is_connected(cells: Iterable[Hex]) -> bool:
    return len(components(cells)) == 1


# ---- pixel conversion (unit circumradius); the renderer scales and offsets ----

def to_pixel(h: Hex, size: float = 1.0) -> tuple[float, float]:
    """Centre of a pointy-top hex of circumradius ``size``."""
    q, r = h
    return (size * SQRT3 * (q + r / 2.0), size * 1.5 * r)


def from_pixel(x: float, y: float, size: float = 1.0) -> Hex:
    """The hex containing the point (x, y)."""
    qf = (SQRT3 / 3.0 * x - y / 3.0) / size
    rf = (2.0 / 3.0 * y) / size
    return cube_round(qf, rf)


def cube_round(qf: float, rf: float) -> Hex:
    sf = -qf - rf
    q, r, s = round(qf), round(rf), round(sf)
    dq, dr, ds = abs(q - qf), abs(r - rf), abs(s - sf)
    if dq > dr and dq > ds:
        q = -r - s
    elif dr > ds:
        r = -q - s
    return (int(q), int(r))


def corners(h: Hex, size: float = 1.0) -> list[tuple[float, float]]:
    """The six corners of a pointy-top hex, starting at the top, clockwise."""
    cx, cy = to_pixel(h, size)
    out = []
    for i in range(6):
        ang = math.radians(60 * i - 90)
        out.append((cx + size * math.cos(ang), cy + size * math.sin(ang)))
    return out


def edge_corners(h: Hex, direction: int, size: float = 1.0) -> tuple[tuple[float, float], tuple[float, float]]:
    """The two corners of the side of ``h`` facing ``DIRECTIONS[direction]``."""
    c = corners(h, size)
    # corner i sits at angle 60*i-90; side facing direction d lies between the
    # corners around the direction's angle (east 0°, NE -60°, NW -120°, ...).
    k = {0: (1, 2), 1: (0, 1), 2: (5, 0), 3: (4, 5), 4: (3, 4), 5: (2, 3)}[direction]
    return c[k[0]], c[k[1]]
