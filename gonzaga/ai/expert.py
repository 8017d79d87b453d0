"""The ``expert`` level: a determinized Monte Carlo search whose play improves with its budget.

At each decision, from the seat's view only (spec E):

1. **Candidates**: every legal plan (a King's Privilege plan only when it may change the
   turn order, with a chance of at least ``KING_MIN`` under medium's model of the rivals,
   ``levels.king_changes_order``), or every placement under the revealed plan
   that covers a site or touches the seat's pieces, every useful wedding, and the
   donation. The medium level's values order them (the prior).
2. **Inference**: a distribution over the objective cards this seat has not seen (its own
   is known), for each rival weighted by how many of each card's cities the rival holds
   (``objective_weights``); determinizations draw rivals' objectives from it, jointly
   (no two seats share a card), and shuffle every deck.
3. **Search**: sequential halving with progressive widening. The budget B (rollouts)
   decides how many candidates enter, about ``WIDEN * sqrt(B)`` in prior order, so a larger
   budget looks at more of them; then in rounds, every surviving candidate is played out
   on the same determinizations (common random numbers) and the weaker half is dropped.
   The final choice is the best mean among the last survivors, each mean shrunk toward
   the prior by ``PRIOR_SAMPLES`` virtual rollouts. While planning, rivals who have not
   revealed their plans get a plan drawn from medium's model of them (``rival_model``).
4. **Rollouts** run on ``fastsim.Sim`` (every seat plays the fast heuristic policy with the
   tuned weights ``fastsim.TUNED``, and its sampled objective) to the end of the next round (``HORIZON``; the game's end when
   it comes first), and a result is worth ``win + margin / MARGIN_SCALE`` (with ``BLEND``
   > 0, averaged between the end of the current round and the horizon: the same rollout
   valued twice, a small ensemble of two look-aheads; off by default): the margin is
   the seat's score minus the best rival's (the final scores, or, when the rollout stops
   before the end, the position values: in three- and four-seat games the learned ones of
   ``valuefn``, each seat's final score predicted from self-play games, else
   ``Sim.position_values``), the win is the result or logistic(margin / ``WIN_SCALE``, the
   knob ``win_scale``). The margin term does not saturate, so a far-ahead or far-behind seat
   still sees which move scores more.

Budgets: ``iterations`` (rollouts; a seeded game is then reproducible) or ``seconds``
(anytime: the budget is set from the measured rollout speed and the search returns the
best so far at the deadline or when the worker asks it to stop). ``GONZAGA_EXPERT_ITERATIONS``
and ``GONZAGA_EXPERT_SECONDS`` set them for every expert made by name; ``make_bot("expert@800")``
pins 800 rollouts.
"""
from __future__ import annotations

import math
import os
import random
import time
from typing import Callable, Optional

from ..rules import Action, Donate, GameState
from ..rules.state import evolve
from . import value_table, valuefn
from .base import Bot
from .fastsim import BASE_WEIGHTS, TUNED, Sim, Weights
from .heuristics import DONATION, RING_VALUE
from .levels import MediumBot, _softmax, king_changes_order, rival_plan_model

