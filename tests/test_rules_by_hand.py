"""Expectations worked out by hand on a small board, not read from a snapshot.

The board (``PLAIN``, axial coordinates): Hispania is rows 1-3, q 1-6 on row 1, q 0-5 on
rows 2-3; Francia is east of it; Italia and Germania are rows 4-6; row 0 and the edges are
sea. A barrier runs between Hispania and Francia. Sites::

    wine city (2,2)  beside  Cantabricus harbor (3,2)     Hispania (flourishing in Cervantes)
    wool city (9,2)  beside  Britannicum harbor (9,1)     Francia  (flourishing)
    Tyrrhenum harbors (3,4) and (3,5), bank city (0,5)    Italia   (inactive)

Fief 10 (the triangle, rotation 0) anchored at (q, r) covers (q, r)*, (q-1, r+1)*, (q, r+1).
Every placement verdict below is asserted for ``check`` and for the fast generator at once
(``boards.verdict``), every wedding verdict for ``check`` and ``legal_weddings``.
"""
import pytest

from boards import PLAIN, col_row, make_content, ring_verdict, start, verdict
from gonzaga.rules import Donate, Place, Plan, Wedding, apply, scoring
from gonzaga.rules.legality import ring_problem

WINE, CANTABRICUS = (2, 2), (3, 2)
WOOL, BRITANNICUM = (9, 2), (9, 1)
TYRRHENUM_A, TYRRHENUM_B, BANK = (3, 4), (3, 5), (0, 5)


@pytest.fixture(scope="module")
def content(tmp_path_factory):
    return make_content(
        tmp_path_factory.mktemp("hand"), PLAIN,
        cities=[(col_row(*WINE), "wine"), (col_row(*WOOL), "wool"), (col_row(*BANK), "bank")],
        harbors=[(col_row(*CANTABRICUS), "cantabricus"), (col_row(*BRITANNICUM), "britannicum"),
                 (col_row(*TYRRHENUM_A), "tyrrhenum"), (col_row(*TYRRHENUM_B), "tyrrhenum")],
        barriers=[((6, r), (7, r)) for r in (1, 2, 3)])


def test_the_board_is_as_described(content):
    sites = content.sites
    assert {h: (s.kind, s.region) for h, s in sites.items()} == {
        WINE: ("city", "hispania"), CANTABRICUS: ("harbor", "hispania"), WOOL: ("city", "francia"),
        BRITANNICUM: ("harbor", "francia"), TYRRHENUM_A: ("harbor", "italia"), TYRRHENUM_B: ("harbor", "italia"),
        BANK: ("city", "italia")}
    assert content.fiefs[10].footprint((3, 1), 0)[0] == ((3, 1), (2, 2), (3, 2))
    assert frozenset({(5, 2), (6, 2)}) in content.barriers


def placing(content, action, region="hispania", fief=10):
    """Seat 0 to place ``fief`` under (region, action); seat 1 planned Alliance in Francia."""
    st = start(content, seats=2, decks=[[fief], [fief]])
    st = apply(st, Plan(0, region, action))
    st = apply(st, Plan(1, "francia", "C"))
    assert st.to_act() == (0,)
    return st


# Fief 10 at these anchors covers: a city and a harbor; a harbor only; a city only; no site.
CITY_AND_HARBOR, HARBOR_ONLY, CITY_ONLY, NO_SITE = (3, 1), (4, 1), (2, 1), (5, 2)


@pytest.mark.rule("P2")
def test_P2_harbors_card_each_way_beside_a_city(content):
    st = placing(content, "A")
    assert verdict(st, Place(0, 10, HARBOR_ONLY, 0)) is None
    why = verdict(st, Place(0, 10, CITY_AND_HARBOR, 0))
    assert why.rule == "P2" and "city" in why.message  # the harbor is there, the city beside it is not allowed
    assert verdict(st, Place(0, 10, CITY_ONLY, 0)).rule == "P2"
    assert verdict(st, Place(0, 10, NO_SITE, 0)).rule == "P2"


@pytest.mark.rule("P3")
def test_P3_cities_card_each_way_beside_a_harbor(content):
    st = placing(content, "B")
    assert verdict(st, Place(0, 10, CITY_ONLY, 0)) is None
    assert verdict(st, Place(0, 10, NO_SITE, 0)) is None  # only empty hexes
    assert verdict(st, Place(0, 10, CITY_AND_HARBOR, 0)).rule == "P3"
    assert verdict(st, Place(0, 10, HARBOR_ONLY, 0)).rule == "P3"


