"""The marks the tutorial draws on the map (``scenes/tutorial.py``): the hexes a step talks
about and, where one placement only fits, that placement's castles and anchor dot, drawn under
the ghost. A part of the game screen with explicit inputs (:class:`TutorialMarks`), which the
tutorial sets as the screen's ``map_marks``."""
from __future__ import annotations

from typing import Any, Callable, Optional

import pygame

from ..rules import Place
from ..table import tutorial as T


class TutorialMarks:
    """The step's hexes and its one fitting placement, drawn on the map. Inputs: ``step`` (the
    tutorial's step now), ``view`` (the state the screen draws), ``version`` (the game's step
    counter), ``renderer`` (the board renderer, or None) and ``placing`` (the placement under way
    at the screen, or None)."""

    def __init__(self, step: Callable[[], Any], view: Callable[[], Any], version: Callable[[], int],
                 renderer: Callable[[], Any], placing: Callable[[], Any]):
        self.step = step
        self.view = view
        self.version = version
        self.renderer = renderer
        self.placing = placing
        self._guide: Optional[tuple[Any, Any]] = None
        self._guide_key: Optional[tuple[int, str]] = None

    def target_hexes(self) -> list[Any]:
        """The hexes the step points at (none unless its target is hexes)."""
        t = self.step().target
        if t and t[0] == "hexes":
            return list(T.hexes(t[1], self.view(), self.step()))
        return []

    def drawn_guide(self) -> Optional[tuple[Any, Any]]:
        """Where a placing step takes one placement only: its anchor and castles (drawn on the
        target); None where several ways fit (or no placement is asked)."""
        st = self.step()
        if st.kind != "place" or self.placing() is None or not isinstance(st.arg, Place):
            return None
        key = (self.version(), st.key)
        if self._guide_key != key:
            state = self.view()
            ways = {T.footprint(state, p) for p in T.accepted_placements(state, st)}
            self._guide = (st.arg.anchor, T.footprint(state, st.arg)[1]) if len(ways) == 1 else None
            self._guide_key = key
        return self._guide

    def draw(self, surf: pygame.Surface) -> None:
        """The hexes the step talks about (gold), and where one placement only fits, its
        castles and its dot: under the ghost, which stays visible on top."""
        hx = self.target_hexes()
        r = self.renderer()
        if not hx or r is None:
            return
        r.draw_highlight(surf, hx, kind="best")
        guide = self.drawn_guide()
        if guide is None:
            return
        anchor, castles = guide
        cells = T.footprint(self.view(), self.step().arg)[0]
        r.draw_highlight(surf, [h for h in cells if h not in hx], kind="cover")
        s = r.size
        for h in castles:
            x, y = r.hex_to_screen(h)
            w = max(8, int(s * 0.7))
            body = pygame.Rect(0, 0, w, int(w * 0.6))
            body.midbottom = (int(x), int(y + s * 0.45))
            teeth = [pygame.Rect(body.x + i * w // 5 * 2, body.y - w // 4, w // 5, w // 4 + 1) for i in range(3)]
            for rect in [body] + teeth:
                pygame.draw.rect(surf, (110, 76, 20), rect.inflate(4, 4))
            for rect in [body] + teeth:
                pygame.draw.rect(surf, (250, 236, 200), rect)
        x, y = r.hex_to_screen(anchor)
        rad = max(5, int(s * 0.22))
        pygame.draw.circle(surf, (60, 40, 20), (int(x), int(y - s * 0.35)), rad + 2)
        pygame.draw.circle(surf, (255, 255, 255), (int(x), int(y - s * 0.35)), rad)
