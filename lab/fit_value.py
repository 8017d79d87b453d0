"""Fit the learned position value (``gonzaga.ai.valuefn``) to self-play games on the simulator.

Every seat plays the rollout policy (``fastsim.TUNED``, as in expert's rollouts, or the
``--policy`` weights, for an expert whose rollouts play those) on seeded deals; or, with
``--bots``, the named bots play real games (``match.play_game``, the seats rotating with
the seed), so the value learns how the game ends when the bots the search
meets play it. At the start of every round the position's features are recorded for each
seat, with the final score that seat reached. A ridge regression per (seats, rounds left) fits
the weights; held-out games (other seeds) then compare the learned value with the hand
value (``Sim.position_values``) on the errors that matter to the search: the final score,
the margin to the best rival, and who wins.

    .venv/bin/python lab/fit_value.py --games 6000 --test 1500 [--policy W] [--write]
    .venv/bin/python lab/fit_value.py --seats 2 --bots expert@64,hard@16 --games 1200 --test 300

``--write`` writes the weights into ``gonzaga/ai/value_table.py``; the seat counts not
fitted keep the weights they have there.
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

from gonzaga.ai import valuefn  # noqa: E402
from gonzaga.ai import value_table  # noqa: E402
from gonzaga.ai.fastsim import TUNED, Sim, Weights  # noqa: E402
from gonzaga.ai.match import play_game  # noqa: E402
from gonzaga.rules import GameConfig, apply, deal, new_game  # noqa: E402

sys.path.insert(0, str(ROOT / "lab"))
from fit_policy import weights_arg  # noqa: E402

TABLE = ROOT / "gonzaga" / "ai" / "value_table.py"
TRAIN_SEED = 700_000
TEST_SEED = 800_000


def _row(sim: Sim, policy: Weights = TUNED) -> list:
    """[(rounds left, features, hand value, seat) for each seat] of a position at a round's
    start, the features as expert's rollouts see them (every seat's policy ``policy``)."""
    sim.weights = [policy] * sim.n
    feats = valuefn.features(sim)
    hand = sim.position_values()
    return [(sim.rounds_left(i), feats[i], hand[i], i) for i in range(sim.n)]


def play(args) -> tuple:
    """One game: (seats, rows, final scores, winners, seed), with one row per round start
    (``_row``). Self-play on the simulator with the rollout policy ``policy``, or with
    ``bots`` (names for ``make_bot``) a real game between them."""
    n, seed, bots, policy = args
    if bots:
        return _bot_game(n, seed, bots, policy)
    st = new_game(GameConfig(seats=n))
    st = apply(st, deal(st, random.Random(seed)))
    sim = Sim.from_state(st)
    sim.weights = [policy] * n  # every seat plays the rollout policy
    rows = []
    while sim.phase != "over":  # at the start of a round: record it, then play it
        rows.append(_row(sim, policy))
        sim.play(sim.round)
    final = sim.final_scores()
    win = sim.winners(final)
    return n, rows, final, win, seed


def _bot_game(n: int, seed: int, bots: tuple, policy: Weights = TUNED) -> tuple:
    """``play`` for a real game: the bot list repeats to fill the seats, rotated by seed % seats
    (the features as a rollout policy ``policy`` sees them)."""
    k = seed % n
    names = (list(bots) * n)[k:k + n]
    rows = []

    def record(state, _action) -> None:
        if state.phase == "plan" and not state.is_over and all(s.plan is None for s in state.seats):
            rows.append(_row(Sim.from_state(state), policy))

    res = play_game(names, seed, after_action=record)
    return n, rows, list(res.state.scores()), list(res.state.winners), seed


def games(pool, n: int, count: int, seed0: int, bots: tuple = (), policy: Weights = TUNED) -> list:
    args = [(n, seed0 + n * 100_000 + g, bots, policy) for g in range(count)]
    return list(pool.imap(play, args, chunksize=1 if bots else 20))


def solve(a: list, b: list) -> list:
    """x with a x = b (Gaussian elimination with partial pivoting; a is small and regularised)."""
    m = len(b)
    a = [row[:] + [b[i]] for i, row in enumerate(a)]
    for c in range(m):
        p = max(range(c, m), key=lambda r: abs(a[r][c]))
        a[c], a[p] = a[p], a[c]
        piv = a[c][c]
        for r in range(m):
            if r != c and a[r][c]:
                f = a[r][c] / piv
                a[r] = [x - f * y for x, y in zip(a[r], a[c])]
    return [a[i][m] / a[i][i] for i in range(m)]


def fit(data: list, ridge: float) -> dict:
    """{seats: {rounds left: weights}} by ridge regression of the final score on the features
    (the bias is not shrunk)."""
    acc: dict = {}
    for n, rows, final, _, _ in data:
        for round_rows in rows:
            for left, f, _, i in round_rows:
                key = (n, left)
                if key not in acc:
                    k = len(f)
                    acc[key] = [[[0.0] * k for _ in range(k)], [0.0] * k, 0]
                ata, aty, _ = acc[key]
                y = final[i]
                for r in range(len(f)):
                    fr = f[r]
                    if fr:
                        row = ata[r]
                        for c in range(len(f)):
                            row[c] += fr * f[c]
                        aty[r] += fr * y
                acc[key][2] += 1
    table: dict = {}
    for (n, left), (ata, aty, count) in sorted(acc.items()):
        if count < 200:  # too few positions to fit: the nearest fitted round is used instead
            continue
        k = len(aty)
        a = [[ata[r][c] + (ridge * count if r == c and r > 0 else 0.0) for c in range(k)] for r in range(k)]
        table.setdefault(n, {})[left] = [round(x, 4) for x in solve(a, aty)]
    return table


def evaluate(data: list, table: dict) -> dict:
    """{seats: figures} of the hand value and the learned one on held-out games."""
    out = {}
    for n in sorted({d[0] for d in data}):
        err = {"hand": [0.0, 0.0, 0, 0.0], "learned": [0.0, 0.0, 0, 0.0]}  # score sq, margin sq, winner right, log loss
        count = 0
        for n2, rows, final, win, _ in data:
            if n2 != n:
                continue
            for round_rows in rows:
                feats = [f for _, f, _, _ in round_rows]
                lefts = [left for left, _, _, _ in round_rows]
                hand = [h for _, _, h, _ in round_rows]
                learned = [sum(a * b for a, b in zip(valuefn.weights_for(table, n, lefts[i]), feats[i]))
                           for i in range(n)]
                for name, pred in (("hand", hand), ("learned", learned)):
                    e = err[name]
                    for i in range(n):
                        e[0] += (pred[i] - final[i]) ** 2
                    m_pred = pred[0] - max(pred[1:])
                    m_true = final[0] - max(final[1:])
                    e[1] += (m_pred - m_true) ** 2
                    top = max(range(n), key=lambda j: pred[j])
                    e[2] += 1 if top in win else 0
                    # seat 0's chance to win as the search reads it: logistic(margin / 8)
                    p = 1.0 / (1.0 + math.exp(-m_pred / 8.0))
                    p = min(max(p, 1e-6), 1 - 1e-6)
                    e[3] -= math.log(p if 0 in win else 1 - p)
                count += 1
        out[n] = {name: {"score_rmse": round(math.sqrt(e[0] / (count * n)), 2),
                         "margin_rmse": round(math.sqrt(e[1] / count), 2),
                         "winner_right": round(e[2] / count, 3),
                         "win_logloss": round(e[3] / count, 3)}
                  for name, e in err.items()}
        out[n]["positions"] = count
    return out


def write(table: dict) -> None:
    table = {**value_table.TABLE, **table}  # seat counts not fitted now keep their weights
    lines = ['"""Weights of the learned position value (``valuefn``): {seats: {rounds left: weights in',
             '``valuefn.FEATURES`` order}}. Written by lab/fit_value.py --write; do not edit by hand."""',
             "", "TABLE = {"]
    for n, rows in sorted(table.items()):
        lines.append(f"    {n}: {{")
        for left, w in sorted(rows.items()):
            lines.append(f"        {left}: ({', '.join(repr(x) for x in w)}),")
        lines.append("    },")
    lines.append("}")
    TABLE.write_text("\n".join(lines) + "\n")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=4000, help="training games per seat count")
    ap.add_argument("--test", type=int, default=1000, help="held-out games per seat count")
    ap.add_argument("--seats", type=int, nargs="+", default=[2, 3, 4])
    ap.add_argument("--ridge", type=float, default=0.01, help="ridge penalty per position")
    ap.add_argument("--procs", type=int, default=2)
    ap.add_argument("--bots", default="", help="real games between these bots (e.g. expert@64,hard@16), "
                    "not self-play; the list repeats to fill the seats")
    ap.add_argument("--policy", default="TUNED", help="the rollout policy of the self-play games: "
                    "TUNED or a Weights(...) literal (a value for expert with that policy=)")
    ap.add_argument("--write", action="store_true", help="write gonzaga/ai/value_table.py")
    args = ap.parse_args(argv)
    policy = weights_arg(args.policy)
    bots = tuple(b for b in args.bots.split(",") if b)
    if bots:
        from gonzaga.ai import make_bot
        try:
            for b in bots:
                make_bot(b)
        except KeyError as e:
            ap.error(str(e))
    t0 = time.perf_counter()
    with Pool(args.procs) as pool:
        train, test = [], []
        for n in args.seats:
            train += games(pool, n, args.games, TRAIN_SEED, bots, policy)
            test += games(pool, n, args.test, TEST_SEED, bots, policy)
    print(f"played {len(train)} + {len(test)} games in {time.perf_counter() - t0:.0f} s")
    table = fit(train, args.ridge)
    for n, rows in sorted(table.items()):
        for left, w in sorted(rows.items()):
            print(n, left, " ".join(f"{name}={x:+.2f}" for name, x in zip(valuefn.FEATURES, w)))
    for n, figs in evaluate(test, table).items():
        print(f"{n} seats, {figs['positions']} held-out positions:")
        for name in ("hand", "learned"):
            print(f"  {name:8s} {figs[name]}")
    if args.write:
        write(table)
        print(f"wrote {TABLE.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
