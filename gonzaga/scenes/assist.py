"""The game screen's learning aids (issue 11): the Hint button (and H), the Take back button
(and Ctrl+Z), the hint drawn on the map or on the hand, a "why?" beside a refusal, and the
mark of a helped game on the end screen.

The game screen owns one ``AssistBar`` and calls it from ``handle``, ``update`` and ``draw``;
it keeps its own buttons (drawn and hit-tested every frame, so they follow the game without
relayouts) and never changes the game except through its face (a take-back) - a hint is
only shown.
"""
from __future__ import annotations

from typing import Optional

import pygame

from ..table import hints
from ..rules import Place, Plan, Wedding
from ..words import i18n
from ..ui import keys, palette, widgets as W
from ..words.rules_pages import page_for_rule
from ..ui.widgets import Button
from .base import refusal_rule

BTN_H = 36


class AssistBar:
    def __init__(self, game):
        self.game = game
        self.app = game.app
        self.enabled = True  # the tutorial turns it off
        self.hint_button = Button(i18n.t("hint.button", **keys.labels()), self.toggle_hint, style="secondary", px=16)
        self.tb_button = Button(i18n.t("tb.button"), self.take_back, style="secondary", px=16)
        self.why_rect: Optional[pygame.Rect] = None
        self.box_at: Optional[pygame.Rect] = None  # where the hint's words were drawn last
        self.why_rule: Optional[str] = None
        self._counted: Optional[int] = None  # id of the last hint counted

    # ------------------------------------------------------------ state

    @property
    def face(self):
        """The game's face (table/seatview.py): hints and take-backs go through a seat's own."""
        return self.game.face

    def asker(self):
        """The face of the seat a hint is for now (its own view only), or None."""
        seat = self.decider()
        if seat is None or not self.face.is_human(seat):
            return None
        return self.face.seat_view(seat)

    def hints_on(self) -> bool:
        return self.enabled and bool(getattr(self.app.settings, "hints", True))

    def decider(self) -> Optional[int]:
        """The seat whose decision a hint is for: the hand on screen, or the human placing."""
        g = self.game
        mode = g.screen_mode()
        if mode == "plan":
            return g.private_seat
        if mode == "place" and g.place is not None:
            return g.place.seat
        return None

    def shared_screen(self) -> bool:
        """The decision is made where others at this computer see the screen: a hot-seat
        placement (no curtain before it; a hand is opened only behind one)."""
        return self.game.screen_mode() == "place" and self.game.curtain_needed()

    def service(self) -> hints.HintService:
        return hints.service(self.app)

    def hint(self) -> Optional[hints.Hint]:
        svc = getattr(self.app, "_hint_service", None)
        if svc is None or not self.hints_on():
            return None
        me = self.asker()
        if me is None:
            return None
        h = svc.current(me)
        return h if h is not None and h.seat == me.seat else None

    def busy(self) -> bool:
        svc = getattr(self.app, "_hint_service", None)
        return svc is not None and svc.busy

    def takeback_seat(self) -> Optional[int]:
        if not self.enabled:
            return None
        return self.face.takeback_seat()

    # ------------------------------------------------------------ actions

    def toggle_hint(self) -> None:
        """H or the Hint button: ask for a hint, or cancel the one being worked out / shown."""
        if not self.enabled:
            return
        if not self.hints_on():
            self.app.toast(i18n.t("hint.off"))
            return
        svc = self.service()
        if svc.busy or self.hint() is not None:
            svc.cancel()
            return
        me = self.asker()
        if me is None:
            self.app.toast(i18n.t("hint.nothing"))
            return
        svc.request(me, me.seat, shared=self.shared_screen())

    def accept_hint(self) -> None:
        """Enter on a shown hint: play exactly the hinted decision (the plan's cards, the fief on
        the hinted spot and turn, the rings, or the donation), through the same path as the
        buttons - the table checks it like any other move."""
        h = self.hint()
        if h is None:
            return
        g = self.game
        self.service().cancel()
        if isinstance(h.action, Plan):
            g.hand.choose(h.action.region, h.action.action, h.action.king)
            g.hand.confirm()
        elif g.place is not None:
            g.placing.donate_pending = False
            g.placing.send(h.action)

    def take_back(self) -> None:
        """Take back the last decision of the human who decided last (or say why not)."""
        why = self.face.take_back()
        if why is not None:
            self.app.toast(i18n.t(why), 5)
            return
        svc = getattr(self.app, "_hint_service", None)
        if svc is not None:
            svc.cancel()
        g = self.game
        g.place = None
        g.message = ""
        if g.private_seat is not None and g.state.phase != "plan":
            g.close_private()
        g.layout(self.app.size)
        self.app.toast(i18n.t("tb.done"))

    # ------------------------------------------------------------ frame hooks

    def _buttons(self) -> list[Button]:
        """The buttons to show now, placed at the map's top right corner (beside the compass)."""
        out = []
        b = self.game.board_rect
        x = b.right - 12
        r = getattr(self.game, "renderer", None)
        compass = r.compass_rect() if r is not None else None
        if compass is not None and compass.colliderect(pygame.Rect(b.x, b.y, b.w, W.sc(10 + BTN_H))) \
                and compass.centerx > b.centerx:
            x = min(x, compass.x - W.sc(8))  # the buttons stand beside the compass rose, not on it
        if self.hints_on() and self.asker() is not None:
            w = max(W.sc(120), W.text(i18n.t("hint.button", **keys.labels()), "sans_semibold", 16).get_width() + W.sc(28))
            x -= w
            self.hint_button.rect = pygame.Rect(x, b.y + W.sc(10), w, W.sc(BTN_H))
            self.hint_button.selected = self.busy() or self.hint() is not None
            self.hint_button.label = i18n.t("hint.button", **keys.labels())
            out.append(self.hint_button)
            x -= W.sc(8)
        if self.takeback_seat() is not None:
            w = max(W.sc(120), W.text(i18n.t("tb.button"), "sans_semibold", 16).get_width() + W.sc(28))
            x -= w
            self.tb_button.rect = pygame.Rect(x, b.y + W.sc(10), w, W.sc(BTN_H))
            self.tb_button.label = i18n.t("tb.button")
            out.append(self.tb_button)
        return out

    def handle(self, ev) -> bool:
        if not self.enabled:
            return False
        if ev.type == pygame.KEYDOWN:
            mods = ev.mod & (pygame.KMOD_CTRL | pygame.KMOD_ALT | pygame.KMOD_META)
            if keys.pressed(ev, "hint"):
                self.toggle_hint()
                return True
            if keys.pressed(ev, "take_back"):
                self.take_back()
                return True
            if ev.key == pygame.K_ESCAPE and (self.busy() or self.hint() is not None):
                self.service().cancel()  # Esc hides the hint (or stops it); the next Esc opens the menu
                return True
            if ev.key in (pygame.K_RETURN, pygame.K_KP_ENTER) and not mods and self.hint() is not None:
                self.accept_hint()
                return True
            if ev.key in (pygame.K_RETURN, pygame.K_KP_ENTER) and not mods and self.busy():
                return True  # the box says a hint is on its way: Enter waits for it, never plays the hand
        if ev.type in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP) and ev.button == 1:
            if self.why_rect is not None and self.why_rule and self.why_rect.collidepoint(ev.pos):
                if ev.type == pygame.MOUSEBUTTONUP:
                    self.app.stack.push("rules_reference", page_for_rule(self.why_rule))
                return True
        for b in self._buttons():
            if ev.type == pygame.MOUSEMOTION:
                b.hover = b.rect.collidepoint(ev.pos)
            elif b.handle(ev):
                return True
        return False

    def update(self, dt: float) -> None:
        svc = getattr(self.app, "_hint_service", None)
        if svc is None:
            return
        if not self.hints_on():
            if svc.busy or svc.hint is not None:
                svc.cancel()
            return
        me = self.asker()
        if me is None:  # no human's decision on screen: a hint asked for one is dropped
            if svc.busy or svc.hint is not None:
                svc.cancel()
            return
        h = svc.poll(me)
        if h is not None and id(h) != self._counted:
            self._counted = id(h)
            self.face.assists["hints"] = self.face.assists.get("hints", 0) + 1
            r = self.game.renderer
            if r is not None and r.zoom > 1.0:  # zoomed in: the hinted spot is brought into sight
                for c in h.cells:
                    r.ensure_visible(c)

    def draw_map(self, surf) -> None:
        """The hint's spot on the map (inside the map's clip)."""
        h = self.hint()
        if h is None or not h.cells:
            return
        r = self.game.renderer
        r.draw_highlight(surf, h.cells, kind="best")
        if isinstance(h.action, Place):
            r.draw_ghost(surf, h.cells, h.castles, True, anchor=h.action.anchor)
        elif isinstance(h.action, Wedding):
            colour = self.game.state.seats[h.seat].colour
            r.draw_rings(surf, {c: colour for c in h.cells}, [])
        top = min(h.cells, key=lambda c: (c[1], c[0]))
        r.draw_label(surf, top, i18n.t("hint.tag", points=h.points))

    def draw(self, surf) -> None:
        self.why_rect = None
        self.why_rule = None
        if not self.enabled:
            return
        g = self.game
        for b in self._buttons():
            b.draw(surf)
        mode = g.screen_mode()
        if mode == "place":
            self._draw_why(surf)
        if mode == "over":
            self._draw_mark(surf)
        h = self.hint()
        if self.busy():
            self._box(surf, [i18n.t("hint.thinking", **keys.labels())])
        elif h is not None:
            if h.cards:  # the plan: the cards in the hand get a gold frame
                for w in g.widgets.items:
                    if getattr(w, "card", None) in h.cards and w.visible:
                        pygame.draw.rect(surf, W.GOLD, w.rect.inflate(8, 8), 4, 10)
            self._box(surf, [h.headline, h.reason, h.prefer], foot=i18n.t("hint.keys", **keys.labels()))
        else:
            svc = getattr(self.app, "_hint_service", None)
            if svc is not None and svc.failed:
                self._box(surf, [i18n.t("hint.failed")])

    def _box(self, surf, lines: list[str], foot: str = "") -> None:
        """The hint in words, over the map where it hides neither the hinted hexes nor the
        planning table: the bottom of the map, else its top, else a corner."""
        b = self.game.board_rect
        width = min(W.sc(760), max(W.sc(420), int(b.w * 0.62)), b.w - 40)  # room beside it on a small map
        imgs = [W.text(lines[0], "sans_bold", 17, W.TEXT, wrap=width - W.sc(60))]
        imgs += [W.text(s, "sans", 16, W.TEXT, wrap=width - W.sc(60)) for s in lines[1:] if s]
        if foot:
            imgs.append(W.text(foot, "sans_semibold", 15, palette.now().hint_foot, wrap=width - W.sc(60)))
        h = sum(i.get_height() for i in imgs) + 6 * (len(imgs) - 1) + 22
        box = self.box_rect((width, h))
        self.box_at = box
        W.panel(surf, box, palette.now().hint_box, W.GOLD, 10, 3, alpha=245)
        W.blit_text(surf, "?", (box.x + W.sc(24), box.y + 11), "title", 30, palette.now().hint_mark, "midtop")
        y = box.y + 11
        for img in imgs:
            surf.blit(img, (box.x + W.sc(48), y))
            y += img.get_height() + 6

    def box_rect(self, size) -> pygame.Rect:
        """Where the hint's words go: the first place (bottom, top, just above an online game's
        chat strip, then the four corners) that covers neither the hinted hexes with their tag nor
        the planning table nor the chat strip; failing all, the one that covers the least of the
        hinted hexes, then of the strip."""
        b = self.game.board_rect
        w, h = size
        top = b.y + W.sc(10 + BTN_H) + W.sc(10)  # under the Hint and Take back buttons
        online = getattr(self.game, "online", None)
        strip = online.keep_clear() if online is not None else []  # the chat strip at the map's corner
        lifted = min([r.top for r in strip] + [b.bottom]) - 12 - h  # above it (or at the bottom)
        spots = [(b.centerx - w // 2, b.bottom - 12 - h), (b.centerx - w // 2, top), (b.centerx - w // 2, lifted),
                 (b.x + 12, b.bottom - 12 - h), (b.right - 12 - w, b.bottom - 12 - h),
                 (b.x + 12, top), (b.right - 12 - w, top), (b.right - 12 - w, lifted)]
        boxes = [pygame.Rect(x, y, w, h) for x, y in spots]
        target = self._hint_area()
        avoid = [r for r in (self.game.plans.rect, target) if r is not None] + strip
        for box in boxes:
            if not any(box.colliderect(r) for r in avoid):
                return box
        def hidden(box, r):
            if r is None:
                return 0
            c = box.clip(r)
            return c.w * c.h
        # failing all: hide the least of the hinted hexes first, then of the chat strip, then of the table
        return min(boxes, key=lambda bx: (hidden(bx, target), sum(hidden(bx, r) for r in strip),
                                          hidden(bx, self.game.plans.rect)))

    def _hint_area(self) -> Optional[pygame.Rect]:
        """The screen rectangle of the hinted hexes (with their tag above them)."""
        h = self.hint()
        r = self.game.renderer
        if h is None or not h.cells or r is None:
            return None
        pts = [r.hex_to_screen(c) for c in h.cells]
        xs, ys = [p[0] for p in pts], [p[1] for p in pts]
        return pygame.Rect(min(xs) - r.size, min(ys) - r.size * 2.6, max(xs) - min(xs) + 2 * r.size,
                           max(ys) - min(ys) + r.size * 3.6)

    def _draw_why(self, surf) -> None:
        """A "why?" link beside the refusal in the bottom bar: it opens the rule's page."""
        g = self.game
        rule = refusal_rule(g)
        if not rule:
            return
        pc = g.place
        fb = pc.feedback()
        text, role, px = (fb.text, "sans_bold", 18) if fb is not None and not fb.ok else (g.message, "sans", 16)
        if not text or not pc.has_legal_spot and pc.mode == "fief":
            return
        b = g.bottom_rect
        said = getattr(getattr(g, "bar", None), "refusal_rect", None)  # where the game screen wrote the refusal (room kept beside it)
        if said is not None:
            x, y = said.right + W.sc(12), said.y + W.sc(2)
        else:
            fx = g.placing.tray_rect().right + W.sc(20)
            shown = W.fit_text(text, role, px, b.right - W.sc(20) - fx)
            x, y = fx + W.text(shown, role, px).get_width() + W.sc(12), b.y + W.sc(70)
        label = W.text(i18n.t("ref.why"), "sans_bold", 16, palette.now().link)
        r = W.blit_text(surf, i18n.t("ref.why"), (min(x, b.right - W.sc(20) - label.get_width()), y), "sans_bold", 16,
                        palette.now().link)
        pygame.draw.line(surf, palette.now().link, (r.x, r.bottom), (r.right, r.bottom), 1)
        self.why_rect = r.inflate(10, 8)
        self.why_rule = rule

    def mark_text(self) -> str:
        """"This game was helped: ..." when take-backs or hints were used, else ""."""
        a = self.face.assists
        parts = []
        if a.get("takebacks"):
            parts.append(i18n.tn("assist.takebacks", a["takebacks"]))
        if a.get("hints"):
            parts.append(i18n.tn("assist.hints", a["hints"]))
        return i18n.t("assist.mark", parts=", ".join(parts)) if parts else ""

    def _draw_mark(self, surf) -> None:
        """The end screen says when take-backs or hints helped this game."""
        text = self.mark_text()
        if not text:
            return
        b = self.game.bottom_rect
        W.blit_text(surf, W.fit_text(text, "sans_semibold", 15, b.w // 2), (b.right - 64, b.y + 12),
                    "sans_semibold", 15, palette.now().waiting, "topright")
