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
    r.draw_rings(surface, rings, castles=())     # rings: mapping hex -> seat, a large ring
                                                 #   with the seat's crest around the hex
    r.draw_highlight(surface, hexes, strong=True, kind=None)  # a set of hexes: strong, faint,
                                                 #   or kind "cover" / "best" (the plan preview)
    r.draw_ghost(surface, cells, castles, ok, anchor=None)  # the fief being placed: green with
                                                 #   a check mark / red with a cross on anchor
    r.draw_label(surface, h, text)               # a small "+N" tag above hex h
    r.draw(surface, fiefs=..., rings=..., ...)   # all of the above in one call

    r.label_boxes() -> list[Rect]                # every name placed (static-layer pixels)

    # the view: zoom towards a point and pan; every method above follows it
    r.zoom -> float                              # 1.0 = the whole board fitted (ZOOM_LEVELS)
    r.zoom_step(steps, about=(x, y))             # one level in (+) or out (-), the point stays put
    r.set_zoom(z, about=None)                    # any zoom in [1, ZOOM_MAX]
    r.pan_by(dx, dy)                             # move the map by screen pixels (clamped)
    r.fit_view()                                 # back to the whole board
    r.view_state() -> dict / r.set_view_state(d) # {"zoom", "cx", "cy"} (hex units): saved per game
    r.finish_builds()                            # wait for the crisp zoomed layer (tools, tests)
    r.draw_site_names(surface, hexes)            # the names of these sites, above the pieces

Seats are colour names ("red", "yellow", "green", "blue") or indices 0-3 in that order.
Cells and castles are ``(q, r)`` tuples, e.g. from ``Fief.footprint(anchor, k)``. Hexes
that are not on the map are ignored, except by ``draw_ghost``, which draws the whole fief
so the player sees what hangs off the board. Drawing never changes its inputs nor any
game state. The static layer is opaque and covers the whole rect (decorations such as
the title cartouche, compass rose and legend go where they cover no hex of the board).

Caching: the static layer depends only on the rect's size (moving the rect is free);
fief, ghost and marker sprites are cached per size, so a frame is a few blits.

Zoom: the board at zoom ``z`` is the fitted board scaled by ``z`` (the "world"); the
window shows a rect-sized part of it. The crisp layer of a zoom level covers the view
and a margin around it and is built on a background thread once the view has settled
for a moment; until it is ready (while zooming or panning fast) the last layer is
scaled, so no frame waits for a rebuild. Labels are placed over the whole world, so
they stay put while panning.

Coordinates: the map is fitted into ``rect`` (kept to scale, centred); all ``draw_*``
methods draw in the same screen coordinates as ``hex_to_screen`` (``rect`` included), so
pass the window surface (or any surface laid out like it).

