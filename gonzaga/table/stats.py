"""Statistics of the games finished on this computer (pure Python, no pygame).

One file, ``stats.json`` in the user data folder, validated with pydantic and written
atomically::

    {"format": "gonzaga-stats", "version": 1,
     "games": [{"id": "...", "finished_at": "2026-...", "seats": 3, "mode": "solo",
                "opponents": ["easy", "medium"], "won": true, "score": 84, "objective_held": 4,
                "leagues": 1, "donations": 0, "rounds": 10, "takebacks": false, "hints": false}, ...]}

A game is counted once, when it ends in front of the player (``record_game`` is called by the
game screen when it sees the last move; loading a finished save never counts it), and never
twice: each entry has the game's id (``history.game_id``: config, seed, the deal and the seats),
and an id already there is not added again (a game finished again after a take-back, or a save
made during it finished again, is the same game). Games without a human seat (the demo) are not counted.
"You" are the human seats of the game: with several (hot-seat) the best-placed human seat's
score, objective and so on are recorded, and the game is won when a human seat is among the
winners.

A file that cannot be read or does not validate (damaged, hand-edited, from a newer version) is
never lost: it is renamed ``stats.json.damaged-<time>`` and a new one is started; the caller
shows the message once (the next read finds the new file). Nothing here ever stops the game:
a write that fails is logged and the game goes on.
"""
from __future__ import annotations

import datetime as _dt
import json
import logging
import os
import stat as _stat
from pathlib import Path
from typing import Annotated, Callable, Final, Literal, Optional, Protocol, Sequence, TypedDict

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from . import persistence
from ..rules import GameRecord, GameState
from .seats import SeatSpec
from ..words import i18n
import hashlib
from . import history
from ..rules import scoring
from ..ai.roster import level_order

log = logging.getLogger(__name__)

STATS_FILE = "stats.json"
FORMAT: Final = "gonzaga-stats"
VERSION: Final = 1
MAX_GAMES = 5000
MAX_BYTES = 4 * 1024 * 1024

Level = Annotated[str, Field(min_length=1, max_length=20, pattern=r"^[a-z0-9_]+$")]


class GameEntry(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, defer_build=True)  # built when first read: a faster start

    id: str = Field(min_length=8, max_length=64, pattern=r"^[0-9a-f]+$")
    finished_at: str = Field(max_length=40)
    seats: int = Field(ge=2, le=4)
    mode: Literal["solo", "hotseat", "online"]
    opponents: list[Level] = Field(default_factory=list, max_length=3)  # the AI seats' levels
    won: bool
    score: int = Field(ge=0, le=10000)
    objective_held: int = Field(ge=0, le=6)
    leagues: int = Field(ge=0, le=20)
    donations: int = Field(ge=0, le=100)
    rounds: int = Field(ge=0, le=100)
    takebacks: bool = False  # the game had a move taken back
    hints: bool = False  # the game had a hint asked for

    @property
    def strongest(self) -> Optional[str]:
        """The strongest AI opponent's level (None: no AI seat)."""
        if not self.opponents:
            return None
        order = level_order()  # weakest first
        return max(self.opponents, key=lambda b: order.index(b) if b in order else -1)


class Stats(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, defer_build=True)

    format: Literal["gonzaga-stats"] = FORMAT
    version: Literal[1] = VERSION
    games: list[GameEntry] = Field(default_factory=list, max_length=MAX_GAMES)

    def has(self, game_id: str) -> bool:
        return any(g.id == game_id for g in self.games)


def stats_path() -> Path:
    return persistence.data_dir() / STATS_FILE


# ---------------------------------------------------------------- reading and writing

class Damaged(Exception):
    pass


def _read(path: Path) -> Stats:
    try:
        st = os.stat(path)
    except OSError as e:
        raise Damaged(f"cannot read it ({e.strerror or e})") from None
    if not _stat.S_ISREG(st.st_mode):
        raise Damaged("not a regular file")
    if st.st_size > MAX_BYTES:
        raise Damaged(f"too large ({st.st_size} bytes)")
    try:
        with open(path, "rb") as f:
            raw = f.read(MAX_BYTES + 1)
        d = json.loads(raw.decode("utf-8"))
    except (OSError, UnicodeDecodeError, ValueError, RecursionError) as e:
        raise Damaged(f"not JSON ({type(e).__name__})") from None
    if not isinstance(d, dict) or d.get("format") != FORMAT:
        raise Damaged("not a statistics file")
    try:
        return Stats.model_validate(d)
    except ValidationError as e:
        first = e.errors()[0]
        where = ".".join(str(x) for x in first.get("loc", ()))[:60]
        raise Damaged(f"field '{where}': {first.get('msg', '')[:80]}") from None


def load() -> tuple[Stats, Optional[str]]:
    """The statistics, and a message for the player when the file was damaged (it is then kept
    aside as ``stats.json.damaged-<time>`` and a new, empty one is started)."""
    path = stats_path()
    if not os.path.lexists(path):
        return Stats(), None
    try:
        return _read(path), None
    except Damaged as e:
        log.warning("statistics file %s is damaged (%s); kept aside, a new one started", path, e)
        moved = persistence.move_aside(path)
        fresh = Stats()
        if moved is not None:
            save(fresh)
            return fresh, i18n.t("stats.damaged", file=moved.name)
        return fresh, i18n.t("stats.damaged_kept", file=path.name)
    except Exception:  # a guard: never a crash for statistics
        log.exception("statistics file %s unreadable", path)
        return Stats(), None


