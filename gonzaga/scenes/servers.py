"""Play on a server (issue 50): the servers this player saved, and a server's open games.

- ``ServersScene``: the saved servers (``net.server_list``), each with Open and Remove; an
  address field to add one (an address, a whole invite or the line ``gonzaga serve`` prints).
- ``ServerGamesScene``: one server's public lobby (issue 47; ``net.browse.GameList``, asked
  again with Refresh or a filter): each table's seats, pace, rating range and host's rating;
  filters by pace, size and "fits my rating"; join a table with your name (its lobby opens, or
  this list says why not: a table filled meanwhile, a dead server), Quick match (the server
  seats you or opens a table, ``net/quickmatch.py``), create one there with the host's choices
  (``online.HostScene`` with ``server``: listed on that server), or the server's ratings.
"""
from __future__ import annotations

from functools import partial
import logging
from typing import Optional

import pygame

from ..net import mygames, signins
from ..net import protocol as P
from ..net.accounts import provisional
from ..net.browse import GameList
from ..net.invite import split_pin
from ..net.remote import Table
from ..net.typed import parse_name
from ..net.server_list import ServerList
from ..words import formats, i18n
from ..ui import widgets as W
from ..ui.widgets import Button, TextField
from .form import Field, Fields, centred_box
from .online import _Form, duration_words
from .online_common import remember_name, shown_address

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
        self.form = Fields((Field("address", "servers.add_label", "", 0, 300, px=16),))  # the width: the row's
        self.rows: list[pygame.Rect] = []
        self.message_colour = W.BAD
        problem = self.book.take_problem()
        if problem is not None:
            self.error = problem.report()

    @property
    def field(self) -> Optional[TextField]:
        """The address to add (once laid out)."""
        return self.form.field("address") if self.form.fields else None

    def layout(self, size) -> None:
        self.widgets.clear()
        self.labels = []
        sc = W.sc
        shown = self.servers[: self.SHOWN]
        self.box = centred_box(size, sc(1080), sc(350 + 70 * max(1, len(shown))))
        x0 = self.box.x + sc(40)
        y = self.box.y + sc(130)
        self.rows = []
        for address in shown:
            row = pygame.Rect(x0, y, self.box.w - sc(80), sc(60))
            self.rows.append(row)
            self.widgets.add(Button(i18n.t("servers.open"), partial(self.open, address),
                                    (row.right - sc(330), row.y + sc(8), sc(170), sc(44)), px=18))
            self.widgets.add(Button(i18n.t("servers.remove"), partial(self.remove, address),
                                    (row.right - sc(150), row.y + sc(8), sc(140), sc(44)), style="secondary", px=16))
            y += sc(70)
        if not shown:
            self.empty_y = y + sc(10)
            y += sc(70)
        y += sc(10)
        field_x = x0 + sc(230)
        self.form.layout(self.widgets, x0, field_x, y, right=field_x + self.box.w - sc(480))
        self.widgets.add(Button(i18n.t("servers.add"), self.add,
                                (self.box.right - sc(210), y, sc(170), sc(44)), px=18))
        if not self.servers:
            self.form.edit("address")
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
        url, why = self.book.add(self.form.value("address"))
        if url is None:
            self.message_colour, self.error = W.BAD, why
            return
        self.servers = self.book.addresses()
        self.form.set("address", "")
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


PACES = (None, "live", "turn")  # the lobby's pace filter: any, live, turn-based
SIZES = (None, 2, 3, 4)  # the seats filter: any, or that many


