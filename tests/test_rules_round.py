"""Setup (S1-S5), the round (R1-R6), weddings (W1-W6) and the King's Privilege (K1-K4)."""
import random

import pytest

from boards import PLAIN, axial, make_content, start
from gonzaga.rules import (Donate, GameConfig, IllegalAction, Place, Plan, Setup, Wedding, apply, check,
                           deal, legal_actions, legal_plans, legal_weddings, new_game, view)


@pytest.fixture
def content(tmp_path):
    return make_content(tmp_path, PLAIN,
                        cities=[((3, 2), "wine"), ((9, 2), "wool"), ((3, 5), "bank")],
                        harbors=[((1, 1), "cantabricus"), ((12, 1), "britannicum"), ((2, 1), "cantabricus")])


# ---------------------------------------------------------------- setup

@pytest.mark.rule("S1")
def test_S1_seats_fiefs_rings_score(content):
    for n in (2, 3, 4):
        st = start(content, seats=n)
        assert st.n == n
        for s in st.seats:
            assert len(s.deck) + 1 == 12 and s.rings == 6 and s.score == 0  # S1: 12 fiefs, 6 rings
    for n in (1, 5):
        with pytest.raises(ValueError):
            new_game(GameConfig(seats=n), content)
        with pytest.raises(ValueError):
            new_game(GameConfig(seats=n, colours=("red", "yellow", "green", "blue", "red")[:n]), content)


@pytest.mark.rule("S2")
def test_S2_scenario_drawn_among_tiles_for_seat_count(content):
    for n in (2, 3, 4):
        st = new_game(GameConfig(seats=n), content)
        names = {deal(st, random.Random(k)).scenario for k in range(60)}
        assert names == {s.name for s in content.scenarios_for(n)}
    st = new_game(GameConfig(seats=2), content)
    bad = Setup("Dante", 0, ((10, 20, 30, 40, 50, 60, 70, 80, 90, 100, 110, 120),) * 2, ("wine-art", "wool-art"))
    assert check(st, bad).rule == "S2"


@pytest.mark.rule("S3")
def test_S3_region_cards_for_flourishing_and_inactive(content):
    st = start(content, seats=3)  # Colombo: Hispania, Francia, Britannia, Italia
    assert st.region_cards() == ("hispania", "francia", "britannia", "italia", "inactive")
    assert check(st, Plan(0, "germania", "B")).rule == "S3"


@pytest.mark.rule("S4")
def test_S4_decks_shuffled_and_last_turn_seat(content):
    st = new_game(GameConfig(seats=4, last_turn="random"), content)
    setups = [deal(st, random.Random(k)) for k in range(30)]
    assert len({s.decks for s in setups}) == 30
    assert {s.last_turn_seat for s in setups} == {0, 1, 2, 3}
    assert deal(new_game(GameConfig(seats=2), content), random.Random(1)).last_turn_seat == 0
    # each deck holds the twelve fief cards once
    st2 = new_game(GameConfig(seats=2, scenario="Cervantes"), content)
    deck = tuple(range(10, 130, 10))
    objectives = tuple(o.id for o in content.objectives[:2])
    assert check(st2, Setup("Cervantes", 0, (deck, deck), objectives)) is None
    assert check(st2, Setup("Cervantes", 0, (deck, (10,) + deck[:-1]), objectives)).rule == "S4"
    assert check(st2, Setup("Cervantes", 2, (deck, deck), objectives)).rule == "S4"
    # the deck's order is hidden from every seat, its own too; which fiefs are left is known
    played = apply(st2, Setup("Cervantes", 0, (deck, deck[::-1]), objectives))
    for seat in (0, 1):
        v = view(played, seat)
        assert [s.deck for s in v.seats] == [deck[1:], deck[:-1]] and all(s.deck_hidden for s in v.seats)


