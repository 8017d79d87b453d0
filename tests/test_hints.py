"""Hints (issue 11): the strongest level's decision for the seat that decides, from its view
only (the AI levels' no-peek test), worked out off the caller's thread and cancellable, with
its points and a reason in words."""
from __future__ import annotations

import random
import threading
import time
from types import SimpleNamespace

import pytest

from gonzaga.table import hints
from gonzaga.table.hints import hint_seed
from gonzaga.ai.worker import DecisionWorker
from gonzaga.rules import Place, Plan, check, legal_placements, view

pytestmark = pytest.mark.rule("E-hint")


def fake_session(st, seed=5, n=7, version=1, token=1):
    """What the hint service reads of a seat's face; ``hint_view`` as the table gives it (its own view)."""
    return SimpleNamespace(state=st, token=token, position=n, hint_key=lambda seat: version,
                           hint_view=lambda seat: view(st, seat), hint_seed=lambda seat: hint_seed(seed, seat, n))


def wait(svc, session, timeout=60.0):
    t0 = time.perf_counter()
    while True:
        h = svc.poll(session)
        if h is not None:
            return h
        assert time.perf_counter() - t0 < timeout, "no hint came back"
        time.sleep(0.005)


def budget_level():
    """The strongest level with a pinned iteration budget (reproducible)."""
    from gonzaga.ai import find_level
    level = hints.strongest_level()
    return f"{level}@6" if find_level(level).budgeted else level


def test_the_strongest_registered_level_is_asked():
    from gonzaga.ai import bot_names
    level = hints.strongest_level()
    assert level in bot_names()
    assert level == "expert"  # the strongest level of the roster
    if "expert" in bot_names():
        assert level == "expert"


@pytest.mark.parametrize("seats", [2, 4])
def test_E_a_hint_never_reads_beyond_the_seats_view(seats):
    """Scrambling what the seat may not know (others' objectives and plans, every deck order)
    changes nothing: the same hint, the same reason."""
    from test_ai import _positions, _scramble
    rng = random.Random(7)
    level = budget_level()
    positions = _positions(seats, seed=11 + seats, every=3)
    phases = set()
    for k, (st, seat) in enumerate(positions[:6]):
        alt = _scramble(st, seat, rng)
        got = []
        for state in (st, alt):
            svc = hints.HintService(worker=DecisionWorker(use_processes=False), level=level)
            try:
                sess = fake_session(state, seed=k)
                svc.request(sess, seat)
                got.append(wait(svc, sess))
            finally:
                svc.close()
        a, b = got
        assert (a.action, a.points, a.reason, a.cells) == (b.action, b.points, b.reason, b.cells), (st.phase, a, b)
        assert check(st, a.action) is None
        phases.add(st.phase)
    assert phases == {"plan", "place"}


def test_the_worker_is_only_handed_the_view():
    from test_ai import _start

    class Spy:
        def __init__(self):
            self.views = []

        def request(self, name, seed, v, seat):
            self.views.append((v, seat))
            return 1

        def result(self, ticket):
            return None

        def cancel_all(self):
            pass

        def close(self):
            pass

    st = _start(3, seed=4)
    spy = Spy()
    svc = hints.HintService(worker=spy, level="medium")
    svc.request(fake_session(st), 1)
    v, seat = spy.views[0]
    assert seat == 1 and v.viewer == 1
    assert v.seats[0].objective is None and v.seats[2].objective is None
    assert all(s.deck_hidden for s in v.seats)
    assert v == view(st, 1)


def test_a_hint_is_worked_out_off_the_callers_thread_and_can_be_cancelled(monkeypatch):
    """The caller (the frame loop) never waits: checked with a level that blocks."""
    from gonzaga.ai import roster
    from gonzaga.ai.base import Bot
    from gonzaga.rules import legal_actions
    from test_ai import _start
    go, answered = threading.Event(), threading.Event()

    class Blocking(Bot):
        name = "test-hint-blocking"

        def choose(self, v, seat):
            go.wait(60)
            answered.set()
            return legal_actions(v, seat)[0]

    monkeypatch.setattr(roster, "LEVELS", roster.LEVELS + (roster.Level("test-hint-blocking", Blocking),))
    st = _start(2, seed=3)
    svc = hints.HintService(worker=DecisionWorker(use_processes=False), level="test-hint-blocking")
    try:
        sess = fake_session(st)
        t0 = time.perf_counter()
        svc.request(sess, 0)
        assert time.perf_counter() - t0 < 0.1, "request returns at once"
        assert svc.busy and svc.poll(sess) is None
        svc.cancel()
        assert not svc.busy and svc.poll(sess) is None
        go.set()
        assert answered.wait(10)  # the cancelled question's answer comes back...
        for _ in range(3):
            assert svc.poll(sess) is None, "a cancelled hint is never shown"  # ...and is never shown
        svc.level = "greedy"
        svc.request(sess, 0)
        h = wait(svc, sess)
        assert isinstance(h.action, Plan) and h.cards[:2] == (h.action.region, h.action.action)
        # the game moved on (another version): the hint is dropped
        assert svc.poll(fake_session(st, version=2)) is None and svc.current(sess) is None
    finally:
        go.set()
        svc.close()


def test_reasons_in_words_name_the_sites_points_and_seas():
    from gonzaga.rules import GameConfig, Setup, apply, new_game
    from gonzaga.words import i18n
    st = new_game(GameConfig(seats=2, colours=("red", "blue"), scenario="Shakespeare"))
    deck = (60, 10, 20, 30, 40, 50, 70, 80, 90, 100, 110, 120)
    st = apply(st, Setup("Shakespeare", 0, (deck, deck), ("wool-art", "wine-bank")))
    st = apply(st, Plan(1, "germania", "A"))
    h = hints.explain(view(st, 0), 0, Plan(0, "italia", "B"))
    assert h.what == "Italia + Cities" and h.points == 6 and "Mantova" in h.reason and "Venezia" in h.reason
    st = apply(st, Plan(0, "italia", "B"))
    place = Place(0, 60, (7, 19), 2)
    if st.to_act() != (0,):  # the rival places first (Harbors)
        st = apply(st, legal_placements(st, 1)[0])
    h = hints.explain(view(st, 0), 0, place)
    assert h.points == 6 and "Mantova" in h.reason and "+6" in h.reason
    assert set(h.cells) == set(st.content.fiefs[60].footprint((7, 19), 2)[0])
    i18n.set_language("it")
    try:
        h = hints.explain(view(st, 0), 0, place)
        assert "copre Venezia e Mantova" in h.reason or "copre Mantova e Venezia" in h.reason
    finally:
        i18n.set_language("en")
