"""500 seeded games to the end with random and greedy bots, checking invariants after every action.

Checks: no hex with two fiefs or two rings (P7, W4), no ring under its owner's fief (W4),
scores equal a recount from the board (X1-X3), rings and fief cards conserved (S1, K2, W6, R5),
a seat's view never holds another seat's secrets (spec E, S5, R2), and the record round-trips
and replays to the same state.
"""
import json

import pytest

from gonzaga.ai.match import play_game
from gonzaga.rules import GameConfig, GameRecord, Plan, load_content, parse_action, replay, scoring, view
from gonzaga.rules.record import digest
from gonzaga.rules.state import FIEFS_PER_SEAT, RINGS_PER_SEAT
from gonzaga.rules.view import HIDDEN

GAMES = 500
BOTS = ["random", "greedy"]


class Checker:
    def __init__(self):
        self.actions = 0

    def __call__(self, st, action):
        self.actions += 1
        assert parse_action(action.to_text()) == action
        n = st.n
        fiefs = [s.fief_mask for s in st.seats]
        rings = [s.ring_mask for s in st.seats]
        for i in range(n):
            assert rings[i] & fiefs[i] == 0, "a ring under its owner's fief"
            for j in range(i + 1, n):
                assert fiefs[i] & fiefs[j] == 0, "two fiefs on a hex"
                assert rings[i] & rings[j] == 0, "two rings on a hex"
        recount = scoring.recount(st)
        for i, s in enumerate(st.seats):
            assert recount[i]["sites"] == s.site_points
            assert recount[i]["leagues"] == s.league_points
            assert recount[i]["donations"] == s.donation_points
            on_board = sum(1 for p in st.pieces if p.seat == i and p.kind == "ring")
            fief_pieces = sum(1 for p in st.pieces if p.seat == i and p.kind == "fief")
            assert s.rings + on_board <= RINGS_PER_SEAT
            played = fief_pieces + s.donations
            in_hand = len(s.deck) + (s.fief is not None)
            weddings_discards = FIEFS_PER_SEAT - in_hand - played
            assert 0 <= weddings_discards <= on_board
        for i in range(n):
            v = view(st, i)
            for j, s in enumerate(v.seats):
                assert s.deck == tuple(sorted(s.deck)) and s.deck_hidden
                if j != i:
                    assert s.objective is None
                    if st.phase == "plan":
                        assert s.plan is None or s.plan.region == HIDDEN
                else:
                    assert s.objective == st.seats[i].objective


@pytest.mark.parametrize("chunk", range(5))
def test_random_games_keep_invariants(chunk):
    content = load_content()
    per = GAMES // 5
    for g in range(chunk * per, (chunk + 1) * per):
        seats = 2 + g % 3
        bots = [BOTS[(g + i) % 2] if g % 4 else "random" for i in range(seats)]
        checker = Checker()
        res = play_game(bots, seed=g, config=GameConfig(seats=seats), content=content, after_action=checker)
        st = res.state
        assert st.is_over and res.illegal == 0
        assert 7 <= st.round <= 12
        # rings conserved: supply + on board + King's Privileges spent == 6
        for i, s in enumerate(st.seats):
            kings = sum(1 for a in res.record.actions if isinstance(a, Plan) and a.seat == i and a.king)
            on_board = sum(1 for p in st.pieces if p.seat == i and p.kind == "ring")
            assert s.rings + on_board + kings == RINGS_PER_SEAT
        # the record round-trips through JSON and replays to the same state
        text = json.dumps(res.record.to_json(st))
        again = GameRecord.from_json(json.loads(text))
        assert again.actions == res.record.actions
        assert digest(replay(again, content)) == digest(st)
