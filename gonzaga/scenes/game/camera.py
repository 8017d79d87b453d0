"""The board's view: zoom and pan by wheel, drag and keys (its memory per game is the part
``view_memory.ViewMemory``).

A part of :class:`GameScene` (see the package's docstring); it reads the scene's state and
widgets as ``self``."""
from __future__ import annotations

import logging

import pygame

from ...ui import keys

log = logging.getLogger(__name__)


class CameraMixin:
    # ------------------------------------------------------------ the view (zoom, pan)

    def _held(self) -> bool:
        """A fief (or a ring cursor) is in hand: the wheel turns it, the arrows move it."""
        pc = self.place if self._mode() == "place" else None
        if pc is None:
            return False
        if pc.mode == "wedding":
            return False
        return pc.anchor is not None or pc.dragging

    def _handle_view(self, ev) -> bool:
        """Zoom (Ctrl+wheel, the wheel when nothing is held, +/-), pan (middle or right drag,
        arrows when nothing is held), F / 0 / Home: the whole board; T: the tip by keyboard."""
        r = self.renderer
        if r is None:
            return False
        over_board = self.board_rect.collidepoint(self._mouse)
        if ev.type == pygame.MOUSEWHEEL and over_board:
            ctrl = self._ctrl or bool(pygame.key.get_mods() & pygame.KMOD_CTRL)
            if ctrl or not (self._mode() == "place" and self.place.mode == "fief" and self._held()):
                if ev.y:
                    r.zoom_step(1 if ev.y > 0 else -1, about=self._mouse)
                    self._after_view_change()
                return True
            return False
        if ev.type == pygame.MOUSEBUTTONDOWN and ev.button in (2, 3) and self.board_rect.collidepoint(ev.pos):
            self._pan_drag = [ev.button, ev.pos, False]
            return True
        if ev.type == pygame.MOUSEMOTION and self._pan_drag is not None:
            button, last, moved = self._pan_drag
            dx, dy = ev.pos[0] - last[0], ev.pos[1] - last[1]
            if not moved and abs(dx) + abs(dy) < 5:
                return True
            self._pan_drag = [button, ev.pos, True]
            r.pan_by(dx, dy)
            self._after_view_change()
            return True
        if ev.type == pygame.MOUSEBUTTONUP and ev.button in (2, 3) and self._pan_drag is not None:
            button, _last, moved = self._pan_drag
            self._pan_drag = None
            if ev.button == 3 and not moved and self._mode() == "place" and self.place.mode == "fief":
                self.rotate(1)  # a right click (no drag) turns the fief
            return True
        if ev.type == pygame.KEYDOWN:
            k = ev.key
            if keys.pressed(ev, "zoom_in"):
                r.zoom_step(1, about=self._zoom_point())
                self._after_view_change()
                return True
            if keys.pressed(ev, "zoom_out"):
                r.zoom_step(-1, about=self._zoom_point())
                self._after_view_change()
                return True
            if keys.pressed(ev, "whole_board"):
                r.fit_view()
                self._after_view_change()
                return True
            arrows = {pygame.K_LEFT: (1, 0), pygame.K_RIGHT: (-1, 0), pygame.K_UP: (0, 1), pygame.K_DOWN: (0, -1)}
            if k in arrows and r.zoom > 1.0 and not self._held() and not (
                    self._mode() == "place" and self.place.mode == "wedding" and self.place.cursor is not None):
                dx, dy = arrows[k]
                r.pan_by(dx * self.board_rect.w * 0.2, dy * self.board_rect.h * 0.2)
                self._after_view_change()
                return True
            if keys.pressed(ev, "tip"):
                self._keyboard_tip()
                return True
        return False

    def _zoom_point(self):
        """+/- zoom about the ghost when there is one, else about the pointer on the map,
        else about the view's centre."""
        pc = self.place if self._mode() == "place" else None
        at = (pc.anchor if pc.mode == "fief" else pc.cursor) if pc is not None else None
        if at is not None:
            return self.renderer.hex_to_screen(at)
        if self.board_rect.collidepoint(self._mouse):
            return self._mouse
        return self.board_rect.center

    def _after_view_change(self) -> None:
        """The map moved under a still pointer: the ghost being dragged follows the pointer."""
        pc = self.place if self._mode() == "place" else None
        if pc is not None and pc.dragging and self.board_rect.collidepoint(self._mouse):
            pc.set_anchor(self.renderer.screen_to_hex(*self._mouse))
        self.tooltip.hide()
