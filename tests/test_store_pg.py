"""PostgresStore's own promises (issue 47), beyond the common suite (tests/test_store_contract.py):
messages that name the database and never its password, commits durable whatever the
database's default, and connections the database dropped replaced without losing a call."""
import pytest

from gonzaga.net.storage import StoredGame, StoreError

from pg_server import sql_on


@pytest.fixture
def pg(pg_database):
    from gonzaga.net import store_pg  # psycopg: only these tests need it
    url, password = pg_database
    return url, password, store_pg, sql_on(url, password)


def test_a_wrong_password_is_a_store_error_naming_the_database_and_not_the_password(pg, pg_server):
    url, password, store_pg, _sql = pg
    with pytest.raises(StoreError) as e:
        store_pg.PostgresStore(url, password="not-" + password)
    msg = str(e.value)
    assert f"cannot open the game database {pg_server.user}@127.0.0.1:{pg_server.port}/tests" in msg
    assert "password authentication failed" in msg and password not in msg and "\n" not in msg
    # a password in the address itself is not repeated either
    with_pw = url.replace(f"{pg_server.user}@", f"{pg_server.user}:sekrit-{password}@")
    with pytest.raises(StoreError) as e:
        store_pg.PostgresStore(with_pw)
    assert "sekrit" not in str(e.value) and store_pg.describe(with_pw) == store_pg.describe(url)
    assert store_pg.has_password(with_pw) and not store_pg.has_password(url)


def test_a_database_that_does_not_answer_is_a_store_error_naming_it(pg_server):
    from gonzaga.net.store_pg import PostgresStore
    import socket
    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    with pytest.raises(StoreError, match=rf"cannot open the game database gz@127.0.0.1:{port}/games: .*refused"):
        PostgresStore(f"postgresql://gz@127.0.0.1:{port}/games", password="x", connect_timeout=3)


def test_describe_reads_every_form_of_address():
    from gonzaga.net.store_pg import describe
    assert describe("postgresql://gonzaga@db.example:6543/games") == "gonzaga@db.example:6543/games"
    assert describe("postgresql://db.example/games") == "db.example:5432/games"
    assert describe("host=/run/pg dbname=g user=u password=p") == "u@/run/pg:5432/g"
    assert describe("postgresql://u:p@h/g?sslmode=require") == "u@h:5432/g"


def test_every_connection_commits_durably_whatever_the_databases_default(pg, pg_server):
    url, password, store_pg, sql = pg
    sql(f'ALTER ROLE "{pg_server.user}" IN DATABASE tests SET synchronous_commit = off')
    try:
        assert sql("SHOW synchronous_commit") == [("off",)]  # a plain connection now gets "off"
        store = store_pg.PostgresStore(url, password=password, max_size=3)
        try:
            seen = {store._call("look", lambda c: c.execute("SHOW synchronous_commit").fetchone()[0])
                    for _ in range(5)}
            assert seen == {"on"}
        finally:
            store.close()
    finally:
        sql(f'ALTER ROLE "{pg_server.user}" IN DATABASE tests RESET synchronous_commit')


def test_a_connection_the_database_dropped_is_replaced_and_the_action_is_stored(pg):
    url, password, store_pg, sql = pg
    store = store_pg.PostgresStore(url, password=password, application_name="gonzaga-drop-test")
    try:
        store.create_game(StoredGame("g", "ABCDEF", {}, 1, []))
        store.append_action("g", 0, "before")
        dropped = sql("SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                      " WHERE application_name = 'gonzaga-drop-test'")
        assert dropped and all(ok for (ok,) in dropped)
        store.append_action("g", 1, "after")  # the pool's check finds the dead one and takes a new one
        assert store.load_game("g").actions == ["before", "after"]
    finally:
        store.close()


class _CutAfter:
    """A pool whose next connection loses its answer: the statement runs (``after=True``: and
    commits) or not, then the client sees the connection fail, as when a network cuts; the
    connections after it are the real pool's."""

    def __init__(self, pool, psycopg, after: bool):
        self.pool, self.psycopg, self.after, self.cuts = pool, psycopg, after, 1

    def connection(self):
        import contextlib
        outer = self
        if self.cuts == 0:
            return self.pool.connection()
        self.cuts -= 1

        class Conn:
            def __init__(self, real):
                self.real = real

            def execute(self, *a, **kw):
                if outer.after:
                    self.real.execute(*a, **kw)
                raise outer.psycopg.OperationalError("server closed the connection unexpectedly")

        @contextlib.contextmanager
        def cm():
            with outer.pool.connection() as real:
                yield Conn(real)
        return cm()


@pytest.mark.parametrize("committed", [True, False])
def test_an_action_whose_answer_was_lost_is_stored_once_or_refused(pg, committed):
    """The connection fails after the INSERT was sent: if it committed, append_action says so
    (the action is there, exactly as sent); if not, a StoreError and nothing stored."""
    import psycopg
    url, password, store_pg, _sql = pg
    store = store_pg.PostgresStore(url, password=password)
    try:
        store.create_game(StoredGame("g", "ABCDEF", {}, 1, []))
        real = store._pool
        store._pool = _CutAfter(real, psycopg, after=committed)
        try:
            if committed:
                store.append_action("g", 0, "lost answer")
            else:
                with pytest.raises(StoreError, match="server closed the connection"):
                    store.append_action("g", 0, "lost answer")
        finally:
            store._pool = real
        assert store.load_game("g").actions == (["lost answer"] if committed else [])
    finally:
        store.close()
