"""My games (issue 47, t47turn): every game of your accounts, over every server this computer is
signed in to (``net.mygames_poll``), the games where it is your turn first (the nearest deadline
first), then those waiting for others, then the recently finished. Open one to play it: with the
seat's token when this computer holds it (``net.mygames.Book``), else through the account
(``open_game``: the server gives the seat a new token). A server that does not answer is named
with the reason; its games are simply not shown.
"""
from __future__ import annotations

from functools import partial
import logging
import re
from typing import Any, Optional

import pygame

from ..net import mygames, protocol
from ..net.mygames_poll import MyGamesPoll, ServerGames
from ..net.remote import COLOURS, Table
from ..words import i18n
from ..ui import widgets as W
from ..ui.widgets import Button
from .online import _Form
from .online_common import draw_crest, shown_address

log = logging.getLogger(__name__)

Row = tuple[str, protocol.MyGameRow]  # (server, game)
_AI_NAME = re.compile(r"^AI \(([a-z]+)(@[0-9]+)?\)$")  # an AI's own seat as the server names it (rooms._ai_name)


def shown_name(name: str) -> str:
    """A player's name, or an AI's in the player's language ("AI (easy)" -> "KI (leicht)")."""
    m = _AI_NAME.match(name)
    if m is None or f"level.{m.group(1)}" not in i18n.EN:
        return name
    return i18n.t("online.ai_name", level=i18n.t(f"level.{m.group(1)}"))


