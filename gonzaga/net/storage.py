"""Where the online server keeps its games (issue 14): a small ``GameStore`` interface and SQLite.

A game is its row (id, invite code, config JSON, seed, seats JSON with names, kinds, bots,
colours and token hashes, the host's seat, started, finished) and its actions (game id, index,
``Action.to_text()``). That is all a restarted server needs: it replays the actions.

``append_action`` is the only write on the path of play. It runs in one transaction and refuses
an index that is not the next one, so two writers can never interleave a game's record; the
server writes an accepted action before anyone is told of it. PostgreSQL implements the same
methods (``store_pg.PostgresStore``, issue 47); tests/test_store_contract.py holds both to them.

Each database's shape is a list of numbered scripts (``schema/sqlite/0001_*.sql``, ...), applied
in order at open inside one transaction (``schema_scripts``, ``pending_scripts``); a database
that a newer server has moved on is refused, not misread.

Nothing is ever rolled back quietly (issue 39): every commit is on disk before it returns (see
``SQLiteStore``), the acknowledged counts are kept beside the database (``acklog.py``), and a
start with a damaged, missing or read-only file, or with fewer actions than were acknowledged,
says so with the file's name and what was kept.
"""
from __future__ import annotations

import json
import logging
import os
import re
import shutil
import sqlite3
import sys
import threading
import time
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Optional, Union

from .acklog import ACKS_NAME, DELETED, AckLog, wal_frames

log = logging.getLogger(__name__)
DB_NAME = "gonzaga-server.sqlite3"


class StoreError(OSError):
    """The store cannot do what was asked (cannot be opened, a write failed, a bad index)."""


class LeaseLost(StoreError):
    """Another server process runs this game now (several processes on PostgreSQL): the action
    was not written; this process follows the game from now on (sharing.py)."""


class FolderInUse(StoreError):
    """Another server holds the data folder (its lock): the player is told so, by this type."""


@dataclass
class StoredGame:
    """One game as the store holds it."""

    id: str
    code: str
    config: dict[str, Any]  # GameConfig.to_json()
    seed: int
    seats: list[dict[str, Any]]  # name, kind ("human", "ai", "open"), colour, bot, token_hash
    host_seat: int = 0
    started: bool = False
    finished: bool = False
    actions: list[str] = field(default_factory=list)  # Action.to_text(), index 0 first


class GameStore(ABC):
    """What the server needs of a database."""

    @abstractmethod
    def create_game(self, game: StoredGame) -> None:
        """Store a new game (its ``actions`` are ignored: a new game has none)."""

    @abstractmethod
    def replace_seats(self, game_id: str, seats: list[dict[str, Any]]) -> None:
        """A seat was taken, opened or handed to an AI: store the whole seat list."""

    @abstractmethod
    def set_started(self, game_id: str) -> None:
        ...

    @abstractmethod
    def append_action(self, game_id: str, index: int, text: str) -> None:
        """Store action ``index`` of the game in one transaction; StoreError (nothing written)
        when ``index`` is not the number of actions already stored."""

    def append_actions(self, items: list[tuple[str, int, str]]) -> list[Optional[StoreError]]:
        """Store several actions (game id, index, text), in order; for each, None when it is
        stored or the StoreError that refused it (grouped commits, ``groupcommit.py``). Stores
        that can commit them together override this; raising refuses all of them."""
        out: list[Optional[StoreError]] = []
        for game_id, index, text in items:
            try:
                self.append_action(game_id, index, text)
                out.append(None)
            except StoreError as e:
                out.append(e)
        return out

    @abstractmethod
    def set_finished(self, game_id: str) -> None:
        ...

    @abstractmethod
    def load_games(self, finished: bool = True) -> list[StoredGame]:
        """Every game (only the unfinished ones when not ``finished``), with its actions in order."""

    @abstractmethod
    def load_game(self, game_id: str) -> Optional[StoredGame]:
        """One game, or None (a finished game the server let go of, wanted again by a resume)."""

    @abstractmethod
    def delete_game(self, game_id: str) -> None:
        """Forget a game (an expired lobby) and its actions."""

    def code_taken(self, code: str) -> bool:
        """Whether some stored game has this invite code (also one not in the server's memory)."""
        return False

    @abstractmethod
    def close(self) -> None:
        ...


