"""The board of Europe as data: spec D2 (board, sites, harbors by sea, barriers, coverings)
and D4 (city symbols), checked by ``gonzaga.rules.mapcheck``.

The first tests check the shipped board. Each later test breaks one thing in a copy of the
board data (validated through the content models) and asserts that ``check_board`` names it.
"""
from __future__ import annotations

import copy
import dataclasses
import json

import pytest
from pydantic import ValidationError

from gonzaga.rules import hexgrid, mapcheck
from gonzaga.rules.content import BoardFile, load_content

pytestmark = pytest.mark.rule("D2")  # the D4 tests carry D4 as well


@pytest.fixture(scope="module")
def content():
    return load_content()


@pytest.fixture(scope="module")
def raw(content):
    return json.loads((content.directory / "board.json").read_text(encoding="utf-8"))


def variant(content, raw, change):
    """The real content with a board changed by ``change(data)`` (a copy of board.json)."""
    data = copy.deepcopy(raw)
    change(data)
    board = BoardFile.model_validate(data)  # still a well-formed file
    return dataclasses.replace(content, board=board)


def problems_of(content, raw, change) -> list[str]:
    return mapcheck.check_board(variant(content, raw, change))


def assert_reported(problems: list[str], *fragments: str) -> None:
    hits = [p for p in problems if all(f in p for f in fragments)]
    assert hits, f"no problem mentions {fragments!r}; got: {problems}"


def site(data, name):
    return next(s for s in data["sites"] if s["name"] == name)


def hex_entry(data, q, r):
    return next(h for h in data["hexes"] if (h["q"], h["r"]) == (q, r))


# ---------------------------------------------------------------- the shipped board

@pytest.mark.rule("D4")
def test_D2_D4_shipped_board_has_no_problem(content):
    """D2, D4: the real board passes every design check."""
    assert mapcheck.check_board(content) == []


def test_D2_coverings_are_exactly_the_named_ones(content):
    """D2 (P2-P5): a fief can cover 1-2 harbors (A), 1-3 cities or nothing (B),
    1c+1h, 2c+1h, 1c+2h (C), and nothing else (never 3 harbors, never 4 sites)."""
    got = mapcheck.coverings(content)
    assert got == set(mapcheck.ALLOWED_COVERINGS)
    assert all(h < 3 and h + c < 4 for h, c in got)


def test_D2_coverings_agree_with_fief_footprints(content):
    """D2, P6/P8/P9: a second, plain computation of the coverings through Fief.footprint."""
    terrain, sites, barriers = content.terrain, content.sites, content.barriers
    mixes = set()
    for fief in content.fiefs.values():
        for k in fief.distinct_rotations:
            for anchor in terrain:
                cells, castles = fief.footprint(anchor, k)
                if not all(c in terrain for c in cells):
                    continue
                if not all(terrain[c] == "land" for c in castles):
                    continue
                if any(frozenset((a, b)) in barriers for a in cells for b in cells
                       if hexgrid.are_adjacent(a, b)):
                    continue
                covered = [sites[c] for c in cells if c in sites]
                h = sum(1 for s in covered if s.kind == "harbor")
                mixes.add((h, len(covered) - h))
    assert mixes == mapcheck.coverings(content)


def test_D2_shipped_board_names(content):
    """D2: Mantova in Italia and Vilnius in Europa Orientalis; every site is named."""
    by_name = {s.name: s for s in content.sites.values()}
    assert by_name["Mantova"].region == "italia" and by_name["Mantova"].kind == "city"
    assert by_name["Vilnius"].region == "orientalis" and by_name["Vilnius"].kind == "city"
    assert len(by_name) == 48


def test_D2_coastline_file_is_small_and_in_hex_units(content):
    """D2 (render): the coastline file named by the board exists, is small, and lies over the map."""
    path = content.directory / content.board.render.coastline
    assert path.stat().st_size < 300_000
    coast = json.loads(path.read_text(encoding="utf-8"))
    xs = [hexgrid.to_pixel(h)[0] for h in content.terrain]
    ys = [hexgrid.to_pixel(h)[1] for h in content.terrain]
    assert coast["polygons"]
    for poly in coast["polygons"]:
        assert len(poly) >= 3
        for x, y in poly:
            assert min(xs) - 3 <= x <= max(xs) + 3 and min(ys) - 3 <= y <= max(ys) + 3