@pytest.mark.rule("S5")
def test_S5_objectives_dealt_distinct_and_hidden(content):
    st = start(content, seats=4)
    assert len({s.objective for s in st.seats}) == 4
    v = view(st, 1)
    assert v.seats[1].objective == st.seats[1].objective
    assert all(v.seats[i].objective is None for i in (0, 2, 3))
    # dealt at random, one different card per seat
    st = new_game(GameConfig(seats=4), content)
    deals = [deal(st, random.Random(k)).objectives for k in range(40)]
    assert all(len(set(d)) == 4 for d in deals)
    assert len({o for d in deals for o in d}) == len(content.objectives)
    bad = Setup("Dante", 0, (tuple(range(10, 130, 10)),) * 4, (deals[0][0],) * 4)
    assert check(new_game(GameConfig(seats=4, scenario="Dante"), content), bad).rule == "S5"


# ---------------------------------------------------------------- the round

@pytest.mark.rule("R1")
def test_R1_top_card_turned_up(content):
    st = start(content, seats=2, decks=[[50, 10], [70]])
    assert [s.fief for s in st.seats] == [50, 70]
    assert st.seats[0].card == 51 and st.seats[1].card == 72


@pytest.mark.rule("D1")
def test_D1_card_number_is_fief_plus_printed_colour_digit(content):
    """D1: red 1, yellow 2, blue 3, green 4 (the printed example: yellow card 12, blue card 83)."""
    st = new_game(GameConfig(seats=4, colours=("red", "yellow", "blue", "green"), scenario="Dante"), content)
    st = apply(st, Setup("Dante", 0, tuple((60,) + tuple(n for n in range(10, 130, 10) if n != 60)
                                           for _ in range(4)), tuple(o.id for o in content.objectives[:4])))
    assert [s.card for s in st.seats] == [61, 62, 63, 64]


@pytest.mark.rule("D1", "R4")
def test_D1_legacy_numbering_kept_for_games_begun_before_it(content):
    """Games from save format 1 keep the numbering they were played with (green 3, blue 4)."""
    cfg = GameConfig(seats=2, colours=("green", "blue"), scenario="Cervantes", numbering="v1")
    st = new_game(cfg, content)
    st = apply(st, Setup("Cervantes", 0, ((10,) + tuple(range(20, 130, 10)),) * 2,
                         tuple(o.id for o in content.objectives[:2])))
    assert [s.card for s in st.seats] == [13, 14]
    # same fief, same plan: the lower card goes first (R4)
    st = apply(st, Plan(0, "hispania", "B"))
    st = apply(st, Plan(1, "francia", "B"))
    assert st.order == (0, 1)


@pytest.mark.rule("R2")
def test_R2_plans_are_secret_and_simultaneous(content):
    st = start(content, seats=3)
    assert st.to_act() == (0, 1, 2)
    st = apply(st, Plan(2, "hispania", "A"))
    assert st.to_act() == (0, 1)
    v = view(st, 0)
    assert v.seats[2].plan.region == "hidden" and v.seats[2].plan.action == "hidden"
    assert check(st, Plan(2, "francia", "B")).rule == "R2"
    assert check(st, Place(2, st.seats[2].fief, (0, 0), 0)).rule == "R2"


@pytest.mark.rule("R3")
def test_R3_reveal_and_cards_unavailable_next_round_only(content):
    st = start(content, seats=2)
    st = apply(st, Plan(0, "hispania", "B"))
    st = apply(st, Plan(1, "francia", "A"))
    assert st.phase == "place"
    assert view(st, 0).seats[1].plan == Plan(1, "francia", "A")
    for seat in st.order:
        st = apply(st, Donate(seat))
    assert st.round == 2
    assert check(st, Plan(0, "hispania", "C")).rule == "R3"
    assert check(st, Plan(0, "francia", "B")).rule == "R3"
    st = apply(st, Plan(0, "francia", "C"))
    st = apply(st, Plan(1, "hispania", "B"))
    for seat in st.order:
        st = apply(st, Donate(seat))
    assert check(st, Plan(0, "hispania", "B")) is None  # available again in round N+2


