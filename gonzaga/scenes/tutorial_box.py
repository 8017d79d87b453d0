"""Where the tutorial's box goes and what it points at (``scenes/tutorial.py``): the screen
rectangle of a step's target, the box's words, a place for the box clear of everything the step
needs in view, and the arrow from the box to its target.

A part of the tutorial's game screen with explicit inputs (:class:`TutorialBox`): the step and its
words, the view the screen draws, the screen's rectangles and buttons, and the game screen's parts
it keeps clear of or points at (the previews, the placing controls, the panel, the top and bottom
bars, the feedback's banners)."""
from __future__ import annotations

import math
from typing import Any, Callable, NamedTuple, Optional

import pygame

from ..rules import Place
from ..table import tutorial as T
from ..ui import widgets as W
from ..ui.widgets import Button, Widgets
from ..words import i18n

BOX_W = 560  # the box's widest at interface scale 1 (narrower where the map is small or crowded)


class Frame(NamedTuple):
    """The game screen's rectangles the box reads: the map, the bottom bar, the side panel, the
    bottom bar's left block's width and the window."""
    board: pygame.Rect
    bottom: pygame.Rect
    panel: pygame.Rect
    info_w: int
    screen: pygame.Rect


class Words(NamedTuple):
    """What the box says: its heading (section and step), the step's text, the last refusal ("" for
    none) and whether it waits for the other seat."""
    head: str
    text: str
    refusal: str
    waiting: bool


