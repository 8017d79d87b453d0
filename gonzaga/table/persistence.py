"""Saves, settings, user folders and the log file. Pure Python (no pygame).

Folders come from platformdirs (``user_data_dir`` for saves, autosave and
screenshots, ``user_config_dir`` for settings, ``user_log_dir`` for the log).
The environment variable ``GONZAGA_HOME`` puts all of them under one folder
(tests, portable use).

A save file is JSON validated with pydantic (see docs/save-format.md, "Save
files")::

    {"format": "gonzaga-save", "save_version": 2, "app_version": "0.2.0",
     "saved_at": "2026-...", "name": "Tuesday game",
     "seats": [{"name": "Ann", "kind": "human", "bot": "greedy", "colour": "red"}, ...],
     "record": {...GameRecord.to_json(state), with its summary digest...}}

Writes are atomic (temp file in the same folder, fsync, ``os.replace``, fsync of the folder)
and checked (a short or empty write is an error); a failed write raises :class:`SaveWriteError`,
an ``OSError`` whose text is a sentence for the player. Reading goes through
``gonzaga/table/save_schema.py`` (a regular file of bounded size, strict JSON, every field bounded and
checked against the content) before anything uses a value; whatever goes wrong while reading
raises :class:`SaveError` with a message for the player, and ``load_save`` then moves the file
aside (``<file>.damaged-<time>``), never deletes it. Folders are created when possible; a folder
that cannot be created or written never stops the program (the write that needs it fails and
says so). Logging never prints to the terminal, even when the log file cannot be written.
"""
from __future__ import annotations

import datetime as _dt
import errno
import json
import logging
import logging.handlers
import os
import re
import secrets
import stat
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Literal, Mapping, Optional, Protocol, Sequence

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, ValidationError

from . import logfile
from . import save_schema as S
from ..version import __version__
from ..words import catalog, i18n
from ..words.system_language import system_language
import platformdirs
from .access import Access
from .seats import SeatSpec
from ..ai import bot_names
from ..rules import Content, GameRecord, GameState, RecordError, load_content, replay
from ..rules.record import RECORD_VERSION, digest
from ..rules.record import earlier_board, upgrade
from ..rules.content import edition_for


log = logging.getLogger(__name__)

APP_NAME = "Gonzaga"
SAVE_FORMAT = "gonzaga-save"
SAVE_VERSION = 2  # 2: the printed card numbering (D1); version 1 saves are upgraded when read
AUTOSAVE = "autosave.json"  # the one autosave of versions before issue 45 (moved into IN_PROGRESS at start)
IN_PROGRESS = "in-progress"  # saves/in-progress/: one autosave per game in progress (issue 45)


def app_version() -> str:
    """The program's version (the one version file, gonzaga/version.py; docs/release.md)."""
    return __version__


# ---------------------------------------------------------------- folders

def _home() -> Optional[Path]:
    h = os.environ.get("GONZAGA_HOME")
    return Path(h) if h else None


def _user_dir(sub: str, kind: str) -> Path:
    """A user folder of ``kind`` (platformdirs' data, config or log), or ``$GONZAGA_HOME/sub``."""
    h = _home()
    if h:
        d = h / sub
    else:
        d = Path(getattr(platformdirs, f"user_{kind}_dir")(APP_NAME, appauthor=False))
    return _ensure_dir(d)


def _ensure_dir(d: Path) -> Path:
    """``d``, created if possible; a folder that cannot be created is left to the write that needs it."""
    try:
        d.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        log.debug("cannot create %s: %s", d, e)
    return d


def data_dir() -> Path:
    return _user_dir("data", "data")


def config_dir() -> Path:
    return _user_dir("config", "config")


def log_dir() -> Path:
    return _user_dir("logs", "log")


def saves_dir() -> Path:
    return _ensure_dir(data_dir() / "saves")


def screenshots_dir() -> Path:
    return _ensure_dir(data_dir() / "screenshots")


def legacy_autosave_path() -> Path:
    """The single autosave of older versions (``in_progress.migrate_legacy`` moves it)."""
    return saves_dir() / AUTOSAVE


