"""The expert level and the fast rollout simulator (issue 12): fidelity, legality, fairness,
reproducibility, a smoke match; hard's cheap fixes (ties, the King's Privilege)."""
import math
import random

import pytest

from gonzaga.ai import expert as EX
from gonzaga.ai import make_bot
from gonzaga.ai.expert import ExpertBot, objective_weights, sample_objectives
from gonzaga.ai.fastsim import BASE_WEIGHTS, TUNED, Sim, Weights, entry_action
from gonzaga.rules import GameConfig, Plan, apply, check, deal, new_game, view
from gonzaga.rules.legality import legal_plans


def _start(seats=2, seed=1):
    st = new_game(GameConfig(seats=seats))
    return apply(st, deal(st, random.Random(seed)))


def _lockstep(state, weights=None, kings=None):
    """Play the fast simulator's policy and the rules engine side by side; they must agree.
    The King's Privilege plans are appended to ``kings``."""
    sim = Sim.from_state(state)
    if weights is not None:
        sim.weights = [weights] * sim.n
    steps = 0
    while not state.is_over:
        if state.phase == "plan":
            for i in state.to_act():
                k, a, king = sim.policy_plan(i)
                if king and kings is not None:
                    kings.append((state.round, i))
                state = apply(state, Plan(i, sim.t.cards[k], a, king))
                sim.set_plan(i, (k, a, king))
            sim.reveal()
            assert sim.order == state.order
        else:
            i = state.to_act()[0]
            choice = sim.policy_place(i)
            act = entry_action(sim, i, choice)
            assert check(state, act) is None, act.to_text()
            state = apply(state, act)
            sim.do_place(i, choice)
            for j, s in enumerate(state.seats):
                assert sim.pts[j] == s.site_points + s.league_points + s.donation_points
                assert sim.fm[j] == s.fief_mask and sim.rm[j] == s.ring_mask and sim.rings[j] == s.rings
        steps += 1
    assert sim.phase == "over" and sim.round == state.round
    assert sim.final_scores() == [s.score for s in state.seats]
    assert sorted(sim.winners(sim.final_scores())) == sorted(state.winners)
    return steps


@pytest.mark.rule("P1", "P2", "P3", "P4", "P7", "W4", "X1", "X2", "X4", "X5", "X6", "R4", "E1", "E2")
def test_fastsim_matches_the_rules_engine():
    """The simulator's every choice is legal, and its points, turn order and end agree with apply."""
    total = 0
    for g in range(6):
        total += _lockstep(_start(2 + g % 3, 300 + g))
    assert total > 100


@pytest.mark.rule("P1", "P2", "P3", "P4", "P7", "W4", "X1", "X2", "X4", "X5", "X6", "R4", "E1", "E2", "K1", "K2")
def test_fastsim_with_the_tuned_policy_matches_the_rules_engine():
    """expert's rollouts play the tuned weights: their choices are legal and score as apply
    scores, including the King's Privilege plans (K1, K2) they make."""
    kings = []
    for g in range(3):
        assert _lockstep(_start(2 + g, 310 + g), TUNED, kings) > 20
    assert len(kings) >= 3


def test_the_base_weights_are_mediums_piece_values():
    from gonzaga.ai import heuristics as H
    assert BASE_WEIGHTS == Weights(H.LEAGUE_POT[1], H.LEAGUE_POT[2], H.GROUP_STEP, H.RING_VALUE, H.BLOCK_TWO,
                                   H.BLOCK_ONE, 0.0)


@pytest.mark.rule("X5")
def test_taking_a_free_city_of_a_rivals_objective_is_worth_the_rivals_next_step():
    """With ``deny`` > 0, a placement on a free city of a rival's objective gains deny x the
    rival's next step in the objective table (X5: 0, 2, 5, 10, 15, 25, 35); elsewhere nothing changes."""
    st = _start(2, 5)
    sim = Sim.from_state(st)
    rival_obj = sim.obj[1] & ~sim.obj[0] & sim.free_sites()
    entries = [e for lst in sim.t.lists.values() for e in lst]
    on = next(e for e in entries if (e.mask & rival_obj).bit_count() == 1 and not e.mask & sim.obj[0])
    off = next(e for e in entries if not e.mask & sim.obj[1])
    plain = sim.context(0)
    sim.weights = [BASE_WEIGHTS._replace(deny=0.5)] * 2
    denying = sim.context(0)
    held1 = ((sim.fm[1] | sim.rm[1]) & sim.obj[1]).bit_count()
    step = (0, 2, 5, 10, 15, 25, 35)[held1 + 1] - (0, 2, 5, 10, 15, 25, 35)[held1]
    assert Sim.value(on, denying) == pytest.approx(Sim.value(on, plain) + 0.5 * step)
    assert Sim.value(off, denying) == pytest.approx(Sim.value(off, plain))


@pytest.mark.rule("X4")
def test_the_tile_term_values_the_change_in_the_chance_at_the_gonzaga_tile():
    """With ``tile`` > 0 a growth of the largest group gains tile x 15 x (its chance at the
    Gonzaga tile after - before), the chance a softmax over the largest groups at temperature
    0.6 + 0.6 x rounds left (``Sim.tile_weights``). By hand, last round, 3 pieces growing to 5
    against a rival's 4: 1 / (1 + e^(-1/0.6)) - 1 / (1 + e^(1/0.6)) = 0.84113 - 0.15887."""
    from gonzaga.ai.fastsim import tile_gain
    assert tile_gain((15.0, 0.6, (4,)), 3, 5) == pytest.approx(15 * 0.68226, abs=1e-4)
    assert tile_gain((15.0, 0.6, (0,)), 0, 1) == pytest.approx(15.0)  # no rival group: the tile is its
    assert tile_gain((15.0, 0.6, (9,)), 4, 4) == 0.0
    # in the policy's piece value: only growths of the largest group gain, by the same share
    st = _start(2, 5)
    bots = [make_bot("medium", seed=1), make_bot("medium", seed=2)]
    while st.round < 5 or st.phase != "place" or st.to_act()[0] != 0:
        seat = st.to_act()[0]
        st = apply(st, bots[seat].choose(view(st, seat), seat))
    sim = Sim.from_state(st)
    mine, rival = sim.largest(0), sim.largest(1)
    temp = 0.6 + 0.6 * sim.rounds_left(0)

    def chance(g):
        return 1 / (1 + math.exp((rival - g) / temp)) if g else 0.0

    plain = sim.context(0)
    sim.weights = [BASE_WEIGHTS._replace(tile=0.5)] * 2
    tiled = sim.context(0)
    grew = same = 0
    entries = {e.mask: e for key, lst in sim.t.lists.items() if key[0] == sim.fief[0] for e in lst}
    for e in entries.values():
        gain = Sim.value(e, tiled) - Sim.value(e, plain)
        size = 1 + sum(c[2] for c in sim.comps[0] if c[0] & e.grown)
        if size > mine:
            grew += 1
            assert gain == pytest.approx(0.5 * 15 * (chance(size) - chance(mine)))
        else:
            same += 1
            assert gain == 0.0
    assert grew and same


