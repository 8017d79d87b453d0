"""Issue 45: the public view (a shared screen, a spectator) and another seat's view hide a plan
made before the reveal whole: no region, no action card, no King; the planner's own view shows it."""
from __future__ import annotations

import random

import pytest

from gonzaga.rules import GameConfig, Plan, apply, deal, legal_plans, new_game, view
from gonzaga.rules.view import HIDDEN, public_view

pytestmark = pytest.mark.rule("E-view")


def test_a_plan_before_the_reveal_is_hidden_whole_from_everyone_but_its_seat():
    st = new_game(GameConfig(seats=3))
    st = apply(st, deal(st, random.Random(3)))
    plan = next(p for p in legal_plans(view(st, 1), 1) if p.king)
    st = apply(st, plan)
    assert st.phase == "plan"
    hidden = Plan(1, HIDDEN, HIDDEN, False)
    assert public_view(st).seats[1].plan == hidden
    assert view(st, 0).seats[1].plan == hidden and view(st, 2).seats[1].plan == hidden
    assert view(st, 1).seats[1].plan == plan
    assert public_view(st).seats[0].plan is None  # a seat that has not planned shows no plan at all
