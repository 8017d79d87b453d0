"""The game session: the ONLY place where the game state changes.

Screens send it actions (``submit``); it checks them with the rules, applies them,
keeps the :class:`GameRecord` (config, seed, every action), runs the AI seats
through a decision worker (off the main loop), autosaves through a callback and
writes the game log. It never imports pygame, so tests drive it directly::

    s = Session.new([SeatSpec("Ann", "human", colour="red"), SeatSpec("Bot", "ai", "greedy", "blue")], seed=7)
    s.submit(Plan(0, "italia", "B"))    # None when applied, else Illegal(rule, message)
    s.tick()                            # lets AI seats act when their decision is ready

AI seats only ever get ``view(state, seat)``. In the place phase an AI's chosen
action is shown (``ai_showing``) for ``ai_delay`` seconds before it is applied,
so the screen can animate it; plans are applied as soon as they are ready.
"""
from __future__ import annotations

import logging
import random
import time
from dataclasses import dataclass, field
from typing import Callable, Optional

from .rules import (Action, Donate, GameConfig, GameRecord, GameState, Illegal, Place, Plan,
                    Setup, Wedding, apply, check, deal, legal_actions, new_game, view)
from .rules import scoring
from .rules.state import FIRST_LAST_TURN_CHECK
from .rules.view import public_view
from .ai.match import bot_seed
from .rules.content import Content, load_content
from .ui import i18n

log = logging.getLogger(__name__)

SPEEDS = {"slow": 1.6, "normal": 0.8, "fast": 0.3, "instant": 0.0}  # seconds an AI move is shown


@dataclass
class SeatSpec:
    """Who sits in a chair: a name, human or AI (with the bot's name), a colour."""

    name: str
    kind: str = "human"  # "human" or "ai"
    bot: str = "greedy"
    colour: str = "red"

    @property
    def is_ai(self) -> bool:
        return self.kind == "ai"

    def to_json(self) -> dict:
        return {"name": self.name, "kind": self.kind, "bot": self.bot, "colour": self.colour}


@dataclass
class LogEntry:
    """One line of the game log, kept as a string key + parameters so it can be re-translated:
    parameters are ids, numbers, seat names and map names, or ``i18n.Term`` (a card, a number
    with its noun, a sentence) put into words when the line is shown - never translated words."""

    round: int
    key: str
    params: dict = field(default_factory=dict)
    parts: list = field(default_factory=list)  # extra (key, params) pieces appended to the line

    def text(self) -> str:
        s = i18n.t(self.key, **self.params)
        for k, p in self.parts:
            s += i18n.t(k, **p)
        return s


# ---------------------------------------------------------------- decision workers

class InlineWorker:
    """Decides at once in the calling thread (tests, tools). Same API as ``ai.worker.DecisionWorker``."""

    def __init__(self):
        self._results: dict[int, Action] = {}
        self._bots: dict = {}
        self._n = 0

    def request(self, bot_name: str, seed: int, v: GameState, seat: int) -> int:
        from .ai import make_bot
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


def make_worker():
    """The project's decision worker (bots think in a thread or a process, never in the frame loop)."""
    from .ai.worker import DecisionWorker
    return DecisionWorker()


def _fallback(v: GameState, seat: int) -> Action:
    acts = legal_actions(v, seat)
    if v.phase == "place":
        return Donate(seat)
    return acts[0]


# ---------------------------------------------------------------- the session

