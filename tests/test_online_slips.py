"""Issue 50, the smaller slips of online play, each through the app's real loop (headless SDL,
posted events; the other players are ``Table``s in this process, the server a real one on a
loopback port): the bottom bar under the reveal, the chat strip beside the hint and the "Your
turn" flash, no map tooltip through a banner, the whole public history for a spectator, the
spectators following a rematch, the remembered name, the resign question, the guests' lobby
and a host who stops hosting."""
from __future__ import annotations

import itertools
import time

import pygame
import pytest

from gonzaga.net import mygames, protocol
from gonzaga.net.hosting import start_server
from gonzaga.net.remote import Table
from gonzaga.rules import apply, legal_actions
from gonzaga.table import persistence
from gonzaga.words import i18n
from gonzaga.ui import widgets as W

import screen_walk as SW
from scene_events import click, key, post
import test_online_scenes
from test_net_client import pump
from test_online_scenes import Frames, button, caught_up, frames_until, host_game, stalled, top_name
from test_online_talk_scenes import wait_for
from online_helpers import on_server

app = test_online_scenes.app  # the fixture: an app at 1600x1000 in its own home folder


def server_state(app):
    """The full state of the game the host's own server keeps (the test may look; no screen does)."""
    t = app.table
    return t.server.server.rooms[t.game].table.state


def plan_host_first(app, guest, s) -> None:
    """Both seats plan, with plans under which the host's seat places first (found on the
    server's full state, the rules deciding the order)."""
    st = server_state(app)
    for a, b in itertools.product(legal_actions(st, 0), legal_actions(st, 1)):
        after = apply(apply(st, a), b)
        if after.phase == "place" and after.order[0] == 0:
            break
    else:
        raise AssertionError("no pair of plans lets the host place first")
    assert s.submit(a) is None
    assert frames_until(app, lambda: s.state.seats[0].plan is not None, [guest])
    assert frames_until(app, lambda: caught_up(guest, s), [guest])
    assert guest.session.submit(b) is None


def play_until(app, guest, s, cond, seconds: float = 180.0) -> None:
    """Both seats play legal moves (the host's screen closes the reveal) until ``cond()`` (the
    clock bounds the wait: under load a frame gets less done)."""
    from gonzaga.scenes.overlays import RevealScene
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if cond():
            return
        if isinstance(app.stack.top, RevealScene):
            key(app, pygame.K_RETURN)
            continue
        st = s.state
        n = s.n
        moved = False
        if 0 in st.to_act() and s.pending is None and (st.phase != "plan" or st.seats[0].plan is None):
            assert s.submit(legal_actions(st, 0)[0]) is None
            moved = True
        gs = guest.session.state
        if caught_up(guest, s) and 1 in gs.to_act():
            assert guest.session.submit(legal_actions(gs, 1)[0]) is None
            moved = True
        if moved:
            frames_until(app, lambda n=n: s.n > n and caught_up(guest, s), [guest])
        else:  # a frame, and the guest's table reads what came (alone, the app's frame left the
            pump([Frames(app), guest], lambda: False, 1)  # guest a move behind for good)
    assert cond(), stalled(app, [("host", app.table, s), ("guest", guest, guest.session)])


# ---------------------------------------------------------------- the bottom bar under the reveal

def test_the_bar_under_the_reveal_says_whose_turn_not_that_a_move_is_on_its_way(app):
    from gonzaga.scenes.overlays import RevealScene
    game, guest = host_game(app)
    s = game.face._GameFace__s
    plan_host_first(app, guest, s)
    assert frames_until(app, lambda: isinstance(app.stack.top, RevealScene), [guest])
    assert s.state.phase == "place" and s.state.to_act() == (0,) and s.pending is None
    assert game.screen_mode() == "watch"  # the reveal is over the turn: the bar shows the watch words
    assert game.online.watch_text() == i18n.t("game.your_turn", name="Ann")
    assert i18n.t("online.sending") not in game.online.watch_text()
    s.pending = (legal_actions(s.state, 0)[0], s.n)  # a move sent and not yet back: then it is on its way
    assert game.online.watch_text() == i18n.t("online.sending")
    s.pending = None
    guest.close()


