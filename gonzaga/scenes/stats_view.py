"""The statistics screen: the games finished on this computer, in figures and charts
(``gonzaga/table/stats.py`` keeps them). Reset asks first. A damaged statistics file is reported
here once (it was kept aside and a new one started)."""
from __future__ import annotations

from typing import Any, Callable

import pygame

from ..table import stats as S
from ..ui import charts
from ..words import formats, i18n
from ..ui import widgets as W
from ..ui.widgets import Button
from .base import ModalScene
from .dialogs import MessageScene

PLAYED = (222, 206, 170)  # the parchment of a bar: games played
WON = W.BUTTON  # dark red, hatched: games won


class StatsScene(ModalScene):
    opaque = True
    name = "stats"

    def __init__(self, app: Any) -> None:
        super().__init__(app)
        self.stats, self.problem = S.load()

    def layout(self, size: tuple[int, int]) -> None:
        w, h = size
        self.box = pygame.Rect(0, 0, min(1500, w - 40), h - 40)
        self.box.center = (w // 2, h // 2)
        self.widgets.clear()
        b = self.box
        self.widgets.add(Button(i18n.t("common.back"), self.close, (b.right - 170, b.bottom - 62, 140, 46)))
        reset = self.widgets.add(Button(i18n.t("stats.reset"), self.ask_reset, (b.right - 340, b.bottom - 62, 156, 46),
                                        style="secondary"))
        reset.enabled = bool(self.stats.games)

    # ------------------------------------------------------------ reset

    def ask_reset(self) -> None:
        n = len(self.stats.games)
        self.app.stack.push(ConfirmScene(self.app, i18n.t("stats.reset_heading"), i18n.tn("stats.reset_body", n),
                                         i18n.t("stats.reset_yes"), self.do_reset))

    def do_reset(self) -> None:
        S.reset()
        self.stats, _ = S.load()
        self.app.toast(i18n.t("stats.reset_done"))
        self.layout(self.app.size)

    # ------------------------------------------------------------ what it shows

    def figures(self) -> list[tuple[str, str]]:
        s = S.summary(self.stats)
        n = s["played"]
        pct = round(100 * s["won"] / n) if n else 0
        return [
            (i18n.t("stats.played"), formats.number(n)),
            (i18n.t("stats.won"), i18n.t("stats.won_value", n=s["won"], pct=pct)),
            (i18n.t("stats.best"), formats.number(s["best"])),
            (i18n.t("stats.mean"), formats.number(s["mean"], 1)),
            (i18n.t("stats.objective"), f"{formats.number(s['objective_mean'], 1)} / 6"),
            (i18n.t("stats.leagues"), formats.number(s["leagues"])),
            (i18n.t("stats.donations"), formats.number(s["donations"])),
            (i18n.t("stats.marked"), i18n.t("stats.marked_value", takebacks=s["takebacks"], hints=s["hints"])),
        ]

    def visible_text(self) -> list[str]:
        out = [i18n.t("stats.heading")]
        if self.problem:
            out.append(self.problem)
        if not self.stats.games:
            out.append(i18n.t("stats.empty"))
        else:
            out += [f"{a}: {b}" for a, b in self.figures()]
            out += [i18n.t("stats.by_seats"), i18n.t("stats.by_level"), i18n.t("stats.by_mode"), i18n.t("stats.scores")]
        return out + super().visible_text()

    def draw(self, surf: pygame.Surface) -> None:
        surf.fill(W.BG)
        b = self.box
        W.panel(surf, b, W.PANEL, W.PANEL_EDGE, 14, 3)
        W.blit_text(surf, i18n.t("stats.heading"), (b.x + 30, b.y + 16), "title", 42, W.TEXT)
        y = b.y + 74
        if self.problem:
            r = W.blit_text(surf, self.problem, (b.x + 30, y), "sans_semibold", 16, W.BAD, wrap=b.w - 60)
            y = r.bottom + 10
        if not self.stats.games:
            W.blit_text(surf, i18n.t("stats.empty"), (b.x + 30, y + 20), "sans", 20, W.TEXT_SOFT, wrap=b.w - 60)
            self.widgets.draw(surf)
            return
        # the figures, in two rows of four
        figs = self.figures()
        cols = 4
        cw = (b.w - 60) // cols
        for k, (label, value) in enumerate(figs):
            x = b.x + 30 + (k % cols) * cw
            yy = y + (k // cols) * 54
            W.blit_text(surf, W.fit_text(label, "sans", 14, cw - 12), (x, yy), "sans", 14, W.TEXT_SOFT)
            W.blit_text(surf, W.fit_text(value, "sans_bold", 22, cw - 12), (x, yy + 18), "sans_bold", 22, W.TEXT)
        y += 2 * 54 + 6
        W.blit_text(surf, i18n.t("stats.you_note"), (b.x + 30, y), "sans_italic", 13, W.TEXT_SOFT)
        y += 24
        # four charts in a 2 x 2 grid
        gap = 16
        area = pygame.Rect(b.x + 30, y, b.w - 60, b.bottom - 76 - y)
        cw2 = (area.w - gap) // 2
        ch2 = (area.h - gap) // 2
        rects = [pygame.Rect(area.x + (k % 2) * (cw2 + gap), area.y + (k // 2) * (ch2 + gap), cw2, ch2)
                 for k in range(4)]
        s = S.summary(self.stats)
        legend = [(i18n.t("stats.legend_played"), PLAYED, False), (i18n.t("stats.legend_won"), WON, True)]

        def groups(items: list[tuple[str, tuple[int, int]]]) -> list[charts.BarGroup]:
            return [charts.BarGroup(label, [(p, PLAYED, False), (w, WON, True)]) for label, (p, w) in items]

        seats = [(i18n.t("stats.seats_n", n=k), v) for k, v in s["by_seats"].items()]
        levels = [(i18n.t(f"level.{lv}"), v) for lv, v in s["by_level"].items()]
        no_ai = [g for g in self.stats.games if g.strongest is None]
        if no_ai:
            levels.append((i18n.t("stats.no_ai"), (len(no_ai), sum(1 for g in no_ai if g.won))))
        modes = [(i18n.t(f"stats.mode.{m}"), v) for m, v in s["by_mode"].items()]
        charts.bar_chart(surf, rects[0], groups(seats), title=i18n.t("stats.by_seats"), legend=legend)
        charts.bar_chart(surf, rects[1], groups(levels), title=i18n.t("stats.by_level"), legend=legend)
        charts.bar_chart(surf, rects[2], groups(modes), title=i18n.t("stats.by_mode"), legend=legend)
        scores = s["scores"][-40:]
        first = len(s["scores"]) - len(scores) + 1
        mean = s["mean"]
        series = [charts.Series(i18n.t("stats.score_line"), scores, WON, (60, 16, 12)),
                  charts.Series(i18n.t("stats.mean_line", mean=formats.number(mean, 0)), [mean] * len(scores), (110, 90, 66),
                                dashed=True, marks=False)]
        charts.line_chart(surf, rects[3], series, [str(first + k) for k in range(len(scores))],
                          title=i18n.t("stats.scores"))
        self.widgets.draw(surf)


class ConfirmScene(MessageScene):
    """A question with Cancel and a button that does it."""

    name = "confirm"

    def __init__(self, app: Any, heading: str, body: str, yes: str, on_yes: Callable[[], None]) -> None:
        super().__init__(app, heading, body)
        self.yes = yes
        self.on_yes = on_yes

    def layout(self, size: tuple[int, int]) -> None:
        super().layout(size)
        self.widgets.clear()
        b = self.box
        self.widgets.add(Button(i18n.t("common.cancel"), self.close, (b.right - 330, b.bottom - 64, 140, 44),
                                style="secondary"))
        self.widgets.add(Button(self.yes, self._yes, (b.right - 176, b.bottom - 64, 146, 44)))
        self.widgets.focus = self.widgets.items[0]  # Enter does not reset by accident
        self.widgets.items[0].focused = True

    def _yes(self) -> None:
        self.close()
        self.on_yes()
