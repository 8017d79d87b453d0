"""A fast, mutable game simulator for the search's rollouts.

``apply`` checks every rule and copies the state: right for the game, too slow inside a
search that plays thousands of decisions per second. ``Sim`` holds the same game (a full,
determinized state) in plain lists of bit masks and plays it forward in place. It trusts
its policy (``rollout_policy``) to pick legal actions: every candidate comes from tables of
placements that are legal on the empty board (``fasttables``: P1-P6, P8-P10) and is checked
against the pieces on the board (P7, W4) before use.

The turn order (R4), the end of the game (E1, E2), the Gonzaga tile (X4) and the winner (X6)
are the rules' own functions; site points (X1) and sea leagues (X2) are counted here on the
simulator's masks for speed, with the rules' constants, and tests/test_rules_compare.py plays
the simulator beside ``apply`` to hold the two to the same answers.

A rollout step is one seat's decision (a plan or a placement) applied by the policy;
``gonzaga bench`` reports rollout steps per second (``play_out``).
"""
from __future__ import annotations

import math
import random
from typing import Optional

from ..rules import Action, Donate, GameState, Place, Plan, Setup, Wedding, game_ends, last_turn_fires, turn_order_key
from ..rules import scoring
from ..rules.board import bits
from ..rules.scoring import SEA_LEAGUE, SEA_LEAGUE_HARBORS, SITE_FLOURISHING, SITE_INACTIVE
from .fasttables import Entry, tables_for
from .heuristics import LEAGUE_POT, OBJ, RING_VALUE, components, tile_temperature
from .rollout_policy import BASE_WEIGHTS, DONATION, TUNED, RolloutPolicy, Weights, tile_gain

# the policy's names its callers (expert, bench, tests, lab) import from here
__all__ = ["Sim", "entry_action", "play_out", "tables_for", "BASE_WEIGHTS", "DONATION", "TUNED", "Weights",
           "tile_gain"]