def test_the_tuned_policy_beats_the_base_policy_on_seeded_deals():
    """Every deal played once with the tuned weights in each seat, the base weights in the
    others: the tuned seat wins clearly more than an equal player's share (3,000 deals gave
    66.2% in 2 seats and 51.7% in 4; docs/ai.md; here 65.0% and 47.5%). The same weights
    would give exactly 1 / seats; the tuned weights without contention and the King's
    Privilege gave 57.5% and 35.6% here, under these floors."""
    for n, deals, floor in ((2, 60, 0.58), (4, 40, 0.40)):
        share = 0.0
        for d in range(deals):
            st = _start(n, 9000 + d)
            for seat in range(n):
                sim = Sim.from_state(st)
                sim.weights = [TUNED if j == seat else BASE_WEIGHTS for j in range(n)]
                sim.play()
                win = sim.winners(sim.final_scores())
                share += (seat in win) / len(win)
        assert share / (deals * n) > floor, (n, share / (deals * n))


def test_fastsim_position_values_match_heuristics():
    from gonzaga.ai.heuristics import position_values
    st = _start(3, 8)
    greedy = [make_bot("greedy", i) for i in range(3)]
    while st.round < 5:
        seat = st.to_act()[0]
        st = apply(st, greedy[seat].choose(view(st, seat), seat))
    a = Sim.from_state(st).position_values()
    b = position_values(st)
    assert a == pytest.approx(b)


def test_objective_inference_prefers_cards_whose_cities_a_rival_holds():
    st = _start(2, 4)
    board = st.board
    oid = st.seats[1].objective
    cities = board.mask_of(st.content.objective_cities(oid))
    # rival 1 holds three cities of its card (rings, for the test)
    st = st.with_seat(1, ring_mask=sum(1 << b for b in list(_bits(cities))[:3]))
    w = dict(objective_weights(view(st, 0), 0)[1])
    assert st.seats[0].objective not in w  # its own card is known to seat 0
    assert abs(sum(w.values()) - 1.0) < 1e-9
    assert w[oid] == max(w.values())
    draws = [sample_objectives({1: list(w.items())}, random.Random(k))[1] for k in range(300)]
    assert draws.count(oid) > 300 / 15 * 2


def _bits(m):
    while m:
        low = m & -m
        yield low.bit_length() - 1
        m ^= low


def test_expert_is_registered_and_budget_pinned_by_name():
    b = make_bot("expert@12", 3)
    assert isinstance(b, ExpertBot) and b.iterations == 12 and b.name == "expert@12"
    assert make_bot("hard@7", 3).iterations == 7
    with pytest.raises(KeyError):
        make_bot("greedy@5", 1)


def test_expert_seeded_game_is_reproducible():
    from gonzaga.ai.match import play_game
    a = play_game([ExpertBot(5, iterations=16), "medium"], seed=31)
    b = play_game([ExpertBot(5, iterations=16), "medium"], seed=31)
    assert [x.to_text() for x in a.record.actions] == [x.to_text() for x in b.record.actions]


def test_expert_never_illegal_small_budget():
    """Some hundreds of seeded expert decisions (2-4 seats), every one passes the rules' check."""
    total = 0
    lineups = [("expert", "medium"), ("expert", "greedy", "expert"), ("hard", "expert", "easy", "expert"),
               ("random", "expert")]
    g = 0
    while total < 240:
        names = lineups[g % len(lineups)]
        g += 1
        st = _start(len(names), 400 + g)
        bots = [ExpertBot(g * 10 + i, iterations=5) if n == "expert" else
                (make_bot(n, i) if n != "hard" else make_bot("hard@3", i)) for i, n in enumerate(names)]
        while not st.is_over:
            for seat in st.to_act():
                a = bots[seat].choose(view(st, seat), seat)
                assert check(st, a) is None, a.to_text()
                st = apply(st, a)
                total += names[seat] == "expert"
                if st.phase == "place" or st.is_over:
                    break
    assert total >= 240


def test_expert_is_anytime_and_stops_when_asked():
    st = _start(2, 6)
    b = ExpertBot(1, seconds=0.3)
    a = b.choose(view(st, 0), 0)
    assert check(st, a) is None and b.last_stats["seconds"] < 1.5
    b = ExpertBot(1, iterations=10 ** 6)
    calls = []
    b.should_stop = lambda: len(calls) > 20 or calls.append(1)
    a = b.choose(view(st, 0), 0)
    assert check(st, a) is None and b.last_stats["stopped"]


def test_smoke_expert_beats_greedy():
    """CI smoke: expert on a small iteration budget against greedy, 2 seats, 8 games."""
    from gonzaga.ai.match import play_game
    wins = 0.0
    for g in range(8):
        bots = [ExpertBot(g, iterations=30), make_bot("greedy", g)]
        me = g % 2
        if me:
            bots.reverse()
        st = play_game(bots, seed=800 + g).state
        if me in st.winners:
            wins += 1.0 / len(st.winners)
    assert wins >= 6, wins


# ---------------------------------------------------------------- hard: ties, the King's Privilege

def test_hard_breaks_exact_ties_by_margin_then_prior_not_by_order():
    from gonzaga.ai.search import HardBot
    from gonzaga.rules import Donate
    cands = [Donate(0), Donate(1), Donate(2)]
    total = [1.0, 1.0, 1.0]
    count = [2, 2, 2]
    # equal utility: the larger mean margin wins, wherever it stands in the list
    assert max(range(3), key=lambda k: HardBot._rank(k, cands, total, [0.0, 4.0, 2.0], count, [9, 1, 1])) == 1
    # equal utility and margin: the larger prior value
    assert max(range(3), key=lambda k: HardBot._rank(k, cands, total, [2.0] * 3, count, [1, 1, 5])) == 2
    # all equal: the action text decides, the same every time
    k1 = max(range(3), key=lambda k: HardBot._rank(k, cands, total, [2.0] * 3, count, [1, 1, 1]))
    k2 = max(reversed(range(3)), key=lambda k: HardBot._rank(k, cands, total, [2.0] * 3, count, [1, 1, 1]))
    assert k1 == k2 == 0


def test_hard_utility_does_not_saturate():
    from gonzaga.ai.search import utility
    st = _start(2, 3)
    far = utility(st, 0, [140.0, 60.0])[0]
    farther = utility(st, 0, [150.0, 60.0])[0]
    assert farther - far > 0.1  # ten points more still counts when far ahead
    assert utility(st, 0, [60.0, 150.0])[0] < utility(st, 0, [60.0, 140.0])[0]


