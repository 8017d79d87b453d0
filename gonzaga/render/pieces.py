"""Pieces and shapes: merged hex outlines, fief sprites, castles, rings, drawing helpers.

Everything here takes plain data (hexes as ``(q, r)`` tuples, seats as colour names or
indices) and returns new surfaces or draws onto a given surface; nothing is mutated.
"""
from __future__ import annotations

import math
from typing import Iterable, Sequence

import pygame

from ..rules import hexgrid
from ..rules.hexgrid import Hex
from . import theme

Point = tuple[float, float]


# ---------------------------------------------------------------- geometry

def outline_loops(cells: Iterable[Hex]) -> list[list[Point]]:
    """Closed outlines (hex units, clockwise on screen) of the union of ``cells``.

    One loop per connected piece of the boundary; holes come out as extra loops."""
    cellset = set(cells)
    nxt: dict[tuple[int, int], tuple[tuple[int, int], Point, Point]] = {}

    def key(p: Point) -> tuple[int, int]:
        return (int(round(p[0] * 1000)), int(round(p[1] * 1000)))

    for h in cellset:
        for d in range(6):
            if hexgrid.add(h, hexgrid.DIRECTIONS[d]) in cellset:
                continue
            a, b = hexgrid.edge_corners(h, d)
            nxt[key(a)] = (key(b), a, b)
    loops: list[list[Point]] = []
    while nxt:
        start, (k, a, _b) = next(iter(nxt.items()))
        loop = [a]
        cur = start
        while True:
            k2, _a, b = nxt.pop(cur)
            if k2 == start:
                break
            loop.append(b)
            cur = k2
            if cur not in nxt:  # broken chain (should not happen); stop safely
                break
        loops.append(_drop_collinear(loop))
    return loops


def _drop_collinear(pts: list[Point]) -> list[Point]:
    out = []
    n = len(pts)
    for i in range(n):
        ax, ay = pts[i - 1]
        bx, by = pts[i]
        cx, cy = pts[(i + 1) % n]
        if abs((bx - ax) * (cy - by) - (by - ay) * (cx - bx)) > 1e-9:
            out.append(pts[i])
    return out or pts


def inset(poly: Sequence[Point], d: float) -> list[Point]:
    """Move a clockwise-on-screen polygon's edges inwards by ``d`` (miter joins)."""
    n = len(poly)
    if n < 3 or d == 0:
        return list(poly)
    lines = []
    for i in range(n):
        ax, ay = poly[i]
        bx, by = poly[(i + 1) % n]
        dx, dy = bx - ax, by - ay
        L = math.hypot(dx, dy) or 1.0
        nx, ny = -dy / L, dx / L  # inward normal for clockwise (y down)
        lines.append((ax + nx * d, ay + ny * d, dx, dy))
    out = []
    for i in range(n):
        x1, y1, dx1, dy1 = lines[i - 1]
        x2, y2, dx2, dy2 = lines[i]
        den = dx1 * dy2 - dy1 * dx2
        if abs(den) < 1e-12:
            out.append((x2, y2))
            continue
        t = ((x2 - x1) * dy2 - (y2 - y1) * dx2) / den
        out.append((x1 + dx1 * t, y1 + dy1 * t))
    return out


def thick_polyline(surf: pygame.Surface, color, pts: Sequence[Point], width: float, closed: bool = True) -> None:
    """A thick line through ``pts`` with round joins (pygame's own joins leave notches)."""
    n = len(pts)
    if n < 2:
        return
    r = width / 2.0
    segs = n if closed else n - 1
    for i in range(segs):
        ax, ay = pts[i]
        bx, by = pts[(i + 1) % n]
        dx, dy = bx - ax, by - ay
        L = math.hypot(dx, dy)
        if L < 1e-6:
            continue
        nx, ny = -dy / L * r, dx / L * r
        pygame.draw.polygon(surf, color, [(ax + nx, ay + ny), (bx + nx, by + ny), (bx - nx, by - ny), (ax - nx, ay - ny)])
    if r >= 1.0:
        for p in pts if closed else pts:
            pygame.draw.circle(surf, color, p, r)


