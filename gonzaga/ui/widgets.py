"""Small widgets drawn with pygame: cached text, buttons, text fields, keyboard focus.

Widgets hold only interface state; a click calls the widget's ``on_click``. A
``Widgets`` group gives Tab / Shift+Tab focus, Enter/Space activation and mouse
hover for the widgets of one screen.
"""
from __future__ import annotations

from collections import OrderedDict
from typing import Any, Callable, Optional, TypeVar

import pygame

from ..render import theme
from . import palette

# ---------------------------------------------------------------- colours of the interface

# The interface's palettes (issue 49) are one table, ``ui/palette.py``: the parchment one and a
# high-contrast one (black on white; every text pair at least 7:1, WCAG AAA). ``set_palette`` puts
# the widgets' roles of the one chosen into the names below; the screens read them as ``W.TEXT``...
# at each draw (the game screen's own roles: ``palette.now()``).
_NORMAL = palette.PALETTES["normal"]
BG = _NORMAL.bg
PANEL = _NORMAL.panel
PANEL_DARK = _NORMAL.panel_dark
PANEL_EDGE = _NORMAL.panel_edge
TEXT = _NORMAL.text
TEXT_SOFT = _NORMAL.text_soft
TEXT_LIGHT = _NORMAL.text_light
BUTTON = _NORMAL.button
BUTTON_HOVER = _NORMAL.button_hover
BUTTON_TEXT = _NORMAL.button_text
BUTTON_OFF = _NORMAL.button_off
BUTTON_SECONDARY = _NORMAL.button_secondary
FOCUS = _NORMAL.focus
OK = _NORMAL.ok
BAD = _NORMAL.bad
DANGER_HOVER = _NORMAL.danger_hover
BUTTON_EDGE = _NORMAL.button_edge
SECONDARY_HOVER = _NORMAL.secondary_hover
SELECTED = _NORMAL.selected
SELECTED_HOVER = _NORMAL.selected_hover
SELECTED_EDGE = _NORMAL.selected_edge
SECONDARY_OFF = _NORMAL.secondary_off
OFF_TEXT = _NORMAL.off_text
SECONDARY_OFF_TEXT = _NORMAL.secondary_off_text
GOLD = theme.GOLD
PALETTE_NAMES = tuple(n.upper() for n in palette.WIDGET_ROLES)
PALETTES: dict[str, dict[str, tuple[int, int, int]]] = {
    name: {n: getattr(pal, n.lower()) for n in PALETTE_NAMES} for name, pal in palette.PALETTES.items()}


def set_palette(name: str) -> None:
    """Use the palette ``name`` ("normal" or "high") from the next frame on: the widgets', the
    game screen's (``palette.use``) and the map's (``render/map_palette.py``: the board in high
    contrast)."""
    globals().update(PALETTES[name])
    palette.use(name)
    theme.set_map_palette(name)
    _cache.clear()  # texts drawn in the old colours


def palette_name() -> str:
    """The palette the interface is drawn in now ("normal" or "high")."""
    return next(n for n, p in palette.PALETTES.items() if p is palette.now())


_cache: "OrderedDict[tuple, pygame.Surface]" = OrderedDict()

# ---------------------------------------------------------------- the interface scale

BASE_SIZE = (1600, 1000)  # the window the layouts were drawn for (scale 1 up to this size)
MIN_LAYOUT = (1280, 720)  # the smallest window every screen's layout fits at scale 1
UI_SCALES = (80, 90, 100, 115, 130, 150, 175, 200)  # the UI scale setting, in percent

_scale = 1.0


def scale_for(size, setting: float = 100) -> float:
    """The interface scale for a window of ``size`` and the UI scale setting (percent): it grows
    with the window beyond 1600x1000, times the setting, but never beyond what the window can hold
    (a layout at scale s needs about 1280s x 720s pixels)."""
    w, h = size
    window = max(1.0, min(w / BASE_SIZE[0], h / BASE_SIZE[1]))
    fit = min(w / MIN_LAYOUT[0], h / MIN_LAYOUT[1])
    return round(max(0.5, min(window * float(setting) / 100.0, fit)), 3)


