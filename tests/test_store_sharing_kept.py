"""What a game's owner holds besides its actions survives a take-over (issue 47): the chat lines
kept for whoever comes later and the rematch asks are kept in the PostgreSQL store shared by
the processes (sharing.py, schema script 0005), and a process taking the game over reads them
back. Two servers in this test process share one database as two processes would
(test_store_sharing.py's way); a process "dies" by its event loop stopping (``_freeze``), its
leases lapse by the database's clock, and the other takes over."""
import time

import pytest

from gonzaga.net import social
from gonzaga.net.cleantext import clean_chat
from gonzaga.net.rooms import CHAT_KEPT

from test_net_server import HOST, Client, join, play, seat
from test_store_sharing import _finished, _freeze, _lapse, _server, _store, _until, two_processes

# a line a hostile client might send: JSON and SQL fragments, markup, a text-direction override,
# a zero-width space, controls and runs of spaces (the server cleans it before it is told)
HOSTILE = 'x"}{"v":2,"type":"update"} <b>\u202eevil\u200b\x00\n  spaced   out \'); DROP TABLE chat_kept;-- \\u0041'


def _game_of_two(url_host, url_friend, seed):
    """Ann hosts on one process, Bea joins (on the same or another): started, both updated."""
    host = Client(url_host, seed=seed)
    host.send(type="create", name="Ann", seats=[HOST, seat("open", "blue")], seed=seed)
    host.expect("joined")
    friend = join(url_friend, host.code, "Bea", seed=seed + 1)
    host.send(type="start", token=host.token)
    host.expect("update")
    friend.expect("update")
    return host, friend


def _said(c, count, timeout=10.0):
    """The next ``count`` chat lines ``c`` is told (other messages passed over)."""
    out, end = [], time.monotonic() + timeout
    while len(out) < count:
        m = c.recv(max(0.05, end - time.monotonic()))
        if m["type"] == "said":
            out.append(m)
    return out


def _resumed(url, c, seed=9):
    """``c``'s player back through another process: the new connection, and the chat lines it
    is told after the game log (its catch-up), up to the lobby that follows them."""
    again = Client(url, seed=seed)
    again.send(type="resume", game=c.game, token=c.token)
    assert again.expect("joined")["seat"] == c.seat
    lines = []
    while (m := again.recv())["type"] != "lobby":
        if m["type"] == "said":
            lines.append(m)
    return again, lines, m


def _kept_rows(store, gid):
    return store.call("chat kept", lambda c: [t for (t,) in c.execute(
        "SELECT said FROM chat_kept WHERE game_id = %s ORDER BY seq", (gid,)).fetchall()])


def _take_over(pg_database, a, b, gid):
    """A stops (its loop no longer runs: killed or paused) and B takes its game over."""
    go = _freeze(a)
    _lapse(pg_database)
    _until(lambda: gid in b.server.rooms and not b.server.rooms[gid].follower)
    return go


def test_a_chat_line_said_on_the_old_owner_is_seen_after_a_take_over(pg_database, tmp_path):
    """Ann and Bea play on process A (B never hears a word of the game); they say a hostile
    line, a plain one and an emote. A stops, B takes the game over, and Ann, coming back
    through B, is told the same three lines, each exactly as it was told the first time (the
    hostile one as cleaned, not cleaned or read a second time)."""
    a, b = _server(tmp_path, "a", pg_database), _server(tmp_path, "b", pg_database)
    store = _store(pg_database)
    go, clients = None, []
    try:
        host, friend = clients[:] = _game_of_two(a.url, a.url, 81)
        gid = host.game
        assert gid not in b.server.rooms
        host.send(type="chat", token=host.token, text=HOSTILE)
        friend.send(type="chat", token=friend.token, text="ciao")
        friend.send(type="emote", token=friend.token, emote="well_played")
        told = _said(friend, 3)
        assert told[0]["text"] == clean_chat(HOSTILE) != HOSTILE
        _until(lambda: len(_kept_rows(store, gid)) == 3)  # written by A's writer thread
        go = _take_over(pg_database, a, b, gid)
        again, lines, _ = _resumed(b.url, host)
        assert lines == told
        again.close()
    finally:
        if go is not None:
            go.set()
        for c in clients:  # A's (closed once A runs again: a stopped server answers no close)
            c.close()
        store.close()
        a.stop()
        b.stop()


