"""The lobby of an online game (issue 14): the invite code in large letters (Copy), the addresses to
give friends, the seats (who is connected; the host turns open seats into AIs and back), Start;
then the game screen over a ``RemoteSession``."""
from __future__ import annotations

from functools import partial
import logging
from typing import Optional

import pygame

from ..net import protocol
from ..net.client import CONNECTED, CONNECTING, LOST
from ..net.remote import Table, level_of
from ..net.typed import lan_ip
from ..render import theme
from ..net.invite import format_invite, save_invite
from ..words import i18n
from ..ui import widgets as W
from ..ui.widgets import Button
from .base import Scene
from .new_game import ai_levels
from .online_common import (
    CODE_PX,
    FRIEND,
    code_text,
    copy_text,
    draw_backdrop,
    draw_crest,
    lost_lines,
    shown_address,
)

log = logging.getLogger(__name__)


# ---------------------------------------------------------------- the lobby

class LobbyScene(Scene):
    """Who sits where until the host starts; the code and the addresses to give friends."""

    name = "online_lobby"

    def __init__(self, app, table: Table, lan: Optional[bool] = None, port: Optional[int] = None):
        super().__init__(app)
        self.table = table
        self.lan = lan
        self.port = port
        self.levels = ai_levels()
        # hosting: (what the row says, the server's address there); each row shows its whole invite
        self.addresses: list[tuple[str, str]] = []
        self.only_local = port is not None and not lan
        if port is not None:  # this computer hosts: the invites friends paste
            ip = lan_ip() if lan else None
            at = table.server.url_at if table.server is not None else (lambda h: f"ws://{h}:{port}")
            if ip:
                self.addresses.append((i18n.t("online.invite_lan"), at(ip)))
            self.addresses.append((i18n.t("online.invite_local"), at("127.0.0.1")))
        else:  # a game on another computer's server: the invite it was reached by, to pass on
            self.addresses.append((i18n.t("online.invite_here"), table.url))
        self.portmap = getattr(table.server, "portmap", None)  # the router's forwarding, when asked for
        self._portmap_seen = None
        self._portmap_text = ""
        self.address_rows: list = []
        self._seen = -1
        self._status: Optional[str] = None
        self.box = pygame.Rect(0, 0, 0, 0)

    # ------------------------------------------------------------ layout

    def layout(self, size) -> None:
        t = self.table
        self._seen, self._status = t.changes, t.status
        self.widgets.clear()
        w, h = size
        sc = W.sc
        n = max(2, len(t.seats))
        rows = len(self.addresses) + (1 if self.portmap is not None and self._internet() else 0)
        need = (350 + 62 * n + 62 * rows + (34 if self.only_local else 0) + (96 if self.portmap else 0)
                + (26 if t.turn_secs and not t.is_host else 0))  # a guest's timer line
        seat_step = 62 if sc(need) <= h - 40 else 56  # a low window: the seats closer
        self.box = pygame.Rect(0, 0, min(sc(1180), w - 40), min(h - 40, sc(need - (62 - seat_step) * n)))
        self.box.center = (w // 2, h // 2)
        x0 = self.box.x + sc(40)
        y = self.box.y + sc(96)
        self.code_pos = (x0, y)
        code_w = W.text(code_text(t.code or "------"), "sans_bold", CODE_PX).get_width()
        self.copy_code = self.widgets.add(Button(i18n.t("online.copy_invite"), lambda: self.copy(self.invite()),
                                                 (x0 + code_w + sc(30), y + sc(36), sc(190), sc(40)),
                                                 style="secondary", px=17))
        self.copy_code.visible = bool(t.code)
        y += sc(112)
        # each way in: its label and Copy on one line, the whole invite (address, code,
        # fingerprint) under it, exactly the text Copy puts on the clipboard (issue 50)
        self.address_rows = []
        shown = list(self.addresses)
        self.portmap_pos = None
        if self.portmap is not None:
            self._portmap_seen = self.portmap.status
            self._portmap_text = self.portmap.line(lan_ip())
            internet = self._internet()
            if internet:
                shown.append((i18n.t("online.invite_internet"), internet))
        for label, address in shown:
            invite = format_invite(address, t.code)  # the address alone until the code is known
            self.address_rows.append((label, invite, (x0, y)))
            lw = W.text(label, "sans_semibold", 17).get_width()
            self.widgets.add(Button(i18n.t("online.copy"), partial(self.copy, invite),
                                    (x0 + lw + sc(16), y - sc(5), sc(90), sc(32)), style="secondary",
                                    px=15)).visible = bool(t.code)  # Copy copies only a whole invite
            y += sc(62)
        if self.only_local:
            self.only_local_pos = (x0, y - sc(4))
            y += sc(34)
        if self.portmap is not None:
            self.portmap_pos = (x0, y - sc(8))
            y += sc(62)
        y += sc(14)
        self.seat_top = y
        self.seat_rects = []
        for i, s in enumerate(t.seats):
            row = pygame.Rect(x0, y, self.box.w - sc(80), sc(54))
            self.seat_rects.append(row)
            if t.is_host and i != t.seat and s.kind in ("open", "ai"):
                choices = [(FRIEND, i18n.t("online.friend"))] + [(lv, i18n.t(f"level.{lv}")) for lv in self.levels]
                bw = sc(128)
                x = row.right - len(choices) * (bw + sc(6))
                current = FRIEND if s.kind == "open" else level_of(s.bot)
                for j, (kind, label) in enumerate(choices):
                    self.widgets.add(Button(label, partial(self.set_seat, i, kind),
                                            (x + j * (bw + sc(6)), row.y + sc(6), bw, sc(42)), style="secondary",
                                            selected=current == kind, px=16))
            y += sc(seat_step)
        self.message_y = y + sc(8)
        self.widgets.add(Button(i18n.t("online.leave"), self.leave_game,
                                (self.box.x + sc(40), self.box.bottom - sc(70), sc(150), sc(48)), style="secondary"))
        self.save_button = self.widgets.add(Button(i18n.t("online.save_invite"), self.save_invite,
                                                   (self.box.x + sc(206), self.box.bottom - sc(70), sc(250), sc(48)),
                                                   style="secondary", px=17))
        self.save_button.visible = bool(t.code)
        self.start_button = None
        if t.is_host:
            self.start_button = self.widgets.add(Button(i18n.t("online.start"), self.start,
                                                        (self.box.right - sc(280), self.box.bottom - sc(70), sc(240),
                                                         sc(48)), px=21))
            self.start_button.enabled = bool(t.seats) and not t.open_seats() and t.status == CONNECTED
        self.retry_button = self.widgets.add(Button(i18n.t("online.retry"), self.retry,
                                                    (self.box.centerx - sc(80), self.box.bottom - sc(70), sc(160),
                                                     sc(48)), style="secondary"))
        self.retry_button.visible = t.status == LOST and t.problem is None

    # ------------------------------------------------------------ actions

    def copy(self, text: str) -> None:
        """Copy ``text`` (an invite); where there is no clipboard, it goes to a file instead."""
        if text:
            copy_text(self.app, text, otherwise=lambda: self.save_invite(text, "online.invite_saved_no_copy"))

    def save_invite(self, text: str = "", key: str = "online.invite_saved") -> None:
        """Save the invite (``text``, else the big Copy's) to a file friends can be sent; say where."""
        text = text or self.invite()
        if not text or not self.table.code:
            return
        try:
            path = save_invite(text, self.table.code)
        except OSError as e:
            log.warning("the invite could not be saved: %r", e)
            self.app.toast(i18n.t("online.invite_not_saved", reason=e.strerror or str(e)), 8)
            return
        self.app.toast(i18n.t(key, path=str(path)), 15)

    def _internet(self) -> Optional[str]:
        """The address friends on the internet reach, once the router forwards the port."""
        t = self.table
        if self.portmap is None:
            return None
        return self.portmap.address(t.server.tls.pin if t.server is not None and t.server.tls else None)

    def invite(self) -> str:
        """The whole invite the big Copy copies: a host's first way in (the network's when open to
        it), a guest's own address; with the code and the fingerprint ("" before the code is known)."""
        t = self.table
        if not t.code:
            return ""
        return format_invite(self.addresses[0][1], t.code)

    def set_seat(self, seat: int, kind: str) -> None:
        if kind == FRIEND:
            self.table.set_seat(seat, "open")
        else:
            self.table.set_seat(seat, "ai", kind)

    def start(self) -> None:
        self.table.start()

    def retry(self) -> None:
        self.table.retry()
        self.layout(self.app.size)

    def leave_game(self) -> None:
        """Leave the lobby (``leave`` is the scene stack's hook, called when a scene goes)."""
        self.app.end_session()  # closes the table (and stops a hosted server)
        self.app.stack.pop(self)

    def handle(self, ev) -> bool:
        if ev.type == pygame.KEYDOWN and ev.key == pygame.K_ESCAPE:
            self.leave_game()
            return True
        return super().handle(ev)

    def update(self, dt) -> None:
        t = self.table
        t.tick()
        if t.notice:
            self.app.toast(t.notice, 5)
            t.notice = None
        if t.session is not None and t.problem is None:
            self.app.start_remote(t.session)  # the game screen replaces the lobby
            return
        if t.changes != self._seen or t.status != self._status or \
                (self.portmap is not None and self.portmap.status != self._portmap_seen):
            self.layout(self.app.size)

    # ------------------------------------------------------------ drawing

    def message(self) -> tuple[str, tuple]:
        t = self.table
        if t.problem:
            return t.problem, W.BAD
        if t.status == LOST:
            return " ".join(lost_lines(t) if t.joined else [t.error]), W.BAD
        if t.status == CONNECTING:
            return i18n.t("online.connecting", address=shown_address(t.url)), W.TEXT
        if t.is_host:
            return ("" if not t.open_seats() else i18n.t("online.start_needs")), W.TEXT_SOFT
        timer = i18n.t("online.lobby_timer", n=t.turn_secs) if t.turn_secs else ""  # the host's turn timer
        return " ".join(x for x in (i18n.t("online.wait_host"), timer) if x), W.TEXT_SOFT

    def seat_text(self, i: int, s: protocol.SeatInfo) -> tuple[str, str]:
        """(name, what it is) of a seat row."""
        t = self.table
        if s.kind == "open":
            return i18n.t("online.open_seat"), ""
        if s.kind == "ai":
            return i18n.t("game.ai_level", level=i18n.t(f"level.{level_of(s.bot)}")), ""
        marks = [i18n.t("online.connected") if s.connected else i18n.t("online.away")]
        if i == t.seat:
            marks.append(i18n.t("online.you_mark"))
        if i == 0:
            marks.append(i18n.t("online.hosting"))
        return s.name, ", ".join(marks)

    def portmap_line(self) -> str:
        """What came of asking the router (and how to forward by hand when it did not work)."""
        return self._portmap_text

    def visible_text(self) -> list[str]:
        t = self.table
        out = [t.code or ""] + [x for label, invite, _ in self.address_rows for x in (label, invite)]
        out += ([i18n.t("online.address_only_local")] if self.only_local else []) + \
            ([self.portmap_line()] if self.portmap else [])
        out += [" ".join(x for x in self.seat_text(i, s) if x) for i, s in enumerate(t.seats)]
        return out + [self.message()[0]] + super().visible_text()

    def draw(self, surf) -> None:
        draw_backdrop(self.app, surf)
        t = self.table
        sc = W.sc
        W.panel(surf, self.box, W.PANEL, W.PANEL_EDGE, 16, 3, alpha=246)
        W.blit_text(surf, i18n.t("online.lobby_heading"), (self.box.x + sc(40), self.box.y + sc(22)), "title", 44,
                    W.TEXT)
        x0, y = self.code_pos
        W.blit_text(surf, i18n.t("online.invite"), (x0, y), "sans_semibold", 17, W.TEXT_SOFT)
        W.blit_text(surf, code_text(t.code or ""), (x0, y + sc(24)), "sans_bold", CODE_PX, (110, 30, 24))
        cx = self.copy_code.rect.right + sc(24)
        if self.copy_code.visible:  # what Copy copies, said truthfully beside it
            W.blit_text(surf, i18n.t("online.copy_invite_hint" if self.port is not None else "online.copy_invite_guest"),
                        (cx, self.copy_code.rect.centery), "sans_italic", 16, W.TEXT_SOFT, "midleft",
                        wrap=self.box.right - sc(40) - cx)
        for label, invite, (x, y) in self.address_rows:
            W.blit_text(surf, label, (x, y), "sans_semibold", 17, W.TEXT)
            W.blit_text(surf, invite, (x, y + sc(27)), "sans", 16, W.TEXT, wrap=self.box.w - sc(80))
        if self.only_local:
            W.blit_text(surf, i18n.t("online.address_only_local"), self.only_local_pos, "sans_italic", 16,
                        W.TEXT_SOFT, wrap=self.box.w - sc(80))
        if self.portmap_pos is not None:
            W.blit_text(surf, self.portmap_line(), self.portmap_pos, "sans_italic", 15, W.TEXT_SOFT,
                        wrap=self.box.w - sc(80))
        for i, (s, row) in enumerate(zip(t.seats, self.seat_rects)):
            W.panel(surf, row, (248, 240, 222), W.PANEL_EDGE, 10, 1)
            draw_crest(surf, s.colour, (row.x + sc(24), row.centery), sc(24))
            name, marks = self.seat_text(i, s)
            r = W.blit_text(surf, name, (row.x + sc(48), row.centery), "sans_bold", 19, W.TEXT, "midleft")
            if s.kind == "human":
                dot = (row.x + sc(48) + r.w + sc(20), row.centery)
                pygame.draw.circle(surf, W.OK if s.connected else (170, 160, 146), dot, sc(7))
                pygame.draw.circle(surf, theme.INK, dot, sc(7), 1)
                W.blit_text(surf, marks, (dot[0] + sc(14), row.centery), "sans", 16, W.TEXT_SOFT, "midleft")
        text, colour = self.message()
        if text:
            W.blit_text(surf, text, (self.box.x + sc(40), self.message_y), "sans_semibold", 17, colour,
                        wrap=self.box.w - sc(80))
        self.widgets.draw(surf)
