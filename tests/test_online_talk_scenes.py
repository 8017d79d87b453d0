"""Issue 39 on the desktop: the chat line and the quick words, Resign behind its question, the
host's grace period and turn timer, watching a game from the join screen, and a rematch that
puts the new game on the screen. Headless, through the app's real loop with posted events; the
friend is a second ``Table`` in this process (helpers from ``test_online_scenes``)."""
from __future__ import annotations

import pygame
import pytest

from gonzaga.rules import legal_actions
from gonzaga.words import i18n

import screen_walk as SW
from scene_events import click, key
from test_online_scenes import app, button, frames_until, host_game, top_name, type_text  # noqa: F401 (fixture)


def guest_lines(guest) -> str:
    return " | ".join(guest.session.log_lines())


def wait_for(app, cond, others=(), seconds: float = 120.0) -> bool:
    """``frames_until`` by the clock alone, for at most ``seconds``: a count of frames says nothing
    of how far the server's thread got meanwhile, which on a loaded machine may be much less than alone."""
    return frames_until(app, cond, others, frames=0, seconds=seconds)


def test_the_host_chats_and_sends_a_quick_word(app):
    game, guest = host_game(app)
    talk = game.online.talk
    app.run_frames(1)  # drawn: the strip has its place
    assert talk.shown() and game.private_seat == 0
    click(app, talk.field.rect.center)
    type_text(app, "d buona fortuna")  # typed words are not the hand's shortcuts
    assert talk.field.value == "d buona fortuna" and game.private_seat == 0
    key(app, pygame.K_RETURN)  # says it (and does not confirm the plan)
    assert talk.field.value == "" and game.face._GameFace__s.state.seats[0].plan is None
    # the friend's log and the host's own, each when the server's echo reaches it (in either order)
    assert wait_for(app, lambda: "Ann: d buona fortuna" in guest_lines(guest)
                    and "Ann: d buona fortuna" in " | ".join(game.face._GameFace__s.log_lines()), [guest])
    click(app, talk.emote_toggle.rect.center)
    app.run_frames(1)
    assert talk.emotes_open
    click(app, talk.emote_buttons[2].rect.center)  # "Well played!"
    assert not talk.emotes_open
    assert frames_until(app, lambda: "Ann: Well played!" in guest_lines(guest), [guest])
    guest.close()


def test_resigning_asks_first_then_the_ai_plays_the_seat(app):
    game, guest = host_game(app)
    key(app, pygame.K_ESCAPE)
    assert top_name(app) == "RemoteMenuScene"
    click(app, button(app, i18n.t("online.resign")).rect.center, 2)
    assert top_name(app) == "MessageScene"  # the question: nothing sent yet
    assert button(app, i18n.t("common.cancel"))  # and a plain way out
    key(app, pygame.K_ESCAPE)
    app.run_frames(10)
    assert not app.table.seats[0].resigned and top_name(app) == "RemoteMenuScene"  # back to the menu
    click(app, button(app, i18n.t("online.resign")).rect.center, 2)
    click(app, button(app, i18n.t("online.resign")).rect.center, 2)  # the question's Resign
    assert top_name(app) == "GameScene"
    assert frames_until(app, lambda: guest.seats[0].resigned and guest.seats[0].kind == "ai" and app.table.seats[0].resigned,
                        [guest])
    assert game.face._GameFace__s.seat_name(0) == "Ann"  # the seat keeps its player's name; the AI plays it
    key(app, pygame.K_ESCAPE)
    assert top_name(app) == "RemoteMenuScene"
    assert all(getattr(w, "label", "") != i18n.t("online.resign") for w in app.stack.top.widgets.items)
    guest.close()


def test_the_host_chooses_the_grace_period_and_a_turn_timer(app):
    click(app, button(app, i18n.t("title.host_online")).rect.center, 2)
    host = app.stack.top
    assert host.grace == 120 and host.turn_secs is None  # 2 minutes, no timer
    assert host.grace_button.label == "Seat kept: 2 min" and host.timer_button.label == "Turn timer: none"
    click(app, host.grace_button.rect.center)  # each click: the next choice
    click(app, host.timer_button.rect.center)
    assert host.grace_button.label == "Seat kept: 5 min" and host.timer_button.label == "Turn timer: 30 s"
    type_text(app, "Ann")
    click(app, button(app, i18n.t("online.host_button")).rect.center, 2)
    table = app.table
    assert frames_until(app, lambda: table.code is not None and len(table.seats) == 2)
    room = table.server.server.rooms[table.game]
    assert (room.grace, room.turn_secs) == (300, 30) and (table.grace, table.turn_secs) == (300, 30)


def test_watching_a_game_from_the_join_screen(app, tmp_path):
    from gonzaga.scenes.game import GameScene
    from gonzaga.scenes.online import JoinScene
    game, guest = host_game(app)
    host_table = app.table
    app.table = None  # the spectator is this app; the host's game goes on in this process
    app.session = None
    app.stack.push(JoinScene(app, host_table.url, host_table.code, ""))
    app.run_frames(1)
    click(app, button(app, i18n.t("online.watch")).rect.center, 2)
    watcher = app.table
    assert watcher is not host_table and watcher.watching
    assert frames_until(app, lambda: app.stack.find(GameScene) is not None
                        and app.stack.find(GameScene).face._GameFace__s.table is watcher, [guest, host_table])
    screen = app.stack.find(GameScene)
    s = screen.face._GameFace__s
    assert s.seat is None and s.humans == [] and not screen.online.talk.shown()
    assert all(x.objective is None for x in s.state.seats)  # the public view: no seat's secrets
    assert screen.online.watch_text() == "Watching: you see what everyone at the table sees. Waiting for plans: Ann, Bob"
    assert frames_until(app, lambda: host_table.watchers == 1, [guest, host_table])
    guest.close()
    host_table.close()


