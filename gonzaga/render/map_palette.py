"""The map's colours, one table (``TABLE``) of two palettes, checked at load into
:class:`MapPalette` (issue 49; ``colour_table.py``: a bad colour, a missing or misspelt role or a
value out of range is refused naming the field): ``"normal"``, the parchment map, and ``"high"``,
the map in high contrast, chosen with the interface's high-contrast setting
(``theme.set_map_palette``).

The high palette is built for low vision (docs/accessibility.md, "The map in high contrast"): light
land on a dark sea (7:1 or more between them), solid black region borders and coast, every text on
the map at 7:1 or more against what it is drawn on, flat colours (no parchment grain, no
vignette: both would lower the contrast in places), fiefs opaque with a white edge outside their
black outline (they may reach into the dark sea), and the four seats apart by lightness as well as
hue, also through the deuteranopia and protanopia simulations (``tests/test_map_contrast.py``).

Colours are written ``"#rrggbb"``; ``"#rrggbbaa"`` where an alpha belongs to the role.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .colour_table import Rgb, Rgba, build, colour, flag, number, rows, table

SEAT_NAMES: tuple[str, ...] = ("red", "yellow", "green", "blue")


@dataclass(frozen=True)
class SeatColours:
    """A seat's fill, its light variant (bevel, ring highlight), its dark one (outline, ring edge)
    and the colour its pattern is drawn in on its fill."""

    fill: Rgb = colour()
    light: Rgb = colour()
    dark: Rgb = colour()
    mark: Rgb = colour()


@table
class MapPalette:
    """Every colour the board, its pieces and their marks are drawn in, by role."""

    # ink and parchment: text, outlines, the land under the regions' tints, the cards
    ink: Rgb = colour()
    ink_soft: Rgb = colour()
    parchment: Rgb = colour()
    parchment_dark: Rgb = colour()
    textured: bool = flag()  # parchment grain and sea noise; a vignette of this strength (0: none)
    vignette: int = number(0, 255)
    # the sea
    sea: Rgb = colour()
    sea_deep: Rgb = colour()
    sea_table: Rgb = colour()  # off the board
    sea_shallow: Rgb = colour()  # the shore's glow
    ripple: Rgb = colour()
    sea_ink: Rgb = colour()  # sea names
    sea_halo: Rgb = colour()
    sea_border: Rgba = colour(alpha=True)
    grid_land: Rgba = colour(alpha=True)
    grid_sea: Rgba = colour(alpha=True)
    # the land: each region's colour mixed towards `region_mix_to` by `region_mix`, then towards
    # white until its relative luminance reaches `region_least_luminance`
    region_mix_to: Rgb = colour()
    region_mix: float = number(0, 1, whole=False)
    region_least_luminance: float = number(0, 1, whole=False)
    region_halo: Rgb = colour()
    region_border: Rgba = colour(alpha=True)
    region_border_width: float = number(0, 0.3, whole=False, above=True)  # of a hex's size
    coast: Rgba = colour(alpha=True)
    coast_px: int = number(1, 4)
    board_edge: Rgba = colour(alpha=True)
    barrier: Rgb = colour()
    barrier_peak: Rgb = colour()
    snow: Rgb = colour()
    # sites
    site_halo: Rgb = colour()
    city_badge: Rgb = colour()
    city_ring: Rgb = colour()
    city_icon: Rgb = colour()
    harbor_badge: Rgb = colour()
    harbor_icon: Rgb = colour()
    harbor_text: Rgb = colour()
    gold: Rgb = colour()
    gold_dark: Rgb = colour()
    flourish: Rgb = colour()
    inactive: Rgb = colour()
    # marks over the map
    highlight: Rgb = colour()
    highlight_edge: Rgb = colour()
    highlight_rim: Rgb = colour()
    stamp_alpha: float = number(0.5, 3.0, whole=False)  # the highlights' rims' alphas times this
    stamp_fill: float = number(0.0, 2.0, whole=False)  # their washes' alphas times this (names show through)
    objective: Rgb = colour()
    ghost_ok: Rgb = colour()
    ghost_bad: Rgb = colour()
    ghost_edge: Rgb = colour()
    ghost_pattern: Rgb = colour()
    ghost_alpha: int = number(0, 255)
    mark_ok: Rgb = colour()  # the check mark's disc (white mark)
    mark_bad: Rgb = colour()  # the cross's disc (white mark)
    tag_ok: Rgb = colour()  # the "+N" tag (white text)
    tag_bad: Rgb = colour()
    tag_text: Rgb = colour()
    # fiefs
    fief_alpha: int = number(0, 255)
    pattern_alpha: int = number(0, 255)  # the seats' patterns over their fills
    fief_halo: Rgba = colour(alpha=True)  # a rim outside each fief's outline (alpha 0: none)
    castle: Rgb = colour()
    seats: dict[str, SeatColours] = rows(SeatColours, SEAT_NAMES)


TABLE: dict[str, dict[str, Any]] = {
    "normal": {
        "ink": "#342418", "ink_soft": "#604a34", "parchment": "#ecdebc", "parchment_dark": "#ccb88e",
        "textured": True, "vignette": 36,
        "sea": "#78a6b6", "sea_deep": "#58849c", "sea_table": "#2e4a5e", "sea_shallow": "#a0c4c8",
        "ripple": "#e8f2ec", "sea_ink": "#224660", "sea_halo": "#c4dee2", "sea_border": "#3a688cbe",
        "grid_land": "#46321e2e", "grid_sea": "#22466026",
        "region_mix_to": "#ecdebc", "region_mix": 0.15, "region_least_luminance": 0.0,
        "region_halo": "#ecdebc", "region_border": "#34241896", "region_border_width": 0.07,
        "coast": "#604a34c8", "coast_px": 1, "board_edge": "#342418c8",
        "barrier": "#5c3a1e", "barrier_peak": "#78522e", "snow": "#eee8dc",
        "site_halo": "#f6eed6", "city_badge": "#faf2de", "city_ring": "#80221e", "city_icon": "#342418",
        "harbor_badge": "#224876", "harbor_icon": "#f6f0e0", "harbor_text": "#1a3858",
        "gold": "#c49a3e", "gold_dark": "#78581c", "flourish": "#c49628", "inactive": "#968c7e",
        "highlight": "#ffffff", "highlight_edge": "#ffffff", "highlight_rim": "#14283c", "stamp_alpha": 1.0,
        "stamp_fill": 1.0,
        "objective": "#962896",
        "ghost_ok": "#3cc85a", "ghost_bad": "#dc3228", "ghost_edge": "#ffffff", "ghost_pattern": "#780a0a",
        "ghost_alpha": 185, "mark_ok": "#1e7832", "mark_bad": "#aa1e18",
        "tag_ok": "#78581c", "tag_bad": "#961e18", "tag_text": "#ffffff",
        "fief_alpha": 226, "pattern_alpha": 190, "fief_halo": "#ffffff00", "castle": "#faf4e4",
        # chosen to stand out on the pastel region tints and the blue sea, and to differ in
        # brightness too (red darker, green lighter): see tools/colourblind.py
        "seats": {
            "red": {"fill": "#b81e22", "light": "#ee6e60", "dark": "#600e0c", "mark": "#fabeb4"},
            "yellow": {"fill": "#f5c422", "light": "#ffe882", "dark": "#785400", "mark": "#966800"},
            "green": {"fill": "#2eb260", "light": "#8ce2a0", "dark": "#084c24", "mark": "#0a5a28"},
            "blue": {"fill": "#2458c4", "light": "#6e9ef0", "dark": "#0a2260", "mark": "#c8dcff"},
        },
    },
    "high": {
        "ink": "#000000", "ink_soft": "#262626", "parchment": "#ffffff", "parchment_dark": "#d0d0d0",
        "textured": False, "vignette": 0,
        "sea": "#12326e", "sea_deep": "#0c2658", "sea_table": "#000000", "sea_shallow": "#12326e",
        "ripple": "#12326e", "sea_ink": "#ffffff", "sea_halo": "#081a40", "sea_border": "#a0c8ffff",
        "grid_land": "#00000040", "grid_sea": "#ffffff30",
        "region_mix_to": "#ffffff", "region_mix": 0.3, "region_least_luminance": 0.6,
        "region_halo": "#ffffff", "region_border": "#000000ff", "region_border_width": 0.1,
        "coast": "#000000ff", "coast_px": 2, "board_edge": "#ffffffff",
        "barrier": "#000000", "barrier_peak": "#3c3c3c", "snow": "#ffffff",
        "site_halo": "#ffffff", "city_badge": "#ffffff", "city_ring": "#000000", "city_icon": "#000000",
        "harbor_badge": "#0a2050", "harbor_icon": "#ffffff", "harbor_text": "#0a2050",
        "gold": "#c49a3e", "gold_dark": "#503800", "flourish": "#e0a800", "inactive": "#707070",
        "highlight": "#ffffff", "highlight_edge": "#ffffff", "highlight_rim": "#000000", "stamp_alpha": 2.0,
        "stamp_fill": 0.4,
        "objective": "#8c008c",
        "ghost_ok": "#00a040", "ghost_bad": "#d00000", "ghost_edge": "#000000", "ghost_pattern": "#ffffff",
        "ghost_alpha": 235, "mark_ok": "#006428", "mark_bad": "#aa0000",
        "tag_ok": "#463200", "tag_bad": "#820000", "tag_text": "#ffffff",
        "fief_alpha": 255, "pattern_alpha": 255, "fief_halo": "#ffffffff", "castle": "#ffffff",
        # apart by lightness too (blue < red < green < yellow, each pair 1.6:1 or more) and, through
        # the deuteranopia and protanopia simulations, by 30 CIELAB units or more (the normal
        # seats: red/green 24); each pattern in black or white, whichever reads on its fill
        "seats": {
            "red": {"fill": "#b4000a", "light": "#ff8c8c", "dark": "#000000", "mark": "#ffffff"},
            "yellow": {"fill": "#ffeb28", "light": "#fff8b4", "dark": "#000000", "mark": "#000000"},
            "green": {"fill": "#1ec86e", "light": "#b4ffd2", "dark": "#000000", "mark": "#000000"},
            "blue": {"fill": "#0a28a0", "light": "#8cb4ff", "dark": "#000000", "mark": "#ffffff"},
        },
    },
}

PALETTES: dict[str, MapPalette] = {name: build(MapPalette, TABLE[name], f"render/map_palette.py TABLE {name}")
                                   for name in ("normal", "high")}
