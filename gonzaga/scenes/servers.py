"""Play on a server (issue 50): the servers this player saved, and a server's open games.

- ``ServersScene``: the saved servers (``net.server_list``), each with Open and Remove; an
  address field to add one (an address, a whole invite or the line ``gonzaga serve`` prints).
- ``ServerGamesScene``: the games waiting for players on one server (``net.browse.GameList``,
  asked again with Refresh): join one with your name (the join screen takes it from there, as
  with an invite), or create one there with the host's choices (``online.HostScene`` with
  ``server``: the game is listed on that server).
"""
from __future__ import annotations

import logging
from typing import Optional

import pygame

from ..net.browse import GameList
from ..net.invite import split_pin
from ..net.typed import parse_name
from ..net.server_list import ServerList
from ..words import i18n
from ..ui import widgets as W
from ..ui.widgets import Button, TextField
from .online import _Form, duration_words
from .online_common import shown_address

log = logging.getLogger(__name__)


def trust_words(address: str) -> str:
    """How this computer recognises the server: its pinned fingerprint, a certificate authority,
    or not at all (``ws://``)."""
    base, pin = split_pin(address)
    if pin is not None:
        return i18n.t("servers.trust_pin")
    return i18n.t("servers.trust_authority") if base.startswith("wss://") else i18n.t("servers.trust_plain")


