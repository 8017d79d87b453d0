"""The 14 site symbols, drawn procedurally (no image files).

Eight city symbols (spec D4): university, cathedral, wine, wool, bank, art, silk, glass.
Six sea symbols shown on harbors: anchor, ship, fish, shell, trident, compass.

:func:`icon` returns a one-colour silhouette on a transparent square surface, drawn at
four times the size and smoothed down, cached per (name, size, colour). Holes in a
silhouette are transparent, so the badge behind the icon shows through.
"""
from __future__ import annotations

import math
from typing import Callable

import pygame

Color = tuple[int, int, int]

CITY_SYMBOLS = ("university", "cathedral", "wine", "wool", "bank", "art", "silk", "glass")
SEA_SYMBOLS = ("anchor", "ship", "fish", "shell", "trident", "compass")
ICON_NAMES = CITY_SYMBOLS + SEA_SYMBOLS

_SUPER = 4


class _Pen:
    """Draws in a 100 x 100 design box scaled to the surface."""

    def __init__(self, surf: pygame.Surface, color: Color):
        self.s = surf
        self.k = surf.get_width() / 100.0
        self.c = (*color, 255)
        self.clear = (*color, 0)  # transparent, same colour: no dark fringe when smoothed

    def p(self, x: float, y: float) -> tuple[float, float]:
        return (x * self.k, y * self.k)

    def poly(self, pts, clear: bool = False):
        pygame.draw.polygon(self.s, self.clear if clear else self.c, [self.p(x, y) for x, y in pts])

    def circle(self, x, y, r, clear: bool = False, width: float = 0):
        pygame.draw.circle(self.s, self.clear if clear else self.c, self.p(x, y), r * self.k,
                           int(round(width * self.k)) if width else 0)

    def ellipse(self, x0, y0, x1, y1, clear: bool = False, width: float = 0):
        r = pygame.Rect(int(x0 * self.k), int(y0 * self.k), int((x1 - x0) * self.k), int((y1 - y0) * self.k))
        pygame.draw.ellipse(self.s, self.clear if clear else self.c, r, int(round(width * self.k)) if width else 0)

    def rect(self, x0, y0, x1, y1, clear: bool = False, radius: float = 0):
        r = pygame.Rect(int(x0 * self.k), int(y0 * self.k), int((x1 - x0) * self.k), int((y1 - y0) * self.k))
        pygame.draw.rect(self.s, self.clear if clear else self.c, r, 0, int(radius * self.k))

    def line(self, x0, y0, x1, y1, w, clear: bool = False):
        """A thick line with round caps."""
        col = self.clear if clear else self.c
        a, b = self.p(x0, y0), self.p(x1, y1)
        ww = w * self.k
        dx, dy = b[0] - a[0], b[1] - a[1]
        n = math.hypot(dx, dy) or 1.0
        nx, ny = -dy / n * ww / 2, dx / n * ww / 2
        pygame.draw.polygon(self.s, col, [(a[0] + nx, a[1] + ny), (b[0] + nx, b[1] + ny),
                                          (b[0] - nx, b[1] - ny), (a[0] - nx, a[1] - ny)])
        pygame.draw.circle(self.s, col, a, ww / 2)
        pygame.draw.circle(self.s, col, b, ww / 2)

    def arc(self, cx, cy, r, a0, a1, w, clear: bool = False, steps: int = 24):
        """A thick arc, angles in degrees (0 = east, 90 = south: y points down)."""
        pts_out, pts_in = [], []
        for i in range(steps + 1):
            t = math.radians(a0 + (a1 - a0) * i / steps)
            pts_out.append((cx + (r + w / 2) * math.cos(t), cy + (r + w / 2) * math.sin(t)))
            pts_in.append((cx + (r - w / 2) * math.cos(t), cy + (r - w / 2) * math.sin(t)))
        self.poly(pts_out + pts_in[::-1], clear)


# ---------------------------------------------------------------- city symbols

def _university(d: _Pen):
    # an open book
    d.poly([(50, 30), (30, 22), (10, 26), (10, 76), (30, 72), (50, 80)])
    d.poly([(50, 30), (70, 22), (90, 26), (90, 76), (70, 72), (50, 80)])
    d.line(50, 30, 50, 80, 3, clear=True)
    for y in (36, 46, 56):
        d.line(17, y - 4, 41, y + 2, 2.2, clear=True)
        d.line(59, y + 2, 83, y - 4, 2.2, clear=True)


