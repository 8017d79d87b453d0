"""lab/value_floor.py: the luck of the decks against the position value's own error."""
import math

import pytest

from gonzaga.ai import value_table, valuefn

import value_floor  # lab/ is on the path: lab/tests/conftest.py


def test_the_summary_separates_luck_from_the_values_error():
    # by hand: the continuations' sample variances are 2 and 0 (luck^2 = 1); their means are
    # 1 and 1, so the predictions 3 and -1 miss them by 2 each (4), of which 1 / 2 is the
    # means' own noise: to_expected = sqrt(3.5); against the first continuations, 3 and 2 miss
    s = value_floor.summary([(3.0, [0.0, 2.0]), (-1.0, [1.0, 1.0])])
    assert s["luck"] == pytest.approx(1.0)
    assert s["to_expected"] == pytest.approx(math.sqrt(3.5))
    assert s["to_one"] == pytest.approx(math.sqrt(6.5))
    # predictions on the means, and every spread luck: nothing left for a better value
    s = value_floor.summary([(0.0, [2.0, -2.0]), (4.0, [4.0, 4.0])])
    assert s["luck"] == pytest.approx(2.0) and s["to_expected"] == 0.0 and s["to_one"] == pytest.approx(math.sqrt(2))


def test_continuations_reshuffle_the_decks_and_leave_the_position_alone():
    sim = value_floor.position(2, 800_003)
    assert sim.phase == "plan" and 2 <= sim.round <= 9
    decks = [d[:] for d in sim.deck]
    first = value_floor.continuations(sim, 800_003, 6)
    assert [d[:] for d in sim.deck] == decks
    assert first == value_floor.continuations(sim, 800_003, 6)  # seeded
    assert len(set(first)) > 1  # the decks' luck moves the margin
    # the value scored is the learned one at that position, as expert's rollouts read it
    learned, hand, outs = value_floor.measure((2, 800_003, 6))
    assert outs == first
    assert learned == pytest.approx(value_floor.margin(valuefn.values(sim, value_table.TABLE)))
    assert hand == pytest.approx(value_floor.margin(sim.position_values()))


def test_the_command_prints_both_values(capsys, monkeypatch):
    monkeypatch.setenv("PROCS", "1")  # no fork under pytest, whose threads could hang it
    assert value_floor.main(["--seats", "2", "--games", "2", "--k", "3", "--seed", "800003"]) == 0
    out = capsys.readouterr().out
    assert "2 seats" in out and "learned  luck" in out and "hand     luck" in out
    with pytest.raises(SystemExit):
        value_floor.main(["--k", "1"])
    # seed 800339's game ends before the round drawn for it: nothing to measure, said plainly
    assert value_floor.main(["--seats", "4", "--games", "1", "--k", "2", "--seed", "800339"]) == 1
    assert "no position to measure" in capsys.readouterr().out