@pytest.mark.rule("P4")
def test_P4_alliance_card_each_way(content):
    st = placing(content, "C")
    assert verdict(st, Place(0, 10, CITY_AND_HARBOR, 0)) is None
    for anchor in (HARBOR_ONLY, CITY_ONLY, NO_SITE):
        assert verdict(st, Place(0, 10, anchor, 0)).rule == "P4"


@pytest.mark.rule("P1", "P5", "P9", "X1")
def test_P5_every_site_under_the_fief_counts_in_any_region(content):
    """With the Inactive Regions card a fief with one hex in Italia may cover Hispania's sites;
    every site under it counts for the card (P5) and scores by its own region (X1)."""
    st = placing(content, "C", region="inactive", fief=80)
    # fief 80 (hook): (0,0) (-1,1)* (-2,1) (-3,1)*; turned 4 at the wine city:
    assert content.fiefs[80].footprint(WINE, 4) == (((2, 2), (3, 2), (3, 3), (3, 4)), frozenset({(3, 2), (3, 4)}))
    assert verdict(st, Place(0, 80, WINE, 4)) is None  # wine city, Cantabricus and Tyrrhenum harbors
    after = apply(st, Place(0, 80, WINE, 4))
    assert after.seats[0].site_points == 3 + 3 + 1  # two flourishing sites, one inactive
    # fief 30 turned 4 lies along row 2: (2,2) (3,2) (4,2): all in Hispania, no Italia hex
    assert content.fiefs[30].footprint(WINE, 4)[0] == ((2, 2), (3, 2), (4, 2))
    st = placing(content, "C", region="inactive", fief=30)
    assert verdict(st, Place(0, 30, WINE, 4)).rule == "P1"
    st = placing(content, "B", region="hispania", fief=10)
    assert verdict(st, Place(0, 10, (8, 1), 0)).rule == "P1"  # (8,1) (7,2) (8,2): all Francia
    # fief 20 turned 3: (4,3) (5,2) (6,2): (5,2)|(6,2) is the barrier
    st = placing(content, "B", region="hispania", fief=20)
    assert content.fiefs[20].footprint((4, 3), 3)[0] == ((4, 3), (5, 2), (6, 2))
    assert verdict(st, Place(0, 20, (4, 3), 3)).rule == "P9"


@pytest.mark.rule("P7", "P5")
def test_P7_own_ring_own_fief_rival_fief_refused_rival_ring_allowed(content):
    st = placing(content, "A")
    b = st.board
    under = b.mask_of([CANTABRICUS])  # the harbor that HARBOR_ONLY covers
    own_ring = st.with_seat(0, ring_mask=under)
    why = verdict(own_ring, Place(0, 10, HARBOR_ONLY, 0))
    assert why.rule == "P7" and "own" in why.message
    rival_ring = st.with_seat(1, ring_mask=under)
    assert verdict(rival_ring, Place(0, 10, HARBOR_ONLY, 0)) is None  # the ring stays; the harbor counts (P5)
    placed = apply(rival_ring, Place(0, 10, HARBOR_ONLY, 0))
    assert placed.seats[0].site_points == 3 and placed.seats[1].ring_mask == under
    own_fief = st.with_seat(0, fief_mask=b.mask_of([(4, 2)]))
    assert verdict(own_fief, Place(0, 10, HARBOR_ONLY, 0)).rule == "P7"
    rival_fief = st.with_seat(1, fief_mask=b.mask_of([(4, 2)]))
    why = verdict(rival_fief, Place(0, 10, HARBOR_ONLY, 0))
    assert why.rule == "P7" and "fief" in why.message
    # an own ring elsewhere, a rival's fief elsewhere: no effect
    elsewhere = st.with_seat(0, ring_mask=b.mask_of([(5, 1)])).with_seat(1, fief_mask=b.mask_of([(1, 1)]))
    assert verdict(elsewhere, Place(0, 10, HARBOR_ONLY, 0)) is None


