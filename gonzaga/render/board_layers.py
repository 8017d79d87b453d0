"""What is drawn over the board's static layer each frame (see ``board_view``): fiefs, rings,
highlights, the ghost of the fief being placed and its mark, the "+N" tags, the objective's cities,
the flourishing seals, site names over the pieces. A part of :class:`BoardRenderer`, mixed in."""
from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from typing import Optional

import pygame

from ..rules import hexgrid
from ..rules.hexgrid import Hex
from . import pieces, theme

SQRT3 = hexgrid.SQRT3
FiefSpec = tuple  # (seat, cells, castles)


class PiecesLayerMixin:
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
        if fiefs or rings:
            self.draw_site_names(surface)
        self.draw_highlight(surface, faint, strong=False)
        self.draw_highlight(surface, highlights, strong=True)
        if ghost is not None:
            self.draw_ghost(surface, *ghost)

    def _sk(self) -> float:
        """The current hex size as a cache key."""
        return round(self._size, 2)

    def _cache_sprite(self, key, spr) -> None:
        if len(self._sprites) > 900:
            self._sprites.clear()
            self._any_size.clear()
        self._sprites[key] = spr
        self._any_size[key[:-1]] = (key[-1], spr)

    def draw_fiefs(self, surface: pygame.Surface, fiefs: Iterable[FiefSpec]) -> None:
        """Each fief (seat, cells, castles) as one outlined polygon with its seat's pattern
        and castle markers; the badges of the sites under it stay visible on top. Sprites
        are cached per size; right after a zoom only ``sprite_budget`` new ones are made
        per frame, the others are scaled from another size meanwhile."""
        sk = self._sk()
        near = self._rect.inflate(self._size * 20, self._size * 20)  # a fief spans a few hexes
        for seat, cells, castles in fiefs:
            cells_t = tuple(sorted(c for c in cells if c in self._terrain))
            if not cells_t or not near.collidepoint(self.hex_to_screen(cells_t[0])):
                continue  # off the map, or out of the view (zoomed in)
            cast = tuple(sorted(c for c in castles if c in self._terrain))
            key = ("fief", theme.seat_name(seat), cells_t, cast, sk)
            spr = self._sprites.get(key)
            if spr is None:
                other = self._any_size.get(key[:-1])
                if other is not None and self._made_this_frame >= self.sprite_budget:
                    tmp = self._scaled.get(key)
                    if tmp is None:
                        (osk, (oimg, (omx, omy))) = other
                        k = self._size / osk
                        img = pygame.transform.scale(oimg, (max(1, int(oimg.get_width() * k)),
                                                            max(1, int(oimg.get_height() * k))))
                        if len(self._scaled) > 300:
                            self._scaled.clear()
                        tmp = self._scaled[key] = (img, (omx * k, omy * k))
                    img, (mx, my) = tmp
                    surface.blit(img, (int(self._ox + mx), int(self._oy + my)))
                    continue
                self._made_this_frame += 1
                under = [c for c in cells_t if c in self._sites]
                spr = pieces.fief_sprite(cells_t, cast, self._size, theme.seat_color(seat), theme.seat_dark(seat),
                                         theme.seat_light(seat), alpha=226, skip_castle_at=under,
                                         pattern=theme.seat_pattern(seat), pattern_color=theme.seat_mark(seat))
                spr = (self._with_sites(spr, cells_t), spr[1])
                self._cache_sprite(key, spr)
                self._scaled.pop(key, None)
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
        """A large ring in the seat's colour around each hex's centre (drawn above fiefs),
        with the seat's crest as its stone: what it sits on (a site's badge, a castle)
        shows through the ring."""
        size = int(self._size * 1.75)
        near = self._rect.inflate(self._size * 4, self._size * 4)
        for h, seat in rings.items():
            if h not in self._terrain:
                continue
            x, y = self.hex_to_screen(h)
            if not near.collidepoint(x, y):
                continue
            g = pieces.ring_glyph(seat, size)
            surface.blit(g, g.get_rect(center=(int(x), int(y - self._size * 0.1))))

    def _hex_stamp(self, kind: str) -> pygame.Surface:
        key = ("stamp", kind, self._sk())
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
        elif kind == "cover":  # a hex the planned fief could cover: a light wash, a thin rim
            pygame.draw.polygon(s, (*theme.HIGHLIGHT, 105), pts)
            pieces.thick_polyline(s, (*theme.HIGHLIGHT_RIM, 90), inner, max(1.0, S * 0.06))
        elif kind == "best":  # the best spot of a plan: a gold rim
            pygame.draw.polygon(s, (*theme.GOLD, 90), pts)
            pieces.thick_polyline(s, (*theme.GOLD_DARK, 230), inner, max(2.0, S * 0.14))
        self._stamps[key] = s
        return s

    def draw_highlight(self, surface: pygame.Surface, hexes: Iterable[Hex], strong: bool = True,
                       kind: Optional[str] = None) -> None:
        """Stamps on ``hexes``: "strong" (legal anchors), "faint" (legal turned), "cover"
        (hexes a fief could cover), "best" (a plan's best spot)."""
        st = self._hex_stamp(kind or ("strong" if strong else "faint"))
        r = self._rect.inflate(st.get_width(), st.get_height())
        for h in hexes:
            if h in self._terrain:
                x, y = self.hex_to_screen(h)
                if r.collidepoint(x, y):
                    surface.blit(st, st.get_rect(center=(int(round(x)), int(round(y)))))

    def draw_ghost(self, surface: pygame.Surface, cells: Iterable[Hex], castles: Iterable[Hex], ok: bool,
                   anchor: Optional[Hex] = None) -> None:
        """The fief being placed: green with a check mark when legal (``ok``), red with a
        cross when not (a shape besides the colour). The mark sits on ``anchor`` (the cell
        the highlighted hexes refer to), else on the first cell. The site badges under
        the ghost stay visible. Off-map cells are drawn too (as a hint)."""
        cells_t = tuple(sorted(set(cells)))
        if not cells_t:
            return
        # cached by shape, not by place: dragging the ghost around costs a blit per frame
        base = cells_t[0]
        shape = tuple(hexgrid.sub(c, base) for c in cells_t)
        cast = tuple(sorted(hexgrid.sub(c, base) for c in set(castles)))
        key = ("ghost", bool(ok), shape, cast, self._sk())
        spr = self._sprites.get(key)
        if spr is None:
            fill = theme.GHOST_OK if ok else theme.GHOST_BAD
            spr = pieces.fief_sprite(shape, cast, self._size, fill, (255, 255, 255),
                                     theme.lerp(fill, (255, 255, 255), 0.5), alpha=185,
                                     castle_fill=(255, 255, 255), castle_alpha=200,
                                     pattern="none" if ok else "stripes", pattern_color=(120, 10, 10))
            self._cache_sprite(key, spr)
        img, (mx, my) = spr
        bx, by = hexgrid.to_pixel(base, self._size)
        surface.blit(img, (int(round(self._ox + bx + mx)), int(round(self._oy + by + my))))
        S = self._size
        for c in cells_t:
            site = self._sites.get(c)
            if site is not None:
                b = self._badge(site, int(self._badge_radius(site) * 0.8))
                x, y = self.hex_to_screen(c)
                surface.blit(b, b.get_rect(center=(int(x), int(y + S * 0.12))))
        at = anchor if anchor in cells_t else base
        mark = self._mark(bool(ok))
        x, y = self.hex_to_screen(at)
        if at in self._sites:  # beside the badge, not on it
            x, y = x + S * 0.55, y - S * 0.45
        surface.blit(mark, mark.get_rect(center=(int(x), int(y))))

    def _mark(self, ok: bool) -> pygame.Surface:
        """A check mark (legal) or a cross (not legal) in a disc: the ghost's shape signal."""
        return mark_icon(ok, max(14, int(self._size * 0.95)))

    def draw_label(self, surface: pygame.Surface, h: Hex, text: str, ok: bool = True) -> None:
        """A small "+N" tag above hex ``h`` (the planning preview's best spot)."""
        img = theme.render_text(text, theme.font("sans_bold", max(13, min(22, self._size * 0.8))), (255, 255, 255))
        x, y = self.hex_to_screen(h)
        box = img.get_rect(midbottom=(int(x), int(y - self._size * 0.9))).inflate(12, 6)
        tag = pygame.Surface(box.size, pygame.SRCALPHA)  # a see-through tag with a white edge
        pygame.draw.rect(tag, ((120, 88, 28) if ok else (150, 30, 24)) + (235,), tag.get_rect(), 0, 6)
        surface.blit(tag, box.topleft)
        pygame.draw.rect(surface, (255, 255, 255), box, 2, 6)
        surface.blit(img, img.get_rect(center=box.center))

    def draw_objective_cities(self, surface: pygame.Surface, hexes: Iterable[Hex]) -> None:
        key = ("objective", self._sk())
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
        layer = self._shown or self._fit_layer
        fl = set(flourishing)
        S = self._size
        for reg, (hx, hy) in layer.seals.items():
            st = self._seal(reg in fl)
            surface.blit(st, st.get_rect(center=(int(self._ox + hx * S), int(self._oy + hy * S))))

    def draw_site_names(self, surface: pygame.Surface, hexes: Optional[Iterable[Hex]] = None) -> None:
        """The names of the sites on ``hexes`` (default: every site) again, above the pieces
        drawn so far: a piece never hides a name. Only where the view shows a crisp layer."""
        layer = self._shown
        if layer is None:
            return
        S = self._size
        for h in (layer.names if hexes is None else hexes):
            item = layer.names.get(h)
            if item is None:
                continue
            img, (hx, hy) = item
            surface.blit(img, (int(round(self._ox + hx * S)), int(round(self._oy + hy * S))))

    def _seal(self, flourishing: bool) -> pygame.Surface:
        key = ("seal", flourishing, self._sk())
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
                left = (c[0] + R * 0.28 * math.cos(a - 0.35), c[1] + R * 0.28 * math.sin(a - 0.35))
                r = (c[0] + R * 0.28 * math.cos(a + 0.35), c[1] + R * 0.28 * math.sin(a + 0.35))
                pygame.draw.polygon(big, (*dark, 255), [left, tip, r])
            pygame.draw.circle(big, (255, 236, 160, 255), c, R * 0.28)
            pygame.draw.circle(big, (*dark, 255), c, R * 0.28, K)
        else:  # a crescent moon: dormant
            pygame.draw.circle(big, (*dark, 255), c, R * 0.42)
            pygame.draw.circle(big, (*col, 255), (c[0] + R * 0.18, c[1] - R * 0.1), R * 0.38)
        s = pygame.transform.smoothscale(big, (d, d))
        self._stamps[key] = s
        return s


