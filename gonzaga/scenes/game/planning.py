"""The planning preview: where each region and action pair could put the fief and its best points, the
table of every pair beside the map.

A part of :class:`GameScene` (see the package's docstring); it reads the scene's state and
widgets as ``self``."""
from __future__ import annotations


import pygame

from ...words import i18n
from ...ui import palette
from ...ui import widgets as W
from ..preview import PLAN_ACTIONS, plan_previews


class PlanningMixin:
    # ------------------------------------------------------------ the planning preview

    def previews(self) -> dict:
        """Best points and spots of every (region, action) this round for the private seat
        (computed once per round and seat)."""
        seat = self.private_seat
        if seat is None:
            return {}
        key = (self.state.round, seat)  # the board does not change while seats plan
        p = self._previews.get(key)
        if p is None:
            self._previews = {key: plan_previews(self.state, seat)}
            p = self._previews[key]
        return p

    def preview_pair(self):
        """The (region, action) the map previews: a hovered card, else the chosen one; with
        one of them missing, the best of the other kind. None without a region or action."""
        if self._mode() != "plan":
            return None
        region, action = self.hand.region, self.hand.action
        hovered = None
        for w in self.widgets.items:
            if w.hover and w.visible and getattr(w, "card", None) is not None:
                hovered = w.card
        for rect, r_, a_ in self._preview_cells:
            if rect.collidepoint(self._mouse):
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
        return max(cands, key=lambda k: (prev[k].best if prev[k].best is not None else -1))

    def _preview_box(self, size) -> pygame.Rect:
        """Where on the map the preview table hides the least of it: a corner, or an edge beside
        what stands there, clear of every control; land and sites count more than open sea."""
        r = self.renderer
        # what it must never cover (issue 40): the buttons on the map (Hint, Take back), the title
        # cartouche and the compass rose
        keep = [w.rect for w in self.assist._buttons()] + r.decoration_rects()
        legend = r.legend_rect()
        if legend is not None:  # nor the legend of the symbols (issue 40)
            keep.append(legend)
        if getattr(self, "online", None) is not None:  # nor an online game's chat strip and banner
            keep += self.online.keep_clear()
            if self.online.box is not None:  # (its banner as last drawn, while it says something)
                keep.append(self.online.box)
        key = (tuple(self.board_rect), size, r.view_state(), tuple(tuple(k) for k in keep))
        if getattr(self, "_preview_box_key", None) == key:
            return self._preview_box_at.copy()
        b = self.board_rect.inflate(-20, -20)
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
        content = self.state.content
        # as the map's own legend weighs them (render/board_static.py): a site most, land more than sea
        hexes = [(r.hex_to_screen(h), 4 + (100 if h in content.sites else 0) if t == "land" else
                  1 + (100 if h in content.sites else 0)) for h, t in content.terrain.items()]
        inside = self.board_rect.inflate(-4, -4)

        def cost(bx) -> tuple:
            covers = sum(1 for k in keep if bx.colliderect(k)) + (0 if inside.contains(bx) else 1)
            return covers, sum(w for (x, y), w in hexes if bx.collidepoint(x, y))
        best = min(boxes, key=cost)
        self._preview_box_key, self._preview_box_at = key, best
        return best.copy()

    def preview_is_folded(self, height: int = 0) -> bool:
        """The table of best points (``height`` high) is folded to its title where it would hide
        more than 30% of the map's height (a small window), until the player opens it; a click on
        its title folds and opens it."""
        if self.preview_folded is not None:
            return self.preview_folded
        return height > 0.3 * self.board_rect.h

    def _click_preview(self, pos) -> bool:
        """A click on a cell of the preview table chooses that region and action; a click on its
        title folds or opens it."""
        if self._preview_head is not None and self._preview_head.collidepoint(pos):
            self.preview_folded = not self._preview_folded_now
            return True
        if self._preview_rect is None or not self._preview_rect.collidepoint(pos):
            return False
        unavailable = self.state.seats[self.private_seat].unavailable
        for rect, region, action in self._preview_cells:
            if rect.collidepoint(pos) and region not in unavailable and action not in unavailable:
                self.hand.choose(region, action)
                self.layout(self.app.size)
                return True
        return True

    def _preview_table_size(self) -> tuple:
        """The table of best points' measures: (width, height, column heads, column width, name width)."""
        st = self.state
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

    def _draw_preview(self, surf, in_panel: bool = False) -> None:
        """On the map: where this round's fief could go under the previewed plan (a light
        wash), its best spot (gold) and the points there; and a table of every pair (on the map,
        or with ``in_panel`` in the side panel of a wide window, drawn after the panel)."""
        # the pair read before the table's cells are laid out anew (a hovered cell counts); the
        # panel's pass, later in the frame, draws the one the map's pass read
        pair = self._pair_now if in_panel else self.preview_pair()
        self._pair_now = pair
        if not in_panel:
            self._preview_rect = None
            self._preview_head = None
            self._preview_cells = []
        if self._mode() != "plan":
            return
        st = self.state
        prev = self.previews()
        r = self.renderer
        if pair is not None and not in_panel:
            p = prev[pair]
            r.draw_highlight(surf, p.cover, kind="cover")
            if p.best is not None:
                r.draw_highlight(surf, p.best_cells, kind="best")
                r.draw_label(surf, p.best_anchor, i18n.t("place.points", points=p.best))
        panel_box = self.panel.table_rect()
        if (panel_box is not None) != in_panel:
            return
        # the table: regions down, the action cards across
        regions = list(st.region_cards())
        unavailable = st.seats[self.private_seat].unavailable
        sc = W.sc
        row_h = sc(24)
        width, height, heads, col_w, name_w = self._preview_table_size()
        if panel_box is not None:  # the panel's width: the columns spread (up to a point)
            col_w = max(col_w, min(sc(150), (panel_box.w - sc(20) - name_w) // 3))
            panel_box.w = min(panel_box.w, name_w + 3 * col_w + sc(20))
            folded, box = False, panel_box
        else:
            folded = self.preview_is_folded(height)
            full = self._preview_box((width, height))
            # folded to its title where it opens: at its top, or at its foot in the map's lower half
            box = full if not folded else pygame.Rect(full.x, full.y if full.centery <= self.board_rect.centery
                                                      else full.bottom - sc(32), width, sc(32))
        W.panel(surf, box, W.PANEL, W.PANEL_EDGE, 8, 2, alpha=238)
        W.blit_text(surf, W.fit_text(i18n.t("preview.title"), "sans_bold", 15, box.w - sc(42)),
                    (box.x + sc(10), box.y + sc(7)), "sans_bold", 15, W.TEXT)
        self._preview_folded_now = folded
        if panel_box is None:  # on the map it folds to its title (in the panel it has its own room)
            self._preview_head = pygame.Rect(box.x, box.y, box.w, sc(30))
            ax, ay, a = box.right - sc(18), box.y + sc(16), sc(5)  # an arrow: open (down) or folded (right)
            tri = [(ax - a, ay - a // 2), (ax + a, ay - a // 2), (ax, ay + a)] if not folded else \
                [(ax - a // 2, ay - a), (ax - a // 2, ay + a), (ax + a, ay)]
            pygame.draw.polygon(surf, W.TEXT, tri)
        if folded:
            self._preview_rect = box
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
                self._preview_cells.append((cell, reg, a))
            y += row_h
        self._preview_rect = box