def age_words(secs: int) -> str:
    if secs < 60:
        return i18n.t("servers.age_now")
    if secs < 3600:
        return i18n.t("servers.age_minutes", n=secs // 60)
    return i18n.t("servers.age_hours", n=secs // 3600)


class ServersScene(_Form):
    """The saved servers: open one to see its games, remove one, add one."""

    name = "online_servers"
    heading_key = "servers.heading"
    hint_key = "servers.hint"
    SHOWN = 6

    def __init__(self, app):
        super().__init__(app)
        self.book = ServerList()
        self.servers = self.book.addresses()
        self.address = ""
        self.field: Optional[TextField] = None
        self.rows: list[pygame.Rect] = []
        self.message_colour = W.BAD
        problem = self.book.take_problem()
        if problem is not None:
            self.error = problem.report()

    def layout(self, size) -> None:
        if self.field is not None:
            self.address = self.field.value
        self.widgets.clear()
        self.labels = []
        w, h = size
        sc = W.sc
        shown = self.servers[: self.SHOWN]
        self.box = pygame.Rect(0, 0, min(sc(1080), w - 40), min(h - 40, sc(350 + 70 * max(1, len(shown)))))
        self.box.center = (w // 2, h // 2)
        x0 = self.box.x + sc(40)
        y = self.box.y + sc(130)
        self.rows = []
        for address in shown:
            row = pygame.Rect(x0, y, self.box.w - sc(80), sc(60))
            self.rows.append(row)
            self.widgets.add(Button(i18n.t("servers.open"), (lambda a=address: self.open(a)),
                                    (row.right - sc(330), row.y + sc(8), sc(170), sc(44)), px=18))
            self.widgets.add(Button(i18n.t("servers.remove"), (lambda a=address: self.remove(a)),
                                    (row.right - sc(150), row.y + sc(8), sc(140), sc(44)), style="secondary", px=16))
            y += sc(70)
        if not shown:
            self.empty_y = y + sc(10)
            y += sc(70)
        y += sc(10)
        self.labels.append((i18n.t("servers.add_label"), (x0, y + sc(22))))
        self.field = self.widgets.add(TextField(self.address, (x0 + sc(230), y, self.box.w - sc(480), sc(44)),
                                                max_len=300, px=16))
        self.widgets.add(Button(i18n.t("servers.add"), self.add,
                                (self.box.right - sc(210), y, sc(170), sc(44)), px=18))
        self.field.editing = not self.servers
        self.message_y = y + sc(60)
        self.widgets.add(Button(i18n.t("common.back"), self.back,
                                (self.box.x + sc(40), self.box.bottom - sc(70), sc(150), sc(48)), style="secondary"))

    def handle(self, ev) -> bool:
        if ev.type == pygame.KEYDOWN and ev.key in (pygame.K_RETURN, pygame.K_KP_ENTER) and \
                self.field is not None and self.field.editing:
            self.add()
            return True
        return super().handle(ev)

    def add(self) -> None:
        url, why = self.book.add(self.field.value if self.field else self.address)
        if url is None:
            self.message_colour, self.error = W.BAD, why
            return
        self.servers = self.book.addresses()
        self.address = ""
        if self.field is not None:
            self.field.value = ""
        self.message_colour, self.error = W.TEXT, i18n.t("servers.added", address=shown_address(url))
        self.layout(self.app.size)

    def remove(self, address: str) -> None:
        why = self.book.remove(address)
        self.servers = self.book.addresses()
        self.message_colour, self.error = (W.BAD, why) if why else (W.TEXT, "")
        self.layout(self.app.size)

    def open(self, address: str) -> None:
        self.error = ""
        self.app.stack.push("online_server_games", address)

    def visible_text(self) -> list[str]:
        out = [x for a in self.servers[: self.SHOWN] for x in (shown_address(a), trust_words(a))]
        return out + [self.error] + super().visible_text()

    def draw(self, surf) -> None:
        self.draw_form(surf, self.message_colour)
        sc = W.sc
        for address, row in zip(self.servers, self.rows):
            W.panel(surf, row, (248, 240, 222), W.PANEL_EDGE, 10, 1)
            room = row.w - sc(370)
            W.blit_text(surf, W.fit_text(shown_address(address), "sans_bold", 19, room), (row.x + sc(16), row.y + sc(6)),
                        "sans_bold", 19, W.TEXT)
            W.blit_text(surf, W.fit_text(trust_words(address), "sans", 15, room), (row.x + sc(16), row.y + sc(34)),
                        "sans", 15, W.TEXT_SOFT)
        if not self.servers:
            W.blit_text(surf, i18n.t("servers.none"), (self.box.x + sc(40), self.empty_y), "sans", 18, W.TEXT_SOFT)
        self.widgets.draw(surf)


class ServerGamesScene(_Form):
    """One server's games waiting for players: join one, or create one there."""

    name = "online_server_games"
    heading_key = "servers.games_heading"
    hint_key = "servers.games_hint"
    SHOWN = 5

    def __init__(self, app, address: str, player: str = ""):
        super().__init__(app)
        self.address = address
        self.player = player
        self.name_field: Optional[TextField] = None
        self.query: Optional[GameList] = None
        self.games: list = []
        self.rows: list[pygame.Rect] = []
        self.message_colour = W.TEXT
        self.refresh()

    def refresh(self) -> None:
        if self.query is not None:
            self.query.close()
        self.query = GameList(self.address)
        self.message_colour, self.error = W.TEXT, i18n.t("servers.asking", address=shown_address(self.address))

    def layout(self, size) -> None:
        if self.name_field is not None:
            self.player = self.name_field.value
        self.widgets.clear()
        self.labels = []
        w, h = size
        sc = W.sc
        shown = self.games[: self.SHOWN]
        self.box = pygame.Rect(0, 0, min(sc(1080), w - 40), min(h - 40, sc(350 + 70 * max(1, len(shown)))))
        self.box.center = (w // 2, h // 2)
        x0 = self.box.x + sc(40)
        y = self.box.y + sc(124)
        self.labels.append((i18n.t("online.your_name"), (x0, y + sc(22))))
        self.name_field = self.widgets.add(TextField(self.player, (x0 + sc(230), y, sc(300), sc(44)), max_len=24))
        self.name_field.editing = not self.player
        y += sc(64)
        self.rows = []
        for g in shown:
            row = pygame.Rect(x0, y, self.box.w - sc(80), sc(60))
            self.rows.append(row)
            self.widgets.add(Button(i18n.t("servers.join"), (lambda g=g: self.join(g)),
                                    (row.right - sc(170), row.y + sc(8), sc(160), sc(44)), px=18))
            y += sc(70)
        if not shown:
            self.empty_y = y + sc(6)
            y += sc(70)
        self.message_y = y + sc(6)
        bottom = self.box.bottom - sc(70)
        self.widgets.add(Button(i18n.t("common.back"), self.back, (x0, bottom, sc(150), sc(48)), style="secondary"))
        self.refresh_button = self.widgets.add(Button(i18n.t("servers.refresh"), self.refresh_now,
                                                      (x0 + sc(170), bottom, sc(190), sc(48)), style="secondary"))
        self.create_button = self.widgets.add(Button(i18n.t("servers.create"), self.create,
                                                     (self.box.right - sc(300), bottom, sc(260), sc(48)), px=20))

    def resume(self) -> None:
        """Back from a lobby or the create screen: the list as it is now."""
        if self.query is None:
            self.refresh()
        super().resume()

    def refresh_now(self) -> None:
        self.refresh()
        self.layout(self.app.size)

    def _name(self) -> Optional[str]:
        name, why = parse_name(self.name_field.value if self.name_field else self.player)
        if name is None:
            self.message_colour, self.error = W.BAD, why
        return name

    def join(self, g) -> None:
        """Join ``g`` with the name typed: the join screen connects and opens the lobby (or says why not)."""
        name = self._name()
        if name is None:
            return
        self.app.stack.push("online_join", self.address, g.code, name)
        self.app.stack.top.join()

    def create(self) -> None:
        self.app.stack.push("online_host", server=self.address,
                            player=self.name_field.value if self.name_field else self.player)

    def back(self) -> None:
        if self.query is not None:
            self.query.close()
        super().back()

    def update(self, dt) -> None:
        q = self.query
        if q is None or not q.tick():
            return
        self.query = None
        if q.games is not None:
            self.games = q.games
            self.message_colour, self.error = W.TEXT, ""
        else:
            self.message_colour, self.error = W.BAD, q.error
        self.layout(self.app.size)

    def game_line(self, g) -> str:
        return i18n.t("servers.game_line", host=g.host or "?")

    def game_detail(self, g) -> str:
        return i18n.t("servers.game_detail", code=g.code, taken=g.taken, seats=g.seats,
                      timer=duration_words(g.turn_secs), age=age_words(g.age))

    def visible_text(self) -> list[str]:
        out = [shown_address(self.address)] + [x for g in self.games[: self.SHOWN]
                                               for x in (self.game_line(g), self.game_detail(g))]
        if not self.games and self.query is None and not self.error:
            out.append(i18n.t("servers.no_games"))
        return out + [self.error] + super().visible_text()

    def draw(self, surf) -> None:
        self.draw_form(surf, self.message_colour)
        sc = W.sc
        W.blit_text(surf, shown_address(self.address), (self.box.right - sc(40), self.name_field.rect.centery),
                    "sans_bold", 20, W.TEXT, "midright")  # the server, beside the name (the corner is help's)
        for g, row in zip(self.games, self.rows):
            W.panel(surf, row, (248, 240, 222), W.PANEL_EDGE, 10, 1)
            room = row.w - sc(210)
            W.blit_text(surf, W.fit_text(self.game_line(g), "sans_bold", 19, room), (row.x + sc(16), row.y + sc(6)),
                        "sans_bold", 19, W.TEXT)
            W.blit_text(surf, W.fit_text(self.game_detail(g), "sans", 15, room), (row.x + sc(16), row.y + sc(34)),
                        "sans", 15, W.TEXT_SOFT)
        if not self.games and self.query is None and not self.error:
            W.blit_text(surf, i18n.t("servers.no_games"), (self.box.x + sc(40), self.empty_y), "sans", 18,
                        W.TEXT_SOFT)
        self.widgets.draw(surf)