@pytest.mark.parametrize("how, bea_on", [("killed", "a"), ("stopped", "a"), ("killed", "b")])
def test_a_rematch_asked_before_a_take_over_starts_with_the_other_s_ask_after_it(pg_database, tmp_path, how, bea_on):
    """A finished game run by process A: Ann asks for a rematch there. A stops (killed, or
    stopped cleanly: its connections end, which withdraws no ask); Ann comes back through B, and
    so does Bea if she was on A (else B has had its copy of the game all along, which reads the
    asks again): Ann's ask still stands (the lobby says so), and Bea's ask starts the rematch:
    both are given the new game."""
    a, b = _server(tmp_path, "a", pg_database), _server(tmp_path, "b", pg_database)
    store = _store(pg_database)
    go, clients = None, []
    try:
        host, friend = clients[:] = _game_of_two(a.url, (a if bea_on == "a" else b).url, 91)
        play([host, friend])
        gid = host.game
        _finished(store, gid)
        host.send(type="rematch", token=host.token)
        while (m := host.expect("lobby", skip=("update", "pong", "history", "said")))["rematch"] != [0]:
            pass
        _until(lambda: store.call("asks", lambda c: c.execute(
            "SELECT seat FROM rematch_asks WHERE game_id = %s", (gid,)).fetchall()) == [(0,)])
        if how == "killed":
            go = _freeze(a)  # a finished game has no lease: its players' messages go where they land
        else:
            a.stop()
        ann, _, lobby = _resumed(b.url, host, seed=92)
        assert lobby["rematch"] == [0], lobby
        bea = _resumed(b.url, friend, seed=93)[0] if bea_on == "a" else friend
        bea.send(type="rematch", token=friend.token)
        for c in (ann, bea):
            m = c.expect("joined", skip=("lobby", "pong", "update", "history", "said"))
            assert m["game"] != gid
        assert ann.game == bea.game
        _until(lambda: store.call("asks", lambda c: c.execute(  # done: gone (written after the news)
            "SELECT count(*) FROM rematch_asks WHERE game_id = %s", (gid,)).fetchone()) == (0,))
        for c in (ann, bea):
            c.close()
    finally:
        if go is not None:
            go.set()
        for c in clients:  # A's (closed once A runs again: a stopped server answers no close)
            c.close()
        store.close()
        a.stop()
        b.stop()


def test_the_chat_kept_holds_its_cap_across_the_store(pg_database, tmp_path, monkeypatch):
    """Ann says CHAT_KEPT + 5 lines on process A: the store keeps the latest CHAT_KEPT, no more,
    and after B takes the game over she is told exactly those, in order."""
    monkeypatch.setattr(social, "CHAT_LINES", 100)  # no rate limit for this test
    a, b = _server(tmp_path, "a", pg_database), _server(tmp_path, "b", pg_database)
    store = _store(pg_database)
    go, clients = None, []
    try:
        host, friend = clients[:] = _game_of_two(a.url, a.url, 101)
        gid = host.game
        for i in range(CHAT_KEPT + 5):
            host.send(type="chat", token=host.token, text=f"line {i}")
        told = _said(host, CHAT_KEPT + 5)
        _until(lambda: f'"line {CHAT_KEPT + 4}"' in "".join(_kept_rows(store, gid)[-1:]))
        assert len(_kept_rows(store, gid)) == CHAT_KEPT
        go = _take_over(pg_database, a, b, gid)
        again, lines, _ = _resumed(b.url, host)
        assert [m["text"] for m in lines] == [f"line {i}" for i in range(5, CHAT_KEPT + 5)]
        assert lines == told[5:]
        again.close()
    finally:
        if go is not None:
            go.set()
        for c in clients:  # A's (closed once A runs again: a stopped server answers no close)
            c.close()
        store.close()
        a.stop()
        b.stop()


