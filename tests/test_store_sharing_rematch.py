"""A rematch whose players are connected to different processes (issue 47; sharing.py's
``ask_rematch``): Ann plays through process A, Bea through process B, on one PostgreSQL database
(test_store_sharing.py's way: two servers in this test process). Each asks where she is
connected; the rematch begins once, whoever asks last and however close together they ask; each
is given her seat in the new game by her own process, with a token no table of the database
holds; an ask made through a process that died counts again once its player comes back."""
from __future__ import annotations

import socket
import threading

from test_net_server import Client, play
from test_store_sharing import _finished, _freeze, _until, two_processes
from test_store_sharing_kept import _game_of_two

SKIP = ("lobby", "pong", "update", "history", "said")


def _asks_seen(c, seats):
    """Read ``c``'s messages up to a lobby whose rematch asks are ``seats``."""
    while (m := c.expect("lobby", skip=("update", "pong", "history", "said")))["rematch"] != seats:
        pass
    return m


def _games(store):
    return store.call("games", lambda c: c.execute("SELECT count(*) FROM games").fetchone()[0])


def _every_stored_text(store):
    """Everything the database keeps of the games, their seats and the asks, as one text."""
    return store.call("dump", lambda c: c.execute(
        "SELECT coalesce((SELECT string_agg(id || seats::text, ' ') FROM games), '') || ' ' ||"
        " coalesce((SELECT string_agg(coalesce(token_hash, '') || coalesce(process, ''), ' ') FROM rematch_asks), '')"
    ).fetchone()[0])


def _finished_game(a, b, store, seed):
    host, friend = _game_of_two(a.url, b.url, seed)
    play([host, friend])
    _finished(store, host.game)
    return host, friend


def test_players_on_two_processes_get_their_rematch_each_from_her_own(pg_database, tmp_path):
    """Bea asks through B (a process that never ran the game): Ann, on A, is shown the ask. Ann
    asks through A: both are given the same new game, each with a new token (Bea's made by B),
    and a spectator through B follows them there; they play it to its end, each told her own
    seat's view; no token of either game is written anywhere in the database."""
    with two_processes(pg_database, tmp_path) as (a, b, store, clients):
        host, friend = clients[:] = _finished_game(a, b, store, 101)
        old, old_tokens = host.game, (host.token, friend.token)
        watcher = Client(b.url, seed=102)  # a spectator through B, where the rematch does not begin
        clients.append(watcher)
        watcher.send(type="watch", code=host.code)
        watcher.expect("watching")
        friend.send(type="rematch", token=friend.token)
        _asks_seen(host, [1])  # told through A
        host.send(type="rematch", token=host.token)
        for c in (host, friend):
            assert c.expect("joined", skip=SKIP)["game"] != old
        assert host.game == friend.game and (host.token, friend.token) != old_tokens
        assert host.seat == 0 and friend.seat == 1
        assert watcher.expect("watching", skip=SKIP)["game"] == host.game  # and follows them there
        watcher.view = None  # (the finished game's, until the new game's first update)
        play([host, friend])
        assert host.over and friend.over
        while not watcher.over:  # the spectator saw the new game to its end too
            watcher.recv()
        stored = _every_stored_text(store)
        assert not [t for t in (host.token, friend.token, *old_tokens) if t in stored]


def test_asks_at_the_same_moment_on_two_processes_begin_one_rematch(pg_database, tmp_path):
    """Ann and Bea ask through their own processes at once: one new game, both in it."""
    with two_processes(pg_database, tmp_path) as (a, b, store, clients):
        host, friend = clients[:] = _finished_game(a, b, store, 111)
        before = _games(store)
        go = threading.Barrier(2)

        def ask(c):
            go.wait()
            c.send(type="rematch", token=c.token)
        threads = [threading.Thread(target=ask, args=(c,)) for c in (host, friend)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        old = host.game
        host.expect("joined", skip=SKIP)
        # told once every ask is gone: written under the lock, before anyone is told (a process
        # still finding them would begin a second rematch)
        assert store.call("asks", lambda c: c.execute(
            "SELECT count(*) FROM rematch_asks WHERE game_id = %s", (old,)).fetchone()) == (0,)
        friend.expect("joined", skip=SKIP)
        assert host.game == friend.game
        host.expect("update", skip=("lobby", "pong", "history", "said"))  # the new game runs
        assert _games(store) == before + 1
        for c in (host, friend):  # and nobody is given a second one
            while (m := c.poll(0.5)) is not None:
                assert m["type"] != "joined", m


def test_an_ask_made_through_a_process_that_died_counts_once_its_player_is_back(pg_database, tmp_path):
    """Ann asks through A, then A dies (its loop stops, and it no longer says it is alive): Bea's
    ask through B begins no rematch (Ann is connected nowhere, and A's token for her is gone with
    it); Bea is shown both asks. Ann comes back through B: the rematch begins, both in it."""
    with two_processes(pg_database, tmp_path) as (a, b, store, clients):
        host, friend = clients[:] = _finished_game(a, b, store, 121)
        old = host.game
        host.send(type="rematch", token=host.token)
        _asks_seen(friend, [0])
        clients.go = _freeze(a)
        host.ws.socket.shutdown(socket.SHUT_RDWR)  # her connection to A is gone too (A hears it when it wakes)
        dead = a.server.sharing.leases.process
        store.call("A stops saying it is alive", lambda c: c.execute(
            "UPDATE server_processes SET alive_until = now() - interval '1 second' WHERE process = %s", (dead,)))
        before = _games(store)
        friend.send(type="rematch", token=friend.token)
        _asks_seen(friend, [0, 1])  # shown, not begun (a "joined" first would fail here)
        assert _games(store) == before
        ann = Client(b.url, seed=122)
        clients.append(ann)
        ann.send(type="resume", game=old, token=host.token)
        assert ann.expect("joined")["game"] == old
        for c in (ann, friend):
            assert c.expect("joined", skip=SKIP)["game"] != old
        assert ann.game == friend.game
        _until(lambda: store.call("asks", lambda c: c.execute(
            "SELECT count(*) FROM rematch_asks WHERE game_id = %s", (old,)).fetchone()) == (0,))


def test_a_player_back_through_another_process_keeps_her_ask_when_her_old_connection_ends(pg_database, tmp_path):
    """Ann asks through A, then comes back through B (a new connection; the old one to A is still
    open, as after a change of network). When the old connection ends, A withdraws nothing of
    the ask B now holds: Bea's ask through B begins the rematch with Ann in it."""
    with two_processes(pg_database, tmp_path) as (a, b, store, clients):
        host, friend = clients[:] = _finished_game(a, b, store, 141)
        old = host.game
        host.send(type="rematch", token=host.token)
        _asks_seen(friend, [0])
        ann = Client(b.url, seed=142)
        clients.append(ann)
        ann.send(type="resume", game=old, token=host.token)
        assert ann.expect("joined")["game"] == old
        _until(lambda: store.call("asks", lambda c: c.execute(  # the ask is B's now
            "SELECT process FROM rematch_asks WHERE game_id = %s AND seat = 0", (old,)).fetchall())
            == [(b.server.sharing.leases.process,)])
        host.close()
        _until(lambda: old not in a.server.rooms or a.server.rooms[old].seats[0].conn is None)  # A saw it end
        a.server.commits.call(lambda: None)  # and has written what it queued then (its writer thread)
        friend.send(type="rematch", token=friend.token)
        for c in (ann, friend):
            assert c.expect("joined", skip=SKIP)["game"] != old
        assert ann.game == friend.game
