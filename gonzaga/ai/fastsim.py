"""A fast, mutable game simulator for the search's rollouts, and its rollout policy.

``apply`` checks every rule and copies the state: right for the game, too slow inside a
search that plays thousands of decisions per second. ``Sim`` holds the same game (a full,
determinized state) in plain lists of bit masks and plays it forward in place. It trusts
its policy to pick legal actions: every candidate comes from tables of placements that
are legal on the empty board (P1-P6, P8-P10: map, castles, barriers, region, covering)
and is checked against the pieces on the board (P7, W4) before use.

Valuing candidates incrementally. What a placement is worth to a seat is split into
- a static part, computed once per board and scenario (``Tables``): the site points it
  scores (X1), which harbors and cities it covers, which region cards it touches, its
  hexes and their neighbours;
- a dynamic part, computed only for the few candidates the policy looks at: the sea
  leagues (X2), the objective (X5, with the sampled objective), the largest dominion
  (X4), blocking, from per-seat counters kept up to date as pieces go down.
Each (fief, region card, action card) keeps its site-covering placements sorted by the
static part, so a rollout step looks at the first few still-legal entries of a list (and
at the entries covering a city of the seat's objective) instead of valuing every legal
placement anew (the old policy valued about 61 per step through ``apply``'s states).

The policy's non-point terms are weights per seat (``Weights``): ``BASE_WEIGHTS`` are the
medium level's values, ``TUNED`` the weights expert's rollouts play, found by self-play
(``tools/tune_policy.py``), with three more terms: ``deny`` (taking a free city of a rival's
objective), ``contend`` (a plan valued after the rivals who place first, R3, take the spots
their own best plans aim at) and ``king`` (the King's Privilege, K2, when those rivals would
cost the seat's best plan that much).

A rollout step is one seat's decision (a plan or a placement) applied by the policy;
``gonzaga bench`` reports rollout steps per second (``play_out``).
"""
from __future__ import annotations

import math
import random
from typing import NamedTuple, Optional

from ..rules import Donate, GameState, Place, Plan, Wedding
from ..rules import scoring
from ..rules.board import Board, bits
from .heuristics import BLOCK_ONE, BLOCK_TWO, GROUP_STEP, LEAGUE_POT, OBJ, RING_VALUE, tile_temperature

ACTIONS = ("A", "B", "C")
ARANK = {"A": 0, "B": 1, "C": 2}
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
# the rollout policy expert plays in its rollouts (tools/tune_policy.py; docs/ai.md has the run)
TUNED = Weights(lp1=0.75, lp2=2.25, group=3.3, ring=1.5, block2=0.0, block1=0.5, deny=0.25, contend=1.0,
                king=0.25)


def tile_gain(tile: tuple, before: int, after: int) -> float:
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
    return worth * out


# ---------------------------------------------------------------- static tables

class Entry:
    """One placement of a fief (or one ring) as the policy needs it."""

    __slots__ = ("mask", "grown", "pts", "seas", "harbors", "anchor", "orient", "cls", "regions")

    def __init__(self, mask, grown, pts, seas, harbors, anchor, orient, cls, regions):
        self.mask = mask
        self.grown = grown  # the hexes and their neighbours (X4 contact)
        self.pts = pts  # X1 site points
        self.seas = seas  # sea indices with a harbor under it, with repeats
        self.harbors = harbors  # harbor hexes under it
        self.anchor = anchor  # bit index of the anchor cell (-1 for a ring)
        self.orient = orient
        self.cls = cls  # "A", "B" or "C": the action card it fits (P2-P4)
        self.regions = regions  # region card indices it touches (P1)


