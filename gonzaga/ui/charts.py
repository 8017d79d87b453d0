"""Charts in the game's style: parchment panels, ink text, seat colours with their crests.

``line_chart`` draws lines (a seat's score by round, a player's score by game); every line
has markers of its own shape (a seat's crest, or a dot) and a legend, so lines never differ by
colour alone. ``bar_chart`` draws groups of bars (games played and won) with the number on
each bar and a hatch on the second bar of a group.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Optional, Sequence

import pygame

from ..render import pieces, theme
from . import widgets as W

GRID = (212, 196, 164)
AXIS = (120, 92, 56)


@dataclass
class Series:
    label: str
    values: Sequence[Optional[float]]
    color: tuple
    dark: tuple = (40, 30, 20)
    seat: Optional[str] = None  # a seat colour name: its crest marks the points
    dashed: bool = False
    marks: bool = True


@dataclass
class BarGroup:
    label: str
    values: list = field(default_factory=list)  # (value, colour, hatch)


def nice_max(v: float) -> int:
    """A round upper bound for an axis (10, 20, 25, 50, 100, ...)."""
    if v <= 0:
        return 1
    if v <= 5:
        return 5
    mag = 10 ** int(math.floor(math.log10(v)))
    for m in (1, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10):
        if v <= m * mag:
            return int(m * mag)
    return int(10 * mag)


def frame(surf: pygame.Surface, rect: pygame.Rect, title: str, alpha: int = 246) -> pygame.Rect:
    """The chart's panel and title; returns the area left for the plot."""
    W.panel(surf, rect, W.PANEL, W.PANEL_EDGE, 10, 2, alpha=alpha)
    if title:
        r = W.blit_text(surf, W.fit_text(title, "sans_bold", 16, rect.w - 24), (rect.x + 12, rect.y + 8), "sans_bold",
                        16, W.TEXT)
        top = max(rect.y + 34, r.bottom + 6)  # under the title at any text size
        return pygame.Rect(rect.x + 12, top, rect.w - 24, rect.bottom - 10 - top)
    return rect.inflate(-24, -20)


def _y_axis(surf, plot: pygame.Rect, top: int, px: int = 13) -> int:
    """Grid lines and numbers on the left; returns the x where the plot starts."""
    steps = top if top <= 5 else next((k for k in (4, 5, 3, 2) if top % k == 0), 1)
    label_w = max(W.text(str(top), "sans", px).get_width(), 12) + 6
    x0 = plot.x + label_w
    for k in range(steps + 1):
        v = top * k // steps  # a whole number: ``steps`` divides ``top``
        y = plot.bottom - int((plot.h) * k / steps)
        pygame.draw.line(surf, GRID if k else AXIS, (x0, y), (plot.right, y), 1)
        W.blit_text(surf, str(v), (x0 - 5, y), "sans", px, W.TEXT_SOFT, "midright")
    pygame.draw.line(surf, AXIS, (x0, plot.y), (x0, plot.bottom), 1)
    return x0