@pytest.mark.rule("K1", "K3", "R4")
def test_king_privilege_only_when_it_changes_the_order():
    """A constructed position: the rival can only play after seat 0, so K would change nothing."""
    from gonzaga.ai.levels import king_change_probability, king_changes_order
    st = _start(2, 12)
    me, rival = 0, 1
    card = st.seats[me].card
    # the rival's model: it plans C (Alliance) for sure, and its card is higher than ours
    hi = max(card + 1, st.seats[rival].card)
    c_plan = Plan(rival, st.region_cards()[0], "C", False)
    model_after = [(1.0, c_plan, 5.0, 0, False)]
    k_a = Plan(me, st.region_cards()[0], "A", True)
    assert king_change_probability(st, me, k_a, [(hi, model_after)]) == 0.0
    assert not king_changes_order(st, me, k_a, [(hi, model_after)])
    # a rival who plans A for sure: with our Cities (B) it would go first, with K we go first
    a_plan = Plan(rival, st.region_cards()[0], "A", False)
    k_b = Plan(me, st.region_cards()[1], "B", True)
    assert king_change_probability(st, me, k_b, [(hi, [(1.0, a_plan, 5.0, 0, False)])]) == 1.0
    # a rival with K and A goes first either way: our K changes nothing
    ka_plan = Plan(rival, st.region_cards()[0], "A", True)
    assert king_change_probability(st, me, k_b, [(hi, [(1.0, ka_plan, 5.0, 0, False)])]) == 0.0


@pytest.mark.rule("K1", "R4")
@pytest.mark.parametrize("king_min", [0.5, 0.2, 0.01, None])
def test_king_min_sets_which_kings_privilege_plans_expert_weighs(king_min):
    """``king_min``: a K plan is a candidate when its chance of changing the order (under
    medium's model of the rival) is at least that; every plan without K always is. On this
    deal seat 0's K plans change the order with chances 0.23, 0.60 and 0.69. By default
    (None) expert weighs every K plan with a chance of at least 0.01, the 0.23 one too."""
    from gonzaga.ai.levels import king_change_probability, legal_plans, rival_plan_model
    v = view(_start(2, 1), 0)
    rivals = [(v.seats[1].card, rival_plan_model(v, 1))]
    plans = legal_plans(v, 0)
    chance = {p: king_change_probability(v, 0, p, rivals) for p in plans if p.king}
    assert min(chance.values()) < 0.5 <= max(chance.values())  # the deal splits them
    knobs = {} if king_min is None else {"king_min": king_min}
    cands = ExpertBot(0, iterations=8, **knobs).candidates(v, 0)
    want = {p for p in plans if not p.king or chance[p] >= (0.01 if king_min is None else king_min)}
    assert set(cands) == want


@pytest.mark.parametrize("level", ["hard", "expert"])
def test_search_levels_never_plan_a_king_that_cannot_change_the_order(level):
    """Over seeded 2-seat games: every K a search level plans could have changed the order
    under its rival model with at least the level's chance (hard: ``KING_MIN_CHANGE``;
    expert: its ``king_min``)."""
    from gonzaga.ai.levels import KING_MIN_CHANGE, king_changes_order, rival_plan_model
    from gonzaga.ai.search import HardBot
    seen = 0
    for g in range(8):
        st = _start(2, 70 + g)
        bot = HardBot(g, iterations=3) if level == "hard" else ExpertBot(g, iterations=12)
        other = make_bot("medium", g)
        while not st.is_over:
            if st.phase == "plan":
                v = view(st, 0)
                p = bot.choose(v, 0)
                if p.king:
                    rivals = [(v.seats[1].card, rival_plan_model(v, 1))]
                    assert king_changes_order(v, 0, p, rivals, getattr(bot, "king_min", KING_MIN_CHANGE))
                    seen += 1
                st = apply(st, p)
                st = apply(st, other.choose(view(st, 1), 1))
            else:
                seat = st.to_act()[0]
                b = bot if seat == 0 else other
                st = apply(st, b.choose(view(st, seat), seat))
    assert seen >= 1  # these deals make the level plan K, so the check above ran


def test_bench_reports_rollout_steps():
    """gonzaga bench: rollout_steps_per_s (fastsim) and the same for the apply-based policy."""
    from gonzaga.bench import measure_rollouts
    new, old = measure_rollouts(quick=True)
    assert new > 0 and old > 0


def test_worker_gives_each_search_seat_its_own_process():
    """Three search seats plan at once, each in its own process: none waits behind another."""
    from gonzaga.ai.worker import DecisionWorker
    import time as _time
    st = _start(4, 9)
    w = DecisionWorker()
    try:
        tickets = {seat: w.request("expert@5", seat, view(st, seat), seat) for seat in (1, 2, 3)}
        assert w.processes() == 3
        deadline = _time.monotonic() + 120
        for seat, t in tickets.items():
            while (a := w.result(t)) is None:
                assert _time.monotonic() < deadline
                _time.sleep(0.01)
            assert a.seat == seat and check(st, a) is None
    finally:
        w.close()


def test_expert_rollout_value_blends_this_round_and_the_horizon():
    """With ``blend``, a rollout is valued at the end of the current round and at the horizon,
    the same rollout both times; blend 0 (the default) is the horizon alone; the
    determinization is left as it was."""
    from gonzaga.ai import expert as EX
    st = _start(2, 9)
    v = view(st, 0)
    bot = ExpertBot(2, iterations=10, blend=0.5)
    cands = bot.candidates(v, 0)
    det = bot._determinization(Sim.from_state(v), v, 0, objective_weights(v, 0), random.Random(4))
    before = (det.pts[:], det.fm[:], det.plan[:], det.phase, det.round)
    a = cands[0]
    u, m = bot.rollout_value(det, a, 0)
    assert (det.pts, det.fm, det.plan, det.phase, det.round) == before
    sim = det.copy()
    sim.apply_action(a)
    sim.play(det.round)
    u0, m0 = ExpertBot._outcome(sim, 0)
    sim.play(det.round + EX.HORIZON)
    u1, m1 = ExpertBot._outcome(sim, 0)
    b = 0.5
    assert u == pytest.approx(b * u0 + (1 - b) * u1) and m == pytest.approx(b * m0 + (1 - b) * m1)
    assert EX.BLEND == 0.0
    assert ExpertBot(2, iterations=10).rollout_value(det, a, 0) == pytest.approx((u1, m1))



