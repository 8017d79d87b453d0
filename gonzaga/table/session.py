"""The desktop game session: a thin user of the :class:`~gonzaga.table.core.Table`, the only
place where the game state changes (hot-seat and solo in one process, like boardgame.io's
``LocalMaster``).

Screens send it actions (``submit``); its table checks them (who may, and the rules), keeps
them through the autosave (``on_change``, called BEFORE the change is visible, with the
position as it will be: a ``store.Change``), applies them and records them in the
:class:`GameRecord`; the table's AI pacing runs the AI seats through a decision worker (off
the main loop). The session writes the game log and answers the screens' questions. It never
imports pygame, so tests drive it directly::

    s = Session.new([SeatSpec("Ann", "human", colour="red"), SeatSpec("Bot", "ai", "greedy", "blue")], seed=7)
    s.submit(Plan(0, "italia", "B"))    # None when applied, else Illegal(rule, key, params)
    s.tick()                            # lets AI seats act when their decision is ready
    s.view_for(0)                       # what seat 0 may see; None: the public view

AI seats only ever get ``view(state, seat)``. In the place phase an AI's chosen action is shown
(``ai_showing``) for ``ai_delay`` seconds before it is applied, so the screen can animate it.
``state``, ``version``, ``last_action`` and ``log`` mirror the table after each change (the
online and replay sessions, which have no authority here, set them themselves).
"""
from __future__ import annotations

import itertools
import logging
import random
import time
from typing import Any, Callable, Optional, Sequence, TypedDict

from ..rules import Action, GameConfig, GameRecord, GameState, Illegal, check
from ..rules import scoring
from ..rules.content import Content
from ..words import i18n
from . import gamelog, hints
from .core import Table
from .gamelog import LogEntry
from .pacing import SPEEDS, InlineWorker, Worker, make_worker  # noqa: F401  (screens, tests)
from .seats import SeatSpec
from .store import CallbackStore, Change
from .takeback import candidate

log = logging.getLogger(__name__)

_TOKENS = itertools.count(1)  # a session's token: names its game while it runs (``id()`` is reused)


# ---------------------------------------------------------------- the session

class ScoreRow(TypedDict):
    """One seat's line of the end-of-game breakdown (:meth:`Session.score_rows`)."""

    seat: int
    name: str
    colour: str
    sites: int
    leagues: int
    donations: int
    gonzaga: int
    objective: int
    total: int
    objective_id: Optional[str]  # shown once the game is over
    objective_held: Optional[int]
    sites_held: int
    winner: bool