@pytest.mark.rule("R4")
def test_R4_turn_order_rulebook_example(content):
    """Catherine K+Alliance first, then Günter (Harbors), then José (Cities, card 12)
    before Piotr (Cities, card 83)."""
    # D1: yellow's digit is 2 and blue's is 3, as the printed example's cards 12 and 83 show
    colours = ("yellow", "red", "blue", "green")
    st = new_game(GameConfig(seats=4, colours=colours, scenario="Dante"), content)
    deck = (10, 20, 30, 40, 50, 60, 70, 80, 90, 100, 110, 120)
    d_jose = (10,) + deck[1:]  # yellow fief 10 = card 12
    d_piotr = (80,) + tuple(n for n in deck if n != 80)  # blue fief 80 = card 83
    d_cath = (50,) + tuple(n for n in deck if n != 50)
    d_gunter = (120,) + tuple(n for n in deck if n != 120)
    st = apply(st, Setup("Dante", 0, (d_jose, d_cath, d_piotr, d_gunter),
                         tuple(o.id for o in content.objectives[:4])))
    assert st.seats[0].card == 12 and st.seats[2].card == 83
    st = apply(st, Plan(0, "hispania", "B"))  # José
    st = apply(st, Plan(1, "francia", "C", king=True))  # Catherine
    st = apply(st, Plan(2, "italia", "B"))  # Piotr
    st = apply(st, Plan(3, "germania", "A"))  # Günter
    assert st.order == (1, 3, 0, 2)


@pytest.mark.rule("R4")
def test_R4_two_kings_ordered_by_other_card_then_fief_card(content):
    st = start(content, seats=3, decks=[[90], [20], [30]])
    st = apply(st, Plan(0, "hispania", "A", king=True))
    st = apply(st, Plan(1, "francia", "C", king=True))
    st = apply(st, Plan(2, "italia", "A", king=True))
    # seat 0 card 91, seat 2 card 33: both K+A, lower card first; then K+C
    assert st.order == (2, 0, 1)


@pytest.mark.rule("R5", "R4")
def test_R5_turns_follow_order_and_fief_card_leaves(content):
    st = start(content, seats=2, decks=[[10, 20], [30, 40]])
    st = apply(st, Plan(0, "hispania", "C"))
    st = apply(st, Plan(1, "francia", "B"))
    assert st.order == (1, 0)
    assert check(st, Donate(0)).rule == "R4"
    st = apply(st, Donate(1))
    st = apply(st, Donate(0))
    assert st.round == 2 and [s.fief for s in st.seats] == [20, 40]
    assert 10 not in st.seats[0].deck


@pytest.mark.rule("R6", "R4")
def test_R6_donation_always_allowed_and_scores_3(content):
    st = start(content, seats=2)
    st = apply(st, Plan(0, "hispania", "A"))
    st = apply(st, Plan(1, "hispania", "B"))
    assert check(st.with_seat(0, rings=0), Donate(0)) is None  # with no ring left
    assert check(st.with_seat(0, rings=0, plan=Plan(0, "hispania", "C")), Donate(0)) is None
    assert check(st, Donate(1)).rule == "R4"  # allowed always, but in turn
    st = apply(st, Donate(0))
    assert st.seats[0].score == 3 and st.seats[0].donations == 1
    # with no legal placement at all: Harbors in Hispania, whose two harbors are under fiefs
    st = start(content, seats=2)
    st = apply(st, Plan(0, "francia", "B"))
    st = apply(st, Plan(1, "hispania", "A"))
    st = st.with_seat(0, fief_mask=st.board.mask_of([axial(1, 1), axial(2, 1)]))
    assert st.to_act() == (1,) and legal_actions(st, 1) == [Donate(1)]
    assert check(st, Donate(1)) is None


# ---------------------------------------------------------------- weddings

