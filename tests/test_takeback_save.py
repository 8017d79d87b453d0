"""Take-backs and hints mark a game in its save (issue 11): the optional ``assists`` field."""
from __future__ import annotations

import pytest
from test_takeback import solo

pytestmark = pytest.mark.rule("E-save", "E-takeback")


def test_the_save_marks_a_helped_game_and_older_saves_still_load(tmp_path):
    """The optional ``assists`` field: written only when help was used, read back, absent = none."""
    import json

    from gonzaga.table import persistence
    s = solo(17)
    p = persistence.save_game(s, tmp_path / "plain.json")
    assert "assists" not in json.loads(p.read_text())
    assert persistence.read_save(p).model.assists is None
    s.assists["takebacks"] = 2
    s.assists["hints"] = 1
    p = persistence.save_game(s, tmp_path / "helped.json")
    d = json.loads(p.read_text())
    assert d["assists"] == {"takebacks": 2, "hints": 1}
    m = persistence.read_save(p).model.assists
    assert (m.takebacks, m.hints) == (2, 1)
    d["assists"] = {"takebacks": -1}
    (tmp_path / "bad.json").write_text(json.dumps(d))
    import pytest
    with pytest.raises(persistence.SaveError):
        persistence.read_save(tmp_path / "bad.json")
