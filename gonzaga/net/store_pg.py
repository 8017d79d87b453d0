"""The server's games on PostgreSQL (issue 47): ``PostgresStore``, the same ``GameStore`` as
``SQLiteStore``, for a community server whose processes share one database.

Imported only when ``gonzaga serve --database postgresql://...`` is chosen: psycopg is in the
"server" extra, not in the desktop game (its package excludes it).

The promises are SQLite's:

- an action is durable before it is acknowledged: every write is its own committed transaction,
  and each connection sets ``synchronous_commit = on`` (a commit returns once the server has
  flushed its write-ahead log), whatever the database's default says;
- ``append_action`` refuses an index that is not the next one by the table's constraints, not by
  a read before the write: the primary key (game, index) lets an index be stored once, and a
  foreign key from (game, index - 1) lets it be stored only after the previous one. Two
  processes racing for the same index: one commits, the other gets the unique violation;
- a database that cannot be reached, or that refuses the password, is a StoreError naming it as
  ``user@host:port/db``, never with the password.

Connections come from a psycopg_pool ``ConnectionPool`` (at most ``max_size``, opened at need and
checked out per call). Each is checked as it is taken (an empty query: one round trip, p50
0.12 ms over loopback on the project's 2-core machine), so a connection the database dropped (a restart, an idle timeout, an
operator's pg_terminate_backend) is replaced before the call instead of failing it: an action
is not refused because the connection it was given had died meanwhile. The schema is brought up to date at open by the numbered scripts of
``schema/postgres`` (``storage.schema_scripts``), in one transaction under an advisory lock, so
several processes starting at once apply each script once.
"""
from __future__ import annotations

import logging
import time
from typing import Any, Callable, Optional, TypeVar

import psycopg
from psycopg import errors as pg_errors
from psycopg.conninfo import conninfo_to_dict
from psycopg.rows import TupleRow
from psycopg.types.json import Jsonb
from psycopg_pool import ConnectionPool, PoolTimeout

from .storage import GameStore, LeaseLost, StoredGame, StoreError, pending_scripts, schema_scripts

log = logging.getLogger(__name__)

CONNECT_TIMEOUT = 10  # seconds to reach the database (a name that does not answer, a firewall)
MIGRATION_LOCK = 4_700_047  # pg_advisory_xact_lock key: one process applies the schema scripts at a time
# an action of a game run under a lease (leases_pg.py): written only while the writer's epoch is
# the lease's, the lease row locked FOR SHARE meanwhile (a take-over's update waits for the
# commit), and told to the other processes by a notification sent at the commit
FENCED_APPEND = ("WITH lease AS (SELECT 1 FROM game_leases WHERE game_id = %s AND epoch = %s FOR SHARE),"
                 " ins AS (INSERT INTO actions(game_id, idx, text) SELECT %s, %s, %s FROM lease RETURNING idx)"
                 " SELECT pg_notify(%s, %s) FROM ins")
# grouped commits with several processes (``append_fenced``): the batch's games' lease rows,
# read and held FOR SHARE until the commit (a take-over waits for it)
FENCED_BATCH_LOCK = "SELECT game_id, epoch FROM game_leases WHERE game_id = ANY(%s) ORDER BY game_id FOR SHARE"
T = TypeVar("T")
Conn = psycopg.Connection[TupleRow]


def describe(url: str) -> str:
    """``user@host:port/dbname`` for messages: what the operator typed, less any password."""
    try:
        d = conninfo_to_dict(url)
    except psycopg.ProgrammingError:
        return "(an unreadable database address)"
    user = str(d.get("user") or "")
    host = d.get("host") or "localhost"
    port = d.get("port") or 5432
    db = d.get("dbname") or user
    return f"{user + '@' if user else ''}{host}:{port}/{db}"


def has_password(url: str) -> bool:
    """Whether the address itself carries a password (refused on the command line: ps shows it)."""
    try:
        return bool(conninfo_to_dict(url).get("password"))
    except psycopg.ProgrammingError:
        return False


