"""Issue 50 on the desktop: a turn timer that is fair (the time behind the round's reveal
dialog is not the player's), a move the computer made for a player whose time ran out shown
to them, seat changes in the panels and banners at once (the grace period's countdown from
the server's figure, its end without a click, a return), and a resigned player's screen and
end screen. Headless, through the app's real loop with posted events; the friend is a second
``Table`` in this process; the server's clocks are the ones its code takes (the rooms' and the
upkeep's ``time``, a table's ``clock``), moved on by the test (``ServerClock``)."""
from __future__ import annotations

import socket

import pygame
import pytest

from gonzaga.net import endgame
from gonzaga.net.rooms import clock_now
from gonzaga.net.turnclock import SEEN_CAP
from gonzaga.rules import legal_actions
from gonzaga.words import i18n

from online_helpers import on_server
from scene_events import click, key
from test_online_play import ServerClock
from test_online_scenes import app, frames_until, host_game, stalled, top_name  # noqa: F401 (fixture)
from test_online_talk_scenes import wait_for

pytestmark = pytest.mark.rule("E-net")


def guest_plays(guest) -> bool:
    """The friend makes its decision when it is due (the first legal one); True if it did."""
    s = guest.session
    if s is None or s.pending is not None or guest.seat not in s.state.to_act():
        return False
    return s.submit(legal_actions(s.state, guest.seat)[0]) is None


def test_the_time_behind_the_reveal_dialog_is_not_the_players(app, monkeypatch):
    """The figure: with a 30 s timer, the time the player has when the decision first shows on
    their screen, after 15 s spent reading the reveal (the issue: 0:28 ran down to 0:21 behind it)."""
    clock = ServerClock(monkeypatch)
    game, guest = host_game(app, turn_timer=True)  # 30 s
    s, t = game.face._GameFace__s, app.table
    assert s.submit(legal_actions(s.state, 0)[0]) is None  # Ann plans; Bob too: the reveal comes
    assert wait_for(app, lambda: guest_plays(guest) or guest.session.state.phase == "place", [guest])
    assert wait_for(app, lambda: top_name(app) == "RevealScene", [guest])
    # Bob places first if the order says so; then Ann's placement is due behind her dialog
    ok = wait_for(app, lambda: (guest_plays(guest) and False) or tuple(guest.session.state.to_act()) == (0,), [guest],
                  seconds=20)
    assert ok, (guest.session.state.phase, guest.session.state.to_act(), guest.session.pending, guest.refusal,
                s.state.phase, top_name(app))
    clock.advance(15.0)  # Ann reads the reveal for 15 s (less than the cap, SEEN_CAP)
    assert SEEN_CAP > 15.0
    app.run_frames(5)
    assert top_name(app) == "RevealScene"
    ran: list = []
    on_server(app, lambda room: ran.append((room.clocks.left(0, clock_now()), room.clocks.running(0, clock_now()))))
    assert ran == [(30.0, False)]  # her clock waits for her screen
    key(app, pygame.K_RETURN)  # Continue: the placement is on her screen now
    assert wait_for(app, lambda: t.clock_of(0) is not None and t.clock_of(0)[1], [guest])  # her clock runs
    left = t.clock_of(0)[0]
    assert 29.0 <= left <= 30.0, left  # the whole timer, from the moment she can see the decision
    assert game.online.talk.time_left() in (29, 30)
    guest.close()


def test_a_clock_that_runs_behind_the_reveal_is_shown_on_it(app, monkeypatch):
    """A player who leaves the reveal up past the cap (SEEN_CAP) sees their clock on it."""
    clock = ServerClock(monkeypatch)
    game, guest = host_game(app, turn_timer=True)
    s = game.face._GameFace__s
    assert s.submit(legal_actions(s.state, 0)[0]) is None
    assert wait_for(app, lambda: guest_plays(guest) or guest.session.state.phase == "place", [guest])
    assert wait_for(app, lambda: top_name(app) == "RevealScene", [guest])
    assert wait_for(app, lambda: (guest_plays(guest) and False) or tuple(guest.session.state.to_act()) == (0,),
                    [guest], seconds=20)
    assert game.online.dialog_clock() is None  # her clock waits for the board
    clock.advance(SEEN_CAP + 5)  # she leaves the dialog up: the cap starts her clock behind it
    assert wait_for(app, lambda: game.online.dialog_clock() is not None, [guest])
    assert game.online.dialog_clock() in ("Your time runs: 0:25", "Your time runs: 0:24")
    app.run_frames(2)  # drawn on the dialog
    assert top_name(app) == "RevealScene"
    guest.close()


def test_a_move_made_for_a_player_out_of_time_is_shown_to_them(app, monkeypatch):
    clock = ServerClock(monkeypatch)
    game, guest = host_game(app, turn_timer=True)
    s, t = game.face._GameFace__s, app.table
    assert wait_for(app, lambda: t.clock_of(0) is not None and t.clock_of(0)[1], [guest])  # the hand is on screen
    clock.advance(30.0)
    assert wait_for(app, lambda: s.state.seats[0].plan is not None, [guest])  # the computer planned for Ann
    plan = s.state.seats[0].plan
    lines, buttons = game.online.banner()
    cards = f"{i18n.card_name(s.state, plan.region)} + {i18n.card_name(s.state, plan.action)}"
    assert lines[0].startswith(f"Your time ran out: the computer planned for you: {cards}")
    assert buttons == [game.online.ok_button]
    assert "Round 1: time ran out: the computer planned for Ann." in s.log_lines()
    assert wait_for(app, lambda: "Round 1: time ran out: the computer planned for Ann." in guest.session.log_lines(),
                    [guest])  # the friend's log says so too
    app.run_frames(1)
    click(app, game.online.ok_button.rect.center, 2)
    assert t.moved_for_you is None and game.online.banner()[1] != [game.online.ok_button]
    guest.close()