DEFAULT_SECONDS = 1.5  # the p95 goal is 2 s: set-up and the last round of rollouts fit under it
MARGIN_SCALE = 40.0  # points of margin worth one win
WIN_SCALE = 8.0  # a rollout stopped before the end: win chance logistic(margin / WIN_SCALE)
HORIZON = 1  # rollouts stop after this many rounds past the current one (None: the end)
BLEND = 0.0  # a rollout's value: BLEND x at the end of this round + (1 - BLEND) x at HORIZON
# (0.5 was screened against hard at a quarter budget: no difference that 40 games could show)
WIDEN = 0.5  # candidates searched: WIDEN * sqrt(budget), at least MIN_ARMS
PRIOR_SAMPLES = 4.0  # the prior counts as this many rollouts when ranking (shrinks noisy means)
MIN_ARMS = 4
POLICY = "tuned"  # the rollout policy's weights: "tuned" (fastsim.TUNED), "base" (medium's values) or Weights
OBJ_BETA = 0.9  # inference: weight exp(beta * cities of the card the rival holds)
RIVAL_TAU = 2.0  # softmax temperature of a rival's plan in a determinization
INNER = 1  # own placements tried in a plan's rollout (1: the policy's own)
INNER_PLAN = 1  # own next-round plans tried in a rollout (1: the policy's own)
RIVAL_PLAN_TAU = 1.0  # rival_model "objective": softmax temperature over medium's plan worths
SIM_RIVAL_KING = 0.08  # rival_model "sim": chance a rival's sampled plan carries the King's Privilege (when legal)
# a K plan is a candidate when it may change the turn order at all: placing first insures
# against a rival's secret plan taking the spot, and the rollouts weigh that against the ring
# (hard's 0.5 left expert's hedges out; docs/ai.md, twelfth session)
KING_MIN = 0.01
# a rollout's end before the game's: "hand" (Sim.position_values), "learned" (valuefn), or
# "auto": learned with the seat counts in LEARNED_SEATS, hand otherwise (docs/ai.md, eighth to tenth sessions)
VALUE = "auto"
# four: a clear gain (+5.12 points per game); three: +2.91 over 300 games (+1.12 to +4.71);
# two: +0.94 over 400 games, noise
LEARNED_SEATS = frozenset({3, 4})
# a rollout stopped before the end: "best" (logistic of the margin to the best rival) or
# "field" (against every rival: each seat's product of pairwise logistics, normalised over
# the seats, so a seat level with three rivals has 1/4 and not 1/2; level with "best" over 200
# four-seat games, docs/ai.md, thirteenth session)
WIN_CHANCE = "best"
# medium's model of a rival's plan gives the King's Privilege plans this factor of their
# probability (then normalised): 1.0 keeps the model as medium has it. The model expects K
# four times as often as hard plans it in two seats, yet 0.2 (calibrated on hard) cost 2 points
# per game: its pessimism hedges (docs/ai.md, thirteenth session)
RIVAL_KING_FACTOR = 1.0
# a plan's worth: its mean rollout utility (0), or with risk aversion beta > 0 the entropic
# certainty equivalent -log(mean exp(-beta u)) / beta, which weighs the determinizations where
# that plan does worst (a rival's secret plan that takes its spot) more: the distributionally
# robust value against every rival model within a KL ball of medium's (``robust_mean``).
# Off: level over 400 two-seat games at 1x (+0.02 points per game) and leaning negative in
# four seats (docs/ai.md, fifteenth session)
RISK = 0.0
LEARN_SHRINK = 4.0  # rival_learn: a rival plan's mean counts n / (n + this) of its advantage
# tree: a plan's rollouts share a node for the seat's own placement per information set (what it
# will know when it places: every plan, and the pieces placed before its turn); a node offers the
# policy's placement first, then widens to 1 + TREE_WIDEN x sqrt(visits) of its TREE_TOP best;
# TREE is its UCB1 constant. Off: level to negative at equal budgets (-1.07 and -0.70 points per
# game over 400 two-seat games at a quarter budget, -1.16 over 200 at 1x) and 4x vs 1x unchanged
# (93 of 200); likely because the seat's own placement is one of many decisions a rollout leaves
# to the policy (docs/ai.md, sixteenth session)
TREE = 0.0
TREE_TOP = 8
TREE_WIDEN = 0.5


def _env_int(name: str) -> Optional[int]:
    try:
        v = os.environ.get(name)
        return int(v) if v else None
    except ValueError:
        return None


def _env_float(name: str) -> Optional[float]:
    try:
        v = os.environ.get(name)
        return float(v) if v else None
    except ValueError:
        return None


# ---------------------------------------------------------------- inference

def objective_weights(view: GameState, seat: int, beta: float = OBJ_BETA) -> dict[int, list[tuple[str, float]]]:
    """For each rival: [(objective id, weight)] over the cards ``seat`` has not seen.

    A rival's pieces on a card's cities make the card likelier: weight exp(beta * cities held),
    normalised. Its own card is known to the seat and excluded."""
    board = view.board
    content = view.content
    mine = view.seats[seat].objective
    pool = [o.id for o in content.objectives if o.id != mine]
    masks = {o: board.mask_of(content.objective_cities(o)) for o in pool}
    out = {}
    for j, s in enumerate(view.seats):
        if j == seat:
            continue
        held = s.held
        w = [math.exp(beta * (held & masks[o]).bit_count()) for o in pool]
        tot = sum(w)
        out[j] = [(o, x / tot) for o, x in zip(pool, w)]
    return out


def sample_objectives(weights: dict[int, list[tuple[str, float]]], rng: random.Random) -> dict[int, str]:
    """One joint draw: rivals in random order, each from its weights among the cards left."""
    order = list(weights)
    rng.shuffle(order)
    used: set[str] = set()
    out = {}
    for j in order:
        opts = [(o, w) for o, w in weights[j] if o not in used]
        tot = sum(w for _, w in opts)
        x = rng.random() * tot
        pick = opts[-1][0]
        for o, w in opts:
            x -= w
            if x <= 0:
                pick = o
                break
        out[j] = pick
        used.add(pick)
    return out


def field_win_chance(values: list[float], scale: float) -> list[float]:
    """Each seat's chance to win from predicted final scores: the product of its pairwise
    chances logistic((own - rival) / scale) against every rival, normalised over the seats.

    Against one rival this is the plain logistic. Against several it sees the whole field:
    a seat level with three rivals gets 1/4 (the margin to the best rival alone says 1/2),
    and a seat that drops a close second rival behind gains even when the leader is unchanged."""
    n = len(values)
    raw = []
    for i in range(n):
        p = 1.0
        for j in range(n):
            if j != i:
                p /= 1.0 + math.exp((values[j] - values[i]) / scale)
        raw.append(p)
    tot = sum(raw)
    return [x / tot for x in raw]


def robust_mean(total: float, expsum: float, count: int, beta: float) -> float:
    """A candidate's worth from ``count`` rollout utilities u with sum ``total`` and
    ``expsum`` = sum of exp(-beta u): the mean when beta is 0, else the entropic certainty
    equivalent -log(expsum / count) / beta. It lies between the worst result and the mean,
    and is the worst expected utility over every reweighting q of the rollouts penalised by
    KL(q || uniform) / beta: a hedge against a wrong model of the rivals' secret plans."""
    if count == 0:
        return 0.0
    if not beta:
        return total / count
    return -math.log(expsum / count) / beta


