"""How well expert predicts a rival's secret plan (R2), and what knowing it would be worth.

    .venv/bin/python lab/rival_plans.py fit GAMES SEED0 [--seats 2]
    .venv/bin/python lab/rival_plans.py oracle GAMES SEED0 OUT.jsonl
    .venv/bin/python lab/rival_plans.py kings GAMES SEED0 [--seats 2] [--expert expert@60]

``fit`` plays GAMES seeded games, expert@250 in seat g % seats against hard@38, and at every
planning phase keeps the expert's view and each rival's actual plan. It then scores models
of the rival's plan by the mean log-probability they give the plan played and how often
their likeliest plan is it, at several softmax temperatures:

- ``medium``: ``levels.rival_plan_model`` (the rival's best spot per plan, no objective);
- ``objective``: medium's ``plan_scores`` for the rival holding each card it may hold,
  mixed by expert's inference (``objective_weights``) (a rival model expert once offered as a
  knob, screened without gain);
- ``true card``: the same with the rival's real card (not available to a player: a bound).

``kings`` plays GAMES seeded games (an expert in seat g % seats against hard@38) and, at
every planning phase, sets what medium's model of each rival's plan
(``levels.rival_plan_model``, from the expert's view) predicts against what the rival
did: its King's Privilege plans (where K is legal), each action card, and placing before
the expert's real plan (R4): how well that model is calibrated where the order is decided.

``oracle`` plays expert@250 against hard@38 in two-seat games (seed SEED0 + g, expert in
seat g % 2) where hard plans first and expert's determinizations are given hard's real
plan: what a perfect prediction of the rival's plan would be worth. OUT is read by
``lab/screen.py sum``.
"""
from __future__ import annotations

import argparse
import json
import math
import random
import sys
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from gonzaga.ai import make_bot  # noqa: E402
from gonzaga.ai.expert import ExpertBot, objective_weights  # noqa: E402
from gonzaga.ai.levels import MediumBot, _softmax, rival_plan_model  # noqa: E402
from gonzaga.rules import turn_order_key  # noqa: E402
from gonzaga.ai.match import bot_seed  # noqa: E402
from gonzaga.rules import GameConfig, apply, deal, new_game, view  # noqa: E402
from gonzaga.rules.actions import ACTION_CARDS  # noqa: E402
from gonzaga.rules.state import evolve  # noqa: E402

TAUS = (0.5, 1.0, 1.5, 2.5, 4.0)


def _key(p):
    return (p.region, p.action, p.king)


def _holding(v, j, oid):
    seats = list(v.seats)
    seats[j] = evolve(seats[j], objective=oid)
    return evolve(v, seats=tuple(seats))


def _planning_phases(seed: int, seats: int, e: int, expert: str):
    """Play one seeded game, ``expert`` in seat ``e`` and hard@38 elsewhere; at every
    planning phase yield (the state, {seat: its plan}) before the plans are applied."""
    bots = [make_bot("hard@38", bot_seed(seed, s)) for s in range(seats)]
    bots[e] = make_bot(expert, bot_seed(seed, e))
    st = new_game(GameConfig(seats=seats))
    st = apply(st, deal(st, random.Random(seed)))
    while not st.is_over:
        if st.phase == "place":
            s = st.to_act()[0]
            st = apply(st, bots[s].choose(view(st, s), s))
            continue
        acts = {s: bots[s].choose(view(st, s), s) for s in st.to_act()}
        yield st, acts
        for s in sorted(acts):
            st = apply(st, acts[s])


def _rows(args) -> list:
    """One game's planning phases: [(model values..., the rival's plan)]."""
    g, seed0, seats = args
    e = g % seats
    med = MediumBot(0)
    out = []
    for st, acts in _planning_phases(seed0 + g, seats, e, "expert@250"):
        ve = view(st, e)
        weights = objective_weights(ve, e)
        for j, p in acts.items():
            if j == e:
                continue
            mix = [(w, [(v, _key(q)) for v, q in med.plan_scores(_holding(ve, j, oid), j)])
                   for oid, w in weights[j] if w >= 0.01]
            out.append(dict(actual=_key(p),
                            medium=[(v, _key(q)) for _, q, v, _, _ in rival_plan_model(ve, j)],
                            objective=mix,
                            true=[(1.0, [(v, _key(q)) for v, q in med.plan_scores(view(st, j), j)])]))
    return out


def _dist(vals, tau) -> dict:
    """{plan: probability} from [(value, plan)] (levels' softmax)."""
    return {k: p for (_, k), p in zip(vals, _softmax([v for v, _ in vals], tau))}


def _mixture(parts, tau):
    tw = sum(w for w, _ in parts)
    d: dict = {}
    for w, vals in parts:
        for k, p in _dist(vals, tau).items():
            d[k] = d.get(k, 0.0) + w / tw * p
    return d


def fit(games: int, seed0: int, seats: int) -> None:
    with Pool(2) as pool:
        rows = [r for game in pool.map(_rows, [(g, seed0, seats) for g in range(games)]) for r in game]
    print(f"{len(rows)} rival plans from {games} games ({seats} seats, seeds {seed0}+g)")
    for name in ("medium", "objective", "true"):
        for tau in TAUS:
            lp = top = 0.0
            for r in rows:
                d = _dist(r["medium"], tau) if name == "medium" else _mixture(r[name], tau)
                lp += math.log(max(d.get(r["actual"], 0.0), 1e-6))
                top += max(d, key=d.get) == r["actual"]
            label = "true card" if name == "true" else name
            print(f"{label:10s} tau {tau:3.1f}: mean log-probability {lp / len(rows):6.3f}, "
                  f"likeliest plan played {100 * top / len(rows):4.1f}%")


