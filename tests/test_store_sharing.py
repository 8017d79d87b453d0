"""Several ``gonzaga serve`` processes on one PostgreSQL database (issue 47): a game is run by
the process holding its lease, any process serves any player (sharing.py, leases_pg.py). Two
servers in this process, each on its own event loop and thread, share one database as two
processes would: they meet only there."""
import contextlib
import time

import pytest

from gonzaga.net import serve

from gonzaga.net.viewcodec import view_to_json

from test_net_server import HOST, Client, host_game, join, play, seat, seen, true_states


def _server(tmp_path, name, pg_database):
    url, password = pg_database
    return serve.ServerThread(tmp_path / name, test_seeds=True, any_level=True,
                              database=serve.Database(url, password)).start()


def _store(pg_database):
    from gonzaga.net.store_pg import PostgresStore  # psycopg only for the PostgreSQL tests
    url, password = pg_database
    return PostgresStore(url, password=password)


@contextlib.contextmanager
def two_processes(pg_database, tmp_path):
    """Processes A and B on one database, and a store to read it: ``(a, b, store, clients)``.
    Afterwards the clients listed in ``clients`` are closed, then the store and both servers
    (a frozen server is let go on first: ``clients.go``)."""
    a, b = _server(tmp_path, "a", pg_database), _server(tmp_path, "b", pg_database)
    store = _store(pg_database)
    clients = Held()
    try:
        yield a, b, store, clients
    finally:
        if clients.go is not None:
            clients.go.set()
        for c in clients:
            c.close()
        store.close()
        a.stop()
        b.stop()


class Held(list):
    """The clients a test opened (closed at its end), and the event that lets a frozen server go."""
    go = None


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
            g = _finished(store, host.game)
        finally:
            store.close()
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
            g = _finished(store, host.game)
        finally:
            store.close()
        assert again.updates[-1]["n"] == len(g.actions)
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


def _told_truly(g, clients):
    """Every update each client got is its seat's view of the stored game after n actions (none
    was of an action the store does not have)."""
    states = true_states(g)
    for c in clients:
        for u in c.updates:
            assert u["n"] <= len(g.actions), f"seat {u['seat']} was told of action {u['n']}, not stored"
            assert u["view"] == view_to_json(seen(states[u["n"]], u["seat"])), f"seat {u['seat']} after {u['n']}"


def _finished(store, gid):
    """The stored game once it is marked finished (the mark is queued after the last action)."""
    _until(lambda: store.load_game(gid).finished)
    return store.load_game(gid)


def _until(what, timeout=30.0):
    end = time.monotonic() + timeout
    while not what():
        assert time.monotonic() < end, "timed out"
        time.sleep(0.02)


def test_grouped_commits_refuse_alone_a_game_whose_lease_was_taken_mid_batch(pg_database, tmp_path):
    """Process A's writer thread holds a batch with an action of game 1 and one of game 2; before
    it commits, process B takes game 1's lease. The batch checks each game's epoch in its
    transaction: game 1's action is refused alone (nothing written by the stale owner, nobody
    told of it), game 2's commits and is acknowledged; the refused act is passed on to B, which
    applies it, game 1 goes on under B, and both games end with every update true."""
    import threading
    a, b = _server(tmp_path, "a", pg_database), _server(tmp_path, "b", pg_database)
    go = threading.Event()
    try:
        commits = a.server.commits
        assert commits is not None and commits.fence is not None  # grouped commits, fenced, on PostgreSQL
        host1 = host_game(a.url, [HOST, seat("open", "yellow")], seed=31)
        friend1 = join(b.url, host1.code, "Bea", seed=3)
        host1.send(type="start", token=host1.token)
        host2 = host_game(a.url, [HOST, seat("open", "blue")], seed=32)
        friend2 = join(a.url, host2.code, "Cid", seed=4)
        host2.send(type="start", token=host2.token)
        for c in (host1, friend1, host2, friend2):
            c.expect("update")
        play([host1, friend1], stop_when=lambda: host1.n is not None and host1.n >= 3 and bool(host1.my_actions()))
        play([host2, friend2], stop_when=lambda: host2.n is not None and host2.n >= 3)
        rooms = a.server.rooms  # both games run on A: every client reads up to its game's last action
        for c in (host1, friend1, host2, friend2):
            c.settle(until=lambda c=c: c.game in rooms and c.n == rooms[c.game].n)
        g1 = host1.game
        store = _store(pg_database)
        try:
            def count(gid):
                return len(store.load_actions(gid, 0))
            told1, told2 = host1.n, host2.n
            assert count(g1) == told1 and count(host2.game) == told2

            commits._later(go.wait)  # the writer thread waits: the next appends queue into one batch
            issued = commits.issued
            mover1 = host1  # on A, which runs game 1
            mover2 = next(c for c in (host2, friend2) if c.my_actions())
            mover1.try_act()
            mover2.try_act()
            _until(lambda: commits.issued >= issued + 2)  # both applied on A, queued, nobody told
            for c in (host1, host2):  # nobody is told of an action not yet stored
                while (m := c.poll(0.3)) is not None:
                    assert m["type"] != "update", m

            def steal():
                b.server.sharing.steal(b.server.rooms[g1])
            b._loop.call_soon_threadsafe(steal)
            _until(lambda: g1 in b.server.rooms and not b.server.rooms[g1].follower)
            lost: list = []
            on_lost = commits.on_lost
            commits.on_lost = lambda items: (lost.extend(items), on_lost(items))
            go.set()
            _until(lambda: commits.durable >= commits.issued)

            assert [(x.game_id, x.index, type(x.error).__name__) for x in lost] == [(g1, told1, "LeaseLost")], \
                "the stale owner's action was written"
            assert count(host2.game) == told2 + 1, "the other game's action of the batch was not stored"
            assert mover2.n == told2 + 1 or mover2.expect("update")["n"] == told2 + 1
            assert a.server.rooms[g1].follower  # A follows game 1 now: its players' acts go to B
            # the refused act was passed on to B, which applied it: Ann is told of it from there
            assert host1.expect("update", skip=("lobby", "pong", "news", "clocks"))["n"] == told1 + 1
            assert count(g1) == told1 + 1
            play([host1, friend1])
            play([host2, friend2])
            for gid, clients in ((g1, [host1, friend1]), (host2.game, [host2, friend2])):
                g = _finished(store, gid)
                _told_truly(g, clients)
                assert all(c.updates[-1]["n"] == len(g.actions) for c in clients)
        finally:
            store.close()
        for c in (host1, friend1, host2, friend2):
            c.close()
    finally:
        go.set()
        a.stop()
        b.stop()


