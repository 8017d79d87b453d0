"""The marks the tutorial draws on the map (``scenes/tutorial.py``): the hexes a step talks
about and, where one placement only fits, that placement's castles and anchor dot, drawn under
the ghost. A mixin of ``TutorialGameScene``, before ``GameScene`` (whose ``draw_marks`` it replaces)."""
from __future__ import annotations

from typing import Optional

import pygame

from ..rules import Place
from ..table import tutorial as T


class TutorialMarks:
    """The step's hexes and its one fitting placement, drawn on the map."""

    def drawn_guide(self) -> Optional[tuple]:
        """Where a placing step takes one placement only: its anchor and castles (drawn on the
        target); None where several ways fit (or no placement is asked)."""
        st = self.step
        if st.kind != "place" or self.place is None or not isinstance(st.arg, Place):
            return None
        key = (self.face.version, st.key)
        if getattr(self, "_guide_key", None) != key:
            ways = {T.footprint(self.state, p) for p in T.accepted_placements(self.state, st)}
            self._guide = (st.arg.anchor, T.footprint(self.state, st.arg)[1]) if len(ways) == 1 else None
            self._guide_key = key
        return self._guide

    def draw_marks(self, surf) -> None:
        """The hexes the step talks about (gold), and where one placement only fits, its
        castles and its dot: under the ghost, which stays visible on top."""
        hx = self._target_hexes()
        if not hx or self.renderer is None:
            return
        r = self.renderer
        r.draw_highlight(surf, hx, kind="best")
        guide = self.drawn_guide()
        if guide is None:
            return
        anchor, castles = guide
        cells = T.footprint(self.state, self.step.arg)[0]
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
