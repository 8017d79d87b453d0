"""Settings: AI speed, full screen, language, the privacy curtain with a single human seat."""
from __future__ import annotations

import pygame

from .. import persistence
from ..ui import i18n
from ..ui import widgets as W
from ..ui.widgets import Button
from .base import ModalScene

SPEEDS = ("slow", "normal", "fast", "instant")


class SettingsScene(ModalScene):
    opaque = False
    name = "settings"

    def layout(self, size) -> None:
        self.widgets.clear()
        s = self.app.settings
        w, h = size
        self.box = pygame.Rect(0, 0, min(860, w - 60), 520)
        self.box.center = (w // 2, h // 2)
        x0 = self.box.x + 320
        y = self.box.y + 100
        self.rows = []

        def row(label_key, options, current, setter):
            nonlocal y
            self.rows.append((i18n.t(label_key), y))
            bw = min(120, (self.box.right - 30 - x0) // len(options) - 8)
            for i, (value, label) in enumerate(options):
                self.widgets.add(Button(label, (lambda v=value: setter(v)), (x0 + i * (bw + 8), y, bw, 44),
                                        style="secondary", selected=(value == current), px=17))
            y += 66

        row("settings.speed", [(v, i18n.t(f"settings.speed.{v}")) for v in SPEEDS], self.app.speed, self._speed)
        row("settings.fullscreen", [(True, i18n.t("settings.on")), (False, i18n.t("settings.off"))],
            self.app.fullscreen, self._fullscreen)
        row("settings.language", [("en", i18n.t("lang.en")), ("it", i18n.t("lang.it"))], s.language, self._language)
        row("settings.curtain_solo", [(True, i18n.t("settings.on")), (False, i18n.t("settings.off"))],
            s.curtain_solo, self._curtain)
        self.hint_y = y - 10
        self.widgets.add(Button(i18n.t("common.back"), self.close, (self.box.right - 170, self.box.bottom - 66, 140, 46)))

    def _save(self) -> None:
        persistence.save_settings(self.app.settings)
        self.app._relayout()

    def _speed(self, v) -> None:
        self.app.set_speed(v)
        self.app._relayout()

    def _fullscreen(self, v) -> None:
        if v != self.app.fullscreen:
            self.app.toggle_fullscreen()

    def _language(self, v) -> None:
        self.app.settings.language = v
        i18n.set_language(v)
        self._save()

    def _curtain(self, v) -> None:
        self.app.settings.curtain_solo = v
        self._save()

    def draw(self, surf) -> None:
        W.dim(surf, 150)
        W.panel(surf, self.box, W.PANEL, W.PANEL_EDGE, 14, 3)
        W.blit_text(surf, i18n.t("settings.heading"), (self.box.x + 30, self.box.y + 22), "title", 40, W.TEXT)
        for label, y in self.rows:
            W.blit_text(surf, label, (self.box.x + 30, y + 22), "sans_semibold", 18, W.TEXT, "midleft")
        W.blit_text(surf, i18n.t("settings.curtain_solo.hint"), (self.box.x + 30, self.hint_y), "sans", 16,
                    W.TEXT_SOFT, wrap=self.box.w - 220)
        self.widgets.draw(surf)