# ---------------------------------------------------------------- schema versions (issue 47)

SCHEMA_DIR = Path(__file__).with_name("schema")
_SCRIPT_NAME = re.compile(r"(\d{4})_([a-z0-9_]+)\.sql")


@dataclass(frozen=True)
class SchemaScript:
    """One numbered step of a database's shape: ``schema/<dialect>/NNNN_name.sql``."""

    version: int
    name: str
    sql: str


def schema_scripts(dialect: str) -> list[SchemaScript]:
    """The scripts of ``dialect`` ("sqlite", "postgres") in order. They must be numbered 1, 2, 3...
    without a gap: a missing file would otherwise skip a step without a word."""
    folder = SCHEMA_DIR / dialect
    scripts = []
    try:
        files = sorted(f for f in folder.iterdir() if f.suffix == ".sql")
        for f in files:
            m = _SCRIPT_NAME.fullmatch(f.name)
            if m is None:
                raise StoreError(f"{f} is not named like NNNN_name.sql: the installation is damaged")
            scripts.append(SchemaScript(int(m.group(1)), m.group(2), f.read_text(encoding="utf-8")))
    except OSError as e:
        raise StoreError(f"cannot read the database scripts in {folder}: {_reason(e)}") from None
    if [s.version for s in scripts] != list(range(1, len(scripts) + 1)):
        raise StoreError(f"the database scripts in {folder} are not numbered 1, 2, 3... "
                         f"(found {[s.version for s in scripts]}): the installation is damaged")
    return scripts


def pending_scripts(found: int, scripts: list[SchemaScript], where: str) -> list[SchemaScript]:
    """The scripts a database at version ``found`` still needs; StoreError for one that a newer
    server has moved on (this one would misread it)."""
    latest = scripts[-1].version if scripts else 0
    if found > latest:
        raise StoreError(f"{where} was written by a newer server (schema {found}, this one knows up to "
                         f"{latest}); nothing was changed: run that server's version or a newer one")
    return [s for s in scripts if s.version > found]


def sql_statements(sql: str) -> list[str]:
    """A script cut into SQLite's statements (one ``execute`` each: ``executescript`` would commit
    the transaction the scripts run in); a trigger's body with its own semicolons stays whole."""
    out, part = [], ""
    for line in sql.splitlines(keepends=True):
        part += line
        if sqlite3.complete_statement(part):
            if part.strip():
                out.append(part.strip())
            part = ""
    tail = "\n".join(ln for ln in part.splitlines() if not ln.strip().startswith("--")).strip()
    if tail:
        raise StoreError(f"a database script ends inside a statement: {tail[:80]!r}")
    return out


