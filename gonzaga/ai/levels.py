"""The three AI levels offered to players: ``easy``, ``medium`` and ``hard`` (issue 5).

- easy: greedy with noise. Plans by the points its fief could score now under each plan,
  blurred by noise; places on a good-scoring spot, not always the best; never looks ahead.
- medium: a heuristic player (``heuristics.py``). Values pieces by immediate points, its
  objective's cities, sea-league progress, the largest dominion, rings and blocking; when
  planning it guesses the rivals' plans from their public fiefs, discounts spots a rival
  who would go first is likely to take (and so weighs the King's Privilege), and looks at
  what the cards left for next round could still do.
- hard: flat Monte Carlo search over medium's best candidates (``search.py``), on
  determinized states sampled from the view, with rivals' plans sampled from a model of
  them, each candidate played out to the end of the round (and the next round) and valued
  by the heuristic position value.

Every level chooses from the view alone and draws randomness from ``self.rng``.
"""
from __future__ import annotations

import math
from typing import Any

from ..rules import Action, Donate, GameState, Plan, Wedding, legal_plans, turn_order_key
from ..rules.actions import ACTION_CARDS
from .base import Bot
from .bots import best_scoring
from .heuristics import DONATION, SeatContext, action_candidates, placement_candidates


# ---------------------------------------------------------------- easy

class EasyBot(Bot):
    """Greedy for immediate points, with noise; never plans the King's Privilege."""

    name = "easy"
    noise = 2.5  # points of noise on each plan's value
    slip = 0.25  # chance of taking a random scoring spot instead of the best

    def choose(self, view: GameState, seat: int) -> Action:
        rng = self.rng
        if view.phase == "plan":
            best, choice = -1e9, None
            for p in legal_plans(view, seat):
                if p.king:
                    continue
                opts = best_scoring(view, seat, p.region, p.action)
                pts = max((pts - (0.5 if isinstance(a, Wedding) else 0) for pts, a in opts), default=0)
                pts += rng.gauss(0.0, self.noise)
                if pts > best:
                    best, choice = pts, p
            assert choice is not None  # a seat always has a plan without the King's Privilege
            return choice
        s = view.seats[seat]
        assert s.plan is not None  # the place phase: every seat has planned
        opts = best_scoring(view, seat, s.plan.region, s.plan.action)
        if not opts:
            return Donate(seat)
        if rng.random() < self.slip:
            return rng.choice(opts)[1]
        top = max(p for p, _ in opts)
        if top < 3 and rng.random() < 0.5:
            return Donate(seat)
        return rng.choice([a for p, a in opts if p == top])


# ---------------------------------------------------------------- medium

RIVAL_TAU = 2.5  # softmax temperature of the model of a rival's plan
LOOKAHEAD = 0.35  # weight of next round's best remaining card pair
TOP = 8


def _softmax(values: list[float], tau: float) -> list[float]:
    m = max(values)
    w = [math.exp((v - m) / tau) for v in values]
    t = sum(w)
    return [x / t for x in w]


def rival_plan_model(view: GameState, j: int, tau: float = RIVAL_TAU) -> list[Any]:
    """A guess at rival ``j``'s plan: [(probability, plan, value, mask, is_wedding)].

    The rival's fief is public (R1), so its best spot under each plan can be worked out;
    its objective is unknown and left out. The King's Privilege is modelled as a rarer
    choice (it costs a ring).
    """
    ctx = SeatContext(view, j)
    plans = legal_plans(view, j)
    base: dict[tuple[str, str], tuple[Any, ...]] = {}
    rows = []
    for p in plans:
        key = (p.region, p.action)
        if key not in base:
            c = action_candidates(ctx, p.region, p.action)
            base[key] = c[0]
        v, a, m = base[key]
        val = v - ((ctx.ring_value + 1.5) if p.king else 0.0)
        rows.append((p, val, m, isinstance(a, Wedding)))
    probs = _softmax([r[1] for r in rows], tau)
    return [(pr, p, v, m, w) for pr, (p, v, m, w) in zip(probs, rows)]


KING_MIN_CHANGE = 0.5  # plan the King's Privilege only when it more likely than not changes the order


def king_change_probability(view: GameState, seat: int, plan: Plan, rivals: Any) -> float:
    """How likely the King's Privilege in ``plan`` changes the turn order (R4, K3).

    ``rivals``: [(rival's card, rival_plan_model)]. The order changes when some rival would
    go before the seat without K and after it with K; the rivals' plans are secret, so this
    is a probability under the model of their plans."""
    card = view.seats[seat].card
    assert card is not None  # the plan phase: every seat has its fief card
    without = turn_order_key(False, plan.action, card)
    with_k = turn_order_key(True, plan.action, card)
    same = 1.0
    for rcard, model in rivals:
        moved = 0.0
        for pr, q, _v, _m, _w in model:
            key = turn_order_key(q.king, q.action, rcard)
            if with_k < key < without:
                moved += pr
        same *= max(0.0, 1.0 - moved)
    return 1.0 - same


