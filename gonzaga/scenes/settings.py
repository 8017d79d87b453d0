"""Settings: AI speed, full screen, language, the privacy curtain with a single human seat."""
from __future__ import annotations

import pygame

from ..table import persistence
from ..words import i18n
from ..ui import widgets as W
from ..ui.widgets import Button
from .base import ModalScene

SPEEDS = ("slow", "normal", "fast", "instant")
UI_SCALES = (80, 90, 100, 125, 150, 175, 200)  # the interface size, percent


class SettingsScene(ModalScene):
    opaque = False
    name = "settings"

    def layout(self, size) -> None:
        self.widgets.clear()
        s = self.app.settings
        w, h = size
        sc = W.sc
        self.box = pygame.Rect(0, 0, min(sc(860), w - 60), min(sc(718), h - 20))
        self.box.center = (w // 2, h // 2)
        x0 = self.box.x + sc(320)
        y = self.box.y + sc(100)
        self.rows: list[tuple[str, int]] = []  # (a row's label, its top)

        def row(label_key, options, current, setter):
            nonlocal y
            self.rows.append((i18n.t(label_key), y))
            bw = min(sc(120), (self.box.right - sc(30) - x0) // len(options) - sc(8))
            for i, (value, label) in enumerate(options):
                self.widgets.add(Button(label, (lambda v=value: setter(v)), (x0 + i * (bw + sc(8)), y, bw, sc(44)),
                                        style="secondary", selected=(value == current), px=17))
            y += sc(66)

        row("settings.speed", [(v, i18n.t(f"settings.speed.{v}")) for v in SPEEDS], self.app.speed, self._speed)
        row("settings.fullscreen", [(True, i18n.t("settings.on")), (False, i18n.t("settings.off"))],
            self.app.fullscreen, self._fullscreen)
        row("settings.language", i18n.languages(s.language), s.language, self._language)
        row("settings.hints", [(True, i18n.t("settings.on")), (False, i18n.t("settings.off"))],
            getattr(s, "hints", True), self._hints)  # issue 11
        self.ui_row_y = y
        row("settings.ui_scale", [(v, f"{v}%") for v in UI_SCALES], s.ui_scale, self._ui_scale)  # issue 10
        self.ui_most = self.app.largest_ui_setting(UI_SCALES)
        if self.ui_most < UI_SCALES[-1]:  # a line under it says how far this window goes
            y += sc(14)
        row("notify.setting", [(True, i18n.t("settings.on")), (False, i18n.t("settings.off"))],
            s.turn_notify, self._turn_notify)  # issue 47: your turn in another game
        row("settings.curtain_solo", [(True, i18n.t("settings.on")), (False, i18n.t("settings.off"))],
            s.curtain_solo, self._curtain)
        self.hint_y = y - sc(10)
        self.widgets.add(Button(i18n.t("settings.sound_motion"), self._sound,
                                (self.box.x + sc(30), self.box.bottom - sc(66), sc(300), sc(46)), style="secondary"))
        self.widgets.add(Button(i18n.t("settings.keys"), lambda: self.app.stack.push("settings_keys"),  # issue 49
                                (self.box.x + sc(340), self.box.bottom - sc(66), sc(270), sc(46)), style="secondary"))
        self.widgets.add(Button(i18n.t("common.back"), self.close,
                                (self.box.right - sc(170), self.box.bottom - sc(66), sc(140), sc(46))))

    def _sound(self) -> None:
        self.app.stack.push("settings_sound")

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

    def _hints(self, v) -> None:
        self.app.settings.hints = v
        self._save()

    def _ui_scale(self, v) -> None:
        self.app.settings.ui_scale = v
        self._save()  # the app works out the new scale and lays every screen out again

    def _turn_notify(self, v) -> None:
        self.app.settings.turn_notify = v
        self._save()

    def _curtain(self, v) -> None:
        self.app.settings.curtain_solo = v
        self._save()

    def draw(self, surf) -> None:
        W.dim(surf, 150)
        W.panel(surf, self.box, W.PANEL, W.PANEL_EDGE, 14, 3)
        sc = W.sc
        W.blit_text(surf, i18n.t("settings.heading"), (self.box.x + sc(30), self.box.y + sc(22)), "title", 40, W.TEXT)
        for label, y in self.rows:
            W.blit_text(surf, label, (self.box.x + sc(30), y + sc(22)), "sans_semibold", 18, W.TEXT, "midleft",
                        wrap=sc(284))
        # what this window can show (issue 40: the map keeps most of its size, so a small window
        # holds a smaller interface size; the setting is kept for a larger window)
        most = self.ui_most
        if most < UI_SCALES[-1]:
            over = self.app.settings.ui_scale > most
            W.blit_text(surf, i18n.t("settings.ui_scale_most", pct=most), (self.box.x + sc(30), self.ui_row_y + sc(42)),
                        "sans_semibold" if over else "sans", 14, W.BAD if over else W.TEXT_SOFT, wrap=sc(284))
        W.blit_text(surf, i18n.t("settings.curtain_solo.hint"), (self.box.x + sc(30), self.hint_y), "sans", 16,
                    W.TEXT_SOFT, wrap=self.box.w - sc(220))
        self.widgets.draw(surf)
