"""Expert iteration for the rollout policy (issue 12): fit its piece value to the search's values.

    .venv/bin/python lab/fit_policy.py collect GAMES SEED0 OUT.jsonl [--seats N] [--ref N] [--policy W]
    .venv/bin/python lab/fit_policy.py fit OUT.jsonl [...] [--hold 0.25] [--ridge 1.0] [--policy W]
    .venv/bin/python lab/fit_policy.py plans-collect GAMES SEED0 OUT.pkl [--seats N] [--ref N]
    .venv/bin/python lab/fit_policy.py plans-fit OUT.pkl [...] [--hold 0.25]
    .venv/bin/python lab/fit_policy.py plans-probe OUT.pkl [...] [--hold 0.25]

The rollout policy values a placement as its points plus weighted terms that are not points
(``fastsim.Weights``: league potentials, the group step, the Gonzaga tile, a ring's price,
blocking). Those weights were tuned by self-play of the policy against itself
(lab/tune_policy.py), so the rollouts play like a strong greedy player, not like the
search. Expert iteration moves them toward the search: ``collect`` plays seeded games of
expert@60 (seat 0) against hard@20 and, at every second placement of seat 0, has
``search_regret.reference_values`` (its rollouts playing ``--policy``, default ``TUNED``) value
the prior's ``TOP`` best candidates and ``EXTRA`` others drawn at random on the same
``--ref`` determinizations. Each candidate's terms are read off the policy itself: the piece
value is linear in every weight, so a term is the value with that weight at 1 minus the
value with every weight at 0 (``terms``), and the rule is not written twice. ``fit`` finds
the weights w and a scale per position that best explain the search's values, Q = a_p + b_p
x (points + sum of w x terms), by alternating least squares (ridge toward ``--policy``, the
weights the values were collected with), and the weights whose policy places with the least
regret (``descend``), each on the first games; on the held-out rest it prints each weight
set's regret: the search's best value minus the value of the candidate the policy would
place. ``deny`` (a rival's objective) is not in a view, and ``contend`` and ``king`` are
about plans: they keep their values. Feeding the fitted weights back as ``--policy`` is the
next iteration.

``plans-collect`` values every legal plan (each King's Privilege plan too) at every second
plan of seat 0 and keeps the views; ``plans-fit`` searches the weights (``PLAN_FIT``) whose
policy plans with the least regret, and prints the regret of each weight set, fitted and
held out. ``plans-probe`` asks whether features the policy's plan value lacks (the turn
order against the rivals' expected plans, the cards kept for the next round, the King's
Privilege by the rounds left) explain the search's plan values better (``plan_features``).
"""
from __future__ import annotations

import argparse
import json
import os
import pickle
import random
import sys
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from gonzaga.ai.expert import ExpertBot  # noqa: E402
from gonzaga.ai.fastsim import BASE_WEIGHTS, DONATION, TUNED, Sim, Weights  # noqa: E402
from gonzaga.rules import ACTION_RANK as ARANK  # noqa: E402
from gonzaga.rules import Donate, Plan, Wedding  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
from search_regret import SEAT, positions, reference_values  # noqa: E402

FIT = ("lp1", "lp2", "group", "ring", "block2", "block1", "tile")  # the Weights fields fitted
TOP = 12  # the prior's best candidates valued at each position
EXTRA = 6  # candidates drawn at random from the rest, so the fit sees poor placements too
ZERO = Weights(**{f: 0.0 for f in Weights._fields})


def weights_arg(text: str) -> Weights:
    """``TUNED`` or a ``Weights(...)`` literal from the command line (a trusted one, as in
    lab/screen.py)."""
    try:
        w = eval(text, {"Weights": Weights, "TUNED": TUNED})
    except Exception as exc:  # a typo on the command line: say which argument, not a traceback
        raise SystemExit(f"--policy: {text!r} is not TUNED or Weights(...): {exc}") from None
    if not isinstance(w, Weights):
        raise SystemExit(f"--policy: not a Weights: {text}")
    return w


