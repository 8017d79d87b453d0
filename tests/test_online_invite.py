"""Issue 50, one invite always whole: whatever the hosting mode, the host's lobby shows the whole
invite (address, code, fingerprint), its Copy puts exactly that on the clipboard, and what the
host copied joins on the first try; the join screen takes the pasted invite and names what is
missing from anything less. Through the app's real loop (SDL dummy); the clipboard is a fake
``pygame.scrap`` (the dummy driver has none), read back as the friend would paste it."""
from __future__ import annotations

import pygame
import pytest

from gonzaga.net import hosting
from gonzaga.net import protocol as P
from gonzaga.net.invite import format_invite, split_pin
from gonzaga.net.remote import Table
from gonzaga.net.serve import ServerThread, TlsFiles
from gonzaga.words import i18n

from scene_events import click, key, post
from test_online_scenes import app, button, frames_until, top_name, type_text  # noqa: F401 (the fixture)


@pytest.fixture
def clipboard(monkeypatch):
    """A clipboard the copy and paste of the online screens write and read."""
    held = {"text": ""}

    def put_text(text):
        held["text"] = text

    monkeypatch.setattr(pygame.scrap, "put_text", put_text, raising=False)
    monkeypatch.setattr(pygame.scrap, "get_text", lambda: held["text"], raising=False)
    return held


@pytest.mark.parametrize("lan", [False, True])
def test_the_invite_the_host_copies_is_whole_and_joins_first_time(app, clipboard, monkeypatch, lan):
    """LAN off (the default) and on: the lobby shows each way in with its whole invite, the big
    Copy copies the first one, exactly as shown, and a friend who pastes it in the join field
    takes the open seat at once."""
    from gonzaga.scenes.online import JoinScene
    if lan:  # tests listen on the loopback only: the "network" address is this computer's name
        start = hosting.start_server
        monkeypatch.setattr(hosting, "start_server", lambda book, d, lan, port=None: start(book, d, False, port))
        monkeypatch.setattr("gonzaga.scenes.lobby.lan_ip", lambda: "localhost")
    click(app, button(app, i18n.t("title.host_online")).rect.center, 2)
    type_text(app, "Ann")
    if lan:
        click(app, button(app, i18n.t("settings.on")).rect.center)
    click(app, button(app, i18n.t("online.host_button")).rect.center, 2)
    assert top_name(app) == "LobbyScene", app.stack.top.error
    table = app.table
    assert frames_until(app, lambda: table.code is not None and len(table.seats) == 2)
    app.run_frames(2)
    lobby = app.stack.top
    pin = table.server.tls.pin
    port = table.server.port
    local = f"wss://127.0.0.1:{port}/{table.code}#{pin}"
    shown = lobby.visible_text()
    assert local in shown  # the whole invite on screen, fingerprint included
    if lan:
        assert f"wss://localhost:{port}/{table.code}#{pin}" in shown
    click(app, lobby.copy_code.rect.center)
    copied = clipboard["text"]
    assert copied == (f"wss://localhost:{port}/{table.code}#{pin}" if lan else local)
    assert copied in shown and app.toasts[-1][0] == i18n.t("online.copied", text=copied)
    # each row's own Copy copies its own invite, exactly as shown
    click(app, button(app, i18n.t("online.copy")).rect.center)
    assert clipboard["text"] in shown and split_pin(clipboard["text"])[1] == pin
    # the friend pastes what was copied into the join field (nothing else typed)
    join = JoinScene(app)
    join.layout(app.size)
    join.fields[0].value = copied
    target = join._target()
    assert target is not None, join.error
    friend = Table.join(target[0], target[1], "Bob", app.content)
    try:
        assert frames_until(app, lambda: lobby.start_button.enabled, [friend])
        assert friend.problem is None and friend.seat == 1 and friend.code == table.code
        assert "Bob connected" in lobby.visible_text()
    finally:
        friend.close()


