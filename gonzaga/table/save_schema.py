"""What a save file may contain, checked before anything else uses it. Pure Python (no pygame).

Three layers, each refusing with an exception that says what is wrong (never a traceback):

* :func:`read_bounded` reads a file only if it is a regular file (a symlink is followed only to a
  regular file), never blocks on a FIFO or a device, and never reads more than ``MAX_SAVE_BYTES``;
* :func:`parse_json` parses JSON without accepting ``Infinity``/``NaN``, numbers longer than
  ``MAX_NUMBER_DIGITS`` digits or nesting deeper than the interpreter allows;
* :class:`SaveModel` / :class:`RecordModel` (pydantic v2) bound every field for type, range and
  size, clean the strings a player will see (control characters removed), and check the
  configuration against the loaded content (scenario names for that seat count, bot names).

Player-facing sentences live in ``gonzaga/words`` (``save.*``); :class:`FileProblem`
carries an i18n key and its parameters, and pydantic errors are turned into a short detail by
:func:`validation_detail`, which quotes at most a short cleaned excerpt of the bad value.
"""
from __future__ import annotations

import errno
import json
import math
import os
import re
import reprlib
import stat
from typing import TYPE_CHECKING, Annotated, Any, Callable, Collection, Literal, NoReturn, Optional, Self, Union

from pydantic import (AfterValidator, BaseModel, BeforeValidator, ConfigDict, Field, ValidationError,
                      ValidationInfo, field_validator, model_validator)
from ..words import i18n

if TYPE_CHECKING:
    from ..rules.content import Content

# A finished four-seat game is about 3.6 KB (``json.dumps(..., indent=1)``); 1 MiB is ~290 times that.
MAX_SAVE_BYTES = 1 << 20
MAX_NUMBER_DIGITS = 20  # 2**63 has 19 digits
MAX_SEED = 2 ** 63
MAX_ACTIONS = 500  # a four-seat game that runs all 12 rounds has about 100
MAX_ACTION_TEXT = 400  # the longest action, a four-seat setup, is about 260 characters
MAX_SEAT_NAME = 40
MAX_SAVE_NAME = 80
MAX_SHORT_TEXT = 40  # app_version, saved_at, bot names, scenario and board names
EXCERPT = 40  # at most this many characters of a bad value are quoted in a message

COLOURS = ("red", "yellow", "green", "blue")


# ---------------------------------------------------------------- text shown to a player

def clean_text(s: str) -> str:
    """``s`` without control, format, surrogate, private-use or unassigned characters.

    Tabs and line breaks become spaces; runs of spaces become one; the ends are stripped.
    Such characters cannot be drawn (a NUL makes the font renderer raise, a lone surrogate
    cannot be encoded) and have no place in a name.
    """
    if s.isprintable() and "  " not in s and s == s.strip():
        return s  # the common case, at C speed
    out = []
    for ch in s:
        if ch.isprintable():
            out.append(ch)
        elif ch in "\t\n\r\x0b\x0c\u2028\u2029" or ch.isspace():
            out.append(" ")
    return re.sub(r" {2,}", " ", "".join(out)).strip()


def excerpt(value: Any, limit: int = EXCERPT) -> str:
    """A short, cleaned, printable quotation of any value (for messages)."""
    if isinstance(value, str):
        s = value[: limit * 4]
    else:
        r = reprlib.Repr()
        r.maxlevel, r.maxlist, r.maxdict, r.maxstring, r.maxother, r.maxlong = 3, 4, 4, limit, limit, limit
        try:
            s = r.repr(value)
        except Exception:  # a hostile object: say what it is, not what it holds
            s = type(value).__name__
    s = clean_text(s.replace("\n", " "))
    return s if len(s) <= limit else s[: limit - 1] + "…"


# ---------------------------------------------------------------- problems

class FileProblem(Exception):
    """A file that cannot be used as a save: ``key`` is an i18n key, ``params`` its parameters."""

    def __init__(self, key: str, **params: object):
        super().__init__(key)
        self.key = key
        self.params = params

    def message(self) -> str:
        params = dict(self.params)
        if i18n.language() != "en" and params.get("code"):  # the system's words are English: its code instead
            params["detail"] = params["code"]
        return i18n.t(self.key, **params)


def os_problem(e: OSError) -> FileProblem:
    """A FileProblem for an error from the operating system while reading."""
    if e.errno in (errno.ENOENT,):
        return FileProblem("save.missing")
    if e.errno in (errno.EACCES, errno.EPERM):
        return FileProblem("save.no_permission")
    if e.errno in (errno.ELOOP, errno.ENXIO, errno.ENODEV, errno.EISDIR, errno.ENOTDIR):
        return FileProblem("save.not_file")
    return FileProblem("save.unreadable", detail=excerpt(e.strerror or type(e).__name__, 60),
                       code=errno.errorcode.get(e.errno or 0, type(e).__name__))


# ---------------------------------------------------------------- reading bytes

