"""Several ``gonzaga serve`` processes on one PostgreSQL database (issue 47): which process runs
each game (``GameLeases``) and how the processes hear of each other's changes (``Listener``).
The server's side of it, which knows nothing of SQL, is ``sharing.py``.

**A lease row per game, not an advisory lock.** A session advisory lock is let go of only when
its connection ends; a process that is paused (SIGSTOP, a VM frozen, a long GC or swap storm)
keeps its socket, the kernel answers the keepalives, and its games would be stuck for as long
as it sleeps, then be written by it again when it wakes. A lease (game, owner, epoch, expiry by
the database's clock) lapses on its own: ``LEASE_SECONDS`` after the owner's last renewal
another process takes the game, adding one to the epoch. **Fencing**: every action is written
by one statement that checks the writer's epoch against the row, holding it FOR SHARE until the
commit (``store_pg.FENCED_APPEND``); a take-over's update waits for that lock, so once it has
committed no write of the older epoch can commit. A paused owner that wakes up is refused at
its first write (``LeaseLost``) and at its next renewal, and follows the game from then on.
The expiry uses only the database's clock (``now()``), so the processes' clocks need not agree.

**Updates by LISTEN/NOTIFY, not routing.** Every process serves every player (a proxy in front
may send a player anywhere, and a reconnect after a failover lands on another process): routing
would need each process's address and a second hop for every message. A notification is sent
by the write's own statement at its commit, with the game id and the new count only (payloads
are small and a seat's view never passes through the database); the listeners read the new
actions from the store, so a missed or merged notification loses nothing (and a periodic check
of the counts, ``sharing.CHECK_SECONDS``, catches up after a listener's reconnect).
"""
from __future__ import annotations

import hashlib
import logging
import os
import secrets
import socket
import threading
from typing import Callable, Optional, TypeVar

import psycopg

from .store_pg import PostgresStore, news

log = logging.getLogger(__name__)

LEASE_SECONDS = 5.0  # a lease lapses this long after its owner's last renewal (renewed every second)
LISTEN_RETRY = 1.0  # seconds between two tries to connect the listener again
T = TypeVar("T")


def process_id() -> str:
    """This process's name in the leases: host, pid and a random part (a pid is reused)."""
    return f"{socket.gethostname()[:40]}:{os.getpid()}:{secrets.token_hex(4)}"


