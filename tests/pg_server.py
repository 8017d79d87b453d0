"""A real PostgreSQL for the tests (issue 47), started from the machine's own binaries.

``find_bindir()`` looks for ``initdb``, ``pg_ctl``, ``postgres`` and ``psql``: ``GONZAGA_PG_BIN``, then ``PGBIN`` (set on
GitHub's Windows images), then ``PATH``, then ``pg_config --bindir``, then the usual folders of
each system (Debian and Ubuntu's ``/usr/lib/postgresql/N/bin``, Homebrew's, the EDB installer's
``C:\\Program Files\\PostgreSQL\\N\\bin``), newest version first.

``PgServer`` makes a cluster in a new temporary folder (``initdb``), listens on a free TCP port
on 127.0.0.1 (and, off Windows, on a socket in that folder), and is stopped and removed by
``stop()``. PostgreSQL refuses to run as root: as root, the folder is given to the ``postgres``
user and every command runs through ``runuser -u postgres --``. TCP sign-in needs a password
(scram-sha-256), so the tests go through the same path as a real server.

Not found: ``pg_server_or_skip`` fails the test run when ``CI`` is set (the machine was meant to
have PostgreSQL, and a skip there would hide it), and skips with the reason elsewhere.

Nothing here calls a POSIX-only function at import: ``geteuid`` and ``chown`` are looked up when
a server starts (tests/test_portable.py collects the suite as on Windows).
"""
from __future__ import annotations

import glob
import os
import re
import secrets
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Callable, Optional
from urllib.parse import quote

SUPERUSER = "gonzaga_test"
PROGRAMS = ("initdb", "pg_ctl", "postgres", "psql")
START_TIMEOUT = 60  # seconds for pg_ctl -w (a loaded 2-core machine starts in about 1 s)


def _exe(name: str) -> str:
    return name + ".exe" if os.name == "nt" else name


def _usable(folder: Optional[str]) -> Optional[Path]:
    if not folder:
        return None
    d = Path(folder)
    return d if all((d / _exe(n)).is_file() for n in PROGRAMS) else None


def _version_key(path: str) -> tuple[int, ...]:
    """``.../postgresql/15/bin`` or ``postgresql@16`` sorts by its number, newest first."""
    nums = re.findall(r"(?:postgresql[@/\\]|PostgreSQL[/\\])(\d+)", path)
    return (int(nums[-1]),) if nums else (0,)


def candidate_dirs() -> list[str]:
    """Where PostgreSQL's programs may be, in the order they are tried."""
    out = [os.environ.get("GONZAGA_PG_BIN", ""), os.environ.get("PGBIN", "")]
    on_path = shutil.which(_exe("pg_ctl"))
    if on_path:
        out.append(str(Path(on_path).resolve().parent))  # /usr/local/bin/pg_ctl may be a link to the rest
    pg_config = shutil.which(_exe("pg_config"))
    if pg_config:
        try:
            out.append(subprocess.run([pg_config, "--bindir"], capture_output=True, text=True,
                                      timeout=20).stdout.strip())
        except (OSError, subprocess.SubprocessError):
            pass
    if os.name == "nt":
        patterns = [os.path.join(os.environ.get(v, ""), "PostgreSQL", "*", "bin")
                    for v in ("ProgramFiles", "ProgramW6432") if os.environ.get(v)]
    elif sys.platform == "darwin":
        patterns = ["/opt/homebrew/opt/postgresql@*/bin", "/usr/local/opt/postgresql@*/bin",
                    "/opt/homebrew/opt/postgresql/bin", "/usr/local/opt/postgresql/bin",
                    "/Applications/Postgres.app/Contents/Versions/*/bin"]
    else:
        patterns = ["/usr/lib/postgresql/*/bin", "/usr/pgsql-*/bin", "/usr/local/pgsql/bin"]
    found: list[str] = []
    for p in patterns:
        found.extend(glob.glob(p))
    out.extend(sorted(found, key=_version_key, reverse=True))
    return out


