"""One-line faults planted in the cross-process rematch and finished-game chat (issue 47,
net/sharing_rematch.py and its seams), each run against the test that should catch it.

    .venv/bin/python lab/h47_rematch_faults.py [NAME ...]

Needs PostgreSQL 15's binaries (the tests start their own server)."""
from __future__ import annotations

import sys

from part_faults import run

R, S, E, PG = ("gonzaga/net/sharing_rematch.py", "gonzaga/net/sharing.py", "gonzaga/net/endgame.py",
               "gonzaga/net/store_pg.py")
DIED, TWO, SAME, CHAT, ENDS = ("process_that_died", "players_on_two", "same_moment", "finished_games_chat",
                              "old_connection_ends")

FAULTS = [
    (PG, '" WHERE a.game_id = %s AND a.token_hash IS NOT NULL AND p.alive_until >= now()",',
     '" WHERE a.game_id = %s AND a.token_hash IS NOT NULL",', DIED),  # a dead process's ask counts
    (R, "self.store.keep_ask(gid, seat, True, token_hash(token), self.leases.process)  # before the read",
     "self.store.keep_ask(gid, seat, True, None, self.leases.process)", SAME),  # no hash written
    (R, "self.store.keep_ask(gid, None, False)  # done, under the lock: nobody begins it twice",
     "pass", SAME),  # the asks left standing under the lock
    (R, "        old.hand_over(new)\n", "        pass\n", TWO),  # spectators left behind
    (R, "            srv._joined(c, new, seat, token)\n", "            pass\n", TWO),  # nobody told
    (R, "if c is None or seat >= len(new.seats) or new.seats[seat].token_hash != token_hash(token):",
     "if c is None or seat >= len(new.seats) or new.seats[seat].token_hash == token_hash(token):", TWO),
    (S, 'elif kind == "q" and room.finished:', 'elif kind == "q" and False:', TWO),  # asks not shown
    (S, "                self.rematches.came_back(c)\n", "                pass\n", DIED),
    (S, "(room.follower and not (room.finished and _said(text)))", "room.follower", CHAT),
    (S, 'kind == "t" and (room.follower or (room.finished and _said(extra)))', 'kind == "t" and room.follower', CHAT),
    (E, "mine = room.rematch.minted.get(i)", "mine = None", TWO),  # the starter's own players left out
    (PG, '" AND (%s::text IS NULL OR process IS NULL OR process = %s)",',
     '" AND (%s::text IS NULL OR %s::text IS NOT NULL)",', ENDS),  # a withdrawal takes another's ask
]


def test_file(test: str) -> str:
    return "tests/test_store_sharing_kept.py" if test == CHAT else "tests/test_store_sharing_rematch.py"


if __name__ == "__main__":
    run(FAULTS, test_file, sys.argv[1:])
