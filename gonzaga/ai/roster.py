"""Every bot by name, in one table: ``LEVELS``, weakest first, read by ``make_bot`` and
``bot_names`` and by everything that lists levels: the new game and online forms and the
server (``shipped_levels``), the statistics (``level_order``), the hint (``strongest``), the
demo (``demo_levels``), the decision worker (``searches``: in a process).

A new bot is added here, with its factory and its words (``level.<name>`` in ``words/en.py``
and the catalogs), and nowhere else (no registration as a side effect of importing its module). A level that searches takes a pinned iteration budget by
name: ``expert@800`` is the expert with 800 iterations a decision (reproducible).

A level's factory is written ``"module:Class"`` and its module is imported the first time a bot
of that level is made: ``bot_names()`` (the command line's check, the new game form) then costs
nothing, and the title screen shows before the search bots are loaded.
"""
from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Any, Callable, Optional, Sequence, Union

from .base import Bot


@dataclass(frozen=True)
class Level:
    """A bot by name: ``factory(seed)`` builds it (a callable, or ``"module:Class"`` imported
    when first used); ``budgeted``: it also takes ``iterations=``."""

    name: str
    factory: Union[str, Callable[..., Bot]]
    budgeted: bool = False
    shipped: bool = False  # offered to players: the new game form, the settings, a public server
    default: bool = False  # the level a new AI seat starts at

    def build(self, *args: Any, **kwargs: Any) -> Bot:
        return _resolve(self.factory)(*args, **kwargs)


def _resolve(factory: Union[str, Callable[..., Bot]]) -> Callable[..., Bot]:
    if not isinstance(factory, str):
        return factory
    module, _, attr = factory.partition(":")
    built: Callable[..., Bot] = getattr(importlib.import_module(module), attr)
    return built


LEVELS: tuple[Level, ...] = (
    Level("random", "gonzaga.ai.bots:RandomBot"),
    Level("greedy", "gonzaga.ai.bots:GreedyBot"),
    Level("easy", "gonzaga.ai.levels:EasyBot", shipped=True),
    Level("medium", "gonzaga.ai.levels:MediumBot", shipped=True, default=True),
    Level("hard", "gonzaga.ai.search:HardBot", budgeted=True, shipped=True),
    Level("expert", "gonzaga.ai.expert:ExpertBot", budgeted=True, shipped=True),
)


def level_order() -> tuple[str, ...]:
    """Every level's name, weakest first."""
    return tuple(level.name for level in LEVELS)


def shipped_levels() -> tuple[str, ...]:
    """The levels offered to players, weakest first (as ``LEVELS`` orders them)."""
    return tuple(level.name for level in LEVELS if level.shipped)


def default_level(levels: Sequence[str]) -> str:
    """The level a new AI seat starts at, among ``levels`` (the first of them otherwise)."""
    return next((lv.name for lv in LEVELS if lv.default and lv.name in levels), levels[0])


def strongest() -> str:
    """The strongest level (a hint asks it)."""
    return LEVELS[-1].name


def demo_levels() -> list[str]:
    """The seats of a demo game: the default level, then the shipped levels below it."""
    shipped = shipped_levels()
    top = default_level(shipped) if shipped else None
    return [lv for lv in reversed(shipped) if shipped.index(lv) <= shipped.index(top)] if top else []


def searches(name: str) -> bool:
    """Whether the level of ``name`` (``hard@150`` too) searches, so thinks in a process: the
    levels that take an iteration budget."""
    base = name.partition("@")[0]
    return any(lv.name == base and lv.budgeted for lv in LEVELS)



class UnknownBot(KeyError):
    """A bot name that is not in ``LEVELS`` (or a budget on a level that takes none)."""

    def __str__(self) -> str:  # KeyError would print the message in quotes
        return str(self.args[0])


def bot_names() -> list[str]:
    return sorted(level.name for level in LEVELS)


def split_name(name: str) -> tuple[str, Optional[int]]:
    """``"expert@800"`` -> ("expert", 800): a search level with a pinned iteration budget."""
    base, sep, n = name.partition("@")
    if sep:
        try:
            return base, int(n)
        except ValueError:
            raise UnknownBot(f"bad iteration budget in bot name {name!r} (level@N takes a whole number)") from None
    return name, None


def _unknown(name: str) -> UnknownBot:
    budgeted = ", ".join(f"{level.name}@N" for level in LEVELS if level.budgeted)
    return UnknownBot(f"unknown bot {name!r}; known: {', '.join(bot_names())} ({budgeted} pins N iterations)")


def find_level(name: str) -> Level:
    """The level of a bot name (``expert`` or ``expert@800``); UnknownBot (a KeyError) lists the
    known names."""
    base, iters = split_name(name)
    for level in LEVELS:
        if level.name == base:
            if iters is not None and not level.budgeted:
                raise _unknown(name)
            return level
    raise _unknown(name)


def is_known(name: str) -> bool:
    """A name in ``LEVELS``, or ``level@iterations`` for a level that takes an iteration budget."""
    try:
        find_level(name)
    except KeyError:
        return False
    return True


def make_bot(name: str, seed: int = 0) -> Bot:
    """A new bot by name (``random``, ``greedy``, ...); UnknownBot (a KeyError) names the known ones.

    ``hard@150`` or ``expert@800`` pin a search level's iteration budget (reproducible)."""
    level = find_level(name)
    _, iters = split_name(name)
    if iters is None:
        return level.build(seed)
    bot = level.build(seed, iterations=iters)
    bot.name = name
    return bot
