"""The board's small cached images: site badges, hex stamps (highlights), the objective's ring,
the regions' seals and the ghost's mark. Each is drawn once per size and kept in a
:class:`Stamps` cache (one per layer being built: a build on another thread has its own)."""
from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any, Optional, Protocol

import pygame

from ..rules import hexgrid
from . import icons, pieces, theme

SQRT3 = hexgrid.SQRT3


class BadgeSite(Protocol):
    """What a badge needs of a site (a ``rules.content.Site``, or a legend's sample)."""

    @property
    def kind(self) -> str: ...
    @property
    def symbol(self) -> Optional[str]: ...
    @property
    def sea(self) -> Optional[str]: ...


def badge_radius(site: BadgeSite, size: float) -> int:
    """A site badge's radius at hex size ``size``: cities a little larger than harbors."""
    return int(max(8.5 if site.kind == "city" else 7.5, size * (0.5 if site.kind == "city" else 0.42)))


class Stamps:
    """Small images keyed by what they show and their size; ``seas`` gives a harbor its symbol."""

    def __init__(self, seas: Mapping[str, Any]) -> None:
        self.seas = seas
        self.cache: dict[tuple, pygame.Surface] = {}

    def clear(self) -> None:
        self.cache.clear()

    def badge(self, site: BadgeSite, radius: int) -> pygame.Surface:
        """A site's round badge with its symbol (a city's, or its sea's for a harbor)."""
        key = ("badge", site.kind, site.symbol or self.seas[site.sea or ""].symbol, radius, theme.map_palette_name())
        s = self.cache.get(key)
        if s is not None:
            return s
        d = radius * 2 + 4
        K = 3
        big = pygame.Surface((d * K, d * K), pygame.SRCALPHA)
        c = (d * K / 2, d * K / 2)
        R = radius * K
        pygame.draw.circle(big, (30, 20, 10, 90), (c[0] + K, c[1] + 1.5 * K), R + K)  # shadow
        if site.kind == "city":
            pygame.draw.circle(big, (*theme.CITY_RING, 255), c, R)
            pygame.draw.circle(big, (*theme.GOLD, 255), c, R * 0.86)
            pygame.draw.circle(big, (*theme.CITY_BADGE, 255), c, R * 0.79)
            sym, col, frac = site.symbol, theme.MAP.city_icon, 1.22
        else:
            pygame.draw.circle(big, (*theme.HARBOR_ICON, 255), c, R)
            pygame.draw.circle(big, (*theme.HARBOR_BADGE, 255), c, R * 0.88)
            pygame.draw.circle(big, (*theme.HARBOR_ICON, 255), c, R * 0.76, max(1, int(K * 0.8)))
            sym, col, frac = self.seas[site.sea or ""].symbol, theme.HARBOR_ICON, 1.12
        ic = icons.icon(str(sym), int(R * frac), col)
        big.blit(ic, ic.get_rect(center=(int(c[0]), int(c[1]))))
        s = pygame.transform.smoothscale(big, (d, d))
        self.cache[key] = s
        return s

    def hex(self, kind: str, S: float) -> pygame.Surface:
        """A hex-shaped stamp: "strong" (legal anchors), "faint" (legal turned), "cover" (hexes
        a fief could cover), "best" (a plan's best spot)."""
        key = ("stamp", kind, round(S, 2), theme.map_palette_name())
        k, kf = theme.MAP.stamp_alpha, theme.MAP.stamp_fill  # (high contrast: rims twice as opaque,
        # washes lighter: the names under them keep their contrast)

        def a(alpha: int) -> int:
            return min(255, int(alpha * k))

        def wash(alpha: int) -> int:
            return min(255, int(alpha * kf))
        s = self.cache.get(key)
        if s is not None:
            return s
        w, h = int(math.ceil(S * SQRT3)) + 4, int(math.ceil(S * 2)) + 4
        s = pygame.Surface((w, h), pygame.SRCALPHA)
        c = (w / 2, h / 2)
        pts = [(c[0] + x, c[1] + y) for x, y in hexgrid.corners((0, 0), S)]
        inner = [(c[0] + x * 0.86, c[1] + y * 0.86) for x, y in hexgrid.corners((0, 0), S)]
        if kind == "strong":
            pygame.draw.polygon(s, (*theme.HIGHLIGHT, wash(95)), pts)
            pieces.thick_polyline(s, (*theme.HIGHLIGHT_RIM, a(120)), inner, max(3.0, S * 0.2))
            pieces.thick_polyline(s, (*theme.HIGHLIGHT_EDGE, a(240)), inner, max(2.0, S * 0.1))
        elif kind == "faint":
            pygame.draw.polygon(s, (*theme.HIGHLIGHT, wash(45)), pts)
            if k > 1:  # high contrast: a dark rim under the light one reads on light land too
                pieces.thick_polyline(s, (*theme.HIGHLIGHT_RIM, a(120)), inner, max(2.0, S * 0.1))
            pieces.thick_polyline(s, (*theme.HIGHLIGHT_EDGE, a(120)), inner, max(1.0, S * 0.05))
        elif kind == "cover":  # a hex the planned fief could cover: a light wash, a thin rim
            pygame.draw.polygon(s, (*theme.HIGHLIGHT, wash(105)), pts)
            pieces.thick_polyline(s, (*theme.HIGHLIGHT_RIM, a(90)), inner, max(1.0, S * 0.06))
        elif kind == "best":  # the best spot of a plan: a gold rim
            pygame.draw.polygon(s, (*theme.GOLD, wash(90)), pts)
            pieces.thick_polyline(s, (*theme.GOLD_DARK, a(230)), inner, max(2.0, S * 0.14))
        self.cache[key] = s
        return s

    def objective(self, S: float) -> pygame.Surface:
        """The ring around a city of the seat's objective."""
        key = ("objective", round(S, 2), theme.map_palette_name())
        st = self.cache.get(key)
        if st is None:
            d = int(S * 1.9)
            st = pygame.Surface((d, d), pygame.SRCALPHA)
            c = (d / 2, d / 2)
            pygame.draw.circle(st, (255, 255, 255, 200), c, d / 2 - 1, max(2, int(S * 0.2)))
            pygame.draw.circle(st, (*theme.OBJECTIVE, 255), c, d / 2 - max(2, int(S * 0.05)), max(2, int(S * 0.12)))
            self.cache[key] = st
        return st

    def seal(self, flourishing: bool, S: float) -> pygame.Surface:
        """A wax seal by a region's name: a sun when it flourishes, a crescent moon when not."""
        key = ("seal", flourishing, round(S, 2), theme.map_palette_name())
        s = self.cache.get(key)
        if s is not None:
            return s
        d = max(12, int(S * 0.9))
        K = 4
        big = pygame.Surface((d * K, d * K), pygame.SRCALPHA)
        c = (d * K / 2, d * K / 2)
        R = d * K / 2 - K
        col = theme.FLOURISH if flourishing else theme.INACTIVE
        dark = theme.lerp(col, (0, 0, 0), 0.45)
        # wavy wax edge
        pts = []
        for i in range(48):
            a = 2 * math.pi * i / 48
            rr = R * (0.93 + 0.07 * math.cos(a * 12))
            pts.append((c[0] + rr * math.cos(a), c[1] + rr * math.sin(a)))
        pygame.draw.polygon(big, (*dark, 255), pts)
        pygame.draw.circle(big, (*col, 255), c, R * 0.82)
        pygame.draw.circle(big, (*dark, 255), c, R * 0.68, K)
        if flourishing:  # a sun
            for i in range(8):
                a = 2 * math.pi * i / 8
                tip = (c[0] + R * 0.6 * math.cos(a), c[1] + R * 0.6 * math.sin(a))
                left = (c[0] + R * 0.28 * math.cos(a - 0.35), c[1] + R * 0.28 * math.sin(a - 0.35))
                r = (c[0] + R * 0.28 * math.cos(a + 0.35), c[1] + R * 0.28 * math.sin(a + 0.35))
                pygame.draw.polygon(big, (*dark, 255), [left, tip, r])
            pygame.draw.circle(big, (255, 236, 160, 255), c, R * 0.28)
            pygame.draw.circle(big, (*dark, 255), c, R * 0.28, K)
        else:  # a crescent moon: dormant
            pygame.draw.circle(big, (*dark, 255), c, R * 0.42)
            pygame.draw.circle(big, (*col, 255), (c[0] + R * 0.18, c[1] - R * 0.1), R * 0.38)
        s = pygame.transform.smoothscale(big, (d, d))
        self.cache[key] = s
        return s


