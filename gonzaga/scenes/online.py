"""Online play on the desktop (issue 14): host a game, join one, wait in the lobby, and what the
game screen adds for a game played over the network.

- ``HostScene``: your name, 2-4 seats (each other seat open for a friend or an AI level), "let
  other computers join"; it starts the server inside the game (``net.server.ServerThread``) and
  creates the game on it.
- ``JoinScene``: address, invite code and name, checked before anything is sent.
- ``ContinueScene``: the online games in progress this computer holds a seat of (kept by
  ``net.mygames``): continue one after closing the game (a hosted one starts its server again).
- ``LobbyScene``: the invite code in large letters (Copy), the addresses to give friends, the
  seats (who is connected; the host turns open seats into AIs and back), Start; then the normal
  game screen over a ``RemoteSession``.
- ``RemoteBar``: the game screen's banners (connection lost with Retry; waiting for a player whose
  computer is not connected, with the host's "let the AI play" button) and its bottom-bar words;
  ``RemoteAssistBar`` (hints, no take-back), ``RemoteFeedback`` (no statistics; the end chart from
  the rounds seen), ``RemoteMenuScene`` (no saving: the server keeps the game).

The table (``net.remote.Table``) is the App's (``app.table``): leaving closes its connection and
stops a hosted server (its games stay in the server's folder).
"""
from __future__ import annotations

import logging
from typing import Optional

import pygame

from ..net import mygames, protocol
from ..net.client import CONNECTED, CONNECTING, LOST
from ..net.remote import COLOURS, Table, lan_ip, level_of, parse_address, parse_code, parse_name
from ..render import pieces, theme
from ..words import i18n
from ..ui import widgets as W
from ..ui.widgets import Button, TextField
from .assist import AssistBar
from .base import Scene
from .feedback import Feedback
from .new_game import ai_levels, default_level
from .overlays import MenuScene

log = logging.getLogger(__name__)

FRIEND = "friend"


# ---------------------------------------------------------------- the clipboard

def copy_text(app, text: str) -> bool:
    """Put ``text`` on the clipboard and say so; where there is no clipboard, say what to do."""
    try:
        pygame.scrap.put_text(text)  # pygame-ce 2.2+: SDL's clipboard, no init needed
    except Exception as e:  # no clipboard (pygame.scrap missing, or no window system): not an error
        log.info("no clipboard: %r", e)
        app.toast(i18n.t("online.copy_off"), 5)
        return False
    app.toast(i18n.t("online.copied", text=text))
    return True


def paste_text() -> Optional[str]:
    """The clipboard's text (one line), or None where there is no clipboard."""
    try:
        text = pygame.scrap.get_text()
    except Exception as e:
        log.info("no clipboard: %r", e)
        return None
    return " ".join(str(text or "").split())


def lost_lines(t: Table) -> list[str]:
    """What a lost connection's banner says: that it was lost, why (when that says more), and
    that the game is safe."""
    lines = [i18n.t("online.lost")]
    if t.error and t.error != i18n.t("online.err_lost"):
        lines.append(t.error)
    return lines + [i18n.t("online.lost_safe")]


def _backdrop(app, surf) -> None:
    title = app.stack.scenes[0] if app.stack.scenes else None
    if hasattr(title, "backdrop"):
        title.backdrop.draw(surf)
    else:
        surf.fill(W.BG)


CODE_PX = 56


def _code_text(code: str) -> str:
    """The invite code as shown: a thin space between letters (read out over a phone, copied by eye)."""
    return "\u2009".join(code)


def _crest(surf, colour: str, centre, size: int) -> None:
    c = pieces.crest(colour, size)
    surf.blit(c, c.get_rect(center=centre))


