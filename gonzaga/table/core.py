"""The table: the one authority that moves a game on (boardgame.io's ``Master``).

Every change of a game being played goes through :meth:`Table.act` (a human seat's decision),
the AI pacing (``pacing.py``, for the AI seats), :meth:`Table.start` (the deal) or
:meth:`Table.take_back`. Each change is checked (the rules' ``Illegal`` with its rule id, and
who may do it: ``seats.py``), written to the store (``store.py``) BEFORE it becomes visible (a
store that fails leaves the game unchanged), applied with the rules' ``apply`` (this module is
the only one outside the rules and the AI that calls it), recorded in the ``GameRecord``, and
told to every observer as its own view (``observers.py``).

The same class serves a desktop game (hot-seat and solo in one process, the ``Session``) and
each room of the online server, so who may do what is decided once, here::

    t = Table([SeatSpec("Ann"), SeatSpec("Bot", "ai", "greedy", "blue")], GameRecord(config, 7),
              worker=InlineWorker())
    t.start(random.Random(7))
    t.act(0, Plan(0, "italia", "B"))    # None when applied, else Illegal(rule, message)
    t.tick()                            # the AI seats act when their decision is ready
    t.view_for(0)                       # what seat 0 may see (None: the public view)
"""
from __future__ import annotations

import logging
import random
import time
from typing import Callable, Optional, Sequence

from ..rules import Action, GameRecord, GameState, Illegal, Setup, apply, check, deal, new_game
from ..rules.content import Content, load_content
from ..rules.view import shown_view, view
from . import takeback
from .observers import Observer, ObserverCallback, Observers
from .pacing import AIPacer, Worker
from .seats import (TABLE_RULE, SeatSpec, act_problem, give_back_problem, grace_problem, handover_problem, may_hint,
                    resign_problem)
from .store import Change, NoStore, Store, StoreFailed
from ..rules.record import content_of

log = logging.getLogger(__name__)


