"""Design checks of the board (spec D2, D4): pure Python, no pygame.

:func:`check_board` returns every problem it finds as one clear sentence that names the
hex or the item; an empty list means the board meets D2 and D4. It never raises on a bad
board. :func:`coverings` lists which mixes of sites a fief can cover anywhere on the empty
board (P5, with P6, P8 and P9 for where a fief may lie), and :func:`covering_examples` gives
one placement for each mix, to explain a problem.

``content.py`` already checks the file's shape (ids, references, one site per hex); this
module checks the design. :func:`straits` reads the real coastline that the renderer draws
(``coastline.json``) to find neighbouring land hexes of two regions with sea between them.
"""
from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator
from typing import Optional

from . import hexgrid
from .content import EASTERN_SYMBOLS, REGION_IDS, SEA_IDS, WESTERN_SYMBOLS, Content, Site
from .hexgrid import Hex

# D2 sizes
TOTAL_HEXES = (500, 800)
LAND_HEXES = (250, 350)
REGION_HEXES = (35, 70)
CITIES_PER_REGION = 4
HARBORS_PER_REGION = 4

# D2: harbors by sea and region
HARBOR_SPLIT: dict[str, dict[str, int]] = {
    "germanicum": {"britannia": 2, "germania": 2},
    "balticum": {"germania": 2, "orientalis": 2},
    "britannicum": {"britannia": 2, "francia": 2},
    "cantabricus": {"hispania": 3, "francia": 1},
    "tyrrhenum": {"hispania": 1, "francia": 1, "italia": 2},
    "adriaticum": {"italia": 2, "orientalis": 2},
}

# D2: barriers. Fully barred land borders, and the one border that is barred in part.
FULL_BARRIERS = (("hispania", "francia"), ("francia", "italia"), ("italia", "germania"))
PARTIAL_BARRIERS = (("germania", "orientalis"),)

# D2: regions that are islands (board.json marks them: regions[].island)
ISLANDS = ("britannia",)

WEST = ("hispania", "francia", "britannia")
EAST = ("italia", "germania", "orientalis")

# D2 / P2-P4: the mixes of sites (harbors, cities) a fief may cover, and no others.
# (0, 0) is a fief on empty hexes only (P3).
ALLOWED_COVERINGS: frozenset[tuple[int, int]] = frozenset({
    (0, 0),
    (1, 0), (2, 0),              # A: 1 or 2 harbors, no city
    (0, 1), (0, 2), (0, 3),      # B: 1, 2 or 3 cities, no harbor
    (1, 1), (1, 2), (2, 1),      # C: 1 city + 1 harbor, 2 cities + 1 harbor, 2 harbors + 1 city
})


def _describe(mix: tuple[int, int]) -> str:
    h, c = mix
    parts = []
    if c:
        parts.append(f"{c} cit{'y' if c == 1 else 'ies'}")
    if h:
        parts.append(f"{h} harbor{'' if h == 1 else 's'}")
    return " and ".join(parts) if parts else "no site"


def _placements(content: Content) -> Iterator[tuple[int, int, Hex, tuple[Hex, ...]]]:
    """Yield (fief number, rotation, anchor, cells) of every geometrically legal placement
    on the empty board: every cell a hex of the map (P6), castles on land (P8), no two
    cells across a barrier (P9)."""
    terrain = content.terrain
    barriers = content.barriers
    for number in sorted(content.fiefs):
        fief = content.fiefs[number]
        for k in fief.distinct_rotations:
            cells, castles = fief.rotated(k)
            cells = tuple(cells)
            castle_offsets = tuple(castles)
            adjacent_pairs = tuple((a, b) for i, a in enumerate(cells) for b in cells[i + 1:]
                                   if hexgrid.are_adjacent(a, b))
            for anchor in terrain:
                aq, ar = anchor
                placed = tuple((aq + dq, ar + dr) for dq, dr in cells)
                if any(c not in terrain for c in placed):
                    continue
                if any(terrain[(aq + dq, ar + dr)] != "land" for dq, dr in castle_offsets):
                    continue
                if barriers and any(
                        frozenset(((aq + a[0], ar + a[1]), (aq + b[0], ar + b[1]))) in barriers
                        for a, b in adjacent_pairs):
                    continue
                yield number, k, anchor, placed


