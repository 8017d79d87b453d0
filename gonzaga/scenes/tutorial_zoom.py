"""The map's move to what a tutorial step points at (``scenes/tutorial_director.py``): it zooms in
on the step's hexes and keeps them in view, moving there smoothly (at once with instant speed or
reduced motion); F still shows the whole board.

A part with explicit inputs (:class:`TutorialZoom`): the hexes the step marks, the board renderer
and the motion's duration scale. It draws nothing; it sets the renderer's view."""
from __future__ import annotations

from typing import Any, Callable, Optional

from ..ui.motion import Animator, Tween, ease_in_out, lerp


class TutorialZoom:
    """The map's move. Inputs: ``hexes`` (the hexes the step points at, maybe none), ``renderer``
    (the board renderer, None before the first layout) and ``scale`` (the motion's duration scale:
    0 for instant speed or reduced motion). ``shown``: the first step's target was shown (once
    the map was laid out)."""

    def __init__(self, hexes: Callable[[], list[Any]], renderer: Callable[[], Any], scale: Callable[[], float]):
        self.hexes = hexes
        self.renderer = renderer
        self.anim = Animator(scale)
        self.tween: Optional[Tween] = None  # the move under way
        self.shown = False

    def show(self) -> None:
        """Zoom in on the step's hexes (to twice the board's size at least) and keep them in view."""
        hx = self.hexes()
        r = self.renderer()
        if not hx or r is None:
            return
        start = r.view_state()
        pts = [r.hex_to_screen(h) for h in hx]
        centre = (sum(p[0] for p in pts) / len(pts), sum(p[1] for p in pts) / len(pts))
        if r.zoom < 1.99:
            r.set_zoom(2.0, about=centre)
        for h in hx:
            r.ensure_visible(h, margin=4.0)
        end = r.view_state()
        self.anim.clear("zoom")
        self.tween = None
        if end != start:
            tw = self.anim.add("zoom", 0.6, ease=ease_in_out, start=start, end=end)
            if not tw.done:
                self.tween = tw
                r.set_view_state(start)  # the frames between go from here to there

    def update(self, dt: float) -> None:
        """One frame of the move; the first step's target once the map exists."""
        r = self.renderer()
        tw = self.tween
        if tw is not None and r is not None:
            self.anim.update(dt)
            a, b = tw.data["start"], tw.data["end"]
            if tw.done:
                self.tween = None
                r.set_view_state(b)
            else:
                r.set_view_state({k: lerp(a[k], b[k], tw.p) for k in ("zoom", "cx", "cy")})
        if not self.shown and r is not None:
            self.shown = True
            self.show()
