"""Labelled forms (issue 45): the part the sign-in, join, host and server screens share.

- ``Field`` and ``Fields``: labelled text fields in rows, from a table (key, label, value, width,
  limit, secret); laid out at a label column and a field column, their values kept when the
  screen is laid out again, their Tab order the table's, the labels drawn by ``draw``.
- ``centred_box`` and ``draw_panel``: the panel in the middle of the window, its heading and hint.
- ``paste``: Ctrl+V into the field being typed in.
- ``Question``: one question to a server on a connection of its own, polled each frame (the
  screen never waits), its answer handed over once.
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Callable, Optional, Protocol, Sequence

import pygame
from pydantic import BaseModel

from ..net.signins import AccountRequest
from ..ui import widgets as W
from ..ui.widgets import TextField, Widgets
from ..words import i18n
from .online_common import paste_text

FIELD_H = 44  # a field's height (design pixels)
LABEL_DY = 22  # a label's middle under its row's top (design pixels): level with the field's


@dataclass(frozen=True)
class Field:
    """One labelled text field. ``label`` is its words key; ``width`` in design pixels (0: as far
    as the form's right edge); ``limit`` the characters it takes at most; ``secret`` shows dots (a password); ``step`` the design
    pixels from its row's top to the next row's (room for a line under it)."""

    key: str
    label: str
    value: str = ""
    width: int = 300
    limit: int = 24
    secret: bool = False
    step: int = 62
    px: float = 19


class Fields:
    """Labelled text fields in rows, in the order of their table (the Tab order)."""

    def __init__(self, table: Sequence[Field]) -> None:
        keys = [f.key for f in table]
        if len(set(keys)) != len(keys):
            raise ValueError(f"two fields with one key: {keys}")
        self.table = tuple(table)
        self.values = [f.value for f in table]
        self.fields: list[TextField] = []
        self.labels: list[tuple[str, tuple[int, int]]] = []  # (words, the label's left middle)

    def layout(self, widgets: Widgets, label_x: int, field_x: int, y: int, right: int = 0) -> int:
        """Add the fields to ``widgets`` in rows from ``y`` (the values typed so far kept; a field
        of width 0 reaches ``right``); the y under the last row."""
        self.values = self.current()
        self.fields, self.labels = [], []
        sc = W.sc
        for spec, value in zip(self.table, self.values):
            self.labels.append((i18n.t(spec.label), (label_x, y + sc(LABEL_DY))))
            width = sc(spec.width) if spec.width else right - field_x
            field = TextField(value, (field_x, y, width, sc(FIELD_H)), max_len=spec.limit,
                              secret=spec.secret, px=spec.px)
            widgets.add(field)
            self.fields.append(field)
            y += sc(spec.step)
        return y

    def current(self) -> list[str]:
        """The values now: as typed once laid out, else as given."""
        return [f.value for f in self.fields] if self.fields else list(self.values)

    def _index(self, key: str) -> int:
        for i, spec in enumerate(self.table):
            if spec.key == key:
                return i
        raise KeyError(key)

    def field(self, key: str) -> TextField:
        """The field of ``key`` (laid out)."""
        return self.fields[self._index(key)]

    def value(self, key: str) -> str:
        return self.current()[self._index(key)]

    def set(self, key: str, value: str) -> None:
        """Put ``value`` in the field (cut at its limit), laid out or not."""
        i = self._index(key)
        value = value[: self.table[i].limit]
        self.values[i] = value
        if self.fields:
            self.fields[i].value = value

    def edit(self, key: str) -> None:
        """Type into the field of ``key`` at once."""
        self.field(key).editing = True

    def draw(self, surf: pygame.Surface) -> None:
        """The labels (the fields are the screen's widgets: drawn with them)."""
        for text, pos in self.labels:
            W.blit_text(surf, text, pos, "sans_semibold", 18, W.TEXT, "midleft")


def centred_box(size: tuple[int, int], width: int, height: int) -> pygame.Rect:
    """A panel of ``width`` x ``height`` window pixels in the middle of a window of ``size``, 20
    pixels clear of its edges at least."""
    w, h = size
    box = pygame.Rect(0, 0, min(width, w - 40), min(h - 40, height))
    box.center = (w // 2, h // 2)
    return box


class _App(Protocol):
    def toast(self, text: str, secs: float = ...) -> None: ...


def draw_panel(surf: pygame.Surface, box: pygame.Rect, title: str, hint: str) -> int:
    """The panel, its title (cut to fit) and hint; the y under them."""
    sc = W.sc
    W.panel(surf, box, W.PANEL, W.PANEL_EDGE, 16, 3, alpha=246)
    r = W.blit_text(surf, W.fit_text(title, "title", 44, box.w - sc(80)), (box.x + sc(40), box.y + sc(22)),
                    "title", 44, W.TEXT)
    r = W.blit_text(surf, hint, (box.x + sc(40), r.bottom + sc(4)), "sans", 16, W.TEXT_SOFT, wrap=box.w - sc(120))
    bottom: int = r.bottom
    return bottom + sc(10)


def paste(widgets: Widgets, app: _App) -> bool:
    """Ctrl+V: the clipboard's text into the field being typed in (a selected text replaced, as
    typing does; cut at the field's limit); whether there was such a field."""
    field = next((w for w in widgets.items if isinstance(w, TextField) and w.editing), None)
    if field is None:
        return False
    text = paste_text()
    if text is None:
        app.toast(i18n.t("online.paste_off"))
    else:
        kept = "" if field.selected else field.value
        field.value = (kept + text)[: field.max_len]
        field.selected = False
    return True


class Question:
    """One question to a server, on a connection of its own (``AccountRequest``): asked, then
    polled each frame; its answer is handed over once. ``clock``: for the answer's deadline."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self.request: Optional[AccountRequest] = None

    @property
    def busy(self) -> bool:
        return self.request is not None

    def ask(self, url: str, messages: list[BaseModel], want: str) -> None:
        """Ask (a question still open is dropped)."""
        self.close()
        self.request = AccountRequest(url, messages, want, clock=self.clock)

    def answer(self) -> Optional[tuple[Optional[BaseModel], str]]:
        """None while waiting or when nothing was asked; then, once, (the answer, "") or (None or
        the server's ``Error``, why in words)."""
        if self.request is None:
            return None
        done = self.request.poll()
        if done is not None:
            self.request = None
        return done

    def close(self) -> None:
        if self.request is not None:
            self.request.close()
            self.request = None
