"""Settings, sound and motion: the master, effects and music volumes, the music, mute, and
"reduce motion". Saved with the other settings at once; a volume change plays a short sound
so the player hears the new level."""
from __future__ import annotations

from functools import partial
from typing import Callable

import pygame

from ..table import persistence
from ..words import i18n
from ..ui import widgets as W
from ..ui.widgets import Button
from .base import ModalScene

STEP = 0.1
VOLUMES = (("sound.master", "master_volume"), ("sound.effects", "effects_volume"),
           ("sound.music_volume", "music_volume"))


class SoundSettingsScene(ModalScene):
    opaque = False
    name = "settings_sound"

    def layout(self, size: tuple[int, int]) -> None:
        self.widgets.clear()
        s = self.app.settings
        w, h = size
        self.box = pygame.Rect(0, 0, min(860, w - 60), min(600, h - 40))
        self.box.center = (w // 2, h // 2)
        x0 = self.box.x + 320
        y = self.box.y + 92
        gap = 58 if self.box.h >= 600 else 52
        self.rows = []
        self.gauges = []
        for key, field in VOLUMES:
            self.rows.append((i18n.t(key), y))
            self.widgets.add(Button("−", partial(self._step, field, -1), (x0, y, 48, 42), style="secondary", px=22))
            gauge = pygame.Rect(x0 + 58, y + 8, 260, 26)
            self.gauges.append((gauge, field))
            self.widgets.add(Button("+", partial(self._step, field, 1), (gauge.right + 10, y, 48, 42),
                                    style="secondary", px=22))
            y += gap

        def toggle(label_key: str, value: bool, setter: Callable[[bool], None]) -> None:
            nonlocal y
            self.rows.append((i18n.t(label_key), y))
            for i, (v, label) in enumerate(((True, i18n.t("settings.on")), (False, i18n.t("settings.off")))):
                self.widgets.add(Button(label, partial(setter, v), (x0 + i * 128, y, 120, 42), style="secondary",
                                        selected=(v == value), px=17))
            y += gap

        toggle("sound.music", s.music, lambda v: self._set("music", v))
        toggle("sound.mute", s.mute, lambda v: self._set("mute", v))
        toggle("motion.reduce", s.reduce_motion, lambda v: self._set("reduce_motion", v))
        self.hint_y = y + 2
        self.widgets.add(Button(i18n.t("common.back"), self.close, (self.box.right - 170, self.box.bottom - 62, 140, 46)))

    def _save(self) -> None:
        persistence.save_settings(self.app.settings)
        self.layout(self.app.size)

    def _set(self, field: str, value: bool) -> None:
        setattr(self.app.settings, field, value)
        self._save()
        if field == "mute" and not value:
            self._sample()

    def _step(self, field: str, d: int) -> None:
        self._set_volume(field, getattr(self.app.settings, field) + d * STEP)

    def _set_volume(self, field: str, v: float) -> None:
        v = round(max(0.0, min(1.0, v)) * 10) / 10
        setattr(self.app.settings, field, v)
        self._save()
        if field != "music_volume":
            self._sample()

    def _sample(self) -> None:
        audio = getattr(self.app, "audio", None)
        if audio is not None:
            audio.play("points")

    def handle(self, ev: pygame.event.Event) -> bool:
        if ev.type == pygame.MOUSEBUTTONDOWN and ev.button == 1:
            for gauge, field in self.gauges:
                if gauge.inflate(0, 12).collidepoint(ev.pos):
                    self._set_volume(field, (ev.pos[0] - gauge.x) / gauge.w)
                    return True
        return super().handle(ev)

    def status_text(self) -> str:
        audio = getattr(self.app, "audio", None)
        if audio is not None and audio.state == "silent":
            return i18n.t("sound.silent")
        return ""

    def visible_text(self) -> list[str]:
        s = self.app.settings
        return ([label for label, _y in self.rows] + [f"{int(round(getattr(s, f) * 100))} %" for _g, f in self.gauges]
                + [i18n.t("motion.hint"), self.status_text()] + super().visible_text())

    def draw(self, surf: pygame.Surface) -> None:
        s = self.app.settings
        W.dim(surf, 150)
        W.panel(surf, self.box, W.PANEL, W.PANEL_EDGE, 14, 3)
        W.blit_text(surf, i18n.t("sound.heading"), (self.box.x + 30, self.box.y + 22), "title", 40, W.TEXT)
        for label, y in self.rows:
            W.blit_text(surf, W.fit_text(label, "sans_semibold", 18, 280), (self.box.x + 30, y + 21), "sans_semibold",
                        18, W.TEXT, "midleft")
        for gauge, field in self.gauges:
            v = getattr(s, field)
            muted = s.mute or (field == "music_volume" and not s.music)
            pygame.draw.rect(surf, (246, 238, 218), gauge, 0, 6)
            fill = gauge.copy()
            fill.w = int(gauge.w * v)
            if fill.w > 0:
                pygame.draw.rect(surf, W.BUTTON_OFF if muted else W.BUTTON, fill, 0, 6)
            for k in range(1, 10):
                tx = gauge.x + gauge.w * k // 10
                pygame.draw.line(surf, W.PANEL_EDGE, (tx, gauge.bottom - 5), (tx, gauge.bottom - 1), 1)
            pygame.draw.rect(surf, W.PANEL_EDGE, gauge, 1, 6)
            W.blit_text(surf, f"{int(round(v * 100))} %", (gauge.right + 70, gauge.centery), "sans_semibold", 17,
                        W.TEXT_SOFT if muted else W.TEXT, "midleft")
        wrap = self.box.w - 60
        y = self.hint_y
        r = W.blit_text(surf, i18n.t("motion.hint"), (self.box.x + 30, y), "sans", 15, W.TEXT_SOFT,
                        wrap=min(wrap, self.box.w - 230))
        status = self.status_text()
        if status:
            W.blit_text(surf, status, (self.box.x + 30, r.bottom + 6), "sans_semibold", 15, W.BAD,
                        wrap=min(wrap, self.box.w - 230))
        self.widgets.draw(surf)
