"""Issue 47, signing in from the desktop: the sign-in screen against a real server with accounts
in this process (headless, the app's real loop, clicks and typed text), and the file of sign-ins
(0600, atomic, validated; the session kept, never the password)."""
from __future__ import annotations

import json
import os
import sys

import pygame
import pytest

from gonzaga.net.serve import ServerThread
from gonzaga.net.signins import FILE_NAME, Keyring
from gonzaga.table import persistence
from gonzaga.ui import widgets as W
from gonzaga.words import i18n

from scene_events import click, post
from test_online_scenes import button, frames_until

pytestmark = pytest.mark.rule("E-net")

PASSWORD = "correct horse"


@pytest.fixture
def app(tmp_path, monkeypatch):
    monkeypatch.setenv("GONZAGA_HOME", str(tmp_path / "home"))
    from gonzaga.app import App
    a = App(persistence.Settings(speed="fast", reduce_motion=True), size=(1600, 1000))
    a.run_frames(3)
    yield a
    if a.running:
        a.close()
    i18n.set_language("en")
    W.set_ui_scale(1.0)


@pytest.fixture
def srv(tmp_path):
    t = ServerThread(tmp_path / "data", accounts=True).start()
    yield t
    t.stop()


def _fill(app, field, text: str) -> None:
    click(app, field.rect.center)
    post(pygame.KEYDOWN, key=pygame.K_a, mod=pygame.KMOD_CTRL, unicode="")  # select what is there
    app.run_frames(1)
    post(pygame.TEXTINPUT, text=text)
    app.run_frames(1)


def _press(app, label: str) -> None:
    click(app, button(app, label).rect.center)


def _answered(app) -> bool:
    return app.stack.top.request is None


def _open(app, url: str):
    app.stack.push("signin", url)
    app.run_frames(2)
    return app.stack.top


def test_sign_in_screen_creates_signs_out_and_refuses_in_plain_words(app, srv, tmp_path):
    scene = _open(app, srv.url)
    assert scene.status_line() == f"Not signed in on {srv.url.removeprefix('ws://')}."
    _fill(app, scene.fields[1], "Ann")
    _fill(app, scene.fields[2], PASSWORD)
    assert PASSWORD not in "".join(scene.visible_text())
    _press(app, "Create account")
    assert frames_until(app, lambda: _answered(app))
    assert scene.message == "Account Ann made: you are signed in." and scene.fields[2].value == ""
    path = persistence.data_dir() / FILE_NAME
    kept = json.loads(path.read_text())
    assert PASSWORD not in path.read_text()
    entry = kept["servers"][srv.url]
    assert entry["name"] == "Ann" and len(entry["session"]) == 43 and len(entry["device_key"]) == 43
    if sys.platform != "win32":
        assert os.stat(path).st_mode & 0o777 == 0o600
    # a wrong password, in the player's words; the right one signs in again
    _fill(app, scene.fields[2], "not the password")
    _press(app, "Sign in")
    assert frames_until(app, lambda: _answered(app))
    assert scene.message == "Wrong name or password." and not scene.good
    _fill(app, scene.fields[2], PASSWORD)
    post(pygame.KEYDOWN, key=pygame.K_RETURN, mod=0, unicode="\r")  # Enter in the password field signs in
    app.run_frames(1)
    assert frames_until(app, lambda: _answered(app) and scene.good)
    assert scene.message == f"Signed in as Ann on {srv.url.removeprefix('ws://')}."
    session = Keyring(path).get(srv.url).session
    assert session != entry["session"] and Keyring(path).get(srv.url).device_key == entry["device_key"]
    # sign out everywhere ends both sessions; the device key stays
    _press(app, "Sign out everywhere")
    assert frames_until(app, lambda: _answered(app))
    assert scene.message == "Signed out on every computer (sessions ended: 2)."
    kept = Keyring(path).get(srv.url)
    assert kept.session is None and kept.device_key == entry["device_key"] and kept.name == "Ann"
    assert all(w.label not in ("Sign out", "Sign out everywhere") or not w.visible
               for w in scene.widgets.items if hasattr(w, "label"))


