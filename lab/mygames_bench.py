"""How fast *My games* answers (issue 47's figure: 10,000 stored turn-based games, an account
with 50 of them, p99 <= 50 ms), t47turn.

    .venv/bin/python lab/mygames_bench.py                          # SQLite, in a temporary folder
    .venv/bin/python lab/mygames_bench.py --database postgresql://user@127.0.0.1:PORT/db  # PGPASSWORD set

Fills an empty store with ``--games`` turn-based two-seat games (every game's row, its
``game_turns`` row and both seats in ``account_games``: the account measured holds ``--mine`` of
them, the other seats belong to ``--accounts`` other accounts), then times the server's own
answer, ``TurnKeeper.my_games`` (the index read and the message built; no game in memory, as
for games waiting days for their players), ``--asks`` times, and prints p50, p99 and max.
"""
from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from gonzaga.net.storage import SQLiteStore  # noqa: E402
from gonzaga.net.turns import TurnKeeper  # noqa: E402

NAMES = ["Isabella", "Federico", "Ludovico", "Barbara", "Francesco", "Paola", "Gianfrancesco", "Margherita"]


def fill_rows(games: int, mine: int, accounts: int, seed: int = 47) -> tuple[list[tuple[Any, ...]], ...]:
    """The rows of ``games`` games: (games), (game_turns), (account_games); account 1 holds ``mine``."""
    rng = random.Random(seed)
    now = time.time()
    g_rows, t_rows, a_rows = [], [], []
    for i in range(games):
        gid = f"{i:016x}"
        code = "".join(rng.choice("ABCDEFGHJKLMNPQRSTUVWXYZ23456789") for _ in range(6))
        first = 1 if i < mine else rng.randrange(2, accounts + 2)
        second = rng.randrange(2, accounts + 2)
        seats = [{"name": rng.choice(NAMES), "kind": "human", "colour": c, "bot": None, "token_hash": f"{i:064x}"[:64],
                  "player": None, "resigned": False} for c in ("red", "blue")]
        config = {"seats": 2, "colours": ["red", "blue"], "scenario": None,
                  "online": {"pace": "turn", "move_hours": 24, "missed_limit": 3, "grace": 120}}
        g_rows.append((gid, code, json.dumps(config), rng.randrange(2**62), json.dumps(seats), 0, 1, 0, now - i))
        due = {str(s): now + rng.uniform(0, 86400) for s in rng.sample([0, 1], rng.randint(1, 2))}
        t_rows.append((gid, "turn", 24, 3, rng.randrange(2, 90), rng.randrange(1, 9), json.dumps(due), "[0, 0]",
                       min(due.values()), None))
        a_rows += [(first, gid, 0), (second, gid, 1)]
    return g_rows, t_rows, a_rows


def fill_sqlite(store: SQLiteStore, rows: tuple[list[tuple[Any, ...]], ...]) -> None:
    g_rows, t_rows, a_rows = rows
    db = store._db
    with store._lock:
        db.execute("BEGIN")
        db.executemany("INSERT INTO games(id, code, config, seed, seats, host_seat, started, finished, created)"
                       " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", g_rows)
        db.executemany("INSERT INTO game_turns VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", t_rows)
        db.executemany("INSERT INTO account_games VALUES (?, ?, ?)", a_rows)
        db.execute("COMMIT")
        db.execute("ANALYZE")


def fill_postgres(store: Any, rows: tuple[list[tuple[Any, ...]], ...]) -> None:
    g_rows, t_rows, a_rows = rows

    def fn(conn: Any) -> None:
        with conn.cursor() as cur:
            cur.executemany("INSERT INTO games(id, code, config, seed, seats, host_seat, started, finished)"
                            " VALUES (%s, %s, %s::jsonb, %s, %s::jsonb, %s, %s::int::boolean, %s::int::boolean)",
                            [r[:8] for r in g_rows])
            cur.executemany("INSERT INTO game_turns VALUES (%s, %s, %s, %s, %s, %s, %s::jsonb, %s::jsonb, %s, %s)",
                            t_rows)
            cur.executemany("INSERT INTO account_games VALUES (%s, %s, %s)", a_rows)
        conn.execute("ANALYZE")
    store._call("fill the benchmark's games", fn)


def _load() -> str:
    try:
        return Path("/proc/loadavg").read_text().split()[0]
    except OSError:
        return "unknown"


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=10_000)
    p.add_argument("--mine", type=int, default=50)
    p.add_argument("--accounts", type=int, default=2_000)
    p.add_argument("--asks", type=int, default=2_000)
    p.add_argument("--database", help="a PostgreSQL address (an empty database or schema); default: SQLite")
    a = p.parse_args(argv)
    rows = fill_rows(a.games, a.mine, a.accounts)
    folder = tempfile.TemporaryDirectory()
    if a.database:
        from gonzaga.net.store_pg import PostgresStore
        store: Any = PostgresStore(a.database)
        started = time.perf_counter()
        fill_postgres(store, rows)
        kind = "PostgreSQL"
    else:
        store = SQLiteStore(Path(folder.name) / "bench.sqlite3")
        started = time.perf_counter()
        fill_sqlite(store, rows)
        kind = "SQLite"
    print(f"{kind}: {a.games} turn-based games stored in {time.perf_counter() - started:.1f} s")
    keeper = TurnKeeper(SimpleNamespace(store=store, rooms={}, accounts=SimpleNamespace(on_bound=None)))  # type: ignore[arg-type]
    answer = keeper.my_games(1, "Isabella")
    assert len(answer.games) == a.mine, len(answer.games)
    for _ in range(50):  # warm caches, as a running server's are
        keeper.my_games(1, "Isabella")
    times, cpu = [], []
    for _ in range(a.asks):
        t0, c0 = time.perf_counter(), time.thread_time()
        keeper.my_games(1, "Isabella")
        times.append((time.perf_counter() - t0) * 1000)
        cpu.append((time.thread_time() - c0) * 1000)
    for what, xs in (("wall", times), ("CPU (this thread)", cpu)):
        xs.sort()
        p99 = xs[min(len(xs) - 1, int(len(xs) * 0.99))]
        print(f"My games of an account with {a.mine} games ({a.asks} asks), {what}: p50 {statistics.median(xs):.2f} ms,"
              f" p99 {p99:.2f} ms, max {xs[-1]:.2f} ms")
    print(f"answer: {len(answer.model_dump_json())} bytes; load average {_load()}")
    store.close()
    folder.cleanup()
    return 0


if __name__ == "__main__":
    sys.exit(main())
