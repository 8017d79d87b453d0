"""Saves, settings, user folders and the log file. Pure Python (no pygame).

Folders come from platformdirs (``user_data_dir`` for saves, autosave and
screenshots, ``user_config_dir`` for settings, ``user_log_dir`` for the log).
The environment variable ``GONZAGA_HOME`` puts all of them under one folder
(tests, portable use).

A save file is JSON validated with pydantic (see docs/save-format.md, "Save
files")::

    {"format": "gonzaga-save", "save_version": 1, "app_version": "0.1.0",
     "saved_at": "2026-...", "name": "Tuesday game",
     "seats": [{"name": "Ann", "kind": "human", "bot": "greedy", "colour": "red"}, ...],
     "record": {...GameRecord.to_json(state), with its summary digest...}}

Writes are atomic (temp file in the same folder, fsync, ``os.replace``). A save
that cannot be used raises :class:`SaveError` with a message for the player;
``load_save`` then moves the file aside (``<file>.damaged-<time>``), never deletes it.
"""
from __future__ import annotations

import datetime as _dt
import json
import logging
import logging.handlers
import os
import re
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Literal, Optional

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from .ui import i18n

log = logging.getLogger(__name__)

APP_NAME = "Gonzaga"
SAVE_FORMAT = "gonzaga-save"
SAVE_VERSION = 1
AUTOSAVE = "autosave.json"


def app_version() -> str:
    try:
        from importlib.metadata import version
        return version("gonzaga")
    except Exception:
        return "0.1.0"


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
        import platformdirs
        d = Path(getattr(platformdirs, f"user_{kind}_dir")(APP_NAME, appauthor=False))
    d.mkdir(parents=True, exist_ok=True)
    return d


def data_dir() -> Path:
    return _user_dir("data", "data")


def config_dir() -> Path:
    return _user_dir("config", "config")


def log_dir() -> Path:
    return _user_dir("logs", "log")


def saves_dir() -> Path:
    d = data_dir() / "saves"
    d.mkdir(parents=True, exist_ok=True)
    return d


def screenshots_dir() -> Path:
    d = data_dir() / "screenshots"
    d.mkdir(parents=True, exist_ok=True)
    return d


def autosave_path() -> Path:
    return saves_dir() / AUTOSAVE


def log_path() -> Path:
    return log_dir() / "gonzaga.log"


def setup_logging(level: int = logging.INFO) -> Path:
    """Log to a rotating file in the user log folder; returns its path."""
    path = log_path()
    root = logging.getLogger()
    for h in list(root.handlers):
        if getattr(h, "_gonzaga", False):
            root.removeHandler(h)
    try:
        handler = logging.handlers.RotatingFileHandler(path, maxBytes=1_000_000, backupCount=2, encoding="utf-8")
    except OSError:
        return path
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    handler._gonzaga = True  # type: ignore[attr-defined]
    root.addHandler(handler)
    root.setLevel(level)
    return path


# ---------------------------------------------------------------- atomic writes