def test_a_dropped_friend_shows_the_servers_countdown_then_the_hand_over_without_a_click(app):
    game, guest = host_game(app)  # the grace period: 2 minutes
    s = game.face._GameFace__s
    guest.conn._ws.socket.shutdown(socket.SHUT_RDWR)  # the friend's network goes away
    assert frames_until(app, lambda: not app.table.seats[1].connected, [guest])
    lines, buttons = game.online.banner()
    assert lines[0] == "Waiting for Bob: not connected." and buttons == []  # no button that only says "later"
    assert lines[1] in ("Their seat is kept for them 2:00 more; then the host may let the computer play.",
                        "Their seat is kept for them 1:59 more; then the host may let the computer play.")
    assert game.panel.seat_lines(1, s.state.seats[1], False, 300)["status"] in (
        "not connected, seat kept 2:00", "not connected, seat kept 1:59")  # in Bob's panel
    assert "Bob's connection dropped: their seat is kept for them for 120 s." in s.log_lines()
    on_server(app, lambda room: setattr(room.table, "grace", 0.0))  # as if the two minutes had passed
    # nothing is clicked: the server pushes the end of the grace period, the button comes
    assert frames_until(app, lambda: game.online.banner()[1] == [game.online.ai_button])
    assert game.panel.seat_lines(1, s.state.seats[1], False, 300)["status"] == "not connected: the computer may take over"
    assert "Bob has not come back: the host may let the computer play for them." in s.log_lines()
    app.run_frames(1)  # drawn: the button has its place
    click(app, game.online.ai_button.rect.center)
    assert frames_until(app, lambda: s.seats[1].is_ai)
    assert game.panel.seat_lines(1, s.state.seats[1], False, 300)["status"].startswith("the computer plays for them")
    assert "The computer (Medium) plays for Bob from now on." in s.log_lines()
    assert frames_until(app, lambda: s.state.seats[1].plan is not None)  # the computer planned for him; Ann has not
    n = s.n
    guest.retry()  # Bob comes back: the host's panel says so at once, with no move in between
    assert frames_until(app, lambda: not s.seats[1].is_ai, [guest])
    assert s.n == n and game.panel.seat_lines(1, s.state.seats[1], False, 300)["status"] != "the computer plays for them"
    assert frames_until(app, lambda: "Bob is back and plays their own seat again." in s.log_lines(), [guest])
    guest.close()


def test_a_resigned_player_is_told_so_and_never_named_the_winner(app, monkeypatch):
    monkeypatch.setattr(endgame, "RESIGN_LEVEL", "random")  # the game to its end quickly
    game, guest = host_game(app)
    s = game.face._GameFace__s
    assert app.table.resign()
    assert wait_for(app, lambda: app.table.resigned() and s.humans == [], [guest])
    text = game.online.watch_text()
    assert text.startswith("You resigned: the computer plays your seat to the end.")
    assert "Your plan is made" not in text
    assert game.panel.seat_lines(0, s.state.seats[0], False, 300)["status"].startswith("you resigned")
    assert wait_for(app, lambda: "Ann resigned: the computer plays their seat to the end." in guest.session.log_lines(),
                    [guest])
    assert guest.resign()  # both: the computer plays to the end
    assert wait_for(app, lambda: s.state.phase == "over", [guest], seconds=600), \
        stalled(app, [("host", app.table, s), ("guest", guest, guest.session)])
    app.run_frames(3)  # the end screen drawn
    rows = s.score_rows()
    names = [game.bar.end_name(r) for r in rows]
    assert names == ["Ann  (resigned)", "Bob  (resigned)"] and not any(r["winner"] for r in rows)
    assert "winner" not in " ".join(names)
    top = ", ".join(s.seat_name(i) for i in s.state.winners)
    assert s.result_text() == f"Highest score: {top}, played by the computer after resigning."
    i18n.set_language("it")
    try:
        assert game.bar.end_name(rows[0]) == "Ann  (ha abbandonato)"
    finally:
        i18n.set_language("en")
    guest.close()


def test_the_bar_never_says_a_dropped_friend_is_placing(app):
    game, guest = host_game(app)
    s = game.face._GameFace__s
    assert s.submit(legal_actions(s.state, 0)[0]) is None
    assert wait_for(app, lambda: guest_plays(guest) or guest.session.state.phase == "place", [guest])
    assert wait_for(app, lambda: top_name(app) == "RevealScene", [guest])
    key(app, pygame.K_RETURN)
    if tuple(s.state.to_act()) == (0,):  # Ann places first: then it is Bob's turn
        assert wait_for(app, lambda: s.pending is None and s.state.to_act() == (0,) and
                        s.submit(legal_actions(s.state, 0)[0]) is None, [guest])
    assert wait_for(app, lambda: tuple(s.state.to_act()) == (1,), [guest])
    assert game.online.watch_text() == "Bob is placing..."
    guest.conn._ws.socket.shutdown(socket.SHUT_RDWR)  # his network goes away while he places
    assert frames_until(app, lambda: not app.table.seats[1].connected, [guest])
    assert game.online.watch_text() == "Waiting for Bob: not connected."
    guest.close()
