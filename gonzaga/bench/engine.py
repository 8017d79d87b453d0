"""Speed figures for ``gonzaga bench``. Only measures: correctness lives in the tests."""
from __future__ import annotations

import random
import statistics
import time

from ..ai.fastsim import play_out, tables_for
from ..ai.positions import dealt_games, mid_game_state, rollout_positions
from ..ai.search import play_out as play_out_apply
from ..rules.placement import anchor_masks, placements
from ..rules.playout import random_playout
from .anim import measure as measure_anim
from .ui import first_frame_ms, measure_ui


def measure_rollouts(quick: bool = False) -> tuple[float, float]:
    """(rollout_steps_per_s, rollout_steps_per_s_apply).

    rollout_steps_per_s: decisions applied per second by the search's rollout policy
    (``fastsim``). One rollout step is one seat's decision (a plan or a placement) applied
    inside a rollout by the rollout policy; each rollout runs from a position of
    ``rollout_positions`` to the end of the game. The placement tables of each scenario and
    the simulator's memos are built by one untimed pass first (once per game in play, then
    reused by every rollout of a search).

    rollout_steps_per_s_apply: the same for the rollout policy that valued every placement
    through ``apply``'s states (before issue 12; hard's rollouts still use it).

    The two are timed in turn, three times (once with ``quick``), and the best of each is
    kept, so that other load on the machine moves the ratio as little as possible.
    """
    starts = rollout_positions(4 if quick else 60)
    for st in starts:
        tables_for(st)
        play_out(st)
    old_starts = starts[: 2 if quick else 20]
    play_out_apply(old_starts[0])

    def rate(fn, sts):
        steps = 0
        t0 = time.perf_counter()
        for st in sts:
            steps += fn(st)[1]
        return steps / (time.perf_counter() - t0)

    new = old = 0.0
    for _ in range(1 if quick else 3):
        new = max(new, rate(play_out, starts))
        old = max(old, rate(play_out_apply, old_starts))
    return new, old


def run_bench(quick: bool = False, ui: bool = True) -> dict:
    state = mid_game_state()
    board = state.board
    seat = state.to_act()[0]
    s = state.seats[seat]
    fief = s.fief
    if fief is None:  # (the mid-game state is in its placement phase: a fief is turned up)
        raise RuntimeError("the benchmark's mid-game state has no fief to place")
    plans = [(r, a) for r in state.region_cards() for a in ("A", "B", "C")]
    reps = 20 if quick else 200
    samples = []
    for region, action in plans:
        rmask = board.region_mask(region, state.flourishing)
        for _ in range(reps // 10 or 1):
            t0 = time.perf_counter()
            placements(board, fief, rmask, action, state.all_fiefs, s.ring_mask)
            samples.append((time.perf_counter() - t0) * 1e6)
    all_plans = []
    for _ in range(reps // 4 or 1):
        t0 = time.perf_counter()
        for region, action in plans:
            anchor_masks(board, fief, board.region_mask(region, state.flourishing), action,
                         state.all_fiefs, s.ring_mask)
        all_plans.append((time.perf_counter() - t0) * 1e3)
    n_games = 20 if quick else 200
    starts = dealt_games(n_games, state.content)
    rng = random.Random(5)
    t0 = time.perf_counter()
    for st in starts:
        random_playout(st, rng)
    playouts = n_games / (time.perf_counter() - t0)
    rollouts, rollouts_apply = measure_rollouts(quick)
    out = {"placement_query_us": round(statistics.median(samples), 2),
           "all_plans_ms": round(statistics.median(all_plans), 3),
           "playouts_per_s": round(playouts, 1),
           "rollout_steps_per_s": round(rollouts, 1),
           "rollout_steps_per_s_apply": round(rollouts_apply, 1),
           "position": f"4 seats, round {state.round}, fief {s.fief}, {len(plans)} plans"}
    if ui:  # each measures in a subprocess, with SDL's dummy drivers
        out.update(measure_ui(quick=quick))
        out.update(measure_anim(quick))  # frames while the table's animations run (issue 13)
        out["first_frame_ms"] = first_frame_ms(1 if quick else 3)
    return out