def terms(sim: Sim, seat: int, choice) -> tuple[float, list[float]]:
    """(points part, [term per FIT weight]) of a policy choice for ``seat``: the piece value
    is base + sum of weight x term, read off ``Sim.value`` one unit weight at a time."""
    if choice is None:
        return DONATION, [0.0] * len(FIT)
    e, ring = choice
    n = e.mask.bit_count() if ring else 0
    keep = sim.weights

    def val(w: Weights) -> float:
        sim.weights = [w] * sim.n
        return Sim.value(e, sim.context(seat), n)

    try:
        base = val(ZERO)
        return base, [val(ZERO._replace(**{f: 1.0})) - base for f in FIT]
    finally:
        sim.weights = keep


def choice_of(sim: Sim, action):
    """The policy's choice (entry, is_ring) for a rules action; None for a donation. Built
    from the board, since the policy's own lists hold one spelling of each placement and
    only the placements it would consider."""
    if isinstance(action, Donate):
        return None
    t = sim.t
    board = t.board
    if isinstance(action, Wedding):
        return t._entry(board.mask_of(action.rings), -1, None), True
    o = next(o for o in board.orientations[action.fief] if o.rotation == action.rotation)
    a = board.index_of[action.anchor]
    return t._entry(board.placement_mask(a, o), a, o), False


def policy_value(base: float, xs: list[float], w: Weights) -> float:
    return base + sum(getattr(w, f) * x for f, x in zip(FIT, xs))


def measure(args: tuple) -> dict | None:
    """One position: [Q, base, terms...] of each valued candidate."""
    game, view, ref, policy = args
    cands = ExpertBot(0).candidates(view, SEAT)
    if len(cands) < 3:
        return None
    rng = random.Random(game * 1000 + view.round * 10 + view.turn)
    rest = list(range(TOP, len(cands)))
    pool = list(range(min(TOP, len(cands)))) + rng.sample(rest, min(EXTRA, len(rest)))
    sim = Sim.from_state(view)
    bot = ExpertBot(999)
    bot.rollout_weights = policy  # the reference's rollouts play the weights being fitted
    q = reference_values(bot, view, SEAT, [cands[k] for k in pool], ref)
    rows = []
    for k, qv in zip(pool, q):
        base, xs = terms(sim, SEAT, choice_of(sim, cands[k]))
        rows.append([qv, base] + xs)
    return {"game": game, "round": view.round, "candidates": len(cands), "rows": rows}


def game_rows(args: tuple) -> list:
    """Every kept position of one game (played and valued in one worker process)."""
    game, seats, ref, policy = args
    return [r for r in (measure((game, v, ref, policy)) for v in positions(game, "place", seats)) if r]


def collect(a) -> None:
    done = set()
    if os.path.exists(a.out):  # resumable: whole games already there are skipped
        done = {json.loads(line)["game"] for line in open(a.out)}
    policy = weights_arg(a.policy)
    jobs = [(a.seed0 + g, a.seats, a.ref, policy) for g in range(a.games) if a.seed0 + g not in done]
    print(f"{len(jobs)} games", flush=True)
    with Pool(int(os.environ.get("PROCS", "2"))) as pool, open(a.out, "a") as f:
        for rows in pool.imap_unordered(game_rows, jobs):
            for row in rows:
                f.write(json.dumps(row) + "\n")
            f.flush()


# ---------------------------------------------------------------- plans

PLAN_FIT = FIT + ("contend", "king")  # a plan also weighs the turn order (R3, K2)


def plan_rows(args: tuple) -> list:
    """Every second plan of seat 0 in one game: its view and every legal plan's value by the
    search (each King's Privilege plan too, so any weights' choice has a value)."""
    game, seats, ref = args
    out = []
    for v in positions(game, "plan", seats):
        every = ExpertBot(0)
        every.king_min = 0.0  # every King's Privilege plan, whether or not it may change the order
        cands = every.candidates(v, SEAT)
        if len(cands) < 2:
            continue
        q = reference_values(ExpertBot(999), v, SEAT, cands, ref)
        out.append((game, v, {c.to_text(): x for c, x in zip(cands, q)}))
    return out


def policy_plan(view, w: Weights) -> str:
    """The plan the rollout policy with weights ``w`` (every seat's) makes in ``view``."""
    sim = Sim.from_state(view)
    sim.weights = [w] * sim.n
    k, a, king = sim.policy_plan(SEAT)
    return Plan(SEAT, sim.t.cards[k], a, king).to_text()