def read_bounded(path: Union[str, os.PathLike[str]], limit: int = MAX_SAVE_BYTES) -> bytes:
    """The bytes of a regular file of at most ``limit`` bytes; FileProblem otherwise.

    Never blocks: a FIFO, a device, a folder, a socket, a dangling or looping symlink is refused
    as "not a regular file" before it is opened, and the file is opened non-blocking and checked
    again (``fstat``) in case it was swapped meanwhile. A symlink to a regular file is followed.
    """
    path = os.fspath(path)
    try:
        st = os.stat(path)  # follows symlinks; never opens the file
    except FileNotFoundError:
        if os.path.lexists(path):
            raise FileProblem("save.not_file") from None  # a symlink to nothing
        raise FileProblem("save.missing") from None
    except OSError as e:
        raise os_problem(e) from None
    except ValueError:  # an embedded NUL in the path
        raise FileProblem("save.missing") from None
    if not stat.S_ISREG(st.st_mode):
        raise FileProblem("save.not_file")
    if st.st_size > limit:
        raise FileProblem("save.too_large", size=_mb(st.st_size), limit=_mb(limit))
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_BINARY", 0)
    try:
        fd = os.open(path, flags)
    except OSError as e:
        raise os_problem(e) from None
    try:
        opened = os.fstat(fd)
        if not stat.S_ISREG(opened.st_mode):
            raise FileProblem("save.not_file")
        if opened.st_size > limit:  # it grew between the stat and the open
            raise FileProblem("save.too_large", size=_mb(opened.st_size), limit=_mb(limit))
        chunks, total = [], 0
        while total <= limit:
            b = os.read(fd, min(1 << 16, limit + 1 - total))
            if not b:
                break
            chunks.append(b)
            total += len(b)
        if total != opened.st_size:  # it grew (or shrank) while being read: never half a file
            raise FileProblem("save.changed")
        return b"".join(chunks)
    except OSError as e:
        raise os_problem(e) from None
    finally:
        os.close(fd)


def _mb(n: int) -> str:
    return f"{n / (1 << 20):.1f}"


# ---------------------------------------------------------------- parsing JSON

class _BadNumber(ValueError):
    pass


def _parse_int(s: str) -> int:
    if len(s.lstrip("-")) > MAX_NUMBER_DIGITS:
        raise _BadNumber(s)
    return int(s)


def _parse_float(s: str) -> float:
    f = float(s) if len(s) <= 2 * MAX_NUMBER_DIGITS else math.inf
    if not math.isfinite(f):  # 1e999
        raise _BadNumber(s)
    return f


def _parse_constant(s: str) -> NoReturn:
    raise _BadNumber(s)  # Infinity, -Infinity, NaN: JSON extensions that Python would accept


