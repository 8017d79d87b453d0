"""Load a saved game. Damaged saves are reported here (and moved aside) instead of crashing."""
from __future__ import annotations

import pygame

from .. import persistence
from ..ui import i18n
from ..ui import widgets as W
from ..ui.widgets import Button
from .base import ModalScene


class LoadScene(ModalScene):
    opaque = False
    name = "load"

    def __init__(self, app):
        super().__init__(app)
        self.saves, bad = persistence.list_saves(content=app.content)
        self.errors = [i18n.t("load.damaged", file=e.path.name if e.path else "?", message=e.message,
                              moved=e.moved_to.name if e.moved_to else "-") for e in bad]

    def layout(self, size) -> None:
        w, h = size
        self.box = pygame.Rect(0, 0, min(980, w - 60), h - 80)
        self.box.center = (w // 2, h // 2)
        self.widgets.clear()
        y = self.box.y + 90
        self.err_rects = []
        for msg in self.errors[:4]:
            img = W.text(msg, "sans", 16, W.BAD, wrap=self.box.w - 80)
            self.err_rects.append((msg, y))
            y += img.get_height() + 10
        if self.errors:
            y += 8
        self.list_top = y
        for info in self.saves:
            if y > self.box.bottom - 140:
                break
            name = i18n.t("load.autosave") if info.autosave else info.name
            label = i18n.t("load.entry", name=name, round=info.round, seats=info.seats,
                           when=info.saved_at.replace("T", " ")[:16])
            self.widgets.add(Button(label, (lambda p=info.path: self.open(p)), (self.box.x + 40, y, self.box.w - 80, 46),
                                    style="secondary", px=17))
            y += 54
        self.widgets.add(Button(i18n.t("common.back"), self.close, (self.box.right - 170, self.box.bottom - 64, 140, 46)))

    def open(self, path) -> None:
        self.app.stack.pop(self)
        self.app.open_save(path)

    def visible_text(self) -> list[str]:
        return self.errors + super().visible_text()

    def draw(self, surf) -> None:
        W.dim(surf, 150)
        W.panel(surf, self.box, W.PANEL, W.PANEL_EDGE, 14, 3)
        W.blit_text(surf, i18n.t("load.heading"), (self.box.x + 40, self.box.y + 20), "title", 40, W.TEXT)
        for msg, y in self.err_rects:
            W.blit_text(surf, msg, (self.box.x + 40, y), "sans", 16, W.BAD, wrap=self.box.w - 80)
        if not self.saves:
            W.blit_text(surf, i18n.t("load.empty"), (self.box.x + 40, self.list_top + 10), "sans", 19, W.TEXT_SOFT)
        self.widgets.draw(surf)
