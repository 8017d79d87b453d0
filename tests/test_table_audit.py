"""The table's own gaps (issue 38, after the move into one authority): what an observer is told of
the deal, a hand-over that screens must see, seats fixed once the game has begun, a take-back the
store could not keep, and the desktop's autosave policy. Each test fails when its behaviour is
broken (the ``E-table`` mutants of tools/mutate.py)."""
from __future__ import annotations

import random

import pytest

from gonzaga.rules import GameConfig, GameRecord, Setup, legal_plans, load_content
from gonzaga.table.core import Table
from gonzaga.table.seats import SeatSpec
from gonzaga.table.store import StoreFailed
from gonzaga.table.session import Session

from test_table import Failing  # a store that keeps every change until told to fail

CONTENT = load_content()
pytestmark = pytest.mark.rule("E-table")


def new_table(kinds=("human", "human"), seed=3, start=True, **kw) -> Table:
    colours = ("red", "blue", "green", "yellow")[:len(kinds)]
    seats = [SeatSpec(f"P{i}", k, "greedy", c) for i, (k, c) in enumerate(zip(kinds, colours))]
    t = Table(seats, GameRecord(GameConfig(seats=len(kinds), colours=colours), seed), content=CONTENT, **kw)
    if start:
        t.start(random.Random(seed))
    return t


def first_plan(t: Table, seat: int):
    return next(p for p in legal_plans(t.state, seat) if not p.king)


def test_an_observer_is_told_the_deal_without_the_decks_and_objectives():
    t = new_table(start=False)
    told = {}
    for seat in (0, 1, None):
        t.observe(lambda v, a, table, seat=seat: told.setdefault(seat, a), seat)
    setup = t.start(random.Random(3))
    assert setup.decks and setup.objectives  # the deal itself holds them...
    for seat in (0, 1, None):  # ...no observer is told them (each seat's own is in its view)
        a = told[seat]
        assert isinstance(a, Setup) and a.decks == () and a.objectives == ()
        assert a.scenario == setup.scenario


def test_a_hand_over_moves_the_version_on_and_tells_the_observers():
    t = new_table(("human", "human", "human"))
    seen = []
    t.observe(lambda v, a, table: seen.append((table.version, a)), None)
    v = t.version
    assert t.hand_to_ai(2, "greedy", by=0) is not None  # its player is at the table: not theirs to take
    t.mark_away(2, True)  # the player left (and the table's grace is 0 s)
    assert t.hand_to_ai(2, "greedy", by=0) is None
    assert t.version == v + 1 and seen == [(v + 1, None)]  # screens redraw: the seat is the computer's now


def test_seats_change_freely_in_the_lobby_and_never_after_the_start():
    t = new_table(start=False)
    t.set_seat(1, SeatSpec("Bot", "ai", "greedy", "blue"))
    assert t.seats[1].kind == "ai"
    t.set_seat(1, SeatSpec("Bea", "human", "greedy", "blue"))
    t.start(random.Random(3))
    with pytest.raises(ValueError):
        t.set_seat(1, SeatSpec("Bot", "ai", "greedy", "blue"))
    assert t.seats[1].name == "Bea" and t.seats[1].kind == "human"


def test_a_take_back_the_store_cannot_keep_changes_nothing_and_is_not_counted():
    store = Failing()
    t = new_table(("human", "ai"), store=store)
    assert t.act(0, first_plan(t, 0)) is None
    before = (t.state, list(t.record.actions), t.version, dict(t.assists))
    store.fail = True
    with pytest.raises(StoreFailed):
        t.take_back(0)
    assert (t.state, list(t.record.actions), t.version, dict(t.assists)) == before
    assert t.assists["takebacks"] == 0
    store.fail = False
    assert t.take_back(0) is None and t.assists["takebacks"] == 1 and t.n == 1


@pytest.mark.parametrize("error", [OSError, ValueError, RuntimeError])
def test_a_failing_desktop_autosave_never_stops_the_game(error):
    """The desktop's policy (store.CallbackStore): whatever the autosave raises, the move is
    made (the app puts up its banner); a server's store refuses the move instead."""
    def autosave(change):
        raise error("the autosave broke")
    s = Session.new([SeatSpec("Ann", "human", colour="red"), SeatSpec("Bob", "human", colour="blue")], 8,
                    on_change=autosave)
    p = first_plan(s.authority, 0)
    assert s.submit(p) is None
    assert s.record.actions[-1] == p and s.version == 2
