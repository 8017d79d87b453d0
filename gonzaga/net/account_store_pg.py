"""The accounts on PostgreSQL (issue 47): ``PostgresAccountStore``, the same ``AccountStore`` as
``SQLiteAccountStore``, in the games' database (the tables of schema script
``postgres/0003_leases_and_accounts.sql``), so that every ``gonzaga serve`` process of a
community server shares the accounts, their sessions, the wrong passwords in a row of each
account (the per-account wait) and the ratings. tests/test_accounts.py runs on both stores.

The per-address limits (wrong passwords and new accounts from one address) stay in each
process's memory (``admission.py``, ``accounts.py``): with N processes behind a proxy that
spreads one address over them, an address gets up to N times the one-process rate; the
per-account wait, which is what protects an account, is in the database and shared.

Each call is one transaction on the games' store's pool (``PostgresStore.call``); commits are
durable before they return (``synchronous_commit = on``), as SQLite's ``synchronous=FULL``.
"""
from __future__ import annotations

from typing import Any, Optional

from psycopg import errors as pg_errors

from .account_store import Account, AccountStore, NameTaken, RatedGame, Session, Standing
from .accounts import fold
from .store_pg import PostgresStore

_ACCOUNT_COLUMNS = "id, name, password, created, banned, fails, last_fail"
_STANDING = "SELECT r.account, a.name, r.mu, r.sigma, r.games, r.shown FROM ratings r JOIN accounts a ON a.id = r.account"


def _account(row: Any) -> Optional[Account]:
    if row is None:
        return None
    return Account(int(row[0]), str(row[1]), str(row[2]), float(row[3]), bool(row[4]), int(row[5]), float(row[6]))


