"""Tune the rollout policy's piece value (``fastsim.Weights``) by self-play on the simulator.

A candidate set of weights plays against the current best on seeded deals: every deal is
played once with the candidate in each seat (the others on the best), so the deal's luck
and the seat cancel, and the candidate's win share (shared wins split) is compared with an
equal player's 1 / seats. A coordinate search multiplies one weight at a time by each step
and keeps a change whose share beats the best by more than ``--margin`` on both 2- and
4-seat deals together.

    .venv/bin/python lab/tune_policy.py --deals 600 --passes 2 [--check 3000]

It prints every trial and the final weights; ``--check`` plays the final weights against
the defaults on that many fresh deals per seat count and prints the shares with Wilson 95%
intervals. What it prints goes into ``fastsim.TUNED`` by hand (the diary of issue 12 has the runs: lab/README.md).
"""
from __future__ import annotations

import argparse
import math
import random
import sys
import time
from multiprocessing import Pool
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from gonzaga.ai.fastsim import BASE_WEIGHTS, Sim, Weights  # noqa: E402
from gonzaga.rules import GameConfig, apply, deal, new_game  # noqa: E402

_DEALS: dict = {}


def _deal(n: int, seed: int):
    key = (n, seed)
    st = _DEALS.get(key)
    if st is None:
        if len(_DEALS) > 4000:
            _DEALS.clear()
        st = new_game(GameConfig(seats=n))
        st = _DEALS[key] = apply(st, deal(st, random.Random(seed)))
    return st


def duel(args) -> float:
    """The candidate's win share over the deal's seat rotations."""
    cand, best, n, seed = args
    st = _deal(n, seed)
    share = 0.0
    for seat in range(n):
        sim = Sim.from_state(st)
        sim.weights = [cand if j == seat else best for j in range(n)]
        sim.play()
        scores = sim.final_scores()
        win = sim.winners(scores)
        if seat in win:
            share += 1.0 / len(win)
    return share / n


def match(pool, cand: Weights, best: Weights, deals: int, seed: int) -> dict:
    """{seats: (win share, games)} on 2- and 4-seat deals."""
    out = {}
    for n in (2, 4):
        jobs = [(cand, best, n, seed * 100_003 + n * 10_000 + d) for d in range(deals)]
        shares = pool.map(duel, jobs, chunksize=20)
        out[n] = (sum(shares) / len(shares), len(shares) * n)
    return out


def edge(res: dict) -> float:
    """How far above an equal player, averaged over the seat counts (in win share)."""
    return sum(share - 1.0 / n for n, (share, _) in res.items()) / len(res)


def wilson(p: float, n: int) -> tuple[float, float]:
    z = 1.96
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return c - h, c + h


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=600, help="deals per seat count per trial")
    ap.add_argument("--passes", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--margin", type=float, default=0.01)
    ap.add_argument("--check", type=int, default=0)
    ap.add_argument("--procs", type=int, default=2)
    ap.add_argument("--start", type=float, nargs="+", help="the weights to start from (Weights' order; "
                    "those left out keep their defaults)")
    ap.add_argument("--against", type=float, nargs="+", help="--check against these weights, not the defaults")
    ap.add_argument("--only", nargs="+", help="tune only these weights")
    args = ap.parse_args(argv)
    best = BASE_WEIGHTS
    steps = {"lp1": (0.0, 0.5, 2.0), "lp2": (0.5, 2.0), "group": (0.5, 1.5), "ring": (0.0, 0.5, 2.0),
             "block2": (0.0, 0.5, 2.0), "block1": (0.0, 4.0), "deny": None, "contend": None, "king": (0.0, 4.0)}
    if args.only:
        steps = {k: v for k, v in steps.items() if k in args.only}
    if args.start:
        best = Weights(*args.start)
    against = Weights(*args.against) if args.against else BASE_WEIGHTS
    t0 = time.time()
    trial = 0
    with Pool(args.procs) as pool:
        for p in range(args.passes):
            for name, mults in steps.items():
                cur = getattr(best, name)
                if name == "contend":  # a share: try the neighbours on a grid of quarters
                    values = [x for x in (cur - 0.25, cur + 0.25) if 0 <= x <= 1]
                elif cur == 0:  # a weight at zero: try it back at half and all of its default
                    default = getattr(BASE_WEIGHTS, name) or 0.5
                    values = [default * 0.5, default]
                else:
                    values = [cur * m for m in (mults or (0.5, 2.0))]
                for val in values:
                    if val == cur:
                        continue
                    cand = best._replace(**{name: round(val, 3)})
                    trial += 1
                    res = match(pool, cand, best, args.deals, args.seed + trial)
                    e = edge(res)
                    keep = e > args.margin
                    print(f"[{time.time() - t0:5.0f}s] pass {p} {name}={val:.3f}: "
                          + ", ".join(f"{n} seats {s:.3f}" for n, (s, _) in res.items())
                          + f"  edge {e:+.3f}{'  KEEP' if keep else ''}", flush=True)
                    if keep:
                        best = cand
                        break
        print("best:", best)
        if args.check:
            res = match(pool, best, against, args.check, args.seed + 999)
            for n, (s, g) in res.items():
                lo, hi = wilson(s, g)
                print(f"check, {n} seats: {best} vs {against} {s:.3f} of {g} games (Wilson 95% {lo:.3f}-{hi:.3f};"
                      f" equal {1 / n:.3f})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