def _king_rows(args) -> list:
    """One game's rival plans, as medium's model saw them from the expert's view: for each,
    the model's K probability (None where K was not legal), its probability of each action
    card and of the rival placing before the expert's real plan (R4), and what the rival did."""
    g, seed0, seats, expert = args
    e = g % seats
    out = []
    for st, acts in _planning_phases(seed0 + g, seats, e, expert):
        ve = view(st, e)
        mine = turn_order_key(acts[e].king, acts[e].action, ve.seats[e].card)
        for j, p in acts.items():
            if j == e:
                continue
            model = rival_plan_model(ve, j)
            card = ve.seats[j].card
            legal = any(q.king for _, q, *_ in model)
            out.append(dict(
                k=sum(pr for pr, q, *_ in model if q.king) if legal else None, king=p.king,
                action={c: sum(pr for pr, q, *_ in model if q.action == c) for c in ACTION_CARDS},
                played=p.action,
                before=sum(pr for pr, q, *_ in model if turn_order_key(q.king, q.action, card) < mine),
                went_before=turn_order_key(p.king, p.action, card) < mine))
    return out


def kings(games: int, seed0: int, seats: int, expert: str) -> None:
    with Pool(2) as pool:
        rows = [r for game in pool.map(_king_rows, [(g, seed0, seats, expert) for g in range(games)])
                for r in game]
    krows = [r for r in rows if r["k"] is not None]
    n = len(krows)
    mass = sum(r["k"] for r in krows)
    played = sum(r["king"] for r in krows)
    print(f"{len(rows)} rival plans, {games} games ({seats} seats, seeds {seed0}+g, {expert} against hard@38)")
    print(f"where K was legal ({n}): medium's model gives K {mass / n:.3f} on average "
          f"({mass:.1f} plans expected); hard planned K {played} times ({played / n:.3f})")
    for c in ACTION_CARDS:
        m = sum(r["action"][c] for r in rows)
        k = sum(r["played"] == c for r in rows)
        print(f"action {c}: the model {m / len(rows):.3f}, hard {k / len(rows):.3f}")
    m = sum(r["before"] for r in rows)
    k = sum(r["went_before"] for r in rows)
    print(f"the rival places before the expert's plan: the model {m / len(rows):.3f}, hard {k / len(rows):.3f}")


class _Oracle(ExpertBot):
    """Expert whose determinizations carry the rivals' real plans (a bound, not a level)."""
    told: dict = {}

    def _determinization(self, base, view, seat, weights, rng):
        sim = super()._determinization(base, view, seat, weights, rng)
        if sim.phase == "plan":
            for j, p in self.told.items():
                sim.plan[j] = (sim.t.card_index[p.region], p.action, p.king)
        return sim


def _oracle_game(args) -> dict:
    g, seed0 = args
    seed = seed0 + g
    e = g % 2
    bots = [make_bot("hard@38", bot_seed(seed, s)) for s in range(2)]
    bots[e] = _Oracle(bot_seed(seed, e), iterations=250)
    st = new_game(GameConfig(seats=2))
    st = apply(st, deal(st, random.Random(seed)))
    while not st.is_over:
        if st.phase == "plan":
            j = 1 - e
            pj = bots[j].choose(view(st, j), j)
            bots[e].told = {j: pj}
            pe = bots[e].choose(view(st, e), e)
            bots[e].told = {}
            for p in sorted([pe, pj], key=lambda p: p.seat):
                st = apply(st, p)
        else:
            s = st.to_act()[0]
            st = apply(st, bots[s].choose(view(st, s), s))
    return dict(g=g, seed=seed, pos=e, winners=list(st.winners), final=list(st.scores()), illegal=0)


def oracle(games: int, seed0: int, out: str) -> None:
    with Pool(2) as pool, open(out, "a") as f:
        for r in pool.imap_unordered(_oracle_game, [(g, seed0) for g in range(games)]):
            f.write(json.dumps(r) + "\n")
            f.flush()
    from screen import summarize  # lab/screen.py
    summarize(out)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    f = sub.add_parser("fit")
    f.add_argument("games", type=int)
    f.add_argument("seed0", type=int)
    f.add_argument("--seats", type=int, default=2)
    o = sub.add_parser("oracle")
    o.add_argument("games", type=int)
    o.add_argument("seed0", type=int)
    o.add_argument("out")
    k = sub.add_parser("kings")
    k.add_argument("games", type=int)
    k.add_argument("seed0", type=int)
    k.add_argument("--seats", type=int, default=2)
    k.add_argument("--expert", default="expert@60")
    a = ap.parse_args()
    if a.cmd == "fit":
        fit(a.games, a.seed0, a.seats)
    elif a.cmd == "kings":
        kings(a.games, a.seed0, a.seats, a.expert)
    else:
        oracle(a.games, a.seed0, a.out)


if __name__ == "__main__":
    main()
