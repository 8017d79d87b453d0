"""The end screen's score-by-round chart: where it stands (in the side panel in place of the
log when there is room, so the final map is seen whole; else on the map's corner), the room it
asks of the panel, and its drawing.

A part of the game screen's feedback (scenes/feedback.py) with explicit inputs."""
from __future__ import annotations

from typing import Any, Callable, Optional

import pygame

from ..render import theme
from ..table.history import RoundScores
from ..ui import charts
from ..ui import widgets as W
from ..words import i18n


class EndChart:
    """The chart. Inputs: ``face`` (the seats' names; the game's token and step the chart is
    drawn for), ``view`` (the state the screen draws: the seats and their colours), ``board``
    (the map's rectangle), ``panel_rect`` and ``panel`` (the side panel's rectangle and part,
    None without one: the seats' boxes as it fits them, its foot), ``mouse`` (the pointer: the
    chart on the map is see-through under it) and ``round_scores`` (the game's scores by round,
    None while they are being worked out)."""

    def __init__(self, face: Any, view: Callable[[], Any], board: Callable[[], pygame.Rect],
                 panel_rect: Callable[[], Optional[pygame.Rect]], panel: Callable[[], Any],
                 mouse: Callable[[], tuple[int, int]], round_scores: Callable[[Any], Optional[RoundScores]]):
        self.face = face
        self.view = view
        self.board = board
        self.panel_rect = panel_rect
        self.panel = panel
        self.mouse = mouse
        self.round_scores = round_scores
        self.image: Optional[tuple[tuple[Any, ...], pygame.Surface]] = None  # (key, the chart drawn)
        self._panel_chart: Optional[tuple[tuple[Any, ...], Optional[pygame.Rect]]] = None

    def _names(self) -> list[str]:
        return [self.face.seat_name(i) for i in range(self.view().n)]

    def rect(self) -> pygame.Rect:
        """Where the chart goes: in the side panel in place of the log, below the seats, when it
        has room there (the map stays whole); else on the map's corner."""
        r = self._panel_rect()
        if r is not None:
            return r
        b = self.board()
        w = min(W.sc(470), int(b.w * 0.4))
        h = min(W.sc(270), int(b.h * 0.5))
        # a legend on two rows (four long names at 1280x720) takes its room from the map, not the plot
        names = self._names()
        h = min(int(b.h * 0.65), h + charts.legend_height(names, w) - charts.legend_height(names[:1], w))
        r = pygame.Rect(0, 0, w, h)
        r.bottomright = (b.right - W.sc(12), b.bottom - W.sc(12))
        return r

    def _panel_rect(self) -> Optional[pygame.Rect]:
        """Below the seats' boxes (measured once per panel size, game step, language and scale:
        asked several times a frame at the end)."""
        p = self.panel_rect()
        panel = self.panel()
        if p is None or panel is None:  # (a screen without the side panel)
            return None
        foot = panel.foot()  # (an online game's chat strip at the panel's foot)
        key = (tuple(p), self.face.version, i18n.language(), theme.text_scale(), W.sc(100), foot)
        cached = self._panel_chart
        if cached is None or cached[0] != key:
            # the boxes as the panel draws them at the end, in the fit it chooses (issue 40: measured
            # with the fit of an earlier frame, the chart stood over the fourth seat's box)
            panel.fit_seats(p.y + W.sc(10), set())
            y = panel.seats_bottom(panel.seat_boxes(p.y + W.sc(10), set()))  # (two columns on a wide window)
            r = pygame.Rect(p.x + W.sc(10), y + W.sc(58), p.w - W.sc(20), p.bottom - foot - y - W.sc(68))  # Watch and Review above, clear of the seat boxes' totals
            need = self._need(r.w)
            cached = self._panel_chart = (key, r if r.w >= W.sc(220) and r.h >= need else None)  # (a readable plot)
        return None if cached[1] is None else cached[1].copy()

    def _need(self, width: int) -> int:
        """The least height of a readable chart ``width`` wide (a legend on two rows takes room)."""
        names = self._names()
        return W.sc(190) + charts.legend_height(names, width) - charts.legend_height(names[:1], width)

    def panel_room(self) -> int:
        """The height the chart needs under the seats' boxes in the side panel (with Watch and
        Review above it): the seats' boxes are drawn smaller to leave it (issue 50: at 1280x720
        with three seats the chart stood over the map)."""
        p = self.panel_rect()
        assert p is not None, "asked by the side panel, which has its rectangle"
        return W.sc(68) + self._need(p.w - W.sc(20))

    def in_panel(self) -> bool:
        """The chart stands in the side panel, in place of the log (which is then not drawn)."""
        return self._panel_rect() is not None

    def draw(self, surf: pygame.Surface, on_map: bool) -> None:
        """The chart; on the map's corner it is see-through while the pointer is on it."""
        s = self.face
        rect = self.rect()
        if rect.w < 200 or rect.h < 140:
            return
        key = (s.token, s.position, rect.size, i18n.language(), theme.text_scale(), on_map)
        if self.image is None or self.image[0] != key or W.CHECK.enabled:  # (a layout check sees it drawn)
            rs = self.round_scores(s)
            if rs is None:
                return  # being computed off the frame loop: drawn in a frame or two
            img = pygame.Surface(rect.size, pygame.SRCALPHA)
            W.CHECK.place(img, rect.topleft)
            labels = [str(x) for x in rs.rounds] + ([i18n.t("chart.end")] if rs.final else [])
            series = []
            for i, seat in enumerate(self.view().seats):
                vals = list(rs.scores[i]) + ([rs.final[i]] if rs.final else [])
                series.append(charts.seat_series(s.seat_name(i), vals, seat.colour))
            charts.line_chart(img, img.get_rect(), series, labels, title=i18n.t("chart.by_round"),
                              alpha=255)  # opaque: the pointer on it shows the map under it
            self.image = (key, img)
        img = self.image[1]
        img.set_alpha(70 if on_map and rect.collidepoint(self.mouse()) else 255)
        surf.blit(img, rect)
        img.set_alpha(255)
