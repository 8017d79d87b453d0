"""tools/search_regret.py: a search's choice scored against its own large-budget reference."""
import json
import random
import sys
from pathlib import Path

import pytest

from gonzaga.rules import GameConfig, apply, deal, new_game, view

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tools"))
search_regret = pytest.importorskip("search_regret")


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