def covering_examples(content: Content) -> dict[tuple[int, int], tuple[int, int, Hex, tuple[str, ...]]]:
    """For each (harbors, cities) mix some fief can cover: one placement that covers it,
    as (fief number, rotation, anchor, names of the sites covered)."""
    sites = content.sites
    out: dict[tuple[int, int], tuple[int, int, Hex, tuple[str, ...]]] = {}
    for number, k, anchor, placed in _placements(content):
        covered = [sites[c] for c in placed if c in sites]
        harbors = sum(1 for s in covered if s.kind == "harbor")
        mix = (harbors, len(covered) - harbors)
        if mix not in out:
            out[mix] = (number, k, anchor, tuple(sorted(s.name for s in covered)))
    return out


def coverings(content: Content) -> set[tuple[int, int]]:
    """Every (harbors, cities) mix that some fief, in some rotation, at some place where it
    may lie on the empty board, covers (D2)."""
    return set(covering_examples(content))


def _region_name(content: Content, rid: str) -> str:
    return content.region_names.get(rid, rid)


def _sea_name(content: Content, sid: str) -> str:
    return content.sea_names.get(sid, sid)


def check_board(content: Content) -> list[str]:
    """Every D2 / D4 problem of the board, one sentence each; [] when the board is right."""
    problems: list[str] = []
    try:
        problems += _check_sizes(content)
        problems += _check_connected(content)
        problems += _check_sites(content)
        problems += _check_symbols(content)
        problems += _check_barriers(content)
        problems += _check_islands(content)
        problems += _check_straits(content)
        problems += _check_labels(content)
        problems += _check_coverings(content)
    except Exception as e:  # a board too broken to check further: say so, never raise
        problems.append(f"the board could not be checked completely: {type(e).__name__}: {e}")
    return problems


def _check_sizes(content: Content) -> list[str]:
    out = []
    terrain = content.terrain
    n, land = len(terrain), sum(1 for t in terrain.values() if t == "land")
    if not TOTAL_HEXES[0] <= n <= TOTAL_HEXES[1]:
        out.append(f"D2: the map has {n} hexes; it should have {TOTAL_HEXES[0]}-{TOTAL_HEXES[1]}.")
    if not LAND_HEXES[0] <= land <= LAND_HEXES[1]:
        out.append(f"D2: the map has {land} land hexes; it should have {LAND_HEXES[0]}-{LAND_HEXES[1]}.")
    per = Counter(content.region_of.values())
    for rid in REGION_IDS:
        k = per.get(rid, 0)
        if not REGION_HEXES[0] <= k <= REGION_HEXES[1]:
            out.append(f"D2: region {_region_name(content, rid)} has {k} land hexes; "
                       f"it should have {REGION_HEXES[0]}-{REGION_HEXES[1]}.")
    seas = Counter(content.sea_of.values())
    for sid in SEA_IDS:
        if seas.get(sid, 0) == 0:
            out.append(f"D2: sea {_sea_name(content, sid)} has no hex.")
    return out


def _check_connected(content: Content) -> list[str]:
    out = []
    for rid in REGION_IDS:
        parts = hexgrid.components(h for h, r in content.region_of.items() if r == rid)
        if len(parts) > 1:
            stray = ", ".join(str(min(p)) for p in parts[1:])
            out.append(f"D2: region {_region_name(content, rid)} is not connected: "
                       f"{len(parts) - 1} part(s) apart from the main one, at {stray}.")
    for sid in SEA_IDS:
        parts = hexgrid.components(h for h, s in content.sea_of.items() if s == sid)
        if len(parts) > 1:
            stray = ", ".join(str(min(p)) for p in parts[1:])
            out.append(f"D2: sea {_sea_name(content, sid)} is not connected: "
                       f"{len(parts) - 1} part(s) apart from the main one, at {stray}.")
    return out


