"""Build the board of Europe (spec D2) from Natural Earth coastlines: a build-time tool.

Never imported by the game. It writes ``assets/map/board.json`` and
``assets/map/coastline.json``; after that, board.json is the source of truth and may be
edited by hand (``docs/map-format.md``). The tool is deterministic: the same shapefile and
the same constants below give byte-identical files, so the hand corrections that made the
shipped board are kept here as data (``OVERRIDES``, ``SITES``, ...), and re-running the tool
reproduces the shipped board exactly.

How it was used
---------------
1. Get Natural Earth's low-resolution country polygons (public domain), which ship inside an
   old geopandas wheel (only the data files are used, geopandas itself is not needed)::

       pip download --no-deps geopandas==0.14.4 -d /tmp/gp
       cd /tmp/gp && unzip -o geopandas-0.14.4-py3-none-any.whl \\
           'geopandas/datasets/naturalearth_lowres/*'

2. Install the ``map`` extra (pyshp, shapely) and run::

       python tools/build_map.py --shapefile \\
           /tmp/gp/geopandas/datasets/naturalearth_lowres/naturalearth_lowres.shp

   ``--ascii`` prints the grid as text (one letter per region or sea) to help hand work;
   ``--dry-run`` writes nothing.
3. Validate: ``python -m pytest tests/test_map_data.py`` (``gonzaga.rules.mapcheck``).

What it does
------------
* Projection: equirectangular, longitude scaled by cos(48°), in "hex units" (hex
  circumradius 1, y pointing south), the space of ``gonzaga.rules.hexgrid.to_pixel``::

      x = (lon - LON0) * cos(48°) / HEX_DEG,   y = (LAT0 - lat) / HEX_DEG

* Grid: every pointy-top axial hex whose centre falls in the window. A hex is land when
  at least LAND_FRACTION of its area is land, and takes the region of the country that
  covers most of it (``COUNTRY_REGION``); land of countries outside the six regions is
  left off the board.
* Sea: sea hexes within SEA_MARGIN steps of region land stay on the board, and every sea
  hex of the ``OPEN_WATER`` boxes (the Balearic sea); the six sea zones grow from one seed
  each (``SEA_SEEDS``, breadth-first, so every zone is connected).
* Hand corrections (``OVERRIDES``, applied before the sea is cut): the re-fashioning that
  the printed board also does (Kintyre joins Ulster so that Britain and Ireland are one
  Britannia, a thicker Italy, Corsica and Sardinia under the sea, Funen and the bay of Kiel
  made land so that Denmark holds together, Vilnius and Ragusa kept), so that region sizes
  fit D2 and every region is connected; and Dover's hex, which also holds Calais, under the
  Channel, so that Britannia is an island (D2, ``ISLANDS``).
* Sites (``SITES``, hexes chosen by hand; the calibration of ``docs/calibration.md`` moved
  five cities; ``SITE_LABEL_OFFSETS`` where a name goes first), barriers (every land edge of the ``BARRIER_PAIRS`` borders, and the
  Germania-Orientalis edges that ``partial_barrier`` picks), labels (``label_spot``, or
  ``LABEL_OVERRIDES``: Italia across the boot, Mare Britannicum in the Channel and Mare
  Adriaticum in the Adriatic, whose zones also hold the Celtic and the Ionian Sea).
* The coastline file: the countries dissolved into land masses, clipped to the board's box,
  simplified, without the islands the board sinks (``build_coastline``).

The steps that led to the shipped board: run with ``--ascii`` and look at the grid; count
the land hexes per region (printed at the end of every run) and move countries between
regions or re-fashion hexes (``OVERRIDES``) until every region has 35-70 land hexes and is
connected; choose the site hexes from the cities' real positions (``hex_at(lon, lat)``),
then nudge them until ``mapcheck.check_board`` is empty (harbors on their sea's coast, the
coverings exactly those of D2); then calibrate (``tools/calibrate.py``).
"""
from __future__ import annotations

import argparse
import json
import math
import sys
from collections import deque
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from gonzaga.rules import hexgrid  # noqa: E402

# ------------------------------------------------------------------ constants