class SQLiteStore(GameStore):
    """The games in one SQLite file (``DIR/gonzaga-server.sqlite3`` for ``serve --data DIR``).

    Durability, chosen so that an action is on disk before anyone is told of it:

    - ``journal_mode=WAL``: a commit appends to the ``-wal`` file (one sequential write) and a
      reader (a backup, a test) never blocks the server;
    - ``synchronous=FULL``: in WAL mode, FULL fsyncs the log at every commit (NORMAL would
      only at checkpoints, so a power cut could take back acknowledged actions);
    - ``fullfsync`` and ``checkpoint_fullfsync``: on macOS a plain fsync may stay in the
      drive's cache; these ask for F_FULLFSYNC (elsewhere they do nothing);
    - ``wal_autocheckpoint=1000`` pages (SQLite's default, written out so it is a decision):
      the log is copied into the database every ~4 MB, which keeps it, and the check of it at
      start, short; a checkpoint only moves what is already durable.

    At start: a read-only file is refused; the ``-wal`` file is checked frame by frame (and
    copied aside when damaged, before SQLite reads it); ``PRAGMA quick_check`` must pass; and
    every game must have at least the actions ``gonzaga-server.acks`` says were acknowledged,
    else StoreError says which file, which games, and that nothing was changed
    (``accept_loss=True`` goes on with what the database holds, keeping copies of the files).
    ``warnings`` lists what was found and reported but lost nothing.

    One connection, used by one thread at a time (the server's event loop), guarded by a lock.
    """

    def __init__(self, path: Union[str, Path], *, synchronous: str = "FULL", accept_loss: bool = False):
        self.path = Path(path)
        self._lock = threading.Lock()
        self.warnings: list[str] = []
        self.acks = AckLog(self.path.with_name(ACKS_NAME))
        self._check_files(accept_loss)
        try:
            if self.path.parent and not self.path.parent.exists():
                self.path.parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(str(self.path), timeout=5.0, isolation_level=None,
                                       check_same_thread=False)
        except (OSError, sqlite3.Error) as e:
            raise StoreError(f"cannot open the game database {self.path}: {_reason(e)}") from None
        try:
            mode = self._db.execute("PRAGMA journal_mode=WAL").fetchone()[0]
            if str(mode).lower() != "wal":
                raise StoreError(f"cannot use a write-ahead journal for {self.path} (got {mode})")
            if synchronous.upper() not in ("FULL", "NORMAL"):
                raise ValueError("synchronous must be FULL or NORMAL")
            self._db.execute(f"PRAGMA synchronous={synchronous.upper()}")
            self._db.execute("PRAGMA fullfsync=ON")
            self._db.execute("PRAGMA checkpoint_fullfsync=ON")
            self._db.execute("PRAGMA wal_autocheckpoint=1000")
            self._db.execute("PRAGMA foreign_keys=ON")
            self._init_schema()
            self._verify(accept_loss)
            self.acks.open()
        except StoreError:
            self._db.close()
            raise
        except (sqlite3.Error, OSError) as e:
            self._db.close()
            raise StoreError(f"cannot open the game database {self.path}: {_reason(e)}") from None

    # ------------------------------------------------------------ the checks at start

    def _check_files(self, accept_loss: bool) -> None:
        """Before SQLite touches anything: read-only files, and a damaged write-ahead log."""
        wal = self.path.with_name(self.path.name + "-wal")
        for f in (self.path, wal, self.path.with_name(self.path.name + "-shm"), self.acks.path):
            if f.exists() and not os.access(f, os.R_OK | os.W_OK):
                raise StoreError(f"{f} is read-only (or unreadable): the server must write every action there; "
                                 "nothing was changed: give the server's user write access to it")
        folder = self.path.parent
        if folder.exists() and not os.access(folder, os.W_OK | os.X_OK):
            raise StoreError(f"the data folder {folder} is read-only: the server must write its database there")
        _page, frames, damage = wal_frames(wal)
        if damage is not None:
            kept = self._keep_copy(wal, "damaged")
            self._wal_damage: Optional[str] = (f"the write-ahead log is damaged: {damage}; SQLite keeps the {frames} frames "
                                f"before the damage; a copy of the log as it was is kept as {kept}")
        else:
            self._wal_damage = None

    def _keep_copy(self, f: Path, why: str) -> Path:
        stamp = time.strftime("%Y%m%d-%H%M%S")
        dest = f.with_name(f"{f.name}.{why}-{stamp}")
        try:
            shutil.copy2(f, dest)
        except OSError as e:
            raise StoreError(f"{f} must be kept before the server goes on, and cannot be copied: {_reason(e)}") from None
        return dest

    def _verify(self, accept_loss: bool) -> None:
        """quick_check, then the database against what was acknowledged (see the class docstring)."""
        rows = self._db.execute("PRAGMA quick_check").fetchall()
        if [r[0] for r in rows] != ["ok"]:
            raise StoreError(f"the game database {self.path} is damaged ({str(rows[0][0])[:120]}); nothing was "
                             "changed: restore it from a backup (the damaged file is kept as it is)")
        have = dict(self._db.execute("SELECT g.id, COUNT(a.idx) FROM games g LEFT JOIN actions a"
                                     " ON a.game_id = g.id GROUP BY g.id").fetchall())
        acked, bad_lines = self.acks.read()
        if not self.acks.path.exists() and have:
            self.warnings.append(f"{self.acks.path} was missing: it is started again from the database's "
                                 f"{len(have)} games (a loss before now cannot be seen)")
        if bad_lines:
            self.warnings.append(f"{self.acks.path} has {bad_lines} damaged line(s): they are left out "
                                 f"(a copy is kept as {self._keep_copy(self.acks.path, 'damaged')})")
        lost = {g: (have.get(g), n) for g, n in acked.items() if have.get(g, -1) < n}
        if lost:
            examples = ", ".join(f"game {g}: {'missing' if h is None else f'{h} of {n} actions'}"
                                 for g, (h, n) in sorted(lost.items())[:3])
            where = self._wal_damage or (f"the write-ahead log {self.path.name}-wal is missing or was reset"
                                         if not self.path.with_name(self.path.name + "-wal").exists() else
                                         "the database is older than its acknowledgements (put back from a copy?)")
            what = (f"{len(lost)} game(s) in {self.path} have fewer actions than their players were told of "
                    f"({examples}); {where}")
            if not accept_loss:
                raise StoreError(f"{what}. Nothing was changed: restore the folder from a backup, or start with "
                                 "--accept-loss to go on with what the database holds")
            kept = [self._keep_copy(f, "before-accept-loss") for f in (self.path, self.acks.path) if f.exists()]
            self.warnings.append(f"{what}; going on with what the database holds (--accept-loss), copies kept: "
                                 + ", ".join(str(k) for k in kept))
        elif self._wal_damage:
            self.warnings.append(self._wal_damage + f"; no acknowledged action was lost (checked against {ACKS_NAME})")
        self.acks.rewrite(have)  # one line a game from here on (the file only grows between starts)
        for w in self.warnings:
            log.warning("%s", w)

    def _init_schema(self) -> None:
        """Apply the SQLite scripts this file has not had, in one transaction (all or none). The
        version is meta's 'schema_version' row, as servers before the scripts wrote it."""
        db = self._db
        db.execute("BEGIN IMMEDIATE")
        try:
            tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
            if tables and "meta" not in tables:
                raise StoreError(f"{self.path} is a database of something else (no schema version)")
            found = 0
            if tables:
                row = db.execute("SELECT value FROM meta WHERE key='schema_version'").fetchone()
                try:
                    found = int(row[0]) if row is not None else 0
                except ValueError:
                    raise StoreError(f"{self.path} has a bad schema version {row[0][:20]!r}") from None
            for script in pending_scripts(found, schema_scripts("sqlite"), str(self.path)):
                for stmt in sql_statements(script.sql):
                    db.execute(stmt)
                db.execute("INSERT OR REPLACE INTO meta(key, value) VALUES ('schema_version', ?)",
                           (str(script.version),))
                log.info("%s: schema script %04d_%s applied", self.path, script.version, script.name)
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise

    # ------------------------------------------------------------ writes

    def _write(self, what: str, fn: Callable[[sqlite3.Connection], None]) -> None:
        with self._lock:
            db = self._db
            try:
                db.execute("BEGIN IMMEDIATE")
                try:
                    fn(db)
                except BaseException:
                    db.execute("ROLLBACK")
                    raise
                db.execute("COMMIT")
            except StoreError:
                raise
            except sqlite3.Error as e:
                try:
                    if db.in_transaction:
                        db.execute("ROLLBACK")
                except sqlite3.Error:
                    pass
                raise StoreError(f"cannot {what} in {self.path}: {_reason(e)}") from None

    def _acknowledge(self, game_id: str, n: int) -> None:
        """After the commit, before anyone is told: the count goes to the acknowledgement log. The
        commit is durable already, so a failure here only weakens the check at the next start."""
        try:
            self.acks.record(game_id, n)
        except OSError as e:
            log.error("cannot write %s (the action itself is stored): %s", self.acks.path, _reason(e))

    def _acknowledge_many(self, counts: list[tuple[str, int]]) -> None:
        """A batch's counts, one line a game, one fsync (see ``_acknowledge``)."""
        try:
            self.acks.record_many(counts)
        except OSError as e:
            log.error("cannot write %s (the actions themselves are stored): %s", self.acks.path, _reason(e))

    def create_game(self, game: StoredGame) -> None:
        def fn(db: sqlite3.Connection) -> None:
            db.execute("INSERT INTO games(id, code, config, seed, seats, host_seat, started, finished, created)"
                       " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                       (game.id, game.code, json.dumps(game.config), game.seed, json.dumps(game.seats),
                        game.host_seat, int(game.started), int(game.finished), time.time()))
        self._write("store a new game", fn)
        self._acknowledge(game.id, 0)

    def delete_game(self, game_id: str) -> None:
        def fn(db: sqlite3.Connection) -> None:
            db.execute("DELETE FROM actions WHERE game_id = ?", (game_id,))
            db.execute("DELETE FROM games WHERE id = ?", (game_id,))
        self._write("delete a game", fn)
        self._acknowledge(game_id, DELETED)

    def code_taken(self, code: str) -> bool:
        with self._lock:
            try:
                return self._db.execute("SELECT 1 FROM games WHERE code = ?", (code,)).fetchone() is not None
            except sqlite3.Error:
                return True  # the create that follows fails with the store's own message

    def game_of_code(self, code: str) -> Optional[str]:
        """The id of the unfinished game with this invite code (one out of memory), or None."""
        with self._lock:
            try:
                row = self._db.execute("SELECT id FROM games WHERE code = ? AND NOT finished", (code,)).fetchone()
            except sqlite3.Error as e:
                raise StoreError(f"cannot look up an invite code in {self.path}: {e}") from None
        return None if row is None else str(row[0])

    def replace_seats(self, game_id: str, seats: list[dict[str, Any]]) -> None:
        self._update(game_id, "seats = ?", (json.dumps(seats),), "store the seats")

    def set_started(self, game_id: str) -> None:
        self._update(game_id, "started = 1", (), "mark a game started")

    def set_finished(self, game_id: str) -> None:
        self._update(game_id, "finished = 1", (), "mark a game finished")

    def _update(self, game_id: str, assign: str, params: tuple[Any, ...], what: str) -> None:
        def fn(db: sqlite3.Connection) -> None:
            cur = db.execute(f"UPDATE games SET {assign} WHERE id = ?", (*params, game_id))
            if cur.rowcount != 1:
                raise StoreError(f"cannot {what}: no game {game_id!r} in {self.path}")
        self._write(what, fn)

    def append_action(self, game_id: str, index: int, text: str) -> None:
        err = self.append_actions([(game_id, index, text)])[0]
        if err is not None:
            raise err

    def append_actions(self, items: list[tuple[str, int, str]]) -> list[Optional[StoreError]]:
        """The actions in one transaction (one WAL fsync), then one line a game in the
        acknowledgement log (one fsync). An action whose index is not its game's next is refused
        alone (and with it the later ones of its game); a failed commit raises: none was stored."""
        out: list[Optional[StoreError]] = [None] * len(items)
        counts: dict[str, int] = {}

        def fn(db: sqlite3.Connection) -> None:
            for k, (game_id, index, text) in enumerate(items):
                have = counts.get(game_id)
                if have is None:
                    if db.execute("SELECT 1 FROM games WHERE id = ?", (game_id,)).fetchone() is None:
                        out[k] = StoreError(f"cannot store an action: no game {game_id!r} in {self.path}")
                        continue
                    have = db.execute("SELECT COUNT(*) FROM actions WHERE game_id = ?", (game_id,)).fetchone()[0]
                    counts[game_id] = have
                if have != index:
                    out[k] = StoreError(f"game {game_id} has {have} actions stored: action {index} is not the next")
                    continue
                db.execute("INSERT INTO actions(game_id, idx, text) VALUES (?, ?, ?)", (game_id, index, text))
                counts[game_id] = index + 1
        self._write("store an action" if len(items) == 1 else f"store {len(items)} actions", fn)
        stored = {game_id for (game_id, _i, _t), e in zip(items, out) if e is None}
        self._acknowledge_many([(g, counts[g]) for g in stored])
        return out

    # ------------------------------------------------------------ reads

    def load_games(self, finished: bool = True) -> list[StoredGame]:
        return self._load("" if finished else " WHERE finished = 0", ())

    def load_game(self, game_id: str) -> Optional[StoredGame]:
        found = self._load(" WHERE id = ?", (game_id,))
        return found[0] if found else None

    def _load(self, where: str, params: tuple[Any, ...]) -> list[StoredGame]:
        with self._lock:
            try:
                rows = self._db.execute("SELECT id, code, config, seed, seats, host_seat, started, finished"
                                        f" FROM games{where} ORDER BY created, id", params).fetchall()
                acts: dict[str, list[str]] = {}
                for gid, _idx, text in self._db.execute(
                        "SELECT game_id, idx, text FROM actions WHERE game_id IN"
                        f" (SELECT id FROM games{where}) ORDER BY game_id, idx", params):
                    acts.setdefault(gid, []).append(text)
            except sqlite3.Error as e:
                raise StoreError(f"cannot read the games in {self.path}: {_reason(e)}") from None
        games = []
        for gid, code, config, seed, seats, host, started, finished in rows:
            try:
                games.append(StoredGame(gid, code, json.loads(config), int(seed), json.loads(seats), int(host),
                                        bool(started), bool(finished), acts.get(gid, [])))
            except (ValueError, TypeError):
                games.append(StoredGame(gid, code, {}, 0, [], 0, False, False, []))  # the server skips it
        return games

    def close(self) -> None:
        with self._lock:
            try:
                self._db.close()
            except sqlite3.Error:
                pass
            self.acks.close()