@pytest.mark.rule("P6", "P8")
def test_P6_P8_over_the_sea_and_off_the_map(content):
    st = placing(content, "B", fief=30)
    # fief 30 rotation 0: (0,0)* (-1,1) (-2,2)*; anchored on the sea row its first castle is at sea
    assert verdict(st, Place(0, 30, (4, 0), 0)).rule == "P8"
    assert verdict(st, Place(0, 30, (5, 1), 0)) is None
    st = placing(content, "B", fief=40)
    # fief 40: (0,0) (-1,1)* (-2,2)* (-3,3); castles in the middle: both ends may be sea
    assert verdict(st, Place(0, 40, (6, 0), 0)) is None  # (6,0) sea, (5,1)* (4,2)* land, (3,3)
    assert verdict(st, Place(0, 40, (6, -1), 0)).rule == "P6"  # (6,-1) is no hex of the map


# ---------------------------------------------------------------- weddings

def wedding(content, region="hispania", rings=6):
    st = start(content, seats=2, decks=[[10], [20]])
    st = apply(st, Plan(0, region, "C"))
    st = apply(st, Plan(1, "francia", "B"))
    st = apply(st, Donate(1))  # Cities before Alliance
    return st.with_seat(0, rings=rings)


@pytest.mark.rule("W4", "P6")
def test_W4_where_a_ring_may_go(content):
    st = wedding(content)
    b = st.board
    spot = b.mask_of([(4, 2)])
    assert ring_verdict(st, Wedding(0, ((4, 2),))) is None  # an empty hex
    assert ring_verdict(st.with_seat(1, fief_mask=spot), Wedding(0, ((4, 2),))) is None  # a rival's fief
    assert ring_verdict(st.with_seat(0, fief_mask=spot), Wedding(0, ((4, 2),))).rule == "W4"  # its own fief
    assert ring_verdict(st.with_seat(0, ring_mask=spot), Wedding(0, ((4, 2),))).rule == "W4"  # its own ring
    why = ring_verdict(st.with_seat(1, ring_mask=spot), Wedding(0, ((4, 2),)))  # a rival's ring
    assert why.rule == "W4" and "ring" in why.message
    why = ring_verdict(st, Wedding(0, ((4, 2), (4, 2))))  # both rings of one wedding on one hex
    assert why.rule == "W4"
    # what the placement screen asks, ring by ring
    assert ring_problem(st, 0, (4, 2)) is None
    assert ring_problem(st, 0, (4, 2), taken=spot).rule == "W4"
    assert ring_problem(st.with_seat(1, ring_mask=spot), 0, (4, 2)).rule == "W4"
    assert ring_problem(st.with_seat(1, fief_mask=spot), 0, (4, 2)) is None
    assert ring_problem(st, 0, (40, 40)).rule == "P6"  # off the map
    assert ring_verdict(st, Wedding(0, ((5, 2), (5, 3), (40, 40)))).rule == "W3"
    assert ring_verdict(st, Wedding(0, ((5, 2), (40, 40)))).rule == "P6"


@pytest.mark.rule("W2", "W3")
def test_W2_W3_first_ring_in_region_second_beside_it_anywhere(content):
    st = wedding(content)
    assert ring_verdict(st, Wedding(0, ((5, 2), (6, 2)))) is None  # across the barrier into Francia
    assert ring_verdict(st, Wedding(0, ((6, 2), (5, 2)))) is None  # either order
    assert ring_verdict(st, Wedding(0, ((3, 1), (3, 0)))) is None  # into the sea
    assert ring_verdict(st, Wedding(0, ((2, 3), (1, 4)))) is None  # into Italia
    assert ring_verdict(st, Wedding(0, ((3, 1), (5, 1)))).rule == "W3"  # not neighbours
    assert ring_verdict(st, Wedding(0, ((6, 2), (7, 2)))).rule == "W2"  # neither in Hispania
    assert ring_verdict(st, Wedding(0, ((3, 0),))).rule == "W2"
    assert ring_verdict(st, Wedding(0, ((1, 1), (2, 1), (3, 1)))).rule == "W3"  # at most two
    inactive = wedding(content, region="inactive")
    assert ring_verdict(inactive, Wedding(0, (TYRRHENUM_A, (3, 3)))) is None  # Italia, then Hispania beside it
    assert ring_verdict(inactive, Wedding(0, ((3, 3),))).rule == "W2"