def test_a_rematch_puts_the_new_game_on_the_screen(app, monkeypatch):
    # every wait is on its condition with a generous deadline (it failed once under load with
    # waits of a few thousand frames and a fixed three frames before the Rematch button was read)
    from gonzaga.net import endgame
    from gonzaga.scenes.game import GameScene
    monkeypatch.setattr(endgame, "RESIGN_LEVEL", "random")  # the game to its end quickly
    game, guest = host_game(app)
    old, old_game = game.face._GameFace__s, app.table.game
    assert app.table.resign() and guest.resign()  # the server's AI plays both seats to the end
    assert wait_for(app, lambda: old.humans == [], [guest])  # resigned: the reveals go on by themselves
    assert wait_for(app, lambda: old.state.phase == "over" and guest.session.state.phase == "over",
                    [guest], seconds=600)
    screen = app.stack.find(GameScene)
    talk = screen.online.talk
    assert wait_for(app, lambda: talk.rematch_shown() and talk.rematch_button.rect.w > 0)  # drawn, so placed
    click(app, talk.rematch_button.rect.center, 2)
    assert not talk.rematch_button.enabled
    assert wait_for(app, lambda: "waiting for 1 more" in talk.rematch_words(), [guest])
    assert guest.ask_rematch()
    assert wait_for(app, lambda: app.stack.find(GameScene) is not None
                    and app.stack.find(GameScene).face._GameFace__s is not old, [guest])
    new = app.stack.find(GameScene)
    assert new.face._GameFace__s is app.table.session and new.face._GameFace__s.state.phase in ("plan", "setup")
    assert app.table.game != old_game
    assert wait_for(app, lambda: app.table.status == "connected")  # the same connection goes on
    assert wait_for(app, lambda: new.private_seat == 0, [guest])  # this seat's hand, in the new game
    guest.close()


@pytest.mark.rule("E-net")
def test_the_turn_timer_counts_down_from_the_servers_seconds(app):
    game, guest = host_game(app, turn_timer=True)  # 30 s
    talk, t, s = game.online.talk, app.table, game.face._GameFace__s
    # the hand is on the screen: the server is told, starts the clock and tells everyone (issue 50)
    assert wait_for(app, lambda: t.clock_of(0) is not None and t.clock_of(0)[1], [guest])
    left, _runs, at = t.timing.clocks[0]  # the server's figure, by this computer's clock from its arrival
    assert t.turn_secs == 30 and 28 <= left <= 30 and 28 <= talk.time_left() <= 30
    assert talk.time_left(at + left - 12.5) == 13 and talk.time_left(at + left + 5) == 0
    t.timing.n = s.n - 1  # a count for another position counts nothing here
    assert talk.time_left(at) is None
    t.timing.n = s.n
    app.run_frames(1)  # drawn with the strip
    assert s.submit(legal_actions(s.state, 0)[0]) is None
    assert talk.time_left(at) is None  # sent: nothing to count
    assert wait_for(app, lambda: s.state.seats[0].plan is not None, [guest])
    assert talk.time_left() is None  # Bob's to plan, not this seat
    assert wait_for(app, lambda: guest.clock_of(1) is not None, [guest])  # Bob's count: his screen never said
    assert guest.clock_of(1)[0] == 30.0 and not guest.clock_of(1)[1]  # it waits (for 20 s at most)
    assert t.clock_of(1) == guest.clock_of(1)  # and Ann sees it too
    guest.close()


def test_the_chat_strip_and_the_map_legend_leave_each_other_in_view(app):
    game, guest = host_game(app)
    talk = game.online.talk
    for size in ((1280, 720), (1600, 900), (1920, 1080), (2560, 1440)):
        SW.resize(app, size)
        app.run_frames(2)
        legend = game.renderer.legend_rect()
        assert talk.box is not None and legend is not None, size  # both drawn, the legend kept
        assert not legend.colliderect(talk.box), (size, legend, talk.box)
        if game.wide:  # a wide window: the strip under the game log, off the map
            assert game.panel_rect.contains(talk.box) and not talk.box.colliderect(game.board_rect), size
            assert game.panel.log_rects and all(r.bottom <= talk.box.top for r, _n in game.panel.log_rects), size
        else:
            assert game.board_rect.contains(legend) and game.board_rect.contains(talk.box), size
    assert game.wide  # (2560x1440 is)
    guest.close()


def test_the_map_and_the_best_points_table_keep_clear_of_the_chat_strip(app):
    """Issue 40: at 1280x720 the chat strip hid Jerez. The map steps aside (a little smaller)
    so that no land hex or site is under the strip, and the table of best points, folded or
    open, stands clear of it too."""
    game, guest = host_game(app)
    talk = game.online.talk
    content = game.state.content
    for size in ((1280, 720), (1600, 900)):
        SW.resize(app, size)
        app.run_frames(2)
        assert not game.wide and talk.box is not None, size  # (the strip on the map)
        r = game.renderer
        under = [h for h, t in content.terrain.items() if (t == "land" or h in content.sites)
                 and talk.box.collidepoint(r.hex_to_screen(h))]
        assert not under, (size, under[:5], talk.box)
        for folded in (True, False):
            game.plans.folded = folded
            app.run_frames(2)
            assert game.plans.rect is not None and not game.plans.rect.colliderect(talk.box), (size, folded)
        game.plans.folded = None
    guest.close()
