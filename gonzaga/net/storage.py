"""Where the online server keeps its games (issue 14): a small ``GameStore`` interface and SQLite.

A game is its row (id, invite code, config JSON, seed, seats JSON with names, kinds, bots,
colours and token hashes, the host's seat, started, finished) and its actions (game id, index,
``Action.to_text()``). That is all a restarted server needs: it replays the actions.

``append_action`` is the only write on the path of play. It runs in one transaction and refuses
an index that is not the next one, so two writers can never interleave a game's record; the
server writes an accepted action before anyone is told of it. Another database (a server one)
would implement the same seven methods.
"""
from __future__ import annotations

import json
import sqlite3
import sys
import threading
import time
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional, Union

SCHEMA_VERSION = 1
DB_NAME = "gonzaga-server.sqlite3"


class StoreError(OSError):
    """The store cannot do what was asked (cannot be opened, a write failed, a bad index)."""


@dataclass
class StoredGame:
    """One game as the store holds it."""

    id: str
    code: str
    config: dict  # GameConfig.to_json()
    seed: int
    seats: list[dict]  # name, kind ("human", "ai", "open"), colour, bot, token_hash
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
    def replace_seats(self, game_id: str, seats: list[dict]) -> None:
        """A seat was taken, opened or handed to an AI: store the whole seat list."""

    @abstractmethod
    def set_started(self, game_id: str) -> None:
        ...

    @abstractmethod
    def append_action(self, game_id: str, index: int, text: str) -> None:
        """Store action ``index`` of the game in one transaction; StoreError (nothing written)
        when ``index`` is not the number of actions already stored."""

    @abstractmethod
    def set_finished(self, game_id: str) -> None:
        ...

    @abstractmethod
    def load_games(self) -> list[StoredGame]:
        """Every game, unfinished and finished, with its actions in order."""

    @abstractmethod
    def close(self) -> None:
        ...