LON0, LAT0 = -11.0, 60.0     # the origin of hex units
LON_MIN, LON_MAX = -11.0, 26.3
LAT_MIN, LAT_MAX = 35.5, 59.0
HEX_DEG = 0.55               # hex circumradius in (projected) degrees
KX = math.cos(math.radians(48.0))
LAND_FRACTION = 0.40
SEA_MARGIN = 3
OPEN_WATER = [(-1.0, 9.5, 37.5, 42.0)]  # lon/lat boxes whose sea hexes all stay

COUNTRY_REGION = {
    "Spain": "hispania", "Portugal": "hispania",
    "France": "francia", "Belgium": "francia", "Luxembourg": "francia",
    "United Kingdom": "britannia", "Ireland": "britannia",
    "Italy": "italia",
    "Netherlands": "francia",  # the Burgundian Low Countries, and Germania's size (D2)
    "Germany": "germania", "Austria": "germania", "Switzerland": "germania",
    "Czechia": "germania", "Denmark": "germania",
    "Poland": "orientalis", "Lithuania": "orientalis", "Russia": "orientalis",
    "Hungary": "orientalis", "Slovakia": "orientalis", "Slovenia": "orientalis",
    "Croatia": "orientalis",
}


def project(lon: float, lat: float) -> tuple[float, float]:
    return ((lon - LON0) * KX / HEX_DEG, (LAT0 - lat) / HEX_DEG)


def unproject(x: float, y: float) -> tuple[float, float]:
    return (LON0 + x * HEX_DEG / KX, LAT0 - y * HEX_DEG)


def hex_at(lon: float, lat: float) -> tuple[int, int]:
    return hexgrid.from_pixel(*project(lon, lat))


# ------------------------------------------------------------------ geography

def read_countries(shp: Path):
    import shapefile
    from shapely.geometry import shape
    import shapely

    reader = shapefile.Reader(str(shp))
    out = {}
    for sr in reader.shapeRecords():
        name = sr.record["name"]
        geom = shape(sr.shape.__geo_interface__)
        out[name] = shapely.transform(geom, lambda xy: [project(x, y) for x, y in xy])
    return out


