"""The authority's gaps an audit found (issue 38): take-backs of what another human has seen,
the session's ``version`` after a rewind, and hints that outlive the position they were asked
at. Each test here fails when its behaviour is broken (see the mutants in tools/mutate.py)."""
from __future__ import annotations

import pytest

from gonzaga.table import hints, takeback
from gonzaga.rules import Donate, Place, Plan, Wedding, legal_actions, legal_plans, view
from gonzaga.table.session import InlineWorker, SeatSpec, Session


def hotseat(seed=8):
    return Session.new([SeatSpec("Ann", "human", colour="red"), SeatSpec("Bob", "human", colour="blue")], seed)


def solo(seed=7):
    return Session.new([SeatSpec("Me", "human", colour="red"), SeatSpec("Bot", "ai", "greedy", "blue")], seed,
                       worker=InlineWorker(), ai_delay=0)


def snapshot(s):
    return (s.state, [a.to_text() for a in s.record.actions], s.log_lines(), dict(s.assists))


def first_to_place(s, kind: str):
    """Hot-seat: seat 0 plans an Alliance with the King's Privilege (so it places first, R4) and
    seat 1 plans Cities; returns seat 0's decision of ``kind`` (donate, wedding, place)."""
    plan = next(p for p in legal_plans(s.state, 0) if p.king and p.action == "C" and p.region != "inactive")
    assert s.submit(plan) is None
    assert s.submit(next(p for p in legal_plans(s.state, 1) if not p.king and p.action == "B")) is None
    assert s.state.phase == "place" and s.state.to_act() == (0,)
    acts = legal_actions(s.state, 0)
    if kind == "donate":
        return Donate(0)
    cls = Wedding if kind == "wedding" else Place
    return next(a for a in acts if isinstance(a, cls))


# ---------------------------------------------------------------- take-backs

@pytest.mark.rule("E-takeback")
@pytest.mark.parametrize("kind", ["donate", "wedding", "place"])
def test_hotseat_a_decision_on_the_shared_screen_cannot_be_taken_back(kind):
    """Gap 1: in hot-seat another human has seen a donation or a wedding as much as a placement:
    all three are refused, and nothing changes (not even the take-back count). Refused whoever
    asks: Bob, now at the screen (never another human's decision), and Ann herself at the table
    (the shared screen has shown it to Bob)."""
    for seed in (8, 9, 10, 11):
        s = hotseat(seed)
        try:
            a = first_to_place(s, kind)
        except StopIteration:  # no wedding spot this deal: another one
            continue
        assert s.submit(a) is None
        assert s.state.phase == "place" and s.state.to_act() == (1,)  # Bob has not acted since
        before = snapshot(s)
        assert takeback.candidate(s) == 0
        assert takeback.problem(s, 0) == "tb.hot_seat"
        assert takeback.take_back(s, 0) == "tb.hot_seat"
        assert s.authority.takeback_problem(0, by=0) == "tb.hot_seat"  # Ann herself neither
        assert snapshot(s) == before
        return
    raise AssertionError("no deal offered the decision")


@pytest.mark.rule("E-takeback")
@pytest.mark.parametrize("kind", ["donate", "wedding"])
def test_solo_the_same_decisions_can_be_taken_back(kind):
    """The control: with one human, the same decisions are taken back to the exact position."""
    for seed in (8, 9, 10, 11):
        s = Session.new([SeatSpec("Ann", "human", colour="red"), SeatSpec("Bot", "ai", "greedy", "blue")], seed,
                        worker=None)
        plan = next(p for p in legal_plans(s.state, 0) if p.king and p.action == "C" and p.region != "inactive")
        assert s.submit(plan) is None
        s._apply(next(p for p in legal_plans(s.state, 1) if not p.king and p.action == "B"))
        if kind == "wedding" and not any(isinstance(x, Wedding) for x in legal_actions(s.state, 0)):
            continue
        a = Donate(0) if kind == "donate" else next(x for x in legal_actions(s.state, 0) if isinstance(x, Wedding))
        before = snapshot(s)[:3]
        assert s.submit(a) is None
        assert takeback.problem(s, 0) is None
        assert takeback.take_back(s, 0) is None
        assert snapshot(s)[:3] == before and s.assists["takebacks"] == 1
        return
    raise AssertionError("no deal offered the decision")


@pytest.mark.rule("E-takeback")
def test_a_take_back_moves_the_version_on():
    """Gap 2: screens redraw when ``version`` changes; a take-back must change it, upwards,
    past every version seen before it (never back to an earlier number)."""
    s = solo()
    seen = []
    s.on_change = lambda sess: seen.append(sess.version)
    plan = next(p for p in legal_plans(s.state, 0) if not p.king)
    assert s.submit(plan) is None
    before = s.version
    assert takeback.take_back(s, 0) is None
    assert s.version > before
    assert seen[-1] == s.version and len(seen) == 2  # the submit, then the take-back: one notice each
    assert s.submit(plan) is None
    assert s.version > before + 1


