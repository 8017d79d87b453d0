"""The learned position value (issue 12): its features counted by hand on a set-up position,
the fitted weights applied as a dot product, the fit recovering known weights, and expert
valuing a stopped rollout with it when asked."""
import random
import sys
from pathlib import Path

import pytest

from gonzaga.ai import valuefn
from gonzaga.ai.expert import ExpertBot, objective_weights
from gonzaga.ai.fastsim import Sim
from gonzaga.rules import GameConfig, apply, deal, new_game, view
from gonzaga.rules.board import bits

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tools"))
import fit_value  # noqa: E402


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


def test_the_fit_recovers_known_weights():
    """Final scores that are an exact linear function of the features give back its weights
    (the ridge penalty set to zero), in each (seats, rounds left) separately."""
    rng = random.Random(3)
    k = len(valuefn.FEATURES)
    truth = {3: [2.0, 1.0] + [0.0] * (k - 2), 5: [-1.0, 0.5, 4.0] + [0.0] * (k - 3)}
    data = []
    for g in range(150):
        for left, w in truth.items():  # one recorded round per game, so each has its own finals
            f = [[1.0] + [float(rng.randint(0, 9)) for _ in range(k - 1)] for _ in range(2)]
            final = [sum(a * b for a, b in zip(w, f[i])) for i in range(2)]
            data.append((2, [[(left, f[i], 0.0, i) for i in range(2)]], final, [0], g))
    table = fit_value.fit(data, ridge=0.0)
    for left, w in truth.items():
        assert table[2][left] == pytest.approx(w, abs=1e-3)


def test_solve():
    assert fit_value.solve([[2.0, 1.0], [1.0, 3.0]], [3.0, 5.0]) == pytest.approx([0.8, 1.4])
    assert fit_value.solve([[0.0, 1.0], [1.0, 0.0]], [2.0, 3.0]) == pytest.approx([3.0, 2.0])  # needs a pivot


def test_expert_values_a_stopped_rollout_with_the_learned_value_when_asked():
    from gonzaga.ai import value_table
    st = _start(2, 9)
    v = view(st, 0)
    bot = ExpertBot(2, iterations=10, value="learned")
    bot._table = bot.table_for(2)  # as a search sets it
    det = bot._determinization(Sim.from_state(v), v, 0, objective_weights(v, 0), random.Random(4))
    a = bot.candidates(v, 0)[0]
    got = bot.rollout_value(det, a, 0)
    sim = det.copy()
    sim.apply_action(a)
    sim.play(det.round + 1)
    vals = valuefn.values(sim, value_table.TABLE)
    assert vals != sim.position_values()
    assert got == pytest.approx(ExpertBot._outcome(sim, 0, (vals, None)))
    assert ExpertBot(2, iterations=10).rollout_value(det, a, 0) == pytest.approx(ExpertBot._outcome(sim, 0))
    with pytest.raises(ValueError, match="value"):
        ExpertBot(2, value="learnt")


def test_the_shipped_table_covers_every_seat_count_and_feature():
    from gonzaga.ai import value_table
    assert sorted(value_table.TABLE) == [2, 3, 4]
    for rows in value_table.TABLE.values():
        assert all(len(w) == len(valuefn.FEATURES) for w in rows.values())


def test_by_default_expert_uses_the_learned_value_in_three_and_four_seat_games():
    """The default ("auto"): three and four seats, where it was a gain, use the learned value;
    two seats, where it was none, keep the hand value (docs/ai.md, eighth and tenth sessions)."""
    from gonzaga.ai import expert as EX
    from gonzaga.ai import value_table
    assert EX.VALUE == "auto" and EX.LEARNED_SEATS == {3, 4}
    seen = {}
    for seats in (2, 3, 4):
        st = _start(seats, 9)
        bot = ExpertBot(3, iterations=8)
        bot.choose(view(st, 0), 0)
        seen[seats] = bot._table
    assert seen == {2: None, 3: value_table.TABLE, 4: value_table.TABLE}
    st = _start(2, 9)
    bot = ExpertBot(3, iterations=8, value="learned")
    bot.choose(view(st, 0), 0)
    assert bot._table is value_table.TABLE



