"""Issue 50, play on a server: the saved servers (``net.server_list``), a server's list of open
games (``list_games``, ``net.listing``, ``net.browse``), and the desktop's "Play on a server"
through the app's real loop: add the line ``gonzaga serve`` prints, see the open games, create
one there and play it, join one listed by another client; a bad address, a dead server and a
server answering garbage each get words and lose nothing."""
from __future__ import annotations

import json
import threading
import time

import pytest

from gonzaga.net import browse
from gonzaga.net import protocol as P
from gonzaga.net.browse import GameList
from gonzaga.net.remote import Table
from gonzaga.net.serve import ServerThread, TlsFiles
from gonzaga.net.server_list import ServerList, server_address
from gonzaga.net.server import new_host_key
from gonzaga.rules import legal_actions
from gonzaga.words import i18n

from scene_events import click
from test_net_client import pump
from test_online_invite import clipboard  # noqa: F401 (the fixture)
from test_online_scenes import app, button, frames_until, top_name, type_text  # noqa: F401 (the fixture)
from gonzaga.rules.content import load_content

TWO = [P.SeatRequest(kind="host", colour="red"), P.SeatRequest(kind="open", colour="blue")]


def answer(q: GameList, others=()) -> GameList:
    """Tick ``q`` (and the tables ``others``) until it has its answer."""
    deadline = time.monotonic() + 30
    while not q.tick() and time.monotonic() < deadline:
        for t in others:
            t.tick()
        time.sleep(0.01)
    assert q.done
    return q


def created(t: Table) -> Table:
    assert pump([t], lambda: t.code is not None and bool(t.seats), 3000), t.problem
    return t


@pytest.fixture(scope="module")
def content():
    return load_content()


@pytest.fixture
def public(tmp_path):
    """A server as ``gonzaga serve`` runs one: encrypted, anyone may create games."""
    srv = ServerThread(tmp_path / "srv", tls=TlsFiles.own(tmp_path / "srv")).start()
    yield srv
    srv.stop()


# ---------------------------------------------------------------- the server's list

def test_the_server_lists_listed_games_waiting_for_players_only(public, content):
    listed = created(Table.host(public.url, "Ann", TWO, content, listed=True, turn_secs=60))
    quiet = created(Table.host(public.url, "Cleo", TWO, content))  # not listed: friends only
    full = created(Table.host(public.url, "Dino", TWO, content, listed=True))
    guest = Table.join(public.url, full.code, "Ed", content)
    try:
        assert pump([full, guest], lambda: not full.open_seats(), 3000)
        games = answer(GameList(public.url)).games
        assert [g.model_copy(update={"age": 0}) for g in games] == \
            [P.OpenGame(code=listed.code, host="Ann", taken=1, seats=2, turn_secs=60, age=0,
                        seating=[P.ListedSeat(kind="human", name="Ann"), P.ListedSeat(kind="open")])]
        assert 0 <= games[0].age < 30  # seconds since it was created
        assert quiet.code not in [g.code for g in games]
        # joined: no seat is open any more, so it leaves the list
        other = Table.join(public.url, listed.code, "Bea", content)
        assert pump([listed, other], lambda: not listed.open_seats(), 3000)
        assert answer(GameList(public.url)).games == []
        other.close()
    finally:
        for t in (listed, quiet, full, guest):
            t.close()


def test_a_hosts_own_server_lists_nothing_and_says_so(tmp_path, content):
    """The desktop's "Host online game" server: its games are for the friends its host invites."""
    srv = ServerThread(tmp_path / "own", host_key=new_host_key()).start()
    try:
        q = answer(GameList(srv.url))
        assert q.games is None and q.error == i18n.t("net.no_listing")
    finally:
        srv.stop()


def test_an_open_game_is_checked_like_every_server_message():
    ok = {"v": 2, "type": "games", "games": [{"code": "ABCDEF", "host": "Ann", "taken": 1, "seats": 2, "age": 5}]}
    assert P.parse_server(json.dumps(ok)).games[0].code == "ABCDEF"
    for bad in ({"code": "abc", "host": "Ann", "taken": 1, "seats": 2, "age": 5},
                {"code": "ABCDEF", "host": "Ann", "taken": 9, "seats": 2, "age": 5},
                {"code": "ABCDEF", "host": "Ann", "taken": 1, "seats": 2, "age": -1}):
        with pytest.raises(P.ProtocolError):
            P.parse_server(json.dumps({**ok, "games": [bad]}))
    assert P.parse_client(json.dumps({"v": 2, "type": "list_games"})) == P.ListGames()