def test_a_dead_server_and_a_banned_name_are_said(app, srv, tmp_path):
    from gonzaga.net import accounts_cli
    url = srv.url
    scene = _open(app, url)
    _fill(app, scene.fields[1], "Bea")
    _fill(app, scene.fields[2], PASSWORD)
    _press(app, "Create account")
    assert frames_until(app, lambda: _answered(app))
    assert accounts_cli.main(["--data", str(srv.data_dir), "ban", "Bea"]) == 0
    _fill(app, scene.fields[2], PASSWORD)
    _press(app, "Sign in")
    assert frames_until(app, lambda: _answered(app))
    assert scene.message == "The account Bea is banned from this server."
    srv.stop()
    _fill(app, scene.fields[2], PASSWORD)
    _press(app, "Sign in")
    assert frames_until(app, lambda: _answered(app))
    assert scene.message and not scene.good and "Bea" not in scene.message  # the connection's own words


def test_the_file_of_sign_ins_is_validated_and_a_damaged_one_put_aside(tmp_path):
    path = tmp_path / FILE_NAME
    ring = Keyring(path)
    with pytest.raises(ValueError):
        ring.signed_in("wss://h:1", "Ann", "not a token", None)
    assert not path.exists()
    ring.signed_in("wss://h:1#pinpinpin", "Ann", "a" * 43, "b" * 43)
    assert ring.get("wss://h:1").session == "a" * 43  # keyed without the fingerprint
    ring.signed_out("wss://h:1")
    assert ring.get("wss://h:1").session is None and ring.get("wss://h:1").device_key == "b" * 43
    path.write_text('{"format": "gonzaga-sign-ins", "version": 1, "servers": {"x": {"session": "short"}}}')
    ring = Keyring(path)
    assert ring.read().servers == {}
    assert ring.take_problem() is not None and not path.exists()  # moved aside, reported once
    assert ring.take_problem() is None


def test_a_game_opened_while_signed_in_takes_the_seat_for_the_account(tmp_path, monkeypatch, srv):
    """The game's table sends the kept session first: the seat it joins is the account's (its
    name shown, no other connection may act for it); a session the server no longer knows is
    forgotten and the game opens unsigned, as an invite game always did."""
    from gonzaga.net.remote import Table
    from gonzaga.net.rooms import token_hash
    from online_helpers import Player
    from test_net_client import pump
    from test_net_server import CONTENT, HOST, seat
    monkeypatch.setenv("GONZAGA_HOME", str(tmp_path / "home"))
    answer = Player(srv.url).ask(type="register", name="Ann", password=PASSWORD)
    ring = Keyring()
    ring.signed_in(srv.url, "Ann", answer["session"], answer["device_key"])
    host = Player(srv.url)
    host.send(type="create", name="Host", seats=[HOST, seat("open", "blue"), seat("open", "green")])
    code = host.expect("joined")["code"]
    t = Table.join(srv.url, code, "Typed name", CONTENT)
    try:
        assert pump([t], lambda: t.joined and len(t.seats) == 3 and t.seats[1].name == "Ann", 20_000)
        assert t.problem is None and t.notice is None
        desk = srv.server.accounts
        assert desk.store.by_name("Ann").id == desk._owner(token_hash(t.token))
        thief = Player(srv.url)
        thief.send(type="resume", game=t.game, token=t.token)
        assert thief.expect_any(("error",))["key"] == "accounts.seat_sign_in"
    finally:
        t.close()
    ring.signed_in(srv.url, "Ann", "x" * 43, answer["device_key"])  # a session the server never gave
    t = Table.join(srv.url, code, "Bea", CONTENT)
    try:
        assert pump([t], lambda: t.joined and len(t.seats) == 3 and t.seats[2].name == "Bea", 20_000)
        assert t.problem is None and t.notice is None
        assert ring.get(srv.url).session is None and srv.server.accounts._owner(token_hash(t.token)) is None
    finally:
        t.close()
