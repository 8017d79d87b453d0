"""Where a community server keeps its accounts (issue 47): the ``AccountStore`` interface and
SQLite (``SQLiteAccountStore``), in its own file beside the games' database
(``DATA/gonzaga-accounts.sqlite3``), so the games' store and its schema scripts stay apart and
a PostgreSQL implementation can be added beside this one.

What is kept: each account (its name as chosen, its folded name, unique: ``accounts.fold``, the
password's scrypt hash with its parameters, whether it is banned, its wrong passwords in a row
and when the last one was); each session (the SHA-256 of its token, never the token, the
account, the device's label, when it was made and last used); the digests of the device keys
that signed in to an account (``accounts.py``: they are never slowed down by a guesser); and
which seat tokens (their SHA-256, as the games' store keeps them) are bound to which account.

Times are seconds since the epoch (``time.time``), given by the caller. The server calls it on
its event loop; ``gonzaga accounts`` (the operator's commands) opens the same file while the
server runs: SQLite's WAL and a busy timeout let both write.
"""
from __future__ import annotations

import sqlite3
from abc import ABC, abstractmethod
from dataclasses import dataclass
from pathlib import Path
from typing import Optional, Union

from .accounts import fold
from .storage import StoreError

ACCOUNTS_DB = "gonzaga-accounts.sqlite3"
SCHEMA_VERSION = 1


class NameTaken(StoreError):
    """An account of that name (in any case) exists."""


@dataclass(frozen=True)
class Account:
    id: int
    name: str
    password: str  # the stored hash (``accounts.hash_password``)
    created: float
    banned: bool = False
    fails: int = 0  # wrong passwords in a row from unknown devices
    last_fail: float = 0.0


@dataclass(frozen=True)
class Standing:
    """An account's rating as kept (``ratings.py`` computes it)."""

    account: int
    name: str
    mu: float
    sigma: float
    games: int
    shown: float  # mu - 3 sigma


@dataclass(frozen=True)
class RatedGame:
    """One rated game of an account: its rating after it, and its place."""

    game: str
    mu: float
    sigma: float
    shown: float
    place: int
    at: float


@dataclass(frozen=True)
class Session:
    digest: str  # SHA-256 of the token
    account: int
    device: str  # the label the client gave ("Ann's laptop")
    created: float
    used: float


class AccountStore(ABC):
    """What the server and the operator's commands need of the accounts' database."""

    @abstractmethod
    def create(self, name: str, password: str, now: float) -> Account:
        """A new account; NameTaken when its folded name exists."""

    @abstractmethod
    def by_name(self, name: str) -> Optional[Account]:
        """The account of ``name`` in any case or width."""

    @abstractmethod
    def by_id(self, account: int) -> Optional[Account]: ...

    @abstractmethod
    def accounts(self, limit: int = 1000) -> list[Account]:
        """Every account (at most ``limit``), by name."""

    @abstractmethod
    def set_password(self, account: int, password: str) -> None:
        """A new hash; the wrong passwords in a row are forgotten."""

    @abstractmethod
    def set_banned(self, account: int, banned: bool) -> None: ...

    @abstractmethod
    def failed(self, account: int, now: float) -> int:
        """One more wrong password in a row from an unknown device; how many now."""

    @abstractmethod
    def succeeded(self, account: int) -> None:
        """A right password: the wrong ones in a row are forgotten."""

    @abstractmethod
    def add_session(self, digest: str, account: int, device: str, now: float) -> None: ...

    @abstractmethod
    def session(self, digest: str) -> Optional[Session]: ...

    @abstractmethod
    def touch_session(self, digest: str, now: float) -> None: ...

    @abstractmethod
    def drop_session(self, digest: str) -> bool:
        """Whether there was such a session."""

    @abstractmethod
    def drop_sessions(self, account: int) -> int:
        """Every session of ``account`` ends (sign out everywhere, a ban, a new password); how many."""

    @abstractmethod
    def sessions(self, account: int) -> list[Session]: ...

    @abstractmethod
    def purge(self, older_than: float) -> int:
        """Sessions last used before ``older_than`` are deleted; how many."""

    @abstractmethod
    def know_device(self, account: int, digest: str, now: float) -> None: ...

    @abstractmethod
    def knows_device(self, account: int, digest: str) -> bool: ...

    @abstractmethod
    def bind_seat(self, seat_digest: str, account: int) -> None:
        """The seat whose token has this SHA-256 belongs to ``account`` (for good)."""

    @abstractmethod
    def seat_account(self, seat_digest: str) -> Optional[int]: ...

    @abstractmethod
    def standing(self, account: int) -> Optional[Standing]: ...

    @abstractmethod
    def record_game(self, game: str, results: list[tuple[int, float, float, int, float, int]], now: float) -> bool:
        """A rated game's new ratings, (account, mu, sigma, games, shown, place) each, in one
        transaction; False (nothing written) when that game was rated already."""

    @abstractmethod
    def leaderboard(self, limit: int) -> list[Standing]:
        """The best ``limit`` ratings, best first."""

    @abstractmethod
    def rated_games(self, account: int, limit: int) -> list[RatedGame]:
        """The account's latest ``limit`` rated games, oldest first."""

    @abstractmethod
    def close(self) -> None: ...


