"""The map in high contrast (issue 49): every pair of colours that meets on the map reads at 7:1
or more (WCAG 2's formula, worked out here as tests/test_high_contrast.py does), the four seats
are apart by lightness and, through tools/colourblind.py's deuteranopia and protanopia
simulations, by a stated margin; the palette table is validated at load; the setting switches
the pixels the board is drawn in."""
from __future__ import annotations

import copy
import itertools
import math
import sys
from pathlib import Path

import pygame
import pytest

from gonzaga.render import map_palette, theme
from gonzaga.render.colour_table import TableError, build
from gonzaga.render.board_view import BoardRenderer
from gonzaga.rules import hexgrid
from gonzaga.rules.content import load_content
from gonzaga.ui import widgets as W
from test_high_contrast import contrast, luminance

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tools"))
import colourblind  # noqa: E402  (tools/colourblind.py: the simulations' matrices)

HIGH = map_palette.PALETTES["high"]
NORMAL = map_palette.PALETTES["normal"]
SEATS = map_palette.SEAT_NAMES


@pytest.fixture
def high():
    theme.set_map_palette("high")
    yield HIGH
    theme.set_map_palette("normal")


def region_tints(pal_name: str) -> dict[str, tuple[int, int, int]]:
    theme.set_map_palette(pal_name)
    try:
        return {r.id: theme.region_tint(theme.hex_color(r.color)) for r in load_content().board.regions}
    finally:
        theme.set_map_palette("normal")


def text_pairs(p: map_palette.MapPalette, tints: dict) -> dict[str, tuple]:
    """(text, what it is drawn on): every text the map draws, over its halo and over what lies
    around it (a name's halo is thin: it reads on the ground too)."""
    pairs = {"region name/halo": (p.ink, p.region_halo), "sea name/halo": (p.sea_ink, p.sea_halo),
             "sea name/sea": (p.sea_ink, p.sea), "city name/halo": (p.ink, p.site_halo),
             "harbour name/halo": (p.harbor_text, p.site_halo), "legend/card": (p.ink, p.parchment),
             "legend sea/card": (p.harbor_text, p.parchment), "cartouche subtitle/card": (p.ink_soft, p.parchment),
             "tag/+N": (p.tag_text, p.tag_ok), "tag/refused": (p.tag_text, p.tag_bad),
             "city symbol/badge": (p.city_icon, p.city_badge), "harbour symbol/badge": (p.harbor_icon, p.harbor_badge)}
    pairs.update({f"region name/{r}": (p.ink, c) for r, c in tints.items()})
    # a name under the highlights' whitest wash (the "cover" stamp: white at 105 * stamp_fill)
    w = min(255, int(105 * p.stamp_fill)) / 255
    pairs["name under a highlight"] = (theme.lerp(p.ink, p.highlight, w), theme.lerp(p.region_halo, p.highlight, w))
    return pairs


def edge_pairs(p: map_palette.MapPalette, tints: dict) -> dict[str, tuple]:
    """The edges a player with low vision must see: land against sea, the region borders, the
    board's edge, the seas' borders, each fief's edge (its outline on land, its rim on the sea),
    each seat's pattern on its fill, the highlights' rims, the ghost's mark."""
    pairs = {"board edge/sea": (p.board_edge[:3], p.sea), "board edge/table": (p.board_edge[:3], p.sea_table),
             "sea border/sea": (p.sea_border[:3], p.sea), "fief rim/sea": (p.fief_halo[:3], p.sea),
             "highlight edge/sea": (p.highlight_edge, p.sea), "check mark/disc": ((255, 255, 255), p.mark_ok),
             "cross/disc": ((255, 255, 255), p.mark_bad)}
    for r, c in tints.items():
        pairs[f"{r}/sea"] = (c, p.sea)
        pairs[f"region border/{r}"] = (p.region_border[:3], c)
        pairs[f"highlight rim/{r}"] = (p.highlight_rim, c)
        pairs[f"ghost edge/{r}"] = (p.ghost_edge, c)
        pairs.update({f"{s} outline/{r}": (p.seats[s].dark, c) for s in SEATS})
    pairs.update({f"{s} pattern/fill": (p.seats[s].mark, p.seats[s].fill) for s in SEATS})
    pairs.update({f"{s} outline/rim": (p.seats[s].dark, p.fief_halo[:3]) for s in SEATS})
    return pairs