def king_changes_order(view: GameState, seat: int, plan: Plan, rivals: Any,
                       threshold: float = KING_MIN_CHANGE) -> bool:
    """A K plan is worth its ring only when it may change the order (else K is dominated)."""
    return king_change_probability(view, seat, plan, rivals) >= threshold


def contended_value(cands: Any, my_key: Any, rivals: Any) -> float:
    """Expected value of the best spot still free when my turn comes (R4 order)."""
    ev = 0.0
    reach = 1.0  # probability that every better candidate was taken
    for v, a, m in cands[:-1] if len(cands) > 1 else cands:
        if not m:
            ev += reach * v
            return float(ev)
        wed = isinstance(a, Wedding)
        free = 1.0
        for rk_card, model in rivals:
            taken = 0.0
            for pr, p, _v, rm, rw in model:
                if rm & m and rw == wed and turn_order_key(p.king, p.action, rk_card) < my_key:
                    taken += pr
            free *= max(0.0, 1.0 - taken)
        ev += reach * free * v
        reach *= 1.0 - free
        if reach < 1e-3:
            return float(ev)
    fallback = max(DONATION, cands[-1][0]) if len(cands) > 1 else DONATION
    return ev + reach * fallback


class MediumBot(Bot):
    """A heuristic player: values pieces by the position they make, models its rivals."""

    name = "medium"
    lookahead = LOOKAHEAD

    def choose(self, view: GameState, seat: int) -> Action:
        if view.phase == "plan":
            scored = self.plan_scores(view, seat)
            best = max(v for v, _ in scored)
            return self.rng.choice([p for v, p in scored if v >= best - 1e-9])
        cands = self.place_scores(view, seat)
        best = cands[0][0]
        return self.rng.choice([a for v, a, _ in cands if v >= best - 1e-9])

    # ------------------------------------------------------------ placing

    def place_scores(self, view: GameState, seat: int, top: int = 12) -> list[tuple[float, Action, int]]:
        """Candidates under the revealed plan, best first, with the denial of later rivals' spots."""
        s = view.seats[seat]
        assert s.plan is not None  # the place phase: every seat has planned
        ctx = SeatContext(view, seat)
        cands = action_candidates(ctx, s.plan.region, s.plan.action)
        head = cands[:top]
        later = list(view.order[view.turn + 1:])
        denials = []
        for j in later:
            r = view.seats[j]
            if r.plan is None or r.fief is None:
                continue
            rc = action_candidates(SeatContext(view, j), r.plan.region, r.plan.action)[:6]
            if rc and rc[0][2]:
                denials.append(rc)
        if denials:
            out = []
            for v, a, m in head:
                d = 0.0
                if m and not isinstance(a, Wedding):
                    for rc in denials:
                        if rc[0][2] & m:
                            alt = next((rv for rv, ra, rm in rc if not rm & m), DONATION)
                            d += max(0.0, rc[0][0] - max(alt, DONATION))
                out.append((v + 0.6 * d, a, m))
            out.sort(key=lambda x: -x[0])
            head = out
        return head

    # ------------------------------------------------------------ planning

    def plan_scores(self, view: GameState, seat: int) -> list[tuple[float, Plan]]:
        """Every legal plan with its estimated worth (contention and next round included)."""
        s = view.seats[seat]
        ctx = SeatContext(view, seat)
        plans = legal_plans(view, seat)
        rivals = [(view.seats[j].card, rival_plan_model(view, j)) for j in range(view.n) if j != seat]
        cands: dict[tuple[str, str], list[tuple[float, Action, int]]] = {}
        out: list[tuple[float, Plan]] = []
        assert s.card is not None  # the plan phase: every seat has its fief card
        for p in plans:
            key = (p.region, p.action)
            if key not in cands:
                cands[key] = action_candidates(ctx, p.region, p.action)[:TOP]
            v = contended_value(cands[key], turn_order_key(p.king, p.action, s.card), rivals)
            if p.king:
                v -= ctx.ring_value + 0.5
            out.append((v, p))
        if self.lookahead and ctx.left > 0:
            q = self._next_round_table(view, seat, ctx)
            for k, (v, p) in enumerate(out):
                nxt = max((val for (r, a), val in q.items() if r != p.region and a != p.action
                           and r not in ("K",)), default=0.0)
                out[k] = (v + self.lookahead * nxt, p)
        return out

    def _next_round_table(self, view: GameState, seat: int, ctx: SeatContext) -> dict[Any, float]:
        """Best value per (region, action) for fiefs that may come next (a sample of the deck)."""
        deck = sorted(view.seats[seat].deck)
        if not deck:
            return {}
        k = min(2, len(deck))
        fiefs = self.rng.sample(deck, k)
        q = {}
        for region in view.region_cards():
            for action in ACTION_CARDS:
                tot = 0.0
                for f in fiefs:
                    c = placement_candidates(ctx, region, action, fief=f, limit_plain=0)
                    tot += max((v for v, _, _ in c), default=DONATION)
                q[(region, action)] = tot / k
        return q