def test_a_reveal_open_when_its_player_resigns_closes_by_itself_and_the_game_goes_on(app, monkeypatch):
    """The reveal waits for its player's Return; a player who resigns while it is open (or just
    before it opened, the server not having said so yet) will never press it: it closes by itself
    as for a table of AIs, and the updates held under it come (before: the screen stayed on the
    round's plans for good, and a test waited 600 s for the end of a game both players resigned)."""
    from gonzaga.net import endgame
    from gonzaga.scenes.overlays import RevealScene
    monkeypatch.setattr(endgame, "RESIGN_LEVEL", "random")
    game, guest = host_game(app)
    s = game.face._GameFace__s
    plan_host_first(app, guest, s)
    assert frames_until(app, lambda: isinstance(app.stack.top, RevealScene), [guest])
    app.run_frames(30)  # long past a table of AIs' pause: it stays, its player is to read it
    assert isinstance(app.stack.top, RevealScene)
    assert app.table.resign() and guest.resign()
    assert wait_for(app, lambda: not isinstance(app.stack.top, RevealScene), [guest]), stalled(
        app, [("host", app.table, s), ("guest", guest, guest.session)])
    assert wait_for(app, lambda: s.state.phase == "over", [guest], seconds=600), stalled(
        app, [("host", app.table, s), ("guest", guest, guest.session)])
    guest.close()


# ---------------------------------------------------------------- the chat strip and the banners

