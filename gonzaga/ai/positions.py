"""Positions made by playing seeded games with the bots, for the speed figures (``gonzaga bench``)
and the AI's own measurements. The games are played with the rules' own ``apply``, as the
search plays them (the AI floor may; above it only the table changes a game's state)."""
from __future__ import annotations

import random
from typing import Optional

from ..rules import Content, GameConfig, GameState, apply, deal, determinize, new_game, view
from .roster import make_bot


def mid_game_state(seed: int = 7, rounds: int = 6) -> GameState:
    """A seeded 4-seat greedy game stopped at the start of placement in ``rounds``."""
    state = new_game(GameConfig(seats=4))
    state = apply(state, deal(state, random.Random(seed)))
    bots = [make_bot("greedy", seed + i) for i in range(4)]
    while not (state.round == rounds and state.phase == "place"):
        seat = state.to_act()[0]
        state = apply(state, bots[seat].choose(view(state, seat), seat))
    return state


def rollout_positions(count: int) -> list[GameState]:
    """Full states (determinized from a seat's view) at the start of a place phase, rounds 2-7
    of seeded greedy games, 2 and 4 seats: where a search's rollouts start."""
    out: list[GameState] = []
    g = 0
    while len(out) < count:
        seats = 2 if g % 2 == 0 else 4
        state = new_game(GameConfig(seats=seats))
        state = apply(state, deal(state, random.Random(900 + g)))
        bots = [make_bot("greedy", 900 + g + i) for i in range(seats)]
        stop = 2 + g % 6
        while not (state.round == stop and state.phase == "place"):
            seat = state.to_act()[0]
            state = apply(state, bots[seat].choose(view(state, seat), seat))
        seat = state.to_act()[0]
        out.append(determinize(view(state, seat), random.Random(g)))
        g += 1
    return out


def dealt_games(count: int, content: Optional[Content] = None, first_seed: int = 1000) -> list[GameState]:
    """``count`` new 4-seat games, each dealt with its own seed from ``first_seed`` on."""
    out = []
    for g in range(count):
        st = new_game(GameConfig(seats=4), content)
        out.append(apply(st, deal(st, random.Random(first_seed + g))))
    return out
