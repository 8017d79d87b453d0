"""Placing a fief (P1-P10) and the action cards' coverings, on small fixture boards."""
import pytest

from boards import PLAIN, make_content, start, axial
from gonzaga.rules import Donate, IllegalAction, Place, Plan, apply, check, legal_placements
from gonzaga.rules.legality import placement_problem


@pytest.fixture
def content(tmp_path):
    return make_content(tmp_path, PLAIN,
                        cities=[((3, 2), "wine"), ((9, 2), "wool")],
                        harbors=[((1, 1), "cantabricus"), ((12, 1), "britannicum")],
                        barriers=[((6, r), (7, r)) for r in (1, 2, 3)])


def placing(content, region="hispania", action="B", fief=30, seats=2):
    st = start(content, seats=seats, decks=[[fief]] * seats)
    for s in range(seats):
        st = apply(st, Plan(s, region, action))
    return st


def problem(st, seat, anchor, rot=0):
    s = st.seats[seat]
    return placement_problem(st, seat, s.fief, anchor, rot, s.plan.region, s.plan.action)


@pytest.mark.rule("P6")
def test_P6_fief_must_lie_on_the_map(content):
    st = placing(content)
    assert problem(st, 0, axial(0, 0)).rule == "P6"


@pytest.mark.rule("P8")
def test_P8_castle_on_sea_refused(content):
    """Fief 30 (line of 3) has castles at both ends: one end on the sea row is refused."""
    st = placing(content)
    # rotation 0: cells (0,0)*, (-1,1), (-2,2)*; anchor on the sea row 0
    why = problem(st, 0, axial(4, 0))
    assert why.rule == "P8" and "sea" in why.message


@pytest.mark.rule("P8")
def test_P8_non_castle_cell_may_hang_over_sea(content):
    """Fief 40: castles are the two middle cells, its ends may lie on the sea (P6 land or sea)."""
    st = placing(content, fief=40)
    # cells (0,0) (-1,1)* (-2,2)* (-3,3): anchor on sea row 0, castles on rows 1-2 of Hispania
    assert problem(st, 0, axial(5, 0)) is None


@pytest.mark.rule("P9")
def test_P9_barrier_straddle_refused(content):
    st = placing(content, region="hispania", action="B", fief=20)
    # fief 20 rotation 3 lies east-west: (0,0) (1,-1) (2,-1); find a spot across the col 6|7 edge
    board = st.board
    found = None
    for rot in range(6):
        for q in range(-5, 14):
            for r in range(1, 4):
                o = board.orientation(20, rot)
                cells = [(q + c[0], r + c[1]) for c in o.cells]
                if axial(6, 2) in cells and axial(7, 2) in cells:
                    found = ((q, r), rot)
                    break
    assert found
    why = problem(st, 0, *found)
    assert why is not None and why.rule == "P9"


@pytest.mark.rule("P1")
def test_P1_region_needs_one_hex_in_planned_region(content):
    st = placing(content, region="francia", action="B")
    assert problem(st, 0, axial(3, 3)).rule == "P1"


@pytest.mark.rule("P1")
def test_P1_fief_may_reach_into_other_regions_and_sea(content):
    """With the Inactive Regions card (Italia is inactive in Cervantes)."""
    st = placing(content, region="inactive", action="B", fief=40)
    # anchored in Hispania row 1, reaching down into Italia row 4 (cells (-3,3))
    anchor = axial(5, 1)
    assert problem(st, 0, anchor) is None


@pytest.mark.rule("P2")
def test_P2_harbors_needs_a_harbor_and_no_city(content):
    st = placing(content, region="hispania", action="A", fief=10)
    assert problem(st, 0, axial(3, 3)).rule == "P2"
    legal = legal_placements(st, 0)
    assert legal and all(axial(1, 1) in st.board.content.fiefs[10].footprint(p.anchor, p.rotation)[0]
                         for p in legal)


@pytest.mark.rule("P3")
def test_P3_cities_allows_cities_or_only_empty_hexes(content):
    st = placing(content, region="hispania", action="B", fief=10)
    assert problem(st, 0, axial(4, 3)) is None  # empty hexes only
    harbor_spot = [p for p in legal_placements(st, 0, action="A")][0]
    assert problem(st, 0, harbor_spot.anchor, harbor_spot.rotation).rule == "P3"


@pytest.mark.rule("P4")
def test_P4_alliance_needs_city_and_harbor(content):
    st = placing(content, region="hispania", action="C", fief=10)
    assert problem(st, 0, axial(4, 3)).rule == "P4"


@pytest.mark.rule("P5", "P7")
def test_P5_covering_a_ringed_site_counts(tmp_path):
    c = make_content(tmp_path, PLAIN, harbors=[((3, 2), "cantabricus")])
    st = start(c, seats=2, decks=[[10], [30]])
    st = apply(st, Plan(0, "hispania", "C"))
    st = apply(st, Plan(1, "hispania", "A"))
    # seat 1 (A) goes first: it is a Harbors plan vs Alliance
    assert st.order == (1, 0)
    from gonzaga.rules import Wedding
    st = apply(st, Donate(1))
    st = apply(st, Wedding(0, (axial(3, 2),)))
    # next round: seat 1 covers the ringed harbor with a Harbors plan
    st = apply(st, Plan(0, "francia", "B"))
    st = apply(st, Plan(1, "inactive", "B"))
    spots = [p for p in legal_placements(st, 1, region="hispania", action="A")]
    assert spots, "a harbor under a rival's ring can still be covered (P5, P7)"


@pytest.mark.rule("P7")
def test_P7_no_stacking_on_fiefs(content):
    st = placing(content, region="hispania", action="B", fief=10)
    first = st.order[0]
    p = Place(first, 10, axial(4, 3), 0)
    st = apply(st, p)
    second = st.order[1]
    assert placement_problem(st, second, 10, axial(4, 3), 0, "hispania", "B").rule == "P7"


@pytest.mark.rule("P10")
def test_P10_every_rotation_accepted_and_distinct_listed_once(content):
    st = placing(content, region="hispania", action="B", fief=10)
    for rot in range(6):
        assert check(st, Place(st.order[0], 10, axial(4, 3), rot)) is None
    for rot in (6, -1, 7):
        assert check(st, Place(st.order[0], 10, axial(4, 3), rot)).rule == "P10"
    legal = legal_placements(st, st.order[0])
    footprints = [frozenset(st.content.fiefs[10].footprint(p.anchor, p.rotation)[0]) for p in legal]
    castles = [st.content.fiefs[10].footprint(p.anchor, p.rotation)[1] for p in legal]
    assert len(set(zip(footprints, castles))) == len(legal)


@pytest.mark.rule("R1")
def test_R1_wrong_fief_refused(content):
    st = placing(content, fief=30)
    a = Place(st.order[0], 40, axial(4, 3), 0)
    assert check(st, a).rule == "R1"
    with pytest.raises(IllegalAction) as e:
        apply(st, a)
    assert e.value.rule == "R1"


def test_apply_never_mutates_its_input(content):
    st = placing(content, region="hispania", action="B", fief=10)
    before = (st.seats, st.pieces, st.turn)
    apply(st, Place(st.order[0], 10, axial(4, 3), 0))
    assert (st.seats, st.pieces, st.turn) == before