def wedding_state(content, action="C", rings=None):
    st = start(content, seats=2, decks=[[10], [40]])
    st = apply(st, Plan(0, "hispania", action))
    st = apply(st, Plan(1, "hispania", "B"))
    return st  # order: seat 1 (B) then seat 0


@pytest.mark.rule("W1")
def test_W1_wedding_only_with_alliance_and_discards_fief(content):
    st = wedding_state(content, action="A")  # Harbors: seat 0 goes first
    assert check(st, Wedding(0, (axial(4, 3),))).rule == "W1"
    assert not [a for a in legal_actions(st, 0) if isinstance(a, Wedding)]
    st = wedding_state(content, action="B")  # Cities: seat 0 (card 11) before seat 1 (card 42)
    assert st.order == (0, 1)
    assert check(st, Wedding(0, (axial(4, 3),))).rule == "W1"
    assert not [a for a in legal_actions(st, 0) if isinstance(a, Wedding)]
    st = wedding_state(content)
    st = apply(st, Donate(1))
    assert [a for a in legal_actions(st, 0) if isinstance(a, Wedding)]
    before = st.seats[0]
    st = apply(st, Wedding(0, (axial(4, 3),)))
    s = st.seats[0]
    assert st.round == 2 and s.fief == before.deck[0] and s.deck == before.deck[1:]  # fief 10 is gone
    assert s.fief_mask == 0 and s.rings == before.rings - 1
    assert s.score == 0 and s.donations == 0  # discarded: no points, not a donation


@pytest.mark.rule("W2")
def test_W2_first_ring_in_planned_region(content):
    st = apply(wedding_state(content), Donate(1))
    assert check(st, Wedding(0, (axial(9, 3),))).rule == "W2"
    assert check(st, Wedding(0, (axial(4, 3),))) is None


@pytest.mark.rule("W3")
def test_W3_second_ring_adjacent_any_region_or_sea_or_barrier(content):
    st = apply(wedding_state(content), Donate(1))
    a = axial(3, 1)
    sea = axial(3, 0)
    assert check(st, Wedding(0, (a, sea))) is None
    assert check(st, Wedding(0, (a, axial(5, 1)))).rule == "W3"
    italia = axial(3, 4)
    assert check(st, Wedding(0, (axial(3, 3), italia))) is None  # Hispania, then Italia beside it
    ws = legal_weddings(st, 0)
    assert all(len(w.rings) in (1, 2) for w in ws)
    assert any(len(w.rings) == 2 and st.content.region_of.get(w.rings[1]) == "italia" for w in ws)


@pytest.mark.rule("W4")
def test_W4_ring_on_rival_fief_shared_never_own_fief_or_ring(content):
    st = start(content, seats=2, decks=[[10, 20], [40, 30]])
    st = apply(st, Plan(0, "hispania", "B"))
    st = apply(st, Plan(1, "francia", "A"))
    # seat 1 (A) first: donate; seat 0 places fief 10 over the city at (3,2)
    st = apply(st, Donate(1))
    spot = axial(3, 2)
    st = apply(st, Place(0, 10, spot, 0))
    assert st.seats[0].site_points == 3
    st = apply(st, Plan(0, "francia", "C"))
    st = apply(st, Plan(1, "hispania", "C"))
    order = st.order  # both C: lower card first (21 vs 32)
    assert order == (0, 1)
    assert check(st, Wedding(0, (spot,))).rule == "W4"  # its own fief is there
    st = apply(st, Donate(0))
    # seat 1 weds onto seat 0's fief on the city: shared, scores for seat 1 too
    st2 = apply(st, Wedding(1, (spot,)))
    assert st2.seats[1].site_points == 3
    from gonzaga.rules import scoring
    assert scoring.sites_held(st2, 0) == 1 and scoring.sites_held(st2, 1) == 1
    # a ring never on the seat's own fief
    from gonzaga.rules.legality import ring_problem
    assert ring_problem(st2, 0, spot).rule == "W4"
    assert ring_problem(st2, 1, axial(2, 2)) is None
    assert ring_problem(st2, 0, spot).message


