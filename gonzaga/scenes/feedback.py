"""The table responds: what happened, heard and seen.

One observer per game screen. Each frame it compares the game state it saw last with the
face's public state now (``derive``: pure, from the two states only, so several moves applied in
one frame are all seen) and watches the screen's own interface state (a card chosen, a turn
that opens, the privacy curtain). For every event it plays a sound *and* starts a motion, so
nothing is told by sound alone:

=============  ===================  ===================================================
event          sound                what is seen
=============  ===================  ===================================================
card chosen    ``card``             the card is selected in the hand
reveal         ``reveal``           the reveal turns the cards over (overlays.py)
fief / ring    ``fief`` / ``ring``  the piece settles onto the board
points         ``points``           "+N" rises from each site it scores; the score counts up
sea league     ``league``           the sea's harbors flare and a banner names the league
donation       ``donation``         "+3" rises from the seat's score
Last Turn      ``last_turn``        a banner: this round is the last
curtain        ``curtain``          the curtain itself
your turn      ``your_turn``        the bottom bar flashes gold with "Your turn"
end            ``win`` / ``loss``   the end table fills row by row; the score-by-round chart
=============  ===================  ===================================================

The motion follows the speed setting and "reduce motion" (``ui.motion``); sounds go to the
app's audio. At the end of a game seen here (not a finished game loaded) the statistics are
updated once (the app's ``count_finished``).

:class:`Feedback` composes parts with explicit inputs, none holding the screen or the app:
``Motion`` and ``Sounds`` (feedback_motion.py: the events and what moves for them),
``Banners`` and ``UiWatch`` (feedback_banners.py: the banners, the "Your turn" flash, the
screen's own moments) and ``EndChart`` (feedback_chart.py). What they read of the screen comes
as getters (:class:`Screen`), what they ask of the app as callbacks (:class:`Asks`); an online
game passes its own scores by round and a drawer under the banners (its chat strip).
"""
from __future__ import annotations

import logging
import threading
from dataclasses import dataclass
from typing import Any, Callable, Optional, Sequence

import pygame

from ..rules import GameRecord
from ..table import history
from ..table.history import RoundScores
from ..ui.motion import Animator, Tween, speed_scale
from .feedback_banners import Banners, Choice, Turn, UiWatch
from .feedback_chart import EndChart
from .feedback_motion import END_ROW_S as END_ROW_S, Event as Event, Motion, Sounds, derive as derive

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Screen:
    """What the feedback reads of its game screen, each a getter (the screen lays itself out
    again at any time): ``view`` (the state it draws: a seat's view), ``renderer`` (the map's,
    None before the first layout), the map's, bottom bar's and side panel's rectangles (None:
    not laid out, or no such bar), the side ``panel`` part (None without one), the pointer, the
    hand's ``choice``, the ``turn`` (whose hand is open; who places, with the placement's key)
    and boxes the "Your turn" flash ``keep_clear`` of."""

    view: Callable[[], Any]
    renderer: Callable[[], Any]
    board: Callable[[], pygame.Rect]
    bottom: Callable[[], Optional[pygame.Rect]]
    panel_rect: Callable[[], Optional[pygame.Rect]]
    panel: Callable[[], Any]
    mouse: Callable[[], tuple[int, int]]
    choice: Callable[[], Choice]
    turn: Callable[[], Turn]
    keep_clear: Callable[[], Sequence[pygame.Rect]]


@dataclass(frozen=True)
class Asks:
    """What the feedback reads of the app's settings and asks of it: the ``speed`` and
    ``reduce_motion`` settings, the window's ``size``, ``play`` a sound, ``count_finished`` (a
    game seen to its end: the statistics' message, if any), ``toast`` (a message shown a few
    seconds) and ``curtain`` (an id of the privacy curtain shown, None without one)."""

    speed: Callable[[], str]
    reduce_motion: Callable[[], bool]
    size: Callable[[], tuple[int, int]]
    play: Callable[[str], None]
    count_finished: Callable[[], Optional[str]]
    toast: Callable[[str, float], None]
    curtain: Callable[[], Optional[int]]


