"""Scoring (X1-X6) and the end of the game (E1-E3)."""
from dataclasses import replace

import pytest

from boards import PLAIN, axial, make_content, start
from gonzaga.rules import Donate, Place, Plan, Wedding, apply, scoring
from gonzaga.rules.engine import _end_game


@pytest.fixture
def content(tmp_path):
    # Hispania (flourishing in Cervantes) rows 1-3 cols 1-6; Italia (inactive) rows 4-6
    return make_content(
        tmp_path, PLAIN,
        cities=[((3, 2), "wine"), ((3, 5), "bank"), ((9, 2), "wool"), ((10, 5), "art")],
        harbors=[((1, 1), "cantabricus"), ((3, 1), "cantabricus"), ((5, 1), "cantabricus"),
                 ((6, 1), "cantabricus"), ((1, 6), "tyrrhenum")])


@pytest.mark.rule("X1")
def test_X1_sites_score_3_flourishing_1_inactive(content):
    st = start(content, seats=2, decks=[[10], [10]])
    st = apply(st, Plan(0, "hispania", "B"))
    st = apply(st, Plan(1, "inactive", "B"))
    # order by card: seat 0 (11) then seat 1 (12)
    st = apply(st, Place(0, 10, axial(3, 2), 0))
    assert st.seats[0].site_points == 3
    st = apply(st, Place(1, 10, axial(3, 5), 0))
    assert st.seats[1].site_points == 1


@pytest.mark.rule("X2")
def test_X2_sea_league_scored_once(content):
    st = start(content, seats=2)
    st = st.with_seat(0, ring_mask=st.board.mask_of([axial(1, 1), axial(3, 1)]))
    mask3 = st.board.mask_of([axial(5, 1)])
    assert scoring.new_leagues(st, st.seats[0], mask3) == ["cantabricus"]
    assert scoring.immediate_points(st, 0, mask3) == 3 + 10
    st = st.with_seat(0, ring_mask=st.seats[0].ring_mask | mask3, leagues=frozenset({"cantabricus"}))
    mask4 = st.board.mask_of([axial(6, 1)])
    assert scoring.new_leagues(st, st.seats[0], mask4) == []
    assert scoring.immediate_points(st, 0, mask4) == 3


@pytest.mark.rule("X2", "W5")
def test_X2_sea_league_through_play(content):
    """Three harbors of one sea held by rings (W5: a ring counts for sea leagues)."""
    st = start(content, seats=2, decks=[[10, 20, 30], [40, 50, 60]])

    def wedding_round(st, rings):
        st = apply(st, Plan(0, "hispania", "C"))
        st = apply(st, Plan(1, "francia", "B"))
        st = apply(st, Donate(1))  # Cities before Alliance
        return apply(st, Wedding(0, rings))

    def quiet_round(st):
        st = apply(st, Plan(0, "francia", "B"))
        st = apply(st, Plan(1, "hispania", "A"))
        for seat in st.order:
            st = apply(st, Donate(seat))
        return st

    st = wedding_round(st, (axial(1, 1),))
    st = quiet_round(st)
    st = wedding_round(st, (axial(3, 1), axial(4, 1)))
    assert st.seats[0].league_points == 0  # two harbors only
    st = quiet_round(st)
    st = wedding_round(st, (axial(5, 1),))
    assert st.seats[0].league_points == 10 and st.seats[0].leagues == {"cantabricus"}
    assert st.seats[0].site_points == 9


@pytest.mark.rule("X3")
def test_X3_donation_scores_3(content):
    st = start(content, seats=2)
    st = apply(st, Plan(0, "hispania", "A"))
    st = apply(st, Plan(1, "hispania", "B"))
    st = apply(st, Donate(0))
    assert st.seats[0].donation_points == 3


def _pieces(st, seat, groups):
    from gonzaga.rules.state import Piece
    ps = list(st.pieces)
    for cells in groups:
        ps.append(Piece(seat, "fief", 10, tuple(cells), frozenset(), st.board.mask_of(cells), 1))
    return replace(st, pieces=tuple(ps))


@pytest.mark.rule("X4")
def test_X4_gonzaga_tile_largest_group_ties_all_score(content):
    st = start(content, seats=3, scenario="Colombo")
    # seat 0: two touching pieces; seat 1: two touching pieces (tie); seat 2: one piece
    st = _pieces(st, 0, [[axial(1, 1)], [axial(2, 1)]])
    st = _pieces(st, 1, [[axial(1, 3)], [axial(2, 3)], [axial(5, 5)]])
    st = _pieces(st, 2, [[axial(8, 2)]])
    assert [scoring.largest_group(st, i) for i in range(3)] == [2, 2, 1]
    end = _end_game(st)
    assert [s.gonzaga_points for s in end.seats] == [15, 15, 0]


