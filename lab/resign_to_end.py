"""Issue 45 (a test that stalled): both players of an online game resign at once and the AI
plays both seats to the end; does every client see the end? Runs N games on a fresh server
(random deals: the server's seeds), prints each one's outcome and where a stall stood.

    .venv/bin/python lab/resign_to_end.py 30
"""
from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from gonzaga.net import endgame  # noqa: E402
from gonzaga.net.serve import ServerThread  # noqa: E402
from test_net_client import pump, started  # noqa: E402


def main(games: int) -> int:
    endgame.RESIGN_LEVEL = "random"
    stalls = 0
    for g in range(games):
        with tempfile.TemporaryDirectory() as d:  # a server per game: a host may open only so many
            srv = ServerThread(Path(d) / "server", test_seeds=True, any_level=True).start()
            try:
                host, guest = started(srv, seed=7000 + g)
                t0 = time.monotonic()
                assert host.resign()
                assert pump([host, guest], lambda h=host: h.resigned(), 5000)
                assert guest.resign()
                ok = pump([host, guest], lambda h=host, g=guest: h.session.state.phase == "over"
                          and g.session.state.phase == "over", 20000)
                room = srv.server.rooms.get(host.game)
                where = "" if ok else (f" server: {room.table.state.round} {room.table.state.phase}"
                                       f" to act {list(room.table.state.to_act())} n {room.n};"
                                       f" host n {host.session.n} {host.session.state.phase};"
                                       f" guest n {guest.session.n} {guest.session.state.phase}")
                stalls += not ok
                print(f"game {g}: {'over' if ok else 'STALLED'} in {time.monotonic() - t0:.1f} s{where}", flush=True)
                host.close()
                guest.close()
            finally:
                srv.stop()
    print(f"{stalls} of {games} stalled")
    return 1 if stalls else 0


if __name__ == "__main__":
    sys.exit(main(int(sys.argv[1]) if len(sys.argv) > 1 else 20))
