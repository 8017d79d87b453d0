"""The placement turn of a human seat, as interface state: the dragged fief, its rotation and
anchor, the wedding rings chosen, and what the rules say about each spot.

It never changes the game: ``action()`` builds the Place/Wedding that the screen sends through
the seat's face. Legal anchors are computed once per turn (every rotation 0-5, so a rotation
that looks like another still highlights correctly); hover looks them up.
"""
from __future__ import annotations

from typing import Optional

from ..rules import INACTIVE, Donate, Illegal, Place, Wedding, hexgrid, legal_placements, placement_problem, ring_problem
from ..rules import scoring
from ..rules.hexgrid import Hex
from ..words import i18n


def _min_cell(cells) -> Hex:
    return min(cells, key=lambda h: (h[1], h[0]))


class Feedback:
    """What the ghost says: legal or not, the points or the reason."""

    def __init__(self, ok: bool, text: str, points: int = 0, leagues: tuple[str, ...] = (), rule: str = ""):
        self.ok = ok
        self.text = text
        self.points = points
        self.leagues = leagues
        self.rule = rule


class PlacementController:
    def __init__(self, me):
        self.me = me  # the placing seat's face (table/seatview.py)
        seat = me.seat
        st = me.view()  # the placing seat's view: no other seat's secret, no deck order
        self.state = st
        self.seat = seat
        s = st.seats[seat]
        self.fief = s.fief
        self.plan = s.plan
        self.key = (st.round, st.turn)
        self.rotation = 0
        self.anchor: Optional[Hex] = None
        self.dragging = False
        self.mode = "fief"  # or "wedding"
        self.rings: list[Hex] = []
        self.cursor: Optional[Hex] = None  # wedding cursor (mouse or arrows)
        self.last_refusal: Optional[Illegal] = None
        self.legal: dict[int, set[Hex]] = {k: set() for k in range(6)}
        self._compute_legal()
        self.any_rotation: set[Hex] = set().union(*self.legal.values())
        self.can_wed = self.plan.action == "C" and s.rings >= 1
        self.region_mask = st.board.region_mask(self.plan.region, st.flourishing)

    # ------------------------------------------------------------ legal spots

    def _compute_legal(self) -> None:
        st = self.state
        fief = st.content.fiefs[self.fief]
        # for every rotation k: the distinct rotation with the same footprint, and the anchor shift
        shift = {}
        for k in range(6):
            cells, castles = fief.rotated(k)
            for kd in fief.distinct_rotations:
                cd, _ = fief.rotated(kd)
                if self._same_piece(cells, castles, *fief.rotated(kd)):
                    m_k, m_d = _min_cell(cells), _min_cell(cd)
                    shift[k] = (kd, (m_d[0] - m_k[0], m_d[1] - m_k[1]))
                    break
        by_distinct: dict[int, list[Hex]] = {}
        for p in legal_placements(st, self.seat):
            by_distinct.setdefault(p.rotation, []).append(p.anchor)
        for k in range(6):
            kd, (dq, dr) = shift[k]
            self.legal[k] = {(a[0] + dq, a[1] + dr) for a in by_distinct.get(kd, ())}

    @staticmethod
    def _same_piece(c1, k1, c2, k2) -> bool:
        m1, m2 = _min_cell(c1), _min_cell(c2)
        n1 = ({(q - m1[0], r - m1[1]) for q, r in c1}, {(q - m1[0], r - m1[1]) for q, r in k1})
        n2 = ({(q - m2[0], r - m2[1]) for q, r in c2}, {(q - m2[0], r - m2[1]) for q, r in k2})
        return n1 == n2

    @property
    def has_legal_spot(self) -> bool:
        return bool(self.any_rotation)

    def highlights(self) -> tuple[set[Hex], set[Hex]]:
        """(strong, faint): anchors legal with this rotation; anchors legal with another one."""
        if self.mode == "wedding":
            return self.ring_candidates(), set()
        strong = self.legal[self.rotation]
        return strong, self.any_rotation - strong

    # ------------------------------------------------------------ the fief ghost

    def footprint(self, anchor: Optional[Hex] = None, rotation: Optional[int] = None):
        anchor = self.anchor if anchor is None else anchor
        rotation = self.rotation if rotation is None else rotation
        if anchor is None:
            return (), frozenset()
        return self.state.content.fiefs[self.fief].footprint(anchor, rotation)

    def feedback(self) -> Optional[Feedback]:
        if self.mode == "wedding":
            return self.ring_feedback()
        if self.anchor is None:
            return None
        st = self.state
        if self.anchor in self.legal[self.rotation]:
            cells, _ = self.footprint()
            mask = st.board.mask_of(cells)
            pts = scoring.site_points(st, mask)
            leagues = tuple(scoring.new_leagues(st, st.seats[self.seat], mask))
            return Feedback(True, self._points_text(pts, leagues), pts, leagues)
        why = placement_problem(st, self.seat, self.fief, self.anchor, self.rotation, self.plan.region,
                                self.plan.action)
        if why is None:  # cannot happen unless the caches disagree; trust the rules
            return Feedback(True, "")
        return Feedback(False, i18n.rule_text(why), rule=why.rule)

    def _points_text(self, pts: int, leagues) -> str:
        parts = [i18n.t("place.points", points=pts)]
        for sea in leagues:
            parts.append(i18n.t("place.league", sea=self.state.content.sea_names.get(sea, sea)))
        return ", ".join(parts)

    def rotate(self, step: int = 1) -> None:
        self.rotation = (self.rotation + step) % 6

    def set_anchor(self, h: Optional[Hex]) -> None:
        if self.mode == "wedding":
            self.cursor = h
        else:
            self.anchor = h

    def start_keyboard(self) -> None:
        """Put the ghost on the first legal spot (keyboard play starts here)."""
        if self.mode == "wedding":
            if self.cursor is None:
                cands = sorted(self.ring_candidates(), key=lambda h: (h[1], h[0]))
                self.cursor = cands[0] if cands else self.state.board.hexes[len(self.state.board.hexes) // 2]
            return
        if self.anchor is None:
            spots = sorted(self.legal[self.rotation] or self.any_rotation, key=lambda h: (h[1], h[0]))
            if spots:
                self.anchor = spots[len(spots) // 2]
                if self.anchor not in self.legal[self.rotation]:
                    for k in range(6):
                        if self.anchor in self.legal[k]:
                            self.rotation = k
                            break
            else:
                hexes = self.state.board.hexes
                self.anchor = hexes[len(hexes) // 2]

    def move(self, key: str) -> None:
        """Arrow keys: left/right one hex; up/down one row, zig-zagging to keep the column."""
        cur = self.cursor if self.mode == "wedding" else self.anchor
        if cur is None:
            self.start_keyboard()
            return
        q, r = cur
        if key == "left":
            nxt = (q - 1, r)
        elif key == "right":
            nxt = (q + 1, r)
        elif key == "up":
            nxt = (q + 1, r - 1) if r % 2 == 0 else (q, r - 1)
        else:
            nxt = (q - 1, r + 1) if r % 2 == 0 else (q, r + 1)
        if nxt in self.state.board.index_of:
            self.set_anchor(nxt)

    def cancel(self) -> None:
        self.dragging = False
        self.anchor = None
        self.rings = []
        self.cursor = None

    # ------------------------------------------------------------ weddings

    def toggle_mode(self) -> None:
        if not self.can_wed:
            return
        self.mode = "fief" if self.mode == "wedding" else "wedding"
        self.cancel()

    def ring_problem(self, h: Hex) -> Optional[Illegal]:
        st = self.state
        taken = st.board.mask_of(self.rings)
        why = ring_problem(st, self.seat, h, taken)
        if why:
            return why
        if len(self.rings) >= min(2, st.seats[self.seat].rings):
            if st.seats[self.seat].rings < 2:
                return Illegal.of("W6", "no_more_rings")
            return Illegal.of("W3", "wedding_two")
        if not self.rings:
            if not self.region_mask >> st.board.index_of[h] & 1:
                if self.plan.region == INACTIVE:
                    return Illegal.of("W2", "first_ring_inactive")
                return Illegal.of("W2", "first_ring", region=i18n.card_name(st, self.plan.region))
        elif not hexgrid.are_adjacent(self.rings[0], h):
            return Illegal.of("W3", "second_ring")
        return None

    def ring_candidates(self) -> set[Hex]:
        st = self.state
        if self.rings:
            if len(self.rings) >= min(2, st.seats[self.seat].rings):
                return set()
            return {n for n in hexgrid.neighbors(self.rings[0]) if n in st.board.index_of and self.ring_problem(n) is None}
        return {h for h in st.board.hexes if self.region_mask >> st.board.index_of[h] & 1
                and self.ring_problem(h) is None}

    def click_ring(self, h: Hex) -> Optional[Illegal]:
        if h in self.rings:
            self.rings.remove(h)
            return None
        why = self.ring_problem(h)
        if why is None:
            self.rings.append(h)
        self.last_refusal = why
        return why

    def ring_feedback(self) -> Optional[Feedback]:
        st = self.state
        if self.cursor is not None and self.cursor not in self.rings:
            why = self.ring_problem(self.cursor)
            if why is not None:
                return Feedback(False, i18n.rule_text(why), rule=why.rule)
            rings = self.rings + [self.cursor]
        else:
            rings = self.rings
        if not rings:
            return None
        mask = st.board.mask_of(rings)
        pts = scoring.site_points(st, mask)
        leagues = tuple(scoring.new_leagues(st, st.seats[self.seat], mask))
        return Feedback(True, self._points_text(pts, leagues), pts, leagues)

    # ------------------------------------------------------------ the action

    def action(self):
        """The Place or Wedding to send, or None when the current choice is not legal."""
        if self.mode == "wedding":
            if not self.rings:
                return None
            return Wedding(self.seat, tuple(self.rings))
        if self.anchor is None or self.anchor not in self.legal[self.rotation]:
            return None
        return Place(self.seat, self.fief, self.anchor, self.rotation)

    def donation(self) -> Donate:
        return Donate(self.seat)
