"""The map's colours, one table (``TABLE``) of two palettes, validated at load into
:class:`MapPalette` (issue 49): ``"normal"``, the parchment map, and ``"high"``, the map in high
contrast, chosen with the interface's high-contrast setting (``theme.set_map_palette``).

The high palette is built for low vision (docs/accessibility.md, "The map in high contrast"): light
land on a dark sea (7:1 or more between them), solid black region borders and coast, every text on
the map at 7:1 or more against what it is drawn on, flat colours (no parchment grain, no
vignette: both would lower the contrast in places), fiefs opaque with a white edge outside their
black outline (they may reach into the dark sea), and the four seats apart by lightness as well as
hue, also through the deuteranopia and protanopia simulations (``tests/test_map_contrast.py``).

Colours are written ``"#rrggbb"``; ``"#rrggbbaa"`` where an alpha belongs to the role.
"""
from __future__ import annotations

from typing import Annotated, Any

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, field_validator

Rgb = tuple[int, int, int]
Rgba = tuple[int, int, int, int]

SEAT_NAMES: tuple[str, ...] = ("red", "yellow", "green", "blue")


def _hex(v: Any, n: int) -> Any:
    if not isinstance(v, str):
        return v
    s = v.removeprefix("#")
    if len(s) != 2 * n or any(ch not in "0123456789abcdefABCDEF" for ch in s):
        raise ValueError(f"a colour is written #{'rr gg bb aa'[:3 * n - 1].replace(' ', '')}, not {v!r}")
    return tuple(int(s[i:i + 2], 16) for i in range(0, 2 * n, 2))


Byte = Annotated[int, Field(ge=0, le=255)]
Colour = Annotated[tuple[Byte, Byte, Byte], BeforeValidator(lambda v: _hex(v, 3))]
ColourA = Annotated[tuple[Byte, Byte, Byte, Byte], BeforeValidator(lambda v: _hex(v, 4))]


class SeatColours(BaseModel):
    """A seat's fill, its light variant (bevel, ring highlight), its dark one (outline, ring edge)
    and the colour its pattern is drawn in on its fill."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    fill: Colour
    light: Colour
    dark: Colour
    mark: Colour


class MapPalette(BaseModel):
    """Every colour the board, its pieces and their marks are drawn in, by role."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    # ink and parchment: text, outlines, the land under the regions' tints, the cards
    ink: Colour
    ink_soft: Colour
    parchment: Colour
    parchment_dark: Colour
    textured: bool  # parchment grain and sea noise; a vignette of this strength (0: none)
    vignette: int = Field(ge=0, le=255)
    # the sea
    sea: Colour
    sea_deep: Colour
    sea_table: Colour  # off the board
    sea_shallow: Colour  # the shore's glow
    ripple: Colour
    sea_ink: Colour  # sea names
    sea_halo: Colour
    sea_border: ColourA
    grid_land: ColourA
    grid_sea: ColourA
    # the land: each region's colour mixed towards `region_mix_to` by `region_mix`, then towards
    # white until its relative luminance reaches `region_least_luminance`
    region_mix_to: Colour
    region_mix: float = Field(ge=0, le=1)
    region_least_luminance: float = Field(ge=0, le=1)
    region_halo: Colour
    region_border: ColourA
    region_border_width: float = Field(gt=0, le=0.3)  # of a hex's size
    coast: ColourA
    coast_px: int = Field(ge=1, le=4)
    board_edge: ColourA
    barrier: Colour
    barrier_peak: Colour
    snow: Colour
    # sites
    site_halo: Colour
    city_badge: Colour
    city_ring: Colour
    city_icon: Colour
    harbor_badge: Colour
    harbor_icon: Colour
    harbor_text: Colour
    gold: Colour
    gold_dark: Colour
    flourish: Colour
    inactive: Colour
    # marks over the map
    highlight: Colour
    highlight_edge: Colour
    highlight_rim: Colour
    stamp_alpha: float = Field(ge=0.5, le=3.0)  # the highlights' rims' alphas times this
    stamp_fill: float = Field(ge=0.0, le=2.0)  # their washes' alphas times this (names show through)
    objective: Colour
    ghost_ok: Colour
    ghost_bad: Colour
    ghost_edge: Colour
    ghost_pattern: Colour
    ghost_alpha: int = Field(ge=0, le=255)
    mark_ok: Colour  # the check mark's disc (white mark)
    mark_bad: Colour  # the cross's disc (white mark)
    tag_ok: Colour  # the "+N" tag (white text)
    tag_bad: Colour
    tag_text: Colour
    # fiefs
    fief_alpha: int = Field(ge=0, le=255)
    pattern_alpha: int = Field(ge=0, le=255)  # the seats' patterns over their fills
    fief_halo: ColourA  # a rim outside each fief's outline (alpha 0: none)
    castle: Colour
    seats: dict[str, SeatColours]

    @field_validator("seats")
    @classmethod
    def _four_seats(cls, seats: dict[str, SeatColours]) -> dict[str, SeatColours]:
        if tuple(seats) != SEAT_NAMES:
            raise ValueError(f"the seats are {', '.join(SEAT_NAMES)}, in that order; got {', '.join(seats)}")
        return seats


class MapPalettes(BaseModel):
    """The table: a palette for each interface palette (``ui/widgets.PALETTES``)."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    normal: MapPalette
    high: MapPalette


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

PALETTES: dict[str, MapPalette] = dict(MapPalettes.model_validate(TABLE))
