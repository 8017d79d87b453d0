"""Take-backs (issue 11): a take-back restores exactly the state, the record and the log before
the decision; AI seats then decide the same way again, so re-doing the decision continues the
game identically; what another human has seen, a revealed plan, or a round whose next fiefs
are turned up can never be taken back (Board Game Arena's undo policy)."""
from __future__ import annotations

import pytest

from gonzaga.table import takeback
from gonzaga.rules import Donate, Place, Plan, legal_actions, legal_plans, replay
from gonzaga.table.session import InlineWorker, SeatSpec, Session

pytestmark = pytest.mark.rule("E-takeback")


def solo(seed=7, bots=("easy", "medium")):
    seats = [SeatSpec("Me", "human", colour="red")]
    seats += [SeatSpec(f"Bot{i}", "ai", b, c) for i, (b, c) in enumerate(zip(bots, ("blue", "green")))]
    return Session.new(seats, seed, worker=InlineWorker(), ai_delay=0)


def run_ai(s, limit=50):
    """Tick until a human must act (or the game is over)."""
    for _ in range(limit):
        if s.is_over or s.humans_to_plan() or s.human_to_place() is not None:
            return
        s.tick()
    raise AssertionError("the AI seats did not act")


def one_ai_action(s, limit=50):
    """Tick until one more action is applied (or a human must act)."""
    n = len(s.record.actions)
    for _ in range(limit):
        if s.is_over or len(s.record.actions) > n or s.humans_to_plan() or s.human_to_place() is not None:
            return
        s.tick()


