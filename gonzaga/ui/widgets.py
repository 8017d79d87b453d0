"""Small widgets drawn with pygame: cached text, buttons, text fields, keyboard focus.

Widgets hold only interface state; a click calls the widget's ``on_click``. A
``Widgets`` group gives Tab / Shift+Tab focus, Enter/Space activation and mouse
hover for the widgets of one screen.
"""
from __future__ import annotations

from collections import OrderedDict
from typing import Callable, Optional

import pygame

from ..render import theme

# ---------------------------------------------------------------- colours of the interface

BG = (40, 32, 26)
PANEL = (242, 232, 206)
PANEL_DARK = (222, 206, 170)
PANEL_EDGE = (120, 92, 56)
TEXT = theme.INK
TEXT_SOFT = (110, 90, 66)
TEXT_LIGHT = (246, 238, 220)
BUTTON = (120, 36, 30)
BUTTON_HOVER = (150, 52, 40)
BUTTON_TEXT = (250, 240, 220)
BUTTON_OFF = (170, 160, 146)
BUTTON_SECONDARY = (232, 218, 186)
FOCUS = (255, 200, 60)
OK = (40, 140, 60)
BAD = (180, 40, 30)
GOLD = theme.GOLD

_cache: "OrderedDict[tuple, pygame.Surface]" = OrderedDict()


def text(s: str, role: str = "sans", px: float = 18, color=TEXT, wrap: int = 0) -> pygame.Surface:
    """A rendered text surface, cached (LRU): drawing the same label every frame costs a blit."""
    key = (s, role, int(px), tuple(color), wrap, theme.text_scale())
    surf = _cache.get(key)
    if surf is not None:
        _cache.move_to_end(key)
        return surf
    f = theme.font(role, px)
    if wrap:
        surf = f.render(s, True, color, None, wrap)
    else:
        surf = f.render(s, True, color)
    _cache[key] = surf
    if len(_cache) > 1500:
        _cache.popitem(last=False)
    return surf


def blit_text(surf: pygame.Surface, s: str, pos, role="sans", px=18, color=TEXT, anchor="topleft",
              wrap: int = 0) -> pygame.Rect:
    t = text(s, role, px, color, wrap)
    r = t.get_rect(**{anchor: (int(pos[0]), int(pos[1]))})
    surf.blit(t, r)
    return r


def fit_text(s: str, role: str, px: float, width: int) -> str:
    """``s`` shortened with an ellipsis to fit ``width`` pixels."""
    f = theme.font(role, px)
    if f.size(s)[0] <= width:
        return s
    while s and f.size(s + "…")[0] > width:
        s = s[:-1]
    return s + "…"


def panel(surf: pygame.Surface, rect, color=PANEL, edge=PANEL_EDGE, radius=10, width=2, alpha=255) -> None:
    rect = pygame.Rect(rect)
    if alpha < 255:
        s = pygame.Surface(rect.size, pygame.SRCALPHA)
        pygame.draw.rect(s, (*color, alpha), s.get_rect(), 0, radius)
        surf.blit(s, rect.topleft)
    else:
        pygame.draw.rect(surf, color, rect, 0, radius)
    if width:
        pygame.draw.rect(surf, edge, rect, width, radius)


def dim(surf: pygame.Surface, alpha: int = 150, color=(20, 14, 10)) -> None:
    s = pygame.Surface(surf.get_size(), pygame.SRCALPHA)
    s.fill((*color, alpha))
    surf.blit(s, (0, 0))


# ---------------------------------------------------------------- widgets

class Widget:
    focusable = True

    def __init__(self, rect=(0, 0, 0, 0)):
        self.rect = pygame.Rect(rect)
        self.visible = True
        self.enabled = True
        self.hover = False
        self.focused = False

    def handle(self, ev: pygame.event.Event) -> bool:
        return False

    def activate(self) -> None:
        pass

    def draw(self, surf: pygame.Surface) -> None:
        pass


