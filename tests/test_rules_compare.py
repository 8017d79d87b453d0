"""Every rule that is implemented twice, checked against itself.

``legality.check`` (and its ``placement_problem``, ``ring_problem``, ``plan_problem``) says
what is legal one action at a time; ``legal_plans``, ``legal_placements`` (the bitboard
generator of ``placement.py``) and ``legal_weddings`` list what is legal all at once; the
random playout policy (``playout.py``) draws from the same sets without listing them. On
fixture boards with every kind of neighbour (a city beside a harbor, a barrier, fiefs and
rings of the seat and of a rival) the lists and the one-by-one answers must agree exactly.
"""
import itertools
import random

import pytest

from boards import PLAIN, axial, make_content, start
from gonzaga.rules import (Donate, Place, Plan, Wedding, apply, check, legal_placements, legal_plans,
                           legal_weddings)
from gonzaga.rules.legality import placement_problem
from gonzaga.rules.playout import random_action

BARRIER = [((6, r), (7, r)) for r in (1, 2, 3)]


@pytest.fixture(scope="module")
def content(tmp_path_factory):
    return make_content(
        tmp_path_factory.mktemp("compare"), PLAIN,
        cities=[((3, 2), "wine"), ((10, 2), "wool"), ((2, 5), "bank"), ((6, 2), "cathedral")],
        harbors=[((4, 2), "cantabricus"), ((9, 1), "britannicum"), ((5, 4), "tyrrhenum"), ((5, 5), "tyrrhenum"),
                 ((7, 2), "britannicum")],
        barriers=BARRIER)


def crowded(content, rings=6):
    """Seat 0 to act in the place phase of round 1, with fiefs and rings of both seats on the board:
    its own fief and ring, seat 1's fief and ring, some of them on sites."""
    st = start(content, seats=2, decks=[[40], [40]])
    b = st.board
    st = st.with_seat(0, fief_mask=b.mask_of([axial(2, 3), axial(3, 3), axial(10, 3)]),
                      ring_mask=b.mask_of([axial(4, 2), axial(8, 2)]), rings=rings)
    st = st.with_seat(1, fief_mask=b.mask_of([axial(2, 1), axial(3, 1), axial(9, 2)]),
                      ring_mask=b.mask_of([axial(3, 2), axial(5, 3), axial(9, 1)]))
    return st


def planned(st, region, action, king=False):
    st = apply(st, Plan(0, region, action, king))
    st = apply(st, Plan(1, "francia" if region != "francia" else "hispania", "C"))
    assert st.to_act() == (0,)
    return st


def _near_hexes(st):
    """Every hex of the map and a ring of hexes just off it."""
    hexes = set(st.board.hexes)
    around = {(q + dq, r + dr) for q, r in hexes for dq, dr in ((1, 0), (-1, 0), (0, 1), (0, -1))}
    return sorted(hexes | around)


# ---------------------------------------------------------------- placements

@pytest.mark.rule("P1", "P2", "P3", "P4", "P5", "P6", "P7", "P8", "P9", "P10")
@pytest.mark.parametrize("fief", [10, 40, 50])
def test_generator_and_check_agree_on_every_spot(content, fief):
    """``legal_placements`` == every (hex, rotation 0-5) that ``check`` accepts, on a crowded board."""
    base = crowded(content)
    hexes = _near_hexes(base)
    f = content.fiefs[fief]
    for region in ("hispania", "francia", "inactive"):
        for action in ("A", "B", "C"):
            st = planned(base, region, action)
            st = st.with_seat(0, fief=fief)
            fast = legal_placements(st, 0)
            fast_spots = {(frozenset(f.footprint(p.anchor, p.rotation)[0]), f.footprint(p.anchor, p.rotation)[1])
                          for p in fast}
            assert len(fast_spots) == len(fast), "each distinct placement is listed once (P10)"
            slow = set()
            for h in hexes:
                for rot in range(6):
                    why = check(st, Place(0, fief, h, rot))
                    if why is None:
                        slow.add((frozenset(f.footprint(h, rot)[0]), f.footprint(h, rot)[1]))
                    else:
                        assert why.rule in {"P1", "P2", "P3", "P4", "P6", "P7", "P8", "P9"}, why
            assert fast_spots == slow, (region, action, fast_spots ^ slow)
            assert all(check(st, p) is None for p in fast)


@pytest.mark.rule("P10", "R1")
def test_check_refuses_rotations_outside_0_to_5_and_other_fiefs(content):
    st = planned(crowded(content), "hispania", "B")
    p = legal_placements(st, 0)[0]
    assert check(st, Place(0, 40, p.anchor, 6)).rule == "P10"
    assert check(st, Place(0, 40, p.anchor, -1)).rule == "P10"
    assert check(st, Place(0, 30, p.anchor, p.rotation)).rule == "R1"


# ---------------------------------------------------------------- weddings

