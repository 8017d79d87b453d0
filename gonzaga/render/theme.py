"""Colours and fonts of the game, in one place.

Fonts are loaded only through :func:`font` (cached, scaled by :func:`set_text_scale`), from
the TTF/OTF files shipped in ``assets/fonts/`` (see the README there for licences):

==================  ==============================================
role                face
==================  ==============================================
``"title"``         EB Garamond regular (display titles)
``"serif"``         EB Garamond regular (city names, body on the map)
``"serif_italic"``  EB Garamond italic (sea names)
``"smallcaps"``     EB Garamond all small caps (region names)
``"sans"``          Open Sans regular (interface)
``"sans_semibold"`` Open Sans semibold
``"sans_bold"``     Open Sans bold
``"sans_italic"``   Open Sans italic
==================  ==============================================

Seats are named by colour (``"red"``, ``"yellow"``, ``"green"``, ``"blue"``) or by index
0-3 in that order; :func:`seat_color` and friends accept either.
"""
from __future__ import annotations

import logging
import threading
from typing import Union

import pygame

from ..resources import asset_path
from .map_palette import PALETTES, MapPalette

Color = tuple[int, int, int]
Seat = Union[int, str]

# ---------------------------------------------------------------- seats

SEAT_NAMES: tuple[str, ...] = ("red", "yellow", "green", "blue")

# The seats' colours (fill, light variant for the bevel, dark one for the outline, the pattern's
# colour) come from the map's palette (map_palette.TABLE), as do the map's colours below;
# set_map_palette puts another palette into these names.
SEAT_COLORS: dict[str, Color] = {}
SEAT_LIGHT: dict[str, Color] = {}
SEAT_DARK: dict[str, Color] = {}
SEAT_MARK: dict[str, Color] = {}


# A pattern per seat on its fiefs and a crest (a shape) on its rings and panel, so that
# seats never differ by colour alone (see pieces.draw_pattern and pieces.crest).
SEAT_PATTERNS: dict[str, str] = {"red": "stripes", "yellow": "dots", "green": "crosses", "blue": "chevrons"}
SEAT_CRESTS: dict[str, str] = {"red": "diamond", "yellow": "roundel", "green": "triangle", "blue": "square"}


def seat_pattern(seat: "Seat") -> str:
    return SEAT_PATTERNS[seat_name(seat)]


def seat_crest(seat: "Seat") -> str:
    return SEAT_CRESTS[seat_name(seat)]


def seat_mark(seat: "Seat") -> Color:
    return SEAT_MARK[seat_name(seat)]


def seat_name(seat: Seat) -> str:
    """``"red"``/``"yellow"``/``"green"``/``"blue"`` for a seat given by name or index."""
    if isinstance(seat, str):
        s = seat.lower()
        if s not in SEAT_COLORS:
            raise KeyError(f"unknown seat colour {seat!r}")
        return s
    return SEAT_NAMES[int(seat)]


def seat_color(seat: Seat) -> Color:
    return SEAT_COLORS[seat_name(seat)]


def seat_light(seat: Seat) -> Color:
    return SEAT_LIGHT[seat_name(seat)]


def seat_dark(seat: Seat) -> Color:
    return SEAT_DARK[seat_name(seat)]


# ---------------------------------------------------------------- map palette

