"""What is drawn over the board's static layer each frame (see ``board_view``): fiefs, rings,
highlights, the ghost of the fief being placed and its mark, the "+N" tags, the objective's cities,
the flourishing seals, site names over the pieces. Everything follows the camera; sprites are
cached per size, so a frame is a few blits."""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Optional

import pygame

from ..rules import hexgrid
from ..rules.hexgrid import Hex
from . import pieces, theme
from .board_camera import BoardCamera
from .board_frame import Layer
from .board_map import BoardMap
from .board_stamps import Stamps, badge_radius, mark_icon

__all__ = ["PiecesLayer", "mark_icon"]

FiefSpec = tuple  # (seat, cells, castles)
#: a fief's sprite and its top-left relative to hex (0, 0)'s centre (pixels)
Sprite = tuple[pygame.Surface, tuple[float, float]]


class PiecesLayer:
    """The pieces and marks of ``board`` where ``camera`` shows them. ``sprite_budget``: new fief
    sprites made per frame (right after a zoom the others are scaled from another size)."""

    def __init__(self, board: BoardMap, camera: BoardCamera) -> None:
        self.board = board
        self.camera = camera
        self.stamps = Stamps(board.seas)
        self.sprites: dict[tuple, Sprite] = {}
        self.any_size: dict[tuple, tuple[float, Sprite]] = {}  # a fief's sprite at some size
        self.scaled: dict[tuple, Sprite] = {}  # fief sprites scaled from another size, meanwhile
        self.sprite_budget = 1
        self.made_this_frame = 0

    def clear(self) -> None:
        """Forget every sprite and stamp (the board's size changed)."""
        self.sprites.clear()
        self.any_size.clear()
        self.scaled.clear()
        self.stamps.clear()

    def new_frame(self) -> None:
        self.made_this_frame = 0

    def _sk(self) -> float:
        """The current hex size as a cache key."""
        return round(self.camera.size, 2)

    def _cache_sprite(self, key: tuple, spr: Sprite) -> None:
        if len(self.sprites) > 900:
            self.sprites.clear()
            self.any_size.clear()
        self.sprites[key] = spr
        self.any_size[key[:-1]] = (key[-1], spr)

    def draw_fiefs(self, surface: pygame.Surface, fiefs: Iterable[FiefSpec]) -> None:
        """Each fief (seat, cells, castles) as one outlined polygon with its seat's pattern
        and castle markers; the badges of the sites under it stay visible on top. Sprites
        are cached per size; right after a zoom only ``sprite_budget`` new ones are made
        per frame, the others are scaled from another size meanwhile."""
        cam = self.camera
        sk = self._sk()
        near = cam.rect.inflate(cam.size * 20, cam.size * 20)  # a fief spans a few hexes
        for seat, cells, castles in fiefs:
            cells_t = tuple(sorted(c for c in cells if c in self.board.terrain))
            if not cells_t or not near.collidepoint(cam.hex_to_screen(cells_t[0])):
                continue  # off the map, or out of the view (zoomed in)
            cast = tuple(sorted(c for c in castles if c in self.board.terrain))
            key = ("fief", theme.seat_name(seat), cells_t, cast, sk)
            spr = self.sprites.get(key)
            if spr is None:
                other = self.any_size.get(key[:-1])
                if other is not None and self.made_this_frame >= self.sprite_budget:
                    tmp = self.scaled.get(key)
                    if tmp is None:
                        (osk, (oimg, (omx, omy))) = other
                        k = cam.size / osk
                        img = pygame.transform.scale(oimg, (max(1, int(oimg.get_width() * k)),
                                                            max(1, int(oimg.get_height() * k))))
                        if len(self.scaled) > 300:
                            self.scaled.clear()
                        tmp = self.scaled[key] = (img, (omx * k, omy * k))
                    img, (mx, my) = tmp
                    surface.blit(img, (int(cam.ox + mx), int(cam.oy + my)))
                    continue
                self.made_this_frame += 1
                under = [c for c in cells_t if c in self.board.sites]
                pal = theme.MAP
                spr = pieces.fief_sprite(cells_t, cast, cam.size, theme.seat_color(seat), theme.seat_dark(seat),
                                         theme.seat_light(seat), alpha=pal.fief_alpha, skip_castle_at=under,
                                         pattern=theme.seat_pattern(seat), pattern_color=theme.seat_mark(seat),
                                         pattern_alpha=pal.pattern_alpha, castle_fill=pal.castle, halo=pal.fief_halo)
                spr = (self._with_sites(spr, cells_t), spr[1])
                self._cache_sprite(key, spr)
                self.scaled.pop(key, None)
            img, (mx, my) = spr
            surface.blit(img, (int(cam.ox + mx), int(cam.oy + my)))

    def _with_sites(self, spr: Sprite, cells: Iterable[Hex]) -> pygame.Surface:
        cam = self.camera
        img, (mx, my) = spr
        img = img.copy()
        for c in cells:
            site = self.board.sites.get(c)
            if site is None:
                continue
            r = int(badge_radius(site, cam.size) * 0.8)
            b = self.stamps.badge(site, r)
            x, y = hexgrid.to_pixel(c, cam.size)
            img.blit(b, b.get_rect(center=(int(x - mx), int(y - my + cam.size * 0.12))))
        return img

    def draw_rings(self, surface: pygame.Surface, rings: Mapping[Hex, object], castles: Iterable[Hex] = ()) -> None:
        """A large ring in the seat's colour around each hex's centre (drawn above fiefs),
        with the seat's crest as its stone: what it sits on (a site's badge, a castle)
        shows through the ring."""
        cam = self.camera
        size = int(cam.size * 1.75)
        near = cam.rect.inflate(cam.size * 4, cam.size * 4)
        for h, seat in rings.items():
            if h not in self.board.terrain:
                continue
            x, y = cam.hex_to_screen(h)
            if not near.collidepoint(x, y):
                continue
            g = pieces.ring_glyph(seat, size)
            surface.blit(g, g.get_rect(center=(int(x), int(y - cam.size * 0.1))))

    def draw_highlight(self, surface: pygame.Surface, hexes: Iterable[Hex], strong: bool = True,
                       kind: Optional[str] = None) -> None:
        """Stamps on ``hexes``: "strong" (legal anchors), "faint" (legal turned), "cover"
        (hexes a fief could cover), "best" (a plan's best spot)."""
        cam = self.camera
        st = self.stamps.hex(kind or ("strong" if strong else "faint"), cam.size)
        r = cam.rect.inflate(st.get_width(), st.get_height())
        for h in hexes:
            if h in self.board.terrain:
                x, y = cam.hex_to_screen(h)
                if r.collidepoint(x, y):
                    surface.blit(st, st.get_rect(center=(int(round(x)), int(round(y)))))

    def draw_ghost(self, surface: pygame.Surface, cells: Iterable[Hex], castles: Iterable[Hex], ok: bool,
                   anchor: Optional[Hex] = None) -> None:
        """The fief being placed: green with a check mark when legal (``ok``), red with a
        cross when not (a shape besides the colour). The mark sits on ``anchor`` (the cell
        the highlighted hexes refer to), else on the first cell. The site badges under
        the ghost stay visible. Off-map cells are drawn too (as a hint)."""
        cam = self.camera
        cells_t = tuple(sorted(set(cells)))
        if not cells_t:
            return
        # cached by shape, not by place: dragging the ghost around costs a blit per frame
        base = cells_t[0]
        shape = tuple(hexgrid.sub(c, base) for c in cells_t)
        cast = tuple(sorted(hexgrid.sub(c, base) for c in set(castles)))
        key = ("ghost", bool(ok), shape, cast, self._sk())
        spr = self.sprites.get(key)
        if spr is None:
            pal = theme.MAP
            fill = theme.GHOST_OK if ok else theme.GHOST_BAD
            spr = pieces.fief_sprite(shape, cast, cam.size, fill, pal.ghost_edge,
                                     theme.lerp(fill, (255, 255, 255), 0.5), alpha=pal.ghost_alpha,
                                     castle_fill=(255, 255, 255), castle_alpha=200,
                                     pattern="none" if ok else "stripes", pattern_color=pal.ghost_pattern,
                                     halo=pal.fief_halo)
            self._cache_sprite(key, spr)
        img, (mx, my) = spr
        bx, by = hexgrid.to_pixel(base, cam.size)
        surface.blit(img, (int(round(cam.ox + bx + mx)), int(round(cam.oy + by + my))))
        S = cam.size
        for c in cells_t:
            site = self.board.sites.get(c)
            if site is not None:
                b = self.stamps.badge(site, int(badge_radius(site, cam.size) * 0.8))
                x, y = cam.hex_to_screen(c)
                surface.blit(b, b.get_rect(center=(int(x), int(y + S * 0.12))))
        at = anchor if anchor in cells_t else base
        mark = self._mark(bool(ok))
        x, y = cam.hex_to_screen(at)
        if at in self.board.sites:  # beside the badge, not on it
            x, y = x + S * 0.55, y - S * 0.45
        surface.blit(mark, mark.get_rect(center=(int(x), int(y))))

    def _mark(self, ok: bool) -> pygame.Surface:
        """A check mark (legal) or a cross (not legal) in a disc: the ghost's shape signal."""
        cam = self.camera
        return mark_icon(ok, max(14, int(cam.size * 0.95)))

    def draw_label(self, surface: pygame.Surface, h: Hex, text: str, ok: bool = True) -> None:
        """A small "+N" tag above hex ``h`` (the planning preview's best spot)."""
        cam = self.camera
        pal = theme.MAP
        img = theme.render_text(text, theme.font("sans_bold", max(13, min(22, cam.size * 0.8))), pal.tag_text)
        x, y = cam.hex_to_screen(h)
        box = img.get_rect(midbottom=(int(x), int(y - cam.size * 0.9))).inflate(12, 6)
        tag = pygame.Surface(box.size, pygame.SRCALPHA)  # a see-through tag with a white edge
        pygame.draw.rect(tag, (pal.tag_ok if ok else pal.tag_bad) + (235 if pal.textured else 255,), tag.get_rect(), 0, 6)
        surface.blit(tag, box.topleft)
        pygame.draw.rect(surface, (255, 255, 255), box, 2, 6)
        surface.blit(img, img.get_rect(center=box.center))

    def draw_objective_cities(self, surface: pygame.Surface, hexes: Iterable[Hex]) -> None:
        cam = self.camera
        st = self.stamps.objective(cam.size)
        for h in hexes:
            if h in self.board.terrain:
                x, y = cam.hex_to_screen(h)
                surface.blit(st, st.get_rect(center=(int(x), int(y))))

    def draw_flourishing(self, surface: pygame.Surface, layer: Layer, flourishing: Iterable[str]) -> None:
        """A gold seal by each flourishing region's name (where ``layer`` placed it), a grey one
        by the inactive ones."""
        cam = self.camera
        fl = set(flourishing)
        S = cam.size
        for reg, (hx, hy) in layer.seals.items():
            st = self.stamps.seal(reg in fl, S)
            surface.blit(st, st.get_rect(center=(int(cam.ox + hx * S), int(cam.oy + hy * S))))

    def draw_site_names(self, surface: pygame.Surface, layer: Layer,
                        hexes: Optional[Iterable[Hex]] = None) -> None:
        """The names of the sites on ``hexes`` (default: every site) again as ``layer`` placed
        them, above the pieces drawn so far: a piece never hides a name."""
        cam = self.camera
        S = cam.size
        for h in (layer.names if hexes is None else hexes):
            item = layer.names.get(h)
            if item is None:
                continue
            img, (hx, hy) = item
            surface.blit(img, (int(round(cam.ox + hx * S)), int(round(cam.oy + hy * S))))