_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS accounts (
    id INTEGER PRIMARY KEY, name TEXT NOT NULL, folded TEXT NOT NULL UNIQUE, password TEXT NOT NULL,
    created REAL NOT NULL, banned INTEGER NOT NULL DEFAULT 0, fails INTEGER NOT NULL DEFAULT 0,
    last_fail REAL NOT NULL DEFAULT 0);
CREATE TABLE IF NOT EXISTS sessions (
    digest TEXT PRIMARY KEY, account INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    device TEXT NOT NULL, created REAL NOT NULL, used REAL NOT NULL);
CREATE INDEX IF NOT EXISTS sessions_account ON sessions(account);
CREATE TABLE IF NOT EXISTS devices (
    account INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE, digest TEXT NOT NULL,
    seen REAL NOT NULL, PRIMARY KEY (account, digest));
CREATE TABLE IF NOT EXISTS seats (digest TEXT PRIMARY KEY, account INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS ratings (
    account INTEGER PRIMARY KEY REFERENCES accounts(id) ON DELETE CASCADE, mu REAL NOT NULL,
    sigma REAL NOT NULL, games INTEGER NOT NULL, shown REAL NOT NULL);
CREATE INDEX IF NOT EXISTS ratings_shown ON ratings(shown DESC);
CREATE TABLE IF NOT EXISTS rated_games (game TEXT PRIMARY KEY, at REAL NOT NULL);
CREATE TABLE IF NOT EXISTS rating_history (
    account INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE, game TEXT NOT NULL,
    mu REAL NOT NULL, sigma REAL NOT NULL, shown REAL NOT NULL, place INTEGER NOT NULL, at REAL NOT NULL,
    PRIMARY KEY (account, game));
"""

_ACCOUNT_COLUMNS = "id, name, password, created, banned, fails, last_fail"


def _account(row: Optional[tuple]) -> Optional[Account]:  # type: ignore[type-arg]
    if row is None:
        return None
    return Account(int(row[0]), str(row[1]), str(row[2]), float(row[3]), bool(row[4]), int(row[5]), float(row[6]))


class SQLiteAccountStore(AccountStore):
    """The accounts in one SQLite file (``path``; ":memory:" for tests)."""

    def __init__(self, path: Union[str, Path]):
        self.path = str(path)
        try:
            self.db = sqlite3.connect(self.path, timeout=10.0, isolation_level=None, check_same_thread=False)
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=FULL")  # a new password or a sign-out is on disk when answered
            self.db.execute("PRAGMA foreign_keys=ON")
            self.db.executescript(_SCHEMA)
            row = self.db.execute("SELECT value FROM meta WHERE key='schema'").fetchone()
            if row is None:
                self.db.execute("INSERT INTO meta VALUES ('schema', ?)", (str(SCHEMA_VERSION),))
            elif int(row[0]) > SCHEMA_VERSION:
                raise StoreError(f"{self.path} was written by a newer version (accounts schema {row[0]})")
        except sqlite3.Error as e:
            raise StoreError(f"the accounts database {self.path} cannot be opened: {e}") from None

    @classmethod
    def in_folder(cls, folder: Union[str, Path]) -> "SQLiteAccountStore":
        folder = Path(folder)
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise StoreError(f"the data folder {folder} cannot be made: {e.strerror or e}") from None
        return cls(folder / ACCOUNTS_DB)

    def _run(self, sql: str, args: tuple = ()) -> sqlite3.Cursor:  # type: ignore[type-arg]
        try:
            return self.db.execute(sql, args)
        except sqlite3.IntegrityError:
            raise
        except sqlite3.Error as e:
            raise StoreError(f"the accounts database {self.path}: {e}") from None

    def create(self, name: str, password: str, now: float) -> Account:
        try:
            cur = self._run("INSERT INTO accounts (name, folded, password, created) VALUES (?, ?, ?, ?)",
                            (name, fold(name), password, now))
        except sqlite3.IntegrityError:
            raise NameTaken(f"the name {name!r} is taken") from None
        assert cur.lastrowid is not None
        return Account(cur.lastrowid, name, password, now)

    def by_name(self, name: str) -> Optional[Account]:
        return _account(self._run(f"SELECT {_ACCOUNT_COLUMNS} FROM accounts WHERE folded=?", (fold(name),)).fetchone())

    def by_id(self, account: int) -> Optional[Account]:
        return _account(self._run(f"SELECT {_ACCOUNT_COLUMNS} FROM accounts WHERE id=?", (account,)).fetchone())

    def accounts(self, limit: int = 1000) -> list[Account]:
        rows = self._run(f"SELECT {_ACCOUNT_COLUMNS} FROM accounts ORDER BY folded LIMIT ?", (limit,)).fetchall()
        return [a for a in map(_account, rows) if a is not None]

    def set_password(self, account: int, password: str) -> None:
        self._run("UPDATE accounts SET password=?, fails=0, last_fail=0 WHERE id=?", (password, account))

    def set_banned(self, account: int, banned: bool) -> None:
        self._run("UPDATE accounts SET banned=? WHERE id=?", (int(banned), account))

    def failed(self, account: int, now: float) -> int:
        row = self._run("UPDATE accounts SET fails=fails+1, last_fail=? WHERE id=? RETURNING fails",
                        (now, account)).fetchone()
        return int(row[0]) if row else 0

    def succeeded(self, account: int) -> None:
        self._run("UPDATE accounts SET fails=0 WHERE id=? AND fails<>0", (account,))

    def add_session(self, digest: str, account: int, device: str, now: float) -> None:
        self._run("INSERT INTO sessions VALUES (?, ?, ?, ?, ?)", (digest, account, device, now, now))

    def session(self, digest: str) -> Optional[Session]:
        row = self._run("SELECT digest, account, device, created, used FROM sessions WHERE digest=?",
                        (digest,)).fetchone()
        return Session(row[0], int(row[1]), row[2], float(row[3]), float(row[4])) if row else None

    def touch_session(self, digest: str, now: float) -> None:
        self._run("UPDATE sessions SET used=? WHERE digest=?", (now, digest))

    def drop_session(self, digest: str) -> bool:
        return self._run("DELETE FROM sessions WHERE digest=?", (digest,)).rowcount > 0

    def drop_sessions(self, account: int) -> int:
        return self._run("DELETE FROM sessions WHERE account=?", (account,)).rowcount

    def sessions(self, account: int) -> list[Session]:
        rows = self._run("SELECT digest, account, device, created, used FROM sessions WHERE account=? ORDER BY used",
                         (account,)).fetchall()
        return [Session(r[0], int(r[1]), r[2], float(r[3]), float(r[4])) for r in rows]

    def purge(self, older_than: float) -> int:
        return self._run("DELETE FROM sessions WHERE used<?", (older_than,)).rowcount

    def know_device(self, account: int, digest: str, now: float) -> None:
        self._run("INSERT INTO devices VALUES (?, ?, ?) ON CONFLICT (account, digest) DO UPDATE SET seen=excluded.seen",
                  (account, digest, now))

    def knows_device(self, account: int, digest: str) -> bool:
        return self._run("SELECT 1 FROM devices WHERE account=? AND digest=?", (account, digest)).fetchone() is not None

    def bind_seat(self, seat_digest: str, account: int) -> None:
        self._run("INSERT OR IGNORE INTO seats VALUES (?, ?)", (seat_digest, account))

    def seat_account(self, seat_digest: str) -> Optional[int]:
        row = self._run("SELECT account FROM seats WHERE digest=?", (seat_digest,)).fetchone()
        return int(row[0]) if row else None

    _STANDING = "SELECT r.account, a.name, r.mu, r.sigma, r.games, r.shown FROM ratings r JOIN accounts a ON a.id=r.account"

    def standing(self, account: int) -> Optional[Standing]:
        row = self._run(self._STANDING + " WHERE r.account=?", (account,)).fetchone()
        return Standing(*row) if row else None

    def record_game(self, game: str, results: list[tuple[int, float, float, int, float, int]], now: float) -> bool:
        try:
            self._run("BEGIN IMMEDIATE")
            try:
                self._run("INSERT INTO rated_games VALUES (?, ?)", (game, now))
            except sqlite3.IntegrityError:
                self._run("ROLLBACK")
                return False
            for account, mu, sigma, games, shown, place in results:
                self._run("INSERT INTO ratings VALUES (?, ?, ?, ?, ?) ON CONFLICT (account) DO UPDATE SET "
                          "mu=excluded.mu, sigma=excluded.sigma, games=excluded.games, shown=excluded.shown",
                          (account, mu, sigma, games, shown))
                self._run("INSERT INTO rating_history VALUES (?, ?, ?, ?, ?, ?, ?)",
                          (account, game, mu, sigma, shown, place, now))
            self._run("COMMIT")
            return True
        except BaseException:
            if self.db.in_transaction:
                self.db.execute("ROLLBACK")
            raise

    def leaderboard(self, limit: int) -> list[Standing]:
        rows = self._run(self._STANDING + " WHERE a.banned=0 ORDER BY r.shown DESC, a.folded LIMIT ?",
                         (limit,)).fetchall()
        return [Standing(*r) for r in rows]

    def rated_games(self, account: int, limit: int) -> list[RatedGame]:
        rows = self._run("SELECT game, mu, sigma, shown, place, at FROM rating_history WHERE account=? "
                         "ORDER BY at DESC LIMIT ?", (account, limit)).fetchall()
        return [RatedGame(*r) for r in reversed(rows)]

    def close(self) -> None:
        try:
            self.db.close()
        except sqlite3.Error:  # pragma: no cover - closing twice, or a broken file: nothing left to keep
            pass
