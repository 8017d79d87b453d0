"""Several ``gonzaga serve`` processes on one PostgreSQL database (issue 47): a game is run by
the process holding its lease, any process serves any player (sharing.py, leases_pg.py). Two
servers in this process, each on its own event loop and thread, share one database as two
processes would: they meet only there."""
import time

import pytest

from gonzaga.net import serve

from test_net_server import HOST, Client, host_game, join, play, seat


def _server(tmp_path, name, pg_database):
    url, password = pg_database
    return serve.ServerThread(tmp_path / name, test_seeds=True, any_level=True,
                              database=serve.Database(url, password)).start()


def _store(pg_database):
    from gonzaga.net.store_pg import PostgresStore  # psycopg only for the PostgreSQL tests
    url, password = pg_database
    return PostgresStore(url, password=password)


def _ns(c):
    return [u["n"] for u in c.updates]


def test_a_player_on_each_process_sees_every_update_and_plays_to_the_end(pg_database, tmp_path):
    a, b = _server(tmp_path, "a", pg_database), _server(tmp_path, "b", pg_database)
    try:
        host = host_game(a.url, [HOST, seat("open", "yellow"), seat("ai", "green", "greedy")], seed=12)
        friend = join(b.url, host.code, "Bea", seed=2)
        host.send(type="start", token=host.token)
        play([host, friend])
        store = _store(pg_database)
        try:
            g = store.load_game(host.game)
        finally:
            store.close()
        assert g is not None and g.finished
        for c in (host, friend):  # every action told to both, in order, once each
            ns = _ns(c)
            assert ns[-1] == len(g.actions)
            assert sorted(set(ns)) == list(range(ns[0], len(g.actions) + 1)), ns
        host.close()
        friend.close()
    finally:
        a.stop()
        b.stop()


def _freeze(server):
    """The server's event loop stops (as a process paused by SIGSTOP, or killed: it does nothing
    more); the returned event lets it go on."""
    go = __import__("threading").Event()
    server._loop.call_soon_threadsafe(go.wait)
    return go


def _lapse(pg_database):
    """Every lease lapses now, by the database's clock (the one the leases use): as if their
    owner had stopped renewing them LEASE_SECONDS ago."""
    store = _store(pg_database)
    try:
        store.call("lapse", lambda c: c.execute("UPDATE game_leases SET expires = now() - interval '1 second'"))
    finally:
        store.close()


def test_a_stopped_owner_s_game_is_taken_over_and_resumed_with_nothing_lost(pg_database, tmp_path):
    a, b = _server(tmp_path, "a", pg_database), _server(tmp_path, "b", pg_database)
    go = None
    try:
        host = host_game(a.url, [HOST, seat("ai", "blue", "easy")], seed=23)
        host.send(type="start", token=host.token)
        host.expect("update")
        play([host], stop_when=lambda: host.n is not None and host.n >= 12)
        acknowledged = host.n
        go = _freeze(a)
        _lapse(pg_database)
        end = time.monotonic() + 10
        while host.game not in b.server.rooms or b.server.rooms[host.game].follower:
            assert time.monotonic() < end, "the game was not taken over"
            time.sleep(0.05)
        again = Client(b.url, seed=5)
        again.send(type="resume", game=host.game, token=host.token)
        assert again.expect("joined")["seat"] == 0
        assert again.expect("update")["n"] >= acknowledged
        play([again])
        store = _store(pg_database)
        try:
            g = store.load_game(host.game)
        finally:
            store.close()
        assert g is not None and g.finished and again.updates[-1]["n"] == len(g.actions)
        assert [u["n"] for u in host.updates] == list(range(1, acknowledged + 1))
        host.close()
        again.close()
    finally:
        if go is not None:
            go.set()
        a.stop()
        b.stop()


def test_a_paused_owner_that_wakes_up_cannot_write(pg_database):
    """Process A runs a game; it sleeps, B takes the lease over and writes; A's next write, with
    its old epoch, is refused and changes nothing (the fencing), and A's renewal says so."""
    from gonzaga.net.leases_pg import GameLeases
    from gonzaga.net.storage import LeaseLost, StoredGame
    a, b = _store(pg_database), _store(pg_database)
    try:
        la, lb = GameLeases(a, "A"), GameLeases(b, "B")
        a.create_game(StoredGame("g1", "CODE01", {}, 1, []))
        assert la.take("g1") == 1
        a.append_action("g1", 0, "x0")
        _lapse(pg_database)
        assert lb.claim_lapsed() == {"g1": 2}
        b.append_action("g1", 1, "y1")
        with pytest.raises(LeaseLost):
            a.append_action("g1", 2, "x2")  # A woke up: its epoch is 1
        assert la.renew() == set() and "g1" in a.lost
        b.append_action("g1", 2, "y2")
        assert b.load_game("g1").actions == ["x0", "y1", "y2"]
    finally:
        a.close()
        b.close()


def test_a_follower_read_again_tells_its_connections_every_action_it_had_not_seen(pg_database, tmp_path):
    """A follower's room read again from the store (a seat changed, its game taken) while the game
    had moved on: each action it had not seen is still told to its connections (a spectator here),
    not skipped because its news comes after and finds the room up to date."""
    a, b = _server(tmp_path, "a", pg_database), _server(tmp_path, "b", pg_database)
    go = None
    try:
        host = host_game(a.url, [HOST, seat("ai", "blue", "easy")], seed=41)
        host.send(type="start", token=host.token)
        host.expect("update")
        watcher = Client(b.url)
        watcher.send(type="watch", code=host.code)
        watcher.expect("watching")
        u = watcher.expect("update")
        room = b.server.rooms[host.game]
        assert room.follower
        go = _freeze(b)
        b._loop.call_soon_threadsafe(b.server.sharing.reload, room)  # runs first when b goes on
        start = host.n
        play([host], stop_when=lambda: host.n is not None and host.n >= start + 4)
        go.set()
        end = time.monotonic() + 10
        while (watcher.n or 0) < host.n and time.monotonic() < end:
            watcher.poll(0.1)
        ns = [m["n"] for m in watcher.updates]
        assert ns[-1] >= host.n and sorted(set(ns)) == list(range(u["n"], ns[-1] + 1)), ns
        host.close()
        watcher.close()
    finally:
        if go is not None:
            go.set()
        a.stop()
        b.stop()