def test_the_fit_records_every_round_of_a_self_play_game():
    """tools/fit_value.py: one row per round start, the rounds left counting down, and the
    final scores those of the same deal played to the end by the tuned policy."""
    from gonzaga.ai.fastsim import TUNED
    n, rows, final, win, seed = fit_value.play((2, 4242, (), TUNED))
    sim = Sim.from_state(_start(2, 4242))
    sim.weights = [TUNED] * 2
    sim.play()
    assert (n, seed, final, win) == (2, 4242, sim.final_scores(), sim.winners(sim.final_scores()))
    assert len(rows) == sim.round  # rounds 1 .. the last
    lefts = [r[0][0] for r in rows]
    assert lefts == sorted(lefts, reverse=True) and lefts[0] == 11
    assert rows[0][0][1][valuefn.FEATURES.index("points")] == 0.0


def test_the_fit_plays_the_rollout_policy_it_is_given():
    """``--policy``: the self-play games and the recorded features are those of the given
    weights (a value for expert with that rollout policy), not of ``TUNED``."""
    from gonzaga.ai.fastsim import BASE_WEIGHTS, TUNED
    n, rows, final, win, seed = fit_value.play((2, 4242, (), BASE_WEIGHTS))
    played = {}
    for w in (BASE_WEIGHTS, TUNED):
        sim = Sim.from_state(_start(2, 4242))
        sim.weights = [w] * 2
        first = valuefn.features(sim)
        sim.play()
        played[w] = (sim.final_scores(), first)
    assert played[BASE_WEIGHTS] != played[TUNED]  # the deal tells the two policies apart
    assert (final, [r[1] for r in rows[0]]) == played[BASE_WEIGHTS]


def test_the_fit_records_every_round_of_a_bot_game():
    """``--bots``: a real game between the named bots, their seats rotating with the seed (an
    odd seed puts the second bot first); one row per round start, the first that of the deal
    with every seat's policy the tuned one, and the final scores those of the game played."""
    from gonzaga.ai.fastsim import BASE_WEIGHTS, TUNED
    from gonzaga.ai.match import play_game
    n, rows, final, win, seed = fit_value.play((2, 4243, ("medium", "greedy"), TUNED))
    res = play_game(["greedy", "medium"], 4243)
    assert (n, seed, final, win) == (2, 4243, list(res.state.scores()), list(res.state.winners))
    assert len(rows) == res.state.round
    sim = Sim.from_state(_start(2, 4243))
    sim.weights = [TUNED] * 2
    assert [r[1] for r in rows[0]] == valuefn.features(sim)
    # --policy: the same game, its features as another rollout policy sees them
    _, other, *_ = fit_value.play((2, 4243, ("medium", "greedy"), BASE_WEIGHTS))
    sim.weights = [BASE_WEIGHTS] * 2
    assert [r[1] for r in other[0]] == valuefn.features(sim) != [r[1] for r in rows[0]]
    assert [r[0][0] for r in rows] == sorted((r[0][0] for r in rows), reverse=True)


def test_writing_a_fit_keeps_the_seat_counts_not_fitted(tmp_path, monkeypatch):
    """A fit of two seats only replaces the two-seat weights in the written table."""
    from gonzaga.ai import value_table
    out = tmp_path / "value_table.py"
    monkeypatch.setattr(fit_value, "TABLE", out)
    new = {2: {0: tuple(float(i) for i in range(len(valuefn.FEATURES)))}}
    fit_value.write(new)
    ns: dict = {}
    exec(out.read_text(), ns)
    assert ns["TABLE"][2] == new[2]
    assert ns["TABLE"][3] == value_table.TABLE[3] and ns["TABLE"][4] == value_table.TABLE[4]
