"""The post-game review (issue 48): for one seat of a finished game, where its points went.

For every decision the seat made (a plan, a placement, a wedding, a donation) the seat's view
just before it (``rules.view``: never another seat's objective, nor a plan before the reveal)
is handed to ``analyse``, which compares the move played with the expert's candidates for that
view (``ExpertBot.scored_candidates``, best prior first; the played move always among them).
Every candidate is played out on the same determinizations (common random numbers, drawn as
the expert draws them: rivals' objectives from its inference, secret plans from medium's
model) to the expert's horizon and valued as the expert values it. A candidate's worth is its
mean margin (the seat's points minus the best rival's), so a move that lets a rival score
counts too; the points lost are the best candidate's mean margin minus the played move's,
with a margin of error of two standard errors of their paired difference. A decision whose
loss is within its error is not flagged.

Deterministic: a decision's random stream is seeded by (review seed, seat, position), and the
budget is a number of rollouts, never a time. Nothing here imports pygame.
"""
from __future__ import annotations

import math
import random
from typing import Any, Callable, Iterator, Optional

from ..rules import (Action, GameRecord, GameState, Place, Setup, Wedding, apply, new_game,
                     view)
from ..rules.content import Content
from .expert import HORIZON, ExpertBot
from .fastsim import Sim
from .review_result import KINDS, Review, Verdict, kind_of, record_digest

DEFAULT_BUDGET = 400  # rollouts a decision: one seat of a four-seat game in about half a minute
WIDEN = 0.45  # candidates compared: WIDEN * sqrt(budget) (at least MIN_CANDS) plus the move played
MIN_CANDS = 4
ERROR_Z = 2.0  # the margin of error: this many standard errors of the paired difference
MIN_ERROR = 0.5  # points: a loss this small is never flagged
RULES_LEAGUES = (0.0, 0.0, 0.0)  # no value for 0-2 harbors of a sea without its league (X2)


# ---------------------------------------------------------------- the decisions of a seat

def decisions(record: GameRecord, seat: int, content: Optional[Content] = None
              ) -> Iterator[tuple[int, GameState, Action]]:
    """(position, the seat's view just before, the action played) for every decision of ``seat``
    (chance outcomes are nobody's). Only the view leaves this function."""
    state = new_game(record.config, content)
    for i, a in enumerate(record.actions):
        if not isinstance(a, Setup) and getattr(a, "seat", None) == seat:
            yield i, view(state, seat), a
        state = apply(state, a)


def decision_seed(seed: int, seat: int, index: int) -> int:
    return (seed * 1_000_003 + seat * 7_919 + index * 104_729 + 48) % (2 ** 31 - 1)


def _key(v: GameState, a: Action) -> object:
    """What makes two moves the same move: a placement's cells (two rotations can cover the same)."""
    if isinstance(a, Place):
        cells, _ = v.content.fiefs[a.fief].footprint(a.anchor, a.rotation)
        return ("place", frozenset(cells))
    if isinstance(a, Wedding):
        return ("wed", frozenset(a.rings))
    return a


def _values(sim: Sim, table: Optional[dict[Any, Any]]) -> list[float]:
    """What a rollout's end is worth to each seat: the final scores at the game's end; before,
    the learned value where the expert has one (three and four seats), else the hand value with
    the sea leagues counted as the rules score them (X2: 10 points once a seat holds 3 harbors,
    nothing before), not the hand value's potential for 1 or 2 harbors held: that potential
    credited a seat which gave up a league (a donation where the placement scoring it was open)
    with 4.5 of its 10 points, as if completing it later cost no move."""
    if sim.phase == "over" or table is not None:
        return [float(x) for x in ExpertBot._result(sim, table)[0]]
    return sim.position_values(league_pot=RULES_LEAGUES)


def candidate_count(budget: int) -> int:
    return max(MIN_CANDS, int(round(WIDEN * math.sqrt(budget))))