def autosaves_dir() -> Path:
    """The autosaves of the games in progress, one file per game (issue 45)."""
    return _ensure_dir(saves_dir() / IN_PROGRESS)


def new_autosave_path(when: Optional[float] = None) -> Path:
    """A new game's own autosave: ``in-progress/<date>-<time>-<random>.json`` (``when``: the
    time it is named after, now by default). The random part keeps two games started in the
    same second apart; the name is never reused."""
    stamp = _dt.datetime.fromtimestamp(time.time() if when is None else when).strftime("%Y%m%d-%H%M%S")
    d = autosaves_dir()
    while True:
        p = d / f"{stamp}-{secrets.token_hex(3)}.json"
        if not os.path.lexists(p):
            return p


def is_autosave_file(path: Path) -> bool:
    """True for a game's autosave (in ``autosaves_dir()``) and for an older version's one autosave."""
    path = Path(path)
    if path.parent.name != IN_PROGRESS:
        return path.name.casefold() == AUTOSAVE and path.parent.name == "saves"
    return path.suffix == ".json" and path.parent.parent.name == "saves"


def finished_dir() -> Path:
    """Where finished games are kept (to watch again) until the player deletes them."""
    return _ensure_dir(data_dir() / "finished")


def log_path() -> Path:
    return log_dir() / "gonzaga.log"


def setup_logging(level: int = logging.INFO) -> Path:
    """Log to a rotating file in the user log folder (``logfile.py``); returns its path."""
    return logfile.setup_logging(log_path(), level)


log_available = logfile.log_available  # False when the log file could not be opened


# ---------------------------------------------------------------- atomic writes

class SaveWriteError(OSError):
    """A file that could not be written. ``str()`` is a sentence for the player (no errno, no path)."""

    def __init__(self, path: Path, cause: Optional[BaseException] = None, reason_key: Optional[str] = None):
        code = getattr(cause, "errno", None) or errno.EIO
        super().__init__(code, "could not write")
        self.path = Path(path)
        self.cause = cause
        self.reason_key = reason_key or write_reason_key(cause)

    @property
    def reason(self) -> str:
        return i18n.t(self.reason_key)

    def __str__(self) -> str:
        return self.reason


def write_reason_key(e: Optional[BaseException]) -> str:
    """The i18n key of why a write failed: the disk is full, the folder is read-only, or else."""
    if isinstance(e, SaveWriteError):
        return e.reason_key
    code = getattr(e, "errno", None)
    if code in (errno.ENOSPC, getattr(errno, "EDQUOT", -1), errno.EFBIG):
        return "save.reason_full"
    if code in (errno.EROFS, errno.EACCES, errno.EPERM):
        return "save.reason_readonly"
    if code in (errno.ENOTDIR, errno.EEXIST, errno.ENOENT, errno.EISDIR, errno.ENAMETOOLONG, errno.ELOOP):
        return "save.reason_nofolder"  # a file where the folder should be, a folder gone or unreachable
    return "save.reason_other"


TEMP_SUFFIX = ".tmp"


def atomic_write_bytes(path: Path, data: bytes, mode: int = 0o644) -> None:
    """Write ``data`` to ``path`` so that a crash leaves either the old file or the new one.

    The bytes go to a temporary file in the same folder (``.<name>.XXXX.tmp``), are written in
    full (a short write is an error, as is a file whose size is not ``len(data)`` afterwards),
    fsynced, and ``os.replace``d over the target; then the folder itself is fsynced where the
    platform allows it, so the rename survives a power cut. ``mode`` is the file's permissions
    from the start (0o600 for a file of secrets: never readable by others, not even for a moment).
    Raises OSError; leaves no temp file.
    """
    path = Path(path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError:
        if not path.parent.is_dir():
            raise  # why the folder cannot be made (read-only, full) is why the file cannot be written
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=TEMP_SUFFIX)
    try:
        view = memoryview(data)
        while view:
            n = os.write(fd, view)
            if n <= 0:
                raise OSError(errno.ENOSPC, "nothing written")
            view = view[n:]
        os.fsync(fd)
        if os.fstat(fd).st_size != len(data):
            raise OSError(errno.ENOSPC, "the file is shorter than what was written")
        os.close(fd)
        fd = -1
        os.chmod(tmp, mode)  # mkstemp made it 0600
        os.replace(tmp, path)
    except BaseException:
        if fd >= 0:
            try:
                os.close(fd)
            except OSError:
                pass
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    fsync_dir(path.parent)


