"""Issue 14: an online game survives closing the game. The seats this computer holds are kept in
``online-games.json`` (0600, validated, a damaged file kept aside and reported once); the title
offers "Continue online game"; a host's server comes back on its port with the game as it was,
a guest comes back into its seat (at a new address if the host moved).

Headless, through the app's real loop; loopback only; loops bounded by frame counts
(``frames_until``).
"""
from __future__ import annotations

import json
import os
import socket
import stat

import pygame
import pytest

from gonzaga.table import persistence
from gonzaga.net import mygames
from gonzaga.net import protocol as P
from gonzaga.net.client import CONNECTED, LOST
from gonzaga.net.remote import Table
from gonzaga.net.serve import ServerThread
from gonzaga.net.viewcodec import view_to_json
from gonzaga.rules import legal_actions
from gonzaga.words import i18n

from scene_events import click, key
from test_net_client import pump
from test_online_scenes import button, caught_up, clear_field, frames_until, host_game, top_name, type_text


@pytest.fixture
def apps(make_app):
    """``apps()`` opens the real App on the test's private user folder (``make_app``'s)."""
    return lambda: make_app((1600, 1000), speed="fast", frames=3, reduce_motion=True)


def book_file():
    return persistence.data_dir() / mygames.FILE_NAME


def game_scene(app):
    from gonzaga.scenes.game import GameScene
    return app.stack.find(GameScene)


def play_plans(app, s, guest) -> None:
    """Both seats plan (the host through its session, the friend through its table); the reveal
    is closed with Enter."""
    from gonzaga.scenes.overlays import RevealScene
    assert s.submit(legal_actions(s.state, 0)[0]) is None
    assert frames_until(app, lambda: s.state.seats[0].plan is not None, [guest])
    assert guest.session.submit(legal_actions(guest.session.state, 1)[0]) is None
    assert frames_until(app, lambda: isinstance(app.stack.top, RevealScene), [guest])
    key(app, pygame.K_RETURN)
    assert frames_until(app, lambda: s.state.phase == "place" and caught_up(guest, s), [guest])


def snapshot(s) -> str:
    return json.dumps(view_to_json(s.state), sort_keys=True)


# ---------------------------------------------------------------- the host closes and comes back

def test_a_hosted_game_continues_after_closing_the_game(apps):
    app = apps()
    game, guest = host_game(app)
    s = game.face._GameFace__s
    play_plans(app, s, guest)
    seat = s.state.to_act()[0]  # one placement, by whoever's turn it is
    n = s.n
    if seat == 0:
        assert s.submit(legal_actions(s.state, 0)[0]) is None
    else:
        assert guest.session.submit(legal_actions(guest.session.state, 1)[0]) is None
    assert frames_until(app, lambda: s.n > n and caught_up(guest, s), [guest])
    port, n, before, token = app.table.server.port, s.n, snapshot(s), app.table.token
    # the host's seat is kept, readable by the user only
    path = book_file()
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    kept = json.loads(path.read_text())["games"]
    assert [(g["token"], g["seat"], g["host"], g["port"], g["over"]) for g in kept] == [(token, 0, True, port, False)]
    assert kept[0]["players"] == ["Ann", "Bob"] and kept[0]["code"] == app.table.code and kept[0]["colour"] == "red"
    app.close()  # the host quits: the server stops, the friend loses the connection
    assert frames_until(app, lambda: guest.status == LOST, [guest])

    app = apps()
    cont = button(app, i18n.t("title.continue_online"))
    assert cont.sub == f"Ann, Bob - code {guest.code}"
    click(app, cont.rect.center, 2)
    assert frames_until(app, lambda: game_scene(app) is not None)
    s = game_scene(app).face._GameFace__s
    assert app.table.server.port == port and app.table.is_host and s.seat == 0  # the same address for friends
    assert s.n == n and snapshot(s) == before  # the game as it was
    guest.retry()  # the friend's Retry: back in with its token
    assert frames_until(app, lambda: guest.status == CONNECTED and app.table.seats[1].connected
                        and guest.session.n == n, [guest])
    n = s.n
    seat = s.state.to_act()[0]  # and the game goes on
    if seat == 0:
        assert s.submit(legal_actions(s.state, 0)[0]) is None
    else:
        assert guest.session.submit(legal_actions(guest.session.state, 1)[0]) is None
    assert frames_until(app, lambda: s.n == n + 1 and guest.session.n == n + 1, [guest])
    assert top_name(app) == "GameScene"
    guest.close()


