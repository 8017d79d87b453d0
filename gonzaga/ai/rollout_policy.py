"""The rollout policy: what a piece is worth to a seat of the fast simulator, and which plan
and placement the seat picks (``RolloutPolicy``, mixed into ``fastsim.Sim``).

A piece's static worth comes from ``fasttables``; the dynamic part is computed only for the
few candidates the policy looks at: the sea leagues (X2), the objective (X5, with the sampled
objective), the largest dominion (X4), blocking, from per-seat counters the simulator keeps
up to date as pieces go down.

The policy's non-point terms are weights per seat (``Weights``): ``BASE_WEIGHTS`` are the
medium level's values, ``TUNED`` the weights expert's rollouts play, found by self-play
(``lab/tune_policy.py``), with three more terms: ``deny`` (taking a free city of a rival's
objective), ``contend`` (a plan valued after the rivals who place first, R3, take the spots
their own best plans aim at) and ``king`` (the King's Privilege, K2, when those rivals would
cost the seat's best plan that much).
"""
from __future__ import annotations

import math
import random
from typing import TYPE_CHECKING, Any, NamedTuple, Optional

from ..rules import scoring, turn_order_key
from ..rules.board import bits
from ..rules.scoring import SEA_LEAGUE, SEA_LEAGUE_HARBORS
from .fasttables import Entry, Tables
from .heuristics import BLOCK_ONE, BLOCK_TWO, GROUP_STEP, LEAGUE_POT, OBJ, RING_VALUE, tile_temperature

ACTIONS = ("A", "B", "C")
PLAN_LOOK = 2  # legal entries valued per (region, action) when a rollout seat plans
PLACE_LOOK = 0  # 0: every legal entry when it places (exact), plus merges and rings
DONATION = float(scoring.DONATION)


class Weights(NamedTuple):
    """The rollout policy's piece value: the terms that are not points (``heuristics``)."""

    lp1: float = LEAGUE_POT[1]  # holding 1 harbor of a sea that can still make a league
    lp2: float = LEAGUE_POT[2]  # holding 2
    group: float = GROUP_STEP  # per piece added to the largest group (X4)
    ring: float = RING_VALUE  # a ring in supply, while rounds remain
    block2: float = BLOCK_TWO  # a free harbor of a sea where a rival holds 2
    block1: float = BLOCK_ONE
    deny: float = 0.0  # share of a rival's next objective step lost when its city is taken
    contend: float = 0.0  # planning: share of a plan's value counted after rivals ahead take theirs
    king: float = 0.0  # planning: spend a ring on the King's Privilege when going first saves this much (0: never)
    tile: float = 0.0  # a growth of the largest group gains tile x 15 x its change in the chance at the tile (X4)


BASE_WEIGHTS = Weights()
# the rollout policy expert plays in its rollouts (lab/tune_policy.py; docs/ai.md has the run)
TUNED = Weights(lp1=0.75, lp2=2.25, group=3.3, ring=1.5, block2=0.0, block1=0.5, deny=0.25, contend=1.0,
                king=0.25)


def tile_gain(tile: tuple[float, float, Any], before: int, after: int) -> float:
    """What growing the seat's largest group from ``before`` to ``after`` pieces adds to its
    chance at the Gonzaga tile (X4), times ``Weights.tile`` x its points: the chance is the
    softmax share of ``Sim.tile_weights`` against the rivals' largest groups (no group, no
    chance), so a growth that catches or passes the best rival near the end is worth most of
    the tile, and one far behind or far ahead little."""
    worth, temp, rivals = tile
    out = 0.0
    for size, sign in ((after, 1.0), (before, -1.0)):
        if size:
            out += sign / (1.0 + sum(math.exp((g - size) / temp) for g in rivals if g))
    return float(worth * out)