def test_expert_rollouts_play_the_tuned_policy():
    """Every seat plays ``TUNED`` in expert's rollouts (rivals' deny aims at the searching
    seat's own card, which is in the determinization: screened against rivals without deny in
    four-seat games, docs/ai.md); ``policy="base"`` plays medium's values."""
    st = _start(3, 4)
    v = view(st, 1)
    det = ExpertBot(1, iterations=10)._determinization(Sim.from_state(v), v, 1, objective_weights(v, 1),
                                                       random.Random(2))
    assert det.weights == [TUNED] * 3 and TUNED != BASE_WEIGHTS
    base = ExpertBot(1, iterations=10, policy="base")
    det = base._determinization(Sim.from_state(v), v, 1, objective_weights(v, 1), random.Random(2))
    assert det.weights == [BASE_WEIGHTS] * 3


def _fief_key(sim, i):
    return sim.fief[i] + sim.digit[i]


@pytest.mark.rule("R3", "R4", "P7")
def test_a_contending_plan_is_valued_after_the_rivals_who_place_first(monkeypatch):
    """With ``contend`` 1, a plan is worth the best placement left once each rival who places
    before it (R3, R4: a lower action card, or the same card and a lower fief number) has
    taken the spot its own best plan aims at (P7: that spot is then occupied); a rival who
    places after it changes nothing. Checked against a brute force over every placement."""
    from gonzaga.ai import rollout_policy
    from gonzaga.ai.fastsim import DONATION
    from gonzaga.rules import ACTION_RANK as ARANK
    monkeypatch.setattr(rollout_policy, "PLAN_LOOK", 0)  # every legal entry, so a brute force can follow
    changed = unchanged = 0
    for seed in range(40):
        sim = Sim.from_state(_start(2, 600 + seed))
        sim.weights = [TUNED._replace(contend=1.0, king=0.0)] * 2
        tables, picks = sim._greedy_plans()
        for i in (0, 1):
            j = 1 - i
            _, (_, aj, _), mj = picks[j]
            cx = sim.context(i)
            occ = sim.all_fiefs() | sim.rm[i]
            full = sim.plan_values(i)
            sim.weights = [TUNED._replace(contend=0.5, king=0.0)] * 2
            half = sim.plan_values(i)  # (1 - c) x the value now + c x the value after those ahead
            sim.weights = [TUNED._replace(contend=1.0, king=0.0)] * 2
            for (v, (k, a, _), m), (vc, p), (vh, _) in zip(tables[i], full, half):
                assert p == (k, a, False) and vh == pytest.approx(0.5 * v + 0.5 * vc)
                if a == "C":  # weddings: the fief-only brute force below does not cover rings
                    continue
                ahead = ARANK[aj] < ARANK[a] or (aj == a and _fief_key(sim, j) < _fief_key(sim, i))
                legal = [e for e in sim.t.lists.get((sim.fief[i], k, a), ())
                         if not e.mask & occ and not (ahead and e.mask & mj)]
                assert vc == pytest.approx(max([Sim.value(e, cx) for e in legal] + [DONATION]))
                if ahead and m & mj and vc < v:
                    changed += 1
                elif not ahead:
                    assert vc == v
                    unchanged += 1
    assert changed >= 5 and unchanged >= 50, (changed, unchanged)


@pytest.mark.rule("K1", "K2", "R3")
def test_the_rollout_policy_plans_the_kings_privilege_only_when_a_rival_would_take_its_spot():
    """With ``king`` t > 0 a seat with a ring plans its best plan with the King's Privilege
    (K2: it then places first) exactly when the rivals ahead of it would cost that plan at
    least t points; without a ring, or with K unavailable (K1), it never does."""
    kinged = plain = 0
    for seed in range(40):
        sim = Sim.from_state(_start(2, 700 + seed))
        sim.weights = [TUNED._replace(contend=1.0, king=0.25)] * 2
        tables, picks = sim._greedy_plans()
        for i in (0, 1):
            v0, p0, _ = picks[i]
            v1 = max(v for v, _, _ in sim._contended(i, tables, picks, 1.0))
            k, a, king = sim.policy_plan(i)
            if v0 - v1 >= 0.25:
                assert (k, a, king) == (p0[0], p0[1], True)
                kinged += 1
                sim.rings[i], rings = 0, sim.rings[i]
                assert sim.policy_plan(i)[2] is False
                sim.rings[i] = rings
                sim.unav[i] = sim.unav[i] | {"K"}
                assert sim.policy_plan(i)[2] is False
            else:
                assert king is False
                plain += 1
    assert kinged >= 3 and plain >= 20, (kinged, plain)


def test_expert_rollouts_can_play_given_weights():
    """The ``policy`` knob also takes a ``Weights`` (how the screens compared two tunings)."""
    st = _start(2, 4)
    v = view(st, 0)
    w = TUNED._replace(contend=0.0, king=0.0)
    det = ExpertBot(1, iterations=10, policy=w)._determinization(Sim.from_state(v), v, 0, objective_weights(v, 0),
                                                                  random.Random(2))
    assert det.weights == [w, w]



def test_rivals_can_be_modelled_with_other_weights_than_the_seat_plays():
    """``rival_policy``: the rivals' rollout weights apart from the seat's own; "mix" draws
    them per determinization."""
    st = _start(3, 4)
    v = view(st, 1)
    base, ow = Sim.from_state(v), objective_weights(v, 1)
    det = ExpertBot(1, iterations=10, rival_policy="base")._determinization(base, v, 1, ow, random.Random(2))
    assert det.weights == [BASE_WEIGHTS, TUNED, BASE_WEIGHTS]
    bot = ExpertBot(1, iterations=10, rival_policy="mix")
    seen = {tuple(bot._determinization(base, v, 1, ow, random.Random(k)).weights) for k in range(12)}
    assert seen == {(BASE_WEIGHTS, TUNED, BASE_WEIGHTS), (TUNED, TUNED, TUNED)}

@pytest.mark.rule("P1", "P2", "P3", "P4", "P7", "W4", "W6", "R6")
def test_place_options_are_legal_and_led_by_the_policys_choice():
    """``Sim.place_options`` (the placements a plan's rollout searches) lists only legal
    actions (every one passes ``check``), best first, with the donation (R6) among them;
    its best value is the policy's own choice (``policy_place``, the fast path)."""
    from gonzaga.ai.fastsim import DONATION
    checked = 0
    for g in range(4):
        state = _start(2 + g % 3, 800 + g)
        sim = Sim.from_state(state)
        sim.weights = [TUNED] * sim.n
        while not state.is_over:
            if state.phase == "plan":
                for i in state.to_act():
                    k, a, king = sim.policy_plan(i)
                    state = apply(state, Plan(i, sim.t.cards[k], a, king))
                    sim.set_plan(i, (k, a, king))
                sim.reveal()
                continue
            i = state.to_act()[0]
            opts = sim.place_options(i, 10 ** 6)
            vals = [v for v, _ in opts]
            assert vals == sorted(vals, reverse=True)
            assert any(c is None for _, c in opts)
            for _, c in opts[:12]:
                assert check(state, entry_action(sim, i, c)) is None
                checked += 1
            choice = sim.policy_place(i)
            cx = sim.context(i)
            k, a, _ = sim.plan[i]
            best_v = sim.best_under(i, k, a, cx, 0, sim.merges(i, cx) if a == "B" else ())[0]
            assert vals[0] == pytest.approx(max(best_v, DONATION))
            assert sim.place_options(i, 3) == opts[:3]
            act = entry_action(sim, i, choice)
            state = apply(state, act)
            sim.do_place(i, choice)
    assert checked > 200


