"""Secrets kept by construction (issue 38, spec E): the game screen draws only from the view of
the seat it shows (its face: ``table/seatview.py``, which asks ``session.view_for``). In a hot-seat game, while one human plans, nothing the
screen reads holds the other human's objective or plan, an AI's objective, or any deck's order."""
from __future__ import annotations

import sys
from pathlib import Path

import pygame
import pytest

from gonzaga.rules import Plan, legal_actions
from gonzaga.rules.view import HIDDEN, view
from gonzaga.table.seatview import GameFace
from gonzaga.table.session import SeatSpec, Session

from test_scenes import click, game_scene, key, pass_curtain, post


class SessionSpy:
    """The session as the game screen sees it: every view it asks for is kept; a read of the full
    ``state`` by the screens' code (scenes, render, ui) is noted (the authority's own modules, such
    as take-backs and hints, may read it: they decide, they do not draw)."""

    def __init__(self, real):
        self.__dict__["_real"] = real
        self.__dict__["views"] = []
        self.__dict__["full_reads"] = []  # the screen's functions that read it

    def view_for(self, seat):
        v = self._real.view_for(seat)
        self.views.append(v)
        return v

    def __getattr__(self, name):
        if name == "state" and _screen_code(sys._getframe(1).f_code.co_filename):
            self.__dict__["full_reads"].append(sys._getframe(1).f_code.co_name)
        return getattr(self._real, name)

    def __setattr__(self, name, value):
        setattr(self._real, name, value)


def _screen_code(filename: str) -> bool:
    parts = Path(filename).parts
    return "gonzaga" in parts and parts[parts.index("gonzaga") + 1] in ("scenes", "render", "ui")


def _secret_free(st, me: int) -> list[str]:
    """What ``st`` shows that seat ``me`` may not know."""
    out = []
    for i, s in enumerate(st.seats):
        if not s.deck_hidden:
            out.append(f"the order of seat {i}'s deck")
        if i == me:
            continue
        if s.objective is not None:
            out.append(f"seat {i}'s objective")
        if s.plan is not None and s.plan.region != HIDDEN:
            out.append(f"seat {i}'s plan")
    return out


