"""The online seats this computer holds (issue 14): a game survives closing the game.

``online-games.json`` in the user data folder keeps, per seat: the game's id and invite code,
the addresses used (newest first), the seat's token and number, the player's name, the players'
names, whether this computer hosts it (on which port, open to the network or not), when it was
last joined, and whether it is over. ``Book`` reads it fresh for every change (another window
may have written it), validates it with pydantic, and writes it atomically
(``persistence.atomic_write_bytes``) readable by the user only (0600: a token is as good as the
seat). A damaged file is moved aside and reported once (``Book.problem``), never a crash.

It also remembers the port the last hosted server of a data folder listened on, so that a host
comes back on the same address (``hosting.start_server``).

``Table`` (``remote.py``) calls ``joined`` on every ``joined`` message, ``seen`` when the
players change, ``finished`` when the game is over, and ``forget`` when the server says the game
is unknown or refuses the token. Pure Python (no pygame).
"""
from __future__ import annotations

import datetime as _dt
import logging
import os
from pathlib import Path
from typing import Any, Optional, Union

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from ..table import persistence
from ..table import save_schema as S
from .jsonfile import read_model

log = logging.getLogger(__name__)

FILE_NAME = "online-games.json"
FORMAT = "gonzaga-online-games"
MAX_BYTES = 256 * 1024
MAX_GAMES = 64  # seats kept; the oldest finished ones go first
MAX_ADDRESSES = 4
MODE = 0o600

_reported: set[tuple[str, Optional[int], Optional[int]]] = set()  # damaged files that could not be moved aside, already reported (path, size, mtime)


class MyGame(BaseModel):
    """One seat this computer holds in an online game."""

    model_config = ConfigDict(extra="forbid", defer_build=True)  # built when first read: a faster start
    game: str = Field(min_length=1, max_length=64, pattern=r"^[0-9a-f]+$")
    code: str = Field(min_length=6, max_length=6, pattern=r"^[A-Z2-9]+$")
    addresses: list[str] = Field(min_length=1, max_length=MAX_ADDRESSES)
    token: str = Field(min_length=8, max_length=128, pattern=r"^[A-Za-z0-9_-]+$")
    seat: int = Field(ge=0, le=3)
    name: str = Field("", max_length=24)
    players: list[str] = Field(default_factory=list, max_length=4)
    colour: str = Field("", pattern=r"^(|red|yellow|green|blue)$")  # this seat's (once the seats are known)
    host: bool = False
    port: Optional[int] = Field(None, ge=1, le=65535)
    lan: bool = False
    date: str = Field("", max_length=40)
    over: bool = False

    @property
    def address(self) -> str:
        return self.addresses[0]

    def key(self) -> tuple[str, int]:
        return (self.game, self.seat)


class MyGamesFile(BaseModel):
    model_config = ConfigDict(extra="forbid", defer_build=True)  # built when first read: a faster start
    format: str = Field(default=FORMAT, pattern=f"^{FORMAT}$")
    version: int = Field(default=1, ge=1, le=1)
    games: list[MyGame] = Field(default_factory=list, max_length=MAX_GAMES)
    ports: dict[str, int] = Field(default_factory=dict, max_length=16)  # data folder -> last port


def default_path() -> Path:
    return persistence.data_dir() / FILE_NAME


def _now() -> str:
    return _dt.datetime.now().isoformat(timespec="seconds")