def _first_plans_rollout(seed: int, deal0: int):
    """A determinization of seat 0's first plan (2-4 seats by ``seed``, the deal ``deal0`` +
    seed), expert's best candidate plan, and the plain rollout's utility of it."""
    st = _start(2 + seed % 3, deal0 + seed)
    v = view(st, 0)
    one = ExpertBot(3, iterations=10)
    det = one._determinization(Sim.from_state(v), v, 0, objective_weights(v, 0), random.Random(seed))
    plan = one.candidates(v, 0)[0]
    return det, plan, one.rollout_value(det, plan, 0)[0]


def test_a_plans_rollout_can_search_the_seats_own_placement():
    """With ``inner`` k > 1 a plan's rollout plays the seat's k best placements (by the
    policy's values) after the seats ahead of it, and counts the best: never worse than the
    policy's own placement (k = 1), and with k = every option, the best of all of them."""
    better = 0
    for seed in range(12):
        det, plan, u1 = _first_plans_rollout(seed, 900)
        many = ExpertBot(3, iterations=10, inner=4)
        many._inner = 4
        u4, _ = many.rollout_value(det, plan, 0)
        every = ExpertBot(3, iterations=10, inner=10 ** 6)
        every._inner = 10 ** 6
        u_all, _ = every.rollout_value(det, plan, 0)
        sim = det.copy()
        sim.apply_action(plan)
        while sim.order[sim.turn] != 0:
            sim.do_place(sim.order[sim.turn], sim.policy_place(sim.order[sim.turn]))
        brute = []
        for _, c in sim.place_options(0, 10 ** 6):
            s2 = sim.copy()
            s2.do_place(0, c)
            s2.play(det.round + 1)
            brute.append(ExpertBot._outcome(s2, 0)[0])
        assert u1 <= u4 + 1e-12 <= u_all + 2e-12
        assert u_all == pytest.approx(max(brute))
        better += u4 > u1
    assert better >= 2


@pytest.mark.rule("R2", "R3", "K2", "E2", "X3")
def test_a_rollout_can_search_the_seats_own_plan_of_the_next_round():
    """With ``inner_plan`` m > 1 a rollout plays the rest of this round by the policy, then
    tries the seat's m best plans of the next round (by the policy's values, plus the policy's
    own) against the rivals' policy plans, and counts the best: never worse than the policy's
    plan (m = 1), and with m = every plan, the best of all of them, worked out by hand here."""
    better = 0
    for seed in range(12):
        det, plan, u1 = _first_plans_rollout(seed, 700)
        u3, _ = ExpertBot(3, iterations=10, inner_plan=3).rollout_value(det, plan, 0)
        u_all, _ = ExpertBot(3, iterations=10, inner_plan=10 ** 6).rollout_value(det, plan, 0)
        sim = det.copy()
        sim.apply_action(plan)
        sim.play(det.round)
        assert sim.phase == "plan" and sim.round == det.round + 1
        plans = {p for _, p in sim.plan_values(0)} | {sim.policy_plan(0)}
        brute = []
        for p in plans:
            s2 = sim.copy()
            s2.set_plan(0, p)
            s2.play(det.round + 1)
            brute.append(ExpertBot._outcome(s2, 0)[0])
        assert u1 <= u3 + 1e-12 <= u_all + 2e-12
        assert u_all == pytest.approx(max(brute))
        better += u3 > u1
    assert better >= 2


def test_inner_plan_refuses_what_it_would_override():
    assert ExpertBot(1).inner_plan == 1
    for bad in ({"inner_plan": 0}, {"inner_plan": 3, "horizon": None}, {"inner_plan": 3, "horizon": 0},
                {"inner_plan": 3, "inner": 4}, {"inner_plan": 3, "tree": 0.3},
                {"inner_plan": 3, "rival_learn": 10.0}, {"inner_plan": 3, "blend": 0.5}):
        with pytest.raises(ValueError):
            ExpertBot(1, **bad)


def test_the_search_charges_each_searched_placement_to_the_budget():
    """A plan search with ``inner`` k spends its budget in single rollouts: about budget / k
    plans' rollouts, never more than the budget plus one round of candidates."""
    st = _start(2, 31)
    v = view(st, 0)
    bot = ExpertBot(5, iterations=400, inner=4)
    bot.choose(v, 0)
    s = bot.last_stats
    assert s["rollouts"] <= 400 + 4 * s["arms"] and s["rollouts"] >= 300, s
    assert s["arms"] == max(4, round(0.5 * (400 / 4) ** 0.5))


def test_a_placement_budget_of_its_own_applies_to_placements_only():
    """``place_iterations`` (an experiment knob: which half of a decision gains from budget)
    sizes the placement searches; plans keep ``iterations``."""
    st = _start(2, 31)
    bot = ExpertBot(5, iterations=120, place_iterations=40)
    bot.choose(view(st, 0), 0)
    assert st.phase == "plan" and bot.last_stats["budget"] == 120
    while st.phase == "plan":
        for i in st.to_act():
            st = apply(st, make_bot("medium", i).choose(view(st, i), i))
    i = st.to_act()[0]
    bot.choose(view(st, i), i)
    assert bot.last_stats["budget"] == 40 and bot.last_stats["rollouts"] <= 40 + bot.last_stats["arms"]


def test_a_rivals_plan_is_drawn_as_medium_would_plan_holding_its_sampled_objective(monkeypatch):
    """``rival_model="objective"``: each determinization gives a rival an objective card from
    the inference, then a plan from a softmax over medium's worth of its plans *holding that
    card* (R2: the plan is secret; S5: so is the card). Checked against medium's
    ``plan_scores`` on a view where the rival holds the card; with a near-zero temperature
    the draw is that argmax, and the card changes the plan somewhere."""
    import dataclasses
    from gonzaga.ai import expert as EX
    from gonzaga.ai.levels import MediumBot
    monkeypatch.setattr(EX, "RIVAL_PLAN_TAU", 1e-3)
    differs = 0
    for seed in range(10):
        st = _start(2 + seed % 2, 950 + seed)
        v = view(st, 0)
        bot = ExpertBot(7, iterations=10, rival_model="objective")
        bot._plans = {}
        bot.medium.lookahead = 0  # medium's next-round term samples the deck: off, to compare
        base = Sim.from_state(v)
        weights = objective_weights(v, 0)
        drawn = {}
        for r in range(6):
            det = bot._determinization(base, v, 0, weights, random.Random(100 * seed + r))
            objs = {j: oid for j in range(1, v.n) for oid, _ in weights[j]
                    if det.obj[j] == v.board.mask_of(v.content.objective_cities(oid))}
            for j in range(1, v.n):
                seats = list(v.seats)
                seats[j] = dataclasses.replace(seats[j], objective=objs[j])
                med = MediumBot(0)
                med.lookahead = 0
                scored = med.plan_scores(dataclasses.replace(v, seats=tuple(seats)), j)
                top = max(val for val, _ in scored)
                best = [(det.t.card_index[p.region], p.action, p.king) for val, p in scored if val == top]
                assert det.plan[j] in best
                drawn.setdefault(j, set()).add((objs[j], det.plan[j]))
        for j, pairs in drawn.items():
            differs += len({p for _, p in pairs}) > 1
    assert differs >= 2