@pytest.mark.rule("E-takeback")
def test_the_candidate_is_the_human_who_decided_last_not_an_ai():
    s = solo(5)
    plan = next(p for p in legal_plans(s.state, 0) if not p.king)
    assert s.submit(plan) is None
    for _ in range(20):  # the AI plans after the human: the plans are revealed
        s.tick()
        if s.state.phase == "place":
            break
    assert s.record.actions[-1].seat == 1
    assert takeback.candidate(s) == 0
    assert takeback.problem(s, 1) == "tb.nothing"  # an AI seat's decision is never taken back


@pytest.mark.rule("E-takeback")
@pytest.mark.parametrize("between", [False, True])
def test_a_plan_followed_by_another_humans_plan_is_not_taken_back(between):
    """The other human's decision after the plan counts wherever it is in the record: right
    after it, or after an AI seat's. Asked by Ann herself at the table (online, at her own
    screen); before the reveal, so only Bob's plan refuses it."""
    seats = [SeatSpec("Ann", "human", colour="red"), SeatSpec("Bot", "ai", "greedy", "green"),
             SeatSpec("Bob", "human", colour="blue"), SeatSpec("Cy", "ai", "greedy", "yellow")]
    s = Session.new(seats, 6)
    assert s.submit(next(p for p in legal_plans(s.state, 0) if not p.king)) is None
    s._apply(next(p for p in legal_plans(s.state, 1) if not p.king))  # the AI seat, then Bob
    assert takeback.problem(s, 0) == "tb.hot_seat"  # several humans: no take-backs at all (issue 40)
    assert s.submit(next(p for p in legal_plans(s.state, 2) if not p.king)) is None
    assert takeback.problem(s, 0) in ("tb.hot_seat", "tb.revealed")
    assert takeback.take_back(s, 0) is not None


@pytest.mark.rule("E-takeback")
def test_in_hotseat_the_human_at_the_screen_never_takes_back_another_humans_plan():
    """Ann planned, the screen has passed to Bob: Bob's "Take back" does not undo Ann's plan."""
    s = hotseat()
    assert s.submit(next(p for p in legal_plans(s.state, 0) if not p.king)) is None
    assert s.at_screen() == 1 and takeback.candidate(s) == 0
    before = snapshot(s)
    assert takeback.take_back(s, 0) is not None and snapshot(s) == before
    assert s.authority.take_back(0, by=1) is not None and snapshot(s) == before
    assert s.authority.takeback_problem(0, by=0) == "tb.hot_seat"  # with several humans, nobody (issue 40)


# ---------------------------------------------------------------- the session

@pytest.mark.rule("E-session")
def test_every_applied_action_bumps_the_version_by_one():
    s = hotseat()
    v = s.version
    assert s.submit(next(p for p in legal_plans(s.state, 0) if not p.king)) is None
    assert s.version == v + 1
    assert s.submit(Plan(1, "nowhere", "A")) is not None
    assert s.version == v + 1  # a refused action changes nothing


@pytest.mark.rule("E-session")
def test_the_setup_is_never_accepted_from_a_player():
    from gonzaga.rules import Setup
    s = hotseat()
    setup = s.record.actions[0]
    assert isinstance(setup, Setup)
    why = s.submit(setup)
    assert why is not None and why.rule == "S2"


@pytest.mark.rule("E-session")
def test_ai_seats_never_decide_for_a_human():
    s = solo(5)
    for _ in range(10):
        s.tick()
    assert s.state.phase == "plan" and s.humans_to_plan() == [0] and s.waiting_for_ai() == []
    assert [a.seat for a in s.record.actions[1:]] == [1]


@pytest.mark.rule("E-session", "E-view")
def test_the_score_table_shows_no_objective_before_the_end():
    s = hotseat()
    assert all(r["objective_id"] is None and r["objective_held"] is None for r in s.score_rows())


@pytest.mark.rule("E-session")
def test_a_rewind_drops_the_ai_action_being_shown():
    """An AI placement on show when the human takes back must not be applied afterwards."""
    for seed in range(3, 13):
        s = Session.new([SeatSpec("Me", "human", colour="red"), SeatSpec("Bot", "ai", "greedy", "blue")], seed,
                        worker=InlineWorker(), ai_delay=5.0, clock=lambda: 0.0)
        plan = next(p for p in legal_plans(s.state, 0) if not p.king and p.action == "C")
        assert s.submit(plan) is None
        for _ in range(4):
            s.tick(0.0)
        if s.ai_showing is None:
            continue  # the AI does not place first in this deal
        n = len(s.record.actions)
        s.rewind(n)
        assert s.ai_showing is None
        for t in range(10):  # asked again, shown again, applied once
            s.tick(1000.0 + 10 * t)
        assert len(s.record.actions) == n + 1 and s.record.actions[-1].seat == 1
        return
    raise AssertionError("the AI never placed first")


# ---------------------------------------------------------------- hints