def test_at_1280x720_the_hint_and_the_your_turn_flash_keep_clear_of_the_chat_strip(app):
    game, guest = host_game(app)
    SW.resize(app, (1280, 720))
    assert not game.online.talk.in_panel()  # at 1280x720 the strip is on the map's corner
    app.run_frames(2)
    strip = game.online.keep_clear()
    assert strip
    key(app, pygame.K_h)  # a hint: "Working out a hint… (H or Esc: cancel)", then the hint's three lines
    app.run_frames(1)
    box = game.assist.box_at
    assert box is not None and not any(box.colliderect(r) for r in strip), (box, strip, game.plans.rect, game.board_rect, game.assist._hint_area())
    flash = game.feedback.your_turn_box(0)
    assert flash is not None and not any(flash.colliderect(r) for r in strip), (flash, strip)
    assert wait_for(app, lambda: game.assist.hint() is not None and not game.assist.busy(), [guest])
    app.run_frames(1)
    box = game.assist.box_at
    assert not any(box.colliderect(r) for r in strip), (box, strip)
    # hinted hexes across the map's top (where the box would go after the bottom): the hint's
    # three lines stand just above the strip, not over it
    b = game.board_rect
    target = pygame.Rect(b.x, b.y, b.w, b.h // 3)
    game.assist._hint_area = lambda: target
    box = game.assist.box_rect((W.sc(600), W.sc(100)))
    assert not box.colliderect(target) and not any(box.colliderect(r) for r in strip), (box, target, strip)
    assert box.bottom <= strip[0].top and b.contains(box)
    guest.close()


def test_no_map_tooltip_through_a_banner_or_its_button(app):
    import socket
    game, guest = host_game(app)
    s = game.face._GameFace__s
    assert s.submit(legal_actions(s.state, 0)[0]) is None
    assert frames_until(app, lambda: s.state.seats[0].plan is not None, [guest])
    guest.conn._ws.socket.shutdown(socket.SHUT_RDWR)  # Bob's network goes away: the banner, with its button
    assert frames_until(app, lambda: not app.table.seats[1].connected, [guest])
    on_server(app, lambda room: setattr(room.table, "grace", 0.0))  # the grace period over: the button comes
    assert frames_until(app, lambda: game.online.banner()[1] == [game.online.ai_button])
    app.run_frames(2)
    ai = game.online.ai_button
    assert ai.rect.w > 0 and game.board_rect.contains(ai.rect)  # the button stands over the map
    r = game.renderer

    def tip_after_rest(pos) -> bool:
        post(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0))
        app.run_frames(60)  # longer than a tooltip's rest
        return game.tooltip.visible

    def with_tips(rect) -> list:  # points of ``rect`` where the map has something to say
        pts = [(rect.x + rect.w * i // 6, rect.y + rect.h * j // 4) for i in range(1, 6) for j in range(1, 4)]
        return [p for p in pts if game.tips.at(p)[0] is not None][:2]
    spots = with_tips(ai.rect) + with_tips(game.online.box) + with_tips(game.online.talk.box)
    assert with_tips(ai.rect)  # the map's hexes lie under the button (the map steps aside from the strip)
    for p in spots:
        assert not tip_after_rest(p), p  # but no tip is shown through the banner or the strip
    city = next(h for h in s.state.content.sites if game.board_rect.collidepoint(r.hex_to_screen(h))
                and not any(c.collidepoint(r.hex_to_screen(h)) for c in game.online.covers()))
    assert tip_after_rest(tuple(int(v) for v in r.hex_to_screen(city)))  # elsewhere on the map: the tip
    guest.close()


# ---------------------------------------------------------------- the whole history for a spectator

@pytest.mark.rule("E-net")
def test_a_spectator_arriving_later_gets_the_chart_from_round_one_and_the_chat_under_its_round(app):
    from gonzaga.scenes.game import GameScene
    game, guest = host_game(app)
    s = game.face._GameFace__s
    assert guest.chat("Round one, good luck")
    assert frames_until(app, lambda: any("good luck" in x for x in s.log_lines()), [guest])
    play_until(app, guest, s, lambda: s.state.round == 2 and s.state.phase == "plan")
    host_rounds = s.round_scores()
    assert host_rounds.rounds == [1]
    watcher = Table.watch(app.table.url, app.table.code, app.content)
    assert frames_until(app, lambda: watcher.session is not None and watcher.session.n == s.n
                        and any(e.key == "online.said" for e in watcher.session.log), [guest, watcher])
    w = watcher.session
    assert w.round_scores().rounds == [1] and w.round_scores().scores == host_rounds.scores  # not empty: from round 1
    chat = next(i for i, e in enumerate(w.log) if e.key == "online.said")
    assert w.log[chat].round == 1 and all(e.round <= 1 for e in w.log[:chat])
    assert any(e.round == 2 for e in w.log[chat:])  # round 2's lines after it (before: it came last)
    # a line the server sends again that was said in round 1 goes among round 1's lines
    # (before: after every line of round 2)
    assert frames_until(app, lambda: s.n == watcher.session.n, [guest, watcher])
    w.said(protocol.Said(game=watcher.game, seat=1, name="Bob", text="said in round one", round=1))
    at = next(i for i, e in enumerate(w.log) if e.params.get("text") == "said in round one")
    assert all(e.round <= 1 for e in w.log[:at]) and w.log[at + 1:] and all(e.round >= 2 for e in w.log[at + 1:])
    watcher.close()
    assert app.stack.find(GameScene) is game
    guest.close()


def test_the_spectators_follow_the_players_to_a_rematch(app, monkeypatch):
    from gonzaga.net import endgame
    from gonzaga.scenes.game import GameScene
    monkeypatch.setattr(endgame, "RESIGN_LEVEL", "random")  # the game to its end quickly
    game, guest = host_game(app)
    watcher = Table.watch(app.table.url, app.table.code, app.content)
    assert frames_until(app, lambda: watcher.session is not None, [guest, watcher])
    old = watcher.game
    assert app.table.resign() and guest.resign()
    s = game.face._GameFace__s
    tables = [("host", app.table, s), ("guest", guest, guest.session), ("watcher", watcher, watcher.session)]
    assert wait_for(app, lambda: s.state.phase == "over" and guest.session.state.phase == "over"
                    and watcher.session.state.phase == "over", [guest, watcher], seconds=600), stalled(app, tables)
    talk = game.online.talk
    assert wait_for(app, lambda: talk.rematch_shown() and talk.rematch_button.rect.w > 0), stalled(app, tables)
    click(app, talk.rematch_button.rect.center, 2)
    assert wait_for(app, lambda: app.table.rematch, [guest, watcher]), stalled(app, tables)
    assert guest.ask_rematch()
    assert wait_for(app, lambda: app.stack.find(GameScene).face._GameFace__s is not s, [guest, watcher]), \
        stalled(app, tables)
    new_game = app.table.game
    assert wait_for(app, lambda: watcher.game == new_game and watcher.session is not None
                    and watcher.session.state.round == 1, [guest, watcher]), \
        stalled(app, [("host", app.table, app.table.session), ("guest", guest, guest.session),
                      ("watcher", watcher, watcher.session)])
    assert watcher.watching and watcher.game != old and watcher.seat is None
    assert watcher.notice == i18n.t("online.rematch_watched")
    assert all(x.objective is None for x in watcher.session.state.seats)  # still the public view
    watcher.close()
    guest.close()


# ---------------------------------------------------------------- the name, the resign question

def test_the_host_and_join_screens_remember_the_players_name(app):
    from gonzaga.scenes.online import JoinScene
    game, guest = host_game(app)  # "Ann" typed on the host screen
    assert app.settings.online_name == "Ann"
    assert persistence.load_settings().online_name == "Ann"  # kept on disk for the next start
    guest.close()
    app.to_title()
    app.run_frames(2)
    click(app, button(app, i18n.t("title.host_online")).rect.center, 2)
    assert top_name(app) == "HostScene" and app.stack.top.name_field.value == "Ann"
    assert not app.stack.top.name_field.editing
    app.stack.pop()
    app.stack.push(JoinScene(app))
    app.run_frames(1)
    j = app.stack.top
    assert [f.value for f in j.fields] == ["", "", "Ann"] and j.fields[0].editing  # the address first


def test_the_resign_question_defaults_to_cancel_and_its_resign_button_is_a_danger_button(app):
    game, guest = host_game(app)
    key(app, pygame.K_ESCAPE)
    click(app, button(app, i18n.t("online.resign")).rect.center, 2)
    q = app.stack.top
    assert top_name(app) == "MessageScene"
    resign, cancel = button(app, i18n.t("online.resign")), button(app, i18n.t("common.cancel"))
    assert resign.style == "danger" and cancel.style == "primary"
    assert q.widgets.focus is cancel and cancel.focused and not resign.focused
    key(app, pygame.K_RETURN)  # Enter: the safe choice
    app.run_frames(20)
    assert top_name(app) != "MessageScene" and app.table.seats[0].kind == "human"
    guest.close()


def test_a_danger_button_is_drawn_unlike_the_primary_and_secondary_ones():
    from gonzaga.ui import widgets as W
    surf = pygame.Surface((200, 60))
    seen = {}
    for style in ("primary", "secondary", "danger"):
        surf.fill((0, 0, 0))
        W.Button("Resign", lambda: None, (10, 10, 180, 40), style=style).draw(surf)
        seen[style] = (tuple(surf.get_at((30, 20)))[:3], tuple(surf.get_at((11, 30)))[:3])  # fill, edge
    assert seen["danger"][0] == W.BUTTON_SECONDARY and seen["danger"][1] == W.BAD
    assert seen["danger"] != seen["primary"] and seen["danger"] != seen["secondary"]


# ---------------------------------------------------------------- a guest's lobby, a host who leaves

def hosted_elsewhere(app, turn_secs=None):
    """A game hosted by another player's Gonzaga (their server and table in this process; the
    app's window is the guest's): (the host's table, its server)."""
    server = start_server(mygames.Book(), app_home_server(), False)
    host = Table.host(server.url_at("127.0.0.1"), "Ann",
                      [protocol.SeatRequest(kind="host", colour="red"),
                       protocol.SeatRequest(kind="open", colour="yellow")],
                      app.content, server=server, turn_secs=turn_secs)
    assert frames_until(app, lambda: host.code is not None, [host])
    return host, server


def app_home_server():
    import os
    from pathlib import Path
    return Path(os.environ["GONZAGA_HOME"]) / "other-host"


def join_as_bob(app, host):
    from gonzaga.scenes.online import JoinScene
    app.stack.push(JoinScene(app, host.url, host.code, "Bob"))
    app.run_frames(1)
    click(app, button(app, i18n.t("online.join_button")).rect.center, 2)
    assert frames_until(app, lambda: top_name(app) == "LobbyScene", [host])
    return app.stack.top


def test_a_guests_lobby_says_there_is_a_turn_timer_and_how_long(app):
    host, _server = hosted_elsewhere(app, turn_secs=30)
    lobby = join_as_bob(app, host)
    assert frames_until(app, lambda: lobby.table.turn_secs == 30, [host])
    assert not lobby.table.is_host
    words = lobby.message()[0]
    assert i18n.t("online.wait_host") in words and "30 seconds for each move" in words
    assert words in lobby.visible_text()
    for size in ((1280, 720), (2560, 1440)):
        SW.resize(app, size)
        for lang in ("en", "it", "de", "fr", "es", "pl"):  # the words stand clear of Leave in every language
            i18n.set_language(lang)
            lobby.layout(app.size)
            text = lobby.message()[0]
            h = W.text(text, "sans_semibold", 17, wrap=lobby.box.w - W.sc(80)).get_height()
            leave = button(app, i18n.t("online.leave"))
            assert lobby.message_y + h <= leave.rect.top, (size, lang, text)
            if lang == "it":
                assert "30 secondi per ogni mossa" in text
    i18n.set_language("en")
    host.close()


def test_a_guest_is_told_the_host_closed_the_game_not_that_the_connection_was_lost(app):
    from gonzaga.scenes.game import GameScene
    host, server = hosted_elsewhere(app, turn_secs=30)
    join_as_bob(app, host)
    assert frames_until(app, lambda: not host.open_seats() and len(host.seats) == 2, [host])
    assert host.start()
    assert frames_until(app, lambda: app.stack.find(GameScene) is not None, [host])
    game = app.stack.find(GameScene)
    host.close()  # the host leaves with "Stop hosting": their game's server stops
    assert not server.running
    assert frames_until(app, lambda: app.table.status == "lost")
    app.run_frames(2)
    lines, buttons = game.online.banner()
    assert lines == [i18n.t("online.host_closed"), i18n.t("online.host_closed_hint")]
    assert lines[0] == "The host closed the game." and buttons == [game.online.retry_button]
    assert i18n.t("online.lost") not in lines
    assert app.table.turn_secs == 30 and game.online.talk.time_left() is None  # no turn timer runs on