def tally(pairs) -> tuple[float, int]:
    """(mean regret, how often the choice is the best) of (best value, chosen value) pairs, one
    per position: what ``regret``, ``plan_regret`` and ``plans-probe`` score."""
    tot, hit, n = 0.0, 0, 0
    for best, got in pairs:
        tot += best - got
        hit += got == best
        n += 1
    return tot / n, hit


def plan_regret(pos: list, w: Weights) -> tuple[float, int]:
    """As ``regret``, for plans: (mean regret, how often the policy's plan is the best)."""
    return tally((max(q.values()), q[policy_plan(view, w)]) for _, view, q in pos)


def plans_collect(a) -> None:
    with Pool(int(os.environ.get("PROCS", "2"))) as pool:
        pos = [r for rows in pool.imap_unordered(plan_rows, [(a.seed0 + g, a.seats, a.ref)
                                                               for g in range(a.games)]) for r in rows]
    with open(a.out, "wb") as f:
        pickle.dump(pos, f)
    print(f"{len(pos)} positions to {a.out}")


def held_out(items: list, games: list, hold: float) -> tuple[list, list]:
    """(fit, held out): the items of the last ``hold`` share of the games held out (by seed,
    so no game is in both); with nothing held out, the fitted items are scored."""
    seeds = sorted(set(games))
    cut = seeds[int(len(seeds) * (1 - hold))] if hold else seeds[-1] + 1
    train = [x for x, g in zip(items, games) if g < cut]
    return train, [x for x, g in zip(items, games) if g >= cut] or train


def plans_fit(a) -> None:
    pos = [r for out in a.files for r in pickle.load(open(out, "rb"))]
    train, test = held_out(pos, [g for g, _, _ in pos], a.hold)
    d = descend(train, TUNED, fields=PLAN_FIT, cost=plan_regret)
    print(f"{len(train)} plan positions to fit, {len(test)} held out")
    for name, ws in (("base", BASE_WEIGHTS), ("tuned", TUNED), ("descent", d)):
        tr, _ = plan_regret(train, ws)
        r, hit = plan_regret(test, ws)
        print(f"  {name:>7}: regret {tr:.4f} fitted, {r:.4f} held out (the search's best in {hit} of "
              f"{len(test)})   " + " ".join(f"{f}={getattr(ws, f):.3g}" for f in PLAN_FIT))
    print("Weights(" + ", ".join(f"{f}={round(getattr(d, f), 3)}" for f in Weights._fields) + ")")


PROBE = ("value", "exposed", "king", "king_left", "keep", "first")  # plans-probe's features


def plan_features(view) -> dict[str, list[float]]:
    """{plan text: the ``PROBE`` features of seat 0's plan} for every legal plan, as the rollout
    policy (``TUNED``) sees the position: its plan value (after the rivals ahead take their
    expected spots, R4; on the board now with K, which goes first), what rivals ahead may
    take (the value now minus that), K and K x rounds left (K4: the ring and the cards spent),
    the best value now of the plans sharing neither card (what is kept for the next round,
    R3), and whether the plan places before every rival's expected plan (R4)."""
    sim = Sim.from_state(view)
    sim.weights = [TUNED] * sim.n
    tables, picks = sim._greedy_plans()
    now = {p: v for v, p, _ in tables[SEAT]}
    after = {p: v for v, p, _ in sim._contended(SEAT, tables, picks, 1.0)}
    left = sim.rounds_left(SEAT)
    mine = sim.fief[SEAT] + sim.digit[SEAT]
    rivals = [(ARANK[picks[j][1][1]], sim.fief[j] + sim.digit[j]) for j in range(sim.n) if j != SEAT]
    out = {}
    for (k, a, _), v in now.items():
        keep = max((x for (k2, a2, _), x in now.items() if k2 != k and a2 != a), default=0.0)
        first = all(ARANK[a] < ra or (ARANK[a] == ra and mine < fk) for ra, fk in rivals)
        for king in (False, True):
            val = v if king else after[(k, a, False)]
            out[Plan(SEAT, sim.t.cards[k], a, king).to_text()] = [
                val, v - val, float(king), king * float(left), keep, float(king or first)]
    return out