class ReadyWorker:
    """A decision worker that answers at once with the first legal action of the view it got."""

    def __init__(self, fail=False):
        self.asked = []
        self.fail = fail

    def request(self, level, seed, v, seat):
        self.asked.append((level, seed, v, seat))
        return len(self.asked)

    def result(self, ticket):
        if self.fail:
            raise RuntimeError("the search broke")
        _, _, v, seat = self.asked[ticket - 1]
        acts = legal_actions(v, seat)
        return next((a for a in acts if isinstance(a, Plan) and not a.king), acts[0])

    def cancel_all(self):
        pass

    def close(self):
        pass


@pytest.mark.rule("E-hint")
def test_a_hint_for_an_earlier_position_of_the_same_session_is_dropped():
    """Gap 3: the answer arrives after the same session moved on: it is never shown. Another
    seat's hidden plan is no move for Ann's decision (issue 45: dropping her hint then made the
    Enter meant for it confirm her hand instead); her own plan is, and a placement too."""
    s = hotseat()
    svc = hints.HintService(worker=ReadyWorker(), level="greedy")
    svc.request(s, 0)
    assert s.submit(next(p for p in legal_plans(s.state, 1) if not p.king)) is None  # Bob plans meanwhile
    h = svc.poll(s)
    assert h is not None and svc.current(s) is h  # Ann's decision is the same: her hint stands
    assert s.submit(next(p for p in legal_plans(s.state, 0) if not p.king)) is None  # Ann plans
    assert svc.poll(s) is None
    assert svc.current(s) is None and svc.hint is None


@pytest.mark.rule("E-hint")
def test_a_hint_shown_is_withdrawn_when_the_same_session_moves_on():
    s = hotseat()
    svc = hints.HintService(worker=ReadyWorker(), level="greedy")
    svc.request(s, 0)
    h = svc.poll(s)
    assert h is not None and svc.current(s) is h and h.seat == 0
    assert h.position == len(s.record.actions)
    assert s.submit(h.action) is None
    assert svc.current(s) is None
    assert svc.poll(s) is None and svc.hint is None


@pytest.mark.rule("E-hint")
@pytest.mark.parametrize("shown", [True, False])
def test_a_hint_withdrawn_after_a_take_back(shown):
    """Ann's hint (shown, or still being worked out) belongs to the position it was asked in:
    once Ann has planned and taken her plan back (solo), the session has moved on twice and the
    hint is never shown, although the position looks the same again."""
    s = solo()
    svc = hints.HintService(worker=ReadyWorker(), level="greedy")
    svc.request(s, 0)
    if shown:
        h = svc.poll(s)
        assert h is not None and svc.current(s) is h and h.seat == 0
    assert s.submit(next(p for p in legal_plans(s.state, 0) if not p.king)) is None
    assert s.authority.take_back(0, by=0) is None
    assert s.state.seats[0].plan is None  # back at the same position
    assert svc.current(s) is None
    assert svc.poll(s) is None and svc.current(s) is None and svc.hint is None


@pytest.mark.rule("E-hint")
def test_no_hint_for_an_ai_seat():
    s = solo()
    svc = hints.HintService(worker=ReadyWorker(), level="greedy")
    svc.request(s, 1)
    assert svc.failed and not svc.busy and svc.poll(s) is None
    assert svc.request(s, 0) is None and svc.busy and svc.poll(s) is not None


@pytest.mark.rule("E-hint", "E-view")
def test_a_hint_is_asked_from_the_seats_view_with_the_strongest_level():
    s = hotseat()
    w = ReadyWorker()
    svc = hints.HintService(worker=w)
    svc.request(s, 1)
    level, seed, v, seat = w.asked[0]
    assert v == view(s.state, 1) and seat == 1
    assert level == hints.strongest_level()
    assert seed == hints.hint_seed(s.record.seed, 1, len(s.record.actions))
    assert hints.hint_seed(5, 1, 2) != hints.hint_seed(5, 1, 3) != hints.hint_seed(5, 0, 3)


@pytest.mark.rule("E-hint")
def test_a_failing_search_says_so_and_shows_nothing():
    s = hotseat()
    svc = hints.HintService(worker=ReadyWorker(fail=True), level="greedy")
    svc.request(s, 0)
    assert svc.poll(s) is None
    assert svc.failed and not svc.busy and svc.current(s) is None


@pytest.mark.rule("E-hint", "X3", "W5")
def test_a_donation_hint_counts_three_points_and_a_wedding_hint_shows_its_rings():
    s = hotseat(9)
    for seed in (8, 9, 10, 11):
        s = hotseat(seed)
        try:
            wed = first_to_place(s, "wedding")
        except StopIteration:
            continue
        v = view(s.state, 0)
        h = hints.explain(v, 0, Donate(0))
        assert h.points == 3 and h.what
        h = hints.explain(v, 0, wed)
        assert h.cells == tuple(wed.rings) and h.what
        return
    raise AssertionError("no deal offered a wedding")