def classify(countries):
    """Raw grid: {hex: ("land", country) | ("sea", None)} over the window."""
    from shapely.geometry import Polygon, box
    from shapely.prepared import prep

    x0, y1 = project(LON_MIN, LAT_MIN)
    x1, y0 = project(LON_MAX, LAT_MAX)
    window = box(x0 - 3, y0 - 3, x1 + 3, y1 + 3)
    local = {n: g.intersection(window) for n, g in countries.items() if g.intersects(window)}
    prepared = {n: prep(g) for n, g in local.items()}
    grid = {}
    rmin, rmax = int(math.floor(y0 / 1.5)) - 1, int(math.ceil(y1 / 1.5)) + 1
    for r in range(rmin, rmax + 1):
        for q in range(-r // 2 - 40, 80):
            cx, cy = hexgrid.to_pixel((q, r))
            if not (x0 <= cx <= x1 and y0 <= cy <= y1):
                continue
            poly = Polygon(hexgrid.corners((q, r)))
            area = poly.area
            best, best_a, total = None, 0.0, 0.0
            for n, g in local.items():
                if not prepared[n].intersects(poly):
                    continue
                a = g.intersection(poly).area
                total += a
                if a > best_a:
                    best, best_a = n, a
            if total >= LAND_FRACTION * area:
                grid[(q, r)] = ("land", best)
            else:
                grid[(q, r)] = ("sea", None)
    return grid, local


SEA_SEEDS = {  # (lon, lat) of one sea hex per zone; zones grow breadth-first from these
    "germanicum": (3.0, 55.5),
    "balticum": (17.0, 55.5),
    "britannicum": (-2.0, 50.0),
    "cantabricus": (-5.0, 45.5),
    "tyrrhenum": (6.0, 40.0),
    "adriaticum": (15.0, 43.0),
}

# Hand corrections, applied in order after the country assignment:
# hex -> region id (land of that region), "sea" (a sea hex), or None (off the board).
OVERRIDES: dict[tuple[int, int], object] = {
    # Britannia: Kintyre reaches Ulster, so Britain and Ireland are one region
    (1, 6): "britannia",
    # Britannia is an island (D2): the hex of Dover, which also holds Calais, goes under
    # the Channel, so Kent no longer touches Flanders
    (3, 11): "sea",
    # Italia: Corsica and Sardinia go under the sea; a thicker boot; all of Sicily
    (3, 22): "sea", (2, 24): "sea", (2, 25): "sea",
    (5, 23): "italia", (6, 24): "italia", (6, 25): "italia", (8, 22): "italia",
    (3, 27): "italia",
    # Europa Orientalis: Ragusa's coast
    (10, 20): "orientalis", (10, 21): "orientalis",
    # Europa Orientalis: Vilnius (the data's Belarus border runs just west of it)
    (22, 7): "orientalis",
    # Germania: Funen joins Jutland and Zealand
    (13, 5): "germania",
    # Germania: the enclosed bay of Kiel becomes Holstein
    (12, 6): "germania",
    # Germania: the Skaw under the sea (Germania's size, D2)
    (12, 4): "sea", (13, 4): "sea",
}

# Sea hexes forced into a zone (after the breadth-first growth).
SEA_OVERRIDES: dict[tuple[int, int], str] = {}


def assemble(grid):
    """Regions and seas on the raw grid: {hex: ("land", region) | ("sea", sea)}."""
    cells = {}
    for h, (t, country) in grid.items():
        if t == "land":
            reg = COUNTRY_REGION.get(country)
            if reg is not None:
                cells[h] = ("land", reg)
        else:
            cells[h] = ("sea", None)
    for h, v in OVERRIDES.items():
        if v is None:
            cells.pop(h, None)
        elif v == "sea":
            cells[h] = ("sea", None)
        else:
            cells[h] = ("land", v)
    land = {h for h, (t, _) in cells.items() if t == "land"}
    # keep sea hexes near region land
    near = set(land)
    frontier = set(land)
    for _ in range(SEA_MARGIN):
        nxt = set()
        for h in frontier:
            for n in hexgrid.neighbors(h):
                if n in cells and n not in near and cells[n][0] == "sea":
                    nxt.add(n)
        near |= nxt
        frontier = nxt
    # open water kept whatever the margin: the Balearic sea, so the western Mediterranean
    # is one sheet of water between Hispania, Francia and Italia
    for h, v in cells.items():
        lon, lat = unproject(*hexgrid.to_pixel(h))
        if v[0] == "sea" and any(a <= lon <= b and c <= lat <= d for a, b, c, d in OPEN_WATER):
            near.add(h)
    cells = {h: v for h, v in cells.items() if h in near}
    # sea zones, grown breadth-first from one seed each, in a fixed order
    zone = {}
    queue = deque()
    for sea, (lon, lat) in SEA_SEEDS.items():
        target = hex_at(lon, lat)  # the nearest sea hex on the board
        h = min((c for c, v in cells.items() if v[0] == "sea"),
                key=lambda c: (hexgrid.distance(c, target), c[1], c[0]))
        zone[h] = sea
        queue.append(h)
    while queue:
        h = queue.popleft()
        for n in hexgrid.neighbors(h):
            if n in cells and cells[n][0] == "sea" and n not in zone:
                zone[n] = zone[h]
                queue.append(n)
    zone.update(SEA_OVERRIDES)
    out = {}
    for h, (t, reg) in cells.items():
        if t == "land":
            out[h] = ("land", reg)
        elif h in zone:
            out[h] = ("sea", zone[h])
    return out


REGIONS = [  # id, name, group, colour (muted board-game tones)
    ("hispania", "Hispania", "west", "#d9a441"),
    ("francia", "Francia", "west", "#8e8cc4"),
    ("britannia", "Britannia", "west", "#b97a8f"),
    ("italia", "Italia", "east", "#8fb573"),
    ("germania", "Germania", "east", "#b8a07e"),
    ("orientalis", "Europa Orientalis", "east", "#c98a62"),
]
# Regions that are islands (D2): they touch no other region by land (mapcheck checks it)
ISLANDS = ("britannia",)
SEAS = [  # id, name, symbol
    ("germanicum", "Mare Germanicum", "anchor"),
    ("balticum", "Mare Balticum", "ship"),
    ("britannicum", "Mare Britannicum", "fish"),
    ("cantabricus", "Oceanus Cantabricus", "shell"),
    ("tyrrhenum", "Mare Tyrrhenum", "trident"),
    ("adriaticum", "Mare Adriaticum", "compass"),
]

# Sites: (kind, name, hex, symbol-or-sea). Hexes chosen by hand on the grid.
SITES: list[tuple[str, str, tuple[int, int], str]] = [
    # Hispania
    ("city", "Salamanca", (-8, 23), "university"),
    ("city", "Toledo", (-7, 24), "cathedral"),
    ("city", "Burgos", (-5, 21), "wool"),
    ("city", "Jerez", (-11, 28), "wine"),
    ("harbor", "Lisboa", (-11, 26), "cantabricus"),
    ("harbor", "A Coruña", (-8, 20), "cantabricus"),
    ("harbor", "Bilbao", (-4, 20), "cantabricus"),
    ("harbor", "Barcelona", (-2, 22), "tyrrhenum"),
    # Francia
    ("city", "Paris", (3, 13), "university"),
    ("city", "Avignon", (2, 19), "cathedral"),
    ("city", "Dijon", (4, 14), "wine"),
    ("city", "Gent", (5, 11), "wool"),
    ("harbor", "Rouen", (2, 13), "britannicum"),
    ("harbor", "Saint-Malo", (-1, 14), "britannicum"),
    ("harbor", "Bordeaux", (-2, 18), "cantabricus"),
    ("harbor", "Marseille", (1, 20), "tyrrhenum"),
    # Britannia
    ("city", "Oxford", (2, 10), "university"),
    ("city", "York", (3, 7), "cathedral"),
    ("city", "London", (3, 10), "wine"),
    ("city", "Norwich", (4, 9), "wool"),
    ("harbor", "Newcastle", (3, 6), "germanicum"),
    ("harbor", "Hull", (4, 7), "germanicum"),
    ("harbor", "Dublin", (-1, 8), "britannicum"),
    ("harbor", "Plymouth", (-1, 11), "britannicum"),
    # Italia
    ("city", "Firenze", (6, 20), "bank"),
    ("city", "Mantova", (6, 18), "art"),
    ("city", "Messina", (6, 26), "silk"),
    ("city", "Venezia", (7, 18), "glass"),
    ("harbor", "Genova", (4, 19), "tyrrhenum"),
    ("harbor", "Napoli", (6, 23), "tyrrhenum"),
    ("harbor", "Ancona", (7, 20), "adriaticum"),
    ("harbor", "Bari", (8, 23), "adriaticum"),
    # Germania
    ("city", "Augsburg", (8, 14), "bank"),
    ("city", "Nürnberg", (9, 13), "art"),
    ("city", "Köln", (7, 11), "silk"),
    ("city", "Praha", (11, 12), "glass"),
    ("harbor", "Emden", (9, 8), "germanicum"),
    ("harbor", "Hamburg", (11, 7), "germanicum"),
    ("harbor", "Rostock", (13, 7), "balticum"),
    ("harbor", "København", (14, 5), "balticum"),
    # Europa Orientalis
    ("city", "Kraków", (15, 12), "bank"),
    ("city", "Buda", (14, 15), "art"),
    ("city", "Vilnius", (21, 7), "silk"),
    ("city", "Poznań", (15, 9), "glass"),
    ("harbor", "Danzig", (17, 7), "balticum"),
    ("harbor", "Königsberg", (19, 7), "balticum"),
    ("harbor", "Zara", (9, 19), "adriaticum"),
    ("harbor", "Ragusa", (10, 21), "adriaticum"),
]

# Where a site's name goes first (label_offset, hex units; the default is below the badge):
# Ragusa's name above its badge, so that the Adriatic between Ragusa and Bari stays free for
# the sea's name.
SITE_LABEL_OFFSETS: dict[str, tuple[float, float]] = {
    "Ragusa": (0.0, -0.75),
}

# Label anchors chosen by hand (hex units) where the automatic spot reads badly: Italy is
# too narrow for a level label, which then lands on Sicily; put it across the middle. The
# zones of Mare Britannicum and Mare Adriaticum reach into the Celtic and the Ionian Sea,
# where the automatic spot (the widest open water) puts their names; D2 wants them in the
# Channel and in the Adriatic (the renderer writes a narrow sea's name on two lines there).
LABEL_OVERRIDES: dict[str, tuple[float, float]] = {
    "italia": (29.0, 32.25),  # between (6, 21) and (6, 22), north of Napoli
    "britannicum": (8.66, 18.0),  # (-1, 12), the Channel between Plymouth and Saint-Malo
    "adriaticum": (34.641, 33.0),  # (9, 22), the Adriatic between Ragusa and the Gargano
}

BARRIER_PAIRS = [("hispania", "francia"), ("francia", "italia"), ("italia", "germania")]


def partial_barrier(a, b) -> bool:
    """The barred part of the Germania-Europa Orientalis border (D2): the Sudetes and
    the Carpathians, south of 51.2°N and north of 48.3°N; the plain to the north and
    the Danube to the south stay open."""
    lat = min(unproject(*hexgrid.to_pixel(a))[1], unproject(*hexgrid.to_pixel(b))[1])
    return 48.3 <= lat <= 51.2


def barriers(cells):
    out = []
    for h in sorted(cells):
        t, reg = cells[h]
        if t != "land":
            continue
        for d in (0, 4, 5):  # each edge once: east, south-west, south-east
            n = hexgrid.add(h, hexgrid.DIRECTIONS[d])
            if n not in cells or cells[n][0] != "land" or cells[n][1] == reg:
                continue
            pair = {reg, cells[n][1]}
            if any(pair == {x, y} for x, y in BARRIER_PAIRS) or (
                    pair == {"germania", "orientalis"} and partial_barrier(h, n)):
                out.append((h, n))
    return out


def label_spot(cells, members, name, sites):
    """A label anchor (hex units) for ``name`` over an open stretch of ``members``.

    The label is taken as a box about 0.5 hex units per letter wide and 1.4 high; the spot
    is the member hex whose box covers the most member hexes that have no site and are not
    just under a site (where the renderer writes site names), with ties broken towards the
    members' centroid. The renderer still moves labels a little if they would collide.
    """
    half_w, half_h = 0.25 * len(name) + 0.5, 0.7
    blocked = set()
    for h in sites:
        blocked.add(h)
        blocked.update(hexgrid.neighbors(h))
    centres = {h: hexgrid.to_pixel(h) for h in cells}
    mx = sum(centres[h][0] for h in members) / len(members)
    my = sum(centres[h][1] for h in members) / len(members)

    def score(h):
        cx, cy = centres[h]
        total = 0.0
        for n, (x, y) in centres.items():
            if abs(x - cx) <= half_w and abs(y - cy) <= half_h + 0.75:
                if n in sites:
                    total -= 6
                elif n not in members:
                    total -= 2
                elif n in blocked:
                    total -= 1
                else:
                    total += 1
        return (total, -round(math.hypot(cx - mx, cy - my), 6), -h[1], -h[0])

    best = max((h for h in members if h not in blocked), key=score)
    x, y = centres[best]
    return (round(x, 3), round(y, 3))


def build_board(cells):
    sites_at = {s[2] for s in SITES}
    hexes = [{"q": q, "r": r, "terrain": t, ("region" if t == "land" else "sea"): z}
             for (q, r), (t, z) in sorted(cells.items(), key=lambda kv: (kv[0][1], kv[0][0]))]
    regions = []
    for rid, name, group, color in REGIONS:
        members = {h for h, (t, z) in cells.items() if t == "land" and z == rid}
        region = {"id": rid, "name": name, "group": group, "color": color,
                  "label": list(LABEL_OVERRIDES.get(rid) or label_spot(cells, members, name, sites_at))}
        if rid in ISLANDS:
            region["island"] = True
        regions.append(region)
    seas = []
    for sid, name, symbol in SEAS:
        members = {h for h, (t, z) in cells.items() if t == "sea" and z == sid}
        seas.append({"id": sid, "name": name, "symbol": symbol,
                     "label": list(LABEL_OVERRIDES.get(sid) or label_spot(cells, members, name, sites_at))})
    sites = []
    for kind, name, (q, r), extra in SITES:
        s = {"q": q, "r": r, "kind": kind, "name": name}
        s["symbol" if kind == "city" else "sea"] = extra
        if name in SITE_LABEL_OFFSETS:
            s["label_offset"] = list(SITE_LABEL_OFFSETS[name])
        sites.append(s)
    return {
        "version": 1,
        "name": "Europa",
        "regions": regions,
        "seas": seas,
        "hexes": hexes,
        "sites": sites,
        "barriers": [{"a": list(a), "b": list(b)} for a, b in barriers(cells)],
        "render": {"coastline": "coastline.json", "title": "Europa"},
    }


def build_coastline(local, cells, tolerance=0.04):
    """Land polygons in hex units, clipped to the board's box and simplified."""
    from shapely.geometry import box
    from shapely.ops import unary_union

    xs, ys = zip(*(hexgrid.to_pixel(h) for h in cells))
    clip = box(min(xs) - 1.5, min(ys) - 1.5, max(xs) + 1.5, max(ys) + 1.5)
    land = unary_union([g.buffer(0) for g in local.values()]).intersection(clip)
    land = land.simplify(tolerance, preserve_topology=True)
    polys = []
    for g in getattr(land, "geoms", [land]):
        if g.geom_type != "Polygon" or g.area < 0.05:
            continue
        c = g.representative_point()
        if cells.get(hexgrid.from_pixel(c.x, c.y), ("",))[0] == "sea":
            continue  # an island the board re-fashions into sea (Corsica, Sardinia, ...)
        ring = [[round(x, 2), round(y, 2)] for x, y in list(g.exterior.coords)[:-1]]
        polys.append(ring)
    polys.sort(key=lambda p: (p[0][1], p[0][0]))
    return {
        "version": 1,
        "units": "hex units: gonzaga.rules.hexgrid.to_pixel space, circumradius 1, y south",
        "source": "Natural Earth 1:110m countries (public domain), dissolved, simplified",
        "projection": {"lon0": LON0, "lat0": LAT0, "hex_deg": HEX_DEG, "lon_scale": round(KX, 6)},
        "polygons": polys,
    }


def ascii_map(cells):
    letters = {"hispania": "H", "francia": "F", "britannia": "B", "italia": "I",
               "germania": "G", "orientalis": "O"}
    sea_letters = {"germanicum": "g", "balticum": "b", "britannicum": "c",
                   "cantabricus": "a", "tyrrhenum": "t", "adriaticum": "d"}
    rows = sorted({r for _, r in cells})
    xmin = min(2 * q + r for q, r in cells)
    out = []
    for r in rows:
        line = {}
        for (q, rr), (t, z) in cells.items():
            if rr == r:
                line[2 * q + r - xmin] = letters[z] if t == "land" else sea_letters[z]
        width = max(line) + 1
        out.append(f"{r:4d} " + "".join(line.get(i, " ") for i in range(width)))
    return "\n".join(out)


def dump(obj) -> str:
    return json.dumps(obj, indent=1, ensure_ascii=False) + "\n"


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--shapefile", required=True, type=Path)
    ap.add_argument("--out", type=Path, default=ROOT / "assets" / "map")
    ap.add_argument("--ascii", action="store_true", help="print the grid as letters")
    ap.add_argument("--dry-run", action="store_true", help="write nothing")
    args = ap.parse_args(argv)
    countries = read_countries(args.shapefile)
    grid, local = classify(countries)
    cells = assemble(grid)
    board = build_board(cells)
    coast = build_coastline(local, cells)
    if args.ascii:
        print(ascii_map(cells))
    counts = {}
    for _h, (_t, z) in cells.items():
        counts[z] = counts.get(z, 0) + 1
    land = sum(1 for t, _ in cells.values() if t == "land")
    for rid, *_ in REGIONS:
        comps = hexgrid.components({h for h, v in cells.items() if v == ("land", rid)})
        if len(comps) > 1:
            print(f"{rid}: {len(comps)} parts: " + "; ".join(
                f"{len(c)} hexes at {sorted(c)[0]}" for c in comps))
    print(f"{len(cells)} hexes, {land} land; " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())))
    if not args.dry_run:
        args.out.mkdir(parents=True, exist_ok=True)
        (args.out / "board.json").write_text(dump(board), encoding="utf-8")
        (args.out / "coastline.json").write_text(
            json.dumps(coast, separators=(",", ":")) + "\n", encoding="utf-8")
        print(f"wrote {args.out / 'board.json'} and {args.out / 'coastline.json'}")
    return board, coast


if __name__ == "__main__":
    main()
