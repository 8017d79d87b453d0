"""The game screen's proportions (how much of the window the map keeps), and the words the board
renderer shows. They live here, not in ``scenes/game``, so that the app and the title screen
reach them without loading the game screen (whose package imports the whole scene) before the
first frame."""
from __future__ import annotations

from ..words import i18n
from .board_view import BoardRenderer

TOP_H = 54
PANEL_W = 390  # at 1600 px and wider; narrower windows get a narrower panel (see layout)
BOTTOM_H = 200
END_H = 330


MAP_KEEP = 0.9  # a larger interface size may take at most a tenth of the map's size at 100%


def board_size(size, scale: float) -> tuple[int, int]:
    """The map's room on the game screen (planning) for a window of ``size`` at interface scale
    ``scale``: what ``GameScene.layout`` gives it."""
    w, h = size
    pw = int(max(300 * scale, min(PANEL_W * scale, w * 0.245)))
    return w - pw, int(h - (TOP_H + BOTTOM_H) * scale)


def map_size(size, scale: float, aspect: float) -> float:
    """How large the whole map is drawn (its height in pixels) for a map ``aspect`` (width over
    height) fitted in the room ``board_size`` leaves it."""
    bw, bh = board_size(size, scale)
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
    x0, y0, x1, y1 = BoardRenderer.extent_of(content)
    return (x1 - x0) / (y1 - y0)


def board_texts() -> dict[str, str]:
    """The words the board renderer shows (legend, symbols), in the interface language."""
    return {k: i18n.t(k) for k in BoardRenderer.TEXT_KEYS}
