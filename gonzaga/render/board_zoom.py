"""The static layers the view shows: the fitted board (zoom 1), built once per rect size, and
at other zooms a crisp layer covering the view and a margin, built on a background thread once
the view has rested for a moment. Until it is ready (while zooming or panning fast) the best
layer there is is scaled, so no frame waits for a rebuild."""
from __future__ import annotations

import logging
import math
import os
import sys
import threading
from collections.abc import Callable
from typing import Optional

import pygame

from .board_camera import BoardCamera
from .board_frame import Cancelled, Layer

SETTLE_S = 0.12  # the view must rest this long before a crisp zoomed layer is built
WINDOW_MARGIN = 0.2  # a zoomed layer covers the view and this fraction of it on each side

#: prepare(zoom, window, cancel) -> a build of that layer to run (on any thread); what it reads
#: of the view is read when it is prepared, on the frame loop's thread
Prepare = Callable[[float, pygame.Rect, Optional[threading.Event]], Callable[[], Layer]]

_RUNNING: set[threading.Thread] = set()  # layer-builder threads not finished yet


def _join_builders() -> None:
    """pygame is quitting: let a layer being built finish first (fonts go away)."""
    for t in list(_RUNNING):
        t.join(timeout=5.0)


pygame.register_quit(_join_builders)


