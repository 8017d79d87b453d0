"""Schema versions (issue 47): numbered SQL scripts per database, applied in order at open in one
transaction, a database newer than the code refused, and a server folder written by the code
before the scripts opening without loss."""
import shutil
import sqlite3
import threading
from pathlib import Path

import pytest

from gonzaga.net import storage
from gonzaga.net.turn_index import TurnRow, index_of
from gonzaga.net.storage import (SQLiteStore, StoredGame, StoreError, open_store, pending_scripts, schema_scripts,
                                 sql_statements)

from pg_server import sql_on

V1 = Path(__file__).parent / "data" / "server-v1"
LATEST = len(schema_scripts("sqlite"))  # the code's last SQLite script (PostgreSQL has one more: leases, accounts)


def test_the_scripts_are_numbered_from_one_without_a_gap():
    for dialect in ("sqlite", "postgres"):
        scripts = schema_scripts(dialect)
        assert [s.version for s in scripts] == list(range(1, len(scripts) + 1))
        assert scripts[0].name == "games_and_actions"


def test_a_gap_or_a_stray_name_in_the_scripts_is_refused(tmp_path, monkeypatch):
    (tmp_path / "sqlite").mkdir()
    (tmp_path / "sqlite" / "0001_a.sql").write_text("CREATE TABLE a (x);")
    (tmp_path / "sqlite" / "0003_c.sql").write_text("CREATE TABLE c (x);")
    monkeypatch.setattr(storage, "SCHEMA_DIR", tmp_path)
    with pytest.raises(StoreError, match=r"not numbered 1, 2, 3... \(found \[1, 3\]\)"):
        schema_scripts("sqlite")
    (tmp_path / "sqlite" / "0003_c.sql").rename(tmp_path / "sqlite" / "2_b.sql")
    with pytest.raises(StoreError, match="not named like NNNN_name.sql"):
        schema_scripts("sqlite")


def test_pending_scripts_are_those_above_the_version_found():
    scripts = [storage.SchemaScript(v, f"s{v}", "") for v in (1, 2, 3)]
    assert [s.version for s in pending_scripts(0, scripts, "db")] == [1, 2, 3]
    assert [s.version for s in pending_scripts(2, scripts, "db")] == [3]
    assert pending_scripts(3, scripts, "db") == []
    with pytest.raises(StoreError, match=r"db was written by a newer server \(schema 4, this one knows up to 3\)"):
        pending_scripts(4, scripts, "db")


def test_sqlite_scripts_are_cut_into_whole_statements():
    sql = ("-- a comment; with a semicolon\nCREATE TABLE t (x TEXT DEFAULT 'a;b');\n"
           "CREATE TRIGGER tr AFTER INSERT ON t BEGIN\n  UPDATE t SET x = 'y';\n  DELETE FROM t WHERE 0;\nEND;\n"
           "-- the end\n")
    parts = sql_statements(sql)
    assert len(parts) == 2 and parts[1].startswith("CREATE TRIGGER") and parts[1].endswith("END;")
    with pytest.raises(StoreError, match="ends inside a statement"):
        sql_statements("CREATE TABLE t (x);\nCREATE TABLE u (")


# ---------------------------------------------------------------- SQLite

EXPECTED_V1 = {  # what tests/data/server-v1 holds: written by the server of commit db5cf09 (before the scripts)
    "g-finished": ("ABCDEF", 12345, True, True, [f"place {i} fief-{i}" for i in range(5)]),
    "g-live": ("GHJKLM", 2**62 + 7, False, False, []),
    "g-started": ("NPQRST", 99, True, False, ["pass"]),
}


