"""What a player of an online game says and asks on the game screen (issue 39): ``TalkStrip``,
the chat line and the six quick words over the map's bottom-left corner (the lines said show in
the game log), and the Rematch button of a finished game. Resigning is in the game menu
(``RemoteMenuScene``, scenes/remote.py), behind a confirmation.

The strip belongs to ``RemoteBar`` (scenes/remote.py), which hands it the frame's events first:
while the chat line is being typed, keys are words, not the game screen's shortcuts."""
from __future__ import annotations

import time
from typing import Optional

import pygame

from ..net import protocol
from ..net.client import CONNECTED
from ..words import i18n
from ..ui import widgets as W
from ..ui.widgets import Button, TextField

CHAT_MAX = 200  # characters a line may have (the server cuts longer ones)


class TalkStrip:
    """Chat line, Say, the quick words (folded by default) and, at the end, Rematch."""

    def __init__(self, game):
        self.game = game
        self.app = game.app
        self.field = TextField("", max_len=CHAT_MAX, px=16)
        self.say_button = Button(i18n.t("online.chat_send"), self.say, style="secondary", px=16)
        self.emote_toggle = Button(i18n.t("online.emotes"), self.toggle_emotes, style="secondary", px=16)
        self.emote_buttons = [Button(i18n.t(f"online.emote_{e}"), (lambda e=e: self.emote(e)), style="secondary",
                                     px=15) for e in protocol.EMOTES]
        self.rematch_button = Button(i18n.t("online.rematch"), self.ask_rematch, px=19)
        self.emotes_open = False
        self.asked = False  # this seat asked for a rematch of the game on the screen
        self.box: Optional[pygame.Rect] = None

    @property
    def link(self):
        return self.game.face.link

    def shown(self) -> bool:
        """Only a seat's player talks (a spectator has no seat) while the table can hear it."""
        t = self.link
        return bool(t.token) and t.seat is not None and not t.watching and t.problem is None

    def rematch_shown(self) -> bool:
        return self.shown() and self.game.state.phase == "over"

    # ------------------------------------------------------------ actions

    def say(self) -> None:
        text = self.field.value.strip()
        if not text:
            return
        if self.link.chat(text):
            self.field.value = ""
        else:
            self.app.toast(i18n.t("online.not_connected"), 4)

    def emote(self, emote: str) -> None:
        self.emotes_open = False
        if not self.link.emote(emote):
            self.app.toast(i18n.t("online.not_connected"), 4)

    def toggle_emotes(self) -> None:
        self.emotes_open = not self.emotes_open

    def ask_rematch(self) -> None:
        if self.link.ask_rematch():
            self.asked = True
        else:
            self.app.toast(i18n.t("online.not_connected"), 4)

    def rematch_words(self) -> str:
        """Who the rematch waits for, once asked (the lobby's list of seats that asked)."""
        t = self.link
        players = [i for i, s in enumerate(t.seats) if s.kind == "human" or s.player is not None]  # who holds a token
        missing = [i for i in players if i not in t.rematch]
        if not (self.asked or t.rematch):
            return ""
        if self.asked or t.seat in t.rematch:
            return i18n.t("online.rematch_asked", n=len(missing))
        names = ", ".join(self.game.face.seat_name(i) for i in t.rematch)
        return i18n.t("online.rematch_by", names=names)

    def time_left(self, now: Optional[float] = None) -> Optional[int]:
        """Seconds this seat has left under the host's turn timer (None: no timer, or not its turn):
        the server's own count (``clocks``, durations, so the computers' clocks need not agree),
        run down by this computer's clock since it arrived once the clock runs (it starts when
        this screen shows the decision: ``RemoteBar.tell_seen``)."""
        t = self.link
        s = self.game.face
        st = s.public()
        if not s.plays_here() or st.phase not in ("plan", "place") or s.own_seat not in st.to_act() \
                or s.move_pending or s.own_seat is None or t.status != CONNECTED:  # (no count while unheard)
            return None
        c = t.clock_of(s.own_seat, time.monotonic() if now is None else now)
        if c is None:
            return None
        return max(0, int(c[0] + 0.999))

    # ------------------------------------------------------------ frame hooks

    def widgets(self) -> list:
        if not self.shown():
            return []
        out = [self.field, self.say_button, self.emote_toggle]
        if self.emotes_open:
            out += self.emote_buttons
        if self.rematch_shown():
            out.append(self.rematch_button)
        return out

    def handle(self, ev) -> bool:
        if not self.shown():
            return False
        if ev.type == pygame.KEYDOWN and self.field.editing and ev.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
            self.say()
            self.field.editing = False
            return True
        if ev.type == pygame.KEYDOWN and self.field.editing and ev.key == pygame.K_ESCAPE:
            self.field.editing = False
            return True
        for w in self.widgets():
            if ev.type == pygame.MOUSEMOTION and isinstance(w, Button):
                w.hover = w.rect.collidepoint(ev.pos)
            elif w.handle(ev):
                return True
        if ev.type == pygame.MOUSEBUTTONDOWN and self.emotes_open:
            self.emotes_open = False  # a click elsewhere folds the quick words
        return False

    def in_panel(self) -> bool:
        """On a wide window the strip stands at the side panel's foot, under the game log its
        lines go to (off the map); else at the map's bottom-left corner."""
        return bool(getattr(self.game, "wide", False)) and self.shown()

    def panel_foot(self) -> int:
        """The height the strip (and the turn timer's tag over it) takes at the panel's foot, or 0."""
        if not self.in_panel():
            return 0
        return W.sc(40 + 12 + 10) + (W.sc(40) if self.link.turn_secs else 0)

    def layout(self) -> pygame.Rect:
        """The strip at the map's bottom-left corner, or at the side panel's foot on a wide window;
        the quick words above it; Rematch in the end bar. The strip's box."""
        sc = W.sc
        b = self.game.board_rect
        h = sc(40)
        say_w = max(sc(70), W.text(self.say_button.label, "sans_semibold", 16).get_width() + sc(28))
        toggle_w = max(sc(110), W.text(self.emote_toggle.label, "sans_semibold", 16).get_width() + sc(28))
        if self.in_panel():
            p = self.game.panel_rect
            field_w = p.w - sc(20) - say_w - toggle_w - sc(36)
            box = pygame.Rect(p.x + sc(10), p.bottom - sc(10) - h - sc(12), p.w - sc(20), h + sc(12))
        else:
            field_w = max(sc(140), min(sc(300), b.w - say_w - toggle_w - sc(60)))
            box = pygame.Rect(b.x + sc(10), b.bottom - sc(10) - h - sc(12), field_w + say_w + toggle_w + sc(36),
                              h + sc(12))
        x, y = box.x + sc(6), box.y + sc(6)
        self.field.rect = pygame.Rect(x, y, field_w, h)
        self.say_button.rect = pygame.Rect(self.field.rect.right + sc(6), y, say_w, h)
        self.emote_toggle.rect = pygame.Rect(self.say_button.rect.right + sc(12), y, toggle_w, h)
        self.emote_toggle.selected = self.emotes_open
        ew = max(W.text(e.label, "sans_semibold", 15).get_width() for e in self.emote_buttons) + sc(28)
        ey = box.y - sc(6)
        for e in reversed(self.emote_buttons):
            ey -= sc(38)
            e.rect = pygame.Rect(self.emote_toggle.rect.x, ey, ew, sc(34))
        self.box = box
        e = self.game.bottom_rect
        self.rematch_button.rect = pygame.Rect(e.right - sc(440), e.bottom - sc(62), sc(196), sc(48))
        self.rematch_button.enabled = not self.asked
        return box

    def draw(self, surf) -> None:
        self.box = None
        if not self.shown():
            return
        box = self.layout()
        sc = W.sc
        W.panel(surf, box, (58, 44, 34), (150, 120, 80), 10, 2, alpha=225)
        self.field.draw(surf)
        if not self.field.value and not self.field.editing:
            W.blit_text(surf, W.fit_text(i18n.t("online.chat_hint"), "sans_italic", 15, self.field.rect.w - sc(16)),
                        (self.field.rect.x + sc(8), self.field.rect.centery), "sans_italic", 15, W.TEXT_SOFT,
                        "midleft")
        self.say_button.draw(surf)
        self.emote_toggle.draw(surf)
        left = self.time_left()
        if left is not None:  # the host's turn timer: then the AI plays this seat's move
            img = W.text(i18n.t("online.time_left", time=f"{left // 60}:{left % 60:02d}"), "sans_bold", 16,
                         (255, 160, 130) if left <= 10 else W.TEXT_LIGHT)
            tag = pygame.Rect(box.x, box.y - img.get_height() - sc(14), img.get_width() + sc(20),
                              img.get_height() + sc(10))
            W.panel(surf, tag, (58, 44, 34), (150, 120, 80), 8, 2, alpha=225)
            surf.blit(img, (tag.x + sc(10), tag.y + sc(5)))
        if self.emotes_open:
            for e in self.emote_buttons:
                e.draw(surf)
        if self.rematch_shown():
            self.rematch_button.draw(surf)
            words = self.rematch_words()
            if words:
                r = self.rematch_button.rect
                W.blit_text(surf, words, (r.right, r.y - sc(6)), "sans_semibold", 15, W.TEXT, "bottomright",
                            wrap=sc(420), align="right")
