"""Hints that explain themselves (issue 40, item 5): a hint says its points now and what else it
weighs; one that scores less than the best choice now says so and why it prefers its own; its
words never hide the hinted hexes; Esc and H hide it; Enter plays exactly the hinted move.
The keys go through the real event loop, headless."""
from __future__ import annotations

import pygame
import pytest

from gonzaga.table import hints
from gonzaga.ai.worker import DecisionWorker
from gonzaga.rules import GameConfig, Place, Plan, Setup, apply, legal_placements, new_game, view
from gonzaga.rules import scoring
from gonzaga.words import i18n
from scene_events import key
from test_assist import plan, solo, to_placement

pytestmark = pytest.mark.rule("E-hint")


@pytest.fixture
def app(make_app):
    a = make_app((1280, 720))
    svc = hints.service(a)
    svc._worker = DecisionWorker(use_processes=False)
    svc.level = "greedy"
    return a


def _placing_position():
    st = new_game(GameConfig(seats=2, colours=("red", "blue"), scenario="Shakespeare"))
    deck = (60, 10, 20, 30, 40, 50, 70, 80, 90, 100, 110, 120)
    st = apply(st, Setup("Shakespeare", 0, (deck, deck), ("wool-art", "wine-bank")))
    st = apply(st, Plan(1, "germania", "A"))
    st = apply(st, Plan(0, "italia", "B"))
    if st.to_act() != (0,):
        st = apply(st, legal_placements(st, 1)[0])
    return st


def _points(st, p):
    cells, _ = st.content.fiefs[p.fief].footprint(p.anchor, p.rotation)
    return scoring.immediate_points(st, 0, st.board.mask_of(cells))


def test_a_hint_below_the_best_points_now_says_so_and_why():
    st = _placing_position()
    v = view(st, 0)
    places = legal_placements(st, 0)
    best = max(_points(st, p) for p in places)
    low = min(places, key=lambda p: _points(st, p))
    h = hints.explain(v, 0, low)
    assert h.points < best and h.best_now == best
    assert f"+{best}" in h.prefer and "prefers" in h.prefer, h.prefer
    top = max(places, key=lambda p: _points(st, p))
    h = hints.explain(v, 0, top)
    assert h.points == h.best_now == best and h.prefer == ""
    assert h.reason and f"+{scoring.site_points(st, st.board.mask_of(h.cells))}" in h.reason


def test_a_plan_below_the_planning_tables_best_says_why():
    st = new_game(GameConfig(seats=2, colours=("red", "blue"), scenario="Shakespeare"))
    deck = (60, 10, 20, 30, 40, 50, 70, 80, 90, 100, 110, 120)
    st = apply(st, Setup("Shakespeare", 0, (deck, deck), ("wool-art", "wine-bank")))
    v = view(st, 0)
    from gonzaga.scenes.preview import plan_previews
    table = max(p.best or 0 for p in plan_previews(st, 0).values())
    plans = [Plan(0, r, a) for r in st.region_cards() for a in "ABC"]
    worst = min(plans, key=lambda p: hints.explain(v, 0, p).points)
    h = hints.explain(v, 0, worst)
    assert h.best_now >= table and h.points < table
    assert h.prefer and f"+{h.best_now}" in h.prefer


