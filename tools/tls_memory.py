"""What one idle connection costs the server's memory over ``wss://`` and over ``ws://`` (issue 39).

    python tools/tls_memory.py [--connections N] [--rounds R]

Starts ``gonzaga serve --no-address-limits`` twice on fresh data folders (encrypted, then
``--no-tls``), opens N idle WebSocket connections to each (the encrypted ones pinned), waits for
the server's resident memory (Linux ``VmRSS``) to settle, and prints per server: the memory before
and with the connections, the KB each connection added, and the difference. ``--rounds`` repeats
the whole and prints each round (memory figures move with the allocator's state).

Why a TLS connection costs more: asyncio's TLS layer (``asyncio.sslproto.SSLProtocol``) gives
every connection its own 256 KiB read buffer (``max_size``), written through on creation, plus
OpenSSL's own state for the connection.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import shutil
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from gonzaga.net.check import Children, ServerProcess  # noqa: E402
from gonzaga.net.check_flood import raise_fd_limit  # noqa: E402
from gonzaga.net.invite import connect_pinned  # noqa: E402


async def _settled_rss(server: ServerProcess) -> int:
    """The server's VmRSS (KB) once two readings half a second apart agree within 1%."""
    last = server.rss_kb() or 0
    for _ in range(20):
        await asyncio.sleep(0.5)
        now = server.rss_kb() or 0
        if abs(now - last) <= last / 100:
            return now
        last = now
    return last


async def _one(folder: Path, tls: bool, n: int, name: str) -> dict:
    children = Children(folder)
    server = ServerProcess(children, folder / name, tls=tls, name=name)
    await server.start()
    conns: list = []
    try:
        before = await _settled_rss(server)
        gate = asyncio.Semaphore(50)

        async def open_one() -> None:
            async with gate:
                conns.append(await connect_pinned(server.url, open_timeout=30, ping_interval=None, close_timeout=1))

        await asyncio.gather(*(open_one() for _ in range(n)))
        during = await _settled_rss(server)
    finally:
        await asyncio.gather(*(c.close() for c in conns), return_exceptions=True)
        await server.stop()
        await children.kill_all()
    return {"connections": len(conns), "rss_mb_before": round(before / 1024, 1),
            "rss_mb_with_connections": round(during / 1024, 1),
            "kb_per_connection": round((during - before) / max(1, len(conns)), 1)}


async def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(prog="tools/tls_memory.py")
    p.add_argument("--connections", type=int, default=400)
    p.add_argument("--rounds", type=int, default=1)
    a = p.parse_args(argv)
    raise_fd_limit(2 * a.connections + 256)
    folder = Path(tempfile.mkdtemp(prefix="gonzaga-tlsmem-"))
    try:
        for r in range(a.rounds):
            wss = await _one(folder, True, a.connections, f"wss-{r}")
            ws = await _one(folder, False, a.connections, f"ws-{r}")
            print(json.dumps({"round": r + 1, "wss": wss, "ws": ws,
                              "tls_kb_per_connection": round(wss["kb_per_connection"] - ws["kb_per_connection"], 1)}))
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main(sys.argv[1:])))