class RolloutPolicy:
    """The policy's half of ``fastsim.Sim``: valuing candidates and choosing plans and
    placements from the simulator's lists (its fields are ``Sim``'s). A base class rather
    than a separate object, so that the hot loops read the simulator's fields directly."""

    __slots__ = ()

    if TYPE_CHECKING:  # the simulator's fields and facts (``fastsim.Sim``), for the type check
        t: Tables
        n: int
        fm: list[int]
        rm: list[int]
        rings: list[int]
        pts: list[int]
        sites_pts: Any
        leagues: list[int]
        comps: list[tuple[tuple[int, int, int], ...]]
        deck: list[list[int]]
        fief: list[Any]
        digit: list[int]
        obj: list[int]
        plan: list[Any]
        unav: list[frozenset[str]]
        round: int
        last_round: Optional[int]
        phase: str
        order: tuple[int, ...]
        turn: int
        steps: int
        rng: random.Random
        noise: float
        mcache: list[Any]
        shared: Any
        weights: list[Weights]
        pcache: Any

        def rounds_left(self, i: int) -> int: ...
        def largest(self, i: int) -> int: ...
        def all_fiefs(self) -> int: ...
        def all_rings(self) -> int: ...
        def free_sites(self) -> int: ...

    # ------------------------------------------------------------ valuing

    def _shared(self) -> Any:
        """What every seat's context shares, cached until a piece goes down: the free sites,
        free harbors per sea, each seat's harbor count per sea, and each seat's free objective
        cities with its next objective step."""
        sh = self.shared
        if sh is not None:
            return sh
        t = self.t
        taken = 0
        for j in range(self.n):
            taken |= self.fm[j] | self.rm[j]
        free = t.sites & ~taken
        fr = [(hm & free).bit_count() for hm in t.sea_mask]
        counts = []
        for j in range(self.n):
            held = self.fm[j] | self.rm[j]
            lg = self.leagues[j]
            counts.append([0 if lg >> si & 1 else (held & hm).bit_count() for si, hm in enumerate(t.sea_mask)])
        # each seat's free objective cities and its next step in the table (X5): what a rival
        # taking one of them costs it (Weights.deny)
        steps = []
        for j in range(self.n):
            m = self.obj[j] & free
            oh = ((self.fm[j] | self.rm[j]) & self.obj[j]).bit_count()
            steps.append((m, OBJ[min(6, oh + 1)] - OBJ[oh]) if m else None)
        sh = self.shared = (free, fr, counts, steps)
        return sh

    def context(self, i: int) -> Any:
        """What the dynamic part of a piece's value needs, for seat ``i`` now."""
        t = self.t
        free, fr, counts, steps = self._shared()
        held = self.fm[i] | self.rm[i]
        objm = self.obj[i]
        oh = (held & objm).bit_count()
        hc = [(held & hm).bit_count() for hm in t.sea_mask]
        block2 = block1 = 0
        for j in range(self.n):
            if j == i:
                continue
            cj = counts[j]
            for si, hm in enumerate(t.sea_mask):
                k = cj[si]
                if k == 2:
                    block2 |= hm
                elif k == 1:
                    block1 |= hm
        block2 &= free
        block1 &= free & ~block2
        left = self.rounds_left(i)
        ts = min(1.0, (left + 1) / 4.0)
        w = self.weights[i]
        rv = 0.0 if left == 0 else (w.ring if self.rings[i] <= left + 1 else w.ring * 0.5)
        comps = self.comps[i]
        largest = max((c[2] for c in comps), default=0)
        objfree = objm & ~held
        deny: list[tuple[int, float]] = []
        if w.deny:  # a free city of a rival's objective: taking it costs the rival its next step
            deny = [(st[0], w.deny * st[1]) for j, st in enumerate(steps) if j != i and st]
        tile = None
        if w.tile:  # the rivals' largest groups and the softmax's temperature, as tile_weights
            tile = (w.tile * scoring.GONZAGA_TILE, tile_temperature(left),
                    tuple(self.largest(j) for j in range(self.n) if j != i))
        return (held, objfree, oh, hc, fr, self.leagues[i], block2, block1, ts, rv, comps, largest, free,
                t.sea_mask, tuple(bits(objfree)), (0.0, w.lp1, w.lp2), w.group, w.block2, w.block1, deny, tile)

    @staticmethod
    def value(e: Entry, cx: Any, rings: int = 0) -> float:
        (held, objfree, oh, hc, fr, lg, block2, block1, ts, rv, comps, largest, free, seam, _,
         lpot, gstep, b2, b1, deny, tile) = cx
        mask = e.mask
        v = e.pts
        if objfree and mask & objfree:
            v += OBJ[min(6, oh + (mask & objfree).bit_count())] - OBJ[oh]
        for m, step in deny:
            if mask & m:
                v += step * (mask & m).bit_count()
        seas = e.seas
        if seas:
            done = -1
            for si in seas:
                if si == done or lg >> si & 1:
                    continue
                done = si
                after = hc[si] + (seas.count(si) if len(seas) > 1 else 1)
                if after >= SEA_LEAGUE_HARBORS:
                    v += SEA_LEAGUE
                    continue
                free_after = fr[si] - (e.harbors & free & seam[si]).bit_count()
                pa = lpot[after] if after + free_after >= SEA_LEAGUE_HARBORS else 0.0
                pb = lpot[hc[si]] if hc[si] + fr[si] >= SEA_LEAGUE_HARBORS else 0.0
                v += ts * (pa - pb)
            if block2 and mask & block2:
                v += ts * b2 * (mask & block2).bit_count()
            if block1 and mask & block1:
                v += ts * b1 * (mask & block1).bit_count()
        size = rings or 1  # the pieces of the group this placement ends in (X4)
        if comps and e.grown & held:
            g = e.grown
            for c in comps:
                if c[0] & g:
                    size += c[2]
        if size > largest:
            v += gstep * (size - largest)
            if tile:
                v += tile_gain(tile, largest, size)
        if rings:
            v -= rv * rings
        return float(v)

    def best_under(self, i: int, k: int, a: str, cx: Any, look: int = 0, merges: Any = (),
                   occ: Optional[int] = None) -> Any:
        """(value, entry, is_ring) of the best candidate for seat i under region card k and
        action a; ``look`` > 0 values only that many legal entries of the sorted list (plus
        those on the seat's objective cities)."""
        t = self.t
        f = self.fief[i]
        if occ is None:
            occ = self.all_fiefs() | self.rm[i]
        best_v = -1e9
        best = None
        lst = t.lists.get((f, k, a))
        value = RolloutPolicy.value
        if lst:
            n = 0
            for e in lst:
                if e.mask & occ:
                    continue
                v = value(e, cx)
                if v > best_v:
                    best_v, best = v, e
                n += 1
                if look and n >= look:
                    break
            objfree = cx[1]
            if look and objfree and a != "A":
                d = t.by_city.get((f, k, a))
                if d:
                    for c in cx[14]:
                        m = 0
                        for e in d.get(c, ()):
                            if not e.mask & occ:
                                v = value(e, cx)
                                if v > best_v:
                                    best_v, best = v, e
                                m += 1
                                if m >= look:
                                    break
        if a == "B" and merges:
            for v, e in merges:
                if k in e.regions and v > best_v and not e.mask & occ:
                    best_v, best = v, e
        ring = False
        if a == "C" and self.rings[i] > 0:
            blocked = self.fm[i] | self.all_rings()
            two = self.rings[i] >= 2
            objfree = cx[1]
            seen = 0
            for e in (t.rings1[k] if look else t.rings[k]):
                if e.mask & blocked:
                    continue
                n = 2 if e.mask & (e.mask - 1) else 1
                if n == 2 and not two:
                    continue
                seen += 1
                if look and seen > look and not e.mask & objfree:
                    continue
                v = value(e, cx, n)
                if v > best_v:
                    best_v, best, ring = v, e, True
        return best_v, best, ring

    def merges(self, i: int, cx: Any) -> list[Any]:
        """[(value, entry)]: placements covering no site that join two or more of the seat's
        groups into one larger than its largest (X4); only those worth more than a donation.
        Every merge touches a group other than the largest, so only their borders are tried."""
        comps = cx[10]
        if len(comps) < 2:
            return []
        f = self.fief[i]
        key = (self.round, f, len(comps), cx[20])  # with the tile term, the rivals' groups count too
        cached = self.mcache[i]
        if cached is not None and cached[0] == key:
            found: list[Any] = cached[1]
            return found
        occ = self.all_fiefs() | self.rm[i]
        t = self.t
        board = t.board
        largest = cx[11]
        gstep = cx[16]  # the seat's group step (Weights.group)
        top = max(range(len(comps)), key=lambda c: comps[c][2])
        frontier = 0
        for c, comp in enumerate(comps):
            if c == top:
                continue
            # a fief spans at most 4 hexes: the other groups must be within reach
            other = 0
            for d, comp2 in enumerate(comps):
                if d != c:
                    other |= comp2[1]
            reach = board.neighbours_mask(board.neighbours_mask(other) | other) | other
            frontier |= comp[1] & reach
        frontier &= ~occ & board.valid
        out = []
        seen = set()
        for b in bits(frontier):
            for e in t.plain_covering(f, b):
                if e.mask & occ or id(e) in seen:
                    continue
                seen.add(id(e))
                g = e.grown
                size = 1
                touched = 0
                for comp in comps:
                    if comp[0] & g:
                        size += comp[2]
                        touched += 1
                if touched < 2:
                    continue
                gain = gstep * (size - largest)
                if cx[20]:
                    gain += tile_gain(cx[20], largest, size)
                if gain > DONATION:
                    out.append((gain, e))
        self.mcache[i] = (key, out)
        return out

    def _plan_table(self, i: int) -> Any:
        """[(value, (card, action, king=False), entry mask)] for every legal plan without K,
        valued on the board as it is (no rival moves first)."""
        cx = self.context(i)
        gone = self.unav[i]
        out = []
        cards = self.t.cards
        occ = self.all_fiefs() | self.rm[i]
        for k, r in enumerate(cards):
            if r in gone:
                continue
            for a in ACTIONS:
                if a in gone:
                    continue
                v, e, _ = self.best_under(i, k, a, cx, PLAN_LOOK, (), occ)
                out.append((max(v, DONATION), (k, a, False), e.mask if e is not None and v >= DONATION else 0))
        return out

    def _greedy_plans(self) -> Any:
        """Each seat's plan table and its expected choice, computed once per planning phase
        (the board does not change while seats plan): what a seat expects of its rivals."""
        key = self.round
        pc = self.pcache
        if pc is not None and pc[0] == key:
            return pc[1]
        tables = [self._plan_table(j) for j in range(self.n)]
        picks = [max(tb, key=lambda x: x[0]) for tb in tables]
        self.pcache = (key, (tables, picks))
        return tables, picks

    def _contended(self, i: int, tables: Any, picks: Any, c: float) -> Any:
        """[(value, plan, mask)] of seat i's plans, valued (1 - c) x on the board now + c x
        after the rivals ahead of it take the spots of their expected plans."""
        mine = self.fief[i] + self.digit[i]
        ahead = []  # (R4 key, mask) of each rival's expected placement (plans without K)
        for j in range(self.n):
            if j != i and picks[j][2]:
                _, (_, aj, _), mj = picks[j]
                ahead.append((turn_order_key(False, aj, self.fief[j] + self.digit[j]), mj))
        if not ahead:
            return tables[i]
        cx = None
        occ = self.all_fiefs() | self.rm[i]
        out = []
        for v, p, m in tables[i]:
            k, a, _ = p
            key = turn_order_key(False, a, mine)
            taken = 0
            for kj, mj in ahead:
                if kj < key:
                    taken |= mj
            if taken & m:  # its best spot may be gone: the best of what is left
                if cx is None:
                    cx = self.context(i)
                v2, e2, _ = self.best_under(i, k, a, cx, PLAN_LOOK, (), occ | taken)
                if v2 < DONATION:
                    v2, e2 = DONATION, None
                v = (1 - c) * v + c * v2
                m = e2.mask if e2 is not None else 0
            out.append((v, p, m))
        return out

    def plan_values(self, i: int) -> Any:
        """[(value, (card, action, king=False))] for every legal plan without K.

        With ``Weights.contend`` c > 0 a plan is worth (1 - c) x its value on the board now +
        c x its value after the rivals who would place first (R3: a lower action card, or the
        same card and a lower fief number) take the spots their expected plans aim at."""
        c = self.weights[i].contend
        if not c:
            return [(v, p) for v, p, _ in self._plan_table(i)]
        tables, picks = self._greedy_plans()
        return [(v, p) for v, p, _ in self._contended(i, tables, picks, c)]

    def policy_plan(self, i: int) -> Any:
        w = self.weights[i]
        if w.king and w.contend and self.rings[i] > 0 and "K" not in self.unav[i]:
            tables, picks = self._greedy_plans()
            v0, p0, _ = picks[i]
            v1 = max(v for v, _, _ in self._contended(i, tables, picks, 1.0))
            if v0 - v1 >= w.king:  # rivals ahead would take this seat's best spot: go first (K2)
                return (p0[0], p0[1], True)
        vals = self.plan_values(i)
        if self.noise:
            rng = self.rng
            noise = self.noise
            return max(vals, key=lambda x: x[0] + rng.gauss(0.0, noise))[1]
        return max(vals, key=lambda x: x[0])[1]

    def policy_place(self, i: int) -> Any:
        """(entry, is_ring) or None for a donation."""
        k, a, _ = self.plan[i]
        cx = self.context(i)
        v, e, ring = self.best_under(i, k, a, cx, PLACE_LOOK, self.merges(i, cx) if a == "B" else ())
        if e is None or v < DONATION:
            return None
        return e, ring

    def place_options(self, i: int, top: int) -> list[Any]:
        """The ``top`` best [(value, choice)] for seat i under its revealed plan, by the
        policy's values, best first: every legal entry (as ``best_under`` with no ``look``),
        the merges (B), the weddings (C) and the donation (choice None, worth X3)."""
        k, a, _ = self.plan[i]
        cx = self.context(i)
        occ = self.all_fiefs() | self.rm[i]
        value = RolloutPolicy.value
        out: list[tuple[float, Optional[tuple[Entry, bool]]]] = [(DONATION, None)]
        seen = set()
        for e in self.t.lists.get((self.fief[i], k, a)) or ():
            if not e.mask & occ and e.mask not in seen:
                seen.add(e.mask)
                out.append((value(e, cx), (e, False)))
        if a == "B":
            for v, e in self.merges(i, cx):
                if k in e.regions and not e.mask & occ and e.mask not in seen:
                    seen.add(e.mask)
                    out.append((v, (e, False)))
        if a == "C" and self.rings[i] > 0:
            blocked = self.fm[i] | self.all_rings()
            two = self.rings[i] >= 2
            for e in self.t.rings[k]:
                if e.mask & blocked:
                    continue
                n = 2 if e.mask & (e.mask - 1) else 1
                if n == 1 or two:
                    out.append((value(e, cx, n), (e, True)))
        out.sort(key=lambda x: -x[0])
        return out[:top]