class Sim(RolloutPolicy):
    """A full game state in mutable lists; ``play`` runs it to the end with the policy."""

    __slots__ = ("t", "n", "fm", "rm", "rings", "pts", "sites_pts", "leagues", "comps", "deck", "fief",
                 "digit", "obj", "plan", "unav", "round", "last_round", "phase", "order", "turn",
                 "steps", "rng", "noise", "mcache", "shared", "weights", "pcache")

    def copy(self) -> "Sim":
        s = object.__new__(Sim)
        s.t = self.t
        s.n = self.n
        s.fm = self.fm[:]
        s.rm = self.rm[:]
        s.rings = self.rings[:]
        s.pts = self.pts[:]
        s.sites_pts = self.sites_pts
        s.leagues = self.leagues[:]
        s.comps = self.comps[:]  # tuples inside: replaced, never changed
        s.deck = [d[:] for d in self.deck]
        s.fief = self.fief[:]
        s.digit = self.digit
        s.obj = self.obj[:]
        s.plan = self.plan[:]
        s.unav = self.unav[:]
        s.round = self.round
        s.last_round = self.last_round
        s.phase = self.phase
        s.order = self.order
        s.turn = self.turn
        s.steps = 0
        s.rng = self.rng
        s.noise = self.noise
        s.mcache = [None] * self.n
        s.shared = None
        s.weights = self.weights
        s.pcache = None
        return s

    @classmethod
    def from_state(cls, state: GameState, objectives: Optional[dict[int, str]] = None) -> "Sim":
        """From a full state or a view (a view's decks are in sorted order: shuffle them with
        ``shuffle_decks``; unknown objectives come from ``objectives`` or stay empty)."""
        t = tables_for(state)
        s = object.__new__(Sim)
        s.t = t
        s.n = state.n
        board = state.board
        s.fm = [x.fief_mask for x in state.seats]
        s.rm = [x.ring_mask for x in state.seats]
        s.rings = [x.rings for x in state.seats]
        s.pts = [x.site_points + x.league_points + x.donation_points for x in state.seats]
        s.sites_pts = None
        s.leagues = [sum(1 << t.sea_ids.index(sea) for sea in x.leagues) for x in state.seats]
        s.comps = [tuple((c[0], c[1], c[2]) for c in components(state, i)) for i in range(state.n)]
        s.deck = [list(reversed(x.deck)) for x in state.seats]  # top card last: pop()
        s.fief = [x.fief for x in state.seats]
        s.digit = [x.card_digit for x in state.seats]
        s.obj = [0] * state.n
        for i, x in enumerate(state.seats):
            oid = x.objective or (objectives or {}).get(i)
            if oid:
                s.obj[i] = board.mask_of(state.content.objective_cities(oid))
        s.plan = [None] * state.n
        for i, x in enumerate(state.seats):
            p = x.plan
            if p is not None and p.region in t.card_index:
                s.plan[i] = (t.card_index[p.region], p.action, p.king)
        s.unav = [frozenset(x.unavailable) for x in state.seats]
        s.round = state.round
        s.last_round = state.last_round
        s.phase = state.phase
        s.order = tuple(state.order)
        s.turn = state.turn
        s.steps = 0
        s.rng = random.Random(0)
        s.noise = 0.0
        s.mcache = [None] * state.n
        s.shared = None
        s.weights = [BASE_WEIGHTS] * state.n  # per seat; replaced whole, never changed
        s.pcache = None
        return s

    def shuffle_decks(self, rng: random.Random) -> None:
        for d in self.deck:
            rng.shuffle(d)

    # ------------------------------------------------------------ facts

    def free_sites(self) -> int:
        taken = 0
        for i in range(self.n):
            taken |= self.fm[i] | self.rm[i]
        return self.t.sites & ~taken

    def all_fiefs(self) -> int:
        m = 0
        for x in self.fm:
            m |= x
        return m

    def all_rings(self) -> int:
        m = 0
        for x in self.rm:
            m |= x
        return m

    def rounds_left(self, i: int) -> int:
        n = len(self.deck[i])
        if self.last_round is not None:
            n = min(n, max(0, self.last_round - self.round))
        return n

    def largest(self, i: int) -> int:
        return max((c[2] for c in self.comps[i]), default=0)

    # ------------------------------------------------------------ playing

    def set_plan(self, i: int, plan: tuple[int, str, bool]) -> None:
        self.plan[i] = plan
        self.steps += 1

    def reveal(self) -> None:
        """R3, R4, K2."""
        keys = []
        for i in range(self.n):
            k, a, king = self.plan[i]
            if king:
                self.rings[i] -= 1
            keys.append(turn_order_key(king, a, self.fief[i] + self.digit[i]) + (i,))
        keys.sort()
        self.order = tuple(x[3] for x in keys)
        self.turn = 0
        self.phase = "place"

    def put(self, i: int, mask: int, ring_count: int) -> None:
        """A fief (ring_count 0) or rings on ``mask`` for seat i: X1, X2, X4 bookkeeping."""
        t = self.t
        self.shared = None
        covered = mask & t.sites
        if covered:
            fl = covered & t.fsites
            self.pts[i] += SITE_FLOURISHING * fl.bit_count() + SITE_INACTIVE * (covered ^ fl).bit_count()
        if ring_count:
            self.rm[i] |= mask
            self.rings[i] -= ring_count
            pieces = [1 << b for b in bits(mask)]
        else:
            self.fm[i] |= mask
            pieces = [mask]
        if mask & t.harbor:
            held = self.fm[i] | self.rm[i]
            lg = self.leagues[i]
            for si, hm in enumerate(t.sea_mask):
                if not lg >> si & 1 and (held & hm).bit_count() >= SEA_LEAGUE_HARBORS:
                    lg |= 1 << si
                    self.pts[i] += SEA_LEAGUE
            self.leagues[i] = lg
        board = t.board
        comps = list(self.comps[i])
        for pm in pieces:
            grown = board.neighbours_mask(pm) | pm
            m, g, size = pm, grown, 1
            keep = []
            for c in comps:
                if c[1] & pm or grown & c[0]:
                    m |= c[0]
                    g |= c[1]
                    size += c[2]
                else:
                    keep.append(c)
            keep.append((m, g, size))
            comps = keep
        self.comps[i] = tuple(comps)

    def do_place(self, i: int, choice: Optional[tuple[Entry, bool]]) -> None:
        if choice is None:
            self.pts[i] += scoring.DONATION
        else:
            e, ring = choice
            self.put(i, e.mask, e.mask.bit_count() if ring else 0)
        self.end_turn(i)

    def end_turn(self, i: int) -> None:
        k, a, king = self.plan[i]
        self.unav[i] = frozenset((self.t.cards[k], a, "K") if king else (self.t.cards[k], a))
        self.fief[i] = None
        self.steps += 1
        self.turn += 1
        if self.turn >= len(self.order):
            self.end_round()

    def end_round(self) -> None:
        """E1, E2, then R1 of the next round."""
        if game_ends(self.round, self.last_round, len(self.deck[0])):
            self.phase = "over"
            return
        taken = self.all_fiefs() | self.all_rings()
        if last_turn_fires(self.round, self.last_round, (self.t.fsites & ~taken).bit_count()):
            self.last_round = self.round + 1
        self.round += 1
        for i in range(self.n):
            self.fief[i] = self.deck[i].pop()
            self.plan[i] = None
        self.phase = "plan"
        self.order = ()
        self.turn = 0

    def play(self, until_round: Optional[int] = None) -> None:
        """Play to the end of the game (or to the start of the round after ``until_round``)
        with the policy for every seat."""
        while self.phase != "over":
            if self.phase == "plan":
                if until_round is not None and self.round > until_round:
                    return
                for i in range(self.n):
                    if self.plan[i] is None:
                        self.set_plan(i, self.policy_plan(i))
                self.reveal()
            else:
                i = self.order[self.turn]
                self.do_place(i, self.policy_place(i))

    def final_scores(self) -> list[int]:
        """X4, X5 added to the points so far (call when over)."""
        tile = scoring.gonzaga_tile([self.largest(i) for i in range(self.n)])
        return [self.pts[i] + OBJ[((self.fm[i] | self.rm[i]) & self.obj[i]).bit_count()] + tile[i]
                for i in range(self.n)]

    def position_values(self, ring_value: float = RING_VALUE, league_pot: tuple[float, ...] = LEAGUE_POT) -> list[float]:
        """Each seat's expected final score, as ``heuristics.position_values`` counts it: points so far,
        objective points held (with the sampled objectives), sea-league potentials by harbors held
        (``league_pot``; the review's zeros count a league once scored, as the rules do), rings that can
        still be used (each ``ring_value``), and a share of the Gonzaga tile by a softmax over the largest groups."""
        if self.phase == "over":
            return [float(x) for x in self.final_scores()]
        t = self.t
        free = self.free_sites()
        out = []
        for i in range(self.n):
            left = self.rounds_left(i)
            ts = min(1.0, (left + 1) / 4.0)
            held = self.fm[i] | self.rm[i]
            v = float(self.pts[i]) + OBJ[(held & self.obj[i]).bit_count()]
            lg = self.leagues[i]
            for si, hm in enumerate(t.sea_mask):
                if lg >> si & 1:
                    continue
                mine = (held & hm).bit_count()
                if mine and mine + (hm & free).bit_count() >= SEA_LEAGUE_HARBORS:
                    v += ts * league_pot[min(mine, 2)]
            if left:
                v += min(self.rings[i], left + 1) * ring_value
            out.append(v)
        w, tot = self.tile_weights()
        return [out[i] + scoring.GONZAGA_TILE * w[i] / tot for i in range(self.n)]

    def tile_weights(self) -> tuple[list[float], float]:
        """Each seat's weight for the Gonzaga tile (X4) and their sum: a seat's chance at it,
        as the position values count it, is its weight over the sum (a softmax over the
        largest groups, sharper as the end nears; no group, no chance)."""
        groups = [self.largest(i) for i in range(self.n)]
        temp = tile_temperature(self.rounds_left(0))
        best = max(groups)
        w = [math.exp((g - best) / temp) if g else 0.0 for g in groups]
        return w, sum(w) or 1.0

    def winners(self, scores: list[int]) -> list[int]:
        """X6 (the rules' ``scoring.winners``) on the simulator's masks."""
        sites = self.t.sites
        return scoring.winners(scores, [((self.fm[i] | self.rm[i]) & sites).bit_count() for i in range(self.n)])

    # ------------------------------------------------------------ root actions

    def apply_action(self, action: Action) -> None:
        """A rules action (a plan or this turn's placement) for the seat whose turn it is."""
        if isinstance(action, Plan):
            self.set_plan(action.seat, (self.t.card_index[action.region], action.action, action.king))
            if all(p is not None for p in self.plan):
                self.reveal()
            return
        assert not isinstance(action, Setup)  # a seat's decision, never the chance outcome
        i = action.seat
        board = self.t.board
        if isinstance(action, Place):
            o = board.orientation(action.fief, action.rotation)
            self.put(i, board.placement_mask(board.index_of[action.anchor], o), 0)
        elif isinstance(action, Wedding):
            self.put(i, board.mask_of(action.rings), len(action.rings))
        else:
            self.pts[i] += scoring.DONATION
        self.end_turn(i)


def entry_action(sim: Sim, seat: int, choice: Optional[tuple[Entry, bool]]) -> Action:
    """The rules action for a policy choice (for tests and the search's own placements)."""
    if choice is None:
        return Donate(seat)
    e, ring = choice
    board = sim.t.board
    if ring:
        return Wedding(seat, tuple(board.hex_at[b] for b in bits(e.mask)))
    return Place(seat, sim.fief[seat], board.hex_at[e.anchor], e.orient.rotation)


def play_out(state: GameState) -> tuple[list[int], int]:
    """The rollout policy played to the end of the game from a full state:
    (final scores, rollout steps). Used by ``gonzaga bench``."""
    sim = Sim.from_state(state)
    sim.play()
    return sim.final_scores(), sim.steps
