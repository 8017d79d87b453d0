"""The facts of the board the renderer draws, read once from the content: terrain, regions,
seas, sites, the coastline and the map's extent (hex units). Immutable; every part of the
renderer reads it, none changes it."""
from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ..rules import hexgrid
from ..rules.content import Content, Site
from ..rules.hexgrid import Hex
from .icons import CITY_SYMBOLS

#: the map's words (its legend and the cities' symbols), looked up in the interface language
TEXT_KEYS: tuple[str, ...] = ("legend.cities", "legend.seas", "legend.barrier") + tuple(
    f"symbol.{s}" for s in CITY_SYMBOLS)

SQRT3 = hexgrid.SQRT3

#: a coastline polygon ring in hex units and whether it is a hole
CoastRing = tuple[list[tuple[float, float]], bool]


class BoardMap:
    """What the board is: ``content``'s map as plain lookups for drawing."""

    def __init__(self, content: Content) -> None:
        board = content.board
        self.content = content
        self.terrain: dict[Hex, str] = dict(content.terrain)
        self.region_of: dict[Hex, str] = dict(content.region_of)
        self.sea_of: dict[Hex, str] = dict(content.sea_of)
        self.sites: dict[Hex, Site] = dict(content.sites)
        self.regions = {r.id: r for r in board.regions}
        self.seas = {s.id: s for s in board.seas}
        self.barriers = content.barriers
        self.coast: list[CoastRing] = load_coastline(content)
        self.extent = extent_of(content)
        self.unit_corners: list[tuple[float, float]] = [(x, y) for x, y in hexgrid.corners((0, 0))]
        # the points a part kept clear must leave free (issue 40): land hexes and sites
        self.solid_points: list[tuple[float, float]] = [
            hexgrid.to_pixel(h) for h, t in self.terrain.items() if t == "land" or h in self.sites]


def extent_of(content: Content) -> tuple[float, float, float, float]:
    """The map's extent in hex units (x0, y0, x1, y1): every hex's corners."""
    xs: list[float] = []
    ys: list[float] = []
    for h in content.terrain:
        cx, cy = hexgrid.to_pixel(h)
        xs += [cx - SQRT3 / 2, cx + SQRT3 / 2]
        ys += [cy - 1.0, cy + 1.0]
    return min(xs), min(ys), max(xs), max(ys)


def load_coastline(content: Content) -> list[CoastRing]:
    """Polygons (ring, is_hole) in hex units from the board's coastline file, or []."""
    name = getattr(content.board.render, "coastline", None)
    if not name:
        return []
    path = Path(content.directory) / name
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return []
    return parse_coastline(raw)


def parse_coastline(raw: Any) -> list[CoastRing]:
    """The rings of a coastline file's JSON (GeoJSON-like lists, or dicts with outer/holes)."""
    out: list[CoastRing] = []

    def ring(pts: Any) -> list[tuple[float, float]]:
        return [(float(p[0]), float(p[1])) for p in pts]

    polys = raw.get("polygons", raw) if isinstance(raw, Mapping) else raw
    for poly in polys or []:
        if isinstance(poly, Mapping):
            outer = poly.get("outer") or poly.get("exterior") or poly.get("points") or []
            out.append((ring(outer), False))
            for hole in poly.get("holes") or poly.get("interiors") or []:
                out.append((ring(hole), True))
        elif poly and isinstance(poly[0], (list, tuple)) and poly[0] and isinstance(poly[0][0], (list, tuple)):
            out.append((ring(poly[0]), False))
            for hole in poly[1:]:
                out.append((ring(hole), True))
        elif poly:
            out.append((ring(poly), False))
    return out