def atomic_write_text(path: Path, text: str) -> None:
    """``atomic_write_bytes`` of ``text`` in UTF-8."""
    atomic_write_bytes(path, text.encode("utf-8"))


def remove_durably(path: Path) -> None:
    """Delete a save file for good (gone already is fine); SaveWriteError when it cannot be."""
    try:
        os.unlink(path)
    except FileNotFoundError:
        return
    except OSError as e:
        raise SaveWriteError(path, e) from e
    fsync_dir(path.parent)


def fsync_dir(directory: Path) -> None:
    """Flush a folder's entries to disk after a rename (POSIX; Windows has no such call)."""
    if os.name == "nt":
        return
    try:
        fd = os.open(directory, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError as e:  # some file systems refuse fsync on a folder (EINVAL): nothing more to do
        log.debug("fsync of folder %s: %s", directory, e)
    finally:
        os.close(fd)


STALE_TEMP_SECS = 60.0


def clean_stale_temps(directory: Optional[Path] = None, max_age: float = STALE_TEMP_SECS) -> int:
    """Remove the temporary files of interrupted writes (``.*.tmp``) older than ``max_age`` seconds.

    Only regular files are touched (a symlink is never followed). Returns how many were removed.
    """
    directory = Path(directory) if directory else saves_dir()
    now = time.time()
    removed = 0
    try:
        entries = list(os.scandir(directory))
    except OSError:
        return 0
    for entry in entries:
        if not (entry.name.startswith(".") and entry.name.endswith(TEMP_SUFFIX)):
            continue
        try:
            st = entry.stat(follow_symlinks=False)
            if stat.S_ISREG(st.st_mode) and now - st.st_mtime > max_age:
                os.unlink(entry.path)
                removed += 1
        except OSError as e:
            log.debug("cannot remove %s: %s", entry.path, e)
    if removed:
        log.info("removed %d leftover temporary file(s) in %s", removed, directory)
    return removed


def check_writable(directory: Optional[Path] = None) -> Optional[SaveWriteError]:
    """None when a file can be created in ``directory`` (the saves folder), else why not."""
    directory = Path(directory) if directory else saves_dir()
    try:
        directory.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=directory, prefix=".probe.", suffix=TEMP_SUFFIX)
        os.close(fd)
        os.unlink(tmp)
    except OSError as e:
        return SaveWriteError(directory, e)
    return None


# ---------------------------------------------------------------- save files

SeatModel = S.SeatModel
SaveModel = S.SaveModel  # the schema, with its limits: gonzaga/table/save_schema.py


class SaveError(Exception):
    """A save that cannot be used; ``message`` is for the player."""

    def __init__(self, message: str, path: Optional[Path] = None):
        super().__init__(message)
        self.message = message
        self.path = path
        self.moved_to: Optional[Path] = None
        self.move_failed = False  # it could not be moved aside (a read-only folder): left where it was

    def report(self) -> str:
        """The sentence shown in the game: which file, what is wrong, where it was kept."""
        file = S.excerpt(self.path.name if self.path else "?", 60)
        if self.moved_to is not None:
            return i18n.t("load.damaged", file=file, message=self.message, moved=S.excerpt(self.moved_to.name, 80))
        if self.move_failed:
            return i18n.t("save.damaged_kept", file=file, message=self.message)
        return f"{file}: {self.message}"


@dataclass
class LoadedSave:
    path: Path
    model: SaveModel
    record: GameRecord
    state: GameState  # after replay

    @property
    def content(self) -> Content:
        """The board the game is played on (a kept earlier edition for an old game)."""
        return self.state.content

    @property
    def seats(self) -> list[SeatSpec]:
        return [SeatSpec(s.name, s.kind, s.bot, s.colour) for s in self.model.seats]


