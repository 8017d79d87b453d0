"""What a time budget buys: the rollouts (expert) or iterations (hard) of each decision.

    .venv/bin/python lab/budget_probe.py SEATS GAMES SEED0 [BOT_A BOT_B]

Plays GAMES seeded games (``match.play_game``, the engine of ``gonzaga simulate``) with BOT_A
(default ``expert``) in seat g % SEATS and BOT_B (default ``hard``) in every other seat, and
prints, per bot name and phase (plan, place), how many rollouts or iterations its searches
ran: the count, p10, median and p90, with the load average before and after. With the
default names the bots run on their default time budgets, so the figures say which pinned
budgets (``expert@N``, ``hard@N``) play like the shipped game on this machine and at this
load. Decisions that did not search (a single legal action) are not counted.
"""
from __future__ import annotations

import json
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from gonzaga.ai import make_bot  # noqa: E402
from gonzaga.ai.match import bot_seed, play_game  # noqa: E402
from gonzaga.rules import Plan  # noqa: E402


def searched(bot) -> int:
    """The rollouts or iterations of the bot's last decision (0 when it did not search)."""
    stats = getattr(bot, "last_stats", None) or {}
    return int(stats.get("rollouts", stats.get("iterations", 0)))


def summary(counts: list[int]) -> dict:
    """Count, p10, median and p90 of a list of searched counts (nearest rank)."""
    s = sorted(counts)
    n = len(s)
    return {"n": n, "p10": s[n // 10], "median": s[n // 2], "p90": s[min(n - 1, n * 9 // 10)]}


def probe(seats: int, games: int, seed0: int, bot_a: str = "expert", bot_b: str = "hard") -> dict:
    """Play the games and gather every search's count, keyed "<bot>/<phase>"."""
    counts: dict[str, list[int]] = {}
    for g in range(games):
        names = [bot_b] * seats
        names[g % seats] = bot_a
        bots = [make_bot(name, bot_seed(seed0 + g, i)) for i, name in enumerate(names)]

        def record(state, action, bots=bots, names=names):
            seat = getattr(action, "seat", None)
            if seat is None or not hasattr(bots[seat], "last_stats"):
                return  # the deal and other chance actions
            n = searched(bots[seat])  # both search levels set last_stats on every decision
            if n:
                phase = "plan" if isinstance(action, Plan) else "place"
                counts.setdefault(f"{names[seat]}/{phase}", []).append(n)

        play_game(bots, seed0 + g, after_action=record)
    return {key: summary(v) for key, v in sorted(counts.items())}


def main(argv: list[str]) -> int:
    if len(argv) not in (3, 5):
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    try:
        seats, games, seed0 = int(argv[0]), int(argv[1]), int(argv[2])
    except ValueError:
        print("SEATS, GAMES and SEED0 are whole numbers", file=sys.stderr)
        return 2
    if not 2 <= seats <= 4 or games < 1:
        print("SEATS is 2 to 4 and GAMES at least 1", file=sys.stderr)
        return 2
    load_before = os.getloadavg()[0]
    result = probe(seats, games, seed0, *argv[3:5])
    print(json.dumps({"seats": seats, "games": games, "seed0": seed0,
                      "load_before": round(load_before, 2), "load_after": round(os.getloadavg()[0], 2),
                      "searched": result}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