_marks: dict[tuple, pygame.Surface] = {}


def mark_icon(ok: bool, d: int) -> pygame.Surface:
    """A white check mark on green (legal) or a white cross on red (not legal) in a disc
    ``d`` px wide: a shape besides the colour."""
    key = (bool(ok), int(d))
    s = _marks.get(key)
    if s is not None:
        return s
    d = max(8, int(d))
    K = 4
    big = pygame.Surface((d * K, d * K), pygame.SRCALPHA)
    c = d * K / 2
    col = (30, 120, 50) if ok else (170, 30, 24)
    pygame.draw.circle(big, (255, 255, 255, 255), (c, c), c - 1)
    pygame.draw.circle(big, (*col, 255), (c, c), c - K * 2)
    w = d * K * 0.13
    if ok:
        pts = [(c - c * 0.45, c + c * 0.02), (c - c * 0.1, c + c * 0.38), (c + c * 0.5, c - c * 0.36)]
        pieces.thick_polyline(big, (255, 255, 255, 255), pts, w, closed=False)
    else:
        e = c * 0.38
        pieces.thick_polyline(big, (255, 255, 255, 255), [(c - e, c - e), (c + e, c + e)], w, closed=False)
        pieces.thick_polyline(big, (255, 255, 255, 255), [(c - e, c + e), (c + e, c - e)], w, closed=False)
    s = pygame.transform.smoothscale(big, (d, d))
    if len(_marks) > 64:
        _marks.clear()
    _marks[key] = s
    return s