class PostgresAccountStore(AccountStore):
    """The accounts in the games' PostgreSQL database (its store's connections)."""

    def __init__(self, store: PostgresStore):
        self.store = store
        self.path = store.where  # named as the SQLite store's file is, in messages

    def _one(self, sql: str, args: tuple[Any, ...] = ()) -> Any:
        return self.store.call("use the accounts", lambda c: c.execute(sql, args).fetchone(), transaction=False)

    def _all(self, sql: str, args: tuple[Any, ...] = ()) -> list[Any]:
        return self.store.call("use the accounts", lambda c: c.execute(sql, args).fetchall(), transaction=False)

    def _count(self, sql: str, args: tuple[Any, ...] = ()) -> int:
        return int(self.store.call("use the accounts", lambda c: c.execute(sql, args).rowcount, transaction=False))

    def create(self, name: str, password: str, now: float) -> Account:
        try:
            with self.store._pool.connection() as conn:  # the unique violation is an answer, not a failure
                row = conn.execute("INSERT INTO accounts (name, folded, password, created) VALUES (%s, %s, %s, %s)"
                                   " RETURNING id", (name, fold(name), password, now)).fetchone()
        except pg_errors.UniqueViolation:
            raise NameTaken(f"the name {name!r} is taken") from None
        assert row is not None
        return Account(int(row[0]), name, password, now)

    def by_name(self, name: str) -> Optional[Account]:
        return _account(self._one(f"SELECT {_ACCOUNT_COLUMNS} FROM accounts WHERE folded = %s", (fold(name),)))

    def by_id(self, account: int) -> Optional[Account]:
        return _account(self._one(f"SELECT {_ACCOUNT_COLUMNS} FROM accounts WHERE id = %s", (account,)))

    def accounts(self, limit: int = 1000) -> list[Account]:
        rows = self._all(f"SELECT {_ACCOUNT_COLUMNS} FROM accounts ORDER BY folded LIMIT %s", (limit,))
        return [a for a in map(_account, rows) if a is not None]

    def set_password(self, account: int, password: str) -> None:
        self._count("UPDATE accounts SET password = %s, fails = 0, last_fail = 0 WHERE id = %s", (password, account))

    def set_banned(self, account: int, banned: bool) -> None:
        self._count("UPDATE accounts SET banned = %s WHERE id = %s", (banned, account))

    def failed(self, account: int, now: float) -> int:
        row = self._one("UPDATE accounts SET fails = fails + 1, last_fail = %s WHERE id = %s RETURNING fails",
                        (now, account))
        return int(row[0]) if row else 0

    def succeeded(self, account: int) -> None:
        self._count("UPDATE accounts SET fails = 0 WHERE id = %s AND fails <> 0", (account,))

    def add_session(self, digest: str, account: int, device: str, now: float) -> None:
        self._count("INSERT INTO sessions VALUES (%s, %s, %s, %s, %s)", (digest, account, device, now, now))

    def session(self, digest: str) -> Optional[Session]:
        row = self._one("SELECT digest, account, device, created, used FROM sessions WHERE digest = %s", (digest,))
        return Session(row[0], int(row[1]), row[2], float(row[3]), float(row[4])) if row else None

    def touch_session(self, digest: str, now: float) -> None:
        self._count("UPDATE sessions SET used = %s WHERE digest = %s", (now, digest))

    def drop_session(self, digest: str) -> bool:
        return self._count("DELETE FROM sessions WHERE digest = %s", (digest,)) > 0

    def drop_sessions(self, account: int) -> int:
        return self._count("DELETE FROM sessions WHERE account = %s", (account,))

    def sessions(self, account: int) -> list[Session]:
        rows = self._all("SELECT digest, account, device, created, used FROM sessions WHERE account = %s ORDER BY used",
                         (account,))
        return [Session(r[0], int(r[1]), r[2], float(r[3]), float(r[4])) for r in rows]

    def purge(self, older_than: float) -> int:
        return self._count("DELETE FROM sessions WHERE used < %s", (older_than,))

    def know_device(self, account: int, digest: str, now: float) -> None:
        self._count("INSERT INTO devices VALUES (%s, %s, %s) ON CONFLICT (account, digest) DO UPDATE SET seen = excluded.seen",
                    (account, digest, now))

    def knows_device(self, account: int, digest: str) -> bool:
        return self._one("SELECT 1 FROM devices WHERE account = %s AND digest = %s", (account, digest)) is not None

    def bind_seat(self, seat_digest: str, account: int) -> None:
        self._count("INSERT INTO seats VALUES (%s, %s) ON CONFLICT (digest) DO NOTHING", (seat_digest, account))

    def seat_account(self, seat_digest: str) -> Optional[int]:
        row = self._one("SELECT account FROM seats WHERE digest = %s", (seat_digest,))
        return int(row[0]) if row else None

    def standing(self, account: int) -> Optional[Standing]:
        row = self._one(_STANDING + " WHERE r.account = %s", (account,))
        return Standing(int(row[0]), row[1], row[2], row[3], row[4], row[5]) if row else None

    def record_game(self, game: str, results: list[tuple[int, float, float, int, float, int]], now: float) -> bool:
        def fn(c: Any) -> bool:
            if c.execute("INSERT INTO rated_games VALUES (%s, %s) ON CONFLICT (game) DO NOTHING",
                         (game, now)).rowcount != 1:
                return False  # rated already (by this process or another)
            for account, mu, sigma, games, shown, place in results:
                c.execute("INSERT INTO ratings VALUES (%s, %s, %s, %s, %s) ON CONFLICT (account) DO UPDATE SET"
                          " mu = excluded.mu, sigma = excluded.sigma, games = excluded.games, shown = excluded.shown",
                          (account, mu, sigma, games, shown))
                c.execute("INSERT INTO rating_history VALUES (%s, %s, %s, %s, %s, %s, %s)",
                          (account, game, mu, sigma, shown, place, now))
            return True
        return bool(self.store.call("rate a game", fn))

    def leaderboard(self, limit: int) -> list[Standing]:
        rows = self._all(_STANDING + " WHERE NOT a.banned ORDER BY r.shown DESC, a.folded LIMIT %s", (limit,))
        return [Standing(int(r[0]), r[1], r[2], r[3], r[4], r[5]) for r in rows]

    def rated_games(self, account: int, limit: int) -> list[RatedGame]:
        rows = self._all("SELECT game, mu, sigma, shown, place, at FROM rating_history WHERE account = %s"
                         " ORDER BY at DESC LIMIT %s", (account, limit))
        return [RatedGame(*r) for r in reversed(rows)]

    def close(self) -> None:
        """The connections are the games' store's: closed with it."""
