"""lab/screen.py, the match harness of issue 12's screens: mirrored deals, the paired
comparison, the diagnostic bots."""
import json

import pytest

import screen  # lab/ is on the path: lab/tests/conftest.py


def test_mirrored_games_play_each_deal_once_with_the_bot_in_each_seat():
    """Two equal bots on a mirrored deal share it exactly: the same game, seats swapped."""
    rows = [screen.one((2, g, 500, "greedy", "greedy", True)) for g in (0, 1)]
    assert [r["seed"] for r in rows] == [500, 500] and [r["pos"] for r in rows] == [0, 1]
    assert rows[0]["final"] == rows[1]["final"]
    assert screen._share(rows[0]) + screen._share(rows[1]) == pytest.approx(1.0)
    plain = screen.one((2, 1, 500, "greedy", "greedy", False))
    assert plain["seed"] == 501


def test_pair_reports_the_mean_margin_difference(tmp_path, capsys):
    def log(name, finals, seed0=10):
        p = tmp_path / name
        p.write_text("".join(json.dumps(dict(g=g, seed=seed0 + g, pos=0, winners=[0] if f[0] > f[1] else [1],
                                             final=f)) + "\n" for g, f in enumerate(finals)))
        return str(p)
    a = log("a.jsonl", [[100, 90], [95, 97], [80, 80]])  # margins +10, -2, 0
    b = log("b.jsonl", [[90, 90], [99, 97]])  # margins 0, +2 (game 2 not played)
    screen.pair(a, b)
    out = capsys.readouterr().out
    assert out.startswith("2 games in common") and "margin +3.00 in the first's favour" in out  # (10 - 0 + (-2 - 2)) / 2
    # games are paired by deal and seat, not by number: a run from other seeds shares none
    with pytest.raises(SystemExit):
        screen.pair(a, log("c.jsonl", [[90, 90], [99, 97]], seed0=50))


def test_a_phase_bot_plans_with_one_bot_and_places_with_the_other():
    from gonzaga.ai.match import play_game

    calls = {"plan": set(), "place": set()}

    class Spy:
        def __init__(self, name):
            self.bot, self.name = screen.build("greedy", 1), name

        def choose(self, view, seat):
            calls[view.phase].add(self.name)
            return self.bot.choose(view, seat)

    pb = screen.PhaseBot(Spy("p"), Spy("q"))
    res = play_game([pb, "greedy"], 7)
    assert res.illegal == 0 and calls == {"plan": {"p"}, "place": {"q"}}
