"""The replay viewer (issue 13): stepping a saved game forward and back shows, at every step,
the engine's ``replay(record, upto=n)``; a game that is not over shows only what was public (no
objective, no plan before its reveal) in what it renders and in every text it draws; ``--watch``
opens it from the command line; the load and end screens open it."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pygame
import pytest

from gonzaga.table import history, persistence
from gonzaga.rules import replay
from gonzaga.rules.view import HIDDEN
from gonzaga.words import i18n
from gonzaga.ui import widgets as W

ROOT = Path(__file__).resolve().parent.parent
SAVES = ROOT / "saves"
UNFINISHED = ("v1-hotseat-round3-planning.json", "v1-solo-round5-placing.json", "v1-four-round8.json")


@pytest.fixture
def app(make_app):
    return make_app((1280, 720), reduce_motion=True)


def open_viewer(app, name):
    from gonzaga.scenes.replay_view import ReplayScene
    v = app.stack.push("replay_file", SAVES / name)  # as the load screen opens it
    assert isinstance(v, ReplayScene)
    app.run_frames(1)
    return v


class TextSpy:
    """Every string drawn through the widgets' text cache while it is on."""

    def __init__(self, monkeypatch):
        self.seen: list[str] = []
        real = W.text

        def spy(s, *a, **k):
            self.seen.append(s)
            return real(s, *a, **k)
        monkeypatch.setattr(W, "text", spy)

    def draw(self, app, scene) -> str:
        self.seen.clear()
        scene.draw(pygame.Surface(app.size))
        return "\n".join(self.seen)


def test_a_finished_game_steps_forward_and_back_like_the_engine(app):
    v = open_viewer(app, "v1-finished.json")
    rs = v.rs
    ls = persistence.read_save(SAVES / "v1-finished.json", app.content)
    assert rs.finished
    v.controls.toggle_secrets()  # a finished game: every plan and objective may be shown
    assert rs.show_all
    v.controls.to_start()
    seen = []
    while True:
        n = rs.step
        assert v.state == replay(ls.record, app.content, upto=n), n
        seen.append(n)
        if n == rs.n_steps:
            break
        v.controls.forward()
        app.run_frames(1)
    assert seen == list(range(1, len(ls.record.actions) + 1))
    while rs.step > 1:  # and back, by the Left key
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_LEFT, mod=0, unicode="", scancode=0))
        app.run_frames(1)
        assert v.state == replay(ls.record, app.content, upto=rs.step)
    # jumps: to a round, to the end, by the bar
    v.controls.to_round(4)
    assert v.state.round == 4 and v.state == replay(ls.record, app.content, upto=rs.step)
    v.controls.to_end()
    assert v.state.phase == "over" and rs.step == len(ls.record.actions)
    v.controls._slide(v.controls._slider.centerx)
    assert v.state == replay(ls.record, app.content, upto=rs.step)
    # the secrets are shown: every objective, and the plans before their reveal
    v.controls.toggle_secrets()
    assert not rs.show_all
    v.controls.toggle_secrets()
    plan_step = next(n for n in range(1, rs.n_steps) if rs._ReplayFace__rs.states[n].phase == "plan"
                     and any(s.plan for s in rs._ReplayFace__rs.states[n].seats))
    v.controls.seek(plan_step)
    lines = v.controls.secret_lines()
    assert len(lines) == len(v.state.seats) and any(i18n.t("replay.plan", plan="")[:4] in x for x in lines)


@pytest.mark.parametrize("name", ["v1-solo-round5-placing.json", "v1-hotseat-round3-planning.json"])
def test_the_viewer_is_never_played(app, name):
    """The game screen under the viewer must not change its record: a take-back (Ctrl+Z), a hint
    (H) or an action would leave the viewer's states behind it (a monkey run found End failing)."""
    v = open_viewer(app, name)
    rs = v.rs
    n = len(rs._ReplayFace__rs.record.actions)
    v.controls.seek(rs.n_steps)  # where the human's last decision could be taken back in the live game
    for key, mod in ((pygame.K_z, pygame.KMOD_CTRL), (pygame.K_h, 0)):
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=key, mod=mod, unicode="", scancode=0))
        app.run_frames(2)
    from gonzaga.rules import legal_actions
    st = rs._ReplayFace__rs.states[-1]
    seat = next(i for i in range(len(st.seats)) if legal_actions(st, i))
    with pytest.raises(LookupError):  # no seat is played in a viewer: its face hands out none
        rs.seat_view(seat)
    assert rs._ReplayFace__rs.submit(legal_actions(st, seat)[0]) is not None
    assert len(rs._ReplayFace__rs.record.actions) == n == rs.n_steps
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_END, mod=0, unicode="", scancode=0))
    app.run_frames(2)
    assert rs.step == rs.n_steps and not isinstance(app.stack.top, type(None))
    from gonzaga.scenes.replay_view import ReplayScene
    assert isinstance(app.stack.top, ReplayScene)


def test_play_moves_on_by_itself_at_its_speed(app):
    v = open_viewer(app, "v1-finished.json")
    v.controls.to_start()
    v.controls.set_speed(4.0)
    v.controls.toggle_play()
    app.run_frames(60)  # one second at 4x: about four moves
    assert 3 <= v.rs.step - 1 <= 6
    v.controls.toggle_play()
    n = v.rs.step
    app.run_frames(60)
    assert v.rs.step == n


