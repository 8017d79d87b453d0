"""Motion and the table's feedback (issue 13): tweens follow the speed setting; "reduce motion"
turns every animation into an instant change; every event is both heard and seen."""
from __future__ import annotations

import pygame
import pytest

from gonzaga.table import history
from gonzaga.ai import make_bot
from gonzaga.rules import load_content, view
from gonzaga.scenes.feedback import derive
from gonzaga.table.session import SeatSpec, Session
from gonzaga.ui.motion import Animator, speed_scale


def test_tweens_run_and_finish():
    a = Animator(lambda: 1.0)
    tw = a.add("x", 1.0, delay=0.5)
    a.update(0.4)
    assert not tw.started and tw.raw == 0
    a.update(0.6)
    assert 0 < tw.raw < 1 and a.running
    a.update(1.0)
    assert tw.done and not a.running and tw.p == pytest.approx(1.0)


def test_speed_setting_scales_durations_and_reduce_motion_makes_them_instant():
    assert speed_scale("slow", False) > speed_scale("normal", False) > speed_scale("fast", False) > 0
    assert speed_scale("instant", False) == 0
    assert speed_scale("slow", True) == 0
    scale = [1.0]
    a = Animator(lambda: scale[0])
    tw = a.add("x", 2.0)
    assert a.running
    scale[0] = 0.0  # reduce motion switched on while it runs: it finishes at once
    a.update(0.0)
    assert tw.done and not a.running
    tw2 = a.add("y", 5.0, delay=3.0)
    assert tw2.done and tw2.p == 1.0 and not a.running


def _play_until(seats, seed, stop):
    s = Session.new(seats, seed, content=load_content())
    bots = [make_bot("greedy", seed + i) for i in range(len(seats))]
    while not s.is_over and not stop(s):
        seat = s.state.to_act()[0]
        assert s.submit(bots[seat].choose(view(s.state, seat), seat)) is None
    return s, bots


def _humans(n=2):
    cols = ("red", "yellow", "green", "blue")
    return [SeatSpec(f"P{i}", "human", colour=cols[i]) for i in range(n)]


def test_derive_finds_every_kind_of_event():
    """Over a whole game: reveals, fiefs and rings, points, leagues, donations, the Last Turn, the end."""
    s, _ = _play_until(_humans(3), 8, lambda s: False)
    states = history.states(s.record, s.state.content)
    kinds = set()
    for prev, new in zip(states[1:], states[2:]):
        for e in derive(prev, new):
            kinds.add(e.kind)
            if e.kind in ("fief", "ring"):
                got = sum(v for _h, v in e.data["points"])
                assert got >= 0
    assert {"reveal", "fief", "points", "league", "end", "score"} <= kinds, kinds
    # the points of each placement are exactly its site points
    for prev, new in zip(states[1:], states[2:]):
        ev = derive(prev, new)
        for seat in range(3):
            site_delta = new.seats[seat].site_points - prev.seats[seat].site_points
            shown = sum(v for e in ev if e.kind in ("fief", "ring") and e.seat == seat for _h, v in e.data["points"])
            assert shown == site_delta


@pytest.fixture
def app(make_app):
    return lambda **settings: make_app((1280, 720), speed="normal", **settings)


def _scene_at_placement(app, seed=5):
    """A game screen on a hot-seat game at a placement of round 3 (curtains passed)."""
    from gonzaga.scenes.game import GameScene
    from gonzaga.table.seatview import face_of
    s, bots = _play_until(_humans(2), seed, lambda s: s.state.phase == "place" and s.state.round == 3)
    s.content = app.content
    app.session = s
    g = GameScene(app, face_of(s))
    app.stack.replace(g)
    app.run_frames(2)
    while app.stack.top is not g:
        app.stack.pop()
        app.run_frames(1)
    return g, s, bots


def _place(g, s, bots):
    seat = s.state.to_act()[0]
    assert s.submit(bots[seat].choose(view(s.state, seat), seat)) is None


def test_a_placement_is_heard_and_seen(app):
    a = app()
    g, s, bots = _scene_at_placement(a)
    before = [x.score for x in s.state.seats]
    _place(g, s, bots)
    a.run_frames(1)
    kinds = [e.kind for e in g.feedback.events]
    assert "fief" in kinds or "ring" in kinds or "donation" in kinds
    heard = [n for n, _ in a.audio.history]
    assert any(n in heard for n in ("fief", "ring", "donation"))
    moving = {tw.kind for tw in g.feedback.anim.tweens}
    assert moving & {"settle", "panel_float"}  # the piece settles (or the donation rises)
    seat = next(e.seat for e in g.feedback.events if e.kind in ("fief", "ring", "donation"))
    if s.state.seats[seat].score != before[seat]:
        assert g.feedback.score(seat, s.state.seats[seat].score) == before[seat]  # it counts up from here
    a.run_frames(150)  # 2.5 s: everything has finished
    assert not g.feedback.anim.running
    assert g.feedback.score(seat, s.state.seats[seat].score) == s.state.seats[seat].score


def test_reduce_motion_makes_every_change_instant(app):
    a = app(reduce_motion=True)
    g, s, bots = _scene_at_placement(a)
    _place(g, s, bots)
    a.run_frames(1)
    assert g.feedback.events
    assert not g.feedback.anim.running  # nothing moves...
    for i, seat in enumerate(s.state.seats):
        assert g.feedback.score(i, seat.score) == seat.score  # ...the new scores are there at once
    assert g.feedback.pieces(*g._pieces()) == g._pieces()  # and the piece is on the board
    heard = [n for n, _ in a.audio.history]
    assert any(n in heard for n in ("fief", "ring", "donation"))  # the sound is still played


def test_the_end_table_fills_row_by_row_or_at_once(app):
    for reduce in (False, True):
        a = app(reduce_motion=reduce)
        g, s, bots = _scene_at_placement(a, seed=9)
        while not s.is_over:
            seat = s.state.to_act()[0]
            s.submit(bots[seat].choose(view(s.state, seat), seat))
        a.run_frames(1)
        while a.stack.top is not g:
            a.stack.pop()
        rows = s.score_rows()
        if reduce:
            assert g.feedback.end_rows(rows) == rows
        else:
            shown = len(g.feedback.end_rows(rows))
            assert shown < len(rows)
            a.run_frames(120)
            assert g.feedback.end_rows(rows) == rows
        heard = [n for n, _ in a.audio.history]
        assert "win" in heard or "loss" in heard
        a.close()


def test_the_reveal_turns_the_cards_over(app):
    from gonzaga.scenes.overlays import RevealScene
    a = app()
    g, s, bots = _scene_at_placement(a)
    r = RevealScene(a, g)
    assert all(not f.done for f in r.flips)
    a.stack.push(r)
    a.run_frames(90)
    assert all(f.done for f in r.flips)
    a2 = app(reduce_motion=True)
    g2, _s, _b = _scene_at_placement(a2)
    assert all(f.done for f in RevealScene(a2, g2).flips)


def test_the_feedback_draws_without_error_while_it_runs(app):
    a = app()
    g, s, bots = _scene_at_placement(a)
    for _ in range(3):
        if s.state.phase != "place":
            break
        _place(g, s, bots)
        a.run_frames(5)
        surf = pygame.Surface(a.size)
        g.draw(surf)
    assert a.running
