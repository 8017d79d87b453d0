"""How long a standby `gonzaga serve --standby` takes to run a PostgreSQL database's games after
the process running them is killed (issue 47): from `kill -9` of the owner to the standby's
"serving on" line (it holds the database's lock, has loaded the games and listens).

    .venv/bin/python lab/takeover_time.py [--kills 5]

Starts its own PostgreSQL (tests/pg_server.py) and two processes with --standby; each round
kills the one serving and starts a new standby in its place. Loopback only; stops by itself.
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

import pg_server  # noqa: E402


def start(url: str, pwfile: Path, data: Path) -> subprocess.Popen[str]:
    env = dict(os.environ, PYTHONPATH=str(ROOT), PYTHONUNBUFFERED="1")
    return subprocess.Popen([sys.executable, "-m", "gonzaga", "serve", "--port", "0", "--no-tls", "--data", str(data),
                             "--database", url, "--database-password-file", str(pwfile), "--standby"],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--kills", type=int, default=5)
    a = ap.parse_args()
    bindir = pg_server.find_bindir()
    if bindir is None:
        print("no PostgreSQL found", file=sys.stderr)
        return 1
    pg = pg_server.PgServer(bindir).start()
    procs: list[subprocess.Popen[str]] = []
    try:
        url = pg.url(pg.new_database("takeover"))
        with tempfile.TemporaryDirectory() as d:
            pwfile = Path(d) / "pw"
            pwfile.write_text(pg.password + "\n")
            owner = start(url, pwfile, Path(d) / "p0")
            procs.append(owner)
            assert owner.stdout is not None and owner.stdout.readline().startswith("serving on")
            standby = start(url, pwfile, Path(d) / "p1")
            procs.append(standby)
            assert standby.stdout is not None and standby.stdout.readline().startswith("standing by")
            took = []
            for k in range(a.kills):
                t0 = time.monotonic()
                owner.kill()
                owner.wait(10)
                line = standby.stdout.readline()
                took.append(time.monotonic() - t0)
                assert line.startswith("serving on"), line
                owner, standby = standby, start(url, pwfile, Path(d) / f"p{k + 2}")
                procs.append(standby)
                assert standby.stdout is not None and standby.stdout.readline().startswith("standing by")
            took.sort()
            print(f"takeover_s kills {len(took)} min {took[0]:.2f} median {took[len(took) // 2]:.2f} "
                  f"max {took[-1]:.2f}")
    finally:
        for p in procs:
            if p.poll() is None:
                p.kill()
                p.wait(10)
        pg.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