class Tables:
    """Per board and set of flourishing regions: every site-covering placement, sorted."""

    def __init__(self, board: Board, flourishing: frozenset, region_cards: tuple):
        self.board = board
        self.cards = region_cards
        self.card_index = {r: k for k, r in enumerate(region_cards)}
        self.rmask = [board.region_mask(r, flourishing) for r in region_cards]
        fs = board.flourishing_sites(flourishing)
        self.fsites = fs
        self.sites = board.sites
        self.city = board.city
        self.harbor = board.harbor
        self.sea_ids = list(board.sea_harbors)
        self.sea_mask = [board.sea_harbors[s] for s in self.sea_ids]
        sea_of = {}
        for si, hm in enumerate(self.sea_mask):
            for b in bits(hm):
                sea_of[b] = si
        self.sea_of = sea_of
        self.lists: dict = {}  # (fief, card, action) -> [Entry] best static first
        self._plain: dict = {}  # (fief, anchor, rotation) -> Entry, made on demand (B, P3)
        self._plain_hex: dict = {}  # (fief, hex bit) -> [Entry] covering it
        self.by_city: dict = {}  # (fief, card, action) -> {city bit: [Entry]}
        for f, orients in board.orientations.items():
            for o in orients:
                m = o.ok & (o.harbor_touch | o.city_touch)
                for a in bits(m):
                    mask = board.placement_mask(a, o)
                    e = self._entry(mask, a, o)
                    for k in e.regions:
                        key = (f, k, e.cls)
                        self.lists.setdefault(key, []).append(e)
                        if e.cls != "A":
                            d = self.by_city.setdefault(key, {})
                            for c in bits(mask & board.city):
                                d.setdefault(c, []).append(e)
        for lst in self.lists.values():
            lst.sort(key=lambda e: -e.pts)
        for d in self.by_city.values():
            for lst in d.values():
                lst.sort(key=lambda e: -e.pts)
        # rings (W2, W3): one ring on a site of the region card, or two on neighbouring sites
        self.rings = []
        self.rings1 = []  # single rings only (planning looks at these)
        for k, rm in enumerate(self.rmask):
            out = []
            singles = []
            for b in bits(rm & board.sites):
                singles.append(self._entry(1 << b, -1, None))
                out.append(singles[-1])
                for d in board.deltas:
                    c = b + d  # the second ring beside it (W3): on any hex of the map
                    if board.valid >> c & 1 and not (rm & board.sites >> c & 1 and c < b):
                        out.append(self._entry((1 << b) | (1 << c), -1, None))
            out.sort(key=lambda e: -e.pts)
            singles.sort(key=lambda e: -e.pts)
            self.rings.append(out)
            self.rings1.append(singles)

    def plain_covering(self, f: int, b: int):
        """The placements of fief ``f`` that cover hex bit ``b`` and no site (memoised)."""
        out = self._plain_hex.get((f, b))
        if out is not None:
            return out
        out = self._plain_hex[(f, b)] = []
        cache = self._plain
        board = self.board
        for o in board.orientations[f]:
            bad = o.harbor_touch | o.city_touch
            for off in o.offsets:
                a = b - off
                if o.ok >> a & 1 and not bad >> a & 1:
                    key = (f, a, o.rotation)
                    e = cache.get(key)
                    if e is None:
                        e = cache[key] = self._entry(board.placement_mask(a, o), a, o)
                    out.append(e)
        return out

    def _entry(self, mask, anchor, o) -> Entry:
        board = self.board
        covered = mask & self.sites
        fl = covered & self.fsites
        pts = 3 * fl.bit_count() + (covered ^ fl).bit_count()
        hm = mask & self.harbor
        seas = tuple(self.sea_of[b] for b in bits(hm))
        cm = mask & self.city
        cls = "C" if hm and cm else ("A" if hm else "B")
        regions = tuple(k for k, rm in enumerate(self.rmask) if rm & mask)
        return Entry(mask, board.neighbours_mask(mask) | mask, pts, seas, hm, anchor, o, cls, regions)


_TABLES: dict = {}


def tables_for(state: GameState) -> Tables:
    key = (id(state.board), state.flourishing)
    t = _TABLES.get(key)
    if t is None or t.board is not state.board:
        if len(_TABLES) > 16:
            _TABLES.clear()
        t = _TABLES[key] = Tables(state.board, state.flourishing, state.region_cards())
    return t


# ---------------------------------------------------------------- the simulator

