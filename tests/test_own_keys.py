"""Your own keys (issue 49): every shortcut from ui/keys.py's table, changed on the Keys and speech
screen by pressing the new key, a key another action holds refused with a message naming it,
saved in the settings and used by the game at once; reset to defaults. Through the real loop."""
from __future__ import annotations

import pygame
import pytest

from gonzaga.table import persistence
from gonzaga.table.access import Access
from gonzaga.table.session import SeatSpec
from gonzaga.ui import keys
from scene_events import click, key


@pytest.fixture(autouse=True)
def default_keys():
    keys.use({})
    yield
    keys.use({})


def keys_screen(app):
    app.stack.push("settings")
    app.run_frames(1)
    b = next(w for w in app.stack.top.widgets.items if getattr(w, "label", "") == "Keys and speech…")
    click(app, b.rect.center, frames=2)
    assert app.stack.top.name == "settings_keys"
    return app.stack.top


def key_button(scene, action):
    return next(w for w in scene.widgets.items if getattr(w, "action", "") == action)


def test_a_key_is_changed_refused_when_taken_saved_and_reset(make_app):
    app = make_app((1280, 720))
    scene = keys_screen(app)
    assert key_button(scene, "rotate").label == "R"
    click(app, key_button(scene, "rotate").rect.center)
    assert scene.captures_keys
    key(app, pygame.K_w)  # W is the wedding's: refused, the message names it
    assert scene.note == "W is already the key for Wedding or fief: change that one first."
    assert keys.current().key("rotate") == "r"
    click(app, key_button(scene, "rotate").rect.center)
    key(app, pygame.K_TAB)  # moves around every screen: refused too
    assert "Tab moves around every screen" in scene.note
    click(app, key_button(scene, "rotate").rect.center)
    key(app, pygame.K_F11)  # captured for the binding, not the app's full screen shortcut... but F11 is taken
    assert "Full screen" in scene.note and not app.fullscreen
    click(app, key_button(scene, "rotate").rect.center)
    key(app, pygame.K_q)
    assert scene.note == "Turn the fief: Q" and key_button(scene, "rotate").label == "Q"
    assert persistence.load_settings().access.keys == {"rotate": "q"}
    click(app, key_button(scene, "help").rect.center)
    key(app, pygame.K_ESCAPE)  # Esc keeps the old key
    assert keys.current().key("help") == "f1" and not scene.captures_keys
    reset = next(w for w in scene.widgets.items if getattr(w, "label", "") == "Reset to defaults")
    click(app, reset.rect.center)
    assert persistence.load_settings().access.keys == {} and key_button(scene, "rotate").label == "R"


def test_the_game_uses_the_new_key_and_the_old_one_no_longer(make_app):
    app = make_app((1280, 720), access=Access(keys={"rotate": "q"}))
    assert keys.current().key("rotate") == "q"  # read from the settings at start
    app.start_session([SeatSpec("Ann", "human", colour="red"), SeatSpec("Bot", "ai", "greedy", "blue")], 31)
    app.run_frames(3)
    from gonzaga.scenes.game import GameScene
    from gonzaga.rules import Plan
    g = app.stack.find(GameScene)
    st = g.state
    s = st.seats[0]
    region = next(r for r in st.region_cards() if r not in s.unavailable)
    action = next(a for a in ("A", "B") if a not in s.unavailable)
    assert g.face.seat_view(0).submit(Plan(0, region, action, False)) is None
    for _ in range(200):
        app.run_frames(1)
        if app.stack.top is not g:
            key(app, pygame.K_RETURN)
        if g.place is not None:
            break
    pc = g.place
    assert pc is not None
    key(app, pygame.K_RETURN)
    r0 = pc.rotation
    key(app, pygame.K_r)
    assert pc.rotation == r0, "R no longer turns the fief"
    key(app, pygame.K_q)
    assert pc.rotation == (r0 + 1) % 6


def test_a_saved_table_that_clashes_is_dropped():
    assert keys.Bindings({"rotate": "w"}).own == {}
    assert keys.Bindings({"rotate": "tab", "nothing": "x"}).own == {}
    assert keys.Bindings({"rotate": "q"}).own == {"rotate": "q"}