def _reason(e: BaseException) -> str:
    return str(e) or type(e).__name__


LOCK_NAME = "gonzaga-server.lock"


class FolderLock:
    """One server per data folder: two would each hold their own copy of the same games."""

    def __init__(self, folder: Path):
        self.path = folder / LOCK_NAME
        try:
            self._f = open(self.path, "a+b")
        except OSError as e:
            raise StoreError(f"cannot lock the data folder {folder}: {e.strerror or e}") from None
        try:
            if sys.platform == "win32":
                import msvcrt  # Windows only: this module must import on every system
                self._f.seek(0)
                msvcrt.locking(self._f.fileno(), msvcrt.LK_NBLCK, 1)
            else:
                import fcntl  # POSIX only: this module must import on every system
                fcntl.flock(self._f.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            self._f.close()
            raise FolderInUse(f"another server is using the data folder {folder}") from None

    def release(self) -> None:
        try:
            self._f.close()  # closing the file releases the lock
        except OSError:
            pass


class _LockedSQLiteStore(SQLiteStore):
    def __init__(self, path: Path, lock: FolderLock, accept_loss: bool = False):
        try:
            super().__init__(path, accept_loss=accept_loss)
        except BaseException:
            lock.release()
            raise
        self._folder_lock = lock

    def close(self) -> None:
        super().close()
        self._folder_lock.release()


def open_store(data_dir: Union[str, Path], accept_loss: bool = False) -> SQLiteStore:
    """The server's store in ``data_dir`` (created if needed), which it holds alone until closed;
    StoreError with the reason (see ``SQLiteStore`` for the checks at start)."""
    d = Path(data_dir)
    try:
        d.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise StoreError(f"cannot create the data folder {d}: {e.strerror or e}") from None
    if not d.is_dir():
        raise StoreError(f"the data folder {d} is not a folder")
    return _LockedSQLiteStore(d / DB_NAME, FolderLock(d), accept_loss)
