"""Screen an AI variant: seeded games between two bots, the first one's seat rotating.

    .venv/bin/python lab/screen.py [--mirror] SEATS GAMES SEED0 OUT.jsonl BOT_A BOT_B
    .venv/bin/python lab/screen.py sum OUT.jsonl [...]
    .venv/bin/python lab/screen.py pair OUT_A.jsonl OUT_B.jsonl

Game g uses seed SEED0 + g, with BOT_A in seat g % SEATS and BOT_B in every other seat
(``match.play_game``, the engine of ``gonzaga simulate``). With ``--mirror`` game g uses
seed SEED0 + g // SEATS instead: every deal is played SEATS times, BOT_A once in each seat,
so the luck of a deal and its seats cancels out of the result (duplicate play, as in
bridge; GAMES should be a multiple of SEATS). Without it, a deal set can lean: on seeds
13001+g two identical expert@250 bots give "BOT_A" about 41% (the diary of issue 12: lab/README.md). ``pair`` compares
two runs game by game on the games both played.

A bot is a name as ``make_bot`` takes it (``hard@38``, ``expert@250``), ``policy`` (the
rollout policy alone: ``PolicyBot``) or ``PLANS+PLACES`` (one bot's plans, another's
placements: ``PhaseBot``). (The expert's experiment knobs, ``expert@250:knob=value``, went
with the knobs in issue 38: lab/README.md.) One JSON line per
game goes to OUT (resumable: games already there are skipped); the summary is BOT_A's win
share (shared wins split) with its Wilson 95% interval and the illegal actions. ``PROCS``
in the environment sets the worker processes (default 2).
"""
from __future__ import annotations

import json
import math
import os
import sys
import time
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from gonzaga.ai import Bot, make_bot  # noqa: E402
from gonzaga.ai.expert import objective_weights, sample_objectives  # noqa: E402
from gonzaga.ai.fastsim import TUNED, Sim, entry_action  # noqa: E402
from gonzaga.rules import GameState, Plan  # noqa: E402
from gonzaga.ai.match import bot_seed, play_game  # noqa: E402
from tune_policy import wilson  # noqa: E402  (lab/ is the script's directory)


class PolicyBot(Bot):
    """The rollout policy alone, no search (``fastsim.TUNED``; the rivals' objectives one draw
    of expert's inference): a diagnostic of what the search adds, not a level."""

    name = "policy"

    def choose(self, view: GameState, seat: int):
        objs = sample_objectives(objective_weights(view, seat), self.rng)
        sim = Sim.from_state(view, objectives=objs)
        sim.weights = [TUNED] * sim.n
        if view.phase == "plan":
            k, a, king = sim.policy_plan(seat)
            return Plan(seat, sim.t.cards[k], a, king)
        return entry_action(sim, seat, sim.policy_place(seat))


class PhaseBot(Bot):
    """One bot's plans and another's placements (``PLANS+PLACES``): which phase a level
    gains or loses in, a diagnostic, not a level."""

    def __init__(self, plans: Bot, places: Bot):
        super().__init__(0)
        self.plans, self.places = plans, places
        self.name = f"{plans.name}+{places.name}"

    def choose(self, view: GameState, seat: int):
        return (self.plans if view.phase == "plan" else self.places).choose(view, seat)


def build(spec: str, seed: int):
    """A bot from its spec (see the module's docstring)."""
    if "+" in spec:
        plans, places = spec.split("+", 1)
        return PhaseBot(build(plans, seed), build(places, seed))
    if spec == "policy":
        return PolicyBot(seed)
    return make_bot(spec, seed)


