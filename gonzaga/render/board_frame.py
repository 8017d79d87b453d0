"""Where a static layer being built stands (:class:`LayerFrame`) and what the build yields
(:class:`BuiltLayer`). A frame is a snapshot taken on the frame loop's thread: a build on
another thread reads it alone, never the renderer, so the view may change meanwhile."""
from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import Optional

import pygame

from ..rules import hexgrid
from ..rules.hexgrid import Hex

Point = tuple[float, float]


class Cancelled(Exception):
    """A zoomed layer's build was called off (the view zoomed on)."""


@dataclass(frozen=True)
class LayerFrame:
    """A layer ``w`` x ``h`` pixels of the board at hex size ``size``: hex (0, 0)'s centre at
    (``ox``, ``oy``) (layer pixels), the whole board's rect ``world`` (layer pixels; a zoomed
    layer is a window of it), the fitted board's hex size ``fit_size`` and the parts of the
    rect kept clear (its own coordinates at zoom 1). ``cancel`` set: the layer is not wanted."""

    size: float
    ox: float
    oy: float
    w: int
    h: int
    world: pygame.Rect
    fit_size: float
    keep_clear: tuple[pygame.Rect, ...] = ()
    cancel: Optional[threading.Event] = None

    def local(self, p: Point) -> Point:
        """Hex-unit point -> layer pixel."""
        return (self.ox + p[0] * self.size, self.oy + p[1] * self.size)

    def local_poly(self, h: Hex, unit: list[Point], scale: float = 1.0) -> list[Point]:
        """The corners of ``h`` in layer pixels, the hex scaled about its centre (``unit``: the
        unit hex's corners)."""
        cx, cy = self.local(hexgrid.to_pixel(h))
        k = self.size * scale
        return [(cx + x * k, cy + y * k) for x, y in unit]

    def checkpoint(self) -> None:
        """A layer that is no longer wanted stops here."""
        if self.cancel is not None and self.cancel.is_set():
            raise Cancelled()


@dataclass
class BuiltLayer:
    """What a static build yields besides its surface (layer pixels): the regions' seal spots,
    the boxes of every name and badge, the site names (drawn again above the pieces) and the
    decorations' boxes (None when not drawn)."""

    seal_at: dict[str, Point] = field(default_factory=dict)
    label_boxes: list[pygame.Rect] = field(default_factory=list)
    badge_boxes: list[pygame.Rect] = field(default_factory=list)
    site_names: dict[Hex, tuple[pygame.Surface, tuple[int, int]]] = field(default_factory=dict)
    compass: Optional[pygame.Rect] = None
    cartouche: Optional[pygame.Rect] = None
    legend: Optional[pygame.Rect] = None


class Layer:
    """A built static layer: ``window`` (world pixels at ``zoom``) of the board, the seal
    positions and site names (hex units), the label and badge boxes and the decorations' boxes
    (layer pixels; None when not drawn)."""

    def __init__(self, zoom: float, window: pygame.Rect, surf: pygame.Surface, seals: dict[str, Point],
                 names: dict[Hex, tuple[pygame.Surface, Point]], label_boxes: list[pygame.Rect],
                 badge_boxes: list[pygame.Rect]) -> None:
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

    @classmethod
    def from_build(cls, zoom: float, window: pygame.Rect, surf: pygame.Surface, frame: LayerFrame,
                   out: BuiltLayer) -> "Layer":
        """The layer ``frame`` built: seal spots and site names turned into hex units."""
        S = frame.size
        seals = {reg: ((x - frame.ox) / S, (y - frame.oy) / S) for reg, (x, y) in out.seal_at.items()}
        names = {h: (img, ((x - frame.ox) / S, (y - frame.oy) / S)) for h, (img, (x, y)) in out.site_names.items()}
        layer = cls(zoom, pygame.Rect(window), surf, seals, names, out.label_boxes, out.badge_boxes)
        layer.compass, layer.cartouche, layer.legend = out.compass, out.cartouche, out.legend
        return layer