# ---------------------------------------------------------------- sizes and connection (D2)

def test_D2_region_too_small_is_reported(content, raw):
    """D2: each region has 35-70 land hexes."""
    def change(d):
        taken = {(s["q"], s["r"]) for s in d["sites"]}
        italia = [h for h in d["hexes"] if h.get("region") == "italia" and (h["q"], h["r"]) not in taken]
        for h in italia[:8]:
            h.update(terrain="sea", sea="tyrrhenum")
            del h["region"]
    assert_reported(problems_of(content, raw, change), "region Italia has", "land hexes")


def test_D2_total_hexes_out_of_range_is_reported(content, raw):
    """D2: the map has 500-800 hexes."""
    def change(d):
        seas = [h for h in d["hexes"] if h["terrain"] == "sea"]
        drop = {(h["q"], h["r"]) for h in seas[:150]}
        d["hexes"] = [h for h in d["hexes"] if (h["q"], h["r"]) not in drop]
    assert_reported(problems_of(content, raw, change), "the map has", "hexes; it should have 500-800")


def test_D2_region_not_connected_is_reported(content, raw):
    """D2: each region's land is one connected piece."""
    def change(d):
        hex_entry(d, 10, 10)["region"] = "italia"  # a hex deep in Germania
    assert_reported(problems_of(content, raw, change), "region Italia is not connected", "(10, 10)")


def test_D2_sea_not_connected_is_reported(content, raw):
    """D2: each sea zone is one connected piece."""
    def change(d):
        h = next(h for h in d["hexes"] if h.get("sea") == "britannicum"
                 and all(n.get("sea") == "britannicum" for n in d["hexes"]
                         if hexgrid.are_adjacent((h["q"], h["r"]), (n["q"], n["r"]))))
        h["sea"] = "adriaticum"
    assert_reported(problems_of(content, raw, change), "sea Mare Adriaticum is not connected")


# ---------------------------------------------------------------- sites (D2)

def test_D2_missing_city_is_reported(content, raw):
    """D2: each region has exactly 4 cities."""
    def change(d):
        d["sites"].remove(site(d, "Toledo"))
    assert_reported(problems_of(content, raw, change), "region Hispania has 3 cities")


def test_D2_missing_harbor_breaks_region_and_sea_counts(content, raw):
    """D2: each region has 4 harbors, each sea has 4."""
    def change(d):
        d["sites"].remove(site(d, "Lisboa"))
    problems = problems_of(content, raw, change)
    assert_reported(problems, "region Hispania has 3 harbors")
    assert_reported(problems, "sea Oceanus Cantabricus has 3 harbors")


def test_D2_harbor_split_by_sea_is_checked(content, raw):
    """D2: the harbors of each sea come from the regions of the D2 table."""
    def change(d):
        # Bordeaux shows Mare Britannicum's symbol instead of Oceanus Cantabricus's:
        # give it a neighbour in that sea so that only the split is wrong
        site(d, "Bordeaux")["sea"] = "britannicum"
        q, r = site(d, "Bordeaux")["q"], site(d, "Bordeaux")["r"]
        for h in d["hexes"]:
            if h["terrain"] == "sea" and hexgrid.are_adjacent((q, r), (h["q"], h["r"])):
                h["sea"] = "britannicum"
    problems = problems_of(content, raw, change)
    assert_reported(problems, "sea Mare Britannicum has 3 harbor(s) of Francia", "the D2 table says 2")
    assert_reported(problems, "sea Oceanus Cantabricus has 0 harbor(s) of Francia", "the D2 table says 1")


def test_D2_inland_harbor_is_reported(content, raw):
    """D2: a harbor is a coastal land hex with a neighbour in its sea."""
    def change(d):
        s = site(d, "Bilbao")
        s["q"], s["r"] = -6, 22  # inland Castile
    assert_reported(problems_of(content, raw, change), "harbor Bilbao at (-6, 22)", "no neighbour in its sea")


