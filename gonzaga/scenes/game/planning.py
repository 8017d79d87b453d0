"""The planning preview: where each region and action pair could put the fief and its best points, the
table of every pair beside the map.

A part of the game screen with explicit inputs (:class:`PlanPreviews`): the view the screen draws,
whose hand is open, the hand and its cards, the pointer, the map, what the table must leave
clear, and where the side panel keeps room for it; a gate (``allow``) lets a script (the
tutorial) take a click on the table first."""
from __future__ import annotations

from typing import Any, Callable, Optional

import pygame

from ...words import i18n
from ...ui import palette
from ...ui import widgets as W
from ...ui.widgets import Widgets
from ..preview import PLAN_ACTIONS, PlanPreview, plan_previews

Point = tuple[int, int]
Pair = tuple[str, str]


def _go_on(pos: Point) -> Optional[bool]:
    return None


def _points(p: PlanPreview) -> int:
    """A pair's best points, -1 where the fief fits nowhere (the pairs are ranked by it)."""
    return p.best if p.best is not None else -1


class PlanPreviews:
    """The previews and their table. Inputs: ``view`` (the state the screen draws), ``seat`` (whose
    hand is open, or None), ``planning`` (a human plans on screen now), ``hand`` (the hand part: the
    cards chosen), ``widgets`` (the screen's buttons: a hovered card is previewed), ``mouse`` (the
    pointer), ``renderer`` (the board renderer), ``board`` (the map's rectangle), ``keep_clear``
    (what the table never covers), ``in_panel`` (the table's place in the side panel, or None:
    on the map) and ``changed`` (a pair was chosen: lay the buttons out again). ``allow(pos)``
    may answer a click first (True or False: handled so); None lets the table take it.
    ``folded``: the table folded (True) or opened (False) by the player; None: by the map's size."""

    def __init__(self, view: Callable[[], Any], seat: Callable[[], Optional[int]], planning: Callable[[], bool],
                 hand: Any, widgets: Widgets, mouse: Callable[[], Point], renderer: Callable[[], Any],
                 board: Callable[[], pygame.Rect], keep_clear: Callable[[], list[pygame.Rect]],
                 in_panel: Callable[[], Optional[pygame.Rect]], changed: Callable[[], None]):
        self.view = view
        self.seat = seat
        self.planning = planning
        self.hand = hand
        self.widgets = widgets
        self.mouse = mouse
        self.renderer = renderer
        self.board = board
        self.keep_clear = keep_clear
        self.in_panel = in_panel
        self.changed = changed
        self.allow: Callable[[Point], Optional[bool]] = _go_on
        self.folded: Optional[bool] = None
        self._folded_now = False
        self._cache: dict[tuple[int, int], dict[Pair, PlanPreview]] = {}
        self.rect: Optional[pygame.Rect] = None  # the table as last drawn (on the map or in the panel)
        self.head: Optional[pygame.Rect] = None  # its title on the map (a click folds or opens it)
        self.cells: list[tuple[pygame.Rect, str, str]] = []  # its cells as last drawn: (rect, region, action)
        self._pair_now: Optional[Pair] = None  # the pair the table shows this frame
        self._box: Optional[tuple[Any, pygame.Rect]] = None  # (what it depends on, the place picked on the map)

    def previews(self) -> dict[Pair, PlanPreview]:
        """Best points and spots of every (region, action) this round for the open hand's seat
        (computed once per round and seat)."""
        seat = self.seat()
        if seat is None:
            return {}
        st = self.view()
        key = (st.round, seat)  # the board does not change while seats plan
        p = self._cache.get(key)
        if p is None:
            self._cache = {key: plan_previews(st, seat)}
            p = self._cache[key]
        return p

    def pair(self) -> Optional[Pair]:
        """The (region, action) the map previews: a hovered card, else the chosen one; with
        one of them missing, the best of the other kind. None without a region or action."""
        if not self.planning():
            return None
        region, action = self.hand.region, self.hand.action
        hovered = None
        for w in self.widgets.items:
            card = getattr(w, "card", None)
            if w.hover and w.visible and card is not None:
                hovered = card
        mouse = self.mouse()
        for rect, r_, a_ in self.cells:
            if rect.collidepoint(mouse):
                region, action = r_, a_
        if hovered in PLAN_ACTIONS:
            action = hovered
        elif hovered is not None and hovered != "K":
            region = hovered
        if action == "K":
            action = None
        if region is None and action is None:
            return None
        prev = self.previews()
        cands = [(r, a) for (r, a) in prev if (region is None or r == region) and (action is None or a == action)]
        if not cands:
            return None
        return max(cands, key=lambda k: _points(prev[k]))

    def _place_on_map(self, size: tuple[int, int]) -> pygame.Rect:
        """Where on the map the preview table hides the least of it: a corner, or an edge beside
        what stands there, clear of every control; land and sites count more than open sea."""
        r = self.renderer()
        board = self.board()
        # what it must never cover (issue 40): what the screen keeps clear (the buttons on the map:
        # Hint, Take back; an online game's chat strip and banner), the title cartouche and the compass rose
        keep = self.keep_clear() + r.decoration_rects()
        legend = r.legend_rect()
        if legend is not None:  # nor the legend of the symbols (issue 40)
            keep.append(legend)
        key = (tuple(board), size, r.view_state(), tuple(tuple(k) for k in keep))
        if self._box is not None and self._box[0] == key:
            return self._box[1].copy()
        b = board.inflate(-20, -20)
        gap = W.sc(8)
        boxes = [pygame.Rect(b.topleft, size), pygame.Rect((b.right - size[0], b.y), size),
                 pygame.Rect((b.x, b.bottom - size[1]), size), pygame.Rect((b.right - size[0], b.bottom - size[1]), size)]
        for x in (b.x, b.right - size[0]):  # under what stands at the top of that side only
            col = pygame.Rect(x, b.y, size[0], size[1])
            below = max([k.bottom for k in keep if k.top < col.bottom and k.left < col.right and k.right > col.left]
                        + [b.y]) + gap
            boxes.append(pygame.Rect((x, below), size))
        # beside, under or over each thing kept clear (a map moved aside leaves open sea there)
        xs = sorted({x for k in keep for x in (k.right + gap, k.left - size[0] - gap) if b.x <= x <= b.right - size[0]})
        ys = sorted({y for k in keep for y in (k.bottom + gap, k.top - size[1] - gap) if b.y <= y <= b.bottom - size[1]})
        boxes += [pygame.Rect((x, y), size) for x in xs for y in ys + [b.y, b.bottom - size[1]]]
        boxes += [pygame.Rect((x, y), size) for x in (b.x, b.right - size[0]) for y in ys]
        content = self.view().content
        # as the map's own legend weighs them (render/board_static.py): a site most, land more than sea
        hexes = [(r.hex_to_screen(h), 4 + (100 if h in content.sites else 0) if t == "land" else
                  1 + (100 if h in content.sites else 0)) for h, t in content.terrain.items()]
        inside = board.inflate(-4, -4)

        def cost(bx: pygame.Rect) -> tuple[int, int]:
            covers = sum(1 for k in keep if bx.colliderect(k)) + (0 if inside.contains(bx) else 1)
            return covers, sum(w for (x, y), w in hexes if bx.collidepoint(x, y))
        best = min(boxes, key=cost)
        self._box = (key, best)
        return best.copy()

    def is_folded(self, height: int = 0) -> bool:
        """The table of best points (``height`` high) is folded to its title where it would hide
        more than 30% of the map's height (a small window), until the player opens it; a click on
        its title folds and opens it."""
        if self.folded is not None:
            return self.folded
        return height > 0.3 * self.board().h

    def click(self, pos: Point) -> bool:
        """A click on a cell of the preview table chooses that region and action; a click on its
        title folds or opens it (unless the gate answers first)."""
        first = self.allow(pos)
        if first is not None:
            return first
        if self.head is not None and self.head.collidepoint(pos):
            self.folded = not self._folded_now
            return True
        if self.rect is None or not self.rect.collidepoint(pos):
            return False
        seat = self.seat()
        assert seat is not None
        unavailable = self.view().seats[seat].unavailable
        for rect, region, action in self.cells:
            if rect.collidepoint(pos) and region not in unavailable and action not in unavailable:
                self.hand.choose(region, action)
                self.changed()
                return True
        return True

    def table_size(self) -> tuple[int, int, list[str], int, int]:
        """The table of best points' measures: (width, height, column heads, column width, name width)."""
        st = self.view()
        regions = list(st.region_cards())
        sc = W.sc
        # the columns are headed by the action cards' names (the cards never show a letter A, B, C)
        heads = [W.fit_text(i18n.t(f"card.{a}"), "sans_bold", 13, sc(110)) for a in PLAN_ACTIONS]
        col_w = max(sc(50), max(W.text(h, "sans_bold", 13).get_width() for h in heads) + sc(10))
        name_w = max(W.text(i18n.card_name(st, reg), "sans", 14).get_width() for reg in regions) + sc(12)
        title_w = W.text(i18n.t("preview.title"), "sans_bold", 15).get_width() + sc(22)  # and its arrow
        width = max(name_w + 3 * col_w, title_w) + sc(20)
        height = sc(34) + sc(24) * (len(regions) + 1)
        return width, height, heads, col_w, name_w

    def draw(self, surf: pygame.Surface, in_panel: bool = False) -> None:
        """On the map: where this round's fief could go under the previewed plan (a light
        wash), its best spot (gold) and the points there; and a table of every pair (on the map,
        or with ``in_panel`` in the side panel of a wide window, drawn after the panel)."""
        # the pair read before the table's cells are laid out anew (a hovered cell counts); the
        # panel's pass, later in the frame, draws the one the map's pass read
        pair = self._pair_now if in_panel else self.pair()
        self._pair_now = pair
        if not in_panel:
            self.rect = None
            self.head = None
            self.cells = []
        seat = self.seat()
        if not self.planning() or seat is None:
            return
        st = self.view()
        prev = self.previews()
        r = self.renderer()
        if pair is not None and not in_panel:
            p = prev[pair]
            r.draw_highlight(surf, p.cover, kind="cover")
            if p.best is not None:
                r.draw_highlight(surf, p.best_cells, kind="best")
                r.draw_label(surf, p.best_anchor, i18n.t("place.points", points=p.best))
        panel_box = self.in_panel()
        if (panel_box is not None) != in_panel:
            return
        # the table: regions down, the action cards across
        regions = list(st.region_cards())
        unavailable = st.seats[seat].unavailable
        sc = W.sc
        row_h = sc(24)
        width, height, heads, col_w, name_w = self.table_size()
        if panel_box is not None:  # the panel's width: the columns spread (up to a point)
            col_w = max(col_w, min(sc(150), (panel_box.w - sc(20) - name_w) // 3))
            panel_box.w = min(panel_box.w, name_w + 3 * col_w + sc(20))
            folded, box = False, panel_box
        else:
            folded = self.is_folded(height)
            full = self._place_on_map((width, height))
            # folded to its title where it opens: at its top, or at its foot in the map's lower half
            box = full if not folded else pygame.Rect(full.x, full.y if full.centery <= self.board().centery
                                                      else full.bottom - sc(32), width, sc(32))
        W.panel(surf, box, W.PANEL, W.PANEL_EDGE, 8, 2, alpha=238)
        W.blit_text(surf, W.fit_text(i18n.t("preview.title"), "sans_bold", 15, box.w - sc(42)),
                    (box.x + sc(10), box.y + sc(7)), "sans_bold", 15, W.TEXT)
        self._folded_now = folded
        if panel_box is None:  # on the map it folds to its title (in the panel it has its own room)
            self.head = pygame.Rect(box.x, box.y, box.w, sc(30))
            ax, ay, arm = box.right - sc(18), box.y + sc(16), sc(5)  # an arrow: open (down) or folded (right)
            tri = [(ax - arm, ay - arm // 2), (ax + arm, ay - arm // 2), (ax, ay + arm)] if not folded else \
                [(ax - arm // 2, ay - arm), (ax - arm // 2, ay + arm), (ax + arm, ay)]
            pygame.draw.polygon(surf, W.TEXT, tri)
        if folded:
            self.rect = box
            return
        y = box.y + sc(32)
        for j, a in enumerate(PLAN_ACTIONS):
            W.blit_text(surf, heads[j], (box.x + sc(10) + name_w + j * col_w + col_w // 2, y + sc(1)), "sans_bold", 13,
                        W.TEXT_SOFT if a in unavailable else W.TEXT, "midtop")
        y += row_h
        for reg in regions:
            gone_r = reg in unavailable
            W.blit_text(surf, W.fit_text(i18n.card_name(st, reg), "sans", 14, name_w - 6), (box.x + sc(10), y + sc(2)),
                        "sans", 14, W.SECONDARY_OFF_TEXT if gone_r else W.TEXT)
            for j, a in enumerate(PLAN_ACTIONS):
                cell = pygame.Rect(box.x + sc(10) + name_w + j * col_w + 2, y, col_w - 4, row_h - 3)
                pv = prev[(reg, a)]
                gone = gone_r or a in unavailable
                if pair == (reg, a):
                    pygame.draw.rect(surf, palette.now().best_cell, cell, 0, 4)
                if (reg, a) == (self.hand.region, self.hand.action):
                    pygame.draw.rect(surf, palette.now().best_cell_edge, cell, 2, 4)
                txt = i18n.t("preview.none") if pv.best is None else i18n.t("place.points", points=pv.best)
                W.blit_text(surf, txt, cell.center, "sans_bold" if not gone and pv.best else "sans", 14,
                            W.SECONDARY_OFF_TEXT if gone or pv.best is None else W.TEXT, "center")
                self.cells.append((cell, reg, a))
            y += row_h
        self.rect = box
