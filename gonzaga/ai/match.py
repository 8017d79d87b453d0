"""Play whole games between bots: the engine of ``gonzaga simulate`` and of the AI tests."""
from __future__ import annotations

import random
import time
from dataclasses import dataclass, field
from typing import Callable, Optional, Sequence

from ..rules import (Donate, GameConfig, GameRecord, GameState, IllegalAction, Place, Wedding, apply, deal,
                     new_game, view)
from ..rules.content import Content
from .base import Bot
from .roster import make_bot


@dataclass
class GameResult:
    record: GameRecord
    state: GameState
    bots: list[str]
    decision_ms: list[list[float]] = field(default_factory=list)  # per seat
    turns: list[int] = field(default_factory=list)  # place-phase turns per seat
    donations: list[int] = field(default_factory=list)
    illegal: int = 0


def bot_seed(seed: int, seat: int) -> int:
    """Each seat's bot gets its own stream, derived from the game seed."""
    return seed * 7919 + seat * 104729 + 1


def play_game(bots: Sequence[str | Bot], seed: int, config: Optional[GameConfig] = None,
              content: Optional[Content] = None,
              after_action: Optional[Callable[[GameState, object], None]] = None) -> GameResult:
    """Play one seeded game to the end; every action goes through ``apply``."""
    config = config or GameConfig(seats=len(bots))
    seats: list[Bot] = [b if isinstance(b, Bot) else make_bot(b, bot_seed(seed, i)) for i, b in enumerate(bots)]
    rng = random.Random(seed)
    state = new_game(config, content)
    record = GameRecord(config, seed)
    setup = deal(state, rng)
    state = apply(state, setup)
    record.actions.append(setup)
    if after_action:
        after_action(state, setup)
    res = GameResult(record, state, [getattr(b, "name", str(b)) for b in seats],
                     [[] for _ in seats], [0] * len(seats), [0] * len(seats))
    while not state.is_over:
        for seat in state.to_act():
            t0 = time.perf_counter()
            action = seats[seat].choose(view(state, seat), seat)
            res.decision_ms[seat].append((time.perf_counter() - t0) * 1000.0)
            try:
                state = apply(state, action)
            except IllegalAction:
                res.illegal += 1
                raise
            record.actions.append(action)
            if isinstance(action, (Place, Wedding, Donate)):
                res.turns[seat] += 1
                res.donations[seat] += isinstance(action, Donate)
            if after_action:
                after_action(state, action)
            if state.phase == "place" or state.is_over:
                break  # the place phase goes one seat at a time
    res.state = state
    return res