The class is in three rooms: this module holds the renderer's frame (layout, the view, the
layers and their background builds); ``board_static`` draws the static layer (land, sea,
borders, sites, names, decorations; the coastline's data); ``board_layers`` draws what lies
on it each frame (fiefs, rings, highlights, the ghost, tags, seals) and ``mark_icon``.
"""
from __future__ import annotations

import copy
import math
import os
import sys
import threading
import time
from collections.abc import Mapping
from typing import Optional

import pygame

from ..rules import hexgrid
from ..rules.hexgrid import Hex
from . import icons
from .board_layers import PiecesLayerMixin
from .board_static import StaticLayerMixin, _load_coastline
import logging

SQRT3 = hexgrid.SQRT3
# how much smaller the whole board may be drawn to leave the parts kept clear free of land hexes
# (at 1280x720 an online game's chat strip needs 0.88 of it, the map moved right)
FIT_CLEAR_STEPS = tuple(round(1 - 0.01 * i, 2) for i in range(16))

#: the zoom levels one wheel notch (or +/-) steps through: 100% (the whole board) .. 400%
ZOOM_LEVELS: tuple[float, ...] = tuple(round(2 ** (i / 4), 4) for i in range(9))
ZOOM_MAX = ZOOM_LEVELS[-1]
SETTLE_S = 0.12  # the view must rest this long before a crisp zoomed layer is built
WINDOW_MARGIN = 0.2  # a zoomed layer covers the view and this fraction of it on each side

# one static build at a time (the textures' caches are shared); builds on the worker
# thread open their own fonts (theme.font keys them by thread)
_BUILD_LOCK = threading.Lock()
_RUNNING: set = set()  # layer-builder threads not finished yet


def _join_builders() -> None:
    """pygame is quitting: let a layer being built finish first (fonts go away)."""
    for t in list(_RUNNING):
        t.join(timeout=5.0)


pygame.register_quit(_join_builders)


DEFAULT_TEXTS = {
    "legend.cities": "Cities", "legend.seas": "Seas and their harbors",
    "legend.barrier": "Barrier: no fief may straddle it",
    "symbol.university": "University", "symbol.cathedral": "Cathedral", "symbol.wine": "Wine",
    "symbol.wool": "Wool", "symbol.bank": "Bank", "symbol.art": "Art", "symbol.silk": "Silk",
    "symbol.glass": "Glass",
}


class BoardRenderer(StaticLayerMixin, PiecesLayerMixin):
    """Draws ``content``'s board fitted into a screen rectangle (see the module docstring)."""

    #: keys of the words the board shows besides the map's own names; pass translations
    #: as ``texts`` (a mapping key -> text); missing keys fall back to English.
    TEXT_KEYS: tuple[str, ...] = ("legend.cities", "legend.seas", "legend.barrier") + tuple(
        f"symbol.{s}" for s in icons.CITY_SYMBOLS)
    #: the margin around the fitted map, of the rectangle's smaller side (game_sizes plans with it)
    MARGIN = 0.015

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
        self._ext = self.extent_of(content)
        self._unit_corners = [(x, y) for x, y in hexgrid.corners((0, 0))]
        self._rect = pygame.Rect(0, 0, 1, 1)
        self._static: Optional[pygame.Surface] = None
        self._sprites: dict[tuple, tuple[pygame.Surface, tuple[float, float]]] = {}
        self._any_size: dict[tuple, tuple[float, tuple]] = {}  # a fief's sprite at some size
        self._stamps: dict[tuple, pygame.Surface] = {}
        self._seal_at: dict[str, tuple[float, float]] = {}
        self._label_boxes: list[pygame.Rect] = []
        self._badge_boxes: list[pygame.Rect] = []
        self._site_names: dict[Hex, tuple[pygame.Surface, tuple[int, int]]] = {}
        self._world: Optional[pygame.Rect] = None  # label bounds while building (layer pixels)
        self._cancel: Optional[threading.Event] = None  # set: the layer being built is not wanted
        # the view: zoom and the view's top-left in world pixels (world = fitted board x zoom)
        self._zoom = 1.0
        self._pan = (0.0, 0.0)
        self._fit_size = 1.0
        self._fit_o = (0.0, 0.0)  # the fitted map's origin relative to rect.topleft
        self._fit_layer: Optional[_Layer] = None
        self._crisp: Optional[_Layer] = None  # the last zoomed layer built
        self._shown: Optional[_Layer] = None  # the layer the last frame showed (names, seals)
        self._temp: Optional[_Layer] = None  # a scaled stand-in while the crisp one is built
        self._scaled: dict[tuple, tuple] = {}  # fief sprites scaled from another size, meanwhile
        self._job: Optional[_Job] = None
        self._view_changed = 0.0
        self.sync_builds = False  # build zoomed layers at once, on this thread (tools, tests)
        # parts of the rect (its own coordinates, zoom 1) something else covers: the legend, the
        # compass and the cartouche go elsewhere (an online game's chat strip, issue 40)
        self.keep_clear: tuple[pygame.Rect, ...] = ()
        self.align_x = 0.5  # where the map stands in a rect wider than it: 0 left, 0.5 centred, 1 right
        self.sprite_budget = 1  # new fief sprites made per frame; the rest scaled from another size
        self._made_this_frame = 0
        self.set_rect(rect)

    # ------------------------------------------------------------ layout

    @property
    def rect(self) -> pygame.Rect:
        return self._rect.copy()

    @property
    def size(self) -> float:
        return self._size

    @staticmethod
    def extent_of(content) -> tuple[float, float, float, float]:
        """The map's extent in hex units (x0, y0, x1, y1): every hex's corners."""
        xs, ys = [], []
        for h in content.terrain:
            cx, cy = hexgrid.to_pixel(h)
            xs += [cx - SQRT3 / 2, cx + SQRT3 / 2]
            ys += [cy - 1.0, cy + 1.0]
        return min(xs), min(ys), max(xs), max(ys)

    def set_rect(self, rect) -> None:
        """Fit the map into ``rect``; the cached layers are rebuilt lazily if it changed.
        The zoom and the point at the view's centre are kept."""
        rect = pygame.Rect(rect)
        if rect == self._rect and self._fit_layer is not None:
            return
        same_size = rect.size == self._rect.size and self._fit_layer is not None
        keep = self.view_state() if self._fit_size > 1.0 else None
        self._rect = rect
        self._fit_size, self._fit_o = self._fit(rect)
        if not same_size:
            self._drop_layers()
            self._scaled.clear()
            self._sprites.clear()
            self._any_size.clear()
            self._stamps.clear()
        if keep is not None and not same_size:
            self.set_view_state(keep)
        else:
            self._apply_view()

    def _fit(self, rect: pygame.Rect) -> tuple[float, tuple[float, float]]:
        """The whole board's hex size and origin in ``rect``: as large as the rect holds, placed
        as ``align_x`` says and centred in height; with parts kept clear (an online game's chat
        strip) a little smaller or moved to a side, if that leaves every land hex and site out
        from under them, as the legend keeps out from under them (issue 40)."""
        x0, y0, x1, y1 = self._ext
        margin = max(6, int(min(rect.w, rect.h) * self.MARGIN))
        aw, ah = max(1, rect.w - 2 * margin), max(1, rect.h - 2 * margin)
        full = min(aw / (x1 - x0), ah / (y1 - y0))

        def place(size: float, ax: float, ay: float) -> tuple[float, float]:
            # the width and height the map leaves go left and right, above and below, as (ax, ay) say
            return (margin + (aw - (x1 - x0) * size) * ax - x0 * size,
                    margin + (ah - (y1 - y0) * size) * ay - y0 * size)

        if not self.keep_clear:
            return full, place(full, self.align_x, 0.5)
        sites = [hexgrid.to_pixel(h) for h, t in self._terrain.items() if t == "land" or h in self._sites]

        def clear(size: float, o: tuple[float, float]) -> bool:
            hw = size * SQRT3 / 2
            return not any(r.colliderect(o[0] + x * size - hw, o[1] + y * size - size, 2 * hw, 2 * size)
                           for x, y in sites for r in self.keep_clear)

        aligns = list(dict.fromkeys([(self.align_x, 0.5), (self.align_x, 0.0), (self.align_x, 1.0),
                                     (1.0, 0.5), (0.0, 0.5), (1.0, 0.0), (0.0, 0.0), (1.0, 1.0), (0.0, 1.0)]))
        for k in FIT_CLEAR_STEPS:
            for ax, ay in aligns:
                o = place(full * k, ax, ay)
                if clear(full * k, o):
                    return full * k, o
        return full, place(full, self.align_x, 0.5)  # no room: the map as large as it goes

    def set_align(self, align_x: float) -> None:
        """Where the map stands in a rect wider than it (0 left, 0.5 centred, 1 right): refits."""
        if align_x == self.align_x:
            return
        self.align_x = align_x
        self._refit()

    def set_keep_clear(self, rects) -> None:
        """Keep the legend, the compass and the cartouche off ``rects`` (the rect's own
        coordinates at the whole-board view); the layers are rebuilt if that changes."""
        rects = tuple(pygame.Rect(r) for r in rects)
        if rects == self.keep_clear:
            return
        self.keep_clear = rects
        self._refit()  # the map may step aside

    def _refit(self) -> None:
        """Fit the map into its rect again (its placement changed), keeping the zoom and centre."""
        keep = self.view_state() if self._fit_layer is not None else None
        rect, self._rect = self._rect, pygame.Rect(0, 0, 1, 1)  # set_rect does all of a new fit
        self.set_rect(rect)
        if keep is not None:
            self.set_view_state(keep)

    def _drop_layers(self) -> None:
        """The map's layers are drawn anew when next shown."""
        self._fit_layer = self._static = self._crisp = self._temp = self._shown = None

    # ------------------------------------------------------------ the view (zoom and pan)

    @property
    def zoom(self) -> float:
        return self._zoom

    def _apply_view(self) -> None:
        """Clamp the pan (the view never leaves the board) and derive size and origin."""
        z = self._zoom
        W, H = self._rect.size
        px = min(max(0.0, self._pan[0]), W * (z - 1))
        py = min(max(0.0, self._pan[1]), H * (z - 1))
        self._pan = (px, py)
        self._size = self._fit_size * z
        self._ox = self._rect.x + self._fit_o[0] * z - px
        self._oy = self._rect.y + self._fit_o[1] * z - py

    def _changed(self) -> None:
        self._view_changed = time.monotonic()

    def set_zoom(self, z: float, about: Optional[tuple[float, float]] = None) -> None:
        """Zoom to ``z`` (1 .. ZOOM_MAX) keeping the map point under ``about`` (screen
        pixels; default: the view's centre) where it is."""
        z = min(ZOOM_MAX, max(1.0, float(z)))
        if about is None:
            about = self._rect.center
        ax, ay = about[0] - self._rect.x, about[1] - self._rect.y
        wx, wy = (self._pan[0] + ax) / self._zoom, (self._pan[1] + ay) / self._zoom  # zoom-1 pixels
        if abs(z - self._zoom) < 1e-9:
            return
        self._zoom = z
        self._pan = (wx * z - ax, wy * z - ay)
        self._apply_view()
        self._changed()

    def zoom_step(self, steps: int, about: Optional[tuple[float, float]] = None) -> None:
        """``steps`` levels of ZOOM_LEVELS in (positive) or out (negative)."""
        i = min(range(len(ZOOM_LEVELS)), key=lambda k: abs(ZOOM_LEVELS[k] - self._zoom))
        i = min(len(ZOOM_LEVELS) - 1, max(0, i + steps))
        self.set_zoom(ZOOM_LEVELS[i], about)

    def pan_by(self, dx: float, dy: float) -> None:
        """Move the map by (dx, dy) screen pixels (the map follows a dragging hand)."""
        before = self._pan
        self._pan = (self._pan[0] - dx, self._pan[1] - dy)
        self._apply_view()
        if self._pan != before:
            self._changed()

    def fit_view(self) -> None:
        """The whole board again."""
        if self._zoom != 1.0 or self._pan != (0.0, 0.0):
            self._zoom = 1.0
            self._pan = (0.0, 0.0)
            self._apply_view()
            self._changed()

    def view_state(self) -> dict:
        """The zoom and the map point at the view's centre, in hex units (any window size)."""
        cx, cy = self._rect.center
        hx = (cx - self._ox) / self._size
        hy = (cy - self._oy) / self._size
        return {"zoom": round(self._zoom, 4), "cx": round(hx, 3), "cy": round(hy, 3)}

    def set_view_state(self, d: Mapping) -> None:
        """Restore :meth:`view_state` (values out of range are clamped; junk is ignored)."""
        try:
            z = min(ZOOM_MAX, max(1.0, float(d.get("zoom", 1.0))))
            hx, hy = float(d.get("cx")), float(d.get("cy"))
        except (TypeError, ValueError, AttributeError):
            return
        if not (math.isfinite(z) and math.isfinite(hx) and math.isfinite(hy)):
            return
        self._zoom = z
        S = self._fit_size * z
        W, H = self._rect.size
        self._pan = (self._fit_o[0] * z + hx * S - W / 2, self._fit_o[1] * z + hy * S - H / 2)
        self._apply_view()
        self._changed()

    def ensure_visible(self, h: Hex, margin: float = 2.5) -> None:
        """Pan so that hex ``h`` is in the view, ``margin`` hexes from its edges if it can."""
        if self._zoom == 1.0 or h not in self._terrain:
            return
        x, y = self.hex_to_screen(h)
        m = self._size * margin
        r = self._rect.inflate(-2 * m, -2 * m) if self._rect.w > 4 * m and self._rect.h > 4 * m else self._rect
        dx = (r.left - x) if x < r.left else (r.right - x) if x > r.right else 0
        dy = (r.top - y) if y < r.top else (r.bottom - y) if y > r.bottom else 0
        if dx or dy:
            self.pan_by(dx, dy)

    def visible_hexes(self) -> list[Hex]:
        """The map hexes whose centre is in the view."""
        r = self._rect
        out = []
        for h in self._terrain:
            x, y = self.hex_to_screen(h)
            if r.collidepoint(x, y):
                out.append(h)
        return out

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
        """The whole board fitted into the rect (zoom 1), built once per rect size."""
        if self._fit_layer is None:
            self._fit_layer = self._build_layer(1.0, pygame.Rect(0, 0, *self._rect.size))
            self._static = self._fit_layer.surf
            self._label_boxes = self._fit_layer.label_boxes
            self._badge_boxes = self._fit_layer.badge_boxes
        return self._fit_layer.surf

    def draw_static(self, surface: pygame.Surface) -> None:
        """The board's static layer at the current view: the crisp layer of this zoom when
        it covers the view, else the best layer there is, scaled (and a crisp one asked for)."""
        self._made_this_frame = 0
        self._poll_job()
        self.static_layer()
        fit = self._fit_layer
        z = self._zoom
        if z == 1.0:
            surface.blit(fit.surf, self._rect.topleft)
            self._shown = fit
            return
        W, H = self._rect.size
        view = pygame.Rect(int(round(self._pan[0])), int(round(self._pan[1])), W, H)
        c = self._crisp
        if c is not None and c.zoom == z and c.window.contains(view):
            surface.blit(c.surf, self._rect.topleft, view.move(-c.window.x, -c.window.y))
            self._shown = c
            return
        self._want_crisp(view)
        # meanwhile: the view scaled from the best layer there is (made again only when
        # the view moves or the zoom changes)
        t = self._temp
        if t is None or t.zoom != z or not t.window.contains(view):
            t = self._temp = self._scaled_layer(view)
        surface.blit(t.surf, self._rect.topleft, view.move(-t.window.x, -t.window.y))
        if c is not None and c.zoom == z and c.window.colliderect(view):
            part = c.window.clip(view)
            surface.blit(c.surf, (self._rect.x + part.x - view.x, self._rect.y + part.y - view.y),
                         part.move(-c.window.x, -c.window.y))
        self._shown = t

    def _window(self, view: pygame.Rect) -> pygame.Rect:
        """The part of the world a zoomed layer covers: the view and a margin, in the world."""
        z = self._zoom
        W, H = self._rect.size
        world = pygame.Rect(0, 0, int(math.ceil(W * z)), int(math.ceil(H * z)))
        mw, mh = int(W * WINDOW_MARGIN), int(H * WINDOW_MARGIN)
        win = pygame.Rect(0, 0, min(world.w, W + 2 * mw), min(world.h, H + 2 * mh))
        win.center = view.center
        win.clamp_ip(world)
        return win

    def _scaled_layer(self, view: pygame.Rect) -> "_Layer":
        """A stand-in for the crisp layer of this zoom: ``view`` cut from the best layer built (a zoomed one that covers it, else the fitted board) and
        scaled (nearest pixel: fast). No site names on it (they would be blurred)."""
        z = self._zoom
        win = pygame.Rect(view)  # the view alone: cheaper to scale at each wheel notch
        src = self._fit_layer
        for cand in (self._crisp,):  # (never a scaled one: nearest-pixel twice is coarse)
            if cand is None:
                continue
            k = cand.zoom / z
            need = pygame.Rect(int(win.x * k), int(win.y * k), int(math.ceil(win.w * k)) + 1,
                               int(math.ceil(win.h * k)) + 1)
            if cand.window.contains(need):
                src = cand
                break
        k = src.zoom / z
        area = pygame.Rect(int(win.x * k) - src.window.x, int(win.y * k) - src.window.y,
                           max(1, int(math.ceil(win.w * k)) + 1), max(1, int(math.ceil(win.h * k)) + 1))
        area = area.clip(src.surf.get_rect())
        surf = pygame.Surface(win.size)
        if area.w > 0 and area.h > 0:
            dx = (area.x + src.window.x) / k - win.x
            dy = (area.y + src.window.y) / k - win.y
            img = pygame.transform.scale(src.surf.subsurface(area),
                                         (max(1, int(round(area.w / k))), max(1, int(round(area.h / k)))))
            surf.blit(img, (int(round(dx)), int(round(dy))))
        return _Layer(z, win, surf, src.seals, {}, [], [])

    def _want_crisp(self, view: pygame.Rect) -> None:
        """Ask for the crisp layer of this zoom around ``view`` once the view has settled."""
        z = self._zoom
        job = self._job
        if job is not None and job.zoom == z and job.window.contains(view):
            return
        if job is not None and job.zoom != z:
            job.cancel.set()  # not wanted any more: it stops at its next checkpoint
        if not self.sync_builds and time.monotonic() - self._view_changed < SETTLE_S:
            return
        if job is not None:  # one build at a time: the next one starts when it ends
            return
        win = self._window(view)
        if self.sync_builds:
            self._crisp = self._build_layer(z, win)
            return
        self._job = _Job(self, z, win)

    def _poll_job(self) -> None:
        job = self._job
        if job is None or not job.done():
            return
        self._job = None
        if job.layer is not None and job.size == self._rect.size:
            self._crisp = job.layer

    def finish_builds(self) -> None:
        """Wait for the zoomed layer being built and build the one the view needs now
        (screenshots, tests, the benchmark's warm-up)."""
        if self._job is not None:
            self._job.thread.join()
            self._poll_job()
        old = self.sync_builds
        self.sync_builds = True
        try:
            self.draw_static(pygame.Surface((1, 1)))
        finally:
            self.sync_builds = old

    def building(self) -> bool:
        """True while a zoomed layer is being built in the background."""
        return self._job is not None and not self._job.done()

    def _build_layer(self, zoom: float, window: pygame.Rect, cancel: Optional[threading.Event] = None) -> "_Layer":
        """The static layer at ``zoom``, the part ``window`` (world pixels) of it. Runs on
        a copy of this renderer, so that the view may change meanwhile (another thread)."""
        b = copy.copy(self)
        S = self._fit_size * zoom
        b._size = S
        b._rect = pygame.Rect(0, 0, window.w, window.h)
        b._ox = self._fit_o[0] * zoom - window.x
        b._oy = self._fit_o[1] * zoom - window.y
        b._world = pygame.Rect(-window.x, -window.y, int(math.ceil(self._rect.w * zoom)),
                               int(math.ceil(self._rect.h * zoom)))
        b._seal_at, b._label_boxes, b._badge_boxes, b._site_names = {}, [], [], {}
        b._stamps, b._sprites = {}, {}
        b._cancel = cancel
        with _BUILD_LOCK:
            surf = b._build_static()
        seals = {reg: ((x - b._ox) / S, (y - b._oy) / S) for reg, (x, y) in b._seal_at.items()}
        names = {h: (img, ((x - b._ox) / S, (y - b._oy) / S)) for h, (img, (x, y)) in b._site_names.items()}
        layer = _Layer(zoom, pygame.Rect(window), surf, seals, names, b._label_boxes, b._badge_boxes)
        layer.compass = getattr(b, "_compass_box", None)
        layer.cartouche = getattr(b, "_cartouche_box", None)
        layer.legend = getattr(b, "_legend_box", None)
        return layer

    def label_boxes(self) -> list[pygame.Rect]:
        """The boxes (static-layer coordinates) of every label placed, for tests and tools."""
        self.static_layer()
        return [b.copy() for b in self._fit_layer.label_boxes]

    def compass_rect(self) -> Optional[pygame.Rect]:
        """Where the compass rose is on screen while the whole board is shown (None when zoomed
        in, or with no compass): buttons over the map keep clear of it."""
        if self._zoom != 1.0:
            return None
        self.static_layer()
        box = self._fit_layer.compass
        return None if box is None else box.move(self._rect.topleft)

    def legend_rect(self) -> Optional[pygame.Rect]:
        """Where the legend of the symbols is on screen while the whole board is shown (None when
        zoomed in, or when no place on the map holds it)."""
        if self._zoom != 1.0:
            return None
        self.static_layer()
        box = self._fit_layer.legend
        return None if box is None else box.move(self._rect.topleft)

    def decoration_rects(self) -> list[pygame.Rect]:
        """Where the title cartouche and the compass rose are on screen while the whole board is
        shown (none when zoomed in): panels over the map keep clear of them."""
        if self._zoom != 1.0:
            return []
        self.static_layer()
        lay = self._fit_layer
        return [box.move(self._rect.topleft) for box in (lay.compass, getattr(lay, "cartouche", None))
                if box is not None]

    def _checkpoint(self) -> None:
        """A zoomed layer that is no longer wanted stops here (the view zoomed on)."""
        if self._cancel is not None and self._cancel.is_set():
            raise _Cancelled()


class _Cancelled(Exception):
    """A zoomed layer's build was called off."""


class _Layer:
    """A built static layer: ``window`` (world pixels at ``zoom``) of the board, the seal
    positions and site names (hex units) and the label boxes (layer pixels)."""

    def __init__(self, zoom, window, surf, seals, names, label_boxes, badge_boxes):
        self.zoom = zoom
        self.window = window
        self.surf = surf
        self.seals = seals
        self.names = names
        self.label_boxes = label_boxes
        self.badge_boxes = badge_boxes
        self.compass: Optional[pygame.Rect] = None  # the compass rose (layer pixels), if drawn
        self.cartouche: Optional[pygame.Rect] = None  # the title cartouche (layer pixels), if drawn
        self.legend: Optional[pygame.Rect] = None  # the legend of the symbols (layer pixels), if drawn


class _Job:
    """A zoomed layer built on a daemon thread (the frame loop never waits for it)."""

    def __init__(self, renderer: BoardRenderer, zoom: float, window: pygame.Rect):
        self.zoom = zoom
        self.window = pygame.Rect(window)
        self.size = renderer._rect.size
        self.layer: Optional[_Layer] = None
        self.error: Optional[BaseException] = None
        self.cancel = threading.Event()
        self.thread = threading.Thread(target=self._run, args=(renderer,), name="board-layer", daemon=True)
        # while it runs, the frame loop gets the interpreter back after 0.5 ms, not 5 ms
        self._switch = sys.getswitchinterval()
        sys.setswitchinterval(min(self._switch, 0.0005))
        _RUNNING.add(self.thread)
        self.thread.start()

    def _run(self, renderer: BoardRenderer) -> None:
        try:
            try:  # Linux: this thread yields the cores to the frame loop (nice 19)
                os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), 19)
            except (AttributeError, OSError):
                pass
            self.layer = renderer._build_layer(self.zoom, self.window, self.cancel)
        except _Cancelled:
            self.layer = None
        except BaseException as e:  # noqa: BLE001 - the view keeps the scaled layer; logged
            logging.getLogger(__name__).exception("zoomed board layer failed")
            self.error = e
        finally:
            if self._switch is not None:
                sys.setswitchinterval(self._switch)
            _RUNNING.discard(threading.current_thread())

    def done(self) -> bool:
        if self.thread.is_alive():
            return False
        if self._switch is not None:
            sys.setswitchinterval(self._switch)
            self._switch = None
        return True