MAP: MapPalette = PALETTES["normal"]  # the palette the map is drawn in now (set_map_palette)
INK: Color = MAP.ink                   # text, outlines
INK_SOFT: Color = MAP.ink_soft
PARCHMENT: Color = MAP.parchment
PARCHMENT_DARK: Color = MAP.parchment_dark
SEA: Color = MAP.sea                   # open sea
SEA_DEEP: Color = MAP.sea_deep
SEA_TABLE: Color = MAP.sea_table       # off the board
SEA_SHALLOW: Color = MAP.sea_shallow   # shoreline glow
SEA_INK: Color = MAP.sea_ink           # sea names
SEA_BORDER: Color = MAP.sea_border[:3]
BARRIER: Color = MAP.barrier
BARRIER_PEAK: Color = MAP.barrier_peak
GRID: Color = MAP.grid_land[:3]
GOLD: Color = MAP.gold
GOLD_DARK: Color = MAP.gold_dark
CITY_BADGE: Color = MAP.city_badge
CITY_RING: Color = MAP.city_ring
HARBOR_BADGE: Color = MAP.harbor_badge
HARBOR_ICON: Color = MAP.harbor_icon
HARBOR_TEXT: Color = MAP.harbor_text
HIGHLIGHT: Color = MAP.highlight       # legal places: white, never a seat colour
HIGHLIGHT_EDGE: Color = MAP.highlight_edge
HIGHLIGHT_RIM: Color = MAP.highlight_rim
GHOST_OK: Color = MAP.ghost_ok
GHOST_BAD: Color = MAP.ghost_bad
OBJECTIVE: Color = MAP.objective
FLOURISH: Color = MAP.flourish
INACTIVE: Color = MAP.inactive
_NAMES = {"INK": "ink", "INK_SOFT": "ink_soft", "PARCHMENT": "parchment", "PARCHMENT_DARK": "parchment_dark",
          "SEA": "sea", "SEA_DEEP": "sea_deep", "SEA_TABLE": "sea_table", "SEA_SHALLOW": "sea_shallow",
          "SEA_INK": "sea_ink", "SEA_BORDER": "sea_border", "BARRIER": "barrier", "BARRIER_PEAK": "barrier_peak",
          "GRID": "grid_land", "GOLD": "gold", "GOLD_DARK": "gold_dark", "CITY_BADGE": "city_badge",
          "CITY_RING": "city_ring", "HARBOR_BADGE": "harbor_badge", "HARBOR_ICON": "harbor_icon",
          "HARBOR_TEXT": "harbor_text", "HIGHLIGHT": "highlight", "HIGHLIGHT_EDGE": "highlight_edge",
          "HIGHLIGHT_RIM": "highlight_rim", "GHOST_OK": "ghost_ok", "GHOST_BAD": "ghost_bad",
          "OBJECTIVE": "objective", "FLOURISH": "flourish", "INACTIVE": "inactive"}


def set_map_palette(name: str) -> None:
    """Draw the map, its pieces and what else reads these names in palette ``name`` ("normal" or
    "high", ``map_palette.PALETTES``). The renderers see the change (``map_palette_name``) and
    draw their layers and sprites again."""
    global MAP, _map_name
    pal = PALETTES[name]
    MAP, _map_name = pal, name
    globals().update({const: tuple(getattr(pal, role))[:3] for const, role in _NAMES.items()})
    for seat, c in pal.seats.items():
        SEAT_COLORS[seat], SEAT_LIGHT[seat], SEAT_DARK[seat], SEAT_MARK[seat] = c.fill, c.light, c.dark, c.mark


def map_palette_name() -> str:
    return _map_name


def region_tint(colour: Color) -> Color:
    """A region's colour (its map's) as the land is painted in the palette of now: mixed towards
    ``region_mix_to``, then lightened towards white until it is light enough (high contrast: black
    text and borders read on it at 7:1 or more)."""
    pal = MAP
    c = lerp(colour, pal.region_mix_to, pal.region_mix)
    t = 0.0
    while relative_luminance(lerp(c, (255, 255, 255), t)) < pal.region_least_luminance and t < 1.0:
        t = min(1.0, t + 0.02)
    return lerp(c, (255, 255, 255), t)


def relative_luminance(c: Color) -> float:
    """WCAG 2's relative luminance of an sRGB colour (0 black, 1 white)."""
    def channel(v: int) -> float:
        s = v / 255
        return s / 12.92 if s <= 0.04045 else ((s + 0.055) / 1.055) ** 2.4
    return 0.2126 * channel(c[0]) + 0.7152 * channel(c[1]) + 0.0722 * channel(c[2])


