"""The rules' gaps an audit found (issue 38), each with a direct, hand-computed expectation:
X6 with three and four seats, what ``determinize`` guarantees, a turn-order tie decided by the
colour digit, and the King's Privilege with exactly one ring."""
from __future__ import annotations

import random

import pytest

from boards import PLAIN, axial, make_content, start
from gonzaga.rules import (GameConfig, Plan, Setup, apply, check, deal, legal_actions, legal_plans, load_content,
                           new_game, view)
from gonzaga.rules.engine import _end_game
from gonzaga.rules.view import determinize

DECK = tuple(range(10, 130, 10))


@pytest.fixture
def board(tmp_path):
    # five harbors and four cities; no objective in these tests names wine, bank, wool or art
    return make_content(
        tmp_path, PLAIN,
        cities=[((3, 2), "wine"), ((3, 5), "bank"), ((9, 2), "wool"), ((10, 5), "art")],
        harbors=[((1, 1), "cantabricus"), ((3, 1), "cantabricus"), ((5, 1), "cantabricus"),
                 ((6, 1), "cantabricus"), ((1, 6), "tyrrhenum")])


H = [axial(1, 1), axial(3, 1), axial(5, 1), axial(6, 1), axial(1, 6)]  # the harbors
C = [axial(3, 2), axial(3, 5), axial(9, 2), axial(10, 5)]  # the cities


def ending(board, seats, points_and_sites):
    """The game's end after seat i scored ``points`` and holds ``sites`` (hexes: fiefs or rings)."""
    objectives = [o.id for o in board.objectives
                  if not {"wine", "bank", "wool", "art"} & set(o.id.split("-"))][:seats]
    assert len(objectives) == seats
    st = start(board, seats=seats, objectives=objectives)
    for i, (points, fiefs, rings) in enumerate(points_and_sites):
        st = st.with_seat(i, site_points=points, fief_mask=st.board.mask_of(fiefs),
                          ring_mask=st.board.mask_of(rings))
    end = _end_game(st)
    assert [s.objective_points for s in end.seats] == [0] * seats  # only the points set here
    return end


@pytest.mark.rule("X6")
def test_X6_three_seats_tied_on_points_the_most_sites_wins(board):
    # totals 20, 20, 19; sites 0, 2, 5: seat 2 holds most sites but is not among the leaders
    end = ending(board, 3, [(20, [], []), (20, [H[0]], [C[0]]), (19, H[1:4], C[1:3])])
    assert end.winners == (1,) and "cities and harbors" in end.tiebreak


@pytest.mark.rule("X6")
def test_X6_three_seats_tied_on_points_and_sites_share(board):
    # totals 20, 20, 20; sites 1, 2, 2 (a ring counts as a fief): seats 1 and 2 share the victory
    end = ending(board, 3, [(20, [H[0]], []), (20, [H[1]], [C[0]]), (20, [], [H[2], C[1]])])
    assert end.winners == (1, 2) and "shared" in end.tiebreak


@pytest.mark.rule("X6")
def test_X6_four_seats(board):
    # totals 30, 30, 30, 10; sites 2, 2, 1, 4: seats 0 and 1 share; seat 3's four sites do not count
    end = ending(board, 4, [(30, [C[0], H[0]], []), (30, [], [H[1], H[2]]), (30, [C[1]], []),
                            (10, [H[3], H[4], C[2], C[3]], [])])
    assert end.winners == (0, 1) and "shared" in end.tiebreak
    # totals 30, 28, 30, 30; sites 1, 3, 3, 2: seat 2 alone
    end = ending(board, 4, [(30, [C[0]], []), (28, [H[0], H[1], H[2]], []), (30, [C[1], C[2]], [H[3]]),
                            (30, [H[4], C[3]], [])])
    assert end.winners == (2,) and "cities and harbors" in end.tiebreak
    # totals 31, 30, 30, 30: no tie on the top, no tie-break
    end = ending(board, 4, [(31, [], []), (30, [C[0], C[1]], []), (30, [], []), (30, [], [])])
    assert end.winners == (0,) and end.tiebreak == ""


# ---------------------------------------------------------------- R4: the colour digit

def revealed(colours, fiefs, plans, numbering="printed"):
    """Round 1 of a real-board game where seat i turned up fief ``fiefs[i]`` and planned ``plans[i]``."""
    content = load_content()
    cfg = GameConfig(seats=len(colours), colours=colours, scenario={2: "Cervantes", 3: "Colombo", 4: "Dante"}[
        len(colours)], numbering=numbering)
    st = new_game(cfg, content)
    decks = tuple((f,) + tuple(x for x in DECK if x != f) for f in fiefs)
    objectives = tuple(o.id for o in content.objectives[:len(colours)])
    st = apply(st, Setup(cfg.scenario, 0, decks, objectives))
    for seat, (region, action, king) in enumerate(plans):
        st = apply(st, Plan(seat, region, action, king))
    assert st.phase == "place"
    return st


