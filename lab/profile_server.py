"""Where the server's CPU goes under the load of ``gonzaga netplay-check --load`` (issue 47).

Starts ``gonzaga serve`` on loopback (optionally under cProfile, in a child that runs
``gonzaga.net.serve.main`` inside a profiler), plays K games at once against it with the load
bots of ``gonzaga.net.botclient`` (``--role load``, as check_load.py does), and prints the
server's CPU seconds (user + system, all threads, from /proc: Linux only) over the load, the
acknowledged actions the bots counted, and CPU ms per action; with ``--profile`` also the
profile's top entries. CPU, not wall time: the machine is shared, so throughput is noise while
CPU per action is not (much).

    .venv/bin/python lab/profile_server.py --load 100 --seconds 20 [--tls] [--profile out.prof]
        [--log-level debug]   # netplay-check runs its server at debug (the secrets scan reads it)
        [--root /tmp/old --legacy]  # an older tree (git archive COMMIT | tar -x -C /tmp/old)

The profile counts the event loop thread's CPU time (``time.thread_time``); with PROFILE_WALL=1
in the environment, wall time instead, which shows where the loop waits (fsync).

The profiled run costs more CPU per action (the profiler's own overhead): compare the
unprofiled figure between commits, and read the profile for shares only.
"""
from __future__ import annotations

import argparse
import cProfile
import json
import math
import os
import pstats
import re
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
GAMES_PER_PROCESS = 64


def _child(out: str, argv: list[str]) -> int:
    """Run ``gonzaga serve`` in this process under cProfile; the profile is written at the end."""
    sys.path.insert(0, os.environ.get("PYTHONPATH") or str(ROOT))  # --root's tree, else this one
    try:
        from gonzaga.net import serve  # (the tree's own code, after the path is set)
    except ImportError:  # before issue 39 the command lived in server.py
        from gonzaga.net import server as serve  # type: ignore[no-redef]
    wall = os.environ.get("PROFILE_WALL") == "1"  # wall time: where the event loop waits (the disk)
    prof = cProfile.Profile(time.perf_counter if wall else time.thread_time)  # else the loop thread's CPU
    prof.enable()
    try:
        return serve.main(argv)
    finally:
        prof.disable()
        prof.dump_stats(out)


def _cpu(pid: int) -> float:
    with open(f"/proc/{pid}/stat", encoding="ascii") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--load", type=int, default=100)
    p.add_argument("--seats", type=int, default=2)
    p.add_argument("--seconds", type=float, default=20.0)
    p.add_argument("--seed", type=int, default=10_001)
    p.add_argument("--tls", action="store_true")
    p.add_argument("--log-level", default="info")
    p.add_argument("--profile", default=None, help="write the server's cProfile stats here")
    p.add_argument("--top", type=int, default=30)
    p.add_argument("--root", default=str(ROOT), help="the source tree whose server and bots run (an older "
                   "commit's, from git archive)")
    p.add_argument("--legacy", action="store_true", help="a server from before issue 39: plain ws:// and no "
                   "per-address limits without options (--no-tls and --no-address-limits did not exist)")
    p.add_argument("--child", default=None, help=argparse.SUPPRESS)
    a, rest = p.parse_known_args()
    if a.child:
        return _child(a.child, [x for x in rest if x != "--"])
    root = Path(a.root).resolve()
    env = dict(os.environ, PYTHONPATH=str(root), PYTHONUNBUFFERED="1")
    data = Path(tempfile.mkdtemp(prefix="gonzaga-prof-"))
    serve_args = ["--host", "127.0.0.1", "--port", "0", "--data", str(data), "--log-level", a.log_level]
    if not a.legacy:
        serve_args += ["--no-address-limits"] + ([] if a.tls else ["--no-tls"])
    cmd = ([sys.executable, __file__, "--child", a.profile, "--", *serve_args] if a.profile
           else [sys.executable, "-m", "gonzaga", "serve", *serve_args])
    server = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, cwd=root)
    assert server.stdout is not None
    line = server.stdout.readline().decode().strip()
    m = re.fullmatch(r"serving on (wss?://127\.0\.0\.1:\d+)(?:#([a-z2-7]{52}))?", line)
    if not m:
        server.kill()
        raise SystemExit(f"the server did not start: {line!r}")
    url = line.split(" ", 2)[2]
    procs = math.ceil(a.load / GAMES_PER_PROCESS)
    shares = [a.load // procs + (1 if i < a.load % procs else 0) for i in range(procs)]
    cpu0, t0, first, bots = _cpu(server.pid), time.monotonic(), 0, []
    for share in shares:
        bots.append(subprocess.Popen(
            [sys.executable, "-m", "gonzaga.net.botclient", "--url", url, "--role", "load", "--games", str(share),
             "--seats", str(a.seats), "--seed", str(a.seed + first), "--seconds", str(a.seconds),
             "--timeout", str(a.seconds + 60)], env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, cwd=root))
        first += share
    done = []
    for b in bots:
        out, _ = b.communicate()
        for ln in out.decode().splitlines():
            if ln.startswith("{") and '"done"' in ln:
                done.append(json.loads(ln))
    cpu1, wall = _cpu(server.pid), time.monotonic() - t0
    server.send_signal(signal.SIGTERM)
    server.wait(30)
    actions = sum(d.get("actions", 0) for d in done)
    lat = sorted(x for d in done for x in d.get("latencies_ms", []))
    res = {"root": str(root), "tls": a.tls, "log_level": a.log_level, "profiled": bool(a.profile), "games": a.load,
           "actions": actions, "server_cpu_s": round(cpu1 - cpu0, 2), "wall_s": round(wall, 1),
           "cpu_ms_per_action": round(1000 * (cpu1 - cpu0) / max(1, actions), 3),
           "latency_ms_p50": round(lat[len(lat) // 2], 1) if lat else None,
           "failures": [f for d in done for f in d.get("failures", [])][:3],
           "errors": {k: v for d in done for k, v in (d.get("errors") or {}).items()}}
    print(json.dumps(res))
    if a.profile:
        st = pstats.Stats(a.profile)
        st.sort_stats("tottime").print_stats(a.top)
        st.sort_stats("cumulative").print_stats(a.top)
    return 0


if __name__ == "__main__":
    sys.exit(main())
