"""The board's camera: where the map stands in its screen rect and the view's zoom and pan, and
the mapping between hexes and screen pixels that follows from them.

The fitted board (zoom 1) is as large as the rect holds, less a margin; at zoom ``z`` the "world"
is the fitted board scaled by ``z`` and the view is a rect-sized window of it, its top-left at
``pan`` (world pixels, clamped so that the view never leaves the board)."""
from __future__ import annotations

import math
import time
from collections.abc import Callable, Mapping
from typing import Any, Optional

import pygame

from ..rules import hexgrid
from ..rules.hexgrid import Hex
from .board_map import BoardMap

SQRT3 = hexgrid.SQRT3
Point = tuple[float, float]

#: the margin around the fitted map, of the rectangle's smaller side (game_sizes plans with it)
MARGIN = 0.015
# how much smaller the whole board may be drawn to leave the parts kept clear free of land hexes
# (at 1280x720 an online game's chat strip needs 0.88 of it, the map moved right)
FIT_CLEAR_STEPS = tuple(round(1 - 0.01 * i, 2) for i in range(16))
#: the zoom levels one wheel notch (or +/-) steps through: 100% (the whole board) .. 400%
ZOOM_LEVELS: tuple[float, ...] = tuple(round(2 ** (i / 4), 4) for i in range(9))
ZOOM_MAX = ZOOM_LEVELS[-1]


