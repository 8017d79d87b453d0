"""How long a human waits for the reveal when AI seats plan: ``python lab/waitbench.py``.

A 4-seat game, seat 0 human (played by ``medium`` in this process), seats 1-3 AI seats of
one level at their default (time) budget, through the game's ``DecisionWorker`` as the
game uses it: the processes are started ahead (``prestart``), and at the start of each
plan phase every AI seat is asked for its plan. The human plans at once (the worst case:
a human who takes longer hides part of the AI's thinking), so the wait from the last human
plan to the reveal is the time until the last AI plan comes back. Placements are asked of
the worker too, one seat at a time, as in play. Prints JSON: the wait per round, p50, max.
"""
from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def measure(level: str = "expert", rounds: int = 6, seed: int = 11) -> dict:
    from gonzaga.rules import GameConfig, apply, deal, new_game, view
    from gonzaga.ai import make_bot
    from gonzaga.ai.match import bot_seed
    from gonzaga.ai.worker import DecisionWorker

    state = new_game(GameConfig(seats=4))
    state = apply(state, deal(state, random.Random(seed)))
    human = make_bot("medium", seed)
    waits = []
    place_ms = []
    with DecisionWorker() as w:
        w.prestart([level] * 3, state.content.directory)
        time.sleep(3.0)  # let the processes start, as they do while the player reads the board

        def ask(seat):
            return w.request(level, bot_seed(seed, seat), view(state, seat), seat)

        def wait_for(ticket):
            while True:
                a = w.result(ticket)
                if a is not None:
                    return a
                time.sleep(0.002)

        while not state.is_over and len(waits) < rounds:
            tickets = {seat: ask(seat) for seat in (1, 2, 3)}  # the plan phase starts
            t0 = time.perf_counter()
            state = apply(state, human.choose(view(state, 0), 0))  # the human plans at once
            t_human = time.perf_counter()
            plans = {seat: wait_for(t) for seat, t in tickets.items()}
            waits.append((time.perf_counter() - t_human) * 1000.0)
            del t0
            for seat in (1, 2, 3):
                state = apply(state, plans[seat])
            while state.phase == "place":
                seat = state.to_act()[0]
                if seat == 0:
                    state = apply(state, human.choose(view(state, 0), 0))
                else:
                    tp = time.perf_counter()
                    state = apply(state, wait_for(ask(seat)))
                    place_ms.append((time.perf_counter() - tp) * 1000.0)
    return {"level": level, "rounds": len(waits), "reveal_wait_ms": [round(x) for x in waits],
            "p50_ms": round(statistics.median(waits)), "max_ms": round(max(waits)),
            "place_p50_ms": round(statistics.median(place_ms)) if place_ms else None}


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="lab/waitbench.py")
    p.add_argument("--level", default="expert")
    p.add_argument("--rounds", type=int, default=6)
    p.add_argument("--seed", type=int, default=11)
    a = p.parse_args(argv)
    print(json.dumps(measure(a.level, a.rounds, a.seed), indent=1))
    return 0


if __name__ == "__main__":
    import multiprocessing
    multiprocessing.freeze_support()
    raise SystemExit(main())