class ServerGamesScene(_Form):
    """One server's public lobby (issue 47): the tables waiting for players, filtered by pace,
    size and "fits my rating"; join one, quick match, create one, or see the ratings."""

    name = "online_server_games"
    heading_key = "servers.games_heading"
    hint_key = "lobby.hint"
    SHOWN = 4

    def __init__(self, app, address: str, player: str = ""):
        super().__init__(app)
        self.address = address
        self.form = Fields((Field("name", "online.your_name", player, 300, 24),))
        self.query: Optional[GameList] = None
        self.games: list = []
        self.rating: Optional[float] = None  # this player's, when signed in here
        self.pace: Optional[str] = None
        self.size: Optional[int] = None
        self.fits = False
        self.table: Optional[Table] = None  # a join or a quick match under way
        self.rows: list[pygame.Rect] = []
        self.message_colour = W.TEXT
        self.refresh()

    def refresh(self) -> None:
        if self.query is not None:
            self.query.close()
        ask = P.ListGames(pace=self.pace, seats=self.size, fits=self.fits)  # type: ignore[arg-type]
        self.query = GameList(self.address, ask=ask, hello=signins.hello(self.address))
        self.message_colour, self.error = W.TEXT, i18n.t("servers.asking", address=shown_address(self.address))

    @property
    def name_field(self) -> TextField:
        """The player's name (laid out)."""
        return self.form.field("name")

    def layout(self, size) -> None:
        self.widgets.clear()
        self.labels = []
        sc = W.sc
        shown = self.games[: self.SHOWN]
        self.box = centred_box(size, sc(1080), sc(420 + 70 * max(1, len(shown))))
        x0 = self.box.x + sc(40)
        y = self.box.y + sc(124)
        self.form.layout(self.widgets, x0, x0 + sc(230), y)
        if not self.form.value("name"):
            self.form.edit("name")
        y += sc(58)
        x = x0
        for label, act, width in ((self.pace_words(), self.next_pace, 230), (self.size_words(), self.next_size, 180),
                                  (i18n.t("lobby.fits_on" if self.fits else "lobby.fits_off"), self.toggle_fits, 250)):
            self.widgets.add(Button(label, act, (x, y, sc(width), sc(40)), style="toggle", px=15,
                                    selected=act == self.toggle_fits and self.fits))
            x += sc(width + 12)
        self.ratings_button = self.widgets.add(Button(i18n.t("lobby.ratings"), self.ratings,
                                                      (self.box.right - sc(220), y, sc(180), sc(40)),
                                                      style="secondary", px=16))
        y += sc(56)
        self.rows = []
        for g in shown:
            row = pygame.Rect(x0, y, self.box.w - sc(80), sc(60))
            self.rows.append(row)
            self.widgets.add(Button(i18n.t("servers.join"), partial(self.join, g),
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
        self.quick_button = self.widgets.add(Button(i18n.t("lobby.quick"), self.quick_match,
                                                    (self.box.right - sc(540), bottom, sc(220), sc(48)), px=20))
        self.create_button = self.widgets.add(Button(i18n.t("servers.create"), self.create,
                                                     (self.box.right - sc(300), bottom, sc(260), sc(48)), px=20))
        for b in (self.quick_button, self.create_button, self.refresh_button):
            b.enabled = self.table is None

    # ------------------------------------------------------------ the filters

    def pace_words(self) -> str:
        return i18n.t("lobby.pace_filter", pace=i18n.t(f"lobby.pace_{self.pace or 'any'}"))

    def size_words(self) -> str:
        return i18n.t("lobby.seats_filter", seats=i18n.t("lobby.any") if self.size is None else str(self.size))

    def next_pace(self) -> None:
        self.pace = PACES[(PACES.index(self.pace) + 1) % len(PACES)]
        self.refresh_now()

    def next_size(self) -> None:
        self.size = SIZES[(SIZES.index(self.size) + 1) % len(SIZES)]
        self.refresh_now()

    def toggle_fits(self) -> None:
        self.fits = not self.fits
        self.refresh_now()

    # ------------------------------------------------------------ the buttons

    def resume(self) -> None:
        """Back from a lobby, the create screen or the ratings: the list as it is now."""
        if self.query is None and self.table is None:
            self.refresh()
        super().resume()

    def refresh_now(self) -> None:
        self.refresh()
        self.layout(self.app.size)

    def _name(self) -> Optional[str]:
        name, why = parse_name(self.form.value("name"))
        if name is None:
            self.message_colour, self.error = W.BAD, why
        return name

    def join(self, g) -> None:
        """Join ``g`` with the name typed: its lobby opens, or this list says why not."""
        name = self._name()
        if name is not None and self.table is None:
            self._open(Table.join(self.address, g.code, name, self.app.content, book=mygames.Book()), name)

    def quick_match(self) -> None:
        """The server seats this player at a table of the filters' pace and size, or opens one."""
        name = self._name()
        if name is None or self.table is not None:
            return
        match = P.QuickMatch(name=name, pace=self.pace or "live", seats=self.size)  # type: ignore[arg-type]
        self._open(Table.quick(self.address, match, self.app.content, book=mygames.Book()), name)

    def _open(self, table: Table, name: str) -> None:
        remember_name(self.app, name)
        self.app.end_session()
        self.table = self.app.table = table
        self.message_colour, self.error = W.TEXT, i18n.t("online.connecting", address=shown_address(self.address))
        self.layout(self.app.size)

    def create(self) -> None:
        self.app.stack.push("online_host", server=self.address,
                            player=self.form.value("name"))

    def ratings(self) -> None:
        self.app.stack.push("ratings", self.address)

    def back(self) -> None:
        if self.query is not None:
            self.query.close()
        if self.table is not None:
            self.app.end_session()  # closes the table
            self.table = None
        super().back()

    # ------------------------------------------------------------ each frame

    def update(self, dt) -> None:
        self._tick_table()
        q = self.query
        if q is None or not q.tick():
            return
        self.query = None
        if q.games is not None:
            self.games, self.rating = q.games, q.rating
            if self.table is None:
                self.message_colour, self.error = W.TEXT, ""
        else:
            self.message_colour, self.error = W.BAD, q.error
        self.layout(self.app.size)

    def _tick_table(self) -> None:
        t = self.tick_table()
        if t is not None and t.joined and t.seats:
            self.table = None
            self.message_colour, self.error = W.TEXT, ""
            self.layout(self.app.size)
            self.app.stack.push("online_lobby", t)

    def _give_up(self, t: Table, why: str) -> None:
        """The join or quick match was refused or lost: said here, and the list asked again."""
        if self.app.table is t:
            self.app.table = None
        t.close()
        self.table = None
        self.refresh()
        self.message_colour, self.error = W.BAD, why
        self.layout(self.app.size)

    # ------------------------------------------------------------ words and drawing

    def game_line(self, g) -> str:
        """The host (and their rating), and whether the game would be rated."""
        line = i18n.t("servers.game_line", host=g.host or "?") if g.host_rating is None else \
            i18n.t("lobby.game_line_rated", host=g.host or "?", rating=rating_words(g.host_rating, g.host_games))
        return f"{line} · {i18n.t('lobby.rated' if g.rated else 'lobby.unrated')}"

    def game_detail(self, g) -> str:
        """Who sits there (players, AI levels, the free seats), the pace, the rating range, the age."""
        taken = [seat_words(s) for s in g.seating if s.kind != "open"]
        free = sum(1 for s in g.seating if s.kind == "open")
        seats = ", ".join(taken + [i18n.t("lobby.free_seats", n=free)]) if g.seating else \
            i18n.t("lobby.taken", taken=g.taken, seats=g.seats)
        parts = [seats, pace_words(g), range_words(g.rating_min, g.rating_max), age_words(g.age)]
        return " · ".join(p for p in parts if p)

    def none_words(self) -> str:
        """No table to show: none waits here, or none passes the filters."""
        filtered = self.pace is not None or self.size is not None or self.fits
        return i18n.t("lobby.no_tables") if filtered else i18n.t("servers.no_games")

    def status_words(self) -> str:
        return "" if self.rating is None else i18n.t("lobby.your_rating", rating=formats.number(self.rating, 1))

    def visible_text(self) -> list[str]:
        out = [shown_address(self.address), self.status_words()] + [
            x for g in self.games[: self.SHOWN] for x in (self.game_line(g), self.game_detail(g))]
        if not self.games and self.query is None and not self.error:
            out.append(self.none_words())
        return out + [self.error] + super().visible_text()

    def draw(self, surf) -> None:
        self.draw_form(surf, self.message_colour)
        sc = W.sc
        W.blit_text(surf, W.fit_text(shown_address(self.address), "sans_bold", 20, sc(360)),
                    (self.box.right - sc(40), self.name_field.rect.centery - sc(10)), "sans_bold", 20, W.TEXT,
                    "midright")  # the server, beside the name (the corner is help's)
        status = self.status_words()
        if status:
            W.blit_text(surf, status, (self.box.right - sc(40), self.name_field.rect.centery + sc(14)), "sans", 15,
                        W.TEXT_SOFT, "midright")
        for g, row in zip(self.games, self.rows):
            W.panel(surf, row, (248, 240, 222), W.PANEL_EDGE, 10, 1)
            room = row.w - sc(210)
            W.blit_text(surf, W.fit_text(self.game_line(g), "sans_bold", 19, room), (row.x + sc(16), row.y + sc(6)),
                        "sans_bold", 19, W.TEXT)
            W.blit_text(surf, W.fit_text(self.game_detail(g), "sans", 15, room), (row.x + sc(16), row.y + sc(34)),
                        "sans", 15, W.TEXT_SOFT)
        if not self.games and self.query is None and not self.error:
            W.blit_text(surf, self.none_words(), (self.box.x + sc(40), self.empty_y), "sans", 18,
                        W.TEXT_SOFT)
        self.widgets.draw(surf)


def rating_words(rating: float, games: int) -> str:
    """A rating as shown (one decimal, the language's sign), marked provisional under 10 games."""
    shown = formats.number(rating, 1)
    return i18n.t("ratings.provisional_value", rating=shown) if provisional(games) else shown


def seat_words(s) -> str:
    if s.kind == "ai":
        return i18n.t("online.ai_name", level=i18n.t(f"level.{(s.bot or 'medium').split('@')[0]}"))
    return s.name or "?"


def pace_words(g) -> str:
    if g.pace == "turn":
        return i18n.t("lobby.turn_hours", hours=g.move_hours)
    return i18n.t("lobby.live_timer", timer=duration_words(g.turn_secs)) if g.turn_secs else i18n.t("lobby.pace_live")


def range_words(low: Optional[int], high: Optional[int]) -> str:
    if low is None:
        return "" if high is None else i18n.t("lobby.range_to", high=formats.number(high))
    if high is None:
        return i18n.t("lobby.range_from", low=formats.number(low))
    return i18n.t("lobby.range", low=formats.number(low), high=formats.number(high))