class Sim:
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
    def from_state(cls, state: GameState, objectives: Optional[dict] = None) -> "Sim":
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
        from .heuristics import components
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

    # ------------------------------------------------------------ valuing

    def _shared(self):
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

    def context(self, i: int):
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
        deny = ()
        if w.deny:  # a free city of a rival's objective: taking it costs the rival its next step
            deny = [(st[0], w.deny * st[1]) for j, st in enumerate(steps) if j != i and st]
        tile = None
        if w.tile:  # the rivals' largest groups and the softmax's temperature, as tile_weights
            tile = (w.tile * scoring.GONZAGA_TILE, tile_temperature(left),
                    tuple(self.largest(j) for j in range(self.n) if j != i))
        return (held, objfree, oh, hc, fr, self.leagues[i], block2, block1, ts, rv, comps, largest, free,
                t.sea_mask, tuple(bits(objfree)), (0.0, w.lp1, w.lp2), w.group, w.block2, w.block1, deny, tile)

    @staticmethod
    def value(e: Entry, cx, rings: int = 0) -> float:
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
                if after >= 3:
                    v += 10.0
                    continue
                free_after = fr[si] - (e.harbors & free & seam[si]).bit_count()
                pa = lpot[after] if after + free_after >= 3 else 0.0
                pb = lpot[hc[si]] if hc[si] + fr[si] >= 3 else 0.0
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
        return v

    def best_under(self, i: int, k: int, a: str, cx, look: int = 0, merges=(), occ: Optional[int] = None):
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
        value = Sim.value
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

    def merges(self, i: int, cx) -> list:
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
            return cached[1]
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

    def _plan_table(self, i: int):
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

    def _greedy_plans(self):
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

    def _contended(self, i: int, tables, picks, c: float):
        """[(value, plan, mask)] of seat i's plans, valued (1 - c) x on the board now + c x
        after the rivals ahead of it take the spots of their expected plans."""
        mine = self.fief[i] + self.digit[i]
        ahead = []  # (action rank, fief key, mask) of each rival's expected placement
        for j in range(self.n):
            if j != i and picks[j][2]:
                _, (_, aj, _), mj = picks[j]
                ahead.append((ARANK[aj], self.fief[j] + self.digit[j], mj))
        if not ahead:
            return tables[i]
        cx = None
        occ = self.all_fiefs() | self.rm[i]
        out = []
        for v, p, m in tables[i]:
            k, a, _ = p
            rank = ARANK[a]
            taken = 0
            for ra, fk, mj in ahead:
                if ra < rank or (ra == rank and fk < mine):
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

    def plan_values(self, i: int):
        """[(value, (card, action, king=False))] for every legal plan without K.

        With ``Weights.contend`` c > 0 a plan is worth (1 - c) x its value on the board now +
        c x its value after the rivals who would place first (R3: a lower action card, or the
        same card and a lower fief number) take the spots their expected plans aim at."""
        c = self.weights[i].contend
        if not c:
            return [(v, p) for v, p, _ in self._plan_table(i)]
        tables, picks = self._greedy_plans()
        return [(v, p) for v, p, _ in self._contended(i, tables, picks, c)]

    def policy_plan(self, i: int):
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

    # ------------------------------------------------------------ playing

    def set_plan(self, i: int, plan) -> None:
        self.plan[i] = plan
        self.steps += 1

    def reveal(self) -> None:
        """R3, R4, K2."""
        keys = []
        for i in range(self.n):
            k, a, king = self.plan[i]
            if king:
                self.rings[i] -= 1
            keys.append(((0 if king else 1), ARANK[a], self.fief[i] + self.digit[i], i))
        keys.sort()
        self.order = tuple(x[3] for x in keys)
        self.turn = 0
        self.phase = "place"

    def policy_place(self, i: int):
        """(entry, is_ring) or None for a donation."""
        k, a, _ = self.plan[i]
        cx = self.context(i)
        v, e, ring = self.best_under(i, k, a, cx, PLACE_LOOK, self.merges(i, cx) if a == "B" else ())
        if e is None or v < DONATION:
            return None
        return e, ring

    def place_options(self, i: int, top: int) -> list:
        """The ``top`` best [(value, choice)] for seat i under its revealed plan, by the
        policy's values, best first: every legal entry (as ``best_under`` with no ``look``),
        the merges (B), the weddings (C) and the donation (choice None, worth X3)."""
        k, a, _ = self.plan[i]
        cx = self.context(i)
        occ = self.all_fiefs() | self.rm[i]
        value = Sim.value
        out = [(DONATION, None)]
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

    def put(self, i: int, mask: int, ring_count: int) -> None:
        """A fief (ring_count 0) or rings on ``mask`` for seat i: X1, X2, X4 bookkeeping."""
        t = self.t
        self.shared = None
        covered = mask & t.sites
        if covered:
            fl = covered & t.fsites
            self.pts[i] += 3 * fl.bit_count() + (covered ^ fl).bit_count()
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
                if not lg >> si & 1 and (held & hm).bit_count() >= 3:
                    lg |= 1 << si
                    self.pts[i] += 10
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

    def do_place(self, i: int, choice) -> None:
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
        if self.round == self.last_round or not self.deck[0]:
            self.phase = "over"
            return
        if self.last_round is None and self.round >= 6:
            t = self.t
            taken = self.all_fiefs() | self.all_rings()
            if (t.fsites & ~taken).bit_count() <= 3:
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
        groups = [self.largest(i) for i in range(self.n)]
        best = max(groups)
        out = []
        for i in range(self.n):
            held = self.fm[i] | self.rm[i]
            v = self.pts[i] + OBJ[(held & self.obj[i]).bit_count()]
            if best > 0 and groups[i] == best:
                v += scoring.GONZAGA_TILE
            out.append(v)
        return out

    def position_values(self, ring_value: float = RING_VALUE) -> list[float]:
        """Each seat's expected final score, as ``heuristics.position_values`` counts it:
        points so far, objective points held (with the sampled objectives), sea-league
        potentials, rings that can still be used (each worth ``ring_value``), and a share of
        the Gonzaga tile by a softmax over the largest groups."""
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
                if mine and mine + (hm & free).bit_count() >= 3:
                    v += ts * LEAGUE_POT[min(mine, 2)]
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
        top = max(scores)
        lead = [i for i in range(self.n) if scores[i] == top]
        if len(lead) > 1:
            held = {i: ((self.fm[i] | self.rm[i]) & self.t.sites).bit_count() for i in lead}
            most = max(held.values())
            lead = [i for i in lead if held[i] == most]
        return lead

    # ------------------------------------------------------------ root actions

    def apply_action(self, action) -> None:
        """A rules action (a plan or this turn's placement) for the seat whose turn it is."""
        if isinstance(action, Plan):
            self.set_plan(action.seat, (self.t.card_index[action.region], action.action, action.king))
            if all(p is not None for p in self.plan):
                self.reveal()
            return
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


def entry_action(sim: Sim, seat: int, choice):
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