def _news(c, key, timeout=20.0):
    """Read ``c``'s messages until a ``news`` line of ``key`` (others are kept as usual)."""
    end = time.monotonic() + timeout
    while True:
        m = c.recv(max(0.05, end - time.monotonic()))
        if m["type"] == "news" and m["line"][1] == key:
            return m


def test_after_a_take_over_a_seat_connected_nowhere_starts_its_grace_period(pg_database, tmp_path):
    """Presence is shared: process A runs a game whose host is connected to B (A counts the host
    present) and whose friend is connected to A. A stops; B takes the game over: its own player
    is present, the friend (connected nowhere now) is away from then, the grace period (2 s) runs
    out and is told, and the host hands the seat to the AI, which plays it to the end."""
    a, b = _server(tmp_path, "a", pg_database), _server(tmp_path, "b", pg_database)
    go = None
    store = _store(pg_database)
    try:
        host = Client(b.url, seed=51)
        host.send(type="create", name="Ann", seats=[HOST, seat("open", "blue")], seed=51, grace=2)
        host.expect("joined")
        friend = join(a.url, host.code, "Bea", seed=52)
        host.send(type="start", token=host.token)
        host.expect("update")
        friend.expect("update")
        gid = host.game

        def held(seat_, process):
            return store.call("presence", lambda c: c.execute(
                "SELECT count(*) FROM seat_presence WHERE game_id = %s AND seat = %s AND process = %s",
                (gid, seat_, process)).fetchone()[0])
        _until(lambda: held(0, b.server.sharing.leases.process) == 1 and held(1, a.server.sharing.leases.process) == 1)
        a._loop.call_soon_threadsafe(lambda: a.server.sharing.steal(a.server.rooms[gid]))
        _until(lambda: gid in a.server.rooms and not a.server.rooms[gid].follower)
        time.sleep(0.2)
        assert a.server.rooms[gid].table.away == {}  # the host, connected to B, is present for A
        go = _freeze(a)
        store.call("A stops", lambda c: (
            c.execute("UPDATE game_leases SET expires = now() - interval '1 second'"),
            c.execute("UPDATE server_processes SET alive_until = now() - interval '1 second' WHERE process = %s",
                      (a.server.sharing.leases.process,))))
        _until(lambda: gid in b.server.rooms and not b.server.rooms[gid].follower)
        _news(host, "log.seat_grace_over")  # Bea's seat: the only one away
        host.send(type="set_seat", token=host.token, seat=1, kind="ai", bot="greedy")
        lobby = host.expect("lobby")
        while lobby["seats"][1]["kind"] != "ai":
            lobby = host.expect("lobby")
        play([host])
        g = _finished(store, gid)
        _told_truly(g, [host])
        host.close()
        friend.close()
    finally:
        if go is not None:
            go.set()
        store.close()
        a.stop()
        b.stop()


