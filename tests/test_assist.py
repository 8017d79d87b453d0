"""The game screen's learning aids through the real event loop (issue 11): the Hint button and
H (never blocking the frame loop, cancellable, off in the settings), Take back in a solo game,
a refusal's "why?" opening the page of the rule that refused, and the end screen's mark."""
from __future__ import annotations

import threading
import time

import pygame
import pytest

from gonzaga.table import hints, persistence
from gonzaga.ai.worker import DecisionWorker
from gonzaga.rules import placement_problem
from gonzaga.table.session import SeatSpec
from gonzaga.ui import keys
from gonzaga.words import i18n
from scene_events import click, key, post


@pytest.fixture
def app(make_app):
    a = make_app((1280, 720))
    svc = hints.service(a)  # a quick level in a thread: the tests do not wait for a search
    svc._worker = DecisionWorker(use_processes=False)
    svc.level = "greedy"
    return a


def drag(app, start, end):
    post(pygame.MOUSEBUTTONDOWN, pos=start, button=1)
    app.run_frames(1)
    for p in (((start[0] + end[0]) // 2, (start[1] + end[1]) // 2), end):
        post(pygame.MOUSEMOTION, pos=p, rel=(0, 0), buttons=(1, 0, 0))
        app.run_frames(1)
    post(pygame.MOUSEBUTTONUP, pos=end, button=1)
    app.run_frames(1)


def press(app, label, frames=1):
    for w in app.stack.top.widgets.items:
        if getattr(w, "label", None) == label and w.visible and w.enabled:
            click(app, w.rect.center, frames)
            return
    raise AssertionError(f"no button {label!r}")


def solo(app, seed=3, bot="greedy"):
    from gonzaga.scenes.game import GameScene
    app.start_session([SeatSpec("Me", "human", colour="red"), SeatSpec("Bot", "ai", bot, "blue")], seed)
    app.run_frames(3)
    g = app.stack.find(GameScene)
    assert g.private_seat == 0
    return g


def plan(app, g, action="B"):
    st = g.state
    s = st.seats[g.private_seat]
    region = next(r for r in st.region_cards() if r not in s.unavailable)
    action = action if action not in s.unavailable else next(a for a in "BAC" if a not in s.unavailable)
    press(app, i18n.card_name(st, region))
    press(app, i18n.t(f"card.{action}"))
    press(app, i18n.t("plan.confirm"), frames=2)


def to_placement(app, g, limit=3000):
    for _ in range(limit):
        if g.place is not None and app.stack.top is g:
            return g.place
        if app.stack.top is not g:
            key(app, pygame.K_RETURN)
        app.run_frames(1)
    raise AssertionError("never my turn to place")


def test_hint_by_H_for_the_plan_and_the_placement(app):
    g = solo(app)
    s = app.session
    key(app, pygame.K_h)
    for _ in range(3000):
        if g.assist.hint() is not None:
            break
        app.run_frames(1)
    h = g.assist.hint()
    assert h is not None and h.cards and s.assists["hints"] == 1
    assert h.seat == 0 and h.reason and h.headline.startswith("Hint:")
    key(app, pygame.K_h)  # H again hides it
    assert g.assist.hint() is None and s.assists["hints"] == 1
    plan(app, g)
    to_placement(app, g)
    compass = g.renderer.compass_rect()  # the whole board is shown: its compass rose is there
    assert compass is not None and not g.assist.hint_button.rect.colliderect(compass)
    assert g.board_rect.contains(g.assist.hint_button.rect)
    click(app, g.assist.hint_button.rect.center)  # the button works like H
    for _ in range(3000):
        if g.assist.hint() is not None:
            break
        app.run_frames(1)
    h = g.assist.hint()
    assert h is not None and s.assists["hints"] == 2
    assert h.cells or h.what == i18n.t("hint.what_donate")
    pygame.image.save(app.screen, str(persistence.data_dir() / "hint.png"))  # drawn without error
    act = h.action
    assert s.submit(act) is None  # the hinted move is legal; the hint goes with the position
    app.run_frames(2)
    assert g.assist.hint() is None


def test_a_hint_never_blocks_the_frame_loop_and_Esc_cancels_it(app, monkeypatch):
    from gonzaga.ai import roster
    from gonzaga.ai.base import Bot
    from gonzaga.rules import legal_actions
    go = threading.Event()

    class Slow(Bot):
        name = "test-slow-hint"

        def choose(self, v, seat):
            go.wait(30)
            return legal_actions(v, seat)[0]

    monkeypatch.setattr(roster, "LEVELS", roster.LEVELS + (roster.Level("test-slow-hint", Slow),))
    hints.service(app).level = "test-slow-hint"
    g = solo(app)
    try:
        key(app, pygame.K_h)
        assert g.assist.busy()
        n = app.frames
        worst = 0.0
        for _ in range(30):
            t0 = time.perf_counter()
            app.run_frames(1)
            worst = max(worst, time.perf_counter() - t0)
        assert app.frames == n + 30 and worst < 0.25, worst
        assert "Working out a hint" in " ".join(_drawn_text(g))
        key(app, pygame.K_ESCAPE)  # Esc cancels the hint, it does not open the menu
        assert not g.assist.busy() and app.stack.top is g
    finally:
        go.set()
    app.run_frames(3)
    assert g.assist.hint() is None and app.session.assists["hints"] == 0


def _drawn_text(g):
    return [i18n.t("hint.thinking", **keys.labels())] if g.assist.busy() else []


def test_hints_can_be_switched_off_in_the_settings(app):
    app.settings.hints = False
    g = solo(app)
    key(app, pygame.K_h)
    app.run_frames(3)
    assert not g.assist.busy() and g.assist.hint() is None
    assert g.assist.hint_button not in g.assist._buttons()
    assert any(i18n.t("hint.off") in t for t, _ in app.toasts)
    # the settings screen has the row and it is saved
    from gonzaga.scenes.settings import SettingsScene
    app.stack.push(SettingsScene(app))
    app.run_frames(1)
    on = [w for w in app.stack.top.widgets.items if getattr(w, "label", "") == i18n.t("settings.on")]
    hint_on = min(on, key=lambda w: abs(w.rect.y - next(y for lbl, y in app.stack.top.rows
                                                       if lbl == i18n.t("settings.hints"))))
    click(app, hint_on.rect.center)
    assert app.settings.hints is True
    assert persistence.load_settings().hints is True


def test_take_back_in_a_solo_game_by_the_button_and_ctrl_z(app):
    """The human places first; while the AI's move is still on show, Take back undoes both."""
    g = solo(app, seed=6)
    s = app.session
    for _ in range(12):
        plan(app, g, action="A")
        s.ai_delay = 30.0  # the AI's placement stays on show: the round goes on
        for _ in range(3000):
            if app.stack.top is not g:
                key(app, pygame.K_RETURN)
            if s.state.phase == "place" and (g.place is not None or s.ai_showing is not None):
                break
            app.run_frames(1)
        if g.place is not None and s.state.turn == 0:
            break
        s.ai_delay = 0.0
        for _ in range(3000):  # let the round finish (AI seats think in a thread); play my placement if it comes
            if s.state.phase == "plan" and g.private_seat is not None:
                break
            if g.place is not None:
                press(app, i18n.t("place.donate"), frames=2)
            app.run_frames(1)
    else:
        raise AssertionError("the human never placed first")
    pc = g.place
    before = ([a.to_text() for a in s.record.actions], s.state)
    spot = next((k, a) for k in range(6) for a in sorted(pc.legal[k]))
    while pc.rotation != spot[0]:
        key(app, pygame.K_r)
    drag(app, g.placing.tray_rect().center, g.renderer.hex_to_screen(spot[1]))
    key(app, pygame.K_RETURN, frames=3)
    assert len(s.record.actions) == len(before[0]) + 1
    for _ in range(3000):
        if s.ai_showing is not None or len(s.record.actions) > len(before[0]) + 1:
            break
        app.run_frames(1)
    assert g.assist.takeback_seat() == 0 and g.assist.tb_button in g.assist._buttons()
    click(app, g.assist.tb_button.rect.center, frames=2)
    assert [a.to_text() for a in s.record.actions] == before[0] and s.state == before[1]
    assert s.assists["takebacks"] == 1 and g.place is not None and g.place.seat == 0
    # the same again with Ctrl+Z
    drag(app, g.placing.tray_rect().center, g.renderer.hex_to_screen(spot[1]))
    key(app, pygame.K_RETURN, frames=3)
    key(app, pygame.K_z, mod=pygame.KMOD_CTRL, frames=2)
    assert [a.to_text() for a in s.record.actions] == before[0] and s.assists["takebacks"] == 2
    saved = persistence.read_save(app.autosave_file)
    assert saved.model.assists is not None and saved.model.assists.takebacks == 2


def test_a_refusals_why_opens_the_page_of_the_rule(app):
    from gonzaga.scenes.rules_reference import RulesReferenceScene
    from gonzaga.words.rules_pages import page_for_rule
    g = solo(app, seed=9)
    plan(app, g)
    pc = to_placement(app, g)
    st = app.session.state
    bad = next(h for h in st.board.hexes if (w := placement_problem(st, pc.seat, pc.fief, h, pc.rotation,
                                                                    pc.plan.region, pc.plan.action)) is not None
               and w.rule in ("P8", "P9", "P7", "P1"))
    drag(app, g.placing.tray_rect().center, g.renderer.hex_to_screen(bad))
    fb = pc.feedback()
    assert not fb.ok
    app.run_frames(1)
    assert g.assist.why_rule == fb.rule and g.assist.why_rect is not None
    click(app, g.assist.why_rect.center)
    top = app.stack.top
    assert isinstance(top, RulesReferenceScene) and top.page == page_for_rule(fb.rule)
    assert not any(fb.rule in line for line in top.page_lines()), "the id is never shown"


def test_the_end_screen_marks_a_helped_game(app):
    g = solo(app)
    assert g.assist.mark_text() == ""
    app.session.assists.update(takebacks=2, hints=3)
    text = g.assist.mark_text()
    assert "2 take-back" in text and "3 hint" in text