_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    code TEXT NOT NULL UNIQUE,
    config TEXT NOT NULL,
    seed INTEGER NOT NULL,
    seats TEXT NOT NULL,
    host_seat INTEGER NOT NULL DEFAULT 0,
    started INTEGER NOT NULL DEFAULT 0,
    finished INTEGER NOT NULL DEFAULT 0,
    created REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS actions (
    game_id TEXT NOT NULL REFERENCES games(id),
    idx INTEGER NOT NULL,
    text TEXT NOT NULL,
    PRIMARY KEY (game_id, idx)
) WITHOUT ROWID;
"""


class SQLiteStore(GameStore):
    """The games in one SQLite file (``DIR/gonzaga-server.sqlite3`` for ``serve --data DIR``).

    WAL journal, so a reader (a test, a backup) never blocks the server; ``synchronous=FULL``,
    so an action the server has told anyone about survives a crash of the machine too. One
    connection, used by one thread at a time (the server's event loop), guarded by a lock.
    """

    def __init__(self, path: Union[str, Path], *, synchronous: str = "FULL"):
        self.path = Path(path)
        self._lock = threading.Lock()
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
            self._db.execute("PRAGMA foreign_keys=ON")
            self._init_schema()
        except StoreError:
            self._db.close()
            raise
        except sqlite3.Error as e:
            self._db.close()
            raise StoreError(f"cannot open the game database {self.path}: {_reason(e)}") from None

    def _init_schema(self) -> None:
        db = self._db
        db.execute("BEGIN IMMEDIATE")
        try:
            tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
            if tables and "meta" not in tables:
                raise StoreError(f"{self.path} is a database of something else (no schema version)")
            for stmt in _SCHEMA.split(";"):
                if stmt.strip():
                    db.execute(stmt)
            row = db.execute("SELECT value FROM meta WHERE key='schema_version'").fetchone()
            if row is None:
                db.execute("INSERT INTO meta(key, value) VALUES ('schema_version', ?)", (str(SCHEMA_VERSION),))
            else:
                try:
                    found = int(row[0])
                except ValueError:
                    raise StoreError(f"{self.path} has a bad schema version {row[0][:20]!r}") from None
                if found > SCHEMA_VERSION:
                    raise StoreError(f"{self.path} was written by a newer server (schema {found}, "
                                     f"this one reads {SCHEMA_VERSION})")
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise

    # ------------------------------------------------------------ writes

    def _write(self, what: str, fn) -> None:
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

    def create_game(self, game: StoredGame) -> None:
        def fn(db):
            db.execute("INSERT INTO games(id, code, config, seed, seats, host_seat, started, finished, created)"
                       " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                       (game.id, game.code, json.dumps(game.config), game.seed, json.dumps(game.seats),
                        game.host_seat, int(game.started), int(game.finished), time.time()))
        self._write("store a new game", fn)

    def replace_seats(self, game_id: str, seats: list[dict]) -> None:
        self._update(game_id, "seats = ?", (json.dumps(seats),), "store the seats")

    def set_started(self, game_id: str) -> None:
        self._update(game_id, "started = 1", (), "mark a game started")

    def set_finished(self, game_id: str) -> None:
        self._update(game_id, "finished = 1", (), "mark a game finished")

    def _update(self, game_id: str, assign: str, params: tuple, what: str) -> None:
        def fn(db):
            cur = db.execute(f"UPDATE games SET {assign} WHERE id = ?", (*params, game_id))
            if cur.rowcount != 1:
                raise StoreError(f"cannot {what}: no game {game_id!r} in {self.path}")
        self._write(what, fn)

    def append_action(self, game_id: str, index: int, text: str) -> None:
        def fn(db):
            have = db.execute("SELECT COUNT(*) FROM actions WHERE game_id = ?", (game_id,)).fetchone()[0]
            if have != index:
                raise StoreError(f"game {game_id} has {have} actions stored: action {index} is not the next")
            if db.execute("SELECT 1 FROM games WHERE id = ?", (game_id,)).fetchone() is None:
                raise StoreError(f"cannot store an action: no game {game_id!r} in {self.path}")
            db.execute("INSERT INTO actions(game_id, idx, text) VALUES (?, ?, ?)", (game_id, index, text))
        self._write("store an action", fn)

    # ------------------------------------------------------------ reads

    def load_games(self) -> list[StoredGame]:
        with self._lock:
            try:
                rows = self._db.execute("SELECT id, code, config, seed, seats, host_seat, started, finished"
                                        " FROM games ORDER BY created, id").fetchall()
                acts: dict[str, list[str]] = {}
                for gid, idx, text in self._db.execute("SELECT game_id, idx, text FROM actions"
                                                       " ORDER BY game_id, idx"):
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

    def load_game(self, game_id: str) -> Optional[StoredGame]:
        """One game (for tests and tools)."""
        return next((g for g in self.load_games() if g.id == game_id), None)

    def close(self) -> None:
        with self._lock:
            try:
                self._db.close()
            except sqlite3.Error:
                pass


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
                import msvcrt
                self._f.seek(0)
                msvcrt.locking(self._f.fileno(), msvcrt.LK_NBLCK, 1)
            else:
                import fcntl
                fcntl.flock(self._f.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            self._f.close()
            raise StoreError(f"another server is using the data folder {folder}") from None

    def release(self) -> None:
        try:
            self._f.close()  # closing the file releases the lock
        except OSError:
            pass


class _LockedSQLiteStore(SQLiteStore):
    def __init__(self, path: Path, lock: FolderLock):
        try:
            super().__init__(path)
        except BaseException:
            lock.release()
            raise
        self._folder_lock = lock

    def close(self) -> None:
        super().close()
        self._folder_lock.release()


def open_store(data_dir: Union[str, Path]) -> SQLiteStore:
    """The server's store in ``data_dir`` (created if needed), which it holds alone until closed;
    StoreError with the reason."""
    d = Path(data_dir)
    try:
        d.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise StoreError(f"cannot create the data folder {d}: {e.strerror or e}") from None
    if not d.is_dir():
        raise StoreError(f"the data folder {d} is not a folder")
    return _LockedSQLiteStore(d / DB_NAME, FolderLock(d))