@pytest.mark.rule("S5", "R2")
def test_while_one_human_plans_the_screen_holds_no_other_secret(make_app):
    app = make_app((1600, 1000))
    app.start_session([SeatSpec("Ann", "human", colour="red"), SeatSpec("Bob", "human", colour="blue"),
                       SeatSpec("Cy", "ai", "greedy", "green")], 12)
    s = app.session
    s.submit(next(a for a in legal_actions(s.state, 1) if isinstance(a, Plan)))  # Bob planned first
    app.run_frames(2)
    g = game_scene(app)
    pass_curtain(app)  # Ann sits down
    assert g.screen_mode() == "plan" and g.private_seat == 0
    assert s.state.seats[1].plan is not None and s.state.seats[1].objective is not None  # there is a secret

    spy = SessionSpy(s)
    g.face = GameFace(spy)
    g._view_cache = None  # (keyed on the game, not on the object: the spy is the same game)
    seen = []
    real_draw = g.draw

    def draw(surf):  # every state the screen holds while it draws a frame
        seen.append(g.state)
        real_draw(surf)
        seen.append(g.state)
    g.draw = draw
    b, p = g.board_rect, g.panel_rect
    for x in range(b.x + 40, b.right, max(60, b.w // 12)):  # the pointer over the map: tips
        for y in range(b.y + 40, b.bottom, max(60, b.h // 8)):
            post(pygame.MOUSEMOTION, pos=(x, y), rel=(0, 0), buttons=(0, 0, 0))
            app.run_frames(1)
    for y in range(p.y + 20, p.bottom, 80):  # the seats panel
        post(pygame.MOUSEMOTION, pos=(p.centerx, y), rel=(0, 0), buttons=(0, 0, 0))
        app.run_frames(1)
    key(app, pygame.K_t)
    for w in [w for w in g.widgets.items if w.visible and w.rect.y >= g.bottom_rect.y][:4]:  # the hand's cards
        click(app, w.rect.center, frames=1)
        if app.stack.top is not g:
            break
    app.run_frames(2)
    g.face = GameFace(s)

    assert g.private_seat == 0 and s.state.phase == "plan"
    assert seen and spy.views
    assert spy.full_reads == [], "the game screen read the full state while a human planned"
    for st in seen + spy.views:
        assert _secret_free(st, 0) == []
    assert all(st.seats[0].objective == s.state.seats[0].objective for st in seen)  # Ann's own hand is there


@pytest.mark.rule("S5", "R2")
def test_public_view_hides_every_seat():
    s = Session.new([SeatSpec("Ann", "human", colour="red"), SeatSpec("Bob", "human", colour="blue"),
                     SeatSpec("Cy", "human", colour="green")], 5)
    for seat in (0, 2):
        s.submit(next(a for a in legal_actions(s.state, seat) if isinstance(a, Plan)))
    pub = s.view_for(None)
    assert [_secret_free(pub, i) for i in range(3)] == [[], [], []]
    assert all(x.objective is None for x in pub.seats)  # not even one seat's own
    assert [x.plan is not None for x in pub.seats] == [True, False, True]  # who has planned is public
    assert [sorted(x.deck) for x in pub.seats] == [sorted(x.deck) for x in s.state.seats]
    mine = s.view_for(0)
    assert mine.seats[0].objective == s.state.seats[0].objective and mine.seats[0].plan == s.state.seats[0].plan
    assert _secret_free(mine, 0) == [] and mine == view(s.state, 0)


@pytest.mark.rule("S5", "R2")
def test_a_hot_seat_placement_holds_no_objective_on_the_open_screen(make_app, monkeypatch):
    """A placement has no curtain: everyone at the computer sees the screen. What the screen
    draws then is the public view (no objective at all, not even the placing seat's); only the
    placement's own checks and a hint (whose words leave the objective out) read its seat's view."""
    from gonzaga.table import hints
    from gonzaga.words import i18n
    from test_hint_secrets import ScriptedHints, drawn, objective_words, to_own_placement, wait_hint
    app = make_app((1600, 1000))
    hints.service(app)._worker = ScriptedHints()
    g = to_own_placement(app, [SeatSpec("Ann", "human", colour="red"), SeatSpec("Bob", "human", colour="blue")])
    s = app.session
    me = g.place.seat
    assert g.curtain_needed() and g.screen_mode() == "place" and s.state.seats[me].objective is not None

    spy = SessionSpy(s)
    g.face = GameFace(spy)
    g._view_cache = None
    seen = []
    real_draw = g.draw

    def draw(surf):
        seen.append(g.state)
        real_draw(surf)
        seen.append(g.state)
    g.draw = draw
    b, p = g.board_rect, g.panel_rect
    for x in range(b.x + 40, b.right, max(60, b.w // 10)):  # tips over the map and the panel
        for y in range(b.y + 40, b.bottom, max(60, b.h // 6)):
            post(pygame.MOUSEMOTION, pos=(x, y), rel=(0, 0), buttons=(0, 0, 0))
            app.run_frames(1)
    for y in range(p.y + 20, p.bottom, 80):
        post(pygame.MOUSEMOTION, pos=(p.centerx, y), rel=(0, 0), buttons=(0, 0, 0))
        app.run_frames(1)
    key(app, pygame.K_t)
    key(app, pygame.K_h)  # a hint, on the open screen
    h = wait_hint(app, g)
    text = drawn(app, g, monkeypatch)
    g.draw = real_draw
    g.face = GameFace(s)

    assert g.screen_mode() == "place" and g.place.seat == me and h.headline in text
    assert seen and all(st.viewer is None for st in seen)
    for st in seen:  # (the plans are public since the reveal)
        assert st.phase == "place" and all(x.objective is None and x.deck_hidden for x in st.seats)
    for v in spy.views:  # the placing seat's own view, read by the placement and the hint only
        assert all(x.objective is None for i, x in enumerate(v.seats) if i != me)
        assert all(x.deck_hidden for x in v.seats)
    assert spy.full_reads == []
    assert objective_words() not in text
    obj = s.state.content.objective(s.state.seats[me].objective)
    assert i18n.t("plan.objective", west=i18n.t(f"symbol.{obj.western}"), east=i18n.t(f"symbol.{obj.eastern}")) \
        not in text