def test_D2_a_harbor_on_another_seas_coast_is_reported(content, raw):
    """D2: a harbor's coast is on its own sea: Bordeaux (on Oceanus Cantabricus's coast) said to be
    a harbor of Mare Britannicum touches a sea, but not its own."""
    def change(d):
        site(d, "Bordeaux")["sea"] = "britannicum"
    assert_reported(problems_of(content, raw, change), "harbor Bordeaux", "no neighbour in its sea Mare Britannicum")


def test_D2_two_sites_on_one_hex_are_refused(raw):
    """D2: no two sites share a hex (the content model refuses the file)."""
    data = copy.deepcopy(raw)
    toledo = site(data, "Toledo")
    salamanca = site(data, "Salamanca")
    toledo["q"], toledo["r"] = salamanca["q"], salamanca["r"]
    with pytest.raises(ValidationError, match="two sites on hex"):
        BoardFile.model_validate(data)


# ---------------------------------------------------------------- symbols (D4)

@pytest.mark.rule("D4")
def test_D4_repeated_symbol_is_reported(content, raw):
    """D4: each western region has one city of each western symbol."""
    def change(d):
        site(d, "Paris")["symbol"] = "cathedral"
    problems = problems_of(content, raw, change)
    assert_reported(problems, "D4", "region Francia has 2 cathedral cities")
    assert_reported(problems, "D4", "region Francia has 0 university cities")


@pytest.mark.rule("D4")
def test_D4_symbol_of_the_wrong_group_is_reported(content, raw):
    """D4: eastern regions show eastern symbols only."""
    def change(d):
        site(d, "Mantova")["symbol"] = "wine"
    assert_reported(problems_of(content, raw, change), "D4", "city Mantova", "not a eastern symbol")


# ---------------------------------------------------------------- barriers (D2, P9)

def _edges(content, x, y):
    region_of = content.region_of
    return sorted({tuple(sorted((h, n))) for h, r in region_of.items() for n in hexgrid.neighbors(h)
                   if r == x and region_of.get(n) == y})


def test_D2_open_edge_in_the_pyrenees_is_reported(content, raw):
    """D2: the whole Hispania-Francia land border is barred."""
    a, b = _edges(content, "hispania", "francia")[0]

    def change(d):
        d["barriers"] = [x for x in d["barriers"] if {tuple(x["a"]), tuple(x["b"])} != {a, b}]
    assert_reported(problems_of(content, raw, change), "Hispania-Francia border must be barred all along",
                    f"{min(a, b)}-{max(a, b)} is open")


def test_D2_alps_must_be_barred(content, raw):
    """D2: the Francia-Italia and Italia-Germania borders are barred all along."""
    def change(d):
        d["barriers"] = [x for x in d["barriers"]
                         if "italia" not in {content.region_of[tuple(x["a"])], content.region_of[tuple(x["b"])]}]
    problems = problems_of(content, raw, change)
    assert_reported(problems, "Francia-Italia border must be barred all along")
    assert_reported(problems, "Italia-Germania border must be barred all along")


def test_D2_barrier_on_an_open_border_is_reported(content, raw):
    """D2: Francia-Germania is not a barred border."""
    a, b = _edges(content, "francia", "germania")[0]

    def change(d):
        d["barriers"].append({"a": list(a), "b": list(b)})
    assert_reported(problems_of(content, raw, change), f"barrier {a}-{b}", "which D2 leaves open")


def test_D2_barrier_inside_a_region_or_at_sea_is_reported(content, raw):
    """D2: barriers lie between land hexes of two different regions."""
    def change(d):
        d["barriers"].append({"a": [10, 10], "b": [11, 10]})  # inside Germania
        d["barriers"].append({"a": [6, 7], "b": [7, 7]})  # in the North Sea
    problems = problems_of(content, raw, change)
    assert_reported(problems, "barrier (10, 10)-(11, 10) lies inside Germania")
    assert_reported(problems, "barrier (6, 7)-(7, 7) is not between two land hexes")


def test_D2_germania_orientalis_barred_only_in_part(content, raw):
    """D2: part of the Germania-Europa Orientalis border is barred, not none and not all."""
    edges = _edges(content, "germania", "orientalis")

    def none(d):
        d["barriers"] = [x for x in d["barriers"]
                         if {content.region_of[tuple(x["a"])], content.region_of[tuple(x["b"])]}
                         != {"germania", "orientalis"}]

    def everything(d):
        none(d)
        d["barriers"] += [{"a": list(a), "b": list(b)} for a, b in edges]
    assert_reported(problems_of(content, raw, none), "Germania-Europa Orientalis border", "none of it is")
    assert_reported(problems_of(content, raw, everything), "Germania-Europa Orientalis border", "all of it is")


