"""The bottom bar when it is not a hand or placement controls: what is happening now, the fief icons, and the
end-of-game table (the full state, once the game is over).

A part of :class:`GameScene` (see the package's docstring); it reads the scene's state and
widgets as ``self``."""
from __future__ import annotations

from typing import Optional

import pygame

from ...render import pieces, theme
from ...rules import Place, Wedding, hexgrid, scoring
from ...words import i18n
from ...ui import widgets as W
from ...ui.keys import labels as key_labels
from ..base import refusal_rule
from .hand import action_label_y



def end_mark(winner: bool, resigned: bool) -> str:
    """The mark after a seat's name in the end table: the winner's, or an online seat whose player
    resigned (never the winner's: the computer played it)."""
    if resigned:
        return f"  ({i18n.t('online.resigned_mark')})"
    return f"  ({i18n.t('end.winner_mark')})" if winner else ""

class BarMixin:
    def _draw_bottom(self, surf) -> None:
        b = self.bottom_rect
        pygame.draw.rect(surf, (226, 212, 180), b)
        pygame.draw.line(surf, W.PANEL_EDGE, b.topleft, b.topright, 2)
        mode = self._mode()
        st = self.state
        s = self.face
        sc = W.sc
        self.refusal_rect = None
        if mode == "plan":
            seat = self.private_seat
            ss = st.seats[seat]
            x, iw = b.x + sc(20), self.info_w - sc(30)
            r = W.blit_text(surf, i18n.t("plan.heading", name=s.seat_name(seat)), (x, b.y + sc(10)), "sans_bold", 19,
                            W.TEXT, wrap=iw)
            r = W.blit_text(surf, i18n.t("plan.fief", fief=ss.fief, card=ss.card), (x, r.bottom + sc(4)), "sans", 16,
                            W.TEXT, wrap=iw)
            obj = st.content.objective(ss.objective)
            held = scoring.objective_cities_held(st, seat)
            otxt = i18n.t("plan.objective", west=i18n.t(f"symbol.{obj.western}"), east=i18n.t(f"symbol.{obj.eastern}"))
            oh = W.text(otxt, "sans_semibold", 15, (120, 30, 120), wrap=iw).get_height()
            W.blit_text(surf, otxt, (x, b.bottom - sc(8) - oh), "sans_semibold", 15, (120, 30, 120), wrap=iw)
            top, bottom = r.bottom + sc(4), b.bottom - sc(12) - oh  # the fief between the lines above and below
            icon = pygame.Rect(x, top, sc(120) if self.info_w >= sc(300) else min(sc(100), iw), bottom - top)
            if icon.h >= sc(24):
                self._draw_fief_icon(surf, icon, ss.colour, ss.fief, None)
            if self.info_w >= sc(300):
                W.blit_text(surf, i18n.t("plan.objective_cities", held=held), (x + sc(130), icon.centery), "sans", 14,
                            W.TEXT_SOFT, "midleft", wrap=iw - sc(130))
            W.blit_text(surf, i18n.t("plan.region"), (b.x + self.info_w, b.y + sc(9)), "sans_semibold", 15,
                        W.TEXT_SOFT)
            W.blit_text(surf, i18n.t("plan.action"), (b.x + self.info_w, b.y + action_label_y()), "sans_semibold", 15,
                        W.TEXT_SOFT, "midleft")
            if self.message:
                W.blit_text(surf, self.message, (b.right - sc(20), b.bottom - sc(4)), "sans", 15, W.BAD,  # under the cards
                            "bottomright", wrap=b.right - sc(40) - b.x - self.info_w, align="right")
        elif mode == "place":
            pc = self.place
            plan = pc.plan
            W.blit_text(surf, self._place_heading(), (b.x + sc(20), b.y + sc(10)), "sans_bold", 19, W.TEXT,
                        wrap=self._place_heading_width())
            tray = self.tray_rect()
            fx = tray.right + sc(20)
            fw = b.right - sc(20) - fx
            buttons_top = b.bottom - sc(66)
            W.panel(surf, tray, (246, 238, 218), W.GOLD if pc.anchor is None else W.PANEL_EDGE, 10, 2)
            if pc.mode == "fief":
                dh = W.text(i18n.t("place.drag"), "sans", 13, wrap=tray.w - sc(12)).get_height()
                self._draw_fief_icon(surf, pygame.Rect(tray.x + sc(10), tray.y + sc(8), tray.w - sc(20),
                                                       tray.h - dh - sc(16)),
                                     st.seats[pc.seat].colour, pc.fief, pc.rotation,
                                     faded=pc.anchor is not None or pc.dragging or self.donate_pending)
                W.blit_text(surf, i18n.t("place.drag"), (tray.centerx, tray.bottom - sc(6)), "sans", 13, W.TEXT_SOFT,
                            "midbottom", wrap=tray.w - sc(12), align="center")
            else:
                r = W.blit_text(surf, i18n.tn("place.rings_left", st.seats[pc.seat].rings),
                                (tray.centerx, tray.y + sc(10)), "sans_semibold", 15, W.TEXT, "midtop",
                                wrap=tray.w - sc(12), align="center")
                W.blit_text(surf, i18n.t("place.wedding_help", region=i18n.card_name(st, plan.region)),
                            (tray.x + sc(10), r.bottom + sc(6)), "sans", 13, W.TEXT_SOFT, wrap=tray.w - sc(20))
            y = tray.y
            if self.donate_pending:  # "Donate?" with Confirm and Cancel (Enter / Esc)
                r = W.blit_text(surf, i18n.t("place.donate_ask", fief=pc.fief), (fx, y), "sans_semibold", 17,
                                W.BAD, wrap=fw)
                W.blit_text(surf, i18n.t("place.donate_keys"), (fx, r.bottom + sc(6)), "sans", 14, W.TEXT_SOFT,
                            wrap=fw)
                return
            r = W.blit_text(surf, i18n.t(f"card.{plan.action}.long"), (fx, y), "sans_italic", 16, W.TEXT_SOFT,
                            wrap=fw)
            y = r.bottom + sc(4)
            fb = pc.feedback()
            why_w = 0  # room beside a refusal for its "why?" link (scenes/assist.py)
            if refusal_rule(self):
                why_w = W.text(i18n.t("ref.why"), "sans_bold", 16).get_width() + sc(16)
            if not pc.has_legal_spot and pc.mode == "fief":
                txt = i18n.t("place.no_spot") if pc.can_wed else i18n.t("place.no_spot_plain")
                r = W.blit_text(surf, txt, (fx, y), "sans_semibold", 17, W.BAD, wrap=fw)
            elif fb is not None:
                r = W.blit_text(surf, fb.text, (fx, y), "sans_bold", 18, W.OK if fb.ok else W.BAD,
                                wrap=fw - (0 if fb.ok else why_w))
                self.refusal_rect = r if not fb.ok else None
            elif self.message:
                r = W.blit_text(surf, self.message, (fx, y), "sans", 16, W.BAD, wrap=fw - why_w)
                self.refusal_rect = r
            else:
                r = pygame.Rect(fx, y, 0, 0)
            y = r.bottom + sc(6)
            # the keys, where the buttons leave room: placing and the map's in one paragraph (two
            # paragraphs left the map's line out at 1280x720, issue 45), else placing's alone
            keys = i18n.t("game.help_keys", **key_labels())
            for text in (f"{keys} · {i18n.t('view.keys', **key_labels())}", keys):
                if y + W.text(text, "sans", 13, W.TEXT_SOFT, wrap=fw).get_height() <= buttons_top - sc(4):
                    W.blit_text(surf, text, (fx, y), "sans", 13, W.TEXT_SOFT, wrap=fw)
                    break
        elif mode == "over":
            self._draw_end(surf)
        else:
            a = s.ai_showing
            if self.online is not None:
                msg = self.online.watch_text()
            elif st.phase == "plan":
                msg = i18n.t("game.waiting_ai")
            elif a is not None:
                key = "place.ai_places" if isinstance(a, Place) else "game.weds" if isinstance(a, Wedding) \
                    else "game.donates"
                msg = i18n.t(key, name=s.seat_name(a.seat))
            elif st.phase == "place":
                seat = st.to_act()[0]
                msg = i18n.t("game.your_turn" if s.is_human(seat) else "game.thinking", name=s.seat_name(seat))
            else:
                msg = ""
            W.blit_text(surf, msg, b.center, "sans_semibold", 22, W.TEXT, "center", wrap=b.w - sc(80), align="center")

    def _draw_fief_icon(self, surf, box: pygame.Rect, colour: str, fief: int, rotation: Optional[int],
                        faded=False) -> None:
        """The fief's picture centred in ``box``; turned as ``rotation``, or with None (planning: the
        shape matters, not its turn) turned to be drawn largest in the box (issue 40: a long diagonal
        fief at 1280x720 stood over the text above it)."""
        f = self.state.content.fiefs[fief]

        def fit(k: int) -> tuple:
            cells, castles = f.rotated(k)
            xs = [hexgrid.to_pixel(c)[0] for c in cells]
            ys = [hexgrid.to_pixel(c)[1] for c in cells]
            return min(box.w / (max(xs) - min(xs) + 2), box.h / (max(ys) - min(ys) + 2.2)), k, cells, castles, xs, ys
        _fit, rotation, cells, castles, xs, ys = fit(rotation) if rotation is not None else \
            max((fit(k) for k in range(6)), key=lambda x: (round(x[0], 3), -x[1]))
        px = max(8.0, min(_fit, 30.0))
        key = (colour, fief, rotation, round(px, 1), faded)
        cache = getattr(self, "_icon_cache", None)
        if cache is None:
            cache = self._icon_cache = {}
        spr = cache.get(key)
        if spr is None:
            spr = pieces.fief_sprite(cells, castles, px, theme.seat_color(colour), theme.seat_dark(colour),
                                     theme.seat_light(colour), alpha=110 if faded else 240,
                                     pattern=theme.seat_pattern(colour), pattern_color=theme.seat_mark(colour))
            cache[key] = spr
        img, (ox, oy) = spr
        cx = (min(xs) + max(xs)) / 2 * px
        cy = (min(ys) + max(ys)) / 2 * px
        at = surf.blit(img, (int(box.centerx - cx + ox), int(box.centery - cy + oy)))
        W.CHECK.note_picture(surf, img.get_bounding_rect().move(at.topleft), f"of fief {fief}")
        # the anchor cell (0, 0): the hex the bright map hexes refer to
        ax, ay = int(box.centerx - cx), int(box.centery - cy)
        if (0, 0) in castles:  # below the castle
            ay += int(px * 0.55)
        if True:
            pygame.draw.circle(surf, (255, 255, 255), (ax, ay), max(3, int(px * 0.28)))
            pygame.draw.circle(surf, theme.INK, (ax, ay), max(3, int(px * 0.28)), 2)

    def _end_name(self, row) -> str:
        """A seat's name in the end table, with its mark (``end_mark``)."""
        return row["name"] + end_mark(row["winner"], self.face.seat_resigned(row["seat"]))

    def _draw_end(self, surf) -> None:
        st = self.state
        s = self.face
        b = self.bottom_rect
        sc = W.sc
        r = W.blit_text(surf, i18n.t("end.heading"), (b.x + sc(20), b.y + sc(8)), "title", 32, W.TEXT)
        res = s.result_text()
        if st.tiebreak:
            res += "  " + i18n.t("end.tiebreak", how=i18n.tiebreak(st.tiebreak))
        seed = s.shown_seed()
        if seed is not None:  # now that it is over, also in a hot-seat game: to play the same deal again
            res += "  " + i18n.t("end.seed", seed=seed)
        rx = max(r.right + sc(30), b.x + sc(290))
        rr = W.blit_text(surf, res, (rx, b.y + sc(18)), "sans_bold", 20, (130, 30, 20), wrap=b.right - sc(70) - rx)
        cols = ["end.seat", "end.sites", "end.leagues", "end.donations", "end.gonzaga", "end.objective", "end.total"]
        keys = [None, "sites", "leagues", "donations", "gonzaga", "objective", "total"]
        x0 = b.x + sc(20)
        rows = self.feedback.end_rows(s.score_rows())
        # the seat column as wide as its longest name with the winner's mark, as far as the six columns of
        # figures keep sc(90) each (a name is shortened, and noted, only past that)
        named = max((W.text(self._end_name(row), "sans_bold", 17).get_width() + sc(38) for row in rows), default=0)
        first = max(sc(230), min(named, b.w - sc(40) - 6 * sc(90)))
        widths = [first] + [(b.w - sc(40) - first) // 6] * 6
        y = max(b.y + sc(58), rr.bottom + sc(8))
        x = x0
        head_h = 0
        for c, wdt in zip(cols, widths):  # right-aligned headings, on two lines when a column is narrow
            if c == "end.seat":
                hr = W.blit_text(surf, i18n.t(c), (x, y), "sans_bold", 15, W.TEXT_SOFT)
            else:
                hr = W.blit_text(surf, i18n.t(c), (x + wdt - sc(10), y), "sans_bold", 15, W.TEXT_SOFT, "topright",
                                 wrap=wdt - sc(14), align="right")
            head_h = max(head_h, hr.bottom - y)
            x += wdt
        y += head_h + sc(6)
        self._end_rows = []
        for row in rows:
            rect = pygame.Rect(x0 - sc(6), y - sc(2), b.w - sc(28), sc(30))
            if row["seat"] == self.end_selected:
                pygame.draw.rect(surf, (250, 236, 196), rect, 0, 6)
                pygame.draw.rect(surf, (150, 40, 150), rect, 2, 6)
            self._end_rows.append((row["seat"], rect))
            x = x0
            crest = pieces.crest(row["colour"], sc(20))  # the family's crest: its colour and a shape
            surf.blit(crest, (x - sc(2), y + sc(2)))
            name = self._end_name(row)
            W.blit_text(surf, W.fit_text(name, "sans_bold", 17, widths[0] - sc(30)), (x + sc(24), y + sc(2)),
                        "sans_bold", 17, W.TEXT)
            x += widths[0]
            for k, wdt in zip(keys[1:], widths[1:]):
                val = row[k]
                txt = str(val)
                if k == "objective":
                    txt = f"{val} ({row['objective_held']}/6)"
                W.blit_text(surf, txt, (x + wdt - sc(10), y + sc(2)), "sans_bold" if k == "total" else "sans", 17,
                            W.TEXT, "topright")
                x += wdt
            y += sc(32)
        # under the table, left of the buttons: the chosen seat's objective, and how to choose one
        tw = b.right - sc(440) - x0
        ch = W.text(i18n.t("end.click_row"), "sans", 14, W.TEXT_SOFT, wrap=tw).get_height()
        yb = b.bottom - sc(10) - ch
        W.blit_text(surf, i18n.t("end.click_row"), (x0, yb), "sans", 14, W.TEXT_SOFT, wrap=tw)
        if self.end_selected is not None:
            seat = st.seats[self.end_selected]
            obj = st.content.objective(seat.objective)
            txt = i18n.t("end.objective_of", name=s.seat_name(self.end_selected), west=i18n.t(f"symbol.{obj.western}"),
                         east=i18n.t(f"symbol.{obj.eastern}"),
                         held=scoring.objective_cities_held(st, self.end_selected))
            oh = W.text(txt, "sans_semibold", 15, (120, 30, 120), wrap=tw).get_height()
            W.blit_text(surf, txt, (x0, yb - sc(4) - oh), "sans_semibold", 15, (120, 30, 120), wrap=tw)
