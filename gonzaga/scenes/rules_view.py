"""The rules, always at hand (title screen and in-game menu); wheel or arrows scroll."""
from __future__ import annotations

import pygame

from ..ui import i18n, rules_text
from ..ui import widgets as W
from ..ui.widgets import Button
from .base import ModalScene


class RulesScene(ModalScene):
    opaque = False
    name = "rules"

    def __init__(self, app):
        super().__init__(app)
        self.scroll = 0

    def layout(self, size) -> None:
        w, h = size
        self.box = pygame.Rect(0, 0, min(1000, w - 60), h - 80)
        self.box.center = (w // 2, h // 2)
        self.widgets.clear()
        self.widgets.add(Button(i18n.t("common.back"), self.close, (self.box.right - 170, self.box.bottom - 64, 140, 46)))
        self._page = self._render(self.box.w - 80)

    def _render(self, width: int) -> pygame.Surface:
        parts = []
        for line in rules_text.text(i18n.language()).strip().splitlines():
            if line.startswith("# "):
                parts.append((W.text(line[2:], "title", 30, W.TEXT), 18))
            elif line.strip():
                parts.append((W.text(line, "sans", 18, W.TEXT, wrap=width), 10))
        h = sum(p.get_height() + gap for p, gap in parts) + 20
        page = pygame.Surface((width, h), pygame.SRCALPHA)
        y = 0
        for p, gap in parts:
            if gap == 18 and y:
                y += 8
            page.blit(p, (0, y))
            y += p.get_height() + gap
        return page

    def handle(self, ev) -> bool:
        view_h = self.box.h - 170
        limit = max(0, self._page.get_height() - view_h)
        if ev.type == pygame.MOUSEWHEEL:
            self.scroll = max(0, min(limit, self.scroll - ev.y * 40))
            return True
        if ev.type == pygame.KEYDOWN:
            if ev.key == pygame.K_ESCAPE:
                self.close()
                return True
            if ev.key in (pygame.K_DOWN, pygame.K_PAGEDOWN, pygame.K_UP, pygame.K_PAGEUP):
                step = 40 if ev.key in (pygame.K_DOWN, pygame.K_UP) else view_h - 40
                sign = 1 if ev.key in (pygame.K_DOWN, pygame.K_PAGEDOWN) else -1
                self.scroll = max(0, min(limit, self.scroll + sign * step))
                return True
        return self.widgets.handle(ev) or True

    def draw(self, surf) -> None:
        W.dim(surf, 150)
        W.panel(surf, self.box, W.PANEL, W.PANEL_EDGE, 14, 3)
        W.blit_text(surf, i18n.t("rules.heading"), (self.box.x + 40, self.box.y + 20), "title", 40, W.TEXT)
        W.blit_text(surf, i18n.t("rules.scroll"), (self.box.right - 40, self.box.y + 40), "sans", 15, W.TEXT_SOFT,
                    "topright")
        view = pygame.Rect(self.box.x + 40, self.box.y + 84, self.box.w - 80, self.box.h - 170)
        clip = surf.get_clip()
        surf.set_clip(view)
        surf.blit(self._page, (view.x, view.y - self.scroll))
        surf.set_clip(clip)
        self.widgets.draw(surf)
