"""The board's static layer (see ``board_view``): land and sea, the grid, the borders and
barriers, the sites' badges and every name, the title cartouche, the compass rose, the legend, and the
coastline's data. A part of :class:`BoardRenderer`, mixed in."""
from __future__ import annotations

import json
import math
from pathlib import Path
from types import SimpleNamespace

import pygame

from ..rules import hexgrid
from ..rules.hexgrid import Hex
from . import icons, pieces, textures, theme
from .labels import LabelPlacer, around, spiral

SQRT3 = hexgrid.SQRT3

# a sea's name stays at its anchor when at least this share of its box lies over the sea's
# own hexes; otherwise (a narrow sea) it is placed after the site names, within this many
# spiral rings (half a hex each) of its anchor where it lies most over its own hexes
SEA_LABEL_COVER = 0.75
SEA_LABEL_RINGS = 3

# corner indices (hexgrid.corners order) of the side facing each direction (hexgrid.edge_corners)
_EDGE_CORNERS = {0: (1, 2), 1: (0, 1), 2: (5, 0), 3: (4, 5), 4: (3, 4), 5: (2, 3)}


class StaticLayerMixin:
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

        self._checkpoint()
        land_mask = self._land_mask(half, poly_half, hs, ox2, oy2)
        self._checkpoint()
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
        self._checkpoint()
        # 3. lines: grid, region borders, sea borders, barriers, the board's edge
        lines = pygame.Surface((W, H), pygame.SRCALPHA)
        self._draw_grid(lines)
        surf.blit(lines, (0, 0))
        self._draw_borders(surf)
        self._checkpoint()
        # 4. sites, labels, cartouche, compass
        bounds = self._world if self._world is not None else pygame.Rect(0, 0, W, H)
        placer = LabelPlacer(bounds, padding=max(1, int(S * 0.04)))
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
        for h in self._terrain:
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
        self._checkpoint()
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
        # sea names (italic, spaced), inside their own seas: on one line at the anchor or the
        # nearest free spot when that lies mostly over the sea's own hexes; the name of a
        # narrow sea (the Adriatic) waits for the site names, then takes the free spot near
        # its anchor most over its hexes, on one line or two (_place_narrow_sea_names)
        narrow = []
        for sea in self._seas.values():
            ax, ay = self._local(tuple(sea.label))
            texts = self._sea_texts(sea.name)
            first = next((b for b in spiral((ax, ay), texts[0].get_size(), S * 0.5, rings=6)
                          if placer.is_free(b)), None)
            if first is None or self._sea_cover(first, sea.id) < SEA_LABEL_COVER:
                narrow.append((sea, (ax, ay), texts))
                continue
            box = placer.place([first])
            self._label_boxes.append(box)
            surf.blit(texts[0], box.topleft)
        # site badges, then their names
        for h, site in self._sites.items():
            r = self._badge_radius(site)
            cx, cy = self._local(hexgrid.to_pixel(h))
            b = self._badge(site, r)
            surf.blit(b, b.get_rect(center=(int(cx), int(cy))))
        order = sorted(self._sites.values(), key=lambda s: (s.kind != "city", s.hex))
        self._checkpoint()
        for site in order:
            r = self._badge_radius(site)
            cx, cy = self._local(hexgrid.to_pixel(site.hex))
            # never under 13 px (12 for a harbor) times the interface's text scale: on a large window
            # (2560x1440) the names grow with the rest of the screen, not only with the hexes (issue 40)
            # (but not past 0.85 of a hex: on a small map, the end screen's, they would crowd its pieces)
            least = 13 if site.kind == "city" else 12
            least = max(least, min(least * theme.text_scale(), S * 0.85))
            base_px = max(least, S * (0.66 if site.kind == "city" else 0.58))
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
            self._site_names[site.hex] = (txt, placed.topleft)  # drawn again above pieces
        self._place_narrow_sea_names(surf, placer, narrow)

    def _place_narrow_sea_names(self, surf: pygame.Surface, placer: LabelPlacer, narrow) -> None:
        """The names of seas too narrow for their name at the anchor, placed after the site
        names: among the free spots near the anchor (SEA_LABEL_RINGS), on one line or two,
        the one most over the sea's own hexes; else, as room allows, farther away."""
        S = self._size
        for sea, (ax, ay), texts in narrow:
            cands = []
            for lines, t in enumerate(texts):
                for k, b in enumerate(spiral((ax, ay), t.get_size(), S * 0.5, rings=SEA_LABEL_RINGS)):
                    ring = math.ceil((math.sqrt(k + 1) - 1) / 2)  # spiral(): 1, 8, 16, ... a ring
                    cands.append((self._sea_cover(b, sea.id) - 0.1 * lines - 0.03 * ring, b, t))
            box = placer.place_best((score, b) for score, b, _ in cands)
            txt = next((t for _, b, t in cands if b == box), None)
            if box is None:
                for t, rings in zip(texts, (6, 8)):
                    box, txt = placer.place(spiral((ax, ay), t.get_size(), S * 0.5, rings=rings)), t
                    if box is not None:
                        break
            if box is None:
                continue
            self._label_boxes.append(box)
            surf.blit(txt, box.topleft)

    def _sea_texts(self, name: str) -> list[pygame.Surface]:
        """A sea's name on one line, and (for a name of two words or more) on two lines."""
        S = self._size
        sea_px = max(13, S * 0.72)
        halo = (196, 222, 226)
        out = [theme.render_text(name, theme.font("serif_italic", sea_px, scaled=False), theme.SEA_INK,
                                 halo=halo, halo_px=max(1, int(S * 0.05)), tracking=S * 0.16)]
        words = name.split(" ", 1)
        if len(words) == 2:
            f = theme.font("serif_italic", sea_px * 0.9, scaled=False)
            a, b = (theme.render_text(w, f, theme.SEA_INK, halo=halo, halo_px=1, tracking=S * 0.1) for w in words)
            txt = pygame.Surface((max(a.get_width(), b.get_width()), a.get_height() + b.get_height() - 4),
                                 pygame.SRCALPHA)
            txt.blit(a, ((txt.get_width() - a.get_width()) // 2, 0))
            txt.blit(b, ((txt.get_width() - b.get_width()) // 2, a.get_height() - 4))
            out.append(txt)
        return out

    def _sea_cover(self, box: pygame.Rect, sea: str) -> float:
        """How much of ``box`` (static-layer pixels) lies over the hexes of ``sea``: 1 for
        its own hexes, 0.5 another sea's, 0 land or off the board; averaged over points."""
        S = self._size
        ox, oy = self._ox - self._rect.x, self._oy - self._rect.y
        nx = max(3, int(box.w / (S * 0.4)) + 1)
        total = 0.0
        for i in range(nx):
            x = box.x + box.w * (i + 0.5) / nx
            for j in range(3):
                y = box.y + box.h * (j + 0.5) / 3
                h = hexgrid.from_pixel((x - ox) / S, (y - oy) / S)
                t = self._terrain.get(h)
                total += (1.0 if self._sea_of.get(h) == sea else 0.5) if t == "sea" else 0.0
        return total / (nx * 3)

    def _place_cartouche_and_compass(self, surf: pygame.Surface, placer: LabelPlacer) -> None:
        S = self._size
        wr = placer.bounds  # the whole board's rect (a zoomed layer is a window of it)
        W, H = wr.size
        title_f = theme.font("title", max(28, S * 2.7), scaled=False)
        sub_f = theme.font("serif_italic", max(13, S * 0.8), scaled=False)
        t1 = theme.render_text(self.title, title_f, theme.INK, tracking=S * 0.1)
        t2 = theme.render_text(self.content.board.render.title, sub_f, theme.INK_SOFT, tracking=S * 0.12)
        pad = int(S * 0.5)
        cw = max(t1.get_width(), t2.get_width()) + 2 * pad + int(S * 0.8)
        ch = t1.get_height() + t2.get_height() + 2 * _rule_gap(S) + int(S * 0.5)
        m = int(S * 0.6)
        corners = [(wr.x + x, wr.y + y) for x, y in ((m, m), (W - m - cw, m), (m, H - m - ch), (W - m - cw, H - m - ch))]
        z = S / self._fit_size if self._fit_size > 0 else 1.0  # this layer's zoom
        covered = [pygame.Rect(wr.x + int(r.x * z), wr.y + int(r.y * z), int(math.ceil(r.w * z)),
                               int(math.ceil(r.h * z))) for r in self.keep_clear]

        def cost(box: pygame.Rect) -> float:
            # land hexes and sites under the box cost most; open sea little; a covered part never
            c = 1e9 if box.collidelist(covered) != -1 else 0.0
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
        self._cartouche_box = cart
        self._legend_box: pygame.Rect | None = None
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
                b = pygame.Rect(wr.x + x, wr.y + y, compass_d, compass_d)
                if not b.colliderect(cart.inflate(S, S)) and placer.bounds.contains(b) and b.collidelist(covered) == -1:
                    cboxes.append(b)
            free = [b for b in cboxes if b.collidelist(hex_boxes) == -1]
            if free:
                cb = free[0]
                break
            if k == 4.2 and cboxes:
                cb = min(cboxes, key=cost)
        self._compass_box = cb
        if cb is not None:
            placer.reserve(cb)
            _draw_compass(surf, cb, S)
        # a legend of the symbols, only where it covers no hex of the board
        for k in (1.3, 1.0):
            lw, lh = self._legend_size(S * k)
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
                    self._legend_box = spot
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
