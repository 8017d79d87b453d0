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


# ---------------------------------------------------------------- the AI's fast simulator

# ``gonzaga.ai.fastsim`` plays the game on its own lists of masks for speed. The turn order
# (R4), the end (E1, E2), the Gonzaga tile (X4) and the winner (X6) are the rules' functions
# there; site points (X1), sea leagues (X2) and the weddings it offers (W2-W6) are counted
# again on its masks. Seeded games on the shipped board, played by the rules with random and
# greedy seats (so that leagues are made and the Last Turn card fires), are mirrored action by
# action in the simulator, which must agree after every action.

def _mirrored_positions(seats, seed):
    """Yield (state, sim) after every action of a seeded game: ``sim`` has been given the same
    actions through ``Sim.apply_action`` since the deal. With an even seed every seat is greedy
    (its games cover the flourishing sites, so the Last Turn card fires); with an odd seed the
    seats alternate between the random playout policy and the greedy bot. Some plans are drawn
    among Harbors and Cities only, so that ties on K and on the action card are common (R4)."""
    from gonzaga.ai import make_bot
    from gonzaga.ai.fastsim import Sim
    from gonzaga.rules import GameConfig, deal, new_game, view
    rng = random.Random(seed)
    st = new_game(GameConfig(seats=seats))
    st = apply(st, deal(st, rng))
    sim = Sim.from_state(st)
    greedy = {i: make_bot("greedy", seed * 10 + i) for i in range(seats) if seed % 2 == 0 or i % 2 == 0}
    tie_plans = 0.2 if seed % 2 == 0 else 0.5
    while not st.is_over:
        for seat in st.to_act():
            if st.phase == "plan" and rng.random() < tie_plans:
                plans = legal_plans(st, seat)  # a few action cards only: ties on R4's first keys
                a = rng.choice([p for p in plans if p.action in ("A", "B")] or plans)
            elif seat in greedy:
                a = greedy[seat].choose(view(st, seat), seat)
            else:
                a = random_action(st, seat, rng)
            st = apply(st, a)
            sim.apply_action(a)
            yield st, sim
            if st.phase != "plan":
                break


def _agree(st, sim):
    """The simulator's numbers are the rules' numbers."""
    from gonzaga.ai.fastsim import Sim
    assert (sim.phase, sim.round, sim.last_round) == (st.phase, st.round, st.last_round)
    if st.phase == "place":
        assert (sim.order, sim.turn) == (st.order, st.turn)
    for i, s in enumerate(st.seats):
        assert sim.pts[i] == s.site_points + s.league_points + s.donation_points, i  # X1, X2, X3
        assert {sim.t.sea_ids[k] for k in range(len(sim.t.sea_ids)) if sim.leagues[i] >> k & 1} == set(s.leagues)
        assert (sim.fm[i], sim.rm[i], sim.rings[i]) == (s.fief_mask, s.ring_mask, s.rings)
    fresh = Sim.from_state(st)  # made from the rules' state: the same game
    assert (fresh.pts, fresh.leagues, fresh.order, fresh.last_round) == (sim.pts, sim.leagues, sim.order,
                                                                      sim.last_round)


@pytest.mark.rule("R4", "K2", "X1", "X2", "X3", "X4", "X5", "X6", "E1", "E2")
@pytest.mark.parametrize("seats", [2, 3, 4])
def test_the_fast_simulator_plays_every_action_as_the_rules_do(seats):
    """Turn order with ties, site and sea-league points, the Last Turn card, the end, the final
    scores and the winners: the simulator and ``apply`` agree after every action of 6 seeded
    games per seat count."""
    from gonzaga.rules import scoring, turn_order_key
    fired = leagues = ties = kings = 0
    for seed in range(6):
        step = 0
        for st, sim in _mirrored_positions(seats, 3000 + 17 * seats + seed):
            step += 1
            if step % 5 == 0 or st.phase != "plan" and st.turn == 0:
                _agree(st, sim)
            if st.phase == "place" and st.turn == 0:
                keys = [turn_order_key(s.plan.king, s.plan.action, s.card) for s in st.seats]
                assert list(st.order) == sorted(range(seats), key=keys.__getitem__)
                firsts = [k[:2] for k in keys]
                ties += len(set(firsts)) < seats
                kings += sum(s.plan.king for s in st.seats)
        _agree(st, sim)
        fired += st.last_round is not None
        leagues += sum(len(s.leagues) for s in st.seats)
        assert sim.final_scores() == list(st.scores())
        assert sim.winners(sim.final_scores()) == list(st.winners)
        # X6 on this final board with made-up totals, ties included: the simulator's sites
        # held are the rules'
        sites = [scoring.sites_held(st, i) for i in range(seats)]
        rng = random.Random(seed)
        for _ in range(20):
            totals = [rng.randrange(3) for _ in range(seats)]
            assert sim.winners(totals) == scoring.winners(totals, sites)
    assert fired >= 2 and leagues >= 3 and ties >= 10 and kings >= 3, (fired, leagues, ties, kings)


def _rings_on(board, ks):
    return frozenset(board.index_of[h] for h in ks)


