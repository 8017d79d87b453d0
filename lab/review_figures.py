"""Figures of the post-game review (issue 48; docs/ai.md "The post-game review").

    .venv/bin/python lab/review_figures.py time SEATS SEED [BUDGET]      # one game: each seat's time
    .venv/bin/python lab/review_figures.py stability GAMES SEED0 OUT.jsonl [BUDGET] [SEATS]

``time`` plays one seeded game of SEATS medium bots and reviews every seat at BUDGET rollouts a
decision (default: the shipped ``DEFAULT_BUDGET``), printing for each seat and in all the
seconds on the wall clock and the CPU seconds of this process (one core: what a seat takes on
an otherwise idle core of this machine), with the rollouts done.

``stability``: for GAMES seeded games (medium bots, SEATS seats, default 4; seed SEED0 + g),
seat g % SEATS is reviewed at BUDGET and at four times BUDGET (the same review seed); a game
counts as stable when each of the three costliest decisions at BUDGET is among the five
costliest at 4x. One line per game is appended to OUT.jsonl (so a run can stop and go on:
the games already there are skipped); the share is printed at the end.
"""
from __future__ import annotations

import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from gonzaga.ai.match import play_game  # noqa: E402
from gonzaga.ai.review import DEFAULT_BUDGET, review_seat  # noqa: E402


def top(rev, k: int) -> list[int]:
    """The k costliest decisions by points lost (flagged or not), costliest first."""
    return [v.index for v in sorted(rev.verdicts, key=lambda v: (-v.lost, v.index))[:k]]


def cmd_time(seats: int, seed: int, budget: int) -> None:
    game = play_game(["medium"] * seats, seed)
    total = cpu_total = 0.0
    for s in range(seats):
        t0, c0 = time.perf_counter(), time.process_time()
        rev = review_seat(game.record, s, budget=budget)
        dt, cpu = time.perf_counter() - t0, time.process_time() - c0
        total += dt
        cpu_total += cpu
        rollouts = sum(v.rollouts for v in rev.verdicts)
        print(json.dumps({"seat": s, "decisions": rev.total, "seconds": round(dt, 1), "cpu_seconds": round(cpu, 1),
                          "rollouts": rollouts, "rollouts_per_cpu_s": round(rollouts / cpu)}), flush=True)
    print(json.dumps({"seats": seats, "budget": budget, "all_seats_seconds": round(total, 1),
                      "all_seats_cpu_seconds": round(cpu_total, 1)}))


def cmd_stability(games: int, seed0: int, out: Path, budget: int, seats: int) -> None:
    done = set()
    if out.exists():
        done = {json.loads(line)["seed"] for line in out.read_text().splitlines() if line.strip()}
    for g in range(games):
        seed = seed0 + g
        if seed in done:
            continue
        seat = g % seats
        record = play_game(["medium"] * seats, seed).record
        t0 = time.perf_counter()
        a = review_seat(record, seat, budget=budget)
        t1 = time.perf_counter()
        b = review_seat(record, seat, budget=4 * budget)
        t2 = time.perf_counter()
        three, five = top(a, 3), top(b, 5)
        row = {"seed": seed, "seat": seat, "top3": three, "top5_4x": five, "stable": set(three) <= set(five),
               "in_top5": len(set(three) & set(five)), "flagged": sum(v.flagged for v in a.verdicts),
               "seconds": [round(t1 - t0, 1), round(t2 - t1, 1)]}
        with out.open("a") as f:
            f.write(json.dumps(row) + "\n")
        print(json.dumps(row), flush=True)
    rows = [json.loads(line) for line in out.read_text().splitlines() if line.strip()]
    stable = sum(r["stable"] for r in rows)
    inside = sum(r["in_top5"] for r in rows)
    print(json.dumps({"games": len(rows), "stable_games": stable, "share": round(stable / max(1, len(rows)), 3),
                      "top3_in_top5": f"{inside} of {3 * len(rows)}"}))


def main(argv: list[str]) -> int:
    if argv[:1] == ["time"] and len(argv) >= 3:
        cmd_time(int(argv[1]), int(argv[2]), int(argv[3]) if len(argv) > 3 else DEFAULT_BUDGET)
    elif argv[:1] == ["stability"] and len(argv) >= 4:
        cmd_stability(int(argv[1]), int(argv[2]), Path(argv[3]), int(argv[4]) if len(argv) > 4 else DEFAULT_BUDGET,
                      int(argv[5]) if len(argv) > 5 else 4)
    else:
        print(__doc__)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
