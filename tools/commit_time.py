"""How long the online server's store takes to make one action durable on this disk: the
SQLite commit (WAL, synchronous=FULL) and the fsynced acknowledgement log, as
``SQLiteStore.append_action`` does before anyone is told of the action (docs/online.md).

    .venv/bin/python tools/commit_time.py [--actions 400] [--dir FOLDER]
    PGPASSWORD=... .venv/bin/python tools/commit_time.py --database postgresql://user@host:port/db

FOLDER is where the temporary store goes (default: the system's temporary folder): put it on
the disk the server's data folder will use. ``--database``: the same through ``PostgresStore``
(issue 47) into an empty PostgreSQL database (its game is deleted afterwards).
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from gonzaga.net.storage import GameStore, StoredGame, open_store  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--actions", type=int, default=400)
    p.add_argument("--dir", type=Path, default=None)
    p.add_argument("--database", default=None, help="a PostgreSQL address instead of a SQLite folder")
    a = p.parse_args(argv)
    if a.actions < 10:
        p.error("--actions: at least 10")
    if a.database:
        from gonzaga.net.store_pg import PostgresStore  # psycopg: the server extra
        ms = _measure(PostgresStore(a.database), a.actions)
    else:
        with tempfile.TemporaryDirectory(prefix="gonzaga-commit-", dir=a.dir) as d:
            ms = _measure(open_store(Path(d)), a.actions)
    ms.sort()
    at = lambda q: ms[min(len(ms) - 1, int(q * len(ms)))]  # noqa: E731
    print(f"append_action_ms p50 {at(0.5):.2f} p99 {at(0.99):.2f} max {ms[-1]:.2f}")
    print(f"durable_actions_per_s {1000 / statistics.mean(ms):.0f}")
    return 0


def _measure(store: GameStore, actions: int) -> list[float]:
    """Milliseconds of each ``append_action`` of one game, then the game deleted and the store closed."""
    gid = f"commit-time-{os.getpid()}"
    try:
        store.create_game(StoredGame(gid, gid[-6:], {"seats": 2}, 1, [], 0, True, False))
        ms = []
        for i in range(actions):
            t = time.perf_counter()
            store.append_action(gid, i, "P0 x y")
            ms.append((time.perf_counter() - t) * 1000)
        store.delete_game(gid)
    finally:
        store.close()
    return ms


if __name__ == "__main__":
    sys.exit(main())
