"""Online play on the desktop (issue 14): host a game, join one, wait in the lobby, and what the
game screen adds for a game played over the network.

- ``HostScene``: your name, 2-4 seats (each other seat open for a friend or an AI level), "let
  other computers join"; it starts the server inside the game (``net.server.ServerThread``) and
  creates the game on it.
- ``JoinScene``: address, invite code and name, checked before anything is sent.
- ``ContinueScene``: the online games in progress this computer holds a seat of (kept by
  ``net.mygames``): continue one after closing the game (a hosted one starts its server again).
- ``LobbyScene`` (``scenes/lobby.py``): the invite code in large letters (Copy), the addresses to give friends, the
  seats (who is connected; the host turns open seats into AIs and back), Start; then the normal
  game screen over a ``RemoteSession``.
- ``RemoteBar`` (``scenes/remote.py``): the game screen's banners (connection lost with Retry; waiting for a player whose
  computer is not connected, with the host's "let the AI play" button) and its bottom-bar words;
  ``RemoteAssistBar`` (hints, no take-back), ``remote_feedback`` (the end chart from
  the rounds seen), ``RemoteMenuScene`` (no saving: the server keeps the game).

The table (``net.remote.Table``) is the App's (``app.table``): leaving closes its connection and
stops a hosted server (its games stay in the server's folder).
"""
from __future__ import annotations

from functools import partial
import logging
import os
from typing import Any, Optional

import pygame

from ..net import hosting, mygames, protocol
from ..net.invite import read_invite_file
from ..net.client import LOST
from ..net.portmap import PortMapping
from ..net.remote import COLOURS, Table
from ..net.typed import lan_ip, parse_address, parse_code, parse_invite, parse_name
from ..words import i18n
from ..ui import widgets as W
from ..ui.widgets import Button, TextField
from .base import Scene
from .form import Field, Fields, centred_box, draw_panel, paste
from .new_game import ai_levels, default_level
from .online_common import (
    FRIEND,
    draw_backdrop,
    draw_crest,
    game_detail,
    game_line,
    shown_address,
    remember_name,
    remembered_name,
)
from ..net.server import default_data_dir
from ..net.storage import FolderInUse

log = logging.getLogger(__name__)


class _Form(Scene):
    """A panel with a heading, labelled fields (``form``), other labelled rows and a message line
    (the host, join and server screens)."""

    heading_key = ""
    hint_key = ""

    def __init__(self, app: Any) -> None:
        super().__init__(app)
        self.error = ""
        self.form = Fields(())
        self.labels: list[tuple[str, tuple[int, int]]] = []  # the rows' labels that are not the fields'
        self.box = pygame.Rect(0, 0, 0, 0)
        self.message_y = 0

    def handle(self, ev) -> bool:
        if ev.type == pygame.KEYDOWN and ev.key == pygame.K_ESCAPE and not self.widgets.editing():
            self.back()
            return True
        if ev.type == pygame.KEYDOWN and ev.key == pygame.K_v and ev.mod & pygame.KMOD_CTRL and \
                paste(self.widgets, self.app):
            return True
        return super().handle(ev)

    def _give_up(self, t: Table, why: str) -> None:
        """The table ``t`` being opened was refused or lost (``tick_table``): said, and let go."""
        raise NotImplementedError

    def back(self) -> None:
        self.app.stack.pop(self)

    def tick_table(self) -> Optional[Table]:
        """Take the server's messages for the table being opened: the table while it can go on,
        None when there is none or it was given up (``_give_up`` says why)."""
        t: Optional[Table] = getattr(self, "table", None)
        if t is None:
            return None
        t.tick()
        if t.problem is not None or t.status == LOST:
            self._give_up(t, t.problem if t.problem is not None else t.error)
            return None
        return t

    def draw_form(self, surf, message_colour=W.BAD) -> None:
        draw_backdrop(self.app, surf)
        sc = W.sc
        draw_panel(surf, self.box, i18n.t(self.heading_key), i18n.t(self.hint_key))
        self.form.draw(surf)
        for text, pos in self.labels:
            W.blit_text(surf, text, pos, "sans_semibold", 18, W.TEXT, "midleft")
        if self.error:
            W.blit_text(surf, self.error, (self.box.x + sc(40), self.message_y), "sans_semibold", 17,
                        message_colour, wrap=self.box.w - sc(80))
        self.widgets.draw(surf)


