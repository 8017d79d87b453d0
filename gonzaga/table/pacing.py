"""AI seats at a table: asked through a decision worker, answered from their own view, paced.

A decision worker has ``request(bot, seed, view, seat) -> ticket``, ``result(ticket)`` (None
until ready; a bot's exception is raised there), ``cancel_all()`` and ``close()``:
``ai.worker.DecisionWorker`` on the desktop, :class:`InlineWorker` in tests and tools, the
server's pools (``net/server.py``). AI seats only ever get ``view(state, seat)``.

In the place phase an AI's chosen action is shown (``showing``) for ``ai_delay`` seconds
before it is applied, so a screen can animate it; plans are applied as soon as they are ready.
A decision made at a position is remembered: after a take-back the AI seats decide again from
the same positions and give the same answers, so a game continues as it would have.
"""
from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Optional, Protocol, Sequence

from ..ai.match import bot_seed
from ..rules import Action, Donate, GameRecord, GameState, check, legal_actions, view
from .store import StoreFailed
from ..ai import make_bot
from ..ai.worker import DecisionWorker
from .seats import SeatSpec

if TYPE_CHECKING:
    from ..ai.base import Bot

log = logging.getLogger(__name__)

# a question to the worker: (its ticket, or None when the answer is remembered; the record's
# actions when it was asked)
Prefix = tuple[Action, ...]
Asked = tuple[Optional[int], Prefix]

SPEEDS = {"slow": 1.6, "normal": 0.8, "fast": 0.3, "instant": 0.0}  # seconds an AI move is shown


class Worker(Protocol):
    """A decision worker (this module's docstring); a ticket names one question."""

    def request(self, bot_name: str, seed: int, v: GameState, seat: int) -> int: ...

    def result(self, ticket: int) -> Optional[Action]: ...

    def cancel_all(self) -> None: ...

    def close(self) -> None: ...


class Paced(Protocol):
    """The table whose AI seats are paced (a protocol: ``core.Table`` imports this module)."""

    @property
    def state(self) -> GameState: ...

    @property
    def seats(self) -> Sequence[SeatSpec]: ...

    @property
    def record(self) -> GameRecord: ...

    def _commit(self, action: Action) -> None: ...


class InlineWorker:
    """Decides at once in the calling thread (tests, tools). Same API as ``ai.worker.DecisionWorker``."""

    def __init__(self) -> None:
        self._results: dict[int, Action] = {}
        self._bots: dict[tuple[str, int, int], Bot] = {}
        self._n = 0

    def request(self, bot_name: str, seed: int, v: GameState, seat: int) -> int:
        self._n += 1
        bot = self._bots.get((bot_name, seed, seat))
        if bot is None:
            bot = self._bots[(bot_name, seed, seat)] = make_bot(bot_name, seed)
        self._results[self._n] = bot.choose(v, seat)
        return self._n

    def result(self, ticket: int) -> Optional[Action]:
        return self._results.pop(ticket, None)

    def cancel_all(self) -> None:
        self._results.clear()

    def close(self) -> None:
        self.cancel_all()


def make_worker() -> DecisionWorker:
    """The project's decision worker (bots think in a thread or a process, never in the frame loop)."""
    return DecisionWorker()


def fallback(v: GameState, seat: int) -> Action:
    """A safe decision for a seat whose AI failed: a donation, or the first legal plan."""
    acts = legal_actions(v, seat)
    if v.phase == "place":
        return Donate(seat)
    return acts[0]


