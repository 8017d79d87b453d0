"""Where the tutorial's box goes and what it points at (``scenes/tutorial.py``): the screen
rectangle of a step's target, the box's words, a place for the box clear of everything the step
needs in view, and the arrow from the box to its target. A mixin of ``TutorialGameScene``."""
from __future__ import annotations

import math
from typing import Optional

import pygame

from ..rules import Place
from ..table import tutorial as T
from ..ui import widgets as W
from ..ui.widgets import Button
from ..words import i18n

BOX_W = 560  # the box's widest at interface scale 1 (narrower where the map is small or crowded)


class TutorialBox:
    """The box of ``TutorialGameScene``: its target, its words, its place and its arrow."""

    def _target_hexes(self) -> list:
        return self.map_marks.target_hexes()

    def target_rect(self) -> Optional[pygame.Rect]:
        """The screen rectangle the step points at (None: nothing in particular)."""
        t = self.step.target
        if not t:
            return None
        kind, what = t
        if self.step.kind == "donate" and getattr(self, "donate_pending", False):
            kind, what = "button", "place.donate_confirm"  # "Donate?": its confirm
        if kind == "card":
            for w in self.widgets.items:
                if getattr(w, "card", None) == what and w.visible:
                    return w.rect.copy()
            return None
        if kind == "button":
            label = i18n.t(what)
            for w in self.widgets.items:
                if getattr(w, "label", None) == label and w.visible:
                    return w.rect.copy()
            return None
        if kind == "hexes":
            hx = self._target_hexes()
            r = self.renderer
            if not hx or r is None:
                return None
            pts = [r.hex_to_screen(h) for h in hx]
            s = r.size
            rect = pygame.Rect(min(p[0] for p in pts) - s, min(p[1] for p in pts) - s,
                               max(p[0] for p in pts) - min(p[0] for p in pts) + 2 * s,
                               max(p[1] for p in pts) - min(p[1] for p in pts) + 2 * s)
            return rect.clip(self.board_rect) if rect.colliderect(self.board_rect) else None
        b = self.bottom_rect
        if what == "panel":
            rects = [r for r, _ in self.panel.seat_rects]
            return rects[0].unionall(rects[1:]) if rects else self.panel_rect.copy()
        if what == "seat0":
            return self.panel.seat_rects[0][0].copy() if self.panel.seat_rects else None
        if what == "fief_icon":
            return pygame.Rect(b.x + W.sc(14), b.y + W.sc(34), min(self.info_w - W.sc(20), W.sc(160)), W.sc(120))
        if what in ("regions", "hand"):
            cards = [w.rect for w in self.widgets.items if getattr(w, "card", None) is not None and w.visible
                     and (what == "hand" or w.card not in ("A", "B", "C", "K"))]
            return cards[0].unionall(cards[1:]) if cards else None
        if what == "tray":
            return self.tray_rect()
        if what == "status":
            return self.top.status_rect.copy() if self.top.status_rect is not None else None
        if what == "reveal":
            rev = self.app.stack.find("reveal")
            return rev.box.copy() if rev is not None and hasattr(rev, "box") else None
        if what == "end_table":
            return b.copy()
        return None

    # ------------------------------------------------------------ drawing

    def _parts(self, width: int) -> list[pygame.Surface]:
        head = W.text(i18n.t("tut.step", section=i18n.t(self.sec.title_key), n=self.step_i + 1,
                             total=len(self.sec.steps)), "sans_semibold", 14, (150, 110, 30))
        parts = [head, W.text(self.text(), "sans", 18, W.TEXT, wrap=width)]
        you = self.state.seats[T.YOU]
        if self.step.key == "tut.plan.fief" and you.fief is not None:  # the text talks about its castles:
            pic = pygame.Surface((min(width, W.sc(220)), W.sc(130)), pygame.SRCALPHA)  # a picture big enough
            self.bar.draw_fief_icon(pic, pic.get_rect().inflate(-8, -8), you.colour, you.fief, 0)
            parts.append(pic)
        if self.tut_msg:
            parts.append(W.text(self.tut_msg, "sans_semibold", 16, W.BAD, wrap=width))
        if self.step.kind == "wait" or (self.step.kind == "info" and not self._until(self.step.until)):
            parts.append(W.text(i18n.t("tut.wait_ai"), "sans_italic", 15, W.TEXT_SOFT))
        return parts

    @staticmethod
    def _height(parts) -> int:
        """The box's height for ``parts``: the words with their gaps, the margins, the buttons' row."""
        return sum(p.get_height() for p in parts) + W.sc(8) * (len(parts) - 1) + W.sc(28) + W.sc(46)

    def _hex_rect(self, hexes) -> Optional[pygame.Rect]:
        """The screen rectangle around ``hexes`` (with a hex of margin), or None."""
        r = self.renderer
        if not hexes or r is None:
            return None
        pts = [r.hex_to_screen(h) for h in hexes]
        s = r.size
        x0, y0 = min(p[0] for p in pts), min(p[1] for p in pts)
        return pygame.Rect(x0 - s, y0 - 1.6 * s, max(p[0] for p in pts) - x0 + 2 * s,
                           max(p[1] for p in pts) - y0 + 2.6 * s)

    def _spots(self) -> list:
        """The anchors of every placement a placing step takes (the dot is dragged there), kept
        for the step (the rules asked once, not every frame)."""
        pc = getattr(self, "place", None)
        if self.step.kind != "place" or pc is None:
            return []
        key = (self.section, self.step_i, self.face.version, pc.fief)
        got = self.__dict__.get("_spots_of")
        if got is None or got[0] != key:
            got = self.__dict__["_spots_of"] = (key, sorted({a for k in range(6) for a in pc.legal[k] if T.accepts(
                self.state, self.step, Place(T.YOU, pc.fief, a, k))}))
        return got[1]

    def _avoid(self, target: Optional[pygame.Rect]) -> list[pygame.Rect]:
        """What the box must leave in view: what the step points at (and the hexes it marks, and
        every spot the step takes for the fief's dot),
        the planning table and the preview of the planned pair on the map, the reveal, the
        banners (sea league, Last Turn) and the "Your turn" flash above the bar, the tray the
        fief is dragged from, the end's chart."""
        avoid = [r for r in (target.inflate(W.sc(16), W.sc(16)) if target else None, self._preview_rect,
                             self._hex_rect(self._target_hexes()), self._hex_rect(self._spots())) if r is not None]
        if self._mode() == "plan" and hasattr(self, "preview_pair"):
            pair = self.preview_pair()
            if pair is not None:
                best = self.previews()[pair]
                rect = self._hex_rect(list(best.best_cells)) if best.best is not None else None
                if rect is not None:
                    avoid.append(rect)
        if self._mode() == "place":  # the tray and the bar's buttons (Rotate, Wedding, Donate, Confirm)
            avoid.append(self.tray_rect())
            avoid += [w.rect for w in self.widgets.items if w.visible and isinstance(w, Button)
                      and w.rect.colliderect(self.bottom_rect)]
        rev = self.app.stack.find("reveal")
        if rev is not None and hasattr(rev, "box"):
            avoid.append(rev.box)
        fb = getattr(self, "feedback", None)
        if fb is not None and hasattr(fb, "banner_rects"):
            avoid += [r.inflate(W.sc(12), W.sc(12)) for r in fb.banner_rects()]
        chart = getattr(fb, "chart_rect", None)
        if self.state.phase == "over" and callable(chart) and chart() is not None:  # the end's score chart
            avoid.append(chart())
        return avoid

    def _rather_clear(self) -> list[pygame.Rect]:
        """What the box leaves in view when the map has room for that too: the rings round the
        harbors of a sea league just made (its banner and the step talk about them)."""
        fb = getattr(self, "feedback", None)
        r = self.renderer
        if fb is None or r is None:
            return []
        s = r.size
        return [pygame.Rect(0, 0, 3 * s, 3 * s).move(x - 1.5 * s, y - 1.5 * s)
                for tw in fb.anim.tweens if tw.kind == "league" for x, y in map(r.hex_to_screen, tw.data["harbors"])]

    def _steady(self) -> list[list[pygame.Rect]]:
        """What the box also keeps clear of so that it stays put through a step, strictest
        first: where the "Your turn" flash and the banners would stand if they came during the
        step (two banners at once, then one), then the flash alone (it comes at every turn, a
        banner a few times a game), then nothing (it moves off them when they come)."""
        fb = getattr(self, "feedback", None)
        if fb is None or not hasattr(fb, "steady_rects"):
            return [[]]
        flash, banners = fb.steady_rects((T.YOU,))
        m = W.sc(12)  # as _avoid keeps clear of them when shown
        flash = [r.inflate(m, m) for r in flash]
        banners = [r.inflate(m, m) for r in banners]
        return [flash + banners, flash + banners[:1], flash, []]

    def _layout_box(self, target: Optional[pygame.Rect]) -> tuple[pygame.Rect, list]:
        """Where the box goes: where it was this step if that is still clear, else a corner or
        an edge of the map clear of everything in :meth:`_avoid` (narrower if it must) and, if
        one is, of :meth:`_steady` and :meth:`_rather_clear`, else across the bar under the map
        beside the tray. A place is picked when a step begins or the layout changes, and kept
        while it stays clear: clear of the flash and banners before they come, it does not jump
        when they do."""
        b = self.board_rect
        avoid = self._avoid(target)
        screen = pygame.Rect(0, 0, *self.app.size)
        m = W.sc(12)
        rather = self._rather_clear()

        def clear(c: pygame.Rect, more: list) -> bool:
            return screen.contains(c) and not any(c.colliderect(a) for a in avoid) and \
                not any(c.colliderect(a) for a in more)

        cands = []
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
                if self._box_at is not None:
                    for c, parts, at in cands:
                        if at == self._box_at and clear(c, more):
                            return c, parts
                for c, parts, at in cands:
                    if clear(c, more):
                        self._box_at = at
                        return c, parts
        # across the bar under the map (wide, so fewer lines), right of the tray when placing
        left = self.bottom_rect.x + m
        if self._mode() == "place":
            left = max(left, self.tray_rect().right + m)
        w = min(W.sc(900), self.bottom_rect.right - left - m)
        parts = self._parts(w - W.sc(32))
        h = self._height(parts)
        c = pygame.Rect(left, 0, w, h)
        c.bottom = screen.bottom - W.sc(6)
        if not any(c.colliderect(a) for a in avoid if a is not self._preview_rect):
            return c, parts
        c.top = b.y + m
        return c, parts

    def _arrow(self, surf, box: pygame.Rect, target: pygame.Rect, pulse: float) -> None:
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