def test_a_learning_rival_weights_medium_s_model_by_its_advantage_in_the_rollouts():
    """``rival_learn`` beta: a rival's plan is drawn with medium's model probability x
    exp(beta x advantage), the advantage being the plan's mean minus the rival's mean over all
    its draws, shrunk by n / (n + 4). Checked against a hand calculation on a two-plan table:
    counts 4 and 4, utility sums 2.0 and 0.0, so the mean is 0.25 and the advantages are
    (2 - 1) / 8 = +0.125 and (0 - 1) / 8 = -0.125; with model probabilities 0.3 and 0.7 and
    beta 8, the first plan's weight is 0.3 e^1 against 0.7 e^-1."""
    import math
    bot = ExpertBot(1, iterations=10, rival_learn=8.0)
    bot._models = {1: [(0.3, "p", 0, 0, False), (0.7, "q", 0, 0, False)]}
    bot._learn = {1: [[0, 0.0], [0, 0.0]]}
    assert bot.learned_table(1) == [(0.3, 0), (0.7, 1)]  # no rollouts yet: the model itself
    bot._learn = {1: [[4, 2.0], [4, 0.0]]}
    w0, w1 = 0.3 * math.e, 0.7 / math.e
    got = bot.learned_table(1)
    assert got[0][0] == pytest.approx(w0 / (w0 + w1)) and got[1][0] == pytest.approx(w1 / (w0 + w1))
    assert got[0][0] > 0.5  # the advantage outweighs the model's lean toward the second plan


@pytest.mark.rule("R2", "X6")
def test_a_learning_rival_is_credited_with_its_own_result_not_the_seats():
    """In two seats the shares of a result sum to one and the margins cancel, so over a plan
    search the rival's credited utilities and the seat's must sum to one per rollout. A
    search that credited the seat's own result to the rival (or credited nothing) breaks
    that."""
    st = _start(2, 31)
    v = view(st, 0)
    for seed in range(2):
        bot = ExpertBot(seed, iterations=160, rival_learn=10.0)
        totals = []
        orig_run = ExpertBot.rollout_value

        def rv(self, det, action, seat, _o=orig_run):
            u, m = _o(self, det, action, seat)
            totals.append(u)
            return u, m
        bot.rollout_value = rv.__get__(bot)
        bot.choose(v, 0)
        stats = bot._learn[1]  # the last search's statistics stay until the next search
        assert sum(c for c, _ in stats) == len(totals) > 100
        assert sum(t for _, t in stats) + sum(totals) == pytest.approx(len(totals))


def test_expert_refuses_knobs_it_would_ignore():
    """rival_learn reweights medium's rival model: with another model it would do nothing,
    so the combination is refused rather than silently ignored; an unknown model too."""
    with pytest.raises(ValueError, match="rival_learn"):
        ExpertBot(1, iterations=10, rival_learn=10.0, rival_model="objective")
    with pytest.raises(ValueError, match="rival_model"):
        ExpertBot(1, iterations=10, rival_model="medum")
    ExpertBot(1, iterations=10, rival_learn=10.0)


def _rollout_by_hand(bot, seats):
    """A determinization of seat 0's first decision (seed 9), the bot's first candidate, and
    the hand position values after that candidate's rollout, played here to the horizon."""
    v = view(_start(seats, 9), 0)
    det = bot._determinization(Sim.from_state(v), v, 0, objective_weights(v, 0), random.Random(4))
    a = bot.candidates(v, 0)[0]
    sim = det.copy()
    sim.apply_action(a)
    sim.play(det.round + EX.HORIZON)
    return det, a, sim.position_values()


@pytest.mark.parametrize("win_scale,margin_scale", [(3.0, EX.MARGIN_SCALE), (EX.WIN_SCALE, 200.0)])
def test_win_scale_and_margin_scale_set_a_stopped_rollouts_utility(win_scale, margin_scale):
    """A rollout stopped before the end is worth logistic(margin / ``win_scale``) + margin /
    ``margin_scale``, the margin being the seat's position value minus the best rival's
    (defaults ``WIN_SCALE`` 8 and ``MARGIN_SCALE`` 40: a point of margin a fortieth of a win)."""
    import math

    bot = ExpertBot(2, iterations=10, win_scale=win_scale, margin_scale=margin_scale)
    det, a, vals = _rollout_by_hand(bot, 2)
    margin = vals[0] - vals[1]
    assert margin != 0
    u, m = bot.rollout_value(det, a, 0)
    assert m == pytest.approx(margin)
    assert u == pytest.approx(1 / (1 + math.exp(-margin / win_scale)) + margin / margin_scale)
    default = ExpertBot(2, iterations=10)
    assert (default.win_scale, default.margin_scale) == (EX.WIN_SCALE, EX.MARGIN_SCALE) == (8.0, 40.0)


@pytest.mark.rule("X6")
def test_the_field_win_chance_weighs_every_rival():
    """``field_win_chance``: each seat's product of pairwise logistics, normalised. Hand
    figures (s = 8): four level seats 1/4 each; two seats the plain logistic, 10 points
    ahead 1 / (1 + e^-1.25) = 0.7773; one seat 10 ahead of three level rivals
    0.7773^3 / (0.7773^3 + 3 x 0.2227 x 0.25) = 0.4696 / 0.6367 = 0.7377."""
    f = EX.field_win_chance
    assert f([50.0, 50.0, 50.0, 50.0], 8.0) == pytest.approx([0.25] * 4)
    assert f([10.0, 0.0], 8.0) == pytest.approx([0.7773, 0.2227], abs=1e-4)
    got = f([20.0, 10.0, 10.0, 10.0], 8.0)
    assert got[0] == pytest.approx(0.7377, abs=1e-4)
    assert got[1] == got[2] == got[3] == pytest.approx((1 - 0.7377) / 3, abs=1e-4)
    # the margin to the best rival alone cannot tell these apart; the field can
    assert f([20.0, 20.0, 0.0, 0.0], 8.0)[0] > f([20.0, 20.0, 19.0, 19.0], 8.0)[0]


