"""The bot interface and the registry of bots by name.

A bot sees only a seat's view (``gonzaga.rules.view``), never the full state,
and draws randomness from its own seeded generator.
"""
from __future__ import annotations

import random
from typing import Callable

from ..rules import Action, GameState


class Bot:
    """Chooses an action for ``seat`` from that seat's view."""

    name = "bot"

    def __init__(self, seed: int = 0):
        self.rng = random.Random(seed)

    def choose(self, view: GameState, seat: int) -> Action:  # pragma: no cover - interface
        raise NotImplementedError


_REGISTRY: dict[str, Callable[[int], Bot]] = {}


def register(name: str, factory: Callable[[int], Bot]) -> None:
    _REGISTRY[name] = factory


def bot_names() -> list[str]:
    _load_all()
    return sorted(_REGISTRY)


def make_bot(name: str, seed: int = 0) -> Bot:
    """A new bot by name (``random``, ``greedy``, ...); KeyError names the known ones."""
    _load_all()
    if name not in _REGISTRY:
        raise KeyError(f"unknown bot {name!r}; known: {', '.join(sorted(_REGISTRY))}")
    return _REGISTRY[name](seed)


def _load_all() -> None:
    # importing the modules registers their bots
    from . import bots  # noqa: F401
    try:
        from . import levels  # noqa: F401  (easy, medium, hard)
    except ImportError:
        pass
