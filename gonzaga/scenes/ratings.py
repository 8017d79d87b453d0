"""A community server's ratings (issue 47): the leaderboard and a player's profile.

- ``LeaderboardScene`` (``ratings``, opened with a server's address from its lobby or the
  sign-in screen): rank, name, rating (the conservative ``mu - 3 sigma``, marked provisional
  for the first ``PROVISIONAL_GAMES`` rated games) and rated games; a name opens its profile.
- ``ProfileScene`` (``rating_profile``): a player's rating, games, and the rating after each of
  their last 100 rated games drawn as a line (``ui.rating_chart``).

Each asks the server on a connection of its own (``signins.AccountRequest``), polled each frame:
the screen never waits, a dead server or a refusal is said in words. Numbers are written by
``words.formats`` (the language's decimal sign).
"""
from __future__ import annotations

from functools import partial
import logging
from typing import Any, Optional

import pygame
from pydantic import BaseModel

from ..net import protocol as P
from ..net.accounts import PROVISIONAL_GAMES
from ..net.signins import AccountRequest, Keyring
from ..net.typed import parse_address
from ..ui import rating_chart
from ..ui import widgets as W
from ..ui.widgets import Button
from ..words import formats, i18n
from .base import Scene
from .form import Question, centred_box, draw_panel
from .online_common import draw_backdrop, shown_address

log = logging.getLogger(__name__)

LIMIT = 100  # the leaderboard's rows asked for (the server's most)


def ranks(rows: list[P.Standing]) -> list[int]:
    """Each row's rank (the server sends them best first): equal ratings share a rank (1, 2, 2, 4)."""
    out: list[int] = []
    for i, r in enumerate(rows):
        out.append(out[-1] if i and r.rating == rows[i - 1].rating else i + 1)
    return out


def rating_text(rating: float, games: int) -> str:
    shown = formats.number(rating, 1)
    return i18n.t("ratings.provisional_value", rating=shown) if games < PROVISIONAL_GAMES else shown


class _Asking(Scene):
    """A panel that asks the server one thing and shows the answer or why not."""

    heading = ""

    def __init__(self, app: Any, address: str) -> None:
        super().__init__(app)
        self.address = address
        self.url = parse_address(address)[0] if address else None
        self.question = Question()
        self.message = ""
        self.box = pygame.Rect(0, 0, 0, 0)

    @property
    def request(self) -> Optional[AccountRequest]:
        """The question under way, if any."""
        return self.question.request

    def ask(self, msg: P._Msg, want: str) -> None:
        if self.url is None:
            self.message = i18n.t("signin.need_address")
            return
        self.question.ask(self.url, [msg], want)
        self.message = i18n.t("signin.connecting", address=shown_address(self.url))

    def update(self, dt: float) -> None:
        done = self.question.answer()
        if done is None:
            return
        answer, why = done
        self.message = why
        if answer is not None and not isinstance(answer, P.Error):
            self.answered(answer)
        self.layout(self.app.size)

    def answered(self, answer: BaseModel) -> None:
        """The server's answer (of the type asked for)."""
        raise NotImplementedError

    def handle(self, ev: pygame.event.Event) -> bool:
        if ev.type == pygame.KEYDOWN and ev.key == pygame.K_ESCAPE:
            self.back()
            return True
        return super().handle(ev)

    def back(self) -> None:
        self.question.close()
        self.app.stack.pop(self)

    def draw_panel(self, surf: pygame.Surface, title: str, hint: str) -> int:
        """The backdrop, the panel, its title and hint; the y under them."""
        draw_backdrop(self.app, surf)
        return draw_panel(surf, self.box, title, hint)


