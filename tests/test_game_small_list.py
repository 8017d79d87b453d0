"""The players' small list on the game screen (issue 45), each through the event loop:
the Menu and My objective buttons answer while the round's plans are shown (they were
silently ignored), and Rotate is not offered while the rings of a wedding are placed."""
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