def contrast_ratio(a: Color, b: Color) -> float:
    """WCAG 2's contrast ratio of two colours, 1 to 21."""
    la, lb = sorted((relative_luminance(a), relative_luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


_map_name = "normal"
set_map_palette("normal")

# ---------------------------------------------------------------- fonts

_FONT_FILES: dict[str, str] = {
    "title": "EBGaramond12-Regular.otf",
    "serif": "EBGaramond12-Regular.otf",
    "serif_italic": "EBGaramond12-Italic.otf",
    "smallcaps": "EBGaramond12-AllSC.otf",
    "sans": "OpenSans-Regular.ttf",
    "sans_semibold": "OpenSans-Semibold.ttf",
    "sans_bold": "OpenSans-Bold.ttf",
    "sans_italic": "OpenSans-Italic.ttf",
}
FONT_ROLES: tuple[str, ...] = tuple(_FONT_FILES)

_font_cache: dict[tuple, pygame.font.Font] = {}
_font_lock = threading.Lock()  # fonts are opened one at a time (FreeType's library is shared)
_text_scale = 1.0


def set_text_scale(scale: float) -> None:
    """A user setting: every font made afterwards is ``scale`` times larger."""
    global _text_scale
    _text_scale = max(0.5, min(3.0, float(scale)))


def text_scale() -> float:
    return _text_scale


def font_path(role: str):
    return asset_path("fonts", _FONT_FILES[role])


def font(role: str, px: float, *, scaled: bool = True) -> pygame.font.Font:
    """The font of ``role`` (see the module docstring) at ``px`` pixels, cached.

    ``scaled=False`` ignores the user's text scale (used by the map, which scales itself).
    """
    if role not in _FONT_FILES:
        raise KeyError(f"unknown font role {role!r}; one of {', '.join(FONT_ROLES)}")
    size = max(6, int(round(px * (_text_scale if scaled else 1.0))))
    if not pygame.font.get_init():  # (re)started: fonts made before are no longer valid
        _font_cache.clear()
        pygame.font.init()
    key: tuple = (role, size)
    if threading.current_thread() is not threading.main_thread():
        key = (role, size, "worker")  # the board's layer builder: never the same object as the UI's
    f = _font_cache.get(key)
    if f is None:
        with _font_lock:
            f = _font_cache.get(key)
            if f is None:
                try:
                    f = pygame.font.Font(str(font_path(role)), size)
                except (FileNotFoundError, OSError):
                    # a missing font file must not stop the game: pygame's own font, and a note in the log
                    logging.getLogger(__name__).warning("font file missing: %s; using pygame's default font",
                                                        font_path(role))
                    f = pygame.font.Font(None, size)
                _font_cache[key] = f
    return f


def render_text(text: str, fnt: pygame.font.Font, color: Color, *,
                halo: Color | None = None, halo_px: int = 1, tracking: float = 0.0) -> pygame.Surface:
    """Text on a transparent surface, optionally with a soft halo around it and extra
    letter spacing (``tracking``, in pixels between letters)."""
    if tracking:
        glyphs = [fnt.render(ch, True, color) for ch in text]
        widths = [fnt.size(ch)[0] for ch in text]
        w = int(sum(widths) + tracking * max(0, len(text) - 1)) + 1
        h = fnt.get_height()
        core = pygame.Surface((w, h), pygame.SRCALPHA)
        x = 0.0
        for g, gw in zip(glyphs, widths):
            core.blit(g, (int(x), 0))
            x += gw + tracking
    else:
        core = fnt.render(text, True, color)
    if halo is None:
        return core
    pad = halo_px + 1
    out = pygame.Surface((core.get_width() + 2 * pad, core.get_height() + 2 * pad), pygame.SRCALPHA)
    # the halo: the text's alpha mask in the halo colour, stamped around
    mask = core.copy()
    mask.fill((*halo, 0), special_flags=pygame.BLEND_RGBA_MAX)
    mask.fill((*halo, 255), special_flags=pygame.BLEND_RGB_MIN)
    for dx in range(-halo_px, halo_px + 1):
        for dy in range(-halo_px, halo_px + 1):
            if dx * dx + dy * dy <= halo_px * halo_px + 1:
                out.blit(mask, (pad + dx, pad + dy))
    out.blit(core, (pad, pad))
    return out


def lerp(a: Color, b: Color, t: float) -> Color:
    return (int(a[0] + (b[0] - a[0]) * t), int(a[1] + (b[1] - a[1]) * t), int(a[2] + (b[2] - a[2]) * t))


def hex_color(s: str) -> Color:
    s = s.lstrip("#")
    return (int(s[0:2], 16), int(s[2:4], 16), int(s[4:6], 16))
