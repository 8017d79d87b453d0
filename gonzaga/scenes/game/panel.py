"""The seats panel: each seat's name, score, rings, deck, cards and leagues, the turn order and the
log, and where the table of best points stands in it (a wide window).

A part of the game screen with explicit inputs (:class:`SeatsPanel`): the game's face, the view
the screen draws, and what it asks of the screen around it (the scores as they count up, the
end chart's room, the chat strip's height, the table of best points' height)."""
from __future__ import annotations

from typing import Any, Callable, Optional

import pygame

from ...render import pieces, theme
from ...words import i18n
from ...ui import palette
from ...ui import widgets as W

ORDER_CREST = 18  # the crest before a seat's line in the turn order (design pixels)
LOG_LINES = 5  # the game log always shows at least this many whole lines (issue 40)
SEAT_COL_W = 290  # a seat's box at its narrowest in two columns (design pixels; 293 at 1280x720)


def _short_sea(name: str) -> str:
    """'Mare Tyrrhenum' -> 'Tyrrhenum' (the seat panel is narrow)."""
    for prefix in ("Mare ", "Oceanus "):
        if name.startswith(prefix):
            return name[len(prefix):]
    return name


def _draw_clock(surf: pygame.Surface, clock: Optional[str], score: pygame.Rect, y: int) -> pygame.Rect:
    """An online seat's turn clock beside its name, left of its score (seen at a glance for every
    seat); the room the name keeps ends before it."""
    if not clock:
        return score
    return score.union(W.blit_text(surf, clock, (score.x - W.sc(12), y), "sans_bold", 15, palette.now().clock, "topright"))


def _draw_kind_status(surf: pygame.Surface, kind: str, status: str, at: tuple[int, int], room: int,
                      colour: tuple[int, int, int]) -> None:
    """A seat's kind and status on one line; a status too long beside the kind (an online seat's
    countdown) stands alone: it says more than "Human"."""
    x = at[0]
    if not status or W.text(kind, "sans", 14).get_width() + W.sc(10) + W.text(status, "sans_semibold", 14).get_width() \
            <= room:
        x = W.blit_text(surf, kind, at, "sans", 14, W.TEXT_SOFT).right + W.sc(10)
    if status:
        W.blit_text(surf, W.fit_text(status, "sans_semibold", 14, room - (x - at[0])), (x, at[1]), "sans_semibold", 14,
                    colour)


def _notes(face: Any, st: Any) -> tuple[tuple[Optional[str], Optional[str]], ...]:
    """An online game's seat notes and clocks (the panel is drawn again when their seconds change)."""
    return tuple((face.seat_note(i), face.clock_note(i)) for i in range(len(st.seats))) if face.remote else ()


