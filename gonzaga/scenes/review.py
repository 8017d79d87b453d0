"""The post-game review screen (issue 48): where one seat's points went, decision by decision.

A timeline at the bottom has a bar for every decision of the seat (its height the points lost;
the costliest three to five marked with a gold edge); choosing one shows the board as the seat
saw it then, the move played and the expert's alternative as ghosts side by side with the points
each was expected to end with, and why in plain words (``table.hints.explain``, from the same
view). The analysis (``ai.review``) runs in the background (``ai.review_job``: a worker process,
a decision at a time) with its progress and the time left; it can be stopped and resumed, and
is kept with the finished games (``table.reviews``), so opening it again is instant.

Which seat: the one given; else the only human seat; else (hot-seat, or a game of AIs) the
player chooses. Everything shown comes from that seat's own views (``ai.review.decisions``).
Keys: Left/Right a decision, Home/End, Tab the next costliest, Space stop or go on, Esc close.
"""
from __future__ import annotations

from functools import partial
import logging
from pathlib import Path
from typing import Optional, Sequence

import pygame

from ..ai.review import DEFAULT_BUDGET, Review, Verdict, decisions, kind_of
from ..ai.review_job import ReviewJob
from ..render import theme
from ..render.board_view import BoardRenderer
from ..render.game_sizes import board_texts
from ..rules import Action, GameRecord, GameState, parse_action, replay
from ..table import persistence, reviews
from ..table.hints import Hint, explain
from ..table.replay import finished_of_save
from ..table.seats import SeatSpec
from ..ui import widgets as W
from ..ui.widgets import Button
from ..words import formats, i18n
from .base import Scene
from .dialogs import MessageScene

log = logging.getLogger(__name__)

BUDGET = DEFAULT_BUDGET  # rollouts a decision (the tests set a small one)
USE_PROCESSES = True  # the analysis in a worker process (the tests may keep it in a thread)
BAR_FLAGGED = (176, 58, 40)
BAR_CALM = (150, 136, 110)
BAR_WAITING = (214, 200, 170)


def left_words(seconds: Optional[float]) -> str:
    """The time left in words ("about 40 s left"), or nothing before it is known."""
    if seconds is None:
        return ""
    if seconds < 90:
        return i18n.t("review.left_seconds", n=max(1, int(round(seconds))))
    return i18n.t("review.left_minutes", n=int(round(seconds / 60)))


def decimal(x: float) -> str:
    """One decimal, with the language's decimal sign (Italian writes 4,5)."""
    return formats.number(x, 1)


def summary_words(rev: Review) -> str:
    """The summary line ("about 14 points lost to placements and 6 to plans; round 4 was your best")."""
    lost = rev.lost_by()
    if not rev.complete:
        return i18n.t("review.summary_partial", placements=round(lost["placements"]), plans=round(lost["plans"]))
    if not any(v.flagged for v in rev.verdicts):
        return i18n.t("review.summary_clean")
    return i18n.t("review.summary", placements=round(lost["placements"]), plans=round(lost["plans"]),
                  best=rev.best_round())