def test_hosting_again_takes_the_same_port_or_a_free_one(apps, tmp_path):
    app = apps()
    click(app, button(app, i18n.t("title.host_online")).rect.center, 2)
    type_text(app, "Ann")
    click(app, button(app, i18n.t("online.host_button")).rect.center, 2)
    port = app.table.server.port
    lobby = app.stack.top
    click(app, button(app, i18n.t("online.leave")).rect.center, 2)
    assert top_name(app) == "TitleScene" and app.table is None
    with socket.socket() as busy:  # another program took the port meanwhile
        busy.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        busy.bind(("127.0.0.1", port))
        busy.listen()
        click(app, button(app, i18n.t("title.host_online")).rect.center, 2)
        type_text(app, "Ann")
        click(app, button(app, i18n.t("online.host_button")).rect.center, 2)
        assert top_name(app) == "LobbyScene"
        new = app.table.server.port
        assert new != port and any(x.startswith(f"wss://127.0.0.1:{new}") for x in app.stack.top.visible_text())
        click(app, button(app, i18n.t("online.leave")).rect.center, 2)
    click(app, button(app, i18n.t("title.host_online")).rect.center, 2)  # the last port is the one remembered
    type_text(app, "Ann")
    click(app, button(app, i18n.t("online.host_button")).rect.center, 2)
    assert app.table.server.port == new and lobby is not app.stack.top
    click(app, button(app, i18n.t("online.leave")).rect.center, 2)


# ---------------------------------------------------------------- a guest closes and comes back

def join_through_screens(app, url: str, code: str) -> None:
    click(app, button(app, i18n.t("title.join_online")).rect.center, 2)
    address, code_field, name = app.stack.top.fields
    type_text(app, url)
    click(app, code_field.rect.center)
    type_text(app, code)
    click(app, name.rect.center)
    type_text(app, "Bob")
    click(app, button(app, i18n.t("online.join_button")).rect.center)


def test_a_guest_continues_into_its_seat_even_at_a_new_address(apps, tmp_path):
    app = apps()
    srv = ServerThread(tmp_path / "srv").start()
    host = Table.host(srv.url, "Ann", [P.SeatRequest(kind="host", colour="red"),
                                       P.SeatRequest(kind="open", colour="blue")], app.content)
    old = socket.socket()
    try:
        assert frames_until(app, lambda: host.code is not None, [host])
        join_through_screens(app, srv.url, host.code)
        assert frames_until(app, lambda: top_name(app) == "LobbyScene", [host])
        assert host.start()
        assert frames_until(app, lambda: game_scene(app) is not None and host.session is not None, [host])
        s = game_scene(app).face._GameFace__s
        assert s.seat == 1 and s.submit(legal_actions(s.state, 1)[0]) is None  # the guest plans
        assert frames_until(app, lambda: host.session.state.seats[1].plan is not None, [host])
        token, n = app.table.token, host.session.n
        kept = mygames.Book().in_progress()
        assert [(g.token, g.seat, g.host, g.address, g.name) for g in kept] == [(token, 1, False, srv.url, "Bob")]
        app.close()  # the guest quits
        assert pump([host], lambda: not host.seats[1].connected)

        # the host's computer restarts its server on another port: the old address answers nobody
        srv.stop()
        old.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        old.bind(("127.0.0.1", srv.port))  # held, not listening: connections there are refused
        srv = ServerThread(tmp_path / "srv").start()
        host.close()
        host = Table.resume(srv.url, host.game, host.token, app.content)
        app = apps()
        click(app, button(app, i18n.t("title.continue_online")).rect.center, 2)
        scene = app.stack.top
        assert top_name(app) == "ContinueScene"
        assert frames_until(app, lambda: scene.failed is not None, [host])
        assert scene.error.startswith("Nobody answered at 127.0.0.1:") and \
            scene.error.endswith("The host may be at a new address: type it and try again.")
        app.run_frames(1)
        clear_field(app, scene.address_field)
        type_text(app, srv.url)  # typed without ws:// it would be wss://, which this test server does not speak
        click(app, button(app, i18n.t("online.try_address")).rect.center)
        assert frames_until(app, lambda: game_scene(app) is not None, [host])
        s = game_scene(app).face._GameFace__s
        assert s.seat == 1 and s.n == n and s.state.seats[1].plan is not None  # its seat, its plan
        assert app.table.token == token
        assert frames_until(app, lambda: host.seats[1].connected, [host])
        assert mygames.Book().get(host.game, 1).addresses[0] == srv.url  # the new address first
    finally:
        old.close()
        host.close()
        srv.stop()


