"""lab/fit_policy.py: the rollout policy's piece value split into terms, and the fit (issue 12)."""
import random

import pytest

from gonzaga.ai import make_bot
from gonzaga.ai.fastsim import BASE_WEIGHTS, TUNED, Sim, entry_action
from gonzaga.rules import GameConfig, apply, deal, new_game, view

import fit_policy  # lab/ is on the path: lab/tests/conftest.py


def _placements(seed: int, count: int, phase: str = "place"):
    """Views of seat 0 about to place (C: weddings offered too), or to plan with ``phase``
    "plan", from a seeded medium game."""
    st = new_game(GameConfig(seats=2))
    st = apply(st, deal(st, random.Random(seed)))
    bots = [make_bot("medium", seed=1), make_bot("medium", seed=2)]
    out = []
    while not st.is_over and len(out) < count:
        seat = st.to_act()[0]
        if st.phase == phase and seat == 0:
            out.append(view(st, 0))
        st = apply(st, bots[seat].choose(view(st, seat), seat))
    return out


def test_the_terms_rebuild_the_policys_own_value_for_any_weights():
    # the piece value is linear in each weight: points + sum of weight x term, so the fit can
    # read the terms off Sim.value instead of writing the rule a second time
    seen = set()
    for v in _placements(7, 8):
        sim = Sim.from_state(v)
        for w in (TUNED, BASE_WEIGHTS):
            sim.weights = [w] * sim.n
            for val, choice in sim.place_options(0, 10 ** 6):
                base, xs = fit_policy.terms(sim, 0, choice)
                assert fit_policy.policy_value(base, xs, w) == pytest.approx(val)
                seen |= {f for f, x in zip(fit_policy.FIT, xs) if x}
                # and a rules action maps back to the same entry (the tool values the
                # search's candidates, which are rules actions)
                if choice is not None:
                    again = fit_policy.choice_of(sim, entry_action(sim, 0, choice))
                    assert again[0].mask == choice[0].mask and again[1] == choice[1]
    assert {"lp1", "group", "ring"} <= seen  # the positions exercise the terms, not just points


def test_the_fit_recovers_known_weights_and_scales():
    # values made from known weights, each position with its own scale and offset (a point
    # is worth less to the win chance far from an even game): the fit finds the weights
    rng = random.Random(3)
    true = TUNED._replace(lp1=1.4, lp2=3.0, group=2.0, ring=2.5, block2=0.6, block1=0.2)
    pos = []
    for _ in range(60):
        scale, offset = rng.uniform(0.02, 0.08), rng.uniform(0.2, 0.8)
        rows = []
        for _ in range(10):
            base = rng.choice([0.0, 1.0, 2.0, 3.0, 6.0])
            xs = [rng.choice([0.0, 0.0, 1.0, -1.0, 0.5]) for _ in fit_policy.FIT]
            rows.append([offset + scale * fit_policy.policy_value(base, xs, true), base] + xs)
        pos.append(rows)
    w, scales = fit_policy.fit(pos, TUNED, ridge=1e-6)
    for f in fit_policy.FIT:
        assert getattr(w, f) == pytest.approx(getattr(true, f), abs=1e-3), f
    assert w.deny == TUNED.deny and w.king == TUNED.king  # fields not fitted keep the start's
    # the policy with the true weights always picks the best: no regret
    assert fit_policy.regret(pos, true) == (0.0, 60)
    assert fit_policy.regret(pos, BASE_WEIGHTS)[0] > 0


def test_the_plan_probe_reads_the_policys_own_plan_values():
    """plans-probe's "value" of a plan without K is the rollout policy's plan value (its
    turn-order contention included), the rule not written twice; with K it is the value on
    the board now (K goes first, R4), and "exposed" is the difference; K x rounds left is
    the K feature times the rounds left."""
    exposed = 0
    for v in _placements(12, 5, "plan"):
        sim = Sim.from_state(v)
        sim.weights = [TUNED] * sim.n
        feats = fit_policy.plan_features(v)
        plain = {p: val for val, p, _ in sim._plan_table(0)}
        for val, (k, a, _) in sim.plan_values(0):
            f = feats[f"plan 0 {sim.t.cards[k]} {a}"]
            fk = feats[f"plan 0 {sim.t.cards[k]} {a}+K"]
            assert f[0] == pytest.approx(val) and f[0] + f[1] == pytest.approx(plain[(k, a, False)])
            assert fk[:3] == [pytest.approx(plain[(k, a, False)]), 0.0, 1.0] and fk[5] == 1.0
            assert fk[3] == sim.rounds_left(0) and f[2] == f[3] == 0.0
            exposed += f[1] > 0
            # what the plan keeps for the next round: the best plan sharing neither card (R3)
            assert f[4] == fk[4] == max(x for (k2, a2, _), x in plain.items() if k2 != k and a2 != a)
    assert exposed  # a rival ahead takes a spot somewhere: the contention is exercised
