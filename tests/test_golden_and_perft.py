"""Golden playthroughs and perft counts (P1-P10 as numbers); the generator against brute force."""
import json
from pathlib import Path

import pytest

from golden_cases import GOLDEN_GAMES, PERFT_POSITIONS, golden_game_text, perft_counts, perft_position
from gonzaga.ai.match import play_game
from gonzaga.rules import GameConfig, legal_placements
from gonzaga.rules.legality import placement_problem

GOLDEN = Path(__file__).parent / "golden"
REGEN = "regenerate with: .venv/bin/python tools/regen_golden.py (after an intended change)"


@pytest.mark.parametrize("name", sorted(GOLDEN_GAMES))
def test_golden_playthrough_unchanged(name):
    bots, seed = GOLDEN_GAMES[name]
    expected = (GOLDEN / f"{name}.txt").read_text()
    assert golden_game_text(bots, seed) == expected, REGEN


@pytest.mark.parametrize("name", sorted(PERFT_POSITIONS))
def test_perft_counts_unchanged(name):
    """A snapshot (legal placements per seat and plan in three positions), not a rule test."""
    expected = json.loads((GOLDEN / "perft.json").read_text())[name]
    assert perft_counts(*PERFT_POSITIONS[name]) == expected, REGEN


@pytest.mark.rule("P1", "P2", "P3", "P4", "P5", "P6", "P7", "P8", "P9", "P10")
@pytest.mark.parametrize("name", sorted(PERFT_POSITIONS))
def test_fast_generator_matches_brute_force_P1_to_P10(name):
    """Every hex of the map x every rotation 0-5, checked one by one with placement_problem."""
    state = perft_position(*PERFT_POSITIONS[name])
    content = state.content
    hexes = list(content.terrain)
    for seat, s in enumerate(state.seats):
        fief = content.fiefs[s.fief]
        for region in state.region_cards():
            for action in ("A", "B", "C"):
                fast = {frozenset(fief.footprint(p.anchor, p.rotation)[0]) | {("rot-castles", frozenset(
                    fief.footprint(p.anchor, p.rotation)[1]))}
                        for p in legal_placements(state, seat, region=region, action=action)}
                fast_n = len(legal_placements(state, seat, region=region, action=action))
                slow = set()
                for h in hexes:
                    for rot in range(6):
                        if placement_problem(state, seat, s.fief, h, rot, region, action) is None:
                            cells, castles = fief.footprint(h, rot)
                            slow.add(frozenset(cells) | {("rot-castles", frozenset(castles))})
                assert fast == slow, (seat, region, action)
                assert fast_n == len(fast)  # one entry per distinct placement


def test_same_seed_gives_byte_identical_record():
    a = play_game(["greedy", "random", "greedy"], seed=99, config=GameConfig(seats=3))
    b = play_game(["greedy", "random", "greedy"], seed=99, config=GameConfig(seats=3))
    ja = json.dumps(a.record.to_json(a.state), sort_keys=True)
    jb = json.dumps(b.record.to_json(b.state), sort_keys=True)
    assert ja == jb
    c = play_game(["greedy", "random", "greedy"], seed=100, config=GameConfig(seats=3))
    assert json.dumps(c.record.to_json(c.state), sort_keys=True) != ja