def my_choice(s, seat):
    """A fixed policy for the human seat: the middle legal action."""
    acts = legal_actions(s.state, seat)
    if s.state.phase == "plan":
        acts = [a for a in acts if not a.king]
    return acts[len(acts) // 2]


def snapshot(s):
    return (s.state, [a.to_text() for a in s.record.actions], s.log_lines(), s.state.to_act())


def human_seat(s):
    if s.humans_to_plan():
        return s.humans_to_plan()[0]
    return s.human_to_place()


def play(s, take_backs: bool):
    """Play the game to its end; with ``take_backs``, every decision that may be taken back is
    taken back once (the position must be exactly the one before it) and made again."""
    checked = 0
    for _ in range(400):
        run_ai(s)
        if s.is_over:
            break
        seat = human_seat(s)
        before = snapshot(s)
        a = my_choice(s, seat)
        assert s.submit(a) is None
        one_ai_action(s)  # an AI seat after it has placed: it is undone too, and done again
        if take_backs and takeback.problem(s, seat) is None:
            assert takeback.take_back(s, seat) is None
            assert snapshot(s) == before, "a take-back restores the state, the record and the log"
            checked += 1
            assert s.submit(a) is None
    assert s.is_over
    return checked


def test_takeback_restores_exactly_and_the_game_continues_identically():
    """Easy seats draw random numbers: a take-back must not change what they do next."""
    straight = solo()
    play(straight, take_backs=False)
    again = solo()
    n = play(again, take_backs=True)
    assert n >= 8, "placements before the round's end can be taken back"
    assert [a.to_text() for a in again.record.actions] == [a.to_text() for a in straight.record.actions]
    assert again.assists["takebacks"] == n and straight.assists["takebacks"] == 0
    assert replay(again.record, again.state.content).scores() == again.state.scores()


def test_takeback_of_a_plan_before_the_reveal_and_a_different_plan():
    """Solo (the AI has not planned yet): the human takes back their own plan. In hot-seat
    nothing is taken back (issue 40): see test_in_hotseat_nobody_takes_back_or_sees_another_humans_decision."""
    s = Session.new([SeatSpec("Me", "human", colour="red"), SeatSpec("Ann", "ai", "greedy", colour="blue")], 4)
    before = snapshot(s)
    plans = [p for p in legal_plans(s.state, 0) if not p.king]
    assert s.submit(plans[0]) is None
    assert takeback.problem(s, 0) is None
    assert takeback.take_back(s, 0) is None
    assert snapshot(s) == before
    assert s.submit(plans[1]) is None
    assert s.record.actions[-1] == plans[1]


def test_refused_once_the_plans_are_revealed():
    s = solo(3)
    run_ai(s)
    assert s.submit(my_choice(s, 0)) is None
    run_ai(s)
    assert s.state.phase == "place"
    assert takeback.problem(s, 0) == "tb.revealed"
    assert takeback.take_back(s, 0) == "tb.revealed"


def last_of_a_round(seed: int):
    """A solo game where the human has just placed last in a round (the next round's fiefs are
    turned up and the AI seats may have planned): the session and the position before it."""
    s = solo(seed)
    for _ in range(60):
        run_ai(s)
        if s.is_over:
            return None
        seat = human_seat(s)
        last = s.state.phase == "place" and s.state.turn == len(s.state.order) - 1
        before = snapshot(s)
        a = my_choice(s, seat)
        assert s.submit(a) is None
        if last and not s.is_over:
            run_ai(s)
            return s, before, a
    return None


@pytest.mark.rule("R1")
def test_the_last_placement_of_a_round_can_be_taken_back_until_the_next_plan():
    """Issue 40: the next round's fiefs turn up at once after the round's last placement; it can
    still be taken back until the human confirms the next plan, and the AI seats then decide
    exactly as before, so the game continues identically."""
    done = 0
    for seed in range(5, 12):
        if last_of_a_round(seed) is None:
            continue
        done += 1
        s, before, a = last_of_a_round(seed)
        straight, _, _ = last_of_a_round(seed)
        rnd = before[0].round
        assert s.state.round == rnd + 1 and s.state.phase == "plan"
        assert takeback.problem(s, 0) is None
        assert takeback.take_back(s, 0) is None
        assert snapshot(s) == before and s.assists["takebacks"] == 1
        assert s.submit(a) is None
        run_ai(s)
        assert [x.to_text() for x in s.record.actions] == [x.to_text() for x in straight.record.actions]
        play(s, take_backs=False)
        play(straight, take_backs=False)
        assert [x.to_text() for x in s.record.actions] == [x.to_text() for x in straight.record.actions]
    assert done >= 2


@pytest.mark.rule("R1")
def test_refused_once_the_next_plan_is_confirmed():
    s, before, a = next(x for x in map(last_of_a_round, range(5, 12)) if x is not None)
    assert s.submit(my_choice(s, 0)) is None
    if takeback.problem(s, 0) is None:  # the new plan itself may go back before the reveal
        assert takeback.take_back(s, 0) is None
        assert s.state.round == before[0].round + 1 and s.state.phase == "plan"
        assert s.state.seats[0].plan is None, "that takes back the plan, not the placement"
        assert s.submit(my_choice(s, 0)) is None
    run_ai(s)
    assert s.state.phase == "place"
    assert takeback.problem(s, 0) == "tb.revealed"


@pytest.mark.rule("R3")
def test_in_hotseat_nobody_takes_back_or_sees_another_humans_decision():
    """Issue 40: with two humans at one screen nothing is taken back, by either of them, at any
    moment of a whole game; and each human's view never shows the other's plan before the reveal."""
    seats = [SeatSpec("Ann", "human", colour="red"), SeatSpec("Bob", "human", colour="blue"),
             SeatSpec("Bot", "ai", "greedy", "green")]
    s = Session.new(seats, 8, worker=InlineWorker(), ai_delay=0)
    checked = 0
    for _ in range(400):
        run_ai(s)
        if s.is_over:
            break
        seat = human_seat(s)
        other = 1 - seat
        if s.state.phase == "plan":
            hidden = s.view_for(seat).seats[other].plan
            assert hidden is None or (hidden.region, hidden.action) == ("hidden", "hidden"), "a plan stays secret"
        before = snapshot(s)
        for who in (0, 1):
            for by in (0, 1):
                assert s.authority.takeback_problem(who, by=by) == "tb.hot_seat"
                assert s.authority.take_back(who, by=by) == "tb.hot_seat"
            assert takeback.problem(s, who) == "tb.hot_seat"
        assert snapshot(s) == before and s.assists["takebacks"] == 0
        checked += 1
        assert s.submit(my_choice(s, seat)) is None
    assert s.is_over and checked > 20


def test_refused_when_the_game_is_over_and_for_ai_seats():
    s = solo(2, bots=("greedy", "greedy"))
    play(s, take_backs=False)
    assert takeback.problem(s, 0) == "tb.over"
    assert takeback.problem(s, 1) == "tb.over"
    t = solo(2, bots=("greedy", "greedy"))
    assert takeback.problem(t, 1) == "tb.nothing"
    assert takeback.problem(t, 0) == "tb.nothing"


def test_a_donation_can_be_taken_back_within_its_round():
    s = solo(11)
    for _ in range(40):
        run_ai(s)
        seat = human_seat(s)
        if s.state.phase == "place" and s.state.turn < len(s.state.order) - 1:
            before = snapshot(s)
            assert s.submit(Donate(seat)) is None
            one_ai_action(s)
            if s.state.round == before[0].round and not s.is_over:
                assert takeback.take_back(s, seat) is None
                assert snapshot(s) == before
                return
            continue
        assert s.submit(my_choice(s, seat)) is None
    raise AssertionError("no donation could be tried")


def test_rewind_keeps_the_log_and_version_moving():
    s = solo(13)
    run_ai(s)
    v = s.version
    assert s.submit(my_choice(s, 0)) is None
    seen = []
    s.on_change = lambda sess: seen.append(sess.version)
    i = takeback.last_decision(s, 0)
    s.rewind(i)
    assert s.version > v and seen == [s.version]
    assert isinstance(s.record.actions[-1], (Plan, Place)) or len(s.record.actions) == i