class LeaderboardScene(_Asking):
    """The server's best ratings, a page at a time; a name opens that player's profile."""

    name = "ratings"

    def __init__(self, app: Any, address: str = "", keyring: Optional[Keyring] = None) -> None:
        super().__init__(app, address)
        keyring = keyring or Keyring()
        kept = keyring.get(self.url) if self.url else None
        self.me = kept.name if kept is not None and self.url and keyring.whoami(self.url) is not None else ""
        self.rows: list[P.Standing] = []
        self.page = 0
        self.per_page = 8
        self.row_rects: list[tuple[pygame.Rect, P.Standing, int]] = []
        self.ask(P.LeaderboardAsk(limit=LIMIT), "standings")

    def answered(self, answer: BaseModel) -> None:
        assert isinstance(answer, P.Standings)  # asked for "standings": AccountRequest waits for that type
        self.rows = list(answer.rows)
        self.page = 0
        if not self.rows:
            self.message = i18n.t("ratings.none")

    def layout(self, size: tuple[int, int]) -> None:
        self.widgets.clear()
        sc = W.sc
        self.box = centred_box(size, sc(900), size[1])
        x0 = self.box.x + sc(40)
        self.top = self.box.y + sc(150)
        self.row_h = sc(40)
        bottom = self.box.bottom - sc(70)
        self.per_page = max(3, (bottom - sc(50) - self.top - sc(34)) // self.row_h)
        pages = max(1, -(-len(self.rows) // self.per_page))
        self.page = min(self.page, pages - 1)
        ranked = list(zip(self.rows, ranks(self.rows)))
        shown = ranked[self.page * self.per_page: (self.page + 1) * self.per_page]
        self.row_rects = []
        y = self.top + sc(34)
        for row, rank in shown:
            rect = pygame.Rect(x0, y, self.box.w - sc(80), self.row_h - sc(4))
            self.row_rects.append((rect, row, rank))
            self.widgets.add(Button(row.name, partial(self.profile, row.name),
                                    (x0 + sc(90), y + sc(2), sc(300), self.row_h - sc(8)), style="secondary", px=16))
            y += self.row_h
        self.widgets.add(Button(i18n.t("common.back"), self.back, (x0, bottom, sc(150), sc(48)), style="secondary"))
        self.widgets.add(Button(i18n.t("servers.refresh"), self.refresh, (x0 + sc(170), bottom, sc(190), sc(48)),
                                style="secondary"))
        self.prev_button = self.widgets.add(Button("‹", self.prev, (self.box.right - sc(300), bottom, sc(60), sc(48)),
                                                   style="secondary", tooltip=i18n.t("ratings.previous")))
        self.next_button = self.widgets.add(Button("›", self.next, (self.box.right - sc(230), bottom, sc(60), sc(48)),
                                                   style="secondary", tooltip=i18n.t("ratings.next")))
        self.prev_button.enabled = self.page > 0
        self.next_button.enabled = self.page < pages - 1
        self.mine_button = self.widgets.add(Button(i18n.t("ratings.mine"), (lambda: self.profile(self.me)),
                                                   (self.box.right - sc(160), bottom, sc(120), sc(48)), px=18))
        self.mine_button.visible = bool(self.me)

    def refresh(self) -> None:
        self.ask(P.LeaderboardAsk(limit=LIMIT), "standings")

    def prev(self) -> None:
        self.page = max(0, self.page - 1)
        self.layout(self.app.size)

    def next(self) -> None:
        self.page += 1
        self.layout(self.app.size)

    def profile(self, name: str) -> None:
        self.app.stack.push("rating_profile", self.address, name)

    def cells(self, row: P.Standing, rank: int) -> tuple[str, str, str, str]:
        """(rank, name, rating, games) as the table shows them."""
        return (formats.number(rank), row.name, rating_text(row.rating, row.games), formats.number(row.games))

    def visible_text(self) -> list[str]:
        out = [x for _, row, rank in self.row_rects for x in self.cells(row, rank)]
        return out + [self.message, i18n.t("ratings.provisional_note", n=PROVISIONAL_GAMES)]

    def draw(self, surf: pygame.Surface) -> None:
        sc = W.sc
        where = shown_address(self.url) if self.url else ""
        self.draw_panel(surf, i18n.t("ratings.heading", address=where), i18n.t("ratings.hint"))
        x0 = self.box.x + sc(40)
        cols = (x0 + sc(60), x0 + sc(100), self.box.right - sc(260), self.box.right - sc(60))
        for text, x, anchor in ((i18n.t("ratings.rank"), cols[0], "midright"), (i18n.t("ratings.name"), cols[1],
                                                                                 "midleft"),
                                (i18n.t("ratings.rating"), cols[2], "midright"),
                                (i18n.t("ratings.games"), cols[3], "midright")):
            W.blit_text(surf, text, (x, self.top + sc(16)), "sans_semibold", 16, W.TEXT, anchor)
        for rect, row, rank in self.row_rects:
            if row.name == self.me:
                W.panel(surf, rect, (240, 226, 196), W.PANEL_EDGE, 8, 1)
            rank_s, _, rating_s, games_s = self.cells(row, rank)
            W.blit_text(surf, rank_s, (cols[0], rect.centery), "sans_bold", 17, W.TEXT, "midright")
            W.blit_text(surf, rating_s, (cols[2], rect.centery), "sans_bold", 17, W.TEXT, "midright")
            W.blit_text(surf, games_s, (cols[3], rect.centery), "sans", 17, W.TEXT, "midright")
        y = self.box.bottom - sc(112)
        W.blit_text(surf, i18n.t("ratings.provisional_note", n=PROVISIONAL_GAMES), (x0, y), "sans_italic", 15,
                    W.TEXT_SOFT, wrap=self.box.w - sc(80))
        if self.message:
            W.blit_text(surf, self.message, (x0, y - sc(26)), "sans_semibold", 16,
                        W.TEXT if self.request is not None else W.BAD, wrap=self.box.w - sc(80))
        self.widgets.draw(surf)


class ProfileScene(_Asking):
    """One player's rating, rated games and rating history (a chart)."""

    name = "rating_profile"

    def __init__(self, app: Any, address: str, player: str) -> None:
        super().__init__(app, address)
        self.player = player
        self.info: Optional[P.ProfileInfo] = None
        self.chart = pygame.Rect(0, 0, 0, 0)
        self.points: list[tuple[int, int]] = []  # the chart's dots as last drawn (one per rated game)
        self.ask(P.ProfileAsk(name=player), "profile_info")

    def answered(self, answer: BaseModel) -> None:
        assert isinstance(answer, P.ProfileInfo)  # asked for "profile_info"
        self.info = answer
        self.player = answer.name

    def layout(self, size: tuple[int, int]) -> None:
        self.widgets.clear()
        sc = W.sc
        self.box = centred_box(size, sc(1000), size[1])
        bottom = self.box.bottom - sc(70)
        self.chart = pygame.Rect(self.box.x + sc(40), self.box.y + sc(190), self.box.w - sc(80),
                                 bottom - sc(20) - self.box.y - sc(190))
        self.widgets.add(Button(i18n.t("common.back"), self.back, (self.box.x + sc(40), bottom, sc(150), sc(48)),
                                style="secondary"))

    def summary(self) -> str:
        i = self.info
        if i is None:
            return ""
        if i.rating is None:
            return i18n.t("ratings.unrated_yet")
        return i18n.t("ratings.summary", rating=rating_text(i.rating, i.games), games=formats.number(i.games))

    def visible_text(self) -> list[str]:
        return [self.player, self.summary(), self.message]

    def draw(self, surf: pygame.Surface) -> None:
        sc = W.sc
        y = self.draw_panel(surf, i18n.t("ratings.profile_heading", name=self.player), i18n.t("ratings.profile_hint"))
        x0 = self.box.x + sc(40)
        if self.summary():
            y = W.blit_text(surf, self.summary(), (x0, y), "sans_bold", 20, W.TEXT).bottom + sc(6)
        if self.message:
            W.blit_text(surf, self.message, (x0, y), "sans_semibold", 16, W.TEXT if self.request is not None else W.BAD,
                        wrap=self.box.w - sc(80))
        history = self.info.history if self.info is not None else []
        if history:
            games = self.info.games if self.info is not None else len(history)
            before = max(0, games - len(history))  # rated games older than the history shown
            self.points = rating_chart.draw(surf, self.chart, [p.rating for p in history],
                                            title=i18n.t("ratings.chart_title"), number=lambda v: formats.number(v),
                                            provisional=max(0, min(len(history), PROVISIONAL_GAMES - before)),
                                            provisional_label=i18n.t("ratings.provisional_zone"))
        self.widgets.draw(surf)
