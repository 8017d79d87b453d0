"""The bottom bar's words and pictures: the planning seat's fief and objective beside its cards, the
placing seat's tray and what its fief would do, what is happening now between turns, and the
end-of-game table (the full state, once the game is over); the fief icons.

A part of the game screen with explicit inputs (:class:`BottomBar`): the game's face, the view
the screen draws, and the end table's rows as the screen shows them (counting up); what each
mode draws is passed in by the screen (the seat, the placement, the message)."""
from __future__ import annotations

from typing import Any, Callable, Optional

import pygame

from ...render import pieces, theme
from ...rules import Place, Wedding, hexgrid, scoring
from ...words import i18n
from ...ui import palette
from ...ui import widgets as W
from ...ui.keys import labels as key_labels
from .hand import action_label_y


def end_mark(winner: bool, resigned: bool) -> str:
    """The mark after a seat's name in the end table: the winner's, or an online seat whose player
    resigned (never the winner's: the computer played it)."""
    if resigned:
        return f"  ({i18n.t('online.resigned_mark')})"
    return f"  ({i18n.t('end.winner_mark')})" if winner else ""


class BottomBar:
    """The bottom bar. Inputs: ``face`` (the game's face: names, the result, the score rows),
    ``view`` (the state the screen draws now) and ``shown_rows`` (the end table's rows as the
    screen shows them: the scores count up). The screen places it (``place``: its rectangle and
    the width of its left block) and calls the draw of its mode; ``refusal_rect`` is where a
    refusal was written (its "why?" goes beside it), ``end_rows`` where each seat's end row is."""

    def __init__(self, face: Any, view: Callable[[], Any], shown_rows: Callable[[list[dict[str, Any]]], list[dict[str, Any]]]):
        self.face = face
        self.view = view
        self.shown_rows = shown_rows
        self.rect = pygame.Rect(0, 0, 1, 1)
        self.info_w = 0  # the left block (the seat's fief and objective)
        self.refusal_rect: Optional[pygame.Rect] = None
        self.end_rows: list[tuple[int, pygame.Rect]] = []  # (seat, its row) as last drawn
        self._icons: dict[tuple[Any, ...], Any] = {}

    def place(self, rect: pygame.Rect, info_w: int) -> None:
        self.rect = rect
        self.info_w = info_w

    def draw_ground(self, surf: pygame.Surface) -> None:
        b = self.rect
        pygame.draw.rect(surf, palette.now().game_bar, b)
        pygame.draw.line(surf, W.PANEL_EDGE, b.topleft, b.topright, 2)
        self.refusal_rect = None

    def draw_plan(self, surf: pygame.Surface, seat: int, message: str) -> None:
        """Beside the planning seat's cards: its name, fief and objective, and the last refusal."""
        b = self.rect
        st = self.view()
        s = self.face
        sc = W.sc
        ss = st.seats[seat]
        x, iw = b.x + sc(20), self.info_w - sc(30)
        r = W.blit_text(surf, i18n.t("plan.heading", name=s.seat_name(seat)), (x, b.y + sc(10)), "sans_bold", 19,
                        W.TEXT, wrap=iw)
        r = W.blit_text(surf, i18n.t("plan.fief", fief=ss.fief, card=ss.card), (x, r.bottom + sc(4)), "sans", 16,
                        W.TEXT, wrap=iw)
        obj = st.content.objective(ss.objective)
        held = scoring.objective_cities_held(st, seat)
        otxt = i18n.t("plan.objective", west=i18n.t(f"symbol.{obj.western}"), east=i18n.t(f"symbol.{obj.eastern}"))
        oh = W.text(otxt, "sans_semibold", 15, palette.now().objective, wrap=iw).get_height()
        W.blit_text(surf, otxt, (x, b.bottom - sc(8) - oh), "sans_semibold", 15, palette.now().objective, wrap=iw)
        top, bottom = r.bottom + sc(4), b.bottom - sc(12) - oh  # the fief between the lines above and below
        icon = pygame.Rect(x, top, sc(120) if self.info_w >= sc(300) else min(sc(100), iw), bottom - top)
        if icon.h >= sc(24):
            self.draw_fief_icon(surf, icon, ss.colour, ss.fief, None)
        if self.info_w >= sc(300):
            W.blit_text(surf, i18n.t("plan.objective_cities", held=held), (x + sc(130), icon.centery), "sans", 14,
                        W.TEXT_SOFT, "midleft", wrap=iw - sc(130))
        W.blit_text(surf, i18n.t("plan.region"), (b.x + self.info_w, b.y + sc(9)), "sans_semibold", 15,
                    W.TEXT_SOFT)
        ink = W.text(i18n.t("plan.action"), "sans_semibold", 15, W.TEXT_SOFT).get_bounding_rect()
        W.blit_text(surf, i18n.t("plan.action"), (b.x + self.info_w, b.y + action_label_y() - ink.centery),
                    "sans_semibold", 15, W.TEXT_SOFT)  # its ink centred in the gap between the rows
        if message:
            W.blit_text(surf, message, (b.right - sc(20), b.bottom - sc(4)), "sans", 15, W.BAD,  # under the cards
                        "bottomright", wrap=b.right - sc(40) - b.x - self.info_w, align="right")

    def draw_place(self, surf: pygame.Surface, pc: Any, heading: str, heading_w: int, tray: pygame.Rect,
                   donate_pending: bool, message: str, why: bool) -> None:
        """The placing seat's heading, its tray (the fief to drag, or the rings left), the action
        card's words, what the ghost would do or the last refusal (``why``: its "why?" link is
        shown beside it), and the keys where the buttons leave room."""
        b = self.rect
        st = self.view()
        sc = W.sc
        plan = pc.plan
        W.blit_text(surf, heading, (b.x + sc(20), b.y + sc(10)), "sans_bold", 19, W.TEXT,
                    wrap=heading_w)
        fx = tray.right + sc(20)
        fw = b.right - sc(20) - fx
        buttons_top = b.bottom - sc(66)
        W.panel(surf, tray, palette.now().tray, W.GOLD if pc.anchor is None else W.PANEL_EDGE, 10, 2)
        if pc.mode == "fief":
            dh = W.text(i18n.t("place.drag"), "sans", 13, wrap=tray.w - sc(12)).get_height()
            self.draw_fief_icon(surf, pygame.Rect(tray.x + sc(10), tray.y + sc(8), tray.w - sc(20),
                                                   tray.h - dh - sc(16)),
                                 st.seats[pc.seat].colour, pc.fief, pc.rotation,
                                 faded=pc.anchor is not None or pc.dragging or donate_pending)
            W.blit_text(surf, i18n.t("place.drag"), (tray.centerx, tray.bottom - sc(6)), "sans", 13, W.TEXT_SOFT,
                        "midbottom", wrap=tray.w - sc(12), align="center")
        else:
            r = W.blit_text(surf, i18n.tn("place.rings_left", st.seats[pc.seat].rings),
                            (tray.centerx, tray.y + sc(10)), "sans_semibold", 15, W.TEXT, "midtop",
                            wrap=tray.w - sc(12), align="center")
            W.blit_text(surf, i18n.t("place.wedding_help", region=i18n.card_name(st, plan.region)),
                        (tray.x + sc(10), r.bottom + sc(6)), "sans", 13, W.TEXT_SOFT, wrap=tray.w - sc(20))
        y = tray.y
        if donate_pending:  # "Donate?" with Confirm and Cancel (Enter / Esc)
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
        if why:
            why_w = W.text(i18n.t("ref.why"), "sans_bold", 16).get_width() + sc(16)
        if not pc.has_legal_spot and pc.mode == "fief":
            txt = i18n.t("place.no_spot") if pc.can_wed else i18n.t("place.no_spot_plain")
            r = W.blit_text(surf, txt, (fx, y), "sans_semibold", 17, W.BAD, wrap=fw)
        elif fb is not None:
            r = W.blit_text(surf, fb.text, (fx, y), "sans_bold", 18, W.OK if fb.ok else W.BAD,
                            wrap=fw - (0 if fb.ok else why_w))
            self.refusal_rect = r if not fb.ok else None
        elif message:
            r = W.blit_text(surf, message, (fx, y), "sans", 16, W.BAD, wrap=fw - why_w)
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

    def draw_watch(self, surf: pygame.Surface, said: Optional[str]) -> None:
        """Between turns: what is happening now, in the middle (``said``: an online game's words
        for it, else from the game)."""
        b = self.rect
        st = self.view()
        s = self.face
        sc = W.sc
        a = s.ai_showing
        if said is not None:
            msg = said
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

    def draw_fief_icon(self, surf: pygame.Surface, box: pygame.Rect, colour: str, fief: int,
                       rotation: Optional[int], faded: bool = False) -> None:
        """The fief's picture centred in ``box``; turned as ``rotation``, or with None (planning: the
        shape matters, not its turn) turned to be drawn largest in the box (issue 40: a long diagonal
        fief at 1280x720 stood over the text above it)."""
        f = self.view().content.fiefs[fief]

        def fit(k: int) -> tuple[Any, ...]:
            cells, castles = f.rotated(k)
            xs = [hexgrid.to_pixel(c)[0] for c in cells]
            ys = [hexgrid.to_pixel(c)[1] for c in cells]
            return min(box.w / (max(xs) - min(xs) + 2), box.h / (max(ys) - min(ys) + 2.2)), k, cells, castles, xs, ys
        _fit, rotation, cells, castles, xs, ys = fit(rotation) if rotation is not None else \
            max((fit(k) for k in range(6)), key=lambda x: (round(x[0], 3), -x[1]))
        px = max(8.0, min(_fit, 30.0))
        key = (colour, fief, rotation, round(px, 1), faded, W.palette_name())
        spr = self._icons.get(key)
        if spr is None:
            spr = pieces.fief_sprite(cells, castles, px, theme.seat_color(colour), theme.seat_dark(colour),
                                     theme.seat_light(colour), alpha=110 if faded else 240,
                                     pattern=theme.seat_pattern(colour), pattern_color=theme.seat_mark(colour))
            self._icons[key] = spr
        img, (ox, oy) = spr
        cx = (min(xs) + max(xs)) / 2 * px
        cy = (min(ys) + max(ys)) / 2 * px
        at = surf.blit(img, (int(box.centerx - cx + ox), int(box.centery - cy + oy)))
        W.CHECK.note_picture(surf, img.get_bounding_rect().move(at.topleft), f"of fief {fief}")
        # the anchor cell (0, 0): the hex the bright map hexes refer to
        ax, ay = int(box.centerx - cx), int(box.centery - cy)
        if (0, 0) in castles:  # below the castle
            ay += int(px * 0.55)
        pygame.draw.circle(surf, (255, 255, 255), (ax, ay), max(3, int(px * 0.28)))
        pygame.draw.circle(surf, theme.INK, (ax, ay), max(3, int(px * 0.28)), 2)

    def end_name(self, row: dict[str, Any]) -> str:
        """A seat's name in the end table, with its mark (``end_mark``)."""
        return str(row["name"]) + end_mark(row["winner"], self.face.seat_resigned(row["seat"]))

    def draw_end(self, surf: pygame.Surface, selected: Optional[int]) -> None:
        """The end-of-game table (the row of ``selected`` marked, its objective below it)."""
        st = self.view()
        s = self.face
        b = self.rect
        sc = W.sc
        r = W.blit_text(surf, i18n.t("end.heading"), (b.x + sc(20), b.y + sc(8)), "title", 32, W.TEXT)
        res = s.result_text()
        if st.tiebreak:
            res += "  " + i18n.t("end.tiebreak", how=i18n.tiebreak(st.tiebreak))
        seed = s.shown_seed()
        if seed is not None:  # now that it is over, also in a hot-seat game: to play the same deal again
            res += "  " + i18n.t("end.seed", seed=seed)
        rx = max(r.right + sc(30), b.x + sc(290))
        rr = W.blit_text(surf, res, (rx, b.y + sc(18)), "sans_bold", 20, palette.now().result, wrap=b.right - sc(70) - rx)
        cols = ["end.seat", "end.sites", "end.leagues", "end.donations", "end.gonzaga", "end.objective", "end.total"]
        keys = ["", "sites", "leagues", "donations", "gonzaga", "objective", "total"]
        x0 = b.x + sc(20)
        rows = self.shown_rows(s.score_rows())
        # the seat column as wide as its longest name with the winner's mark, as far as the six columns of
        # figures keep sc(90) each (a name is shortened, and noted, only past that)
        named = max((W.text(self.end_name(row), "sans_bold", 17).get_width() + sc(38) for row in rows), default=0)
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
        self.end_rows = []
        for row in rows:
            rect = pygame.Rect(x0 - sc(6), y - sc(2), b.w - sc(28), sc(30))
            if row["seat"] == selected:
                pygame.draw.rect(surf, palette.now().row_chosen, rect, 0, 6)
                pygame.draw.rect(surf, palette.now().row_chosen_edge, rect, 2, 6)
            self.end_rows.append((row["seat"], rect))
            x = x0
            crest = pieces.crest(row["colour"], sc(20))  # the family's crest: its colour and a shape
            surf.blit(crest, (x - sc(2), y + sc(2)))
            name = self.end_name(row)
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
        if selected is not None:
            seat = st.seats[selected]
            obj = st.content.objective(seat.objective)
            txt = i18n.t("end.objective_of", name=s.seat_name(selected), west=i18n.t(f"symbol.{obj.western}"),
                         east=i18n.t(f"symbol.{obj.eastern}"),
                         held=scoring.objective_cities_held(st, selected))
            oh = W.text(txt, "sans_semibold", 15, palette.now().objective, wrap=tw).get_height()
            W.blit_text(surf, txt, (x0, yb - sc(4) - oh), "sans_semibold", 15, palette.now().objective, wrap=tw)
