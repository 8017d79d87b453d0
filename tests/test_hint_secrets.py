"""Hints keep secrets and play what they show (issue 45), through the real event loop.

- A player's bug: in a hot-seat game, H during a placement showed "your objective: Norwich"
  on the open screen (a placement has no curtain: everyone at the computer sees it). On a
  shared screen the hint's words leave the objective out; alone at the screen (solo) they say it.
- "A hint's plan (Britannia, Alliance, King's Privilege) was not the plan Enter played (Germania,
  Harbors)": a hint shown for a plan was dropped the moment another seat's (hidden) plan landed,
  one frame before the Enter meant for it, which then confirmed the cards selected in the hand;
  and Enter while the hint was being worked out ("Thinking...") confirmed the hand too. Now a
  hint stays while its seat's decision is the same, and Enter waits for a hint on its way.
"""
from __future__ import annotations

import gc

import pygame
import pytest

from gonzaga.rules import Plan, legal_actions, legal_placements, legal_plans
from gonzaga.table import hints
from gonzaga.table.session import SeatSpec, Session
from gonzaga.ui import widgets as W
from gonzaga.words import i18n

from scene_events import key
from test_scenes import game_scene, play_turn_by_events, press

SIZE = (1600, 1000)


def objective_words() -> str:
    """The start of the hint's words that name the seat's objective ("your objective: ")."""
    return i18n.t("hint.objective", cities="\x00").split("\x00")[0]


def covering_placement(v, seat):
    """A legal placement of ``seat`` (from its own view) on one of its objective cities not held yet."""
    st = v.seats[seat]
    if st.objective is None:
        return None
    cities = set(v.content.objective_cities(st.objective))
    for p in legal_placements(v, seat):
        cells = set(v.content.fiefs[p.fief].footprint(p.anchor, p.rotation)[0])
        if cells & cities and not st.held & v.board.mask_of(list(cells & cities)):
            return p
    return None


class ScriptedHints:
    """The hint service's worker: answers at once (a placement on the seat's objective when there
    is one, as a strong bot would), or holds its answers while ``open`` is False."""

    def __init__(self):
        self.n = 0
        self.answers: dict[int, object] = {}
        self.open = True

    def request(self, level, seed, v, seat):
        self.n += 1
        if v.phase == "plan":
            self.answers[self.n] = legal_plans(v, seat)[-1]
        else:
            self.answers[self.n] = covering_placement(v, seat) or legal_actions(v, seat)[0]
        return self.n

    def result(self, ticket):
        return self.answers.pop(ticket, None) if self.open else None

    def cancel_all(self):
        self.answers.clear()

    def close(self):
        pass


def drawn(app, scene, monkeypatch) -> str:
    seen: list[str] = []
    real = W.text

    def spy(s, *a, **k):
        seen.append(s)
        return real(s, *a, **k)
    with monkeypatch.context() as m:
        m.setattr(W, "text", spy)
        scene.draw(pygame.Surface(app.size))
    return "\n".join(seen)


def wait_hint(app, g, frames=600):
    for _ in range(frames):
        h = g.assist.hint()
        if h is not None:
            return h
        app.run_frames(1)
    raise AssertionError("no hint came")


def to_own_placement(app, seats, want_cover=True):
    """A game of ``seats`` played by events until a human places on a turn where one of its
    objective cities can be taken (seeds tried in turn)."""
    for seed in range(1, 40):
        app.start_session(seats, seed)
        app.run_frames(2)
        g = game_scene(app)
        for _ in range(400):
            if g.place is not None and app.stack.top is g:
                break
            play_turn_by_events(app, g)
        if g.place is not None and (not want_cover or covering_placement(g.place.state, g.place.seat) is not None):
            return g
    raise AssertionError("no placement on an objective city in 40 games")


@pytest.fixture
def app(make_app):
    a = make_app(SIZE)
    hints.service(a)._worker = ScriptedHints()
    return a


def test_h_on_a_hot_seat_placement_never_shows_the_objective(app, monkeypatch):
    g = to_own_placement(app, [SeatSpec("Ann", "human", colour="red"), SeatSpec("Bob", "human", colour="blue")])
    assert g.curtain_needed() and app.stack.top is g and g.screen_mode() == "place"  # the open screen
    key(app, pygame.K_h)
    h = wait_hint(app, g)
    text = drawn(app, g, monkeypatch)
    assert h.headline in text  # the hint is on the screen
    assert objective_words() not in text, text
    objective = app.session.state.seats[g.place.seat].objective
    cities = app.session.state.content.objective_cities(objective)
    on_spot = [app.session.state.content.sites[c].name for c in cities if c in h.cells
               and c in app.session.state.content.sites]
    assert on_spot  # the hinted spot takes an objective city ...
    assert not any(f"{objective_words()}{n}" in text for n in on_spot)  # ... which the words do not call one