class BoardCamera:
    """The map's placement in ``rect`` and the view (zoom, pan); ``clock`` stamps view changes
    (the layers wait for the view to settle before building a crisp zoomed one)."""

    def __init__(self, board: BoardMap, clock: Callable[[], float] = time.monotonic) -> None:
        self.board = board
        self.clock = clock
        self.rect = pygame.Rect(0, 0, 1, 1)  # where the board is drawn on the screen
        self.fit_size = 1.0  # the hex size of the whole board fitted
        self.fit_o: Point = (0.0, 0.0)  # the fitted map's origin relative to rect.topleft
        self.zoom = 1.0
        self.pan: Point = (0.0, 0.0)  # the view's top-left in world pixels
        self.size = 1.0  # the hex size at this zoom
        self.ox = 0.0  # hex (0, 0)'s centre on the screen
        self.oy = 0.0
        self.changed_at = 0.0  # when the view last moved (clock)
        # parts of the rect (its own coordinates, zoom 1) something else covers: the legend, the
        # compass and the cartouche go elsewhere (an online game's chat strip, issue 40)
        self.keep_clear: tuple[pygame.Rect, ...] = ()
        self.align_x = 0.5  # where the map stands in a rect wider than it: 0 left, 0.5 centred, 1 right

    # ------------------------------------------------------------ placement

    def place(self, rect: pygame.Rect) -> None:
        """Fit the map into ``rect`` (the view is applied by the caller)."""
        self.rect = pygame.Rect(rect)
        self.fit_size, self.fit_o = self.fit(self.rect)

    def fit(self, rect: pygame.Rect) -> tuple[float, Point]:
        """The whole board's hex size and origin in ``rect``: as large as the rect holds, placed
        as ``align_x`` says and centred in height; with parts kept clear (an online game's chat
        strip) a little smaller or moved to a side, if that leaves every land hex and site out
        from under them, as the legend keeps out from under them (issue 40)."""
        x0, y0, x1, y1 = self.board.extent
        margin = max(6, int(min(rect.w, rect.h) * MARGIN))
        aw, ah = max(1, rect.w - 2 * margin), max(1, rect.h - 2 * margin)
        full = min(aw / (x1 - x0), ah / (y1 - y0))

        def place(size: float, ax: float, ay: float) -> Point:
            # the width and height the map leaves go left and right, above and below, as (ax, ay) say
            return (margin + (aw - (x1 - x0) * size) * ax - x0 * size,
                    margin + (ah - (y1 - y0) * size) * ay - y0 * size)

        if not self.keep_clear:
            return full, place(full, self.align_x, 0.5)
        sites = self.board.solid_points

        def clear(size: float, o: Point) -> bool:
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

    # ------------------------------------------------------------ the view

    def settle(self) -> None:
        """Clamp the pan (the view never leaves the board) and derive size and origin."""
        z = self.zoom
        W, H = self.rect.size
        px = min(max(0.0, self.pan[0]), W * (z - 1))
        py = min(max(0.0, self.pan[1]), H * (z - 1))
        self.pan = (px, py)
        self.size = self.fit_size * z
        self.ox = self.rect.x + self.fit_o[0] * z - px
        self.oy = self.rect.y + self.fit_o[1] * z - py

    def touched(self) -> None:
        self.changed_at = self.clock()

    def set_zoom(self, z: float, about: Optional[Point] = None) -> None:
        """Zoom to ``z`` (1 .. ZOOM_MAX) keeping the map point under ``about`` (screen
        pixels; default: the view's centre) where it is."""
        z = min(ZOOM_MAX, max(1.0, float(z)))
        if about is None:
            about = self.rect.center
        ax, ay = about[0] - self.rect.x, about[1] - self.rect.y
        wx, wy = (self.pan[0] + ax) / self.zoom, (self.pan[1] + ay) / self.zoom  # zoom-1 pixels
        if abs(z - self.zoom) < 1e-9:
            return
        self.zoom = z
        self.pan = (wx * z - ax, wy * z - ay)
        self.settle()
        self.touched()

    def zoom_step(self, steps: int, about: Optional[Point] = None) -> None:
        """``steps`` levels of ZOOM_LEVELS in (positive) or out (negative)."""
        i = min(range(len(ZOOM_LEVELS)), key=lambda k: abs(ZOOM_LEVELS[k] - self.zoom))
        i = min(len(ZOOM_LEVELS) - 1, max(0, i + steps))
        self.set_zoom(ZOOM_LEVELS[i], about)

    def pan_by(self, dx: float, dy: float) -> None:
        """Move the map by (dx, dy) screen pixels (the map follows a dragging hand)."""
        before = self.pan
        self.pan = (self.pan[0] - dx, self.pan[1] - dy)
        self.settle()
        if self.pan != before:
            self.touched()

    def fit_view(self) -> None:
        """The whole board again."""
        if self.zoom != 1.0 or self.pan != (0.0, 0.0):
            self.zoom = 1.0
            self.pan = (0.0, 0.0)
            self.settle()
            self.touched()

    def view_state(self) -> dict[str, float]:
        """The zoom and the map point at the view's centre, in hex units (any window size)."""
        cx, cy = self.rect.center
        hx = (cx - self.ox) / self.size
        hy = (cy - self.oy) / self.size
        return {"zoom": round(self.zoom, 4), "cx": round(hx, 3), "cy": round(hy, 3)}

    def set_view_state(self, d: Mapping[str, Any]) -> None:
        """Restore :meth:`view_state` (values out of range are clamped; junk is ignored)."""
        try:
            z = min(ZOOM_MAX, max(1.0, float(d.get("zoom", 1.0))))
            hx, hy = float(d.get("cx")), float(d.get("cy"))  # type: ignore[arg-type]  # None: junk
        except (TypeError, ValueError, AttributeError):
            return
        if not (math.isfinite(z) and math.isfinite(hx) and math.isfinite(hy)):
            return
        self.zoom = z
        S = self.fit_size * z
        W, H = self.rect.size
        self.pan = (self.fit_o[0] * z + hx * S - W / 2, self.fit_o[1] * z + hy * S - H / 2)
        self.settle()
        self.touched()

    def ensure_visible(self, h: Hex, margin: float = 2.5) -> None:
        """Pan so that hex ``h`` is in the view, ``margin`` hexes from its edges if it can."""
        if self.zoom == 1.0 or h not in self.board.terrain:
            return
        x, y = self.hex_to_screen(h)
        m = self.size * margin
        r = self.rect.inflate(-2 * m, -2 * m) if self.rect.w > 4 * m and self.rect.h > 4 * m else self.rect
        dx = (r.left - x) if x < r.left else (r.right - x) if x > r.right else 0
        dy = (r.top - y) if y < r.top else (r.bottom - y) if y > r.bottom else 0
        if dx or dy:
            self.pan_by(dx, dy)

    # ------------------------------------------------------------ hexes and pixels

    def visible_hexes(self) -> list[Hex]:
        """The map hexes whose centre is in the view."""
        r = self.rect
        return [h for h in self.board.terrain if r.collidepoint(self.hex_to_screen(h))]

    def hex_to_screen(self, h: Hex) -> Point:
        x, y = hexgrid.to_pixel(h, self.size)
        return (self.ox + x, self.oy + y)

    def screen_to_hex(self, x: float, y: float) -> Optional[Hex]:
        h = hexgrid.from_pixel(x - self.ox, y - self.oy, self.size)
        return h if h in self.board.terrain else None

    def hex_polygon(self, h: Hex) -> list[Point]:
        return [(self.ox + x, self.oy + y) for x, y in hexgrid.corners(h, self.size)]
