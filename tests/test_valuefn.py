"""The learned position value (issue 12): its features counted by hand on a set-up position,
the fitted weights applied as a dot product, and expert valuing a stopped rollout with it
in three- and four-seat games (the fit itself: lab/fit_value.py, lab/tests)."""
import random

import pytest

from gonzaga.ai import valuefn
from gonzaga.ai.expert import ExpertBot
from gonzaga.ai.fastsim import Sim
from gonzaga.rules import GameConfig, apply, deal, new_game, view
from gonzaga.rules.board import bits


def _start(seats=2, seed=5):
    st = new_game(GameConfig(seats=seats))
    return apply(st, deal(st, random.Random(seed)))


def _set_up():
    """Seat 0: one harbor of a 4-harbor sea and one city of its objective, a group of 3
    pieces; seat 1: the sea's two other harbors (by rings), a group of 5."""
    sim = Sim.from_state(_start())
    t = sim.t
    h = list(bits(t.sea_mask[0]))
    assert len(h) == 4  # the map brief: every sea has four harbors
    harbors = 0
    for hm in t.sea_mask:
        harbors |= hm
    cities = [c for c in bits(sim.obj[0]) if not harbors >> c & 1]
    sim.fm[0] = 1 << h[0] | 1 << cities[0]
    sim.rm[1] = 1 << h[1] | 1 << h[2]
    sim.pts = [7, 11]
    sim.rings = [3, 1]
    sim.comps = [((sim.fm[0], 0, 3),), ((sim.rm[1], 0, 5),)]
    sim.shared = None
    return sim, sim.obj[0].bit_count(), (sim.obj[1] & ~(sim.fm[0] | sim.rm[1])).bit_count()


@pytest.mark.rule("X2", "X4", "X5")
def test_features_counted_by_hand():
    """X2: a sea where the seat holds 1 harbor counts only while 3 can still be reached (1
    held + 1 free of 4 cannot); X5: the objective step from 1 city to 2 is 5 - 2; X4: the
    Gonzaga tile shared by a softmax over the largest groups (3 and 5 pieces)."""
    import math
    sim, objective_cities, rival_free = _set_up()
    left = sim.rounds_left(0)
    assert left == 11  # the fiefs still in the deck after round 1's was drawn
    temp = 0.6 + 0.6 * left
    w0 = math.exp((3 - 5) / temp)
    free = sim.t.sites.bit_count() - 4
    f0, f1 = valuefn.features(sim)
    names = valuefn.FEATURES
    want0 = {"bias": 1, "points": 7, "objective": 2, "objective_free": objective_cities - 1,
             "objective_step": 3, "league_one": 0, "league_two": 0, "rings": 3, "largest": 3,
             "largest_lead": -2, "tile_share": 15 * w0 / (1 + w0), "rival_league_two": 1,
             "free_sites": free, "best_plan": max(v for v, _ in sim.plan_values(0))}
    want1 = {"bias": 1, "points": 11, "objective": 0, "objective_free": rival_free,
             "objective_step": 2 if rival_free else 0, "league_one": 0, "league_two": 1, "rings": 1,
             "largest": 5, "largest_lead": 2, "tile_share": 15 / (1 + w0), "rival_league_two": 0,
             "free_sites": free, "best_plan": max(v for v, _ in sim.plan_values(1))}
    assert dict(zip(names, f0)) == pytest.approx(want0)
    assert dict(zip(names, f1)) == pytest.approx(want1)
    # seat 0 takes the sea's last harbor: nobody can reach 3 there any more, nothing to block
    sim.fm[0] |= 1 << next(iter(bits(sim.t.sea_mask[0] & ~sim.fm[0] & ~sim.rm[1])))
    sim.shared = None
    f0, f1 = valuefn.features(sim)
    assert (f0[names.index("league_two")], f0[names.index("rival_league_two")]) == (0, 0)
    assert (f1[names.index("league_two")], f1[names.index("rival_league_two")]) == (0, 0)


@pytest.mark.rule("R6", "X3")
def test_best_plan_is_the_policys_plan_value_while_planning():
    """The coming round's best plan, as the rollout policy values it: at least the donation
    (R6, X3: a donation is always allowed and scores 3), the plan the policy picks, and
    nothing once the plans are revealed (the other features then count the placements)."""
    from gonzaga.ai.heuristics import DONATION
    sim, _, _ = _set_up()
    k = valuefn.FEATURES.index("best_plan")
    for i, f in enumerate(valuefn.features(sim)):
        vals = dict((p, v) for v, p in sim.plan_values(i))
        assert f[k] >= DONATION
        assert f[k] == pytest.approx(vals[sim.policy_plan(i)[:2] + (False,)])
    for i in range(2):
        sim.set_plan(i, sim.policy_plan(i))
    sim.reveal()
    assert [f[k] for f in valuefn.features(sim)] == [0.0, 0.0]


def test_values_are_the_fitted_weights_applied_and_final_scores_at_the_end():
    sim, _, _ = _set_up()
    weights = tuple(float(k + 1) for k in range(len(valuefn.FEATURES)))
    table = {2: {3: weights, 12: tuple(0.0 for _ in weights)}}
    f = valuefn.features(sim)
    got = valuefn.values(sim, table)  # 11 rounds left: the nearest fitted is 12
    assert got == [0.0, 0.0]
    table = {2: {7: weights, 15: tuple(0.0 for _ in weights)}}  # 11 is 4 from 7 and from 15: the fewer
    assert valuefn.values(sim, table) == pytest.approx([sum(w * x for w, x in zip(weights, f[i])) for i in range(2)])
    assert valuefn.values(sim, {4: {1: weights}}) == sim.position_values()  # no weights for 2 seats
    sim.play()
    assert valuefn.values(sim, table) == [float(x) for x in sim.final_scores()]


def test_expert_values_a_stopped_three_seat_rollout_with_the_learned_value():
    from gonzaga.ai import value_table
    st = _start(3, 9)
    v = view(st, 0)
    bot = ExpertBot(2, iterations=10)
    base, weights = bot._begin(v, 0)  # as a search sets it up: the table of three seats
    det = bot._determinization(base, v, 0, weights, random.Random(4))
    a = bot.candidates(v, 0)[0]
    got = bot.rollout_value(det, a, 0)
    sim = det.copy()
    sim.apply_action(a)
    sim.play(det.round + 1)
    vals = valuefn.values(sim, value_table.TABLE)
    assert vals != sim.position_values()
    assert got == pytest.approx(ExpertBot._outcome(sim, 0, (vals, None)))
    assert got != pytest.approx(ExpertBot._outcome(sim, 0))  # the hand value would differ


def test_the_shipped_table_covers_every_seat_count_and_feature():
    from gonzaga.ai import value_table
    assert sorted(value_table.TABLE) == [2, 3, 4]
    for rows in value_table.TABLE.values():
        assert all(len(w) == len(valuefn.FEATURES) for w in rows.values())


def test_by_default_expert_uses_the_learned_value_in_three_and_four_seat_games():
    """Three and four seats, where it was a gain, use the learned value; two seats, where it
    was none, keep the hand value (docs/ai.md)."""
    from gonzaga.ai import expert as EX
    from gonzaga.ai import value_table
    assert EX.LEARNED_SEATS == {3, 4}
    seen = {}
    for seats in (2, 3, 4):
        st = _start(seats, 9)
        bot = ExpertBot(3, iterations=8)
        bot.choose(view(st, 0), 0)
        seen[seats] = bot._table
    assert seen == {2: None, 3: value_table.TABLE, 4: value_table.TABLE}
