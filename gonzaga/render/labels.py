"""A small greedy label placer: boxes that never overlap.

Reserve the boxes that are fixed (site badges, titles); then, for each label in priority
order, offer candidate boxes (best first). :meth:`LabelPlacer.place` returns the first
candidate that lies inside the bounds and overlaps nothing reserved so far, and reserves
it; ``None`` when every candidate collides (the caller then tries a smaller font, or drops
the label). :meth:`LabelPlacer.place_best` takes scored candidates instead and keeps the
free one of the highest score (sea names: the box that lies most over its own sea).
"""
from __future__ import annotations

from typing import Iterable, Sequence

import pygame
import math


class LabelPlacer:
    def __init__(self, bounds: pygame.Rect | tuple[int, int, int, int], padding: int = 2):
        self.bounds = pygame.Rect(bounds)
        self.padding = padding
        self.boxes: list[pygame.Rect] = []   # every reserved box, padded
        self.labels: list[pygame.Rect] = []  # boxes reserved through place()

    def reserve(self, box) -> pygame.Rect:
        """Mark ``box`` as taken whatever it overlaps (a fixed element)."""
        r = pygame.Rect(box).inflate(self.padding * 2, self.padding * 2)
        self.boxes.append(r)
        return r

    def is_free(self, box) -> bool:
        r = pygame.Rect(box).inflate(self.padding * 2, self.padding * 2)
        if not self.bounds.contains(pygame.Rect(box)):
            return False
        return r.collidelist(self.boxes) == -1

    def place(self, candidates: Iterable[pygame.Rect | Sequence[int]]) -> pygame.Rect | None:
        for c in candidates:
            if self.is_free(c):
                box = pygame.Rect(c)
                self.reserve(box)
                self.labels.append(box)
                return box
        return None

    def place_best(self, candidates: Iterable[tuple[float, pygame.Rect | Sequence[int]]]):
        """Among ``(score, box)`` candidates, the free box of the highest score (the first
        one on a tie), reserved; ``None`` when every candidate collides."""
        best = None
        for score, c in candidates:
            if (best is None or score > best[0]) and self.is_free(c):
                best = (score, pygame.Rect(c))
        if best is None:
            return None
        self.reserve(best[1])
        self.labels.append(best[1])
        return best[1]


def around(anchor: tuple[float, float], size: tuple[int, int], gap: float) -> list[pygame.Rect]:
    """Candidate boxes of ``size`` around a point at distance ``gap``: below, above, right,
    left, the four diagonals; then the same a little farther away."""
    ax, ay = anchor
    w, h = size
    out: list[pygame.Rect] = []
    dirs = [(0, 1), (0, -1), (1, 0), (-1, 0), (1, 1), (-1, 1), (1, -1), (-1, -1)]
    for extra in (0.0, 0.4, 0.9):
        g = gap * (1.0 + extra)
        for dx, dy in dirs:
            if dx == 0:
                x = ax - w / 2
            elif dx > 0:
                x = ax + g * (0.7 if dy else 1.0)
            else:
                x = ax - g * (0.7 if dy else 1.0) - w
            if dy == 0:
                y = ay - h / 2
            elif dy > 0:
                y = ay + g * (0.55 if dx else 1.0)
            else:
                y = ay - g * (0.55 if dx else 1.0) - h
            out.append(pygame.Rect(int(round(x)), int(round(y)), int(w), int(h)))
    return out


def spiral(anchor: tuple[float, float], size: tuple[int, int], step: float, rings: int = 4) -> list[pygame.Rect]:
    """Candidate boxes centred on ``anchor``, then on points of growing rings around it."""
    ax, ay = anchor
    w, h = size
    out = [pygame.Rect(int(ax - w / 2), int(ay - h / 2), w, h)]
    for k in range(1, rings + 1):
        n = 8 * k
        for i in range(n):
            a = 2 * math.pi * i / n + (math.pi / 2)
            x = ax + math.cos(a) * step * k * 1.6
            y = ay + math.sin(a) * step * k
            out.append(pygame.Rect(int(x - w / 2), int(y - h / 2), w, h))
    return out
