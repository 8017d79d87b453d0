"""Issue 15: random input events on every screen, through the app's real loop: no exception, ever.

The monkey visits every screen in turn (title, new game, load - with hostile entries in the
saves folder -, rules, settings, a game while planning and placing, its menu and the save
prompt, the curtain, a finished game) and throws random clicks (mostly on the screen's own
buttons), drags, wheel turns, keys, typed text (control characters, emoji, NULs), resizes
and screenshots at it. Any error the loop catches (``App._crash``) fails the test.

Seeded and bounded in frames, not seconds, so that a failure found on a slow machine happens
again on a fast one. ``GONZAGA_MONKEY_SEEDS=1-40`` runs more seeds locally (CI runs two).
"""
from __future__ import annotations

import os
import random

import pygame
import pytest

from gonzaga.table import persistence as P

FRAMES_PER_STOP = 110


def _seeds() -> list[int]:
    spec = os.environ.get("GONZAGA_MONKEY_SEEDS", "15,16")
    out: list[int] = []
    for part in spec.split(","):
        a, _, b = part.partition("-")
        out.extend(range(int(a), int(b or a) + 1))
    return out
KEYS = [pygame.K_ESCAPE, pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_SPACE, pygame.K_TAB, pygame.K_UP,
        pygame.K_DOWN, pygame.K_LEFT, pygame.K_RIGHT, pygame.K_BACKSPACE, pygame.K_DELETE, pygame.K_HOME,
        pygame.K_END, pygame.K_PAGEUP, pygame.K_PAGEDOWN, pygame.K_r, pygame.K_q, pygame.K_e, pygame.K_a,
        pygame.K_1, pygame.K_2, pygame.K_3, pygame.K_4, pygame.K_z, pygame.K_PLUS, pygame.K_MINUS, pygame.K_F1]
TEXTS = ["a", "Zoë", "ß", "\x00", "\x1b", "\t", "\u202e", "🙂", "名前", "x" * 50, "\ud7ff", " "]


def _post(t, **kw):
    pygame.event.post(pygame.event.Event(t, **kw))


