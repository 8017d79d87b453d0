"""Modal dialogs drawn over the screen below: a message, an unexpected error, a text prompt."""
from __future__ import annotations

from pathlib import Path
from typing import Any, Callable, Optional, Union

import pygame

from ..table import persistence
from ..words import i18n
from ..ui import widgets as W
from ..ui.widgets import Button, TextField
from .base import Scene


class MessageScene(Scene):
    """A heading, a paragraph and an OK button (Enter/Esc close it). ``buttons``: more choices
    beside it, each (label, action) or (label, action, style), e.g. "danger" for a choice that
    cannot be undone (with ``focus_close``, so that Enter keeps to the safe side)."""

    opaque = False
    name = "message"

    def __init__(self, app: Any, heading: str, body: str, on_close: Optional[Callable[[], None]] = None,
                 buttons: Optional[list[Union[tuple[str, Callable[[], None]], tuple[str, Callable[[], None], str]]]] = None,
                 close_label: str = "",
                 focus_close: bool = False) -> None:
        super().__init__(app)
        self.focus_close = focus_close  # Enter presses the closing button (a question whose yes cannot be undone)
        self.close_label = close_label  # the closing button's words ("OK"; "Cancel" beside a choice)
        self.heading = heading
        self.body = body
        self.on_close = on_close
        self.extra = buttons or []
        self.box = pygame.Rect(0, 0, 0, 0)

    def close(self) -> None:
        self.app.stack.pop(self)
        if self.on_close:
            self.on_close()

    def layout(self, size: tuple[int, int]) -> None:
        sc = W.sc
        w = min(sc(760), size[0] - 80)
        body = W.text(self.body, "sans", 19, W.TEXT, wrap=w - sc(60))
        head = W.text(self.heading, "title", 34, W.TEXT, wrap=w - sc(100))
        self.body_dy = sc(22) + head.get_height() + sc(8)  # the body under the heading (one line or two)
        h = self.body_dy + body.get_height() + sc(90)
        self.box = pygame.Rect(0, 0, w, h)
        self.box.center = (size[0] // 2, size[1] // 2)
        self.widgets.clear()
        labels = [(b[0], b[1], b[2] if len(b) > 2 else "primary") for b in self.extra] + \
            [(self.close_label or i18n.t("common.ok"), self.close, "primary")]
        x = self.box.right - sc(30)
        for lbl, fn, style in reversed(labels):
            bw = max(sc(120), W.theme.font("sans_semibold", 19).size(lbl)[0] + sc(40))
            b = Button(lbl, fn, (x - bw, self.box.bottom - sc(64), bw, sc(44)), style=style)
            self.widgets.add(b)
            x -= bw + sc(14)
        first = self.widgets.items[0 if self.focus_close else -1]  # (items[0] is the closing button)
        self.widgets.focus = first
        first.focused = True

    def handle(self, ev: pygame.event.Event) -> bool:
        if ev.type == pygame.KEYDOWN and ev.key in (pygame.K_ESCAPE,):
            self.close()
            return True
        return self.widgets.handle(ev) or True  # modal

    def draw(self, surf: pygame.Surface) -> None:
        W.dim(surf, 140)
        W.panel(surf, self.box, W.PANEL, W.PANEL_EDGE, 14, 3)
        sc = W.sc
        W.blit_text(surf, self.heading, (self.box.x + sc(30), self.box.y + sc(22)), "title", 34, W.TEXT,
                    wrap=self.box.w - sc(100))
        W.blit_text(surf, self.body, (self.box.x + sc(30), self.box.y + getattr(self, "body_dy", sc(76))), "sans",
                    19, W.TEXT, wrap=self.box.w - sc(60))
        self.widgets.draw(surf)

    def visible_text(self) -> list[str]:
        return [self.heading, self.body] + super().visible_text()


class ErrorScene(MessageScene):
    """An unexpected error: a calm message and where the log is (if there is one), never a traceback."""

    name = "error"

    def __init__(self, app: Any, log_path: Path) -> None:
        body = (i18n.t("error.body", path=str(log_path)) if persistence.log_available()
                else i18n.t("save.error_nolog"))
        super().__init__(app, i18n.t("error.heading"), body, buttons=[(i18n.t("end.title"), self._title)])

    def _title(self) -> None:
        self.app.to_title()


class PromptScene(MessageScene):
    """Ask for a line of text (a save name)."""

    name = "prompt"

    def __init__(self, app: Any, heading: str, body: str, value: str, on_ok: Callable[[str], None]) -> None:
        super().__init__(app, heading, body)
        self.value = value
        self.on_ok = on_ok
        self.field: Optional[TextField] = None

    def layout(self, size: tuple[int, int]) -> None:
        sc = W.sc
        self.box = pygame.Rect(0, 0, min(sc(640), size[0] - 80), sc(250))
        self.box.center = (size[0] // 2, size[1] // 2)
        self.widgets.clear()
        if self.field is not None:
            self.value = self.field.value
        self.field = self.widgets.add(TextField(self.value, (self.box.x + sc(30), self.box.y + sc(110),
                                                             self.box.w - sc(60), sc(44)), max_len=40))
        self.field.editing = True
        self.field.select_all()  # the name offered: typing replaces it, the arrows keep it
        self.widgets.add(Button(i18n.t("common.cancel"), lambda: self.app.stack.pop(self),
                                (self.box.right - sc(300), self.box.bottom - sc(64), sc(130), sc(44)),
                                style="secondary"))
        self.widgets.add(Button(i18n.t("common.ok"), self._ok,
                                (self.box.right - sc(156), self.box.bottom - sc(64), sc(126), sc(44))))

    def _ok(self) -> None:
        name = self.field.value.strip() if self.field is not None else self.value.strip()
        if not name:
            return
        self.app.stack.pop(self)
        self.on_ok(name)

    def handle(self, ev: pygame.event.Event) -> bool:
        if ev.type == pygame.KEYDOWN and ev.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
            self._ok()
            return True
        if ev.type == pygame.KEYDOWN and ev.key == pygame.K_ESCAPE:
            self.app.stack.pop(self)
            return True
        return self.widgets.handle(ev) or True

    def draw(self, surf: pygame.Surface) -> None:
        W.dim(surf, 140)
        W.panel(surf, self.box, W.PANEL, W.PANEL_EDGE, 14, 3)
        sc = W.sc
        W.blit_text(surf, self.heading, (self.box.x + sc(30), self.box.y + sc(22)), "title", 34, W.TEXT)
        W.blit_text(surf, self.body, (self.box.x + sc(30), self.box.y + sc(76)), "sans", 17, W.TEXT_SOFT)
        self.widgets.draw(surf)