class GameLeases:
    """The leases of one process over a ``PostgresStore`` (its ``fences`` kept up to date here)."""

    def __init__(self, store: PostgresStore, process: Optional[str] = None, seconds: float = LEASE_SECONDS):
        self.store = store
        self.process = process or process_id()
        self.seconds = seconds
        schema = store.call("read the schema", lambda c: (c.execute("SELECT current_schema()").fetchone() or ("",))[0])
        # a channel per schema: two deployments in one database do not hear each other
        self.channel = "gonzaga_" + hashlib.sha256(str(schema).encode()).hexdigest()[:16]
        store.fencing, store.channel, store.process = True, self.channel, self.process

    def _ttl(self) -> str:
        return f"{float(self.seconds)} seconds"

    def take(self, game_id: str, why: str = "take") -> int:
        """This process runs ``game_id`` from now on, whoever ran it (their next write is refused):
        the new epoch. The others are told (``l``) so that the former owner stops at once."""
        def fn(c: psycopg.Connection) -> int:
            row = c.execute(
                "INSERT INTO game_leases(game_id, owner, epoch, expires) VALUES (%s, %s, 1, now() + %s::interval)"
                " ON CONFLICT (game_id) DO UPDATE SET owner = excluded.owner, epoch = game_leases.epoch + 1,"
                " expires = excluded.expires RETURNING epoch", (game_id, self.process, self._ttl())).fetchone()
            c.execute("SELECT pg_notify(%s, %s)", (self.channel, news("l", game_id, 0, self.process, why)))
            return int(row[0]) if row else 0
        epoch = self.store.call("take a game's lease", fn)
        self.store.fences[game_id] = epoch
        self.store.lost.discard(game_id)
        return epoch

    def take_lapsed(self, game_id: str) -> Optional[int]:
        """``game_id``'s lease if it has lapsed (or there is none): the new epoch; None while
        another process holds it (read first: the usual answer, without taking the row's lock)."""
        def fn(c: psycopg.Connection) -> Optional[int]:
            held = c.execute("SELECT expires >= now() FROM game_leases WHERE game_id = %s", (game_id,)).fetchone()
            if held is not None and held[0]:
                return None
            row = c.execute(
                "INSERT INTO game_leases(game_id, owner, epoch, expires) VALUES (%s, %s, 1, now() + %s::interval)"
                " ON CONFLICT (game_id) DO UPDATE SET owner = excluded.owner, epoch = game_leases.epoch + 1,"
                " expires = excluded.expires WHERE game_leases.expires < now() RETURNING epoch",
                (game_id, self.process, self._ttl())).fetchone()
            if row is not None:
                c.execute("SELECT pg_notify(%s, %s)", (self.channel, news("l", game_id, 0, self.process, "lapsed")))
            return None if row is None else int(row[0])
        epoch = self.store.call("take a lapsed lease", fn)
        if epoch is not None:
            self.store.fences[game_id] = epoch
            self.store.lost.discard(game_id)
        return epoch

    def renew(self) -> set[str]:
        """Renew every lease still this process's; the games it runs (any other it had is lost)."""
        rows = self.store.call("renew the leases", lambda c: c.execute(
            "UPDATE game_leases SET expires = now() + %s::interval WHERE owner = %s RETURNING game_id, epoch",
            (self._ttl(), self.process)).fetchall(), transaction=False)
        mine = {str(g): int(e) for g, e in rows}
        for gid in [g for g, e in self.store.fences.items() if mine.get(g) != e]:
            del self.store.fences[gid]
            self.store.lost.add(gid)
        return {g for g in mine if self.store.fences.get(g) == mine[g]}

    def claim_lapsed(self, limit: int = 20) -> dict[str, int]:
        """Take over up to ``limit`` unfinished games whose lease has lapsed (their process died or
        sleeps), or that have none (stored before leases, or by a process that died before its
        first renewal): {game id: epoch}. SKIP LOCKED: processes claiming at once split them."""
        def fn(c: psycopg.Connection) -> list[tuple[str, int]]:
            got = c.execute(
                "INSERT INTO game_leases(game_id, owner, epoch, expires)"
                " SELECT g.id, %s, 1, now() + %s::interval FROM games g"
                " WHERE NOT g.finished AND NOT EXISTS (SELECT 1 FROM game_leases l WHERE l.game_id = g.id)"
                " ORDER BY g.created LIMIT %s ON CONFLICT (game_id) DO NOTHING RETURNING game_id, epoch",
                (self.process, self._ttl(), limit)).fetchall()
            got += c.execute(
                "WITH lapsed AS (SELECT l.game_id FROM game_leases l JOIN games g ON g.id = l.game_id"
                " WHERE l.expires < now() AND NOT g.finished ORDER BY l.expires LIMIT %s FOR UPDATE OF l SKIP LOCKED)"
                " UPDATE game_leases l SET owner = %s, epoch = l.epoch + 1, expires = now() + %s::interval"
                " FROM lapsed WHERE l.game_id = lapsed.game_id RETURNING l.game_id, l.epoch",
                (limit, self.process, self._ttl())).fetchall()
            for gid, _ in got:
                c.execute("SELECT pg_notify(%s, %s)", (self.channel, news("l", gid, 0, self.process, "lapsed")))
            return got
        got = {str(g): int(e) for g, e in self.store.call("take over lapsed games", fn)}
        for gid, epoch in got.items():
            self.store.fences[gid] = epoch
            self.store.lost.discard(gid)
        return got

    def drop(self, game_id: str) -> None:
        """A finished game needs no lease (nothing more is written to it)."""
        self.store.call("let go of a finished game's lease", lambda c: c.execute(
            "DELETE FROM game_leases WHERE game_id = %s AND owner = %s", (game_id, self.process)))
        self.store.fences.pop(game_id, None)

    def release(self) -> None:
        """A clean stop: every lease of this process lapses now, for the others to take at once,
        and it holds no seat's connection any more."""
        self.store.fences.clear()

        def fn(c: psycopg.Connection) -> None:
            c.execute("UPDATE game_leases SET expires = now() - interval '1 second' WHERE owner = %s", (self.process,))
            c.execute("DELETE FROM seat_presence WHERE process = %s", (self.process,))
            c.execute("DELETE FROM server_processes WHERE process = %s", (self.process,))
        try:
            self.store.call("let go of the leases", fn)
        except psycopg.Error as e:  # they lapse by themselves
            log.warning("the leases could not be let go of: %s", e)
        except OSError as e:
            log.warning("the leases could not be let go of: %s", e)

    def beat(self, gone: set[tuple[str, int]], come: set[tuple[str, int]]) -> None:
        """This process is alive (for ``LEASE_SECONDS``), no longer holds the seats ``gone``' and
        holds ``come``'s connections (game, seat): one transaction, every second (``sharing.tick``)."""
        def fn(c: psycopg.Connection) -> None:
            c.execute("INSERT INTO server_processes(process, alive_until) VALUES (%s, now() + %s::interval)"
                      " ON CONFLICT (process) DO UPDATE SET alive_until = excluded.alive_until",
                      (self.process, self._ttl()))
            if gone:
                c.execute("DELETE FROM seat_presence WHERE process = %s AND (game_id, seat) IN"
                          " (SELECT * FROM unnest(%s::text[], %s::int[]))",
                          (self.process, [g for g, _ in gone], [s for _, s in gone]))
            if come:
                c.execute("INSERT INTO seat_presence(game_id, seat, process) SELECT g, s, %s FROM"
                          " unnest(%s::text[], %s::int[]) AS x(g, s) WHERE EXISTS (SELECT 1 FROM games WHERE id = g)"
                          " ON CONFLICT DO NOTHING", (self.process, [g for g, _ in come], [s for _, s in come]))
        self.store.call("say which seats this process holds", fn, transaction=bool(gone or come))

    def held_elsewhere(self, game_ids: list[str]) -> dict[str, set[int]]:
        """The seats of these games whose connection another live process holds."""
        rows = self.store.call("read where the players are", lambda c: c.execute(
            "SELECT p.game_id, p.seat FROM seat_presence p JOIN server_processes s ON s.process = p.process"
            " WHERE p.game_id = ANY(%s) AND p.process <> %s AND s.alive_until >= now()",
            (game_ids, self.process)).fetchall(), transaction=False)
        out: dict[str, set[int]] = {}
        for gid, seat in rows:
            out.setdefault(str(gid), set()).add(int(seat))
        return out

    def keep_clocks(self, game_id: str, told: str) -> None:
        """A live game's turn clocks as its owner just told them (a ``clocks`` message)."""
        self.store.call("keep a game's clocks", lambda c: c.execute(
            "INSERT INTO game_clocks(game_id, told, at) SELECT %s, %s, now() WHERE EXISTS"
            " (SELECT 1 FROM games WHERE id = %s) ON CONFLICT (game_id) DO UPDATE SET told = excluded.told,"
            " at = excluded.at", (game_id, told, game_id)), transaction=False)

    def clocks_of(self, game_id: str) -> Optional[tuple[str, float]]:
        """The clocks last kept for ``game_id`` and how many seconds ago (None: none kept)."""
        row = self.store.call("read a game's clocks", lambda c: c.execute(
            "SELECT told, extract(epoch FROM now() - at) FROM game_clocks WHERE game_id = %s",
            (game_id,)).fetchone(), transaction=False)
        return None if row is None else (str(row[0]), max(0.0, float(row[1])))

    def waiting_tables(self, limit: int = 50) -> list[str]:
        """The listed tables waiting for players, as stored (any process's), oldest first."""
        return [str(g) for (g,) in self.store.call("read the open tables", lambda c: c.execute(
            "SELECT id FROM games WHERE NOT started AND NOT finished AND config->'online'->>'listed' = 'true'"
            " AND seats @> '[{\"kind\": \"open\"}]'::jsonb ORDER BY created, id LIMIT %s", (limit,)).fetchall(),
            transaction=False)]

    def exclusive(self, key: int, fn: Callable[[], T]) -> T:
        """``fn`` while this process holds the database's advisory lock ``key`` (one process at a
        time: the lock is the transaction's, let go of at its end, whatever ``fn`` raises)."""
        def run(c: psycopg.Connection) -> T:
            c.execute("SELECT pg_advisory_xact_lock(%s)", (key,))
            return fn()
        return self.store.call("wait for the other processes", run)

    def tell(self, kind: str, game_id: str, n: int = 0, extra: str = "") -> None:
        """A notification to the other processes (their listeners; ``sharing.py`` reads it)."""
        payload = news(kind, game_id, n, self.process, extra)
        if len(payload.encode("utf-8")) > 7900:  # PostgreSQL's limit is 8000 bytes
            log.warning("game %s: a %s notification of %d bytes is too long to pass on", game_id, kind, len(payload))
            return
        self.store.call("tell the other processes", lambda c: c.execute(
            "SELECT pg_notify(%s, %s)", (self.channel, payload)), transaction=False)


