"""The fiefs (D1) and the actions' text form."""
import pytest

from gonzaga.rules import (ActionSyntaxError, Donate, Place, Plan, Setup, Wedding, hexgrid, load_content,
                           parse_action)
from gonzaga.rules.content import ContentError


@pytest.fixture(scope="module")
def fiefs():
    return load_content().fiefs


@pytest.mark.rule("D1")
def test_D1_twelve_fiefs_connected_with_two_castles(fiefs):
    assert sorted(fiefs) == list(range(10, 130, 10))
    for f in fiefs.values():
        assert 3 <= len(f.cells) <= 4
        assert hexgrid.is_connected(f.cells)
        assert len(f.castles) == 2


@pytest.mark.rule("D1")
def test_D1_shapes_pairwise_different_under_rotation(fiefs):
    def forms(f):
        return {hexgrid.normalize(f.rotated(k)[0]) for k in range(6)}
    nums = sorted(fiefs)
    for i, a in enumerate(nums):
        for b in nums[i + 1:]:
            assert not (forms(fiefs[a]) & forms(fiefs[b])), (a, b)


@pytest.mark.rule("D1", "P10")
def test_D1_P10_symmetric_rotations_counted_once(fiefs):
    # triangle 10: castles break all symmetry but rotation... computed against brute force
    for f in fiefs.values():
        seen = set()
        for k in range(6):
            cells, castles = f.rotated(k)
            q0, r0 = sorted(cells, key=lambda h: (h[1], h[0]))[0]
            key = (hexgrid.normalize(cells), tuple(sorted((q - q0, r - r0) for q, r in castles)))
            seen.add(key)
        assert len(f.distinct_rotations) == len(seen)
    assert len(fiefs[30].distinct_rotations) == 3  # a straight line with castles at both ends
    assert len(fiefs[40].distinct_rotations) == 3
    assert len(fiefs[50].distinct_rotations) == 6


def test_hex_rotation_and_pixels():
    for h in [(0, 0), (2, -1), (-3, 5)]:
        assert hexgrid.rotate(h, 6) == h
        assert hexgrid.distance((0, 0), hexgrid.rotate(h, 1)) == hexgrid.distance((0, 0), h)
        assert hexgrid.from_pixel(*hexgrid.to_pixel(h)) == h
    assert hexgrid.rotate((1, 0), 1) == (0, 1)


@pytest.mark.parametrize("action", [
    Setup("Marco Polo", 1, ((10, 20, 30, 40, 50, 60, 70, 80, 90, 100, 110, 120),
                            (120, 110, 100, 90, 80, 70, 60, 50, 40, 30, 20, 10)), ("wine-art", "wool-bank")),
    Plan(2, "inactive", "C", True), Plan(0, "francia", "A", False),
    Place(1, 120, (-3, 14), 5), Wedding(3, ((4, -2),)), Wedding(0, ((1, 1), (2, 1))), Donate(2),
])
def test_action_text_round_trip(action):
    assert parse_action(action.to_text()) == action


@pytest.mark.parametrize("text", ["", "plan 0 francia", "place x f10 1,1 r0", "plan 0 francia Z",
                                  "wed 0", "teleport 1", "setup Dante lt=0"])
def test_action_text_errors(text):
    with pytest.raises(ActionSyntaxError):
        parse_action(text)


def test_content_errors_name_file_and_field(tmp_path):
    import json
    import shutil
    from gonzaga.resources import asset_path
    d = tmp_path / "map"
    shutil.copytree(asset_path("map"), d)
    data = json.loads((d / "fiefs.json").read_text())
    data["fiefs"][2]["castles"] = [[5, 5]]
    (d / "fiefs.json").write_text(json.dumps(data))
    with pytest.raises(ContentError) as e:
        load_content(d)
    assert "fiefs.json" in str(e.value) and "fiefs.2" in str(e.value)
    (d / "fiefs.json").write_text("{broken")
    with pytest.raises(ContentError) as e:
        load_content(tmp_path / "map")
    assert "not valid JSON" in str(e.value)
    (d / "fiefs.json").unlink()
    with pytest.raises(ContentError) as e:
        load_content(d)
    assert "missing file" in str(e.value)


@pytest.mark.rule("D3")
def test_D3_sixteen_scenario_tiles():
    c = load_content()
    assert len(c.scenarios) == 16
    assert [len(c.scenarios_for(n)) for n in (2, 3, 4)] == [5, 5, 6]
    assert c.scenario("Colombo").flourishing == {"hispania", "francia", "britannia", "italia"}
    for n in (2, 3, 4):
        for s in c.scenarios_for(n):
            assert len(s.flourishing) == n + 1
    assert {frozenset(s.flourishing) for s in c.scenarios_for(4)} == {
        frozenset(r for r in c.region_ids if r != left) for r_ in [0] for left in c.region_ids}


@pytest.mark.rule("D4")
def test_D4_sixteen_objective_cards_six_cities_each():
    c = load_content()
    assert len(c.objectives) == 16
    for o in c.objectives:
        cities = c.objective_cities(o.id)
        assert len(cities) == 6
        assert len({c.region_of[h] for h in cities}) == 6  # one in each region


@pytest.mark.rule("D5")
def test_D5_greedy_games_play_like_the_printed_game():
    """A small regression guard for calibration (docs/calibration.md has the full figures)."""
    from gonzaga.ai.match import play_game
    from gonzaga.rules import GameConfig
    rounds, turns, donations = [], 0, 0
    for g in range(12):
        res = play_game(["greedy"] * 4, seed=500 + g, config=GameConfig(seats=4))
        rounds.append(res.state.round)
        turns += sum(res.turns)
        donations += sum(res.donations)
    assert all(7 <= r <= 12 for r in rounds)
    assert donations / turns < 0.15


@pytest.mark.rule("S3", "R3", "K1", "K4")
def test_random_playout_plans_uniform_over_legal_plans():
    """The playout's plan draw covers exactly legal_plans (S3, R3, K1)."""
    import random
    from gonzaga.rules import GameConfig, apply, deal, legal_plans, new_game
    from gonzaga.rules.playout import _random_plan
    st = new_game(GameConfig(seats=3))
    st = apply(st, deal(st, random.Random(3)))
    rng = random.Random(1)
    drawn = {_random_plan(st, 0, rng) for _ in range(3000)}
    assert drawn == set(legal_plans(st, 0))
    st = st.with_seat(0, rings=0, unavailable=frozenset({"A", st.region_cards()[0]}))
    drawn = {_random_plan(st, 0, rng) for _ in range(2000)}
    assert drawn == set(legal_plans(st, 0))
