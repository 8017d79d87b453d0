"""The board renderer: the map of Europe and everything drawn on it.

API (stable; the game screens call it)::

    r = BoardRenderer(content, rect, *, title="Gonzaga", decorations=True, texts=None)
                                                 # content: gonzaga.rules.content.Content;
                                                 #   decorations: title cartouche, compass
                                                 #   rose, legend (where they cover no hex);
                                                 #   texts: translations of TEXT_KEYS
    r.set_rect(rect)                             # new target rect (window resized); refits
    r.rect -> pygame.Rect                        # where the board is drawn on the screen
    r.size -> float                              # hex circumradius in pixels
    r.hex_to_screen(h) -> (x, y)                 # centre of hex h, screen pixels (floats)
    r.screen_to_hex(x, y) -> Hex | None          # the map hex under a point, None off the map
    r.hex_polygon(h) -> list[(x, y)]             # the six screen corners of h
    r.static_layer() -> Surface                  # the whole board (rect.size), cached;
                                                 #   rebuilt only when the rect changes
    r.draw_static(surface)                       # blit the static layer at rect.topleft

    # dynamic things, drawn on top of the static layer, in this order:
    r.draw_flourishing(surface, flourishing)     # seals by the region names: set of region
                                                 #   ids flourishing; the others get an
                                                 #   "inactive" seal
    r.draw_objective_cities(surface, hexes)      # rings around these cities (a secret view)
    r.draw_fiefs(surface, fiefs)                 # fiefs: iterable of (seat, cells, castles)
    r.draw_rings(surface, rings, castles=())     # rings: mapping hex -> seat; castles: the
                                                 #   fiefs' castle cells (ring steps aside)
    r.draw_highlight(surface, hexes, strong=True)  # a set of hexes, strong or faint
    r.draw_ghost(surface, cells, castles, ok)    # the fief being placed, green/red tint
    r.draw(surface, fiefs=..., rings=..., ...)   # all of the above in one call

    r.label_boxes() -> list[Rect]                # every name placed (static-layer pixels)

Seats are colour names ("red", "yellow", "green", "blue") or indices 0-3 in that order.
Cells and castles are ``(q, r)`` tuples, e.g. from ``Fief.footprint(anchor, k)``. Hexes
that are not on the map are ignored, except by ``draw_ghost``, which draws the whole fief
so the player sees what hangs off the board. Drawing never changes its inputs nor any
game state. The static layer is opaque and covers the whole rect (decorations such as
the title cartouche, compass rose and legend go where they cover no hex of the board).

Caching: the static layer depends only on the rect's size (moving the rect is free);
fief, ghost and marker sprites are cached per size, so a frame is a few blits.

Coordinates: the map is fitted into ``rect`` (kept to scale, centred); all ``draw_*``
methods draw in the same screen coordinates as ``hex_to_screen`` (``rect`` included), so
pass the window surface (or any surface laid out like it).
"""
from __future__ import annotations

import json
import math
from collections.abc import Iterable, Mapping
from pathlib import Path
from types import SimpleNamespace
from typing import Optional

import pygame

from ..rules import hexgrid
from ..rules.hexgrid import Hex
from . import icons, pieces, textures, theme
from .labels import LabelPlacer, around, spiral

SQRT3 = hexgrid.SQRT3

FiefSpec = tuple  # (seat, cells, castles)

# corner indices (hexgrid.corners order) of the side facing each direction (hexgrid.edge_corners)
_EDGE_CORNERS = {0: (1, 2), 1: (0, 1), 2: (5, 0), 3: (4, 5), 4: (3, 4), 5: (2, 3)}

DEFAULT_TEXTS = {
    "legend.cities": "Cities", "legend.seas": "Seas and their harbors",
    "legend.barrier": "Barrier: no fief across",
    "symbol.university": "University", "symbol.cathedral": "Cathedral", "symbol.wine": "Wine",
    "symbol.wool": "Wool", "symbol.bank": "Bank", "symbol.art": "Art", "symbol.silk": "Silk",
    "symbol.glass": "Glass",
}


