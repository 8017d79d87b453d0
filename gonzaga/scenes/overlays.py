"""Overlays of the game screen: the privacy curtain, the reveal with the turn order, the
menu, and a seat's objective card."""
from __future__ import annotations

import time
from typing import Callable

import pygame

from .. import persistence
from ..render import theme
from ..rules import scoring
from ..ui import i18n
from ..ui import widgets as W
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
        self.box = pygame.Rect(0, 0, min(900, w - 80), 380)
        self.box.center = (w // 2, h // 2)
        self.widgets.clear()
        name = self.game.session.seat_name(self.seat)
        self.button = self.widgets.add(Button(i18n.t("curtain.click", name=name), self.lift,
                                              (self.box.x + 60, self.box.bottom - 96, self.box.w - 120, 60), px=20))

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
            self.game.open_menu()
            return True
        self.widgets.handle(ev)
        return True

    def visible_text(self) -> list[str]:
        name = self.game.session.seat_name(self.seat)
        return [i18n.t("curtain.pass_to", name=name), self._line(name)] + super().visible_text()

    def _line(self, name: str) -> str:
        return i18n.t({"plan": "curtain.plan", "objective": "curtain.objective"}.get(self.purpose, "curtain.resume"),
                      name=name)

    def draw(self, surf) -> None:
        colour = self.game.state.seats[self.seat].colour
        surf.fill((34, 26, 20))
        w, h = surf.get_size()
        pygame.draw.rect(surf, theme.seat_color(colour), (0, 0, w, 14))
        pygame.draw.rect(surf, theme.seat_color(colour), (0, h - 14, w, 14))
        W.panel(surf, self.box, W.PANEL, theme.seat_color(colour), 18, 6)
        name = self.game.session.seat_name(self.seat)
        W.blit_text(surf, i18n.t("curtain.pass_to", name=name), (self.box.centerx, self.box.y + 40), "title", 64,
                    W.TEXT, "midtop")
        W.blit_text(surf, i18n.colour_name(colour), (self.box.centerx, self.box.y + 128), "sans_bold", 22,
                    theme.seat_dark(colour), "midtop")
        W.blit_text(surf, self._line(name), (self.box.centerx, self.box.y + 172), "sans", 20, W.TEXT, "midtop")
        self.widgets.draw(surf)


def order_reasons(state) -> dict[int, str]:
    """Why each seat sits where it does in the turn order (R4), in words."""
    out = {}
    for i in state.order:
        p = state.seats[i].plan
        parts = [i18n.t("reveal.why_K") if p.king else i18n.t(f"reveal.why_{p.action}")]
        if p.king and sum(state.seats[j].plan.king for j in state.order) > 1:
            parts.append(i18n.t("reveal.why_K_then", action=i18n.t(f"card.{p.action}")))
        same = [j for j in state.order if j != i and state.seats[j].plan.king == p.king
                and state.seats[j].plan.action == p.action]
        if same:
            parts.append(i18n.t("reveal.why_card", card=state.seats[i].card))
        out[i] = "; ".join(parts)
    return out


class RevealScene(Scene):
    """R3/R4: every plan at once, then the turn order with its reasons."""

    opaque = False
    blocks_ai = True
    name = "reveal"

    def __init__(self, app, game):
        super().__init__(app)
        self.game = game
        self.opened = time.monotonic()
        self.auto = not game.session.humans  # a table of AIs goes on by itself

    def layout(self, size) -> None:
        b = self.game.board_rect
        n = len(self.game.state.seats)
        self.box = pygame.Rect(0, 0, min(1060, b.w - 40), 170 + 46 * n)
        self.box.center = b.center
        self.widgets.clear()
        self.widgets.add(Button(i18n.t("reveal.continue"), self.close,
                                (self.box.right - 200, self.box.bottom - 62, 176, 46)))
        self.widgets.focus = self.widgets.items[0]
        self.widgets.items[0].focused = True

    def close(self) -> None:
        if self in self.app.stack.scenes:
            self.app.stack.pop(self)

    def update(self, dt) -> None:
        if self.auto and time.monotonic() - self.opened > max(0.3, self.app.ai_delay() * 2):
            self.close()

    def handle(self, ev) -> bool:
        if ev.type == pygame.KEYDOWN and ev.key in (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_SPACE,
                                                    pygame.K_ESCAPE):
            self.close()
            return True
        self.widgets.handle(ev)
        return True

    def rows(self) -> list[tuple]:
        st = self.game.state
        reasons = order_reasons(st)
        out = []
        for pos, i in enumerate(st.order):
            p = st.seats[i].plan
            out.append((pos + 1, i, self.game.session.seat_name(i), i18n.card_name(st, p.region),
                        i18n.card_name(st, p.action), p.king, st.seats[i].card, reasons[i]))
        return out

    def visible_text(self) -> list[str]:
        return [" ".join(str(x) for x in r) for r in self.rows()]

    def draw(self, surf) -> None:
        st = self.game.state
        W.panel(surf, self.box, W.PANEL, W.PANEL_EDGE, 14, 3, alpha=248)
        W.blit_text(surf, i18n.t("reveal.heading", round=st.round), (self.box.x + 30, self.box.y + 18), "title", 36,
                    W.TEXT)
        bw = self.box.w - 60
        cx = [0, 40, int(bw * 0.25), int(bw * 0.43), int(bw * 0.63)]  # column offsets
        heads = [("#", cx[0]), (i18n.t("end.seat"), cx[1]), (i18n.t("plan.region"), cx[2]),
                 (i18n.t("plan.action"), cx[3]), (i18n.t("reveal.why"), cx[4])]
        y = self.box.y + 74
        for t, dx in heads:
            W.blit_text(surf, t, (self.box.x + 30 + dx, y), "sans_bold", 15, W.TEXT_SOFT)
        y += 28
        for pos, i, name, region, action, king, card, why in self.rows():
            colour = st.seats[i].colour
            x = self.box.x + 30
            W.blit_text(surf, str(pos), (x, y), "title", 28, W.TEXT)
            pygame.draw.rect(surf, theme.seat_color(colour), (x + 40, y + 8, 16, 16), 0, 3)
            W.blit_text(surf, W.fit_text(f"{name} ({card})", "sans_bold", 18, cx[2] - 74), (x + 64, y + 5),
                        "sans_bold", 18, W.TEXT)
            W.blit_text(surf, W.fit_text(region, "sans", 18, cx[3] - cx[2] - 10), (x + cx[2], y + 5), "sans", 18,
                        W.TEXT)
            act = action + (" + " + i18n.t("card.K") if king else "")
            W.blit_text(surf, W.fit_text(act, "sans", 18, cx[4] - cx[3] - 10), (x + cx[3], y + 5), "sans", 18, W.TEXT)
            W.blit_text(surf, W.fit_text(why, "sans_italic", 16, bw - cx[4]), (x + cx[4], y + 6),
                        "sans_italic", 16, W.TEXT_SOFT)
            y += 46
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
        self.box = pygame.Rect(0, 0, 380, 420)
        self.box.center = (w // 2, h // 2)
        self.widgets.clear()
        y = self.box.y + 90
        for key, fn in (("menu.resume", self.close), ("menu.save", self.save), ("menu.rules", self.rules),
                        ("menu.settings", self.settings), ("menu.quit", self.quit)):
            self.widgets.add(Button(i18n.t(key), fn, (self.box.x + 40, y, self.box.w - 80, 50),
                                    style="primary" if key == "menu.resume" else "secondary"))
            y += 62

    def save(self) -> None:
        from .dialogs import PromptScene
        s = self.game.session

        def do(name: str) -> None:
            try:
                persistence.save_game(s, persistence.named_save_path(name), name)
                self.app.toast(i18n.t("load.saved", name=name))
            except OSError as e:
                self.app.toast(i18n.t("error.save", message=str(e)), 6)
            self.close()

        default = s.name or f"{s.state.scenario} {time.strftime('%Y-%m-%d %H.%M')}"
        self.app.stack.push(PromptScene(self.app, i18n.t("load.save_named"), i18n.t("load.save_as"), default, do))

    def rules(self) -> None:
        from .rules_view import RulesScene
        self.app.stack.push(RulesScene(self.app))

    def settings(self) -> None:
        from .settings import SettingsScene
        self.app.stack.push(SettingsScene(self.app))

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
        W.blit_text(surf, i18n.t("menu.heading"), (self.box.centerx, self.box.y + 22), "title", 40, W.TEXT, "midtop")
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

    def layout(self, size) -> None:
        b = self.game.board_rect
        self.box = pygame.Rect(0, 0, min(720, b.w - 40), 190)
        self.box.midbottom = (b.centerx, b.bottom - 20)
        self.widgets.clear()
        self.widgets.add(Button(i18n.t("objective.hide"), self.close, (self.box.right - 170, self.box.bottom - 60, 150, 44)))

    def handle(self, ev) -> bool:
        if ev.type == pygame.KEYDOWN and ev.key in (pygame.K_ESCAPE, pygame.K_RETURN, pygame.K_o):
            self.close()
            return True
        self.widgets.handle(ev)
        return True

    def text_lines(self) -> list[str]:
        st = self.game.state
        s = st.seats[self.seat]
        obj = st.content.objective(s.objective)
        held = scoring.objective_cities_held(st, self.seat)
        return [i18n.t("objective.heading", name=self.game.session.seat_name(self.seat)),
                i18n.t("objective.body", west=i18n.t(f"symbol.{obj.western}"), east=i18n.t(f"symbol.{obj.eastern}"),
                       held=held, points=scoring.OBJECTIVE_TABLE[held])]

    def visible_text(self) -> list[str]:
        return self.text_lines() + super().visible_text()

    def draw(self, surf) -> None:
        st = self.game.state
        self.game.renderer.draw_objective_cities(surf, st.content.objective_cities(st.seats[self.seat].objective))
        W.panel(surf, self.box, W.PANEL, (150, 40, 150), 14, 3, alpha=248)
        head, body = self.text_lines()
        W.blit_text(surf, head, (self.box.x + 24, self.box.y + 14), "title", 32, W.TEXT)
        W.blit_text(surf, body, (self.box.x + 24, self.box.y + 62), "sans", 17, W.TEXT, wrap=self.box.w - 220)
        self.widgets.draw(surf)
