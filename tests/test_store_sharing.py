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