@pytest.mark.rule("W5")
def test_W5_ring_counts_as_one_hex_fief(content):
    st = apply(wedding_state(content), Donate(1))
    st = apply(st, Wedding(0, (axial(3, 2), axial(4, 2))))
    assert st.seats[0].site_points == 3  # the city at (3,2) in flourishing Hispania
    assert len([p for p in st.pieces if p.seat == 0]) == 2
    from gonzaga.rules.scoring import largest_group
    assert largest_group(st, 0) == 2


@pytest.mark.rule("W6")
def test_W6_rings_needed_for_each_ring(content):
    st = apply(wedding_state(content), Donate(1))
    st = st.with_seat(0, rings=1)
    assert check(st, Wedding(0, (axial(3, 2), axial(4, 2)))).rule == "W6"
    assert check(st, Wedding(0, (axial(3, 2),))) is None
    st = st.with_seat(0, rings=0)
    assert check(st, Wedding(0, (axial(3, 2),))).rule == "W6"


# ---------------------------------------------------------------- King's Privilege

@pytest.mark.rule("K1")
def test_K1_king_needs_a_ring(content):
    st = start(content, seats=2)
    assert any(p.king for p in legal_plans(st, 0))
    st = st.with_seat(0, rings=0)
    assert check(st, Plan(0, "hispania", "A", king=True)).rule == "K1"
    assert not any(p.king for p in legal_plans(st, 0))


@pytest.mark.rule("K2")
def test_K2_ring_discarded_at_reveal(content):
    st = start(content, seats=2)
    st = apply(st, Plan(0, "hispania", "B", king=True))
    assert st.seats[0].rings == 6  # not before the reveal
    st = apply(st, Plan(1, "hispania", "A"))
    assert st.seats[0].rings == 5 and st.order == (0, 1)


@pytest.mark.rule("K3")
def test_K3_other_card_decides_placement(content):
    st = start(content, seats=2, decks=[[10], [40]])
    st = apply(st, Plan(0, "hispania", "C", king=True))
    st = apply(st, Plan(1, "hispania", "B"))
    assert st.order[0] == 0
    assert check(st, Wedding(0, (axial(4, 3),))) is None  # K with C allows a wedding
    assert check(st, Place(0, 10, axial(4, 3), 0)).rule == "P4"


@pytest.mark.rule("K4")
def test_K4_king_and_other_card_unavailable_next_round(content):
    st = start(content, seats=2)
    st = apply(st, Plan(0, "hispania", "B", king=True))
    st = apply(st, Plan(1, "francia", "A"))
    for seat in st.order:
        st = apply(st, Donate(seat))
    assert check(st, Plan(0, "francia", "A", king=True)).rule == "K4"
    assert check(st, Plan(0, "francia", "B")).rule == "R3"
    assert check(st, Plan(0, "francia", "A")) is None
    assert not any(p.king for p in legal_plans(st, 0)) and any(p.king for p in legal_plans(st, 1))
    st = apply(st, Plan(0, "francia", "A"))
    st = apply(st, Plan(1, "hispania", "C", king=True))  # seat 1 takes the King this round
    for seat in st.order:
        st = apply(st, Donate(seat))
    assert check(st, Plan(1, "francia", "B", king=True)).rule == "K4"
    assert check(st, Plan(0, "hispania", "B", king=True)) is None  # seat 0's King is back (round N+2)
    assert [p.king for p in legal_plans(st, 1)].count(True) == 0


@pytest.mark.rule("S3")
def test_illegal_apply_raises_with_rule_id(content):
    st = start(content, seats=2)
    with pytest.raises(IllegalAction) as e:
        apply(st, Plan(0, "germania", "A"))
    assert e.value.rule == "S3" and "S3" in str(e.value)