class TutorialBox:
    """The box: its target, its words, its place and its arrow. Inputs: ``step`` (the step now),
    ``words`` (what it says), ``buttons`` (its buttons: Next, Skip, Leave or Finish), ``view`` (the
    state the screen draws), ``version`` (the game's step counter), ``mode`` (the screen's mode:
    "plan", "place", "watch" or "over"), ``controller`` (the placement under way, or None),
    ``widgets`` (the screen's buttons), ``renderer`` (the board renderer, or None), ``frame``
    (the screen's rectangles), ``hexes`` (the hexes the step marks), the game screen's parts
    ``plans``, ``placing``, ``panel``, ``top``, ``bar`` and ``feedback``, and ``reveal`` (the
    reveal's box while it is open, else None). ``rect``: the box as last drawn."""

    def __init__(self, step: Callable[[], T.Step], words: Callable[[], Words], buttons: Callable[[], list[Button]],
                 view: Callable[[], Any], version: Callable[[], int], mode: Callable[[], str],
                 controller: Callable[[], Any], widgets: Widgets, renderer: Callable[[], Any],
                 frame: Callable[[], Frame], hexes: Callable[[], list[Any]], plans: Any, placing: Any, panel: Any,
                 top: Any, bar: Any, feedback: Any, reveal: Callable[[], Optional[pygame.Rect]]):
        self.step = step
        self.words = words
        self.buttons = buttons
        self.view = view
        self.version = version
        self.mode = mode
        self.controller = controller
        self.widgets = widgets
        self.renderer = renderer
        self.frame = frame
        self.hexes = hexes
        self.plans = plans
        self.placing = placing
        self.panel = panel
        self.top = top
        self.bar = bar
        self.feedback = feedback
        self.reveal = reveal
        self.rect = pygame.Rect(0, 0, BOX_W, 100)
        self._at: Optional[tuple[Any, ...]] = None  # the box's corner for this step (kept while it stays clear)
        self._spots_of: Optional[tuple[Any, list[Any]]] = None

    def new_step(self) -> None:
        """A new step: the box's place is picked anew."""
        self._at = None

    def target_rect(self) -> Optional[pygame.Rect]:
        """The screen rectangle the step points at (None: nothing in particular)."""
        step = self.step()
        t = step.target
        if not t:
            return None
        kind, what = t
        if step.kind == "donate" and self.placing.donate_pending:
            kind, what = "button", "place.donate_confirm"  # "Donate?": its confirm
        if kind == "card":
            for w in self.widgets.items:
                if getattr(w, "card", None) == what and w.visible:
                    return pygame.Rect(w.rect)
            return None
        if kind == "button":
            label = i18n.t(what)
            for w in self.widgets.items:
                if getattr(w, "label", None) == label and w.visible:
                    return pygame.Rect(w.rect)
            return None
        if kind == "hexes":
            return self._hexes_rect()
        return self._named_rect(what)

    def _hexes_rect(self) -> Optional[pygame.Rect]:
        hx = self.hexes()
        r = self.renderer()
        if not hx or r is None:
            return None
        board = self.frame().board
        pts = [r.hex_to_screen(h) for h in hx]
        s = r.size
        rect = pygame.Rect(min(p[0] for p in pts) - s, min(p[1] for p in pts) - s,
                           max(p[0] for p in pts) - min(p[0] for p in pts) + 2 * s,
                           max(p[1] for p in pts) - min(p[1] for p in pts) + 2 * s)
        return rect.clip(board) if rect.colliderect(board) else None

    def _named_rect(self, what: str) -> Optional[pygame.Rect]:
        f = self.frame()
        b = f.bottom
        if what == "panel":
            rects = [r for r, _ in self.panel.seat_rects]
            return rects[0].unionall(rects[1:]) if rects else f.panel.copy()
        if what == "seat0":
            return self.panel.seat_rects[0][0].copy() if self.panel.seat_rects else None
        if what == "fief_icon":
            return pygame.Rect(b.x + W.sc(14), b.y + W.sc(34), min(f.info_w - W.sc(20), W.sc(160)), W.sc(120))
        if what in ("regions", "hand"):
            cards = [w.rect for w in self.widgets.items if getattr(w, "card", None) is not None and w.visible
                     and (what == "hand" or getattr(w, "card", None) not in ("A", "B", "C", "K"))]
            return pygame.Rect(cards[0].unionall(cards[1:])) if cards else None
        if what == "tray":
            return pygame.Rect(self.placing.tray_rect())
        if what == "status":
            return pygame.Rect(self.top.status_rect) if self.top.status_rect is not None else None
        if what == "reveal":
            rev = self.reveal()
            return rev.copy() if rev is not None else None
        if what == "end_table":
            return b.copy()
        return None

    def _parts(self, width: int) -> list[pygame.Surface]:
        words = self.words()
        head = W.text(words.head, "sans_semibold", 14, (150, 110, 30))
        parts = [head, W.text(words.text, "sans", 18, W.TEXT, wrap=width)]
        you = self.view().seats[T.YOU]
        if self.step().key == "tut.plan.fief" and you.fief is not None:  # the text talks about its castles:
            pic = pygame.Surface((min(width, W.sc(220)), W.sc(130)), pygame.SRCALPHA)  # a picture big enough
            self.bar.draw_fief_icon(pic, pic.get_rect().inflate(-8, -8), you.colour, you.fief, 0)
            parts.append(pic)
        if words.refusal:
            parts.append(W.text(words.refusal, "sans_semibold", 16, W.BAD, wrap=width))
        if words.waiting:
            parts.append(W.text(i18n.t("tut.wait_ai"), "sans_italic", 15, W.TEXT_SOFT))
        return parts

    @staticmethod
    def _height(parts: list[pygame.Surface]) -> int:
        """The box's height for ``parts``: the words with their gaps, the margins, the buttons' row."""
        return sum(p.get_height() for p in parts) + W.sc(8) * (len(parts) - 1) + W.sc(28) + W.sc(46)

    def _hex_rect(self, hexes: list[Any]) -> Optional[pygame.Rect]:
        """The screen rectangle around ``hexes`` (with a hex of margin), or None."""
        r = self.renderer()
        if not hexes or r is None:
            return None
        pts = [r.hex_to_screen(h) for h in hexes]
        s = r.size
        x0, y0 = min(p[0] for p in pts), min(p[1] for p in pts)
        return pygame.Rect(x0 - s, y0 - 1.6 * s, max(p[0] for p in pts) - x0 + 2 * s,
                           max(p[1] for p in pts) - y0 + 2.6 * s)

    def _spots(self) -> list[Any]:
        """The anchors of every placement a placing step takes (the dot is dragged there), kept
        for the step (the rules asked once, not every frame)."""
        pc = self.controller()
        step = self.step()
        if step.kind != "place" or pc is None:
            return []
        key = (step, self.version(), pc.fief)
        got = self._spots_of
        if got is None or got[0] != key:
            st = self.view()
            got = self._spots_of = (key, sorted({a for k in range(6) for a in pc.legal[k] if T.accepts(
                st, step, Place(T.YOU, pc.fief, a, k))}))
        return got[1]

    def _avoid(self, target: Optional[pygame.Rect]) -> list[pygame.Rect]:
        """What the box must leave in view: what the step points at (and the hexes it marks, and
        every spot the step takes for the fief's dot),
        the planning table and the preview of the planned pair on the map, the reveal, the
        banners (sea league, Last Turn) and the "Your turn" flash above the bar, the tray the
        fief is dragged from, the end's chart."""
        avoid = [r for r in (target.inflate(W.sc(16), W.sc(16)) if target else None, self.plans.rect,
                             self._hex_rect(self.hexes()), self._hex_rect(self._spots())) if r is not None]
        mode = self.mode()
        if mode == "plan":
            pair = self.plans.pair()
            if pair is not None:
                best = self.plans.previews()[pair]
                rect = self._hex_rect(list(best.best_cells)) if best.best is not None else None
                if rect is not None:
                    avoid.append(rect)
        if mode == "place":  # the tray and the bar's buttons (Rotate, Wedding, Donate, Confirm)
            bottom = self.frame().bottom
            avoid.append(self.placing.tray_rect())
            avoid += [w.rect for w in self.widgets.items if w.visible and isinstance(w, Button)
                      and w.rect.colliderect(bottom)]
        rev = self.reveal()
        if rev is not None:
            avoid.append(rev)
        fb = self.feedback
        if hasattr(fb, "banner_rects"):
            avoid += [r.inflate(W.sc(12), W.sc(12)) for r in fb.banner_rects()]
        chart = getattr(fb, "chart_rect", None)
        if self.view().phase == "over" and callable(chart) and chart() is not None:  # the end's score chart
            avoid.append(chart())
        return avoid

    def _rather_clear(self) -> list[pygame.Rect]:
        """What the box leaves in view when the map has room for that too: the rings round the
        harbors of a sea league just made (its banner and the step talk about them)."""
        fb = self.feedback
        r = self.renderer()
        if r is None or not hasattr(fb, "anim"):
            return []
        s = r.size
        return [pygame.Rect(0, 0, 3 * s, 3 * s).move(x - 1.5 * s, y - 1.5 * s)
                for tw in fb.anim.tweens if tw.kind == "league" for x, y in map(r.hex_to_screen, tw.data["harbors"])]

    def _steady(self) -> list[list[pygame.Rect]]:
        """What the box also keeps clear of so that it stays put through a step, strictest
        first: where the "Your turn" flash and the banners would stand if they came during the
        step (two banners at once, then one), then the flash alone (it comes at every turn, a
        banner a few times a game), then nothing (it moves off them when they come)."""
        fb = self.feedback
        if not hasattr(fb, "steady_rects"):
            return [[]]
        flash, banners = fb.steady_rects((T.YOU,))
        m = W.sc(12)  # as _avoid keeps clear of them when shown
        flash = [r.inflate(m, m) for r in flash]
        banners = [r.inflate(m, m) for r in banners]
        return [flash + banners, flash + banners[:1], flash, []]

    def _layout_box(self, target: Optional[pygame.Rect]) -> tuple[pygame.Rect, list[pygame.Surface]]:
        """Where the box goes: where it was this step if that is still clear, else a corner or
        an edge of the map clear of everything in :meth:`_avoid` (narrower if it must) and, if
        one is, of :meth:`_steady` and :meth:`_rather_clear`, else across the bar under the map
        beside the tray. A place is picked when a step begins or the layout changes, and kept
        while it stays clear: clear of the flash and banners before they come, it does not jump
        when they do."""
        f = self.frame()
        b, screen = f.board, f.screen
        avoid = self._avoid(target)
        m = W.sc(12)
        rather = self._rather_clear()

        def clear(c: pygame.Rect, more: list[pygame.Rect]) -> bool:
            return screen.contains(c) and not any(c.colliderect(a) for a in avoid) and \
                not any(c.colliderect(a) for a in more)

        cands: list[tuple[pygame.Rect, list[pygame.Surface], tuple[Any, ...]]] = []
        layout = (tuple(b), tuple(screen), W.ui_scale())  # another layout: the place is picked anew
        # the box grows with the interface scale as the panels do (its words already do)
        for wi, w in enumerate(dict.fromkeys(min(W.sc(x), b.w - 2 * m) for x in (BOX_W, 460, 380))):
            parts = self._parts(w - W.sc(32))
            h = self._height(parts)
            for xi, x in enumerate((b.right - w - m, b.x + m, b.centerx - w // 2)):
                for yi, y in enumerate((b.y + m, b.bottom - h - m, b.centery - h // 2)):
                    # (named by its corner, not its pixels: a box that grows a line keeps its corner)
                    cands.append((pygame.Rect(x, y, w, h), parts, (layout, wi, xi, yi)))
        # Where no place is clear of all that may come, a weaker level: at 1280x720 no place is
        # clear of the flash and two banners (the flash and one leave the middle of the map's
        # side), nor of one banner at the step with the fief's picture; at 2560x1440 the reveal's
        # box leaves room clear of the flash only. Where not even the flash can be kept clear of
        # (no step of the tutorial from 1280x720 to 3840x2160, the game over at 1280x720
        # included), the box keeps the old way: clear of what is shown, it moves off the flash.
        for steady in self._steady():
            for more in ([steady + rather, steady] if rather else [steady]):  # a new league's rings too, if it can
                if self._at is not None:
                    for c, parts, at in cands:
                        if at == self._at and clear(c, more):
                            return c, parts
                for c, parts, at in cands:
                    if clear(c, more):
                        self._at = at
                        return c, parts
        # across the bar under the map (wide, so fewer lines), right of the tray when placing
        left = f.bottom.x + m
        if self.mode() == "place":
            left = max(left, self.placing.tray_rect().right + m)
        w = min(W.sc(900), f.bottom.right - left - m)
        parts = self._parts(w - W.sc(32))
        h = self._height(parts)
        c = pygame.Rect(left, 0, w, h)
        c.bottom = screen.bottom - W.sc(6)
        if not any(c.colliderect(a) for a in avoid if a is not self.plans.rect):
            return c, parts
        c.top = b.y + m
        return c, parts

    def _arrow(self, surf: pygame.Surface, box: pygame.Rect, target: pygame.Rect, pulse: float) -> None:
        """A line with a head from the box to the thing it talks about (as thick as the scale)."""
        sc = W.sc
        tx = min(max(box.centerx, target.left), target.right)
        ty = min(max(box.centery, target.top), target.bottom)
        sx = min(max(tx, box.left + sc(20)), box.right - sc(20))
        sy = box.bottom if ty > box.bottom else box.top if ty < box.top else box.centery
        if sy == box.centery:
            sx = box.right if tx > box.right else box.left
        dx, dy = tx - sx, ty - sy
        d = math.hypot(dx, dy)
        if d < sc(30):
            return
        ux, uy = dx / d, dy / d
        end = (tx - ux * sc(8), ty - uy * sc(8))
        col = (200, int(140 + 50 * pulse), 30)
        pygame.draw.line(surf, (60, 40, 20), (sx, sy), end, sc(7))
        pygame.draw.line(surf, col, (sx, sy), end, sc(4))
        f, s = sc(16), sc(10)
        head = [(end[0] + ux * sc(6), end[1] + uy * sc(6)), (end[0] - ux * f - uy * s, end[1] - uy * f + ux * s),
                (end[0] - ux * f + uy * s, end[1] - uy * f - ux * s)]
        pygame.draw.polygon(surf, col, head)
        pygame.draw.polygon(surf, (60, 40, 20), head, max(2, sc(2)))

    def draw(self, surf: pygame.Surface, pulse: float) -> None:
        """The target's frame (pulsing), the box at its place with its words and buttons, and the
        arrow to the target."""
        target = self.target_rect()
        if target is not None:
            col = (255, int(170 + 60 * pulse), 40)
            pygame.draw.rect(surf, col, target.inflate(W.sc(10), W.sc(10)), W.sc(4), W.sc(10))
        self.rect, parts = self._layout_box(target)
        box = self.rect
        if target is not None:
            self._arrow(surf, box, target, pulse)
        sc = W.sc  # the box grows with the interface scale, as the panels do
        W.panel(surf, box, (255, 250, 236), (170, 120, 40), sc(12), sc(3), alpha=250)
        y = box.y + sc(12)
        for p in parts:
            surf.blit(p, (box.x + sc(16), y))
            y += p.get_height() + sc(8)
        x = box.right - sc(14)
        buttons = self.buttons()
        for b in reversed(buttons):
            bw = max(sc(96), W.text(b.label, "sans_semibold", b.px).get_width() + sc(26))
            b.rect = pygame.Rect(x - bw, box.bottom - sc(46), bw, sc(36))
            x -= bw + sc(8)
        for b in buttons:
            b.draw(surf)