class ReviewScene(Scene):
    """The review of one seat of a finished game (see the module docstring)."""

    name = "review"

    def __init__(self, app, record: GameRecord, seats: Sequence[SeatSpec], content=None, seat: Optional[int] = None,
                 budget: Optional[int] = None, use_processes: Optional[bool] = None,
                 only: Optional[Sequence[int]] = None):
        super().__init__(app)
        self.played = record  # a finished game's record: public once the game is over
        self.seats = list(seats)
        self.final = replay(record, content)
        self.content = self.final.content
        self.budget = budget or BUDGET
        self.use_processes = USE_PROCESSES if use_processes is None else use_processes
        humans = [i for i, s in enumerate(self.seats) if not s.is_ai]
        self.choices = list(only) if only is not None else humans or list(range(self.final.n))  # online: own seat only
        self.seat: Optional[int] = seat if seat is not None else (self.choices[0] if len(self.choices) == 1 else None)
        self.job: Optional[ReviewJob] = None
        self.review: Optional[Review] = None
        self.moves: list[tuple[int, GameState, Action]] = []
        self.sel = 0
        self._explained: dict[tuple[int, str], Hint] = {}
        self.renderer: Optional[BoardRenderer] = None
        self.board_rect = pygame.Rect(0, 0, 0, 0)
        self.panel_rect = pygame.Rect(0, 0, 0, 0)
        self.timeline_rect = pygame.Rect(0, 0, 0, 0)
        self._bars: list[pygame.Rect] = []
        if self.seat is not None:
            self.choose(self.seat, layout=False)

    # ------------------------------------------------------------ factories

    @classmethod
    def for_face(cls, app, face, seat: Optional[int] = None) -> Scene:
        """The review of a face's finished game (the end screen, a replay): the record is handed
        out only once that game is over."""
        try:
            played = face.finished_record()
        except LookupError:
            return MessageScene(app, i18n.t("review.button"), i18n.t("review.not_over"))
        if face.remote:  # online: only this computer's own seat, from the record the server sent at the end
            if not face.review_ready():
                return MessageScene(app, i18n.t("review.button"), i18n.t("review.online_none"))
            own = face.own_seat
            return cls(app, played, face.seats, face.public().content, own, only=[own])
        return cls(app, played, face.seats, face.public().content, seat)

    # ------------------------------------------------------------ the seat and its job

    def choose(self, seat: int, layout: bool = True) -> None:
        """Review ``seat``: a kept review at once, else the analysis starts (or resumes)."""
        self.seat = seat
        self.moves = list(decisions(self.played, seat, self.content))
        kept = reviews.load_review(self.played, seat, self.budget)
        self.job = ReviewJob(self.played, seat, self.budget, 0, self.content, done=kept,
                             use_processes=self.use_processes)
        self.review = self.job.review
        if not self.job.complete:
            self.job.start()
        self.sel = self._first_choice()
        if layout:
            self.layout(self.app.size)

    def _first_choice(self) -> int:
        rev = self.review
        if rev is not None and rev.complete:
            top = rev.costliest()
            if top:
                return next(i for i, m in enumerate(self.moves) if m[0] == top[0].index)
        return 0

    def toggle_run(self) -> None:
        job = self.job
        if job is None or job.complete:
            return
        if job.running:
            job.cancel()
            reviews.store_review(job.review)  # what is done is kept: going on later starts there
        else:
            job.start()
        self.layout(self.app.size)

    def leave(self) -> None:
        if self.job is not None:
            if not self.job.complete:
                self.job.cancel()
            if self.job.review.verdicts:
                reviews.store_review(self.job.review)
            self.job.close()

    def update(self, dt: float) -> None:
        job = self.job
        if job is None or not job.running:
            return
        before = len(job.review.verdicts)
        done = job.poll()
        if len(job.review.verdicts) != before or done or job.failed:
            if done:
                reviews.store_review(job.review)
                self.sel = self._first_choice()
            self.layout(self.app.size)

    # ------------------------------------------------------------ selection

    def verdict(self, k: Optional[int] = None) -> Optional[Verdict]:
        """The verdict on the k-th decision (the selected one), None while it waits."""
        if self.review is None or not self.moves:
            return None
        index = self.moves[self.sel if k is None else k][0]
        return next((v for v in self.review.verdicts if v.index == index), None)

    def select(self, k: int) -> None:
        if self.moves:
            self.sel = max(0, min(len(self.moves) - 1, k))

    def next_costly(self) -> None:
        if self.review is None:
            return
        marked = sorted(v.index for v in self.review.costliest())
        if not marked:
            return
        here = self.moves[self.sel][0]
        nxt = next((i for i in marked if i > here), marked[0])
        self.select(next(k for k, m in enumerate(self.moves) if m[0] == nxt))

    def help_rect(self) -> pygame.Rect:
        """Where the rules reference's "?" goes (scenes/base.py): left of Close."""
        w, sc = self.app.size[0], W.sc
        return pygame.Rect(w - sc(184), sc(10), sc(40), sc(38))

    def help_page(self) -> str:
        return "end"

    def close(self) -> None:
        if self in self.app.stack.scenes:
            self.app.stack.pop(self)

    # ------------------------------------------------------------ layout

    def layout(self, size: tuple[int, int]) -> None:
        self.widgets.clear()
        w, h = size
        sc = W.sc
        top = sc(58)
        self.widgets.add(Button(i18n.t("review.close"), self.close, (w - sc(130), sc(10), sc(116), sc(38)),
                                style="secondary", px=17))
        if self.seat is None:  # hot-seat or a game of AIs: whose decisions?
            box_w = min(w - sc(40), sc(560))
            x, y = (w - box_w) // 2, h // 2 - sc(40)
            for i in self.choices:
                self.widgets.add(Button(i18n.t("review.button_seat", name=self.seats[i].name),
                                        partial(self.choose, i), (x, y, box_w, sc(46)), px=17))
                y += sc(54)
            return
        tl_h = sc(150)
        panel_w = max(sc(360), min(int(w * 0.36), sc(560)))
        self.timeline_rect = pygame.Rect(sc(16), h - tl_h - sc(10), w - sc(32), tl_h)
        self.panel_rect = pygame.Rect(w - panel_w - sc(16), top, panel_w, self.timeline_rect.y - top - sc(10))
        self.board_rect = pygame.Rect(sc(16), top, self.panel_rect.x - sc(28), self.timeline_rect.y - top - sc(10))
        if self.renderer is None:
            self.renderer = BoardRenderer(self.content, self.board_rect, texts=board_texts())
        else:
            self.renderer.set_rect(self.board_rect)
        n = max(1, len(self.moves))
        inner = self.timeline_rect.inflate(-sc(24), 0)
        step = inner.w / n
        bar_top, bar_bottom = self.timeline_rect.y + sc(40), self.timeline_rect.bottom - sc(30)
        self._bars = [pygame.Rect(int(inner.x + k * step + 1), bar_top, max(2, int(step) - 2), bar_bottom - bar_top)
                      for k in range(len(self.moves))]
        job = self.job
        if job is not None and not job.complete:
            p = self.panel_rect
            label = i18n.t("review.stop" if job.running else "review.resume")
            self.widgets.add(Button(label, self.toggle_run, (p.right - sc(156), p.y + sc(14), sc(140), sc(38)),
                                    style="secondary" if job.running else "primary", px=16))

    # ------------------------------------------------------------ events

    def handle(self, ev) -> bool:
        if ev.type == pygame.KEYDOWN:
            if ev.key == pygame.K_ESCAPE:
                self.close()
                return True
            if self.seat is not None and self.moves:
                keys = {pygame.K_RIGHT: lambda: self.select(self.sel + 1),
                        pygame.K_LEFT: lambda: self.select(self.sel - 1),
                        pygame.K_HOME: lambda: self.select(0), pygame.K_END: lambda: self.select(len(self.moves) - 1),
                        pygame.K_TAB: self.next_costly, pygame.K_SPACE: self.toggle_run}
                if ev.key in keys:
                    keys[ev.key]()
                    return True
            if self.seat is None and pygame.K_1 <= ev.key < pygame.K_1 + len(self.choices):
                self.choose(self.choices[ev.key - pygame.K_1])
                return True
        if ev.type == pygame.MOUSEBUTTONUP and ev.button == 1:
            for k, r in enumerate(self._bars):
                if r.inflate(2, 0).collidepoint(ev.pos):
                    self.select(k)
                    return True
        return self.widgets.handle(ev)

    # ------------------------------------------------------------ words

    def explained(self, k: int, text: str) -> Hint:
        """``explain`` of the move ``text`` at the k-th decision, from the seat's view then."""
        key = (k, text)
        h = self._explained.get(key)
        if h is None:
            _, v, _ = self.moves[k]
            assert self.seat is not None
            h = self._explained[key] = explain(v, self.seat, parse_action(text))
        return h

    def heading(self) -> str:
        if self.seat is None:
            return i18n.t("review.choose")
        return i18n.t("review.heading", name=self.seats[self.seat].name)

    def status_line(self) -> str:
        job = self.job
        if job is None or job.complete:
            return ""
        done, total = len(job.review.verdicts), job.review.total
        if job.failed:
            return i18n.t("review.failed")
        if not job.running:
            return i18n.t("review.stopped", done=done, total=total)
        left = left_words(job.seconds_left())
        return i18n.t("review.progress", done=done, total=total) + (f" · {left}" if left else "")

    def detail_lines(self) -> list[tuple[str, str, int, tuple]]:
        """What the panel says of the selected decision: (text, font, px, colour) lines."""
        if not self.moves or self.review is None:
            return [(i18n.t("review.no_decisions"), "sans", 17, W.TEXT_SOFT)]
        index, v, played = self.moves[self.sel]
        out = [(i18n.t("review.decision", round=v.round, kind=i18n.t(f"review.kind.{kind_of(played)}")),
                "sans_bold", 20, W.TEXT)]
        ver = self.verdict()
        if ver is None:
            return out + [(i18n.t("review.not_ready"), "sans", 17, W.TEXT_SOFT)]
        if any(c.index == ver.index for c in self.review.costliest()):
            out.append((i18n.t("review.costly"), "sans_bold", 16, W.BAD))
        mine = self.explained(self.sel, ver.played)
        out.append((i18n.t("review.played", what=mine.what) + " · "
                    + i18n.t("review.expected", points=round(ver.played_points)), "sans_semibold", 17, W.TEXT))
        if ver.best == ver.played:
            out.append((i18n.t("review.same"), "sans", 17, W.OK))
        else:
            best = self.explained(self.sel, ver.best)
            out.append((i18n.t("review.best", what=best.what) + " · "
                        + i18n.t("review.expected", points=round(ver.best_points)), "sans_semibold", 17, W.TEXT))
            if ver.flagged:
                out.append((i18n.t("review.lost", points=decimal(ver.lost), error=decimal(ver.error)),
                            "sans_bold", 17, W.BAD))
            else:
                out.append((i18n.t("review.within", error=decimal(ver.error)), "sans", 17, W.OK))
            out.append((i18n.t("review.why_best", reason=_reason(best)), "sans", 16, W.TEXT))
        out.append((i18n.t("review.why_played", reason=_reason(mine)), "sans", 16, W.TEXT_SOFT))
        return out

    def visible_text(self) -> list[str]:
        out = [self.heading(), self.status_line()]
        if self.seat is not None:
            if self.review is not None and self.review.verdicts:
                out.append(summary_words(self.review))
            out += [t for t, *_ in self.detail_lines()] + [i18n.t("review.timeline"), i18n.t("review.keys")]
        return [t for t in out if t] + super().visible_text()

    # ------------------------------------------------------------ drawing

    def draw(self, surf) -> None:
        surf.fill(W.BG)
        sc = W.sc
        w = self.app.size[0]
        W.blit_text(surf, W.fit_text(self.heading(), "title", 28, w - sc(180)), (sc(20), sc(12)), "title", 28,
                    W.TEXT_LIGHT)
        if self.seat is not None:
            self._draw_board(surf)
            self._draw_panel(surf)
            self._draw_timeline(surf)
        self.widgets.draw(surf)

    def _draw_board(self, surf) -> None:
        r = self.renderer
        if r is None or not self.moves:
            return
        k = self.sel
        _, v, _ = self.moves[k]
        fiefs = [(v.seats[p.seat].colour, p.cells, p.castles) for p in v.pieces if p.kind == "fief"]
        rings = {p.cells[0]: v.seats[p.seat].colour for p in v.pieces if p.kind == "ring"}
        prev = surf.get_clip()
        surf.set_clip(self.board_rect)
        r.draw(surf, fiefs=fiefs, rings=rings, flourishing=v.flourishing)
        ver = self.verdict()
        if ver is not None:
            mine = self.explained(k, ver.played)
            if ver.best != ver.played:
                best = self.explained(k, ver.best)
                if best.cells:
                    r.draw_ghost(surf, best.cells, best.castles, True)
                    r.draw_label(surf, best.cells[0], i18n.t("review.ghost_expert", points=round(ver.best_points)))
            if mine.cells:
                r.draw_ghost(surf, mine.cells, mine.castles, not ver.flagged)
                r.draw_label(surf, mine.cells[0], i18n.t("review.ghost_you", points=round(ver.played_points)),
                             ok=not ver.flagged)
        surf.set_clip(prev)

    def _draw_panel(self, surf) -> None:
        p = self.panel_rect
        sc = W.sc
        W.panel(surf, p, W.PANEL, W.PANEL_EDGE, 12, 2)
        x, y, width = p.x + sc(16), p.y + sc(14), p.w - sc(32)
        status = self.status_line()
        if status:
            bar_w = width - sc(160)
            W.blit_text(surf, W.fit_text(status, "sans", 15, bar_w), (x, y), "sans", 15, W.TEXT_SOFT)
            job = self.job
            bar = pygame.Rect(x, y + sc(24), bar_w, sc(10))
            pygame.draw.rect(surf, BAR_WAITING, bar, 0, 4)
            if job is not None:
                pygame.draw.rect(surf, BAR_FLAGGED, (bar.x, bar.y, int(bar.w * job.fraction), bar.h), 0, 4)
            y += sc(52)
        if self.review is not None and self.review.verdicts:
            y = _blit_wrapped(surf, summary_words(self.review), (x, y), "sans_semibold", 17, W.TEXT, width,
                              p.bottom) + sc(12)
            pygame.draw.line(surf, W.PANEL_EDGE, (x, y), (x + width, y), 1)
            y += sc(10)
        for text, role, px, colour in self.detail_lines():
            y = _blit_wrapped(surf, text, (x, y), role, px, colour, width, p.bottom) + sc(6)
            if y >= p.bottom - sc(10):
                break

    def _draw_timeline(self, surf) -> None:
        t = self.timeline_rect
        sc = W.sc
        W.panel(surf, t, W.PANEL_DARK, W.PANEL_EDGE, 12, 2)
        keys = W.fit_text(i18n.t("review.keys"), "sans", 14, t.w // 2 - sc(24))
        W.blit_text(surf, keys, (t.right - sc(12), t.y + sc(10)), "sans", 14, W.TEXT_SOFT, "topright")
        # the heading takes the room the keys leave, a little smaller before it is ever cut (German)
        room = t.w - sc(12 + 12 + 16) - theme.font("sans", 14).size(keys)[0]
        heading = i18n.t("review.timeline")
        fit = W.fit_lines(heading, "sans_semibold", 15, room, sc(30), 1, min_px=W.SUB_PX)
        px = fit[1] if fit else 15
        W.blit_text(surf, heading if fit else W.fit_text(heading, "sans_semibold", 15, room),
                    (t.x + sc(12), t.y + sc(10)), "sans_semibold", px, W.TEXT)
        rev = self.review
        worst = max([v.lost for v in rev.verdicts] + [1.0]) if rev is not None else 1.0
        marked = {v.index for v in rev.costliest()} if rev is not None else set()
        last_round = None
        for k, r in enumerate(self._bars):
            index, v, _ = self.moves[k]
            ver = self.verdict(k)
            if ver is None:
                pygame.draw.rect(surf, BAR_WAITING, (r.x, r.bottom - sc(4), r.w, sc(4)))
            else:
                hgt = max(sc(3), int(r.h * min(1.0, ver.lost / worst)))
                colour = BAR_FLAGGED if ver.flagged else BAR_CALM
                pygame.draw.rect(surf, colour, (r.x, r.bottom - hgt, r.w, hgt))
                if index in marked:
                    pygame.draw.rect(surf, W.GOLD, (r.x - 1, r.bottom - hgt - 2, r.w + 2, hgt + 2), 2)
            if k == self.sel:
                pygame.draw.rect(surf, W.TEXT, r.inflate(2, 6), 2)
            if v.round != last_round:
                last_round = v.round
                W.blit_text(surf, i18n.t("review.round_short", n=v.round), (r.x, r.bottom + sc(4)), "sans", 13,
                            W.TEXT_SOFT)


def _reason(h: Hint) -> str:
    """Why a move, in the hint's words (a donation's says what the best spot would score)."""
    return h.reason + ((". " + h.prefer) if h.prefer and h.reason else h.prefer)


def _blit_wrapped(surf, text: str, pos, role: str, px: int, colour, width: int, bottom: int) -> int:
    """Draw ``text`` wrapped to ``width``; the y under it (nothing below ``bottom``)."""
    img = W.text(text, role, px, colour, wrap=width)
    if pos[1] + img.get_height() > bottom:
        return bottom
    surf.blit(img, pos)
    if W.CHECK.enabled:
        W.CHECK.note_label(surf, img, img.get_rect(topleft=pos), text, px)
    return pos[1] + img.get_height()


def review_scene_for_file(app, path: Path, seat: Optional[int] = None) -> Scene:
    """The review of a kept finished game's file, or a message saying why it cannot be."""
    try:
        found = finished_of_save(Path(path), app.content)
    except persistence.SaveError as e:
        log.warning("cannot review %s: %s", path, e)
        return MessageScene(app, i18n.t("review.button"), e.report() if hasattr(e, "report") else str(e))
    if found is None:
        return MessageScene(app, i18n.t("review.button"), i18n.t("review.not_over"))
    played, seats, content = found
    return ReviewScene(app, played, seats, content, seat)