def _random_event(app, rng: random.Random) -> None:
    w, h = app.size
    r = rng.random()
    top = app.stack.top
    targets = [x for x in getattr(getattr(top, "widgets", None), "items", [])
               if getattr(x, "visible", True) and getattr(x, "rect", None) is not None]
    if r < 0.45:
        if targets and rng.random() < 0.7:
            pos = rng.choice(targets).rect.center
        else:
            pos = (rng.randrange(w), rng.randrange(h))
        button = rng.choice([1, 1, 1, 3, 2])
        _post(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0))
        _post(pygame.MOUSEBUTTONDOWN, pos=pos, button=button)
        _post(pygame.MOUSEBUTTONUP, pos=pos, button=button)
    elif r < 0.60:
        k = rng.choice(KEYS)
        mod = rng.choice([0, 0, 0, pygame.KMOD_SHIFT, pygame.KMOD_CTRL])
        _post(pygame.KEYDOWN, key=k, mod=mod, unicode="", scancode=0)
        _post(pygame.KEYUP, key=k, mod=mod, unicode="", scancode=0)
    elif r < 0.68:
        _post(pygame.TEXTINPUT, text=rng.choice(TEXTS))
    elif r < 0.80:
        a = (rng.randrange(w), rng.randrange(h))
        b = (rng.randrange(w), rng.randrange(h))
        _post(pygame.MOUSEBUTTONDOWN, pos=a, button=1)
        _post(pygame.MOUSEMOTION, pos=((a[0] + b[0]) // 2, (a[1] + b[1]) // 2), rel=(1, 1), buttons=(1, 0, 0))
        _post(pygame.MOUSEMOTION, pos=b, rel=(1, 1), buttons=(1, 0, 0))
        _post(pygame.MOUSEBUTTONUP, pos=b, button=1)
    elif r < 0.86:
        y = rng.choice([-3, -1, 1, 3])
        _post(pygame.MOUSEWHEEL, x=0, y=y, flipped=False, precise_x=0.0, precise_y=float(y), which=0,
              touch=False)
    elif r < 0.865:
        size = (rng.randrange(800, 1700), rng.randrange(600, 1100))
        _post(pygame.VIDEORESIZE, size=size, w=size[0], h=size[1])
    elif r < 0.867:
        _post(pygame.KEYDOWN, key=pygame.K_F12, mod=0, unicode="", scancode=0)
    else:
        _post(pygame.MOUSEMOTION, pos=(rng.randrange(w), rng.randrange(h)), rel=(0, 0), buttons=(0, 0, 0))


def _finished_save():
    """A two-seat AI game played to its end, saved (for the end-of-game screen)."""
    from gonzaga.ai.match import play_game
    from gonzaga.table.session import SeatSpec, Session
    from gonzaga.rules import GameConfig
    res = play_game(["greedy", "random"], seed=3, config=GameConfig(seats=2))
    s = Session([SeatSpec("Ann", "human", colour="red"), SeatSpec("Bob", "human", colour="yellow")], res.record)
    return P.save_game(s, P.saves_dir() / "finished.json", "Finished")


@pytest.mark.parametrize("seed", _seeds())
def test_random_events_on_every_screen(tmp_path, monkeypatch, seed):
    monkeypatch.setenv("GONZAGA_HOME", str(tmp_path / "home"))
    from gonzaga.app import App
    from gonzaga.scenes.game import GameScene
    from gonzaga.scenes.load_game import LoadScene
    from gonzaga.scenes.new_game import NewGameScene
    from gonzaga.scenes.overlays import MenuScene
    from gonzaga.scenes.rules_view import RulesScene
    from gonzaga.scenes.settings import SettingsScene
    from gonzaga.table.session import SeatSpec

    finished = _finished_save()
    saves = P.saves_dir()
    (saves / "broken.json").write_text('{"format": "gonzaga-save", "seats": [')
    if hasattr(os, "mkfifo"):
        os.mkfifo(saves / "pipe.json")
        os.symlink(saves / "nowhere.json", saves / "dangling.json")

    import socket
    real_getaddrinfo = socket.getaddrinfo

    def loopback_only(host, *a, **k):  # an address typed on the join screen never leaves this machine
        if host not in ("localhost", "127.0.0.1", "::1", "0.0.0.0", None):
            raise socket.gaierror(socket.EAI_NONAME, "not looked up in tests")
        return real_getaddrinfo(host, *a, **k)
    monkeypatch.setattr(socket, "getaddrinfo", loopback_only)
    errors: list[str] = []
    orig_crash = App._crash

    def record(self, e):
        errors.append(f"{type(e).__name__}: {e}")
        orig_crash(self, e)
    monkeypatch.setattr(App, "_crash", record)
    app = App(P.Settings(speed="instant"), size=(1280, 800))
    monkeypatch.setattr(app, "quit", lambda: None)  # the Quit button must not end the test

    def game():
        app.start_session([SeatSpec("Ann", "human", colour="red"), SeatSpec("Bot", "ai", "greedy", "blue"),
                           SeatSpec("Cy", "human", colour="green")], 9)

    def hotseat_menu():
        app.start_session([SeatSpec("Ann", "human", colour="red"), SeatSpec("Bob", "human", colour="blue")], 4)
        app.run_frames(2)
        app.stack.push(MenuScene(app, app.stack.find(GameScene)))

    tour = [("title", app.to_title), ("new game", lambda: app.stack.push(NewGameScene(app))),
            ("load", lambda: app.stack.push(LoadScene(app))), ("rules", lambda: app.stack.push(RulesScene(app))),
            ("settings", lambda: app.stack.push(SettingsScene(app))), ("game", game),
            ("menu", hotseat_menu), ("finished game", lambda: app.open_save(finished)), ("game again", game)]
    rng = random.Random(seed)
    seen: set[str] = set()
    events = steps = 0
    per_label: dict[str, int] = {}
    try:
        app.run_frames(2)
        for _i, (label, go) in enumerate(tour):
            app.to_title()
            app.run_frames(1)
            go()
            app.run_frames(1)
            seen.add(type(app.stack.top).__name__)  # the stop is reached even if the first event leaves it
            for _frame in range(FRAMES_PER_STOP):
                for _ in range(rng.randrange(1, 6)):
                    _random_event(app, rng)
                    events += 1
                    per_label[label] = per_label.get(label, 0) + 1
                app.running = True
                app.step(1 / 60)
                steps += 1
                seen.add(type(app.stack.top).__name__)
    finally:
        app.close()
        from gonzaga.words import i18n
        i18n.set_language("en")  # the monkey may have switched it in the settings: not for the next tests
    print(f"\nmonkey: {events} events, {steps} frames, screens {sorted(seen)}")
    assert not errors, errors[:10]
    assert {"TitleScene", "NewGameScene", "LoadScene", "RulesScene", "SettingsScene", "GameScene",
            "MenuScene"} <= seen
    assert set(per_label) == {label for label, _ in tour}, "random events on every stop of the tour"