@pytest.mark.rule("R4", "D1")
def test_R4_the_same_fief_the_colour_digit_decides():
    # both turned up fief 10 and play Cities: red card 11 before green card 14 (seat order aside)
    st = revealed(("green", "red"), (10, 10), [("hispania", "B", False), ("francia", "B", False)])
    assert [s.card for s in st.seats] == [14, 11] and st.order == (1, 0)
    # blue 3 before green 4 (D1; the old numbering had them the other way round)
    st = revealed(("green", "blue", "yellow"), (50, 50, 50),
                  [("hispania", "A", False), ("francia", "A", False), ("italia", "A", False)])
    assert [s.card for s in st.seats] == [54, 53, 52] and st.order == (2, 1, 0)
    st = revealed(("green", "blue"), (50, 50), [("hispania", "A", False), ("francia", "A", False)], "v1")
    assert [s.card for s in st.seats] == [53, 54] and st.order == (0, 1)


@pytest.mark.rule("R4", "D1")
def test_R4_a_lower_fief_goes_first_whatever_the_colours():
    # green fief 10 (card 14) before red fief 20 (card 21): the fief decides, not the colour
    st = revealed(("red", "green"), (20, 10), [("hispania", "B", False), ("francia", "B", False)])
    assert [s.card for s in st.seats] == [21, 14] and st.order == (1, 0)
    # four seats: yellow 32, red 41, green 44 (then blue 13 plays Harbors first)
    st = revealed(("green", "red", "yellow", "blue"), (40, 40, 30, 10),
                  [("hispania", "C", False), ("francia", "C", False), ("italia", "C", False),
                   ("germania", "A", False)])
    assert st.order == (3, 2, 1, 0)


@pytest.mark.rule("R4", "K3")
def test_R4_kings_first_then_their_other_card_then_the_card_number():
    st = revealed(("red", "blue", "green"), (10, 10, 10),
                  [("hispania", "C", True), ("francia", "A", True), ("italia", "A", False)])
    assert st.order == (1, 0, 2)  # K+A (13), K+C (11), then A without K
    st = revealed(("green", "red"), (10, 10), [("hispania", "B", True), ("francia", "B", True)])
    assert st.order == (1, 0)  # both K+B: card 11 before card 14


# ---------------------------------------------------------------- K1 with exactly one ring

@pytest.mark.rule("K1", "K2")
def test_K1_the_kings_privilege_with_exactly_one_ring():
    content = load_content()
    st = new_game(GameConfig(seats=2, colours=("red", "blue"), scenario="Cervantes"), content)
    st = apply(st, Setup("Cervantes", 0, (DECK, DECK), tuple(o.id for o in content.objectives[:2])))
    st = st.with_seat(0, rings=1).with_seat(1, rings=0)
    king = Plan(0, "hispania", "B", True)
    assert check(st, king) is None
    assert king in legal_plans(st, 0) and any(p.king for p in legal_actions(st, 0))
    why = check(st, Plan(1, "francia", "B", True))
    assert why is not None and why.rule == "K1"
    assert not any(p.king for p in legal_plans(st, 1))
    st = apply(apply(st, king), Plan(1, "francia", "B"))
    assert st.seats[0].rings == 0 and st.order == (0, 1)  # K2: the last ring is spent


# ---------------------------------------------------------------- determinize

def positions(seats: int, seed: int):
    """A few positions of a random game: every phase, several rounds."""
    rng = random.Random(seed)
    st = new_game(GameConfig(seats=seats), load_content())
    st = apply(st, deal(st, rng))
    out = []
    while st.phase != "over" and len(out) < 12:
        if rng.random() < 0.3:
            out.append(st)
        st = apply(st, rng.choice(legal_actions(st, st.to_act()[0])))
    return out


@pytest.mark.rule("E-view", "S4", "S5")
@pytest.mark.parametrize("seats", [2, 3, 4])
def test_determinize_keeps_what_the_view_shows_and_guesses_the_rest_consistently(seats):
    """Distinct objectives, none the viewer's; each deck a reordering of the view's deck; the
    viewer's own objective and everything public unchanged; the decks really are shuffled."""
    objectives = {o.id for o in load_content().objectives}
    shuffled = 0
    for seed in range(8):
        for st in positions(seats, 100 * seats + seed):
            for me in range(seats):
                v = view(st, me)
                full = determinize(v, random.Random(seed * 31 + me))
                assert full.viewer is None
                got = [s.objective for s in full.seats]
                assert len(set(got)) == seats and set(got) <= objectives
                assert got[me] == st.seats[me].objective
                assert all(o != got[me] for i, o in enumerate(got) if i != me)
                for a, b in zip(full.seats, v.seats):
                    assert sorted(a.deck) == list(b.deck) and not a.deck_hidden
                    shuffled += len(a.deck) > 1 and list(a.deck) != sorted(a.deck)
                assert full.pieces == st.pieces and full.round == st.round and full.order == st.order
                if st.phase == "place":
                    assert [s.plan for s in full.seats] == [s.plan for s in st.seats]
                else:
                    for i, s in enumerate(full.seats):
                        if st.seats[i].plan is not None:
                            assert s.plan is not None and check(
                                full.with_seat(i, plan=None), s.plan) is None
    assert shuffled > 0