@pytest.mark.rule("W2", "W3", "W4", "W6", "P6")
@pytest.mark.parametrize("rings", [2, 1, 0])
@pytest.mark.parametrize("region", ["hispania", "inactive"])
def test_legal_weddings_and_check_agree_on_every_ring_pair(content, rings, region):
    """Every single hex and every pair of hexes (the same hex twice too): ``check`` accepts the
    wedding exactly when ``legal_weddings`` lists that ring set."""
    st = planned(crowded(content, rings=max(rings, 1)), region, "C")
    st = st.with_seat(0, rings=rings)
    listed = legal_weddings(st, 0)
    listed_sets = [tuple(sorted(w.rings, key=lambda h: (h[1], h[0]))) for w in listed]
    assert [w.rings for w in listed] == listed_sets, "rings listed in (r, q) order"
    assert len(set(listed_sets)) == len(listed_sets), "each ring set once"
    hexes = _near_hexes(st)
    accepted = set()
    for h in hexes:
        if check(st, Wedding(0, (h,))) is None:
            accepted.add((h,))
    for a, b in itertools.combinations_with_replacement(hexes, 2):
        why = check(st, Wedding(0, (a, b)))
        assert (why is None) == (check(st, Wedding(0, (b, a))) is None), (a, b)
        if why is None:
            accepted.add(tuple(sorted((a, b), key=lambda h: (h[1], h[0]))))
        elif a == b:
            assert why.rule in ("W4", "W6", "P6"), why  # never both rings on one hex
    assert accepted == set(listed_sets)
    if rings == 2:
        # the fixture's neighbours are all there: rival fief, across the barrier, the sea, another region
        hexes_listed = {h for s in listed_sets for h in s}
        b = st.board
        assert axial(2, 3) not in hexes_listed and axial(3, 2) not in hexes_listed  # own fief, a rival's ring
        if region == "hispania":
            assert axial(2, 1) in hexes_listed  # under seat 1's fief
            assert (axial(6, 2), axial(7, 2)) in listed_sets or (axial(7, 2), axial(6, 2)) in listed_sets
            assert any(b.content.terrain[h] == "sea" for s in listed_sets for h in s)


# ---------------------------------------------------------------- plans

@pytest.mark.rule("S3", "R2", "R3", "K1", "K4")
def test_legal_plans_and_check_agree(content):
    st0 = start(content, seats=2)
    regions = list(content.region_ids) + ["inactive", "nowhere"]
    cases = [dict(), dict(rings=0), dict(unavailable=frozenset({"hispania", "A"})),
             dict(unavailable=frozenset({"inactive", "C", "K"})), dict(unavailable=frozenset({"K"}), rings=1),
             dict(unavailable=frozenset({"francia", "B", "K"}), rings=0)]
    for changes in cases:
        st = st0.with_seat(0, **changes)
        listed = legal_plans(st, 0)
        assert len(set(listed)) == len(listed)
        accepted = {Plan(0, r, a, k) for r in regions for a in ("A", "B", "C", "K", "D") for k in (False, True)
                    if check(st, Plan(0, r, a, k)) is None}
        assert accepted == set(listed), changes
    st = apply(st0, Plan(0, "hispania", "A"))
    assert legal_plans(st, 1) and all(check(st, p) is None for p in legal_plans(st, 1))
    assert check(st, Plan(0, "francia", "B")).rule == "R2"  # planned already


# ---------------------------------------------------------------- the playout policy

@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    """A board whose Hispania has four hexes, so the playout's draws can cover every legal action."""
    rows = ["tttttt",
            "tHHFFt",
            "tHHFFt",
            "tttttt"]
    return make_content(tmp_path_factory.mktemp("tiny"), rows, cities=[((1, 1), "wine")],
                        harbors=[((2, 2), "cantabricus")], barriers=[((2, 1), (3, 1))])


@pytest.mark.rule("P1", "P2", "P3", "P4", "P7", "W1", "W2", "W3", "W4", "W6", "R6")
@pytest.mark.parametrize("action,rings", [("C", 6), ("C", 1), ("C", 0), ("A", 6), ("B", 6)])
def test_playout_draws_exactly_the_legal_actions(tiny, action, rings):
    st = start(tiny, seats=2, decks=[[10], [10]])
    b = st.board
    st = st.with_seat(1, ring_mask=b.mask_of([axial(2, 1)]), fief_mask=b.mask_of([axial(3, 2)]))
    st = st.with_seat(0, ring_mask=b.mask_of([axial(1, 2)]), fief_mask=b.mask_of([axial(2, 2)]))
    st = apply(st, Plan(0, "hispania", action))
    st = apply(st, Plan(1, "francia", "C"))
    st = st.with_seat(0, rings=rings)
    assert st.to_act() == (0,)
    legal = {a if not isinstance(a, Wedding) else Wedding(0, tuple(sorted(a.rings, key=lambda h: (h[1], h[0]))))
             for a in legal_placements(st, 0) + (legal_weddings(st, 0) if action == "C" else []) + [Donate(0)]}
    rng = random.Random(5)
    drawn = set()
    for _ in range(60 * len(legal)):
        a = random_action(st, 0, rng)
        assert check(st, a) is None, a
        if isinstance(a, Wedding):
            a = Wedding(0, tuple(sorted(a.rings, key=lambda h: (h[1], h[0]))))
        drawn.add(a)
    assert drawn == legal
    if action == "C" and rings >= 2:
        assert any(isinstance(a, Wedding) and len(a.rings) == 2 for a in drawn)


@pytest.mark.rule("P1", "P7", "W4", "K1", "K4", "R3")
def test_random_playouts_on_the_real_board_never_break_a_rule():
    """Whole random games on the shipped board: every drawn action passes ``check`` first."""
    from gonzaga.rules import GameConfig, deal, new_game
    rng = random.Random(7)
    for seats in (2, 3, 4):
        st = new_game(GameConfig(seats=seats))
        st = apply(st, deal(st, rng))
        while not st.is_over:
            for seat in st.to_act():
                a = random_action(st, seat, rng)
                assert check(st, a) is None, a.to_text()
                st = apply(st, a)
                if st.phase != "plan":
                    break
