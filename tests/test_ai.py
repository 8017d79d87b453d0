"""AI seats (issue 5): the decision worker, fairness (spec E), legality, strength smoke test."""
import random
import time

import pytest

from gonzaga.rules import GameConfig, apply, check, deal, new_game, view


def _start(seats=2, seed=1):
    st = new_game(GameConfig(seats=seats))
    return apply(st, deal(st, random.Random(seed)))


def _wait(worker, ticket, timeout=60.0):
    t0 = time.perf_counter()
    while True:
        a = worker.result(ticket)
        if a is not None:
            return a
        assert time.perf_counter() - t0 < timeout, "no decision came back"
        time.sleep(0.005)


@pytest.mark.parametrize("use_processes", [False, True])
def test_worker_returns_legal_decision_without_blocking(use_processes):
    """spec E: the AI decides from the view, off the caller's thread; the action is legal."""
    from gonzaga.ai.worker import DecisionWorker
    st = _start()
    w = DecisionWorker(use_processes=use_processes)
    try:
        t0 = time.perf_counter()
        tickets = {seat: w.request("greedy", 7 + seat, view(st, seat), seat) for seat in st.to_act()}
        assert time.perf_counter() - t0 < 0.25  # request returns at once
        for seat, t in tickets.items():
            a = _wait(w, t)
            assert a.seat == seat and check(st, a) is None
            st = apply(st, a)
        seat = st.to_act()[0]
        a = _wait(w, w.request("greedy", 7 + seat, view(st, seat), seat))
        assert check(st, a) is None
        w.cancel_all()
    finally:
        w.close()


def test_worker_reraises_bot_errors():
    from gonzaga.ai.worker import DecisionWorker
    st = _start()
    w = DecisionWorker(use_processes=False)
    try:
        t = w.request("no-such-bot", 1, view(st, 0), 0)
        with pytest.raises(KeyError):
            _wait(w, t)
    finally:
        w.close()