class Table:
    """One game: its state, record and seats; the only place the state changes."""

    def __init__(self, seats: Sequence[SeatSpec], record: GameRecord, *, content: Optional[Content] = None,
                 store: Optional[Store] = None, worker: Optional[Worker] = None, ai_delay: float = 0.0,
                 clock: Callable[[], float] = time.monotonic, host: Optional[int] = 0,
                 assists: Optional[dict[str, int]] = None):
        if len(seats) != record.config.seats:
            raise ValueError("one seat description per seat")
        self.seats = list(seats)
        self.record = GameRecord(record.config, record.seed, [], record.map_id)
        if record.map_id:  # a game begun on a kept earlier edition of the board finishes on it
            content = content_of(record, content or load_content())
        self.store: Store = store if store is not None else NoStore()
        self.host = host
        self.clock = clock
        self.state: GameState = new_game(record.config, content)
        self.version = 0  # bumped on every change (screens redraw on change)
        self.last_action: Optional[Action] = None
        # what marks a game as helped: take-backs used, hints shown (kept in the save)
        self.assists: dict[str, int] = assists if assists is not None else {"takebacks": 0, "hints": 0}
        self.observers = Observers()
        self.ai = AIPacer(self, worker, ai_delay)
        # who is away (online: a dropped connection, since when by ``clock``), the grace period
        # before the host may hand such a seat to an AI, the seats handed over that way (their
        # players may take them back) and the seats whose players resigned (they may not)
        self.away: dict[int, float] = {}
        self.grace = 0.0
        self.handed: set[int] = set()
        self.resigned: set[int] = set()
        # the owner's hooks (the desktop Session writes its log from them): every applied action,
        # replayed ones included, and the start of a rebuild after a take-back
        self.on_applied: Optional[Callable[[GameState, Action, GameState], None]] = None
        self.on_reset: Optional[Callable[[], None]] = None
        for a in record.actions:  # a game rebuilt from its record: no store, nobody told, no RNG
            self.load(a)

    # ------------------------------------------------------------ queries

    @property
    def content(self) -> Content:
        return self.state.content

    @property
    def n(self) -> int:
        """The number of actions in the record."""
        return len(self.record.actions)

    @property
    def started(self) -> bool:
        return bool(self.record.actions)

    @property
    def is_over(self) -> bool:
        return self.state.phase == "over"

    def is_human(self, seat: int) -> bool:
        return self.seats[seat].kind == "human"

    @property
    def humans(self) -> list[int]:
        return [i for i, s in enumerate(self.seats) if s.kind == "human"]

    def seat_name(self, seat: int) -> str:
        return self.seats[seat].name

    def view_for(self, seat: Optional[int]) -> GameState:
        """What ``seat`` may see: ``rules.view(state, seat)`` (every objective once the game is
        over, as at the table); for None, a shared screen or a spectator, the public view."""
        return shown_view(self.state, seat)

    def hint_view(self, seat: Optional[int]) -> Optional[GameState]:
        """The view a hint for ``seat`` is worked out from: only a human seat's own view, in a game
        that goes on; None when no hint may be given."""
        if seat is None or not may_hint(self.seats, seat) or self.state.phase in ("setup", "over"):
            return None
        return view(self.state, seat)

    # ------------------------------------------------------------ observers

    def observe(self, callback: ObserverCallback, seat: Optional[int] = None) -> Observer:
        """Tell ``callback(view, action, table)`` after every change, with ``seat``'s view."""
        return self.observers.add(callback, seat)

    def unobserve(self, o: Observer) -> None:
        self.observers.remove(o)

    # ------------------------------------------------------------ seats

    def set_seat(self, seat: int, spec: SeatSpec) -> None:
        """A lobby's change of seat (before the game begins). ValueError after it has begun: then
        only :meth:`hand_to_ai` changes a seat."""
        if self.started:
            raise ValueError("the game has begun: a seat can only be handed to the computer")
        self.seats[seat] = spec

    def handover_problem(self, seat: int, by: Optional[int]) -> Optional[Illegal]:
        """None when ``by`` may hand human ``seat`` to an AI now; else why not (keyed). The
        host hands another player's seat only after that player has been away ``grace`` seconds."""
        return handover_problem(self.seats, seat, by, self.host, self.is_over, self.started) or \
            grace_problem(seat, by, self.away.get(seat), self.grace, self.clock())

    def mark_away(self, seat: int, away: bool) -> None:
        """Seat ``seat``'s player left (their connection dropped) or is back."""
        if not away:
            self.away.pop(seat, None)
        elif 0 <= seat < len(self.seats):
            self.away.setdefault(seat, self.clock())

    def hand_to_ai(self, seat: int, bot: str, by: Optional[int]) -> Optional[Illegal]:
        """``by`` hands human ``seat`` to the AI level ``bot``: None when done, else why not. Only
        the host or the seat's own player may, in a game that has begun and is not over."""
        why = self.handover_problem(seat, by)
        if why is not None:
            return why
        old = self.seats[seat]
        self.seats[seat] = SeatSpec(old.name, "ai", bot, old.colour)
        self.handed.add(seat)
        self.version += 1
        self.observers.tell(self, None)
        return None

    def give_back(self, seat: int, name: str, by: Optional[int]) -> Optional[Illegal]:
        """The player of ``seat`` (``by``), back after a hand-over, takes it from the AI again:
        None when done, else why not. A seat whose player resigned stays the AI's."""
        why = give_back_problem(self.seats, seat, by, self.handed - self.resigned, self.is_over)
        if why is not None:
            return why
        old = self.seats[seat]
        self.seats[seat] = SeatSpec(name, "human", old.bot, old.colour)
        self.handed.discard(seat)
        self.away.pop(seat, None)
        self.version += 1
        self.observers.tell(self, None)
        return None

    def resign(self, seat: int, bot: str, by: Optional[int]) -> Optional[Illegal]:
        """The player of ``seat`` (``by``) resigns: the AI level ``bot`` plays the seat to the end
        (the others' game goes on as it was) and the player cannot take it back. None when done."""
        why = resign_problem(self.seats, seat, by, self.started, self.is_over)
        if why is not None:
            return why
        old = self.seats[seat]
        self.seats[seat] = SeatSpec(old.name, "ai", bot, old.colour)
        self.resigned.add(seat)
        self.version += 1
        self.observers.tell(self, None)
        return None

    def time_out(self, seat: int, bot: str) -> Optional[Illegal]:
        """The turn timer ran out for human ``seat``: the AI level ``bot`` makes this one decision
        for it (through the pacing, from the seat's own view). None when asked, else why not."""
        if not self.started or self.is_over:
            return Illegal.of(TABLE_RULE, "not_playing")
        if not 0 <= seat < len(self.seats) or self.seats[seat].kind != "human":
            return Illegal.of(TABLE_RULE, "not_human_seat", seat=seat)
        if seat not in self.state.to_act():
            return Illegal.of(TABLE_RULE, "not_seats_turn", seat=seat)
        self.ai.stand_in(seat, bot)
        return None

    # ------------------------------------------------------------ changing the state

    def start(self, rng: random.Random) -> Setup:
        """Deal the setup (the chance outcome, drawn from ``rng``) and apply it. ValueError if the
        game has begun or a seat is still open; StoreFailed if the store cannot keep it."""
        if self.started or self.state.phase != "setup":
            raise ValueError("the game has already begun")
        for i, s in enumerate(self.seats):
            if s.kind not in ("human", "ai"):
                raise ValueError(f"seat {i} is still open")
        setup = deal(self.state, rng)
        self._commit(setup)
        return setup

    def act(self, seat: int, action: Action) -> Optional[Illegal]:
        """Human ``seat`` sends ``action``: None when applied, else why not (``seats.SeatRefused``
        for who sent it, else the rules' ``Illegal`` with its rule id). StoreFailed (and nothing
        changed) when the store cannot keep it."""
        why = act_problem(self.seats, seat, action)
        if why is None:
            why = check(self.state, action)
        if why is not None:
            return why
        self._commit(action)
        return None

    def tick(self, now: Optional[float] = None) -> bool:
        """Let the AI seats act: ask the worker, collect answers, apply them. True if the state changed."""
        return self.ai.tick(self.clock() if now is None else now)

    def load(self, action: Action) -> None:
        """An action of a record being rebuilt: applied and recorded, never stored nor told."""
        self._apply(action)

    def follow(self, action: Action) -> None:
        """An action another process's table stored (online, several server processes): applied,
        recorded and told to the observers, not stored again. Raises IllegalAction for one that
        does not follow (the caller reloads the game)."""
        self._apply(action)
        self.observers.tell(self, action)

    def _commit(self, action: Action) -> None:
        """Store, then apply, record and tell: the one way a game being played moves on."""
        new = apply(self.state, action)  # raises IllegalAction; callers check first
        self._keep(Change("action", self.n, action, GameRecord(self.record.config, self.record.seed,
                          self.record.actions + [action], self.record.map_id), new, self.seats,
                          assists=self.assists, version=self.version + 1))
        self._apply(action, new)
        self.observers.tell(self, action)

    def _keep(self, change: Change) -> None:
        try:
            self.store.keep(change)
        except Exception as e:
            log.error("the store could not keep %s %d: %s", change.kind, change.index, e)
            raise StoreFailed(str(e)) from e

    def _apply(self, action: Action, new: Optional[GameState] = None) -> None:
        prev = self.state
        if new is None:
            new = apply(prev, action)
        self.state = new
        self.record.actions.append(action)
        self.last_action = action
        self.version += 1
        if self.on_applied is not None:
            self.on_applied(prev, action, new)

    # ------------------------------------------------------------ take-backs

    def takeback_problem(self, seat: Optional[int], by: Optional[int] = None) -> Optional[str]:
        """None when human ``by`` (default: ``seat`` itself) may take back ``seat``'s latest
        decision now; else why not (an i18n key). Only one's own decision is ever undone."""
        return takeback.rule_problem(self, seat, seat if by is None else by)

    def take_back(self, seat: Optional[int], by: Optional[int] = None) -> Optional[str]:
        """Human ``by`` (default: ``seat``) takes back its own latest decision (and the AI
        decisions made after it): None when done, else why not (an i18n key, ``tb.*``);
        StoreFailed (nothing changed) when the store cannot keep it. See ``takeback.py``."""
        why = self.takeback_problem(seat, by)
        if why is not None:
            return why
        i = None if seat is None else takeback.last_decision(self, seat)
        assert i is not None  # takeback_problem found the decision
        self.assists["takebacks"] = self.assists.get("takebacks", 0) + 1  # before: the store says it
        try:
            self.rewind(i)
        except StoreFailed:  # nothing was taken back: nor is it counted
            self.assists["takebacks"] -= 1
            raise
        return None

    def rewind(self, n: int) -> None:
        """Back to the position after the first ``n`` actions of the record (a take-back: see
        :meth:`take_back`, which decides whether one is allowed): stored first, then state and
        record rebuilt by replaying them. AI seats then decide again from the same positions."""
        if not 1 <= n <= self.n:
            raise ValueError(f"cannot rewind to {n} of {self.n} actions")
        actions = list(self.record.actions[:n])
        states = [new_game(self.record.config, self.state.content)]
        for a in actions:
            states.append(apply(states[-1], a))
        self._keep(Change("rewind", n, None, GameRecord(self.record.config, self.record.seed, list(actions),
                          self.record.map_id), states[-1], self.seats, assists=self.assists,
                          version=self.version + 1))
        self.record.actions.clear()
        self.record.actions.extend(actions)
        self.state = states[-1]
        self.last_action = actions[-1]
        self.version += 1
        if self.on_reset is not None:
            self.on_reset()
        if self.on_applied is not None:
            for prev, a, new in zip(states, actions, states[1:]):
                self.on_applied(prev, a, new)
        self.ai.rewound(n, actions)
        self.observers.tell(self, None)

    # ------------------------------------------------------------ AI pacing

    @property
    def worker(self) -> Optional[Worker]:
        return self.ai.worker

    @property
    def ai_delay(self) -> float:
        return self.ai.ai_delay

    @ai_delay.setter
    def ai_delay(self, value: float) -> None:
        self.ai.ai_delay = value

    @property
    def ai_showing(self) -> Optional[Action]:
        """The AI action being shown before it is applied (the screen animates it)."""
        return self.ai.showing

    def ai_showing_progress(self) -> float:
        return self.ai.progress(self.clock())

    def close(self) -> None:
        """Stop asking the AI seats (their open questions are forgotten)."""
        self.ai.close()
