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

Color = tuple[int, int, int]
Seat = Union[int, str]

# ---------------------------------------------------------------- seats

SEAT_NAMES: tuple[str, ...] = ("red", "yellow", "green", "blue")

# Fill colours chosen to stand out on the pastel region tints and the blue sea, and to
# differ in brightness too (red darker, green lighter): with red-green colour blindness
# they would otherwise look alike (see tools/colourblind.py and docs/colourblind-*.png).
SEAT_COLORS: dict[str, Color] = {
    "red": (184, 30, 34),
    "yellow": (245, 196, 34),
    "green": (46, 178, 96),
    "blue": (36, 88, 196),
}
# Lighter variant (bevel highlight) and darker variant (outline) of each seat colour.
SEAT_LIGHT: dict[str, Color] = {
    "red": (238, 110, 96),
    "yellow": (255, 232, 130),
    "green": (140, 226, 160),
    "blue": (110, 158, 240),
}
SEAT_DARK: dict[str, Color] = {
    "red": (96, 14, 12),
    "yellow": (120, 84, 0),
    "green": (8, 76, 36),
    "blue": (10, 34, 96),
}


# A pattern per seat on its fiefs and a crest (a shape) on its rings and panel, so that
# seats never differ by colour alone (see pieces.draw_pattern and pieces.crest).
SEAT_PATTERNS: dict[str, str] = {"red": "stripes", "yellow": "dots", "green": "crosses", "blue": "chevrons"}
SEAT_CRESTS: dict[str, str] = {"red": "diamond", "yellow": "roundel", "green": "triangle", "blue": "square"}
# the colour the pattern is drawn in: light on the dark fills, dark on yellow
SEAT_MARK: dict[str, Color] = {"red": (250, 190, 180), "yellow": (150, 104, 0), "green": (10, 90, 40),
                               "blue": (200, 220, 255)}


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

INK: Color = (52, 36, 24)              # dark sepia: text, outlines
INK_SOFT: Color = (96, 74, 52)
PARCHMENT: Color = (236, 222, 188)
PARCHMENT_DARK: Color = (204, 184, 142)
SEA: Color = (120, 166, 182)           # open sea
SEA_DEEP: Color = (88, 132, 156)
SEA_TABLE: Color = (46, 74, 94)        # off the board
SEA_SHALLOW: Color = (160, 196, 200)   # shoreline glow
SEA_INK: Color = (34, 70, 96)          # sea names, sea boundaries
SEA_BORDER: Color = (58, 104, 140)
BARRIER: Color = (92, 58, 30)
BARRIER_PEAK: Color = (120, 82, 46)
GRID: Color = (70, 50, 30)
GOLD: Color = (196, 154, 62)
GOLD_DARK: Color = (120, 88, 28)
CITY_BADGE: Color = (250, 242, 222)
CITY_RING: Color = (128, 34, 30)
HARBOR_BADGE: Color = (34, 72, 118)
HARBOR_ICON: Color = (246, 240, 224)
HARBOR_TEXT: Color = (26, 56, 88)
HIGHLIGHT: Color = (255, 255, 255)       # legal places: white, never a seat colour
HIGHLIGHT_EDGE: Color = (255, 255, 255)
HIGHLIGHT_RIM: Color = (20, 40, 60)
GHOST_OK: Color = (60, 200, 90)
GHOST_BAD: Color = (220, 50, 40)
OBJECTIVE: Color = (150, 40, 150)
FLOURISH: Color = (196, 150, 40)
INACTIVE: Color = (150, 140, 126)

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