class Saveable(Protocol):
    """What a save is made from: the desktop ``Session``."""

    @property
    def name(self) -> str: ...

    @property
    def seats(self) -> Sequence[SeatSpec]: ...

    @property
    def record(self) -> GameRecord: ...

    @property
    def state(self) -> GameState: ...


def save_dict(session: Saveable, name: str = "") -> dict[str, object]:
    return {"format": SAVE_FORMAT, "save_version": SAVE_VERSION, "app_version": app_version(),
            "saved_at": _dt.datetime.now().isoformat(timespec="seconds"),
            "name": name or session.name or "",
            "seats": [s.to_json() for s in session.seats],
            "record": session.record.to_json(session.state),
            **_assists(session)}


def _assists(session: Saveable) -> dict[str, dict[str, int]]:
    """``{"assists": {...}}`` when take-backs or hints were used (issue 11), else nothing: a save
    of an unhelped game stays readable by versions that do not know the field."""
    assists: Mapping[str, int] = getattr(session, "assists", {})
    a = {k: int(v) for k, v in assists.items() if k in ("takebacks", "hints") and v}
    return {"assists": a} if a else {}


def save_game(session: Saveable, path: Path, name: str = "") -> Path:
    """Write ``session`` to ``path`` atomically (the record holds its summary digest).

    Raises :class:`SaveWriteError` (an OSError whose text is for the player) when it fails.
    """
    text = json.dumps(save_dict(session, name), indent=1, ensure_ascii=False)
    try:
        atomic_write_text(Path(path), text)
    except OSError as e:
        raise SaveWriteError(Path(path), e) from e
    return Path(path)


def autosave(session: Saveable, path: Path) -> Path:
    """Write ``session`` to its game's own autosave ``path`` (``new_autosave_path``)."""
    # the game's own name only: a word like "Autosave" here would become the name of the game
    # once it is resumed with Continue, and a later "Save game" would aim at the autosave file
    return save_game(session, path, session.name or "")


def is_autosave_name(name: str) -> bool:
    """True for the name older versions gave every autosave ("Autosave", in any language):
    a game resumed from the autosave under that name has no name of its own."""
    n = (name or "").strip().casefold()
    return n in {"autosave", i18n.t("load.autosave").casefold()}


_SAFE = re.compile(r"[^A-Za-z0-9 _.-]+")


def named_save_path(name: str, directory: Optional[Path] = None) -> Path:
    """The file of a save named ``name``; never the autosave's.

    File names are compared case-insensitively, as Windows and macOS do: "Autosave" would be
    ``autosave.json`` there, so it gets a file of its own; and a save whose name differs from an
    existing file only in case is written over that file on every system, never beside it.
    """
    directory = Path(directory) if directory else saves_dir()
    stem = _SAFE.sub("", name).strip().replace(" ", "_")[:60].strip(".") or "game"
    if f"{stem}.json".casefold() == AUTOSAVE.casefold():
        stem = f"{stem}_saved"
    wanted = f"{stem}.json".casefold()
    try:
        with os.scandir(directory) as it:
            for entry in it:
                if entry.name.casefold() == wanted:
                    return directory / entry.name
    except OSError:
        pass
    return directory / f"{stem}.json"


def _replay_detail(e: Exception) -> str:
    """A RecordError from the replay as a short sentence: the action number, never a rule id."""
    text = str(e)
    m = re.match(r"action (\d+) \((.{0,%d}?)\) (?:is illegal|cannot be applied)" % S.MAX_ACTION_TEXT, text)
    if m:
        return i18n.t("save.illegal_action", n=m.group(1), action=S.excerpt(m.group(2)))
    return _english(S.excerpt(text, 120), "save.detail_record")


def _english(detail: str, key: str, **params: object) -> str:
    """A detail that only exists in English (a library's or the engine's words) in English; in
    another language the translated sentence ``key`` instead (the English one goes to the log)."""
    if i18n.language() == "en":
        return detail
    log.info("save problem detail: %s", detail)
    return i18n.t(key, **params)


