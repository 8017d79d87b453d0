"""Issue 47's first hole, measured: silent TCP connections from many loopback addresses (each
under its own per-address limit) against a ``gonzaga serve`` over wss://. How many the server
accepts and holds in a handshake, and its resident memory, after they are all opened.

    python lab/handshake_flood.py [--sockets 1000] [--addresses 125]

Linux only (127.0.0.0/8 answers on every address; /proc for the memory). An experiment, not a test.
"""
from __future__ import annotations

import argparse
import json
import re
import resource
import socket
import subprocess
import sys
import tempfile
import time


def rss_mb(pid: int) -> float:
    with open(f"/proc/{pid}/status", encoding="ascii") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--sockets", type=int, default=1000)
    p.add_argument("--addresses", type=int, default=125)
    a = p.parse_args()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, max(soft, a.sockets + 256)), hard))
    with tempfile.TemporaryDirectory() as data:
        server = subprocess.Popen([sys.executable, "-m", "gonzaga", "serve", "--port", "0", "--data", data,
                                   "--log-level", "warning"], stdout=subprocess.PIPE, text=True)
        try:
            line = server.stdout.readline()
            port = int(re.search(r":(\d+)", line.split("//", 1)[1]).group(1))
            before = rss_mb(server.pid)
            held, reset = [], 0
            t0 = time.monotonic()
            for i in range(a.sockets):
                source = f"127.0.{1 + i % a.addresses // 250}.{1 + i % a.addresses % 250}"
                try:
                    s = socket.create_connection(("127.0.0.1", port), timeout=5, source_address=(source, 0))
                    held.append(s)
                except OSError:
                    reset += 1
            time.sleep(1.0)  # the server has accepted (or reset) every one
            alive = 0
            for s in held:  # a reset connection reads as closed (or raises) at once
                s.setblocking(False)
                try:
                    s.recv(1)  # b"": closed by the server
                except BlockingIOError:
                    alive += 1  # still open, waiting in the handshake
                except OSError:
                    pass
            out = {"sockets": a.sockets, "addresses": a.addresses, "held_in_handshake": alive,
                   "reset_or_closed": a.sockets - alive, "open_seconds": round(time.monotonic() - t0, 2),
                   "server_rss_mb_before": round(before, 1), "server_rss_mb_after": round(rss_mb(server.pid), 1)}
            print(json.dumps(out))
            for s in held:
                s.close()
        finally:
            server.terminate()
            server.wait(10)
    return 0


if __name__ == "__main__":
    sys.exit(main())
