"""Where the server's CPU goes under the load of ``gonzaga netplay-check --load`` (issue 47).

Starts ``gonzaga serve`` on loopback (optionally under cProfile, in a child that runs
``gonzaga.net.serve.main`` inside a profiler), plays K games at once against it with the load
bots of ``gonzaga.net.botclient`` (``--role load``, as check_load.py does), and prints the
server's CPU seconds (user + system, all threads, from /proc: Linux only) over the load, the
acknowledged actions the bots counted, and CPU ms per action; with ``--profile`` also the
profile's top entries. CPU, not wall time: the machine is shared, so throughput is noise while
CPU per action is not (much).

Two figures of CPU per action: ``cpu_ms_per_action`` over the whole load (the games' creation,
400 handshakes at --load 200, included: it falls as more actions share that fixed cost), and
``play_cpu_ms_per_action``, only while every game is being played (the bots print their count of
acknowledged actions at the same instants, ``botclient --ticks``; the server's CPU is sampled
every 50 ms; the first second of play is left out): what each action costs, whatever the
machine's load let fit in the 20 s. The bots are this tree's (``--bots``), so two servers are
measured under the same load; a --legacy tree's own bots, which print no counts, give only the
first figure. ``peak_rss_mb``: the server's resident memory at its highest (sampled with the CPU).

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
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
GAMES_PER_PROCESS = 64
TICK = 0.5  # seconds between the bots' counts


def _child(out: str, argv: list[str]) -> int:
    """Run ``gonzaga serve`` in this process under cProfile; the profile is written at the end."""
    sys.path.insert(0, os.environ.get("PYTHONPATH") or str(ROOT))  # --root's tree, else this one
    try:
        from gonzaga.net import serve  # (the tree's own code, after the path is set)
    except ImportError:  # before issue 39 the command lived in server.py
        from gonzaga.net import server as serve  # type: ignore[no-redef]
    sizes = os.environ.get("PROFILE_SIZES")  # a file: every outgoing message's size, raw and deflated
    if sizes:
        _count_sizes(sizes)
    if out == "-":  # only the sizes
        return serve.main(argv)
    wall = os.environ.get("PROFILE_WALL") == "1"  # wall time: where the event loop waits (the disk)
    prof = cProfile.Profile(time.perf_counter if wall else time.thread_time)  # else the loop thread's CPU
    prof.enable()
    try:
        return serve.main(argv)
    finally:
        prof.disable()
        prof.dump_stats(out)


def _count_sizes(out: str) -> None:
    """Record each data frame the server deflates: its size before and after, and the event
    loop thread's CPU time it took (websockets' ``PerMessageDeflate.encode``, wrapped); written
    to ``out`` at exit."""
    import atexit
    from websockets.extensions import permessage_deflate as pmd
    from websockets.frames import CTRL_OPCODES
    rows: list[tuple[int, int, float]] = []
    encode = pmd.PerMessageDeflate.encode

    def counted(self: pmd.PerMessageDeflate, frame):  # type: ignore[no-untyped-def]
        t = time.thread_time()
        out_frame = encode(self, frame)
        if frame.opcode not in CTRL_OPCODES:
            rows.append((len(frame.data), len(out_frame.data), time.thread_time() - t))
        return out_frame
    pmd.PerMessageDeflate.encode = counted  # type: ignore[method-assign]
    atexit.register(lambda: Path(out).write_text(json.dumps(rows)))


def _rss(pid: int) -> int:
    """The process's resident memory in bytes (/proc: Linux only)."""
    with open(f"/proc/{pid}/statm", encoding="ascii") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def _cpu(pid: int) -> float:
    with open(f"/proc/{pid}/stat", encoding="ascii") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class CpuSampler(threading.Thread):
    """The server's CPU seconds every 50 ms, with the monotonic time (the bots' clock too)."""

    def __init__(self, pid: int):
        super().__init__(daemon=True)
        self.pid, self.samples, self.stop = pid, [(time.monotonic(), _cpu(pid))], threading.Event()
        self.peak_rss = _rss(pid)

    def run(self) -> None:
        while not self.stop.wait(0.05):
            try:
                self.samples.append((time.monotonic(), _cpu(self.pid)))
                self.peak_rss = max(self.peak_rss, _rss(self.pid))
            except OSError:  # the server has ended
                return

    def at(self, t: float) -> float:
        """The CPU at time ``t``, interpolated between the samples around it."""
        s = self.samples
        for (t0, c0), (t1, c1) in zip(s, s[1:]):
            if t0 <= t <= t1:
                return c0 if t1 == t0 else c0 + (c1 - c0) * (t - t0) / (t1 - t0)
        return s[-1][1] if t > s[-1][0] else s[0][1]


