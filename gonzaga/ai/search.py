"""The ``hard`` level: flat Monte Carlo search under hidden information.

At each decision the bot takes the few best candidates by the medium level's judgement
(top-k pruning), then repeatedly

1. samples a full state consistent with its view (``determinize``): every deck order,
   the rivals' objectives, and, while planning, the rivals' plans (drawn from a model
   of each rival: a softmax over its plans valued from its public fief);
2. for every candidate (the same sample for all: common random numbers), applies the
   candidate, plays the rest of the round and ``horizon`` more rounds with a fast
   heuristic policy for every seat, and values the result with the heuristic position
   value turned into a win chance plus a term linear in the margin (``utility``: it does
   not saturate far ahead or behind);

and finally picks the candidate with the best mean. Weak candidates are dropped half-way.

Budgets: ``iterations`` (samples; deterministic, so a seeded game is reproducible) or
``seconds`` (anytime, the default in play). The environment variable
``GONZAGA_AI_ITERATIONS`` sets the iteration budget for every hard bot made by name;
``GONZAGA_AI_SECONDS`` changes the time budget.
"""
from __future__ import annotations

import os
import random
import time
from typing import Any, Callable, Optional, cast

from ..rules import Action, Donate, GameState, Plan, apply, determinize, legal_plans
from ..rules.view import HIDDEN
from .base import Bot
from .bots import best_scoring
from .heuristics import DONATION, SeatContext, action_candidates, position_values, win_utility
from .levels import MediumBot, king_changes_order, rival_plan_model

DEFAULT_SECONDS = 1.4  # leaves room under the 2 s p95 goal for set-up and a slow sample


def _env_int(name: str) -> Optional[int]:
    v = os.environ.get(name)
    try:
        return int(v) if v else None
    except ValueError:
        return None


def _env_float(name: str) -> Optional[float]:
    v = os.environ.get(name)
    try:
        return float(v) if v else None
    except ValueError:
        return None


# ---------------------------------------------------------------- rollout policy

def policy_place(state: GameState, seat: int) -> Action:
    """Fast heuristic placing: the best candidate by piece value (objective known in a sample)."""
    s = state.seats[seat]
    assert s.plan is not None  # the place phase: every seat has planned
    cands = action_candidates(SeatContext(state, seat), s.plan.region, s.plan.action)
    return cands[0][1]


def policy_plan(state: GameState, seat: int) -> Plan:
    """Fast planning for later rounds of a rollout: most immediate points (no King's Privilege)."""
    best, choice = -1.0, None
    for p in legal_plans(state, seat):
        if p.king:
            continue
        pts = max((v for v, _ in best_scoring(state, seat, p.region, p.action)), default=0)
        if pts > best:
            best, choice = pts, p
    assert choice is not None  # a seat always has a plan without the King's Privilege
    return choice


MARGIN_SLOPE = 1.0 / 64.0  # utility per point of margin on top of the win chance


def utility(state: GameState, me: int, values: Optional[list[float]] = None) -> tuple[float, float]:
    """(utility, margin) of a position for seat ``me``.

    The margin is the position value (the score at the end) minus the best rival's. The
    utility is the win chance logistic(margin / 8) (at the end, the result) plus
    ``MARGIN_SLOPE`` x margin: the win chance alone saturates when a seat is far ahead or
    behind, and then every candidate looked the same and noise chose."""
    if state.is_over:
        scores = [float(s.score) for s in state.seats]
        win = 1.0 / len(state.winners) if me in state.winners else 0.0
    else:
        scores = values if values is not None else position_values(state)
        win = None
    margin = scores[me] - max(v for j, v in enumerate(scores) if j != me)
    if win is None:
        win = win_utility(state, me, scores)
    return win + MARGIN_SLOPE * margin, margin


def rollout(state: GameState, me: int, horizon: int) -> tuple[float, float]:
    """Play to the end of the round plus ``horizon`` rounds; (utility, margin) there."""
    end_round = state.round + horizon
    while not state.is_over:
        if state.phase == "plan":
            if state.round > end_round:
                break
            for j in state.to_act():
                state = apply(state, policy_plan(state, j))
        else:
            j = state.to_act()[0]
            state = apply(state, policy_place(state, j))
    return utility(state, me)


def play_out(state: GameState) -> tuple[GameState, int]:
    """The rollout policy played to the end of the game: (final state, rollout steps).

    A rollout step is one seat's decision (a plan or a placement) applied by the rollout
    policy. ``gonzaga bench`` reports rollout steps per second from this.
    """
    steps = 0
    while not state.is_over:
        if state.phase == "plan":
            for j in state.to_act():
                state = apply(state, policy_plan(state, j))
                steps += 1
        else:
            j = state.to_act()[0]
            state = apply(state, policy_place(state, j))
            steps += 1
    return state, steps


# ---------------------------------------------------------------- the bot

