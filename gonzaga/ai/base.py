"""The bot interface.

A bot sees only a seat's view (``gonzaga.rules.view``), never the full state,
and draws randomness from its own seeded generator. The bots by name are in ``roster``.
"""
from __future__ import annotations

import random

from ..rules import Action, GameState


class Bot:
    """Chooses an action for ``seat`` from that seat's view."""

    name = "bot"

    def __init__(self, seed: int = 0):
        self.rng = random.Random(seed)

    def choose(self, view: GameState, seat: int) -> Action:  # pragma: no cover - interface
        raise NotImplementedError