class AIPacer:
    """The AI seats of one table: their open questions, the answer being shown, the answers given."""

    def __init__(self, table: Paced, worker: Optional[Worker], ai_delay: float):
        self.table = table
        self.worker = worker
        self.ai_delay = ai_delay
        self._tickets: dict[tuple[int, str, int, int], Asked] = {}  # (round, phase, turn, seat) -> asked
        self._showing: Optional[tuple[Action, float]] = None
        self._memo: dict[tuple[int, Prefix], Action] = {}  # (seat, actions so far) -> the AI's answer there
        self._orphans: dict[tuple[int, Prefix], Asked] = {}  # questions asked at positions a take-back undid
        self.stalled = False  # an answer the store could not keep (the server tries again later)
        self._stand_ins: dict[int, tuple[str, tuple[int, str, int]]] = {}  # a human seat's one decision: (bot, position)

    @property
    def showing(self) -> Optional[Action]:
        return self._showing[0] if self._showing else None

    def progress(self, now: float) -> float:
        if not self._showing or self.ai_delay <= 0:
            return 1.0
        return max(0.0, min(1.0, (now - self._showing[1]) / self.ai_delay))

    def waiting(self) -> list[int]:
        t = self.table
        return [i for i in t.state.to_act() if t.seats[i].kind == "ai" or self._standing_in(i)]

    @staticmethod
    def _position(st: GameState) -> tuple[int, str, int]:
        return (st.round, st.phase, st.turn if st.phase == "place" else -1)

    def stand_in(self, seat: int, bot: str) -> None:
        """An AI makes human ``seat``'s decision at this position (the turn timer ran out; the
        table checked it may). Its player may still act first: then the answer is stale."""
        self._stand_ins[seat] = (bot, self._position(self.table.state))

    def _standing_in(self, seat: int) -> bool:
        s = self._stand_ins.get(seat)
        return s is not None and s[1] == self._position(self.table.state) and self.table.seats[seat].kind == "human"

    def _bot(self, seat: int) -> str:
        return self._stand_ins[seat][0] if self._standing_in(seat) else self.table.seats[seat].bot

    def instant(self) -> bool:
        """Some question is answered already (a remembered answer): the next tick applies it."""
        return any(asked[0] is None for asked in self._tickets.values())

    def tick(self, now: float) -> bool:
        """Ask the worker, collect answers, apply them. True if the state changed. A store that
        fails leaves the answer remembered: the next tick tries it again."""
        t = self.table
        if self.worker is None or t.state.phase in ("setup", "over"):
            return False
        changed = False
        if self._showing is not None:
            action, since = self._showing
            if now - since >= self.ai_delay:
                self._showing = None
                changed = self._apply(action)
            else:
                return False
        st = t.state
        for seat in self.waiting():
            key = (st.round, st.phase, st.turn if st.phase == "place" else -1, seat)
            asked = self._tickets.get(key)
            if asked is None:
                self._tickets[key] = self._ask(seat, st)
                continue
            answer: Optional[Action]
            try:
                answer = self._answer(seat, asked)
            except Exception:  # a broken bot must not stop the game: fall back to a safe action
                log.exception("AI seat %d (%s) failed; it donates or takes the first legal plan",
                              seat, t.seats[seat].bot)
                answer = fallback(view(st, seat), seat)
            if answer is None:
                continue
            del self._tickets[key]
            if st.phase == "place" and self.ai_delay > 0:
                self._showing = (answer, now)
                break
            changed = self._apply(answer) or changed
            if t.state is not st:
                break  # the state moved on: the next tick asks again
        return changed

    def _ask(self, seat: int, st: GameState) -> Asked:
        """Ask the worker for an AI seat's decision: (ticket, actions so far). A decision
        already made at this very position (before a take-back) is given again instead."""
        t = self.table
        prefix = tuple(t.record.actions)
        if (seat, prefix) in self._memo:
            return (None, prefix)
        assert self.worker is not None  # tick asks only with a worker
        if (seat, prefix) in self._orphans:  # asked before a take-back, still thinking: wait for it
            return self._orphans.pop((seat, prefix))
        return (self.worker.request(self._bot(seat), bot_seed(t.record.seed, seat), view(st, seat), seat),
                prefix)

    def _answer(self, seat: int, asked: Asked) -> Optional[Action]:
        ticket, prefix = asked
        if ticket is None:
            return self._memo[(seat, prefix)]
        assert self.worker is not None  # as in _ask
        action = self.worker.result(ticket)
        if action is not None:
            if len(self._memo) > 200:  # only the last round's can ever be asked again
                for k in list(self._memo)[:100]:
                    del self._memo[k]
            self._memo[(seat, prefix)] = action
        return action

    def _apply(self, action: Action) -> bool:
        t = self.table
        seat = getattr(action, "seat", None)
        if seat is None or not 0 <= seat < len(t.seats) or not (t.seats[seat].kind == "ai" or self._standing_in(seat)) \
                or seat not in t.state.to_act():
            return False  # a stale answer (the seat was handed over, or the game moved on)
        why = check(t.state, action)
        if why is not None:  # a stale or broken answer: never stall the game
            log.warning("AI action %s refused (%s); using a fallback", action.to_text(), why)
            action = fallback(t.state, seat)
        try:
            t._commit(action)
        except StoreFailed:
            self.stalled = True
            return False
        return True

    def rewound(self, n: int, actions: list[Action]) -> None:
        """The record was cut back to its first ``n`` actions: questions asked at positions
        undone now are kept aside (their answers will be wanted again)."""
        self._showing = None
        for key, asked in list(self._tickets.items()):
            prefix = asked[1]
            if len(prefix) > n or tuple(actions[:len(prefix)]) != prefix:
                del self._tickets[key]
                if asked[0] is not None:
                    self._orphans[(key[-1], prefix)] = asked

    def close(self) -> None:
        if self.worker is not None:
            self.worker.cancel_all()
        self._tickets.clear()
        self._orphans.clear()
        self._showing = None