def plans_probe(a) -> None:
    """Can richer plan features explain the search's plan values? Least squares (each
    position's values and features centred, ridge 1) on the fitted games, for the policy's
    value alone and with each other feature, and all together; held-out regret of each."""
    pos = [r for out in a.files for r in pickle.load(open(out, "rb"))]
    rows = []  # per position: [(Q, features)] of its plans
    for _, view, q in pos:
        feats = plan_features(view)
        rows.append([[q[t]] + feats[t] for t in q])
    train, test = held_out(rows, [g for g, _, _ in pos], a.hold)
    cen = _centred(train)

    def score(ws, cols, ps):
        return tally((max(r[0] for r in rs), max(rs, key=lambda r: sum(w * r[1 + c] for w, c in zip(ws, cols)))[0])
                     for rs in ps)

    print(f"{len(train)} plan positions to fit, {len(test)} held out")
    subsets = [[0]] + [[0, c] for c in range(1, len(PROBE))] + [list(range(len(PROBE)))]
    for cols in subsets:
        m = [[sum(r[1 + i] * r[1 + j] for rs in cen for r in rs) + (1.0 if i == j else 0.0) for j in cols]
             for i in cols]
        ws = solve(m, [sum(r[1 + i] * r[0] for rs in cen for r in rs) for i in cols])
        tr, _ = score(ws, cols, train)
        te, hit = score(ws, cols, test)
        names = " ".join(f"{PROBE[c]}={w / ws[0]:+.3f}" for c, w in zip(cols, ws)) if ws[0] else "?"
        print(f"  regret {tr:.4f} fitted, {te:.4f} held out (the search's best in {hit} of {len(test)})   {names}")


# ---------------------------------------------------------------- fitting

def solve(m: list[list[float]], v: list[float]) -> list[float]:
    """m x = v by Gaussian elimination with partial pivoting (m is small and well posed)."""
    n = len(v)
    a = [row[:] + [v[i]] for i, row in enumerate(m)]
    for c in range(n):
        p = max(range(c, n), key=lambda r: abs(a[r][c]))
        a[c], a[p] = a[p], a[c]
        for r in range(n):
            if r != c and a[c][c]:
                f = a[r][c] / a[c][c]
                a[r] = [x - f * y for x, y in zip(a[r], a[c])]
    return [a[i][n] / a[i][i] if a[i][i] else 0.0 for i in range(n)]


def _centred(pos: list) -> list:
    """Each position's rows with Q, base and terms centred on the position's means."""
    out = []
    for rows in pos:
        k = len(rows)
        means = [sum(r[c] for r in rows) / k for c in range(len(rows[0]))]
        out.append([[x - mu for x, mu in zip(r, means)] for r in rows])
    return out


def fit(pos: list, start: Weights, ridge: float, rounds: int = 20) -> tuple[Weights, list[float]]:
    """The weights (FIT fields; the rest from ``start``) and each position's scale b_p."""
    cen = _centred(pos)
    w = [getattr(start, f) for f in FIT]
    w0 = w[:]
    nf = len(FIT)
    scales = [0.0] * len(cen)
    for _ in range(rounds):
        for p, rows in enumerate(cen):  # the scale of each position: Q on the policy's value
            s = [r[1] + sum(wk * x for wk, x in zip(w, r[2:])) for r in rows]
            ss = sum(x * x for x in s)
            scales[p] = max(0.0, sum(r[0] * x for r, x in zip(rows, s)) / ss) if ss else 0.0
        m = [[ridge if i == j else 0.0 for j in range(nf)] for i in range(nf)]
        v = [ridge * w0[i] for i in range(nf)]
        for p, rows in enumerate(cen):
            b = scales[p]
            if not b:
                continue
            for r in rows:
                y = r[0] - b * r[1]
                z = [b * x for x in r[2:]]
                for i in range(nf):
                    v[i] += z[i] * y
                    for j in range(nf):
                        m[i][j] += z[i] * z[j]
        w = solve(m, v)
    return start._replace(**dict(zip(FIT, w))), scales


def regret(pos: list, w: Weights) -> tuple[float, int]:
    """Mean over positions of the best Q minus the Q of the policy's choice, and how often the
    policy's choice is the search's best."""
    return tally((max(r[0] for r in rows), max(rows, key=lambda r: policy_value(r[1], r[2:], w))[0])
                 for rows in pos)


