"""The board compiled to bitboards: one Python int per property, one bit per hex.

Hex (q, r) lives at bit ``(r - r0) * stride + (q - q0)``. With a margin of
``PAD`` columns on each side, the six neighbour directions become constant
index shifts and a rotated fief becomes a list of bit offsets, so testing a
fief at every anchor at once is a handful of big-int shifts and ANDs
(the formulation in research/ai_perf_anchors.md, appendix A).
"""
from __future__ import annotations

from dataclasses import dataclass
from collections.abc import Iterable, Iterator
from functools import lru_cache

from . import hexgrid
from .content import Content, Fief
from .hexgrid import Hex

PAD = 4  # larger than any fief's reach (3), so offsets never wrap into a valid hex


def shift(mask: int, offset: int) -> int:
    """Bits of ``mask`` moved so that bit ``a`` of the result is bit ``a + offset`` of ``mask``."""
    return mask >> offset if offset >= 0 else mask << -offset


def bits(mask: int) -> Iterator[int]:
    """Indices of the set bits, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


@dataclass(frozen=True)
class Orientation:
    """One distinct rotation of a fief, as bit offsets from the anchor cell."""

    rotation: int
    offsets: tuple[int, ...]
    castle_offsets: tuple[int, ...]
    edges: tuple[tuple[int, int], ...]  # (offset of a cell, direction) for each internal side
    cells: tuple[Hex, ...]  # rotated cells relative to the anchor
    castles: frozenset[Hex]
    fief: int = 0
    # What never changes during a game, per anchor: all cells on the map, castles on land,
    # no side across a barrier (P6, P8, P9); and which anchors cover a harbor, a city.
    ok: int = 0
    harbor_touch: int = 0
    city_touch: int = 0


class Board:
    """Masks and lookups for one loaded :class:`Content`."""

    def __init__(self, content: Content):
        self.content = content
        hexes = [(h.q, h.r) for h in content.board.hexes]
        qs = [q for q, _ in hexes]
        rs = [r for _, r in hexes]
        self.q0 = min(qs) - PAD
        self.r0 = min(rs) - PAD
        self.stride = max(qs) - min(qs) + 2 * PAD + 1
        self.deltas = tuple(dr * self.stride + dq for dq, dr in hexgrid.DIRECTIONS)
        self.hexes = tuple(sorted(hexes, key=lambda h: (h[1], h[0])))
        self.index_of = {h: self.index(h) for h in self.hexes}
        self.hex_at = {i: h for h, i in self.index_of.items()}

        self.valid = self._mask(self.hexes)
        self.land = self._mask(h for h, t in content.terrain.items() if t == "land")
        self.region = {r.id: self._mask(h for h, g in content.region_of.items() if g == r.id)
                       for r in content.board.regions}
        sites = content.sites
        self.harbor = self._mask(h for h, s in sites.items() if s.kind == "harbor")
        self.city = self._mask(h for h, s in sites.items() if s.kind == "city")
        self.sites = self.harbor | self.city
        self.sea_harbors = {s.id: self._mask(h for h, x in sites.items() if x.sea == s.id)
                            for s in content.board.seas}
        self.region_sites = {rid: m & self.sites for rid, m in self.region.items()}
        barrier = [0] * 6
        for edge in content.barriers:
            a, b = tuple(edge)
            for x, y in ((a, b), (b, a)):
                d = hexgrid.DIRECTIONS.index(hexgrid.sub(y, x))
                barrier[d] |= 1 << self.index_of[x]
        self.barrier = tuple(barrier)
        self._touch: dict[tuple[int, int, int], int] = {}
        self.orientations: dict[int, tuple[Orientation, ...]] = {
            n: self._orientations(f) for n, f in content.fiefs.items()}

    # ------------------------------------------------------------ indices

    def index(self, h: Hex) -> int:
        return (h[1] - self.r0) * self.stride + (h[0] - self.q0)

    def _mask(self, hexes: Iterable[Hex]) -> int:
        m = 0
        for h in hexes:
            m |= 1 << self.index(h)
        return m

    def mask_of(self, hexes: Iterable[Hex]) -> int:
        return self._mask(hexes)

    def hexes_of(self, mask: int) -> list[Hex]:
        return [self.hex_at[i] for i in bits(mask)]

    def on_board(self, h: Hex) -> bool:
        return h in self.index_of

    def neighbours_mask(self, mask: int) -> int:
        """Every valid hex sharing a side with a hex of ``mask`` (barriers ignored)."""
        out = 0
        for d in self.deltas:
            out |= shift(mask, -d)
        return out & self.valid

    # ------------------------------------------------------------ fiefs

    def _orientations(self, fief: Fief) -> tuple[Orientation, ...]:
        return tuple(_build_orientation(self, fief.number, k) for k in fief.distinct_rotations)

    def offset(self, rel: Hex) -> int:
        return rel[1] * self.stride + rel[0]

    def orientation(self, fief: int, rotation: int) -> Orientation:
        """The orientation for any rotation 0-5 (not only the distinct ones)."""
        return _any_orientation(self, fief, rotation % 6)

    def placement_mask(self, anchor_index: int, o: Orientation) -> int:
        m = 0
        for off in o.offsets:
            m |= 1 << (anchor_index + off)
        return m

    # ------------------------------------------------------------ regions

    def region_touch(self, o: Orientation, region_mask: int) -> int:
        """Anchors where the orientation has a cell in ``region_mask`` (P1); cached."""
        key = (o.fief, o.rotation, region_mask)
        t = self._touch.get(key)
        if t is None:
            t = 0
            for off in o.offsets:
                t |= shift(region_mask, off)
            t = self._touch[key] = t & self.valid
        return t

    def region_mask(self, region: str, flourishing: frozenset[str]) -> int:
        """Hexes allowed by a region card; ``"inactive"`` means every inactive region."""
        if region == "inactive":
            return _inactive_mask(self, flourishing)
        return self.region[region]

    def flourishing_sites(self, flourishing: frozenset[str]) -> int:
        return _flourishing_sites(self, flourishing)


@lru_cache(maxsize=64)
def _inactive_mask(board: Board, flourishing: frozenset[str]) -> int:
    m = 0
    for rid, rm in board.region.items():
        if rid not in flourishing:
            m |= rm
    return m


@lru_cache(maxsize=64)
def _flourishing_sites(board: Board, flourishing: frozenset[str]) -> int:
    m = 0
    for rid in flourishing:
        m |= board.region_sites[rid]
    return m


@lru_cache(maxsize=256)
def _any_orientation(board: Board, fief: int, k: int) -> Orientation:
    return _build_orientation(board, fief, k)


def _build_orientation(board: Board, fief: int, k: int) -> Orientation:
    f = board.content.fiefs[fief]
    cells, castles = f.rotated(k)
    cellset = set(cells)
    edges = []
    for c in cells:
        for d, (dq, dr) in enumerate(hexgrid.DIRECTIONS[:3]):
            if (c[0] + dq, c[1] + dr) in cellset:
                edges.append((board.offset(c), d))
    offsets = tuple(board.offset(c) for c in cells)
    castle_offsets = tuple(board.offset(c) for c in castles)
    ok = board.valid  # the anchor itself is a cell, so only valid anchors matter
    harbor_touch = city_touch = 0
    for off in offsets:
        ok &= shift(board.valid, off)
        harbor_touch |= shift(board.harbor, off)
        city_touch |= shift(board.city, off)
    for off in castle_offsets:
        ok &= shift(board.land, off)
    for off, d in edges:
        ok &= ~shift(board.barrier[d], off)
    return Orientation(k, offsets, castle_offsets, tuple(edges), cells, castles, fief,
                       ok, harbor_touch & board.valid, city_touch & board.valid)


_BOARDS: dict[int, Board] = {}


def board_for(content: Content) -> Board:
    """One compiled board per loaded content (content objects are cached and immutable)."""
    b = _BOARDS.get(id(content))
    if b is None or b.content is not content:
        b = _BOARDS[id(content)] = Board(content)
    return b