def dashed_line(surf: pygame.Surface, color, a: Point, b: Point, width: int, dash: float, gap: float,
                phase: float = 0.0) -> None:
    ax, ay = a
    bx, by = b
    L = math.hypot(bx - ax, by - ay)
    if L < 1e-6:
        return
    ux, uy = (bx - ax) / L, (by - ay) / L
    t = -phase
    while t < L:
        t0 = max(0.0, t)
        t1 = min(L, t + dash)
        if t1 > t0:
            pygame.draw.line(surf, color, (ax + ux * t0, ay + uy * t0), (ax + ux * t1, ay + uy * t1), width)
        t += dash + gap


# ---------------------------------------------------------------- castles and rings

_castle_cache: dict[tuple, pygame.Surface] = {}
_ring_cache: dict[tuple, pygame.Surface] = {}


def castle_icon(size: int, fill, outline, alpha: int = 255) -> pygame.Surface:
    """A small crenellated keep, ``size`` px square (drawn 4x and smoothed)."""
    size = max(6, int(size))
    key = (size, tuple(fill), tuple(outline), alpha)
    s = _castle_cache.get(key)
    if s is not None:
        return s
    K = 4
    big = pygame.Surface((size * K, size * K), pygame.SRCALPHA)
    big.fill((*outline, 0))
    u = size * K / 100.0

    def P(pts):
        return [(x * u, y * u) for x, y in pts]

    # silhouette: two side towers and a taller centre tower, with merlons
    shape = [(10, 92), (10, 40), (10, 28), (18, 28), (18, 36), (24, 36), (24, 28), (32, 28), (32, 44),
             (38, 44), (38, 18), (45, 18), (45, 26), (55, 26), (55, 18), (62, 18), (62, 44), (68, 44),
             (68, 28), (76, 28), (76, 36), (82, 36), (82, 28), (90, 28), (90, 92)]
    pygame.draw.polygon(big, (*outline, 255), P(shape))
    inner = inset(P(shape), 7 * u)  # the shape runs clockwise on screen
    pygame.draw.polygon(big, (*fill, 255), inner)
    # door and window
    pygame.draw.rect(big, (*outline, 255), pygame.Rect(int(42 * u), int(64 * u), int(16 * u), int(28 * u)),
                     0, int(8 * u))
    pygame.draw.rect(big, (*outline, 255), pygame.Rect(int(46 * u), int(36 * u), int(8 * u), int(12 * u)))
    s = pygame.transform.smoothscale(big, (size, size))
    if alpha < 255:
        s.fill((255, 255, 255, alpha), special_flags=pygame.BLEND_RGBA_MULT)
    _castle_cache[key] = s
    return s


def crest_points(kind: str, cx: float, cy: float, r: float) -> list[Point]:
    """The outline of a seat's crest shape (``theme.SEAT_CRESTS``) of radius ``r``."""
    if kind == "diamond":
        return [(cx, cy - r * 1.15), (cx + r * 0.85, cy), (cx, cy + r * 1.15), (cx - r * 0.85, cy)]
    if kind == "triangle":
        return [(cx, cy - r * 1.1), (cx + r * 1.05, cy + r * 0.75), (cx - r * 1.05, cy + r * 0.75)]
    if kind == "square":
        k = r * 0.85
        return [(cx - k, cy - k), (cx + k, cy - k), (cx + k, cy + k), (cx - k, cy + k)]
    return [(cx + r * math.cos(a * math.pi / 12), cy + r * math.sin(a * math.pi / 12)) for a in range(24)]


def _supersampled(key, size: int, draw) -> pygame.Surface:
    """A cached ``size`` px square glyph, drawn by ``draw(surface, S)`` at four times the size
    and scaled down smoothly (pygame's shapes have no anti-aliasing of their own)."""
    s = _ring_cache.get(key)
    if s is None:
        S = size * 4
        big = pygame.Surface((S, S), pygame.SRCALPHA)
        draw(big, S)
        s = _ring_cache[key] = pygame.transform.smoothscale(big, (size, size))
    return s