def line_chart(surf: pygame.Surface, rect: pygame.Rect, series: Sequence[Series], x_labels: Sequence[str], *,
               title: str = "", legend: bool = True, alpha: int = 246, top: Optional[float] = None) -> None:
    rect = pygame.Rect(rect)
    plot = frame(surf, rect, title, alpha)
    text_h = W.text("0", "sans", 13).get_height()  # the axis numbers and legend at this text size
    row_h = max(22, text_h + 6)
    rows = _legend_rows(series, plot.x, rect.right - 10) if legend and series else []
    legend_h = row_h * len(rows)
    label_h = max(20, W.text("0", "sans", 12).get_height() + 5)
    pad = max(4, text_h // 2)  # the top number is centred on the top line: it must not reach the title
    plot = pygame.Rect(plot.x, plot.y + pad, plot.w, plot.h - legend_h - label_h - pad)
    vals = [v for s in series for v in s.values if v is not None]
    top = nice_max(max(vals + [top or 0, 1]))
    x0 = _y_axis(surf, plot, top)
    n = max(1, len(x_labels))
    last_w = W.text(x_labels[-1], "sans", 12).get_width() if x_labels else 0
    span = plot.right - x0 - 10 - max(0, last_w // 2 - 10)  # the last label ("End") whole inside the frame

    def px(k: int) -> int:
        return x0 + 8 + (int(span * k / (n - 1)) if n > 1 else span // 2)

    def py(v: float) -> int:
        return plot.bottom - int(plot.h * v / top)

    # x labels, thinned to fit
    every = max(1, math.ceil(n * max(26, W.text("00", "sans", 12).get_width() + 10) / max(1, span)))
    gap = W.text(" ", "sans", 12).get_width()

    def label_rect(k: int, lab: str) -> pygame.Rect:
        return W.text(lab, "sans", 12).get_rect(midtop=(px(k), plot.bottom + 3)).inflate(gap, 0)
    # the last label always, the others thinned and never into the one before or the last (a
    # long word for "End", Polish "Koniec", ran into round 12)
    shown = [label_rect(n - 1, x_labels[-1])] if x_labels else []
    for k, lab in enumerate(x_labels):
        if k == n - 1 or (k % every == 0 and label_rect(k, lab).collidelist(shown) == -1):
            if k != n - 1:
                shown.append(label_rect(k, lab))
            W.blit_text(surf, lab, (px(k), plot.bottom + 3), "sans", 12, W.TEXT_SOFT, "midtop")
    for s in series:
        pts = [(px(k), py(v)) for k, v in enumerate(s.values) if v is not None]
        if len(pts) >= 2:
            if s.dashed:
                for a, b in zip(pts, pts[1:]):
                    pieces.dashed_line(surf, s.color, a, b, 2, 6, 5)
            else:
                pygame.draw.lines(surf, s.dark, False, pts, 5)
                pygame.draw.lines(surf, s.color, False, pts, 3)
        if s.marks:
            for p in pts:
                _mark(surf, s, p)
    for i, row in enumerate(rows):  # every series in the legend, on as many rows as they need
        y = rect.bottom - 10 - max(16, text_h) // 2 - (len(rows) - 1 - i) * row_h  # the row's middle line
        for s, label, x in row:
            _mark(surf, s, (x + 8, y))
            W.blit_text(surf, label, (x + 20, y), "sans", 13, W.TEXT, "midleft")


def legend_height(labels: Sequence[str], width: int) -> int:
    """How tall a line chart's legend of seats named ``labels`` is in a chart ``width`` pixels wide."""
    text_h = W.text("0", "sans", 13).get_height()
    rows = _legend_rows([Series(x, [], (0, 0, 0)) for x in labels], 12, width - 10) if labels else []
    return max(22, text_h + 6) * len(rows)


def _legend_rows(series: Sequence[Series], left: int, right: int) -> list[list[tuple]]:
    """The legend's entries flowed on rows between ``left`` and ``right``: [(series, label, x)];
    a label is shortened (and noted by the layout check) only when it cannot fit a row alone."""
    rows: list[list[tuple]] = [[]]
    x = left
    for s in series:
        label = W.fit_text(s.label, "sans", 13, right - left - 20)
        w = 20 + W.text(label, "sans", 13).get_width()
        if rows[-1] and x + w > right:
            rows.append([])
            x = left
        rows[-1].append((s, label, x))
        x += w + 16
    return rows


def _mark(surf, s: Series, p) -> None:
    if s.seat:
        c = pieces.crest(s.seat, 15)
        surf.blit(c, c.get_rect(center=(int(p[0]), int(p[1]))))
    elif s.dashed:
        pygame.draw.line(surf, s.color, (p[0] - 7, p[1]), (p[0] + 7, p[1]), 3)
    else:
        pygame.draw.circle(surf, s.dark, (int(p[0]), int(p[1])), 5)
        pygame.draw.circle(surf, s.color, (int(p[0]), int(p[1])), 3)


def bar_chart(surf: pygame.Surface, rect: pygame.Rect, groups: Sequence[BarGroup], *, title: str = "",
              legend: Sequence[tuple] = (), alpha: int = 246) -> None:
    """``legend``: (label, colour, hatch) of each bar of a group, in order."""
    rect = pygame.Rect(rect)
    plot = frame(surf, rect, title, alpha)
    legend_h = 22 if legend else 0
    plot = pygame.Rect(plot.x, plot.y + 16, plot.w, plot.h - legend_h - 40)
    vals = [v for g in groups for v, _c, _h in g.values]
    top = nice_max(max(vals + [1]))
    x0 = _y_axis(surf, plot, top)
    if not groups:
        return
    gw = (plot.right - x0 - 8) / len(groups)
    per = max(1, max(len(g.values) for g in groups))
    bw = max(6, min(46, int(gw * 0.7 / per)))
    for gi, g in enumerate(groups):
        cx = x0 + 8 + gw * gi + gw / 2
        left = cx - bw * per / 2
        for k, (v, colour, hatch) in enumerate(g.values):
            h = int(plot.h * v / top)
            r = pygame.Rect(int(left + k * bw), plot.bottom - h, bw - 3, h)
            if h > 0:
                pygame.draw.rect(surf, colour, r, 0, 3)
                if hatch:
                    _hatch(surf, r)
                pygame.draw.rect(surf, AXIS, r, 1, 3)
            W.blit_text(surf, str(v), (r.centerx, r.top - 2), "sans_semibold", 12, W.TEXT, "midbottom")
        W.blit_text(surf, W.fit_text(g.label, "sans", 13, int(gw) - 4), (int(cx), plot.bottom + 4), "sans", 13,
                    W.TEXT, "midtop")
    if legend:
        x = plot.x
        y = rect.bottom - 10 - 16
        for label, colour, hatch in legend:
            sw = pygame.Rect(x, y + 2, 14, 14)
            pygame.draw.rect(surf, colour, sw, 0, 2)
            if hatch:
                _hatch(surf, sw)
            pygame.draw.rect(surf, AXIS, sw, 1, 2)
            r = W.blit_text(surf, label, (x + 20, y + 9), "sans", 13, W.TEXT, "midleft")
            x = r.right + 18


def _hatch(surf, r: pygame.Rect) -> None:
    clip = surf.get_clip()
    surf.set_clip(r.clip(clip) if clip else r)
    for x in range(r.x - r.h, r.right, 7):
        pygame.draw.line(surf, (255, 236, 200), (x, r.bottom), (x + r.h, r.top), 2)
    surf.set_clip(clip)


def seat_series(label: str, values, colour: str) -> Series:
    return Series(label, values, theme.seat_color(colour), theme.seat_dark(colour), seat=colour)