def test_win_chance_field_values_a_stopped_four_seat_rollout_against_the_whole_field():
    """With ``win_chance="field"`` a four-seat rollout stopped before the end is worth the
    seat's field win chance + margin / ``MARGIN_SCALE`` (the margin still to the best
    rival); the default ("best") keeps logistic(margin / s); an unknown value is refused."""
    import math

    bot = ExpertBot(2, iterations=10, win_chance="field", value="hand")
    det, a, vals = _rollout_by_hand(bot, 4)
    margin = vals[0] - max(vals[1:])
    u, m = bot.rollout_value(det, a, 0)
    assert m == pytest.approx(margin)
    assert u == pytest.approx(EX.field_win_chance(vals, EX.WIN_SCALE)[0] + margin / EX.MARGIN_SCALE)
    plain = ExpertBot(2, iterations=10, value="hand")
    assert plain.win_chance == EX.WIN_CHANCE == "best"
    u2, _ = plain.rollout_value(det, a, 0)
    assert u2 == pytest.approx(1 / (1 + math.exp(-margin / EX.WIN_SCALE)) + margin / EX.MARGIN_SCALE)
    assert u2 != pytest.approx(u)
    with pytest.raises(ValueError, match="win_chance"):
        ExpertBot(1, iterations=10, win_chance="rank")


def test_ring_value_prices_the_rings_a_stopped_rollout_still_holds():
    """``ring_value`` replaces the hand value's price of a ring in supply (1.5, ``RING_VALUE``)
    for the rings that rounds remain to use: at the deal each seat holds 6 rings with 11
    rounds left, so 2.5 adds 6 x (2.5 - 1.5) = 6 points to every seat's value. The learned
    value has its own ring weight and is left alone; the game's end has no ring term."""
    from gonzaga.ai import value_table
    from gonzaga.ai.heuristics import RING_VALUE

    st = _start(2, 1)
    sim = Sim.from_state(st)
    assert RING_VALUE == 1.5 and sim.rings == [6, 6] and sim.rounds_left(0) == 11
    hand = sim.position_values()
    bot = ExpertBot(1, iterations=10, ring_value=2.5)
    bot._table = None
    vals, win = bot._rollout_result(sim)
    assert win is None and vals == pytest.approx([x + 6.0 for x in hand])
    assert ExpertBot(1, iterations=10)._rollout_result(sim)[0] == pytest.approx(hand)
    bot._table = value_table.TABLE
    assert bot._rollout_result(sim) == ExpertBot._result(sim, value_table.TABLE)


def test_rival_king_scales_the_kings_privilege_in_the_rival_model():
    """``kings_scaled``: the K plans' probabilities times the factor, every row normalised
    again, the rest of each row unchanged; a factor of 1 (``RIVAL_KING_FACTOR``, the default)
    is medium's model itself. The plan search draws rivals' plans from the scaled model."""
    from gonzaga.ai.levels import rival_plan_model

    v = view(_start(2, 1), 0)
    model = rival_plan_model(v, 1)
    k = sum(r[0] for r in model if r[1].king)
    assert 0.1 < k < 0.5
    scaled = EX.kings_scaled(model, 0.2)
    assert sum(r[0] for r in scaled) == pytest.approx(1.0)
    assert sum(r[0] for r in scaled if r[1].king) == pytest.approx(0.2 * k / (0.2 * k + 1 - k))
    for a, b in zip(model, scaled):
        assert a[1:] == b[1:]
        assert b[0] == pytest.approx(a[0] * (0.2 if a[1].king else 1.0) / (0.2 * k + 1 - k))
    assert EX.kings_scaled(model, 1.0) is model and EX.RIVAL_KING_FACTOR == 1.0
    bot = ExpertBot(2, iterations=8, rival_king=0.2)
    bot.choose(v, 0)
    assert [r[1:] for r in bot._models[1]] == [r[1:] for r in scaled]
    assert [r[0] for r in bot._models[1]] == pytest.approx([r[0] for r in scaled])


def test_robust_mean_is_the_entropic_certainty_equivalent():
    """``robust_mean``: the mean at beta 0; else -log(mean exp(-beta u)) / beta. Hand figures
    for the utilities 1 and 0: beta 1 gives -log((e^-1 + 1) / 2) = 0.37988, below the mean
    0.5 and above the worst 0; a large beta nears the worst."""
    import math

    rm = EX.robust_mean
    assert rm(1.0, 0.0, 2, 0.0) == 0.5
    assert rm(1.0, math.exp(-1.0) + 1.0, 2, 1.0) == pytest.approx(0.37988, abs=1e-5)
    big = 60.0
    assert 0.0 < rm(1.0, math.exp(-big) + 1.0, 2, big) < 0.02
    assert rm(0.9, 3 * math.exp(-0.3), 3, 1.0) == pytest.approx(0.3)  # a sure 0.3 is worth 0.3
    assert rm(0.0, 0.0, 0, 1.0) == 0.0
    with pytest.raises(ValueError, match="risk"):
        ExpertBot(1, iterations=10, risk=-1.0)


def test_risk_aversion_prefers_the_plan_that_holds_up_against_the_rivals_plans():
    """With ``risk`` the plan search ranks each plan by its ``robust_mean``: a gamble that
    scores 1.2 or -0.2 on alternate determinizations (mean 0.5) loses to a sure 0.45 at
    beta 2 (its worth -log((e^-2.4 + e^0.4) / 2) / 2 = 0.117), and wins at beta 0 (the
    default, ``RISK``). Placements keep the plain mean."""
    assert EX.RISK == 0.0
    v = view(_start(2, 1), 0)
    assert v.phase == "plan"
    cands = [p for _, p in ExpertBot(1, iterations=8).scored_candidates(v, 0)][:2]

    def chosen(risk, phase_view):
        bot = ExpertBot(3, iterations=64, risk=risk)
        seen = {0: 0, 1: 0}

        def fake(det, action, seat):
            k = cands.index(action)
            seen[k] += 1
            if k == 1:
                return 0.45, 0.0
            return (1.2 if seen[k] % 2 else -0.2), 0.0

        bot.rollout_value = fake
        got = bot._search(phase_view, 0, cands, [0.0, 0.0], 0.0)
        assert seen[0] == seen[1] > 4 and seen[0] % 2 == 0
        return cands.index(got)

    assert chosen(0.0, v) == 0
    assert chosen(2.0, v) == 1
    # a placement is valued by the mean whatever the risk (the rivals' plans are revealed)
    from gonzaga.rules.state import evolve
    assert chosen(2.0, evolve(v, phase="place")) == 0


