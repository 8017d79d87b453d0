"""The board's static layer (see ``board_view``): land and sea, the grid, the borders and
barriers; the names (``board_names``) and the decorations (``board_decor``) go on it too.
A layer is built from a :class:`~.board_frame.LayerFrame` alone, on any thread."""
from __future__ import annotations

import math
import threading
from collections.abc import Callable, Mapping

import pygame

from ..rules import hexgrid
from ..rules.hexgrid import Hex
from . import pieces, textures, theme
from .board_decor import Decorations
from .board_frame import BuiltLayer, Layer, LayerFrame
from .board_map import BoardMap, parse_coastline
from .board_names import BoardNames
from .board_stamps import Stamps
from .labels import LabelPlacer

__all__ = ["StaticLayerBuilder", "build_layer", "parse_coastline"]
_parse_coastline = parse_coastline  # the name tests/test_render.py imports

# corner indices (hexgrid.corners order) of the side facing each direction (hexgrid.edge_corners)
_EDGE_CORNERS = {0: (1, 2), 1: (0, 1), 2: (5, 0), 3: (4, 5), 4: (3, 4), 5: (2, 3)}


class StaticLayerBuilder:
    """Builds one static layer of ``board`` as ``frame`` places it: call :meth:`build` once.
    ``decorations``: the title cartouche (with ``title``), the compass rose and the legend (in
    the words of ``texts``). Its own stamp cache: a build may run on another thread."""

    def __init__(self, board: BoardMap, frame: LayerFrame, *, title: str, decorations: bool,
                 texts: Mapping[str, str]) -> None:
        self.board = board
        self.frame = frame
        self.out = BuiltLayer()
        self.stamps = Stamps(board.seas)
        self.names = BoardNames(board, frame, self.stamps, self.out)
        self.decor = Decorations(board, frame, title, texts, self.stamps) if decorations else None

    def build(self) -> pygame.Surface:
        """The layer's surface; what was placed on it is in :attr:`out`."""
        f = self.frame
        W, H = f.w, f.h
        S = f.size
        surf = pygame.Surface((W, H))
        # 1. the table (off the board): deep sea, darker than the board's own sea
        # 2. the board's own sea (every map hex), then land
        half = (max(1, W // 2), max(1, H // 2))
        hs = S / 2.0
        ox2, oy2 = f.ox / 2.0, f.oy / 2.0
        unit = self.board.unit_corners

        def poly_half(h: Hex, scale: float = 1.0) -> list[tuple[float, float]]:
            cx, cy = hexgrid.to_pixel(h, hs)
            return [(ox2 + cx + x * hs * scale, oy2 + cy + y * hs * scale) for x, y in unit]

        # the board's hexes are holes (colour key) in the table, laid over the sea
        pal = theme.MAP
        surf.blit(textures.ground((W, H), theme.SEA, 12, ((14, 205, 255), (48, 228, 255)), True,
                                  textured_=pal.textured), (0, 0))
        table = textures.ground((W, H), theme.SEA_TABLE, 11, ((10, 190, 255), (40, 225, 255)), False,
                                textured_=pal.textured).copy()
        key = (255, 0, 255)
        board_half = pygame.Surface(half, pygame.SRCALPHA)
        board_half.fill((255, 255, 255, 0))
        for h in self.board.terrain:
            pygame.draw.polygon(table, key, f.local_poly(h, unit, 1.0))
            pygame.draw.polygon(board_half, (255, 255, 255, 255), poly_half(h, 1.0))
        table.set_colorkey(key)
        surf.blit(table, (0, 0))

        f.checkpoint()
        land_mask = self._land_mask(half, poly_half, hs, ox2, oy2)
        f.checkpoint()
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
            water.blit(textures.colored_mask(band_out, pal.ripple, alpha), (0, 0))
        water.blit(board_half, (0, 0), special_flags=pygame.BLEND_RGBA_MULT)  # none off the board
        surf.blit(pygame.transform.smoothscale(water, (W, H)), (0, 0))
        # land: region colours on parchment
        colours = pygame.Surface((W, H), pygame.SRCALPHA)
        colours.fill((*theme.PARCHMENT, 255))
        tints: dict[str, theme.Color] = {}
        for h, reg in self.board.region_of.items():
            col = tints.get(reg)
            if col is None:
                col = tints[reg] = theme.region_tint(theme.hex_color(self.board.regions[reg].color))
            pygame.draw.polygon(colours, col, f.local_poly(h, unit, 1.04))
        if pal.textured:
            colours.blit(textures.noise((W, H), 21, ((12, 205, 255), (50, 222, 255))), (0, 0),
                         special_flags=pygame.BLEND_MULT)
        land_full = pygame.transform.smoothscale(land_mask, (W, H))
        # a thin dark coast line: the land mask grown by a pixel, in ink, under the land
        coast_line = textures.colored_mask(land_full, pal.coast[:3], pal.coast[3])
        for k in range(1, pal.coast_px + 1):  # (high contrast: two pixels wide, in black)
            for dx, dy in ((-k, 0), (k, 0), (0, -k), (0, k)):
                surf.blit(coast_line, (dx, dy))
        colours.blit(land_full, (0, 0), special_flags=pygame.BLEND_RGBA_MULT)  # alpha = the land
        surf.blit(colours, (0, 0))
        f.checkpoint()
        # 3. lines: grid, region borders, sea borders, barriers, the board's edge
        lines = pygame.Surface((W, H), pygame.SRCALPHA)
        self._draw_grid(lines)
        surf.blit(lines, (0, 0))
        self._draw_borders(surf)
        f.checkpoint()
        # 4. sites, labels, cartouche, compass
        placer = LabelPlacer(f.world, padding=max(1, int(S * 0.04)))
        self.names.reserve_badges(placer)
        # barrier peaks stay readable: reserve nothing for them (labels have halos)
        # cartouche, compass rose and legend in the emptiest corners
        if self.decor is not None:
            self.decor.place(surf, placer, self.out)
        self.names.draw(surf, placer)
        if pal.vignette:
            surf.blit(textures.vignette((W, H), pal.vignette), (0, 0), special_flags=pygame.BLEND_MULT)
        return surf

    def _land_mask(self, half: tuple[int, int], poly_half: Callable[[Hex, float], list[tuple[float, float]]],
                   hs: float, ox2: float, oy2: float) -> pygame.Surface:
        """Half-resolution alpha mask of the land as drawn: the real coastline where it
        agrees with the game's land hexes, and always the heart of every land hex."""
        mask = pygame.Surface(half, pygame.SRCALPHA)
        mask.fill((255, 255, 255, 0))
        land = [h for h, t in self.board.terrain.items() if t == "land"]
        if self.board.coast:
            real = pygame.Surface(half, pygame.SRCALPHA)
            real.fill((255, 255, 255, 0))
            for ring, is_hole in self.board.coast:
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
        if self.board.coast:
            for h, t in self.board.terrain.items():
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
        cx, cy = self.frame.local(hexgrid.to_pixel(h))
        u = self.board.unit_corners
        S = self.frame.size
        return (cx + u[i][0] * S, cy + u[i][1] * S), (cx + u[j][0] * S, cy + u[j][1] * S)

    def _draw_grid(self, lines: pygame.Surface) -> None:
        col_land = theme.MAP.grid_land
        col_sea = theme.MAP.grid_sea
        for h, t in self.board.terrain.items():
            for d in range(6):
                n = hexgrid.add(h, hexgrid.DIRECTIONS[d])
                tn = self.board.terrain.get(n)
                if tn is not None and d in (1, 2, 3):
                    continue  # each inner side once: drawn from the other hex
                a, b = self._edge(h, d)
                col = col_land if (t == "land" or tn == "land") else col_sea
                pygame.draw.line(lines, col, a, b, 1)

    def _draw_borders(self, surf: pygame.Surface) -> None:
        S = self.frame.size
        layer = pygame.Surface(surf.get_size(), pygame.SRCALPHA)
        barriers = self.board.barriers
        pal = theme.MAP
        region_w = max(1, int(round(S * pal.region_border_width)))
        sea_w = max(1, int(round(S * 0.06)))
        peaks: list[tuple[tuple[float, float], tuple[float, float]]] = []
        for h in self.board.terrain:
            for d in range(6):
                n = hexgrid.add(h, hexgrid.DIRECTIONS[d])
                if n not in self.board.terrain or n < h:
                    continue
                a, b = self._edge(h, d)
                if frozenset((h, n)) in barriers:
                    peaks.append((a, b))
                    continue
                ra, rb = self.board.region_of.get(h), self.board.region_of.get(n)
                if ra and rb and ra != rb:
                    pieces.dashed_line(layer, pal.region_border, a, b, region_w, S * 0.22, S * 0.13)
                sa, sb = self.board.sea_of.get(h), self.board.sea_of.get(n)
                if sa and sb and sa != sb:
                    pieces.dashed_line(layer, pal.sea_border, a, b, sea_w, S * 0.2, S * 0.16)
        # the board's edge
        for loop in pieces.outline_loops(self.board.terrain.keys()):
            pts = [self.frame.local(p) for p in loop]
            pieces.thick_polyline(layer, pal.board_edge, pts, max(2.0, S * 0.07))
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
                pygame.draw.polygon(surf, pal.snow, [
                    top, (top[0] + (left[0] - top[0]) * cap, top[1] + (left[1] - top[1]) * cap),
                    (top[0] + (right[0] - top[0]) * cap, top[1] + (right[1] - top[1]) * cap)])


# one static build at a time (the textures' caches are shared); builds on the worker
# thread open their own fonts (theme.font keys them by thread)
_BUILD_LOCK = threading.Lock()


def build_layer(board: BoardMap, frame: LayerFrame, zoom: float, window: pygame.Rect, *, title: str,
                decorations: bool, texts: Mapping[str, str]) -> Layer:
    """The static layer at ``zoom``, the part ``window`` (world pixels) of it, as ``frame``
    places it (any thread; :class:`~.board_frame.Cancelled` if ``frame.cancel`` is set)."""
    builder = StaticLayerBuilder(board, frame, title=title, decorations=decorations, texts=texts)
    with _BUILD_LOCK:
        surf = builder.build()
    return Layer.from_build(zoom, window, surf, frame, builder.out)