class Feedback:
    """Sound and motion for one game screen, made of its parts. Inputs: ``face`` (the game's
    face: the seat's view of it, never the session), ``screen`` and ``asks`` (above),
    ``round_scores`` (the end chart's scores by round; by default the finished game's record
    replayed off the frame loop) and ``under_banners`` (drawn first, under the banners and the
    flash: an online game's chat strip). ``record_stats`` (count the game once it ends) and
    ``watch_ui`` (hear the screen's own moments) can be turned off (a replay, the tutorial)."""

    def __init__(self, face: Any, screen: Screen, asks: Asks, *,
                 round_scores: Optional[Callable[[Any], Optional[RoundScores]]] = None,
                 under_banners: Optional[Callable[[pygame.Surface], None]] = None,
                 record_stats: bool = True, watch_ui: bool = True):
        self.face = face
        self.screen = screen
        self.asks = asks
        self.under_banners = under_banners
        self.record_stats = record_stats
        self.watch_ui = watch_ui
        self._scores_job: Optional[tuple[tuple[Any, ...], list[Optional[RoundScores]], threading.Thread]] = None
        self.anim = Animator(self.scale)
        self.sounds = Sounds(self.scale, asks.play)
        self.motion = Motion(face, self.anim, self.sounds, screen.renderer, asks.size, self._seat_rects, self._ended)
        self.banners = Banners(face, screen.view, self.anim, screen.board, screen.bottom, screen.keep_clear)
        self.watch = UiWatch(screen.choice, screen.turn, asks.curtain, self.play, self.anim)
        self.chart = EndChart(face, screen.view, screen.board, screen.panel_rect, screen.panel, screen.mouse,
                              round_scores or self._round_scores)

    def scale(self) -> float:
        return speed_scale(self.asks.speed(), self.asks.reduce_motion())

    def _seat_rects(self) -> Sequence[tuple[pygame.Rect, int]]:
        panel = self.screen.panel()
        return panel.seat_rects if panel is not None else []

    def _ended(self) -> None:
        if self.record_stats:
            message = self.asks.count_finished()  # the app holds the statistics: it counts the game
            if message:
                self.asks.toast(message, 9)

    # ------------------------------------------------------------ every frame

    def update(self, dt: float) -> None:
        self.anim.update(dt)
        self.sounds.update(dt)
        self.motion.see()
        if self.watch_ui:
            self.watch.update()
        self.motion.fill_end()

    def draw(self, surf: pygame.Surface) -> None:
        """Everything that moves, over the game screen (called at the end of its draw)."""
        if self.under_banners is not None:
            self.under_banners(surf)
        over = self.screen.view().phase == "over"
        if not self.anim.tweens and not over:
            return
        clip = surf.get_clip()
        if over and self.chart.in_panel():
            self.chart.draw(surf, on_map=False)
        surf.set_clip(self.screen.board())
        if over and not self.chart.in_panel():
            self.chart.draw(surf, on_map=True)
        self.motion.draw_map(surf)
        surf.set_clip(clip)
        self.banners.draw(surf)
        self.motion.draw_panel(surf)

    # ------------------------------------------------------------ what the rest of the game asks

    @property
    def events(self) -> list[Event]:
        """The events of the last change (tests read them)."""
        return self.motion.events

    def reset(self) -> None:
        """Take the face's state as seen, without any event (a game opened, a jump in a replay)."""
        self.motion.reset()

    def play(self, name: str, delay: float = 0.0) -> None:
        self.sounds.play(name, delay)

    def _react(self, events: list[Event], state: Any) -> None:  # (gonzaga/bench/anim.py starts every motion)
        self.motion.react(events, state)

    def reveal_flips(self, n: int) -> list[Tween]:
        return self.motion.reveal_flips(n)

    def score(self, seat: int, actual: int) -> int:
        return self.motion.score(seat, actual)

    def pieces(self, fiefs: Any, rings: Any) -> tuple[Any, Any]:
        return self.motion.pieces(fiefs, rings)

    def end_rows(self, rows: list[Any]) -> list[Any]:
        return self.motion.end_rows(rows)

    def banner_rects(self) -> list[pygame.Rect]:
        return self.banners.banner_rects()

    def steady_rects(self, seats: Sequence[int]) -> tuple[list[pygame.Rect], list[pygame.Rect]]:
        return self.banners.steady_rects(seats)

    def your_turn_box(self, seat: int) -> Optional[pygame.Rect]:
        return self.banners.your_turn_box(seat)

    def _banner_image(self, tw: Tween) -> pygame.Surface:  # (tests/test_tutorial.py measures the banners)
        return self.banners._banner_image(tw)

    def _banner_box(self, size: tuple[int, int], below: int, raw: float = 1.0) -> pygame.Rect:
        return self.banners._banner_box(size, below, raw)

    def chart_rect(self) -> pygame.Rect:
        return self.chart.rect()

    def chart_in_panel(self) -> bool:
        return self.chart.in_panel()

    def panel_chart_room(self) -> int:
        return self.chart.panel_room()

    def _draw_chart(self, surf: pygame.Surface, on_map: bool) -> None:
        self.chart.draw(surf, on_map)

    @property
    def _chart(self) -> Optional[tuple[tuple[Any, ...], pygame.Surface]]:
        return self.chart.image

    def _round_scores(self, s: Any) -> Optional[RoundScores]:
        """The game's scores by round, replayed in a thread (a whole game takes tens of ms: more
        than a frame); None until it is ready."""
        key = (s.token, s.position)
        job = self._scores_job
        if job is None or job[0] != key:
            rec = s.finished_record()  # the chart is drawn once the game is over: the record is public then
            record = GameRecord(rec.config, rec.seed, list(rec.actions))
            box: list[Optional[RoundScores]] = []
            content = self.screen.view().content

            def run() -> None:
                try:
                    box.append(history.round_scores(history.states(record, content)))
                except Exception:  # the chart is decoration: never a crash
                    log.exception("score-by-round chart")
                    box.append(None)
            t = threading.Thread(target=run, name="gonzaga-chart", daemon=True)
            job = self._scores_job = (key, box, t)
            t.start()
        return job[1][0] if job[1] else None
