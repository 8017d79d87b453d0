"""SQLite against PostgreSQL under the same load, one ``gonzaga serve`` process each (issue 47).

Starts its own PostgreSQL (tests/pg_server.py, fsync on), then alternates runs of K two-seat
games for S seconds (the load bots of ``netplay-check --load``: ``gonzaga.net.botclient --role
load``) against ``gonzaga serve --no-tls --no-address-limits``, with the games in SQLite (a new
data folder) and in PostgreSQL (a new database), for each source tree given. Prints one table:
actions/s, latency p50/p99 (ms, from an act to the update holding it), the server's CPU ms per
action, its peak memory (VmHWM), one column a run.

    .venv/bin/python lab/store_sides.py --load 100 --seconds 20 --runs 2
    .venv/bin/python lab/store_sides.py --roots . /tmp/gonzaga-sides/1ff94f5   # before grouped commits too

Linux only (reads /proc). Wall-clock figures: run it on a quiet machine.
"""
from __future__ import annotations

import argparse
import json
import math
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Optional

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

import pg_server  # noqa: E402

GAMES_PER_PROCESS = 64


def _proc(pid: int) -> tuple[float, float]:
    """(CPU seconds, peak resident MB) of a process."""
    with open(f"/proc/{pid}/stat", encoding="ascii") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    cpu = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    with open(f"/proc/{pid}/status", encoding="ascii") as f:
        hwm = next((int(ln.split()[1]) for ln in f if ln.startswith("VmHWM:")), 0)
    return cpu, hwm / 1024


def pct(xs: list[float], q: float) -> Optional[float]:
    return round(xs[min(len(xs) - 1, int(q * len(xs)))], 1) if xs else None


def one_run(root: Path, work: Path, database: Optional[str], pwfile: Optional[Path], load: int,
            seconds: float, seed: int) -> dict[str, Any]:
    env = dict(os.environ, PYTHONPATH=str(root), PYTHONUNBUFFERED="1")
    args = ["--host", "127.0.0.1", "--port", "0", "--data", str(work), "--no-tls", "--no-address-limits",
            "--log-level", "info"]
    if database:
        args += ["--database", database, "--database-password-file", str(pwfile)]
    server = subprocess.Popen([sys.executable, "-m", "gonzaga", "serve", *args], env=env, cwd=root,
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    assert server.stdout is not None
    line = server.stdout.readline().strip()
    if not re.fullmatch(r"serving on ws://127\.0\.0\.1:\d+", line):
        server.kill()
        raise SystemExit(f"the server did not start: {line!r}")
    url = line.split(" ", 2)[2]
    procs = math.ceil(load / GAMES_PER_PROCESS)
    shares = [load // procs + (1 if i < load % procs else 0) for i in range(procs)]
    cpu0, _ = _proc(server.pid)
    t0, first, bots = time.monotonic(), 0, []
    for share in shares:
        bots.append(subprocess.Popen(
            [sys.executable, "-m", "gonzaga.net.botclient", "--url", url, "--role", "load", "--games", str(share),
             "--seats", "2", "--seed", str(seed + first), "--seconds", str(seconds), "--timeout", str(seconds + 60)],
            env=env, cwd=root, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True))
        first += share
    done = []
    for b in bots:
        out, _ = b.communicate()
        done += [json.loads(ln) for ln in out.splitlines() if ln.startswith("{") and '"done"' in ln]
    cpu1, peak = _proc(server.pid)
    wall = time.monotonic() - t0
    server.send_signal(signal.SIGTERM)
    server.wait(30)
    actions = sum(d.get("actions", 0) for d in done)
    lat = sorted(x for d in done for x in d.get("latencies_ms", []))
    return {"actions": actions, "actions_per_s": round(actions / wall, 1), "p50": pct(lat, 0.5), "p99": pct(lat, 0.99),
            "cpu_ms_per_action": round(1000 * (cpu1 - cpu0) / max(1, actions), 2), "peak_mb": round(peak, 1),
            "failures": [f for d in done for f in d.get("failures", [])][:3]}


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--roots", nargs="+", default=["."], help="source trees (. is this one)")
    p.add_argument("--load", type=int, default=100)
    p.add_argument("--seconds", type=float, default=20.0)
    p.add_argument("--runs", type=int, default=2)
    p.add_argument("--seed", type=int, default=10_001)
    a = p.parse_args()
    bindir = pg_server.find_bindir()
    if bindir is None:
        print("no PostgreSQL found", file=sys.stderr)
        return 1
    pg = pg_server.PgServer(bindir).start()
    roots = [ROOT if r == "." else Path(r).resolve() for r in a.roots]
    got: dict[tuple[str, str], list[dict[str, Any]]] = {}
    print("load average before:", os.getloadavg(), flush=True)
    try:
        with tempfile.TemporaryDirectory() as d:
            pwfile = Path(d) / "pw"
            pwfile.write_text(pg.password + "\n")
            k = 0
            for run in range(a.runs):
                for root in roots:
                    for store in ("sqlite", "postgresql"):
                        k += 1
                        db = pg.url(pg.new_database("load")) if store == "postgresql" else None
                        res = one_run(root, Path(d) / f"data{k}", db, pwfile, a.load, a.seconds, a.seed)
                        got.setdefault((str(root), store), []).append(res)
                        print(f"run {run + 1} {root} {store}: {res}", flush=True)
    finally:
        pg.stop()
    print("load average after:", os.getloadavg())
    print()
    print("| tree | store | actions/s | p50 ms | p99 ms | CPU ms/action | peak MB |")
    print("|---|---|---|---|---|---|---|")
    for (root, store), runs in got.items():
        cols = [" / ".join(f"{r[key]}" for r in runs) for key in ("actions_per_s", "p50", "p99", "cpu_ms_per_action",
                                                                  "peak_mb")]
        print(f"| {Path(root).name} | {store} | {' | '.join(cols)} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