class BoardRenderer:
    """Draws ``content``'s board fitted into a screen rectangle (see the module docstring)."""

    #: keys of the words the board shows besides the map's own names; pass translations
    #: as ``texts`` (a mapping key -> text); missing keys fall back to English.
    TEXT_KEYS: tuple[str, ...] = ("legend.cities", "legend.seas", "legend.barrier") + tuple(
        f"symbol.{s}" for s in icons.CITY_SYMBOLS)

    def __init__(self, content, rect, *, title: str = "Gonzaga", decorations: bool = True,
                 texts: Mapping[str, str] | None = None):
        self.content = content
        self.title = title
        self.decorations = decorations
        self._texts = dict(DEFAULT_TEXTS)
        if texts:
            # an i18n lookup that fell back to its key is no translation: keep English then
            self._texts.update({k: v for k, v in texts.items() if k in DEFAULT_TEXTS and v and v != k})
        board = content.board
        self._terrain: dict[Hex, str] = dict(content.terrain)
        self._region_of: dict[Hex, str] = dict(content.region_of)
        self._sea_of: dict[Hex, str] = dict(content.sea_of)
        self._sites = dict(content.sites)
        self._regions = {r.id: r for r in board.regions}
        self._seas = {s.id: s for s in board.seas}
        self._coast = _load_coastline(content)
        # map extent in hex units: every hex's corners
        xs, ys = [], []
        for h in self._terrain:
            cx, cy = hexgrid.to_pixel(h)
            xs += [cx - SQRT3 / 2, cx + SQRT3 / 2]
            ys += [cy - 1.0, cy + 1.0]
        self._ext = (min(xs), min(ys), max(xs), max(ys))
        self._unit_corners = [(x, y) for x, y in hexgrid.corners((0, 0))]
        self._rect = pygame.Rect(0, 0, 1, 1)
        self._static: Optional[pygame.Surface] = None
        self._sprites: dict[tuple, tuple[pygame.Surface, tuple[float, float]]] = {}
        self._stamps: dict[tuple, pygame.Surface] = {}
        self._seal_at: dict[str, tuple[float, float]] = {}
        self._label_boxes: list[pygame.Rect] = []
        self._badge_boxes: list[pygame.Rect] = []
        self.set_rect(rect)

    # ------------------------------------------------------------ layout

    @property
    def rect(self) -> pygame.Rect:
        return self._rect.copy()

    @property
    def size(self) -> float:
        return self._size

    def set_rect(self, rect) -> None:
        """Fit the map into ``rect``; the cached layers are rebuilt lazily if it changed."""
        rect = pygame.Rect(rect)
        if rect == self._rect and self._static is not None:
            return
        same_size = rect.size == self._rect.size and self._static is not None
        self._rect = rect
        x0, y0, x1, y1 = self._ext
        margin = max(6, int(min(rect.w, rect.h) * 0.015))
        aw, ah = max(1, rect.w - 2 * margin), max(1, rect.h - 2 * margin)
        self._size = min(aw / (x1 - x0), ah / (y1 - y0))
        self._ox = rect.x + rect.w / 2 - (x0 + x1) / 2 * self._size
        self._oy = rect.y + rect.h / 2 - (y0 + y1) / 2 * self._size
        if same_size:
            return  # only moved: every cached surface is still right
        self._static = None
        self._sprites.clear()
        self._stamps.clear()

    def hex_to_screen(self, h: Hex) -> tuple[float, float]:
        x, y = hexgrid.to_pixel(h, self._size)
        return (self._ox + x, self._oy + y)

    def screen_to_hex(self, x: float, y: float) -> Optional[Hex]:
        h = hexgrid.from_pixel(x - self._ox, y - self._oy, self._size)
        return h if h in self._terrain else None

    def hex_polygon(self, h: Hex) -> list[tuple[float, float]]:
        return [(self._ox + x, self._oy + y) for x, y in hexgrid.corners(h, self._size)]

    def _local_poly(self, h: Hex, scale: float = 1.0) -> list[tuple[float, float]]:
        """The corners of ``h`` in static-layer pixels, the hex scaled about its centre."""
        cx, cy = self._local(hexgrid.to_pixel(h))
        k = self._size * scale
        return [(cx + x * k, cy + y * k) for x, y in self._unit_corners]

    def _local(self, p: tuple[float, float]) -> tuple[float, float]:
        """Hex-unit point -> static-layer pixel."""
        return (self._ox - self._rect.x + p[0] * self._size, self._oy - self._rect.y + p[1] * self._size)

    # ------------------------------------------------------------ static layer

    def static_layer(self) -> pygame.Surface:
        if self._static is None:
            self._static = self._build_static()
        return self._static

    def draw_static(self, surface: pygame.Surface) -> None:
        surface.blit(self.static_layer(), self._rect.topleft)

    def label_boxes(self) -> list[pygame.Rect]:
        """The boxes (static-layer coordinates) of every label placed, for tests and tools."""
        self.static_layer()
        return [b.copy() for b in self._label_boxes]

    def _build_static(self) -> pygame.Surface:
        W, H = self._rect.size
        S = self._size
        surf = pygame.Surface((W, H))
        # 1. the table (off the board): deep sea, darker than the board's own sea
        # 2. the board's own sea (every map hex), then land
        half = (max(1, W // 2), max(1, H // 2))
        hs = S / 2.0
        ox2, oy2 = (self._ox - self._rect.x) / 2.0, (self._oy - self._rect.y) / 2.0
        unit = self._unit_corners

        def poly_half(h, scale=1.0):
            cx, cy = hexgrid.to_pixel(h, hs)
            return [(ox2 + cx + x * hs * scale, oy2 + cy + y * hs * scale) for x, y in unit]

        # the board's hexes are holes (colour key) in the table, laid over the sea
        surf.blit(textures.textured((W, H), theme.SEA, 12, ((14, 205, 255), (48, 228, 255)), True), (0, 0))
        table = textures.textured((W, H), theme.SEA_TABLE, 11, ((10, 190, 255), (40, 225, 255)), False).copy()
        key = (255, 0, 255)
        board_half = pygame.Surface(half, pygame.SRCALPHA)
        board_half.fill((255, 255, 255, 0))
        for h in self._terrain:
            pygame.draw.polygon(table, key, self._local_poly(h, 1.0))
            pygame.draw.polygon(board_half, (255, 255, 255, 255), poly_half(h, 1.0))
        table.set_colorkey(key)
        surf.blit(table, (0, 0))

        land_mask = self._land_mask(half, poly_half, hs, ox2, oy2)
        # shore glow and ripples, composed at half resolution, scaled up once
        glow_r = max(2, int(hs * 0.55))
        wide = pygame.transform.box_blur(land_mask, glow_r)
        wide = pygame.transform.box_blur(wide, glow_r)
        water = textures.colored_mask(wide, theme.SEA_SHALLOW, 235)
        for cut, alpha in ((10, 90), (40, 70)):
            band_out = wide.copy()
            textures.sharpen_alpha(band_out, cut, 4)
            band_in = wide.copy()
            textures.sharpen_alpha(band_in, cut + 12, 4)
            band_out.blit(band_in, (0, 0), special_flags=pygame.BLEND_RGBA_SUB)
            water.blit(textures.colored_mask(band_out, (232, 242, 236), alpha), (0, 0))
        water.blit(board_half, (0, 0), special_flags=pygame.BLEND_RGBA_MULT)  # none off the board
        surf.blit(pygame.transform.smoothscale(water, (W, H)), (0, 0))
        # land: region colours on parchment
        colours = pygame.Surface((W, H), pygame.SRCALPHA)
        colours.fill((*theme.PARCHMENT, 255))
        for h, reg in self._region_of.items():
            col = theme.lerp(theme.hex_color(self._regions[reg].color), theme.PARCHMENT, 0.15)
            pygame.draw.polygon(colours, col, self._local_poly(h, 1.04))
        colours.blit(textures.noise((W, H), 21, ((12, 205, 255), (50, 222, 255))), (0, 0),
                     special_flags=pygame.BLEND_MULT)
        land_full = pygame.transform.smoothscale(land_mask, (W, H))
        # a thin dark coast line: the land mask grown by a pixel, in ink, under the land
        coast_line = textures.colored_mask(land_full, theme.INK_SOFT, 200)
        for dx, dy in ((-1, 0), (1, 0), (0, -1), (0, 1)):
            surf.blit(coast_line, (dx, dy))
        colours.blit(land_full, (0, 0), special_flags=pygame.BLEND_RGBA_MULT)  # alpha = the land
        surf.blit(colours, (0, 0))
        # 3. lines: grid, region borders, sea borders, barriers, the board's edge
        lines = pygame.Surface((W, H), pygame.SRCALPHA)
        self._draw_grid(lines)
        surf.blit(lines, (0, 0))
        self._draw_borders(surf)
        # 4. sites, labels, cartouche, compass
        placer = LabelPlacer(pygame.Rect(0, 0, W, H), padding=max(1, int(S * 0.04)))
        self._draw_sites_and_labels(surf, placer)
        surf.blit(textures.vignette((W, H), 36), (0, 0), special_flags=pygame.BLEND_MULT)
        return surf

    def _land_mask(self, half, poly_half, hs, ox2, oy2) -> pygame.Surface:
        """Half-resolution alpha mask of the land as drawn: the real coastline where it
        agrees with the game's land hexes, and always the heart of every land hex."""
        mask = pygame.Surface(half, pygame.SRCALPHA)
        mask.fill((255, 255, 255, 0))
        land = [h for h, t in self._terrain.items() if t == "land"]
        if self._coast:
            real = pygame.Surface(half, pygame.SRCALPHA)
            real.fill((255, 255, 255, 0))
            for ring, is_hole in self._coast:
                pts = [(ox2 + x * hs, oy2 + y * hs) for x, y in ring]
                if len(pts) >= 3:
                    pygame.draw.polygon(real, (255, 255, 255, 0 if is_hole else 255), pts)
            allowed = pygame.Surface(half, pygame.SRCALPHA)
            allowed.fill((255, 255, 255, 0))
            for h in land:
                pygame.draw.polygon(allowed, (255, 255, 255, 255), poly_half(h, 1.15))
            real.blit(allowed, (0, 0), special_flags=pygame.BLEND_RGBA_MULT)
            mask.blit(real, (0, 0))
            core = 0.5
        else:
            core = 1.0
        for h in land:
            pygame.draw.polygon(mask, (255, 255, 255, 255), poly_half(h, core))
        # sea hexes keep open water at their heart
        if self._coast:
            for h, t in self._terrain.items():
                if t == "sea":
                    pygame.draw.polygon(mask, (255, 255, 255, 0), poly_half(h, 0.45))
        r = max(1, int(hs * 0.28))
        mask = pygame.transform.box_blur(mask, r)
        mask = pygame.transform.box_blur(mask, r)
        textures.sharpen_alpha(mask, 100, 3)
        return mask

    def _edge(self, h: Hex, d: int) -> tuple[tuple[float, float], tuple[float, float]]:
        """The side of ``h`` facing direction ``d``, in static-layer pixels."""
        i, j = _EDGE_CORNERS[d]
        cx, cy = self._local(hexgrid.to_pixel(h))
        u = self._unit_corners
        S = self._size
        return (cx + u[i][0] * S, cy + u[i][1] * S), (cx + u[j][0] * S, cy + u[j][1] * S)

    def _draw_grid(self, lines: pygame.Surface) -> None:
        col_land = (*theme.GRID, 46)
        col_sea = (*theme.SEA_INK, 38)
        for h, t in self._terrain.items():
            for d in range(6):
                n = hexgrid.add(h, hexgrid.DIRECTIONS[d])
                tn = self._terrain.get(n)
                if tn is not None and d in (1, 2, 3):
                    continue  # each inner side once: drawn from the other hex
                a, b = self._edge(h, d)
                col = col_land if (t == "land" or tn == "land") else col_sea
                pygame.draw.line(lines, col, a, b, 1)

    def _draw_borders(self, surf: pygame.Surface) -> None:
        S = self._size
        layer = pygame.Surface(surf.get_size(), pygame.SRCALPHA)
        barriers = self.content.barriers
        region_w = max(1, int(round(S * 0.07)))
        sea_w = max(1, int(round(S * 0.06)))
        peaks: list[tuple[tuple[float, float], tuple[float, float]]] = []
        for h, t in self._terrain.items():
            for d in range(6):
                n = hexgrid.add(h, hexgrid.DIRECTIONS[d])
                if n not in self._terrain or n < h:
                    continue
                a, b = self._edge(h, d)
                if frozenset((h, n)) in barriers:
                    peaks.append((a, b))
                    continue
                ra, rb = self._region_of.get(h), self._region_of.get(n)
                if ra and rb and ra != rb:
                    pieces.dashed_line(layer, (*theme.INK, 150), a, b, region_w, S * 0.22, S * 0.13)
                sa, sb = self._sea_of.get(h), self._sea_of.get(n)
                if sa and sb and sa != sb:
                    pieces.dashed_line(layer, (*theme.SEA_BORDER, 190), a, b, sea_w, S * 0.2, S * 0.16)
        # the board's edge
        for loop in pieces.outline_loops(self._terrain.keys()):
            pts = [self._local(p) for p in loop]
            pieces.thick_polyline(layer, (*theme.INK, 200), pts, max(2.0, S * 0.07))
        surf.blit(layer, (0, 0))
        # barriers: a dark ridge with small peaks
        bw = max(3.0, S * 0.2)
        for a, b in peaks:
            pieces.thick_polyline(surf, theme.BARRIER, [a, b], bw, closed=False)
        for a, b in peaks:
            dx, dy = b[0] - a[0], b[1] - a[1]
            L = math.hypot(dx, dy) or 1.0
            ux, uy = dx / L, dy / L
            nx, ny = -uy, ux
            if ny > 0 or (abs(ny) < 1e-9 and nx < 0):
                nx, ny = -nx, -ny  # peaks point up the screen
            for t in (0.27, 0.73):
                mx, my = a[0] + dx * t, a[1] + dy * t
                half_base = L * 0.24
                hgt = S * 0.42
                left = (mx - ux * half_base, my - uy * half_base)
                right = (mx + ux * half_base, my + uy * half_base)
                top = (mx + nx * hgt, my + ny * hgt)
                pygame.draw.polygon(surf, theme.BARRIER_PEAK, [left, top, right])
                shade = (mx + nx * hgt * 0.1, my + ny * hgt * 0.1)
                pygame.draw.polygon(surf, theme.BARRIER, [top, right, shade])
                pygame.draw.aalines(surf, theme.BARRIER, True, [left, top, right])
                # snow cap
                cap = 0.3
                pygame.draw.polygon(surf, (238, 232, 220), [
                    top, (top[0] + (left[0] - top[0]) * cap, top[1] + (left[1] - top[1]) * cap),
                    (top[0] + (right[0] - top[0]) * cap, top[1] + (right[1] - top[1]) * cap)])

    # ------------------------------------------------------------ sites and labels

    def _badge(self, site, radius: int) -> pygame.Surface:
        key = ("badge", site.kind, site.symbol or self._seas[site.sea].symbol, radius)
        s = self._stamps.get(key)
        if s is not None:
            return s
        d = radius * 2 + 4
        K = 3
        big = pygame.Surface((d * K, d * K), pygame.SRCALPHA)
        c = (d * K / 2, d * K / 2)
        R = radius * K
        pygame.draw.circle(big, (30, 20, 10, 90), (c[0] + K, c[1] + 1.5 * K), R + K)  # shadow
        if site.kind == "city":
            pygame.draw.circle(big, (*theme.CITY_RING, 255), c, R)
            pygame.draw.circle(big, (*theme.GOLD, 255), c, R * 0.86)
            pygame.draw.circle(big, (*theme.CITY_BADGE, 255), c, R * 0.79)
            sym, col, frac = site.symbol, theme.INK, 1.22
        else:
            pygame.draw.circle(big, (*theme.HARBOR_ICON, 255), c, R)
            pygame.draw.circle(big, (*theme.HARBOR_BADGE, 255), c, R * 0.88)
            pygame.draw.circle(big, (*theme.HARBOR_ICON, 255), c, R * 0.76, max(1, int(K * 0.8)))
            sym, col, frac = self._seas[site.sea].symbol, theme.HARBOR_ICON, 1.12
        ic = icons.icon(sym, int(R * frac), col)
        big.blit(ic, ic.get_rect(center=(int(c[0]), int(c[1]))))
        s = pygame.transform.smoothscale(big, (d, d))
        self._stamps[key] = s
        return s

    def _badge_radius(self, site) -> int:
        S = self._size
        return int(max(8.5 if site.kind == "city" else 7.5, S * (0.5 if site.kind == "city" else 0.42)))

    def _draw_sites_and_labels(self, surf: pygame.Surface, placer: LabelPlacer) -> None:
        S = self._size
        W, H = surf.get_size()
        self._label_boxes = []
        self._badge_boxes = []
        # fixed things first: site badges
        for h, site in self._sites.items():
            r = self._badge_radius(site)
            cx, cy = self._local(hexgrid.to_pixel(h))
            box = pygame.Rect(0, 0, 2 * r, 2 * r)
            box.center = (int(cx), int(cy))
            placer.reserve(box)
            self._badge_boxes.append(box)
        # barrier peaks stay readable: reserve nothing for them (labels have halos)
        # cartouche, compass rose and legend in the emptiest corners
        if self.decorations:
            self._place_cartouche_and_compass(surf, placer)
        # region names (small caps, spaced) with room for the seal on their left
        reg_px = max(14, S * 0.95)
        for reg in self._regions.values():
            name = reg.name
            txt = theme.render_text(name, theme.font("smallcaps", reg_px, scaled=False), theme.INK,
                                    halo=theme.PARCHMENT, halo_px=max(1, int(S * 0.07)), tracking=S * 0.12)
            seal_d = int(S * 0.9)
            w, h = txt.get_width() + seal_d + int(S * 0.15), max(txt.get_height(), seal_d)
            ax, ay = self._local(tuple(reg.label))
            box = placer.place(spiral((ax, ay), (w, h), S * 0.5, rings=6))
            if box is None:
                txt = theme.render_text(name, theme.font("smallcaps", reg_px * 0.75, scaled=False), theme.INK,
                                        halo=theme.PARCHMENT, halo_px=1, tracking=S * 0.06)
                w, h = txt.get_width() + seal_d + int(S * 0.15), max(txt.get_height(), seal_d)
                box = placer.place(spiral((ax, ay), (w, h), S * 0.5, rings=8))
            if box is None:
                continue
            self._label_boxes.append(box)
            surf.blit(txt, (box.x + seal_d + int(S * 0.15), box.centery - txt.get_height() // 2))
            self._seal_at[reg.id] = (box.x + seal_d / 2, box.centery)  # static-layer pixels
        # sea names (italic, spaced)
        sea_px = max(13, S * 0.72)
        for sea in self._seas.values():
            txt = theme.render_text(sea.name, theme.font("serif_italic", sea_px, scaled=False), theme.SEA_INK,
                                    halo=(196, 222, 226), halo_px=max(1, int(S * 0.05)), tracking=S * 0.16)
            ax, ay = self._local(tuple(sea.label))
            box = placer.place(spiral((ax, ay), txt.get_size(), S * 0.5, rings=6))
            if box is None:
                words = sea.name.split(" ", 1)
                if len(words) == 2:  # two lines
                    a = theme.render_text(words[0], theme.font("serif_italic", sea_px * 0.9, scaled=False),
                                          theme.SEA_INK, halo=(196, 222, 226), halo_px=1, tracking=S * 0.1)
                    b = theme.render_text(words[1], theme.font("serif_italic", sea_px * 0.9, scaled=False),
                                          theme.SEA_INK, halo=(196, 222, 226), halo_px=1, tracking=S * 0.1)
                    txt = pygame.Surface((max(a.get_width(), b.get_width()), a.get_height() + b.get_height() - 4),
                                         pygame.SRCALPHA)
                    txt.blit(a, ((txt.get_width() - a.get_width()) // 2, 0))
                    txt.blit(b, ((txt.get_width() - b.get_width()) // 2, a.get_height() - 4))
                    box = placer.place(spiral((ax, ay), txt.get_size(), S * 0.5, rings=8))
            if box is None:
                continue
            self._label_boxes.append(box)
            surf.blit(txt, box.topleft)
        # site badges, then their names
        for h, site in self._sites.items():
            r = self._badge_radius(site)
            cx, cy = self._local(hexgrid.to_pixel(h))
            b = self._badge(site, r)
            surf.blit(b, b.get_rect(center=(int(cx), int(cy))))
        order = sorted(self._sites.values(), key=lambda s: (s.kind != "city", s.hex))
        for site in order:
            r = self._badge_radius(site)
            cx, cy = self._local(hexgrid.to_pixel(site.hex))
            base_px = max(13 if site.kind == "city" else 12, S * (0.66 if site.kind == "city" else 0.58))
            placed = None
            for px in (base_px, base_px * 0.88, max(11, base_px * 0.78)):
                colour = theme.INK if site.kind == "city" else theme.HARBOR_TEXT
                txt = theme.render_text(site.name, theme.font("serif", px, scaled=False), colour,
                                        halo=(246, 238, 214), halo_px=max(1, int(S * 0.05)))
                cands = []
                ox, oy = site.label_offset
                pref = pygame.Rect(0, 0, *txt.get_size())
                pref.center = (int(cx + ox * S), int(cy + oy * S + (txt.get_height() / 2 - S * 0.1) * (1 if oy > 0 else -1 if oy < 0 else 0)))
                cands.append(pref)
                cands += around((cx, cy), txt.get_size(), r + 1)
                placed = placer.place(cands)
                if placed is not None:
                    break
            if placed is None:
                continue  # no free spot at any size: the badge alone is shown
            self._label_boxes.append(placed)
            surf.blit(txt, placed.topleft)

    def _place_cartouche_and_compass(self, surf: pygame.Surface, placer: LabelPlacer) -> None:
        S = self._size
        W, H = surf.get_size()
        title_f = theme.font("title", max(28, S * 2.7), scaled=False)
        sub_f = theme.font("serif_italic", max(13, S * 0.8), scaled=False)
        t1 = theme.render_text(self.title, title_f, theme.INK, tracking=S * 0.1)
        t2 = theme.render_text(self.content.board.render.title, sub_f, theme.INK_SOFT, tracking=S * 0.12)
        pad = int(S * 0.5)
        cw = max(t1.get_width(), t2.get_width()) + 2 * pad + int(S * 0.8)
        ch = t1.get_height() + t2.get_height() + 2 * _rule_gap(S) + int(S * 0.5)
        m = int(S * 0.6)
        corners = [(m, m), (W - m - cw, m), (m, H - m - ch), (W - m - cw, H - m - ch)]

        def cost(box: pygame.Rect) -> float:
            # land hexes and sites under the box cost most; open sea little
            c = 0.0
            for h, t in self._terrain.items():
                x, y = self._local(hexgrid.to_pixel(h))
                if box.collidepoint(x, y):
                    c += 4 if t == "land" else 1
                    if h in self._sites:
                        c += 100
            return c

        boxes = [pygame.Rect(x, y, cw, ch) for x, y in corners]
        best = min(range(4), key=lambda i: cost(boxes[i]))
        cart = boxes[best]
        placer.reserve(cart)
        _draw_cartouche(surf, cart, t1, t2, S)
        # the compass: the emptiest other corner, large where it covers no hex
        hex_boxes = [pygame.Rect(int(x - S), int(y - S), int(2 * S), int(2 * S))
                     for x, y in (self._local(hexgrid.to_pixel(h)) for h in self._terrain)]
        cb = None
        for k in (6.0, 4.2):
            compass_d = int(S * k)
            cboxes = []
            for x, y in ((m, m), (W - m - compass_d, m), (m, H - m - compass_d), (W - m - compass_d, H - m - compass_d)):
                b = pygame.Rect(x, y, compass_d, compass_d)
                if not b.colliderect(cart.inflate(S, S)) and placer.bounds.contains(b):
                    cboxes.append(b)
            free = [b for b in cboxes if b.collidelist(hex_boxes) == -1]
            if free:
                cb = free[0]
                break
            if k == 4.2 and cboxes:
                cb = min(cboxes, key=cost)
        if cb is not None:
            placer.reserve(cb)
            _draw_compass(surf, cb, S)
        # a legend of the symbols, only where it covers no hex of the board
        for k in (1.3, 1.0):
            lw, lh = self._legend_size(S * k)
            spots = []
            for side_x in (m, W - m - lw):
                spots.append(pygame.Rect(side_x, H - m - lh, lw, lh))
                spots.append(pygame.Rect(side_x, cart.bottom + m, lw, lh))
                if cb is not None:
                    spots.append(pygame.Rect(side_x, cb.bottom + m, lw, lh))
            for spot in spots:
                if (placer.bounds.contains(spot) and spot.collidelist(hex_boxes) == -1
                        and placer.is_free(spot)):
                    placer.reserve(spot)
                    surf.blit(self._legend(S * k), spot.topleft)
                    return

    def _legend_size(self, S: float) -> tuple[int, int]:
        row_f = theme.font("serif", max(12, S * 0.6), scaled=False)
        sea_f = theme.font("serif_italic", max(12, S * 0.6), scaled=False)
        row_h = int(max(16, S * 1.05))
        pad = int(max(8, S * 0.5))
        col_w = max(row_f.size(self._texts["symbol." + s])[0] for s in icons.CITY_SYMBOLS) + row_h + pad
        sea_w = max(sea_f.size(sea.name)[0] for sea in self._seas.values()) + row_h + pad // 2
        head_f = theme.font("smallcaps", max(13, S * 0.72), scaled=False)
        other = max(head_f.size(self._texts["legend.cities"])[0], head_f.size(self._texts["legend.seas"])[0],
                    row_f.size(self._texts["legend.barrier"])[0] + int(row_h * 1.9))
        rows = 1 + 4 + 1 + len(self._seas) + 1
        return max(2 * col_w, sea_w, other) + 2 * pad, rows * row_h + 2 * pad + int(row_h * 0.6)

    def _legend(self, S: float) -> pygame.Surface:
        """A parchment card: the city symbols, the seas with their harbor symbols, a barrier."""
        head_f = theme.font("smallcaps", max(13, S * 0.72), scaled=False)
        row_f = theme.font("serif", max(12, S * 0.6), scaled=False)
        sea_f = theme.font("serif_italic", max(12, S * 0.6), scaled=False)
        row_h = int(max(16, S * 1.05))
        badge_r = int(row_h * 0.42)
        pad = int(max(8, S * 0.5))
        west = [s for s in icons.CITY_SYMBOLS[:4]]
        east = [s for s in icons.CITY_SYMBOLS[4:]]
        col_w = max(row_f.size(self._texts["symbol." + s])[0] for s in icons.CITY_SYMBOLS) + row_h + pad
        width, height = self._legend_size(S)
        card = pygame.Surface((width, height), pygame.SRCALPHA)
        body = textures.textured((width, height), theme.PARCHMENT, 33, ((5, 215, 255),), True).copy()
        mask = pygame.Surface((width, height), pygame.SRCALPHA)
        rad = int(S * 0.4)
        pygame.draw.rect(mask, (255, 255, 255, 235), mask.get_rect().inflate(-4, -4), 0, rad)
        card.blit(textures.apply_mask(body, mask), (0, 0))
        pygame.draw.rect(card, (*theme.INK, 255), card.get_rect().inflate(-4, -4), max(2, int(S * 0.07)), rad)
        y = pad

        def badge(kind, sym):
            return self._badge(SimpleNamespace(kind=kind, symbol=sym if kind == "city" else None,
                                               sea=sym if kind == "harbor" else None), badge_r)

        card.blit(head_f.render(self._texts["legend.cities"], True, theme.INK), (pad, y))
        y += row_h
        for i in range(4):
            for col, sym in ((0, west[i]), (1, east[i])):
                x = pad + col * col_w
                b = badge("city", sym)
                card.blit(b, b.get_rect(center=(x + row_h // 2, y + row_h // 2)))
                t = row_f.render(self._texts["symbol." + sym], True, theme.INK)
                card.blit(t, (x + row_h + 4, y + (row_h - t.get_height()) // 2))
            y += row_h
        y += int(row_h * 0.3)
        card.blit(head_f.render(self._texts["legend.seas"], True, theme.INK), (pad, y))
        y += row_h
        for sea in self._seas.values():
            b = badge("harbor", sea.id)
            card.blit(b, b.get_rect(center=(pad + row_h // 2, y + row_h // 2)))
            t = sea_f.render(sea.name, True, theme.HARBOR_TEXT)
            card.blit(t, (pad + row_h + 4, y + (row_h - t.get_height()) // 2))
            y += row_h
        y += int(row_h * 0.3)
        # a barrier sample
        a, b2 = (pad + 2, y + row_h * 0.7), (pad + row_h * 1.6, y + row_h * 0.7)
        pieces.thick_polyline(card, theme.BARRIER, [a, b2], max(3.0, S * 0.2), closed=False)
        for t in (0.3, 0.75):
            mx = a[0] + (b2[0] - a[0]) * t
            hb, hg = row_h * 0.22, row_h * 0.45
            pygame.draw.polygon(card, theme.BARRIER_PEAK, [(mx - hb, a[1]), (mx, a[1] - hg), (mx + hb, a[1])])
            pygame.draw.polygon(card, (238, 232, 220), [(mx, a[1] - hg), (mx - hb * 0.3, a[1] - hg * 0.7),
                                                        (mx + hb * 0.3, a[1] - hg * 0.7)])
        t = row_f.render(self._texts["legend.barrier"], True, theme.INK)
        card.blit(t, (pad + int(row_h * 1.9), y + (row_h - t.get_height()) // 2))
        return card

    # ------------------------------------------------------------ dynamic layers

    def draw(self, surface: pygame.Surface, *, fiefs: Iterable[FiefSpec] = (), rings: Mapping[Hex, object] | None = None,
             highlights: Iterable[Hex] = (), faint: Iterable[Hex] = (), ghost: tuple | None = None,
             objective_cities: Iterable[Hex] = (), flourishing: Iterable[str] | None = None) -> None:
        """Static layer and every dynamic layer in order. ``ghost`` = (cells, castles, ok)."""
        self.draw_static(surface)
        if flourishing is not None:
            self.draw_flourishing(surface, flourishing)
        self.draw_objective_cities(surface, objective_cities)
        fiefs = list(fiefs)
        self.draw_fiefs(surface, fiefs)
        if rings:
            self.draw_rings(surface, rings, [c for _seat, _cells, cs in fiefs for c in cs])
        self.draw_highlight(surface, faint, strong=False)
        self.draw_highlight(surface, highlights, strong=True)
        if ghost is not None:
            self.draw_ghost(surface, *ghost)

    def draw_fiefs(self, surface: pygame.Surface, fiefs: Iterable[FiefSpec]) -> None:
        """Each fief (seat, cells, castles) as one outlined polygon with castle markers;
        the badges of the sites under it stay visible on top."""
        for seat, cells, castles in fiefs:
            cells_t = tuple(sorted(c for c in cells if c in self._terrain))
            if not cells_t:
                continue
            cast = tuple(sorted(c for c in castles if c in self._terrain))
            key = ("fief", theme.seat_name(seat), cells_t, cast)
            spr = self._sprites.get(key)
            if spr is None:
                under = [c for c in cells_t if c in self._sites]
                spr = pieces.fief_sprite(cells_t, cast, self._size, theme.seat_color(seat), theme.seat_dark(seat),
                                         theme.seat_light(seat), alpha=226, skip_castle_at=under,
                                         pattern=theme.seat_pattern(seat))
                spr = (self._with_sites(spr, cells_t), spr[1])
                if len(self._sprites) > 400:
                    self._sprites.clear()
                self._sprites[key] = spr
            img, (mx, my) = spr
            surface.blit(img, (int(self._ox + mx), int(self._oy + my)))

    def _with_sites(self, spr, cells) -> pygame.Surface:
        img, (mx, my) = spr
        img = img.copy()
        for c in cells:
            site = self._sites.get(c)
            if site is None:
                continue
            r = int(self._badge_radius(site) * 0.8)
            b = self._badge(site, r)
            x, y = hexgrid.to_pixel(c, self._size)
            img.blit(b, b.get_rect(center=(int(x - mx), int(y - my + self._size * 0.12))))
        return img

    def draw_rings(self, surface: pygame.Surface, rings: Mapping[Hex, object], castles: Iterable[Hex] = ()) -> None:
        """A ring glyph in the seat's colour on each hex (drawn above fiefs). On a site or on
        one of ``castles`` (the castle cells of the fiefs drawn) the ring moves to the hex's
        side, smaller, so that the badge or the castle stays visible."""
        big = int(self._size * 1.05)
        small = int(self._size * 0.8)
        busy = set(castles)
        for h, seat in rings.items():
            if h not in self._terrain:
                continue
            x, y = self.hex_to_screen(h)
            if h in self._sites or h in busy:
                g = pieces.ring_glyph(seat, small)
                x += self._size * 0.5
                y -= self._size * 0.3
            else:
                g = pieces.ring_glyph(seat, big)
            surface.blit(g, g.get_rect(center=(int(x), int(y))))

    def _hex_stamp(self, kind: str) -> pygame.Surface:
        key = ("stamp", kind)
        s = self._stamps.get(key)
        if s is not None:
            return s
        S = self._size
        w, h = int(math.ceil(S * SQRT3)) + 4, int(math.ceil(S * 2)) + 4
        s = pygame.Surface((w, h), pygame.SRCALPHA)
        c = (w / 2, h / 2)
        pts = [(c[0] + x, c[1] + y) for x, y in hexgrid.corners((0, 0), S)]
        inner = [(c[0] + x * 0.86, c[1] + y * 0.86) for x, y in hexgrid.corners((0, 0), S)]
        if kind == "strong":
            pygame.draw.polygon(s, (*theme.HIGHLIGHT, 95), pts)
            pieces.thick_polyline(s, (*theme.HIGHLIGHT_RIM, 120), inner, max(3.0, S * 0.2))
            pieces.thick_polyline(s, (*theme.HIGHLIGHT_EDGE, 240), inner, max(2.0, S * 0.1))
        elif kind == "faint":
            pygame.draw.polygon(s, (*theme.HIGHLIGHT, 45), pts)
            pieces.thick_polyline(s, (*theme.HIGHLIGHT_EDGE, 120), inner, max(1.0, S * 0.05))
        self._stamps[key] = s
        return s

    def draw_highlight(self, surface: pygame.Surface, hexes: Iterable[Hex], strong: bool = True) -> None:
        st = self._hex_stamp("strong" if strong else "faint")
        for h in hexes:
            if h in self._terrain:
                x, y = self.hex_to_screen(h)
                surface.blit(st, st.get_rect(center=(int(round(x)), int(round(y)))))

    def draw_ghost(self, surface: pygame.Surface, cells: Iterable[Hex], castles: Iterable[Hex], ok: bool) -> None:
        """The fief being placed: green when legal (``ok``), red when not. Off-map cells are
        drawn too (as a hint), clipped to nothing else."""
        cells_t = tuple(sorted(set(cells)))
        if not cells_t:
            return
        # cached by shape, not by place: dragging the ghost around costs a blit per frame
        base = cells_t[0]
        shape = tuple(hexgrid.sub(c, base) for c in cells_t)
        cast = tuple(sorted(hexgrid.sub(c, base) for c in set(castles)))
        key = ("ghost", bool(ok), shape, cast)
        spr = self._sprites.get(key)
        if spr is None:
            fill = theme.GHOST_OK if ok else theme.GHOST_BAD
            spr = pieces.fief_sprite(shape, cast, self._size, fill, (255, 255, 255),
                                     theme.lerp(fill, (255, 255, 255), 0.5), alpha=150,
                                     castle_fill=(255, 255, 255), castle_alpha=200)
            if len(self._sprites) > 400:
                self._sprites.clear()
            self._sprites[key] = spr
        img, (mx, my) = spr
        bx, by = hexgrid.to_pixel(base, self._size)
        surface.blit(img, (int(round(self._ox + bx + mx)), int(round(self._oy + by + my))))

    def draw_objective_cities(self, surface: pygame.Surface, hexes: Iterable[Hex]) -> None:
        key = ("objective",)
        st = self._stamps.get(key)
        if st is None:
            S = self._size
            d = int(S * 1.9)
            st = pygame.Surface((d, d), pygame.SRCALPHA)
            c = (d / 2, d / 2)
            pygame.draw.circle(st, (255, 255, 255, 200), c, d / 2 - 1, max(2, int(S * 0.2)))
            pygame.draw.circle(st, (*theme.OBJECTIVE, 255), c, d / 2 - max(2, int(S * 0.05)), max(2, int(S * 0.12)))
            self._stamps[key] = st
        for h in hexes:
            if h in self._terrain:
                x, y = self.hex_to_screen(h)
                surface.blit(st, st.get_rect(center=(int(x), int(y))))

    def draw_flourishing(self, surface: pygame.Surface, flourishing: Iterable[str]) -> None:
        """A gold seal by each flourishing region's name, a grey one by the inactive ones."""
        self.static_layer()
        fl = set(flourishing)
        for reg, (x, y) in self._seal_at.items():
            st = self._seal(reg in fl)
            surface.blit(st, st.get_rect(center=(int(x) + self._rect.x, int(y) + self._rect.y)))

    def _seal(self, flourishing: bool) -> pygame.Surface:
        key = ("seal", flourishing)
        s = self._stamps.get(key)
        if s is not None:
            return s
        S = self._size
        d = max(12, int(S * 0.9))
        K = 4
        big = pygame.Surface((d * K, d * K), pygame.SRCALPHA)
        c = (d * K / 2, d * K / 2)
        R = d * K / 2 - K
        col = theme.FLOURISH if flourishing else theme.INACTIVE
        dark = theme.lerp(col, (0, 0, 0), 0.45)
        # wavy wax edge
        pts = []
        for i in range(48):
            a = 2 * math.pi * i / 48
            rr = R * (0.93 + 0.07 * math.cos(a * 12))
            pts.append((c[0] + rr * math.cos(a), c[1] + rr * math.sin(a)))
        pygame.draw.polygon(big, (*dark, 255), pts)
        pygame.draw.circle(big, (*col, 255), c, R * 0.82)
        pygame.draw.circle(big, (*dark, 255), c, R * 0.68, K)
        if flourishing:  # a sun
            for i in range(8):
                a = 2 * math.pi * i / 8
                tip = (c[0] + R * 0.6 * math.cos(a), c[1] + R * 0.6 * math.sin(a))
                l = (c[0] + R * 0.28 * math.cos(a - 0.35), c[1] + R * 0.28 * math.sin(a - 0.35))
                r = (c[0] + R * 0.28 * math.cos(a + 0.35), c[1] + R * 0.28 * math.sin(a + 0.35))
                pygame.draw.polygon(big, (*dark, 255), [l, tip, r])
            pygame.draw.circle(big, (255, 236, 160, 255), c, R * 0.28)
            pygame.draw.circle(big, (*dark, 255), c, R * 0.28, K)
        else:  # a crescent moon: dormant
            pygame.draw.circle(big, (*dark, 255), c, R * 0.42)
            pygame.draw.circle(big, (*col, 255), (c[0] + R * 0.18, c[1] - R * 0.1), R * 0.38)
        s = pygame.transform.smoothscale(big, (d, d))
        self._stamps[key] = s
        return s


# ---------------------------------------------------------------- decorations



def _draw_cartouche(surf: pygame.Surface, box: pygame.Rect, t1: pygame.Surface, t2: pygame.Surface, S: float) -> None:
    panel = pygame.Surface(box.size, pygame.SRCALPHA)
    r = int(S * 0.5)
    pygame.draw.rect(panel, (30, 20, 10, 90), panel.get_rect().move(3, 4), 0, r)
    body = textures.textured(box.size, theme.PARCHMENT, 31, ((6, 215, 255),), True).copy()
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
        l = (c[0] + R * width * math.cos(a - math.pi / 2), c[1] + R * width * math.sin(a - math.pi / 2))
        r = (c[0] + R * width * math.cos(a + math.pi / 2), c[1] + R * width * math.sin(a + math.pi / 2))
        pygame.draw.polygon(big, (*theme.PARCHMENT, 255), [c, l, tip])
        pygame.draw.polygon(big, (*theme.INK, 255), [c, tip, r])
        pygame.draw.aalines(big, (*theme.INK, 255), True, [l, tip, r, c])
    pygame.draw.circle(big, (*theme.GOLD, 255), c, R * 0.07)
    img = pygame.transform.smoothscale(big, (d, d))
    surf.blit(img, box.topleft)
    f = theme.font("serif", max(11, d * 0.14), scaled=False)
    n = theme.render_text("N", f, theme.INK, halo=theme.PARCHMENT, halo_px=1)
    surf.blit(n, n.get_rect(midbottom=(box.centerx, box.y + int(d * 0.1) + 2)))


# ---------------------------------------------------------------- coastline data

def _load_coastline(content) -> list[tuple[list[tuple[float, float]], bool]]:
    """Polygons (ring, is_hole) in hex units from the board's coastline file, or []."""
    name = getattr(content.board.render, "coastline", None)
    if not name:
        return []
    path = Path(content.directory) / name
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return []
    return _parse_coastline(raw)


def _parse_coastline(raw) -> list[tuple[list[tuple[float, float]], bool]]:
    out: list[tuple[list[tuple[float, float]], bool]] = []

    def ring(pts):
        return [(float(p[0]), float(p[1])) for p in pts]

    polys = raw.get("polygons", raw) if isinstance(raw, dict) else raw
    for poly in polys or []:
        if isinstance(poly, dict):
            outer = poly.get("outer") or poly.get("exterior") or poly.get("points") or []
            out.append((ring(outer), False))
            for hole in poly.get("holes") or poly.get("interiors") or []:
                out.append((ring(hole), True))
        elif poly and isinstance(poly[0], (list, tuple)) and poly[0] and isinstance(poly[0][0], (list, tuple)):
            out.append((ring(poly[0]), False))
            for hole in poly[1:]:
                out.append((ring(hole), True))
        elif poly:
            out.append((ring(poly), False))
    return out
