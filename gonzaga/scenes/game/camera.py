"""The board's view: zoom and pan by wheel, drag and keys (its memory per game is the part
``view_memory.ViewMemory``).

A part of the game screen with explicit inputs (:class:`Camera`): the board renderer, the map's
rectangle, the pointer, the placement in hand, and what it asks of the screen (turn the fief, show
the tip by keyboard, hide the tip once the map moved)."""
from __future__ import annotations

import logging
from typing import Any, Callable, Optional

import pygame

from ...ui import keys

log = logging.getLogger(__name__)

Point = tuple[int, int]


class Camera:
    """Zoom and pan. Inputs: ``renderer`` (the board renderer, or None before the first layout),
    ``board`` (the map's rectangle), ``mouse`` (the pointer), ``placing`` (the placement controller
    while a human places, else None), ``rotate`` (turn the fief in hand), ``tip`` (T: the tip by
    keyboard) and ``moved`` (the map moved under the pointer). ``ctrl``: a Ctrl key is held (the
    screen follows the keys: an overlay's events do not reach this part);
    ``pan_drag``: a pan by the middle or right button under way."""

    def __init__(self, renderer: Callable[[], Any], board: Callable[[], pygame.Rect], mouse: Callable[[], Point],
                 placing: Callable[[], Any], rotate: Callable[[int], None], tip: Callable[[], None],
                 moved: Callable[[], None]):
        self.renderer = renderer
        self.board = board
        self.mouse = mouse
        self.placing = placing
        self.rotate = rotate
        self.tip = tip
        self.moved = moved
        self.ctrl = False
        self.pan_drag: Optional[tuple[int, Point, bool]] = None  # (button, last pos, moved)

    def held(self) -> bool:
        """A fief (or a ring cursor) is in hand: the wheel turns it, the arrows move it."""
        pc = self.placing()
        if pc is None or pc.mode == "wedding":
            return False
        return bool(pc.anchor is not None or pc.dragging)

    def handle(self, ev: pygame.event.Event) -> bool:
        """Zoom (Ctrl+wheel, the wheel when nothing is held, +/-), pan (middle or right drag,
        arrows when nothing is held), F / 0 / Home: the whole board; T: the tip by keyboard."""
        r = self.renderer()
        if r is None:
            return False
        board = self.board()
        mouse = self.mouse()
        pc = self.placing()
        if ev.type == pygame.MOUSEWHEEL and board.collidepoint(mouse):
            ctrl = self.ctrl or bool(pygame.key.get_mods() & pygame.KMOD_CTRL)
            if ctrl or not (pc is not None and pc.mode == "fief" and self.held()):
                if ev.y:
                    r.zoom_step(1 if ev.y > 0 else -1, about=mouse)
                    self.after_change()
                return True
            return False
        if ev.type == pygame.MOUSEBUTTONDOWN and ev.button in (2, 3) and board.collidepoint(ev.pos):
            self.pan_drag = (ev.button, ev.pos, False)
            return True
        if ev.type == pygame.MOUSEMOTION and self.pan_drag is not None:
            button, last, moved = self.pan_drag
            dx, dy = ev.pos[0] - last[0], ev.pos[1] - last[1]
            if not moved and abs(dx) + abs(dy) < 5:
                return True
            self.pan_drag = (button, ev.pos, True)
            r.pan_by(dx, dy)
            self.after_change()
            return True
        if ev.type == pygame.MOUSEBUTTONUP and ev.button in (2, 3) and self.pan_drag is not None:
            button, _last, moved = self.pan_drag
            self.pan_drag = None
            if ev.button == 3 and not moved and pc is not None and pc.mode == "fief":
                self.rotate(1)  # a right click (no drag) turns the fief
            return True
        if ev.type == pygame.KEYDOWN:
            k = ev.key
            if keys.pressed(ev, "zoom_in"):
                r.zoom_step(1, about=self.zoom_point())
                self.after_change()
                return True
            if keys.pressed(ev, "zoom_out"):
                r.zoom_step(-1, about=self.zoom_point())
                self.after_change()
                return True
            if keys.pressed(ev, "whole_board"):
                r.fit_view()
                self.after_change()
                return True
            arrows = {pygame.K_LEFT: (1, 0), pygame.K_RIGHT: (-1, 0), pygame.K_UP: (0, 1), pygame.K_DOWN: (0, -1)}
            if k in arrows and r.zoom > 1.0 and not self.held() and not (
                    pc is not None and pc.mode == "wedding" and pc.cursor is not None):
                dx, dy = arrows[k]
                r.pan_by(dx * board.w * 0.2, dy * board.h * 0.2)
                self.after_change()
                return True
            if keys.pressed(ev, "tip"):
                self.tip()
                return True
        return False

    def zoom_point(self) -> Any:
        """+/- zoom about the ghost when there is one, else about the pointer on the map,
        else about the view's centre."""
        pc = self.placing()
        at = (pc.anchor if pc.mode == "fief" else pc.cursor) if pc is not None else None
        if at is not None:
            return self.renderer().hex_to_screen(at)
        mouse = self.mouse()
        board = self.board()
        if board.collidepoint(mouse):
            return mouse
        return board.center

    def after_change(self) -> None:
        """The map moved under a still pointer: the ghost being dragged follows the pointer."""
        pc = self.placing()
        mouse = self.mouse()
        if pc is not None and pc.dragging and self.board().collidepoint(mouse):
            pc.set_anchor(self.renderer().screen_to_hex(*mouse))
        self.moved()