def _cathedral(d: _Pen):
    d.rect(18, 50, 82, 90)
    d.poly([(18, 52), (38, 36), (38, 52)])
    d.poly([(82, 52), (62, 36), (62, 52)])
    d.rect(38, 30, 62, 52)
    d.poly([(36, 32), (50, 10), (64, 32)])
    d.line(50, 2, 50, 12, 3.5)
    d.line(45, 6, 55, 6, 3)
    d.circle(50, 42, 5, clear=True)
    d.rect(43, 70, 57, 91, clear=True)
    d.circle(50, 70, 7, clear=True)
    d.rect(25, 62, 31, 74, clear=True)
    d.rect(69, 62, 75, 74, clear=True)


def _wine(d: _Pen):
    # a bunch of grapes with a leaf
    r = 8.6
    for x, y in ((32, 38), (50, 38), (68, 38), (41, 53), (59, 53), (32, 53 - 0.1), (68, 53),
                 (50, 68), (41, 68 - 0.1), (59, 68), (50, 83)):
        if (x, y) in ((32, 53 - 0.1), (68, 53)):
            continue
        d.circle(x, y, r)
        d.circle(x - 2.8, y - 2.8, 2.2, clear=True)
    d.line(50, 28, 54, 12, 3.5)
    d.poly([(54, 18), (66, 8), (84, 10), (78, 24), (62, 26)])
    d.line(56, 18, 78, 13, 1.8, clear=True)


def _wool(d: _Pen):
    # a sheep: fleecy body, dark head, legs
    for x, y, r in ((40, 44, 14), (56, 42, 14), (70, 48, 13), (66, 62, 13), (50, 64, 14),
                    (34, 60, 13), (52, 52, 16)):
        d.circle(x, y, r)
    for x in (38, 48, 60, 70):
        d.rect(x - 3, 68, x + 3, 88, radius=2)
    d.ellipse(8, 38, 30, 60)
    d.poly([(16, 40), (8, 34), (22, 38)])
    d.circle(15, 46, 2.4, clear=True)
    d.arc(26, 49, 6, -80, 80, 2.5, clear=True)


def _bank(d: _Pen):
    d.poly([(10, 34), (50, 10), (90, 34)])
    d.poly([(26, 30), (50, 17), (74, 30)], clear=True)
    d.circle(50, 25, 4)
    d.rect(12, 34, 88, 42)
    for x in (22, 39, 56, 73):
        d.rect(x - 1, 42, x + 7, 76)
    d.rect(12, 76, 88, 82)
    d.rect(6, 83, 94, 90)


def _art(d: _Pen):
    # a painter's palette with paint wells and a brush
    d.ellipse(6, 20, 92, 84)
    d.ellipse(44, 58, 74, 90, clear=True)
    d.circle(30, 66, 7, clear=True)
    for x, y in ((26, 44), (42, 33), (61, 32), (76, 44)):
        d.circle(x, y, 6, clear=True)
    d.line(58, 72, 92, 8, 4.5)
    d.line(58, 72, 52, 84, 7)


def _silk(d: _Pen):
    # a spool of thread
    d.rect(24, 12, 76, 22, radius=3)
    d.rect(24, 78, 76, 88, radius=3)
    d.rect(32, 22, 68, 78)
    for y in (30, 38, 46, 54, 62, 70):
        d.line(33, y, 67, y + 3, 1.8, clear=True)
    d.arc(80, 60, 12, -100, 110, 3.2)
    d.line(76, 72, 64, 92, 3.2)


def _glass(d: _Pen):
    # a Venetian glass ewer: round body, tall neck, flared lip, a small foot
    d.circle(50, 60, 24)
    d.rect(43, 20, 57, 44)
    d.poly([(36, 12), (64, 12), (58, 22), (42, 22)])
    d.poly([(38, 80), (62, 80), (68, 92), (32, 92)])
    d.arc(50, 60, 15, 200, 260, 3.5, clear=True)
    d.line(30, 50, 70, 50, 2.2, clear=True)


# ---------------------------------------------------------------- sea symbols

def _anchor(d: _Pen):
    d.circle(50, 14, 8, width=4.5)
    d.line(50, 22, 50, 84, 8)
    d.line(32, 32, 68, 32, 6)
    d.arc(50, 52, 32, 20, 160, 7)
    d.poly([(80, 58), (91, 54), (86, 72)])   # flukes
    d.poly([(20, 58), (9, 54), (14, 72)])
    d.poly([(44, 84), (56, 84), (50, 93)])