def _crest_layers(surf, seat, x: float, y: float, radii) -> None:
    """The seat's crest shape at (x, y): dark edge, white rim, colour, of the three ``radii``."""
    kind = theme.seat_crest(seat)
    for colour, r in zip((theme.seat_dark(seat), (255, 255, 255), theme.seat_color(seat)), radii):
        pygame.draw.polygon(surf, (*colour, 255), crest_points(kind, x, y, r))


def crest(seat, size: int) -> pygame.Surface:
    """The seat's crest: its shape in its colour with a white rim and a dark edge."""
    size = max(8, int(size))
    return _supersampled(("crest", theme.seat_name(seat), size, theme.map_palette_name()), size,
                         lambda big, S: _crest_layers(big, seat, S / 2, S / 2, (S * 0.43, S * 0.36, S * 0.27)))


def ring_glyph(seat, size: int) -> pygame.Surface:
    """A wedding ring in the seat's colour, ``size`` px square, with the seat's crest as its
    stone. The band is wide and outlined; the middle stays open (what is under it shows)."""
    size = max(8, int(size))

    def draw(big, S):
        c = (S / 2, S * 0.54)
        R = S * 0.36
        w = S * 0.11
        dark, col, light = theme.seat_dark(seat), theme.seat_color(seat), theme.seat_light(seat)
        pygame.draw.circle(big, (20, 14, 8, 110), (c[0] + S * 0.02, c[1] + S * 0.025), R + w / 2 + S * 0.03,
                           int(w * 1.6))
        pygame.draw.circle(big, (255, 255, 255, 255), c, R + w / 2 + S * 0.03, int(w + S * 0.06))  # white halo
        pygame.draw.circle(big, (*dark, 255), c, R + w / 2 + S * 0.012, int(w + S * 0.024))
        pygame.draw.circle(big, (*col, 255), c, R + w / 2, int(w))
        pygame.draw.arc(big, (*light, 255), pygame.Rect(c[0] - R, c[1] - R, 2 * R, 2 * R), math.radians(100),
                        math.radians(190), max(1, int(w * 0.3)))
        gr = S * 0.135  # the stone: the seat's crest
        _crest_layers(big, seat, S / 2, c[1] - R - w * 0.2, (gr * 1.35, gr * 1.1, gr * 0.75))
    return _supersampled((theme.seat_name(seat), size, theme.map_palette_name()), size, draw)


# ---------------------------------------------------------------- seat patterns

PATTERNS = ("none", "dots", "stripes", "bars", "crosses", "chevrons")


def draw_pattern(surf: pygame.Surface, kind: str, color, step: float, alpha: int = 150) -> None:
    """Fill ``surf`` with a light repeating mark: ``"dots"``, ``"stripes"`` (diagonal),
    ``"bars"`` (horizontal), ``"crosses"`` (small plus signs), ``"chevrons"`` (zig-zag
    rows) or ``"none"``."""
    w, h = surf.get_size()
    col = (*color, alpha)
    step = max(3.0, step)
    lw = max(1, int(step * 0.28))
    if kind == "crosses":
        arm = step * 0.3
        y, row = step / 2, 0
        while y < h + step:
            x = step / 2 + (step / 2 if row % 2 else 0)
            while x < w + step:
                pygame.draw.line(surf, col, (x - arm, y), (x + arm, y), lw)
                pygame.draw.line(surf, col, (x, y - arm), (x, y + arm), lw)
                x += step
            y += step * 0.87
            row += 1
        return
    if kind == "chevrons":
        y = step / 2
        while y < h + step:
            pts = []
            x, up = 0.0, True
            while x < w + step:
                pts.append((x, y - step * 0.22 if up else y + step * 0.22))
                x += step / 2
                up = not up
            pygame.draw.lines(surf, col, False, pts, lw)
            y += step
        return
    if kind == "dots":
        r = max(1.0, step * 0.2)
        y, row = step / 2, 0
        while y < h + step:
            x = step / 2 + (step / 2 if row % 2 else 0)
            while x < w + step:
                pygame.draw.circle(surf, col, (x, y), r)
                x += step
            y += step * 0.87
            row += 1
    elif kind == "stripes":
        x = -float(h)
        while x < w:
            pygame.draw.line(surf, col, (x, h), (x + h, 0), lw)
            x += step
    elif kind == "bars":
        y = step / 2
        while y < h:
            pygame.draw.line(surf, col, (0, y), (w, y), lw)
            y += step