def save(stats: Stats) -> bool:
    try:
        persistence.atomic_write_text(stats_path(), json.dumps(stats.model_dump(), indent=1, ensure_ascii=False))
    except OSError as e:
        log.warning("statistics not written: %s", e)
        return False
    return True


def reset() -> bool:
    """Forget every game (the player asked, after a confirmation)."""
    log.info("statistics reset")
    return save(Stats())


# ---------------------------------------------------------------- one finished game

def online_id(game: str) -> str:
    """An online game's entry id: from the server's game id (the same game, counted once)."""
    return hashlib.sha256(f"online:{game}".encode("utf-8")).hexdigest()[:16]


class FinishedGame(Protocol):
    """What a game's entry is made from: a desktop ``Session`` or an online one (net/remote.py)."""

    @property
    def state(self) -> GameState: ...

    @property
    def humans(self) -> list[int]: ...

    @property
    def seats(self) -> Sequence[SeatSpec]: ...

    @property
    def record(self) -> GameRecord: ...


def entry_for(session: FinishedGame) -> Optional[GameEntry]:
    """The entry of a finished game with at least one human seat; None otherwise."""
    st = session.state
    humans = session.humans
    if st.phase != "over" or not humans:
        return None
    me = max(humans, key=lambda i: (i in st.winners, st.seats[i].score))
    s = st.seats[me]
    opponents = sorted(session.seats[i].bot for i in range(len(session.seats)) if session.seats[i].is_ai)
    table = getattr(session, "table", None)  # an online game (net/remote.py): this computer's seat only
    mode: Literal["solo", "hotseat", "online"]
    if table is not None and table.game:
        game_id, mode = online_id(table.game), "online"
    else:
        game_id, mode = history.game_id(session.record, session.seats), "solo" if len(humans) == 1 else "hotseat"
    return GameEntry(
        id=game_id, finished_at=_dt.datetime.now().isoformat(timespec="seconds"),
        seats=len(st.seats), mode=mode,
        opponents=[o if o in level_order() else "greedy" for o in opponents][:3],
        won=any(i in st.winners for i in humans), score=max(0, s.score),
        objective_held=scoring.objective_cities_held(st, me), leagues=len(s.leagues), donations=s.donations,
        rounds=st.round, takebacks=bool(_flag(session, "takebacks")), hints=bool(_flag(session, "hints")))


def _flag(session: FinishedGame, name: str) -> bool:
    """Take-backs and hints used: the session's ``assists`` counts (issue 11), or a count or flag of
    that name on the session or its record."""
    assists = getattr(session, "assists", None)
    if isinstance(assists, dict) and assists.get(name):
        return True
    for obj in (session, getattr(session, "record", None)):
        v = getattr(obj, name, None) if obj is not None else None
        if v:
            return True
    return False


def record_game(session: FinishedGame) -> Optional[str]:
    """Count a game that just ended (once: an id already counted is skipped). Returns a message
    for the player when the statistics file was damaged and was started again, else None."""
    try:
        entry = entry_for(session)
        if entry is None:
            return None
        stats, message = load()
        if stats.has(entry.id):
            return message
        stats.games.append(entry)
        if len(stats.games) > MAX_GAMES:
            stats.games = stats.games[-MAX_GAMES:]
        save(stats)
        log.info("statistics: game %s counted (%s, won=%s, score %d)", entry.id, entry.mode, entry.won, entry.score)
        return message
    except Exception:  # statistics never stop the game
        log.exception("statistics not updated")
        return None


# ---------------------------------------------------------------- figures for the screen

class Summary(TypedDict):
    """The statistics screen's figures (:func:`summary`); the pairs are (played, won)."""

    played: int
    won: int
    by_seats: dict[int, tuple[int, int]]
    by_level: dict[str, tuple[int, int]]
    by_mode: dict[str, tuple[int, int]]
    best: int
    mean: float
    objective_mean: float
    leagues: int
    donations: int
    takebacks: int
    hints: int
    scores: list[int]


def summary(stats: Stats) -> Summary:
    """Counts and means for the statistics screen."""
    games = stats.games
    n = len(games)

    def pw(key: Callable[[GameEntry], object], want: object) -> tuple[int, int]:
        g = [x for x in games if key(x) == want]
        return len(g), sum(1 for x in g if x.won)

    levels = [lv for lv in level_order() if any(g.strongest == lv for g in games)]
    return {
        "played": n, "won": sum(1 for g in games if g.won),
        "by_seats": {k: pw(lambda g: g.seats, k) for k in (2, 3, 4)},
        "by_level": {lv: pw(lambda g: g.strongest, lv) for lv in levels},
        "by_mode": {m: pw(lambda g: g.mode, m)
                    for m in ("solo", "hotseat", "online") if m != "online" or any(g.mode == m for g in games)},
        "best": max((g.score for g in games), default=0),
        "mean": (sum(g.score for g in games) / n) if n else 0.0,
        "objective_mean": (sum(g.objective_held for g in games) / n) if n else 0.0,
        "leagues": sum(g.leagues for g in games),
        "donations": sum(g.donations for g in games),
        "takebacks": sum(1 for g in games if g.takebacks),
        "hints": sum(1 for g in games if g.hints),
        "scores": [g.score for g in games],
    }
