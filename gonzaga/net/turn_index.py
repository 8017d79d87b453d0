"""Where the server keeps turn-based games' clocks and the index of *My games* (issue 47,
t47turn): the tables of schema script 0002 (``game_turns``, ``account_games``) in the games'
own database, SQLite or PostgreSQL, beside the games they describe.

- ``game_turns``: one row per game, its pace as chosen at creation; for a turn-based game also
  where it stands after every change (the actions so far, the round, each due seat's deadline in
  seconds since the epoch, the moves missed in a row), so that a restarted server keeps its
  deadlines, and the earliest deadline, indexed, so that the games whose time ran out are found
  without loading any (``due``).
- ``account_games``: which account holds which seat. *My games* is one indexed read of it by
  account, joined with the games' rows (``mine``): no game is loaded or replayed for it.

:class:`TurnIndex` runs the same statements on both databases through a small adapter
(``_SQLite`` or ``_Postgres``: placeholders and JSON columns differ); ``index_of`` picks it
for a store, or None for a store it does not know (then the server offers no turn-based games).
"""
from __future__ import annotations

import json
import logging
from dataclasses import dataclass, field
from typing import Any, Optional

from .storage import GameStore, SQLiteStore

log = logging.getLogger(__name__)

MAX_MINE = 200  # rows of My games read at once (protocol.MAX_MY_GAMES)


@dataclass(frozen=True)
class TurnRow:
    """A game's row of ``game_turns``."""

    game_id: str
    pace: str = "live"
    move_hours: int = 0
    missed_limit: int = 3
    n: int = 0  # the game's actions when written: deadlines belong to that position
    round: int = 0
    deadlines: dict[int, float] = field(default_factory=dict)  # due seat -> when its time runs out
    missed: tuple[int, ...] = ()  # per seat: moves missed in a row
    finished_at: Optional[float] = None

    @property
    def next_deadline(self) -> Optional[float]:
        return min(self.deadlines.values()) if self.deadlines and self.finished_at is None else None


@dataclass(frozen=True)
class MineRow:
    """A seat of an account, with its game's row and turn row (None: a game from before 0002)."""

    game_id: str
    seat: int
    code: str
    seats: list[dict[str, Any]]
    started: bool
    finished: bool
    turn: Optional[TurnRow]


def _json(value: Any, default: Any) -> Any:
    if isinstance(value, (str, bytes)):
        try:
            return json.loads(value)
        except ValueError:
            return default
    return default if value is None else value


def _turn(game_id: str, pace: Any, hours: Any, limit: Any, n: Any, rnd: Any, deadlines: Any, missed: Any,
          finished_at: Any) -> TurnRow:
    d = _json(deadlines, {})
    m = _json(missed, [])
    return TurnRow(game_id, str(pace), int(hours), int(limit), int(n), int(rnd),
                   {int(k): float(v) for k, v in (d.items() if isinstance(d, dict) else ())},
                   tuple(int(x) for x in (m if isinstance(m, list) else ())),
                   None if finished_at is None else float(finished_at))


class _SQLite:
    """The statements on a ``SQLiteStore``'s connection, under its lock (each write committed,
    as the store's own are)."""

    json = "?"

    def __init__(self, store: SQLiteStore):
        self.store = store

    def write(self, what: str, statements: list[tuple[str, tuple[Any, ...]]]) -> None:
        def fn(db: Any) -> None:
            for sql, params in statements:
                db.execute(sql, params)
        self.store._write(what, fn)

    def read(self, sql: str, params: tuple[Any, ...]) -> list[tuple[Any, ...]]:
        with self.store._lock:
            return list(self.store._db.execute(sql, params).fetchall())


class _Postgres:
    """The statements on a ``PostgresStore``'s pool (``%s`` placeholders, JSONB columns)."""

    json = "CAST(? AS jsonb)"

    def __init__(self, store: Any):
        self.store = store

    def write(self, what: str, statements: list[tuple[str, tuple[Any, ...]]]) -> None:
        def fn(conn: Any) -> None:
            for sql, params in statements:
                conn.execute(sql.replace("?", "%s"), params)
        self.store._call(what, fn)

    def read(self, sql: str, params: tuple[Any, ...]) -> list[tuple[Any, ...]]:
        def run(conn: Any) -> list[tuple[Any, ...]]:
            return list(conn.execute(sql.replace("?", "%s"), params).fetchall())
        return list(self.store._call("read My games", run))