def _field_detail(e: ValidationError) -> str:
    detail = S.validation_detail(e)
    m = re.match(r"field '(.*?)':", detail)
    return _english(detail, "save.detail_field", where=m.group(1) if m else "?")


def read_save(path: Path, content: Optional[Content] = None) -> LoadedSave:
    """Read, validate and replay a save; raises SaveError with the player's message.

    Whatever goes wrong - the file, its JSON, a field, the content, the replay, or an error
    nobody foresaw - ends in a SaveError; the unforeseen ones are logged with their traceback.
    """
    path = Path(path)
    try:
        return _read_save(path, content)
    except SaveError:
        raise
    except S.FileProblem as e:
        raise SaveError(e.message(), path) from None
    except RecursionError:
        raise SaveError(i18n.t("save.too_deep"), path) from None
    except MemoryError:
        raise SaveError(i18n.t("save.too_large", size="?", limit=S._mb(S.MAX_SAVE_BYTES)), path) from None
    except Exception:
        log.exception("unexpected error reading save %s", path)
        raise SaveError(i18n.t("save.unexpected"), path) from None


def _known_bots() -> Optional[list[str]]:
    try:
        return bot_names()
    except Exception:  # the AI package is not essential to read a save
        log.exception("bot names unavailable")
        return None


def _read_save(path: Path, content: Optional[Content]) -> LoadedSave:

    d = S.parse_json(S.read_bounded(path))
    if not isinstance(d, dict) or d.get("format") != SAVE_FORMAT:
        raise SaveError(i18n.t("save.not_save"), path)
    v = d.get("save_version")
    if type(v) is int and v > SAVE_VERSION:
        raise SaveError(i18n.t("save.newer", found=S.excerpt(v), known=SAVE_VERSION), path)
    rv = d["record"].get("version") if isinstance(d.get("record"), dict) else None
    if type(rv) is int and rv > RECORD_VERSION:
        raise SaveError(i18n.t("save.newer", found=S.excerpt(rv), known=RECORD_VERSION), path)
    d = migrate(d) if type(v) is int else d  # true, "2" or 2.0 are refused by the schema
    content = content or load_content()
    try:  # every field: type, range, size; names cleaned; the config against the content
        model = S.validate_save(d, content, _known_bots())
    except ValidationError as e:
        raise SaveError(i18n.t("save.invalid", detail=_field_detail(e)), path) from None
    try:
        record = GameRecord.from_json(d["record"])
    except RecordError as e:
        raise SaveError(i18n.t("save.invalid", detail=_english(S.excerpt(str(e), 160), "save.detail_record")),
                        path) from None
    if record.config.seats != len(model.seats):
        raise SaveError(i18n.t("save.invalid", detail=i18n.t("save.detail_seats")), path)
    if tuple(s.colour for s in model.seats) != tuple(record.config.seat_colours()):
        raise SaveError(i18n.t("save.invalid", detail=i18n.t("save.detail_colours")), path)
    # The board the game was played on: this one, or a kept earlier edition (assets/map/editions)
    # on which it finishes; failing both, an earlier edition of this board is replayed move by move.
    own = edition_for(record.map_id, content)
    moved_board = own is None
    if moved_board and not earlier_board(record, content):
        raise SaveError(i18n.t("save.other_map"), path)
    content = own or content
    try:
        record = upgrade(record, content)  # a version 1 record: its card numbering (D1)
        state = replay(record, content)
    except RecordError as e:
        if moved_board:  # an earlier edition of the board whose moves do not fit this one
            raise SaveError(i18n.t("save.other_map"), path) from None
        raise SaveError(i18n.t("save.replay", detail=_replay_detail(e)), path) from None
    if moved_board:
        # Replayed move by move on this edition of the board; its scores are this board's.
        log.info("save %s from board %s replayed on %s", path, record.map_id, content.map_id)
        record.map_id = content.map_id
    else:
        stored = model.record.summary
        if stored is not None and stored.digest != digest(state):
            raise SaveError(i18n.t("save.digest"), path)
    return LoadedSave(path, model, record, state)


