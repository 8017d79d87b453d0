"""Issue 10: a donation is confirmed like a placement; curtains only where they protect
something (a solo game loaded with the solo curtain off: none; a hot-seat game loaded: one;
the objective's curtain can be cancelled); no display, no silent game."""
from __future__ import annotations

import os
import subprocess
import sys
import time

import pygame
import pytest

from gonzaga.table import persistence
from gonzaga.rules import Donate, Plan, legal_actions
from gonzaga.scenes.overlays import CurtainScene, ObjectiveScene
from gonzaga.table.session import SeatSpec

import screen_walk as SW
from test_scenes import button, click, key, press


@pytest.fixture
def app(make_app):
    return make_app((1600, 1000))


def curtains_until_decision(app, frames: int = 30) -> list[str]:
    """Pass every curtain (by a click on it) until a human can decide; their purposes."""
    seen = []
    g = SW._game(app)
    for _ in range(frames):
        top = app.stack.top
        if isinstance(top, CurtainScene):
            seen.append(top.purpose)
            click(app, top.button.rect.center, frames=2)
        elif top is g and g.screen_mode() in ("plan", "place"):
            break
        else:
            app.run_frames(1)
    return seen


# ---------------------------------------------------------------- donation

def test_donate_asks_first_button_and_keys(app):
    SW._load(app, "v1-solo-round5-placing.json")
    g = SW._game(app)
    s = app.session
    n = len(s.record.actions)
    # the button: asks, Cancel goes back to placing
    press(app, "Donate (+3)")
    assert g.placing.donate_pending and len(s.record.actions) == n
    labels = [w.label for w in g.widgets.items if w.visible]
    assert "Donate: confirm" in labels and "Cancel" in labels and "Donate (+3)" not in labels
    press(app, "Cancel")
    assert not g.placing.donate_pending and g.place is not None and len(s.record.actions) == n
    # Shift+D asks too; Esc cancels
    key(app, pygame.K_d, mod=pygame.KMOD_SHIFT)
    assert g.placing.donate_pending and len(s.record.actions) == n
    key(app, pygame.K_ESCAPE)
    assert not g.placing.donate_pending and app.stack.top is g and len(s.record.actions) == n
    # Shift+D then Enter donates
    seat = g.place.seat
    key(app, pygame.K_d, mod=pygame.KMOD_SHIFT)
    key(app, pygame.K_RETURN, frames=2)
    assert s.record.actions[n] == Donate(seat)


def test_donate_confirm_button(app):
    SW._load(app, "v1-solo-round5-placing.json")
    g = SW._game(app)
    s = app.session
    n = len(s.record.actions)
    seat = g.place.seat
    press(app, "Donate (+3)")
    press(app, "Donate: confirm", frames=2)
    assert s.record.actions[n] == Donate(seat) and not g.placing.donate_pending


# ---------------------------------------------------------------- curtains

@pytest.mark.parametrize("save", ["v1-four-round8.json", "v1-solo-round5-placing.json"])
def test_solo_load_without_curtain(app, save):
    """One human and the solo curtain off: a loaded game opens straight on the hand or the fief."""
    SW._load(app, save)
    assert curtains_until_decision(app) == []
    assert SW._game(app).screen_mode() in ("plan", "place")


def test_solo_load_with_the_setting_on(app):
    app.settings.curtain_solo = True
    SW._load(app, "v1-four-round8.json")
    assert curtains_until_decision(app) == ["plan"]


def _hotseat_placing_save(app):
    app.start_session([SeatSpec("Ann", "human", colour="red"), SeatSpec("Bob", "human", colour="blue"),
                       SeatSpec("Cy", "ai", "greedy", "green")], 12)
    s = app.session
    for seat in (0, 1):
        s.submit(next(a for a in legal_actions(s.state, seat) if isinstance(a, Plan)))
    for _ in range(3000):  # the AI seat plans in a thread: as many frames as it takes
        app.run_frames(1)
        if s.state.phase == "place":
            break
    assert s.state.phase == "place"
    path = persistence.saves_dir() / "hotseat-placing.json"
    persistence.save_game(s, path, "hotseat placing")
    return path.name


@pytest.mark.parametrize("phase", ["plan", "place"])
def test_hotseat_load_shows_one_curtain(app, phase):
    name = "v1-hotseat-round3-planning.json" if phase == "plan" else _hotseat_placing_save(app)
    if phase == "plan":
        SW._copy(name)
    assert app.open_save(persistence.saves_dir() / name)
    app.run_frames(2)
    assert len(curtains_until_decision(app)) == 1
    assert SW._game(app).screen_mode() == phase


def test_objective_curtain_has_cancel_and_esc(app):
    app.settings.curtain_solo = True
    SW._load(app, "v1-solo-round5-placing.json")
    curtains_until_decision(app)
    g = SW._game(app)
    for how in ("esc", "cancel"):
        press(app, "My objective")
        top = app.stack.top
        assert isinstance(top, CurtainScene) and top.purpose == "objective"
        assert button(top, "Cancel")
        if how == "esc":
            key(app, pygame.K_ESCAPE)
        else:
            press(app, "Cancel")
        assert app.stack.top is g, app.stack.top
        assert not any(isinstance(sc, ObjectiveScene) for sc in app.stack.scenes)
    press(app, "My objective")  # and passing it still shows the objective
    click(app, app.stack.top.button.rect.center)
    assert isinstance(app.stack.top, ObjectiveScene)


# ---------------------------------------------------------------- no display

def test_no_display_exits_quickly_with_one_line(tmp_path):
    """Without a display (and no SDL_VIDEODRIVER asked for), the game says so and exits 2."""
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER")}
    env.update(GONZAGA_HOME=str(tmp_path / "home"), SDL_AUDIODRIVER="dummy", PYGAME_HIDE_SUPPORT_PROMPT="1")
    probe = subprocess.run([sys.executable, "-c", "import pygame; pygame.display.init(); "
                            "print(pygame.display.get_driver())"], env=env, capture_output=True, text=True, timeout=30)
    driver = probe.stdout.strip().splitlines()[-1] if probe.returncode == 0 and probe.stdout.strip() else ""
    t0 = time.monotonic()
    p = subprocess.run([sys.executable, "-m", "gonzaga", "--exit-after-first-frame"], env=env, capture_output=True,
                       text=True, timeout=60)
    took = time.monotonic() - t0
    if driver and driver not in ("offscreen", "dummy"):  # this machine has a real display after all
        assert p.returncode == 0, p.stderr
        return
    assert p.returncode == 2, (p.returncode, p.stdout, p.stderr)
    ours = [line for line in p.stderr.splitlines() if line.startswith("gonzaga:")]
    assert len(ours) == 1 and "Gonzaga needs a display" in ours[0], p.stderr
    assert took < 10
    logs = list((tmp_path / "home").rglob("gonzaga.log"))
    assert logs and "no display" in logs[0].read_text()
