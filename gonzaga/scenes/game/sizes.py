"""The game screen's proportions, and the words the board renderer shows."""
from __future__ import annotations

from ...render.board_view import BoardRenderer
from ...words import i18n

TOP_H = 54
PANEL_W = 390  # at 1600 px and wider; narrower windows get a narrower panel (see layout)
BOTTOM_H = 200
END_H = 330


def board_texts() -> dict[str, str]:
    """The words the board renderer shows (legend, symbols), in the interface language."""
    return {k: i18n.t(k) for k in BoardRenderer.TEXT_KEYS}
