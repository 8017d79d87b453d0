"""The game screen's proportions (how much of the window the map keeps), and the words the board
renderer shows. They live here, not in ``scenes/game``, so that the app and the title screen
reach them without loading the game screen (whose package imports the whole scene) before the
first frame."""
from __future__ import annotations

from typing import Optional

from ..words import i18n
from .board_camera import MARGIN
from .board_map import TEXT_KEYS, extent_of

TOP_H = 54
PANEL_W = 390  # at 1600 px and wider; narrower windows get a narrower panel (see layout)
BOTTOM_H = 200
END_H = 330


MAP_KEEP = 0.9  # a larger interface size may take at most a tenth of the map's size at 100%

# A wide window (issue 40): the map's height is its limit, so the width it cannot use goes to the
# side panel (two columns of seats, the table of best points beside them, a longer log) instead of
# empty sea on both sides of it. The map keeps a strip on its left for the title and the legend.
BAR_MIN = 1060  # the bottom bar at its narrowest on a wide window (room for its left block and the cards)
MAP_MARGIN = MARGIN  # the renderer's margin around the map, of the board's smaller side
STRIP = 0.32  # the strip left of the map for the title cartouche and the legend, of the map's height
WIDE_GAIN = 200  # the panel takes the width only when it gains at least this much (scale 1)
PANEL_MAX = 2 * PANEL_W + 60  # two columns of seats at most (an ultra-wide window keeps some sea)


def panel_width(size, scale: float, aspect: Optional[float] = None) -> tuple[int, bool]:
    """The side panel's width for a window of ``size`` at interface scale ``scale`` and whether
    the window is wide (the panel took the width the map of ``aspect`` cannot use; the map then
    stands against the panel, its strip on the left). The planning bar's height decides it, so
    the panel keeps its width through a game."""
    w, h = size
    pw = int(max(300 * scale, min(PANEL_W * scale, w * 0.245)))
    if aspect is None:
        return pw, False
    bh = h - (TOP_H + BOTTOM_H) * scale
    fit = bh * (1 - 2 * MAP_MARGIN)  # the map's height: it is height-bound on a wide window
    need = fit * (aspect + STRIP) + 2 * MAP_MARGIN * bh
    board = max(int(need) + 1, int(BAR_MIN * scale))
    if w - board - pw < WIDE_GAIN * scale:
        return pw, False
    return min(w - board, int(PANEL_MAX * scale)), True


def map_align(board, aspect: float) -> float:
    """Where the map stands in a wide window's ``board`` (its width and height; see
    ``BoardRenderer.align_x``): centred if that leaves its strip on the left, else as far right
    as the strip needs (against the panel)."""
    bw, bh = board
    fit = bh * (1 - 2 * MAP_MARGIN)
    free = bw - 2 * MAP_MARGIN * min(bw, bh) - fit * aspect  # the width the map leaves in its room
    if free <= 0:
        return 0.5
    return min(1.0, max(0.5, fit * STRIP / free))


def board_size(size, scale: float, aspect: Optional[float] = None) -> tuple[int, int]:
    """The map's room on the game screen (planning) for a window of ``size`` at interface scale
    ``scale``: what ``GameScene.layout`` gives it."""
    w, h = size
    pw, _wide = panel_width(size, scale, aspect)
    return w - pw, int(h - (TOP_H + BOTTOM_H) * scale)


def map_size(size, scale: float, aspect: float) -> float:
    """How large the whole map is drawn (its height in pixels) for a map ``aspect`` (width over
    height) fitted in the room ``board_size`` leaves it."""
    bw, bh = board_size(size, scale, aspect)
    return max(1.0, min(bw / aspect, bh))


def map_first_scale(size, scale: float, natural: float, aspect: float) -> float:
    """The interface scale the map allows (issue 40, "the map scales with the window first"):
    ``scale`` (the window's growth times the interface size), lowered until the map keeps
    ``MAP_KEEP`` of its size at ``natural`` (the window's growth alone, interface size 100%)."""
    if scale <= natural:
        return scale
    floor = MAP_KEEP * map_size(size, natural, aspect)
    lo, hi = natural, scale
    if map_size(size, hi, aspect) >= floor:
        return scale
    for _ in range(24):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if map_size(size, mid, aspect) >= floor else (lo, mid)
    return round(lo, 3)


def map_aspect(content) -> float:
    """The whole map's width over its height (hexes of unit size, as the board renderer fits it)."""
    x0, y0, x1, y1 = extent_of(content)
    return (x1 - x0) / (y1 - y0)


def board_texts() -> dict[str, str]:
    """The words the board renderer shows (legend, symbols), in the interface language."""
    return {k: i18n.t(k) for k in TEXT_KEYS}
