"""The tutorial takes what it asks for (issue 40): every placing step is played, through the
real event loop, with EVERY legal placement that covers the marked cities and harbors
(enumerated from the rules: ``legal_placements`` filtered by what the step asks), and none is
refused; a wrong card, a wrong spot and a wrong turn each get their own explanation, and the
explanation goes once the fief is put right."""
from __future__ import annotations

import pygame
import pytest

from gonzaga.rules import Place, legal_placements
from gonzaga.table import tutorial as T
from scene_events import click, key
from test_tutorial import do_step, drag, tut

PLACING = [(sec.id, i) for sec in T.SECTIONS for i, st in enumerate(sec.steps) if st.kind == "place"]


@pytest.fixture
def app(make_app):
    return make_app((1280, 720))


def to_step(app, section: str, index: int):
    """Open ``section`` and do every step before step ``index`` where the box points."""
    from gonzaga.scenes.tutorial import start_tutorial
    start_tutorial(app, section)
    app.run_frames(2)
    for _ in range(600):
        g = tut(app)
        assert g is not None and g.sec.id == section
        if g.steps.step_i == index and g.place is not None:
            return g
        assert g.steps.step_i <= index
        do_step(app, g)
    raise AssertionError(f"never reached step {index + 1} of {section}")


def put(app, g, p: Place):
    """Turn the fief with R and drag it from the tray so that its dot is on ``p.anchor``."""
    pc = g.place
    for _ in range(6):
        if pc.rotation == p.rotation:
            break
        key(app, pygame.K_r)
    assert pc.rotation == p.rotation
    x, y = g.renderer.hex_to_screen(p.anchor)
    assert g.board_rect.collidepoint(x, y), "the spot is in view"
    assert not g.box.rect.collidepoint(x, y), "the box does not cover the spot"
    drag(app, g.placing.tray_rect().center, (x, y))
    assert (pc.anchor, pc.rotation) == (p.anchor, p.rotation)


def accepted_now(g):
    st = g.step
    return [p for p in legal_placements(g.state, T.YOU) if T.accepts(g.state, st, p)]


@pytest.mark.parametrize("section,index", PLACING)
def test_every_placement_covering_the_marked_hexes_is_taken(app, section, index):
    g = to_step(app, section, index)
    step = g.step
    every = accepted_now(g)
    assert step.arg in every and len(every) >= 1
    assert T.marked(g.state, step), "the step marks what to cover"
    for n, p in enumerate(every):
        if n:
            g = to_step(app, section, index)
        before = len(g.face._GameFace__s.record.actions)
        put(app, g, p)
        key(app, pygame.K_RETURN, frames=2)
        acts = g.face._GameFace__s.record.actions
        assert len(acts) > before and acts[before] == p, (p.to_text(), g.refusals.msg)
        assert not g.refusals.msg


def test_another_way_over_mantova_and_venezia_keeps_the_same_game(app):
    """A placement other than the script's goes on into the next section in the same game."""
    section, index = PLACING[0]
    g = to_step(app, section, index)
    other = next(p for p in accepted_now(g) if p != g.step.arg)
    put(app, g, other)
    key(app, pygame.K_RETURN, frames=2)
    for _ in range(900):
        if tut(app) is not g or g.sec.id != section:
            break
        do_step(app, g)
    assert tut(app) is g and g.sec.id == "wedding", "no restart from the script's position"
    assert other in g.face._GameFace__s.record.actions


def test_each_wrong_move_has_its_own_explanation(app):
    section, index = PLACING[0]  # Mantova and Venezia, with Italia / Cities planned before
    from gonzaga.scenes.tutorial import start_tutorial
    g = start_tutorial(app, "plan")
    app.run_frames(2)
    while g.step.kind != "region":
        do_step(app, g)
    cards = {getattr(w, "card", None): w for w in g.widgets.items if getattr(w, "card", None) and w.visible}
    click(app, cards["britannia"].rect.center)
    wrong_region = g.refusals.msg
    assert "Britannia" in wrong_region and "Italia" in wrong_region and g.text() not in wrong_region
    click(app, cards["A"].rect.center)
    action_first = g.refusals.msg
    assert "Harbors" in action_first and action_first != wrong_region
    click(app, cards["italia"].rect.center, frames=2)
    assert g.step.kind == "action" and not g.refusals.msg
    click(app, cards["C"].rect.center)
    assert "Alliance" in g.refusals.msg and "Cities" in g.refusals.msg and g.refusals.msg not in (wrong_region, action_first)

    g = to_step(app, section, index)
    step = g.step
    every = accepted_now(g)
    legal = legal_placements(g.state, T.YOU)
    turn = next(p for p in legal if not T.accepts(g.state, step, p) and any(q.anchor == p.anchor for q in every))
    far = next(p for p in legal if not T.footprint(g.state, p)[0] & T.marked(g.state, step)
               and g.board_rect.collidepoint(g.renderer.hex_to_screen(p.anchor))
               and not g.box.rect.collidepoint(g.renderer.hex_to_screen(p.anchor)))
    n = len(g.face._GameFace__s.record.actions)
    put(app, g, far)
    key(app, pygame.K_RETURN, frames=2)
    spot = g.refusals.msg
    assert len(g.face._GameFace__s.record.actions) == n and "Mantova" in spot and "Venezia" in spot
    put(app, g, turn)
    key(app, pygame.K_RETURN, frames=2)
    wrong_turn = g.refusals.msg
    assert len(g.face._GameFace__s.record.actions) == n and "turn" in wrong_turn and wrong_turn != spot
    right = next(q for q in every if q.anchor == turn.anchor)
    while g.place.rotation != right.rotation:
        key(app, pygame.K_r)
    app.run_frames(1)
    assert not g.refusals.msg, "the refusal goes once the fief is put right"


def test_where_one_way_fits_the_castles_and_dot_are_drawn(app):
    """Newcastle and Hull: one placement only, so the map shows its castles and its dot."""
    section, index = PLACING[1]
    g = to_step(app, section, index)
    assert len(accepted_now(g)) == 1
    shown = g.map_marks.drawn_guide()
    assert shown is not None
    cells, castles = T.footprint(g.state, g.step.arg)
    assert shown == (g.step.arg.anchor, castles)
    g2 = to_step(app, *PLACING[0])
    assert g2.map_marks.drawn_guide() is None, "several ways fit: no single one is drawn"
