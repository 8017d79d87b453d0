"""Load a saved game. Damaged saves are reported here (and moved aside) instead of crashing."""
from __future__ import annotations

import pygame

from ..table import persistence
from ..words import i18n
from ..ui import widgets as W
from ..ui.widgets import Button
from .base import ModalScene


class LoadScene(ModalScene):
    opaque = False
    name = "load"

    def __init__(self, app):
        super().__init__(app)
        self.saves, bad = persistence.list_saves(content=app.content)  # every entry, good or bad
        self.errors = [e.report() for e in bad]

    def layout(self, size) -> None:
        w, h = size
        sc = W.sc
        self.box = pygame.Rect(0, 0, min(sc(980), w - 60), h - sc(80))
        self.box.center = (w // 2, h // 2)
        self.widgets.clear()
        y = self.box.y + sc(90)
        self.err_rects = []
        for msg in self.errors[:4]:
            img = W.text(msg, "sans", 16, W.BAD, wrap=self.box.w - sc(80))
            self.err_rects.append((msg, y))
            y += img.get_height() + sc(10)
        if self.errors:
            y += sc(8)
        self.list_top = y
        for info in self.saves:
            if y > self.box.bottom - sc(140):
                break
            name = i18n.t("load.autosave") if info.autosave else info.name
            label = i18n.t("load.entry", name=name, round=info.round, seats=info.seats,
                           when=info.saved_at.replace("T", " ")[:16])
            self.widgets.add(Button(label, (lambda p=info.path: self.open(p)),
                                    (self.box.x + sc(40), y, self.box.w - sc(220), sc(46)), style="secondary", px=17))
            self.widgets.add(Button(i18n.t("load.watch"), (lambda p=info.path: self.watch(p)),
                                    (self.box.right - sc(170), y, sc(130), sc(46)), style="secondary", px=17))
            y += sc(54)
        self.widgets.add(Button(i18n.t("common.back"), self.close,
                                (self.box.right - sc(170), self.box.bottom - sc(64), sc(140), sc(46))))

    def open(self, path) -> None:
        self.app.stack.pop(self)
        self.app.open_save(path)

    def watch(self, path) -> None:
        """The replay viewer over this list (closing it comes back here)."""
        self.app.stack.push("replay_file", path)

    def visible_text(self) -> list[str]:
        return self.errors + super().visible_text()

    def draw(self, surf) -> None:
        W.dim(surf, 150)
        W.panel(surf, self.box, W.PANEL, W.PANEL_EDGE, 14, 3)
        sc = W.sc
        W.blit_text(surf, i18n.t("load.heading"), (self.box.x + sc(40), self.box.y + sc(20)), "title", 40, W.TEXT)
        for msg, y in self.err_rects:
            W.blit_text(surf, msg, (self.box.x + sc(40), y), "sans", 16, W.BAD, wrap=self.box.w - sc(80))
        if not self.saves:
            W.blit_text(surf, i18n.t("load.empty"), (self.box.x + sc(40), self.list_top + sc(10)), "sans", 19,
                        W.TEXT_SOFT)
        self.widgets.draw(surf)
