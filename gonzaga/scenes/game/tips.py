"""Tips: what the pointer (or T) rests on, in words: a site, a sea, a seat, a card, a pair of the planning
preview, a log line.

A part of the game screen with explicit inputs (:class:`Tips`): the view the screen draws, the game's
face (names, its log and public moves), the tooltip, the pointer, the screen's buttons and the parts
it reads (the previews, the panel, the top bar), the map, whose hand is open, the placement under
way and whether the map is dragged; a gate (``quiet``) keeps the tips off where a script's own box
stands (the tutorial's)."""
from __future__ import annotations

from typing import Any, Callable, Optional

import pygame

from ...rules import Place, Plan, Setup, Wedding, scoring
from ...words import i18n
from ...ui.widgets import Tooltip, Widgets
from ..preview import PLAN_ACTIONS

Point = tuple[int, int]
Target = Optional[tuple[Any, ...]]


def _never(pos: Point) -> bool:
    return False


class Tips:
    """The tips. Inputs: ``view`` (the state the screen draws), ``face`` (names, the log, the public
    moves, the version), ``tooltip`` (where tips are shown), ``mouse`` (the pointer), ``widgets``
    (the screen's buttons: a card's tip), ``previews`` (the planning previews part: its table and
    best points), ``panel`` (the seats panel: its seats and log lines), ``top`` (the top bar: its
    status), ``renderer`` (the board renderer, or None), ``board`` (the map's rectangle), ``seat``
    (whose hand is open, or None), ``placing`` (the placement under way at the screen, or None)
    and ``panning`` (the map is dragged). ``quiet(pos)``: no tip there (a script's box).
    ``lit``: the hexes the log line under the pointer tells (drawn on the map)."""

    def __init__(self, view: Callable[[], Any], face: Any, tooltip: Tooltip, mouse: Callable[[], Point],
                 widgets: Widgets, previews: Any, panel: Any, top: Any, renderer: Callable[[], Any],
                 board: Callable[[], pygame.Rect], seat: Callable[[], Optional[int]], placing: Callable[[], Any],
                 panning: Callable[[], bool]):
        self.view = view
        self.face = face
        self.tooltip = tooltip
        self.mouse = mouse
        self.widgets = widgets
        self.previews = previews
        self.panel = panel
        self.top = top
        self.renderer = renderer
        self.board = board
        self.seat = seat
        self.placing = placing
        self.panning = panning
        self.quiet: Callable[[Point], bool] = _never
        self.lit: tuple[Any, ...] = ()
        self.after_drop: Optional[Point] = None  # a fief was dropped here: no tip until the pointer moves on

    # ------------------------------------------------------------ tips (hover, or T)

    def hover(self) -> None:
        """What is under the pointer: its tip (after a short rest) and the hexes a log line
        refers to (at once)."""
        self.lit = ()
        if self.tooltip.forced:
            return
        pos = self.mouse()
        # no tip while something is dragged (a fief, the map), nor after a drop until the pointer
        # moves on (issue 40: a city's tip stood over the fief just dropped)
        if self.dragging() or pos == self.after_drop:
            self.tooltip.hide()
            return
        self.after_drop = None
        target, lines = self.at(pos)
        self.tooltip.set(target, lines, pos, self.ghost_box())

    def off(self) -> None:
        """Another screen is on top: no tip, no lit hexes."""
        self.tooltip.hide()
        self.lit = ()

    def dragging(self) -> bool:
        """A fief or the map is being dragged."""
        pc = self.placing()
        return (pc is not None and pc.dragging) or self.panning()

    def ghost_box(self) -> Optional[pygame.Rect]:
        """The screen box of the fief being placed (its ghost), which a tip leaves uncovered."""
        pc = self.placing()
        r = self.renderer()
        if pc is None or pc.mode != "fief" or pc.anchor is None or r is None:
            return None
        cells = self.view().content.fiefs[pc.fief].footprint(pc.anchor, pc.rotation)[0]
        pts = [r.hex_to_screen(c) for c in cells]
        size = r.size
        xs, ys = [p[0] for p in pts], [p[1] for p in pts]
        return pygame.Rect(int(min(xs) - size), int(min(ys) - size), int(max(xs) - min(xs) + 2 * size),
                           int(max(ys) - min(ys) + 2 * size))

    def at(self, pos: Point) -> tuple[Target, list[str]]:
        """(target, lines) for the thing at screen point ``pos``; (None, []) for nothing."""
        if pos[0] < 0 or self.quiet(pos):
            return None, []
        for w in self.widgets.items:
            if w.visible and w.rect.collidepoint(pos):
                card = getattr(w, "card", None)
                if card is not None and self.seat() is not None:
                    return ("card", card), self.card_tip(card)
                return None, []
        pv = self.previews
        if pv.rect is not None and pv.rect.collidepoint(pos):
            for rect, region, action in pv.cells:
                if rect.collidepoint(pos):
                    return ("pair", region, action), self._pair_tip(region, action)
            return None, []
        for rect, seat in self.panel.seat_rects:
            if rect.collidepoint(pos):
                return ("seat", seat, self.face.version), self._seat_tip(seat)
        if self.top.status_rect is not None and self.top.status_rect.collidepoint(pos):
            return ("status", self.face.version), self._status_tip()
        for rect, idx in self.panel.log_rects:
            if rect.collidepoint(pos):
                self.lit = tuple(self._log_hexes(idx))
                return ("log", idx), [self.face.log[idx].text(), i18n.t("tip.log")] if self.lit else []
        r = self.renderer()
        if self.board().collidepoint(pos) and r is not None:
            h = r.screen_to_hex(*pos)
            if h is not None:
                return ("hex", h, self.face.version), self.hex_tip(h)
        return None, []

    def by_key(self) -> None:
        """T: the tip of the hex under the keyboard ghost (or ring cursor), else of the
        focused card, else of what the pointer is on; shown at once."""
        pc = self.placing()
        at = (pc.anchor if pc.mode == "fief" else pc.cursor) if pc is not None else None
        r = self.renderer()
        if at is not None and r is not None:
            x, y = r.hex_to_screen(at)
            self.tooltip.show_now(("hex", at), self.hex_tip(at), (x, y + r.size))
            return
        f = self.widgets.focus
        card = getattr(f, "card", None)
        if f is not None and card is not None and self.seat() is not None:
            self.tooltip.show_now(("card", card), self.card_tip(card), f.rect.midtop)
            return
        target, lines = self.at(self.mouse())
        self.tooltip.show_now(target, lines, self.mouse())

    def _holders(self, h: Any) -> list[str]:
        st = self.view()
        i = st.board.index_of.get(h)
        if i is None:
            return []
        return [self.face.seat_name(n) for n, s in enumerate(st.seats) if s.held >> i & 1]

    def hex_tip(self, h: Any) -> list[str]:
        """A site (name, symbol or sea, region and whether it flourishes, who holds it), a
        sea (its harbors and who holds them, who is close to a league) or a land hex."""
        st = self.view()
        c = st.content
        site = c.sites.get(h)
        lines = []
        if site is not None:
            if site.kind == "city":
                lines.append(i18n.t("tip.city", name=site.name, symbol=i18n.t(f"symbol.{site.symbol}")))
            else:
                lines.append(i18n.t("tip.harbor", name=site.name, sea=c.sea_names.get(site.sea, site.sea)))
        elif c.terrain.get(h) == "sea":
            return self._sea_tip(c.sea_of.get(h))
        else:
            lines.append(i18n.t("tip.land"))
        reg = c.region_of.get(h)
        if reg:
            name = c.region_names.get(reg, reg)
            lines.append(i18n.t("tip.flourishing" if reg in st.flourishing else "tip.inactive", region=name))
        who = self._holders(h)
        lines.append(i18n.t("tip.held_by", names=", ".join(who)) if who else i18n.t("tip.free"))
        if site is not None and site.kind == "harbor":
            lines += self._sea_tip(site.sea)[1:]
        return lines

    def _sea_tip(self, sea: Any) -> list[str]:
        st = self.view()
        c = st.content
        if sea is None:
            return []
        board = st.board
        lines = [i18n.t("tip.sea", sea=c.sea_names.get(sea, sea))]
        harbors = sorted((x for x in c.sites.values() if x.kind == "harbor" and x.sea == sea), key=lambda x: x.name)
        parts = []
        for x in harbors:
            who = self._holders(x.hex)
            parts.append(f"{x.name} ({', '.join(who) if who else i18n.t('tip.harbor_free')})")
        if parts:
            lines.append(i18n.t("tip.harbors", harbors="; ".join(parts)))
        mask = board.sea_harbors.get(sea, 0)
        won = [self.face.seat_name(i) for i, s in enumerate(st.seats) if sea in s.leagues]
        close = [self.face.seat_name(i) for i, s in enumerate(st.seats)
                 if sea not in s.leagues and (s.held & mask).bit_count() == scoring.SEA_LEAGUE_HARBORS - 1]
        if won:
            lines.append(i18n.t("tip.sea_won", names=", ".join(won)))
        lines.append(i18n.t("tip.sea_close", names=", ".join(close)) if close else i18n.t("tip.sea_none_close"))
        return lines

    def _seat_tip(self, seat: int) -> list[str]:
        """A seat's score so far by category (public parts only: never its objective)."""
        st = self.view()
        s = st.seats[seat]
        lines = [i18n.t("tip.seat_head", name=self.face.seat_name(seat), score=i18n.tn("n.points", s.score)),
                 i18n.t("tip.seat_parts", sites=s.site_points, leagues=s.league_points,
                        donations=s.donation_points)]
        if st.phase == "over":
            lines.append(f"{i18n.t('end.gonzaga')} {s.gonzaga_points} · {i18n.t('end.objective')} {s.objective_points}")
        else:
            lines.append(i18n.t("tip.seat_group", pieces=i18n.tn("n.pieces", scoring.largest_group(st, seat))))
            lines.append(i18n.t("tip.seat_secret"))
        return lines

    def _status_tip(self) -> list[str]:
        st = self.view()
        head = self.top.status_text()
        return [head, i18n.t("tip.last_turn", sites=i18n.tn("n.sites", scoring.free_flourishing_sites(st))),
                i18n.t("tip.last_turn_rule")]

    def card_tip(self, card: str) -> list[str]:
        """What a planning card allows, why it is greyed, and the best it could score now."""
        st = self.view()
        seat = self.seat()
        assert seat is not None
        s = st.seats[seat]
        hand = self.previews.hand
        prev = self.previews.previews()
        if card == "K":
            lines = [i18n.t("card.K"), i18n.t("tip.card_K")]
            if "K" in s.unavailable:
                lines.append(i18n.t("tip.card_greyed", why=i18n.t("plan.played_last")))
            elif s.rings < 1:
                lines.append(i18n.t("tip.card_greyed", why=i18n.t("plan.no_ring")))
            return lines
        if card in PLAN_ACTIONS:
            lines = [i18n.t(f"card.{card}"), i18n.t(f"card.{card}.long")]
            regions = [hand.region] if hand.region else [r for r in st.region_cards()
                                                                        if r not in s.unavailable]
            bests = [prev[(r, card)].best for r in regions if (r, card) in prev and prev[(r, card)].best is not None]
        else:
            name = i18n.card_name(st, card)
            lines = [name, i18n.t("tip.card_region", region=name)]
            if card != "inactive":
                lines.append(i18n.t("tip.flourishing" if card in st.flourishing else "tip.inactive", region=name))
            actions = [hand.action] if hand.action in PLAN_ACTIONS else [
                a for a in PLAN_ACTIONS if a not in s.unavailable]
            bests = [prev[(card, a)].best for a in actions if (card, a) in prev and prev[(card, a)].best is not None]
        if card in s.unavailable:
            lines.append(i18n.t("tip.card_greyed", why=i18n.t("plan.played_last")))
        lines.append(i18n.t("tip.card_best", points=max(bests)) if bests else i18n.t("tip.card_none"))
        return lines

    def _pair_tip(self, region: str, action: str) -> list[str]:
        st = self.view()
        p = self.previews.previews().get((region, action))
        head = (i18n.t("preview.map", region=i18n.card_name(st, region), action=i18n.card_name(st, action),
                       points=p.best) if p is not None and p.best is not None else
                i18n.t("preview.map_none", region=i18n.card_name(st, region), action=i18n.card_name(st, action)))
        lines = [head, i18n.t(f"card.{action}.long")]
        seat = self.seat()
        unavailable = st.seats[seat].unavailable if seat is not None else set()
        if region in unavailable or action in unavailable:
            lines.append(i18n.t("tip.card_greyed", why=i18n.t("plan.played_last")))
        return lines

    def _log_hexes(self, idx: int) -> list[Any]:
        """The hexes of the placement or wedding a log line tells (none for other lines):
        the n-th place/wedding/donate line is the n-th such action of the record."""
        log_ = self.face.log
        if idx >= len(log_) or log_[idx].key not in ("log.place", "log.wedding", "log.donate"):
            return []
        n = sum(1 for e in log_[:idx] if e.key in ("log.place", "log.wedding", "log.donate"))
        acts = [a for a in self.face.public_actions() if not isinstance(a, (Plan, Setup))]
        if n >= len(acts):
            return []
        a = acts[n]
        if isinstance(a, Place):
            return list(self.view().content.fiefs[a.fief].footprint(a.anchor, a.rotation)[0])
        if isinstance(a, Wedding):
            return list(a.rings)
        return []