class _Form(Scene):
    """A panel with a heading, labelled rows and a message line (the host and join screens)."""

    heading_key = ""
    hint_key = ""

    def __init__(self, app):
        super().__init__(app)
        self.error = ""
        self.labels: list[tuple[str, tuple[int, int]]] = []
        self.box = pygame.Rect(0, 0, 0, 0)

    def handle(self, ev) -> bool:
        if ev.type == pygame.KEYDOWN and ev.key == pygame.K_ESCAPE and not self.widgets.editing():
            self.back()
            return True
        if ev.type == pygame.KEYDOWN and ev.key == pygame.K_v and ev.mod & pygame.KMOD_CTRL:
            field = next((w for w in self.widgets.items if isinstance(w, TextField) and w.editing), None)
            if field is not None:
                text = paste_text()
                if text is None:
                    self.app.toast(i18n.t("online.paste_off"))
                else:
                    field.value = (field.value + text)[: field.max_len]
                return True
        return super().handle(ev)

    def back(self) -> None:
        self.app.stack.pop(self)

    def tick_table(self) -> Optional[Table]:
        """Take the server's messages for the table being opened: the table while it can go on,
        None when there is none or it was given up (``_give_up`` says why)."""
        t = getattr(self, "table", None)
        if t is None:
            return None
        t.tick()
        if t.problem is not None or t.status == LOST:
            self._give_up(t.problem if t.problem is not None else t.error)
            return None
        return t

    def draw_form(self, surf, message_colour=W.BAD) -> None:
        _backdrop(self.app, surf)
        sc = W.sc
        W.panel(surf, self.box, W.PANEL, W.PANEL_EDGE, 16, 3, alpha=246)
        r = W.blit_text(surf, i18n.t(self.heading_key), (self.box.x + sc(40), self.box.y + sc(22)), "title", 44,
                        W.TEXT)
        W.blit_text(surf, i18n.t(self.hint_key), (self.box.x + sc(40), r.bottom + sc(4)), "sans", 16, W.TEXT_SOFT,
                    wrap=self.box.w - sc(120))
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
        from ..net.server import default_data_dir
    except Exception:  # a build without the server: said plainly, the log has the cause
        log.exception("the online server cannot be loaded")
        return None, i18n.t("online.unavailable")
    try:
        return mygames.start_server(book, default_data_dir(), lan, port), ""
    except OSError as e:
        log.warning("the server could not start: %r", e)
        return None, (i18n.t("online.host_busy") if "another server" in str(e) else
                      i18n.t("online.host_failed", reason=e.strerror or str(e)))


