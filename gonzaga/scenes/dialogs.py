"""Modal dialogs drawn over the screen below: a message, an unexpected error, a text prompt."""
from __future__ import annotations

from pathlib import Path
from typing import Callable, Optional

import pygame

from ..ui import i18n
from ..ui import widgets as W
from ..ui.widgets import Button, TextField
from .base import Scene


class MessageScene(Scene):
    """A heading, a paragraph and an OK button (Enter/Esc close it)."""

    opaque = False
    name = "message"

    def __init__(self, app, heading: str, body: str, on_close: Optional[Callable[[], None]] = None,
                 buttons: Optional[list[tuple[str, Callable[[], None]]]] = None):
        super().__init__(app)
        self.heading = heading
        self.body = body
        self.on_close = on_close
        self.extra = buttons or []
        self.box = pygame.Rect(0, 0, 0, 0)

    def close(self) -> None:
        self.app.stack.pop(self)
        if self.on_close:
            self.on_close()

    def layout(self, size) -> None:
        w = min(760, size[0] - 80)
        body = W.text(self.body, "sans", 19, W.TEXT, wrap=w - 60)
        h = 150 + body.get_height()
        self.box = pygame.Rect(0, 0, w, h)
        self.box.center = (size[0] // 2, size[1] // 2)
        self.widgets.clear()
        labels = [(lbl, fn) for lbl, fn in self.extra] + [(i18n.t("common.ok"), self.close)]
        x = self.box.right - 30
        for lbl, fn in reversed(labels):
            bw = max(120, W.theme.font("sans_semibold", 19).size(lbl)[0] + 40)
            b = Button(lbl, fn, (x - bw, self.box.bottom - 64, bw, 44))
            self.widgets.add(b)
            x -= bw + 14
        self.widgets.focus = self.widgets.items[-1]
        self.widgets.items[-1].focused = True

    def handle(self, ev) -> bool:
        if ev.type == pygame.KEYDOWN and ev.key in (pygame.K_ESCAPE,):
            self.close()
            return True
        return self.widgets.handle(ev) or True  # modal

    def draw(self, surf) -> None:
        W.dim(surf, 140)
        W.panel(surf, self.box, W.PANEL, W.PANEL_EDGE, 14, 3)
        W.blit_text(surf, self.heading, (self.box.x + 30, self.box.y + 22), "title", 34, W.TEXT)
        W.blit_text(surf, self.body, (self.box.x + 30, self.box.y + 76), "sans", 19, W.TEXT,
                    wrap=self.box.w - 60)
        self.widgets.draw(surf)

    def visible_text(self) -> list[str]:
        return [self.heading, self.body] + super().visible_text()


class ErrorScene(MessageScene):
    """An unexpected error: a calm message and where the log is, never a traceback."""

    name = "error"

    def __init__(self, app, log_path: Path):
        super().__init__(app, i18n.t("error.heading"), i18n.t("error.body", path=str(log_path)),
                         buttons=[(i18n.t("end.title"), self._title)])

    def _title(self) -> None:
        self.app.to_title()


class PromptScene(MessageScene):
    """Ask for a line of text (a save name)."""

    name = "prompt"

    def __init__(self, app, heading: str, body: str, value: str, on_ok: Callable[[str], None]):
        super().__init__(app, heading, body)
        self.value = value
        self.on_ok = on_ok
        self.field: Optional[TextField] = None

    def layout(self, size) -> None:
        self.box = pygame.Rect(0, 0, min(640, size[0] - 80), 250)
        self.box.center = (size[0] // 2, size[1] // 2)
        self.widgets.clear()
        if self.field is not None:
            self.value = self.field.value
        self.field = self.widgets.add(TextField(self.value, (self.box.x + 30, self.box.y + 110, self.box.w - 60, 44),
                                                max_len=40))
        self.field.editing = True
        self.widgets.add(Button(i18n.t("common.cancel"), lambda: self.app.stack.pop(self),
                                (self.box.right - 300, self.box.bottom - 64, 130, 44), style="secondary"))
        self.widgets.add(Button(i18n.t("common.ok"), self._ok, (self.box.right - 156, self.box.bottom - 64, 126, 44)))

    def _ok(self) -> None:
        name = self.field.value.strip()
        if not name:
            return
        self.app.stack.pop(self)
        self.on_ok(name)

    def handle(self, ev) -> bool:
        if ev.type == pygame.KEYDOWN and ev.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
            self._ok()
            return True
        if ev.type == pygame.KEYDOWN and ev.key == pygame.K_ESCAPE:
            self.app.stack.pop(self)
            return True
        return self.widgets.handle(ev) or True

    def draw(self, surf) -> None:
        W.dim(surf, 140)
        W.panel(surf, self.box, W.PANEL, W.PANEL_EDGE, 14, 3)
        W.blit_text(surf, self.heading, (self.box.x + 30, self.box.y + 22), "title", 34, W.TEXT)
        W.blit_text(surf, self.body, (self.box.x + 30, self.box.y + 76), "sans", 17, W.TEXT_SOFT)
        self.widgets.draw(surf)