def migrate(d: dict[str, object]) -> dict[str, object]:
    """Upgrade an older save dict to SAVE_VERSION.

    1 -> 2: the card numbering changed (D1); the record inside is upgraded by
    ``rules.record.upgrade`` once the content is at hand, so only the number changes here.
    """
    if d.get("save_version") == 1:
        d = {**d, "save_version": 2}
    return d


def move_aside(path: Path) -> Optional[Path]:
    """Rename a bad save out of the way (never delete it); returns the new path."""
    path = Path(path)
    stamp = _dt.datetime.now().strftime("%Y%m%d-%H%M%S")
    base = path.name if len(path.name.encode("utf-8", "surrogateescape")) <= 150 else path.name[:60]
    target = path.with_name(f"{base}.damaged-{stamp}")
    n = 1
    while os.path.lexists(target):
        n += 1
        target = path.with_name(f"{base}.damaged-{stamp}-{n}")
    try:
        os.replace(path, target)
    except OSError as e:
        log.warning("could not move %s aside: %s", path, e)
        return None
    fsync_dir(path.parent)
    return target


def load_save(path: Path, content: Optional[Content] = None) -> LoadedSave:
    """``read_save``; on failure the file is moved aside and the SaveError says where.

    A file that cannot be moved (a read-only folder) is left where it is (``move_failed``).
    Any entry is moved, whatever it is (a FIFO, a device, a dangling symlink): the link or
    node itself is renamed, never what it points to.
    """
    try:
        return read_save(path, content)
    except SaveError as e:
        log.warning("bad save %s: %s", path, e.message)
        if os.path.lexists(path):
            e.moved_to = move_aside(Path(path))
            e.move_failed = e.moved_to is None
        raise


@dataclass
class SaveInfo:
    path: Path
    name: str
    saved_at: str
    round: int
    phase: str
    seats: str
    autosave: bool
    scores: tuple[tuple[str, int], ...] = ()  # each seat's (name, score) once the game is over
    over: bool = False


def list_saves(directory: Optional[Path] = None, content: Optional[Content] = None) -> tuple[list[SaveInfo], list[SaveError]]:
    """Every usable save (newest first) and the errors of the bad ones (moved aside)."""
    directory = Path(directory) if directory else saves_dir()
    good: list[SaveInfo] = []
    bad: list[SaveError] = []
    for p in save_entries(directory):  # one bad entry (a FIFO, a dangling link) never hides the others
        ls = load_listed(p, content, bad)
        if ls is not None:
            good.append(save_info(p, ls))
    return good, bad


def load_listed(p: Path, content: Optional[Content], bad: list[SaveError]) -> Optional[LoadedSave]:
    """A save for a list of saves, or None with its error added to ``bad``."""
    try:
        return load_save(p, content)
    except SaveError as e:
        bad.append(e)
    except Exception:  # load_save turns every failure into a SaveError; this is only a guard
        log.exception("listing %s", p)
        bad.append(SaveError(i18n.t("save.unexpected"), p))
    return None


def save_entries(directory: Path) -> list[Path]:
    """The ``*.json`` entries of a folder, newest first, without following any symlink (hidden
    ``.*`` entries are no player's save)."""
    out = []
    try:
        with os.scandir(directory) as it:
            for entry in it:
                if entry.name.endswith(".json") and not entry.name.startswith("."):
                    try:
                        mtime = entry.stat(follow_symlinks=False).st_mtime
                    except OSError:
                        mtime = 0.0
                    out.append((mtime, entry.name, Path(entry.path)))
    except OSError as e:
        log.warning("cannot list %s: %s", directory, e)
    return [p for _, _, p in sorted(out, key=lambda t: (-t[0], t[1]))]


