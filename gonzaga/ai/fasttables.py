"""The rollout policy's static tables: every site-covering placement of every fief (and every
wedding's ring set) on one board with one set of flourishing regions, valued once.

What a placement is worth to a seat is split into a static part, computed here once per board
and scenario: the site points it scores (X1), which harbors and cities it covers, which region
cards it touches, its hexes and their neighbours; and a dynamic part (``rollout_policy``).
Each (fief, region card, action card) keeps its site-covering placements sorted by the static
part, so a rollout step looks at the first few still-legal entries of a list (and at the
entries covering a city of the seat's objective) instead of valuing every legal placement
anew (the old policy valued about 61 per step through ``apply``'s states).

Every entry is legal on the empty board (P1-P6, P8-P10: map, castles, barriers, region,
covering); the simulator checks it against the pieces on the board (P7, W4) before use.
"""
from __future__ import annotations

from typing import Any

from ..rules import GameState, wedding_ring_sets
from ..rules.board import Board, bits
from ..rules.scoring import SITE_FLOURISHING, SITE_INACTIVE


class Entry:
    """One placement of a fief (or one ring) as the policy needs it."""

    __slots__ = ("mask", "grown", "pts", "seas", "harbors", "anchor", "orient", "cls", "regions")

    def __init__(self, mask: int, grown: int, pts: int, seas: Any, harbors: int, anchor: int, orient: Any,
                 cls: Any, regions: Any) -> None:
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

    def __init__(self, board: Board, flourishing: frozenset[str], region_cards: tuple[str, ...]):
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
        self.lists: dict[Any, list[Entry]] = {}  # (fief, card, action) -> [Entry] best static first
        self._plain: dict[tuple[int, int, int], Entry] = {}  # (fief, anchor, rotation) -> Entry, made on demand (B, P3)
        self._plain_hex: dict[tuple[int, int], list[Entry]] = {}  # (fief, hex bit) -> [Entry] covering it
        self.by_city: dict[Any, dict[int, list[Entry]]] = {}  # (fief, card, action) -> {city bit: [Entry]}
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
        # rings (W2, W3): one ring on a site of the region card, or a second beside it on any
        # hex of the map; the board's pieces (W4) and the rings in supply (W6) are checked in play
        self.rings = []
        self.rings1 = []  # single rings only (planning looks at these)
        for rm in self.rmask:
            out = []
            singles = []
            for mask, ks in wedding_ring_sets(board, rm & board.sites, board.valid, True):
                out.append(self._entry(mask, -1, None))
                if len(ks) == 1:
                    singles.append(out[-1])
            out.sort(key=lambda e: -e.pts)
            singles.sort(key=lambda e: -e.pts)
            self.rings.append(out)
            self.rings1.append(singles)

    def plain_covering(self, f: int, b: int) -> list[Entry]:
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

    def _entry(self, mask: int, anchor: int, o: Any) -> Entry:
        board = self.board
        covered = mask & self.sites
        fl = covered & self.fsites
        pts = SITE_FLOURISHING * fl.bit_count() + SITE_INACTIVE * (covered ^ fl).bit_count()
        hm = mask & self.harbor
        seas = tuple(self.sea_of[b] for b in bits(hm))
        cm = mask & self.city
        cls = "C" if hm and cm else ("A" if hm else "B")
        regions = tuple(k for k, rm in enumerate(self.rmask) if rm & mask)
        return Entry(mask, board.neighbours_mask(mask) | mask, pts, seas, hm, anchor, o, cls, regions)


_TABLES: dict[Any, Tables] = {}


def tables_for(state: GameState) -> Tables:
    key = (id(state.board), state.flourishing)
    t = _TABLES.get(key)
    if t is None or t.board is not state.board:
        if len(_TABLES) > 16:
            _TABLES.clear()
        t = _TABLES[key] = Tables(state.board, state.flourishing, state.region_cards())
    return t