class HardBot(Bot):
    """Determinized flat Monte Carlo over medium's top candidates."""

    name = "hard"

    def __init__(self, seed: int = 0, iterations: Optional[int] = None, seconds: Optional[float] = None,
                 k_plans: int = 5, k_places: int = 6, horizon: int = 0):
        super().__init__(seed)
        self.iterations = iterations if iterations is not None else _env_int("GONZAGA_AI_ITERATIONS")
        self.seconds = seconds if seconds is not None else (_env_float("GONZAGA_AI_SECONDS") or DEFAULT_SECONDS)
        self.k_plans = k_plans
        self.k_places = k_places
        self.horizon = horizon
        self.medium = MediumBot(seed)
        self.medium.rng = self.rng
        self.should_stop: Optional[Callable[[], bool]] = None  # set by the worker to abandon
        self.last_stats: dict[str, Any] = {}

    # ------------------------------------------------------------ choose

    def choose(self, view: GameState, seat: int) -> Action:
        if view.phase == "plan":
            scored = sorted(self.medium.plan_scores(view, seat), key=lambda x: -x[0])
            models = {j: rival_plan_model(view, j) for j in range(view.n) if j != seat}
            rivals = [(view.seats[j].card, m) for j, m in models.items()]
            # the King's Privilege only where it may change the turn order (else it only costs a ring)
            scored = [(v, p) for v, p in scored if not p.king or king_changes_order(view, seat, p, rivals)]
            top = scored[: self.k_plans]
            return self._search(view, seat, [p for _, p in top], models, [v for v, _ in top])
        placed = self.medium.place_scores(view, seat)
        best = placed[: self.k_places]
        cands = [a for _, a, _ in best]
        prior = [v for v, _, _ in best]
        if not any(isinstance(a, Donate) for a in cands) and placed and placed[0][0] < 4.0:
            cands.append(Donate(seat))
            prior.append(DONATION)
        return self._search(view, seat, cands, None, prior)

    # ------------------------------------------------------------ search

    def _sample_plan(self, models: Any, rng: random.Random) -> Callable[[GameState, int], Plan]:
        def plan_for(state: GameState, j: int) -> Plan:
            model = models[j]
            x = rng.random()
            for pr, p, _v, _m, _w in model:
                x -= pr
                if x <= 0:
                    return cast(Plan, p)
            return cast(Plan, model[-1][1])
        return plan_for

    def _search(self, view: GameState, seat: int, cands: list[Action], models: Any,
                prior: Optional[list[float]] = None) -> Action:
        if len(cands) == 1:
            self.last_stats = {"iterations": 0, "seconds": 0.0}  # like expert: stats of this decision
            return cands[0]
        rng = self.rng
        t0 = time.perf_counter()
        deadline = None if self.iterations else t0 + self.seconds
        budget = self.iterations or 10 ** 9
        alive = list(range(len(cands)))
        total = [0.0] * len(cands)
        margin = [0.0] * len(cands)
        count = [0] * len(cands)
        halved = False
        it = 0
        while it < budget:
            if self.should_stop is not None and self.should_stop():
                break
            if deadline is not None and time.perf_counter() > deadline:
                break
            if not halved and len(alive) > 2 and (
                    (deadline is None and it >= budget // 2 and it >= 4)
                    or (deadline is not None and time.perf_counter() > t0 + self.seconds / 2)):
                alive.sort(key=lambda k: -total[k] / max(1, count[k]))
                alive = sorted(alive[: max(2, (len(alive) + 1) // 2)])
                halved = True
            it += 1
            plan_for = self._sample_plan(models, rng) if models else None
            det = determinize(view, rng, plan_for=plan_for)
            if models:
                # rivals who have not planned yet: their plans from the same model
                fixed = {}
                for j in range(det.n):
                    if j != seat and det.seats[j].plan is None and plan_for is not None:
                        fixed[j] = plan_for(det, j)
            for k in alive:
                if deadline is not None and count[k] > 0 and time.perf_counter() > deadline:
                    break
                st = apply(det, cands[k])
                if models:
                    for p in fixed.values():
                        st = apply(st, p)
                u, mg = rollout(st, seat, self.horizon)
                total[k] += u
                margin[k] += mg
                count[k] += 1
        best = max(alive, key=lambda k: self._rank(k, cands, total, margin, count, prior))
        self.last_stats = {"iterations": it, "seconds": time.perf_counter() - t0,
                           "means": [round(total[k] / max(1, count[k]), 3) for k in range(len(cands))],
                           "margins": [round(margin[k] / max(1, count[k]), 2) for k in range(len(cands))],
                           "counts": count}
        return cands[best]

    @staticmethod
    def _rank(k: int, cands: list[Action], total: list[float], margin: list[float], count: list[int],
              prior: Optional[list[float]]) -> tuple[Any, ...]:
        """Best mean utility; exact ties go to the larger mean margin, then the larger prior
        value, then the action's text: deterministic, and not the medium order alone."""
        c = max(1, count[k])
        return (round(total[k] / c, 9), round(margin[k] / c, 9),
                prior[k] if prior is not None and k < len(prior) else 0.0, _text_key(cands[k]))


def _text_key(action: Action) -> tuple[Any, ...]:
    """A deterministic last tie-break: the action's text, compared in reverse code points so
    that max() prefers the alphabetically first."""
    return tuple(-ord(ch) for ch in action.to_text())


def _check_hidden(view: GameState) -> None:  # pragma: no cover - debugging aid
    for s in view.seats:
        assert s.plan is None or s.plan.region != HIDDEN or view.phase == "plan"
