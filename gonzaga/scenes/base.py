"""Scenes and the scene stack (Tuxemon-style): the top scene gets the events; scenes are
drawn from the lowest opaque one upward; ``draw`` never changes game state.

A scene's ``app`` is typed ``Any``: the App is the floor above the screens (gonzaga/app.py), which
they may not import, and it is the one object every screen asks for its services."""
from __future__ import annotations

from typing import Any, Optional, Union

import pygame

from ..ui import keys, widgets as W
from ..words.rules_pages import page_for_rule
from ..ui.widgets import Widgets
from .registry import SceneRegistry, UnknownScene


class Scene:
    """One screen or overlay. ``opaque`` scenes hide what is below them."""

    opaque = True
    blocks_ai = True  # while this scene is on top, AI seats wait (menus, the reveal, dialogs)
    name = "scene"

    def __init__(self, app: Any) -> None:
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
    """The screens, bottom to top. ``push`` and ``replace`` take a scene, or a registered name and
    the arguments of its factory (``push("game", session)``: see ``registry.py``)."""

    def __init__(self, app: Any = None, registry: Optional[SceneRegistry[Scene]] = None) -> None:
        self.app = app
        self.registry = registry
        self.scenes: list[Scene] = []

    def make(self, scene: Union[Scene, str], *args: Any, **kwargs: Any) -> Scene:
        """``scene`` itself, or the scene its name's factory makes for the app."""
        if isinstance(scene, Scene):
            if args or kwargs:
                raise TypeError("arguments go with a scene's name, not with a scene")
            return scene
        if self.registry is None:
            raise UnknownScene(scene)
        return self.registry.make(scene, self.app, *args, **kwargs)

    @property
    def top(self) -> Optional[Scene]:
        return self.scenes[-1] if self.scenes else None

    def push(self, scene: Union[Scene, str], *args: Any, **kwargs: Any) -> Scene:
        scene = self.make(scene, *args, **kwargs)
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

    def replace(self, scene: Union[Scene, str], *args: Any, **kwargs: Any) -> Scene:
        scene = self.make(scene, *args, **kwargs)  # made first: a scene may read the stack it replaces
        while self.scenes:
            self.scenes.pop().leave()
        return self.push(scene)

    def find(self, kind: Union[str, type[Scene]]) -> Optional[Scene]:
        """The highest scene of a class, or of a name (``find("reveal")``)."""
        for s in reversed(self.scenes):
            if (s.name == kind) if isinstance(kind, str) else isinstance(s, kind):
                return s
        return None

    def visible(self) -> list[Scene]:
        start = 0
        for i in range(len(self.scenes) - 1, -1, -1):
            if self.scenes[i].opaque:
                start = i
                break
        return self.scenes[start:]


# ---------------------------------------------------------------- the "?" on every screen

#: the rules page each screen's "?" (or F1) opens; a scene may answer with ``help_page()``
HELP_PAGES = {"title": "goal", "new_game": "goal", "settings": "controls", "load": "controls",
              "menu": "controls", "objective": "objective", "reveal": "order", "message": "goal",
              "prompt": "controls", "error": "goal"}
HELP_HIDDEN = ("rules", "curtain")  # the reference itself; the privacy curtain stays bare


class HelpCorner:
    """The "?" button in a corner of every screen, and F1: both open the rules reference at
    the page for the screen on top. The App hands it every event first and draws it last."""

    SIZE = (38, 32)

    def __init__(self, app: Any) -> None:
        self.app = app
        self.hover = False

    def page(self, scene: Scene) -> Optional[str]:
        fn = getattr(scene, "help_page", None)
        page: Optional[str] = fn() if callable(fn) else None
        if page is None and scene.name == "game":
            page = game_page(scene)
        return page or HELP_PAGES.get(scene.name, "goal")

    def rect(self, scene: Optional[Scene]) -> Optional[pygame.Rect]:
        if scene is None or scene.name in HELP_HIDDEN:
            return None
        sc = W.sc
        w, h = sc(self.SIZE[0]), sc(self.SIZE[1])
        fn = getattr(scene, "help_rect", None)
        if callable(fn):
            placed: Optional[pygame.Rect] = fn()  # a screen that puts its "?" itself
            return placed
        bottom = getattr(scene, "bottom_rect", None)
        if scene.name == "game" and isinstance(bottom, pygame.Rect):  # the bar under the map
            return pygame.Rect(bottom.right - w - sc(10), bottom.y + sc(6), w, h - sc(4))
        box = getattr(scene, "box", None)
        if isinstance(box, pygame.Rect):  # a dialog: inside its top-right corner
            return pygame.Rect(box.right - w - sc(14), box.y + sc(14), w, h)
        return pygame.Rect(self.app.size[0] - w - sc(14), sc(12), w, h)

    def open(self) -> None:
        scene = self.app.stack.top
        if scene is not None and scene.name not in HELP_HIDDEN:
            self.app.stack.push("rules_reference", self.page(scene))

    def handle(self, ev: pygame.event.Event) -> bool:
        scene = self.app.stack.top
        if keys.pressed(ev, "help"):
            self.open()
            return True
        r = self.rect(scene)
        if r is None:
            return False
        if ev.type == pygame.MOUSEMOTION:
            self.hover = r.collidepoint(ev.pos)
        elif ev.type in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP) and ev.button == 1 and r.collidepoint(ev.pos):
            if ev.type == pygame.MOUSEBUTTONUP:
                self.open()
            return True
        return False

    def draw(self, surf: pygame.Surface) -> None:
        r = self.rect(self.app.stack.top)
        if r is None:
            return
        W.CHECK.note_box(r, "help")
        pygame.draw.rect(surf, (250, 242, 224) if self.hover else W.BUTTON_SECONDARY, r, 0, 8)
        pygame.draw.rect(surf, W.PANEL_EDGE, r, 2, 8)
        W.CHECK.owner = "help"
        W.blit_text(surf, "?", r.center, "sans_bold", 20, W.TEXT, "center")
        W.CHECK.owner = None


def refusal_rule(game: Any) -> Optional[str]:
    """The rule behind the refusal the game screen shows now (placing), or None."""
    pc = getattr(game, "place", None)
    if pc is None or game.screen_mode() != "place":
        return None
    fb = pc.feedback()
    rule: Optional[str] = None
    why = getattr(pc, "last_refusal", None)
    if fb is not None and not fb.ok and fb.rule:
        rule = fb.rule
    elif why is not None and game.message:
        rule = why.rule
    return rule


def game_page(game: Any) -> str:
    """The page for the game screen: the refusal shown, else what the player is doing."""
    rule = refusal_rule(game)
    if rule:
        return page_for_rule(rule)
    mode: str = game.screen_mode()
    if mode == "place":
        return "wedding" if game.place.mode == "wedding" else "turn"
    return {"plan": "plan", "over": "end"}.get(mode, "order")


def help_corner(app: Any) -> HelpCorner:
    """The application's "?" (made on first use)."""
    hc: Optional[HelpCorner] = getattr(app, "_help_corner", None)
    if hc is None:
        hc = app._help_corner = HelpCorner(app)
    return hc