def _check_sites(content: Content) -> list[str]:
    out = []
    seen: dict[Hex, str] = {}
    for sm in content.board.sites:
        at = (sm.q, sm.r)
        if at in seen:
            out.append(f"D2: two sites on hex {at}: {seen[at]} and {sm.name}.")
        seen[at] = sm.name
    sites = content.sites
    sea_of = content.sea_of
    cities = Counter(s.region for s in sites.values() if s.kind == "city")
    harbors = Counter(s.region for s in sites.values() if s.kind == "harbor")
    for rid in REGION_IDS:
        name = _region_name(content, rid)
        if cities.get(rid, 0) != CITIES_PER_REGION:
            out.append(f"D2: region {name} has {cities.get(rid, 0)} cities; it must have {CITIES_PER_REGION}.")
        if harbors.get(rid, 0) != HARBORS_PER_REGION:
            out.append(f"D2: region {name} has {harbors.get(rid, 0)} harbors; it must have {HARBORS_PER_REGION}.")
    split: dict[str, Counter[Optional[str]]] = {sid: Counter() for sid in SEA_IDS}
    for at, s in sorted(sites.items()):
        if s.kind != "harbor":
            continue
        if s.sea in split:
            split[s.sea][s.region] += 1
        if not any(sea_of.get(n) == s.sea for n in hexgrid.neighbors(at)):
            out.append(f"D2: harbor {s.name} at {at} has no neighbour in its sea "
                       f"{_sea_name(content, s.sea or '')}; a harbor must be a coastal hex of its sea.")
    for sid in SEA_IDS:
        want = HARBOR_SPLIT[sid]
        got = split[sid]
        total = sum(got.values())
        if total != 4:
            out.append(f"D2: sea {_sea_name(content, sid)} has {total} harbors; it must have 4.")
        for rid in REGION_IDS:
            if got.get(rid, 0) != want.get(rid, 0):
                out.append(f"D2: sea {_sea_name(content, sid)} has {got.get(rid, 0)} harbor(s) of "
                           f"{_region_name(content, rid)}; the D2 table says {want.get(rid, 0)}.")
    return out


def _check_symbols(content: Content) -> list[str]:
    out = []
    by_region: dict[str, list[Site]] = {rid: [] for rid in REGION_IDS}
    for s in content.sites.values():
        if s.kind == "city":
            by_region.setdefault(s.region, []).append(s)
    for rid in REGION_IDS:
        want = WESTERN_SYMBOLS if rid in WEST else EASTERN_SYMBOLS
        group = "western" if rid in WEST else "eastern"
        have = Counter(s.symbol for s in by_region[rid])
        for s in sorted(by_region[rid], key=lambda s: s.name):
            if s.symbol not in want:
                out.append(f"D4: city {s.name} in {_region_name(content, rid)} shows {s.symbol}, "
                           f"which is not a {group} symbol ({', '.join(want)}).")
        for sym in want:
            if have.get(sym, 0) != 1:
                out.append(f"D4: region {_region_name(content, rid)} has {have.get(sym, 0)} "
                           f"{sym} cities; it must have exactly one.")
    return out


def _land_borders(content: Content) -> dict[frozenset[str], set[frozenset[Hex]]]:
    region_of = content.region_of
    borders: dict[frozenset[str], set[frozenset[Hex]]] = {}
    for h, rid in region_of.items():
        for n in hexgrid.neighbors(h):
            other = region_of.get(n)
            if other is not None and other != rid:
                borders.setdefault(frozenset((rid, other)), set()).add(frozenset((h, n)))
    return borders


