"""Calibration of the board (spec D5): seeded games between bots, and the figures D5 names.

Usage::

    python tools/calibrate.py --games 200 --per-scenario 40 --bots greedy --json

For 2, 3 and 4 seats it plays ``--games`` games on tiles drawn at random (S2), then
``--per-scenario`` games on each tile of that seat count, all with the same bot in every
seat, seeds 1, 2, 3, ... It reports, per seat count and per tile:

* rounds played: min, median, max, histogram (D5: 4 seats end in rounds 7-12, median 8-11);
* donations: share of all place-phase turns, and the worst seat-game share
  (D5: a seat donates in under 15% of its turns);
* regions untouched: games in which some region (or some flourishing region) ended with
  no piece on any of its hexes (D5: no region left untouched), and pieces per region;
* how games ended: before round 12 (only the Last Turn count, E1, does that) or after
  all 12 rounds.

It reads the rules engine only through ``gonzaga.ai.match.play_game``; it changes nothing.
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from gonzaga.ai.match import play_game  # noqa: E402
from gonzaga.rules import GameConfig, load_content  # noqa: E402


def run(seats: int, games: int, bot: str, first_seed: int, scenario=None, content=None) -> dict:
    content = content or load_content()
    rounds, turns, donations, worst = [], 0, 0, 0.0
    seat_games = seat_games_over = 0
    untouched_any = untouched_flourishing = 0
    untouched_by_region = Counter()
    pieces_by_region = Counter({r.id: 0 for r in content.board.regions})
    scen_count = Counter()
    ended = Counter()
    for g in range(games):
        seed = first_seed + g
        res = play_game([bot] * seats, seed=seed, config=GameConfig(seats=seats, scenario=scenario),
                        content=content)
        st = res.state
        rounds.append(st.round)
        scen_count[st.scenario] += 1
        turns += sum(res.turns)
        donations += sum(res.donations)
        for t, d in zip(res.turns, res.donations):
            if t:
                worst = max(worst, d / t)
                seat_games += 1
                seat_games_over += d / t >= 0.15
        touched = set()
        for p in st.pieces:
            regs = {content.region_of.get(h) for h in p.cells} - {None}
            touched |= regs
            for rid in regs:
                pieces_by_region[rid] += 1
        missing = {r.id for r in content.board.regions} - touched
        if missing:
            untouched_any += 1
            untouched_by_region.update(missing)
        if missing & set(st.flourishing):
            untouched_flourishing += 1
        # before round 12 only the Last Turn count (E1) can end a game; at 12 the decks are out
        ended["all 12 rounds" if st.round >= 12 else "before round 12 (E1)"] += 1
    hist = Counter(rounds)
    return {
        "seats": seats, "games": games, "bot": bot, "seeds": [first_seed, first_seed + games - 1],
        "scenario": scenario,
        "rounds": {"min": min(rounds), "median": statistics.median(rounds), "max": max(rounds),
                   "mean": round(statistics.mean(rounds), 2),
                   "histogram": {str(k): hist[k] for k in sorted(hist)}},
        "donation_rate": round(donations / turns, 4) if turns else 0.0,
        "worst_seat_donation_share": round(worst, 4),
        "seat_games_donating_15pct_or_more": round(seat_games_over / seat_games, 4) if seat_games else 0.0,
        "games_with_an_untouched_region": untouched_any,
        "games_with_an_untouched_flourishing_region": untouched_flourishing,
        "untouched_by_region": dict(sorted(untouched_by_region.items())),
        "pieces_per_game_by_region": {k: round(v / games, 2) for k, v in pieces_by_region.items()},
        "scenarios_drawn": dict(sorted(scen_count.items())),
        "ended_by": dict(sorted(ended.items())),
    }


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description="D5 calibration figures from seeded bot games")
    ap.add_argument("--games", type=int, default=200, help="games per seat count, random tiles")
    ap.add_argument("--per-scenario", type=int, default=40, help="games per scenario tile (0: skip)")
    ap.add_argument("--bots", default="greedy", help="the bot in every seat")
    ap.add_argument("--seats", default="2,3,4")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--map-dir", default=None, help="content directory (default: assets/map)")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    content = load_content(args.map_dir)
    out = {"bot": args.bots, "map": str(content.directory), "by_seats": {}, "by_scenario": {}}
    t0 = time.perf_counter()
    for seats in [int(s) for s in args.seats.split(",")]:
        out["by_seats"][str(seats)] = run(seats, args.games, args.bots, args.seed, None, content)
        if args.per_scenario:
            for sc in content.scenarios_for(seats):
                out["by_scenario"][sc.name] = run(seats, args.per_scenario, args.bots, args.seed,
                                                  sc.name, content)
    out["seconds"] = round(time.perf_counter() - t0, 1)
    if args.json:
        print(json.dumps(out, indent=1, ensure_ascii=False))
    else:
        for seats, r in out["by_seats"].items():
            print(f"{seats} seats, {r['games']} games: rounds {r['rounds']}, donations "
                  f"{r['donation_rate']:.1%} (worst seat {r['worst_seat_donation_share']:.0%}, "
                  f"{r['seat_games_donating_15pct_or_more']:.1%} of seat-games at 15%+), "
                  f"untouched region in {r['games_with_an_untouched_region']} games, ended {r['ended_by']}")
        for name, r in out["by_scenario"].items():
            print(f"  {name:13s} {r['seats']} seats x{r['games']}: median {r['rounds']['median']} "
                  f"[{r['rounds']['min']}-{r['rounds']['max']}], donations {r['donation_rate']:.1%}, "
                  f"untouched region in {r['games_with_an_untouched_region']}, ended {r['ended_by']}")
        print(f"{out['seconds']} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