def test_every_text_and_edge_on_the_map_reads_at_7_to_1_in_high_contrast():
    tints = region_tints("high")
    pairs = {**text_pairs(HIGH, tints), **edge_pairs(HIGH, tints)}
    low = {k: round(contrast(a, b), 2) for k, (a, b) in pairs.items() if contrast(a, b) < 7}
    assert not low, low
    assert HIGH.fief_halo[3] == HIGH.fief_alpha == HIGH.pattern_alpha == 255  # opaque: the colours as given
    # where the parchment map is weakest, by how much (the figures of docs/accessibility.md)
    normal = region_tints("normal")
    before = {**text_pairs(NORMAL, normal), **edge_pairs(NORMAL, normal)}
    weakest = min(before, key=lambda k: contrast(*before[k]))
    assert contrast(*before[weakest]) < 2 < 7 <= contrast(*pairs[weakest]), weakest
    assert min(contrast(c, NORMAL.sea) for c in normal.values()) < 2.5  # land against sea: was
    assert min(contrast(c, HIGH.sea) for c in tints.values()) >= 7


def lab(rgb, kind=None):
    """CIELAB (D65) of an sRGB colour, seen through ``kind``'s simulation (tools/colourblind.py)."""
    lin = [colourblind._to_linear(v) for v in rgb]
    if kind is not None:
        lin = [min(1.0, max(0.0, sum(m * x for m, x in zip(row, lin)))) for row in colourblind.MATRICES[kind]]
    r, g, b = lin
    xyz = (0.4124 * r + 0.3576 * g + 0.1805 * b, 0.2126 * r + 0.7152 * g + 0.0722 * b,
           0.0193 * r + 0.1192 * g + 0.9505 * b)

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 216 / 24389 else (24389 / 27 * t + 16) / 116
    fx, fy, fz = (f(v / n) for v, n in zip(xyz, (0.95047, 1.0, 1.08883)))
    return (116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz))


def test_lab_knows_white_and_black():
    assert lab((255, 255, 255)) == pytest.approx((100, 0, 0), abs=0.05)
    assert lab((0, 0, 0)) == pytest.approx((0, 0, 0), abs=1e-9)
    assert lab((255, 0, 0))[0] == pytest.approx(53.24, abs=0.05)  # sRGB red's L*


MARGIN_CVD = 30.0  # CIELAB units (CIE76) between any two seats, under each simulation
MARGIN_LIGHT = 1.5  # contrast ratio between any two seats' fills: apart by lightness alone


@pytest.mark.parametrize("kind", [None, "deuteranopia", "protanopia"])
def test_the_four_seats_stay_apart_for_colour_blind_eyes(kind):
    def spread(p):
        return {f"{a}/{b}": round(math.dist(lab(p.seats[a].fill, kind), lab(p.seats[b].fill, kind)), 1)
                for a, b in itertools.combinations(SEATS, 2)}
    high, normal = spread(HIGH), spread(NORMAL)
    assert min(high.values()) >= MARGIN_CVD, high
    if kind is not None:  # wider than the parchment map's (red/green: 24 deuteranopia, 39 protanopia)
        assert min(high.values()) > min(normal.values()) + 5, (high, normal)


def test_the_four_seats_differ_in_lightness():
    ratios = {f"{a}/{b}": round(contrast(HIGH.seats[a].fill, HIGH.seats[b].fill), 2)
              for a, b in itertools.combinations(SEATS, 2)}
    assert min(ratios.values()) >= MARGIN_LIGHT, ratios
    order = sorted(SEATS, key=lambda s: luminance(HIGH.seats[s].fill))
    assert order == ["blue", "red", "green", "yellow"]
    # the parchment map's red and blue are the same lightness (1.01:1): only their hue tells them apart
    assert contrast(NORMAL.seats["red"].fill, NORMAL.seats["blue"].fill) < 1.1