class Session:
    """One desktop game: its table (state, record, seats, AI pacing, autosave), log and queries."""

    def __init__(self, seats: list[SeatSpec], record: GameRecord, *, content: Optional[Content] = None,
                 worker: Optional[Worker] = None, on_change: Optional[Callable[[Change], None]] = None,
                 ai_delay: float = SPEEDS["normal"], clock: Callable[[], float] = time.monotonic,
                 name: str = ""):
        if len(seats) != record.config.seats:
            raise ValueError("one seat description per seat")
        self.on_change = on_change
        self.name = name
        self.token = next(_TOKENS)
        self.log: list[LogEntry] = []
        self.authority = Table(seats, GameRecord(record.config, record.seed, [], record.map_id), content=content,
                               store=CallbackStore(self._keep), worker=worker, ai_delay=ai_delay, clock=clock,
                               host=None)
        self.seats = self.authority.seats
        self.record = self.authority.record
        self.assists = self.authority.assists
        self.content = self.authority.content if record.map_id else content
        self.state: GameState = self.authority.state
        self.version = 0  # bumped on every applied action (screens redraw on change)
        self.last_action: Optional[Action] = None
        self.authority.on_applied = self._applied
        self.authority.on_reset = self._reset
        for a in record.actions:  # replay: same log, no autosave, no RNG
            self._apply(a, notify=False)
        if worker is not None and hasattr(worker, "prestart"):
            worker.prestart([s.bot for s in self.seats if s.kind == "ai"], self.state.content.directory)

    # ------------------------------------------------------------ construction

    @classmethod
    def new(cls, seats: list[SeatSpec], seed: int, scenario: Optional[str] = None, *,
            last_turn: str = "first", **kw: Any) -> "Session":
        # ``kw``: the keyword options of ``Session(...)``
        """A new game: the setup (scenario, decks, objectives) drawn from ``random.Random(seed)``."""
        config = GameConfig(seats=len(seats), colours=tuple(s.colour for s in seats), scenario=scenario,
                            last_turn=last_turn)
        session = cls(seats, GameRecord(config, seed, []), **kw)
        session.authority.start(random.Random(seed))
        return session

    def rematch(self, seed: int, **kw: Any) -> "Session":
        """Play again with the same seats (and the same scenario choice)."""
        kw.setdefault("content", self.content.current() if self.content is not None else None)
        kw.setdefault("worker", self.worker)
        kw.setdefault("on_change", self.on_change)
        kw.setdefault("ai_delay", self.ai_delay)
        kw.setdefault("clock", self.clock)
        return Session.new(self.seats, seed, self.record.config.scenario, last_turn=self.record.config.last_turn,
                           **kw)

    # ------------------------------------------------------------ the table's settings

    @property
    def worker(self) -> Optional[Worker]:
        return self.authority.worker

    @property
    def ai_delay(self) -> float:
        return self.authority.ai_delay

    @ai_delay.setter
    def ai_delay(self, value: float) -> None:
        self.authority.ai_delay = value

    @property
    def clock(self) -> Callable[[], float]:
        return self.authority.clock

    # ------------------------------------------------------------ queries

    def seat_name(self, seat: int) -> str:
        return self.seats[seat].name

    def is_human(self, seat: int) -> bool:
        return not self.seats[seat].is_ai

    @property
    def humans(self) -> list[int]:
        return [i for i, s in enumerate(self.seats) if not s.is_ai]

    @property
    def is_over(self) -> bool:
        return self.state.phase == "over"

    def shown_seed(self) -> Optional[int]:
        """The seed a screen may show (to play the same deal again), or None: in a hot-seat game
        not before the game is over (``seed_is_secret``); never in an online game, whose server
        keeps its own."""
        if getattr(self, "remote", False) or (seed_is_secret(self.seats) and not self.is_over):
            return None
        return self.record.seed

    def humans_to_plan(self) -> list[int]:
        """Human seats that still have to plan this round (in seat order)."""
        if self.state.phase != "plan":
            return []
        return [i for i in self.state.to_act() if self.is_human(i)]

    def human_to_place(self) -> Optional[int]:
        if self.state.phase == "place":
            seat = self.state.to_act()[0]
            if self.is_human(seat):
                return seat
        return None

    def waiting_for_ai(self) -> list[int]:
        return [i for i in self.state.to_act() if not self.is_human(i)]

    def at_screen(self) -> Optional[int]:
        """The human at this screen, as far as the session can tell: the only human of a solo
        game; in hot-seat the human who must decide now (the curtain has passed to them), else
        the human who decided last. Take-backs are asked in their name."""
        humans = self.humans
        if len(humans) == 1:
            return humans[0]
        now: Sequence[Optional[int]] = self.humans_to_plan() or [self.human_to_place()]
        if now[0] is not None:
            return now[0]
        return candidate(self)

    @property
    def ai_showing(self) -> Optional[Action]:
        """The AI action being shown before it is applied (the screen animates it)."""
        return self.authority.ai_showing

    def ai_showing_progress(self) -> float:
        return self.authority.ai_showing_progress()

    @property
    def position(self) -> int:
        """How many actions the game has had."""
        return len(self.record.actions)

    def hint_seed(self, seat: int) -> int:
        """The seed of a hint for ``seat`` here: the same question gets the same answer."""
        return hints.hint_seed(self.record.seed, seat, self.position)

    def hint_key(self, seat: int) -> tuple[object, ...]:
        """What a hint for ``seat`` depends on: while the seats plan, its own round's decision
        (another seat's hidden plan landing changes nothing of it: a hint shown stays, and Enter
        plays it); else every change of the game."""
        st = self.state
        if st.phase == "plan" and 0 <= seat < len(st.seats):  # (a take-back starts the decision again)
            return ("plan", st.round, st.seats[seat].plan is None, self.assists.get("takebacks", 0))
        return ("at", self.version)

    def takeback_candidate(self) -> Optional[int]:
        """The human seat whose decision a take-back would concern (the one who decided last)."""
        return candidate(self)

    def view_for(self, seat: Optional[int]) -> GameState:
        """What ``seat`` may see (the table's ``view_for``); None: the public view of a shared screen."""
        return self.authority.view_for(seat)

    def hint_view(self, seat: Optional[int]) -> Optional[GameState]:
        """The view a hint for ``seat`` is worked out from (only a human seat's own), or None."""
        return self.authority.hint_view(seat)

    def check(self, action: Action) -> Optional[Illegal]:
        return check(self.state, action)

    def score_rows(self) -> list[ScoreRow]:
        """The end-of-game breakdown per seat (also fine mid-game: end terms are then 0)."""
        st = self.state
        rows: list[ScoreRow] = []
        for i, s in enumerate(st.seats):
            rows.append({
                "seat": i, "name": self.seats[i].name, "colour": s.colour,
                "sites": s.site_points, "leagues": s.league_points, "donations": s.donation_points,
                "gonzaga": s.gonzaga_points, "objective": s.objective_points, "total": s.score,
                "objective_id": s.objective if st.phase == "over" else None,
                "objective_held": scoring.objective_cities_held(st, i) if st.phase == "over" else None,
                "sites_held": scoring.sites_held(st, i),
                "winner": i in st.winners,
            })
        return rows

    def result_text(self) -> str:
        st = self.state
        names = ", ".join(self.seat_name(i) for i in st.winners)
        return i18n.t("end.winner" if len(st.winners) == 1 else "end.winners", names=names)

    # ------------------------------------------------------------ changing the state (through the table)

    def submit(self, action: Action) -> Optional[Illegal]:
        """A human seat's action: applied when legal (returns None), else the rule that fails."""
        return self.authority.act(getattr(action, "seat", -1), action)

    def tick(self, now: Optional[float] = None) -> bool:
        """Let AI seats act: ask the worker, collect answers, apply them. True if the state changed."""
        return self.authority.tick(now)

    def takeback_problem(self, seat: Optional[int]) -> Optional[str]:
        """None when ``seat`` may take back its latest decision now, asked by the human at this
        screen (:meth:`at_screen`); else why not (an i18n key)."""
        return self.authority.takeback_problem(seat, self.at_screen())

    def take_back(self, seat: Optional[int]) -> Optional[str]:
        """Take back ``seat``'s latest decision, asked by the human at this screen: None when done."""
        return self.authority.take_back(seat, self.at_screen())

    def rewind(self, n: int) -> None:
        """Back to the position after the first ``n`` actions of the record (a take-back: see
        ``takeback.py``; the table rebuilds state, record and log by replaying them)."""
        self.authority.rewind(n)

    def close(self) -> None:
        self.authority.close()

    def _apply(self, action: Action, notify: bool = True) -> None:
        """An action of the record this session is rebuilt from (``notify``: a new one, kept)."""
        if notify:
            self.authority._commit(action)
        else:
            self.authority.load(action)

    def _keep(self, change: Change) -> None:
        """The table's store: the autosave callback, with this session's name and seats."""
        if self.on_change is not None:
            change.name = self.name
            self.on_change(change)

    def _applied(self, prev: GameState, action: Action, new: GameState) -> None:
        self.state = new
        self.last_action = action
        self.version = self.authority.version
        self._log(prev, action, new)

    def _reset(self) -> None:
        """A take-back: the log is written again from the replayed actions."""
        self.log = []
        self.state = self.authority.state
        self.version = self.authority.version
        self.last_action = self.authority.last_action

    # ------------------------------------------------------------ the log

    def _add(self, rnd: int, key: str, **params: object) -> LogEntry:
        e = LogEntry(rnd, key, params)
        self.log.append(e)
        return e

    def _log(self, prev: GameState, a: Action, new: GameState) -> None:
        """The log lines of one action (``gamelog.write``, with this session's seat names)."""
        self.log.extend(gamelog.write(prev, a, new, self.seat_name))

    def log_lines(self) -> list[str]:
        return [e.text() for e in self.log]


def seed_is_secret(seats: Sequence[SeatSpec]) -> bool:
    """Two or more people share this computer (hot seat): the seed stays hidden until the game is
    over, since from it anyone can deal the game again and read the other players' objectives."""
    return sum(1 for s in seats if not s.is_ai) >= 2


def new_seed() -> int:
    return random.SystemRandom().randrange(1, 1_000_000)