def test_the_join_screen_takes_the_pasted_invite_and_names_what_is_missing(app, clipboard, tmp_path):
    """A game on an encrypted server: the address alone says the code is missing; the address
    without its fingerprint is refused by the certificate check with words that say what to
    paste; the whole invite pasted with Ctrl+V joins on the first try."""
    srv = ServerThread(tmp_path / "srv", tls=TlsFiles.own(tmp_path / "srv")).start()
    try:
        host = Table.host(srv.url, "Ann", [P.SeatRequest(kind="host", colour="red"),
                                           P.SeatRequest(kind="open", colour="blue")], app.content)
        assert frames_until(app, lambda: host.code is not None, [host])
        invite = format_invite(srv.url, host.code)
        click(app, button(app, i18n.t("title.join_online")).rect.center, 2)
        scene = app.stack.top
        address, code, name = scene.fields
        type_text(app, srv.url)  # the address, no code
        click(app, name.rect.center)
        type_text(app, "Bob")
        click(app, scene.join_button.rect.center)
        assert scene.error == i18n.t("online.code_missing") and scene.table is None
        # the address and code without the fingerprint: the certificate check refuses it, in words
        click(app, address.rect.center)
        for _ in range(len(address.value)):
            key(app, pygame.K_BACKSPACE)
        type_text(app, srv.url.partition("#")[0])
        click(app, code.rect.center)
        type_text(app, host.code)
        click(app, scene.join_button.rect.center)
        assert frames_until(app, lambda: scene.table is None, [host])
        assert scene.error == i18n.t("online.err_cert", address=f"127.0.0.1:{srv.port}")
        assert host.seats[1].kind == "open"  # nothing was sent to a server it could not check
        # the whole invite, pasted: it carries the code, so the code field may be left empty
        for field in (address, code):
            click(app, field.rect.center)
            for _ in range(len(field.value)):
                key(app, pygame.K_BACKSPACE)
        clipboard["text"] = invite
        click(app, address.rect.center)
        key(app, pygame.K_v, mod=pygame.KMOD_CTRL)
        assert address.value == invite
        click(app, scene.join_button.rect.center)
        assert frames_until(app, lambda: top_name(app) == "LobbyScene", [host])
        assert app.table.seat == 1 and host.seats[1].name == "Bob"
        host.close()
    finally:
        srv.stop()


def test_without_a_clipboard_the_invite_goes_to_a_file_that_the_join_screen_takes(app, monkeypatch, tmp_path):
    """Where there is no clipboard, Copy saves the whole invite to a file and says where; the
    file dropped on the join screen (or its path typed) fills the invite, which joins."""
    from gonzaga.net.invite import invite_folder

    def no_clipboard(text):
        raise pygame.error("no clipboard here")
    monkeypatch.setattr(pygame.scrap, "put_text", no_clipboard, raising=False)
    click(app, button(app, i18n.t("title.host_online")).rect.center, 2)
    type_text(app, "Ann")
    click(app, button(app, i18n.t("online.host_button")).rect.center, 2)
    table = app.table
    assert frames_until(app, lambda: table.code is not None and len(table.seats) == 2)
    app.run_frames(2)
    lobby = app.stack.top
    click(app, lobby.copy_code.rect.center)
    path = invite_folder() / f"gonzaga-invite-{table.code}.txt"
    assert app.toasts[-1][0] == i18n.t("online.invite_saved_no_copy", path=str(path))
    assert path.read_text("utf-8") == lobby.invite() + "\n" and lobby.invite() in lobby.visible_text()
    path.unlink()
    click(app, lobby.save_button.rect.center)  # the same, asked for
    assert app.toasts[-1][0] == i18n.t("online.invite_saved", path=str(path)) and path.exists()
    # the friend's join screen: a file that holds no invite is named, the invite file fills the field
    from gonzaga.scenes.online import JoinScene
    join = JoinScene(app)
    app.stack.push(join)
    junk = tmp_path / "notes.txt"
    junk.write_text("nothing to see")
    post(pygame.DROPFILE, file=str(junk))
    app.run_frames(1)
    assert join.error == i18n.t("online.invite_file_bad", file="notes.txt") and join.fields[0].value == ""
    post(pygame.DROPFILE, file=str(path))
    app.run_frames(1)
    assert join.fields[0].value == lobby.invite() and join.error == ""
    join.fields[0].value = str(path)  # its path typed instead: the same
    target = join._target()
    assert target is not None and target[1] == table.code
    app.stack.pop(join)
    friend = Table.join(target[0], target[1], "Bob", app.content)
    try:
        assert frames_until(app, lambda: lobby.start_button.enabled, [friend])
    finally:
        friend.close()


def test_pasting_over_a_selected_field_replaces_it(app, clipboard):
    click(app, button(app, i18n.t("title.join_online")).rect.center, 2)
    address = app.stack.top.fields[0]
    type_text(app, "192.168.1.20")
    click(app, app.stack.top.fields[2].rect.center)
    click(app, address.rect.center)  # coming into the field selects its text
    assert address.selected
    clipboard["text"] = "wss://192.168.1.20:7373/ABCDEF#" + "a" * 52
    key(app, pygame.K_v, mod=pygame.KMOD_CTRL)
    assert address.value == clipboard["text"]
