"""The names on the board's static layer: the regions' (with a spot for each one's seal), the
seas' (inside their own seas) and the sites' (by their badges), placed where they overlap nothing
(``labels.LabelPlacer``), and the site badges themselves."""
from __future__ import annotations

import math
from typing import Any

import pygame

from ..rules import hexgrid
from . import theme
from .board_frame import BuiltLayer, LayerFrame
from .board_map import BoardMap
from .board_stamps import Stamps, badge_radius
from .labels import LabelPlacer, around, spiral

# a sea's name stays at its anchor when at least this share of its box lies over the sea's
# own hexes; otherwise (a narrow sea) it is placed after the site names, within this many
# spiral rings (half a hex each) of its anchor where it lies most over its own hexes
SEA_LABEL_COVER = 0.75
SEA_LABEL_RINGS = 3


class BoardNames:
    """The names of one layer (``frame``); what is placed goes to ``out``."""

    def __init__(self, board: BoardMap, frame: LayerFrame, stamps: Stamps, out: BuiltLayer) -> None:
        self.board = board
        self.frame = frame
        self.stamps = stamps
        self.out = out

    def reserve_badges(self, placer: LabelPlacer) -> None:
        """Fixed things first: the site badges' boxes (no name goes over a badge)."""
        f = self.frame
        for h, site in self.board.sites.items():
            r = badge_radius(site, f.size)
            cx, cy = f.local(hexgrid.to_pixel(h))
            box = pygame.Rect(0, 0, 2 * r, 2 * r)
            box.center = (int(cx), int(cy))
            placer.reserve(box)
            self.out.badge_boxes.append(box)

    def draw(self, surf: pygame.Surface, placer: LabelPlacer) -> None:
        """The region names and their seals' spots, the sea names, the site badges and names."""
        f = self.frame
        S = f.size
        # region names (small caps, spaced) with room for the seal on their left
        reg_px = max(14, S * 0.95)
        f.checkpoint()
        for reg in self.board.regions.values():
            name = reg.name
            txt = theme.render_text(name, theme.font("smallcaps", reg_px, scaled=False), theme.INK,
                                    halo=theme.MAP.region_halo, halo_px=max(1, int(S * 0.07)), tracking=S * 0.12)
            seal_d = int(S * 0.9)
            w, h = txt.get_width() + seal_d + int(S * 0.15), max(txt.get_height(), seal_d)
            ax, ay = f.local(reg.label)
            box = placer.place(spiral((ax, ay), (w, h), S * 0.5, rings=6))
            if box is None:
                txt = theme.render_text(name, theme.font("smallcaps", reg_px * 0.75, scaled=False), theme.INK,
                                        halo=theme.MAP.region_halo, halo_px=1, tracking=S * 0.06)
                w, h = txt.get_width() + seal_d + int(S * 0.15), max(txt.get_height(), seal_d)
                box = placer.place(spiral((ax, ay), (w, h), S * 0.5, rings=8))
            if box is None:
                continue
            self.out.label_boxes.append(box)
            surf.blit(txt, (box.x + seal_d + int(S * 0.15), box.centery - txt.get_height() // 2))
            self.out.seal_at[reg.id] = (box.x + seal_d / 2, box.centery)  # static-layer pixels
        # sea names (italic, spaced), inside their own seas: on one line at the anchor or the
        # nearest free spot when that lies mostly over the sea's own hexes; the name of a
        # narrow sea (the Adriatic) waits for the site names, then takes the free spot near
        # its anchor most over its hexes, on one line or two (_place_narrow_sea_names)
        narrow = []
        for sea in self.board.seas.values():
            ax, ay = f.local(sea.label)
            texts = self.sea_texts(sea.name)
            first = next((b for b in spiral((ax, ay), texts[0].get_size(), S * 0.5, rings=6)
                          if placer.is_free(b)), None)
            if first is None or self.sea_cover(first, sea.id) < SEA_LABEL_COVER:
                narrow.append((sea, (ax, ay), texts))
                continue
            box = placer.place([first])
            if box is None:  # (it was free a moment ago)
                continue
            self.out.label_boxes.append(box)
            surf.blit(texts[0], box.topleft)
        # site badges, then their names
        for at, site in self.board.sites.items():
            r = badge_radius(site, S)
            cx, cy = f.local(hexgrid.to_pixel(at))
            b = self.stamps.badge(site, r)
            surf.blit(b, b.get_rect(center=(int(cx), int(cy))))
        order = sorted(self.board.sites.values(), key=lambda s: (s.kind != "city", s.hex))
        f.checkpoint()
        for site in order:
            r = badge_radius(site, S)
            cx, cy = f.local(hexgrid.to_pixel(site.hex))
            # never under 13 px (12 for a harbor) times the interface's text scale: on a large window
            # (2560x1440) the names grow with the rest of the screen, not only with the hexes (issue 40)
            # (but not past 0.85 of a hex: on a small map, the end screen's, they would crowd its pieces)
            least: float = 13 if site.kind == "city" else 12
            least = max(least, min(least * theme.text_scale(), S * 0.85))
            base_px = max(least, S * (0.66 if site.kind == "city" else 0.58))
            placed = None
            for px in (base_px, base_px * 0.88, max(11, base_px * 0.78)):
                colour = theme.INK if site.kind == "city" else theme.HARBOR_TEXT
                txt = theme.render_text(site.name, theme.font("serif", px, scaled=False), colour,
                                        halo=theme.MAP.site_halo, halo_px=max(1, int(S * 0.05)))
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
            self.out.label_boxes.append(placed)
            surf.blit(txt, placed.topleft)
            self.out.site_names[site.hex] = (txt, placed.topleft)  # drawn again above pieces
        self._place_narrow_sea_names(surf, placer, narrow)

    def _place_narrow_sea_names(self, surf: pygame.Surface, placer: LabelPlacer,
                                narrow: list[tuple[Any, tuple[float, float], list[pygame.Surface]]]) -> None:
        """The names of seas too narrow for their name at the anchor, placed after the site
        names: among the free spots near the anchor (SEA_LABEL_RINGS), on one line or two,
        the one most over the sea's own hexes; else, as room allows, farther away."""
        S = self.frame.size
        for sea, (ax, ay), texts in narrow:
            cands = []
            for lines, t in enumerate(texts):
                for k, b in enumerate(spiral((ax, ay), t.get_size(), S * 0.5, rings=SEA_LABEL_RINGS)):
                    ring = math.ceil((math.sqrt(k + 1) - 1) / 2)  # spiral(): 1, 8, 16, ... a ring
                    cands.append((self.sea_cover(b, sea.id) - 0.1 * lines - 0.03 * ring, b, t))
            box = placer.place_best((score, b) for score, b, _ in cands)
            txt = next((t for _, b, t in cands if b == box), None)
            if box is None:
                for t, rings in zip(texts, (6, 8)):
                    box, txt = placer.place(spiral((ax, ay), t.get_size(), S * 0.5, rings=rings)), t
                    if box is not None:
                        break
            if box is None or txt is None:
                continue
            self.out.label_boxes.append(box)
            surf.blit(txt, box.topleft)

    def sea_texts(self, name: str) -> list[pygame.Surface]:
        """A sea's name on one line, and (for a name of two words or more) on two lines."""
        S = self.frame.size
        sea_px = max(13, S * 0.72)
        halo = theme.MAP.sea_halo
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

    def sea_cover(self, box: pygame.Rect, sea: str) -> float:
        """How much of ``box`` (static-layer pixels) lies over the hexes of ``sea``: 1 for
        its own hexes, 0.5 another sea's, 0 land or off the board; averaged over points."""
        S = self.frame.size
        ox, oy = self.frame.ox, self.frame.oy
        nx = max(3, int(box.w / (S * 0.4)) + 1)
        total = 0.0
        for i in range(nx):
            x = box.x + box.w * (i + 0.5) / nx
            for j in range(3):
                y = box.y + box.h * (j + 0.5) / 3
                h = hexgrid.from_pixel((x - ox) / S, (y - oy) / S)
                t = self.board.terrain.get(h)
                total += (1.0 if self.board.sea_of.get(h) == sea else 0.5) if t == "sea" else 0.0
        return total / (nx * 3)
