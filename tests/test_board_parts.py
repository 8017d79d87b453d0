"""The board renderer's parts used alone (issue 45): the camera maps hexes and pixels with no
renderer around it, and a static layer is built from the view as it was when the build was
asked for, whatever the view does meanwhile (builds run on another thread)."""
from __future__ import annotations

import os
import threading

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame  # noqa: E402
import pytest  # noqa: E402

from gonzaga.render.board_camera import ZOOM_MAX, BoardCamera  # noqa: E402
from gonzaga.render.board_frame import Cancelled  # noqa: E402
from gonzaga.render.board_map import BoardMap  # noqa: E402
from gonzaga.render.board_view import BoardRenderer  # noqa: E402
from gonzaga.rules.content import load_content  # noqa: E402


@pytest.fixture(scope="module")
def content():
    pygame.init()
    return load_content()


def _camera(board: BoardMap, rect: pygame.Rect) -> BoardCamera:
    cam = BoardCamera(board, clock=lambda: 0.0)
    cam.place(rect)
    cam.settle()
    return cam


def test_the_camera_alone_zooms_about_a_point_and_keeps_the_view_on_the_board(content):
    board = BoardMap(content)
    cam = _camera(board, pygame.Rect(40, 30, 900, 600))
    land = sorted(h for h, t in board.terrain.items() if t == "land")
    h = min(land, key=lambda c: abs(cam.hex_to_screen(c)[0] - 490) + abs(cam.hex_to_screen(c)[1] - 330))
    p = cam.hex_to_screen(h)
    cam.set_zoom(2.0, about=p)
    assert cam.zoom == 2.0 and cam.size == pytest.approx(2 * cam.fit_size)
    x, y = cam.hex_to_screen(h)
    assert (x, y) == pytest.approx(p, abs=1e-6)  # the point under the cursor stays put
    assert cam.screen_to_hex(x, y) == h
    cam.pan_by(10 ** 6, 10 ** 6)  # far past the board's top-left corner: clamped to it
    assert cam.pan == (0.0, 0.0)
    cam.pan_by(-(10 ** 6), -(10 ** 6))  # and past its bottom-right: the view's far edge on the world's
    assert cam.pan == pytest.approx((900 * 1.0, 600 * 1.0))
    cam.set_zoom(99)
    assert cam.zoom == ZOOM_MAX


def test_a_view_saved_in_one_window_shows_the_same_hex_in_another(content):
    board = BoardMap(content)
    small = _camera(board, pygame.Rect(0, 0, 640, 400))
    small.set_zoom(2.0)
    small.pan_by(-37, 21)
    centre = small.screen_to_hex(*small.rect.center)
    big = _camera(board, pygame.Rect(0, 0, 2560, 1440))
    big.set_view_state(small.view_state())
    assert big.zoom == 2.0
    assert big.screen_to_hex(*big.rect.center) == centre


def test_a_layer_is_built_from_the_view_it_was_asked_for_in(content):
    r = BoardRenderer(content, pygame.Rect(0, 0, 640, 400))
    window = pygame.Rect(300, 200, 768, 480)
    build = r.layers.prepare(2.0, window, None)  # asked for now; run later (another thread)
    r.set_keep_clear([pygame.Rect(0, 0, 320, 400)])  # meanwhile the map steps aside...
    r.set_rect(pygame.Rect(0, 0, 700, 500))  # ...and the window is resized
    late = build()
    fresh = BoardRenderer(content, pygame.Rect(0, 0, 640, 400)).layers.prepare(2.0, window, None)()
    assert late.label_boxes == fresh.label_boxes and late.seals == fresh.seals
    assert pygame.image.tobytes(late.surf, "RGB") == pygame.image.tobytes(fresh.surf, "RGB")


def test_a_layer_no_longer_wanted_stops(content):
    r = BoardRenderer(content, pygame.Rect(0, 0, 640, 400))
    unwanted = threading.Event()
    unwanted.set()
    with pytest.raises(Cancelled):
        r.layers.prepare(2.0, pygame.Rect(0, 0, 640, 400), unwanted)()
