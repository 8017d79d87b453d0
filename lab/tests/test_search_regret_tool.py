"""lab/search_regret.py: a search's choice scored against its own large-budget reference."""
import json
import random


from gonzaga.rules import GameConfig, apply, deal, new_game, view

import search_regret  # lab/ is on the path: lab/tests/conftest.py


def test_a_position_scores_each_search_against_the_reference(tmp_path, capsys):
    st = new_game(GameConfig(seats=2))
    st = apply(st, deal(st, random.Random(4)))
    row = search_regret.measure((view(st, 0), [8, 32], [1], 6))
    assert row["phase"] == "plan" and set(row["picks"]) == {"8/1", "32/1"}
    # the regret is the reference's best mean minus the chosen one's: never below 0, and 0
    # when the search chose the reference's best
    for k, pick in row["picks"].items():
        assert row["regret"][k] >= 0
        if pick == row["ref_best"]:
            assert row["regret"][k] == 0
    out = tmp_path / "r.jsonl"
    out.write_text(json.dumps(row) + "\n")
    search_regret.main(["sum", str(out)])
    text = capsys.readouterr().out
    assert "1 positions (plan)" in text and "8 and 32 rollouts (seed 1) choose the same in" in text


def test_the_reference_plays_every_candidate_on_the_same_determinizations():
    """``reference_values`` gives each candidate its mean over one shared set of
    determinizations: the order of the list changes nothing, and a candidate listed twice
    gets the same mean twice (common random numbers)."""
    from gonzaga.ai.expert import ExpertBot
    st = new_game(GameConfig(seats=2))
    v = view(apply(st, deal(st, random.Random(4))), 0)
    cands = ExpertBot(1).candidates(v, 0)[:3]
    ref = search_regret.reference_values
    fwd = ref(ExpertBot(7), v, 0, cands, 12)
    back = ref(ExpertBot(7), v, 0, cands[::-1], 12)
    assert fwd == back[::-1]
    twice = ref(ExpertBot(7), v, 0, [cands[1], cands[1]], 12)
    assert twice[0] == twice[1] == fwd[1]
    assert len(set(fwd)) > 1  # the candidates differ: the equalities above are not trivial