# ---------------------------------------------------------------- fief sprites

def fief_sprite(cells: Sequence[Hex], castles: Iterable[Hex], hex_px: float, fill, outline, light,
                *, alpha: int = 235, castle_fill=(250, 244, 228), castle_outline=None,
                castle_alpha: int = 255, skip_castle_at: Iterable[Hex] = (),
                pattern: str = "none", pattern_color=None, pattern_alpha: int = 190,
                halo=None) -> tuple[pygame.Surface, Point]:
    """A fief drawn as one outlined polygon with castle markers.

    Returns the sprite and the screen offset, in hex-unit pixels (``hexgrid.to_pixel(h,
    hex_px)`` space), of the sprite's top-left corner. ``skip_castle_at`` cells get their
    castle drawn smaller in the hex's upper part (a site badge sits at the centre).
    ``pattern`` (see :func:`draw_pattern`) marks the seat for players who do not tell the
    colours apart. ``halo`` (RGBA, alpha > 0): a rim of that colour outside the outline, so the
    fief's edge reads on dark sea and light land alike (the map in high contrast)."""
    loops = outline_loops(cells)
    pts_all = [(x * hex_px, y * hex_px) for loop in loops for x, y in loop]
    minx = min(p[0] for p in pts_all) - 4
    miny = min(p[1] for p in pts_all) - 4
    maxx = max(p[0] for p in pts_all) + 4
    maxy = max(p[1] for p in pts_all) + 4
    w, h = int(math.ceil(maxx - minx)) + 1, int(math.ceil(maxy - miny)) + 1
    surf = pygame.Surface((w, h), pygame.SRCALPHA)
    body = pygame.Surface((w, h), pygame.SRCALPHA)
    ow = max(2.0, hex_px * 0.085)
    for loop in loops:
        p = [((x * hex_px) - minx, (y * hex_px) - miny) for x, y in loop]
        outer = inset(p, ow * 0.5 + max(1.0, hex_px * 0.03))
        if halo is not None and halo[3]:
            thick_polyline(body, halo, outer, ow * 2.2)
        pygame.draw.polygon(body, (*fill, 255), outer)
        if pattern != "none":
            pat = pygame.Surface((w, h), pygame.SRCALPHA)
            draw_pattern(pat, pattern, pattern_color or light, max(4.0, hex_px * 0.42), alpha=pattern_alpha)
            clip = pygame.Surface((w, h), pygame.SRCALPHA)
            pygame.draw.polygon(clip, (255, 255, 255, 255), outer)
            pat.blit(clip, (0, 0), special_flags=pygame.BLEND_RGBA_MULT)
            body.blit(pat, (0, 0))
        thick_polyline(body, (*outline, 255), outer, ow)
        bevel = inset(outer, ow * 1.15)
        thick_polyline(body, (*light, 150), bevel, max(1.0, ow * 0.45))
    if alpha < 255:
        body.fill((255, 255, 255, alpha), special_flags=pygame.BLEND_RGBA_MULT)
    surf.blit(body, (0, 0))
    skip = set(skip_castle_at)
    for c in castles:
        cx, cy = hexgrid.to_pixel(c, hex_px)
        if c in skip:
            ic = castle_icon(int(hex_px * 0.62), castle_fill, castle_outline or outline, castle_alpha)
            cy -= hex_px * 0.52
        else:
            ic = castle_icon(int(hex_px * 0.95), castle_fill, castle_outline or outline, castle_alpha)
        surf.blit(ic, ic.get_rect(center=(int(cx - minx), int(cy - miny))))
    return surf, (minx, miny)
