"""How far expert's search is from its own answer at a large budget (issue 12).

    .venv/bin/python lab/search_regret.py GAMES SEED0 OUT.jsonl [--phase plan|place]
        [--seats 2|3|4] [--ref N] [--budgets 250,1000,4000] [--seeds 11,22]
    .venv/bin/python lab/search_regret.py sum OUT.jsonl

Plays GAMES seeded games of expert@60 (seat 0) against hard@20 in every other seat (two by
default, ``--seats``; seeds SEED0 + g) and keeps every
second decision of seat 0 in the chosen phase (plans by default). At each, expert searches
with every budget in ``--budgets`` and every bot seed in ``--seeds``; then
``reference_values`` plays each of the 16 best candidates by the prior (and any
candidate a search chose) on the same N determinizations (``--ref``, default 800). A
search's regret is the reference's best mean minus the reference's mean of the candidate it
chose, in the search's own utility (a win is 1, a point of margin 1/40). A regret near 0 at
some budget says that budget already finds what the search's model (its rollout policy, its
rival model, its position value) prefers; more rollouts cannot then change its play, only a
better model can. One JSON line per position goes to OUT; ``PROCS`` sets the processes
(default 2).
"""
from __future__ import annotations

import argparse
import json
import os
import sys
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from gonzaga.ai.expert import ExpertBot  # noqa: E402
from gonzaga.ai.match import play_game  # noqa: E402
from gonzaga.rules import view as view_of  # noqa: E402

SEAT = 0
REF_TOP = 16  # candidates the reference plays besides those a search chose


def reference_values(bot: ExpertBot, view, seat: int, cands: list, n: int) -> list[float]:
    """Each candidate's mean utility over the same ``n`` determinizations, every candidate
    played on every one (no halving, no prior): the search's own estimate carried to a
    large budget, against which a search's choice can be scored. It drives ``bot``'s own
    set-up, determinizations and rollouts, so it values exactly as the bot's search does."""
    base, weights = bot._begin(view, seat)
    total = [0.0] * len(cands)
    for _ in range(n):
        det = bot._determinization(base, view, seat, weights, bot.rng)
        for k, action in enumerate(cands):
            total[k] += bot.rollout_value(det, action, seat)[0]
    return [t / n for t in total]


def positions(seed: int, phase: str, seats: int = 2) -> list:
    """Seat 0's views at every second of its decisions in ``phase``, in one game of
    expert@60 (seat 0) against hard@20 in every other seat."""
    views = []

    def keep(state, _action):
        if not state.is_over and SEAT in state.to_act() and state.phase == phase:
            views.append(view_of(state, SEAT))

    play_game(["expert@60"] + ["hard@20"] * (seats - 1), seed, after_action=keep)
    return views[::2]


def measure(args: tuple) -> dict | None:
    """One position: every (budget, seed) search's choice and its regret against the reference."""
    view, budgets, seeds, ref = args
    cands = ExpertBot(0).candidates(view, SEAT)
    if len(cands) < 2:
        return None
    picks = {f"{b}/{s}": cands.index(ExpertBot(s, iterations=b).choose(view, SEAT))
             for b in budgets for s in seeds}
    pool = sorted(set(range(min(REF_TOP, len(cands)))) | set(picks.values()))
    means = dict(zip(pool, reference_values(ExpertBot(999), view, SEAT, [cands[k] for k in pool], ref)))
    best = max(means, key=means.get)
    return {"phase": view.phase, "round": view.round, "candidates": len(cands), "picks": picks,
            "ref_best": best, "regret": {k: means[best] - means[v] for k, v in picks.items()}}


def summarize(out: str) -> None:
    rows = [json.loads(line) for line in open(out)] if os.path.exists(out) else []
    if not rows:
        print(f"{out}: no position yet")
        return
    print(f"{out}: {len(rows)} positions ({', '.join(sorted({r['phase'] for r in rows}))})")
    keys = list(rows[0]["picks"])
    for k in keys:
        reg = sum(r["regret"][k] for r in rows) / len(rows)
        hit = sum(r["picks"][k] == r["ref_best"] for r in rows)
        print(f"  budget/seed {k:>10}: mean regret {reg:.4f}, the reference's best in {hit} of {len(rows)}")
    budgets = sorted({k.split("/")[0] for k in keys}, key=int)
    seed = keys[0].split("/")[1]
    for lo, hi in zip(budgets, budgets[1:]):
        same = sum(r["picks"][f"{lo}/{seed}"] == r["picks"][f"{hi}/{seed}"] for r in rows)
        print(f"  {lo} and {hi} rollouts (seed {seed}) choose the same in {same} of {len(rows)}")


def main(argv: list[str]) -> None:
    if argv[:1] == ["sum"]:
        for out in argv[1:]:
            summarize(out)
        return
    ap = argparse.ArgumentParser(prog="search_regret.py", description=__doc__.split("\n\n")[0])
    ap.add_argument("games", type=int)
    ap.add_argument("seed0", type=int)
    ap.add_argument("out")
    ap.add_argument("--phase", choices=("plan", "place"), default="plan")
    ap.add_argument("--seats", type=int, choices=(2, 3, 4), default=2)
    ap.add_argument("--ref", type=int, default=800, help="determinizations of the reference")
    ap.add_argument("--budgets", default="250,1000,4000")
    ap.add_argument("--seeds", default="11,22")
    a = ap.parse_args(argv)
    budgets = [int(x) for x in a.budgets.split(",")]
    seeds = [int(x) for x in a.seeds.split(",")]
    views = [v for g in range(a.games) for v in positions(a.seed0 + g, a.phase, a.seats)]
    print(f"{len(views)} positions", flush=True)
    with Pool(int(os.environ.get("PROCS", "2"))) as pool, open(a.out, "w") as f:
        for row in pool.imap(measure, [(v, budgets, seeds, a.ref) for v in views]):
            if row:
                f.write(json.dumps(row) + "\n")
                f.flush()
    summarize(a.out)


if __name__ == "__main__":
    main(sys.argv[1:])