def set_ui_scale(scale: float) -> None:
    """Every length of the interface (fonts, buttons, panels, paddings) is multiplied by ``scale``."""
    global _scale
    _scale = max(0.5, min(3.0, float(scale)))
    theme.set_text_scale(_scale)


def ui_scale() -> float:
    return _scale


def sc(v: float) -> int:
    """``v`` design pixels (at scale 1) in window pixels now."""
    return int(round(v * _scale))


def sc_rect(x: float, y: float, w: float, h: float) -> pygame.Rect:
    return pygame.Rect(sc(x), sc(y), sc(w), sc(h))


# ---------------------------------------------------------------- layout checks (tests, tools)

class LabelCheck:
    """What a layout test reads: every text the widget layer shortened with "…" (``shortened``:
    scene, full text, width) and, while ``enabled``, every label drawn on the window this frame
    (``labels``: scene, ink rectangle, text, clip, owner, whether a clip was set; also those on
    an image ``place``d on the window), every button (``boxes``: scene, rectangle, owner) and
    the pictures labels must keep clear of (``pictures``: scene, rectangle, name). Off unless a test or a tool turns it on: then only a counter is kept."""

    def __init__(self):
        self.enabled = False
        self.scene = ""
        self.owner = None
        self.count = 0  # texts shortened since the start (cheap, always kept)
        self.shortened: list[tuple] = []
        self.labels: list[tuple] = []
        self.boxes: list[tuple] = []
        self.sizes: list[tuple] = []  # (scene, text, font size in window pixels) of every label
        # images drawn off the window and then blitted on it (the end's score chart): id -> (image,
        # where its top left lands on the window); their labels are checked where they show
        self.placed: dict[int, tuple] = {}
        self.pictures: list[tuple] = []  # (scene, rectangle, name) of pictures no label may cross

    def reset(self) -> None:
        self.shortened.clear()
        self.sizes.clear()
        self.labels.clear()
        self.boxes.clear()
        self.placed.clear()
        self.pictures.clear()

    def place(self, img: pygame.Surface, topleft) -> None:
        """``img`` is drawn off the window and shown with its top left at ``topleft``: the labels
        drawn on it are checked there, and cut at its edges."""
        if self.enabled:
            self.placed[id(img)] = (img, tuple(topleft))

    def note_short(self, full: str, width: int) -> None:
        self.count += 1
        if self.enabled:
            self.shortened.append((self.scene, full, width))

    def note_label(self, surf, img: pygame.Surface, rect: pygame.Rect, s: str, px: int = 0) -> None:
        if not self.enabled or not s.strip():
            return
        if surf is pygame.display.get_surface():
            at = (0, 0)
        elif id(surf) in self.placed and self.placed[id(surf)][0] is surf:
            at = self.placed[id(surf)][1]
        else:
            return
        ink = img.get_bounding_rect().move(rect.topleft).move(at)
        if ink.w and ink.h:  # (last: whether a clip was set, as a scrolled list sets one)
            self.labels.append((self.scene, ink, s, surf.get_clip().move(at), self.owner,
                                surf.get_clip() != surf.get_rect()))
            self.sizes.append((self.scene, s, px))

    def note_box(self, rect: pygame.Rect, owner) -> None:
        if self.enabled:
            self.boxes.append((self.scene, pygame.Rect(rect), owner))

    def note_picture(self, surf, rect: pygame.Rect, name: str) -> None:
        """A picture drawn on the window at ``rect`` (its ink): no label may run into it."""
        if self.enabled and surf is pygame.display.get_surface():
            self.pictures.append((self.scene, pygame.Rect(rect), name))

    def problems(self, size) -> list[str]:
        """Shortened labels, labels cut by the window or their clip (or wholly off the window),
        buttons off the window, labels that overlap another label or a button they do not belong
        to."""
        out = [f"{sc_}: shortened to {w}px: {full!r}" for sc_, full, w in self.shortened]
        win = pygame.Rect(0, 0, *size)
        # a label wholly outside a clip that was set is scrolled away, not lost; without a clip
        # (a menu running off the bottom of the window, a legend below its chart) it is lost
        labels = [x for x in self.labels if not x[5] or x[3].colliderect(x[1])]
        for sc_, ink, s, clip, _o, _c in labels:
            if not win.contains(ink) or not clip.contains(ink):
                out.append(f"{sc_}: cut at the edge: {s!r} {tuple(ink)}")
        for sc_, box, _o in self.boxes:
            if not win.contains(box):
                out.append(f"{sc_}: a button cut at the edge: {tuple(box)}")
        for sc_, box, name in self.pictures:
            if not win.contains(box):
                out.append(f"{sc_}: the picture {name} cut at the edge: {tuple(box)}")
            for lab in labels:
                if lab[0] == sc_ and box.colliderect(lab[1]):
                    out.append(f"{sc_}: {lab[2]!r} {tuple(lab[1])} runs into the picture {name} {tuple(box)}")
        for i in range(len(labels)):
            a = labels[i]
            for b in labels[i + 1:]:
                if a[0] == b[0] and a[1].colliderect(b[1]) and a[2] != b[2]:
                    out.append(f"{a[0]}: {a[2]!r} {tuple(a[1])} overlaps {b[2]!r} {tuple(b[1])}")
            for sc_, box, owner in self.boxes:
                if sc_ == a[0] and owner != a[4] and box.colliderect(a[1]):
                    out.append(f"{a[0]}: {a[2]!r} {tuple(a[1])} runs into a button {tuple(box)}")
        return out

    def small_texts(self, least: float) -> list[str]:
        """Labels drawn with a font smaller than ``least`` window pixels."""
        return [f"{sc_}: {s!r} at {px}px (< {least:.1f}px)" for sc_, s, px in self.sizes if px < least]


