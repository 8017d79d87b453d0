"""Tips: what the pointer (or T) rests on, in words: a site, a sea, a seat, a card, a pair of the planning
preview, a log line.

A part of :class:`GameScene` (see the package's docstring); it reads the scene's state and
widgets as ``self``."""
from __future__ import annotations

import pygame

from ...rules import Place, Plan, Setup, Wedding, scoring
from ...words import i18n
from ..preview import PLAN_ACTIONS


class TipsMixin:
    # ------------------------------------------------------------ tips (hover, or T)

    def _hover(self) -> None:
        """What is under the pointer: its tip (after a short rest) and the hexes a log line
        refers to (at once)."""
        self._lit = ()
        if self.tooltip.forced:
            return
        pos = self._mouse
        # no tip while something is dragged (a fief, the map), nor after a drop until the pointer
        # moves on (issue 40: a city's tip stood over the fief just dropped)
        if self._dragging_now() or pos == getattr(self, "_tip_quiet", None):
            self.tooltip.hide()
            return
        self._tip_quiet = None
        target, lines = self._tip_at(pos)
        self.tooltip.set(target, lines, pos, self._ghost_box())

    def _dragging_now(self) -> bool:
        """A fief or the map is being dragged."""
        pc = self.place if self._mode() == "place" else None
        return (pc is not None and pc.dragging) or self.camera.pan_drag is not None

    def _ghost_box(self):
        """The screen box of the fief being placed (its ghost), which a tip leaves uncovered."""
        pc = self.place if self._mode() == "place" else None
        if pc is None or pc.mode != "fief" or pc.anchor is None or self.renderer is None:
            return None
        cells = self.state.content.fiefs[pc.fief].footprint(pc.anchor, pc.rotation)[0]
        pts = [self.renderer.hex_to_screen(c) for c in cells]
        r = self.renderer.size
        xs, ys = [p[0] for p in pts], [p[1] for p in pts]
        return pygame.Rect(int(min(xs) - r), int(min(ys) - r), int(max(xs) - min(xs) + 2 * r),
                           int(max(ys) - min(ys) + 2 * r))

    def _tip_at(self, pos):
        """(target, lines) for the thing at screen point ``pos``; (None, []) for nothing."""
        if pos[0] < 0:
            return None, []
        for w in self.widgets.items:
            if w.visible and w.rect.collidepoint(pos):
                card = getattr(w, "card", None)
                if card is not None and self.private_seat is not None:
                    return ("card", card), self._card_tip(card)
                return None, []
        if self._preview_rect is not None and self._preview_rect.collidepoint(pos):
            for rect, region, action in self._preview_cells:
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
                self._lit = tuple(self._log_hexes(idx))
                return ("log", idx), [self.face.log[idx].text(), i18n.t("tip.log")] if self._lit else []
        if self.board_rect.collidepoint(pos) and self.renderer is not None:
            h = self.renderer.screen_to_hex(*pos)
            if h is not None:
                return ("hex", h, self.face.version), self.hex_tip(h)
        return None, []

    def _keyboard_tip(self) -> None:
        """T: the tip of the hex under the keyboard ghost (or ring cursor), else of the
        focused card, else of what the pointer is on; shown at once."""
        pc = self.place if self._mode() == "place" else None
        at = (pc.anchor if pc.mode == "fief" else pc.cursor) if pc is not None else None
        if at is not None:
            x, y = self.renderer.hex_to_screen(at)
            self.tooltip.show_now(("hex", at), self.hex_tip(at), (x, y + self.renderer.size))
            return
        f = self.widgets.focus
        if f is not None and getattr(f, "card", None) is not None and self.private_seat is not None:
            self.tooltip.show_now(("card", f.card), self._card_tip(f.card), f.rect.midtop)
            return
        target, lines = self._tip_at(self._mouse)
        self.tooltip.show_now(target, lines, self._mouse)

    def _holders(self, h) -> list[str]:
        st = self.state
        i = st.board.index_of.get(h)
        if i is None:
            return []
        return [self.face.seat_name(n) for n, s in enumerate(st.seats) if s.held >> i & 1]

    def hex_tip(self, h) -> list[str]:
        """A site (name, symbol or sea, region and whether it flourishes, who holds it), a
        sea (its harbors and who holds them, who is close to a league) or a land hex."""
        st = self.state
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

    def _sea_tip(self, sea) -> list[str]:
        st = self.state
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
        st = self.state
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
        st = self.state
        head = self.top.status_text()
        return [head, i18n.t("tip.last_turn", sites=i18n.tn("n.sites", scoring.free_flourishing_sites(st))),
                i18n.t("tip.last_turn_rule")]

    def _card_tip(self, card: str) -> list[str]:
        """What a planning card allows, why it is greyed, and the best it could score now."""
        st = self.state
        seat = self.private_seat
        s = st.seats[seat]
        prev = self.previews()
        if card == "K":
            lines = [i18n.t("card.K"), i18n.t("tip.card_K")]
            if "K" in s.unavailable:
                lines.append(i18n.t("tip.card_greyed", why=i18n.t("plan.played_last")))
            elif s.rings < 1:
                lines.append(i18n.t("tip.card_greyed", why=i18n.t("plan.no_ring")))
            return lines
        if card in PLAN_ACTIONS:
            lines = [i18n.t(f"card.{card}"), i18n.t(f"card.{card}.long")]
            regions = [self.hand.region] if self.hand.region else [r for r in st.region_cards()
                                                                        if r not in s.unavailable]
            bests = [prev[(r, card)].best for r in regions if (r, card) in prev and prev[(r, card)].best is not None]
        else:
            name = i18n.card_name(st, card)
            lines = [name, i18n.t("tip.card_region", region=name)]
            if card != "inactive":
                lines.append(i18n.t("tip.flourishing" if card in st.flourishing else "tip.inactive", region=name))
            actions = [self.hand.action] if self.hand.action in PLAN_ACTIONS else [
                a for a in PLAN_ACTIONS if a not in s.unavailable]
            bests = [prev[(card, a)].best for a in actions if (card, a) in prev and prev[(card, a)].best is not None]
        if card in s.unavailable:
            lines.append(i18n.t("tip.card_greyed", why=i18n.t("plan.played_last")))
        lines.append(i18n.t("tip.card_best", points=max(bests)) if bests else i18n.t("tip.card_none"))
        return lines

    def _pair_tip(self, region: str, action: str) -> list[str]:
        st = self.state
        p = self.previews().get((region, action))
        head = (i18n.t("preview.map", region=i18n.card_name(st, region), action=i18n.card_name(st, action),
                       points=p.best) if p is not None and p.best is not None else
                i18n.t("preview.map_none", region=i18n.card_name(st, region), action=i18n.card_name(st, action)))
        lines = [head, i18n.t(f"card.{action}.long")]
        unavailable = st.seats[self.private_seat].unavailable
        if region in unavailable or action in unavailable:
            lines.append(i18n.t("tip.card_greyed", why=i18n.t("plan.played_last")))
        return lines

    def _log_hexes(self, idx: int) -> list:
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
            return list(self.state.content.fiefs[a.fief].footprint(a.anchor, a.rotation)[0])
        if isinstance(a, Wedding):
            return list(a.rings)
        return []