def parse_json(raw: bytes) -> Any:
    """Parse ``raw`` as strict JSON; FileProblem for anything a save can never contain."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise FileProblem("save.bad_json") from None
    if text.startswith("\ufeff"):  # a byte-order mark some editors add
        text = text[1:]
    try:
        return json.loads(text, parse_int=_parse_int, parse_float=_parse_float, parse_constant=_parse_constant)
    except _BadNumber as e:
        raise FileProblem("save.bad_number", value=excerpt(str(e), 24)) from None
    except RecursionError:
        raise FileProblem("save.too_deep") from None
    except ValueError:  # JSONDecodeError, and anything else the decoder refuses
        raise FileProblem("save.bad_json") from None


def read_json_file(path: Union[str, os.PathLike[str]], limit: int = MAX_SAVE_BYTES) -> Any:
    """``parse_json(read_bounded(path))``."""
    return parse_json(read_bounded(path, limit))


# ---------------------------------------------------------------- field types

def _no_bool(v: object) -> object:
    if isinstance(v, bool):  # JSON true is not the number 1
        raise ValueError("a number was expected, not true/false")
    return v


def _pre_clean(limit: int) -> Callable[[object], object]:
    """A before-validator: clean a string before its length is checked (a lone surrogate, which
    pydantic cannot even hold, is removed here); one far over the limit is left for the check."""
    def clean(v: object) -> object:
        if isinstance(v, str) and len(v) <= 4 * limit:
            return clean_text(v)
        return v
    return clean


def _action_text(s: str) -> str:
    if not s or s != s.strip() or not s.isprintable() or not s.isascii():
        raise ValueError(f"action {excerpt(s)!r} has characters no action has")
    if re.search(r"\d{10,}", s):
        raise ValueError(f"action {excerpt(s)!r} has a number that is too long")
    return s


Int = Annotated[int, BeforeValidator(_no_bool)]
SeatName = Annotated[str, Field(min_length=1, max_length=MAX_SEAT_NAME), BeforeValidator(_pre_clean(MAX_SEAT_NAME))]
ShortText = Annotated[str, Field(max_length=MAX_SHORT_TEXT), BeforeValidator(_pre_clean(MAX_SHORT_TEXT))]
SaveName = Annotated[str, Field(max_length=MAX_SAVE_NAME), BeforeValidator(_pre_clean(MAX_SAVE_NAME))]
ActionText = Annotated[str, Field(max_length=MAX_ACTION_TEXT), AfterValidator(_action_text)]
Colour = Literal["red", "yellow", "green", "blue"]


class _Strict(BaseModel):
    # defer_build: validators are built at the first save or load, not at import (a faster start)
    model_config = ConfigDict(extra="forbid", strict=True, defer_build=True)


# ---------------------------------------------------------------- the record

class ConfigModel(_Strict):
    seats: Int = Field(ge=2, le=4)
    colours: list[Colour] = Field(default_factory=list, max_length=4)
    scenario: Optional[Annotated[str, Field(min_length=1, max_length=MAX_SHORT_TEXT)]] = None
    last_turn: Literal["first", "random"] = "first"
    numbering: Literal["printed", "v1"] = "printed"

    @model_validator(mode="after")
    def _consistent(self, info: ValidationInfo) -> Self:
        if self.colours and (len(self.colours) != self.seats or len(set(self.colours)) != self.seats):
            raise ValueError("the seat colours must be one different colour per seat")
        content = (info.context or {}).get("content")
        if self.scenario is not None and content is not None:
            names = [s.name for s in content.scenarios_for(self.seats)]
            if self.scenario.lower() not in (n.lower() for n in names):
                raise ValueError(f"scenario {excerpt(self.scenario)!r} is not a tile for {self.seats} seats "
                                 f"(known: {', '.join(names)})")
        return self


class MapModel(_Strict):
    name: Annotated[str, Field(max_length=MAX_SHORT_TEXT)]
    version: Int = Field(ge=0, le=1_000_000)
    digest: Annotated[str, Field(max_length=64, pattern=r"^[0-9a-f]*$")]


class SummaryModel(_Strict):
    round: Int = Field(ge=0, le=100)
    phase: Literal["setup", "plan", "place", "over"]
    scores: list[Annotated[Int, Field(ge=-10_000, le=10_000)]] = Field(max_length=4)
    winners: list[Annotated[Int, Field(ge=0, le=3)]] = Field(max_length=4)
    digest: Annotated[str, Field(max_length=64, pattern=r"^[0-9a-f]*$")]


class RecordModel(_Strict):
    format: Literal["gonzaga-record"]
    version: Annotated[Literal[1, 2], BeforeValidator(_no_bool)]
    config: ConfigModel
    seed: Int = Field(ge=0, le=MAX_SEED)
    actions: list[ActionText] = Field(max_length=MAX_ACTIONS)
    map: Optional[MapModel] = None
    summary: Optional[SummaryModel] = None


# ---------------------------------------------------------------- the save

class SeatModel(_Strict):
    name: SeatName
    kind: Literal["human", "ai"]
    bot: Annotated[str, Field(min_length=1, max_length=MAX_SHORT_TEXT)]
    colour: Colour

    @model_validator(mode="after")
    def _known_bot(self, info: ValidationInfo) -> Self:
        bots = (info.context or {}).get("bots")
        if self.kind == "ai" and bots is not None and self.bot not in bots:
            raise ValueError(f"unknown AI level {excerpt(self.bot)!r} (known: {', '.join(bots)})")
        return self


class AssistsModel(_Strict):
    """What helped the players (issue 11): take-backs used and hints shown."""

    takebacks: Int = Field(0, ge=0, le=100_000)
    hints: Int = Field(0, ge=0, le=100_000)


class SaveModel(_Strict):
    format: Literal["gonzaga-save"]
    save_version: Annotated[Literal[1, 2], BeforeValidator(_no_bool)]
    app_version: ShortText
    saved_at: ShortText
    name: SaveName
    seats: list[SeatModel] = Field(min_length=2, max_length=4)
    record: RecordModel
    assists: Optional[AssistsModel] = None  # optional: saves without it (older ones) had no help

    @field_validator("seats")
    @classmethod
    def _colours_differ(cls, seats: list[SeatModel]) -> list[SeatModel]:
        if len({s.colour for s in seats}) != len(seats):
            raise ValueError("two seats have the same colour")
        return seats


def validate_save(d: Any, content: Optional[Content] = None, bots: Optional[Collection[str]] = None) -> SaveModel:
    """The save model of ``d``; ValidationError when a field is wrong (see ``validation_detail``)."""
    return SaveModel.model_validate(d, context={"content": content, "bots": bots})


def validate_record(d: Any, content: Optional[Content] = None) -> RecordModel:
    return RecordModel.model_validate(d, context={"content": content})


def validation_detail(e: ValidationError, prefix: str = "") -> str:
    """``field 'seats.0.kind': Input should be 'human' or 'ai'`` - a short sentence, never the value."""
    try:
        first = e.errors(include_url=False, include_input=False)[0]
    except Exception:
        return "a field is not valid"
    where = ".".join(excerpt(p, 24) for p in (prefix.split(".") if prefix else []) + list(first.get("loc", ())))
    msg = str(first.get("msg", "not valid"))
    if msg.startswith("Value error, "):
        msg = msg[len("Value error, "):]
    if first.get("type") == "literal_error" and len(msg) > 120:
        msg = "not one of the allowed values"
    return f"field '{where or 'top level'}': {excerpt(msg, 160)}"