def _play_window(counts: list[dict[float, tuple[float, int]]], cpu: CpuSampler) -> dict[str, object]:
    """CPU per action between the first and the last instants at which every bot process counted,
    less the first second of play; {} without counts."""
    if not counts or not all(counts):
        return {}
    common = sorted(set.intersection(*(set(c) for c in counts)))
    common = [k for k in common if k >= common[0] + 1.0] if common else []
    if len(common) < 2:
        return {}
    k0, k1 = common[0], common[-1]
    t0 = max(c[k0][0] for c in counts)
    t1 = min(c[k1][0] for c in counts)
    actions = sum(c[k1][1] - c[k0][1] for c in counts)
    used = cpu.at(t1) - cpu.at(t0)
    return {"play_s": round(k1 - k0, 1), "play_actions": actions, "play_cpu_s": round(used, 2),
            "play_cpu_ms_per_action": round(1000 * used / max(1, actions), 3)}


def _read_bot(proc: "subprocess.Popen[bytes]", counts: dict[float, tuple[float, int]], done: list[dict]) -> None:
    assert proc.stdout is not None
    for raw in proc.stdout:
        ln = raw.decode().strip()
        if not ln.startswith("{"):
            continue
        ev = json.loads(ln)
        if ev.get("ev") == "count":
            counts[round(round(ev["t"] / TICK) * TICK, 3)] = (ev["t"], ev["actions"])
        elif ev.get("ev") == "done":
            done.append(ev)


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
    p.add_argument("--bots", default=None, help="the source tree whose load bots run (default: this one; "
                   "with --legacy, --root's)")
    p.add_argument("--legacy", action="store_true", help="a server from before issue 39: plain ws:// and no "
                   "per-address limits without options (--no-tls and --no-address-limits did not exist)")
    p.add_argument("--child", default=None, help=argparse.SUPPRESS)
    a, rest = p.parse_known_args()
    if a.child:
        return _child(a.child, [x for x in rest if x != "--"])
    root = Path(a.root).resolve()
    bots_root = Path(a.bots).resolve() if a.bots else (root if a.legacy else ROOT)
    env = dict(os.environ, PYTHONPATH=str(root), PYTHONUNBUFFERED="1")
    bots_env = dict(os.environ, PYTHONPATH=str(bots_root), PYTHONUNBUFFERED="1")
    data = Path(tempfile.mkdtemp(prefix="gonzaga-prof-"))
    serve_args = ["--host", "127.0.0.1", "--port", "0", "--data", str(data), "--log-level", a.log_level]
    if not a.legacy:
        serve_args += ["--no-address-limits"] + ([] if a.tls else ["--no-tls"])
    child = a.profile or ("-" if os.environ.get("PROFILE_SIZES") else None)
    cmd = ([sys.executable, __file__, "--child", child, "--", *serve_args] if child
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
    sampler = CpuSampler(server.pid)
    sampler.start()
    ticks = ["--ticks", str(TICK)] if bots_root == ROOT or not a.legacy else []
    counts: list[dict[float, tuple[float, int]]] = []
    done: list[dict] = []
    readers = []
    for share in shares:
        bot = subprocess.Popen(
            [sys.executable, "-m", "gonzaga.net.botclient", "--url", url, "--role", "load", "--games", str(share),
             "--seats", str(a.seats), "--seed", str(a.seed + first), "--seconds", str(a.seconds),
             "--timeout", str(a.seconds + 60), *ticks], env=bots_env, stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL, cwd=bots_root)
        bots.append(bot)
        counts.append({})
        readers.append(threading.Thread(target=_read_bot, args=(bot, counts[-1], done), daemon=True))
        readers[-1].start()
        first += share
    for b in bots:
        b.wait()
    for r in readers:
        r.join()
    sampler.stop.set()
    cpu1, wall = _cpu(server.pid), time.monotonic() - t0
    server.send_signal(signal.SIGTERM)
    server.wait(30)
    actions = sum(d.get("actions", 0) for d in done)
    lat = sorted(x for d in done for x in d.get("latencies_ms", []))
    load = os.getloadavg()
    res = {"root": str(root), "load_avg_1m": round(load[0], 2), "tls": a.tls, "log_level": a.log_level, "profiled": bool(a.profile), "games": a.load,
           "actions": actions, "server_cpu_s": round(cpu1 - cpu0, 2), "wall_s": round(wall, 1),
           "cpu_ms_per_action": round(1000 * (cpu1 - cpu0) / max(1, actions), 3),
           **_play_window(counts, sampler), "peak_rss_mb": round(sampler.peak_rss / 2**20, 1),
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
