"""Overlays of the game screen: the privacy curtain, the reveal with the turn order, the
menu, and a seat's objective card."""
from __future__ import annotations

import time
from typing import Callable

import pygame

from ..render import pieces, theme
from ..rules import scoring
from ..words import i18n
from ..ui import widgets as W
from ..ui.motion import card_text
from ..ui.order_words import order_reasons
from ..ui.widgets import Button
from .base import ModalScene, Scene


class CurtainScene(Scene):
    """'Pass to <name>': hides the whole screen; only a deliberate click or Space lifts it."""

    opaque = True
    blocks_ai = False  # AI seats may plan meanwhile (their plans stay hidden)
    name = "curtain"

    def __init__(self, app, game, seat: int, purpose: str, on_pass: Callable[[], None]):
        super().__init__(app)
        self.game = game
        self.seat = seat
        self.purpose = purpose  # "plan", "objective", "resume"
        self.on_pass = on_pass

    def layout(self, size) -> None:
        w, h = size
        sc = W.sc
        self.box = pygame.Rect(0, 0, min(sc(900), w - 80), sc(380))
        self.box.center = (w // 2, h // 2)
        self.widgets.clear()
        name = self.game.face.seat_name(self.seat)
        bw = self.box.w - sc(120)
        if self.purpose == "objective":  # only asked for: it can be put away again (Esc too)
            bw -= sc(200)
            self.widgets.add(Button(i18n.t("common.cancel"), self.cancel,
                                    (self.box.right - sc(60) - sc(184), self.box.bottom - sc(96), sc(184), sc(60)),
                                    style="secondary", px=20))
        self.button = self.widgets.add(Button(i18n.t("curtain.click", name=name), self.lift,
                                              (self.box.x + sc(60), self.box.bottom - sc(96), bw, sc(60)), px=20))

    def cancel(self) -> None:
        """The objective's curtain put away: back to the game, nothing shown."""
        if self in self.app.stack.scenes:
            self.app.stack.pop(self)

    def lift(self) -> None:
        # only a press *and* release on the button (or Space) lift it: a stray click cannot
        if self not in self.app.stack.scenes:
            return
        self.app.stack.pop(self)
        self.on_pass()

    def handle(self, ev) -> bool:
        if ev.type == pygame.KEYDOWN and ev.key == pygame.K_SPACE:
            self.lift()
            return True
        if ev.type == pygame.KEYDOWN and ev.key == pygame.K_ESCAPE:
            if self.purpose == "objective":
                self.cancel()
            else:
                self.game.open_menu()
            return True
        self.widgets.handle(ev)
        return True

    def visible_text(self) -> list[str]:
        name = self.game.face.seat_name(self.seat)
        return [i18n.t("curtain.pass_to", name=name), self._line(name)] + super().visible_text()

    def _line(self, name: str) -> str:
        return i18n.t({"plan": "curtain.plan", "objective": "curtain.objective"}.get(self.purpose, "curtain.resume"),
                      name=name)

    def draw(self, surf) -> None:
        colour = self.game.state.seats[self.seat].colour
        surf.fill((34, 26, 20))
        w, h = surf.get_size()
        sc = W.sc
        pygame.draw.rect(surf, theme.seat_color(colour), (0, 0, w, sc(14)))
        pygame.draw.rect(surf, theme.seat_color(colour), (0, h - sc(14), w, sc(14)))
        W.panel(surf, self.box, W.PANEL, theme.seat_color(colour), 18, 6)
        name = self.game.face.seat_name(self.seat)
        W.blit_text(surf, i18n.t("curtain.pass_to", name=name), (self.box.centerx, self.box.y + sc(40)), "title", 64,
                    W.TEXT, "midtop")
        W.blit_text(surf, i18n.colour_name(colour), (self.box.centerx, self.box.y + sc(128)), "sans_bold", 22,
                    theme.seat_dark(colour), "midtop")
        W.blit_text(surf, self._line(name), (self.box.centerx, self.box.y + sc(172)), "sans", 20, W.TEXT, "midtop",
                    wrap=self.box.w - sc(80), align="center")
        self.widgets.draw(surf)


class RevealScene(Scene):
    """R3/R4: every plan at once, then the turn order with its reasons."""

    opaque = False
    blocks_ai = True
    name = "reveal"

    def __init__(self, app, game):
        super().__init__(app)
        self.game = game
        self.shown_for = 0.0  # seconds of frames it has been on screen (frame time, not the wall clock,
        # so that a demo run frame by frame - tests, tools - reveals the same way on any machine)
        self.flips = game.feedback.reveal_flips(len(game.state.seats))  # the cards turn over

    def _columns(self, width: int) -> tuple[list[int], list[int]]:
        """The columns' x offsets (#, seat, region, action, why), each as wide as what it holds; the
        why column gets the rest and wraps; and each row's height (two lines when a reason needs them)."""
        sc = W.sc
        rows = self.rows()
        head = lambda k: W.text(i18n.t(k), "sans_bold", 15).get_width()  # noqa: E731
        wid = lambda s, role="sans": W.text(s, role, 18).get_width()  # noqa: E731
        name_w = max([head("end.seat") - sc(24)] + [wid(f"{r[2]} ({r[6]})", "sans_bold") for r in rows])
        region_w = max([head("plan.region")] + [wid(r[3]) for r in rows])
        action_w = max([head("plan.action")] + [wid(r[4]) for r in rows]
                       + [wid("+ " + i18n.t("card.K")) for r in rows if r[5]])
        gap = sc(22)
        cx = [0, sc(40)]
        cx.append(cx[1] + sc(24) + name_w + gap)
        cx.append(cx[2] + region_w + gap)
        cx.append(cx[3] + action_w + gap)
        why_w = max(sc(120), width - cx[4])
        heights = []
        for r in rows:
            lines = W.text(r[7], "sans_italic", 16, W.TEXT_SOFT, wrap=why_w).get_height()
            two = W.text("Ag", "sans", 18).get_height() * (2 if r[5] else 1)  # "+ King's Privilege" below
            heights.append(max(sc(46), lines + sc(12), two + sc(10)))
        return cx, heights

    def layout(self, size) -> None:
        sc = W.sc
        b = self.game.board_rect
        w = min(sc(1060), b.w - 40)
        self.cols, self.row_h = self._columns(w - sc(60))
        self.box = pygame.Rect(0, 0, w, min(b.h - 10, sc(170) + sum(self.row_h)))
        self.box.center = b.center
        self.widgets.clear()
        self.widgets.add(Button(i18n.t("reveal.continue"), self.close,
                                (self.box.right - sc(200), self.box.bottom - sc(62), sc(176), sc(46))))
        self.widgets.focus = self.widgets.items[0]
        self.widgets.items[0].focused = True

    def close(self) -> None:
        if self in self.app.stack.scenes:
            self.app.stack.pop(self)

    def update(self, dt) -> None:
        self.shown_for += dt
        # a table of AIs goes on by itself: asked each frame, as a player may resign (online: the
        # computer plays their seat from then on) while the reveal is open, or just before it opened
        # while the server had not yet said so (then nobody would ever close it, and the game's
        # updates wait under it for good)
        if not self.game.face.humans and self.shown_for > max(0.3, self.app.ai_delay() * 2):
            self.close()

    def handle(self, ev) -> bool:
        if ev.type == pygame.KEYDOWN and ev.key in (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_SPACE,
                                                    pygame.K_ESCAPE):
            self.close()
            return True
        if ev.type == pygame.MOUSEBUTTONDOWN and ev.button == 1 and not self.box.collidepoint(ev.pos) \
                and any(w.visible and w.rect.collidepoint(ev.pos) for w in self.game.widgets.items):
            self.close()  # a button of the game's own (Menu, My objective): the plans were seen, it answers
            return bool(self.game.handle(ev))
        self.widgets.handle(ev)
        return True

    def rows(self) -> list[tuple]:
        st = self.game.state
        reasons = order_reasons(st)
        out = []
        for pos, i in enumerate(st.order):
            p = st.seats[i].plan
            out.append((pos + 1, i, self.game.face.seat_name(i), i18n.card_name(st, p.region),
                        i18n.card_name(st, p.action), p.king, st.seats[i].card, reasons[i]))
        return out

    def visible_text(self) -> list[str]:
        return [" ".join(str(x) for x in r) for r in self.rows()]

    def draw(self, surf) -> None:
        st = self.game.state
        sc = W.sc
        W.panel(surf, self.box, W.PANEL, W.PANEL_EDGE, 14, 3, alpha=248)
        W.blit_text(surf, i18n.t("reveal.heading", round=st.round), (self.box.x + sc(30), self.box.y + sc(18)),
                    "title", 36, W.TEXT)
        online = getattr(self.game, "online", None)  # an online game's turn clock running behind this dialog
        ticking = online.dialog_clock() if online is not None else None
        if ticking:
            W.blit_text(surf, ticking, (self.box.right - sc(30), self.box.y + sc(28)), "sans_bold", 18,
                        (170, 40, 20), "topright")
        bw = self.box.w - sc(60)
        cx = self.cols  # column offsets, each column as wide as its longest text (see layout)
        heads = [("#", cx[0]), (i18n.t("end.seat"), cx[1]), (i18n.t("plan.region"), cx[2]),
                 (i18n.t("plan.action"), cx[3]), (i18n.t("reveal.why"), cx[4])]
        y = self.box.y + sc(74)
        for t, dx in heads:
            W.blit_text(surf, t, (self.box.x + sc(30) + dx, y), "sans_bold", 15, W.TEXT_SOFT)
        y += sc(28)
        for (pos, i, name, region, action, king, card, why), row_h in zip(self.rows(), self.row_h):
            colour = st.seats[i].colour
            x = self.box.x + sc(30)
            W.blit_text(surf, str(pos), (x, y), "title", 28, W.TEXT)
            crest = pieces.crest(colour, sc(22))  # the family's crest: its colour and a shape
            surf.blit(crest, (x + sc(37), y + sc(5)))
            W.blit_text(surf, f"{name} ({card})", (x + sc(64), y + sc(5)), "sans_bold", 18, W.TEXT)
            flip = self.flips[pos - 1].p if pos - 1 < len(self.flips) else 1.0
            card_text(surf, region, (x + cx[2], y + sc(5)), flip)
            card_text(surf, action, (x + cx[3], y + sc(5)), flip)
            if king:  # the King's Privilege under the action
                card_text(surf, "+ " + i18n.t("card.K"), (x + cx[3], y + sc(5) + W.text("Ag", "sans", 18).get_height()),
                          flip)
            W.blit_text(surf, why, (x + cx[4], y + sc(6)), "sans_italic", 16, W.TEXT_SOFT, wrap=bw - cx[4])
            y += row_h
        self.widgets.draw(surf)


class MenuScene(ModalScene):
    opaque = False
    blocks_ai = True
    name = "menu"

    def __init__(self, app, game):
        super().__init__(app)
        self.game = game

    def layout(self, size) -> None:
        w, h = size
        sc = W.sc
        self.box = pygame.Rect(0, 0, sc(380), sc(420))
        self.box.center = (w // 2, h // 2)
        self.widgets.clear()
        y = self.box.y + sc(90)
        for key, fn in (("menu.resume", self.close), ("menu.save", self.save), ("menu.rules", self.rules),
                        ("menu.settings", self.settings), ("menu.quit", self.quit)):
            self.widgets.add(Button(i18n.t(key), fn, (self.box.x + sc(40), y, self.box.w - sc(80), sc(50)),
                                    style="primary" if key == "menu.resume" else "secondary"))
            y += sc(62)

    def save(self) -> None:
        s = self.game.face

        def do(name: str) -> None:
            try:
                self.app.save_named(name)  # the app holds the game (the screen holds its face)
                self.app.toast(i18n.t("load.saved", name=name))
            except OSError as e:
                self.app.toast(i18n.t("error.save", message=str(e)), 6)
            self.close()

        default = s.name or f"{s.public().scenario} {time.strftime('%Y-%m-%d %H.%M')}"
        self.app.stack.push("prompt", i18n.t("load.save_named"), i18n.t("load.save_as"), default, do)

    def rules(self) -> None:
        self.app.stack.push("rules")

    def settings(self) -> None:
        self.app.stack.push("settings")

    def quit(self) -> None:
        self.app.to_title()

    def handle(self, ev) -> bool:
        if ev.type == pygame.KEYDOWN and ev.key == pygame.K_ESCAPE:
            self.close()
            return True
        self.widgets.handle(ev)
        return True

    def draw(self, surf) -> None:
        W.dim(surf, 150)
        W.panel(surf, self.box, W.PANEL, W.PANEL_EDGE, 14, 3)
        W.blit_text(surf, i18n.t("menu.heading"), (self.box.centerx, self.box.y + W.sc(22)), "title", 40, W.TEXT,
                    "midtop")
        self.widgets.draw(surf)


class ObjectiveScene(ModalScene):
    """A seat's objective card, over the map with its six cities ringed; 'Hide it' closes it."""

    opaque = False
    blocks_ai = True
    name = "objective"

    def __init__(self, app, game, seat: int):
        super().__init__(app)
        self.game = game
        self.seat = seat
        self._view: tuple = (-1, None)  # (the game's version, this seat's view)

    def view(self):
        """This seat's own view (its objective, past its curtain), worked out once per change of
        the game, not twice a frame."""
        s = self.game.face
        if self._view[0] != s.version:
            self._view = (s.version, s.view(self.seat))
        return self._view[1]

    def layout(self, size) -> None:
        b = self.game.board_rect
        sc = W.sc
        self.box = pygame.Rect(0, 0, min(sc(720), b.w - 40), sc(190))
        self.box.midbottom = (b.centerx, b.bottom - sc(20))
        self.widgets.clear()
        self.widgets.add(Button(i18n.t("objective.hide"), self.close,
                                (self.box.right - sc(170), self.box.bottom - sc(60), sc(150), sc(44))))

    def handle(self, ev) -> bool:
        if ev.type == pygame.KEYDOWN and ev.key in (pygame.K_ESCAPE, pygame.K_RETURN, pygame.K_o):
            self.close()
            return True
        self.widgets.handle(ev)
        return True

    def text_lines(self) -> list[str]:
        st = self.view()
        s = st.seats[self.seat]
        obj = st.content.objective(s.objective)
        held = scoring.objective_cities_held(st, self.seat)
        return [i18n.t("objective.heading", name=self.game.face.seat_name(self.seat)),
                i18n.t("objective.body", west=i18n.t(f"symbol.{obj.western}"), east=i18n.t(f"symbol.{obj.eastern}"),
                       held=held, points=i18n.tn("n.points", scoring.OBJECTIVE_TABLE[held]))]

    def visible_text(self) -> list[str]:
        return self.text_lines() + super().visible_text()

    def draw(self, surf) -> None:
        st = self.view()
        self.game.renderer.draw_objective_cities(surf, st.content.objective_cities(st.seats[self.seat].objective))
        W.panel(surf, self.box, W.PANEL, (150, 40, 150), 14, 3, alpha=248)
        head, body = self.text_lines()
        sc = W.sc
        W.blit_text(surf, head, (self.box.x + sc(24), self.box.y + sc(14)), "title", 32, W.TEXT)
        W.blit_text(surf, body, (self.box.x + sc(24), self.box.y + sc(62)), "sans", 17, W.TEXT,
                    wrap=self.box.w - sc(220))
        self.widgets.draw(surf)