class HostScene(_Form):
    """Choose your name and the seats, then host: the server starts inside the game."""

    name = "online_host"
    heading_key = "online.host_heading"
    hint_key = "online.host_hint"

    def __init__(self, app):
        super().__init__(app)
        self.levels = ai_levels()
        level = default_level(self.levels)
        self.count = 2
        self.kinds = [FRIEND, FRIEND, level, level]  # seats 1-3: a friend or an AI level
        self.lan = False  # a server open to the network only when the host asks for it
        self.player_name = ""  # typed first: friends see it on their screens
        self.name_field: Optional[TextField] = None

    def layout(self, size) -> None:
        if self.name_field is not None:
            self.player_name = self.name_field.value
        self.widgets.clear()
        self.labels = []
        w, h = size
        sc = W.sc
        self.box = pygame.Rect(0, 0, min(sc(1080), w - 40), min(h - 40, sc(500 + 58 * self.count)))
        self.box.center = (w // 2, h // 2)
        x0, lx = self.box.x + sc(40), self.box.x + sc(300)
        y = self.box.y + sc(124)
        self.labels.append((i18n.t("online.your_name"), (x0, y + sc(22))))
        self.name_field = self.widgets.add(TextField(self.player_name, (lx, y, sc(300), sc(44)), max_len=24))
        self.name_field.editing = not self.player_name
        y += sc(62)
        self.labels.append((i18n.t("online.players"), (x0, y + sc(22))))
        for i, n in enumerate((2, 3, 4)):
            self.widgets.add(Button(str(n), (lambda n=n: self.set_count(n)), (lx + i * sc(70), y, sc(60), sc(44)),
                                    style="secondary", selected=(n == self.count)))
        y += sc(62)
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
                    self.widgets.add(Button(label, (lambda i=i, k=kind: self.set_kind(i, k)),
                                            (lx + j * (bw + sc(6)), y, bw, sc(44)), style="secondary",
                                            selected=self.kinds[i] == kind, px=16))
            y += sc(58)
        y += sc(10)
        self.labels.append((i18n.t("online.lan"), (x0, y + sc(22))))
        for j, (on, key) in enumerate(((True, "settings.on"), (False, "settings.off"))):
            self.widgets.add(Button(i18n.t(key), (lambda on=on: self.set_lan(on)), (lx + j * sc(110), y, sc(100),
                                                                                     sc(44)),
                                    style="secondary", selected=self.lan == on, px=17))
        self.lan_y = y + sc(54)
        self.message_y = self.box.bottom - sc(120)
        self.widgets.add(Button(i18n.t("common.back"), self.back,
                                (self.box.x + sc(40), self.box.bottom - sc(70), sc(150), sc(48)), style="secondary"))
        self.host_button = self.widgets.add(Button(i18n.t("online.host_button"), self.host,
                                                   (self.box.right - sc(240), self.box.bottom - sc(70), sc(200),
                                                    sc(48)), px=21))

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

    def seat_requests(self) -> list[protocol.SeatRequest]:
        out = [protocol.SeatRequest(kind="host", colour=COLOURS[0])]
        for i in range(1, self.count):
            k = self.kinds[i]
            out.append(protocol.SeatRequest(kind="open", colour=COLOURS[i]) if k == FRIEND else
                       protocol.SeatRequest(kind="ai", colour=COLOURS[i], bot=k))
        return out

    def host(self) -> None:
        """Start the server in the game, create the game on it, and wait in the lobby."""
        name, why = parse_name(self.name_field.value if self.name_field else self.player_name)
        if name is None:
            self.error = why
            return
        book = mygames.Book()
        server, self.error = host_server(book, self.lan)
        if server is None:
            return
        self.app.end_session()
        table = Table.host(f"ws://127.0.0.1:{server.port}", name, self.seat_requests(), self.app.content,
                           server=server, book=book, lan=self.lan)
        self.app.table = table
        self.app.stack.pop(self)
        self.app.stack.push(LobbyScene(self.app, table, lan=self.lan, port=server.port))

    def draw(self, surf) -> None:
        self.draw_form(surf)
        for colour, pos in self.seat_rows:
            _crest(surf, colour, pos, W.sc(22))
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
        self.values = [address, code, player]
        self.fields: list[TextField] = []
        self.table: Optional[Table] = None
        self.connecting_to = ""

    def layout(self, size) -> None:
        if self.fields:
            self.values = [f.value for f in self.fields]
        self.widgets.clear()
        self.labels = []
        w, h = size
        sc = W.sc
        self.box = pygame.Rect(0, 0, min(sc(980), w - 40), min(h - 40, sc(560)))
        self.box.center = (w // 2, h // 2)
        x0, lx = self.box.x + sc(40), self.box.x + sc(250)
        y = self.box.y + sc(130)
        self.fields = []
        for key, value, width, n in (("online.address", self.values[0], sc(440), 80),
                                     ("online.code", self.values[1], sc(220), 9),
                                     ("online.your_name", self.values[2], sc(300), 24)):
            self.labels.append((i18n.t(key), (x0, y + sc(22))))
            self.fields.append(self.widgets.add(TextField(value, (lx, y, width, sc(44)), max_len=n)))
            y += sc(84 if key == "online.address" else 62)  # the address has its example under it
        self.example_y = self.box.y + sc(130 + 48)
        self.message_y = y + sc(8)
        self.widgets.add(Button(i18n.t("common.back"), self.back,
                                (self.box.x + sc(40), self.box.bottom - sc(70), sc(150), sc(48)), style="secondary"))
        self.join_button = self.widgets.add(Button(i18n.t("online.join_button"), self.join,
                                                   (self.box.right - sc(220), self.box.bottom - sc(70), sc(180),
                                                    sc(48)), px=21))
        self.join_button.enabled = self.table is None
        if self.fields and not any(f.value for f in self.fields):
            self.fields[0].editing = True  # type at once

    def join(self) -> None:
        if self.table is not None:
            return
        address, code, player = (f.value for f in self.fields)
        url, why = parse_address(address)
        if url is None:
            self.error = why
            return
        code, why = parse_code(code)
        if code is None:
            self.error = why
            return
        player, why = parse_name(player)
        if player is None:
            self.error = why
            return
        self.app.end_session()
        self.table = Table.join(url, code, player, self.app.content, book=mygames.Book())
        self.app.table = self.table
        self.connecting_to = url
        self.error = ""
        self.join_button.enabled = False

    def _give_up(self, why: str) -> None:
        self.error = why
        if self.app.table is self.table:
            self.app.table = None
        self.table.close()
        self.table = None
        self.join_button.enabled = True

    def update(self, dt) -> None:
        t = self.tick_table()
        if t is None:
            return
        if t.joined and t.seats:
            self.table = None
            self.app.stack.pop(self)
            self.app.stack.push(LobbyScene(self.app, t))

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
            W.blit_text(surf, i18n.t("online.connecting", address=self.connecting_to),
                        (self.box.x + sc(40), self.message_y), "sans_semibold", 17, W.TEXT, wrap=self.box.w - sc(80))
        self.widgets.draw(surf)


# ---------------------------------------------------------------- continuing after closing the game

def game_line(g: "mygames.MyGame") -> str:
    """Who plays in a game this computer holds a seat of (its players, else this player)."""
    return ", ".join(g.players) or g.name or i18n.t("online.code_is", code=g.code)


def game_detail(g: "mygames.MyGame") -> str:
    """The invite code, this seat, and hosted here or joined where."""
    where = i18n.t("online.mine_hosted") if g.host else \
        i18n.t("online.mine_joined", address=g.address.removeprefix("ws://"))
    seat = i18n.t("online.mine_seat_colour", n=g.seat + 1, colour=i18n.colour_name(g.colour)) if g.colour else \
        str(g.seat + 1)
    return i18n.t("online.mine_detail", code=g.code, seat=seat, where=where)


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
            b = self.widgets.add(Button(i18n.t("online.continue_button"), (lambda g=g: self.go(g)),
                                        (row.right - sc(330), row.y + sc(10), sc(170), sc(44)), px=18))
            b.enabled = self.table is None
            r = self.widgets.add(Button(i18n.t("online.forget"), (lambda g=g: self.ask_forget(g)),
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
            url = f"ws://127.0.0.1:{server.port}"
            if g.port and server.port != g.port:  # friends need the new address (the lobby shows it)
                self.moved_port = server.port
        self.app.end_session()
        self.table = Table.resume(url, g.game, g.token, self.app.content, server=server, book=self.book, lan=g.lan)
        self.table.player_name = g.name or None
        self.app.table = self.table
        self.trying = g
        self.message_colour = W.TEXT
        self.error = i18n.t("online.connecting", address=url)
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

    def _give_up(self, why: str) -> None:
        t, g = self.table, self.trying
        if self.app.table is t:
            self.app.table = None
        t.close()
        self.table = None
        self.trying = None
        self.message_colour = W.BAD
        if t.problem is not None:  # the host's game does not know it, or refused the seat: off the list
            self.games = [x for x in self.games if x.key() != g.key()]
            self.error = " ".join([why, i18n.t("online.mine_removed")])
        elif g is not None and not g.host:  # nobody answered: the host may be at a new address
            self.failed = g
            self.address = t.url.removeprefix("ws://")
            self.error = " ".join([why, i18n.t("online.mine_new_address")])
        else:
            self.error = why
        self._relayout()

    def ask_forget(self, g: "mygames.MyGame") -> None:
        from .dialogs import MessageScene

        def forget() -> None:
            self.book.forget(g.game, g.token)
            self.games = [x for x in self.games if x.key() != g.key()]
            if self.failed is not None and self.failed.key() == g.key():
                self.failed = None
            self.app.stack.pop()
            self._relayout()
        self.app.stack.push(MessageScene(self.app, i18n.t("online.forget_heading"),
                                         i18n.t("online.forget_body", game=game_line(g), code=g.code),
                                         buttons=[(i18n.t("online.forget"), forget)]))

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
            self.app.stack.push(LobbyScene(self.app, t, lan=t.lan if t.server else None,
                                           port=t.server.port if t.server else None))

    def _moved_notice(self, t: Table) -> None:
        """A hosted game back on a new port: the address friends need now (the game screen has no lobby)."""
        port = self.moved_port
        if t.server is not None and port:
            ip = lan_ip() if t.lan else None
            self.app.toast(i18n.t("online.moved", address=f"ws://{ip or '127.0.0.1'}:{port}"), 12)

    # ------------------------------------------------------------ drawing

    def visible_text(self) -> list[str]:
        out = [x for g in self.games for x in (game_line(g), game_detail(g))]
        return out + [self.error] + super().visible_text()

    def draw(self, surf) -> None:
        self.draw_form(surf, self.message_colour)
        sc = W.sc
        for g, row in zip(self.games, self.rows):
            W.panel(surf, row, (248, 240, 222), W.PANEL_EDGE, 10, 1)
            _crest(surf, g.colour or COLOURS[g.seat % len(COLOURS)], (row.x + sc(26), row.centery), sc(24))
            room = row.w - sc(390)
            W.blit_text(surf, W.fit_text(game_line(g), "sans_bold", 19, room), (row.x + sc(52), row.y + sc(8)),
                        "sans_bold", 19, W.TEXT)
            W.blit_text(surf, W.fit_text(game_detail(g), "sans", 16, room), (row.x + sc(52), row.y + sc(36)), "sans",
                        16, W.TEXT_SOFT)
        if not self.games:
            W.blit_text(surf, i18n.t("online.mine_none"), (self.box.x + sc(40), self.box.y + sc(130)), "sans", 18,
                        W.TEXT_SOFT)
        self.widgets.draw(surf)


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
        self.addresses: list[tuple[str, Optional[str]]] = []  # (line, the address a Copy button copies)
        if port is not None:  # this computer hosts: the addresses friends type
            ip = lan_ip() if lan else None
            if ip:
                self.addresses.append((i18n.t("online.address_lan", address=f"ws://{ip}:{port}"), f"ws://{ip}:{port}"))
            self.addresses.append((i18n.t("online.address_local", address=f"ws://127.0.0.1:{port}"), None))
            if not lan:
                self.addresses.append((i18n.t("online.address_only_local"), None))
        self._seen = -1
        self._status = None
        self.box = pygame.Rect(0, 0, 0, 0)

    # ------------------------------------------------------------ layout

    def layout(self, size) -> None:
        t = self.table
        self._seen, self._status = t.changes, t.status
        self.widgets.clear()
        w, h = size
        sc = W.sc
        n = max(2, len(t.seats))
        self.box = pygame.Rect(0, 0, min(sc(1180), w - 40), min(h - 40, sc(350 + 62 * n + 34 * len(self.addresses))))
        self.box.center = (w // 2, h // 2)
        x0 = self.box.x + sc(40)
        y = self.box.y + sc(96)
        self.code_pos = (x0, y)
        code_w = W.text(_code_text(t.code or "------"), "sans_bold", CODE_PX).get_width()
        self.copy_code = self.widgets.add(Button(i18n.t("online.copy"), lambda: self.copy(t.code or ""),
                                                 (x0 + code_w + sc(30), y + sc(36), sc(110), sc(40)),
                                                 style="secondary", px=17))
        self.copy_code.visible = bool(t.code)
        y += sc(112)
        self.address_rows = []
        for line, address in self.addresses:
            self.address_rows.append((line, (x0, y)))
            if address:
                lw = W.text(line, "sans", 17).get_width()
                self.widgets.add(Button(i18n.t("online.copy"), lambda a=address: self.copy(a),
                                        (x0 + lw + sc(16), y - sc(5), sc(90), sc(32)), style="secondary", px=15))
            y += sc(34)
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
                    self.widgets.add(Button(label, (lambda i=i, k=kind: self.set_seat(i, k)),
                                            (x + j * (bw + sc(6)), row.y + sc(6), bw, sc(42)), style="secondary",
                                            selected=current == kind, px=16))
            y += sc(62)
        self.message_y = y + sc(8)
        self.widgets.add(Button(i18n.t("online.leave"), self.leave_game,
                                (self.box.x + sc(40), self.box.bottom - sc(70), sc(150), sc(48)), style="secondary"))
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
        if text:
            copy_text(self.app, text)

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
        if t.changes != self._seen or t.status != self._status:
            self.layout(self.app.size)

    # ------------------------------------------------------------ drawing

    def message(self) -> tuple[str, tuple]:
        t = self.table
        if t.problem:
            return t.problem, W.BAD
        if t.status == LOST:
            return " ".join(lost_lines(t) if t.joined else [t.error]), W.BAD
        if t.status == CONNECTING:
            return i18n.t("online.connecting", address=t.url), W.TEXT
        if t.is_host:
            return ("" if not t.open_seats() else i18n.t("online.start_needs")), W.TEXT_SOFT
        return i18n.t("online.wait_host"), W.TEXT_SOFT

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

    def visible_text(self) -> list[str]:
        t = self.table
        out = [t.code or ""] + [line for line, _ in self.addresses]
        out += [" ".join(x for x in self.seat_text(i, s) if x) for i, s in enumerate(t.seats)]
        return out + [self.message()[0]] + super().visible_text()

    def draw(self, surf) -> None:
        _backdrop(self.app, surf)
        t = self.table
        sc = W.sc
        W.panel(surf, self.box, W.PANEL, W.PANEL_EDGE, 16, 3, alpha=246)
        W.blit_text(surf, i18n.t("online.lobby_heading"), (self.box.x + sc(40), self.box.y + sc(22)), "title", 44,
                    W.TEXT)
        x0, y = self.code_pos
        W.blit_text(surf, i18n.t("online.invite"), (x0, y), "sans_semibold", 17, W.TEXT_SOFT)
        W.blit_text(surf, _code_text(t.code or ""), (x0, y + sc(24)), "sans_bold", CODE_PX, (110, 30, 24))
        if self.addresses:  # hosting: what friends need, beside the code
            cx = self.copy_code.rect.right + sc(30)
            W.blit_text(surf, i18n.t("online.give_both"), (cx, self.copy_code.rect.centery), "sans_italic", 16,
                        W.TEXT_SOFT, "midleft", wrap=self.box.right - sc(40) - cx)
        for line, pos in self.address_rows:
            W.blit_text(surf, line, pos, "sans", 17, W.TEXT)
        for i, (s, row) in enumerate(zip(t.seats, self.seat_rects)):
            W.panel(surf, row, (248, 240, 222), W.PANEL_EDGE, 10, 1)
            _crest(surf, s.colour, (row.x + sc(24), row.centery), sc(24))
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
        self.box: Optional[pygame.Rect] = None

    @property
    def table(self) -> Table:
        return self.game.session.table

    # ------------------------------------------------------------ actions

    def retry(self) -> None:
        self.table.retry()

    def hand_to_ai(self) -> None:
        waiting = self.table.waiting_for()
        if waiting:
            self.table.set_seat(waiting[0], "ai", self.AI_LEVEL)

    # ------------------------------------------------------------ frame hooks

    def update(self, dt: float) -> None:
        t = self.table
        if t.refusal is not None:  # the server refused our move: said where the game screen says refusals
            why, t.refusal = t.refusal, None
            log.info("the server refused %s: %s", why.rule, why.message)
            self.game.message = i18n.rule_text(why)
        if t.notice:
            self.app.toast(t.notice, 5)
            t.notice = None

    def banner(self) -> tuple[list[str], list[Button]]:
        """The banner's lines and buttons now (none: no banner)."""
        t = self.table
        if t.problem:
            return [i18n.t("online.stopped", problem=t.problem)], [self.title_button]
        if t.status == LOST:
            return lost_lines(t), [self.retry_button]
        if t.status == CONNECTING:
            return [i18n.t("online.reconnecting")], []
        waiting = t.waiting_for()
        if waiting:
            names = ", ".join(self.game.session.seat_name(i) for i in waiting)
            buttons = []
            if t.is_host:
                self.ai_button.label = i18n.t("online.hand_to_ai", name=self.game.session.seat_name(waiting[0]))
                buttons.append(self.ai_button)
            return [i18n.t("online.waiting_for", names=names), i18n.t("online.waiting_hint")], buttons
        return [], []

    def handle(self, ev) -> bool:
        _lines, buttons = self.banner()
        for b in buttons:
            if ev.type == pygame.MOUSEMOTION:
                b.hover = b.rect.collidepoint(ev.pos)
            elif b.handle(ev):
                return True
        return False

    def watch_text(self) -> str:
        """The bottom bar's words while this seat has nothing to do."""
        s = self.game.session
        st = s.state
        if st.phase == "plan":
            names = [s.seat_name(i) for i in st.to_act() if i != s.seat]
            return i18n.t("online.planned_wait", names=", ".join(names)) if names else i18n.t("online.sending")
        if st.phase == "place":
            seat = st.to_act()[0]
            if seat == s.seat:
                return i18n.t("online.sending")
            if s.seats[seat].is_ai:
                return i18n.t("game.thinking", name=s.seat_name(seat))
            return i18n.t("online.placing", name=s.seat_name(seat))
        return ""

    def draw(self, surf) -> None:
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


class RemoteFeedback(Feedback):
    """Sound and motion as in any game; the statistics count it as an online game, once, by the
    server's game id; the end chart from the rounds this computer saw (there is no full record)."""

    def __init__(self, scene):
        super().__init__(scene)

    def _round_scores(self, s):
        return s.round_scores()


class RemoteMenuScene(MenuScene):
    """The game menu without saving (the server keeps the game); leaving stops a hosted server."""

    def layout(self, size) -> None:
        super().layout(size)
        save = next(w for w in self.widgets.items if w.label == i18n.t("menu.save"))
        step = self.widgets.items[1].rect.y - self.widgets.items[0].rect.y
        self.widgets.items.remove(save)
        self.box.h -= step
        for w in self.widgets.items:
            w.rect.y += step // 2 - (step if w.rect.y > save.rect.y else 0)  # the column closes up
        self.box.y += step // 2
        quit_button = self.widgets.items[-1]  # "Quit to title": leaving an online game
        if self.game.session.table.is_host:
            quit_button.label, quit_button.sub = i18n.t("online.menu_stop"), i18n.t("online.menu_stop_sub")
        else:
            quit_button.label = i18n.t("online.menu_leave")
