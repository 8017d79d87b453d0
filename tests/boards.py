"""Small hand-made boards for rule tests (fixtures), written as ASCII art.

Each row string is one hex row r (0, 1, 2, ...) in "odd-r" offset layout: the
character at column c is the hex at axial q = c - (r - (r & 1)) // 2. Characters:
upper case = land of a region (H Hispania, F Francia, B Britannia, I Italia,
G Germania, E Europa Orientalis), lower case = sea (g Germanicum, b Balticum,
n Britannicum, c Cantabricus, t Tyrrhenum, a Adriaticum), space = no hex.
"""
from __future__ import annotations

import json
import shutil
from pathlib import Path

from gonzaga.resources import asset_path
from gonzaga.rules import load_content

REGIONS = {"H": "hispania", "F": "francia", "B": "britannia", "I": "italia", "G": "germania",
           "E": "orientalis"}
SEAS = {"g": "germanicum", "b": "balticum", "n": "britannicum", "c": "cantabricus", "t": "tyrrhenum",
        "a": "adriaticum"}
SEA_SYMBOLS = ["anchor", "ship", "fish", "shell", "trident", "compass"]


def axial(col: int, row: int) -> tuple[int, int]:
    return (col - (row - (row & 1)) // 2, row)


def board_json(rows: list[str], cities=(), harbors=(), barriers=()) -> dict:
    """cities: ((col,row), symbol); harbors: ((col,row), sea id); barriers: ((c,r),(c,r)) pairs."""
    hexes = []
    for row, line in enumerate(rows):
        for col, ch in enumerate(line):
            if ch == " ":
                continue
            q, r = axial(col, row)
            if ch in REGIONS:
                hexes.append({"q": q, "r": r, "terrain": "land", "region": REGIONS[ch]})
            else:
                hexes.append({"q": q, "r": r, "terrain": "sea", "sea": SEAS[ch]})
    sites = []
    for n, (cr, symbol) in enumerate(cities):
        q, r = axial(*cr)
        sites.append({"q": q, "r": r, "kind": "city", "name": f"City{n}", "symbol": symbol})
    for n, (cr, sea) in enumerate(harbors):
        q, r = axial(*cr)
        sites.append({"q": q, "r": r, "kind": "harbor", "name": f"Harbor{n}", "sea": sea})
    bars = []
    for a, b in barriers:
        bars.append({"a": list(axial(*a)), "b": list(axial(*b))})
    groups = {"hispania": "west", "francia": "west", "britannia": "west"}
    return {"version": 1, "name": "fixture",
            "regions": [{"id": rid, "name": rid.capitalize(), "group": groups.get(rid, "east"),
                         "color": "#999999", "label": [0, 0]} for rid in REGIONS.values()],
            "seas": [{"id": sid, "name": sid, "symbol": SEA_SYMBOLS[i], "label": [0, 0]}
                     for i, sid in enumerate(SEAS.values())],
            "hexes": hexes, "sites": sites, "barriers": bars}


def make_content(tmp_path: Path, rows, cities=(), harbors=(), barriers=()):
    """Write a fixture board beside the real fiefs, scenarios and objectives; load it."""
    d = Path(tmp_path) / "map"
    d.mkdir(parents=True, exist_ok=True)
    for name in ("fiefs.json", "scenarios.json", "objectives.json"):
        shutil.copy(asset_path("map", name), d / name)
    (d / "board.json").write_text(json.dumps(board_json(rows, cities, harbors, barriers)))
    return load_content(d)


# ---------------------------------------------------------------- game helpers

from gonzaga.rules import GameConfig, Setup, apply, new_game  # noqa: E402

DEFAULT_DECK = (10, 20, 30, 40, 50, 60, 70, 80, 90, 100, 110, 120)


def start(content, seats=2, scenario=None, decks=None, objectives=None, lt=0):
    """A game set up with a chosen deal (decks top-first, one per seat)."""
    scenario = scenario or {2: "Cervantes", 3: "Colombo", 4: "Dante"}[seats]
    state = new_game(GameConfig(seats=seats, scenario=scenario), content)
    decks = decks or [DEFAULT_DECK] * seats
    decks = [tuple(d) + tuple(n for n in DEFAULT_DECK if n not in d) for d in decks]
    objectives = objectives or [o.id for o in content.objectives[:seats]]
    return apply(state, Setup(scenario, lt, tuple(decks), tuple(objectives)))


# A plain board: two rows of sea, then land bands; sites added per test.
PLAIN = [
    "tttttttttttttt",
    "tHHHHHHFFFFFFt",
    "tHHHHHHFFFFFFt",
    "tHHHHHHFFFFFFt",
    "tIIIIIIGGGGGGt",
    "tIIIIIIGGGGGGt",
    "tIIIIIIGGGGGGt",
    "tttttttttttttt",
]


def col_row(q: int, r: int) -> tuple[int, int]:
    """The inverse of ``axial``: the (column, row) of an axial hex in the ASCII art."""
    return (q + (r - (r & 1)) // 2, r)


def verdict(st, place):
    """``check``'s answer for a placement, after asserting that the fast generator agrees
    (the placement is among ``legal_placements`` exactly when ``check`` accepts it)."""
    from gonzaga.rules import check, legal_placements
    why = check(st, place)
    s = st.seats[place.seat]
    fief = st.content.fiefs[place.fief]

    def spot(p):
        cells, castles = fief.footprint(p.anchor, p.rotation)
        return frozenset(cells), castles

    listed = {spot(p) for p in legal_placements(st, place.seat)} if place.fief == s.fief else set()
    assert (why is None) == (spot(place) in listed), (place, why)
    return why


def ring_verdict(st, wedding):
    """``check``'s answer for a wedding, after asserting that ``legal_weddings`` agrees."""
    from gonzaga.rules import check, legal_weddings
    why = check(st, wedding)
    listed = {frozenset(w.rings) for w in legal_weddings(st, wedding.seat)}
    assert (why is None) == (frozenset(wedding.rings) in listed and len(set(wedding.rings)) == len(wedding.rings)), \
        (wedding, why)
    return why