class SeatsPanel:
    """The side panel of the game screen. Its inputs: ``face`` (the game's face: names, log,
    notes), ``view`` (the state the screen draws now), ``score`` (a seat's score as shown, counting
    up), ``chart_room`` (the height the end chart needs below the seats, or None), ``chart_in_panel``
    (the end chart takes the log's place), ``foot`` (the chat strip's height at its foot) and
    ``table_height`` (the table of best points' height while it goes in the panel, else None).
    The screen places it (``place``) and draws it (``draw_cached``); tips read ``seat_rects`` and
    ``log_rects``; ``log_scroll`` is the log's scroll."""

    def __init__(self, face: Any, view: Callable[[], Any], score: Callable[[int, int], int],
                 chart_room: Optional[Callable[[], int]], chart_in_panel: Callable[[], bool],
                 foot: Callable[[], int], table_height: Callable[[], Optional[int]]):
        self.face = face
        self.view = view
        self.score = score
        self.chart_room = chart_room
        self.chart_in_panel = chart_in_panel
        self.foot = foot
        self.table_height = table_height
        self.rect = pygame.Rect(0, 0, 1, 1)
        self.log_scroll = 0  # lines scrolled back from the log's newest
        self.fit = "full"  # how the seats' boxes are drawn (``fit_seats``)
        self.seat_rects: list[tuple[pygame.Rect, int]] = []  # as last drawn: (box, seat)
        self.log_rects: list[tuple[pygame.Rect, int]] = []  # as last drawn: (line, log index)
        self.log_whole_lines = 0  # the log's whole lines last drawn
        self.cache: Optional[tuple[tuple[Any, ...], pygame.Surface]] = None
        self._stripes: dict[tuple[str, tuple[int, int], str], pygame.Surface] = {}
        self._table: Optional[tuple[tuple[Any, ...], Optional[pygame.Rect]]] = None

    def place(self, rect: pygame.Rect) -> None:
        self.rect = rect

    def hovered_log(self, mouse: tuple[int, int]) -> Optional[int]:
        return next((i for rc, i in self.log_rects if rc.collidepoint(mouse)), None)

    def draw_cached(self, surf: pygame.Surface, mouse: tuple[int, int], on_top: bool, context: tuple[Any, ...]) -> None:
        """The seats panel and the log change only with the game, the scroll, the scores
        counting up or the log line under the pointer: drawn once, then blitted (a tall
        log is a hundred text blits). ``context``: what else the screen shows that it depends on."""
        st = self.view()
        hovered = self.hovered_log(mouse) if on_top else None
        key = (self.face.version, getattr(self.face, "presence", None), _notes(self.face, st), self.log_scroll,
               tuple(self.rect), hovered, i18n.language(), W.palette_name(), context, self.foot(), on_top, theme.text_scale(),
               surf.get_size(), tuple(self.score(i, s.score) for i, s in enumerate(st.seats)))
        area = self.rect.clip(surf.get_rect())
        if self.cache is not None and self.cache[0] == key and self.cache[1].get_size() == area.size:
            surf.blit(self.cache[1], area.topleft)
            return
        self.draw(surf, mouse if on_top else (-1, -1))
        self.cache = (key, surf.subsurface(area).copy())

    def room_below(self, below: int) -> int:
        """The room the seats' boxes leave under them: ``below``, or at the end what the score chart
        needs in place of the log (issue 50: at 1280x720 with three or four seats it stood over the map)."""
        over = self.view().phase == "over"
        return max(below, self.chart_room()) if over and self.chart_room is not None else below

    def draw(self, surf: pygame.Surface, mouse: tuple[int, int]) -> None:
        """The panel, with the log line under ``mouse`` lit ((-1, -1): none)."""
        st = self.view()
        p = self.rect
        pygame.draw.rect(surf, palette.now().game_side, p)
        pygame.draw.line(surf, W.PANEL_EDGE, p.topleft, p.bottomleft, 2)
        sc = W.sc
        y = p.y + sc(10)
        to_act = set(st.to_act())
        self.seat_rects = []
        self.log_rects = []
        # the seats, the turn order and the log share the panel; the log keeps at least
        # LOG_LINES whole lines (issue 40): the seats' boxes leave out last round's cards, then
        # tighten (smaller type), until they all fit above it
        self.fit_seats(y, to_act)
        boxes = self.seat_boxes(y, to_act)
        for i, seat in enumerate(st.seats):
            acting = i in to_act and st.phase != "over"
            box = boxes[i]
            self.seat_rects.append((box, i))
            W.panel(surf, box, palette.now().seat_box if not acting else palette.now().seat_acting,
                    W.GOLD if acting else W.PANEL_EDGE, 10, 3 if acting else 1)
            self._draw_seat_stripe(surf, pygame.Rect(box.x, box.y, sc(14), box.h), seat.colour)
            self._draw_seat(surf, box, i, seat, acting)
        y = self.seats_bottom(boxes)
        table = self.table_rect()  # a wide window: the table of best points below the seats
        if table is not None:  # (drawn over the panel by the scene, planning.py)
            y = table.bottom + sc(10)
        # turn order (after the reveal)
        if st.phase == "place":
            W.blit_text(surf, i18n.t("game.order"), (p.x + sc(14), y + sc(2)), "sans_bold", 16, W.TEXT)
            y += sc(24)
            tx = p.x + sc(16) + sc(ORDER_CREST) + sc(6)
            for n, (txt, col, seat_colour) in enumerate(self._order_lines()):
                lines, px = self._order_fit(txt)
                lh = theme.font("sans", px).get_linesize()
                if n == st.turn:
                    pygame.draw.rect(surf, palette.now().lit, (p.x + sc(10), y - 1, p.w - sc(20), lh * len(lines) + 1),
                                     0, 4)
                crest = pieces.crest(seat_colour, sc(ORDER_CREST))  # whose turn: the seat's crest, as on its box
                if n < st.turn:
                    crest = crest.copy()
                    crest.set_alpha(110)
                surf.blit(crest, crest.get_rect(midleft=(p.x + sc(16), y + lh // 2)))
                for line in lines:
                    W.blit_text(surf, line, (tx, y), "sans", px, col)
                    y += lh
            y += sc(6)
        # the log (when at least two of its lines fit; at the end the score chart may take its place)
        self.log_whole_lines = 0
        foot = p.bottom - self.foot()  # (an online game's chat strip, on a wide window)
        if foot - y < sc(26 + 10 + 48) or (st.phase == "over" and self.chart_in_panel()):
            return
        W.blit_text(surf, i18n.t("game.log"), (p.x + sc(14), y + sc(2)), "sans_bold", 16, W.TEXT)
        y += sc(26)
        area = pygame.Rect(p.x + sc(10), y, p.w - sc(20), foot - y - sc(10))
        pygame.draw.rect(surf, palette.now().tray, area, 0, 6)
        lines = self.face.log
        clip = surf.get_clip()
        surf.set_clip(area.inflate(-4, -4))
        yy = area.bottom - sc(6)
        start = max(0, len(lines) - 1 - self.log_scroll)
        n = start
        line_h = theme.font("sans", 14).get_linesize()
        for e in reversed(lines[: start + 1]):
            img = W.text(e.text(), "sans", 14, W.TEXT, wrap=area.w - sc(16))
            yy -= img.get_height() + sc(3)
            hidden = 0
            if yy < area.y + 2:  # the top entry: only its lines that fit whole (none cut in half)
                hidden = -(-(area.y + 2 - yy) // line_h)
                if hidden * line_h >= img.get_height():
                    break
                surf.set_clip(pygame.Rect(area.x, yy + hidden * line_h, area.w, area.bottom - yy - hidden * line_h))
            line_rect = pygame.Rect(area.x + 4, yy - 1, area.w - 8, img.get_height() + 2)
            if e.key in ("log.place", "log.wedding") and line_rect.collidepoint(mouse):
                pygame.draw.rect(surf, palette.now().lit, line_rect, 0, 4)
            surf.blit(img, (area.x + sc(8), yy))
            self.log_rects.append((line_rect.clip(area), n))
            self.log_whole_lines += img.get_height() // line_h - hidden
            n -= 1
            if hidden:
                break
        if n == start:  # an empty log: what it could hold
            self.log_whole_lines = (area.h - sc(6)) // (line_h + sc(3))
        surf.set_clip(clip)

    def log_min_height(self) -> int:
        """The log's heading and LOG_LINES whole lines with the log's margins."""
        sc = W.sc
        return sc(26 + 10 + 6 + 4) + LOG_LINES * (theme.font("sans", 14).get_linesize() + sc(3))

    def seat_cols(self) -> int:
        """Two columns of seats' boxes in a wide panel (a wide window), else one."""
        p = self.rect
        two = len(self.view().seats) >= 2 and p.w - W.sc(20 + 8) >= 2 * W.sc(SEAT_COL_W)
        return 2 if two else 1

    def seat_box_w(self) -> int:
        cols = self.seat_cols()
        return (self.rect.w - W.sc(20) - (cols - 1) * W.sc(8)) // cols

    def seat_boxes(self, y: int, to_act: Any) -> list[pygame.Rect]:
        """The seats' boxes from ``y`` down, in the current fit: one column, or rows of two (the
        boxes of a row equally tall)."""
        st = self.view()
        sc = W.sc
        gap = sc(8) if self.fit != "tight" else sc(5)
        cols, bw = self.seat_cols(), self.seat_box_w()
        out = []
        for first in range(0, len(st.seats), cols):
            row = range(first, min(len(st.seats), first + cols))
            h = max(self._seat_box_height(i, st.seats[i], i in to_act and st.phase != "over") for i in row)
            out += [pygame.Rect(self.rect.x + sc(10) + k * (bw + sc(8)), y, bw, h) for k in range(len(row))]
            y += h + gap
        return out

    def seats_bottom(self, boxes: list[pygame.Rect]) -> int:
        """Where what follows the seats' boxes starts."""
        gap = W.sc(8) if self.fit != "tight" else W.sc(5)
        return max(b.bottom for b in boxes) + gap if boxes else self.rect.y + W.sc(10)

    def table_rect(self) -> Optional[pygame.Rect]:
        """Where the table of best points stands in the panel, below the seats (a wide window while
        a human plans: the map keeps its corners), or None: on the map then."""
        height = self.table_height()
        if height is None:
            return None
        sc = W.sc
        p = self.rect
        st = self.view()
        # asked by the panel and by the map's and the panel's passes of the table each frame: the
        # seats' boxes are measured once for what they depend on (an online seat's "away" among it)
        away = getattr(self.face, "seat_away", None)
        key = (tuple(p), self.fit, self.face.version, i18n.language(), theme.text_scale(), sc(100), self.foot(),
               height, tuple(away(i) for i in range(st.n)) if away is not None else ())
        if self._table is None or self._table[0] != key:
            y = self.seats_bottom(self.seat_boxes(p.y + sc(10), set(st.to_act())))
            r = pygame.Rect(p.x + sc(10), y, p.w - sc(20), height)
            fits = r.bottom + sc(10) + self.log_min_height() + self.foot() <= p.bottom
            self._table = (key, r if fits else None)
        return None if self._table[1] is None else self._table[1].copy()

    def fit_seats(self, y: int, to_act: Any) -> str:
        """How the seats' boxes are drawn: "full", "nochips" (no last round's cards) or "tight"
        (and smaller type): the first with room below them for the turn order and the log."""
        st = self.view()
        p = self.rect
        below = self.room_below((self._order_height() if st.phase == "place" else 0) + self.log_min_height())
        table = self.table_height()
        if table is not None:  # the table of best points, if it finds room (planning.py)
            below += table + W.sc(10)
        for fit in ("full", "nochips", "tight"):
            self.fit = fit
            if self.seats_bottom(self.seat_boxes(y, to_act)) + below + self.foot() <= p.bottom:
                return fit
        return "tight"

    def seat_lines(self, i: int, seat: Any, acting: bool, width: int, info_px: int = 15) -> dict[str, Any]:
        """What a seat's panel says, laid out for ``width`` pixels: the kind (human, AI) and its
        status, the rings/deck/fief line (broken between its parts), last round's cards as chips
        (on as many rows as they need) and the sea leagues (wrapped)."""
        st = self.view()
        spec = self.face.seats[i]
        kind = i18n.t("game.ai_level", level=i18n.t(f"level.{spec.bot}")) if spec.is_ai else i18n.t("game.human")
        status = ""
        if st.phase == "plan":
            status = i18n.t("game.planned") if seat.plan is not None else i18n.t("game.not_planned")
        elif st.phase == "place" and acting:
            status = i18n.t("game.acting")
        note = self.face.seat_note(i) if st.phase != "over" else None  # an online game: resigned, away...
        if note:
            status = note
        parts = [i18n.t("game.rings", n=seat.rings), i18n.t("game.deck", n=len(seat.deck))]
        if seat.fief is not None:
            parts.append(f"{i18n.t('game.fief', fief=seat.fief)} ({i18n.t('game.card', card=seat.card)})")
        info = [""]
        for part in parts:  # "Rings 4 · Deck 4 · Fief 70 (card 74)", broken only between its parts
            joined = f"{info[-1]}  ·  {part}" if info[-1] else part
            if not info[-1] or W.text(joined, "sans", info_px).get_width() <= width:
                info[-1] = joined
            else:
                info.append(part)
        order = {c: n for n, c in enumerate(list(st.region_cards()) + ["A", "B", "C", "K"])}
        chips = [i18n.card_name(st, c) for c in sorted(seat.unavailable, key=lambda c: order.get(c, 99))]
        leagues = [_short_sea(st.content.sea_names.get(x2, x2)) for x2 in sorted(seat.leagues)]
        ltxt = i18n.t("game.leagues", seas=", ".join(leagues)) if leagues else i18n.t("game.no_leagues")
        return {"kind": kind, "status": status, "info": info, "chips": chips, "leagues": ltxt}

    def _chip_rows(self, chips: list[str], x0: int, width: int) -> list[tuple[int, int, str, int]]:
        """Last round's cards as chips after "Last:": [(x, row, name, chip width)], flowing on rows."""
        sc = W.sc
        cx = x0 + W.text(i18n.t("game.last_played", cards=""), "sans", 14).get_width() + sc(4)
        out, row = [], 0
        for name in chips:
            cw = W.text(name, "sans_semibold", 13).get_width() + sc(10)
            if cx + cw > x0 + width and cx > x0 + sc(40):
                row += 1
                cx = x0 + sc(10)
            out.append((cx, row, name, cw))
            cx += cw + sc(4)
        return out

    def _order_lines(self) -> list[tuple[str, tuple[int, int, int], str]]:
        """The turn order's lines (after the reveal): (the seat's plan, text colour, seat colour). The
        seat is shown by its crest (its name is on its box above): a plan then holds one line, and the
        log below keeps its five lines with four seats at 1280x720 (issue 40)."""
        st = self.view()
        out = []
        for n, i in enumerate(st.order):
            plan = st.seats[i].plan
            txt = f"{i18n.card_name(st, plan.region)}, {i18n.card_name(st, plan.action)}"
            if plan.king:
                txt += " + " + i18n.t("card.K")
            out.append((txt, W.TEXT if n >= st.turn else palette.now().order_done, st.seats[i].colour))
        return out

    def _order_fit(self, txt: str) -> tuple[list[str], int]:
        """An order line: on one line at 15 px, else 14 or 13 px, else wrapped at 15 px."""
        width = self.rect.w - W.sc(30 + ORDER_CREST + 6)
        for px in (15, 14, 13):
            if theme.font("sans", px).size(txt)[0] <= width:
                return [txt], px
        return W.wrap_words(txt, "sans", 15, width), 15

    def _order_height(self) -> int:
        out = W.sc(24 + 6)
        for t, _c, _s in self._order_lines():
            lines, px = self._order_fit(t)
            out += len(lines) * theme.font("sans", px).get_linesize()
        return out

    def _seat_type(self) -> tuple[int, int, int, int, int, bool]:
        """The seat box's measures for the current fit: (info px, info step, leagues px, top of the
        kind line, top of the info lines, show last round's cards)."""
        fit = self.fit
        if fit == "tight":
            return 13, 18, 13, 28, 47, False
        return 15, 22, 14, 31, 50, fit == "full"

    def _seat_box_height(self, i: int, seat: Any, acting: bool) -> int:
        sc = W.sc
        info_px, step, lpx, _k, top, chips = self._seat_type()
        width = self.seat_box_w() - sc(24) - sc(10)
        ln = self.seat_lines(i, seat, acting, width, info_px)
        rows = 1 + max([r for _x, r, _n, _w in self._chip_rows(ln["chips"], 0, width)], default=0)
        if not chips:
            rows = 0
        leagues_h = W.text(ln["leagues"], "sans", lpx, W.TEXT_SOFT, wrap=width).get_height()
        return sc(top) + len(ln["info"]) * sc(step) + rows * sc(23) + leagues_h + sc(6 if chips else 4)

    def _draw_seat(self, surf: pygame.Surface, box: pygame.Rect, i: int, seat: Any, acting: bool) -> None:
        """A seat's panel: name, kind and status, score, rings/deck/fief, last round's cards, leagues."""
        sc = W.sc
        st = self.view()
        info_px, step, lpx, kind_y, top, with_chips = self._seat_type()
        x = box.x + sc(24)
        width = box.right - sc(10) - x
        ln = self.seat_lines(i, seat, acting, width, info_px)
        score = W.blit_text(surf, str(self.score(i, seat.score)), (box.right - sc(14), box.y + sc(6)),
                            "sans_bold", 30 if kind_y > 28 else 26, W.TEXT, "topright")
        status_right = score.x  # the status line's room ends at the score (the clock is on the name's line)
        score = _draw_clock(surf, self.face.clock_note(i) if st.phase != "over" else None, score, box.y + sc(kind_y - 22))
        name_w = score.x - sc(10) - x
        name = self.face.seats[i].name
        fit = W.fit_lines(name, "sans_bold", 19, name_w, sc(27), max_lines=1)
        lines, px = fit or ([W.fit_text(name, "sans_bold", 19, name_w)], 19)
        W.blit_text(surf, lines[0], (x, box.y + sc(kind_y - 25)), "sans_bold", px, W.TEXT)
        _draw_kind_status(surf, ln["kind"], ln["status"], (x, box.y + sc(kind_y)), status_right - sc(10) - x,
                          W.OK if seat.plan is not None and st.phase == "plan" else palette.now().waiting)
        y = box.y + sc(top)
        for line in ln["info"]:
            W.blit_text(surf, line, (x, y), "sans", info_px, W.TEXT)
            y += sc(step)
        if not with_chips:  # (no room for last round's cards: see _fit_seats)
            W.blit_text(surf, ln["leagues"], (x, y), "sans", lpx, W.TEXT_SOFT, wrap=width)
            return
        # last round's cards (unavailable now)
        W.blit_text(surf, i18n.t("game.last_played", cards=""), (x, y + sc(1)), "sans", 14, W.TEXT_SOFT)
        chips = self._chip_rows(ln["chips"], x, width)
        if not chips:
            cx = x + W.text(i18n.t("game.last_played", cards=""), "sans", 14).get_width() + sc(4)
            W.blit_text(surf, i18n.t("game.none"), (cx, y + sc(1)), "sans", 14, W.TEXT_SOFT)
        for cx, row, name, cw in chips:
            chip = pygame.Rect(cx, y + row * sc(23), cw, sc(20))
            pygame.draw.rect(surf, palette.now().chip, chip, 0, 5)
            pygame.draw.rect(surf, palette.now().chip_edge, chip, 1, 5)
            W.blit_text(surf, name, chip.center, "sans_semibold", 13, palette.now().chip_text, "center")
        y += (1 + max([r for _x, r, _n, _w in chips], default=0)) * sc(23)
        W.blit_text(surf, ln["leagues"], (x, y), "sans", lpx, W.TEXT_SOFT, wrap=width)

    def _draw_seat_stripe(self, surf: pygame.Surface, rect: pygame.Rect, colour: str) -> None:
        """The seat's colour band on its panel, with its pattern and its crest (a shape)."""
        key = (colour, rect.size, W.palette_name())
        img = self._stripes.get(key)
        if img is None:
            img = pygame.Surface(rect.size, pygame.SRCALPHA)
            pygame.draw.rect(img, theme.seat_color(colour), img.get_rect(), 0, 8)
            pat = pygame.Surface(rect.size, pygame.SRCALPHA)
            pieces.draw_pattern(pat, theme.seat_pattern(colour), theme.seat_mark(colour), 9, alpha=200)
            mask = pygame.Surface(rect.size, pygame.SRCALPHA)
            pygame.draw.rect(mask, (255, 255, 255, 255), mask.get_rect(), 0, 8)
            pat.blit(mask, (0, 0), special_flags=pygame.BLEND_RGBA_MULT)
            img.blit(pat, (0, 0))
            self._stripes[key] = img
        surf.blit(img, rect.topleft)
        c = pieces.crest(colour, W.sc(24))
        surf.blit(c, c.get_rect(center=(rect.centerx + 1, rect.y + W.sc(18))))