def _check_barriers(content: Content) -> list[str]:
    out = []
    region_of = content.region_of
    allowed = {frozenset(p) for p in FULL_BARRIERS + PARTIAL_BARRIERS}
    for b in content.board.barriers:
        a, c = (b.a[0], b.a[1]), (b.b[0], b.b[1])
        ra, rc = region_of.get(a), region_of.get(c)
        if ra is None or rc is None:
            out.append(f"D2: barrier {a}-{c} is not between two land hexes.")
        elif ra == rc:
            out.append(f"D2: barrier {a}-{c} lies inside {_region_name(content, ra)}; "
                       f"barriers lie on borders between regions.")
        elif frozenset((ra, rc)) not in allowed:
            out.append(f"D2: barrier {a}-{c} lies on the border {_region_name(content, ra)}-"
                       f"{_region_name(content, rc)}, which D2 leaves open.")
    borders = _land_borders(content)
    barriers = content.barriers
    for x, y in FULL_BARRIERS:
        edges = borders.get(frozenset((x, y)), set())
        label = f"{_region_name(content, x)}-{_region_name(content, y)}"
        if not edges:
            out.append(f"D2: regions {label} share no land border; D2 bars their whole border.")
        for e in sorted(edges - barriers, key=sorted):
            a, c = sorted(e)
            out.append(f"D2: the {label} border must be barred all along, but the edge {a}-{c} is open.")
    for x, y in PARTIAL_BARRIERS:
        edges = borders.get(frozenset((x, y)), set())
        label = f"{_region_name(content, x)}-{_region_name(content, y)}"
        barred = edges & barriers
        if not barred:
            out.append(f"D2: part of the {label} border must be barred, but none of it is.")
        elif barred == edges:
            out.append(f"D2: only part of the {label} border should be barred, but all of it is.")
    return out


def _check_islands(content: Content) -> list[str]:
    """D2: an island region (Britannia) touches no land hex of another region."""
    out = []
    marked = {r.id for r in content.board.regions if r.island}
    for rid in ISLANDS:
        if rid not in marked:
            out.append(f"D2: {_region_name(content, rid)} is an island, but board.json does not "
                       f"mark it so (regions[].island).")
    region_of = content.region_of
    for rid in [r for r in REGION_IDS if r in marked or r in ISLANDS]:
        for h in sorted(h for h, r in region_of.items() if r == rid):
            for n in hexgrid.neighbors(h):
                other = region_of.get(n)
                if other is not None and other != rid:
                    out.append(f"D2: {_region_name(content, rid)} is an island, but its land hex {h} "
                               f"touches the land hex {n} of {_region_name(content, other)}.")
    return out


# ---------------------------------------------------------------- straits (D2)

# Points where a hex's land is sampled: a lattice of step 1/3 hex units, 37 points.
_SAMPLES = tuple((hexgrid.SQRT3 * (i + j / 2) / 3, 1.5 * j / 3)
                 for j in range(-3, 4) for i in range(-3, 4) if abs(i + j) <= 3)


Ring = list[tuple[float, float]]


def land_masses(content: Content) -> list[tuple[Ring, list[Ring]]] | None:
    """The real land masses of ``coastline.json`` (hex units) as (outer ring, holes), or
    None when the board names no coastline file. Raises OSError / ValueError on a file
    that cannot be read."""
    name = content.board.render.coastline
    if not name:
        return None
    raw = json.loads((content.directory / name).read_text(encoding="utf-8"))

    def ring(pts: list[list[float]]) -> Ring:
        return [(float(p[0]), float(p[1])) for p in pts]

    out = []
    for poly in raw.get("polygons", []) if isinstance(raw, dict) else raw:
        if isinstance(poly, dict):  # {"outer": ring, "holes": [ring, ...]}
            out.append((ring(poly.get("outer") or []), [ring(h) for h in poly.get("holes") or []]))
        elif poly and isinstance(poly[0][0], (list, tuple)):  # [outer, hole, ...]
            out.append((ring(poly[0]), [ring(h) for h in poly[1:]]))
        elif poly:  # one outer ring (the shipped format)
            out.append((ring(poly), []))
    return out


def _inside(ring: Ring, x: float, y: float) -> bool:
    inside = False
    x2, y2 = ring[-1]
    for x1, y1 in ring:
        if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            inside = not inside
        x2, y2 = x1, y1
    return inside


Box = tuple[float, float, float, float]