def kings_scaled(model: list, factor: float) -> list:
    """Medium's model of a rival's plan (``rival_plan_model`` rows) with the probability of
    every King's Privilege plan multiplied by ``factor`` and the rows normalised again."""
    if factor == 1.0 or not any(row[1].king for row in model):
        return model
    w = [row[0] * (factor if row[1].king else 1.0) for row in model]
    tot = sum(w)
    return [(x / tot, *row[1:]) for x, row in zip(w, model)]


def _draw(table: list, rng: random.Random):
    """One item of [(probability, item)] (probabilities summing to 1), by one ``rng.random()``."""
    x = rng.random()
    for pr, item in table:
        x -= pr
        if x <= 0:
            return item
    return table[-1][1]


def ucb_pick(visits: list[int], sums: list[float], width: int, c: float) -> int:
    """The option a tree node tries next among its first ``width``: the first never tried,
    else UCB1, the best mean + c x sqrt(ln(total visits) / visits) (ties: the earlier)."""
    for k in range(width):
        if not visits[k]:
            return k
    log_n = math.log(sum(visits[:width]))
    return max(range(width), key=lambda k: (sums[k] / visits[k] + c * math.sqrt(log_n / visits[k]), -k))


class _Node:
    """A ``tree`` node: the seat's placement options in one information set (the policy's
    first), and each option's visits and summed utility."""

    __slots__ = ("opts", "n", "sums", "widened")

    def __init__(self, policy_choice):
        self.opts = [policy_choice]
        self.n = [0]
        self.sums = [0.0]
        self.widened = False  # the further options are added once, when the width first exceeds 1

    @property
    def visits(self) -> int:
        return sum(self.n)

    def widen(self, more: list) -> None:
        self.opts.extend(more)
        self.n.extend([0] * len(more))
        self.sums.extend([0.0] * len(more))
        self.widened = True


def _choice_key(choice) -> Optional[tuple]:
    """A placement choice of ``Sim`` (an entry and whether it is rings, or None: the
    donation) as a key that names the same choice in every determinization."""
    return None if choice is None else (choice[0].mask, choice[1])


def _policy_until(sim: Sim, seat: int) -> None:
    """The seats whose turn comes before ``seat``'s in this round place by the policy."""
    order = sim.order
    while sim.phase == "place" and order[sim.turn] != seat:
        i = order[sim.turn]
        sim.do_place(i, sim.policy_place(i))


def _sim_plan(sim: Sim, plan) -> tuple:
    """A rules ``Plan`` as the simulator keeps it: (region card index, action, king)."""
    return (sim.t.card_index[plan.region], plan.action, plan.king)


# ---------------------------------------------------------------- the bot