def test_two_quick_matches_at_once_on_two_processes_end_at_one_table(pg_database, tmp_path):
    """Two players press Quick match at the same moment, one on each process: they end at one
    table, which starts by itself (the choice is made among every process's tables, one process
    at a time); three rounds, each opening a new table."""
    import threading
    from online_helpers import Player
    a, b = _server(tmp_path, "a", pg_database), _server(tmp_path, "b", pg_database)
    try:
        for round_ in range(3):
            pa, pb = Player(a.url, f"127.0.4.{round_}"), Player(b.url, f"127.0.5.{round_}")
            go = threading.Barrier(2)
            answers: dict = {}

            def press(c, who, go=go, answers=answers):
                go.wait()
                c.send(type="quick_match", name=who, seats=2)
                answers[who] = c.expect_any(("joined", "error"))
            threads = [threading.Thread(target=press, args=(c, w)) for c, w in ((pa, "A"), (pb, "B"))]
            for t in threads:
                t.start()
            for t in threads:
                t.join(30)
            assert answers["A"]["type"] == answers["B"]["type"] == "joined", answers
            assert answers["A"]["game"] == answers["B"]["game"], "two half-empty tables"
            assert {answers["A"]["seat"], answers["B"]["seat"]} == {0, 1}
            for c in (pa, pb):
                first = c.expect("update", skip=("lobby", "pong", "history", "news", "clocks"))
                assert first["n"] >= 1  # full: it started by itself (dealt)
                c.close()
    finally:
        a.stop()
        b.stop()


def test_the_listener_reconnects_when_its_database_connection_is_cut(pg_database, tmp_path):
    """Both processes' listening connections are ended by the database (pg_terminate_backend, as
    a restart or an operator would): each listener connects again, and what passes only through
    the notifications (a chat line from the owner's player to the other process's) still
    arrives; the game goes on to its end with every update true."""
    a, b = _server(tmp_path, "a", pg_database), _server(tmp_path, "b", pg_database)
    store = _store(pg_database)
    try:
        host = host_game(a.url, [HOST, seat("open", "yellow")], seed=61)
        friend = join(b.url, host.code, "Bea", seed=6)
        host.send(type="start", token=host.token)
        play([host, friend], stop_when=lambda: host.n is not None and host.n >= 4)
        before = {s: s.server.sharing.listener.backend() for s in (a, b)}
        assert all(before.values())
        for pid in before.values():
            assert store.call("cut", lambda c, pid=pid: c.execute("SELECT pg_terminate_backend(%s)", (pid,)).fetchone()[0])
        _until(lambda: all(s.server.sharing.listener.backend() not in (None, before[s]) for s in (a, b)), 15)
        host.send(type="chat", token=host.token, text="still there?")
        end = time.monotonic() + 10
        while True:
            m = friend.recv(max(0.05, end - time.monotonic()))
            if m["type"] == "said":
                assert m["text"] == "still there?"
                break
        play([host, friend])
        g = _finished(store, host.game)
        _told_truly(g, [host, friend])
        host.close()
        friend.close()
    finally:
        store.close()
        a.stop()
        b.stop()


def test_a_turn_clock_continues_after_a_take_over_instead_of_starting_again(pg_database, tmp_path):
    """A live game with a 60 s turn timer: Ann's clock runs on process A (she has seen her
    decision); A stops and B takes the game over: the clocks B tells say Ann's clock runs with
    the time she had left (less than 60 s), not a new clock waiting for her screen."""
    a, b = _server(tmp_path, "a", pg_database), _server(tmp_path, "b", pg_database)
    go = None
    try:
        host = Client(a.url, seed=71)
        host.send(type="create", name="Ann", seats=[HOST, seat("open", "blue")], seed=71, turn_secs=60)
        host.expect("joined")
        friend = join(b.url, host.code, "Bea", seed=72)
        host.send(type="start", token=host.token)
        host.expect("update")
        friend.expect("update")
        gid = host.game
        _until(lambda: gid in a.server.rooms and not a.server.rooms[gid].follower)
        host.send(type="seen", token=host.token, n=host.n)

        def running(c):
            end = time.monotonic() + 10
            while True:
                m = c.recv(max(0.05, end - time.monotonic()))
                if m["type"] == "clocks" and any(k["seat"] == 0 and k["running"] for k in m["clocks"]):
                    return m
        running(friend)  # told through B, from A's news
        time.sleep(2.0)  # Ann's clock runs 2 s on A
        go = _freeze(a)
        _lapse(pg_database)
        _until(lambda: gid in b.server.rooms and not b.server.rooms[gid].follower)
        m = running(friend)
        ann = next(k for k in m["clocks"] if k["seat"] == 0)
        assert ann["left"] <= 58.0, m
        host.close()
        friend.close()
    finally:
        if go is not None:
            go.set()
        a.stop()
        b.stop()