def _ship(d: _Pen):
    # a cog: curved hull, square sail, pennant
    d.poly([(8, 60), (92, 60), (82, 74), (70, 82), (30, 82), (18, 74)])
    d.line(50, 8, 50, 60, 4)
    d.poly([(26, 18), (74, 18), (78, 36), (74, 54), (26, 54), (22, 36)])
    d.line(27, 30, 73, 30, 1.8, clear=True)
    d.line(27, 42, 73, 42, 1.8, clear=True)
    d.poly([(50, 6), (70, 10), (50, 14)])
    d.line(8, 66, 92, 66, 2, clear=True)


def _fish(d: _Pen):
    d.ellipse(8, 32, 74, 68)
    d.poly([(66, 50), (94, 28), (88, 50), (94, 72)])
    d.poly([(34, 34), (48, 20), (56, 36)])
    d.circle(22, 46, 4, clear=True)
    d.arc(20, 50, 14, -40, 40, 2.5, clear=True)
    for x in (44, 54):
        d.arc(x - 14, 50, 14, -40, 40, 1.6, clear=True)


def _shell(d: _Pen):
    # a scallop: a fan of ribs with a scalloped rim and two ears
    cx, cy, R = 50, 80, 66
    pts: list[tuple[float, float]] = [(cx, cy)]
    for i in range(13):
        a = math.radians(200 + 140 * i / 12)
        pts.append((cx + R * math.cos(a), cy + R * math.sin(a)))
    d.poly(pts)
    for i in range(12):
        a = math.radians(200 + 140 * (i + 0.5) / 12)
        d.circle(cx + (R - 1) * math.cos(a), cy + (R - 1) * math.sin(a), 5.2)
    for i in range(1, 12):
        a = math.radians(200 + 140 * i / 12)
        d.line(cx + 12 * math.cos(a), cy + 12 * math.sin(a),
               cx + (R - 2) * math.cos(a), cy + (R - 2) * math.sin(a), 2.2, clear=True)
    d.poly([(30, 76), (50, 76), (50, 92), (36, 92)])
    d.poly([(70, 76), (50, 76), (50, 92), (64, 92)])
    d.line(50, 76, 50, 92, 1.5, clear=True)


def _trident(d: _Pen):
    d.line(50, 36, 50, 94, 6.5)
    d.arc(50, 34, 20, 0, 180, 6.5)
    d.line(30, 34, 30, 16, 6)
    d.line(70, 34, 70, 16, 6)
    d.line(50, 54, 50, 14, 6.5)
    for x in (30, 50, 70):
        d.poly([(x - 7, 18), (x, 4), (x + 7, 18)])


def _compass(d: _Pen):
    d.circle(50, 50, 30, width=4)
    long_r, short_r = 46, 11
    for i in range(4):
        a = math.radians(-90 + 90 * i)
        left = math.radians(-90 + 90 * i - 45)
        r = math.radians(-90 + 90 * i + 45)
        d.poly([(50 + short_r * math.cos(left), 50 + short_r * math.sin(left)),
                (50 + long_r * math.cos(a), 50 + long_r * math.sin(a)),
                (50 + short_r * math.cos(r), 50 + short_r * math.sin(r)), (50, 50)])
    for i in range(4):
        a = math.radians(-45 + 90 * i)
        d.line(50, 50, 50 + 26 * math.cos(a), 50 + 26 * math.sin(a), 4)
    d.circle(50, 50, 4, clear=True)


_DRAW: dict[str, Callable[[_Pen], None]] = {
    "university": _university, "cathedral": _cathedral, "wine": _wine, "wool": _wool,
    "bank": _bank, "art": _art, "silk": _silk, "glass": _glass,
    "anchor": _anchor, "ship": _ship, "fish": _fish, "shell": _shell,
    "trident": _trident, "compass": _compass,
}

_cache: dict[tuple[str, int, tuple[int, ...]], pygame.Surface] = {}


def icon(name: str, size: int, color: Color = (40, 30, 20)) -> pygame.Surface:
    """The ``name`` symbol as a ``size`` x ``size`` transparent surface (cached)."""
    size = max(4, int(size))
    key = (name, size, tuple(color))
    s = _cache.get(key)
    if s is None:
        if name not in _DRAW:
            raise KeyError(f"unknown symbol {name!r}; one of {', '.join(ICON_NAMES)}")
        big = pygame.Surface((size * _SUPER, size * _SUPER), pygame.SRCALPHA)
        big.fill((*color, 0))
        _DRAW[name](_Pen(big, color))
        s = pygame.transform.smoothscale(big, (size, size))
        _cache[key] = s
    return s