def one(args) -> dict:
    seats, g, seed0, a, b, mirror = args
    seed = seed0 + (g // seats if mirror else g)
    pos = g % seats
    specs = [b] * seats
    specs[pos] = a
    t0 = time.time()
    res = play_game([build(s, bot_seed(seed, i)) for i, s in enumerate(specs)], seed)
    st = res.state
    return dict(g=g, seed=seed, pos=pos, winners=list(st.winners), final=list(st.scores()),
                illegal=res.illegal, secs=round(time.time() - t0, 1), mirror=mirror,
                parts=[[s.site_points, s.league_points, s.donation_points, s.gonzaga_points, s.objective_points]
                       for s in st.seats])


def _share(r: dict) -> float:
    """BOT_A's win share of one logged game (a shared win split)."""
    return 1.0 / len(r["winners"]) if r["pos"] in r["winners"] else 0.0


def _best_other(r: dict) -> int:
    """The best final score among the other seats of one logged game."""
    return max(s for i, s in enumerate(r["final"]) if i != r["pos"])


def _results(out: str) -> dict:
    """{(seed, BOT_A's seat): (BOT_A's win share, BOT_A's margin to the best other seat)} of
    one or more runs (keyed by the deal and seat, not the game number, so runs started from
    different seeds, or joined end to end, pair only the games they share)."""
    rows = [json.loads(line) for line in open(out)]
    return {(r["seed"], r["pos"]): (_share(r), r["final"][r["pos"]] - _best_other(r)) for r in rows}


def pair(out_a: str, out_b: str) -> None:
    """Two runs on the same games (same seeds and seats): their win shares and the mean
    difference of BOT_A's margin, with a 95% interval from the per-game differences."""
    a, b = _results(out_a), _results(out_b)
    gs = sorted(set(a) & set(b))
    n = len(gs)
    if n < 2:
        raise SystemExit("fewer than two games in common")
    d = [a[g][1] - b[g][1] for g in gs]
    md = sum(d) / n
    sd = math.sqrt(sum((x - md) ** 2 for x in d) / (n - 1))
    print(f"{n} games in common: {sum(a[g][0] for g in gs):g} vs {sum(b[g][0] for g in gs):g} wins, "
          f"the same result in {sum(a[g][0] == b[g][0] for g in gs)}; margin {md:+.2f} in the first's favour "
          f"(95% {md - 1.96 * sd / math.sqrt(n):+.2f} to {md + 1.96 * sd / math.sqrt(n):+.2f})")


def summarize(out: str) -> None:
    rows = [json.loads(line) for line in open(out)] if os.path.exists(out) else []
    n = len(rows)
    if not n:
        print(f"{out}: no game yet")
        return
    w = sum(_share(r) for r in rows)
    lo, hi = wilson(w / n, n)
    mine = sum(r["final"][r["pos"]] for r in rows) / n
    best = sum(_best_other(r) for r in rows) / n
    print(f"{out}: {w:g}/{n} = {100 * w / n:.1f}% (Wilson {100 * lo:.1f}-{100 * hi:.1f}), "
          f"mean score {mine:.1f} vs best rival {best:.1f}, illegal {sum(r['illegal'] for r in rows)}")
    with_parts = [r for r in rows if "parts" in r]
    if with_parts:  # where the points come from: BOT_A against the mean other seat
        m = len(with_parts)
        a = [sum(r["parts"][r["pos"]][k] for r in with_parts) / m for k in range(5)]
        o = [sum(sum(p[k] for i, p in enumerate(r["parts"]) if i != r["pos"]) / (len(r["parts"]) - 1)
                 for r in with_parts) / m for k in range(5)]
        print("  points (sites, leagues, donations, Gonzaga tile, objective): "
              + ", ".join(f"{x:.1f} vs {y:.1f}" for x, y in zip(a, o)))


def main(argv: list[str]) -> None:
    if argv and argv[0] == "sum":
        for out in argv[1:]:
            summarize(out)
        return
    if argv and argv[0] == "pair" and len(argv) == 3:
        pair(argv[1], argv[2])
        return
    mirror = bool(argv) and argv[0] == "--mirror"
    if mirror:
        argv = argv[1:]
    if len(argv) != 6:
        raise SystemExit(__doc__)
    seats, games, seed0 = int(argv[0]), int(argv[1]), int(argv[2])
    out, a, b = argv[3], argv[4], argv[5]
    for spec in (a, b):  # a typo on the command line: say so here, not in a worker process
        try:
            build(spec, 0)
        except KeyError as exc:
            raise SystemExit(str(exc)) from None
    done = set()
    if os.path.exists(out):
        done = {json.loads(line)["g"] for line in open(out)}
    todo = [(seats, g, seed0, a, b, mirror) for g in range(games) if g not in done]
    with Pool(int(os.environ.get("PROCS", "2"))) as pool, open(out, "a") as f:
        for r in pool.imap_unordered(one, todo):
            f.write(json.dumps(r) + "\n")
            f.flush()
    summarize(out)


if __name__ == "__main__":
    main(sys.argv[1:])