def test_a_server_folder_from_before_the_scripts_opens_without_loss(tmp_path):
    data = tmp_path / "server"
    shutil.copytree(V1, data)
    before = (data / storage.DB_NAME).read_bytes()
    store = open_store(data)
    try:
        assert store.warnings == []  # the acknowledgement log agrees: nothing lost, nothing damaged
        games = {g.id: g for g in store.load_games()}
        assert {gid: (g.code, g.seed, g.started, g.finished, g.actions) for gid, g in games.items()} == EXPECTED_V1
        assert games["g-finished"].seats[2]["name"] == "Федерико 贡扎加"
        assert games["g-finished"].config == {"seats": 3, "map": "mantua"}
        assert games["g-live"].host_seat == 1
        store.append_action("g-started", 1, "pass again")  # and it goes on
        index = index_of(store)  # script 0002 (t47turn): the turn-based games' rows and My games' index
        index.put(TurnRow("g-started", "turn", 24, 3, 2, 1, {0: 1e9}))
        index.add_seat(5, "g-started", 0)
        assert [(r.game_id, r.seat, r.turn.deadlines) for r in index.mine(5, 0.0)] == [("g-started", 0, {0: 1e9})]
        assert [(r.game_id, r.turn) for r in index.mine(5, 0.0) if r.game_id == "g-live"] == []
    finally:
        store.close()
    db = sqlite3.connect(data / storage.DB_NAME)
    try:
        assert db.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone() == (str(LATEST),)
        assert sorted(r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")) == \
            ["account_games", "actions", "game_turns", "games", "meta"]
    finally:
        db.close()
    assert len(before) > 0


def test_a_new_sqlite_database_gets_the_scripts_shape(tmp_path):
    store = SQLiteStore(tmp_path / "new.sqlite3")
    store.close()
    new = sqlite3.connect(tmp_path / "new.sqlite3")
    old = sqlite3.connect(V1 / storage.DB_NAME)
    try:
        shape = "SELECT type, name, sql FROM sqlite_master ORDER BY name"
        # the same tables as the code before the scripts made (its CREATE ... IF NOT EXISTS aside),
        # and those of the later scripts
        before = [(t, n, " ".join(s.replace("IF NOT EXISTS ", "").split()) if s else s)
                  for t, n, s in old.execute(shape)]
        names = {n for _, n, _ in before}
        assert before == [(t, n, " ".join(s.split()) if s else s) for t, n, s in new.execute(shape) if n in names]
        assert new.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone() == \
            (str(len(schema_scripts("sqlite"))),)
    finally:
        new.close()
        old.close()


def test_a_sqlite_database_newer_than_the_code_is_refused_and_left_as_it_was(tmp_path):
    path = tmp_path / "db.sqlite3"
    SQLiteStore(path).close()
    db = sqlite3.connect(path)
    db.execute("UPDATE meta SET value = '9' WHERE key = 'schema_version'")
    db.execute("CREATE TABLE from_the_future (x)")
    db.commit()
    db.close()
    with pytest.raises(StoreError, match=rf"{path.name} was written by a newer server \(schema 9"):
        SQLiteStore(path)
    db = sqlite3.connect(path)
    assert db.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone() == ("9",)
    db.close()


def _with_extra_script(tmp_path, monkeypatch, dialect, sql):
    """The real scripts of ``dialect`` and one more, the next number, with ``sql``."""
    folder = tmp_path / "schema" / dialect
    shutil.copytree(storage.SCHEMA_DIR / dialect, folder)
    (folder / f"{len(schema_scripts(dialect)) + 1:04d}_next_step.sql").write_text(sql, encoding="utf-8")
    monkeypatch.setattr(storage, "SCHEMA_DIR", tmp_path / "schema")


def test_a_sqlite_script_is_applied_once_in_order(tmp_path, monkeypatch):
    path = tmp_path / "db.sqlite3"
    SQLiteStore(path).close()  # at the code's version
    _with_extra_script(tmp_path, monkeypatch, "sqlite",
                       "CREATE TABLE ratings (name TEXT PRIMARY KEY, mu REAL);\n"
                       "INSERT INTO ratings VALUES ('Anna', 25.0);\n")
    for _ in range(2):  # the second open applies nothing again (an INSERT twice would fail the key)
        SQLiteStore(path).close()
    db = sqlite3.connect(path)
    assert db.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone() == (str(LATEST + 1),)
    assert db.execute("SELECT * FROM ratings").fetchall() == [("Anna", 25.0)]
    db.close()


def test_a_failing_sqlite_script_changes_nothing(tmp_path, monkeypatch):
    path = tmp_path / "db.sqlite3"
    store = SQLiteStore(path)
    store.create_game(StoredGame("g", "ABCDEF", {}, 1, []))
    store.close()
    _with_extra_script(tmp_path, monkeypatch, "sqlite",
                       "CREATE TABLE half_done (x);\nALTER TABLE games ADD COLUMN pace TEXT;\nSELECT * FROM nowhere;\n")
    with pytest.raises(StoreError, match="no such table: nowhere"):
        SQLiteStore(path)
    db = sqlite3.connect(path)
    assert db.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone() == (str(LATEST),)
    assert db.execute("SELECT name FROM sqlite_master WHERE name = 'half_done'").fetchone() is None
    assert "pace" not in [r[1] for r in db.execute("PRAGMA table_info(games)")]
    db.close()


# ---------------------------------------------------------------- PostgreSQL

@pytest.fixture
def pg(pg_database):
    from gonzaga.net.store_pg import PostgresStore  # psycopg: only these tests need it
    url, password = pg_database
    return url, password, PostgresStore, sql_on(url, password)


def test_a_new_postgresql_database_records_each_script(pg):
    url, password, PostgresStore, sql = pg
    PostgresStore(url, password=password).close()
    PostgresStore(url, password=password).close()
    assert sql("SELECT version, name FROM schema_version ORDER BY version") == \
        [(s.version, s.name) for s in schema_scripts("postgres")]


def test_a_postgresql_database_newer_than_the_code_is_refused(pg):
    url, password, PostgresStore, sql = pg
    PostgresStore(url, password=password).close()
    sql("INSERT INTO schema_version(version, name) VALUES (99, 'from_the_future')")
    with pytest.raises(StoreError, match=r"was written by a newer server \(schema 99, this one knows up to " + str(len(schema_scripts("postgres"))) + r"\)"):
        PostgresStore(url, password=password)


def test_a_postgresql_database_of_something_else_is_refused(pg):
    url, password, PostgresStore, sql = pg
    sql("CREATE TABLE games (id int)")
    with pytest.raises(StoreError, match="'games' table of something else"):
        PostgresStore(url, password=password)
    assert sql("SELECT to_regclass('schema_version') IS NULL") == [(True,)]


def test_a_failing_postgresql_script_changes_nothing(pg, tmp_path, monkeypatch):
    url, password, PostgresStore, sql = pg
    store = PostgresStore(url, password=password)
    store.create_game(StoredGame("g", "ABCDEF", {}, 1, []))
    store.close()
    _with_extra_script(tmp_path, monkeypatch, "postgres",
                       "CREATE TABLE half_done (x int);\nALTER TABLE games ADD COLUMN pace TEXT;\nSELECT * FROM nowhere;\n")
    with pytest.raises(StoreError, match="nowhere"):
        PostgresStore(url, password=password)
    assert sql("SELECT max(version) FROM schema_version") == [(len(schema_scripts("postgres")) - 1,)]
    assert sql("SELECT to_regclass('half_done') IS NULL") == [(True,)]
    assert sql("SELECT count(*) FROM information_schema.columns WHERE table_name = 'games'"
               " AND column_name = 'pace' AND table_schema = current_schema()") == [(0,)]


def test_processes_opening_an_empty_postgresql_database_at_once_apply_each_script_once(pg, tmp_path, monkeypatch):
    url, password, PostgresStore, sql = pg
    _with_extra_script(tmp_path, monkeypatch, "postgres",
                       "CREATE TABLE once (n int PRIMARY KEY);\nINSERT INTO once VALUES (1);\n")
    stores, errors = [], []
    barrier = threading.Barrier(4)

    def open_one():
        try:
            barrier.wait(30)
            stores.append(PostgresStore(url, password=password))
        except BaseException as e:  # reported below
            errors.append(e)
    threads = [threading.Thread(target=open_one) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    for s in stores:
        s.close()
    assert not errors, errors
    assert len(stores) == 4
    assert sql("SELECT version FROM schema_version ORDER BY version") == \
        [(v,) for v in range(1, len(schema_scripts("postgres")) + 1)]
    assert sql("SELECT n FROM once") == [(1,)]