@pytest.mark.rule("W2", "W3", "W4", "W6", "X1")
@pytest.mark.parametrize("seats", [2, 3, 4])
def test_the_ais_wedding_lists_are_the_legal_weddings_they_aim_at(seats):
    """Every wedding an AI lists is legal, and it lists every legal wedding of its kind: the
    simulator's (a ring on a site of the planned region, maybe a second beside it anywhere),
    greedy's (a ring on a free site, or a pair with one ring in the region and one on a site)
    and the heuristic's (rings on sites or beside the seat's own pieces); on the positions of
    seeded games, under Alliance plans with 0, 1 and more rings in supply."""
    from gonzaga.ai.bots import scoring_weddings
    from gonzaga.ai.heuristics import SeatContext, wedding_candidates
    from gonzaga.rules import legal_weddings
    seen = 0
    for seed in range(3):
        for st, sim in _mirrored_positions(seats, 4000 + 13 * seats + seed):
            if st.phase != "place":
                continue
            i = st.order[st.turn]
            s = st.seats[i]
            if s.plan.action != "C":
                continue
            seen += 1
            board = st.board
            legal = {_rings_on(board, w.rings) for w in legal_weddings(st, i)}
            region = board.region_mask(s.plan.region, st.flourishing)
            open_ = board.valid & ~(s.fief_mask | st.all_rings)
            in_region = {k for k in range(board.valid.bit_length()) if region >> k & 1}
            sites = {k for k in range(board.valid.bit_length()) if board.sites >> k & 1}
            # the simulator
            opts = sim.place_options(i, 10 ** 6)
            fast = {frozenset(bits_of(c[0].mask)) for _, c in opts if c is not None and c[1]}
            assert fast == {w for w in legal if w & in_region & sites}
            # greedy (bots.scoring_weddings)
            greedy = {_rings_on(board, w.rings) for _, w in scoring_weddings(st, i, s.plan.region)}
            assert greedy == {w for w in legal
                              if any(a in in_region and (w - {a} or {a}) <= sites for a in w)}
            # the heuristic levels (heuristics.wedding_candidates)
            ctx = SeatContext(st, i)
            useful = (board.sites | ctx.own_near) & open_
            heur = {_rings_on(board, a.rings) for _, a, _ in wedding_candidates(ctx, s.plan.region)}
            assert heur == {w for w in legal if all(useful >> k & 1 for k in w)}
    assert seen >= 5, seen


def bits_of(mask):
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


@pytest.mark.rule("X1", "X2")
@pytest.mark.parametrize("seats", [2, 3, 4])
def test_the_simulators_site_points_are_the_rules(seats):
    """Every placement and ring set in the simulator's tables, for every scenario of the seat
    count: its static points are ``scoring.site_points``; and what a fief or rings add to a
    seat's points on a position is ``scoring.immediate_points`` (sites and sea leagues)."""
    from gonzaga.ai.fastsim import tables_for
    from gonzaga.rules import GameConfig, Setup, load_content, new_game, scoring
    content = load_content()
    checked = 0
    for sc in content.scenarios_for(seats):
        st = new_game(GameConfig(seats=seats, scenario=sc.name))
        deck = tuple(sorted(content.fiefs))
        st = apply(st, Setup(sc.name, 0, (deck,) * seats, tuple(o.id for o in content.objectives[:seats])))
        t = tables_for(st)
        for lst in list(t.lists.values()) + t.rings:
            for e in lst:
                assert e.pts == scoring.site_points(st, e.mask)
                checked += 1
    assert checked > 1000
    # the points a piece adds on positions of seeded games, leagues included
    for st, sim in _mirrored_positions(seats, 5000 + seats):
        if st.phase != "place":
            continue
        i = st.order[st.turn]
        for _v, choice in sim.place_options(i, 10 ** 6):
            if choice is None:
                continue
            e, ring = choice
            trial = sim.copy()
            trial.put(i, e.mask, e.mask.bit_count() if ring else 0)
            assert trial.pts[i] - sim.pts[i] == scoring.immediate_points(st, i, e.mask)


# ---------------------------------------------------------------- the AI's fast simulator's scoring

@pytest.mark.rule("X1", "X2", "X4", "X5", "R6", "W5")
@pytest.mark.parametrize("seats", [2, 3, 4])
def test_the_fast_simulators_scoring_is_the_rules_scoring_on_random_positions(seats):
    """``ai/fastsim.py`` counts site points (X1) and sea leagues (X2) itself, on bit masks. On
    random positions of seeded random games (each placement, wedding or donation a uniformly
    drawn legal one), the simulator built from the position and given the same action must
    come to the rules' points, leagues, pieces and rings; at the end, to the rules' scores."""
    from gonzaga.ai.fastsim import Sim
    from gonzaga.rules import GameConfig, deal, new_game
    checked = 0
    for game in range(4):
        rng = random.Random(1000 * seats + game)
        st = new_game(GameConfig(seats=seats))
        st = apply(st, deal(st, rng))
        while not st.is_over:
            seat = st.to_act()[0]
            action = random_action(st, seat, rng)
            if st.phase == "place":
                sim = Sim.from_state(st)
                sim.apply_action(action)
                st = apply(st, action)
                for j, s in enumerate(st.seats):
                    assert sim.pts[j] == s.site_points + s.league_points + s.donation_points, (game, action)
                    assert sim.fm[j] == s.fief_mask and sim.rm[j] == s.ring_mask and sim.rings[j] == s.rings
                    assert {sim.t.sea_ids[k] for k in range(len(sim.t.sea_ids)) if sim.leagues[j] >> k & 1} == \
                        set(s.leagues)
                checked += 1
                if st.is_over:
                    assert sim.phase == "over"
                    assert sim.final_scores() == [s.score for s in st.seats]
            else:
                st = apply(st, action)
    assert checked == 4 * seats * 12  # every placement of every game (12 rounds): hundreds of positions