class ExpertBot(Bot):
    """Sequential halving with progressive widening over determinized full-game rollouts."""

    name = "expert"

    def __init__(self, seed: int = 0, iterations: Optional[int] = None, seconds: Optional[float] = None,
                 horizon: Optional[int] = HORIZON, widen: float = WIDEN, prior_samples: float = PRIOR_SAMPLES,
                 king: bool = True, rival_model: str = "medium", halving: bool = True,
                 beta: float = OBJ_BETA, blend: float = BLEND, policy=POLICY, inner: int = INNER,
                 place_iterations: Optional[int] = None, rival_policy=None, rival_learn: float = 0.0,
                 value: str = VALUE, win_scale: float = WIN_SCALE, margin_scale: float = MARGIN_SCALE,
                 king_min: float = KING_MIN, win_chance: str = WIN_CHANCE, ring_value: float = RING_VALUE,
                 rival_king: float = RIVAL_KING_FACTOR, risk: float = RISK, risk_by: str = "rollout",
                 tree: float = TREE, inner_plan: int = INNER_PLAN):
        """The keyword knobs after ``seconds`` are for experiments (docs/ai.md): the rollout
        horizon in rounds (None: the game's end), the widening factor, the prior's weight,
        whether K plans are candidates, the rival plan model ("medium", or "sim": the rollout
        policy's values with sampled objectives), halving or a flat allocation, the
        inference's beta (0: uniform over the unseen cards), the blend of the rollout's
        value at the end of this round with its value at the horizon (0: the horizon only),
        the weights every seat's rollout policy plays ("tuned", "base" or a
        ``fastsim.Weights``), ``inner``: how many of its own placements a plan's rollout
        tries (1: the policy's), ``place_iterations``: a pinned budget for placement
        decisions only (plans keep ``iterations``), and ``rival_policy``: the weights the
        rivals play in the rollouts when they differ from the seat's ("base", "mix": base
        or tuned, drawn per determinization, or a ``Weights``), ``rival_learn``: beta > 0
        makes the planning node a decoupled simultaneous-move search (each rival's plan is
        drawn from medium's model reweighted by exp(beta x its advantage), learned from the
        rollouts so far; ``_learned_plan``), ``value``: how a rollout stopped before the
        end is valued ("hand": ``Sim.position_values``, "learned": ``valuefn`` with the
        weights fitted by tools/fit_value.py, "auto", the default: learned with the seat
        counts in ``LEARNED_SEATS``), ``win_scale``: the s of a stopped rollout's win chance
        logistic(margin / s), ``margin_scale``: the points of margin a rollout's result counts as
        one win (a large value: the win chance alone), ``king_min``: how likely a King's
        Privilege plan must be to change the turn order (under medium's model of the rivals)
        to be a candidate (``KING_MIN``; hard's threshold is ``levels.KING_MIN_CHANGE``, 0.5),
        ``win_chance``: how a stopped rollout's win chance is read from the values ("best":
        against the best rival; "field": ``field_win_chance`` against every rival, three and
        four seats), ``ring_value``: the hand value's price of a ring in supply (``RING_VALUE``),
        ``rival_king``: the factor on the King's Privilege plans of medium's rival model
        (``kings_scaled``, ``RIVAL_KING_FACTOR``), ``risk``: the risk aversion beta of a
        plan's worth (``robust_mean``, ``RISK``; placements keep the mean), ``risk_by``: what
        it weighs, "rollout" (each rollout's result) or "plan" (each mean over the rollouts
        that drew the same rival plans from medium's model: only the rivals' secret plans,
        not the luck of the decks, count as risk), ``tree``: c > 0 searches the seat's own
        placement after each plan in a tree over its information sets, UCB1 with constant c
        (``_tree_placement``, ``TREE``; 0: the policy places), ``inner_plan``: m > 1 tries the
        seat's own m best plans of the next round in each rollout (``_best_next_plan``; 1:
        the policy plans).
        The rival plan model may also be "objective": medium's worth of each plan for the
        rival holding the card the determinization gave it. Of these, only ``value`` and
        ``king_min`` differ from the plain search by default; the others were screened with
        no measurable gain (docs/ai.md)."""
        super().__init__(seed)
        if value not in ("hand", "learned", "auto"):
            raise ValueError(f"value must be 'hand', 'learned' or 'auto', not {value!r}")
        if win_chance not in ("best", "field"):
            raise ValueError(f"win_chance must be 'best' or 'field', not {win_chance!r}")
        if rival_model not in ("medium", "objective", "sim"):
            raise ValueError(f"rival_model must be 'medium', 'objective' or 'sim', not {rival_model!r}")
        if rival_learn and rival_model != "medium":  # it reweights medium's model: say so, never ignore it
            raise ValueError("rival_learn works on rival_model 'medium' only")
        if risk < 0:
            raise ValueError(f"risk must be at least 0, not {risk!r}")
        if risk_by not in ("rollout", "plan"):
            raise ValueError(f"risk_by must be 'rollout' or 'plan', not {risk_by!r}")
        if risk and risk_by == "plan" and rival_model != "medium":  # it groups medium's draws: never ignore it
            raise ValueError("risk_by 'plan' works on rival_model 'medium' only")
        if tree < 0:
            raise ValueError(f"tree must be at least 0, not {tree!r}")
        if tree and (inner > 1 or rival_learn or blend):  # never ignore one of them
            raise ValueError("tree works without inner, rival_learn and blend")
        if inner_plan < 1:
            raise ValueError(f"inner_plan must be at least 1, not {inner_plan!r}")
        if inner_plan > 1 and (horizon is None or horizon < 1 or inner > 1 or tree or rival_learn or blend):
            raise ValueError("inner_plan needs a horizon of at least 1, and works without inner, tree, rival_learn and blend")
        self.inner_plan = inner_plan
        self.tree = tree
        self._tree = None  # tree: {information set: node} while a plan search runs
        self.risk = risk
        self.risk_by = risk_by
        self.value = value
        self.win_chance = win_chance
        self.ring_value = ring_value
        self.rival_king = rival_king
        self.king_min = king_min
        self.win_scale = win_scale
        self.margin_scale = margin_scale
        self._table = None  # the learned value's weights while a search runs (None: the hand value)
        self.rival_learn = rival_learn  # experiments: rivals learn their replies in the plan search
        self.rival_policy = rival_policy  # experiments: the rivals' rollout weights (None: as the seat's)
        self.place_iterations = place_iterations  # experiments: a pinned budget for placements only
        self.inner = inner
        self.policy = policy
        self.beta = beta
        self.blend = blend
        self.halving = halving
        self.rival_model = rival_model
        self.horizon = horizon
        self.widen = widen
        self.prior_samples = prior_samples
        self.king = king
        self.iterations = iterations if iterations is not None else _env_int("GONZAGA_EXPERT_ITERATIONS")
        self.seconds = seconds if seconds is not None else (_env_float("GONZAGA_EXPERT_SECONDS") or DEFAULT_SECONDS)
        self.medium = MediumBot(seed)
        self.medium.rng = self.rng
        self.should_stop: Optional[Callable[[], bool]] = None  # set by the worker to abandon
        self.last_stats: dict = {}
        self._inner = 1  # own placements tried per plan rollout in the running search
        self._models = None  # rivals' plan models while a plan search runs
        self._plans = None  # {(rival, objective): its plan table} while a plan search runs
        self._learn = None  # rival_learn: {rival: [count, sum of its utility] per model plan}
        self._drawn: dict[int, int] = {}  # the model plan index each rival drew in the last determinization

    # ------------------------------------------------------------ candidates

    def candidates(self, view: GameState, seat: int) -> list[Action]:
        """Every candidate, best prior first."""
        return [a for _, a in self.scored_candidates(view, seat)]

    def rival_models(self, view: GameState, seat: int) -> dict[int, list]:
        """Medium's model of each rival's plan (``rival_plan_model``), by rival seat."""
        return {j: rival_plan_model(view, j) for j in range(view.n) if j != seat}

    def scored_candidates(self, view: GameState, seat: int,
                          models: Optional[dict] = None) -> list[tuple[float, Action]]:
        """Every candidate with its prior value (medium's, in points), best first
        (``models``: ``rival_models``, when already worked out)."""
        if view.phase == "plan":
            scored = sorted(self.medium.plan_scores(view, seat), key=lambda x: -x[0])
            if not self.king:
                scored = [(v, p) for v, p in scored if not p.king]
            kings = [p for _, p in scored if p.king]
            if kings:
                models = models or self.rival_models(view, seat)
                rivals = [(view.seats[j].card, m) for j, m in models.items()]
                ok = {p for p in kings if king_changes_order(view, seat, p, rivals, self.king_min)}
                scored = [(v, p) for v, p in scored if not p.king or p in ok]
            return scored
        out = [(v, a) for v, a, _ in self.medium.place_scores(view, seat, top=10 ** 6)]
        if not any(isinstance(a, Donate) for _, a in out):
            out.append((DONATION, Donate(seat)))
        return out

    def choose(self, view: GameState, seat: int) -> Action:
        t0 = time.perf_counter()
        # one model of each rival's plan serves both the King's Privilege filter and the search
        models = self.rival_models(view, seat) if view.phase == "plan" else None
        scored = self.scored_candidates(view, seat, models)
        if len(scored) == 1:
            self.last_stats = {"rollouts": 0, "arms": 1, "seconds": time.perf_counter() - t0}
            return scored[0][1]
        return self._search(view, seat, [a for _, a in scored], [v for v, _ in scored], t0, models)

    # ------------------------------------------------------------ search

    def _determinization(self, base: Sim, view: GameState, seat: int, weights, rng: random.Random) -> Sim:
        sim = base.copy()
        w = TUNED if self.policy == "tuned" else (self.policy if isinstance(self.policy, Weights) else None)
        if w is not None:  # "base": the simulator's own default, medium's values
            sim.weights = [w] * sim.n
        if self.rival_policy is not None:
            rw = self.rival_policy
            if rw == "mix":  # each determinization draws how the rivals play
                rw = BASE_WEIGHTS if rng.random() < 0.5 else TUNED
            elif rw == "base":
                rw = BASE_WEIGHTS
            sim.weights = [rw if j != seat else sim.weights[j] for j in range(sim.n)]
        sim.shuffle_decks(rng)
        objs = sample_objectives(weights, rng)
        board = view.board
        for j, oid in objs.items():
            sim.obj[j] = board.mask_of(view.content.objective_cities(oid))
        if sim.phase == "plan":
            for j in range(sim.n):
                if j != seat and sim.plan[j] is None:
                    if self._plans is not None:
                        sim.plan[j] = self._objective_plan(view, j, objs[j], sim, rng)
                    elif self._learn is not None:
                        sim.plan[j] = self._learned_plan(sim, j, rng)
                    elif self._models is not None:
                        sim.plan[j] = self._model_plan(sim, j, rng)
                    else:
                        sim.plan[j] = self._rival_plan(sim, j, rng)
        return sim

    def _objective_plan(self, view: GameState, j: int, oid: str, sim: Sim, rng: random.Random):
        """A rival's plan drawn as medium would plan it holding the objective ``oid`` (the
        one this determinization gave it): a softmax (``RIVAL_PLAN_TAU``) over medium's
        worth of every legal plan, contention and next round included. Each (rival, card)
        table is worked out once per search, when first drawn."""
        table = self._plans.get((j, oid))
        if table is None:
            seats = list(view.seats)
            seats[j] = evolve(seats[j], objective=oid)
            scored = self.medium.plan_scores(evolve(view, seats=tuple(seats)), j)
            probs = _softmax([v for v, _ in scored], RIVAL_PLAN_TAU)
            table = [(x, _sim_plan(sim, p)) for x, (_, p) in zip(probs, scored)]
            self._plans[(j, oid)] = table
        return _draw(table, rng)

    def _model_plan(self, sim: Sim, j: int, rng: random.Random):
        """A rival's plan drawn from medium's model of it (a softmax over its plans valued
        from its public fief, the King's Privilege as the rarer choice)."""
        model = self._models[j]
        i = _draw([(row[0], i) for i, row in enumerate(model)], rng)
        self._drawn[j] = i
        return _sim_plan(sim, model[i][1])

    def _learned_plan(self, sim: Sim, j: int, rng: random.Random):
        """A rival's plan in the decoupled simultaneous-move search (``rival_learn``).

        Every rival plan of medium's model keeps the rival's own rollout results when it
        was drawn (its utility, as ``_outcome`` values it for that rival). A plan's weight is
        its model probability x exp(beta x its advantage): its mean minus the rival's mean
        over all its draws, shrunk by n / (n + ``LEARN_SHRINK``). With few rollouts the
        rivals play the model; with more, each moves toward its best replies to the plans
        this seat is still weighing (the plans are secret, R2: a reply cannot depend on
        which of them this seat plays). So a larger budget buys a better model of a rival
        who thinks, not only less noise."""
        i = _draw(self.learned_table(j), rng)
        self._drawn[j] = i
        return _sim_plan(sim, self._models[j][i][1])

    def learned_table(self, j: int) -> list[tuple[float, int]]:
        """[(probability, index into medium's model of rival ``j``)] as the search has learned it."""
        stats = self._learn[j]
        model = self._models[j]
        n_all = sum(c for c, _ in stats)
        if not n_all:
            return [(row[0], i) for i, row in enumerate(model)]
        mean = sum(t for _, t in stats) / n_all
        beta = self.rival_learn
        w = [pr * math.exp(beta * (t - c * mean) / (c + LEARN_SHRINK)) for (pr, *_), (c, t) in zip(model, stats)]
        tot = sum(w)
        return [(x / tot, i) for i, x in enumerate(w)]

    def _learn_from(self, sim: Sim, seat: int) -> tuple[float, float]:
        """Credit each rival's drawn plan with the rival's own result of this rollout; the
        seat's (utility, margin), from the same values."""
        res = self._rollout_result(sim)
        for j, i in self._drawn.items():
            u, _ = self._utility(sim, j, res)
            row = self._learn[j][i]
            row[0] += 1
            row[1] += u
        return self._utility(sim, seat, res)

    @staticmethod
    def _rival_plan(sim: Sim, j: int, rng: random.Random):
        vals = sim.plan_values(j)
        m = max(v for v, _ in vals)
        w = [math.exp((v - m) / RIVAL_TAU) for v, _ in vals]
        x = rng.random() * sum(w)
        pick = vals[-1][1]
        for (v, p), wi in zip(vals, w):
            x -= wi
            if x <= 0:
                pick = p
                break
        k, a, _ = pick
        if sim.rings[j] > 0 and "K" not in sim.unav[j] and rng.random() < SIM_RIVAL_KING:
            return (k, a, True)
        return pick

    @staticmethod
    def _result(sim: Sim, table: Optional[dict] = None,
                ring_value: float = RING_VALUE) -> tuple[list, Optional[list]]:
        """What a rollout's end is valued from: (final scores, winners) at the game's end,
        else (position values, None): the hand values (a ring in supply worth ``ring_value``),
        or with ``table`` the learned ones (``valuefn``)."""
        if sim.phase == "over":
            scores = sim.final_scores()
            return scores, sim.winners(scores)
        return (sim.position_values(ring_value) if table is None else valuefn.values(sim, table)), None

    def table_for(self, seats: int) -> Optional[dict]:
        """The learned value's weights this bot values a game of ``seats`` with (None: the hand value)."""
        learned = self.value == "learned" or (self.value == "auto" and seats in LEARNED_SEATS)
        return value_table.TABLE if learned else None

    def _value(self, sim: Sim, seat: int) -> tuple[float, float]:
        """(utility, margin) of the rollout's end for ``seat`` with this bot's position value."""
        return self._utility(sim, seat, self._rollout_result(sim))

    def _rollout_result(self, sim: Sim) -> tuple[list, Optional[list]]:
        """``_result`` with this bot's position value (the learned table, or the hand value
        with its ring price ``ring_value``)."""
        return self._result(sim, self._table, self.ring_value)

    def _utility(self, sim: Sim, seat: int, result) -> tuple[float, float]:
        """``_outcome`` with this bot's win chance and margin scales."""
        return self._outcome(sim, seat, result, self.win_scale, self.margin_scale, self.win_chance)

    @staticmethod
    def _outcome(sim: Sim, seat: int, result=None, scale: float = WIN_SCALE,
                 margin_scale: float = MARGIN_SCALE, chance: str = WIN_CHANCE) -> tuple[float, float]:
        """(utility, margin) of the rollout's end for ``seat`` (``result``: ``_result(sim)``,
        when it is already worked out; ``scale``: the win chance's s, logistic(margin / s);
        ``margin_scale``: the points of margin worth one win; ``chance``: ``WIN_CHANCE``)."""
        values, win = result or ExpertBot._result(sim)
        margin = values[seat] - max(s for j, s in enumerate(values) if j != seat)
        if win is not None:
            share = 1.0 / len(win) if seat in win else 0.0
        elif chance == "field" and len(values) > 2:
            share = field_win_chance(values, scale)[seat]
        else:
            share = 1.0 / (1.0 + math.exp(-margin / scale))
        return share + margin / margin_scale, margin

    def rollout_value(self, det: Sim, action: Action, seat: int) -> tuple[float, float]:
        """(utility, margin) of one rollout of ``action`` from the determinization ``det``
        (left unchanged): played to the horizon, valued there and, with ``blend``, also at the
        end of the current round, the two averaged."""
        sim = det.copy()
        sim.apply_action(action)
        if self._inner > 1 and det.phase == "plan" and sim.phase == "place":
            return self._best_placement(sim, seat)
        if self._tree is not None and det.phase == "plan" and sim.phase == "place":
            return self._tree_placement(sim, seat, None if self.horizon is None else det.round + self.horizon)
        if self.blend and self.horizon:
            sim.play(det.round)
            u0, m0 = self._value(sim, seat)
            sim.play(det.round + self.horizon)
            u, mg = self._learn_from(sim, seat) if self._learn is not None else self._value(sim, seat)
            b = self.blend
            return b * u0 + (1 - b) * u, b * m0 + (1 - b) * mg
        if self.inner_plan > 1:
            sim.play(det.round)
            if sim.phase == "plan":
                return self._best_next_plan(sim, seat, det.round + self.horizon)
        sim.play(None if self.horizon is None else det.round + self.horizon)
        if self._learn is not None:
            return self._learn_from(sim, seat)
        return self._value(sim, seat)

    def _best_placement(self, sim: Sim, seat: int) -> tuple[float, float]:
        """The plan's rollout with the seat's own placement searched: the seats before it
        place by the policy, then each of its ``inner`` best placements (the policy's values)
        is played out and the best result counts. The rivals' plans are revealed by then
        (R3), so choosing the placement after seeing them peeks at nothing it will not know."""
        _policy_until(sim, seat)
        until = None if self.horizon is None else sim.round + self.horizon
        best = best_sim = None
        for _, choice in sim.place_options(seat, self._inner):
            s2 = sim.copy()
            s2.do_place(seat, choice)
            s2.play(until)
            r = self._value(s2, seat)
            if best is None or r[0] > best[0]:
                best, best_sim = r, s2
        if self._learn is not None:  # the rivals meet the placement this seat would choose
            self._learn_from(best_sim, seat)
        return best

    def _best_next_plan(self, sim: Sim, seat: int, until: int) -> tuple[float, float]:
        """The rollout with the seat's own plan of the next round searched: its
        ``inner_plan`` best plans by the policy's values (and the policy's own, which may be
        the King's Privilege) are each played out to ``until`` and the best result counts.
        The rivals plan by the policy, which does not see this seat's plan (R2), so each
        trial meets the same rival plans."""
        vals = sorted(sim.plan_values(seat), key=lambda x: -x[0])[: self.inner_plan]
        plans = [p for _, p in vals]
        own = sim.policy_plan(seat)
        if own not in plans:
            plans.append(own)
        best = None
        for p in plans:
            s2 = sim.copy()
            s2.set_plan(seat, p)
            s2.play(until)
            r = self._value(s2, seat)
            if best is None or r[0] > best[0]:
                best = r
        return best

    def _tree_placement(self, sim: Sim, seat: int, until: Optional[int]) -> tuple[float, float]:
        """The plan's rollout with the seat's own placement chosen in a tree (``tree``).

        The seats before it place by the policy; then the seat's node is the information set it
        will place in: every plan (revealed, R3) and the pieces on the board. Determinizations
        that differ only in what stays hidden (decks, objectives, the rivals' later choices)
        share it, so its statistics are of the placement itself, not of one determinization's
        luck (``inner`` takes the best per determinization, which peeks). A new node offers the
        policy's placement alone, so a small budget plays as without the tree; a visited one
        widens to 1 + ``TREE_WIDEN`` x sqrt(visits) of its options (the policy's first, then
        ``place_options`` best first) and picks by UCB1 with the constant ``tree``."""
        _policy_until(sim, seat)
        key = (tuple(sim.plan), tuple(sim.fm), tuple(sim.rm))
        node = self._tree.get(key)
        if node is None:
            node = self._tree[key] = _Node(sim.policy_place(seat))
        width = 1 + int(TREE_WIDEN * math.sqrt(node.visits))
        if width > 1 and not node.widened:
            first = _choice_key(node.opts[0])
            node.widen([c for _, c in sim.place_options(seat, TREE_TOP) if _choice_key(c) != first])
        pick = ucb_pick(node.n, node.sums, min(width, len(node.opts)), self.tree)
        sim.do_place(seat, node.opts[pick])
        sim.play(until)
        u, mg = self._value(sim, seat)
        node.n[pick] += 1
        node.sums[pick] += u
        return u, mg

    def _begin(self, view: GameState, seat: int, models: Optional[dict] = None) -> tuple[Sim, dict]:
        """Set up one search of this view: the rivals' plan models, the tree, the position
        value's table. Returns the simulator state to determinize and the inference's weights."""
        self._models = self._plans = self._learn = None
        self._tree = {} if self.tree and view.phase == "plan" else None
        self._drawn = {}
        self._inner = 1
        if view.phase == "plan" and self.rival_model == "objective":
            self._plans = {}
        elif view.phase == "plan" and self.rival_model == "medium":
            self._models = {j: kings_scaled(m, self.rival_king)
                            for j, m in (models or self.rival_models(view, seat)).items()}
            if self.rival_learn > 0:
                self._learn = {j: [[0, 0.0] for _ in m] for j, m in self._models.items()}
        self._table = self.table_for(view.n)
        return Sim.from_state(view), objective_weights(view, seat, self.beta)

    def reference_values(self, view: GameState, seat: int, cands: list, n: int) -> list[float]:
        """Each candidate's mean utility over the same ``n`` determinizations, every candidate
        played on every one (no halving, no prior): the search's own estimate carried to a
        large budget, against which a search's choice can be scored (tools/search_regret.py)."""
        base, weights = self._begin(view, seat)
        total = [0.0] * len(cands)
        for _ in range(n):
            det = self._determinization(base, view, seat, weights, self.rng)
            for k, action in enumerate(cands):
                total[k] += self.rollout_value(det, action, seat)[0]
        return [t / n for t in total]

    def _search(self, view: GameState, seat: int, cands: list, prior: list, t0: float,
                models: Optional[dict] = None) -> Action:
        rng = self.rng
        base, weights = self._begin(view, seat, models)
        deadline = None if self.iterations else t0 + self.seconds
        stop = self.should_stop
        n = len(cands)
        total = [0.0] * n
        margin = [0.0] * n
        count = [0] * n
        rollouts = 0
        beta = self.risk if view.phase == "plan" else 0.0
        by_plan = self.risk_by == "plan"
        # with risk aversion, per candidate {outcome: [count, sum u]}: an outcome is one rollout,
        # or with risk_by "plan" the rivals' drawn plans (the rollouts drawing them share it)
        groups: list[dict] = [{} for _ in range(n)]

        def run(k: int, det: Sim) -> None:
            nonlocal rollouts
            u, mg = self.rollout_value(det, cands[k], seat)
            total[k] += u
            if beta:
                key = tuple(sorted(self._drawn.items())) if by_plan else count[k]
                g = groups[k].setdefault(key, [0, 0.0])
                g[0] += 1
                g[1] += u
            margin[k] += mg
            count[k] += 1
            rollouts += self._inner

        def worth(k: int) -> float:
            """The candidate's summed utility, or with risk aversion count x ``robust_mean``."""
            if not beta:
                return total[k]
            # each outcome's mean, weighted by how often it was drawn
            es = sum(c * math.exp(-beta * t / c) for c, t in groups[k].values())
            return count[k] * robust_mean(total[k], es, count[k], beta)

        def out_of_time() -> bool:
            if stop is not None and stop():
                return True
            return deadline is not None and time.perf_counter() > deadline

        if self.place_iterations and view.phase == "place":
            budget = self.place_iterations
        elif self.iterations:
            budget = self.iterations
        else:
            # probe the rollout speed on the two best candidates, then size the budget
            det = self._determinization(base, view, seat, weights, rng)
            tp = time.perf_counter()
            run(0, det)
            run(1, det)
            per = max(1e-4, (time.perf_counter() - tp) / 2)
            budget = max(4, int((deadline - time.perf_counter()) / per * 0.92) + 2)
        self._inner = cost = max(1, self.inner) if view.phase == "plan" else 1
        arms = min(n, max(MIN_ARMS, int(round(self.widen * math.sqrt(budget / cost)))))
        alive = list(range(arms))
        rounds = 0  # halvings until one is left
        m = arms
        while m > 1:
            m //= 2
            rounds += 1
        spent = rollouts
        stopped = False
        r = 0
        if not self.halving:
            rounds = 1
        while len(alive) > 1 and not stopped and r < max(1, rounds):
            left_rounds = max(1, rounds - r)
            per_arm = max(1, (budget - spent) // (left_rounds * len(alive) * cost))
            for _ in range(per_arm):
                det = self._determinization(base, view, seat, weights, rng)
                for k in alive:
                    if out_of_time():
                        stopped = True
                        break
                    run(k, det)
                if stopped:
                    break
            spent = rollouts
            r += 1
            if stopped:
                break
            alive.sort(key=lambda k: (-worth(k) / max(1, count[k]), k))
            alive = alive[: max(1, len(alive) // 2)]
        seen = [k for k in range(n) if count[k]] or [0]
        # the best mean among those that got the most attention (the last survivors), each
        # mean shrunk toward the prior (medium's value, in points, as a margin) by a few
        # virtual rollouts, so that a candidate lucky on few samples does not win alone
        top = max(count)
        finalists = [k for k in seen if count[k] >= top * 0.5] or seen
        ref = sum(worth(k) for k in seen) / max(1, sum(count[k] for k in seen))
        pmax = max(prior[k] for k in seen)

        def score(k):
            virtual = ref + (prior[k] - pmax) / MARGIN_SCALE
            return ((worth(k) + self.prior_samples * virtual) / (count[k] + self.prior_samples),
                    margin[k] / max(1, count[k]), -k)

        best = max(finalists, key=score)
        self.last_stats = {"rollouts": rollouts, "arms": arms, "candidates": n, "budget": budget,
                           "seconds": time.perf_counter() - t0, "stopped": stopped,
                           "best_mean": round(total[best] / max(1, count[best]), 3)}
        return cands[best]
