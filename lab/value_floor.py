"""How much of the position value's error is luck, and how much a better value could remove (issue 12).

    .venv/bin/python lab/value_floor.py [--seats 4] [--games 200] [--k 24] [--seed 800000]

For one position per seeded game (a round start between rounds 2 and 9, every seat playing
the rollout policy ``fastsim.TUNED``, as in ``lab/fit_value.py``), ``--k`` continuations
are played to the end with every deck reshuffled. The decks are the only chance left there:
the objectives are dealt and the policy is deterministic. So seat 0's final margin to the
best rival varies between the continuations by the luck of the decks alone (``luck``, the
pooled standard deviation), and their mean estimates the margin expected from the position.

Each value (the learned one, ``valuefn``, and the hand one, ``Sim.position_values``) is
scored twice, as a root mean square over the positions:
- against one continuation's margin (``to_one``), as ``lab/fit_value.py`` scores it;
- against the expected margin (``to_expected``), with the K-sample mean's own noise
  (luck^2 / K) taken out.

``to_expected`` is what a better value could still remove; ``luck`` is left whatever the value.
``PROCS`` sets the processes (default 2; 1 runs in this process).
"""
from __future__ import annotations

import argparse
import math
import os
import random
import sys
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from gonzaga.ai import value_table, valuefn  # noqa: E402
from gonzaga.ai.fastsim import TUNED, Sim  # noqa: E402
from gonzaga.rules import GameConfig, apply, deal, new_game  # noqa: E402


def margin(values: list) -> float:
    """Seat 0's value minus the best rival's."""
    return values[0] - max(values[1:])


def position(seats: int, seed: int) -> Sim:
    """The self-play position of ``seed``: its deal, played by ``TUNED`` to the start of a
    round drawn between 2 and 9 (the game's end, when it comes first)."""
    st = new_game(GameConfig(seats=seats))
    st = apply(st, deal(st, random.Random(seed)))
    sim = Sim.from_state(st)
    sim.weights = [TUNED] * seats
    stop = random.Random(seed).randrange(2, 10)
    while sim.phase != "over" and sim.round < stop:
        sim.play(sim.round)
    return sim


def continuations(sim: Sim, seed: int, k: int) -> list[float]:
    """Seat 0's final margin in ``k`` continuations of ``sim``, each with every deck reshuffled."""
    out = []
    for c in range(k):
        s = sim.copy()
        s.rng = random.Random(seed * 1000 + c)
        s.shuffle_decks(s.rng)
        s.play()
        out.append(margin(s.final_scores()))
    return out


def measure(args) -> tuple | None:
    """(learned margin, hand margin, the continuations' margins) at the position of one seed."""
    seats, seed, k = args
    sim = position(seats, seed)
    if sim.phase == "over":
        return None
    learned = margin(valuefn.values(sim, value_table.TABLE))
    hand = margin(sim.position_values())
    return learned, hand, continuations(sim, seed, k)


def summary(rows: list) -> dict:
    """{luck, to_expected, to_one} of ``rows``: (predicted margin, [continuations' margins])."""
    k = len(rows[0][1])
    within = sum(sum((x - sum(o) / k) ** 2 for x in o) / (k - 1) for _, o in rows) / len(rows)
    spread = sum((p - sum(o) / k) ** 2 for p, o in rows) / len(rows)
    one = sum((p - o[0]) ** 2 for p, o in rows) / len(rows)
    return {"luck": math.sqrt(within), "to_expected": math.sqrt(max(0.0, spread - within / k)),
            "to_one": math.sqrt(one)}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seats", type=int, default=4, choices=(2, 3, 4))
    ap.add_argument("--games", type=int, default=200, help="positions (one per seeded game)")
    ap.add_argument("--k", type=int, default=24, help="continuations per position (at least 2)")
    ap.add_argument("--seed", type=int, default=800_000)
    args = ap.parse_args(argv)
    if args.k < 2 or args.games < 1:
        ap.error("--k must be at least 2 and --games at least 1")
    jobs = [(args.seats, args.seed + g, args.k) for g in range(args.games)]
    procs = int(os.environ.get("PROCS", "2"))
    if procs > 1:
        with Pool(procs) as pool:
            res = [r for r in pool.imap(measure, jobs, chunksize=4) if r is not None]
    else:  # in this process: no fork (a fork of a process with threads, as under pytest, can hang)
        res = [r for r in map(measure, jobs) if r is not None]
    print(f"{args.seats} seats, {len(res)} positions, {args.k} continuations each (seeds {args.seed}+)")
    if not res:  # every game ended before its drawn round
        print("  no position to measure: try more games")
        return 1
    for name, col in (("learned", 0), ("hand", 1)):
        s = summary([(r[col], r[2]) for r in res])
        print(f"  {name:8s} luck {s['luck']:.2f}  to_expected {s['to_expected']:.2f}  to_one {s['to_one']:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