class Session:
    """One game being played: state, record, seats, log, AI pacing and autosave."""

    def __init__(self, seats: list[SeatSpec], record: GameRecord, *, content: Optional[Content] = None,
                 worker=None, on_change: Optional[Callable[["Session"], None]] = None,
                 ai_delay: float = SPEEDS["normal"], clock: Callable[[], float] = time.monotonic,
                 name: str = ""):
        if len(seats) != record.config.seats:
            raise ValueError("one seat description per seat")
        self.seats = list(seats)
        self.record = GameRecord(record.config, record.seed, [])
        if record.map_id:  # a game begun on a kept earlier edition of the board finishes on it
            from .rules.record import content_of
            content = content_of(record, content or load_content())
        self.content = content
        self.worker = worker
        self.on_change = on_change
        self.ai_delay = ai_delay
        self.clock = clock
        self.name = name
        self.log: list[LogEntry] = []
        self.version = 0  # bumped on every applied action (screens redraw on change)
        self.last_action: Optional[Action] = None
        self.state: GameState = new_game(record.config, content)
        self._tickets: dict[tuple, tuple] = {}  # (round, phase, turn, seat) -> (ticket, actions so far)
        self._showing: Optional[tuple[Action, float]] = None
        self._error: Optional[str] = None
        # what marks a game as helped: take-backs used, hints shown (kept in the save)
        self.assists: dict[str, int] = {"takebacks": 0, "hints": 0}
        self._ai_memo: dict[tuple, Action] = {}  # (seat, actions so far) -> the AI's answer there
        self._orphans: dict[tuple, tuple] = {}  # questions asked at positions a take-back undid
        for a in record.actions:  # replay: same log, no autosave, no RNG
            self._apply(a, notify=False)
        if worker is not None and hasattr(worker, "prestart"):
            worker.prestart([s.bot for s in self.seats if s.kind == "ai"], self.state.content.directory)

    # ------------------------------------------------------------ construction

    @classmethod
    def new(cls, seats: list[SeatSpec], seed: int, scenario: Optional[str] = None, *,
            last_turn: str = "first", **kw) -> "Session":
        """A new game: the setup (scenario, decks, objectives) drawn from ``random.Random(seed)``."""
        config = GameConfig(seats=len(seats), colours=tuple(s.colour for s in seats), scenario=scenario,
                            last_turn=last_turn)
        session = cls(seats, GameRecord(config, seed, []), **kw)
        setup = deal(session.state, random.Random(seed))
        session._apply(setup)
        return session

    def rematch(self, seed: int, **kw) -> "Session":
        """Play again with the same seats (and the same scenario choice)."""
        kw.setdefault("content", self.content.current() if self.content is not None else None)
        kw.setdefault("worker", self.worker)
        kw.setdefault("on_change", self.on_change)
        kw.setdefault("ai_delay", self.ai_delay)
        kw.setdefault("clock", self.clock)
        return Session.new(self.seats, seed, self.record.config.scenario, last_turn=self.record.config.last_turn,
                           **kw)

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

    @property
    def ai_showing(self) -> Optional[Action]:
        """The AI action being shown before it is applied (the screen animates it)."""
        return self._showing[0] if self._showing else None

    def ai_showing_progress(self) -> float:
        if not self._showing or self.ai_delay <= 0:
            return 1.0
        return max(0.0, min(1.0, (self.clock() - self._showing[1]) / self.ai_delay))

    def seat_view(self, seat: int) -> GameState:
        return view(self.state, seat)

    def view_for(self, seat: Optional[int]) -> GameState:
        """What a screen showing ``seat`` may draw; None: the public view (no seat's secrets)."""
        return public_view(self.state) if seat is None else view(self.state, seat)

    def check(self, action: Action) -> Optional[Illegal]:
        return check(self.state, action)

    def score_rows(self) -> list[dict]:
        """The end-of-game breakdown per seat (also fine mid-game: end terms are then 0)."""
        st = self.state
        rows = []
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

    # ------------------------------------------------------------ changing the state

    def submit(self, action: Action) -> Optional[Illegal]:
        """A human seat's action: applied when legal (returns None), else the rule that fails."""
        if isinstance(action, Setup):
            return Illegal("S2", "the setup is drawn by the session")
        if not self.is_human(action.seat):
            return Illegal("R5", f"{self.seat_name(action.seat)} is played by the computer")
        why = check(self.state, action)
        if why is not None:
            return why
        self._apply(action)
        return None

    def tick(self, now: Optional[float] = None) -> bool:
        """Let AI seats act: ask the worker, collect answers, apply them. True if the state changed."""
        if self.worker is None or self.state.phase in ("setup", "over"):
            return False
        now = self.clock() if now is None else now
        changed = False
        if self._showing is not None:
            action, since = self._showing
            if now - since >= self.ai_delay:
                self._showing = None
                changed = self._apply_ai(action)
            else:
                return False
        st = self.state
        for seat in self.waiting_for_ai():
            key = (st.round, st.phase, st.turn if st.phase == "place" else -1, seat)
            ticket = self._tickets.get(key)
            if ticket is None:
                self._tickets[key] = self._ask(seat, st)
                continue
            try:
                action = self._answer(seat, ticket)
            except Exception:  # a broken bot must not stop the game: fall back to a safe action
                log.exception("AI seat %d (%s) failed; it donates or takes the first legal plan",
                              seat, self.seats[seat].bot)
                action = _fallback(view(st, seat), seat)
            if action is None:
                continue
            del self._tickets[key]
            if st.phase == "place" and self.ai_delay > 0:
                self._showing = (action, now)
                break
            changed = self._apply_ai(action) or changed
            if self.state is not st:
                break  # the state moved on: the next tick asks again
        return changed

    def _ask(self, seat: int, st: GameState) -> tuple:
        """Ask the worker for an AI seat's decision: (ticket, actions so far). A decision
        already made at this very position (before a take-back) is given again instead, so
        that a game continues as it would have."""
        prefix = tuple(self.record.actions)
        if (seat, prefix) in self._ai_memo:
            return (None, prefix)
        if (seat, prefix) in self._orphans:  # asked before a take-back, still thinking: wait for it
            return self._orphans.pop((seat, prefix))
        return (self.worker.request(self.seats[seat].bot, bot_seed(self.record.seed, seat), view(st, seat), seat),
                prefix)

    def _answer(self, seat: int, asked: tuple) -> Optional[Action]:
        ticket, prefix = asked
        if ticket is None:
            return self._ai_memo[(seat, prefix)]
        action = self.worker.result(ticket)
        if action is not None:
            if len(self._ai_memo) > 200:  # only the last round's can ever be asked again
                for k in list(self._ai_memo)[:100]:
                    del self._ai_memo[k]
            self._ai_memo[(seat, prefix)] = action
        return action

    def rewind(self, n: int) -> None:
        """Back to the position after the first ``n`` actions of the record (a take-back, see
        ``takeback.py``): state, record and log are rebuilt by replaying them. AI seats then
        decide again from the same positions, and give the same answers (``_ask``)."""
        if not 1 <= n <= len(self.record.actions):
            raise ValueError(f"cannot rewind to {n} of {len(self.record.actions)} actions")
        actions = list(self.record.actions[:n])
        version = self.version
        self.state = new_game(self.record.config, self.state.content)
        self.record.actions.clear()
        self.log = []
        self._showing = None
        for a in actions:
            self._apply(a, notify=False)
        for key, asked in list(self._tickets.items()):  # asked at a position undone now
            prefix = asked[1]
            if len(prefix) > n or tuple(actions[:len(prefix)]) != prefix:
                del self._tickets[key]
                if asked[0] is not None:
                    self._orphans[(key[-1], prefix)] = asked
        self.version = version + 1
        if self.on_change is not None:
            try:
                self.on_change(self)
            except Exception:
                log.exception("on_change callback failed")

    def _apply_ai(self, action: Action) -> bool:
        why = check(self.state, action)
        if why is not None:  # a stale or broken answer: never stall the game
            log.warning("AI action %s refused (%s); using a fallback", action.to_text(), why)
            seat = action.seat
            if seat not in self.state.to_act():
                return False
            action = _fallback(self.state, seat)
        self._apply(action)
        return True

    def close(self) -> None:
        if self.worker is not None:
            self.worker.cancel_all()
        self._tickets.clear()
        self._orphans.clear()
        self._showing = None

    def _apply(self, action: Action, notify: bool = True) -> None:
        prev = self.state
        new = apply(prev, action)  # raises IllegalAction; callers check first
        self.state = new
        self.record.actions.append(action)
        self.last_action = action
        self.version += 1
        self._log(prev, action, new)
        if notify and self.on_change is not None:
            try:
                self.on_change(self)
            except Exception:  # an autosave problem must not stop the game
                log.exception("on_change callback failed")

    # ------------------------------------------------------------ the log

    def _add(self, rnd: int, key: str, **params) -> LogEntry:
        e = LogEntry(rnd, key, params)
        self.log.append(e)
        return e

    def _region(self, region: str) -> "i18n.Term":
        return i18n.card_term(self.state, region)

    def _log(self, prev: GameState, a: Action, new: GameState) -> None:
        name = self.seat_name
        card = self._region
        if isinstance(a, Setup):
            regions = ", ".join(new.content.region_names[r] for r in sorted(new.flourishing,
                                key=lambda r: [x.id for x in new.content.board.regions].index(r)))
            self._add(0, "log.setup", scenario=new.scenario, regions=regions, name=name(new.last_turn_seat))
        elif isinstance(a, Plan):
            self._add(new.round, "log.planned", round=new.round, name=name(a.seat))
            if new.phase == "place":
                plans = i18n.Term("join", "; ", tuple(
                    i18n.Term("t", "log.plan_king" if s.plan.king else "log.plan",
                              {"name": name(i), "region": card(s.plan.region), "action": card(s.plan.action),
                               "king": card("K")})
                    for i, s in enumerate(new.seats)))
                self._add(new.round, "log.reveal", round=new.round, plans=plans)
                for i, s in enumerate(new.seats):
                    if s.plan.king:
                        self._add(new.round, "log.king_ring", round=new.round, name=name(i))
                self._add(new.round, "log.order", round=new.round,
                          order=", ".join(name(i) for i in new.order))
        else:
            rnd = prev.round
            s_prev = prev.seats[a.seat]
            s_new = new.seats[a.seat]
            points = s_new.site_points - s_prev.site_points
            leagues = sorted(s_new.leagues - s_prev.leagues)
            region = self._region(s_prev.plan.region)
            if isinstance(a, Place):
                e = self._add(rnd, "log.place", round=rnd, name=name(a.seat), fief=a.fief, region=region,
                              points=points)
            elif isinstance(a, Wedding):
                e = self._add(rnd, "log.wedding", round=rnd, name=name(a.seat),
                              rings=i18n.Term("n", "n.rings", len(a.rings)), region=region, points=points)
            else:
                e = self._add(rnd, "log.donate", round=rnd, name=name(a.seat), fief=s_prev.fief)
            for sea in leagues:
                e.parts.append(("log.league", {"sea": new.content.sea_names.get(sea, sea)}))
            if isinstance(a, (Place, Wedding)):
                e.parts.append(("log.dot", {}))
            if new.round != prev.round and prev.last_round is None and prev.round >= FIRST_LAST_TURN_CHECK:
                # E1, after every round from round 6 on: the sites in flourishing regions still free
                sites = i18n.Term("n", "n.free_sites", scoring.free_flourishing_sites(new))
                if new.last_round is not None:
                    self._add(rnd, "log.last_turn", after=rnd, sites=sites, round=new.last_round)
                else:
                    self._add(rnd, "log.last_turn_check", round=rnd, sites=sites)
            if new.phase == "over":
                scores = ", ".join(f"{name(i)} {s.score}" for i, s in enumerate(new.seats))
                names = ", ".join(self.seat_name(i) for i in new.winners)
                result = i18n.Term("t", "end.winner" if len(new.winners) == 1 else "end.winners", {"names": names})
                self._add(rnd, "log.end", result=result, scores=scores)
            elif new.round != prev.round:
                self._log_fiefs(new)
        if isinstance(a, Setup):
            self._log_fiefs(new)

    def _log_fiefs(self, st: GameState) -> None:
        fiefs = ", ".join(f"{self.seat_name(i)} {s.fief}" for i, s in enumerate(st.seats))
        self._add(st.round, "log.fiefs", round=st.round, fiefs=fiefs)

    def log_lines(self) -> list[str]:
        return [e.text() for e in self.log]


def new_seed() -> int:
    return random.SystemRandom().randrange(1, 1_000_000)