# ---------------------------------------------------------------- coverings (D2)

def test_D2_three_harbors_in_reach_are_reported(content, raw):
    """D2: no fief can ever cover 3 harbors (York, between Newcastle and Hull, made a harbor)."""
    def change(d):
        york = site(d, "York")
        york.update(kind="harbor", sea="germanicum")
        del york["symbol"]
    assert_reported(problems_of(content, raw, change), "a fief can cover 3 harbors", "which the rules never allow")


def test_D2_four_sites_in_reach_are_reported(content, raw):
    """D2: no fief can cover 4 sites (a harbor moved next to Oxford, London and Norwich)."""
    def change(d):
        s = site(d, "Plymouth")
        s["q"], s["r"] = 1, 11
    problems = problems_of(content, raw, change)
    assert_reported(problems, "a fief can cover 3 cities and 1 harbor", "which the rules never allow")


def test_D2_missing_covering_is_reported(content, raw):
    """D2: every covering the rules name is possible somewhere (without cities: no B, no C)."""
    def change(d):
        d["sites"] = [s for s in d["sites"] if s["kind"] != "city"]
    problems = problems_of(content, raw, change)
    assert_reported(problems, "no fief can cover 1 city anywhere")
    assert_reported(problems, "no fief can cover 3 cities anywhere")
    assert_reported(problems, "no fief can cover 2 cities and 1 harbor anywhere")


# ---------------------------------------------------------------- labels, robustness

def test_D2_label_off_its_region_is_reported(content, raw):
    """D2 (render data): a region's label anchor lies over one of its hexes."""
    def change(d):
        d["regions"][0]["label"] = list(hexgrid.to_pixel((10, 10)))  # Hispania's name over Germania
    assert_reported(problems_of(content, raw, change), "the label of region Hispania")


def test_D2_check_board_never_raises(content, raw):
    """D2: a badly broken board gives sentences, not an exception."""
    def change(d):
        d["hexes"] = [h for h in d["hexes"] if h.get("region") != "orientalis"]
        d["sites"] = [s for s in d["sites"] if (s["q"], s["r"]) in {(h["q"], h["r"]) for h in d["hexes"]}]
        d["barriers"] = [b for b in d["barriers"]
                         if {tuple(b["a"]), tuple(b["b"])} <= {(h["q"], h["r"]) for h in d["hexes"]}]
    problems = problems_of(content, raw, change)
    assert_reported(problems, "region Europa Orientalis has 0 land hexes")
    assert_reported(problems, "region Europa Orientalis has 0 cities")


# ---------------------------------------------------------------- Britannia an island, straits (D2)

def _old_land_bridge(d):
    """The board before Britannia became an island: Kent's hex (3, 11) was land of
    Britannia, touching Flanders (4, 11) and Picardy (3, 12) of Francia."""
    h = hex_entry(d, 3, 11)
    h.update(terrain="land", region="britannia")
    del h["sea"]


def test_D2_britannia_is_an_island_on_the_shipped_board(content):
    """D2: Britannia is marked an island, and none of its land hexes touches another region."""
    assert [r.id for r in content.board.regions if r.island] == ["britannia"]
    region_of = content.region_of
    for h, rid in region_of.items():
        if rid == "britannia":
            assert all(region_of.get(n) in (None, "britannia") for n in hexgrid.neighbors(h)), h
    assert mapcheck.straits(content) == []


def test_D2_old_land_bridge_to_britannia_is_reported(content, raw):
    """D2: Kent touching Flanders (the board before the fix) breaks the island rule and is a
    strait in the real coastline; both messages name the hexes and the regions."""
    problems = problems_of(content, raw, _old_land_bridge)
    assert_reported(problems, "Britannia is an island", "(3, 11)", "(4, 11) of Francia")
    assert_reported(problems, "Britannia is an island", "(3, 11)", "(3, 12) of Francia")
    assert_reported(problems, "land hexes (3, 11) of Britannia and (4, 11) of Francia",
                    "neighbours across a strait")
    assert_reported(problems, "land hexes (3, 11) of Britannia and (3, 12) of Francia",
                    "neighbours across a strait")
    assert len(problems) == 4, problems


