"""lab/budget_probe.py: what each bot's searches ran, by phase, counted once per decision."""


import budget_probe  # lab/ is on the path: lab/tests/conftest.py


def test_the_summary_takes_nearest_ranks():
    # by hand: ten values 1..10; p10 is the second smallest, the median the sixth, p90 the tenth
    assert budget_probe.summary(list(range(10, 0, -1))) == {"n": 10, "p10": 2, "median": 6, "p90": 10}
    assert budget_probe.summary([7]) == {"n": 1, "p10": 7, "median": 7, "p90": 7}


def test_pinned_budgets_are_read_back_per_bot_and_phase():
    # pinned bots search exactly their budgets, so the probe must read 8 and 4 and nothing else;
    # a two-seat game has one plan and one placement per seat and round, so the counts match
    out = budget_probe.probe(2, 1, 555, "expert@8", "hard@4")
    assert set(out) == {"expert@8/plan", "expert@8/place", "hard@4/plan", "hard@4/place"}
    for key, s in out.items():
        budget = 8 if key.startswith("expert") else 4
        assert (s["p10"], s["median"], s["p90"]) == (budget, budget, budget), key
    assert out["expert@8/plan"]["n"] == out["hard@4/plan"]["n"] >= 6


def test_bad_arguments_get_a_message_not_a_traceback(capsys):
    assert budget_probe.main(["2", "x", "1"]) == 2
    assert "whole numbers" in capsys.readouterr().err
    assert budget_probe.main(["5", "1", "1"]) == 2
    assert budget_probe.main([]) == 2
