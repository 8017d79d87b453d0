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
"""
from __future__ import annotations

import copy
import json
import math
import os
import sys
import threading
import time
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
# a sea's name stays at its anchor when at least this share of its box lies over the sea's
# own hexes; otherwise (a narrow sea) it is placed after the site names, within this many
# spiral rings (half a hex each) of its anchor where it lies most over its own hexes
SEA_LABEL_COVER = 0.75
SEA_LABEL_RINGS = 3

FiefSpec = tuple  # (seat, cells, castles)

# corner indices (hexgrid.corners order) of the side facing each direction (hexgrid.edge_corners)
_EDGE_CORNERS = {0: (1, 2), 1: (0, 1), 2: (5, 0), 3: (4, 5), 4: (3, 4), 5: (2, 3)}

DEFAULT_TEXTS = {
    "legend.cities": "Cities", "legend.seas": "Seas and their harbors",
    "legend.barrier": "Barrier: no fief may straddle it",
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

    def set_rect(self, rect) -> None:
        """Fit the map into ``rect``; the cached layers are rebuilt lazily if it changed.
        The zoom and the point at the view's centre are kept."""
        rect = pygame.Rect(rect)
        if rect == self._rect and self._fit_layer is not None:
            return
        same_size = rect.size == self._rect.size and self._fit_layer is not None
        keep = self.view_state() if self._fit_size > 1.0 else None
        self._rect = rect
        x0, y0, x1, y1 = self._ext
        margin = max(6, int(min(rect.w, rect.h) * 0.015))
        aw, ah = max(1, rect.w - 2 * margin), max(1, rect.h - 2 * margin)
        self._fit_size = min(aw / (x1 - x0), ah / (y1 - y0))
        self._fit_o = (rect.w / 2 - (x0 + x1) / 2 * self._fit_size, rect.h / 2 - (y0 + y1) / 2 * self._fit_size)
        if not same_size:
            self._fit_layer = None
            self._static = None
            self._crisp = None
            self._temp = None
            self._scaled.clear()
            self._shown = None
            self._sprites.clear()
            self._any_size.clear()
            self._stamps.clear()
        if keep is not None and not same_size:
            self.set_view_state(keep)
        else:
            self._apply_view()

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

    def _checkpoint(self) -> None:
        """A zoomed layer that is no longer wanted stops here (the view zoomed on)."""
        if self._cancel is not None and self._cancel.is_set():
            raise _Cancelled()

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
                b = pygame.Rect(wr.x + x, wr.y + y, compass_d, compass_d)
                if not b.colliderect(cart.inflate(S, S)) and placer.bounds.contains(b):
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
        from ..ui import widgets as W
        img = W.text(text, "sans_bold", max(13, min(22, self._size * 0.8)), (255, 255, 255))
        x, y = self.hex_to_screen(h)
        box = img.get_rect(midbottom=(int(x), int(y - self._size * 0.9))).inflate(12, 6)
        W.panel(surface, box, (120, 88, 28) if ok else (150, 30, 24), (255, 255, 255), 6, 2, alpha=235)
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
            import logging
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