@pytest.mark.rule("W6")
def test_W6_one_ring_in_supply_one_ring_placed(content):
    st = wedding(content, rings=1)
    assert ring_verdict(st, Wedding(0, ((5, 2),))) is None
    assert ring_verdict(st, Wedding(0, ((5, 2), (4, 2)))).rule == "W6"
    assert ring_verdict(wedding(content, rings=0), Wedding(0, ((5, 2),))).rule == "W6"
    after = apply(st, Wedding(0, ((5, 2),)))
    assert after.seats[0].rings == 0
    two = apply(wedding(content), Wedding(0, ((5, 2), (4, 2))))
    assert two.seats[0].rings == 4


# ---------------------------------------------------------------- a short game scored by hand

PLANS = {  # seat: (region, action) per round 1-7
    0: [("inactive", "A"), ("hispania", "B"), ("francia", "A"), ("hispania", "B"), ("francia", "A"),
        ("hispania", "B"), ("francia", "A")],
    1: [("hispania", "C"), ("francia", "A"), ("hispania", "B"), ("francia", "C"), ("hispania", "B"),
        ("francia", "A"), ("hispania", "B")],
}
MOVES = {  # (round, seat): what it does instead of donating
    (1, 0): lambda: Place(0, 10, TYRRHENUM_A, 0),  # covers both Tyrrhenum harbors (3,4) (3,5), inactive
    (1, 1): lambda: Wedding(1, (WINE,)),  # a ring on the wine city: flourishing, and on its objective
    (4, 1): lambda: Wedding(1, ((10, 3),)),  # a ring on an empty hex, apart from the first
}


@pytest.mark.rule("X1", "X3", "X4", "X5", "X6", "W5", "E1", "E3")
def test_a_short_game_scored_by_hand(content):
    """Cervantes (Hispania, Francia, Britannia flourish), 2 seats, both decks 10, 20, 30, ...

    Round 1: red places fief 10 on the two inactive Tyrrhenum harbors: 1 + 1 = 2 (X1).
    Yellow weds one ring onto the wine city in Hispania: 3 (X1, W5).
    The flourishing sites are wine, Cantabricus, wool, Britannicum: with the ring, three are
    free, so after round 6 the Last Turn card fires and round 7 is the last (E1).
    Round 4: yellow weds a second ring onto an empty Francia hex (0 points). Every other turn
    is a donation: red 6 x 3 = 18, yellow 5 x 3 = 15 (X3).
    The end (E3): each seat's largest group is one piece, a tie: both score 15 (X4). Red's
    objective wool-glass: no city held, 0. Yellow's wine-art: the ring holds wine, 1 city, 2 (X5).
    Red 2 + 18 + 15 + 0 = 35, yellow 3 + 15 + 15 + 2 = 35: a tie on points. Red holds two
    sites (the harbors), yellow one (the city): red wins (X6).
    """
    st = start(content, seats=2, objectives=["wool-glass", "wine-art"])
    assert st.flourishing == {"hispania", "francia", "britannia"}
    assert scoring.free_flourishing_sites(st) == 4
    for rnd in range(1, 8):
        assert st.round == rnd and st.phase == "plan"
        for seat in (0, 1):
            st = apply(st, Plan(seat, *PLANS[seat][rnd - 1]))
        while st.phase == "place" and st.round == rnd:
            seat = st.to_act()[0]
            move = MOVES.get((rnd, seat))
            st = apply(st, move() if move else Donate(seat))
        if rnd == 1:
            assert [s.site_points for s in st.seats] == [2, 3]
            assert scoring.free_flourishing_sites(st) == 3  # the ring holds a flourishing site
        if rnd < 6:
            assert st.last_round is None, rnd
        if rnd == 6:
            assert st.last_round == 7
    assert st.is_over and st.round == 7
    red, yellow = st.seats
    assert (red.site_points, red.donation_points, red.gonzaga_points, red.objective_points) == (2, 18, 15, 0)
    assert (yellow.site_points, yellow.donation_points, yellow.gonzaga_points, yellow.objective_points) == \
        (3, 15, 15, 2)
    assert red.league_points == yellow.league_points == 0  # two Tyrrhenum harbors are not a league
    assert st.scores() == (35, 35)
    assert [scoring.sites_held(st, i) for i in (0, 1)] == [2, 1]
    assert st.winners == (0,) and "cities and harbors" in st.tiebreak
