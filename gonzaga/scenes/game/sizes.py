"""The game screen's proportions and the words the board renderer shows, as the game screen's
parts import them: defined in ``render/game_sizes.py`` (light, so the app and the title screen
need not load this package)."""
from __future__ import annotations

from ...render.game_sizes import (
    BOTTOM_H,
    END_H,
    MAP_KEEP,
    PANEL_W,
    TOP_H,
    board_size,
    board_texts,
    map_aspect,
    map_first_scale,
    map_size,
)

__all__ = [
    "BOTTOM_H",
    "END_H",
    "MAP_KEEP",
    "PANEL_W",
    "TOP_H",
    "board_size",
    "board_texts",
    "map_aspect",
    "map_first_scale",
    "map_size",
]
