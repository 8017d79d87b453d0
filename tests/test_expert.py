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
def test_expert_weighs_every_kings_privilege_plan_that_may_change_the_order():
    """A K plan is a candidate when its chance of changing the order (under medium's model
    of the rival) is at least ``KING_MIN`` (0.01); every plan without K always is. On this
    deal seat 0's K plans change the order with chances 0.23, 0.60 and 0.69: expert weighs
    the 0.23 one too (hard's 0.5 would leave it out)."""
    from gonzaga.ai.levels import king_change_probability, legal_plans, rival_plan_model
    v = view(_start(2, 1), 0)
    rivals = [(v.seats[1].card, rival_plan_model(v, 1))]
    plans = legal_plans(v, 0)
    chance = {p: king_change_probability(v, 0, p, rivals) for p in plans if p.king}
    assert min(chance.values()) < 0.5 <= max(chance.values())  # the deal splits them
    assert EX.KING_MIN == 0.01
    cands = ExpertBot(0, iterations=8).candidates(v, 0)
    assert set(cands) == {p for p in plans if not p.king or chance[p] >= 0.01}
    assert any(p.king and chance[p] < 0.5 for p in cands)


@pytest.mark.parametrize("level", ["hard", "expert"])
def test_search_levels_never_plan_a_king_that_cannot_change_the_order(level):
    """Over seeded 2-seat games: every K a search level plans could have changed the order
    under its rival model with at least the level's chance (hard: ``KING_MIN_CHANGE``;
    expert: ``KING_MIN``)."""
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
                    assert king_changes_order(v, 0, p, rivals, EX.KING_MIN if level == "expert" else KING_MIN_CHANGE)
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
    from gonzaga.bench.engine import measure_rollouts
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


def _determinization(bot, v, seat, rng_seed):
    """A determinization of ``v`` as a search of ``bot`` would draw it (``_begin`` first)."""
    base, weights = bot._begin(v, seat)
    return bot._determinization(base, v, seat, weights, random.Random(rng_seed))


def test_expert_rollout_is_valued_at_the_end_of_the_next_round():
    """A rollout plays the candidate, then every seat's policy to the end of the next round
    (``HORIZON`` 1), and is valued there; the determinization is left as it was."""
    st = _start(2, 9)
    v = view(st, 0)
    bot = ExpertBot(2, iterations=10)
    cands = bot.candidates(v, 0)
    det = _determinization(bot, v, 0, 4)
    before = (det.pts[:], det.fm[:], det.plan[:], det.phase, det.round)
    a = cands[0]
    u, m = bot.rollout_value(det, a, 0)
    assert (det.pts, det.fm, det.plan, det.phase, det.round) == before
    sim = det.copy()
    sim.apply_action(a)
    sim.play(det.round + 1)
    assert EX.HORIZON == 1 and sim.round == det.round + 2 and sim.phase == "plan"
    assert (u, m) == pytest.approx(ExpertBot._outcome(sim, 0))


def test_expert_rollouts_play_the_tuned_policy():
    """Every seat plays ``TUNED`` in expert's rollouts (rivals' deny aims at the searching
    seat's own card, which is in the determinization: screened against rivals without deny in
    four-seat games: the diary of issue 12, lab/README.md), not medium's values (``BASE_WEIGHTS``)."""
    st = _start(3, 4)
    v = view(st, 1)
    det = _determinization(ExpertBot(1, iterations=10), v, 1, 2)
    assert det.weights == [TUNED] * 3 and TUNED != BASE_WEIGHTS


@pytest.mark.rule("R2")
def test_a_determinization_draws_each_secret_rival_plan_from_mediums_model():
    """While planning, a rival's plan is secret (R2): each determinization gives it one plan
    of medium's model of it (``rival_plan_model``), drawn by its probability."""
    from gonzaga.ai.levels import rival_plan_model
    v = view(_start(2, 1), 0)
    model = rival_plan_model(v, 1)
    as_sim = {}
    bot = ExpertBot(1, iterations=10)
    drawn = [tuple(_determinization(bot, v, 0, k).plan[1]) for k in range(200)]
    sim = Sim.from_state(v)
    for pr, p, *_ in model:
        key = (sim.t.card_index[p.region], p.action, p.king)
        as_sim[key] = as_sim.get(key, 0.0) + pr
    assert set(drawn) <= set(as_sim)
    likeliest = max(as_sim, key=as_sim.get)
    assert drawn.count(likeliest) / 200 == pytest.approx(as_sim[likeliest], abs=0.1)
    assert _determinization(bot, v, 0, 5).plan[0] is None  # the seat's own plan is left to search


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


def test_a_stopped_rollout_is_worth_its_win_chance_and_its_margin():
    """A two-seat rollout stopped before the end is worth logistic(margin / ``WIN_SCALE``) +
    margin / ``MARGIN_SCALE`` (8 and 40: a point of margin a fortieth of a win), the margin
    being the seat's hand position value minus the rival's."""
    v = view(_start(2, 9), 0)
    bot = ExpertBot(2, iterations=10)
    det = _determinization(bot, v, 0, 4)
    a = bot.candidates(v, 0)[0]
    sim = det.copy()
    sim.apply_action(a)
    sim.play(det.round + EX.HORIZON)
    vals = sim.position_values()
    margin = vals[0] - vals[1]
    assert margin != 0 and (EX.WIN_SCALE, EX.MARGIN_SCALE) == (8.0, 40.0)
    u, m = bot.rollout_value(det, a, 0)
    assert m == pytest.approx(margin)
    assert u == pytest.approx(1 / (1 + math.exp(-margin / 8.0)) + margin / 40.0)