class TurnIndex:
    """``game_turns`` and ``account_games`` of one store (see the module's docstring)."""

    def __init__(self, db: Any):
        self.db = db
        # the server's writer thread (groupcommit.py), once it has one: the writes are queued
        # there, after the actions they follow, and the event loop does not wait for them; the
        # reads wait for what is queued before them, so they see every write asked before
        self.commits: Any = None

    def _write(self, what: str, statements: list[tuple[str, tuple[Any, ...]]], game_id: str) -> None:
        if self.commits is None:
            self.db.write(what, statements)
            return

        def fn() -> None:
            try:
                self.db.write(what, statements)
            except Exception as e:  # the next change writes the row again
                log.error("game %s: cannot %s: %s", game_id, what, e)
        self.commits.later(fn)

    def _read(self, sql: str, params: tuple[Any, ...]) -> list[tuple[Any, ...]]:
        if self.commits is None:
            return list(self.db.read(sql, params))
        return list(self.commits.call(lambda: self.db.read(sql, params)))

    def put(self, row: TurnRow) -> None:
        """Write a game's turn row (a new one, or where it stands now)."""
        j = self.db.json
        self._write("store a game's turn", [(
            "INSERT INTO game_turns(game_id, pace, move_hours, missed_limit, n, round, deadlines, missed,"
            f" next_deadline, finished_at) VALUES (?, ?, ?, ?, ?, ?, {j}, {j}, ?, ?)"
            " ON CONFLICT (game_id) DO UPDATE SET pace = excluded.pace, move_hours = excluded.move_hours,"
            " missed_limit = excluded.missed_limit, n = excluded.n, round = excluded.round,"
            " deadlines = excluded.deadlines, missed = excluded.missed, next_deadline = excluded.next_deadline,"
            " finished_at = excluded.finished_at",
            (row.game_id, row.pace, row.move_hours, row.missed_limit, row.n, row.round,
             json.dumps({str(k): v for k, v in sorted(row.deadlines.items())}), json.dumps(list(row.missed)),
             row.next_deadline, row.finished_at))], row.game_id)

    def get(self, game_id: str) -> Optional[TurnRow]:
        rows = self._read("SELECT game_id, pace, move_hours, missed_limit, n, round, deadlines, missed, finished_at"
                            " FROM game_turns WHERE game_id = ?", (game_id,))
        return _turn(*rows[0]) if rows else None

    def add_seat(self, account: int, game_id: str, seat: int) -> None:
        """``seat`` of ``game_id`` belongs to ``account`` (once; again is nothing)."""
        self._write("index a seat of an account", [(
            "INSERT INTO account_games(account, game_id, seat) VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
            (account, game_id, seat))], game_id)

    def seats_of(self, account: int, game_id: str) -> list[int]:
        """The seats of ``game_id`` that ``account`` holds."""
        return [int(r[0]) for r in self._read(
            "SELECT seat FROM account_games WHERE account = ? AND game_id = ? ORDER BY seat", (account, game_id))]

    def mine(self, account: int, finished_since: float, limit: int = MAX_MINE) -> list[MineRow]:
        """Every seat of ``account`` in a game not finished, or finished since ``finished_since``
        (seconds since the epoch; a game finished before 0002 has no time and is left out)."""
        rows = self._read(
            "SELECT a.game_id, a.seat, g.code, g.seats, g.started, g.finished, t.pace, t.move_hours,"
            " t.missed_limit, t.n, t.round, t.deadlines, t.missed, t.finished_at"
            " FROM account_games a JOIN games g ON g.id = a.game_id"
            " LEFT JOIN game_turns t ON t.game_id = a.game_id"
            " WHERE a.account = ? AND (NOT g.finished OR t.finished_at >= ?)"
            " ORDER BY a.game_id, a.seat LIMIT ?", (account, finished_since, limit))
        out = []
        for gid, seat, code, seats, started, finished, pace, *rest in rows:
            turn = None if pace is None else _turn(gid, pace, *rest)
            s = _json(seats, [])
            out.append(MineRow(gid, int(seat), code, s if isinstance(s, list) else [], bool(started), bool(finished),
                               turn))
        return out

    def due(self, now: float, limit: int = 100) -> list[str]:
        """Unfinished games with a deadline at or before ``now`` (the earliest first)."""
        return [str(r[0]) for r in self._read(
            "SELECT game_id FROM game_turns WHERE next_deadline IS NOT NULL AND next_deadline <= ?"
            " ORDER BY next_deadline LIMIT ?", (now, limit))]


def index_of(store: GameStore) -> Optional[TurnIndex]:
    """The turn index of ``store`` (SQLite or PostgreSQL, or either inside the several processes'
    ``sharing.TellingStore``); None for another kind of store."""
    inner = getattr(store, "inner", None)
    if inner is not None and not isinstance(store, SQLiteStore):
        return index_of(inner)
    if isinstance(store, SQLiteStore):
        return TurnIndex(_SQLite(store))
    if type(store).__name__ == "PostgresStore" and hasattr(store, "_call"):  # store_pg is imported only with psycopg
        return TurnIndex(_Postgres(store))
    return None
