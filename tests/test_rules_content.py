"""The shipped board and cards against spec D2-D4, counted here from the spec's own words and
tables (a second reading beside ``gonzaga.rules.mapcheck``, which must also find no problem)."""
from collections import Counter

import pytest

from gonzaga.rules import hexgrid, load_content, mapcheck

WEST = {"hispania", "francia", "britannia"}
EAST = {"italia", "germania", "orientalis"}
WESTERN_SYMBOLS = {"university", "cathedral", "wine", "wool"}
EASTERN_SYMBOLS = {"bank", "art", "silk", "glass"}
HARBORS_BY_SEA = {  # spec D2's table
    "germanicum": {"britannia": 2, "germania": 2},
    "balticum": {"germania": 2, "orientalis": 2},
    "britannicum": {"britannia": 2, "francia": 2},
    "cantabricus": {"hispania": 3, "francia": 1},
    "tyrrhenum": {"hispania": 1, "francia": 1, "italia": 2},
    "adriaticum": {"italia": 2, "orientalis": 2},
}
# (harbors, cities) a fief may cover (P2-P4 as D2 names them), and nothing else
COVERINGS = {(0, 0), (1, 0), (2, 0), (0, 1), (0, 2), (0, 3), (1, 1), (1, 2), (2, 1)}


@pytest.fixture(scope="module")
def content():
    return load_content()


def _land_borders(content, a, b):
    land = {h for h, t in content.terrain.items() if t == "land"}
    region = content.region_of
    out = set()
    for h in land:
        for n in hexgrid.neighbors(h):
            if n in land and {region[h], region[n]} == {a, b}:
                out.add(frozenset((h, n)))
    return out


@pytest.mark.rule("D2", "D4")
def test_D2_D4_mapcheck_finds_no_problem_on_the_shipped_board(content):
    assert mapcheck.check_board(content) == []


@pytest.mark.rule("D2")
def test_D2_sizes_and_four_cities_four_harbors_per_region(content):
    terrain = content.terrain
    land = [h for h, t in terrain.items() if t == "land"]
    assert 500 <= len(terrain) <= 800 and 250 <= len(land) <= 350
    per_region = Counter(content.region_of[h] for h in land)
    assert set(per_region) == WEST | EAST and all(35 <= n <= 70 for n in per_region.values()), per_region
    assert all(content.sea_of.get(h) for h, t in terrain.items() if t == "sea")
    kinds = Counter((s.region, s.kind) for s in content.sites.values())
    assert kinds == {(r, k): 4 for r in WEST | EAST for k in ("city", "harbor")}
    assert all(terrain[h] == "land" for h in content.sites)


@pytest.mark.rule("D2")
def test_D2_harbors_by_sea_and_on_the_coast_of_their_sea(content):
    by_sea: dict = {}
    for h, s in content.sites.items():
        if s.kind == "harbor":
            by_sea.setdefault(s.sea, Counter())[s.region] += 1
            assert any(content.sea_of.get(n) == s.sea for n in hexgrid.neighbors(h)), (s.name, s.sea)
    assert by_sea == HARBORS_BY_SEA


@pytest.mark.rule("D2")
def test_D2_britannia_is_an_island_and_the_barriers(content):
    for other in (WEST | EAST) - {"britannia"}:
        assert not _land_borders(content, "britannia", other), other
    barriers = content.barriers
    for a, b in (("hispania", "francia"), ("francia", "italia"), ("italia", "germania")):
        border = _land_borders(content, a, b)
        assert border and border <= barriers, (a, b, len(border - barriers))
    border = _land_borders(content, "germania", "orientalis")
    assert border & barriers and border - barriers, "Germania-Europa Orientalis is barred in part"
    for edge in barriers:
        a, b = tuple(edge)
        assert hexgrid.are_adjacent(a, b)


@pytest.mark.rule("D2", "P5", "P6", "P8", "P9")
def test_D2_what_a_fief_can_cover_on_the_empty_board(content):
    """Every fief, every rotation, on every hex: where it may lie (P6, P8, P9), what it covers (P5)."""
    terrain = content.terrain
    sites = content.sites
    barriers = content.barriers
    found = set()
    for f in content.fiefs.values():
        for k in range(6):
            for anchor in terrain:
                cells, castles = f.footprint(anchor, k)
                if not all(c in terrain for c in cells) or any(terrain[c] != "land" for c in castles):
                    continue
                if any(frozenset((a, b)) in barriers for a in cells for b in cells if a < b):
                    continue
                kinds = Counter(sites[c].kind for c in cells if c in sites)
                found.add((kinds["harbor"], kinds["city"]))
    assert found == COVERINGS


@pytest.mark.rule("D4")
def test_D4_symbols_and_objective_cards(content):
    for region in WEST | EAST:
        symbols = sorted(s.symbol for s in content.sites.values() if s.kind == "city" and s.region == region)
        assert symbols == sorted(WESTERN_SYMBOLS if region in WEST else EASTERN_SYMBOLS), region
    cards = {(o.western, o.eastern) for o in content.objectives}
    assert len(content.objectives) == 16 and cards == {(w, e) for w in WESTERN_SYMBOLS for e in EASTERN_SYMBOLS}
    for o in content.objectives:
        cities = content.objective_cities(o.id)
        assert sorted(content.region_of[h] for h in cities) == sorted(WEST | EAST)
        assert {content.sites[h].symbol for h in cities} == {o.western, o.eastern}