# ---------------------------------------------------------------- hosting

def host_server(book: "mygames.Book", lan: bool, port: Optional[int] = None):
    """(the server started inside the game, "") or (None, why not, in words). It comes back on
    ``port`` (else the port this computer's last hosted server used) when that port is free."""
    try:
        return hosting.start_server(book, default_data_dir(), lan, port), ""
    except OSError as e:
        log.warning("the server could not start: %r", e)
        return None, (i18n.t("online.host_busy") if isinstance(e, FolderInUse) else
                      i18n.t("online.host_failed", reason=e.strerror or str(e)))


GRACE_CHOICES = (60, 120, 300, 600)  # seconds a dropped player's seat is kept (the host's choice; 2 minutes first)
TIMER_CHOICES = (None, 30, 60, 120)  # a turn timer (none by default): then the AI plays that seat's move
MOVE_HOURS = (24, 72, 12)  # a turn-based game's time per move on a server (issue 47; a day first)
MISSED_CHOICES = (3, 5, 2)  # missed moves in a row before the AI takes the seat for good


def duration_words(secs: Optional[int]) -> str:
    if secs is None:
        return i18n.t("online.turn_timer_off")
    return i18n.t("online.minutes", n=secs // 60) if secs % 60 == 0 else i18n.t("online.seconds", n=secs)


class HostScene(_Form):
    """Choose your name and the seats, the grace period and a turn timer, then host: the server
    starts inside the game. With ``server`` (an address, from "Play on a server"): the game is
    created on that server instead, listed in its open games (issue 50)."""

    name = "online_host"

    def __init__(self, app, server: Optional[str] = None, player: str = ""):
        super().__init__(app)
        self.server = server
        self.heading_key = "servers.create_heading" if server else "online.host_heading"
        self.hint_key = "servers.create_hint" if server else "online.host_hint"
        self.levels = ai_levels()
        level = default_level(self.levels)
        self.count = 2
        self.kinds = [FRIEND, FRIEND, level, level]  # seats 1-3: a friend or an AI level
        self.lan = False  # a server open to the network only when the host asks for it
        self.portmap = False  # ask the router to forward the port (UPnP): only when the host asks for it
        self.player_name = player or remembered_name(app)  # typed first (or as last time): friends see it on their screens
        self.grace = protocol.GRACE_DEFAULT
        self.turn_secs: Optional[int] = None
        self.pace, self.move_hours, self.missed_limit = "live", MOVE_HOURS[0], MISSED_CHOICES[0]  # on a server
        self.form = Fields((Field("name", "online.your_name", self.player_name, 300, 24),))
        self.range_values: list[str] = ["", ""]
        self.range_fields: list[TextField] = []  # t47lobby: a server's table's rating range

    @property
    def name_field(self) -> Optional[TextField]:
        """The host's name (once laid out)."""
        return self.form.field("name") if self.form.fields else None

    def layout(self, size) -> None:
        self.widgets.clear()
        self.labels = []
        sc = W.sc
        need = 558 + 58 * self.count + (58 if self.server else 0)  # on a server: pace and rating range rows
        self.box = centred_box(size, sc(1080), sc(need))
        step = sc(58) if self.box.h >= sc(need) else sc(50)  # a low window: the rows closer
        x0, lx = self.box.x + sc(40), self.box.x + sc(300)
        y = self.box.y + sc(124)
        self.form.layout(self.widgets, x0, lx, y)
        self.player_name = self.form.value("name")
        if not self.player_name:
            self.form.edit("name")
        y += step + sc(4)
        self.labels.append((i18n.t("online.players"), (x0, y + sc(22))))
        for i, n in enumerate((2, 3, 4)):
            self.widgets.add(Button(str(n), partial(self.set_count, n), (lx + i * sc(70), y, sc(60), sc(44)),
                                    style="secondary", selected=(n == self.count)))
        y += step + sc(4)
        self.seat_rows = []
        for i in range(self.count):
            self.labels.append((i18n.t("online.seat", n=i + 1), (x0 + sc(40), y + sc(22))))
            self.seat_rows.append((COLOURS[i], (x0 + sc(14), y + sc(22))))
            if i == 0:
                self.labels.append((i18n.t("online.you"), (lx, y + sc(22))))
            else:
                choices = [(FRIEND, i18n.t("online.friend"))] + [(lv, i18n.t(f"level.{lv}")) for lv in self.levels]
                bw = min(sc(150), (self.box.right - sc(40) - lx) // len(choices) - sc(6))
                for j, (kind, label) in enumerate(choices):
                    self.widgets.add(Button(label, partial(self.set_kind, i, kind),
                                            (lx + j * (bw + sc(6)), y, bw, sc(44)), style="secondary",
                                            selected=self.kinds[i] == kind, px=16))
            y += step
        # the grace period and the turn timer: one row of two buttons, each click the next choice
        self.labels.append((i18n.t("online.timing_label"), (x0, y + sc(22))))
        bw = min(sc(260), (self.box.right - sc(40) - lx) // 2 - sc(6))
        self.grace_button = self.widgets.add(Button(
            i18n.t("online.grace_button", time=duration_words(self.grace)), self.next_grace, (lx, y, bw, sc(44)),
            style="secondary", px=16))
        self.timer_button = self.widgets.add(Button(
            i18n.t("online.turn_timer_button", time=duration_words(self.turn_secs)), self.next_timer,
            (lx + bw + sc(12), y, bw, sc(44)), style="secondary", px=16, selected=self.turn_secs is not None))
        self.grace_button.enabled = self.timer_button.enabled = self.pace == "live"  # turn-based: its own times
        y += step + sc(10) - (sc(58) - step)
        self.lan_y = y + sc(54)
        if not self.server:
            self._lan_row(lx, x0, y)
        else:
            self._pace_row(lx, x0, y)
            self._range_row(lx, x0, y + step)
        self.message_y = self.box.bottom - sc(120)
        self.widgets.add(Button(i18n.t("common.back"), self.back,
                                (self.box.x + sc(40), self.box.bottom - sc(70), sc(150), sc(48)), style="secondary"))
        self.host_button = self.widgets.add(Button(i18n.t("servers.create_button" if self.server else
                                                          "online.host_button"), self.host,
                                                   (self.box.right - sc(240), self.box.bottom - sc(70), sc(200),
                                                    sc(48)), px=21))

    def _lan_row(self, lx: int, x0: int, y: int) -> None:
        """Let other computers join (on, off) and, when on, ask the router for the port."""
        sc = W.sc
        self.labels.append((i18n.t("online.lan"), (x0, y + sc(22))))
        for j, (on, key) in enumerate(((True, "settings.on"), (False, "settings.off"))):
            self.widgets.add(Button(i18n.t(key), partial(self.set_lan, on), (lx + j * sc(110), y, sc(100),
                                                                                     sc(44)),
                                    style="secondary", selected=self.lan == on, px=17))
        if self.lan:  # opening the router's port is asked apart: it lets the internet in
            self.widgets.add(Button(i18n.t("online.portmap"), self.toggle_portmap,
                                    (lx + sc(240), y, min(sc(330), self.box.right - sc(40) - lx - sc(240)), sc(44)),
                                    style="secondary", selected=self.portmap, px=16))

    def _pace_row(self, lx: int, x0: int, y: int) -> None:
        """On a server: live or turn-based (issue 47), and a turn-based game's time per move and
        missed moves before the AI takes a seat (each click the next choice)."""
        sc = W.sc
        self.labels.append((i18n.t("pace.label"), (x0, y + sc(22))))
        x = lx
        for pace, bw in (("live", sc(110)), ("turn", sc(160))):
            self.widgets.add(Button(i18n.t(f"pace.{pace}"), partial(self.set_pace, pace), (x, y, bw, sc(44)),
                                    style="secondary", selected=self.pace == pace, px=16))
            x += bw + sc(8)
        if self.pace == "turn":
            bw = min(sc(220), (self.box.right - sc(40) - x) // 2 - sc(6))
            self.widgets.add(Button(i18n.t("pace.hours_button", hours=self.move_hours),
                                    lambda: self.next_pace_choice("move_hours", MOVE_HOURS), (x, y, bw, sc(44)),
                                    style="secondary", px=16))
            self.widgets.add(Button(i18n.t("pace.missed_button", n=self.missed_limit),
                                    lambda: self.next_pace_choice("missed_limit", MISSED_CHOICES),
                                    (x + bw + sc(8), y, bw, sc(44)), style="secondary", px=16))

    def set_pace(self, pace: str) -> None:
        self.pace = pace
        if pace == "turn":
            self.turn_secs = None  # a turn-based game has its time per move instead
        self._relayout()

    def next_pace_choice(self, what: str, choices: tuple[int, ...]) -> None:
        now = getattr(self, what)
        setattr(self, what, choices[(choices.index(now) + 1) % len(choices)] if now in choices else choices[0])
        self._relayout()

    def _range_row(self, lx: int, x0: int, y: int) -> None:
        """t47lobby: the ratings a table on a server admits, from and to (blank: no limit)."""
        sc = W.sc
        if self.range_fields:
            self.range_values = [f.value for f in self.range_fields]
        self.labels.append((i18n.t("lobby.range_label"), (x0, y + sc(22))))
        self.range_fields = [self.widgets.add(TextField(v, (lx + k * sc(150), y, sc(110), sc(44)), max_len=4))
                             for k, v in enumerate(self.range_values)]
        self.labels.append(("-", (lx + sc(120), y + sc(22))))
        self.labels.append((i18n.t("lobby.range_blank"), (lx + sc(290), y + sc(22))))

    def rating_range(self) -> Optional[tuple[Optional[int], Optional[int]]]:
        """(from, to) typed (None: blank), or None with the reason in ``self.error``."""
        out: list[Optional[int]] = []
        for f in self.range_fields:
            text = f.value.strip().replace("\u2212", "-")  # a typographic minus reads as one
            if not text:
                out.append(None)
                continue
            value = int(text) if text.lstrip("-").isdigit() else None
            if value is None or not -100 <= value <= 200:
                self.error = i18n.t("lobby.range_bad", value=f.value.strip())
                return None
            out.append(value)
        low, high = (out + [None, None])[:2]
        if low is not None and high is not None and low > high:
            self.error = i18n.t("lobby.range_empty", low=low, high=high)
            return None
        return low, high

    def _relayout(self) -> None:
        self.layout(self.app.size)

    def set_count(self, n: int) -> None:
        self.count = n
        self._relayout()

    def set_kind(self, seat: int, kind: str) -> None:
        self.kinds[seat] = kind
        self._relayout()

    def set_lan(self, on: bool) -> None:
        self.lan = on
        self._relayout()

    def next_grace(self) -> None:
        i = GRACE_CHOICES.index(self.grace) if self.grace in GRACE_CHOICES else -1
        self.grace = GRACE_CHOICES[(i + 1) % len(GRACE_CHOICES)]
        self._relayout()

    def next_timer(self) -> None:
        i = TIMER_CHOICES.index(self.turn_secs) if self.turn_secs in TIMER_CHOICES else -1
        self.turn_secs = TIMER_CHOICES[(i + 1) % len(TIMER_CHOICES)]
        self._relayout()

    def toggle_portmap(self) -> None:
        self.portmap = not self.portmap
        self._relayout()

    def seat_requests(self) -> list[protocol.SeatRequest]:
        out = [protocol.SeatRequest(kind="host", colour=COLOURS[0])]
        for i in range(1, self.count):
            k = self.kinds[i]
            out.append(protocol.SeatRequest(kind="open", colour=COLOURS[i]) if k == FRIEND else
                       protocol.SeatRequest(kind="ai", colour=COLOURS[i], bot=k))
        return out

    def host(self) -> None:
        """Start the server in the game, create the game on it, and wait in the lobby."""
        name, why = parse_name(self.form.value("name"))
        if name is None:
            self.error = why
            return
        remember_name(self.app, name)
        book = mygames.Book()
        if self.server:  # on a server: created there and listed; the lobby waits for players
            limits = self.rating_range()
            if limits is None:
                return
            self.app.end_session()
            turn = self.pace == "turn"
            self.app.table = Table.host(self.server, name, self.seat_requests(), self.app.content, book=book,
                                        grace=self.grace, turn_secs=None if turn else self.turn_secs, listed=True,
                                        pace=self.pace, move_hours=self.move_hours if turn else 0,
                                        missed_limit=self.missed_limit, rating_min=limits[0], rating_max=limits[1])
            self.app.stack.pop(self)
            self.app.stack.push("online_lobby", self.app.table)
            return
        server, self.error = host_server(book, self.lan)
        if server is None:
            return
        if self.lan and self.portmap:  # asked in a thread; the lobby says what came of it
            server.portmap = PortMapping(server.port).start()
            server.on_stop.append(server.portmap.remove)
        self.app.end_session()
        table = Table.host(server.url_at("127.0.0.1"), name, self.seat_requests(), self.app.content,
                           server=server, book=book, lan=self.lan, grace=self.grace, turn_secs=self.turn_secs)
        self.app.table = table
        self.app.stack.pop(self)
        self.app.stack.push("online_lobby", table, lan=self.lan, port=server.port)

    def draw(self, surf) -> None:
        self.draw_form(surf)
        for colour, pos in self.seat_rows:
            draw_crest(surf, colour, pos, W.sc(22))
        if not self.server:
            W.blit_text(surf, i18n.t("online.lan_on" if self.lan else "online.lan_off"),
                        (self.box.x + W.sc(300), self.lan_y), "sans_italic", 16, W.TEXT_SOFT,
                        wrap=self.box.right - W.sc(40) - self.box.x - W.sc(300))
        self.widgets.draw(surf)


# ---------------------------------------------------------------- joining

class JoinScene(_Form):
    """Address, invite code and name; checked here, then asked of the host's game."""

    name = "online_join"
    heading_key = "online.join_heading"
    hint_key = "online.join_hint"

    def __init__(self, app, address: str = "", code: str = "", player: str = ""):
        super().__init__(app)
        self.form = Fields((Field("address", "online.address", address, 440, 300, step=84),  # a whole invite; its
                            Field("code", "online.code", code, 220, 9),  # example under it
                            Field("name", "online.your_name", player or remembered_name(app), 300, 24)))
        self.table: Optional[Table] = None
        self.connecting_to = ""

    @property
    def fields(self) -> list[TextField]:
        """The address, code and name fields (laid out)."""
        return self.form.fields

    def layout(self, size) -> None:
        self.widgets.clear()
        self.labels = []
        sc = W.sc
        self.box = centred_box(size, sc(980), sc(560))
        y = self.form.layout(self.widgets, self.box.x + sc(40), self.box.x + sc(250), self.box.y + sc(130))
        self.example_y = self.box.y + sc(130 + 48)
        self.message_y = y + sc(8)
        self.widgets.add(Button(i18n.t("common.back"), self.back,
                                (self.box.x + sc(40), self.box.bottom - sc(70), sc(150), sc(48)), style="secondary"))
        self.join_button = self.widgets.add(Button(i18n.t("online.join_button"), self.join,
                                                   (self.box.right - sc(220), self.box.bottom - sc(70), sc(180),
                                                    sc(48)), px=21))
        self.join_button.enabled = self.table is None
        self.watch_button = self.widgets.add(Button(i18n.t("online.watch"), self.watch,
                                                    (self.box.right - sc(440), self.box.bottom - sc(70), sc(200),
                                                     sc(48)), style="secondary", px=18))
        self.watch_button.enabled = self.table is None
        if not (self.form.value("address") or self.form.value("code")):
            self.form.edit("address")  # type at once (the name may be the one remembered)

    def handle(self, ev) -> bool:
        if ev.type == pygame.DROPFILE and self.fields:  # an invite file dropped on the window
            self.open_invite_file(ev.file)
            return True
        return super().handle(ev)

    def open_invite_file(self, path: str) -> None:
        invite = read_invite_file(path)
        if invite is None:
            self.error = i18n.t("online.invite_file_bad", file=os.path.basename(path)[:60])
            return
        self.form.set("address", invite)
        self.form.set("code", "")
        self.error = ""

    def _target(self) -> Optional[tuple[str, str]]:
        """The server's address and the game's code from the first two fields (a pasted invite
        carries the code too; so does an invite file's path), or None with the reason in ``self.error``."""
        address, code = self.form.value("address"), self.form.value("code")
        if address.strip().strip('"').lower().endswith(".txt"):  # an invite file's path, typed or pasted
            invite = read_invite_file(address)
            if invite is None:
                self.error = i18n.t("online.invite_file_bad", file=os.path.basename(address.strip())[:60])
                return None
            address = invite
        url, invited, why = parse_invite(address)
        if url is None:
            self.error = why
            return None
        if not code.strip() and invited is None:  # an address alone: say what is missing
            self.error = i18n.t("online.code_missing")
            return None
        parsed, why = parse_code(code if code.strip() or invited is None else invited)
        if parsed is None:
            self.error = why
            return None
        return url, parsed

    def join(self) -> None:
        if self.table is not None:
            return
        target = self._target()
        if target is None:
            return
        url, code = target
        player, why = parse_name(self.form.value("name"))
        if player is None:
            self.error = why
            return
        remember_name(self.app, player)
        self.app.end_session()
        self._connecting(Table.join(url, code, player, self.app.content, book=mygames.Book()), url)
        self.join_button.enabled = False

    def watch(self) -> None:
        """Watch with the invite code (no name: a spectator has no seat and says nothing)."""
        if self.table is not None:
            return
        target = self._target()
        if target is None:
            return
        url, code = target
        self.app.end_session()
        self._connecting(Table.watch(url, code, self.app.content), url)
        self.join_button.enabled = self.watch_button.enabled = False

    def _connecting(self, table: Table, url: str) -> None:
        """A join or a watch is under way: the app holds its table (closed if the player leaves)."""
        self.table = self.app.table = table
        self.connecting_to = shown_address(url)
        self.error = ""

    def _give_up(self, t: Table, why: str) -> None:
        self.error = why
        if self.app.table is t:
            self.app.table = None
        t.close()
        self.table = None
        self.join_button.enabled = self.watch_button.enabled = True

    def update(self, dt) -> None:
        t = self.tick_table()
        if t is None:
            return
        if t.watching:  # a spectator goes to the game screen once the game has begun
            if t.session is not None:
                self.table = None
                self.app.start_remote(t.session)
            return
        if t.joined and t.seats:
            self.table = None
            self.app.stack.pop(self)
            self.app.stack.push("online_lobby", t)

    def back(self) -> None:
        if self.table is not None:
            self.app.end_session()  # closes the table
            self.table = None
        super().back()

    def draw(self, surf) -> None:
        self.draw_form(surf)
        sc = W.sc
        W.blit_text(surf, i18n.t("online.address_example"), (self.box.x + sc(250), self.example_y), "sans_italic",
                    15, W.TEXT_SOFT)
        if self.table is not None:
            t = self.table
            words = i18n.t("online.watch_wait") if t.watching and t.joined else \
                i18n.t("online.connecting", address=self.connecting_to)
            W.blit_text(surf, words,
                        (self.box.x + sc(40), self.message_y), "sans_semibold", 17, W.TEXT, wrap=self.box.w - sc(80))
        self.widgets.draw(surf)


# ---------------------------------------------------------------- continuing after closing the game

class ContinueScene(_Form):
    """The online games in progress that this computer holds a seat of: continue one. A hosted
    game starts the server again (on its port when free; the games come back from its folder)
    and takes the host's seat back with its token; a joined game comes back at the address it
    was joined at, or at another one the player types (the host may be at a new address)."""

    name = "online_continue"
    heading_key = "online.continue_heading"
    hint_key = "online.continue_hint"
    SHOWN = 5  # rows at most (the latest joined first)

    def __init__(self, app, games: list, start: bool = False):
        super().__init__(app)
        self.games = list(games)[: self.SHOWN]
        self.book = mygames.Book()
        self.table: Optional[Table] = None
        self.trying: Optional[mygames.MyGame] = None  # the game being continued
        self.failed: Optional[mygames.MyGame] = None  # a joined game nobody answered for: another address?
        self.address_field: Optional[TextField] = None
        self.address = ""
        self.rows: list[pygame.Rect] = []
        self.message_colour = W.BAD
        self.moved_port: Optional[int] = None  # a hosted game back on a new port (friends need it)
        if start and self.games:
            self.go(self.games[0])

    def layout(self, size) -> None:
        if self.address_field is not None:
            self.address = self.address_field.value
        self.widgets.clear()
        self.labels = []
        self.address_field = None
        w, h = size
        sc = W.sc
        n = max(1, len(self.games))
        extra = sc(70) if self.failed is not None else 0
        self.box = pygame.Rect(0, 0, min(sc(1080), w - 40), min(h - 40, sc(300 + 74 * n) + extra))
        self.box.center = (w // 2, h // 2)
        x0 = self.box.x + sc(40)
        y = self.box.y + sc(124)
        self.rows = []
        for g in self.games:
            row = pygame.Rect(x0, y, self.box.w - sc(80), sc(64))
            self.rows.append(row)
            b = self.widgets.add(Button(i18n.t("online.continue_button"), partial(self.go, g),
                                        (row.right - sc(330), row.y + sc(10), sc(170), sc(44)), px=18))
            b.enabled = self.table is None
            r = self.widgets.add(Button(i18n.t("online.forget"), partial(self.ask_forget, g),
                                        (row.right - sc(150), row.y + sc(10), sc(140), sc(44)), style="secondary",
                                        px=16))
            r.enabled = self.table is None
            y += sc(74)
        if not self.games:
            y += sc(20)
        if self.failed is not None:
            y += sc(6)
            self.labels.append((i18n.t("online.address_for", code=self.failed.code), (x0, y + sc(22))))
            self.address_field = self.widgets.add(TextField(self.address, (x0 + sc(230), y, sc(400), sc(44)),
                                                            max_len=80))
            self.widgets.add(Button(i18n.t("online.try_address"), self.try_address,
                                    (x0 + sc(650), y, sc(260), sc(44)), px=17)).enabled = self.table is None
            y += sc(62)
        self.message_y = y + sc(4)
        self.widgets.add(Button(i18n.t("common.back"), self.back,
                                (self.box.x + sc(40), self.box.bottom - sc(70), sc(150), sc(48)), style="secondary"))

    def _relayout(self) -> None:
        self.layout(self.app.size)

    # ------------------------------------------------------------ continuing

    def go(self, g: "mygames.MyGame", address: Optional[str] = None) -> None:
        """Continue ``g``: start its server again if this computer hosts it, then take the seat back."""
        if self.table is not None:
            return
        self.error = ""
        self.failed = None
        self.moved_port = None
        server = None
        url = address or g.address
        if g.host:
            server, why = host_server(self.book, g.lan, g.port)
            if server is None:
                self.error = why
                self._relayout()
                return
            url = server.url_at("127.0.0.1")
            if g.port and server.port != g.port:  # friends need the new address (the lobby shows it)
                self.moved_port = server.port
        self.app.end_session()
        self.table = Table.resume(url, g.game, g.token, self.app.content, server=server, book=self.book, lan=g.lan)
        self.table.player_name = g.name or None
        self.app.table = self.table
        self.trying = g
        self.message_colour = W.TEXT
        self.error = i18n.t("online.connecting", address=shown_address(url))
        self._relayout()

    def try_address(self) -> None:
        g = self.failed
        if g is None or self.table is not None:
            return
        url, why = parse_address(self.address_field.value if self.address_field else self.address)
        if url is None:
            self.message_colour = W.BAD
            self.error = why
            return
        self.go(g, url)

    def _give_up(self, t: Table, why: str) -> None:
        g = self.trying
        if self.app.table is t:
            self.app.table = None
        t.close()
        self.table = None
        self.trying = None
        self.message_colour = W.BAD
        if t.problem is not None and g is not None:  # the host's game does not know it, or refused the seat:
            self.games = [x for x in self.games if x.key() != g.key()]
            self.error = " ".join([why, i18n.t("online.mine_removed")])  # off the list
        elif g is not None and not g.host:  # nobody answered: the host may be at a new address
            self.failed = g
            self.address = t.url
            self.error = " ".join([why, i18n.t("online.mine_new_address")])
        else:
            self.error = why
        self._relayout()

    def ask_forget(self, g: "mygames.MyGame") -> None:
        def forget() -> None:
            self.book.forget(g.game, g.token)
            self.games = [x for x in self.games if x.key() != g.key()]
            if self.failed is not None and self.failed.key() == g.key():
                self.failed = None
            self.app.stack.pop()
            self._relayout()
        self.app.stack.push("message", i18n.t("online.forget_heading"),
                            i18n.t("online.forget_body", game=game_line(g), code=g.code),
                            buttons=[(i18n.t("online.forget"), forget)], close_label=i18n.t("common.cancel"))

    def back(self) -> None:
        if self.table is not None:
            self.app.end_session()  # closes the table (and a server started for it)
            self.table = None
        super().back()

    def update(self, dt) -> None:
        t = self.tick_table()
        if t is None:
            return
        if t.session is not None:
            self.table = None
            self._moved_notice(t)
            self.app.start_remote(t.session)  # the game screen, where the game was
        elif t.joined and t.seats and not t.started:
            self.table = None
            self.app.stack.pop(self)
            self.app.stack.push("online_lobby", t, lan=t.lan if t.server else None,
                                port=t.server.port if t.server else None)

    def _moved_notice(self, t: Table) -> None:
        """A hosted game back on a new port: the address friends need now (the game screen has no lobby)."""
        port = self.moved_port
        if t.server is not None and port:
            ip = lan_ip() if t.lan else None
            self.app.toast(i18n.t("online.moved", address=t.server.url_at(ip or "127.0.0.1")), 12)

    # ------------------------------------------------------------ drawing

    def visible_text(self) -> list[str]:
        out = [x for g in self.games for x in (game_line(g), game_detail(g))]
        return out + [self.error] + super().visible_text()

    def draw(self, surf) -> None:
        self.draw_form(surf, self.message_colour)
        sc = W.sc
        for g, row in zip(self.games, self.rows):
            W.panel(surf, row, (248, 240, 222), W.PANEL_EDGE, 10, 1)
            draw_crest(surf, g.colour or COLOURS[g.seat % len(COLOURS)], (row.x + sc(26), row.centery), sc(24))
            room = row.w - sc(390)
            W.blit_text(surf, W.fit_text(game_line(g), "sans_bold", 19, room), (row.x + sc(52), row.y + sc(8)),
                        "sans_bold", 19, W.TEXT)
            W.blit_text(surf, W.fit_text(game_detail(g), "sans", 16, room), (row.x + sc(52), row.y + sc(36)), "sans",
                        16, W.TEXT_SOFT)
        if not self.games:
            W.blit_text(surf, i18n.t("online.mine_none"), (self.box.x + sc(40), self.box.y + sc(130)), "sans", 18,
                        W.TEXT_SOFT)
        self.widgets.draw(surf)