def test_risk_by_plan_weighs_the_rivals_secret_plans_and_not_the_decks():
    """``risk_by="plan"``: the risk is in the means over the rollouts that drew the same rival
    plans. A gamble on the decks (1.2 or -0.2 on alternate rollouts, one rival plan) keeps its
    mean 0.5 and beats a sure 0.45 at beta 2, where ``risk_by="rollout"`` prefers the sure one;
    a gamble on the rival's plan (1.2 against one of two equally likely plans, -0.2 against
    the other) loses to it under both."""
    from gonzaga.ai.levels import rival_plan_model

    v = view(_start(2, 1), 0)
    cands = [p for _, p in ExpertBot(1, iterations=8).scored_candidates(v, 0)][:2]
    rows = rival_plan_model(v, 1)[:2]
    one = {1: [(1.0, *rows[0][1:])]}
    two = {1: [(0.5, *rows[0][1:]), (0.5, *rows[1][1:])]}

    def chosen(by, models, on_plan):
        bot = ExpertBot(3, iterations=64, risk=2.0, risk_by=by)
        calls = [0]

        def fake(det, action, seat):
            if cands.index(action) == 1:
                return 0.45, 0.0
            calls[0] += 1
            lucky = bot._drawn[1] == 0 if on_plan else calls[0] % 2 == 1
            return (1.2 if lucky else -0.2), 0.0

        bot.rollout_value = fake
        return cands.index(bot._search(v, 0, cands, [0.0, 0.0], 0.0, models))

    assert chosen("plan", one, on_plan=False) == 0
    assert chosen("rollout", one, on_plan=False) == 1
    assert chosen("plan", two, on_plan=True) == 1
    assert chosen("rollout", two, on_plan=True) == 1
    with pytest.raises(ValueError, match="risk_by"):
        ExpertBot(1, iterations=10, risk_by="deal")
    with pytest.raises(ValueError, match="risk_by 'plan' works on rival_model 'medium' only"):
        ExpertBot(1, iterations=10, risk=1.0, risk_by="plan", rival_model="sim")


def test_a_tree_node_tries_each_option_once_then_ucb1_by_hand():
    """``ucb_pick``: the first untried option among the node's first ``width``, else the
    best mean + c x sqrt(ln N / n), ties to the earlier option."""
    assert EX.ucb_pick([3, 0, 0], [1.5, 0.0, 0.0], 1, 0.3) == 0  # width 1: the policy's alone
    assert EX.ucb_pick([3, 0, 0], [1.5, 0.0, 0.0], 3, 0.3) == 1
    # N = 8: option 0 mean 0.5 + 0.3 x sqrt(ln 8 / 6) = 0.5 + 0.1863 = 0.686;
    # option 1 mean 0.4 + 0.3 x sqrt(ln 8 / 2) = 0.4 + 0.3227 = 0.723: the less tried wins
    assert EX.ucb_pick([6, 2], [3.0, 0.8], 2, 0.3) == 1
    # with c = 0.1 the bonuses are 0.0621 and 0.1076: 0.562 against 0.508, the better mean
    assert EX.ucb_pick([6, 2], [3.0, 0.8], 2, 0.1) == 0
    assert EX.ucb_pick([2, 2], [1.0, 1.0], 2, 0.3) == 0  # a tie: the earlier (the policy's)


def _tree_case(seed):
    """A two-seat opening, seat 0's plan with action A and the rival's with C (so seat 0
    places first, R4), and the bot: (view, plan, rival plan, bot)."""
    st = _start(2, seed)
    v = view(st, 0)
    bot = ExpertBot(3, iterations=10, tree=0.3)
    plan = next(p for p in bot.candidates(v, 0) if p.action == "A" and not p.king)
    rival = next(p for p in legal_plans(st, 1) if p.action == "C" and not p.king)
    return v, plan, rival, bot


def _det_with(bot, v, rival, rng_seed):
    det = bot._determinization(Sim.from_state(v), v, 0, objective_weights(v, 0), random.Random(rng_seed))
    det.apply_action(rival)  # every determinization with the same rival plan: one information set
    return det


def test_a_tree_node_starts_as_the_policy_and_widens_with_its_visits():
    """With ``tree`` the seat's placement after a plan is chosen in a node per information set
    (the plans and the board when it places): the first visit plays the policy's placement,
    so it values the plan exactly as the plain rollout does; determinizations that differ only
    in hidden cards share the node; it widens to 1 + 0.5 x sqrt(visits) options, the policy's
    first, then ``place_options`` best first, each tried once before any twice."""
    for seed in (41, 42, 43):
        v, plan, rival, bot = _tree_case(seed)
        plain = ExpertBot(3, iterations=10)
        bot._tree = {}
        det = _det_with(bot, v, rival, 0)
        assert bot.rollout_value(det, plan, 0) == plain.rollout_value(det, plan, 0)
        for r in range(1, 36):
            bot.rollout_value(_det_with(bot, v, rival, r), plan, 0)
        assert len(bot._tree) == 1
        node, = bot._tree.values()
        opts, n, visits, widened = node.opts, node.n, node.visits, node.widened
        assert visits == 36 and sum(n) == 36 and widened
        sim = _det_with(bot, v, rival, 0).copy()
        sim.apply_action(plan)
        assert sim.order[0] == 0
        first = sim.policy_place(0)
        rest = [c for _, c in sim.place_options(0, EX.TREE_TOP) if EX._choice_key(c) != EX._choice_key(first)]
        assert [EX._choice_key(c) for c in opts] == [EX._choice_key(c) for c in [first] + rest]
        width = 1 + int(0.5 * 35 ** 0.5)  # the width of the last visit: 3 after 35
        assert all(n[:width]) and not any(n[width:])


def test_the_tree_is_off_by_default_and_refuses_what_it_would_override():
    assert ExpertBot(1).tree == 0
    for bad in ({"tree": -1.0}, {"tree": 0.3, "inner": 4}, {"tree": 0.3, "rival_learn": 10.0},
                {"tree": 0.3, "blend": 0.5}):
        with pytest.raises(ValueError):
            ExpertBot(1, **bad)


def test_the_reference_plays_every_candidate_on_the_same_determinizations():
    """``reference_values`` (tools/search_regret.py's yardstick) gives each candidate its mean
    over one shared set of determinizations: the order of the list changes nothing, and a
    candidate listed twice gets the same mean twice (common random numbers)."""
    v = view(_start(2, 4), 0)
    cands = ExpertBot(1).candidates(v, 0)[:3]
    fwd = ExpertBot(7).reference_values(v, 0, cands, 12)
    back = ExpertBot(7).reference_values(v, 0, cands[::-1], 12)
    assert fwd == back[::-1]
    twice = ExpertBot(7).reference_values(v, 0, [cands[1], cands[1]], 12)
    assert twice[0] == twice[1] == fwd[1]
    assert len(set(fwd)) > 1  # the candidates differ: the equalities above are not trivial