@pytest.mark.rule("X4")
def test_X4_connected_across_a_barrier_and_counted_in_pieces(tmp_path):
    c = make_content(tmp_path, PLAIN, barriers=[((6, 2), (7, 2))])
    st = start(c, seats=2)
    st = _pieces(st, 0, [[axial(5, 2), axial(6, 2)], [axial(7, 2), axial(8, 2), axial(9, 2)]])
    assert scoring.largest_group(st, 0) == 2  # two pieces, touching across the barrier
    assert scoring.largest_group(st, 1) == 0  # no piece: no group
    end = _end_game(st)
    assert end.seats[0].gonzaga_points == 15 and end.seats[1].gonzaga_points == 0


@pytest.mark.rule("X5")
def test_X5_objective_table(content):
    assert scoring.OBJECTIVE_TABLE == (0, 2, 5, 10, 15, 25, 35)
    st = start(content, seats=2, objectives=["wine-bank", "wool-art"])
    cities = content.objective_cities("wine-bank")
    assert set(cities) == {axial(3, 2), axial(3, 5)}  # this fixture has one city per symbol
    st = st.with_seat(0, fief_mask=st.board.mask_of(cities))
    assert scoring.objective_cities_held(st, 0) == 2
    end = _end_game(st)
    assert end.seats[0].objective_points == 5 and end.seats[1].objective_points == 0


@pytest.mark.rule("X6")
def test_X6_winner_and_tiebreak_by_sites_then_shared(content):
    st = start(content, seats=2)
    st = st.with_seat(0, site_points=10, fief_mask=st.board.mask_of([axial(3, 2)]))
    st = st.with_seat(1, site_points=10)
    end = _end_game(st)
    assert end.winners == (0,) and "cities and harbors" in end.tiebreak
    st = st.with_seat(1, fief_mask=st.board.mask_of([axial(9, 2)]))
    end = _end_game(st)
    assert end.winners == (0, 1) and "shared" in end.tiebreak
    st = st.with_seat(1, site_points=11)
    end = _end_game(st)
    assert end.winners == (1,) and end.tiebreak == ""


def _to_round_end(st):
    for seat in st.order:
        st = apply(st, Donate(seat))
    return st


def _plan_all(st, r):
    regions = ["hispania", "francia"]
    actions = ["A", "B"]
    for seat in range(st.n):
        st = apply(st, Plan(seat, regions[(r + seat) % 2], actions[(r + seat) % 2]))
    return st


@pytest.mark.rule("E1")
def test_E1_last_turn_card_fires_when_three_or_fewer_free(content):
    st = start(content, seats=2)
    # Cervantes flourishing: Hispania, Francia, Britannia. Sites there: 3 cities... hold all but 3
    flour_sites = st.board.hexes_of(st.board.flourishing_sites(st.flourishing))
    st = st.with_seat(1, fief_mask=st.board.mask_of(flour_sites[3:]))
    for r in range(6):
        st = _to_round_end(_plan_all(st, r))
    assert st.round == 7 and st.last_round == 7  # fired after round 6
    st = _to_round_end(_plan_all(st, 6))
    assert st.is_over and st.round == 7


@pytest.mark.rule("E1")
def test_E1_last_turn_card_does_not_fire_with_four_free(content):
    st = start(content, seats=2)
    flour_sites = st.board.hexes_of(st.board.flourishing_sites(st.flourishing))
    assert len(flour_sites) >= 4
    st = st.with_seat(1, fief_mask=st.board.mask_of(flour_sites[4:]))
    for r in range(6):
        st = _to_round_end(_plan_all(st, r))
    assert st.last_round is None and not st.is_over
    # four free: checked again after round 7; now a site is taken -> fires for round 8
    st = st.with_seat(1, fief_mask=st.seats[1].fief_mask | st.board.mask_of(flour_sites[:1]))
    st = _to_round_end(_plan_all(st, 6))
    assert st.last_round == 8
    st = _to_round_end(_plan_all(st, 7))
    assert st.is_over and st.round == 8


@pytest.mark.rule("E2")
def test_E2_game_ends_when_decks_are_empty(content):
    st = start(content, seats=2)
    for r in range(12):
        assert not st.is_over
        st = _to_round_end(_plan_all(st, r))
    assert st.is_over and st.round == 12 and st.last_round is None


@pytest.mark.rule("E3", "X4", "X6")
def test_E3_end_scores_gonzaga_and_objectives_then_winner(content):
    st = start(content, seats=2)
    for r in range(12):
        st = _to_round_end(_plan_all(st, r))
    assert st.is_over
    assert all(s.gonzaga_points == 0 for s in st.seats)  # nobody has a piece
    assert st.winners == (0, 1) and "shared" in st.tiebreak  # 36 each from donations