class Listener:
    """LISTEN on the leases' channel in a thread of its own; each payload to ``on_news`` (called in
    that thread: it hands it to the event loop). After a reconnect, ``on_gap`` (news may have been
    missed meanwhile: the server checks its games' counts)."""

    def __init__(self, store: PostgresStore, channel: str, on_news: Callable[[str], None],
                 on_gap: Callable[[], None]):
        self.store, self.channel = store, channel
        self.on_news, self.on_gap = on_news, on_gap
        self._stop = threading.Event()
        self._conn: Optional[psycopg.Connection] = None
        self.ready = threading.Event()
        self._thread = threading.Thread(target=self._run, name="gonzaga-listen", daemon=True)

    def start(self, timeout: float = 10.0) -> "Listener":
        self._thread.start()
        self.ready.wait(timeout)
        return self

    def _run(self) -> None:
        first = True
        while not self._stop.is_set():
            try:
                with self.store.connect("gonzaga-serve (listen)") as conn:
                    self._conn = conn
                    conn.execute(f'LISTEN "{self.channel}"')
                    if not first:
                        self.on_gap()
                    first = False
                    self.ready.set()
                    while not self._stop.is_set():
                        for n in conn.notifies(timeout=0.5):
                            self.on_news(n.payload)
            except psycopg.Error as e:
                if self._stop.is_set():
                    return
                log.warning("the listener for the other processes' news lost its connection: %s", e)
                self._stop.wait(LISTEN_RETRY)
            finally:
                self._conn = None

    def backend(self) -> Optional[int]:
        """The database's process id of the listening connection (None while it reconnects)."""
        conn = self._conn
        try:
            return None if conn is None or conn.closed else int(conn.info.backend_pid)
        except psycopg.Error:
            return None

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(3.0)
