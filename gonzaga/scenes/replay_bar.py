"""The replay's controls (``scenes/replay_view.py``): the bar under the map (start, back,
play/pause at a speed, forward, end; a round strip; a bar to click or drag to any move; what the
move shown did), the keys (Left/Right one move, Page Up/Down one round, Home/End, Space
play/pause, Esc close) and, for a finished game when asked, every plan and objective on the map's
corner.

A part of the game screen with explicit inputs (:class:`ReplayBar`), which the replay sets as the
screen's ``controls`` in place of the hand and the placing controls."""
from __future__ import annotations

from functools import partial
from typing import Callable

import pygame

from ..table.replay import ReplayFace
from ..words import i18n
from ..ui import widgets as W
from ..ui.widgets import Button, Widgets

SPEEDS = (0.5, 1.0, 2.0, 4.0)
STEP_S = 0.9  # seconds a move stays on screen at 1x
HEIGHT = 200  # the bar's height (design pixels: it grows with the interface scale, issue 10)


class ReplayBar:
    """The replay's controls. Inputs: ``rs`` (the replay's face: ``table/replay.py``), ``title``
    (the game's name, or ""), ``widgets`` (the screen's buttons), ``bottom`` and ``board`` (the
    bar's and the map's rectangles), ``width`` (the window's width), ``close`` (leave the
    replay), ``review`` (the post-game review), ``jumped`` (the move shown was jumped to: nothing
    animates) and ``on_top`` (the replay is the screen on top: it plays)."""

    height = HEIGHT

    def __init__(self, rs: ReplayFace, title: str, widgets: Widgets, bottom: Callable[[], pygame.Rect],
                 board: Callable[[], pygame.Rect], width: Callable[[], int], close: Callable[[], None],
                 review: Callable[[], None], jumped: Callable[[], None], on_top: Callable[[], bool]):
        self.rs = rs
        self.title = title
        self.widgets = widgets
        self.bottom = bottom
        self.board = board
        self.width = width
        self.close = close
        self.review_game = review
        self.jumped = jumped
        self.on_top = on_top
        self.playing = False
        self.speed = 1.0
        self._t = 0.0
        self._slider = pygame.Rect(0, 0, 0, 0)
        self._dragging = False
        self._speed_x = 0
        self._rounds_x = 0

    # ------------------------------------------------------------ the bar's buttons

    def build(self) -> None:
        """Close (top right), the moves, the speeds, the rounds and, for a finished game, the review
        and the toggle for secrets; the slider takes what is left of the rounds' row."""
        widgets = self.widgets
        widgets.clear()
        w = self.width()
        rs = self.rs
        sc = W.sc
        widgets.add(Button(i18n.t("replay.close"), self.close, (w - sc(130), sc(8), sc(116), sc(38)),
                           style="secondary", px=17))
        b = self.bottom()
        x, y = b.x + sc(16), b.y + sc(12)
        for key, fn, bw in (("replay.start", self.to_start, sc(100)), ("replay.back", self.back, sc(110)),
                            ("replay.pause" if self.playing else "replay.play", self.toggle_play, sc(116)),
                            ("replay.forward", self.forward, sc(120)), ("replay.end", self.to_end, sc(90))):
            btn = Button(i18n.t(key), fn, (x, y, bw, sc(42)), style="primary" if key in ("replay.play", "replay.pause")
                         else "secondary", px=16)
            if key in ("replay.start", "replay.back"):
                btn.enabled = rs.step > rs.first_step
            if key in ("replay.forward", "replay.end"):
                btn.enabled = rs.step < rs.n_steps
            widgets.add(btn)
            x += bw + sc(6)
        x += sc(14)
        self._speed_x = x
        x += W.text(i18n.t("replay.speed"), "sans_semibold", 15).get_width() + sc(8)
        for sp in SPEEDS:
            label = "½×" if sp == 0.5 else f"{int(sp)}×"
            widgets.add(Button(label, partial(self.set_speed, sp), (x, y + sc(4), sc(46), sc(34)),
                               style="secondary", selected=(sp == self.speed), px=15))
            x += sc(50)
        # the rounds
        y2 = b.y + sc(66)
        x = b.x + sc(16) + W.text(i18n.t("replay.round"), "sans_semibold", 15).get_width() + sc(10)
        self._rounds_x = b.x + sc(16)
        starts = rs.round_starts()
        current = rs.shown().round
        for r in sorted(starts):
            if x + sc(36) > b.x + b.w * 0.62:
                break
            widgets.add(Button(str(r), partial(self.to_round, r), (x, y2, sc(34), sc(32)), style="secondary",
                               selected=(r == current), px=15))
            x += sc(38)
        self._slider = pygame.Rect(x + sc(16), y2 + sc(6), b.right - sc(20) - (x + sc(16)), sc(20))
        if rs.finished:
            label = i18n.t("replay.secrets_on" if rs.show_all else "replay.secrets_off")
            widgets.add(Button(label, self.toggle_secrets, (b.right - sc(300), b.bottom - sc(48), sc(284), sc(38)),
                               style="secondary", selected=rs.show_all, px=15))
            widgets.add(Button(i18n.t("review.button"), self.review, (b.right - sc(440), b.bottom - sc(48),
                                                                      sc(130), sc(38)), style="secondary", px=15))

    def help_rect(self) -> pygame.Rect:
        """Where the rules reference's "?" goes (scenes/base.py): the bar's top right corner."""
        b = self.bottom()
        return pygame.Rect(b.right - W.sc(50), b.y + W.sc(10), W.sc(38), W.sc(30))

    # ------------------------------------------------------------ moving

    def seek(self, n: int, animate: bool = False) -> None:
        before = self.rs.step
        self.rs.seek(n)
        if not (animate and self.rs.step == before + 1):
            self.jumped()  # a jump: the state is simply there, nothing animates
        if self.rs.step >= self.rs.n_steps:
            self.playing = False
        self.build()

    def forward(self) -> None:
        self.seek(self.rs.step + 1, animate=True)

    def back(self) -> None:
        self.playing = False
        self.seek(self.rs.step - 1)

    def to_start(self) -> None:
        self.playing = False
        self.seek(self.rs.first_step)

    def to_end(self) -> None:
        self.playing = False
        self.seek(self.rs.n_steps)

    def to_round(self, r: int) -> None:
        starts = self.rs.round_starts()
        if r in starts:
            self.seek(starts[r])

    def next_round(self, d: int) -> None:
        starts = self.rs.round_starts()
        r = self.rs.shown().round + d
        if d < 0 and self.rs.step > starts.get(self.rs.shown().round, 0):
            r = self.rs.shown().round  # first back to the start of this round
        if r in starts:
            self.seek(starts[r])
        elif d > 0:
            self.to_end()

    def toggle_play(self) -> None:
        if not self.playing and self.rs.step >= self.rs.n_steps:
            self.seek(self.rs.first_step)
        self.playing = not self.playing
        self._t = 0.0
        self.build()

    def set_speed(self, sp: float) -> None:
        self.speed = sp
        self.build()

    def toggle_secrets(self) -> None:
        self.rs.show_all = not self.rs.show_all
        self.seek(self.rs.step)

    def review(self) -> None:
        """The post-game review of the game watched (issue 48; scenes/review.py)."""
        self.playing = False
        self.review_game()

    # ------------------------------------------------------------ frames and events

    def update(self, dt: float) -> None:
        if self.playing and self.on_top():
            self._t += dt
            if self._t >= STEP_S / self.speed:
                self._t = 0.0
                self.forward()

    def handle(self, ev: pygame.event.Event) -> bool:
        if ev.type == pygame.KEYDOWN:
            keys: dict[int, Callable[[], None]] = {pygame.K_RIGHT: self.forward, pygame.K_LEFT: self.back, pygame.K_SPACE: self.toggle_play,
                    pygame.K_HOME: self.to_start, pygame.K_END: self.to_end, pygame.K_ESCAPE: self.close,
                    pygame.K_PAGEUP: partial(self.next_round, -1), pygame.K_PAGEDOWN: partial(self.next_round, 1)}
            if ev.key in keys:
                if ev.key in (pygame.K_RIGHT, pygame.K_PAGEDOWN, pygame.K_PAGEUP):
                    self.playing = False
                keys[ev.key]()
                return True
        if ev.type == pygame.MOUSEBUTTONDOWN and ev.button == 1 and self._slider.inflate(0, 16).collidepoint(ev.pos):
            self._dragging = True
            self._slide(ev.pos[0])
            return True
        if ev.type == pygame.MOUSEMOTION and self._dragging:
            self._slide(ev.pos[0])
            return True
        if ev.type == pygame.MOUSEBUTTONUP and ev.button == 1 and self._dragging:
            self._dragging = False
            return True
        return False

    def _slide(self, x: int) -> None:
        s = self._slider
        rs = self.rs
        if s.w <= 0:
            return
        frac = max(0.0, min(1.0, (x - s.x) / s.w))
        n = rs.first_step + round(frac * (rs.n_steps - rs.first_step))
        if n != rs.step:
            self.playing = False
            self.seek(n)

    # ------------------------------------------------------------ drawing

    def secret_lines(self) -> list[str]:
        """Every plan and objective at this move (only for a finished game, when asked)."""
        rs = self.rs
        if not (rs.finished and rs.show_all):
            return []
        st = rs.shown()
        out = []
        for i, s in enumerate(st.seats):
            assert s.objective is not None  # a finished game shows every objective
            obj = st.content.objective(s.objective)
            line = i18n.t("replay.objective", name=rs.seat_name(i), west=i18n.t(f"symbol.{obj.western}"),
                          east=i18n.t(f"symbol.{obj.eastern}"))
            if s.plan is not None and st.phase == "plan":
                plan = f"{i18n.card_name(st, s.plan.region)} + {i18n.card_name(st, s.plan.action)}"
                if s.plan.king:
                    plan += f" + {i18n.card_name(st, 'K')}"
                line += " · " + i18n.t("replay.plan", plan=plan)
            out.append(line)
        return out

    def draw(self, surf: pygame.Surface) -> None:
        """The bar under the map: its labels, the slider and what this move did."""
        b = self.bottom()
        rs = self.rs
        pygame.draw.rect(surf, (226, 212, 180), b)
        pygame.draw.line(surf, W.PANEL_EDGE, b.topleft, b.topright, 2)
        sc = W.sc
        W.blit_text(surf, i18n.t("replay.speed"), (self._speed_x, b.y + sc(33)), "sans_semibold", 15, W.TEXT_SOFT,
                    "midleft")
        W.blit_text(surf, i18n.t("replay.round"), (self._rounds_x, b.y + sc(82)), "sans_semibold", 15, W.TEXT_SOFT,
                    "midleft")
        self._draw_slider(surf)
        # what this move did
        x, y = b.x + sc(20), b.y + sc(112)
        width = (b.w - sc(480)) if rs.finished else b.w - sc(40)  # the review and the toggle for secrets on the right
        W.blit_text(surf, W.fit_text(self.heading(), "sans_bold", 15, width), (x, y), "sans_bold", 15, W.TEXT)
        y += sc(22)
        for line in rs.step_lines()[-3:]:
            img = W.text(W.fit_text(line, "sans", 15, width * 2), "sans", 15, W.TEXT, wrap=width)
            if y + img.get_height() > b.bottom - 4:
                break
            surf.blit(img, (x, y))
            y += img.get_height() + 2

    def _draw_slider(self, surf: pygame.Surface) -> None:
        s = self._slider
        rs = self.rs
        if s.w <= 20:
            return
        pygame.draw.rect(surf, (246, 238, 218), s, 0, 8)
        span = max(1, rs.n_steps - rs.first_step)
        frac = (rs.step - rs.first_step) / span
        filled = pygame.Rect(s.x, s.y, max(8, int(s.w * frac)), s.h)
        pygame.draw.rect(surf, (150, 52, 40), filled, 0, 8)
        for _r, n in rs.round_starts().items():
            tx = s.x + int(s.w * (n - rs.first_step) / span)
            pygame.draw.line(surf, W.PANEL_EDGE, (tx, s.bottom - 6), (tx, s.bottom), 1)
        pygame.draw.rect(surf, W.PANEL_EDGE, s, 1, 8)
        kx = s.x + int(s.w * frac)
        pygame.draw.circle(surf, W.GOLD, (kx, s.centery), 11)
        pygame.draw.circle(surf, W.PANEL_EDGE, (kx, s.centery), 11, 2)

    def draw_over(self, surf: pygame.Surface) -> None:
        """Over the screen: every plan and objective of a finished game, on the map's corner."""
        secrets = self.secret_lines()
        if not secrets:
            return
        b = self.board()
        panel = pygame.Rect(b.x + 8, b.y + 8, min(580, b.w - 40), 36 + 21 * len(secrets))
        W.panel(surf, panel, (246, 238, 218), (150, 40, 150), 10, 2, alpha=245)
        W.blit_text(surf, i18n.t("replay.secrets_head"), (panel.x + 12, panel.y + 8), "sans_bold", 15, (120, 30, 120))
        yy = panel.y + 32
        for line in secrets:
            W.blit_text(surf, W.fit_text(line, "sans", 15, panel.w - 24), (panel.x + 12, yy), "sans", 15, W.TEXT)
            yy += 21

    def heading(self) -> str:
        rs = self.rs
        label = i18n.t("replay.heading", name=self.title) if self.title else i18n.t("replay.heading_plain")
        head = f"{label}  ·  {i18n.t('replay.step', n=rs.step, total=rs.n_steps)}"
        if not rs.finished:
            head += "  ·  " + i18n.t("replay.public_only")
        return head

    def visible_text(self) -> list[str]:
        rs = self.rs
        return [self.heading()] + rs.step_lines() + self.secret_lines() + rs.log_lines()