def atomic_write_text(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` so that a crash leaves either the old file or the new one."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


# ---------------------------------------------------------------- save files

class SeatModel(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str = Field(min_length=1, max_length=40)
    kind: Literal["human", "ai"]
    bot: str = Field(min_length=1, max_length=40)
    colour: Literal["red", "yellow", "green", "blue"]


class SaveModel(BaseModel):
    model_config = ConfigDict(extra="forbid")
    format: Literal["gonzaga-save"]
    save_version: Literal[1]
    app_version: str
    saved_at: str
    name: str = Field(max_length=80)
    seats: list[SeatModel] = Field(min_length=2, max_length=4)
    record: dict


class SaveError(Exception):
    """A save that cannot be used; ``message`` is for the player."""

    def __init__(self, message: str, path: Optional[Path] = None):
        super().__init__(message)
        self.message = message
        self.path = path
        self.moved_to: Optional[Path] = None


@dataclass
class LoadedSave:
    path: Path
    model: SaveModel
    record: object  # GameRecord
    state: object  # GameState after replay

    @property
    def seats(self):
        from .session import SeatSpec
        return [SeatSpec(s.name, s.kind, s.bot, s.colour) for s in self.model.seats]


def save_dict(session, name: str = "") -> dict:
    return {"format": SAVE_FORMAT, "save_version": SAVE_VERSION, "app_version": app_version(),
            "saved_at": _dt.datetime.now().isoformat(timespec="seconds"),
            "name": name or session.name or "",
            "seats": [s.to_json() for s in session.seats],
            "record": session.record.to_json(session.state)}


def save_game(session, path: Path, name: str = "") -> Path:
    """Write ``session`` to ``path`` atomically (the record holds its summary digest)."""
    text = json.dumps(save_dict(session, name), indent=1, ensure_ascii=False)
    atomic_write_text(Path(path), text)
    return Path(path)


def autosave(session) -> Path:
    return save_game(session, autosave_path(), session.name or i18n.t("load.autosave"))


_SAFE = re.compile(r"[^A-Za-z0-9 _.-]+")


def named_save_path(name: str) -> Path:
    stem = _SAFE.sub("", name).strip().replace(" ", "_")[:60] or "game"
    return saves_dir() / f"{stem}.json"


def _pydantic_detail(e: ValidationError) -> str:
    first = e.errors()[0]
    where = ".".join(str(p) for p in first["loc"]) or "top level"
    return f"field '{where}': {first['msg']}"


def read_save(path: Path, content=None) -> LoadedSave:
    """Read, validate and replay a save; raises SaveError with the player's message."""
    from .rules import GameRecord, RecordError, replay
    from .rules.record import digest

    path = Path(path)
    try:
        raw = path.read_bytes()
    except OSError as e:
        raise SaveError(i18n.t("save.unreadable", detail=e.strerror or str(e)), path) from None
    try:
        d = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError):
        raise SaveError(i18n.t("save.bad_json"), path) from None
    if not isinstance(d, dict) or d.get("format") != SAVE_FORMAT:
        raise SaveError(i18n.t("save.not_save"), path)
    v = d.get("save_version")
    if isinstance(v, int) and v > SAVE_VERSION:
        raise SaveError(i18n.t("save.newer", found=v, known=SAVE_VERSION), path)
    d = migrate(d)
    try:
        model = SaveModel.model_validate(d)
    except ValidationError as e:
        raise SaveError(i18n.t("save.invalid", detail=_pydantic_detail(e)), path) from None
    try:
        record = GameRecord.from_json(model.record)
    except RecordError as e:
        raise SaveError(i18n.t("save.invalid", detail=str(e)), path) from None
    if record.config.seats != len(model.seats):
        raise SaveError(i18n.t("save.invalid", detail="the seats do not match the record"), path)
    if tuple(s.colour for s in model.seats) != tuple(record.config.seat_colours()):
        raise SaveError(i18n.t("save.invalid", detail="the seat colours do not match the record"), path)
    from .rules import load_content
    from .rules.record import other_map
    if other_map(record, content or load_content()):
        raise SaveError(i18n.t("save.other_map"), path)
    try:
        state = replay(record, content)
    except RecordError as e:
        raise SaveError(i18n.t("save.replay", detail=str(e)), path) from None
    stored = model.record.get("summary")
    if isinstance(stored, dict) and stored.get("digest") not in (None, digest(state)):
        raise SaveError(i18n.t("save.digest"), path)
    return LoadedSave(path, model, record, state)


def migrate(d: dict) -> dict:
    """Upgrade an older save dict to SAVE_VERSION (the chain is empty while there is one version)."""
    return d


def move_aside(path: Path) -> Optional[Path]:
    """Rename a bad save out of the way (never delete it); returns the new path."""
    path = Path(path)
    stamp = _dt.datetime.now().strftime("%Y%m%d-%H%M%S")
    target = path.with_name(f"{path.name}.damaged-{stamp}")
    n = 1
    while target.exists():
        n += 1
        target = path.with_name(f"{path.name}.damaged-{stamp}-{n}")
    try:
        os.replace(path, target)
    except OSError:
        log.exception("could not move %s aside", path)
        return None
    return target


def load_save(path: Path, content=None) -> LoadedSave:
    """``read_save``; on failure the file is moved aside and the SaveError says where."""
    try:
        return read_save(path, content)
    except SaveError as e:
        log.warning("bad save %s: %s", path, e.message)
        if Path(path).exists():
            e.moved_to = move_aside(Path(path))
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


def list_saves(directory: Optional[Path] = None, content=None) -> tuple[list[SaveInfo], list[SaveError]]:
    """Every usable save (newest first) and the errors of the bad ones (moved aside)."""
    directory = Path(directory) if directory else saves_dir()
    good: list[SaveInfo] = []
    bad: list[SaveError] = []
    files = sorted(directory.glob("*.json"), key=lambda p: p.stat().st_mtime, reverse=True)
    for p in files:
        try:
            ls = load_save(p, content)
        except SaveError as e:
            bad.append(e)
            continue
        st = ls.state
        good.append(SaveInfo(p, ls.model.name or p.stem, ls.model.saved_at, st.round, st.phase,
                             ", ".join(s.name for s in ls.model.seats), p.name == AUTOSAVE))
    return good, bad


def peek_autosave(content=None) -> Optional[SaveInfo]:
    """The autosave, if there is a usable one and its game is not over (for "Continue")."""
    p = autosave_path()
    if not p.exists():
        return None
    try:
        ls = read_save(p, content)
    except SaveError:
        return None
    if ls.state.phase == "over":
        return None
    return SaveInfo(p, ls.model.name, ls.model.saved_at, ls.state.round, ls.state.phase,
                    ", ".join(s.name for s in ls.model.seats), True)


# ---------------------------------------------------------------- settings

class Settings(BaseModel):
    """User settings; unknown or bad fields fall back to defaults."""

    model_config = ConfigDict(extra="ignore")
    speed: Literal["slow", "normal", "fast", "instant"] = "normal"
    fullscreen: bool = False
    language: Literal["en", "it"] = "en"
    curtain_solo: bool = False  # show the privacy curtain even with a single human seat
    window: tuple[int, int] = (1600, 1000)


def settings_path() -> Path:
    return config_dir() / "settings.json"


def load_settings() -> Settings:
    p = settings_path()
    if not p.exists():
        return Settings()
    try:
        d = json.loads(p.read_text(encoding="utf-8"))
        if not isinstance(d, dict):
            raise ValueError("not an object")
    except (OSError, ValueError, UnicodeDecodeError):
        log.warning("settings file %s unreadable; using defaults", p)
        return Settings()
    out = {}
    defaults = Settings()
    for k in Settings.model_fields:  # field by field: one bad value does not lose the others
        if k in d:
            try:
                Settings.model_validate({k: d[k]})
                out[k] = d[k]
            except ValidationError:
                log.warning("setting %s=%r ignored", k, d[k])
    return Settings.model_validate({**defaults.model_dump(), **out})


def save_settings(s: Settings) -> None:
    try:
        atomic_write_text(settings_path(), s.model_dump_json(indent=1))
    except OSError:
        log.exception("could not write settings")
