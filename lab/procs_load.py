"""Several `gonzaga serve` processes on one PostgreSQL under load, with kills (issue 47).

    .venv/bin/python lab/procs_load.py --procs 1 --games 20 --seconds 30          # throughput, one process
    .venv/bin/python lab/procs_load.py --procs 3 --games 20 --seconds 30          # the same on three
    .venv/bin/python lab/procs_load.py --procs 3 --games 20 --seconds 120 --kill-every 15
    .venv/bin/python lab/procs_load.py --procs 3 --tree /tmp/gonzaga-e618c35   # another commit's servers

Starts its own PostgreSQL (tests/pg_server.py) and PROCS `gonzaga serve --database ... --no-tls
--no-address-limits` processes on fixed loopback ports. Each game has two human seats played by
bots in this process (a random legal action from the seat's own view), the host on process i
and its friend on process i + 1, so that every game with several processes crosses processes.
A finished game is followed by a new one. A bot whose connection drops resumes on the next
address (as the desktop game does with the addresses it was given).

With --kill-every S: every S seconds one process (in turn) gets SIGKILL and is started again
on its port. Printed at the end:

- actions/s (updates with a new action, counted once per game), latency p50/p99 from an `act`
  sent to its update received, the server processes' CPU (user + system from /proc) per action;
- for each kill: how long until every game that was being played moved on (its count grew);
- acknowledged actions lost: for every game, the most actions any of its players was told of
  (an update) against the count in the database at the end. Must be 0.

With --tree DIR the servers run the code in DIR (e.g. `git archive COMMIT | tar -x -C DIR`), so
two commits can be measured side by side on the same bots (grouped commits against fenced
single writes, issue 47).
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Optional

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT))

import pg_server  # noqa: E402
from websockets.asyncio.client import connect  # noqa: E402
from websockets.exceptions import ConnectionClosed, InvalidHandshake  # noqa: E402

from gonzaga.net import protocol as P  # noqa: E402
from gonzaga.net.viewcodec import view_from_json  # noqa: E402
from gonzaga.rules import legal_actions, load_content  # noqa: E402

CONTENT = load_content()
TRACE = bool(os.environ.get("TRACE"))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def cpu_seconds(pid: int) -> float:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return 0.0


class Servers:
    def __init__(self, url: str, pwfile: Path, root: Path, n: int, tree: Path = ROOT):
        self.url, self.pwfile, self.root, self.tree = url, pwfile, root, tree
        self.ports = [free_port() for _ in range(n)]
        self.procs: list[Optional[subprocess.Popen[str]]] = [None] * n
        self.cpu_done = 0.0  # CPU of processes killed

    def start(self, i: int) -> None:
        env = dict(os.environ, PYTHONPATH=str(self.tree), PYTHONUNBUFFERED="1")
        prof = os.environ.get("PROFILE_DIR")  # each process under cProfile (written at its SIGTERM)
        lead = ([str(ROOT / "lab" / "cpu_profile_run.py")] if os.environ.get("PROFILE_CPU") else
                ["-m", "cProfile", "-o"]) + [str(Path(prof) / f"p{i}.prof")] if prof else []
        p = subprocess.Popen([sys.executable, *lead, "-m", "gonzaga", "serve", "--port", str(self.ports[i]), "--no-tls",
                              "--no-address-limits", "--log-level", "info", "--data", str(self.root / f"p{i}"),
                              "--database", self.url, "--database-password-file", str(self.pwfile)],
                             stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env)
        assert p.stdout is not None
        line = p.stdout.readline()
        if not line.startswith("serving on"):
            raise SystemExit(f"process {i} did not start: {line!r}")
        self.procs[i] = p

    def kill(self, i: int) -> None:
        p = self.procs[i]
        if p is not None:
            self.cpu_done += cpu_seconds(p.pid)
            p.send_signal(signal.SIGKILL)
            p.wait(10)

    def cpu(self) -> float:
        return self.cpu_done + sum(cpu_seconds(p.pid) for p in self.procs if p is not None and p.poll() is None)

    def address(self, i: int) -> str:
        return f"ws://127.0.0.1:{self.ports[i % len(self.ports)]}"

    def stop(self) -> None:
        for p in self.procs:
            if p is not None and p.poll() is None:
                p.terminate()
                try:
                    p.wait(10)
                except subprocess.TimeoutExpired:
                    p.kill()


class Stats:
    def __init__(self) -> None:
        self.told: dict[str, int] = {}  # game: most actions a player was told of
        self.moved: dict[str, float] = {}  # game: when its count last grew
        self.finished: set[str] = set()
        self.latencies: list[float] = []
        self.actions = 0
        self.kills: list[dict[str, Any]] = []
        self.events: dict[str, list[str]] = {}  # --trace: what each game's bots saw and did
        self.gap: tuple[float, str, int, str] = (0.0, "", 0, "")  # the longest wait of a game for its next action


async def bot(servers: Servers, stats: Stats, start: int, seed: int, stop: asyncio.Event,
              code_box: "asyncio.Future[str]", host: bool, started: asyncio.Event) -> None:
    """One seat of one game, for ever (a new game after each), until ``stop``."""
    rng = random.Random(seed)
    at = start
    token = game = None
    seat = 0
    n = -1
    sent: Optional[tuple[int, float]] = None
    while not stop.is_set():
        try:
            async with connect(servers.address(at), open_timeout=5, max_size=P.MAX_SERVER_BYTES) as ws:
                async def send(**m: Any) -> None:
                    await ws.send(json.dumps({"v": 2, **m}))
                if token is None:
                    if host:
                        await send(type="create", name=f"H{seed}",
                                   seats=[{"kind": "host", "colour": "red"}, {"kind": "open", "colour": "blue"}])
                    else:
                        await send(type="join", code=await code_box, name=f"F{seed}")
                else:
                    await send(type="resume", game=game, token=token)
                while not stop.is_set():
                    try:
                        raw = await asyncio.wait_for(ws.recv(), 1.0)
                    except asyncio.TimeoutError:
                        if sent is not None and time.monotonic() - sent[1] > 3.0:
                            sent = None  # resend below
                        else:
                            continue
                        raw = None
                    m = json.loads(raw) if raw else {"type": "again"}
                    kind = m["type"]
                    if game is not None and TRACE:
                        stats.events.setdefault(game, []).append(
                            f"{time.strftime('%H:%M:%S')}.{int(time.time() * 1000) % 1000:03d} {seed} @{at % len(servers.ports)} "
                            f"got {kind} n={m.get('n')} {m.get('code', '')}")
                    if kind == "joined":
                        token, seat, game = m["token"], m["seat"], m["game"]
                        if host and not code_box.done():
                            code_box.set_result(m["code"])
                    elif kind == "lobby" and host and not m["started"] and all(s["kind"] != "open" for s in m["seats"]):
                        await send(type="start", token=token)
                    elif kind == "update":
                        if m["n"] > stats.told.get(game, 0):
                            stats.told[game] = m["n"]
                            now = time.monotonic()
                            gap = now - stats.moved.get(game, now)
                            if gap > stats.gap[0]:
                                stats.gap = (gap, game, m["n"], time.strftime("%H:%M:%S"))
                            stats.moved[game] = now
                            for k in stats.kills:  # the first move of each game after each kill
                                if game in k["games"]:
                                    k["back"].setdefault(game, now)
                            stats.actions += 1
                        if sent is not None and m["n"] > sent[0]:
                            stats.latencies.append(time.monotonic() - sent[1])
                            sent = None
                        n = m["n"]
                        view = view_from_json(m["view"], CONTENT)
                        if view.phase == "over":
                            stats.finished.add(game)
                            return
                        acts = legal_actions(view, seat)
                        if acts:
                            await send(type="act", token=token, n=n, action=rng.choice(acts).to_text())
                            sent = (n, time.monotonic())
                    elif kind == "again" and n >= 0:
                        await send(type="resume", game=game, token=token)
                    elif kind == "error" and m["code"] not in ("stale",):
                        sent = None
        except (OSError, ConnectionClosed, InvalidHandshake, asyncio.TimeoutError) as e:
            if game is not None and TRACE:
                stats.events.setdefault(game, []).append(f"{time.strftime('%H:%M:%S')} {seed} @{at % len(servers.ports)} {e!r}"[:200])
        at += 1  # the next address
        sent = None
        await asyncio.sleep(0.2)


async def game_loop(servers: Servers, stats: Stats, i: int, stop: asyncio.Event) -> None:
    k = 0
    while not stop.is_set():
        box: asyncio.Future[str] = asyncio.get_running_loop().create_future()
        started = asyncio.Event()
        seed = 1000 * i + k
        await asyncio.gather(bot(servers, stats, i, seed, stop, box, True, started),
                             bot(servers, stats, i + 1, seed + 500, stop, box, False, started))
        k += 1


async def run(a: argparse.Namespace, servers: Servers) -> dict[str, Any]:
    stats = Stats()
    stop = asyncio.Event()
    tasks = [asyncio.create_task(game_loop(servers, stats, i, stop)) for i in range(a.games)]
    await asyncio.sleep(3.0)  # the games created and begun
    t0, cpu0, act0 = time.monotonic(), servers.cpu(), stats.actions
    lat0 = len(stats.latencies)
    kills = stats.kills
    next_kill = t0 + a.kill_every if a.kill_every else None
    victim = 0
    while time.monotonic() - t0 < a.seconds:
        await asyncio.sleep(0.1)
        if next_kill is not None and time.monotonic() >= next_kill:
            playing = {g for g in stats.told if g not in stats.finished}
            at = time.monotonic()
            servers.kill(victim)
            kills.append({"at": at, "games": playing, "process": victim, "back": {}})
            print(f"killed process {victim} at {time.strftime('%H:%M:%S')}", file=sys.stderr)
            await asyncio.to_thread(servers.start, victim)
            victim = (victim + 1) % len(servers.ports)
            next_kill += a.kill_every
    elapsed, cpu, actions = time.monotonic() - t0, servers.cpu() - cpu0, stats.actions - act0
    lat = sorted(stats.latencies[lat0:])
    await asyncio.sleep(12.0 if kills else 0.0)  # the last kill's games move again
    stop.set()
    await asyncio.wait(tasks, timeout=10)
    if TRACE:
        for k in kills:
            slow = max(((t - k["at"], g) for g, t in k["back"].items()), default=(0, ""))[1]
            print(f"kill of {k['process']}: game {slow}", *stats.events.get(slow, []), sep="\n  ", file=sys.stderr)
    back = []
    for k in kills:  # a game that ended meanwhile moved (its last update came after the kill)
        waits = sorted((t - k["at"], g) for g, t in k["back"].items())
        back.append({"process": k["process"], "games": len(k["games"]),
                     "slowest_s": round(waits[-1][0], 2) if waits else None,
                     "slowest_game": waits[-1][1] if waits else None,
                     "not_moved": len(k["games"]) - len(waits)})
    return {"procs": a.procs, "games_at_once": a.games, "seconds": round(elapsed, 1), "actions": actions,
            "actions_per_s": round(actions / elapsed, 1),
            "latency_ms_p50": round(1000 * lat[len(lat) // 2], 1) if lat else None,
            "latency_ms_p99": round(1000 * lat[min(len(lat) - 1, int(len(lat) * 0.99))], 1) if lat else None,
            "server_cpu_s": round(cpu, 2), "cpu_ms_per_action": round(1000 * cpu / max(1, actions), 2),
            "longest_wait": [round(stats.gap[0], 2), *stats.gap[1:]], "kills": back, "told": stats.told}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--procs", type=int, default=3)
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--seconds", type=float, default=30.0)
    ap.add_argument("--kill-every", type=float, default=0.0)
    ap.add_argument("--keep", default=None, help="a folder to keep the processes' data folders (their logs) in")
    ap.add_argument("--tree", default=str(ROOT), help="the source tree the servers run (another commit's "
                    "`git archive` for a side by side); the bots are this tree's")
    a = ap.parse_args()
    bindir = pg_server.find_bindir()
    if bindir is None:
        print("no PostgreSQL found", file=sys.stderr)
        return 1
    pg = pg_server.PgServer(bindir).start()
    servers: Optional[Servers] = None
    try:
        url = pg.url(pg.new_database("procs"))
        with tempfile.TemporaryDirectory() as d:
            pwfile = Path(d) / "pw"
            pwfile.write_text(pg.password + "\n")
            servers = Servers(url, pwfile, Path(a.keep) if a.keep else Path(d), a.procs, Path(a.tree))
            for i in range(a.procs):
                servers.start(i)
            out = asyncio.run(run(a, servers))
            servers.stop()
            from gonzaga.net.store_pg import PostgresStore
            store = PostgresStore(url, password=pg.password)
            try:
                have = store.counts(list(out["told"]))
            finally:
                store.close()
            lost = {g: (n, have.get(g, 0)) for g, n in out.pop("told").items() if have.get(g, 0) < n}
            out["games"] = len(have)
            out["acknowledged_actions_lost"] = sum(n - h for n, h in lost.values())
            out["load_average"] = os.getloadavg()[0]
            print(json.dumps(out, indent=1))
            return 1 if lost else 0
    finally:
        if servers is not None:
            servers.stop()
        pg.stop()


if __name__ == "__main__":
    sys.exit(main())