@pytest.mark.parametrize("name", UNFINISHED)
def test_an_unfinished_game_shows_only_what_was_public(app, monkeypatch, name):
    from gonzaga.table.replay import ReplayFace
    spy = TextSpy(monkeypatch)
    v = open_viewer(app, name)
    rs = v.rs
    ls = persistence.read_save(SAVES / name, app.content)
    assert not rs.finished
    assert not any(getattr(w, "label", "") == i18n.t("replay.secrets_off") for w in v.widgets.items)
    v.controls.toggle_secrets()  # even if asked (no button is shown): nothing secret
    full = history.states(ls.record, ls.state.content)
    names = [s.name for s in ls.model.seats]
    v.controls.to_start()
    while True:
        n = rs.step
        truth = replay(ls.record, app.content, upto=n)
        assert truth == full[n]
        shown = v.state
        assert shown == history.public_state(truth)
        for i, s in enumerate(shown.seats):
            assert s.objective is None
            assert s.deck_hidden
            if truth.phase == "plan" and truth.seats[i].plan is not None:
                assert s.plan.region == HIDDEN and s.plan.action == HIDDEN
        info = v.draw_info()
        assert info["objective"] is None and info["hand"] is None
        strings = spy.draw(app, v).split("\n") + v.visible_text()
        drawn = "\n".join(strings)
        public_log = set(rs.log_lines())  # the log as it was then: earlier reveals are public
        this_reveal = i18n.t("log.reveal", round=truth.round, plans="")
        for i, s in enumerate(truth.seats):
            obj = truth.content.objective(s.objective)
            west, east = i18n.t(f"symbol.{obj.western}"), i18n.t(f"symbol.{obj.eastern}")
            for key in ("replay.objective", "plan.objective", "end.objective_of"):
                assert i18n.t(key, name=names[i], west=west, east=east, held=0) not in drawn
            assert f"{west}, {east}" not in drawn
            if truth.phase == "plan" and s.plan is not None:  # planned but not revealed yet
                secret = f"{names[i]} {i18n.card_name(truth, s.plan.region)} + {i18n.card_name(truth, s.plan.action)}"
                for text in strings:
                    if secret in text:  # only in a line of an earlier round's reveal
                        assert text in public_log and not text.startswith(this_reveal), (n, text)
        if n == rs.n_steps:
            break
        v.controls.forward()
    assert isinstance(rs, ReplayFace) and rs.step == len(ls.record.actions)


def test_the_viewer_in_italian_at_1920(tmp_path, monkeypatch):
    monkeypatch.setenv("GONZAGA_HOME", str(tmp_path / "home"))
    from gonzaga.app import App
    a = App(persistence.Settings(speed="instant", language="it"), size=(1920, 1080))
    a.run_frames(2)
    v = open_viewer(a, "v1-finished.json")
    labels = [getattr(w, "label", "") for w in v.widgets.items]
    assert i18n.t("replay.forward") in labels and i18n.t("replay.secrets_off") in labels
    for w in v.widgets.items:  # every control on screen, none over another
        assert a.screen.get_rect().contains(w.rect), w.label
    rects = [w.rect for w in v.widgets.items]
    assert not any(r.colliderect(o) for k, r in enumerate(rects) for o in rects[k + 1:])
    a.close()


def test_the_load_and_end_screens_open_the_viewer(app):
    from gonzaga.scenes.game import GameScene
    from gonzaga.scenes.load_game import LoadScene
    from gonzaga.scenes.replay_view import ReplayScene
    saves = persistence.saves_dir()
    for name in ("v1-finished.json", "v1-solo-round5-placing.json"):
        (saves / name).write_bytes((SAVES / name).read_bytes())
    load = app.stack.push(LoadScene(app))
    watch = [w for w in load.widgets.items if w.label == i18n.t("load.watch")]
    assert len(watch) == 2
    watch[0].activate()
    assert isinstance(app.stack.top, ReplayScene)
    app.stack.top.close()
    assert app.stack.top is load  # closing the viewer comes back to the list
    load.close()
    assert app.open_save(saves / "v1-finished.json")
    app.run_frames(3)
    g = app.stack.find(GameScene)
    while app.stack.top is not g:
        app.stack.pop()
    btn = next(w for w in g.widgets.items if w.label == i18n.t("replay.watch"))
    btn.activate()
    assert isinstance(app.stack.top, ReplayScene) and app.stack.top.rs.finished
    app.run_frames(2)
    app.stack.top.close()
    assert app.stack.top is g


def test_watching_a_finished_game_does_not_count_it(app):
    from gonzaga.table import stats
    v = open_viewer(app, "v1-finished.json")
    v.controls.to_start()
    while v.rs.step < v.rs.n_steps:  # move by move to the end: the viewer sees the game end
        v.controls.forward()
        app.run_frames(1)
    assert v.state.phase == "over" and "end" in [e.kind for e in v.feedback.events]
    assert stats.load()[0].games == []


def _run(args, tmp_path):
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy", GONZAGA_HOME=str(tmp_path / "h"),
               PYGAME_HIDE_SUPPORT_PROMPT="1")
    return subprocess.run([sys.executable, "-m", "gonzaga"] + args, capture_output=True, text=True, env=env,
                          timeout=120, cwd=ROOT)


def test_watch_from_the_command_line(tmp_path):
    p = _run(["--watch", str(SAVES / "v1-finished.json"), "--exit-after-first-frame"], tmp_path)
    assert p.returncode == 0, p.stderr[-2000:]
    assert "first_frame_ms=" in p.stdout
    bad = tmp_path / "bad.json"
    bad.write_text("{}", encoding="utf-8")
    p = _run(["--watch", str(bad), "--exit-after-first-frame"], tmp_path)
    assert p.returncode == 2 and "gonzaga:" in p.stderr
    assert bad.exists()  # watching never moves a file
    p = _run(["--watch", str(bad), "--demo"], tmp_path)
    assert p.returncode == 2