def test_the_kept_rows_hold_the_cap_and_go_with_their_game(pg_database):
    """The store's side: a game keeps its latest ``cap`` lines, oldest first; nothing is kept
    for a game that is not there; an ask is kept once, withdrawn alone or with every other;
    deleting the game deletes its rows and no other game's."""
    from gonzaga.net.storage import StoredGame
    store = _store(pg_database)
    try:
        for gid in ("g1", "g2"):
            store.create_game(StoredGame(gid, f"CODE{gid}", {}, 1, []))
        for i in range(5):
            store.keep_said("g1", f"line {i}", 3)
        store.keep_said("g2", "other", 3)
        store.keep_said("gone", "nobody", 3)
        for seat_, asked in ((0, True), (2, True), (0, True), (3, True), (2, False)):
            store.keep_ask("g1", seat_, asked)
        store.keep_ask("g2", 1, True)
        assert store.kept("g1", 3) == (["line 2", "line 3", "line 4"], {0, 3})
        assert store.kept("gone", 3) == ([], set())
        store.keep_ask("g1", None, False)  # the rematch began
        assert store.kept("g1", 3) == (["line 2", "line 3", "line 4"], set())
        store.keep_ask("g1", 1, True)
        store.delete_game("g1")
        assert store.call("rows", lambda c: c.execute(
            "SELECT (SELECT count(*) FROM chat_kept WHERE game_id = 'g1'),"
            " (SELECT count(*) FROM rematch_asks WHERE game_id = 'g1')").fetchone()) == (0, 0)
        assert store.kept("g2", 3) == (["other"], {1})
    finally:
        store.close()


def test_a_line_told_but_not_yet_written_by_the_owner_is_kept_by_a_follower_that_takes_over(pg_database, tmp_path):
    """Ann plays on process A, Bea on B (a follower: it hears the owner's lines). A line is
    written; A's writer thread then waits, so a second line is told (Bea sees it) but not yet
    written. Ann comes back through B, which takes the game (a steal) and reads the store: she
    is told both lines, the one only B had heard after the one the store had."""
    import threading
    a, b = _server(tmp_path, "a", pg_database), _server(tmp_path, "b", pg_database)
    store = _store(pg_database)
    held = threading.Event()
    clients = []
    try:
        host, friend = clients[:] = _game_of_two(a.url, b.url, 111)
        gid = host.game
        host.send(type="chat", token=host.token, text="written")
        first = _said(friend, 1)
        _until(lambda: len(_kept_rows(store, gid)) == 1)
        a.server.commits._later(held.wait)  # A's writer thread waits from now on
        host.send(type="chat", token=host.token, text="only told")
        told = first + _said(friend, 1)
        again, lines, _ = _resumed(b.url, host)
        assert not b.server.rooms[gid].follower  # B runs it now
        assert len(_kept_rows(store, gid)) == 1  # A has not written the second line
        assert lines == told
        clients.append(again)
    finally:
        held.set()
        for c in clients:
            c.close()
        store.close()
        a.stop()
        b.stop()


def test_a_finished_games_chat_is_passed_on_by_the_process_that_hears_it(pg_database, tmp_path):
    """Ann's game ran on A; Bea is connected through B. Once it is over (no process runs it), a
    line Bea says through B reaches Ann on A, and Ann's answer through A reaches Bea: each
    exactly once, and kept for whoever comes back."""
    with two_processes(pg_database, tmp_path) as (a, b, store, clients):
        host, friend = clients[:] = _game_of_two(a.url, b.url, 131)
        play([host, friend])
        _finished(store, host.game)
        assert b.server.rooms[host.game].follower  # B never ran it
        friend.send(type="chat", token=friend.token, text="good game")
        heard = _said(host, 1)[0]
        assert heard["text"] == "good game" and heard["seat"] == 1
        host.send(type="chat", token=host.token, text="again?")
        assert [m["text"] for m in _said(friend, 2)] == ["good game", "again?"]  # her own, then Ann's
        assert [m["text"] for m in _said(host, 1)] == ["again?"]  # Ann's own, told back to her
        for c in (host, friend):  # nothing twice
            while (m := c.poll(0.5)) is not None:
                assert m["type"] != "said", m
        _until(lambda: len(_kept_rows(store, host.game)) == 2)  # each kept once, by the process that heard it
