"""The bot interface and the registry of bots by name.

A bot sees only a seat's view (``gonzaga.rules.view``), never the full state,
and draws randomness from its own seeded generator.
"""
from __future__ import annotations

import random
from typing import Callable, Optional

from ..rules import Action, GameState


class Bot:
    """Chooses an action for ``seat`` from that seat's view."""

    name = "bot"

    def __init__(self, seed: int = 0):
        self.rng = random.Random(seed)

    def choose(self, view: GameState, seat: int) -> Action:  # pragma: no cover - interface
        raise NotImplementedError


_REGISTRY: dict[str, Callable[[int], Bot]] = {}
_BUDGETED = {"hard", "expert"}  # levels whose factory takes ``iterations=``


def register(name: str, factory: Callable[[int], Bot]) -> None:
    _REGISTRY[name] = factory


def bot_names() -> list[str]:
    _load_all()
    return sorted(_REGISTRY)


def split_name(name: str) -> tuple[str, Optional[int]]:
    """``"expert@800"`` -> ("expert", 800): a search level with a pinned iteration budget."""
    base, sep, n = name.partition("@")
    if sep:
        try:
            return base, int(n)
        except ValueError:
            raise KeyError(f"bad iteration budget in bot name {name!r}") from None
    return name, None


def is_known(name: str) -> bool:
    """A registered name, or ``level@iterations`` for a level that takes an iteration budget."""
    _load_all()
    base, iters = split_name(name) if "@" in name else (name, None)
    return base in _REGISTRY and (iters is None or base in _BUDGETED)


def make_bot(name: str, seed: int = 0) -> Bot:
    """A new bot by name (``random``, ``greedy``, ...); KeyError names the known ones.

    ``hard@150`` or ``expert@800`` pin a search level's iteration budget (reproducible)."""
    _load_all()
    base, iters = split_name(name)
    if base not in _REGISTRY or (iters is not None and base not in _BUDGETED):
        raise KeyError(f"unknown bot {name!r}; known: {', '.join(sorted(_REGISTRY))}")
    if iters is not None:
        bot = _REGISTRY[base](seed, iterations=iters)
        bot.name = name
        return bot
    return _REGISTRY[base](seed)


def _load_all() -> None:
    # importing the modules registers their bots
    from . import bots  # noqa: F401
    try:
        from . import levels  # noqa: F401  (easy, medium, hard)
        from . import expert  # noqa: F401
    except ImportError:
        pass
