"""What the game screen adds for a game played over the network (issue 14): ``RemoteBar`` (the
banners: connection lost with Retry; waiting for a player whose computer is not connected, with the
host's "let the AI play" button; the bottom bar's words), ``RemoteAssistBar`` (hints, no
take-back), ``remote_feedback`` (the end chart from the rounds seen; the chat strip under the banners),
``RemoteMenuScene`` (no saving: the server keeps the game)."""
from __future__ import annotations

import logging
from typing import Optional

import pygame

from ..net.client import CONNECTING, LOST
from ..net.remote import Table
from ..net.seatwords import chosen_for_you, clock
from ..words import i18n
from ..ui import widgets as W
from ..ui.widgets import Button
from .assist import AssistBar
from .feedback import Asks, Feedback, Screen
from .online_common import lost_lines
from .overlays import MenuScene
from .remote_talk import TalkStrip

log = logging.getLogger(__name__)


# ---------------------------------------------------------------- on the game screen

class RemoteBar:
    """What the game screen adds for an online game: a banner over the map when the connection
    is lost (Retry), when the game cannot go on, or when a player whose turn it is is not
    connected (the host may let an AI play that seat); the bottom bar's words; the server's
    refusals of our moves."""

    AI_LEVEL = "medium"

    def __init__(self, game):
        self.game = game
        self.app = game.app
        self.retry_button = Button(i18n.t("online.retry"), self.retry, style="secondary", px=17)
        self.title_button = Button(i18n.t("end.title"), self.app.to_title, style="secondary", px=17)
        self.ai_button = Button("", self.hand_to_ai, style="secondary", px=16)
        self.ok_button = Button(i18n.t("online.ai_chose_ok"), self.dismiss_chosen, style="secondary", px=16)
        self.box: Optional[pygame.Rect] = None
        self.talk = TalkStrip(game)  # the chat line, the quick words, Rematch (scenes/remote_talk.py)

    @property
    def link(self) -> Table:
        return self.game.face.link

    # ------------------------------------------------------------ actions

    def retry(self) -> None:
        self.link.retry()

    def hand_to_ai(self) -> None:
        waiting = self.link.waiting_for()
        if waiting:
            self.link.set_seat(waiting[0], "ai", self.AI_LEVEL)

    def dismiss_chosen(self) -> None:
        """The player has read what the computer chose for them."""
        self.link.moved_for_you = None

    def tell_seen(self) -> None:
        """Tell the server our decision is on screen (no dialog over it), so that our turn clock
        starts now (``net/turnclock.py``): only with a turn timer, when it is our seat's turn and
        the game screen is on top with the latest state applied (updates wait under a dialog)."""
        t = self.link
        s = self.game.face
        if t.turn_secs is None or self.app.stack.top is not self.game or not s.plays_here() or s.move_pending:
            return
        st = s.public()
        if st.phase in ("plan", "place") and s.own_seat in st.to_act():
            t.seen(s.server_position)

    def dialog_clock(self) -> Optional[str]:
        """Our turn clock's words for a dialog over the board (the reveal): only once it runs
        behind the dialog (after ``turnclock.SEEN_CAP``; before, it waits for the board)."""
        s = self.game.face
        c = self.link.clock_of(s.own_seat, latest=True) if s.own_seat is not None and s.plays_here() else None
        return i18n.t("online.reveal_clock", time=clock(c[0])) if c is not None and c[1] else None

    def keep_clear(self) -> list[pygame.Rect]:
        """What this bar keeps on the map for good (the chat strip with the turn timer's tag over
        it): the map's legend is drawn clear of it."""
        talk = self.talk
        t = self.link
        if t.seat is None or t.watching or talk.in_panel():  # a spectator has no strip; a wide window's
            return []  # is in the side panel (a lost connection keeps its place)
        talk.layout()
        box = talk.box
        return [box.inflate(W.sc(8), W.sc(8)).union(box.move(0, -W.sc(44)))]  # (the tag's room above)

    # ------------------------------------------------------------ frame hooks

    def update(self, dt: float) -> None:
        t = self.link
        if t.refusal is not None:  # the server refused our move: said where the game screen says refusals
            why, t.refusal = t.refusal, None
            log.info("the server refused %s: %s", why.rule, why.message)
            self.game.message = i18n.rule_text(why)
        if t.notice:
            self.app.toast(t.notice, 5)
            t.notice = None
        if t.session is not None and not self.game.face.same_game(t.session):  # a rematch began: its game on screen
            self.app.start_remote(t.session)
            return
        self.tell_seen()

    def banner(self) -> tuple[list[str], list[Button]]:
        """The banner's lines and buttons now (none: no banner)."""
        t = self.link
        if t.problem:
            return [i18n.t("online.stopped", problem=t.problem)], [self.title_button]
        if t.status == LOST:
            return lost_lines(t), [self.retry_button]
        if t.status == CONNECTING:
            return [i18n.t("online.reconnecting")], []
        if t.moved_for_you is not None:  # our time ran out: what the computer chose, until read
            st, action = t.moved_for_you
            return [chosen_for_you(st, action), i18n.t("online.ai_chose_hint")], [self.ok_button]
        waiting = t.waiting_for()
        if waiting:
            names = ", ".join(self.game.face.seat_name(i) for i in waiting)
            buttons = []
            left = t.grace_left(waiting[0])
            hint = i18n.t("online.waiting_hint")
            if left is not None and left > 0:  # the server's count: the host may hand the seat over after it
                hint = i18n.t("online.waiting_grace", time=clock(left))
            if t.is_host and (left is None or left <= 0):
                self.ai_button.label = i18n.t("online.hand_to_ai", name=self.game.face.seat_name(waiting[0]))
                buttons.append(self.ai_button)
            return [i18n.t("online.waiting_for", names=names), hint], buttons
        return [], []

    def handle(self, ev) -> bool:
        if self.talk.handle(ev):
            return True
        _lines, buttons = self.banner()
        for b in buttons:
            if ev.type == pygame.MOUSEMOTION:
                b.hover = b.rect.collidepoint(ev.pos)
            elif b.handle(ev):
                return True
        return False

    def watch_text(self) -> str:
        """The bottom bar's words while this seat has nothing to do (a spectator: always, and it
        says so first)."""
        words = self._watch_text()
        if self.link.watching:
            return " ".join(x for x in (i18n.t("online.watching"), words) if x)
        return words

    def _watch_text(self) -> str:
        s = self.game.face
        st = s.public()
        if self.link.resigned() and st.phase in ("plan", "place"):  # a resigned player watches their seat
            s_words = self._others_text(st)
            return " ".join(x for x in (i18n.t("online.you_resigned"), s_words) if x)
        if st.phase == "plan" and s.own_seat is None:  # a spectator has no plan to make
            return i18n.t("game.planning_wait", names=", ".join(s.seat_name(i) for i in st.to_act()))
        if st.phase == "plan":
            names = [s.seat_name(i) for i in st.to_act() if i != s.own_seat]
            if names:
                return i18n.t("online.planned_wait", names=", ".join(names))
            return i18n.t("online.sending") if s.move_pending else ""
        if st.phase == "place":
            seat = st.to_act()[0]
            if seat == s.own_seat and s.move_pending:  # sent, not yet back from the server
                return i18n.t("online.sending")
            return self._others_text(st)
        return ""

    def _others_text(self, st) -> str:
        """What the others are doing (this seat has nothing to do): who plans, who places (with
        their clock under a turn timer; "not connected" for a player who has dropped out)."""
        s = self.game.face
        if st.phase == "plan":
            return i18n.t("game.planning_wait", names=", ".join(s.seat_name(i) for i in st.to_act()))
        if st.phase != "place":
            return ""
        seat = st.to_act()[0]
        if seat == s.own_seat and s.plays_here():  # the reveal dialog is still over this turn
            return i18n.t("game.your_turn", name=s.seat_name(seat))
        if s.seats[seat].is_ai:
            return i18n.t("game.thinking", name=s.seat_name(seat))
        if s.seat_away(seat):
            return i18n.t("online.placing_away", name=s.seat_name(seat))
        left = self.link.clock_of(seat)
        if left is not None:
            return i18n.t("online.placing_clock", name=s.seat_name(seat), time=clock(left[0]))
        return i18n.t("online.placing", name=s.seat_name(seat))

    def covers(self) -> list[pygame.Rect]:
        """What this bar draws over the map now (the banner, the chat strip, the quick words): no
        map tooltip is shown through them."""
        talk = self.talk.box if self.talk.shown() else None
        out = [r for r in (self.box, talk) if r is not None]
        if talk is not None and self.talk.emotes_open:
            out += [e.rect for e in self.talk.emote_buttons]
        return out

    def draw(self, surf) -> None:
        """The banner (a lost connection, a player not connected), over everything but tooltips;
        none of the map's tooltips through it or the chat strip (``remote_feedback`` draws the
        strip, under the game's banners and the hint, which keep clear of it where they can)."""
        self._draw_banner(surf)
        if any(r.collidepoint(self.game._mouse) for r in self.covers()):
            self.game.tooltip.hide()  # (before the tooltip is drawn, after the frame chose it)

    def _draw_banner(self, surf) -> None:
        self.box = None
        lines, buttons = self.banner()
        if not lines:
            return
        sc = W.sc
        b = self.game.board_rect
        left, right = b.x + sc(220), b.right - sc(200)  # clear of the map's title and the hint button
        width = min(sc(720), right - left)
        imgs = [W.text(lines[0], "sans_bold", 17, W.TEXT_LIGHT, wrap=width - sc(40))]
        imgs += [W.text(x, "sans", 15, W.TEXT_LIGHT, wrap=width - sc(40)) for x in lines[1:]]
        bh = sc(40)
        h = sum(i.get_height() for i in imgs) + sc(6) * (len(imgs) - 1) + sc(24) + (bh + sc(10) if buttons else 0)
        box = pygame.Rect(0, 0, width, h)
        box.midtop = ((left + right) // 2, b.y + sc(10))
        W.panel(surf, box, (120, 30, 24), (240, 200, 120), 10, 2, alpha=242)
        y = box.y + sc(12)
        for img in imgs:
            surf.blit(img, (box.x + sc(20), y))
            y += img.get_height() + sc(6)
        x = box.right - sc(20)
        for btn in reversed(buttons):
            bw = max(sc(130), W.text(btn.label, "sans_semibold", btn.px).get_width() + sc(32))
            x -= bw
            btn.rect = pygame.Rect(x, box.bottom - sc(10) - bh, bw, bh)
            btn.draw(surf)
            x -= sc(10)
        self.box = box


class RemoteAssistBar(AssistBar):
    """Hints (from this seat's view) but no take-back: the server keeps the game."""

    def takeback_seat(self) -> Optional[int]:
        return None

    def take_back(self) -> None:
        self.app.toast(i18n.t("online.no_takeback"), 4)


def remote_feedback(face, screen: Screen, asks: Asks, online: RemoteBar) -> Feedback:
    """Sound and motion as in any game; the statistics count it as an online game, once, by the
    server's game id; the end chart from the rounds this computer saw (there is no full record);
    the chat strip (``online``'s) drawn first, the banners and the "Your turn" flash over it."""
    return Feedback(face, screen, asks, round_scores=lambda s: s.round_scores(),
                    under_banners=lambda surf: online.talk.draw(surf))


class RemoteMenuScene(MenuScene):
    """The game menu without saving (the server keeps the game); leaving stops a hosted server."""

    def layout(self, size) -> None:
        super().layout(size)
        save = next(w for w in self.widgets.items if isinstance(w, Button) and w.label == i18n.t("menu.save"))
        if self.can_resign():  # where saving would be: the server keeps the game, a player may leave it
            save.label, save.on_click = i18n.t("online.resign"), self.ask_resign
            save.sub = i18n.t("online.menu_resign_sub")
            self._quit_label()
            return
        step = self.widgets.items[1].rect.y - self.widgets.items[0].rect.y
        self.widgets.items.remove(save)
        self.box.h -= step
        for w in self.widgets.items:
            w.rect.y += step // 2 - (step if w.rect.y > save.rect.y else 0)  # the column closes up
        self.box.y += step // 2
        self._quit_label()

    def _quit_label(self) -> None:
        quit_button = self.widgets.items[-1]  # "Quit to title": leaving an online game
        if not isinstance(quit_button, Button):
            return
        if self.game.face.link.is_host:
            quit_button.label, quit_button.sub = i18n.t("online.menu_stop"), i18n.t("online.menu_stop_sub")
        else:
            quit_button.label = i18n.t("online.menu_leave")

    def can_resign(self) -> bool:
        """A seat's player, in a game still being played, whose seat is still theirs."""
        s = self.game.face
        t = s.link
        seat = s.own_seat
        return bool(t.token) and seat is not None and s.public().phase not in ("setup", "over") \
            and seat < len(t.seats) and t.seats[seat].kind == "human"

    def ask_resign(self) -> None:
        """Resign, once confirmed: the server's AI plays this seat to the end."""
        def resign() -> None:
            self.app.stack.pop()  # the question
            if not self.game.face.link.resign():
                self.app.toast(i18n.t("online.not_connected"), 4)
            self.close()  # back to the game, which goes on without this player

        self.app.stack.push("message", i18n.t("online.resign_heading"), i18n.t("online.resign_body"),
                            buttons=[(i18n.t("online.resign"), resign, "danger")], close_label=i18n.t("common.cancel"),
                            focus_close=True)  # Enter cancels: resigning cannot be undone