def test_the_table_is_validated_at_load():
    assert set(map_palette.PALETTES) == set(W.PALETTES) == {"normal", "high"}

    def load(row):
        return build(map_palette.MapPalette, row, "map TABLE high")

    assert vars(load(map_palette.TABLE["high"])) == vars(map_palette.PALETTES["high"])
    bad = copy.deepcopy(map_palette.TABLE["high"])
    bad["sea"] = "#12326"
    with pytest.raises(TableError, match="high.sea: a colour is written #rrggbb, not '#12326'"):
        load(bad)
    bad = copy.deepcopy(map_palette.TABLE["high"])
    bad["sea_border"] = "#a0c8ff"  # a role with an alpha
    with pytest.raises(TableError, match="high.sea_border: a colour is written #rrggbbaa"):
        load(bad)
    bad = copy.deepcopy(map_palette.TABLE["high"])
    del bad["seats"]["blue"]
    with pytest.raises(TableError, match="high.seats: the rows are red, yellow, green, blue, in that order"):
        load(bad)
    bad = copy.deepcopy(map_palette.TABLE["high"])
    bad["seats"]["green"]["fill"] = "#1ec86g"
    with pytest.raises(TableError, match="high.seats.green.fill: a colour"):
        load(bad)
    bad = copy.deepcopy(map_palette.TABLE["normal"])
    bad["halo"] = "#ffffff"  # a role nothing draws: a typo
    with pytest.raises(TableError, match="halo: not a role of MapPalette"):
        load(bad)
    bad = copy.deepcopy(map_palette.TABLE["normal"])
    bad["region_border_width"] = 0  # above 0 only: a border of no width
    with pytest.raises(TableError, match=r"region_border_width: 0 is out of range \(above 0 to 0.3\)"):
        load(bad)
    bad = copy.deepcopy(map_palette.TABLE["normal"])
    bad["textured"] = 1
    with pytest.raises(TableError, match="textured: true or false is wanted, not 1"):
        load(bad)


def clear_hexes(r: BoardRenderer, terrain: str, n: int) -> list:
    """``n`` hexes of ``terrain`` whose centre no name, badge or decoration covers, the land ones
    away from the coast (their centre is the region's own tint)."""
    c = r.content
    boxes = [b.move(r.rect.topleft).inflate(8, 8) for b in r.label_boxes() + r.layers.fitted().badge_boxes]
    boxes += r.decoration_rects() + [x for x in [r.legend_rect()] if x is not None]
    out = []
    for h in sorted(c.terrain):
        if c.terrain[h] != terrain or h in c.sites:
            continue
        if any(c.terrain.get(hexgrid.add(h, d)) != terrain for d in hexgrid.DIRECTIONS):
            continue
        x, y = r.hex_to_screen(h)
        if not any(b.collidepoint(x, y) for b in boxes):
            out.append(h)
    return out[::max(1, len(out) // n)][:n]


def test_the_setting_switches_the_pixels_of_the_map(make_app):
    """Through the game's own switch (``W.set_palette``, what the setting calls): the same
    renderer draws the sea, the regions and a fief in the high palette's colours, exactly (flat
    colours), and in the parchment ones again when it is switched off."""
    make_app((1280, 720))  # a window and the fonts
    content = load_content()
    surf = pygame.Surface((1280, 720))
    r = BoardRenderer(content, pygame.Rect(0, 0, 1280, 720))
    r.draw_static(surf)
    seas, lands = clear_hexes(r, "sea", 6), clear_hexes(r, "land", 6)
    assert len(seas) == 6 and len(lands) == 6
    fief = (seat := "red", [lands[0]], [])
    anchor = lands[0]

    def sample():
        r.draw(surf, fiefs=[fief])
        px = {h: tuple(surf.get_at(tuple(int(v) for v in r.hex_to_screen(h))))[:3] for h in seas + lands[1:]}
        x, y = r.hex_to_screen(anchor)  # the fief's hex, below its centre: its fill and its stripes
        patch = [tuple(surf.get_at((int(x) + dx, int(y + r.size * 0.45) + dy)))[:3]
                 for dx in range(-3, 4) for dy in range(-3, 4)]
        return px, max(set(patch), key=patch.count), set(patch)

    before, fief_before, _ = sample()
    try:
        W.set_palette("high")
        after, fief_after, patch = sample()
        tints = {reg.id: theme.region_tint(theme.hex_color(reg.color)) for reg in content.board.regions}
    finally:
        W.set_palette("normal")
    again, fief_again, _ = sample()
    assert all(after[h] == HIGH.sea for h in seas), {h: after[h] for h in seas}
    assert all(after[h] == tints[content.region_of[h]] for h in lands[1:]), after
    assert fief_after == HIGH.seats[seat].fill and HIGH.seats[seat].mark in patch, patch  # opaque, white stripes
    # the parchment map's sea: its colour under grey grain and vignette (each channel darkened alike)
    for h in seas:
        k = [v / c for v, c in zip(before[h], NORMAL.sea)]
        assert 0.5 <= min(k) and max(k) <= 1.0 and max(k) - min(k) < 0.06, (h, before[h])
    assert all(math.dist(before[h], after[h]) > 30 for h in lands[1:]), (before, after)
    assert fief_before != fief_after
    assert again == before and fief_again == fief_before  # and back, pixel for pixel
