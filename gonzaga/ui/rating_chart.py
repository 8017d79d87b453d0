"""A player's rating after each rated game, drawn as a line (issue 47, the profile screen).

Ratings are the conservative ``mu - 3 sigma`` and may be below zero early on, so the axis is
not the score charts' (``charts.py``, from zero up): it runs from a multiple of ``STEP`` at or
below the lowest point (and zero) to one at or above the highest. ``points`` is the one place
that maps a rating to a pixel: the drawing and the tests use it.
"""
from __future__ import annotations

import math
from typing import Callable, Sequence

import pygame

from . import charts
from . import widgets as W

STEP = 5  # the axis' bounds are multiples of this
LINE = (139, 38, 28)
DARK = (60, 24, 16)
PROVISIONAL_SHADE = (236, 224, 200)


def axis_range(values: Sequence[float]) -> tuple[int, int]:
    """(low, high) of the axis: multiples of STEP holding every value and zero, at least STEP apart."""
    lo = min([0.0, *values])
    hi = max([0.0, *values])
    low = int(math.floor(lo / STEP) * STEP)
    high = int(math.ceil(hi / STEP) * STEP)
    return (low, high) if high > low else (low, low + STEP)


def points(values: Sequence[float], plot: pygame.Rect, low: float, high: float) -> list[tuple[int, int]]:
    """Each value's pixel: the games evenly from the plot's left to its right edge (one game: the
    middle), ``low`` at the bottom edge and ``high`` at the top."""
    n = len(values)
    span = high - low

    def x(k: int) -> int:
        return plot.x + (round(plot.w * k / (n - 1)) if n > 1 else plot.w // 2)

    return [(x(k), plot.bottom - round(plot.h * (v - low) / span)) for k, v in enumerate(values)]


def draw(surf: pygame.Surface, rect: pygame.Rect, values: Sequence[float], *, title: str,
         number: Callable[[float], str], provisional: int = 0, provisional_label: str = "") -> list[tuple[int, int]]:
    """The chart in ``rect``: a frame with ``title``, the axis (``number`` writes its values),
    the first ``provisional`` games shaded and labelled, the line with a dot per game; returns
    the dots' pixels."""
    plot = charts.frame(surf, pygame.Rect(rect), title)
    low, high = axis_range(values)
    text_h = W.text("0", "sans", 13).get_height()
    label_w = max(W.text(number(v), "sans", 13).get_width() for v in (low, high)) + 8
    plot = pygame.Rect(plot.x + label_w, plot.y + text_h // 2 + 2, plot.w - label_w - 12,
                       plot.h - text_h - text_h // 2 - 10)
    if plot.w < 20 or plot.h < 20:
        return []
    pts = points(values, plot, low, high)
    if provisional and pts:  # the games while the rating was provisional
        end = pts[min(provisional, len(pts)) - 1][0]
        shade = pygame.Rect(plot.x, plot.y, max(2, end - plot.x), plot.h)
        pygame.draw.rect(surf, PROVISIONAL_SHADE, shade)
        if provisional_label and shade.w > W.text(provisional_label, "sans_italic", 12).get_width() + 8:
            W.blit_text(surf, provisional_label, (shade.x + 4, plot.y + 2), "sans_italic", 12, W.TEXT_SOFT)
    step = STEP * max(1, math.ceil((high - low) / STEP / 6))  # at most about six lines
    for v in sorted({0, *range(int(math.ceil(low / step) * step), high + 1, step)}):
        y = points([v], plot, low, high)[0][1]
        pygame.draw.line(surf, charts.AXIS if v == 0 else charts.GRID, (plot.x, y), (plot.right, y), 1)
        W.blit_text(surf, number(v), (plot.x - 5, y), "sans", 13, W.TEXT_SOFT, "midright")
    pygame.draw.line(surf, charts.AXIS, (plot.x, plot.y), (plot.x, plot.bottom), 1)
    n = len(values)
    every = max(1, math.ceil(n * (W.text("000", "sans", 12).get_width() + 8) / max(1, plot.w)))
    for k, (px, _) in enumerate(pts):
        if k % every == 0 or k == n - 1:
            W.blit_text(surf, str(k + 1), (px, plot.bottom + 3), "sans", 12, W.TEXT_SOFT, "midtop")
    if len(pts) >= 2:  # widths and dots grow with the interface's scale (a 2560x1440 window)
        pygame.draw.lines(surf, DARK, False, pts, max(2, W.sc(4)))
        pygame.draw.lines(surf, LINE, False, pts, max(1, W.sc(2)))
    for p in pts:
        pygame.draw.circle(surf, DARK, p, max(3, W.sc(5)))
        pygame.draw.circle(surf, LINE, p, max(2, W.sc(3)))
    return pts
