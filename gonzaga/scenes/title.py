"""The title screen: new game, continue (the games in progress: one resumes at once, several
are listed, issue 45), continue online game (the online
seats this computer holds, issue 14), online play (host or join), learn to play, load, rules,
settings, quit."""
from __future__ import annotations

import logging
from typing import Callable, Union

import pygame

from ..table import in_progress, tutorial
from ..table.persistence import SaveInfo
from ..net.mygames import Book
from ..words import i18n
from ..ui import widgets as W
from ..ui.widgets import Button
from .base import Scene, help_corner
from ..render.game_sizes import board_texts
from .online_common import game_line

Action = Callable[[], None]
Entry = tuple[str, Action, str]  # a button of the column: its words key, what it does, the line under it
Pair = tuple[tuple[str, Action], tuple[str, Action]]  # two half-width buttons side by side: (key, action) each


class Backdrop:
    """The map of Europe, dimmed, behind the menus (built after the first frame: start-up stays fast)."""

    def __init__(self, app):
        self.app = app
        self._surf = None
        self._size = None
        self._frames = 0
        self.decorations: list = []  # the map's legend, compass and cartouche on screen

    def draw(self, surf: pygame.Surface, keep_clear: tuple = ()) -> None:
        """The map over ``surf``; its legend, compass and cartouche keep off ``keep_clear`` (the
        buttons drawn over the map: the Statistics corner)."""
        surf.fill(W.BG)
        self._frames += 1
        size = surf.get_size()
        if self._frames < 3 and self._surf is None:
            return
        keep = tuple(tuple(r) for r in keep_clear)
        if self._surf is None or self._size != (size, i18n.language(), keep):
            try:
                from ..render.board_view import BoardRenderer  # from the third frame on: not before the first
                r = BoardRenderer(self.app.content, pygame.Rect(0, 0, *size), texts=board_texts())
                if keep:
                    r.set_keep_clear(keep)
                layer = r.static_layer().copy()
                self.decorations = r.decoration_rects() + [b for b in (r.legend_rect(),) if b is not None]
                shade = pygame.Surface(size, pygame.SRCALPHA)
                shade.fill((30, 22, 16, 165))
                layer.blit(shade, (0, 0))
                self._surf = layer
            except Exception:  # the backdrop is decoration only
                self._surf = pygame.Surface(size)
                self._surf.fill(W.BG)
            self._size = (size, i18n.language(), keep)
        surf.blit(self._surf, (0, 0))