def analyse(v: GameState, seat: int, played: Action, budget: int = DEFAULT_BUDGET, seed: int = 0,
            index: int = 0, should_stop: Optional[Callable[[], bool]] = None) -> Optional[Verdict]:
    """The verdict on ``played`` from the seat's view ``v`` alone (``v.viewer`` must be ``seat``).
    None when ``should_stop`` asked to stop before the analysis ended."""
    if v.viewer != seat:
        raise ValueError(f"the review analyses from the seat's own view (viewer {v.viewer}, seat {seat})")
    bot = ExpertBot(seed, iterations=budget)
    rng = random.Random(seed)
    bot.rng = rng
    bot.medium.rng = rng
    scored = bot.scored_candidates(v, seat)
    cands: list[Action] = []
    seen = set()
    pk = _key(v, played)
    for _prior, a in scored[: candidate_count(budget)]:
        k = _key(v, a)
        if k not in seen:
            seen.add(k)
            cands.append(played if k == pk else a)
    if pk not in seen:
        cands.append(played)
    ip = next(i for i, a in enumerate(cands) if a is played)
    rnd = v.round
    if len(cands) == 1:  # nothing else was possible
        return Verdict(index, rnd, kind_of(played), played.to_text(), played.to_text(), 0.0, 0.0, 0.0, 0.0, 1, 0)
    base, weights = bot._begin(v, seat)
    n_det = max(4, budget // len(cands))
    own = [[0.0] * n_det for _ in cands]
    marg = [[0.0] * n_det for _ in cands]
    for d in range(n_det):
        if should_stop is not None and should_stop():
            return None
        det = bot._determinization(base, v, seat, weights, rng)
        for k, a in enumerate(cands):
            sim = det.copy()
            sim.apply_action(a)
            sim.play(det.round + HORIZON)
            values = _values(sim, bot._table)
            own[k][d] = values[seat]
            marg[k][d] = values[seat] - max(x for j, x in enumerate(values) if j != seat)
    means = [sum(m) / n_det for m in marg]
    best = max(range(len(cands)), key=lambda k: (round(means[k], 9), k == ip, -k))
    diff = [marg[best][d] - marg[ip][d] for d in range(n_det)]
    mean_d = sum(diff) / n_det
    sd = math.sqrt(sum((x - mean_d) ** 2 for x in diff) / max(1, n_det - 1))
    error = max(MIN_ERROR, ERROR_Z * sd / math.sqrt(n_det))
    return Verdict(index, rnd, kind_of(played), played.to_text(), cands[best].to_text(),
                   round(sum(own[ip]) / n_det, 2), round(sum(own[best]) / n_det, 2),
                   round(max(0.0, mean_d), 2), round(error, 2), len(cands), n_det * len(cands))


def review_seat(record: GameRecord, seat: int, content: Optional[Content] = None, budget: int = DEFAULT_BUDGET,
                seed: int = 0, done: Optional[Review] = None,
                progress: Optional[Callable[[Review], None]] = None,
                should_stop: Optional[Callable[[], bool]] = None) -> Review:
    """Review every decision of ``seat`` (resuming ``done``, a partial review of the same game and
    budget); ``progress`` is called after each decision; stops early when ``should_stop`` says so."""
    todo = list(decisions(record, seat, content))
    dig = record_digest(record)
    if done is not None and (done.digest, done.seat, done.budget, done.seed) == (dig, seat, budget, seed):
        rev = done
    else:
        rev = Review(seat, dig, budget, seed, len(todo))
    have = {x.index for x in rev.verdicts}
    for index, v, a in todo:
        if index in have:
            continue
        verdict = analyse(v, seat, a, budget, decision_seed(seed, seat, index), index, should_stop)
        if verdict is None:
            break
        rev.verdicts.append(verdict)
        if progress is not None:
            progress(rev)
    rev.verdicts.sort(key=lambda x: x.index)
    return rev


__all__ = ["DEFAULT_BUDGET", "KINDS", "Review", "Verdict", "analyse", "decisions", "kind_of", "record_digest",
           "review_seat"]