_marks: dict[tuple, pygame.Surface] = {}


def mark_icon(ok: bool, d: int) -> pygame.Surface:
    """A white check mark on green (legal) or a white cross on red (not legal) in a disc
    ``d`` px wide: a shape besides the colour."""
    key = (bool(ok), int(d), theme.map_palette_name())
    s = _marks.get(key)
    if s is not None:
        return s
    d = max(8, int(d))
    K = 4
    big = pygame.Surface((d * K, d * K), pygame.SRCALPHA)
    c = d * K / 2
    col = theme.MAP.mark_ok if ok else theme.MAP.mark_bad
    pygame.draw.circle(big, (255, 255, 255, 255), (c, c), c - 1)
    pygame.draw.circle(big, (*col, 255), (c, c), c - K * 2)
    w = d * K * 0.13
    if ok:
        pts = [(c - c * 0.45, c + c * 0.02), (c - c * 0.1, c + c * 0.38), (c + c * 0.5, c - c * 0.36)]
        pieces.thick_polyline(big, (255, 255, 255, 255), pts, w, closed=False)
    else:
        e = c * 0.38
        pieces.thick_polyline(big, (255, 255, 255, 255), [(c - e, c - e), (c + e, c + e)], w, closed=False)
        pieces.thick_polyline(big, (255, 255, 255, 255), [(c - e, c + e), (c + e, c - e)], w, closed=False)
    s = pygame.transform.smoothscale(big, (d, d))
    if len(_marks) > 64:
        _marks.clear()
    _marks[key] = s
    return s