class TitleScene(Scene):
    name = "title"

    def __init__(self, app):
        super().__init__(app)
        self.backdrop = Backdrop(app)
        self.games: list[SaveInfo] = []  # the games in progress, newest first (issue 45)
        self._known: in_progress.Known = {}  # the autosaves read already (an unchanged one is not replayed again)
        self.online_games: list = []  # the online games in progress this computer holds a seat of
        self._checked = False

    def enter(self) -> None:
        self._checked = False
        super().enter()

    def resume(self) -> None:
        self._checked = False
        super().resume()

    def layout(self, size) -> None:
        self.widgets.clear()
        w, h = size
        sc = W.sc
        bw = sc(360)
        x = w // 2 - bw // 2
        entries: list[Union[Entry, Pair]] = [("title.new", self.new_game, "")]
        if self.games:
            entries.append(("title.continue", self.continue_game, self._continue_hint()))
        if self.online_games:  # online games survive closing the game (issue 14)
            entries.append(("title.continue_online", self.continue_online, self._online_hint()))
        # online play (issue 14): two buttons side by side, one row of the column
        entries.append((("title.host_online", self.host_online), ("title.join_online", self.join_online)))
        if self._watched()[0]:  # signed in to a server: My games beside it (issue 47), with your turns
            entries.append((("title.servers", self.servers), ("mygames.button", self.my_games)))
        else:
            entries.append(("title.servers", self.servers, ""))  # games on a dedicated server (issue 50)
        entries.append(self._tutorial_entry())  # the guided first game (issue 11)
        entries += [("title.load", self.load_game, ""), ("title.rules", self.rules, ""),
                    ("title.settings", self.settings, ""), ("title.quit", self.app.quit, "")]
        subs = sum(1 for e in entries if len(e) == 3 and e[2])
        # the column's height at each spacing, the roomiest that fits the window (issue 40: with
        # Continue shown the menu ran off a 1280x720 window); a low window also gets a lower heading
        self.head = sc(214)
        for bh, gap in ((sc(54), sc(14)), (sc(46), sc(8)), (sc(42), sc(6))):
            need = len(entries) * (bh + gap) + subs * sc(10) + max(0, sc(50) - bh)  # (host/join: 2 lines)
            if int(h * 0.10) + self.head + need <= h - sc(20):
                break
        y = int(h * 0.10) + self.head
        if y + need > h - sc(20):  # the column moves up, then the heading shrinks
            if h - sc(20) - need < sc(24) + self.head:
                self.head = sc(150)
            y = max(sc(24) + self.head, h - sc(20) - need)
        self.top = y - self.head
        # the statistics: a corner button, added first so the menu column below keeps its size
        self.widgets.add(Button(i18n.t("title.stats"), self.stats, (w - sc(234), h - sc(84), sc(210), sc(46)),
                                style="secondary", px=19))
        for entry in entries:
            if len(entry) == 2:
                half = (bw - gap) // 2
                row_h = max(bh, sc(50))  # two half-width buttons: room for a label on two lines
                pair = [self.widgets.add(Button(self._label(k), f, (x + j * (half + gap), y, half, row_h), px=19,
                                                style="primary" if k == "mygames.button" and self._watched()[1]
                                                else "secondary")) for j, (k, f) in enumerate(entry)]
                same = min(b._fit_label(b.rect)[0][1] for b in pair)  # side by side: one size of text
                for b in pair:
                    b.px = same
                y += row_h + gap
                continue
            key, fn, sub = entry
            extra = sc(10) if sub else 0
            b = Button(i18n.t(key), fn, (x, y, bw, bh + extra), sub=sub, px=21,
                       style="primary" if key in ("title.new", "title.continue", "title.continue_online") else "secondary")
            self.widgets.add(b)
            y += bh + extra + gap

    def _watched(self) -> tuple[int, int]:
        """(servers signed in to, games where it is your turn) at My games' last round (app.turn_watch)."""
        w = self.app.turn_watch
        return (w.servers, w.count) if w is not None else (0, 0)

    def _label(self, key: str) -> str:
        n = self._watched()[1] if key == "mygames.button" else 0
        return i18n.t("mygames.button_n", n=n) if n else i18n.t(key)

    def update(self, dt) -> None:
        if self._watched() != getattr(self, "_shown_watch", (0, 0)):  # a new answer: the button and its count
            self._shown_watch = self._watched()
            self.layout(self.app.size)
        if not self._checked and self.app.frames >= 1 and self.app.stack.top is self:
            self._checked = True
            # A bad autosave is moved aside and reported once, naming its file (never a crash,
            # never a loop); the other games still list.
            self.games, bad = self._check_games()
            online_bad = self._check_online()
            self.layout(self.app.size)
            for e in bad:
                self.app.report_bad_save(e)
            if online_bad is not None:
                self.app.stack.push("message", i18n.t("online.mine_heading"), online_bad.report())

    def _check_games(self) -> tuple[list, list]:
        try:
            return in_progress.list_in_progress(self.app.content, self._known)
        except Exception:  # the title always opens: the log keeps why the list could not be read
            logging.getLogger(__name__).exception("the games in progress could not be read")
            return [], []

    def _continue_hint(self) -> str:
        g = self.games[0]
        if len(self.games) > 1:
            return i18n.t("title.continue_many", n=len(self.games), round=g.round)
        return i18n.t("title.continue_hint", round=g.round, seats=g.seats)

    def _check_online(self):
        """Read the online games in progress; a damaged file's error (moved aside, reported once)."""
        try:
            book = Book()
            self.online_games = book.in_progress()
            return book.take_problem()
        except Exception:  # the title always opens: the log keeps why the list could not be read
            logging.getLogger(__name__).exception("the online games could not be read")
            self.online_games = []
            return None

    def _online_hint(self) -> str:
        if len(self.online_games) > 1:
            return i18n.t("title.continue_online_many", n=len(self.online_games))
        g = self.online_games[0]
        return i18n.t("title.continue_online_hint", game=game_line(g), code=g.code)

    # actions
    def new_game(self) -> None:
        self.app.stack.push("new_game")

    def continue_game(self) -> None:
        """One game in progress: resume it at once; several: the list to choose from."""
        if len(self.games) == 1:
            self.app.open_save(self.games[0].path)
        elif self.games:
            self.app.stack.push("in_progress", self.games)

    def continue_online(self) -> None:
        """One game: continue it at once; several: the list."""
        if self.online_games:
            self.app.stack.push("online_continue", self.online_games, start=len(self.online_games) == 1)

    def host_online(self) -> None:
        self.app.stack.push("online_host")

    def join_online(self) -> None:
        self.app.stack.push("online_join")

    def servers(self) -> None:
        self.app.stack.push("online_servers")

    def my_games(self) -> None:
        self.app.stack.push("my_games")

    def load_game(self) -> None:
        self.app.stack.push("load")

    def _tutorial_entry(self) -> Entry:
        """'Learn to play', or 'Continue tutorial' with the section where the player stopped."""
        p = tutorial.load_progress()
        if p.started and not p.finished:
            sub = i18n.t("tut.title_hint", n=p.index + 1, total=len(tutorial.SECTIONS),
                         section=i18n.t(tutorial.BY_ID[p.section].title_key))
            return ("tut.continue_button", self.tutorial, sub)
        return ("tut.title_button", self.tutorial, "")

    def tutorial(self) -> None:
        self.app.stack.push("tutorial_menu")

    def rules(self) -> None:
        self.app.stack.push("rules")

    def stats(self) -> None:
        self.app.stack.push("stats")

    def settings(self) -> None:
        self.app.stack.push("settings")

    def handle(self, ev) -> bool:
        if ev.type == pygame.KEYDOWN and ev.key == pygame.K_ESCAPE:
            return True
        if ev.type == pygame.KEYDOWN and ev.key in (pygame.K_UP, pygame.K_DOWN):
            self.widgets.move_focus(-1 if ev.key == pygame.K_UP else 1)
            return True
        return super().handle(ev)

    def over_map(self) -> tuple:
        """What stands over the map's corners, which its legend, compass and cartouche keep off:
        the Statistics button and the "?" of the help."""
        out = [w.rect.inflate(W.sc(16), W.sc(16)) for w in self.widgets.items[:1]]  # (items[0]: Statistics)
        q = help_corner(self.app).rect(self)
        if q is not None:
            out.append(q.inflate(W.sc(16), W.sc(16)))
        return tuple(out)

    def draw(self, surf) -> None:
        self.backdrop.draw(surf, self.over_map())
        w, h = surf.get_size()
        sc = W.sc
        first = self.widgets.items[1].rect  # (items[0] is the statistics corner)
        last = self.widgets.items[-1].rect
        top = getattr(self, "top", int(h * 0.10))
        box = pygame.Rect(0, 0, max(sc(520), first.w + sc(140)), min(last.bottom + sc(40), h - sc(6)) - top)
        box.midtop = (w // 2, top)
        W.panel(surf, box, W.PANEL, W.PANEL_EDGE, 18, 3, alpha=242)
        if getattr(self, "head", sc(214)) >= sc(214):
            W.blit_text(surf, i18n.t("app.title"), (w // 2, box.y + sc(14)), "title", 92, W.TEXT, "midtop")
            W.blit_text(surf, i18n.t("app.subtitle"), (w // 2, box.y + sc(128)), "serif_italic", 28, W.TEXT_SOFT,
                        "midtop")
            line_y = box.y + sc(176)
        else:  # the low heading (a window that cannot hold the whole column under the tall one)
            W.blit_text(surf, i18n.t("app.title"), (w // 2, box.y + sc(6)), "title", 68, W.TEXT, "midtop")
            W.blit_text(surf, i18n.t("app.subtitle"), (w // 2, box.y + sc(88)), "serif_italic", 22, W.TEXT_SOFT,
                        "midtop")
            line_y = box.y + sc(124)
        pygame.draw.line(surf, W.PANEL_EDGE, (box.x + sc(60), line_y), (box.right - sc(60), line_y), 2)
        self.widgets.draw(surf)
        W.blit_text(surf, f"v{self.app.version}", (w - sc(14), h - sc(10)), "sans", 14, (200, 186, 160), "bottomright")