def test_a_game_the_host_no_longer_has_leaves_the_list(apps, tmp_path):
    srv = ServerThread(tmp_path / "srv").start()
    try:
        book = mygames.Book()
        for game, code in (("00aa11bb22cc33dd", "ABCDEF"), ("44ee55ff66aa77bb", "GHJKLM")):
            assert book.joined(game=game, code=code, address=srv.url, token="x" * 32, seat=1, host=False,
                               name="Bob")
        app = apps()
        cont = button(app, i18n.t("title.continue_online"))
        assert cont.sub == "2 games in progress"
        click(app, cont.rect.center, 2)
        scene = app.stack.top
        assert top_name(app) == "ContinueScene" and scene.table is None  # several: the list, nothing started
        assert "Code GHJKLM, your seat: 2, joined at " + srv.url.removeprefix("ws://") in scene.visible_text()
        click(app, button(app, i18n.t("online.continue_button")).rect.center)
        assert frames_until(app, lambda: scene.table is None)
        assert scene.error == "This game is no longer on the host's computer. It was removed from your list."
        assert len(scene.games) == 1 and len(book.in_progress()) == 1
        click(app, button(app, i18n.t("online.forget")).rect.center)  # removing asks first
        click(app, button(app, i18n.t("online.forget")).rect.center)
        assert top_name(app) == "ContinueScene" and scene.games == [] and book.in_progress() == []
        click(app, button(app, i18n.t("common.back")).rect.center, 2)
        assert top_name(app) == "TitleScene"
        assert i18n.t("title.continue_online") not in [w.label for w in app.stack.top.widgets.items]
    finally:
        srv.stop()


# ---------------------------------------------------------------- the file

def test_a_damaged_list_is_kept_aside_and_reported_once(apps):
    path = book_file()
    path.write_text('{"format": "gonzaga-online-games", "games": [{"game": "zz"}]}')
    app = apps()
    app.run_frames(2)
    assert top_name(app) == "MessageScene"
    msg = app.stack.top
    assert msg.heading == "Online games"
    aside = [p for p in path.parent.iterdir() if p.name.startswith(mygames.FILE_NAME + ".damaged-")]
    assert len(aside) == 1 and not path.exists()
    assert msg.body.startswith("online-games.json: The list of your online games is damaged (at games.0.")
    assert msg.body.endswith(f"The file was kept as {aside[0].name}.")
    key(app, pygame.K_RETURN)
    assert top_name(app) == "TitleScene"
    app.close()
    app = apps()  # reported once: the file is aside now
    app.run_frames(2)
    assert top_name(app) == "TitleScene"
    path.write_text("not json")
    assert mygames.Book().in_progress() == []  # never a crash
    assert len([p for p in path.parent.iterdir() if ".damaged-" in p.name]) == 2


def test_the_book_keeps_tokens_private_and_drops_finished_games(tmp_path):
    book = mygames.Book(tmp_path / "g.json")
    assert book.joined(game="0123abcd", code="ABC234", address="ws://10.0.0.2:7373", token="t0k3n_-xyzXYZ123",
                       seat=2, host=False, name="Isa")
    assert stat.S_IMODE(os.stat(book.path).st_mode) == 0o600
    assert "t0k3n_-xyzXYZ123" in book.path.read_text()
    assert book.seen("0123abcd", 2, ["Ann", "Isa"])
    assert book.joined(game="0123abcd", code="ABC234", address="ws://10.0.0.9:7373", token="t0k3n_-xyzXYZ123",
                       seat=2, host=False)
    g = book.get("0123abcd", 2)
    assert g.addresses == ["ws://10.0.0.9:7373", "ws://10.0.0.2:7373"] and g.name == "Isa" and g.players == ["Ann", "Isa"]
    assert book.finished("0123abcd") and book.in_progress() == [] and book.get("0123abcd", 2).over
    assert stat.S_IMODE(os.stat(book.path).st_mode) == 0o600


@pytest.mark.parametrize("lang", ["en", "it"])
def test_the_title_and_the_list_fit(apps, lang):
    """The title with "Continue online game" and the list of three games (one failed, with its
    address field), at the smallest and the usual window: nothing cut or overlapping."""
    import screen_walk as SW
    book = mygames.Book()
    for game, code, seat, names in (("0a", "QX7P2M", 1, ["Isabella d'Este", "Beatrice", "Francesco"]),
                                    ("1b", "H4KD9R", 0, ["Ann", "Bob"]),
                                    ("2c", "ZT3WNE", 3, ["Marta", "Luca", "Carlo", "Giulia Gonzaga"])):
        assert book.joined(game=game, code=code, address="ws://192.168.100.200:7373", token="t" * 32, seat=seat,
                           host=seat == 0, name=names[seat % len(names)], port=7373 if seat == 0 else None)
        assert book.seen(game, seat, names, ("red", "yellow", "green", "blue")[seat])
    app = apps()
    SW.set_language(app, lang)
    problems = []

    def check(what: str) -> None:
        problems.extend(SW.problems_at(app, what))

    check("title")
    click(app, button(app, i18n.t("title.continue_online")).rect.center, 2)
    scene = app.stack.top
    scene.failed, scene.error = scene.games[-1], i18n.t("online.mine_new_address")
    scene.layout(app.size)
    check("list")
    assert not problems, "\n".join(problems)
