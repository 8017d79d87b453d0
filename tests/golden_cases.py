"""The seeded games and positions behind tests/golden/ (shared by the tests and tools/regen_golden.py)."""
from __future__ import annotations

import random

from gonzaga.ai import make_bot
from gonzaga.ai.match import play_game
from gonzaga.rules import GameConfig, apply, deal, new_game, view
from gonzaga.rules.placement import count_placements
from gonzaga.rules.transcript import transcript

GOLDEN_GAMES = {
    "game-2-greedy-random": (["greedy", "random"], 11),
    "game-3-greedy": (["greedy", "greedy", "greedy"], 12),
    "game-4-mixed": (["greedy", "random", "greedy", "random"], 13),
}

# name: (seats, seed, round) — a greedy game stopped when ``round`` starts its placements
PERFT_POSITIONS = {
    "2-seats-round-1": (2, 21, 1),
    "3-seats-round-4": (3, 22, 4),
    "4-seats-round-7": (4, 23, 7),
}


def golden_game_text(bots, seed) -> str:
    res = play_game(bots, seed=seed, config=GameConfig(seats=len(bots)))
    return transcript(res.record)


def perft_position(seats: int, seed: int, rnd: int):
    state = new_game(GameConfig(seats=seats))
    state = apply(state, deal(state, random.Random(seed)))
    bots = [make_bot("greedy", seed + i) for i in range(seats)]
    while not (state.round == rnd and state.phase == "place"):
        seat = state.to_act()[0]
        state = apply(state, bots[seat].choose(view(state, seat), seat))
    return state


def perft_counts(seats: int, seed: int, rnd: int) -> dict:
    """Legal placements of every seat's fief for every (region card, action card)."""
    state = perft_position(seats, seed, rnd)
    board = state.board
    out = {}
    for i, s in enumerate(state.seats):
        for region in state.region_cards():
            rmask = board.region_mask(region, state.flourishing)
            for action in ("A", "B", "C"):
                out[f"seat{i}/f{s.fief}/{region}/{action}"] = count_placements(
                    board, s.fief, rmask, action, state.all_fiefs, s.ring_mask)
    return out