class Book:
    """The file of this computer's online seats (its path fixed when made)."""

    def __init__(self, path: Optional[Union[str, Path]] = None):
        self.path = Path(path) if path is not None else default_path()
        self.problem: Optional[persistence.SaveError] = None  # a damaged file, moved aside (report it once)

    # ------------------------------------------------------------ reading

    def read(self) -> MyGamesFile:
        """The file's contents; an empty book when there is none or it is damaged (then moved aside,
        ``problem`` set the first time)."""
        if not os.path.lexists(self.path):
            return MyGamesFile()
        book, message = read_model(self.path, MyGamesFile, MAX_BYTES, "online.mine_bad_field")
        if book is not None:
            return book
        log.warning("damaged %s: %s", self.path, message)
        problem = persistence.SaveError(message, self.path)
        ident: tuple[str, Optional[int], Optional[int]]
        try:
            st = self.path.lstat()
            ident = (str(self.path), st.st_size, st.st_mtime_ns)
        except OSError:
            ident = (str(self.path), None, None)
        problem.moved_to = persistence.move_aside(self.path)
        problem.move_failed = problem.moved_to is None
        if problem.moved_to is not None or ident not in _reported:
            _reported.add(ident)
            self.problem = problem
        return MyGamesFile()

    def take_problem(self) -> Optional[persistence.SaveError]:
        """The damaged file's report, once."""
        p, self.problem = self.problem, None
        return p

    def in_progress(self) -> list[MyGame]:
        """The seats of games not over, the latest joined first."""
        return sorted((g for g in self.read().games if not g.over), key=lambda g: g.date, reverse=True)

    def get(self, game: str, seat: int) -> Optional[MyGame]:
        return next((g for g in self.read().games if g.key() == (game, seat)), None)

    def last_port(self, data_dir: Union[str, Path]) -> Optional[int]:
        return self.read().ports.get(_folder(data_dir))

    # ------------------------------------------------------------ writing

    def write(self, f: MyGamesFile) -> bool:
        """Write atomically, readable by the user only; False (logged) when it cannot be written."""
        games = f.games
        if len(games) > MAX_GAMES:  # the oldest finished games go first, then the oldest
            games = sorted(games, key=lambda g: (not g.over, g.date))[len(games) - MAX_GAMES:]
        f = MyGamesFile(games=games, ports=dict(list(f.ports.items())[-16:]))
        try:
            persistence.atomic_write_bytes(self.path, f.model_dump_json(indent=1).encode("utf-8"), mode=MODE)
        except OSError as e:
            log.warning("could not write %s: %s", self.path, e)
            return False
        return True

    def _change(self, game: str, seat: int, **fields: Any) -> bool:
        f = self.read()
        for i, g in enumerate(f.games):
            if g.key() == (game, seat):
                new = g.model_copy(update=fields)
                if new == g:
                    return True
                try:
                    f.games[i] = MyGame.model_validate(new.model_dump())
                except ValidationError as e:  # never expected from a server's seats; logged, not kept
                    log.warning("online seat not changed: %s", e)
                    return False
                return self.write(f)
        return False

    def joined(self, *, game: str, code: str, address: str, token: str, seat: int, host: bool,
               name: Optional[str] = None, port: Optional[int] = None, lan: Optional[bool] = None) -> bool:
        """A ``joined`` message: add the seat, or bring it up to date (the address first)."""
        f = self.read()
        old = next((g for g in f.games if g.key() == (game, seat)), None)
        addresses = [address] + [a for a in (old.addresses if old else []) if a != address]
        entry = {"game": game, "code": code, "addresses": addresses[:MAX_ADDRESSES], "token": token,
                 "seat": seat, "host": host, "date": _now(), "over": False,
                 "name": name if name is not None else (old.name if old else ""),
                 "players": old.players if old else [], "colour": old.colour if old else "",
                 "port": port if port is not None else (old.port if old else None),
                 "lan": lan if lan is not None else (old.lan if old else False)}
        try:
            new = MyGame.model_validate(entry)
        except ValidationError as e:  # never expected from a server's joined; logged, not kept
            log.warning("online seat not kept: %s", e)
            return False
        f.games = [g for g in f.games if g.key() != (game, seat)] + [new]
        return self.write(f)

    def seen(self, game: str, seat: int, players: list[str], colour: str = "") -> bool:
        """The players' names (and this seat's colour), when they change."""
        return self._change(game, seat, players=[S.clean_text(p)[:24] for p in players[:4]], colour=colour)

    def finished(self, game: str) -> bool:
        """The game is over: it leaves "in progress" (every seat of it held here)."""
        f = self.read()
        if not any(g.game == game and not g.over for g in f.games):
            return True
        f.games = [g.model_copy(update={"over": True}) if g.game == game else g for g in f.games]
        return self.write(f)

    def forget(self, game: str, token: str) -> bool:
        """The server does not know the game or refuses the token: that seat is dropped."""
        f = self.read()
        kept = [g for g in f.games if (g.game, g.token) != (game, token)]
        if len(kept) == len(f.games):
            return True
        f.games = kept
        return self.write(f)

    def remember_port(self, data_dir: Union[str, Path], port: int) -> bool:
        f = self.read()
        key = _folder(data_dir)
        if f.ports.get(key) == port:
            return True
        f.ports.pop(key, None)
        f.ports[key] = port
        return self.write(f)


def _folder(data_dir: Union[str, Path]) -> str:
    try:
        return str(Path(data_dir).resolve())
    except OSError:
        return str(Path(data_dir).absolute())