# ---------------------------------------------------------------- the saved servers

PIN = "a" * 52


def test_what_a_player_pastes_names_a_server():
    assert server_address(f"serving on wss://127.0.0.1:7373#{PIN}") == (f"wss://127.0.0.1:7373#{PIN}", "")
    assert server_address(f"wss://games.example.org:7373/ABCDEF#{PIN}") == \
        (f"wss://games.example.org:7373#{PIN}", "")  # an invite: its code left out
    assert server_address("games.example.org") == ("wss://games.example.org:7373", "")  # checked by authority
    assert server_address(f"serving on wss://0.0.0.0:7373#{PIN}") == \
        (None, i18n.t("servers.any_host", address="0.0.0.0"))
    assert server_address("") == (None, i18n.t("online.bad_address_empty"))
    url, why = server_address("http://example.org/x")
    assert url is None and why == i18n.t("online.bad_address", address="http://example.org")  # not ws:// nor wss://


def test_the_saved_servers_are_kept_checked_and_a_damaged_file_is_moved_aside(tmp_path):
    book = ServerList(tmp_path / "servers.json")
    assert book.addresses() == []
    assert book.add(f"serving on wss://127.0.0.1:7373#{PIN}") == (f"wss://127.0.0.1:7373#{PIN}", "")
    assert book.add("games.example.org")[0] == "wss://games.example.org:7373"
    assert book.add("nonsense address!")[0] is None
    assert ServerList(tmp_path / "servers.json").addresses() == ["wss://games.example.org:7373",
                                                                  f"wss://127.0.0.1:7373#{PIN}"]
    assert book.add(f"wss://127.0.0.1:7373#{'b' * 52}")[0] is not None  # a new fingerprint replaces the old
    assert book.addresses() == [f"wss://127.0.0.1:7373#{'b' * 52}", "wss://games.example.org:7373"]
    assert book.remove("wss://games.example.org:7373") is None
    assert book.addresses() == [f"wss://127.0.0.1:7373#{'b' * 52}"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["servers.json"]  # written whole, nothing left over
    data = json.loads((tmp_path / "servers.json").read_text())
    data["servers"].append({"address": "wss://evil.example:1/ABCDEF"})  # not an address as the game writes it
    (tmp_path / "servers.json").write_text(json.dumps(data))
    book = ServerList(tmp_path / "servers.json")
    assert book.addresses() == []
    problem = book.take_problem()
    assert problem is not None and problem.moved_to is not None and problem.moved_to.exists()
    assert "servers.1.address" in problem.report() and not (tmp_path / "servers.json").exists()
    assert book.take_problem() is None  # reported once


# ---------------------------------------------------------------- the desktop, through its loop

def add_server(app, clipboard, text: str):
    """From the title: Play on a server, paste ``text`` in the address field, Add."""
    from scene_events import key
    import pygame
    click(app, button(app, i18n.t("title.servers")).rect.center, 2)
    assert top_name(app) == "ServersScene"
    scene = app.stack.top
    clipboard["text"] = text
    click(app, scene.field.rect.center)
    key(app, pygame.K_v, mod=pygame.KMOD_CTRL)
    click(app, button(app, i18n.t("servers.add")).rect.center)
    return scene


def test_a_desktop_game_creates_a_game_on_a_server_and_plays_it(app, clipboard, public, content):
    """The line ``gonzaga serve`` prints pastes into Add; Open games lists none; the player
    creates one (the host's choices), another client sees it in the list and joins with its
    code, and the desktop plays its first move on the server."""
    from gonzaga.scenes.game import GameScene
    scene = add_server(app, clipboard, f"serving on {public.url}")
    assert scene.servers == [public.url] and scene.error == i18n.t("servers.added", address=f"127.0.0.1:{public.port}")
    assert ServerList().addresses() == [public.url]  # kept in the user data folder
    click(app, button(app, i18n.t("servers.open")).rect.center, 2)
    games = app.stack.top
    assert top_name(app) == "ServerGamesScene"
    assert frames_until(app, lambda: games.query is None)
    assert games.games == [] and i18n.t("servers.no_games") in games.visible_text()
    type_text(app, "Ann")  # the name field waits for it
    click(app, button(app, i18n.t("servers.create")).rect.center, 2)
    host = app.stack.top
    assert top_name(app) == "HostScene" and host.server == public.url and host.name_field.value == "Ann"
    assert i18n.t("online.lan") not in host.visible_text() + [x for x, _ in host.labels]
    click(app, host.timer_button.rect.center)  # a 30 s turn timer, as when hosting
    click(app, button(app, i18n.t("servers.create_button")).rect.center, 2)
    assert top_name(app) == "LobbyScene"
    table = app.table
    assert table.server is None and table.url == public.url
    assert frames_until(app, lambda: table.code is not None and len(table.seats) == 2)
    app.run_frames(2)
    lobby = app.stack.top
    assert format_invite_of(public.url, table.code) in lobby.visible_text()
    # a second client lists it and joins it by its listed code
    listed = answer(GameList(public.url), [table]).games
    assert [(g.code, g.host, g.taken, g.seats, g.turn_secs) for g in listed] == [(table.code, "Ann", 1, 2, 30)]
    friend = Table.join(public.url, listed[0].code, "Bob", content)
    try:
        assert frames_until(app, lambda: lobby.start_button.enabled, [friend])
        click(app, lobby.start_button.rect.center, 2)
        assert frames_until(app, lambda: app.stack.find(GameScene) is not None and friend.session is not None,
                            [friend])
        app.run_frames(2)
        s = app.session
        n = friend.session.n
        move = legal_actions(s.state, table.seat)[0]  # the desktop's first decision, sent to the server
        assert s.submit(move) is None
        assert frames_until(app, lambda: friend.session.n == n + 1 and s.n == n + 1, [friend])
        assert friend.session.last_action.seat == 0 == s.last_action.seat  # both sides saw Ann's move
    finally:
        friend.close()


def format_invite_of(url: str, code: str) -> str:
    from gonzaga.net.invite import format_invite
    return format_invite(url, code)


def test_a_desktop_game_joins_a_game_listed_on_a_server(app, clipboard, public, content):
    host = created(Table.host(public.url, "Ann", TWO, content, listed=True))
    try:
        add_server(app, clipboard, public.url)
        click(app, button(app, i18n.t("servers.open")).rect.center, 2)
        games = app.stack.top
        assert frames_until(app, lambda: games.query is None, [host])
        assert games.game_line(games.games[0]) in games.visible_text()
        click(app, button(app, i18n.t("servers.join")).rect.center)  # no name yet: said, nothing sent
        assert games.error == i18n.t("online.bad_name") and top_name(app) == "ServerGamesScene"
        click(app, games.name_field.rect.center)
        type_text(app, "Bob")
        click(app, button(app, i18n.t("servers.join")).rect.center, 2)
        assert frames_until(app, lambda: top_name(app) == "LobbyScene", [host])
        assert frames_until(app, lambda: host.seats[1].name == "Bob", [host])  # the host's lobby told
        assert app.table.seat == 1
    finally:
        host.close()


def test_a_bad_address_a_dead_server_and_garbage_are_told_and_lose_nothing(app, clipboard, tmp_path, monkeypatch,
                                                                            caplog):
    import logging
    from websockets.sync.server import serve
    caplog.set_level(logging.WARNING, logger="gonzaga")
    scene = add_server(app, clipboard, "not an address!")
    assert scene.servers == [] and scene.error == i18n.t("online.bad_address", address="not an address!")
    # a dead server: nobody listens there any more
    srv = ServerThread(tmp_path / "gone").start()
    dead = srv.url
    srv.stop()
    click(app, scene.field.rect.center)
    type_text(app, dead)
    click(app, button(app, i18n.t("servers.add")).rect.center)
    assert scene.servers == [dead]
    click(app, button(app, i18n.t("servers.open")).rect.center, 2)
    games = app.stack.top
    assert frames_until(app, lambda: games.query is None)
    assert games.error == i18n.t("online.err_refused", address=f"127.0.0.1:{srv.port}") and games.games == []
    click(app, button(app, i18n.t("common.back")).rect.center, 2)
    assert top_name(app) == "ServersScene" and ServerList().addresses() == [dead]  # kept: it may come back
    # a WebSocket server that answers garbage: no answer to the question, said in words
    monkeypatch.setattr(browse, "ANSWER_SECS", 1.0)

    def garbage(ws):
        for _ in ws:
            ws.send("this is not JSON")
            ws.send(json.dumps({"v": 2, "type": "games", "games": "nothing"}))
    with serve(garbage, "127.0.0.1", 0) as junk:
        threading.Thread(target=junk.serve_forever, daemon=True).start()
        address = f"ws://127.0.0.1:{junk.socket.getsockname()[1]}"
        scene.field.value = address
        click(app, button(app, i18n.t("servers.add")).rect.center)
        assert scene.servers[0] == address
        click(app, button(app, i18n.t("servers.open")).rect.center, 2)  # the first row: the newest
        games = app.stack.top
        assert frames_until(app, lambda: games.query is None)
        assert games.error == i18n.t("servers.no_answer", address=address.removeprefix("ws://"))
        junk.shutdown()
    assert app.running and top_name(app) == "ServerGamesScene"
    assert not [r for r in caplog.records if r.name.startswith("gonzaga") and (r.exc_info or r.levelno >= logging.ERROR)]



def test_a_server_the_system_trusts_needs_no_fingerprint_and_no_other_is_accepted(tmp_path, monkeypatch):
    """An address without a fingerprint is checked by the system's certificate authorities and
    the host name (a public server with a certificate from an authority): here the server's own
    certificate is made the system's only authority (``SSL_CERT_FILE``). Without it, the same
    server is refused before anything is sent: never an unverified certificate."""
    files = TlsFiles.own(tmp_path / "srv")
    srv = ServerThread(tmp_path / "srv", tls=files).start()
    try:
        url = f"wss://localhost:{srv.port}"
        q = answer(GameList(url))
        assert q.games is None and q.error == i18n.t("online.err_cert", address=f"localhost:{srv.port}")
        monkeypatch.setenv("SSL_CERT_FILE", str(files.cert))
        assert answer(GameList(url)).games == []
        assert server_address(url) == (f"{url}", "")  # saved as it is: no fingerprint to keep
    finally:
        srv.stop()


@pytest.mark.parametrize("lang", ["en", "it"])
def test_the_server_screens_fit(app, public, content, lang):
    """The saved servers, a server's open games (four-seat and timed games listed) and creating
    a game there, at the smallest and the usual window: nothing cut or overlapping, every word
    in the chosen language."""
    import screen_walk as SW
    from test_plain_words import foreign_words, shown_texts
    from gonzaga.scenes.online import HostScene
    from gonzaga.scenes.servers import ServerGamesScene, ServersScene
    SW.set_language(app, lang)
    four = TWO + [P.SeatRequest(kind="ai", colour="green", bot="easy"), P.SeatRequest(kind="open", colour="yellow")]
    tables = [created(Table.host(public.url, name, seats, content, listed=True, turn_secs=timer))
              for name, seats, timer in (("Beatrice d'Este", four, 60), ("Isabella", TWO, None))]
    book = ServerList()
    book.add("srv1.gonzaga.eu")  # a name with no word of either language
    book.add(public.url)
    problems = []

    def check(what: str) -> None:
        problems.extend(SW.problems_at(app, what))
        problems.extend(f"{what}: a word of the other language: {w}"
                        for w in sorted(foreign_words(shown_texts(app), lang)))
    try:
        app.stack.push(ServersScene(app))
        app.stack.top.error = i18n.t("servers.any_host", address="0.0.0.0")
        check("servers")
        games = ServerGamesScene(app, public.url, "Ann")
        app.stack.push(games)
        assert frames_until(app, lambda: games.query is None, tables) and len(games.games) == 2
        check("open games")
        app.stack.push(HostScene(app, server=public.url, player="Ann"))
        check("create")
    finally:
        for t in tables:
            t.close()
    assert not problems, "\n".join(problems)