def test_the_reason_names_what_else_it_weighs():
    """Objective cities, the rival a fief borders (blocking) and the dominion it grows, on the
    placements of a game played by bots."""
    from gonzaga.ai.match import play_game
    from gonzaga.rules import replay
    res = play_game(["greedy", "greedy"], seed=8, config=GameConfig(seats=2))
    seen = {"objective": 0, "blocking": 0, "dominion": 0}
    for k in range(len(res.record.actions)):
        st = replay(res.record, upto=k)
        if st.phase != "place" or st.round < 3:
            continue
        seat = st.to_act()[0]
        v = view(st, seat)
        objective = set(st.content.objective_cities(st.seats[seat].objective))
        rival = 1 - seat
        for p in legal_placements(st, seat)[::7]:
            cells, _ = st.content.fiefs[p.fief].footprint(p.anchor, p.rotation)
            h = hints.explain(v, seat, p)
            mask = st.board.mask_of(cells)
            names = [st.content.sites[c].name for c in cells if c in objective]
            if names:
                seen["objective"] += 1
                assert i18n.t("hint.objective", cities=names[0]) in h.reason or names[0] in h.reason, h.reason
            near = st.board.neighbours_mask(mask)
            if any(q.seat == rival and q.mask & near for q in st.pieces):
                seen["blocking"] += 1
                assert i18n.colour_name(st.seats[rival].colour) in h.reason, h.reason
            if scoring.largest_group(apply(st, p), seat) > scoring.largest_group(st, seat):
                seen["dominion"] += 1
                assert "largest dominion" in h.reason, h.reason
        if all(seen.values()):
            break
    assert all(seen.values()), seen


def _wait_hint(app, g):
    for _ in range(3000):
        if g.assist.hint() is not None:
            return g.assist.hint()
        app.run_frames(1)
    raise AssertionError("no hint")


def test_esc_and_h_hide_a_shown_hint_without_opening_the_menu(app):
    g = solo(app)
    key(app, pygame.K_h)
    _wait_hint(app, g)
    key(app, pygame.K_ESCAPE)
    assert g.assist.hint() is None and app.stack.top is g
    key(app, pygame.K_h)
    _wait_hint(app, g)
    key(app, pygame.K_h)
    assert g.assist.hint() is None and app.stack.top is g
    key(app, pygame.K_ESCAPE, frames=2)  # with no hint shown, Esc opens the menu as before
    assert app.stack.top.name == "menu"


def test_enter_plays_exactly_the_hinted_plan_and_placement(app):
    g = solo(app)
    s = app.session
    key(app, pygame.K_h)
    h = _wait_hint(app, g)
    n = len(s.record.actions)
    key(app, pygame.K_RETURN, frames=2)
    assert s.record.actions[n] == h.action
    to_placement(app, g)
    key(app, pygame.K_h)
    h = _wait_hint(app, g)
    n = len(s.record.actions)
    key(app, pygame.K_RETURN, frames=2)
    assert s.record.actions[n] == h.action, (s.record.actions[n:], h.action)


@pytest.mark.parametrize("size", [(1280, 720), (2560, 1440)])
def test_the_hints_words_never_hide_the_hinted_hexes(make_app, size):
    """Every spot of the map in turn is the hinted one (at the bottom, at the top, in the
    corners): the hint's words are drawn clear of it and of its tag."""
    a = make_app(size)
    svc = hints.service(a)
    svc._worker = DecisionWorker(use_processes=False)
    g = solo(a)
    plan(a, g)
    to_placement(a, g)
    s = a.session
    seat = g.place.seat
    fief = s.state.content.fiefs[s.state.seats[seat].fief]
    hexes = sorted(s.state.board.hexes)
    ys = []
    for anchor in hexes[::max(1, len(hexes) // 60)]:
        cells = [c for c in fief.footprint(anchor, 0)[0] if c in s.state.board.index_of]
        svc.hint = hints.Hint(seat, Place(seat, fief.number, anchor, 0), 5, "covers a city: +5", cells=tuple(cells),
                              what="place fief here")
        svc._asked = (s.token, s.hint_key(seat), seat)
        a.run_frames(1)
        area = g.assist._hint_area()
        ys.append(area.centery)
        assert g.assist.box_at is not None and not g.assist.box_at.colliderect(area), (anchor, area, g.assist.box_at)
        assert g.board_rect.contains(g.assist.box_at)
    b = g.board_rect
    assert min(ys) < b.y + b.h // 3 and max(ys) > b.bottom - b.h // 3  # spots at the top and the bottom
