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

The renderer is a face over small parts, each with its own inputs (docs/architecture.md):
``board_map.BoardMap`` (the map's facts), ``board_camera.BoardCamera`` (rect, fit, zoom and pan;
hexes <-> pixels), ``board_zoom.ZoomLayers`` (the fitted and zoomed static layers and their
background builds), ``board_static.StaticLayerBuilder`` with ``board_names`` and ``board_decor``
(one static layer, from a ``board_frame.LayerFrame`` snapshot), ``board_layers.PiecesLayer``
(what is drawn on it each frame) and ``board_stamps`` (the small cached images).
"""
from __future__ import annotations

import math
import threading
from collections.abc import Callable, Iterable, Mapping
from typing import Any, Optional

import pygame

from ..rules.content import Content
from ..rules.hexgrid import Hex
from . import theme
from .board_camera import FIT_CLEAR_STEPS, MARGIN, ZOOM_LEVELS, ZOOM_MAX, BoardCamera
from .board_frame import Layer, LayerFrame
from .board_layers import FiefSpec, PiecesLayer
from .board_map import TEXT_KEYS, BoardMap, extent_of
from .board_static import build_layer
from .board_zoom import SETTLE_S, WINDOW_MARGIN, ZoomLayers

__all__ = ["BoardRenderer", "DEFAULT_TEXTS", "FIT_CLEAR_STEPS", "SETTLE_S", "WINDOW_MARGIN", "ZOOM_LEVELS",
           "ZOOM_MAX"]

DEFAULT_TEXTS = {
    "legend.cities": "Cities", "legend.seas": "Seas and their harbors",
    "legend.barrier": "Barrier: no fief may straddle it",
    "symbol.university": "University", "symbol.cathedral": "Cathedral", "symbol.wine": "Wine",
    "symbol.wool": "Wool", "symbol.bank": "Bank", "symbol.art": "Art", "symbol.silk": "Silk",
    "symbol.glass": "Glass",
}


class BoardRenderer:
    """Draws ``content``'s board fitted into a screen rectangle (see the module docstring):
    the parts ``board``, ``camera``, ``layers`` and ``pieces`` composed behind one face."""

    #: keys of the words the board shows besides the map's own names; pass translations
    #: as ``texts`` (a mapping key -> text); missing keys fall back to English.
    TEXT_KEYS = TEXT_KEYS
    #: the margin around the fitted map, of the rectangle's smaller side (game_sizes plans with it)
    MARGIN = MARGIN

    def __init__(self, content: Content, rect: Any, *, title: str = "Gonzaga", decorations: bool = True,
                 texts: Mapping[str, str] | None = None) -> None:
        self.content = content
        self.title = title
        self.decorations = decorations
        self._texts = dict(DEFAULT_TEXTS)
        if texts:
            # an i18n lookup that fell back to its key is no translation: keep English then
            self._texts.update({k: v for k, v in texts.items() if k in DEFAULT_TEXTS and v and v != k})
        self.board = BoardMap(content)
        self.camera = BoardCamera(self.board)
        self.layers = ZoomLayers(self.camera, self._prepare_layer)
        self.pieces = PiecesLayer(self.board, self.camera)
        self.palette = theme.map_palette_name()  # the map palette its layers and sprites are in
        # the camera's own methods, bound once (no delegate's call): the screens ask them
        # hundreds of times a frame. hex_to_screen(h) -> (x, y); screen_to_hex(x, y) -> Hex | None
        self.hex_to_screen: Callable[[Hex], tuple[float, float]] = self.camera.hex_to_screen
        self.screen_to_hex: Callable[[float, float], Optional[Hex]] = self.camera.screen_to_hex
        self.set_rect(rect)

    extent_of = staticmethod(extent_of)

    # ------------------------------------------------------------ layout

    @property
    def rect(self) -> pygame.Rect:
        """Where the board is drawn on the screen."""
        return self.camera.rect.copy()

    @property
    def size(self) -> float:
        """The hex circumradius in pixels at the current zoom."""
        return self.camera.size

    @property
    def keep_clear(self) -> tuple[pygame.Rect, ...]:
        return self.camera.keep_clear

    @property
    def align_x(self) -> float:
        return self.camera.align_x

    def set_rect(self, rect: Any) -> None:
        """Fit the map into ``rect``; the cached layers are rebuilt lazily if it changed.
        The zoom and the point at the view's centre are kept."""
        cam = self.camera
        rect = pygame.Rect(rect)
        if rect == cam.rect and self.layers.fit is not None:
            return
        same_size = rect.size == cam.rect.size and self.layers.fit is not None
        keep = cam.view_state() if cam.fit_size > 1.0 else None
        cam.place(rect)
        if not same_size:
            self.layers.drop()
            self.pieces.clear()
        if keep is not None and not same_size:
            cam.set_view_state(keep)
        else:
            cam.settle()

    def set_align(self, align_x: float) -> None:
        """Where the map stands in a rect wider than it (0 left, 0.5 centred, 1 right): refits."""
        if align_x == self.camera.align_x:
            return
        self.camera.align_x = align_x
        self._refit()

    def set_keep_clear(self, rects: Iterable[Any]) -> None:
        """Keep the legend, the compass and the cartouche off ``rects`` (the rect's own
        coordinates at the whole-board view); the layers are rebuilt if that changes."""
        rects_t = tuple(pygame.Rect(r) for r in rects)
        if rects_t == self.camera.keep_clear:
            return
        self.camera.keep_clear = rects_t
        self._refit()  # the map may step aside

    def _refit(self) -> None:
        """Fit the map into its rect again (its placement changed), keeping the zoom and centre."""
        cam = self.camera
        keep = cam.view_state() if self.layers.fit is not None else None
        rect, cam.rect = cam.rect, pygame.Rect(0, 0, 1, 1)  # set_rect does all of a new fit
        self.set_rect(rect)
        if keep is not None:
            cam.set_view_state(keep)

    # ------------------------------------------------------------ the view (the camera's)

    @property
    def zoom(self) -> float:
        return self.camera.zoom

    def set_zoom(self, z: float, about: Optional[tuple[float, float]] = None) -> None:
        self.camera.set_zoom(z, about)

    def zoom_step(self, steps: int, about: Optional[tuple[float, float]] = None) -> None:
        self.camera.zoom_step(steps, about)

    def pan_by(self, dx: float, dy: float) -> None:
        self.camera.pan_by(dx, dy)

    def fit_view(self) -> None:
        self.camera.fit_view()

    def view_state(self) -> dict[str, float]:
        return self.camera.view_state()

    def set_view_state(self, d: Mapping[str, Any]) -> None:
        self.camera.set_view_state(d)

    def ensure_visible(self, h: Hex, margin: float = 2.5) -> None:
        self.camera.ensure_visible(h, margin)

    def visible_hexes(self) -> list[Hex]:
        return self.camera.visible_hexes()

    def hex_polygon(self, h: Hex) -> list[tuple[float, float]]:
        return self.camera.hex_polygon(h)

    # ------------------------------------------------------------ static layers (the layers')

    @property
    def sync_builds(self) -> bool:
        """Build zoomed layers at once, on this thread (tools, tests)."""
        return self.layers.sync_builds

    @sync_builds.setter
    def sync_builds(self, value: bool) -> None:
        self.layers.sync_builds = value

    def _prepare_layer(self, zoom: float, window: pygame.Rect,
                       cancel: Optional[threading.Event]) -> Callable[[], Layer]:
        """The build of the static layer at ``zoom``, the part ``window`` (world pixels) of it,
        with the view as it is now (the build may run on another thread)."""
        cam = self.camera
        frame = LayerFrame(
            size=cam.fit_size * zoom, ox=cam.fit_o[0] * zoom - window.x, oy=cam.fit_o[1] * zoom - window.y,
            w=window.w, h=window.h, fit_size=cam.fit_size, keep_clear=cam.keep_clear, cancel=cancel,
            world=pygame.Rect(-window.x, -window.y, int(math.ceil(cam.rect.w * zoom)), int(math.ceil(cam.rect.h * zoom))))
        board, title, decorations, texts = self.board, self.title, self.decorations, dict(self._texts)
        return lambda: build_layer(board, frame, zoom, window, title=title, decorations=decorations, texts=texts)

    def follow_palette(self) -> None:
        """Layers and sprites drawn anew when the map's palette changed (high contrast)."""
        if self.palette != theme.map_palette_name():
            self.palette = theme.map_palette_name()
            self.layers.drop()
            self.pieces.clear()

    def static_layer(self) -> pygame.Surface:
        """The whole board fitted into the rect (zoom 1), built once per rect size."""
        self.follow_palette()
        return self.layers.fitted().surf

    def draw_static(self, surface: pygame.Surface) -> None:
        """The board's static layer at the current view (see ``ZoomLayers.draw``)."""
        self.follow_palette()
        self.pieces.new_frame()
        self.layers.draw(surface)

    def finish_builds(self) -> None:
        """Wait for the zoomed layer being built and build the one the view needs now
        (screenshots, tests, the benchmark's warm-up)."""
        self.layers.finish_builds()

    def building(self) -> bool:
        """True while a zoomed layer is being built in the background."""
        return self.layers.building()

    def label_boxes(self) -> list[pygame.Rect]:
        """The boxes (static-layer coordinates) of every label placed, for tests and tools."""
        return [b.copy() for b in self.layers.fitted().label_boxes]

    def _fit_box(self, box: Optional[pygame.Rect]) -> Optional[pygame.Rect]:
        return None if box is None else box.move(self.camera.rect.topleft)

    def compass_rect(self) -> Optional[pygame.Rect]:
        """Where the compass rose is on screen while the whole board is shown (None when zoomed
        in, or with no compass): buttons over the map keep clear of it."""
        return None if self.camera.zoom != 1.0 else self._fit_box(self.layers.fitted().compass)

    def legend_rect(self) -> Optional[pygame.Rect]:
        """Where the legend of the symbols is on screen while the whole board is shown (None when
        zoomed in, or when no place on the map holds it)."""
        return None if self.camera.zoom != 1.0 else self._fit_box(self.layers.fitted().legend)

    def decoration_rects(self) -> list[pygame.Rect]:
        """Where the title cartouche and the compass rose are on screen while the whole board is
        shown (none when zoomed in): panels over the map keep clear of them."""
        if self.camera.zoom != 1.0:
            return []
        lay = self.layers.fitted()
        return [box.move(self.camera.rect.topleft) for box in (lay.compass, lay.cartouche) if box is not None]

    # ------------------------------------------------------------ what lies on it (the pieces')

    @property
    def sprite_budget(self) -> int:
        """New fief sprites made per frame; the rest scaled from another size meanwhile."""
        return self.pieces.sprite_budget

    @sprite_budget.setter
    def sprite_budget(self, value: int) -> None:
        self.pieces.sprite_budget = value

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

    def draw_flourishing(self, surface: pygame.Surface, flourishing: Iterable[str]) -> None:
        """A gold seal by each flourishing region's name, a grey one by the inactive ones."""
        fit = self.layers.fitted()
        self.pieces.draw_flourishing(surface, self.layers.shown or fit, flourishing)

    def draw_site_names(self, surface: pygame.Surface, hexes: Optional[Iterable[Hex]] = None) -> None:
        """The names of the sites on ``hexes`` (default: every site) again, above the pieces
        drawn so far: a piece never hides a name. Only where the view shows a crisp layer."""
        if self.layers.shown is not None:
            self.pieces.draw_site_names(surface, self.layers.shown, hexes)

    def draw_objective_cities(self, surface: pygame.Surface, hexes: Iterable[Hex]) -> None:
        self.pieces.draw_objective_cities(surface, hexes)

    def draw_fiefs(self, surface: pygame.Surface, fiefs: Iterable[FiefSpec]) -> None:
        self.pieces.draw_fiefs(surface, fiefs)

    def draw_rings(self, surface: pygame.Surface, rings: Mapping[Hex, object], castles: Iterable[Hex] = ()) -> None:
        self.pieces.draw_rings(surface, rings, castles)

    def draw_highlight(self, surface: pygame.Surface, hexes: Iterable[Hex], strong: bool = True,
                       kind: Optional[str] = None) -> None:
        self.pieces.draw_highlight(surface, hexes, strong, kind)

    def draw_ghost(self, surface: pygame.Surface, cells: Iterable[Hex], castles: Iterable[Hex], ok: bool,
                   anchor: Optional[Hex] = None) -> None:
        self.pieces.draw_ghost(surface, cells, castles, ok, anchor)

    def draw_label(self, surface: pygame.Surface, h: Hex, text: str, ok: bool = True) -> None:
        self.pieces.draw_label(surface, h, text, ok)

    # ------------------------------------------------------------ names older code and tests read

    @property
    def _rect(self) -> pygame.Rect:
        return self.camera.rect

    @property
    def _fit_size(self) -> float:
        return self.camera.fit_size

    @property
    def _fit_o(self) -> tuple[float, float]:
        return self.camera.fit_o

    @property
    def _ext(self) -> tuple[float, float, float, float]:
        return self.board.extent

    @property
    def _shown(self) -> Optional[Layer]:
        return self.layers.shown

    @property
    def _badge_boxes(self) -> list[pygame.Rect]:
        return self.layers.fitted().badge_boxes