def main_land_mass(masses: list[tuple[Ring, list[Ring]]], h: Hex,
                   boxes: Optional[list[Box]] = None) -> int | None:
    """The index in ``masses`` of the land mass that covers most of hex ``h`` (37 points
    sampled), None when the real coastline has no land in ``h``; ties go to the lower index."""
    if boxes is None:
        boxes = _boxes(masses)
    cx, cy = hexgrid.to_pixel(h)
    count: Counter[int] = Counter()
    for dx, dy in _SAMPLES:
        x, y = cx + dx, cy + dy
        for i, (outer, holes) in enumerate(masses):
            x0, y0, x1, y1 = boxes[i]
            if x0 <= x <= x1 and y0 <= y <= y1 and _inside(outer, x, y) \
                    and not any(_inside(hole, x, y) for hole in holes):
                count[i] += 1
                break
    if not count:
        return None
    best: int = min(count, key=lambda i: (-count[i], i))
    return best


def _boxes(masses: list[tuple[Ring, list[Ring]]]) -> list[Box]:
    return [(min(x for x, _ in o), min(y for _, y in o), max(x for x, _ in o), max(y for _, y in o))
            if o else (0.0, 0.0, -1.0, -1.0) for o, _ in masses]


def straits(content: Content) -> list[tuple[Hex, Hex, int | None, int | None]]:
    """Neighbouring land hexes of two different regions that stand on different land
    masses of the real coastline, i.e. with a strait of sea between them in Europe
    (D2: regions meet by land only where Europe does), as (a, b, mass of a, mass of b),
    a < b. A hex whose real land is none at all has mass None. [] without a coastline."""
    masses = land_masses(content)
    if not masses:
        return []
    boxes = _boxes(masses)
    region_of = content.region_of
    mass: dict[Hex, int | None] = {}
    out = []
    for a in sorted(region_of):
        for b in hexgrid.neighbors(a):
            if b <= a or region_of.get(b) in (None, region_of[a]):
                continue
            for h in (a, b):
                if h not in mass:
                    mass[h] = main_land_mass(masses, h, boxes)
            if mass[a] is None or mass[a] != mass[b]:
                out.append((a, b, mass[a], mass[b]))
    return out


def _check_straits(content: Content) -> list[str]:
    out = []
    try:
        found = straits(content)
    except (OSError, ValueError, TypeError, IndexError) as e:
        return [f"D2: the coastline file {content.board.render.coastline} cannot be read "
                f"({type(e).__name__}: {e}), so straits between regions are not checked."]
    region_of = content.region_of
    for a, b, ma, mb in found:
        ra, rb = _region_name(content, region_of[a]), _region_name(content, region_of[b])
        if ma is None or mb is None:
            why = f"the real coastline has no land in {a if ma is None else b}"
        else:
            why = "in the real coastline (coastline.json) most of their land lies on two different land masses"
        out.append(f"D2: the land hexes {a} of {ra} and {b} of {rb} are neighbours across a strait: "
                   f"{why}; regions may touch by land only where Europe does.")
    return out


def _check_labels(content: Content) -> list[str]:
    out = []
    board = content.board
    for r in board.regions:
        h = hexgrid.from_pixel(*r.label)
        if content.region_of.get(h) != r.id:
            out.append(f"D2: the label of region {r.name} at {tuple(r.label)} is over hex {h}, "
                       f"which is not a hex of {r.name}.")
    for s in board.seas:
        h = hexgrid.from_pixel(*s.label)
        if content.sea_of.get(h) != s.id:
            out.append(f"D2: the label of sea {s.name} at {tuple(s.label)} is over hex {h}, "
                       f"which is not a hex of {s.name}.")
    return out


def _check_coverings(content: Content) -> list[str]:
    out = []
    examples = covering_examples(content)
    fiefs = content.fiefs
    for mix in sorted(set(examples) - ALLOWED_COVERINGS):
        number, k, anchor, names = examples[mix]
        name = fiefs[number].name
        out.append(f"D2: a fief can cover {_describe(mix)}, which the rules never allow: "
                   f"fief {number} ({name}) turned {k} at {anchor} covers {', '.join(names)}.")
    for mix in sorted(ALLOWED_COVERINGS - set(examples)):
        out.append(f"D2: no fief can cover {_describe(mix)} anywhere on the board, "
                   f"but the rules name that covering.")
    return out
