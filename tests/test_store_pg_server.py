"""The test suite's own PostgreSQL (tests/pg_server.py): real, password-protected on TCP, found
where the systems put it, and never silently skipped under CI."""
import os
from pathlib import Path

import pytest

import pg_server


@pytest.fixture
def psycopg():
    """psycopg, imported by the tests that use it: its import reads the system's time zones, which
    the pretence of tests/test_portable.py (Windows, on Linux) cannot fake while it collects."""
    import psycopg
    return psycopg


def test_the_server_is_a_real_postgresql_that_wants_a_password(pg_server, pg_database, psycopg):
    url, password = pg_database
    with psycopg.connect(url, password=password, connect_timeout=10) as conn:
        version = conn.execute("SHOW server_version_num").fetchone()[0]
        assert int(version) >= 130000
        assert conn.execute("SELECT current_schema()").fetchone()[0] == url.rsplit("%3D", 1)[1]
        assert conn.execute("SHOW fsync").fetchone()[0] == "on"  # commits cost what they cost in production
    with pytest.raises(psycopg.OperationalError, match="password"):
        psycopg.connect(url, password="wrong", connect_timeout=10).close()


def test_each_test_gets_its_own_schema_and_whole_databases_can_be_made(pg_server, pg_database, psycopg):
    other = pg_server.new_schema()
    assert other != pg_database[0]
    name = pg_server.new_database()
    with psycopg.connect(pg_server.url(name), password=pg_server.password, connect_timeout=10) as conn:
        assert conn.execute("SELECT current_database()").fetchone()[0] == name


def test_missing_postgresql_fails_under_ci_and_skips_elsewhere(monkeypatch):
    monkeypatch.setattr(pg_server, "find_bindir", lambda: None)
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match="CI is set"):
        pg_server.pg_server_or_skip()
    monkeypatch.delenv("CI")
    with pytest.raises(pytest.skip.Exception, match="were not found"):
        pg_server.pg_server_or_skip()


def test_the_programs_are_looked_for_where_each_system_keeps_them(tmp_path, monkeypatch):
    """GONZAGA_PG_BIN first, then PGBIN (GitHub's Windows images), and a folder counts only with
    all four programs in it."""
    exe = ".exe" if os.name == "nt" else ""
    partial, full = tmp_path / "partial", tmp_path / "full"
    for d, names in ((partial, ("initdb", "pg_ctl")), (full, pg_server.PROGRAMS)):
        d.mkdir()
        for n in names:
            (d / (n + exe)).write_text("")
    monkeypatch.setenv("GONZAGA_PG_BIN", str(partial))
    monkeypatch.setenv("PGBIN", str(full))
    assert pg_server.find_bindir() == full
    assert pg_server.candidate_dirs()[:2] == [str(partial), str(full)]
    assert pg_server._version_key("/usr/lib/postgresql/16/bin") > pg_server._version_key("/usr/lib/postgresql/9/bin")
    assert pg_server._version_key(str(Path("C:/Program Files/PostgreSQL/17/bin"))) == (17,)
