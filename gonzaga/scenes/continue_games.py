"""The games in progress (issue 45), opened by "Continue" on the title screen when there is
more than one: newest first, each with its name (if it has one), round, seats and the date it
was last played. A click resumes that game; Delete asks first (a dialog: Esc or Cancel keeps
the game). The list comes from the title screen (``in_progress.list_in_progress``)."""
from __future__ import annotations

from functools import partial
from pathlib import Path
from typing import Any, Optional

import pygame

from ..table import in_progress
from ..table.persistence import SaveInfo
from ..words import formats, i18n
from ..ui import widgets as W
from ..ui.widgets import Button
from .base import ModalScene


def entry_text(info: SaveInfo) -> str:
    """One game's line: its name (if it has one), round, seats and when it was last played."""
    when = formats.saved_when(info.saved_at)
    if info.name:
        return i18n.t("continue.entry_named", name=info.name, round=info.round, seats=info.seats, when=when)
    return i18n.t("continue.entry", round=info.round, seats=info.seats, when=when)


class InProgressScene(ModalScene):
    opaque = False
    name = "in_progress"

    def __init__(self, app: Any, games: list[SaveInfo]) -> None:
        super().__init__(app)
        self.games = list(games)
        self.first = 0  # the first game shown (paging)
        self.shown = 0
        self.box = pygame.Rect(0, 0, 0, 0)

    def layout(self, size: tuple[int, int]) -> None:
        w, h = size
        sc = W.sc
        rows = sc(90) + len(self.games) * sc(54) + sc(90)  # as tall as its list, within the window
        self.box = pygame.Rect(0, 0, min(sc(980), w - 60), max(min(h - sc(80), rows), min(h - sc(80), sc(360))))
        self.box.center = (w // 2, h // 2)
        self.widgets.clear()
        y = self.box.y + sc(90)
        bottom = self.box.bottom - sc(80)
        self.first = max(0, min(self.first, len(self.games) - 1))
        self.shown = 0
        for info in self.games[self.first:]:
            if y + sc(46) > bottom:
                break
            self.widgets.add(Button(entry_text(info), partial(self.resume_game, info.path),
                                    (self.box.x + sc(40), y, self.box.w - sc(230), sc(46)), style="secondary",
                                    px=17))
            self.widgets.add(Button(i18n.t("continue.delete"), partial(self.ask_delete, info),
                                    (self.box.right - sc(180), y, sc(140), sc(46)), style="secondary", px=17))
            y += sc(54)
            self.shown += 1
        by = self.box.bottom - sc(64)
        x = self.box.x + sc(40)
        if self.first > 0:
            self.widgets.add(Button(i18n.t("finished.newer"), self.newer, (x, by, sc(150), sc(46)),
                                    style="secondary", px=17))
            x += sc(160)
        if self.first + self.shown < len(self.games):
            self.widgets.add(Button(i18n.t("finished.older"), self.older, (x, by, sc(150), sc(46)),
                                    style="secondary", px=17))
        self.widgets.add(Button(i18n.t("common.back"), self.close, (self.box.right - sc(180), by, sc(140), sc(46))))

    def resume_game(self, path: Path) -> None:
        self.close()
        self.app.open_save(path)

    def ask_delete(self, info: SaveInfo) -> None:
        """The dialog that asks; only its Delete button deletes (Esc and Cancel keep the game)."""
        dialog: Optional[ModalScene] = None

        def yes() -> None:
            if dialog is not None:
                self.app.stack.pop(dialog)
            self.delete(info.path)

        dialog = self.app.stack.push("message", i18n.t("continue.delete_heading"),
                                     i18n.t("continue.delete_body", game=entry_text(info)), None,
                                     [(i18n.t("continue.delete"), yes)], i18n.t("common.cancel"),
                                     focus_close=True)  # Enter keeps the game too

    def delete(self, path: Path) -> None:
        try:
            in_progress.delete(path)
        except OSError as e:
            self.app.toast(i18n.t("continue.not_deleted", reason=str(e)), 6)
            return
        self.games = [g for g in self.games if g.path != path]
        self.app.toast(i18n.t("continue.deleted"))
        if not self.games:
            self.close()
            return
        self.layout(self.app.size)

    def older(self) -> None:
        self.first += max(1, self.shown)
        self.layout(self.app.size)

    def newer(self) -> None:
        self.first = max(0, self.first - max(1, self.shown))
        self.layout(self.app.size)

    def handle(self, ev: pygame.event.Event) -> bool:
        if ev.type == pygame.KEYDOWN and ev.key in (pygame.K_UP, pygame.K_DOWN):
            self.widgets.move_focus(-1 if ev.key == pygame.K_UP else 1)
            return True
        return super().handle(ev)

    def visible_text(self) -> list[str]:
        return [i18n.t("continue.heading", n=len(self.games))] + super().visible_text()

    def draw(self, surf: pygame.Surface) -> None:
        W.dim(surf, 150)
        W.panel(surf, self.box, W.PANEL, W.PANEL_EDGE, 14, 3)
        sc = W.sc
        W.blit_text(surf, i18n.t("continue.heading", n=len(self.games)), (self.box.x + sc(40), self.box.y + sc(20)),
                    "title", 40, W.TEXT)
        self.widgets.draw(surf)
