"""Speed figures for ``gonzaga bench``. Only measures: correctness lives in the tests."""
from __future__ import annotations

import random
import statistics
import time


def mid_game_state(seed: int = 7, rounds: int = 6):
    """A seeded 4-seat greedy game stopped at the start of placement in ``rounds``."""
    from .ai import make_bot
    from .rules import GameConfig, apply, deal, new_game, view

    state = new_game(GameConfig(seats=4))
    state = apply(state, deal(state, random.Random(seed)))
    bots = [make_bot("greedy", seed + i) for i in range(4)]
    while not (state.round == rounds and state.phase == "place"):
        seat = state.to_act()[0]
        state = apply(state, bots[seat].choose(view(state, seat), seat))
    return state


def run_bench(quick: bool = False, ui: bool = True) -> dict:
    from .rules import GameConfig, apply, deal, new_game
    from .rules.placement import anchor_masks, placements
    from .rules.playout import random_playout

    state = mid_game_state()
    board = state.board
    seat = state.to_act()[0]
    s = state.seats[seat]
    plans = [(r, a) for r in state.region_cards() for a in ("A", "B", "C")]
    reps = 20 if quick else 200
    samples = []
    for region, action in plans:
        rmask = board.region_mask(region, state.flourishing)
        for _ in range(reps // 10 or 1):
            t0 = time.perf_counter()
            placements(board, s.fief, rmask, action, state.all_fiefs, s.ring_mask)
            samples.append((time.perf_counter() - t0) * 1e6)
    all_plans = []
    for _ in range(reps // 4 or 1):
        t0 = time.perf_counter()
        for region, action in plans:
            anchor_masks(board, s.fief, board.region_mask(region, state.flourishing), action,
                         state.all_fiefs, s.ring_mask)
        all_plans.append((time.perf_counter() - t0) * 1e3)
    n_games = 20 if quick else 200
    starts = []
    for g in range(n_games):
        st = new_game(GameConfig(seats=4), state.content)
        starts.append(apply(st, deal(st, random.Random(1000 + g))))
    rng = random.Random(5)
    t0 = time.perf_counter()
    for st in starts:
        random_playout(st, rng)
    playouts = n_games / (time.perf_counter() - t0)
    out = {"placement_query_us": round(statistics.median(samples), 2),
           "all_plans_ms": round(statistics.median(all_plans), 3),
           "playouts_per_s": round(playouts, 1),
           "position": f"4 seats, round {state.round}, fief {s.fief}, {len(plans)} plans"}
    if ui:
        try:
            from .ui_bench import measure_ui
        except ImportError:
            pass
        else:
            out.update(measure_ui(quick=quick))
    return out