def test_h_alone_at_the_screen_still_names_the_objective(app, monkeypatch):
    g = to_own_placement(app, [SeatSpec("Ann", "human", colour="red"), SeatSpec("Bot", "ai", "greedy", "blue")])
    assert not g.curtain_needed()
    key(app, pygame.K_h)
    wait_hint(app, g)
    assert objective_words() in drawn(app, g, monkeypatch)


def test_a_plans_hint_stays_when_another_seat_plans_and_enter_plays_it(app, monkeypatch):
    held: list = []  # the AI seat's answers, held back until the hint is on the screen
    real = app.worker.result
    monkeypatch.setattr(app.worker, "result", lambda t: None if held is not None and not held else real(t))
    app.start_session([SeatSpec("Ann", "human", colour="red"), SeatSpec("Bot", "ai", "greedy", "blue")], 3)
    app.run_frames(3)
    g = game_scene(app)
    s = app.session
    assert g.private_seat == 0 and s.state.seats[1].plan is None
    st = g.state  # Ann selects two cards of her own
    press(app, i18n.card_name(st, next(r for r in st.region_cards() if r not in st.seats[0].unavailable)))
    press(app, i18n.t("card.B"))
    key(app, pygame.K_h)
    h = wait_hint(app, g)
    assert isinstance(h.action, Plan) and (h.action.region, h.action.action) != (g.hand.region, g.hand.action)
    held.append(True)  # the AI's plan lands now, while the hint is shown
    for _ in range(600):
        app.run_frames(1)
        if s.state.seats[1].plan is not None:
            break
    assert s.state.seats[1].plan is not None and s.state.phase == "plan"
    assert g.assist.hint() is h  # Ann's decision is the same: her hint stays
    n = len(s.record.actions)
    key(app, pygame.K_RETURN, frames=2)
    assert s.record.actions[n] == h.action  # Enter plays the hint shown, not the cards selected


def test_enter_while_a_hint_is_worked_out_waits_for_it(app):
    svc = hints.service(app)
    app.start_session([SeatSpec("Ann", "human", colour="red"), SeatSpec("Bot", "ai", "greedy", "blue")], 3)
    app.run_frames(3)
    g = game_scene(app)
    s = app.session
    st = g.state
    press(app, i18n.card_name(st, next(r for r in st.region_cards() if r not in st.seats[0].unavailable)))
    press(app, i18n.t("card.B"))
    svc._worker.open = False  # "Thinking..."
    key(app, pygame.K_h)
    assert g.assist.busy()
    n = len(s.record.actions)
    key(app, pygame.K_RETURN, frames=2)
    assert len(s.record.actions) == n and g.private_seat == 0  # nothing played: the hand is still open
    svc._worker.open = True
    h = wait_hint(app, g)
    key(app, pygame.K_RETURN, frames=2)
    assert s.record.actions[n] == h.action


def test_a_game_is_named_by_a_token_python_never_gives_again():
    """Hints were kept by ``id(session)``, which Python gives again to a new object once the old
    one is freed (a game after a game): the hint service keys on the game's token instead."""
    seats = [SeatSpec("Ann", "human", colour="red"), SeatSpec("Bob", "human", colour="blue")]
    tokens = []
    for seed in range(40):  # one game after another, each freed before the next (as the app does)
        s = Session.new(seats, seed)
        tokens.append(s.token)
        s.close()
        del s
        gc.collect()
    # CPython usually gives an id again here, but that is its allocator's choice, not a promise
    # (a clean clone's run on two workers once gave 40 different ids): the test needs only that
    # tokens are never given again, and that the service keys on them (below)
    assert len(set(tokens)) == len(tokens)
    svc = hints.HintService(worker=ScriptedHints())
    a, b = Session.new(seats, 1), Session.new(seats, 2)
    assert a.hint_key(0) == b.hint_key(0)  # the same decision of the same seat, in another game
    svc.request(a, 0)
    assert svc.poll(a) is not None and svc.current(b) is None and svc.poll(b) is None
