"""``gonzaga netplay-check --load K``: K games at once against the server, and the same load
against a plain ``ws://`` server in the same run (issue 39), so that what encryption costs is
measured on the same machine at the same moment.

What belongs here: the load (``load``) and the comparison (``compare_plain``). The rest of the
check is ``check.py``; the bots are ``botclient.py``.

``compare_plain`` starts a second server with ``--no-tls`` on its own fresh data folder, plays
the same K games against it, and reports ``plain_load_actions_per_s``, ``plain_latency_ms_p50``,
``plain_latency_ms_p99`` beside the ``wss://`` figures, and ``tls_cost_pct``: how much lower the
encrypted throughput is (negative: the encrypted run was faster, i.e. the difference is noise).
"""
from __future__ import annotations

from typing import Any
import asyncio
import json
import logging
import math

from .report import percentile as _percentile

LOAD_GAMES_PER_PROCESS = 64
SEED_LOAD = 10_000  # seed offset: load games never share a seed with the main games

log = logging.getLogger("gonzaga.net.check")


async def _lines(proc: asyncio.subprocess.Process, idx: int, queue: asyncio.Queue[Any]) -> None:
    """A bot's JSON lines into the queue, then ``eof``."""
    assert proc.stdout is not None  # started with a pipe
    for _ in range(1_000_000):
        line = await proc.stdout.readline()
        if not line:
            break
        try:
            queue.put_nowait((idx, json.loads(line)))
        except ValueError:
            log.warning("bot %d wrote %r", idx, line[:200])
    queue.put_nowait((idx, {"ev": "eof"}))


async def load(a: Any, children: Any, server: Any, res: dict[str, Any], problems: list[str], prefix: str = "") -> None:
    """K more games at once from a few processes; the server's speed, latency and memory, as
    ``res[prefix + name]``."""
    queue: asyncio.Queue[Any] = asyncio.Queue()
    procs = math.ceil(a.load / LOAD_GAMES_PER_PROCESS)
    shares = [a.load // procs + (1 if i < a.load % procs else 0) for i in range(procs)]
    rss_before = server.rss_kb()
    rss_peak = rss_before or 0
    cpu_before = server.cpu_seconds()
    first, readers = 0, []
    for i, share in enumerate(shares):
        args = ["-m", "gonzaga.net.botclient", "--url", server.url, "--role", "load", "--games", str(share),
                "--seats", str(a.seats), "--seed", str(a.seed + SEED_LOAD + first), "--seconds", str(a.seconds),
                "--timeout", str(a.seconds + 60)]
        first += share
        proc = await children.spawn(args, f"{prefix}load-{i}")
        readers.append(asyncio.ensure_future(_lines(proc, i, queue)))
    done: dict[int, dict[str, Any]] = {}
    for _ in range(int((a.seconds + 90) / 0.25)):  # sample the server's memory while the games run
        try:
            idx, ev = await asyncio.wait_for(queue.get(), 0.25)
        except asyncio.TimeoutError:
            rss_peak = max(rss_peak, server.rss_kb() or 0)
            continue
        if ev.get("ev") == "done" or (ev.get("ev") == "eof" and idx not in done):
            done[idx] = ev if ev.get("ev") == "done" else {"failures": [f"load process {idx} ended without figures: "
                                                                        f"{children.tail(f'{prefix}load-{idx}')}"]}
        if len(done) == procs:
            break
    cpu_after = server.cpu_seconds()
    lat = [x for d in done.values() for x in d.get("latencies_ms", [])]
    elapsed = max([d.get("elapsed", 0.0) for d in done.values()] + [1e-9])
    errors = sum(v for d in done.values() for k, v in (d.get("errors") or {}).items() if k != "stale")
    errors += sum(len(d.get("failures", [])) + d.get("refused", 0) for d in done.values())
    res[prefix + "load_games"] = sum(d.get("games", 0) for d in done.values())
    res[prefix + "load_games_completed"] = sum(d.get("games_over", 0) for d in done.values())
    res[prefix + "load_actions"] = sum(d.get("actions", 0) for d in done.values())
    res[prefix + "load_actions_per_s"] = round(res[prefix + "load_actions"] / elapsed, 1)
    res[prefix + "latency_ms_p50"] = round(_percentile(lat, 0.5), 2)
    res[prefix + "latency_ms_p99"] = round(_percentile(lat, 0.99), 2)
    res[prefix + "load_errors"] = errors
    res[prefix + "load_stale"] = sum((d.get("errors") or {}).get("stale", 0) for d in done.values())
    res[prefix + "server_rss_mb_before_load"] = round(rss_before / 1024, 1) if rss_before else None
    res[prefix + "server_rss_mb_peak_load"] = round(rss_peak / 1024, 1) if rss_peak else None
    res[prefix + "server_kb_per_game"] = (round((rss_peak - rss_before) / max(1, res[prefix + "load_games"]), 1)
                                 if rss_before and rss_peak else None)
    res[prefix + "server_cpu_share_load"] = (round((cpu_after - cpu_before) / elapsed, 2)
                                    if cpu_before is not None and cpu_after is not None else None)
    for d in done.values():
        problems += [f"{prefix}load: {f}" for f in d.get("failures", [])[:3]]
        unexpected = {k: v for k, v in (d.get("errors") or {}).items() if k != "stale"}
        if unexpected:
            problems.append(f"{prefix}load: errors {unexpected}")
        if d.get("refused"):
            problems.append(f"{prefix}load: the server refused {d['refused']} action(s) that the view said were legal")


async def compare_plain(a: Any, children: Any, plain_server: Any, res: dict[str, Any], problems: list[str]) -> None:
    """The same load against a ``ws://`` server; ``tls_cost_pct`` from the two throughputs."""
    await plain_server.start()
    try:
        await load(a, children, plain_server, res, problems, prefix="plain_")
    finally:
        status = await plain_server.stop()
    if status != 0:
        problems.append(f"the plain server did not end cleanly on SIGTERM (status {status})")
    wss, ws = res.get("load_actions_per_s"), res.get("plain_load_actions_per_s")
    res["tls_cost_pct"] = round(100.0 * (ws - wss) / ws, 1) if wss and ws else None