class ZoomLayers:
    """The layers of the view ``camera`` shows, built by ``prepare``. ``sync_builds``: build a
    zoomed layer at once, on this thread (tools, tests)."""

    def __init__(self, camera: BoardCamera, prepare: Prepare) -> None:
        self.camera = camera
        self.prepare = prepare
        self.fit: Optional[Layer] = None  # the whole board at zoom 1
        self.crisp: Optional[Layer] = None  # the last zoomed layer built
        self.shown: Optional[Layer] = None  # the layer the last frame showed (names, seals)
        self.temp: Optional[Layer] = None  # a scaled stand-in while the crisp one is built
        self.job: Optional[_Job] = None
        self.sync_builds = False

    def drop(self) -> None:
        """The map's layers are drawn anew when next shown (a build under way is not wanted)."""
        self.fit = self.crisp = self.temp = self.shown = None
        if self.job is not None:
            self.job.cancel.set()
            self.job = None

    def fitted(self) -> Layer:
        """The whole board fitted into the rect (zoom 1), built once per rect size."""
        if self.fit is None:
            self.fit = self.prepare(1.0, pygame.Rect(0, 0, *self.camera.rect.size), None)()
        return self.fit

    def draw(self, surface: pygame.Surface) -> None:
        """The board's static layer at the current view: the crisp layer of this zoom when
        it covers the view, else the best layer there is, scaled (and a crisp one asked for)."""
        self._poll_job()
        fit = self.fitted()
        cam = self.camera
        z = cam.zoom
        if z == 1.0:
            surface.blit(fit.surf, cam.rect.topleft)
            self.shown = fit
            return
        W, H = cam.rect.size
        view = pygame.Rect(int(round(cam.pan[0])), int(round(cam.pan[1])), W, H)
        c = self.crisp
        if c is not None and c.zoom == z and c.window.contains(view):
            surface.blit(c.surf, cam.rect.topleft, view.move(-c.window.x, -c.window.y))
            self.shown = c
            return
        self._want_crisp(view)
        # meanwhile: the view scaled from the best layer there is (made again only when
        # the view moves or the zoom changes)
        t = self.temp
        if t is None or t.zoom != z or not t.window.contains(view):
            t = self.temp = self._scaled_layer(view, fit)
        surface.blit(t.surf, cam.rect.topleft, view.move(-t.window.x, -t.window.y))
        if c is not None and c.zoom == z and c.window.colliderect(view):
            part = c.window.clip(view)
            surface.blit(c.surf, (cam.rect.x + part.x - view.x, cam.rect.y + part.y - view.y),
                         part.move(-c.window.x, -c.window.y))
        self.shown = t

    def _window(self, view: pygame.Rect) -> pygame.Rect:
        """The part of the world a zoomed layer covers: the view and a margin, in the world."""
        z = self.camera.zoom
        W, H = self.camera.rect.size
        world = pygame.Rect(0, 0, int(math.ceil(W * z)), int(math.ceil(H * z)))
        mw, mh = int(W * WINDOW_MARGIN), int(H * WINDOW_MARGIN)
        win = pygame.Rect(0, 0, min(world.w, W + 2 * mw), min(world.h, H + 2 * mh))
        win.center = view.center
        win.clamp_ip(world)
        return win

    def _scaled_layer(self, view: pygame.Rect, fit: Layer) -> Layer:
        """A stand-in for the crisp layer of this zoom: ``view`` cut from the best layer built (a
        zoomed one that covers it, else the fitted board) and scaled (nearest pixel: fast). No
        site names on it (they would be blurred)."""
        z = self.camera.zoom
        win = pygame.Rect(view)  # the view alone: cheaper to scale at each wheel notch
        src = fit
        cand = self.crisp  # (never a scaled one: nearest-pixel twice is coarse)
        if cand is not None:
            k = cand.zoom / z
            need = pygame.Rect(int(win.x * k), int(win.y * k), int(math.ceil(win.w * k)) + 1,
                               int(math.ceil(win.h * k)) + 1)
            if cand.window.contains(need):
                src = cand
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
        return Layer(z, win, surf, src.seals, {}, [], [])

    def _want_crisp(self, view: pygame.Rect) -> None:
        """Ask for the crisp layer of this zoom around ``view`` once the view has settled."""
        cam = self.camera
        z = cam.zoom
        job = self.job
        if job is not None and job.zoom == z and job.window.contains(view):
            return
        if job is not None and job.zoom != z:
            job.cancel.set()  # not wanted any more: it stops at its next checkpoint
        if not self.sync_builds and cam.clock() - cam.changed_at < SETTLE_S:
            return
        if job is not None:  # one build at a time: the next one starts when it ends
            return
        win = self._window(view)
        if self.sync_builds:
            self.crisp = self.prepare(z, win, None)()
            return
        self.job = _Job(self.prepare, z, win, cam.rect.size)

    def _poll_job(self) -> None:
        job = self.job
        if job is None or not job.done():
            return
        self.job = None
        if job.layer is not None and job.size == self.camera.rect.size:
            self.crisp = job.layer

    def finish_builds(self) -> None:
        """Wait for the zoomed layer being built and build the one the view needs now
        (screenshots, tests, the benchmark's warm-up)."""
        if self.job is not None:
            self.job.thread.join()
            self._poll_job()
        old = self.sync_builds
        self.sync_builds = True
        try:
            self.draw(pygame.Surface((1, 1)))
        finally:
            self.sync_builds = old

    def building(self) -> bool:
        """True while a zoomed layer is being built in the background."""
        return self.job is not None and not self.job.done()


class _Job:
    """A zoomed layer built on a daemon thread (the frame loop never waits for it)."""

    def __init__(self, prepare: Prepare, zoom: float, window: pygame.Rect, size: tuple[int, int]) -> None:
        self.zoom = zoom
        self.window = pygame.Rect(window)
        self.size = size
        self.layer: Optional[Layer] = None
        self.error: Optional[BaseException] = None
        self.cancel = threading.Event()
        build = prepare(zoom, self.window, self.cancel)
        self.thread = threading.Thread(target=self._run, args=(build,), name="board-layer", daemon=True)
        # while it runs, the frame loop gets the interpreter back after 0.5 ms, not 5 ms
        self._switch: Optional[float] = sys.getswitchinterval()
        sys.setswitchinterval(min(self._switch, 0.0005))
        _RUNNING.add(self.thread)
        self.thread.start()

    def _run(self, build: Callable[[], Layer]) -> None:
        try:
            try:  # Linux: this thread yields the cores to the frame loop (nice 19)
                os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), 19)
            except (AttributeError, OSError):
                pass
            self.layer = build()
        except Cancelled:
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
