"""lab/fit_value.py: the learned position value's fit (``gonzaga.ai.valuefn``) recovering known
weights, the self-play games it records, and the table it writes."""
import random

import pytest

import fit_value  # lab/ is on the path: lab/tests/conftest.py
from gonzaga.ai import valuefn
from gonzaga.ai.fastsim import Sim
from gonzaga.rules import GameConfig, apply, deal, new_game


def _start(seats=2, seed=5):
    st = new_game(GameConfig(seats=seats))
    return apply(st, deal(st, random.Random(seed)))


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


def test_the_fit_records_every_round_of_a_self_play_game():
    """lab/fit_value.py: one row per round start, the rounds left counting down, and the
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
