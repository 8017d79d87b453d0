"""``gonzaga serve --database postgresql://...`` (issue 47): the games in PostgreSQL, the password
never on the command line, the data folder still for the logs and the certificate, and every
acknowledged action in the database when the process is killed."""
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from gonzaga.net import serve
from gonzaga.net.storage import DB_NAME, StoreError

from test_net_server import HOST, Client, host_game, join, play, seat

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("args, says", [
    (["--database", "postgresql://gz:hunter2@db/games"], "must not carry the password"),
    (["--database", "postgresql://gz@db/games?sslmode=require&password=hunter2"], "must not carry the password"),
    (["--database", "mysql://gz@db/games"], "takes a PostgreSQL address"),
    (["--database", "postgresql://gz@db/games", "--accept-loss"], "--accept-loss is for the SQLite file"),
    (["--database-password-file", "pw.txt"], "goes with --database"),
    (["--database", "postgresql://gz@db/games", "--database-password-file", "missing.txt"],
     "cannot read the password file missing.txt"),
])
def test_bad_database_options_are_refused_before_anything_starts(args, says, tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert serve.main(["--data", str(tmp_path / "d"), *args]) == 2
    err = capsys.readouterr().err
    assert says in err and "hunter2" not in err and len(err.strip().splitlines()) == 1
    assert not (tmp_path / "d").exists()  # no log, no certificate, no database made


def test_an_empty_password_file_is_refused(tmp_path, capsys):
    (tmp_path / "pw").write_text("\n")
    assert serve.main(["--database", "postgresql://gz@db/games", "--database-password-file",
                       str(tmp_path / "pw")]) == 2
    assert "is empty" in capsys.readouterr().err


def test_an_install_without_psycopg_says_how_to_get_it(monkeypatch, tmp_path):
    monkeypatch.delitem(sys.modules, "gonzaga.net.store_pg", raising=False)
    monkeypatch.setitem(sys.modules, "psycopg", None)  # import psycopg now raises ImportError
    with pytest.raises(StoreError, match=r"no PostgreSQL client \(psycopg\).*gonzaga\[server\]"):
        serve.open_games_store(tmp_path, database=serve.Database("postgresql://gz@db/games"))


def _start(data: Path, url: str, pwfile: Path, *extra: str) -> subprocess.Popen:
    env = {k: v for k, v in os.environ.items() if k != "PGPASSWORD"}
    env.update(PYTHONPATH=str(ROOT), PYTHONUNBUFFERED="1")
    return subprocess.Popen([sys.executable, "-m", "gonzaga", "serve", "--port", "0", "--data", str(data),
                             "--no-tls", "--test-seeds", "--log-level", "info", "--database", url,
                             "--database-password-file", str(pwfile), *extra],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=ROOT)


def _serve(data: Path, url: str, pwfile: Path, *extra: str) -> tuple[subprocess.Popen, str]:
    p = _start(data, url, pwfile, *extra)
    line = p.stdout.readline()
    m = re.fullmatch(r"serving on (ws://127\.0\.0\.1:\d+)\n", line)
    if not m:
        p.kill()
        raise AssertionError(f"no server: {line!r} {p.stderr.read()[-1500:]}")
    return p, m.group(1)


def test_serve_keeps_its_games_in_postgresql_and_a_killed_process_loses_no_acknowledged_action(
        pg_database, tmp_path):
    from gonzaga.net.store_pg import PostgresStore  # psycopg only for the PostgreSQL tests
    url, password = pg_database
    pwfile = tmp_path / "pw"
    pwfile.write_text(password + "\n")
    data = tmp_path / "data"
    p, address = _serve(data, url, pwfile)
    try:
        host = host_game(address, [HOST, seat("ai", "blue", "easy")], seed=23)
        host.send(type="start", token=host.token)
        host.expect("update")
        play([host], stop_when=lambda: host.n is not None and host.n >= 15)
        acknowledged = host.n
        p.kill()  # SIGKILL on POSIX, TerminateProcess on Windows: no goodbye to the database
        p.wait(10)
        host.close()
    finally:
        if p.poll() is None:
            p.kill()
            p.wait(10)
    store = PostgresStore(url, password=password)
    try:
        g = store.load_game(host.game)
    finally:
        store.close()
    assert g is not None and g.started and len(g.actions) >= acknowledged  # durable before it was sent
    assert not (data / DB_NAME).exists()  # no SQLite file: the data folder has the log
    log = (data / serve.LOG_NAME).read_text(encoding="utf-8")
    assert "the games are in the PostgreSQL database" in log and password not in log

    p, address = _serve(data, url, pwfile)  # a new process takes the game up from the database
    try:
        c = Client(address, seed=5)
        c.send(type="resume", game=host.game, token=host.token)
        assert c.expect("joined")["seat"] == 0
        assert c.expect("update")["n"] >= len(g.actions)  # (the AI seat may already have gone on)
        play([c])
        c.close()
    finally:
        p.terminate()
        p.wait(10)
    store = PostgresStore(url, password=password)
    try:
        final = store.load_game(host.game)
    finally:
        store.close()
    assert final is not None and final.finished
    assert final.actions[:len(g.actions)] == g.actions
    assert [u["n"] for u in c.updates][-1] == len(final.actions)


def _stop(*procs: subprocess.Popen) -> None:
    for p in procs:
        if p.poll() is None:
            p.kill()
            p.wait(10)


def test_every_process_of_a_database_serves_and_standby_is_no_longer_needed(pg_database, tmp_path):
    """Two processes on one database both serve (sharing.py); --standby still starts, saying it
    is no longer needed; a game created on one is joined through the other."""
    url, password = pg_database
    pwfile = tmp_path / "pw"
    pwfile.write_text(password + "\n")
    a, address_a = _serve(tmp_path / "a", url, pwfile, "--standby")
    b, address_b = _serve(tmp_path / "b", url, pwfile)
    try:
        host = host_game(address_a, [HOST, seat("open", "blue")], seed=31)
        friend = join(address_b, host.code, "Bea", seed=3)
        host.send(type="start", token=host.token)
        play([host, friend], stop_when=lambda: host.n is not None and host.n >= 8)
        host.close()
        friend.close()
    finally:
        _stop(a, b)
    err = a.stderr.read()
    assert "--standby is no longer needed" in err and password not in err


def test_a_killed_processs_game_moves_again_within_seconds_on_another(pg_database, tmp_path):
    """kill -9 of the process running a game: its player comes back through the other process
    (the next address it was given), which takes the game over; it goes on from every action
    the client was told of, within 10 s of the kill."""
    url, password = pg_database
    pwfile = tmp_path / "pw"
    pwfile.write_text(password + "\n")
    a, address = _serve(tmp_path / "a", url, pwfile)
    b, other = _serve(tmp_path / "b", url, pwfile)
    try:
        host = host_game(address, [HOST, seat("ai", "blue", "easy")], seed=29)
        host.send(type="start", token=host.token)
        host.expect("update")
        play([host], stop_when=lambda: host.n is not None and host.n >= 10)
        acknowledged = host.n
        t0 = time.monotonic()
        a.kill()
        a.wait(10)
        host.close()
        c = Client(other, seed=5)
        c.send(type="resume", game=host.game, token=host.token)
        assert c.expect("joined")["seat"] == 0
        assert c.expect("update")["n"] >= acknowledged
        play([c], stop_when=lambda: c.n is not None and c.n >= acknowledged + 6)  # and it moves
        assert time.monotonic() - t0 < 10.0  # issue 47: every game moving again within 10 s
        c.close()
    finally:
        _stop(a, b)


def test_the_game_and_its_own_server_never_import_psycopg():
    """The desktop game (which hosts with SQLite) and `serve` without --database load no psycopg:
    the packaged game does not ship it (build_exe.spec excludes it)."""
    code = ("import sys\n"
            "import gonzaga.app, gonzaga.cli, gonzaga.net.serve, gonzaga.net.server, gonzaga.net.hosting\n"
            "from gonzaga.net import serve\n"
            "serve.open_games_store(sys.argv[1]).close()\n"
            "bad = sorted(m for m in sys.modules if m.split('.')[0] in ('psycopg', 'psycopg_pool', 'psycopg_binary')"
            " or m == 'gonzaga.net.store_pg')\n"
            "assert not bad, bad\n")
    with tempfile.TemporaryDirectory() as d:
        p = subprocess.run([sys.executable, "-c", code, d], capture_output=True, text=True, cwd=ROOT, timeout=120,
                           env=dict(os.environ, PYTHONPATH=str(ROOT)))
    assert p.returncode == 0, p.stderr[-1500:]


def test_the_packaged_game_leaves_psycopg_out_and_ships_the_schema_scripts():
    spec = (ROOT / "build_exe.spec").read_text(encoding="utf-8")
    assert all(f'"{m}"' in spec for m in ("psycopg", "psycopg_binary", "psycopg_pool"))
    assert '(str(ROOT / "gonzaga" / "net" / "schema"), "gonzaga/net/schema")' in spec


def test_the_deployment_recipes_command_line_is_one_gonzaga_serve_accepts():
    """docs/server.md's unit for three processes behind a proxy: its ExecStart, as systemd joins
    it for process 1, is a command line serve's parser accepts, with the options it names."""
    import shlex
    from gonzaga.net.serve import parser
    doc = (ROOT / "docs" / "server.md").read_text(encoding="utf-8")
    unit = doc.split("gonzaga@.service", 1)[1].split("```ini", 1)[1].split("```", 1)[0]
    line = re.search(r"ExecStart=(.*?)\n(?!\s)", unit.replace("\\\n", " "), re.S).group(1).replace("%i", "1")
    args = shlex.split(line)
    assert args[1] == "serve"
    a = parser().parse_args(args[2:])
    assert (a.port, a.no_tls, a.trusted_proxy, a.database_password_file) == (7371, True, ["127.0.0.1"],
                                                                            "/etc/gonzaga/db-password")
    assert a.database.startswith("postgresql://") and "@" in a.database and ":" not in a.database.split("@")[0][13:]