CHECK = LabelCheck()


def text(s: str, role: str = "sans", px: float = 18, color=None, wrap: int = 0, align: str = "left") -> pygame.Surface:
    """A rendered text surface, cached (LRU): drawing the same label every frame costs a blit.
    ``wrap``: break lines at that width; ``align`` ("left", "center", "right") aligns them."""
    color = TEXT if color is None else color  # the palette's, read now (set_palette)
    key = (s, role, int(px), tuple(color), wrap, theme.text_scale(), align)
    surf = _cache.get(key)
    if surf is not None:
        _cache.move_to_end(key)
        return surf
    f = theme.font(role, px)
    if wrap:
        if align != "left":
            f.align = pygame.FONT_CENTER if align == "center" else pygame.FONT_RIGHT
        try:
            surf = f.render(s, True, color, None, wrap)
        finally:
            f.align = pygame.FONT_LEFT
    else:
        surf = f.render(s, True, color)
    _cache[key] = surf
    if len(_cache) > 1500:
        _cache.popitem(last=False)
    return surf


def blit_text(surf: pygame.Surface, s: str, pos, role="sans", px=18, color=None, anchor="topleft",
              wrap: int = 0, align: str = "left") -> pygame.Rect:
    t = text(s, role, px, color, wrap, align)
    r = t.get_rect(**{anchor: (int(pos[0]), int(pos[1]))})
    surf.blit(t, r)
    if CHECK.enabled:
        CHECK.note_label(surf, t, r, s, max(6, int(round(px * theme.text_scale()))))
    return r


def fit_text(s: str, role: str, px: float, width: int) -> str:
    """``s`` shortened with an ellipsis to fit ``width`` pixels (noted in ``CHECK``: a layout
    test fails on any shortened label)."""
    f = theme.font(role, px)
    if f.size(s)[0] <= width:
        return s
    CHECK.note_short(s, width)
    while s and f.size(s + "…")[0] > width:
        s = s[:-1]
    return s + "…"


def wrap_words(s: str, role: str, px: float, width: int) -> list[str]:
    """``s`` broken at spaces into lines of at most ``width`` pixels (a word longer than that
    stays whole, on its own line)."""
    f = theme.font(role, px)
    lines: list[str] = []
    for word in s.split(" "):
        if lines and f.size(lines[-1] + " " + word)[0] <= width:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return lines


