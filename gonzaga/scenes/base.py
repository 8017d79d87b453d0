"""Scenes and the scene stack (Tuxemon-style): the top scene gets the events; scenes are
drawn from the lowest opaque one upward; ``draw`` never changes game state."""
from __future__ import annotations

from typing import TYPE_CHECKING, Optional

import pygame

from ..ui.widgets import Widgets

if TYPE_CHECKING:  # pragma: no cover
    from ..app import App


class Scene:
    """One screen or overlay. ``opaque`` scenes hide what is below them."""

    opaque = True
    blocks_ai = True  # while this scene is on top, AI seats wait (menus, the reveal, dialogs)
    name = "scene"

    def __init__(self, app: "App"):
        self.app = app
        self.widgets = Widgets()

    # lifecycle
    def enter(self) -> None:
        self.layout(self.app.size)

    def resume(self) -> None:
        self.layout(self.app.size)

    def leave(self) -> None:
        pass

    def layout(self, size: tuple[int, int]) -> None:
        """(Re)build widget rectangles for a window of ``size``."""

    def handle(self, ev: pygame.event.Event) -> bool:
        """Return True when the event was used."""
        return self.widgets.handle(ev)

    def update(self, dt: float) -> None:
        pass

    def draw(self, surf: pygame.Surface) -> None:
        self.widgets.draw(surf)

    # what tests and the screenshot tool read: the texts a scene shows
    def visible_text(self) -> list[str]:
        return [getattr(w, "label", "") for w in self.widgets.items if w.visible]


class ModalScene(Scene):
    """An overlay that takes every event while it is on top; Esc closes it."""

    def close(self) -> None:
        if self in self.app.stack.scenes:
            self.app.stack.pop(self)

    def handle(self, ev: pygame.event.Event) -> bool:
        if ev.type == pygame.KEYDOWN and ev.key == pygame.K_ESCAPE:
            self.close()
            return True
        return self.widgets.handle(ev) or True


class SceneStack:
    def __init__(self):
        self.scenes: list[Scene] = []

    @property
    def top(self) -> Optional[Scene]:
        return self.scenes[-1] if self.scenes else None

    def push(self, scene: Scene) -> Scene:
        self.scenes.append(scene)
        scene.enter()
        return scene

    def pop(self, scene: Optional[Scene] = None) -> Scene:
        if not self.scenes:
            raise IndexError("pop from an empty scene stack")
        if scene is not None and scene in self.scenes:
            self.scenes.remove(scene)
            scene.leave()
            if self.scenes and scene is not self.scenes[-1]:
                self.scenes[-1].resume()
            return scene
        s = self.scenes.pop()
        s.leave()
        if self.scenes:
            self.scenes[-1].resume()
        return s

    def replace(self, scene: Scene) -> Scene:
        while self.scenes:
            self.scenes.pop().leave()
        return self.push(scene)

    def find(self, cls) -> Optional[Scene]:
        for s in reversed(self.scenes):
            if isinstance(s, cls):
                return s
        return None

    def visible(self) -> list[Scene]:
        start = 0
        for i in range(len(self.scenes) - 1, -1, -1):
            if self.scenes[i].opaque:
                start = i
                break
        return self.scenes[start:]
