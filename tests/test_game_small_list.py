"""The players' small list on the game screen (issue 45), each through the event loop:
the Menu and My objective buttons answer while the round's plans are shown (they were
silently ignored), Rotate is not offered while the rings of a wedding are placed, and no tip of
the map shows under the tutorial box's buttons."""
from __future__ import annotations

import pygame
import pytest

from gonzaga.table.session import SeatSpec
from gonzaga.words import i18n

from scene_events import click, key
from test_scenes import game_scene, pass_curtain, plan_by_clicks, press, start_hotseat


@pytest.fixture
def app(make_app):
    return make_app((1600, 1000))


def solo_at_reveal(app):
    from gonzaga.scenes.overlays import RevealScene
    app.start_session([SeatSpec("Me", "human", colour="red"), SeatSpec("Bot", "ai", "greedy", "blue")], 3)
    app.run_frames(3)
    g = game_scene(app)
    plan_by_clicks(app, g)
    for _ in range(600):
        if isinstance(app.stack.top, RevealScene):
            return g, app.stack.top
        app.run_frames(1)
    raise AssertionError("the plans were never shown")


def game_button(g, label):
    return next(w for w in g.widgets.items if getattr(w, "label", None) == label and w.visible)


@pytest.mark.parametrize("label, opens", [("game.menu", "menu"), ("game.objective_button", "objective")])
def test_the_games_buttons_answer_while_the_plans_are_shown(app, label, opens):
    g, reveal = solo_at_reveal(app)
    b = game_button(g, i18n.t(label))
    assert not reveal.box.collidepoint(b.rect.center)  # the button is in sight, beside the plans
    click(app, b.rect.center, frames=2)
    assert app.stack.top.name == opens and reveal not in app.stack.scenes


def test_a_click_beside_the_plans_elsewhere_keeps_them(app):
    g, reveal = solo_at_reveal(app)
    b = g.board_rect
    spot = (b.x + 12, b.bottom - 12)  # the map's corner, clear of the box and of every button
    assert not reveal.box.collidepoint(spot)
    click(app, spot, frames=2)
    assert app.stack.top is reveal


def test_rotate_is_not_offered_during_a_wedding(app):
    g = start_hotseat(app, seed=12)
    for _ in range(2):
        pass_curtain(app)
        plan_by_clicks(app, g, action="C")
    if app.stack.top is not g:
        key(app, pygame.K_RETURN, frames=2)
    assert g.place.can_wed

    def labels():
        return [w.label for w in g.widgets.items if w.visible and hasattr(w, "label")]
    assert i18n.t("place.rotate") in labels()
    press(app, i18n.t("place.wedding"))
    assert g.place.mode == "wedding" and i18n.t("place.rotate") not in labels()
    press(app, i18n.t("place.fief_mode"))
    assert g.place.mode == "fief" and i18n.t("place.rotate") in labels()


def test_no_map_tip_under_the_tutorial_boxs_buttons(app):
    """The pointer resting on the tutorial box's buttons, over the map: no tip of the hex under them."""
    from gonzaga.scenes.tutorial import start_tutorial
    from scene_events import post
    g = start_tutorial(app, "place")
    app.run_frames(3)
    assert g.box.rect.colliderect(g.board_rect)

    def tipped(x, y):  # a point over a hex of the map that has a tip of its own
        h = g.renderer.screen_to_hex(x, y) if g.board_rect.collidepoint((x, y)) else None
        return h is not None and bool(g.tips.hex_tip(h))
    rects = [b.rect for b in g._box_buttons()] + [g.box.rect]  # the buttons first, then the rest of the box
    under = [(x, y) for r in rects for x in range(r.x + 4, r.right - 4, 12) for y in range(r.y + 4, r.bottom - 4, 12)
             if tipped(x, y)]
    assert under, "the box stands over tipped hexes of the map"
    for pos in under[:: max(1, len(under) // 8)]:
        post(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0))
        app.run_frames(40)  # well past the tip's delay
        assert not g.tooltip.lines, (pos, g.tooltip.lines)
    inside = g.board_rect.inflate(-40, -40)
    spot = next((x, y) for x in range(inside.x, inside.right, 30) for y in range(inside.y, inside.bottom, 30)
                if not g.box.rect.collidepoint((x, y)) and g.renderer.screen_to_hex(x, y) is not None
                and g.tips.hex_tip(g.renderer.screen_to_hex(x, y)))
    post(pygame.MOUSEMOTION, pos=spot, rel=(0, 0), buttons=(0, 0, 0))
    app.run_frames(40)
    assert g.tooltip.lines  # elsewhere on the map the tips are there


def test_a_hinted_spot_is_brought_into_sight_when_zoomed_in(app):
    from gonzaga.table import hints
    from scene_events import post
    from test_hint_secrets import ScriptedHints, wait_hint
    hints.service(app)._worker = ScriptedHints()
    app.start_session([SeatSpec("Me", "human", colour="red"), SeatSpec("Bot", "ai", "greedy", "blue")], 3)
    app.run_frames(3)
    g = game_scene(app)
    plan_by_clicks(app, g)
    for _ in range(600):
        if g.place is not None and app.stack.top is g:
            break
        if app.stack.top is not g:
            key(app, pygame.K_RETURN)
        app.run_frames(1)
    key(app, pygame.K_h)
    cells = wait_hint(app, g).cells
    key(app, pygame.K_h)  # hidden again
    r, b = g.renderer, g.board_rect

    def in_sight():
        return all(b.collidepoint(r.hex_to_screen(c)) for c in cells)
    assert cells and in_sight()
    xs = [r.hex_to_screen(c)[0] for c in cells]
    far = (b.right - 10, b.y + 10) if sum(xs) / len(xs) < b.centerx else (b.x + 10, b.bottom - 10)
    post(pygame.MOUSEMOTION, pos=far, rel=(0, 0), buttons=(0, 0, 0))
    for _ in range(8):
        post(pygame.MOUSEWHEEL, x=0, y=1, flipped=False)
        app.run_frames(1)
    assert r.zoom > 1.0 and not in_sight()  # zoomed in on the far side: the spot is out of sight
    key(app, pygame.K_h)
    assert wait_hint(app, g).cells == cells
    app.run_frames(1)
    assert in_sight()