def fit_lines(s: str, role: str, px: float, width: int, height: int, max_lines: int = 2, min_px: float = 0.0):
    """How ``s`` fits a ``width`` x ``height`` box without being shortened: ``(lines, px)`` on one
    line at ``px``, or a little smaller (never under ``min_px``), or wrapped on up to ``max_lines``
    lines, or both; None when nothing fits (then the caller shortens it, and ``CHECK`` notes it)."""
    tries = [(1.0, 1), (0.9, 1)] + [(k, n) for n in range(2, max_lines + 1) for k in (1.0, 0.9, 0.8)] + [(0.8, 1)]
    for k, n in tries:
        p = px * k
        if p < min_px:
            continue
        f = theme.font(role, p)
        lines = [s] if n == 1 else wrap_words(s, role, p, width)
        if len(lines) <= n and all(f.size(x)[0] <= width for x in lines) \
                and len(lines) * f.get_linesize() <= height:
            return lines, p
    return None


def blit_lines(surf: pygame.Surface, lines: list[str], centre, role: str, px: float, color) -> pygame.Rect:
    """Lines centred on ``centre`` one under the other; their bounding rectangle."""
    lh = theme.font(role, px).get_linesize()
    y = int(centre[1] - lh * len(lines) / 2)
    out = pygame.Rect(int(centre[0]), y, 0, 0)
    for line in lines:
        out.union_ip(blit_text(surf, line, (centre[0], y), role, px, color, "midtop"))
        y += lh
    return out


def panel(surf: pygame.Surface, rect, color=None, edge=None, radius=10, width=2, alpha=255) -> None:
    rect = pygame.Rect(rect)
    color, edge = PANEL if color is None else color, PANEL_EDGE if edge is None else edge
    alpha = max(alpha, palette.now().least_opacity)
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


SUB_PX = 12  # the smallest subtitle under a button's label (design pixels: 12 px at interface size 100%)


