"""How often a level's King's Privilege changed the turn order: ``python lab/kingstat.py``.

Seeded games between bots (seats rotate); at every reveal, each King's Privilege planned by
the first bot named is checked against the turn order the same plans give without it (R4).
Prints JSON: the K plans and how many of them changed the order.

    python lab/kingstat.py expert@60,hard@8 --games 12 --seed 22001
"""
from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def king_stat(names: list[str], games: int, seed: int) -> dict:
    from gonzaga.rules import GameConfig, Plan, apply, deal, new_game, view
    from gonzaga.rules.engine import turn_order
    from gonzaga.ai import make_bot

    uses = changed = 0
    for g in range(games):
        seats = len(names)
        rot = [names[(i + g) % seats] for i in range(seats)]
        bots = [make_bot(n, seed * 7 + g * 13 + i) for i, n in enumerate(rot)]
        st = new_game(GameConfig(seats=seats))
        st = apply(st, deal(st, random.Random(seed + g)))
        while not st.is_over:
            if st.phase == "plan":
                for j in st.to_act():
                    st = apply(st, bots[j].choose(view(st, j), j))
                for i, s in enumerate(st.seats):
                    if rot[i] == names[0] and s.plan.king:
                        uses += 1
                        alt = st.with_seat(i, plan=Plan(i, s.plan.region, s.plan.action, False))
                        changed += turn_order(alt) != st.order
            else:
                j = st.to_act()[0]
                st = apply(st, bots[j].choose(view(st, j), j))
    return {"bots": names, "games": games, "seed": seed, "king_plans": uses, "changed_order": changed}


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="lab/kingstat.py")
    p.add_argument("bots", help="comma-separated bot names; the first is counted")
    p.add_argument("--games", type=int, default=12)
    p.add_argument("--seed", type=int, default=22001)
    a = p.parse_args(argv)
    print(json.dumps(king_stat(a.bots.split(","), a.games, a.seed)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