def find_bindir() -> Optional[Path]:
    """The first folder holding ``initdb``, ``pg_ctl``, ``postgres`` and ``psql``, or None."""
    for d in candidate_dirs():
        usable = _usable(d)
        if usable is not None:
            return usable
    return None


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _running_as_root() -> bool:
    geteuid = getattr(os, "geteuid", None)  # not on Windows
    return geteuid is not None and geteuid() == 0


class PgServerError(RuntimeError):
    """PostgreSQL was found but could not be started (the message has its log's end)."""


class PgServer:
    """One PostgreSQL cluster in a temporary folder: ``start()``, ``url(db)``, ``stop()``."""

    def __init__(self, bindir: Path):
        self.bindir = bindir
        self.root: Optional[Path] = None
        self.port = 0
        self.password = secrets.token_urlsafe(18)
        self.user = SUPERUSER
        self._as: list[str] = []
        self._made = 0
        self._tests_db = False

    # ------------------------------------------------------------ starting and stopping

    def _run(self, *args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
        """One of PostgreSQL's programs; its output through a file, not a pipe: the server that
        ``pg_ctl start`` leaves running may inherit the handles (on Windows it does), and a
        pipe would then not end until the server does."""
        cmd = self._as + [str(self.bindir / _exe(args[0])), *args[1:]]
        with tempfile.TemporaryFile() as out:
            p = subprocess.run(cmd, stdout=out, stderr=subprocess.STDOUT, timeout=timeout, stdin=subprocess.DEVNULL)
            out.seek(0)
            text = out.read().decode("utf-8", errors="replace")
        return subprocess.CompletedProcess(cmd, p.returncode, text, "")

    def _log_tail(self) -> str:
        assert self.root is not None
        try:
            return (self.root / "postgres.log").read_text(encoding="utf-8", errors="replace")[-2000:]
        except OSError:
            return "(no log)"

    def start(self) -> "PgServer":
        # the system's temporary folder: pytest's own is private to its user (mode 0700), and the
        # postgres user must reach this one
        self.root = Path(tempfile.mkdtemp(prefix="gonzaga-pg-"))
        data, sock = self.root / "data", self.root / "s"
        sock.mkdir()
        pwfile = self.root / "pw"
        pwfile.write_text(self.password + "\n", encoding="utf-8")
        if _running_as_root():
            if shutil.which("runuser") is None:
                raise PgServerError("running as root, PostgreSQL must run as another user, and runuser is missing")
            try:
                for p in (self.root, sock, pwfile):
                    shutil.chown(p, user="postgres", group=None)
            except (LookupError, OSError) as e:
                raise PgServerError(f"running as root: cannot give {self.root} to the 'postgres' user ({e})") from None
            self._as = ["runuser", "-u", "postgres", "--"]
        # -N: no fsync while the cluster is made (the tests' database is thrown away); the server
        # itself keeps fsync on, so a commit costs what it costs in production
        p = self._run("initdb", "-D", str(data), "-U", self.user, "--pwfile", str(pwfile), "-E", "UTF8",
                      "--locale=C", "--auth-host=scram-sha-256", "--auth-local=trust", "-N")
        if p.returncode != 0:
            raise PgServerError(f"initdb failed ({p.returncode}): {(p.stdout + p.stderr)[-2000:]}")
        pwfile.unlink()
        for _attempt in range(3):  # a free port can be taken by another program before we bind it
            self.port = _free_port()
            unix = "" if os.name == "nt" else str(sock).replace("'", "''")
            with open(data / "postgresql.conf", "a", encoding="utf-8") as conf:
                conf.write(f"\n# tests/pg_server.py\nport = {self.port}\nlisten_addresses = '127.0.0.1'\n"
                           f"unix_socket_directories = '{unix}'\nmax_connections = 200\n"
                           "shared_buffers = 32MB\nlog_min_messages = warning\n")
            p = self._run("pg_ctl", "start", "-D", str(data), "-l", str(self.root / "postgres.log"), "-w",
                          "-t", str(START_TIMEOUT), timeout=START_TIMEOUT + 30)
            if p.returncode == 0:
                return self
            if "could not bind" not in self._log_tail() and "Address already in use" not in self._log_tail():
                break
        raise PgServerError(f"pg_ctl start failed: {p.stdout[-500:]}\n{self._log_tail()}")

    def stop(self) -> None:
        if self.root is None:
            return
        data = self.root / "data"
        if (data / "postmaster.pid").exists():
            # immediate: no shutdown checkpoint writing out every table, as the folder is removed next
            self._run("pg_ctl", "stop", "-D", str(data), "-m", "immediate", "-w", "-t", "60", timeout=90)
        for _ in range(20):  # Windows may hold the files a moment after the server ends
            shutil.rmtree(self.root, ignore_errors=True)
            if not self.root.exists():
                break
            time.sleep(0.25)
        self.root = None

    # ------------------------------------------------------------ addresses

    def url(self, dbname: str = "postgres") -> str:
        """``postgresql://user@127.0.0.1:port/db``: no password in it (it is ``self.password``)."""
        return f"postgresql://{quote(self.user)}@127.0.0.1:{self.port}/{quote(dbname)}"

    def _psql(self, dbname: str, sql: str) -> None:
        env = dict(os.environ, PGPASSWORD=self.password)
        p = subprocess.run([str(self.bindir / _exe("psql")), "-X", "-q", "-v", "ON_ERROR_STOP=1", "-d", self.url(dbname),
                            "-c", sql], capture_output=True, text=True, env=env, timeout=120, stdin=subprocess.DEVNULL)
        if p.returncode != 0:
            raise PgServerError(f"{sql}: {p.stderr[-500:]}")

    def new_database(self, prefix: str = "t") -> str:
        """A new empty database's name (``CREATE DATABASE`` through psql, which needs nothing of
        the test's Python packages). About 0.35 s and 7 MB each: tests use ``new_schema``."""
        self._made += 1
        name = f"{prefix}_{os.getpid()}_{self._made}"
        self._psql("postgres", f'CREATE DATABASE "{name}"')
        return name

    def new_schema(self) -> str:
        """The address of a new empty schema, as good as a new database for a store (its tables
        are found through ``search_path``, set by the address's ``options``) and made in
        milliseconds, in the one database ``tests``."""
        if not self._tests_db:
            self._psql("postgres", 'CREATE DATABASE "tests"')
            self._tests_db = True
        self._made += 1
        name = f"s{self._made}"
        self._psql("tests", f'CREATE SCHEMA "{name}"')
        return self.url("tests") + f"?options=-csearch_path%3D{name}"


def pg_server_or_skip() -> PgServer:
    """A started server; else a failure under CI (``CI`` set) and a skip with the reason elsewhere.
    Imports pytest here: the module itself is plain Python (a benchmark may use it too)."""
    import pytest  # the tests' runner; the rest of this module does not need it
    bindir = find_bindir()
    if bindir is None:
        why = ("PostgreSQL's programs (initdb, pg_ctl, postgres, psql) were not found: looked in "
               "GONZAGA_PG_BIN, PGBIN, PATH, pg_config --bindir and the usual folders")
        if os.environ.get("CI"):
            pytest.fail(why + " (CI is set: these tests must run here)", pytrace=False)
        pytest.skip(why)
    server = PgServer(bindir)
    try:
        return server.start()
    except (PgServerError, OSError, subprocess.SubprocessError) as e:
        server.stop()
        pytest.fail(f"PostgreSQL from {bindir} did not start: {e}", pytrace=False)


def sql_on(url: str, password: str) -> Callable[..., Optional[list[tuple[Any, ...]]]]:
    """``sql(query, params=())`` for the tests' own look at a database: one statement on a
    connection of its own (autocommit, not through the store under test); its rows, or None for a
    statement that returns none. psycopg is imported here: only the PostgreSQL tests need it (and
    its import cannot be faked as Windows)."""
    import psycopg

    def sql(query: str, params: tuple[Any, ...] = ()) -> Optional[list[tuple[Any, ...]]]:
        with psycopg.connect(url, password=password, autocommit=True) as conn:
            cur = conn.execute(query, params)
            return cur.fetchall() if cur.description else None
    return sql
