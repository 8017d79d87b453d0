"""Settings, keys and speech (issue 49): the screen reader (Automatic, On, Off), high contrast, and every
shortcut of ``ui/keys.py``'s table with its key. Choosing an action waits for the next key
pressed: Esc keeps the old one, a key another action holds is refused with a line naming that
action. Every change is saved at once; "Reset to defaults" gives every key back."""
from __future__ import annotations

from functools import partial
from typing import Optional

import pygame

from ..table import persistence
from ..words import i18n
from ..ui import keys, widgets as W
from ..ui.speech import MODES
from ..ui.widgets import Button
from .base import ModalScene


class KeyButton(Button):
    """An action's key in the list (click, then press the new key): the action's name with it."""

    def __init__(self, action: str, *args, **kw):
        super().__init__(*args, **kw)
        self.action = action


class KeysSettingsScene(ModalScene):
    opaque = False
    name = "settings_keys"
    captures_keys = False  # True while waiting for a new key: the app's own shortcuts wait too

    def __init__(self, app):
        super().__init__(app)
        self.waiting: Optional[str] = None  # the action whose new key is awaited
        self.note = ""  # the last refusal or change, shown under the heading (and spoken)
        self.note_bad = False

    def layout(self, size) -> None:
        self.widgets.clear()
        sc = W.sc
        w, h = size
        s = self.app.settings
        b = keys.current()
        self.box = pygame.Rect(0, 0, min(sc(1040), w - 40), min(sc(700), h - 20))
        self.box.center = (w // 2, h // 2)
        x0 = self.box.x + sc(30)
        y = self.box.y + sc(112)
        self.reader_y = y
        rx = x0 + sc(260)
        bw = min(sc(150), (self.box.right - sc(30) - rx) // 3 - sc(8))
        for i, mode in enumerate(MODES):
            label = i18n.t("settings.screen_reader.auto") if mode == "auto" else i18n.t(f"settings.{mode}")
            btn = Button(label, partial(self._reader, mode), (rx + i * (bw + sc(8)), y, bw, sc(40)),
                         style="secondary", selected=(s.access.screen_reader == mode), px=16)
            btn.spoken = f"{i18n.t('settings.screen_reader')}: {label}"
            self.widgets.add(btn)
        y += sc(52)
        self.contrast_y = y
        for i, on in enumerate((True, False)):
            label = i18n.t("settings.on" if on else "settings.off")
            btn = Button(label, partial(self._contrast, on), (rx + i * (bw + sc(8)), y, bw, sc(40)),
                         style="secondary", selected=(s.access.high_contrast == on), px=16)
            btn.spoken = f"{i18n.t('settings.high_contrast')}: {label}"
            self.widgets.add(btn)
        y += sc(58)
        self.rows: list[tuple[str, pygame.Rect]] = []
        col_w = (self.box.w - sc(60) - sc(24)) // 2
        per_col = (len(keys.ACTIONS) + 1) // 2
        row_h = max(sc(34), min(sc(44), (self.box.bottom - sc(78) - y) // per_col))
        kw = sc(130)
        for i, a in enumerate(keys.ACTIONS):
            col, row = divmod(i, per_col)
            x = x0 + col * (col_w + sc(24))
            ry = y + row * row_h
            name = i18n.t(f"keys.action.{a.name}")
            self.rows.append((name, pygame.Rect(x, ry, col_w - kw - sc(8), row_h - sc(6))))
            shown = "…" if self.waiting == a.name else b.label(a.name)
            btn = KeyButton(a.name, shown, partial(self._wait, a.name), (x + col_w - kw, ry, kw, row_h - sc(6)),
                            style="secondary", selected=(self.waiting == a.name), px=16)
            btn.spoken = f"{name}: {b.label(a.name)}"
            self.widgets.add(btn)
        self.widgets.add(Button(i18n.t("keys.reset"), self._reset,
                                (x0, self.box.bottom - sc(62), sc(280), sc(46)), style="secondary"))
        self.widgets.add(Button(i18n.t("common.back"), self.close,
                                (self.box.right - sc(170), self.box.bottom - sc(62), sc(140), sc(46))))

    # ------------------------------------------------------------ changes

    def _save(self, note: str, bad: bool = False) -> None:
        self.note, self.note_bad = note, bad
        if not bad:
            self.app.settings.access.keys = dict(keys.current().own)
            persistence.save_settings(self.app.settings)
        self.layout(self.app.size)
        self.app.speech.announce(note)

    def _reader(self, mode: str) -> None:
        self.app.settings.access.screen_reader = mode
        self.app.speech.set_mode(mode)
        persistence.save_settings(self.app.settings)
        self.layout(self.app.size)

    def _contrast(self, on: bool) -> None:
        self.app.settings.access.high_contrast = on
        W.set_palette("high" if on else "normal")
        persistence.save_settings(self.app.settings)
        self.app._relayout()

    def _wait(self, action: str) -> None:
        self.waiting = action
        self.captures_keys = True
        self.note, self.note_bad = i18n.t("keys.press", action=i18n.t(f"keys.action.{action}"),
                                          k=keys.current().label(action)), False
        self.layout(self.app.size)
        self.app.speech.announce(self.note)

    def _reset(self) -> None:
        keys.use({})
        self._save(i18n.t("keys.reset_done"))

    def press(self, key: int) -> None:
        """The key pressed while waiting: bound, or refused with the reason."""
        action, self.waiting = self.waiting, None
        self.captures_keys = False
        if action is None:
            return
        if key == pygame.K_ESCAPE:
            self.note = ""
            self.layout(self.app.size)
            return
        why = keys.current().assign(action, pygame.key.name(key))
        if why is not None:
            self._save(why, bad=True)
            return
        self._save(i18n.t("keys.changed", action=i18n.t(f"keys.action.{action}"), k=keys.current().label(action)))

    def handle(self, ev) -> bool:
        if self.waiting is not None:
            if ev.type == pygame.KEYDOWN and ev.key not in keys.MODIFIER_KEYS:
                self.press(ev.key)
            return True
        return super().handle(ev)

    # ------------------------------------------------------------ drawing

    def visible_text(self) -> list[str]:
        return ([i18n.t("keys.heading"), i18n.t("settings.screen_reader"), i18n.t("settings.high_contrast"),
                 self.note or i18n.t("keys.intro")]
                + [name for name, _r in self.rows] + super().visible_text())

    def draw(self, surf) -> None:
        sc = W.sc
        W.dim(surf, 150)
        W.panel(surf, self.box, W.PANEL, W.PANEL_EDGE, 14, 3)
        W.blit_text(surf, i18n.t("keys.heading"), (self.box.x + sc(30), self.box.y + sc(18)), "title", 36, W.TEXT)
        W.blit_text(surf, W.fit_text(self.note or i18n.t("keys.intro"), "sans_semibold" if self.note_bad else "sans",
                                     16, self.box.w - sc(60)),
                    (self.box.x + sc(30), self.box.y + sc(70)), "sans_semibold" if self.note_bad else "sans", 16,
                    W.BAD if self.note_bad else W.TEXT_SOFT)
        for key, y in (("settings.screen_reader", self.reader_y), ("settings.high_contrast", self.contrast_y)):
            W.blit_text(surf, W.fit_text(i18n.t(key), "sans_semibold", 18, sc(250)),
                        (self.box.x + sc(30), y + sc(20)), "sans_semibold", 18, W.TEXT, "midleft")
        for name, r in self.rows:
            W.blit_text(surf, W.fit_text(name, "sans", 17, r.w), (r.x, r.centery), "sans", 17, W.TEXT, "midleft")
        self.widgets.draw(surf)
