"""The session: the one place the state changes (no pygame here)."""
from __future__ import annotations

import pytest

from gonzaga.rules import Donate, GameRecord, Plan, legal_actions, legal_placements, replay, view
from gonzaga.rules.view import HIDDEN
from gonzaga.table.session import InlineWorker, SeatSpec, Session


def two_humans(seed=3):
    return Session.new([SeatSpec("Ann", "human", colour="red"), SeatSpec("Bob", "human", colour="blue")], seed)


def test_new_session_is_dealt_from_the_seed():
    """S2, S4, S5: the setup is a recorded chance action drawn from random.Random(seed)."""
    a, b = two_humans(11), two_humans(11)
    assert a.record.actions[0] == b.record.actions[0]
    assert a.state.phase == "plan" and a.state.round == 1
    assert "flourish" in a.log_lines()[0]


def test_submit_applies_legal_and_refuses_illegal_with_rule():
    s = two_humans()
    plan = legal_actions(s.state, 0)[0]
    bad = Plan(0, "nowhere", "A")
    why = s.submit(bad)
    assert why is not None and why.rule == "S3"
    assert s.submit(plan) is None
    assert s.record.actions[-1] == plan
    assert s.submit(plan) is not None  # R2: already planned


@pytest.mark.rule("R2", "E-view")
def test_plans_stay_secret_in_log_until_reveal():
    """R2/R3, spec E: the log says who planned, never what, before the reveal."""
    s = two_humans()
    p0 = next(p for p in legal_actions(s.state, 0) if not p.king)
    s.submit(p0)
    line = s.log_lines()[-1]
    assert "Ann has planned" in line
    region = s.state.content.region_names.get(p0.region, "Inactive")
    assert region not in line
    p1 = next(p for p in legal_actions(s.state, 1) if not p.king)
    s.submit(p1)
    assert any("plans revealed" in ln for ln in s.log_lines())
    assert any("turn order" in ln for ln in s.log_lines())


@pytest.mark.rule("E-session", "R5")
def test_human_cannot_act_for_ai_seat():
    s = Session.new([SeatSpec("Ann", "human", colour="red"), SeatSpec("Bot", "ai", "greedy", "blue")], 5,
                    worker=InlineWorker(), ai_delay=0)
    why = s.submit(legal_actions(s.state, 1)[0])
    assert why is not None and why.rule == "R5"


def test_ai_seats_play_whole_game_and_record_replays():
    seats = [SeatSpec(n, "ai", "greedy", c) for n, c in (("A", "red"), ("B", "yellow"), ("C", "green"))]
    s = Session.new(seats, 9, worker=InlineWorker(), ai_delay=0)
    for _ in range(2000):
        if s.is_over:
            break
        s.tick()
    assert s.is_over
    assert replay(GameRecord(s.record.config, s.record.seed, list(s.record.actions))).scores() == s.state.scores()
    assert "Game over" in s.log_lines()[-1]
    rows = s.score_rows()
    assert sum(r["winner"] for r in rows) >= 1
    assert all(r["total"] == r["sites"] + r["leagues"] + r["donations"] + r["gonzaga"] + r["objective"] for r in rows)


def test_ai_placement_is_shown_before_it_is_applied():
    """AI placements wait ai_delay seconds (the screen animates them); plans do not."""
    t = [0.0]
    s = Session.new([SeatSpec("A", "ai", "greedy", "red"), SeatSpec("B", "ai", "greedy", "blue")], 4,
                    worker=InlineWorker(), ai_delay=1.0, clock=lambda: t[0])
    for _ in range(10):
        s.tick()
    assert s.state.phase == "place"
    n = len(s.record.actions)
    s.tick()
    s.tick()
    assert s.ai_showing is not None and len(s.record.actions) == n
    t[0] = 1.5
    s.tick()
    assert len(s.record.actions) == n + 1


@pytest.mark.rule("E-save")
def test_autosave_callback_after_every_action():
    calls = []
    s = Session.new([SeatSpec("Ann", "human", colour="red"), SeatSpec("Bob", "human", colour="blue")], 2,
                    on_change=lambda sess: calls.append(len(sess.record.actions)))
    s.submit(legal_actions(s.state, 0)[0])
    s.submit(legal_actions(s.state, 1)[0])
    assert calls == [1, 2, 3]


def test_log_of_a_placement_names_points_and_region():
    s = two_humans(21)
    s.submit(next(p for p in legal_actions(s.state, 0) if not p.king and p.action == "B"))
    s.submit(next(p for p in legal_actions(s.state, 1) if not p.king and p.action == "B"))
    seat = s.state.to_act()[0]
    places = legal_placements(s.state, seat)
    act = places[0] if places else Donate(seat)
    assert s.submit(act) is None
    line = s.log_lines()[-1]
    assert line.startswith("Round 1: ") and ("places fief" in line or "donates" in line)


def test_rebuilt_session_has_the_same_log():
    s = two_humans(8)
    s.submit(legal_actions(s.state, 0)[0])
    s.submit(legal_actions(s.state, 1)[0])
    again = Session(s.seats, s.record)
    assert again.log_lines() == s.log_lines()
    assert again.state.scores() == s.state.scores()


@pytest.mark.rule("E-save")
def test_a_session_rebuilt_from_a_record_does_not_call_on_change_per_replayed_action():
    s = two_humans(8)
    for _ in range(4):
        seat = s.state.to_act()[0]
        s.submit(legal_actions(s.state, seat)[0])
    calls = []
    again = Session(s.seats, s.record, on_change=lambda sess: calls.append(len(sess.record.actions)))
    assert calls == [] and again.record.actions == s.record.actions
    seat = again.state.to_act()[0]
    again.submit(legal_actions(again.state, seat)[0])
    assert calls == [6]


class SpyWorker(InlineWorker):
    """An inline worker that checks what each AI request carries against the session's state."""

    def __init__(self):
        super().__init__()
        self.session = None
        self.requests = []
        self.hidden_plans = 0

    def request(self, bot_name, seed, v, seat):
        st = self.session.state
        self.requests.append((st.phase, seat))
        assert v.viewer == seat, "the request carries a seat's view, not the full state"
        assert v == view(st, seat)
        for i, s in enumerate(v.seats):
            assert s.deck_hidden and s.deck == tuple(sorted(s.deck))  # no deck order (S4)
            if i != seat:
                assert s.objective is None  # no other objective (S5)
                if st.phase == "plan" and st.seats[i].plan is not None:
                    assert s.plan.region == HIDDEN and s.plan.action == HIDDEN  # no plan before the reveal (R2)
                    self.hidden_plans += 1
        return super().request(bot_name, seed, v, seat)


@pytest.mark.rule("E-view", "S4", "S5", "R2")
def test_every_ai_request_carries_only_that_seats_view():
    """Spec E: a whole game of AI seats and a human; every request the session makes is checked."""
    worker = SpyWorker()
    seats = [SeatSpec("Ann", "human", colour="red"), SeatSpec("B", "ai", "random", "yellow"),
             SeatSpec("C", "ai", "greedy", "green")]
    s = Session.new(seats, 12, worker=worker, ai_delay=0)
    worker.session = s
    for _ in range(3000):
        if s.is_over:
            break
        if 0 in s.state.to_act():
            s.submit(legal_actions(s.state, 0)[-1])  # the human plans, or donates
        s.tick()
    assert s.is_over
    phases = {p for p, _ in worker.requests}
    assert phases == {"plan", "place"} and {seat for _, seat in worker.requests} == {1, 2}
    assert worker.hidden_plans > 0  # requests made while another seat's plan was secret
