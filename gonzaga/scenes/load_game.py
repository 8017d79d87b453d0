"""Load a saved game, or watch a saved or finished game again. Damaged saves are reported here
(and moved aside) instead of crashing.

Two lists: the saves (the autosave and the named ones: Load or Watch) and the finished games
the program keeps (gonzaga/table/finished.py ``keep_finished``): Watch, or Delete (asked
twice: the first click turns the button into "Delete?"). Finished games are kept until the
player deletes them; when they do not all fit, Older and Newer page through them.
"""
from __future__ import annotations

from functools import partial
from typing import Optional

import pygame

from ..table import finished as finished_games, persistence
from ..words import formats, i18n
from ..ui import widgets as W
from ..ui.widgets import Button
from .base import ModalScene


class LoadScene(ModalScene):
    opaque = False
    name = "load"

    def __init__(self, app):
        super().__init__(app)
        self.saves, bad = persistence.list_saves(content=app.content)  # every entry, good or bad
        self.finished, bad_fin = finished_games.list_finished(content=app.content)
        self.errors = [e.report() for e in bad + bad_fin]
        self.first_finished = 0  # the first finished game shown (paging)
        self.arming: Optional[object] = None  # the finished game whose Delete asks "Delete?"
        self.finished_top: Optional[int] = None
        self.finished_shown = 0

    def layout(self, size) -> None:
        w, h = size
        sc = W.sc
        self.box = pygame.Rect(0, 0, min(sc(980), w - 60), h - sc(80))
        self.box.center = (w // 2, h // 2)
        self.widgets.clear()
        y = self.box.y + sc(90)
        self.err_rects = []
        for msg in self.errors[:4]:
            img = W.text(msg, "sans", 16, W.BAD, wrap=self.box.w - sc(80))
            self.err_rects.append((msg, y))
            y += img.get_height() + sc(10)
        if self.errors:
            y += sc(8)
        self.list_top = y
        if not self.saves:
            y += sc(44)  # the line that says there is no save yet
        bottom = self.box.bottom - sc(80)  # above Back (and Older / Newer)
        room_for_finished = sc(40 + 54) if self.finished else 0
        for info in self.saves:
            if y + sc(46) > bottom - room_for_finished:
                break
            name = i18n.t("load.autosave") if info.autosave else info.name
            label = i18n.t("load.entry", name=name, round=info.round, seats=info.seats,
                           when=formats.saved_when(info.saved_at))
            self.widgets.add(Button(label, partial(self.open, info.path),
                                    (self.box.x + sc(40), y, self.box.w - sc(220), sc(46)), style="secondary", px=17))
            self.widgets.add(Button(i18n.t("load.watch"), partial(self.watch, info.path),
                                    (self.box.right - sc(170), y, sc(130), sc(46)), style="secondary", px=17))
            y += sc(54)
        self.finished_top = None
        self.finished_shown = 0
        if self.finished:
            y += sc(6)
            self.finished_top = y
            y += sc(34)
            self.first_finished = max(0, min(self.first_finished, len(self.finished) - 1))
            for info in self.finished[self.first_finished:]:
                if y + sc(46) > bottom:
                    break
                scores = ", ".join(f"{n} {formats.number(p)}" for n, p in info.scores)
                label = i18n.t("finished.entry", when=formats.saved_when(info.saved_at), scores=scores)
                self.widgets.add(Button(label, partial(self.watch, info.path),
                                        (self.box.x + sc(40), y, self.box.w - sc(500), sc(46)), style="secondary",
                                        px=16))
                self.widgets.add(Button(i18n.t("review.button"), partial(self.review, info.path),  # issue 48
                                        (self.box.right - sc(450), y, sc(130), sc(46)), style="secondary", px=17))
                self.widgets.add(Button(i18n.t("load.watch"), partial(self.watch, info.path),
                                        (self.box.right - sc(310), y, sc(130), sc(46)), style="secondary", px=17))
                armed = self.arming == info.path
                self.widgets.add(Button(i18n.t("finished.delete_sure" if armed else "finished.delete"),
                                        partial(self.delete, info.path),
                                        (self.box.right - sc(170), y, sc(130), sc(46)),
                                        style="primary" if armed else "secondary", px=17))
                y += sc(54)
                self.finished_shown += 1
        by = self.box.bottom - sc(64)
        x = self.box.x + sc(40)
        if self.first_finished > 0:
            self.widgets.add(Button(i18n.t("finished.newer"), self.newer, (x, by, sc(150), sc(46)), style="secondary",
                                    px=17))
            x += sc(160)
        if self.first_finished + self.finished_shown < len(self.finished):
            self.widgets.add(Button(i18n.t("finished.older"), self.older, (x, by, sc(150), sc(46)), style="secondary",
                                    px=17))
        self.widgets.add(Button(i18n.t("common.back"), self.close,
                                (self.box.right - sc(170), by, sc(140), sc(46))))

    def open(self, path) -> None:
        self.app.stack.pop(self)
        self.app.open_save(path)

    def watch(self, path) -> None:
        """The replay viewer over this list (closing it comes back here)."""
        self.arming = None
        self.app.stack.push("replay_file", path)

    def review(self, path) -> None:
        """The post-game review of this finished game (scenes/review.py), over this list."""
        self.arming = None
        self.app.stack.push("review_file", path)

    def delete(self, path) -> None:
        """Delete a finished game: the first click asks ("Delete?"), the second deletes."""
        if self.arming != path:
            self.arming = path
            self.layout(self.app.size)
            return
        self.arming = None
        try:
            finished_games.delete_finished(path)
        except OSError as e:
            self.app.toast(i18n.t("finished.not_deleted", reason=str(e)), 6)
            return
        self.finished = [i for i in self.finished if i.path != path]
        self.app.toast(i18n.t("finished.deleted"))
        self.layout(self.app.size)

    def older(self) -> None:
        self.first_finished += max(1, self.finished_shown)
        self.layout(self.app.size)

    def newer(self) -> None:
        self.first_finished = max(0, self.first_finished - max(1, self.finished_shown))
        self.layout(self.app.size)

    def visible_text(self) -> list[str]:
        extra = [i18n.t("finished.heading", n=len(self.finished))] if self.finished_top is not None else []
        return self.errors + extra + super().visible_text()

    def draw(self, surf) -> None:
        W.dim(surf, 150)
        W.panel(surf, self.box, W.PANEL, W.PANEL_EDGE, 14, 3)
        sc = W.sc
        W.blit_text(surf, i18n.t("load.heading"), (self.box.x + sc(40), self.box.y + sc(20)), "title", 40, W.TEXT)
        for msg, y in self.err_rects:
            W.blit_text(surf, msg, (self.box.x + sc(40), y), "sans", 16, W.BAD, wrap=self.box.w - sc(80))
        if not self.saves:
            W.blit_text(surf, i18n.t("load.empty"), (self.box.x + sc(40), self.list_top + sc(10)), "sans", 19,
                        W.TEXT_SOFT)
        if self.finished_top is not None:
            W.blit_text(surf, i18n.t("finished.heading", n=len(self.finished)),
                        (self.box.x + sc(40), self.finished_top + sc(4)), "sans_bold", 19, W.TEXT)
        self.widgets.draw(surf)