class Button(Widget):
    """A clickable label. ``style``: "primary" (dark red), "secondary" (parchment), "toggle",
    "danger" (parchment with a red edge and red words: a choice that cannot be undone, never the
    default one)."""

    card: Optional[str] = None  # a planning card's id, on the hand's buttons (its tip, the tutorial's target)
    spoken: str = ""  # what a screen reader says instead of the label (ui/speech/narrator.py): with its row's name

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
        self._fit: Optional[tuple[tuple, Any]] = None  # (key, how the label fits): measured once per label and size

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

    def _fit_label(self, r: pygame.Rect):
        """(label lines and px, sub lines and px or None): on one line, a little smaller or on two
        lines before a text is ever cut (then ``CHECK`` notes it)."""
        label_w = r.w - 16 - (r.h // 2 if self.swatch else 0)
        sub = None
        if self.sub:
            # a card's subtitle stays readable: never under SUB_PX (12 px at 100%, issue 40); it wraps
            # on a second line before it is ever shortened (and then noted)
            spx = max(SUB_PX, self.px * 0.72)
            low = SUB_PX
            room = max(r.h // 2 - 2, r.h - 2 - theme.font("sans_semibold", self.px).get_linesize())  # one label line
            sub = fit_lines(self.sub, "sans", spx, r.w - 12, max(1, room), min_px=low) or \
                ([fit_text(self.sub, "sans", low, r.w - 12)], low)
        sub_h = len(sub[0]) * theme.font("sans", sub[1]).get_linesize() if sub else 0
        lab = fit_lines(self.label, "sans_semibold", self.px, label_w, r.h - 4 - sub_h) or \
            ([fit_text(self.label, "sans_semibold", self.px, label_w)], self.px)
        return lab, sub

    def draw(self, surf) -> None:
        if not self.visible:
            return
        r = self.rect
        if self.style == "primary":
            bg = BUTTON_HOVER if (self.hover and self.enabled) else BUTTON
            fg = BUTTON_TEXT
            edge = BUTTON_EDGE
        elif self.style == "danger":
            bg = DANGER_HOVER if (self.hover and self.enabled) else BUTTON_SECONDARY
            fg = BAD
            edge = BAD
        else:
            bg = SECONDARY_HOVER if (self.hover and self.enabled) else BUTTON_SECONDARY
            fg = TEXT
            edge = PANEL_EDGE
            if self.selected:
                bg = SELECTED if not self.hover else SELECTED_HOVER
                edge = SELECTED_EDGE
        if not self.enabled:
            bg = BUTTON_OFF if self.style == "primary" else SECONDARY_OFF
            fg = OFF_TEXT if self.style == "primary" else SECONDARY_OFF_TEXT
        pygame.draw.rect(surf, bg, r, 0, 8)
        pygame.draw.rect(surf, edge, r, 3 if self.style == "danger" and self.enabled else 2, 8)
        if self.focused:
            pygame.draw.rect(surf, FOCUS, r.inflate(6, 6), 3, 10)
        x_c = r.centerx
        if self.swatch is not None:
            sw = pygame.Rect(0, 0, r.h // 2, r.h // 2)
            sw.midleft = (r.x + 10, r.centery)
            pygame.draw.rect(surf, self.swatch, sw, 0, 4)
            pygame.draw.rect(surf, (40, 30, 20), sw, 1, 4)
            x_c = r.centerx + sw.w // 2 + 2
        if CHECK.enabled:
            CHECK.note_box(r, id(self))
            CHECK.owner = id(self)
        key = (self.label, self.sub, self.px, r.size, bool(self.swatch), theme.text_scale())
        if self._fit is None or self._fit[0] != key or CHECK.enabled:
            self._fit = (key, self._fit_label(r))
        lab, sub = self._fit[1]
        sub_h = len(sub[0]) * theme.font("sans", sub[1]).get_linesize() if sub else 0
        lab_h = len(lab[0]) * theme.font("sans_semibold", lab[1]).get_linesize()
        top = r.centery - (lab_h + sub_h) / 2
        blit_lines(surf, lab[0], (x_c, top + lab_h / 2), "sans_semibold", lab[1], fg)
        if sub:
            blit_lines(surf, sub[0], (x_c, top + lab_h + sub_h / 2), "sans", sub[1], fg)
        CHECK.owner = None


class TextField(Widget):
    """One line of text; click (or Tab) to type, Enter or Tab to leave. Coming into the field
    selects its whole text (as Ctrl+A does), and typing replaces what is selected."""

    def __init__(self, value: str, rect=(0, 0, 0, 0), *, max_len: int = 24, digits: bool = False,
                 on_change: Optional[Callable[[str], None]] = None, px: float = 19, secret: bool = False):
        super().__init__(rect)
        self.value = value
        self.secret = secret  # a password: shown as dots
        self.max_len = max_len
        self.digits = digits
        self.on_change = on_change
        self.px = px
        self.editing = False
        self.selected = False  # the whole text is selected: typing replaces it

    def select_all(self) -> None:
        self.selected = bool(self.value)

    def handle(self, ev) -> bool:
        if not self.visible:
            return False
        if ev.type == pygame.MOUSEBUTTONDOWN and ev.button == 1:
            inside = self.rect.collidepoint(ev.pos)
            self.selected = inside and not self.editing and bool(self.value)  # a click into the field selects
            self.editing = inside
            return inside
        if not (self.editing or self.focused):
            return False
        if ev.type == pygame.TEXTINPUT:
            self.editing = True
            add = "".join(ch for ch in ev.text if (ch.isdigit() if self.digits else ch.isprintable()))
            if add:
                self.value = ("" if self.selected else self.value) + add
                self.value = self.value[: self.max_len]
                self.selected = False
                self._changed()
            return True
        if ev.type == pygame.KEYDOWN:
            if ev.key == pygame.K_a and ev.mod & (pygame.KMOD_CTRL | pygame.KMOD_META):
                self.editing = True
                self.select_all()
                return True
            if ev.key in (pygame.K_BACKSPACE, pygame.K_DELETE):
                self.editing = True
                self.value = "" if self.selected else self.value[:-1] if ev.key == pygame.K_BACKSPACE else self.value
                self.selected = False
                self._changed()
                return True
            if ev.key in (pygame.K_LEFT, pygame.K_RIGHT, pygame.K_HOME, pygame.K_END):
                self.selected = False  # the cursor stays at the end: the selection goes
            if ev.key in (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_ESCAPE) and self.editing:
                self.editing = self.selected = False
                return True
            if self.editing and ev.key not in (pygame.K_TAB,):
                return True  # typing: letters are not shortcuts
        return False

    def _changed(self):
        if self.on_change:
            self.on_change(self.value)

    def activate(self) -> None:
        self.editing = True
        self.select_all()

    def draw(self, surf) -> None:
        if not self.visible:
            return
        r = self.rect
        pygame.draw.rect(surf, (255, 251, 240) if self.editing else (248, 240, 222), r, 0, 6)
        pygame.draw.rect(surf, FOCUS if (self.editing or self.focused) else PANEL_EDGE, r, 2, 6)
        shown = "\u2022" * len(self.value) if self.secret else self.value
        t = text(shown or " ", "sans", self.px, TEXT)
        clip = surf.get_clip()
        surf.set_clip(r.inflate(-8, -4))
        x = r.x + 8
        if t.get_width() > r.w - 16:
            x = r.right - 8 - t.get_width()
        if self.selected and shown:
            sel = pygame.Rect(x - 1, r.y + 6, t.get_width() + 2, r.h - 12)
            pygame.draw.rect(surf, (238, 206, 120), sel, 0, 3)  # the selection: gold behind the text
        surf.blit(t, (x, r.centery - t.get_height() // 2))
        if self.editing and (pygame.time.get_ticks() // 500) % 2 == 0:
            cx = x + (t.get_width() if shown else 0) + 1
            pygame.draw.line(surf, TEXT, (cx, r.y + 6), (cx, r.bottom - 6), 2)
        surf.set_clip(clip)


AnyWidget = TypeVar("AnyWidget", bound=Widget)


class Widgets:
    """The widgets of a screen: mouse routing, hover, Tab focus, Enter/Space activation."""

    def __init__(self) -> None:
        self.items: list[Widget] = []
        self.focus: Optional[Widget] = None
        self._kept: Optional[tuple] = None  # (label, rect) of the focus before a clear: found again by add

    def add(self, w: AnyWidget) -> AnyWidget:
        self.items.append(w)
        if self._kept is not None and self.focus is None and not isinstance(w, TextField) \
                and (getattr(w, "label", None), tuple(w.rect)) == self._kept:
            self.focus, w.focused = w, True  # the screen was laid out again: the focus stays put
        return w

    def clear(self) -> None:
        f = self.focus
        self._kept = (getattr(f, "label", None), tuple(f.rect)) if f is not None else None
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
                w.editing = w.selected = False
        self.focus = live[i]
        self.focus.focused = True
        if isinstance(self.focus, TextField):
            self.focus.select_all()  # Tab into a field selects its text, as a click does

    def draw(self, surf) -> None:
        for w in self.items:
            w.draw(surf)


# ---------------------------------------------------------------- tooltips

class Tooltip:
    """A small hover tip: it appears once the pointer has rested ``delay`` seconds on the
    same target (or at once with :meth:`show_now`, for the keyboard), follows the pointer,
    wraps its text, stays inside the window and never covers the pointer.

    The screen calls :meth:`set` every frame with what is under the pointer (a hashable
    target and its lines; the first line is the heading) and :meth:`tick` with the frame's
    time; ``None`` hides it."""

    CURSOR = (14, 22)  # the room the pointer's arrow takes below and right of its hot spot

    def __init__(self, delay: float = 0.4, width: int = 380, px: float = 15):
        self.delay = delay
        self.width = width
        self.px = px
        self.target = None
        self.lines: list[str] = []
        self.pos = (0, 0)
        self.waited = 0.0
        self.forced = False
        self.rect: Optional[pygame.Rect] = None  # where it was drawn last
        self.avoid: Optional[pygame.Rect] = None  # what the tip must leave uncovered (a held fief)

    def set(self, target, lines, pos, avoid: Optional[pygame.Rect] = None) -> None:
        self.avoid = avoid
        if target is None or not lines:
            if not self.forced:
                self.hide()
            return
        if target != self.target:
            self.target = target
            self.waited = 0.0
            self.forced = False
        self.lines = list(lines)
        self.pos = (int(pos[0]), int(pos[1]))

    def show_now(self, target, lines, pos) -> None:
        """The keyboard's tip: shown at once, until the next key or pointer move."""
        self.target = target
        self.lines = list(lines)
        self.pos = (int(pos[0]), int(pos[1]))
        self.forced = bool(lines)

    def hide(self) -> None:
        self.target = None
        self.lines = []
        self.waited = 0.0
        self.forced = False
        self.rect = None

    def tick(self, dt: float) -> None:
        if self.target is not None:
            self.waited += dt

    @property
    def visible(self) -> bool:
        return bool(self.lines) and self.target is not None and (self.forced or self.waited >= self.delay)

    def _image(self) -> pygame.Surface:
        key = ("tooltip", tuple(self.lines), self.width, self.px, theme.text_scale())
        img = _cache.get(key)
        if img is not None:
            return img
        parts = [text(self.lines[0], "sans_bold", self.px, TEXT_LIGHT, wrap=self.width)]
        parts += [text(s, "sans", self.px * 0.93, (236, 226, 206), wrap=self.width) for s in self.lines[1:]]
        pad = 9
        w = max(p.get_width() for p in parts) + 2 * pad
        h = sum(p.get_height() for p in parts) + 3 * (len(parts) - 1) + 2 * pad
        img = pygame.Surface((w, h), pygame.SRCALPHA)
        pygame.draw.rect(img, (34, 26, 20, 240), img.get_rect(), 0, 7)
        pygame.draw.rect(img, (*GOLD, 255), img.get_rect(), 1, 7)
        y = pad
        for p in parts:
            img.blit(p, (pad, y))
            y += p.get_height() + 3
        _cache[key] = img
        if len(_cache) > 1500:
            _cache.popitem(last=False)
        return img

    def place(self, size: tuple[int, int], bounds: pygame.Rect) -> pygame.Rect:
        """Where a tip of ``size`` goes for the pointer at ``self.pos`` inside ``bounds``:
        below right of the pointer, else below left, above right, above left; never over
        the pointer (its arrow included)."""
        x, y = self.pos
        cw, ch = self.CURSOR
        w, h = size
        cands = [(x + cw, y + ch), (x - 8 - w, y + ch), (x + cw, y - 8 - h), (x - 8 - w, y - 8 - h)]
        a = self.avoid
        if a is not None:  # beside the held fief: below it, above it, right of it, left of it
            cands += [(x - w // 2, a.bottom + 6), (x - w // 2, a.top - 6 - h), (a.right + 6, y - h // 2),
                      (a.left - 6 - w, y - h // 2)]
        pointer = pygame.Rect(x - 2, y - 2, cw + 2, ch + 2)
        for cx, cy in cands:
            r = pygame.Rect(cx, cy, w, h)
            if bounds.contains(r) and (a is None or not r.colliderect(a)) and not r.colliderect(pointer):
                return r
        r = pygame.Rect(cands[0], size)
        r.clamp_ip(bounds)
        if r.colliderect(pointer):  # squeezed into a corner: jump to the pointer's other side
            r.bottom = pointer.top - 2 if y - h - 10 >= bounds.top else r.bottom
            if r.colliderect(pointer):
                r.right = pointer.left - 2
        return r

    def draw(self, surf: pygame.Surface) -> None:
        if not self.visible:
            self.rect = None
            return
        img = self._image()
        self.rect = self.place(img.get_size(), surf.get_rect())
        surf.blit(img, self.rect)
