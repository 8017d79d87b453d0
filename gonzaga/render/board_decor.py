"""The board's decorations, drawn into its static layer: the title cartouche, the compass rose and
the legend of the symbols, each where it covers the fewest hexes (the legend: none) and no part
kept clear (an online game's chat strip, issue 40)."""
from __future__ import annotations

import math
from collections.abc import Mapping
from types import SimpleNamespace

import pygame

from ..rules import hexgrid
from . import icons, pieces, textures, theme
from .board_frame import BuiltLayer, LayerFrame
from .board_map import BoardMap
from .board_stamps import Stamps
from .labels import LabelPlacer


class Decorations:
    """The decorations of one layer: ``title`` in the cartouche over the board's own subtitle,
    the legend's words from ``texts`` (every key of ``DEFAULT_TEXTS``), badges from ``stamps``."""

    def __init__(self, board: BoardMap, frame: LayerFrame, title: str, texts: Mapping[str, str],
                 stamps: Stamps) -> None:
        self.board = board
        self.frame = frame
        self.title = title
        self.texts = texts
        self.stamps = stamps

    def place(self, surf: pygame.Surface, placer: LabelPlacer, out: BuiltLayer) -> None:
        """The cartouche, the compass and the legend drawn on ``surf`` where ``placer`` has room
        (the emptiest corners; the legend only where it covers no hex); their boxes go to ``out``."""
        f = self.frame
        S = f.size
        wr = placer.bounds  # the whole board's rect (a zoomed layer is a window of it)
        W, H = wr.size
        title_f = theme.font("title", max(28, S * 2.7), scaled=False)
        sub_f = theme.font("serif_italic", max(13, S * 0.8), scaled=False)
        t1 = theme.render_text(self.title, title_f, theme.INK, tracking=S * 0.1)
        t2 = theme.render_text(self.board.content.board.render.title, sub_f, theme.INK_SOFT, tracking=S * 0.12)
        pad = int(S * 0.5)
        cw = max(t1.get_width(), t2.get_width()) + 2 * pad + int(S * 0.8)
        ch = t1.get_height() + t2.get_height() + 2 * _rule_gap(S) + int(S * 0.5)
        m = int(S * 0.6)
        corners = [(wr.x + x, wr.y + y) for x, y in ((m, m), (W - m - cw, m), (m, H - m - ch), (W - m - cw, H - m - ch))]
        z = S / f.fit_size if f.fit_size > 0 else 1.0  # this layer's zoom
        covered = [pygame.Rect(wr.x + int(r.x * z), wr.y + int(r.y * z), int(math.ceil(r.w * z)),
                               int(math.ceil(r.h * z))) for r in f.keep_clear]

        def cost(box: pygame.Rect) -> float:
            # land hexes and sites under the box cost most; open sea little; a covered part never
            c = 1e9 if box.collidelist(covered) != -1 else 0.0
            for h, t in self.board.terrain.items():
                x, y = f.local(hexgrid.to_pixel(h))
                if box.collidepoint(x, y):
                    c += 4 if t == "land" else 1
                    if h in self.board.sites:
                        c += 100
            return c

        boxes = [pygame.Rect(x, y, cw, ch) for x, y in corners]
        best = min(range(4), key=lambda i: cost(boxes[i]))
        cart = boxes[best]
        out.cartouche = cart
        placer.reserve(cart)
        _draw_cartouche(surf, cart, t1, t2, S)
        # the compass: the emptiest other corner, large where it covers no hex
        hex_boxes = [pygame.Rect(int(x - S), int(y - S), int(2 * S), int(2 * S))
                     for x, y in (f.local(hexgrid.to_pixel(h)) for h in self.board.terrain)]
        cb = None
        for k in (6.0, 4.2):
            compass_d = int(S * k)
            cboxes = []
            for x, y in ((m, m), (W - m - compass_d, m), (m, H - m - compass_d), (W - m - compass_d, H - m - compass_d)):
                b = pygame.Rect(wr.x + x, wr.y + y, compass_d, compass_d)
                if not b.colliderect(cart.inflate(S, S)) and placer.bounds.contains(b) and b.collidelist(covered) == -1:
                    cboxes.append(b)
            free = [b for b in cboxes if b.collidelist(hex_boxes) == -1]
            if free:
                cb = free[0]
                break
            if k == 4.2 and cboxes:
                cb = min(cboxes, key=cost)
        out.compass = cb
        if cb is not None:
            placer.reserve(cb)
            _draw_compass(surf, cb, S)
        # a legend of the symbols, only where it covers no hex of the board
        for k in (1.3, 1.0):
            lw, lh = self.legend_size(S * k)
            spots = []
            for side_x in (wr.x + m, wr.x + W - m - lw):
                spots.append(pygame.Rect(side_x, wr.y + H - m - lh, lw, lh))
                spots.append(pygame.Rect(side_x, cart.bottom + m, lw, lh))
                if cb is not None:
                    spots.append(pygame.Rect(side_x, cb.bottom + m, lw, lh))
            for spot in spots:
                if (placer.bounds.contains(spot) and spot.collidelist(hex_boxes) == -1
                        and spot.collidelist(covered) == -1 and placer.is_free(spot)):
                    placer.reserve(spot)
                    out.legend = spot
                    surf.blit(self.legend(S * k), spot.topleft)
                    return

    def legend_size(self, S: float) -> tuple[int, int]:
        row_f = theme.font("serif", max(12, S * 0.6), scaled=False)
        sea_f = theme.font("serif_italic", max(12, S * 0.6), scaled=False)
        row_h = int(max(16, S * 1.05))
        pad = int(max(8, S * 0.5))
        col_w = max(row_f.size(self.texts["symbol." + s])[0] for s in icons.CITY_SYMBOLS) + row_h + pad
        sea_w = max(sea_f.size(sea.name)[0] for sea in self.board.seas.values()) + row_h + pad // 2
        head_f = theme.font("smallcaps", max(13, S * 0.72), scaled=False)
        other = max(head_f.size(self.texts["legend.cities"])[0], head_f.size(self.texts["legend.seas"])[0],
                    row_f.size(self.texts["legend.barrier"])[0] + int(row_h * 1.9))
        rows = 1 + 4 + 1 + len(self.board.seas) + 1
        return max(2 * col_w, sea_w, other) + 2 * pad, rows * row_h + 2 * pad + int(row_h * 0.6)

    def legend(self, S: float) -> pygame.Surface:
        """A parchment card: the city symbols, the seas with their harbor symbols, a barrier."""
        head_f = theme.font("smallcaps", max(13, S * 0.72), scaled=False)
        row_f = theme.font("serif", max(12, S * 0.6), scaled=False)
        sea_f = theme.font("serif_italic", max(12, S * 0.6), scaled=False)
        row_h = int(max(16, S * 1.05))
        badge_r = int(row_h * 0.42)
        pad = int(max(8, S * 0.5))
        west = [s for s in icons.CITY_SYMBOLS[:4]]
        east = [s for s in icons.CITY_SYMBOLS[4:]]
        col_w = max(row_f.size(self.texts["symbol." + s])[0] for s in icons.CITY_SYMBOLS) + row_h + pad
        width, height = self.legend_size(S)
        card = pygame.Surface((width, height), pygame.SRCALPHA)
        body = textures.ground((width, height), theme.PARCHMENT, 33, ((5, 215, 255),), True,
                               textured_=theme.MAP.textured).copy()
        mask = pygame.Surface((width, height), pygame.SRCALPHA)
        rad = int(S * 0.4)
        pygame.draw.rect(mask, (255, 255, 255, 235), mask.get_rect().inflate(-4, -4), 0, rad)
        card.blit(textures.apply_mask(body, mask), (0, 0))
        pygame.draw.rect(card, (*theme.INK, 255), card.get_rect().inflate(-4, -4), max(2, int(S * 0.07)), rad)
        y = pad

        def badge(kind: str, sym: str) -> pygame.Surface:
            return self.stamps.badge(SimpleNamespace(kind=kind, symbol=sym if kind == "city" else None,
                                                     sea=sym if kind == "harbor" else None), badge_r)

        card.blit(head_f.render(self.texts["legend.cities"], True, theme.INK), (pad, y))
        y += row_h
        for i in range(4):
            for col, sym in ((0, west[i]), (1, east[i])):
                x = pad + col * col_w
                b = badge("city", sym)
                card.blit(b, b.get_rect(center=(x + row_h // 2, y + row_h // 2)))
                t = row_f.render(self.texts["symbol." + sym], True, theme.INK)
                card.blit(t, (x + row_h + 4, y + (row_h - t.get_height()) // 2))
            y += row_h
        y += int(row_h * 0.3)
        card.blit(head_f.render(self.texts["legend.seas"], True, theme.INK), (pad, y))
        y += row_h
        for sea in self.board.seas.values():
            b = badge("harbor", sea.id)
            card.blit(b, b.get_rect(center=(pad + row_h // 2, y + row_h // 2)))
            t = sea_f.render(sea.name, True, theme.HARBOR_TEXT)
            card.blit(t, (pad + row_h + 4, y + (row_h - t.get_height()) // 2))
            y += row_h
        y += int(row_h * 0.3)
        # a barrier sample
        a, b2 = (pad + 2, y + row_h * 0.7), (pad + row_h * 1.6, y + row_h * 0.7)
        pieces.thick_polyline(card, theme.BARRIER, [a, b2], max(3.0, S * 0.2), closed=False)
        for frac in (0.3, 0.75):
            mx = a[0] + (b2[0] - a[0]) * frac
            hb, hg = row_h * 0.22, row_h * 0.45
            pygame.draw.polygon(card, theme.BARRIER_PEAK, [(mx - hb, a[1]), (mx, a[1] - hg), (mx + hb, a[1])])
            pygame.draw.polygon(card, theme.MAP.snow, [(mx, a[1] - hg), (mx - hb * 0.3, a[1] - hg * 0.7),
                                                        (mx + hb * 0.3, a[1] - hg * 0.7)])
        t = row_f.render(self.texts["legend.barrier"], True, theme.INK)
        card.blit(t, (pad + int(row_h * 1.9), y + (row_h - t.get_height()) // 2))
        return card


# ---------------------------------------------------------------- decorations

def _draw_cartouche(surf: pygame.Surface, box: pygame.Rect, t1: pygame.Surface, t2: pygame.Surface, S: float) -> None:
    panel = pygame.Surface(box.size, pygame.SRCALPHA)
    r = int(S * 0.5)
    pygame.draw.rect(panel, (30, 20, 10, 90), panel.get_rect().move(3, 4), 0, r)
    body = textures.ground(box.size, theme.PARCHMENT, 31, ((6, 215, 255),), True, textured_=theme.MAP.textured).copy()
    mask = pygame.Surface(box.size, pygame.SRCALPHA)
    pygame.draw.rect(mask, (255, 255, 255, 255), mask.get_rect().inflate(-4, -4), 0, r)
    panel.blit(textures.apply_mask(body, mask), (0, 0))
    inner = panel.get_rect().inflate(-4, -4)
    pygame.draw.rect(panel, (*theme.INK, 255), inner, max(2, int(S * 0.08)), r)
    pygame.draw.rect(panel, (*theme.GOLD, 255), inner.inflate(-int(S * 0.3), -int(S * 0.3)), max(1, int(S * 0.06)),
                     max(1, r - int(S * 0.15)))
    surf.blit(panel, box.topleft)
    cx = box.centerx
    y = box.y + int(S * 0.25)
    surf.blit(t1, (cx - t1.get_width() // 2, y))
    gap = _rule_gap(S)
    y += t1.get_height() - int(S * 0.15)
    # a small rule with a diamond between the title and the subtitle
    w = int(t1.get_width() * 0.6)
    pygame.draw.line(surf, theme.GOLD_DARK, (cx - w // 2, y), (cx + w // 2, y), max(1, int(S * 0.05)))
    dd = max(3, int(S * 0.14))
    pygame.draw.polygon(surf, theme.GOLD_DARK, [(cx, y - dd), (cx + dd, y), (cx, y + dd), (cx - dd, y)])
    surf.blit(t2, (cx - t2.get_width() // 2, y + gap - int(S * 0.1)))


def _rule_gap(S: float) -> int:
    return max(4, int(S * 0.3))


def _draw_compass(surf: pygame.Surface, box: pygame.Rect, S: float) -> None:
    K = 3
    d = box.w
    big = pygame.Surface((d * K, d * K), pygame.SRCALPHA)
    c = (d * K / 2, d * K / 2)
    R = d * K / 2 * 0.8
    ink = (*theme.INK, 230)
    pygame.draw.circle(big, (*theme.PARCHMENT, 110), c, R * 0.78)
    pygame.draw.circle(big, ink, c, R * 0.78, max(1, K))
    pygame.draw.circle(big, ink, c, R * 0.70, max(1, K // 2 + 1))
    for i in range(32):
        a = 2 * math.pi * i / 32
        r0 = R * (0.70 if i % 4 else 0.62)
        pygame.draw.line(big, ink, (c[0] + r0 * math.cos(a), c[1] + r0 * math.sin(a)),
                         (c[0] + R * 0.78 * math.cos(a), c[1] + R * 0.78 * math.sin(a)), max(1, K // 2))
    for i, (length, width) in enumerate([(1.0, 0.16)] * 4 + [(0.6, 0.12)] * 4):
        a = math.radians(-90 + 90 * i) if i < 4 else math.radians(-45 + 90 * (i - 4))
        tip = (c[0] + R * length * math.cos(a), c[1] + R * length * math.sin(a))
        left = (c[0] + R * width * math.cos(a - math.pi / 2), c[1] + R * width * math.sin(a - math.pi / 2))
        r = (c[0] + R * width * math.cos(a + math.pi / 2), c[1] + R * width * math.sin(a + math.pi / 2))
        pygame.draw.polygon(big, (*theme.PARCHMENT, 255), [c, left, tip])
        pygame.draw.polygon(big, (*theme.INK, 255), [c, tip, r])
        pygame.draw.aalines(big, (*theme.INK, 255), True, [left, tip, r, c])
    pygame.draw.circle(big, (*theme.GOLD, 255), c, R * 0.07)
    img = pygame.transform.smoothscale(big, (d, d))
    surf.blit(img, box.topleft)
    f = theme.font("serif", max(11, d * 0.14), scaled=False)
    n = theme.render_text("N", f, theme.INK, halo=theme.PARCHMENT, halo_px=1)
    surf.blit(n, n.get_rect(midbottom=(box.centerx, box.y + int(d * 0.1) + 2)))
