"""The table of scene names (Tuxemon's state manager): a name -> a factory that makes that
scene for the app. Scenes open one another by name through the scene stack
(``app.stack.push("game", session)``, ``app.stack.replace("title")``), so no scene imports
another to show it; ``scenes/catalog.py`` fills the table, explicitly, in one place.

A factory is called as ``factory(app, *args, **kwargs)`` and returns a :class:`Scene`.
"""
from __future__ import annotations

from typing import Any, Callable, Generic, TypeVar

S = TypeVar("S")  # what the factories make: a ``base.Scene`` (not imported here: base imports this table)


class UnknownScene(KeyError):
    """A scene was asked for by a name nobody registered (a programming error)."""

    def __str__(self) -> str:
        return f"no scene is registered as {self.args[0]!r}"


class SceneRegistry(Generic[S]):
    """Scene names and their factories."""

    def __init__(self) -> None:
        self._factories: dict[str, Callable[..., S]] = {}

    def register(self, name: str, factory: Callable[..., S]) -> None:
        if name in self._factories:
            raise ValueError(f"the scene name {name!r} is registered twice")
        self._factories[name] = factory

    def make(self, name: str, app: Any, *args: Any, **kwargs: Any) -> S:
        try:
            factory = self._factories[name]
        except KeyError:
            raise UnknownScene(name) from None
        return factory(app, *args, **kwargs)

    def names(self) -> list[str]:
        return sorted(self._factories)

    def __contains__(self, name: str) -> bool:
        return name in self._factories
