"""Every shortcut of the game in one table, and the player's own keys over it (issue 49).

``ACTIONS`` is the one list: an action's name, its key by default (pygame's key name) and the
modifier it needs. The screens ask ``pressed(ev, "rotate")`` instead of naming a key; the
settings' Keys screen (``scenes/settings_keys.py``) changes a binding with ``Bindings.assign``,
which refuses a key another action holds (the refusal names it) and the keys that move around
every screen (Tab, Enter, Space, Escape, the arrows). The player's choices are kept in
``Settings.keys`` (action -> key name); ``use(settings.keys)`` makes them the current ones.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

import pygame

from ..words import i18n


@dataclass(frozen=True)
class Action:
    name: str
    key: str  # pygame.key.name of the default key
    mod: str = ""  # "shift" or "ctrl": the modifier it needs ("" none)
    also: tuple[str, ...] = ()  # further default keys (the keypad's +, Home for the whole board)
    face: str = ""  # the default key as the help texts show it, when not its name ("+" for "=")


ACTIONS: tuple[Action, ...] = (
    Action("rotate", "r"),
    Action("rotate_back", "e"),
    Action("wedding", "w"),
    Action("donate", "d", "shift"),
    Action("best_places", "b"),  # speech: read the best places for the fief in hand
    Action("objective", "o"),
    Action("hint", "h"),
    Action("take_back", "z", "ctrl"),
    Action("zoom_in", "=", also=("+", "[+]"), face="+"),
    Action("zoom_out", "-", also=("[-]",)),
    Action("whole_board", "f", also=("0", "[0]", "home")),
    Action("tip", "t"),
    Action("help", "f1"),
    Action("fullscreen", "f11"),
    Action("screenshot", "f12"),
)
BY_NAME = {a.name: a for a in ACTIONS}
# keys that move around every screen: never a shortcut of the player's
RESERVED = frozenset({"tab", "return", "enter", "space", "escape", "left", "right", "up", "down", "left shift",
                      "right shift", "left ctrl", "right ctrl", "left alt", "right alt"})
MODIFIER_KEYS = frozenset({pygame.K_LSHIFT, pygame.K_RSHIFT, pygame.K_LCTRL, pygame.K_RCTRL, pygame.K_LALT,
                           pygame.K_RALT, pygame.K_LMETA, pygame.K_RMETA, pygame.K_LGUI, pygame.K_RGUI})
MODS = {"shift": pygame.KMOD_SHIFT, "ctrl": pygame.KMOD_CTRL}


def key_code(name: str) -> Optional[int]:
    try:
        return pygame.key.key_code(name)
    except (ValueError, pygame.error):
        return None


class Bindings:
    """The keys now: the defaults with the player's ``own`` (action -> key name) over them."""

    def __init__(self, own: Optional[dict[str, str]] = None) -> None:
        self.own: dict[str, str] = {}
        for name, k in (own or {}).items():  # a saved binding that no longer makes sense is dropped
            if name in BY_NAME and key_code(k) is not None and k not in RESERVED:
                self.own[name] = k
        if self._clash():
            self.own = {}
        # the labels as read in each language: the bottom bar's help line asks for every label
        # every frame (ui bench: 0.5 s of 15 in the drag and planning sweeps before this)
        self._labels: dict[str, dict[str, str]] = {}

    def key(self, name: str) -> str:
        return self.own.get(name, BY_NAME[name].key)

    def keys(self, name: str) -> tuple[str, ...]:
        """Every key of the action: the player's one, or the default and its companions."""
        return (self.own[name],) if name in self.own else (BY_NAME[name].key,) + BY_NAME[name].also

    def _clash(self) -> bool:
        seen = set()
        for a in ACTIONS:
            for k in self.keys(a.name):
                if (k, a.mod) in seen:
                    return True
                seen.add((k, a.mod))
        return False

    def holder(self, key: str, mod: str, but: str = "") -> Optional[str]:
        """The action other than ``but`` that ``key`` (with ``mod``) does now, if any."""
        for a in ACTIONS:
            if a.name != but and a.mod == mod and key in self.keys(a.name):
                return a.name
        return None

    def assign(self, name: str, key: str) -> Optional[str]:
        """Bind ``key`` to the action ``name``; None when done, else why not (in words)."""
        if key in RESERVED or key_code(key) is None:
            return i18n.t("keys.reserved", k=shown(key))
        other = self.holder(key, BY_NAME[name].mod, but=name)
        if other is not None:
            return i18n.t("keys.taken", k=shown(key), action=i18n.t(f"keys.action.{other}"))
        if key == BY_NAME[name].key:
            self.own.pop(name, None)
        else:
            self.own[name] = key
        self._labels.clear()
        return None

    def label(self, name: str) -> str:
        """The key as a player reads it: "Shift+D", "F11", "R"."""
        a = BY_NAME[name]
        face = a.face if a.face and name not in self.own else shown(self.key(name))
        return (i18n.t(f"keys.mod.{a.mod}") + "+" if a.mod else "") + face

    def labels(self) -> dict[str, str]:
        """Every action's key as a player reads it: the help texts' placeholders ({rotate}...)."""
        lang = i18n.language()
        if lang not in self._labels:
            self._labels[lang] = {a.name: self.label(a.name) for a in ACTIONS}
        return dict(self._labels[lang])

    def pressed(self, ev, name: str) -> bool:
        """``ev`` is a key press of the action (with its modifier, and without Ctrl/Alt otherwise)."""
        if ev.type != pygame.KEYDOWN:
            return False
        a = BY_NAME[name]
        mods = getattr(ev, "mod", 0)
        if a.mod:
            if not mods & MODS[a.mod]:
                return False
        elif mods & (pygame.KMOD_CTRL | pygame.KMOD_ALT | pygame.KMOD_META):
            return False
        return any(ev.key == key_code(k) for k in self.keys(name))


def shown(key: str) -> str:
    return key.upper() if len(key) == 1 or key.startswith("f") and key[1:].isdigit() else key.title()


_now = Bindings()


def use(own: Optional[dict[str, str]]) -> Bindings:
    """Make the player's keys the current ones (at start and after every change)."""
    global _now
    _now = Bindings(own)
    return _now


def current() -> Bindings:
    return _now


def pressed(ev, name: str) -> bool:
    return _now.pressed(ev, name)


def label(name: str) -> str:
    return _now.label(name)


def labels() -> dict[str, str]:
    return _now.labels()
