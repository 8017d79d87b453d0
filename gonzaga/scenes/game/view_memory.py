"""The board's zoom and centre remembered per game in the views file (``views.json`` in the
user data folder): a part of the game screen with explicit inputs (the game's key, which its
face gives without the seed, and the renderer's view each frame)."""
from __future__ import annotations

import json
import logging
from typing import Mapping, Optional

from ...table import persistence

log = logging.getLogger(__name__)

View = Mapping[str, object]  # the renderer's ``view_state()``

VIEWS_FILE = "views.json"
VIEWS_KEPT = 60


def _read_views() -> dict[str, object]:
    try:
        d = json.loads((persistence.data_dir() / VIEWS_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return d if isinstance(d, dict) else {}


def load_view(key: str) -> Optional[View]:
    """The zoom and centre last shown for this game, or None (a damaged file is ignored)."""
    v = _read_views().get(key)
    return v if isinstance(v, dict) else None


def store_view(key: str, view: View) -> None:
    views = _read_views()
    views.pop(key, None)
    views[key] = view
    while len(views) > VIEWS_KEPT:
        views.pop(next(iter(views)))
    try:
        persistence.atomic_write_text(persistence.data_dir() / VIEWS_FILE, json.dumps(views, indent=0))
    except OSError:
        log.warning("cannot write the board view file", exc_info=True)


class ViewMemory:
    """The board's zoom and centre remembered for one game (a part of the game screen with
    explicit inputs: the game's key, and the renderer's view as it stands each frame)."""

    def __init__(self, key: str):
        self.key = key
        self.saved: Optional[View] = None  # the view last written (or read)
        self.resting = 0.0  # seconds the view has differed from it

    def recall(self) -> Optional[View]:
        """The view last shown for this game, or None."""
        return load_view(self.key)

    def shown(self, view: View) -> None:
        """The renderer now shows ``view`` (read back, as it clamped it): nothing to write."""
        self.saved = view

    def keep(self, view: View, dt: float) -> None:
        """Write ``view`` once it has rested a second after a change."""
        if view == self.saved:
            self.resting = 0.0
            return
        self.resting += dt
        if self.resting >= 1.0:
            self.save(view)

    def save(self, view: View) -> None:
        if view != self.saved:
            store_view(self.key, view)
            self.saved = view
        self.resting = 0.0
