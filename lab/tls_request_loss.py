"""How often a wss:// connection from websockets' sync client (the desktop game's) to our server
loses its request: client threads, each from its own loopback address, open and close
connections; a lost request shows as a handshake that fails after the server's 10 s.

    python lab/tls_request_loss.py --connections 2000 --threads 4 [--tickets 2]

``--tickets N`` makes the server send N TLS 1.3 session tickets (OpenSSL's default is 2; the
game's server sends 0). Run it on a loaded machine (e.g. two busy loops) to see the loss.
"""
from __future__ import annotations

import argparse
import sys
import tempfile
import threading
import time
from pathlib import Path

from websockets.sync.client import connect

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from gonzaga.net import protocol as P  # noqa: E402
from gonzaga.net import serve as serve_mod  # noqa: E402
from gonzaga.net import tls  # noqa: E402
from gonzaga.net.invite import split_pin  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--connections", type=int, default=2000, help="per thread")
    ap.add_argument("--threads", type=int, default=4)
    ap.add_argument("--tickets", type=int, default=0, help="session tickets the server sends")
    a = ap.parse_args()
    own_context = tls.server_context

    def context(cert, key):
        ctx = own_context(cert, key)
        ctx.num_tickets = a.tickets
        return ctx

    tls.server_context = context  # what TlsFiles.context calls
    base = tempfile.mkdtemp()
    srv = serve_mod.ServerThread(f"{base}/server", tls=serve_mod.TlsFiles.own(f"{base}/tls")).start()
    url, pin = split_pin(srv.url)
    failed: list[str] = []

    def run(k: int) -> None:
        for _ in range(a.connections):
            try:
                with connect(url, open_timeout=20, max_size=P.MAX_SERVER_BYTES, ssl=tls.client_context(pin),
                             proxy=None, source_address=(f"127.0.0.{k + 2}", 0)):
                    pass
            except Exception as e:  # what failed is the figure
                failed.append(repr(e))

    start = time.monotonic()
    threads = [threading.Thread(target=run, args=(k,)) for k in range(a.threads)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    srv.stop()
    total = a.connections * a.threads
    print(f"tickets {a.tickets}: {len(failed)} of {total} connections failed "
          f"({time.monotonic() - start:.1f} s){': ' + failed[0] if failed else ''}")


if __name__ == "__main__":
    main()
