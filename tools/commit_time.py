"""How long the online server's store takes to make one action durable on this disk: the
SQLite commit (WAL, synchronous=FULL) and the fsynced acknowledgement log, as
``SQLiteStore.append_action`` does before anyone is told of the action (docs/online.md).

    .venv/bin/python tools/commit_time.py [--actions 400] [--dir FOLDER]
    PGPASSWORD=... .venv/bin/python tools/commit_time.py --database postgresql://user@host:port/db
    .venv/bin/python tools/commit_time.py --games 100 --actions 4000   # grouped commits

``--games K``: K games at once through the server's grouped commits (``groupcommit.py``), each
appending its next action as soon as the last is durable (a player waiting for its
acknowledgement): the wait of each action (queued to durable), the durable actions per second
and the actions per commit.

FOLDER is where the temporary store goes (default: the system's temporary folder): put it on
the disk the server's data folder will use. ``--database``: the same through ``PostgresStore``
(issue 47) into an empty PostgreSQL database (its game is deleted afterwards).
"""
from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from gonzaga.net.groupcommit import GroupCommit  # noqa: E402
from gonzaga.net.storage import GameStore, StoredGame, open_store  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--actions", type=int, default=400)
    p.add_argument("--dir", type=Path, default=None)
    p.add_argument("--database", default=None, help="a PostgreSQL address instead of a SQLite folder")
    p.add_argument("--games", type=int, default=0, help="K games at once through grouped commits")
    a = p.parse_args(argv)
    if a.actions < 10:
        p.error("--actions: at least 10")
    if a.database:
        from gonzaga.net.store_pg import PostgresStore  # psycopg: the server extra
        ms, extra = _run(PostgresStore(a.database), a)
    else:
        with tempfile.TemporaryDirectory(prefix="gonzaga-commit-", dir=a.dir) as d:
            ms, extra = _run(open_store(Path(d)), a)
    ms.sort()
    def at(q: float) -> float:
        return ms[min(len(ms) - 1, int(q * len(ms)))]
    name = "durable_wait_ms" if a.games else "append_action_ms"
    print(f"{name} p50 {at(0.5):.2f} p99 {at(0.99):.2f} max {ms[-1]:.2f}")
    print(f"durable_actions_per_s {extra['per_s'] if a.games else 1000 / statistics.mean(ms):.0f}")
    if a.games:
        print(f"games {a.games} commits {extra['commits']} actions_per_commit {extra['per_commit']:.1f}")
    return 0


def _run(store: GameStore, a: argparse.Namespace) -> tuple[list[float], dict[str, float]]:
    if not a.games:
        return _measure(store, a.actions), {}
    try:
        return asyncio.run(_grouped(store, a.games, a.actions))
    finally:
        store.close()


class _Waiters:
    """The futures of appends waiting to be durable (a ``groupcommit.Holder``)."""

    def __init__(self) -> None:
        self.waiting: dict[int, asyncio.Future[None]] = {}

    def release(self, durable: int) -> bool:
        for seq in [s for s in self.waiting if s <= durable]:
            self.waiting.pop(seq).set_result(None)
        return not self.waiting


async def _grouped(store: GameStore, games: int, actions: int) -> tuple[list[float], dict[str, float]]:
    """``games`` games through one GroupCommit, ``actions`` in all, each game's next action queued
    when its last is durable; the waits (ms) and the figures."""
    loop = asyncio.get_running_loop()
    commits = GroupCommit(store, loop)
    waiters = _Waiters()
    ids = [f"grouped-{os.getpid()}-{k}" for k in range(games)]
    for gid in ids:
        commits.create_game(StoredGame(gid, gid[-6:], {"seats": 2}, 1, [], 0, True, False))
    ms: list[float] = []
    per_game = max(1, actions // games)

    async def play(gid: str) -> None:
        for i in range(per_game):
            t = time.perf_counter()
            seq = commits.append_soon(gid, i, "P0 x y")
            done = waiters.waiting[seq] = loop.create_future()
            commits.hold(waiters)
            await done
            ms.append((time.perf_counter() - t) * 1000)
    before = commits.batches
    t0 = time.perf_counter()
    await asyncio.gather(*(play(g) for g in ids))
    wall = time.perf_counter() - t0
    batches = commits.batches - before
    for gid in ids:
        commits.delete_game(gid)
    commits.close()
    return ms, {"per_s": len(ms) / wall, "commits": batches, "per_commit": len(ms) / max(1, batches)}


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