def descend(pos: list, start: Weights, passes: int = 3, fields=FIT, cost=None) -> Weights:
    """The weights (FIT fields) whose policy has the least regret on ``pos``: a coordinate
    search multiplying one weight at a time by each of ``STEPS`` (or setting it to 0), as
    lab/tune_policy.py does, keeping a change that lowers the regret. The regret counts only
    the policy's choice, which is all the rollouts use of its values."""
    cost_of = cost or regret
    best, cost = start, cost_of(pos, start)[0]
    for _ in range(passes):
        moved = False
        for f in fields:
            now = getattr(best, f)
            for step in STEPS:
                w = best._replace(**{f: now * step if now else step})  # from 0: the steps as values
                c = cost_of(pos, w)[0]
                if c < cost - 1e-9:
                    best, cost, moved = w, c, True
        if not moved:
            break
    return best


STEPS = (0.0, 0.5, 0.75, 1.33, 2.0)


def fit_main(a) -> None:
    recs = [json.loads(line) for out in a.files for line in open(out)]
    recs = [r for r in recs if len(r["rows"]) >= 3]
    games = sorted({r["game"] for r in recs})
    train, test = held_out([r["rows"] for r in recs], [r["game"] for r in recs], a.hold)
    start = weights_arg(a.policy)
    w, scales = fit(train, start, a.ridge)
    print(f"{len(train)} positions to fit ({len(games)} games), {len(test)} held out; "
          f"mean scale {sum(scales) / len(scales):.4f} utility per point")
    d = descend(train, start)
    for name, ws in (("base", BASE_WEIGHTS), ("tuned", TUNED), ("start", start), ("fitted", w), ("descent", d)):
        r, hit = regret(test, ws)
        print(f"  {name:>6}: held-out regret {r:.4f}, the search's best in {hit} of {len(test)}   "
              + " ".join(f"{f}={getattr(ws, f):.3g}" for f in FIT))
    for ws in (w, d):
        print("Weights(" + ", ".join(f"{f}={round(getattr(ws, f), 3)}" for f in Weights._fields) + ")")


def main(argv: list[str]) -> None:
    ap = argparse.ArgumentParser(prog="fit_policy.py", description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("collect")
    c.add_argument("games", type=int)
    c.add_argument("seed0", type=int)
    c.add_argument("out")
    c.add_argument("--seats", type=int, choices=(2, 3, 4), default=2)
    c.add_argument("--ref", type=int, default=48, help="determinizations per candidate")
    c.add_argument("--policy", default="TUNED",
                   help="the rollout policy of the reference: TUNED or Weights(...) (the next iteration)")
    f = sub.add_parser("fit")
    f.add_argument("files", nargs="+")
    f.add_argument("--hold", type=float, default=0.25, help="share of the games held out")
    f.add_argument("--ridge", type=float, default=1.0, help="pull toward the --policy weights")
    f.add_argument("--policy", default="TUNED", help="the weights the values were collected with")
    c = sub.add_parser("plans-collect")
    c.add_argument("games", type=int)
    c.add_argument("seed0", type=int)
    c.add_argument("out", help="a pickle of (game, view, {plan: value})")
    c.add_argument("--seats", type=int, choices=(2, 3, 4), default=2)
    c.add_argument("--ref", type=int, default=100, help="determinizations per plan")
    f = sub.add_parser("plans-fit")
    f.add_argument("files", nargs="+")
    f.add_argument("--hold", type=float, default=0.25, help="share of the games held out")
    f = sub.add_parser("plans-probe")
    f.add_argument("files", nargs="+")
    f.add_argument("--hold", type=float, default=0.25, help="share of the games held out")
    a = ap.parse_args(argv)
    missing = [f for f in getattr(a, "files", ()) if not os.path.exists(f)]
    if missing:  # say which, not a traceback
        raise SystemExit(f"{a.cmd}: no such file: {', '.join(missing)}")
    {"collect": collect, "fit": fit_main, "plans-collect": plans_collect, "plans-fit": plans_fit,
     "plans-probe": plans_probe}[a.cmd](a)


if __name__ == "__main__":
    main(sys.argv[1:])