class PostgresStore(GameStore):
    """The games in one PostgreSQL database (``postgresql://user@host:port/db``); the password
    from ``password``, else libpq's own ways (PGPASSWORD, ~/.pgpass)."""

    def __init__(self, url: str, *, password: Optional[str] = None, max_size: int = 4,
                 connect_timeout: float = CONNECT_TIMEOUT, application_name: str = "gonzaga-serve"):
        self.where = describe(url)
        self._url = url
        self.warnings: list[str] = []
        self._password = password
        kwargs: dict[str, Any] = {"autocommit": True, "connect_timeout": max(1, round(connect_timeout)),
                                  "application_name": application_name}
        if password is not None:
            kwargs["password"] = password
        self._kwargs = kwargs
        # several processes (leases_pg.GameLeases turns this on): an action is written only for a
        # game whose lease this process holds, at the epoch in ``fences``; a refused one's game id
        # goes to ``lost``; ``channel`` is where the other processes hear of it, ``process`` who wrote
        self.fencing = False
        self.fences: dict[str, int] = {}
        self.lost: set[str] = set()
        self.channel = ""
        self.process = ""
        try:
            # the first connection outside the pool: its failure says why (the pool would only time out)
            with psycopg.connect(url, **kwargs) as conn:
                self._configure(conn)
                self._migrate(conn)
        except psycopg.Error as e:
            raise StoreError(f"cannot open the game database {self.where}: {self._reason(e)}") from None
        self._pool: ConnectionPool[Conn] = ConnectionPool(
            url, kwargs=kwargs, min_size=1, max_size=max_size, open=False, configure=self._configure,
            check=ConnectionPool.check_connection, name="gonzaga-store", timeout=connect_timeout + 5)
        try:
            self._pool.open(wait=True, timeout=connect_timeout + 5)
        except PoolTimeout:
            self._pool.close()
            raise StoreError(f"cannot open the game database {self.where}: no connection within "
                             f"{connect_timeout + 5:.0f} s") from None

    @staticmethod
    def _configure(conn: Conn) -> None:
        conn.execute("SET synchronous_commit TO on")  # durable before acknowledged, whatever the default

    def _reason(self, e: BaseException) -> str:
        text = " ".join(str(e).split()) or type(e).__name__
        if self._password:
            text = text.replace(self._password, "***")
        return text

    # ------------------------------------------------------------ schema

    def _migrate(self, conn: Conn) -> None:
        """Apply the scripts this database has not had, in one transaction (all or none)."""
        scripts = schema_scripts("postgres")
        with conn.transaction():
            conn.execute("SELECT pg_advisory_xact_lock(%s)", (MIGRATION_LOCK,))
            has_version, has_games = conn.execute(
                "SELECT to_regclass('schema_version') IS NOT NULL, to_regclass('games') IS NOT NULL").fetchone() \
                or (False, False)
            if has_games and not has_version:
                raise StoreError(f"{self.where} has a 'games' table of something else (no schema version): "
                                 "nothing was changed; choose an empty database")
            found = 0
            if has_version:
                row = conn.execute("SELECT max(version) FROM schema_version").fetchone()
                found = int(row[0]) if row and row[0] is not None else 0
            for script in pending_scripts(found, scripts, self.where):
                conn.execute(script.sql.encode("utf-8"))  # no parameters: the script's statements run as one
                conn.execute("INSERT INTO schema_version(version, name) VALUES (%s, %s)",
                             (script.version, script.name))
                log.info("%s: schema script %04d_%s applied", self.where, script.version, script.name)

    # ------------------------------------------------------------ the calls

    def _call(self, what: str, fn: Callable[[Conn], T], transaction: bool = True) -> T:
        """``fn`` on a pooled connection inside one transaction (without: each statement its own,
        two round trips fewer for one statement); psycopg's errors as StoreError."""
        try:
            with self._pool.connection() as conn:
                if not transaction:
                    return fn(conn)
                with conn.transaction():
                    return fn(conn)
        except StoreError:
            raise
        except PoolTimeout:
            raise StoreError(f"cannot {what} in {self.where}: no database connection free or reachable") from None
        except psycopg.Error as e:
            raise StoreError(f"cannot {what} in {self.where}: {self._reason(e)}") from None

    def create_game(self, game: StoredGame) -> None:
        def fn(conn: Conn) -> None:
            conn.execute("INSERT INTO games(id, code, config, seed, seats, host_seat, started, finished)"
                         " VALUES (%s, %s, %s, %s, %s, %s, %s, %s)",
                         (game.id, game.code, Jsonb(game.config), game.seed, Jsonb(game.seats), game.host_seat,
                          game.started, game.finished))
        self._call("store a new game", fn)

    def delete_game(self, game_id: str) -> None:
        def fn(conn: Conn) -> None:
            conn.execute("DELETE FROM actions WHERE game_id = %s", (game_id,))
            conn.execute("DELETE FROM games WHERE id = %s", (game_id,))
        self._call("delete a game", fn)

    def code_taken(self, code: str) -> bool:
        try:
            return self._call("look up an invite code", lambda conn: conn.execute(
                "SELECT 1 FROM games WHERE code = %s", (code,)).fetchone() is not None)
        except StoreError:
            return True  # the create that follows fails with the store's own message

    def replace_seats(self, game_id: str, seats: list[dict[str, Any]]) -> None:
        self._update(game_id, "seats = %s", (Jsonb(seats),), "store the seats")

    def set_started(self, game_id: str) -> None:
        self._update(game_id, "started = true", (), "mark a game started")

    def set_finished(self, game_id: str) -> None:
        self._update(game_id, "finished = true", (), "mark a game finished")

    def _update(self, game_id: str, assign: str, params: tuple[Any, ...], what: str) -> None:
        def fn(conn: Conn) -> None:
            cur = conn.execute(f"UPDATE games SET {assign} WHERE id = %s", (*params, game_id))
            if cur.rowcount != 1:
                raise StoreError(f"cannot {what}: no game {game_id!r} in {self.where}")
        self._call(what, fn)

    def append_action(self, game_id: str, index: int, text: str) -> None:
        self._append(game_id, index, text, self.fences.get(game_id))

    def _append(self, game_id: str, index: int, text: str, epoch: Optional[int]) -> None:
        """One action in its own transaction; with fencing, only at ``epoch`` (the lease's)."""
        try:
            with self._pool.connection() as conn:
                if not self.fencing:
                    conn.execute("INSERT INTO actions(game_id, idx, text) VALUES (%s, %s, %s)", (game_id, index, text))
                    return  # autocommit: committed (and flushed: synchronous_commit) before this returns
                if epoch is not None:  # one statement: the lease's epoch checked, the action written, told
                    row = conn.execute(FENCED_APPEND, (game_id, epoch, game_id, index, text, self.channel,
                                                       news("a", game_id, index + 1, self.process))).fetchone()
                    if row is not None:
                        return
                raise self._lease_lost(game_id, index)
        except (pg_errors.UniqueViolation, pg_errors.ForeignKeyViolation, pg_errors.CheckViolation) as e:
            constraint = e.diag.constraint_name
        except PoolTimeout:
            raise StoreError(f"cannot store an action in {self.where}: no database connection free "
                             "or reachable") from None
        except psycopg.Error as e:
            # the connection may have died after the commit and before its answer: if the action is
            # there, exactly as sent, it was stored (and the record must not be told otherwise)
            if isinstance(e, psycopg.OperationalError) and self._stored_as(game_id, index, text):
                log.warning("%s: the answer to action %d of game %s was lost, the action is stored",
                            self.where, index, game_id)
                return
            raise StoreError(f"cannot store an action in {self.where}: {self._reason(e)}") from None
        if constraint == "actions_game_id_fkey":
            raise StoreError(f"cannot store an action: no game {game_id!r} in {self.where}")
        have = self._count(game_id)
        raise StoreError(f"game {game_id} has {have} actions stored: action {index} is not the next")

    def _lease_lost(self, game_id: str, index: int) -> LeaseLost:
        self.lost.add(game_id)
        return LeaseLost(f"game {game_id} is run by another process now (its lease was taken): "
                         f"action {index} was not stored")

    def append_fenced(self, items: list[tuple[str, int, str, Optional[int]]]) -> list[Optional[StoreError]]:
        """Grouped commits with several processes: the actions (game, index, text, the writer's
        epoch for that game when it was queued) in one transaction. Each game's lease row is read
        and held FOR SHARE inside it (a take-over waits for the commit, as with ``FENCED_APPEND``);
        a game whose epoch is not the lease's any more is refused alone (``LeaseLost``: nothing of
        it is written), the others commit together and each is told to the other processes once,
        at the commit. A refused transaction (an index that is not the next...) is tried again
        one action at a time, each still at its own epoch."""
        out: list[Optional[StoreError]] = [None] * len(items)

        def fn(conn: Conn) -> None:
            games = sorted({g for g, _, _, e in items if e is not None})
            held: dict[str, int] = dict(conn.execute(FENCED_BATCH_LOCK, (games,)).fetchall()) if games else {}
            keep: list[tuple[str, int, str]] = []
            counts: dict[str, int] = {}
            for k, (game_id, index, text, epoch) in enumerate(items):
                if epoch is None or held.get(game_id) != epoch:
                    out[k] = self._lease_lost(game_id, index)
                else:
                    keep.append((game_id, index, text))
                    counts[game_id] = index + 1
            if keep:
                with conn.cursor() as cur:
                    cur.executemany("INSERT INTO actions(game_id, idx, text) VALUES (%s, %s, %s)", keep)
                conn.execute("SELECT pg_notify(%s, x) FROM unnest(%s::text[]) AS x",
                             (self.channel, [news("a", g, n, self.process) for g, n in counts.items()]))
        try:
            with self._pool.connection() as conn:
                with conn.transaction():
                    fn(conn)
            return out
        except (psycopg.Error, PoolTimeout) as e:
            log.info("%s: a fenced batch of %d actions was refused (%s): stored one by one", self.where,
                     len(items), self._reason(e))
        result: list[Optional[StoreError]] = []
        for game_id, index, text, epoch in items:
            try:
                self._append(game_id, index, text, epoch)
                result.append(None)
            except StoreError as e:  # the batch's own commit may have landed before its answer was lost
                result.append(None if self._stored_as(game_id, index, text) else e)
        return result

    def append_actions(self, items: list[tuple[str, int, str]]) -> list[Optional[StoreError]]:
        """The actions in one transaction (one WAL flush for the batch: grouped commits). When it
        is refused (a constraint: an index that is not the next, a game that is gone; or an answer
        lost), each is tried alone, so exactly the ones that cannot be stored are refused."""
        if len(items) > 1:
            try:
                with self._pool.connection() as conn:
                    with conn.transaction():
                        with conn.cursor() as cur:
                            cur.executemany("INSERT INTO actions(game_id, idx, text) VALUES (%s, %s, %s)", items)
                return [None] * len(items)
            except (psycopg.Error, PoolTimeout) as e:
                log.info("%s: a batch of %d actions was refused (%s): stored one by one", self.where, len(items),
                         self._reason(e))
        out: list[Optional[StoreError]] = []
        for game_id, index, text in items:
            try:
                self.append_action(game_id, index, text)
                out.append(None)
            except StoreError as e:  # the batch's own commit may have landed before its answer was lost
                out.append(None if self._stored_as(game_id, index, text) else e)
        return out

    def _stored_as(self, game_id: str, index: int, text: str) -> bool:
        try:
            row = self._call("read an action", lambda conn: conn.execute(
                "SELECT text FROM actions WHERE game_id = %s AND idx = %s", (game_id, index)).fetchone())
        except StoreError:
            return False
        return row is not None and row[0] == text

    def _count(self, game_id: str) -> str:
        try:
            return str(self._call("count the actions", lambda conn: (conn.execute(
                "SELECT count(*) FROM actions WHERE game_id = %s", (game_id,)).fetchone() or (0,))[0]))
        except StoreError:
            return "an unknown number of"

    # ------------------------------------------------------------ reads

    def load_games(self, finished: bool = True) -> list[StoredGame]:
        return self._load("" if finished else " WHERE NOT finished", ())

    def load_game(self, game_id: str) -> Optional[StoredGame]:
        found = self._load(" WHERE id = %s", (game_id,))
        return found[0] if found else None

    def _load(self, where: str, params: tuple[Any, ...]) -> list[StoredGame]:
        def fn(conn: Conn) -> tuple[list[tuple[Any, ...]], dict[str, list[str]]]:
            rows = conn.execute("SELECT id, code, config, seed, seats, host_seat, started, finished"
                                f" FROM games{where} ORDER BY created, id", params).fetchall()
            acts: dict[str, list[str]] = {}
            for gid, text in conn.execute("SELECT game_id, text FROM actions WHERE game_id IN"
                                          f" (SELECT id FROM games{where}) ORDER BY game_id, idx", params):
                acts.setdefault(gid, []).append(text)
            return rows, acts
        started = time.monotonic()
        rows, acts = self._call("read the games", fn)
        log.debug("%d games read from %s in %.3f s", len(rows), self.where, time.monotonic() - started)
        games = []
        for gid, code, config, seed, seats, host, is_started, is_finished in rows:
            if isinstance(config, dict) and isinstance(seats, list):
                games.append(StoredGame(gid, code, config, int(seed), seats, int(host), bool(is_started),
                                        bool(is_finished), acts.get(gid, [])))
            else:
                games.append(StoredGame(gid, code, {}, 0, [], 0, False, False, []))  # the server skips it
        return games

    def load_actions(self, game_id: str, start: int) -> list[str]:
        """Actions ``start``, ``start + 1``... of a game, in order (what another process stored)."""
        return [t for (t,) in self._call("read the actions", lambda conn: conn.execute(
            "SELECT text FROM actions WHERE game_id = %s AND idx >= %s ORDER BY idx", (game_id, start)).fetchall(),
            transaction=False)]

    def game_of_code(self, code: str) -> Optional[str]:
        """The id of the game with this invite code (one another process created), or None."""
        row = self._call("look up an invite code", lambda conn: conn.execute(
            "SELECT id FROM games WHERE code = %s", (code,)).fetchone())
        return None if row is None else str(row[0])

    def counts(self, game_ids: list[str]) -> dict[str, int]:
        """How many actions each game has stored (games with none are left out)."""
        return dict(self._call("count the actions", lambda conn: conn.execute(
            "SELECT game_id, count(*) FROM actions WHERE game_id = ANY(%s) GROUP BY game_id",
            (game_ids,)).fetchall(), transaction=False))

    # ------------------------------------------------------------ what an owner keeps besides actions

    def keep_said(self, game_id: str, said: str, cap: int) -> None:
        """A chat line as it was told (``said``: the message's JSON text, its text cleaned
        before), kept with the game's latest ``cap`` lines; nothing for a game that is gone. One
        statement (one round trip on the writer thread): its delete sees the lines as they were
        before the insert, so it keeps the latest ``cap - 1`` of those."""
        self._call("keep a chat line", lambda conn: conn.execute(
            "WITH ins AS (INSERT INTO chat_kept(game_id, said) SELECT %s, %s WHERE EXISTS"
            " (SELECT 1 FROM games WHERE id = %s) RETURNING game_id)"
            " DELETE FROM chat_kept WHERE game_id IN (SELECT game_id FROM ins) AND seq NOT IN"
            " (SELECT seq FROM chat_kept WHERE game_id = %s ORDER BY seq DESC LIMIT %s)",
            (game_id, said, game_id, game_id, max(0, cap - 1))), transaction=False)

    def keep_ask(self, game_id: str, seat: Optional[int], asked: bool, minted: Optional[str] = None,
                 process: Optional[str] = None) -> None:
        """``seat`` asked for a rematch of a finished game (``asked``) or withdrew its ask; ``seat``
        None: every ask of the game is done (the rematch began). Across processes (sharing.py) an
        ask carries the hash of the token ``process`` made for the player's seat in the new game
        (``minted``), and a withdrawal by ``process`` takes back only an ask it made: the player
        may have come back through another process meanwhile, which made the ask its own."""
        def fn(conn: Conn) -> None:
            if asked and seat is not None:
                conn.execute("INSERT INTO rematch_asks(game_id, seat, token_hash, process) SELECT %s, %s, %s, %s"
                             " WHERE EXISTS (SELECT 1 FROM games WHERE id = %s) ON CONFLICT (game_id, seat) DO UPDATE"
                             " SET token_hash = coalesce(excluded.token_hash, rematch_asks.token_hash),"
                             " process = coalesce(excluded.process, rematch_asks.process)",
                             (game_id, seat, minted, process, game_id))
            elif seat is not None:
                conn.execute("DELETE FROM rematch_asks WHERE game_id = %s AND seat = %s"
                             " AND (%s::text IS NULL OR process IS NULL OR process = %s)",
                             (game_id, seat, process, process))
            else:
                conn.execute("DELETE FROM rematch_asks WHERE game_id = %s", (game_id,))
        self._call("keep a rematch ask", fn, transaction=False)

    def live_asks(self, game_id: str) -> dict[int, str]:
        """The rematch asks of ``game_id`` that count (sharing.py): each seat's token hash, for the
        asks made by a process still alive (by the database's clock, as the leases)."""
        rows = self._call("read the rematch asks", lambda conn: conn.execute(
            "SELECT a.seat, a.token_hash FROM rematch_asks a JOIN server_processes p ON p.process = a.process"
            " WHERE a.game_id = %s AND a.token_hash IS NOT NULL AND p.alive_until >= now()",
            (game_id,)).fetchall(), transaction=False)
        return {int(seat): str(h) for seat, h in rows}

    def kept(self, game_id: str, cap: int) -> tuple[list[str], set[int]]:
        """A game's latest ``cap`` chat lines kept (oldest first, each as it was told) and the
        seats whose rematch ask stands."""
        def fn(conn: Conn) -> tuple[list[str], set[int]]:
            lines = [str(t) for (t,) in conn.execute(
                "SELECT said FROM chat_kept WHERE game_id = %s ORDER BY seq DESC LIMIT %s", (game_id, cap))]
            asks = {int(s) for (s,) in conn.execute("SELECT seat FROM rematch_asks WHERE game_id = %s", (game_id,))}
            return lines[::-1], asks
        return self._call("read a game's chat and rematch asks", fn, transaction=False)

    def call(self, what: str, fn: Callable[[Conn], T], transaction: bool = True) -> T:
        """``fn`` on a pooled connection, in one transaction unless not ``transaction`` (the
        leases' statements)."""
        return self._call(what, fn, transaction)

    def connect(self, application_name: str) -> Conn:
        """A connection of its own, outside the pool (the listener for the other processes' news)."""
        return psycopg.connect(self._url, **{**self._kwargs, "application_name": application_name})

    def close(self) -> None:
        try:
            self._pool.close()
        except psycopg.Error:
            pass




def news(kind: str, game_id: str, n: int = 0, process: str = "", extra: str = "") -> str:
    """A notification's payload for the other processes (sharing.py reads it): kind, game, count,
    the process that sent it and a kind's own text, separated by spaces (none holds a space but
    ``extra``, which comes last)."""
    return f"{kind} {game_id} {n} {process or '-'} {extra}".rstrip()