def test_D2_strait_is_found_without_the_island_mark(content, raw):
    """D2: the coastline check alone finds the Dover bridge, whatever board.json says."""
    def change(d):
        _old_land_bridge(d)
        next(r for r in d["regions"] if r["id"] == "britannia")["island"] = False
    c = variant(content, raw, change)
    assert sorted((a, b) for a, b, _, _ in mapcheck.straits(c)) == [((3, 11), (3, 12)), ((3, 11), (4, 11))]
    problems = mapcheck.check_board(c)
    assert_reported(problems, "Britannia is an island, but board.json does not mark it so")


def test_D2_strait_of_messina_between_two_regions_is_reported(content, raw):
    """D2: a Sicilian hex of another region next to Calabria lies across the Strait of Messina
    (Sicily and Italy are two land masses of the coastline; inside Italia that is fine)."""
    masses = mapcheck.land_masses(content)
    assert mapcheck.main_land_mass(masses, (5, 27)) != mapcheck.main_land_mass(masses, (6, 26))

    def change(d):
        hex_entry(d, 5, 27)["region"] = "hispania"
    assert_reported(problems_of(content, raw, change),
                    "land hexes (5, 27) of Hispania and (6, 26) of Italia are neighbours across a strait")


def _content_with_coastline(tmp_path, coastline_text: str):
    src = load_content().directory
    for f in src.glob("*.json"):
        (tmp_path / f.name).write_text(f.read_text(encoding="utf-8"), encoding="utf-8")
    (tmp_path / "coastline.json").write_text(coastline_text, encoding="utf-8")
    return load_content(tmp_path)


def test_D2_land_hex_without_real_land_is_reported(tmp_path):
    """D2: with a coastline that has no land under the board, every land border is a strait,
    and the message says which hex has no real land."""
    c = _content_with_coastline(tmp_path, json.dumps({"polygons": [[[-50, -50], [-49, -50], [-49, -49]]]}))
    problems = mapcheck.check_board(c)
    assert_reported(problems, "neighbours across a strait", "the real coastline has no land in")


def test_D2_unreadable_coastline_is_reported(tmp_path):
    """D2: a coastline file that cannot be read is a problem, not an exception."""
    c = _content_with_coastline(tmp_path, "{ not json")
    assert_reported(mapcheck.check_board(c), "coastline file coastline.json cannot be read")


def test_D2_island_mark_must_be_a_boolean(raw):
    """D2 (format): regions[].island is true or false, nothing else."""
    data = copy.deepcopy(raw)
    data["regions"][2]["island"] = "yes"
    with pytest.raises(ValidationError, match="island"):
        BoardFile.model_validate(data)


def _lon_lat(content, x, y):
    coast = json.loads((content.directory / content.board.render.coastline).read_text(encoding="utf-8"))
    p = coast["projection"]
    return p["lon0"] + x * p["hex_deg"] / p["lon_scale"], p["lat0"] - y * p["hex_deg"]


def test_D2_sea_names_sit_in_their_real_seas(content):
    """D2: Mare Adriaticum is named in the Adriatic (between Italy and Dalmatia, north of the
    Strait of Otranto), Mare Britannicum in the Channel (between Cornwall and Dover)."""
    seas = {s.id: s for s in content.board.seas}
    lon, lat = _lon_lat(content, *seas["adriaticum"].label)
    assert 12.0 <= lon <= 19.5 and 40.5 <= lat <= 45.8, (lon, lat)
    lon, lat = _lon_lat(content, *seas["britannicum"].label)
    assert -5.7 <= lon <= 1.5 and 49.0 <= lat <= 51.0, (lon, lat)
    # and over hexes of the sea between the two shores
    for sid, shores in (("adriaticum", {"italia", "orientalis"}), ("britannicum", {"britannia", "francia"})):
        h = hexgrid.from_pixel(*seas[sid].label)
        assert content.sea_of.get(h) == sid
        near = {content.region_of.get(n) for n in content.terrain if hexgrid.distance(h, n) <= 2}
        assert shores <= near, (sid, h, near)