def save_info(p: Path, ls: LoadedSave) -> SaveInfo:
    st = ls.state
    over = st.phase == "over"
    scores = tuple((s.name, st.seats[i].score) for i, s in enumerate(ls.model.seats)) if over else ()
    auto = is_autosave_file(p)  # a game in progress without a name has none (its file is a date)
    return SaveInfo(p, ls.model.name or ("" if auto else S.excerpt(p.stem, 60)), ls.model.saved_at, st.round, st.phase,
                    ", ".join(s.name for s in ls.model.seats), auto, scores, over)


# ---------------------------------------------------------------- settings

class TableSeat(BaseModel):
    """One seat of the last table set up in New game."""

    model_config = ConfigDict(extra="ignore")
    name: str = Field("", max_length=40)
    kind: Literal["human", "ai"] = "ai"
    bot: str = Field("medium", max_length=40)
    colour: Literal["red", "yellow", "green", "blue"] = "red"


class LastTable(BaseModel):
    """The last table New game started (issue 40): the next New game starts from it."""

    model_config = ConfigDict(extra="ignore")
    count: int = Field(3, ge=2, le=4)
    seats: list[TableSeat] = Field(default_factory=list, max_length=4)
    scenario: Optional[str] = Field(None, max_length=80)


Speed = Literal["slow", "normal", "fast", "instant"]  # the AI's pace (table/pacing.py SPEEDS)


def _known_language(code: str) -> str:
    if code not in catalog.codes():
        raise ValueError(f"no language {code!r}")
    return code


class Settings(BaseModel):
    """User settings; unknown or bad fields fall back to defaults."""

    model_config = ConfigDict(extra="ignore")
    speed: Speed = "normal"
    fullscreen: bool = False
    language: Annotated[str, AfterValidator(_known_language)] = "en"  # a code of words/catalog.LANGUAGES
    curtain_solo: bool = False  # show the privacy curtain even with a single human seat
    hints: bool = True  # the Hint button and H in games (issue 11)
    window: tuple[int, int] = (1600, 1000)  # shrunk to the desktop when the window opens (app.py)
    window_pos: Optional[tuple[int, int]] = None  # where the window was left, None: centred
    ui_scale: int = Field(default=100, ge=80, le=200)  # the interface size, percent (times the window's own growth)
    master_volume: float = Field(default=0.8, ge=0.0, le=1.0)  # sound (ui/audio.py) and motion (ui/motion.py)
    effects_volume: float = Field(default=0.8, ge=0.0, le=1.0)
    music_volume: float = Field(default=0.4, ge=0.0, le=1.0)
    mute: bool = False
    music: bool = True  # the background music
    reduce_motion: bool = False  # every animation becomes an instant change
    access: Access = Field(default_factory=Access)  # the screen reader, own keys, high contrast (issue 49)
    last_table: Optional[LastTable] = None  # New game's seats, levels, names, colours and scenario
    online_name: str = Field(default="", max_length=24)  # the name last hosted or joined with (issue 50)
    turn_notify: bool = True  # a system notification when it becomes your turn in another game (issue 47)


def settings_path() -> Path:
    return config_dir() / "settings.json"


def load_settings() -> Settings:
    """The settings file, read like a save (regular file, 64 KB at most, strict JSON); defaults otherwise
    (the language: the system's until one is chosen)."""
    try:
        p = settings_path()
        d = S.read_json_file(p, 64 * 1024) if os.path.lexists(p) else {}
        if not isinstance(d, dict):
            raise ValueError("not an object")
    except Exception:
        log.warning("settings file unreadable; using defaults")
        d = {}
    out = {"language": system_language()} if "language" not in d else {}
    defaults = Settings()
    for k in Settings.model_fields:  # field by field: one bad value does not lose the others
        if k in d:
            try:
                Settings.model_validate({k: d[k]})
                out[k] = d[k]
            except ValidationError:
                log.warning("setting %s=%r ignored", k, d[k])
    return Settings.model_validate({**defaults.model_dump(), **out})


def save_settings(s: Settings) -> bool:
    """Write the settings; False (and a log line, no traceback) when they cannot be written."""
    try:
        atomic_write_text(settings_path(), s.model_dump_json(indent=1))
    except OSError as e:
        log.warning("could not write settings: %s", e)
        return False
    return True
