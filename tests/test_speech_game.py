"""A whole solo game against the AI played by keys alone through the real event loop, with the
recording voice: every decision the player is asked for was announced before it was asked
(issue 49). The counts are printed (run with -s to see them)."""
from __future__ import annotations

import pygame

from gonzaga.table.session import SeatSpec
from gonzaga.ui.speech import RecordingVoice, Speech
from gonzaga.ui.speech.narrator import Narrator
from gonzaga.words import i18n
from scene_events import key


def listen(app) -> RecordingVoice:
    voice = RecordingVoice()
    app.speech.close()
    app.speech = Speech("on", voice=voice)
    app.narrator = Narrator(app.speech)
    return voice


def heard_since(app, start: int) -> list[str]:
    assert app.speech.idle(5.0)
    return app.speech.history[start:]


def tab_to(app, want, limit=40) -> str:
    """Tab until the focused widget is one ``want(widget)`` accepts; return what was heard for it."""
    for _ in range(limit):
        n = len(app.speech.history)
        key(app, pygame.K_TAB)
        w = app.stack.top.widgets.focus
        if w is not None and want(w):
            said = [x for x in heard_since(app, n) if x.startswith(w.label)]
            assert said, f"focus on {w.label!r} was not announced: {heard_since(app, n)}"
            return said[-1]
    raise AssertionError("no such widget reached by Tab")


def first_points(g) -> int:
    """What the ghost's spot scores now, worked out from the rules (not from the speech)."""
    from gonzaga.rules import scoring
    pc = g.place
    cells, _c = pc.footprint()
    return scoring.immediate_points(pc.state, pc.seat, pc.state.board.mask_of(cells))


def test_solo_game_by_keys_alone_is_announced(make_app):
    app = make_app((1280, 720), speed="instant")
    voice = listen(app)
    app.start_session([SeatSpec("Ann", "human", colour="red"), SeatSpec("Bot", "ai", "greedy", "blue"),
                       SeatSpec("Cat", "ai", "greedy", "green")], 1234)
    app.run_frames(3)
    from gonzaga.scenes.game import GameScene
    g = app.stack.find(GameScene)
    decisions = announced = 0
    missed: list = []
    seen_end = 0  # the voice listened from before the game began
    for _step in range(400):
        app.run_frames(2)
        top = app.stack.top
        if g.state.phase == "over":
            break
        if top is not g:  # the reveal (plans read out when it opened): Enter closes it
            key(app, pygame.K_RETURN, frames=2)
            continue
        mode = g.screen_mode()
        if mode not in ("plan", "place"):
            continue
        decisions += 1
        said = heard_since(app, seen_end)
        want = "Round " if mode == "plan" else "Ann, place your fief"
        if any(s.startswith(want) for s in said):
            announced += 1
        else:
            missed.append((mode, g.state.round, said))
        if mode == "plan":
            tab_to(app, lambda w: getattr(w, "card", "") in g.state.region_cards() and w.enabled)
            n = len(app.speech.history)
            key(app, pygame.K_RETURN)  # chosen: the hand is laid out again, the focus stays and says so
            assert any(x.endswith("button. selected") for x in heard_since(app, n)), heard_since(app, n)
            tab_to(app, lambda w: getattr(w, "card", "") in ("A", "B") and w.enabled)
            key(app, pygame.K_RETURN)
            said = tab_to(app, lambda w: w.label == i18n.t("plan.confirm") and w.enabled)
            seen_end = len(app.speech.history)  # what the Enter below brings is the next decision's
            key(app, pygame.K_RETURN, frames=2)
        else:
            pc = g.place
            if not pc.has_legal_spot:  # the fief fits nowhere: it is donated, as announced
                assert any("Shift+D donates it" in s for s in heard_since(app, seen_end))
                key(app, pygame.K_d, mod=pygame.KMOD_SHIFT)
                assert heard_since(app, 0)[-1].startswith("Donate your fief?")
                seen_end = len(app.speech.history)
                key(app, pygame.K_RETURN, frames=2)
                continue
            key(app, pygame.K_RETURN)  # the ghost on a legal spot, its hex described
            assert pc.anchor is not None
            said = heard_since(app, seen_end)
            assert "points" in said[-1], said[-1:]
            n = len(app.speech.history)
            key(app, pygame.K_b)  # the best places read out, the ghost put on the best
            best = heard_since(app, n)
            assert best and best[-1].startswith("Best places:"), best
            first = pc.action()
            assert first is not None and f"{first_points(g)} points at" in best[-1]
            key(app, pygame.K_b)  # the next one
            said = heard_since(app, n)[-1]
            assert said.startswith("Best place 2 of") or said.startswith("Best place 1 of 1"), said
            assert pc.action() is not None
            seen_end = len(app.speech.history)
            key(app, pygame.K_RETURN, frames=2)
    assert g.state.phase == "over", "the game did not end"
    said = heard_since(app, 0)
    assert any(s.startswith("The game is over. Winner:") for s in said)
    print(f"decisions={decisions} announcements={len(app.speech.history)} spoken={len(voice.spoken)} "
          f"announced_before_asked={announced}")
    assert decisions >= 2 * 8 and announced == decisions, missed