class Button(Widget):
    """A clickable label. ``style``: "primary" (dark red), "secondary" (parchment), "toggle"."""

    def __init__(self, label: str, on_click: Callable[[], None], rect=(0, 0, 0, 0), *, style: str = "primary",
                 px: float = 19, tooltip: str = "", selected: bool = False, swatch=None, sub: str = ""):
        super().__init__(rect)
        self.label = label
        self.on_click = on_click
        self.style = style
        self.px = px
        self.tooltip = tooltip
        self.selected = selected
        self.swatch = swatch
        self.sub = sub
        self._pressed = False

    def handle(self, ev) -> bool:
        if not (self.visible and self.enabled):
            return False
        if ev.type == pygame.MOUSEBUTTONDOWN and ev.button == 1 and self.rect.collidepoint(ev.pos):
            self._pressed = True
            return True
        if ev.type == pygame.MOUSEBUTTONUP and ev.button == 1:
            was = self._pressed
            self._pressed = False
            if was and self.rect.collidepoint(ev.pos):
                self.activate()
                return True
        return False

    def activate(self) -> None:
        if self.enabled and self.visible:
            self.on_click()

    def draw(self, surf) -> None:
        if not self.visible:
            return
        r = self.rect
        if self.style == "primary":
            bg = BUTTON_HOVER if (self.hover and self.enabled) else BUTTON
            fg = BUTTON_TEXT
            edge = (70, 20, 16)
        else:
            bg = (250, 242, 224) if (self.hover and self.enabled) else BUTTON_SECONDARY
            fg = TEXT
            edge = PANEL_EDGE
            if self.selected:
                bg = (200, 160, 80) if not self.hover else (214, 176, 96)
                edge = (110, 76, 20)
        if not self.enabled:
            bg = BUTTON_OFF if self.style == "primary" else (214, 206, 192)
            fg = (236, 230, 220) if self.style == "primary" else (150, 140, 128)
        pygame.draw.rect(surf, bg, r, 0, 8)
        pygame.draw.rect(surf, edge, r, 2, 8)
        if self.focused:
            pygame.draw.rect(surf, FOCUS, r.inflate(6, 6), 3, 10)
        x_c = r.centerx
        if self.swatch is not None:
            sw = pygame.Rect(0, 0, r.h // 2, r.h // 2)
            sw.midleft = (r.x + 10, r.centery)
            pygame.draw.rect(surf, self.swatch, sw, 0, 4)
            pygame.draw.rect(surf, (40, 30, 20), sw, 1, 4)
            x_c = r.centerx + sw.w // 2 + 2
        label = fit_text(self.label, "sans_semibold", self.px, r.w - 16 - (r.h // 2 if self.swatch else 0))
        if self.sub:
            blit_text(surf, label, (x_c, r.centery - 2), "sans_semibold", self.px, fg, "midbottom")
            blit_text(surf, fit_text(self.sub, "sans", self.px * 0.72, r.w - 12), (x_c, r.centery),
                      "sans", self.px * 0.72, fg if self.enabled else fg, "midtop")
        else:
            blit_text(surf, label, (x_c, r.centery), "sans_semibold", self.px, fg, "center")


class TextField(Widget):
    """One line of text; click (or Tab) to type, Enter or Tab to leave."""

    def __init__(self, value: str, rect=(0, 0, 0, 0), *, max_len: int = 24, digits: bool = False,
                 on_change: Optional[Callable[[str], None]] = None, px: float = 19):
        super().__init__(rect)
        self.value = value
        self.max_len = max_len
        self.digits = digits
        self.on_change = on_change
        self.px = px
        self.editing = False

    def handle(self, ev) -> bool:
        if not self.visible:
            return False
        if ev.type == pygame.MOUSEBUTTONDOWN and ev.button == 1:
            inside = self.rect.collidepoint(ev.pos)
            self.editing = inside
            return inside
        if not (self.editing or self.focused):
            return False
        if ev.type == pygame.TEXTINPUT:
            self.editing = True
            add = "".join(ch for ch in ev.text if (ch.isdigit() if self.digits else ch.isprintable()))
            if add:
                self.value = (self.value + add)[: self.max_len]
                self._changed()
            return True
        if ev.type == pygame.KEYDOWN:
            if ev.key == pygame.K_BACKSPACE:
                self.editing = True
                self.value = self.value[:-1]
                self._changed()
                return True
            if ev.key in (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_ESCAPE) and self.editing:
                self.editing = False
                return True
            if self.editing and ev.key not in (pygame.K_TAB,):
                return True  # typing: letters are not shortcuts
        return False

    def _changed(self):
        if self.on_change:
            self.on_change(self.value)

    def activate(self) -> None:
        self.editing = True

    def draw(self, surf) -> None:
        if not self.visible:
            return
        r = self.rect
        pygame.draw.rect(surf, (255, 251, 240) if self.editing else (248, 240, 222), r, 0, 6)
        pygame.draw.rect(surf, FOCUS if (self.editing or self.focused) else PANEL_EDGE, r, 2, 6)
        shown = self.value
        t = text(shown or " ", "sans", self.px, TEXT)
        clip = surf.get_clip()
        surf.set_clip(r.inflate(-8, -4))
        x = r.x + 8
        if t.get_width() > r.w - 16:
            x = r.right - 8 - t.get_width()
        surf.blit(t, (x, r.centery - t.get_height() // 2))
        if self.editing and (pygame.time.get_ticks() // 500) % 2 == 0:
            cx = x + (t.get_width() if shown else 0) + 1
            pygame.draw.line(surf, TEXT, (cx, r.y + 6), (cx, r.bottom - 6), 2)
        surf.set_clip(clip)


class Widgets:
    """The widgets of a screen: mouse routing, hover, Tab focus, Enter/Space activation."""

    def __init__(self):
        self.items: list[Widget] = []
        self.focus: Optional[Widget] = None

    def add(self, w: Widget) -> Widget:
        self.items.append(w)
        return w

    def clear(self) -> None:
        self.items.clear()
        self.focus = None

    def editing(self) -> bool:
        return any(isinstance(w, TextField) and w.editing and w.visible for w in self.items)

    def handle(self, ev) -> bool:
        if ev.type == pygame.MOUSEMOTION:
            for w in self.items:
                w.hover = w.visible and w.rect.collidepoint(ev.pos)
            return False
        for w in self.items:
            if isinstance(w, TextField) and ev.type == pygame.MOUSEBUTTONDOWN:
                w.handle(ev)  # every field learns whether it was clicked
        for w in list(self.items):
            if not isinstance(w, TextField) and w.handle(ev):
                return True
        if ev.type == pygame.MOUSEBUTTONDOWN:
            return any(isinstance(w, TextField) and w.editing for w in self.items)
        for w in self.items:
            if isinstance(w, TextField) and (w.editing or w.focused) and w.handle(ev):
                return True
        if ev.type == pygame.KEYDOWN:
            if ev.key == pygame.K_TAB:
                self.move_focus(-1 if ev.mod & pygame.KMOD_SHIFT else 1)
                return True
            if ev.key in (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_SPACE) and self.focus is not None \
                    and self.focus.visible and self.focus.enabled:
                self.focus.activate()
                return True
        return False

    def move_focus(self, step: int) -> None:
        live = [w for w in self.items if w.visible and w.enabled and w.focusable]
        if not live:
            return
        if self.focus in live:
            i = (live.index(self.focus) + step) % len(live)
        else:
            i = 0 if step > 0 else len(live) - 1
        for w in self.items:
            w.focused = False
            if isinstance(w, TextField):
                w.editing = False
        self.focus = live[i]
        self.focus.focused = True

    def draw(self, surf) -> None:
        for w in self.items:
            w.draw(surf)