def left_words(secs: Optional[float]) -> str:
    if secs is None:
        return ""
    if secs >= 3600:
        return i18n.t("mygames.left_hours", hours=int(secs // 3600))
    return i18n.t("mygames.left_minutes", minutes=max(1, int(secs // 60)))


def row_line(g: protocol.MyGameRow) -> str:
    """Whose turn it is (and how long is left)."""
    if g.finished:
        return i18n.t("mygames.finished")
    if not g.started:
        return i18n.t("mygames.lobby")
    if g.your_turn:
        left = left_words(g.left)
        return i18n.t("mygames.your_turn") + (f" · {left}" if left else "")
    names = ", ".join(shown_name(g.players[i]) for i in g.to_act if i < len(g.players)) or "…"
    return i18n.t("mygames.their_turn", names=names)


def row_detail(url: str, g: protocol.MyGameRow) -> str:
    """With whom, the round, the pace, the server."""
    others = [shown_name(n) for i, n in enumerate(g.players) if i != g.seat and n]
    parts = [i18n.t("mygames.with", names=", ".join(others))] if others else []
    if g.started:
        parts.append(i18n.t("mygames.round", round=g.round))
    parts.append(i18n.t("mygames.turn", hours=g.move_hours) if g.pace == "turn" else i18n.t("mygames.live"))
    if g.missed:
        parts.append(i18n.t("mygames.missed", n=g.missed))
    parts.append(shown_address(url))
    return " · ".join(parts)


def ordered(results: dict[str, ServerGames]) -> list[Row]:
    """Every server's games: your turn first (nearest deadline), then being played, then the rest."""
    rows = [(url, g) for url, r in results.items() for g in r.games]

    def key(r: Row) -> tuple[int, float]:
        g = r[1]
        rank = 3 if g.finished else 0 if g.your_turn else 1 if g.started else 2
        return rank, g.left if g.left is not None else float("inf")
    return sorted(rows, key=key)


class MyGamesScene(_Form):
    """The list, Refresh, Open (a game of the account) and Back."""

    name = "my_games"
    heading_key = "mygames.heading"
    hint_key = "mygames.hint"
    SHOWN = 6

    def __init__(self, app: Any, poll: Optional[MyGamesPoll] = None) -> None:
        super().__init__(app)
        self.book = mygames.Book()
        self.poll: Optional[MyGamesPoll] = poll or MyGamesPoll()
        self.results: dict[str, ServerGames] = {}
        self.rows: list[Row] = []
        self.rects: list[pygame.Rect] = []
        self.table: Optional[Table] = None
        self.message_colour = W.TEXT

    def layout(self, size: tuple[int, int]) -> None:
        self.widgets.clear()
        self.labels = []
        w, h = size
        sc = W.sc
        shown = self.rows[: self.SHOWN]
        self.box = pygame.Rect(0, 0, min(sc(1080), w - 40), min(h - 40, sc(330 + 74 * max(1, len(shown)))))
        self.box.center = (w // 2, h // 2)
        x0 = self.box.x + sc(40)
        y = self.box.y + sc(124)
        self.rects = []
        for url, g in shown:
            row = pygame.Rect(x0, y, self.box.w - sc(80), sc(64))
            self.rects.append(row)
            b = self.widgets.add(Button(i18n.t("mygames.open"), partial(self.open, url, g),
                                        (row.right - sc(160), row.y + sc(10), sc(150), sc(44)), px=18,
                                        style="primary" if g.your_turn else "secondary"))
            b.enabled = self.table is None and not g.finished
            y += sc(74)
        self.message_y = max(y, self.box.y + sc(130)) + sc(10)
        self.widgets.add(Button(i18n.t("common.back"), self.back,
                                (self.box.x + sc(40), self.box.bottom - sc(70), sc(150), sc(48)), style="secondary"))
        refresh = self.widgets.add(Button(i18n.t("mygames.refresh"), self.refresh,
                                          (self.box.x + sc(210), self.box.bottom - sc(70), sc(200), sc(48)),
                                          style="secondary"))
        refresh.enabled = self.poll is None and self.table is None

    def _relayout(self) -> None:
        self.layout(self.app.size)

    def refresh(self) -> None:
        if self.poll is None:
            self.poll = MyGamesPoll()
            self.error = ""
            self._relayout()

    def open(self, url: str, g: protocol.MyGameRow) -> None:
        """Play ``g``: with this computer's token for the seat when it has one, else through the account."""
        if self.table is not None:
            return
        self.app.end_session()
        kept = self.book.get(g.game, g.seat)
        if kept is not None:
            self.table = Table.resume(url, g.game, kept.token, self.app.content, book=self.book)
        else:
            self.table = Table(url, self.app.content, protocol.OpenMine(game=g.game, seat=g.seat), book=self.book)
        self.app.table = self.table
        self.message_colour = W.TEXT
        self.error = i18n.t("mygames.opening")
        self._relayout()

    def _give_up(self, t: Table, why: str) -> None:
        if self.app.table is t:
            self.app.table = None
        t.close()
        self.table = None
        self.message_colour = W.BAD
        self.error = why
        self._relayout()

    def back(self) -> None:
        if self.poll is not None:
            self.poll.close()
            self.poll = None
        if self.table is not None:
            self.app.end_session()
            self.table = None
        super().back()

    def update(self, dt: float) -> None:
        if self.poll is not None and self.poll.poll():
            self.results, self.poll = self.poll.results, None
            self.rows = ordered(self.results)
            dead = [i18n.t("mygames.dead", server=shown_address(r.url), reason=r.problem)
                    for r in self.results.values() if r.problem]
            self.message_colour = W.BAD if dead else W.TEXT
            self.error = " ".join(dead)
            self._relayout()
        t = self.tick_table()
        if t is None:
            return
        if t.session is not None:
            self.table = None
            self.app.start_remote(t.session)  # the game screen, where the game was
        elif t.joined and t.seats and not t.started:
            self.table = None
            self.app.stack.pop(self)
            self.app.stack.push("online_lobby", t, lan=None, port=None)

    # ------------------------------------------------------------ drawing

    def status(self) -> str:
        """What the empty list says: still asking, not signed in anywhere, or no games."""
        if self.poll is not None:
            return i18n.t("mygames.asking")
        if not self.results:
            return i18n.t("mygames.no_sign_in")
        return "" if self.rows else i18n.t("mygames.none")

    def visible_text(self) -> list[str]:
        out = [x for url, g in self.rows[: self.SHOWN] for x in (row_line(g), row_detail(url, g))]
        return out + [self.status(), self.error] + super().visible_text()

    def draw(self, surf: pygame.Surface) -> None:
        self.draw_form(surf, self.message_colour)
        sc = W.sc
        for (url, g), row in zip(self.rows, self.rects):
            W.panel(surf, row, (252, 236, 200) if g.your_turn else (248, 240, 222), W.PANEL_EDGE, 10, 1)
            draw_crest(surf, COLOURS[g.seat % len(COLOURS)], (row.x + sc(26), row.centery), sc(24))
            room = row.w - sc(230)
            W.blit_text(surf, W.fit_text(row_line(g), "sans_bold", 19, room), (row.x + sc(52), row.y + sc(8)),
                        "sans_bold", 19, W.TEXT)
            W.blit_text(surf, W.fit_text(row_detail(url, g), "sans", 16, room), (row.x + sc(52), row.y + sc(36)),
                        "sans", 16, W.TEXT_SOFT)
        status = self.status()
        if status and not self.rows:
            W.blit_text(surf, status, (self.box.x + sc(40), self.box.y + sc(130)), "sans", 18, W.TEXT_SOFT,
                        wrap=self.box.w - sc(80))
        self.widgets.draw(surf)
