"""Game content as data (spec part D): fiefs, board, scenario tiles, objective cards.

Everything is read from JSON files in ``assets/map/`` and validated with pydantic.
A problem raises :class:`ContentError`, whose message names the file and the field.
This module checks the *shape* of the data and the cross references; the map's
design properties (D2: site counts, coverings, barriers) are checked in ``mapcheck``.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any, Literal, Optional, Self, TypeVar

from pydantic import BaseModel, ConfigDict, Field, StrictBool, ValidationError, model_validator

from . import hexgrid
from .hexgrid import Hex
import hashlib
from ..resources import asset_path

REGION_IDS = ("hispania", "francia", "britannia", "italia", "germania", "orientalis")
SEA_IDS = ("germanicum", "balticum", "britannicum", "cantabricus", "tyrrhenum", "adriaticum")
WESTERN_SYMBOLS = ("university", "cathedral", "wine", "wool")
EASTERN_SYMBOLS = ("bank", "art", "silk", "glass")
SEA_SYMBOLS = ("anchor", "ship", "fish", "shell", "trident", "compass")


class ContentError(Exception):
    """Game content that cannot be used; the message names the file and the field."""


class _Strict(BaseModel):
    # defer_build: each model's validator is built when content is first loaded, not when this
    # module is imported (the title screen shows before any content is read: a faster start)
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)


# ---------------------------------------------------------------- fiefs (D1)

class FiefModel(_Strict):
    number: int = Field(ge=10, le=120, multiple_of=10)
    name: str
    cells: list[tuple[int, int]] = Field(min_length=3, max_length=4)
    castles: list[tuple[int, int]]

    @model_validator(mode="after")
    def _shape(self) -> Self:
        if (0, 0) not in self.cells:
            raise ValueError("cells must include the anchor cell (0, 0)")
        if len(set(self.cells)) != len(self.cells):
            raise ValueError("cells repeat a hex")
        if not set(self.castles) <= set(self.cells):
            raise ValueError("every castle must be one of the cells")
        if not hexgrid.is_connected(self.cells):
            raise ValueError("cells are not connected")
        return self


class FiefsFile(_Strict):
    version: int
    # D1: a fief card's number is the fief number plus the seat colour's digit
    colour_digits: dict[Literal["red", "yellow", "green", "blue"], int]
    fiefs: list[FiefModel] = Field(min_length=12, max_length=12)

    @model_validator(mode="after")
    def _numbers(self) -> Self:
        nums = [f.number for f in self.fiefs]
        if sorted(nums) != list(range(10, 130, 10)):
            raise ValueError("fief numbers must be 10, 20, ..., 120, once each")
        if len(self.colour_digits) != 4 or sorted(self.colour_digits.values()) != [1, 2, 3, 4]:
            raise ValueError("colour_digits must give red, yellow, green and blue the digits 1-4, once each")
        return self


# ---------------------------------------------------------------- board (D2, D4)

class RegionModel(_Strict):
    id: Literal[REGION_IDS]  # type: ignore[valid-type]
    name: str
    group: Literal["west", "east"]
    color: str = Field(pattern=r"^#[0-9a-fA-F]{6}$")
    label: tuple[float, float]  # label anchor in hex units (hexgrid.to_pixel space)
    island: StrictBool = False  # D2: an island region touches no other region by land (mapcheck)


class SeaModel(_Strict):
    id: Literal[SEA_IDS]  # type: ignore[valid-type]
    name: str
    symbol: Literal[SEA_SYMBOLS]  # type: ignore[valid-type]
    label: tuple[float, float]


class HexModel(_Strict):
    q: int
    r: int
    terrain: Literal["land", "sea"]
    region: Optional[str] = None
    sea: Optional[str] = None

    @model_validator(mode="after")
    def _owner(self) -> Self:
        if self.terrain == "land" and (self.region is None or self.sea is not None):
            raise ValueError(f"land hex ({self.q},{self.r}) needs a region and no sea")
        if self.terrain == "sea" and (self.sea is None or self.region is not None):
            raise ValueError(f"sea hex ({self.q},{self.r}) needs a sea and no region")
        return self


class SiteModel(_Strict):
    q: int
    r: int
    kind: Literal["city", "harbor"]
    name: str
    symbol: Optional[str] = None  # cities: a D4 symbol
    sea: Optional[str] = None  # harbors: the sea whose symbol it shows
    label_offset: tuple[float, float] = (0.0, 0.75)  # name placement, hex units from the centre

    @model_validator(mode="after")
    def _kind(self) -> Self:
        if self.kind == "city" and (self.symbol is None or self.sea is not None):
            raise ValueError(f"city {self.name} needs a symbol and no sea")
        if self.kind == "harbor" and (self.sea is None or self.symbol is not None):
            raise ValueError(f"harbor {self.name} needs a sea and no symbol")
        return self


class BarrierModel(_Strict):
    a: tuple[int, int]
    b: tuple[int, int]


class RenderModel(_Strict):
    coastline: Optional[str] = None  # file beside the board, polygons in hex units
    title: str = "Europa"


class BoardFile(_Strict):
    version: int
    name: str
    regions: list[RegionModel] = Field(min_length=6, max_length=6)
    seas: list[SeaModel] = Field(min_length=6, max_length=6)
    hexes: list[HexModel]
    sites: list[SiteModel]
    barriers: list[BarrierModel]
    render: RenderModel = Field(default_factory=RenderModel)

    @model_validator(mode="after")
    def _references(self) -> Self:
        region_ids = {r.id for r in self.regions}
        sea_ids = {s.id for s in self.seas}
        if len(region_ids) != 6 or len(sea_ids) != 6:
            raise ValueError("regions and seas must each be six distinct ids")
        cells: dict[Hex, HexModel] = {}
        for h in self.hexes:
            if (h.q, h.r) in cells:
                raise ValueError(f"hexes: ({h.q},{h.r}) is listed twice")
            cells[(h.q, h.r)] = h
            if h.region is not None and h.region not in region_ids:
                raise ValueError(f"hexes: ({h.q},{h.r}) names unknown region {h.region!r}")
            if h.sea is not None and h.sea not in sea_ids:
                raise ValueError(f"hexes: ({h.q},{h.r}) names unknown sea {h.sea!r}")
        seen: set[Hex] = set()
        for s in self.sites:
            at = (s.q, s.r)
            if at not in cells:
                raise ValueError(f"sites: {s.name} at ({s.q},{s.r}) is not a hex of the map")
            if cells[at].terrain != "land":
                raise ValueError(f"sites: {s.name} at ({s.q},{s.r}) is on a sea hex")
            if at in seen:
                raise ValueError(f"sites: two sites on hex ({s.q},{s.r})")
            seen.add(at)
            if s.sea is not None and s.sea not in sea_ids:
                raise ValueError(f"sites: harbor {s.name} names unknown sea {s.sea!r}")
            if s.symbol is not None and s.symbol not in WESTERN_SYMBOLS + EASTERN_SYMBOLS:
                raise ValueError(f"sites: city {s.name} has unknown symbol {s.symbol!r}")
        for b in self.barriers:
            if b.a not in cells or b.b not in cells:
                raise ValueError(f"barriers: {b.a}-{b.b} is not between two hexes of the map")
            if not hexgrid.are_adjacent(b.a, b.b):
                raise ValueError(f"barriers: {b.a}-{b.b} joins hexes that are not neighbours")
        return self


# ---------------------------------------------------------------- scenarios (D3), objectives (D4)

class ScenarioModel(_Strict):
    name: str
    seats: int = Field(ge=2, le=4)
    flourishing: list[str] = Field(min_length=3, max_length=5)


class ScenariosFile(_Strict):
    version: int
    scenarios: list[ScenarioModel]

    @model_validator(mode="after")
    def _check(self) -> Self:
        names = [s.name for s in self.scenarios]
        if len(set(names)) != len(names):
            raise ValueError("scenario names must be unique")
        for s in self.scenarios:
            bad = [r for r in s.flourishing if r not in REGION_IDS]
            if bad:
                raise ValueError(f"scenario {s.name}: unknown region(s) {bad}")
            if len(set(s.flourishing)) != s.seats + 1:
                raise ValueError(f"scenario {s.name}: a {s.seats}-seat tile has {s.seats + 1} flourishing regions")
        return self


class ObjectiveModel(_Strict):
    id: str
    western: Literal[WESTERN_SYMBOLS]  # type: ignore[valid-type]
    eastern: Literal[EASTERN_SYMBOLS]  # type: ignore[valid-type]


class ObjectivesFile(_Strict):
    version: int
    objectives: list[ObjectiveModel] = Field(min_length=16, max_length=16)

    @model_validator(mode="after")
    def _unique(self) -> Self:
        pairs = {(o.western, o.eastern) for o in self.objectives}
        ids = {o.id for o in self.objectives}
        if len(pairs) != 16 or len(ids) != 16:
            raise ValueError("the 16 objective cards must be the 16 distinct symbol pairs with unique ids")
        return self


# ---------------------------------------------------------------- loaded content

@dataclass(frozen=True)
class Fief:
    """A fief shape with its distinct rotations (spec D1, P10)."""

    number: int
    name: str
    cells: tuple[Hex, ...]
    castles: frozenset[Hex]
    # rotation index k (0-5) of each distinct orientation, in increasing k
    distinct_rotations: tuple[int, ...] = field(default=())

    def rotated(self, k: int) -> tuple[tuple[Hex, ...], frozenset[Hex]]:
        """Cells and castles turned k sixths about the anchor cell (0, 0)."""
        return (tuple(hexgrid.rotate(c, k) for c in self.cells),
                frozenset(hexgrid.rotate(c, k) for c in self.castles))

    def footprint(self, anchor: Hex, k: int) -> tuple[tuple[Hex, ...], frozenset[Hex]]:
        cells, castles = self.rotated(k)
        return (tuple(hexgrid.add(anchor, c) for c in cells),
                frozenset(hexgrid.add(anchor, c) for c in castles))


def _distinct_rotations(cells: tuple[Hex, ...], castles: frozenset[Hex]) -> tuple[int, ...]:
    seen = set()
    out = []
    for k in range(6):
        rc = [hexgrid.rotate(c, k) for c in cells]
        rk = {hexgrid.rotate(c, k) for c in castles}
        norm = hexgrid.normalize(rc)
        # the same translation that normalises the cells, applied to the castles
        q0, r0 = sorted(rc, key=lambda h: (h[1], h[0]))[0]
        key = (norm, tuple(sorted((q - q0, r - r0) for q, r in rk)))
        if key not in seen:
            seen.add(key)
            out.append(k)
    return tuple(out)


@dataclass(frozen=True)
class Site:
    hex: Hex
    kind: str  # "city" or "harbor"
    name: str
    region: str
    symbol: Optional[str] = None
    sea: Optional[str] = None
    label_offset: tuple[float, float] = (0.0, 0.75)


@dataclass(frozen=True)
class Scenario:
    name: str
    seats: int
    flourishing: frozenset[str]


@dataclass(frozen=True)
class Objective:
    id: str
    western: str
    eastern: str

    @property
    def symbols(self) -> tuple[str, str]:
        return (self.western, self.eastern)


@dataclass(frozen=True)
class Content:
    """Everything the rules read from ``assets/map/``."""

    fiefs: dict[int, Fief]
    board: BoardFile
    scenarios: tuple[Scenario, ...]
    objectives: tuple[Objective, ...]
    directory: Path
    colour_digits: dict[str, int] = field(default_factory=dict, compare=False)  # D1
    edition_digest: Optional[str] = None  # set for an earlier edition of the board (editions/)
    base_directory: Optional[Path] = None  # an edition's: the current content's folder

    def current(self) -> "Content":
        """The current board's content (an earlier edition's new games are played on it)."""
        return load_content(self.base_directory) if self.edition_digest else self

    @cached_property
    def terrain(self) -> dict[Hex, str]:
        return {(h.q, h.r): h.terrain for h in self.board.hexes}

    @cached_property
    def region_of(self) -> dict[Hex, str]:
        return {(h.q, h.r): h.region for h in self.board.hexes if h.region}

    @cached_property
    def sea_of(self) -> dict[Hex, str]:
        return {(h.q, h.r): h.sea for h in self.board.hexes if h.sea}

    @cached_property
    def sites(self) -> dict[Hex, Site]:
        region_of = self.region_of
        return {(s.q, s.r): Site((s.q, s.r), s.kind, s.name, region_of[(s.q, s.r)],
                                 s.symbol, s.sea, (s.label_offset[0], s.label_offset[1]))
                for s in self.board.sites}

    @cached_property
    def barriers(self) -> frozenset[frozenset[Hex]]:
        return frozenset(frozenset(((b.a[0], b.a[1]), (b.b[0], b.b[1]))) for b in self.board.barriers)

    @cached_property
    def region_ids(self) -> tuple[str, ...]:
        return tuple(r.id for r in self.board.regions)

    @cached_property
    def region_names(self) -> dict[str, str]:
        return {r.id: r.name for r in self.board.regions}

    @cached_property
    def sea_names(self) -> dict[str, str]:
        return {s.id: s.name for s in self.board.seas}

    @cached_property
    def map_id(self) -> dict[str, Any]:
        """Which board a game was played on: saved in records, checked when one is loaded."""
        if self.edition_digest:  # an earlier edition keeps the digest its games recorded
            return {"name": self.board.name, "version": self.board.version, "digest": self.edition_digest}
        h = hashlib.sha256(self.board.model_dump_json().encode())
        for f in sorted(self.fiefs.values(), key=lambda f: f.number):
            h.update(repr((f.number, f.cells, sorted(f.castles))).encode())
        return {"name": self.board.name, "version": self.board.version, "digest": h.hexdigest()[:12]}

    def scenario(self, name: str) -> Scenario:
        for s in self.scenarios:
            if s.name.lower() == name.lower():
                return s
        raise KeyError(name)

    def scenarios_for(self, seats: int) -> tuple[Scenario, ...]:
        return tuple(s for s in self.scenarios if s.seats == seats)

    def objective(self, oid: str) -> Objective:
        for o in self.objectives:
            if o.id == oid:
                return o
        raise KeyError(oid)

    def objective_cities(self, oid: str) -> tuple[Hex, ...]:
        """The six cities of an objective card (X5): every city of either symbol."""
        symbols = set(self.objective(oid).symbols)
        return tuple(sorted(h for h, s in self.sites.items() if s.kind == "city" and s.symbol in symbols))


# ---------------------------------------------------------------- loading

def default_directory() -> Path:
    return asset_path("map")


M = TypeVar("M", bound=BaseModel)


def _read(path: Path, model: type[M]) -> M:
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ContentError(f"{path}: missing file (the game's data is incomplete; reinstall)") from None
    except json.JSONDecodeError as e:
        raise ContentError(f"{path}: not valid JSON at line {e.lineno}, column {e.colno}: {e.msg}") from None
    try:
        return model.model_validate(raw)
    except ValidationError as e:
        first = e.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "(top level)"
        more = f" (and {e.error_count() - 1} more problem(s))" if e.error_count() > 1 else ""
        raise ContentError(f"{path}: field {where}: {first['msg']}{more}") from None


_CACHE: dict[Path, Content] = {}


def load_content(directory: Path | str | None = None) -> Content:
    """Load and validate the content in ``directory`` (default: the game's assets/map)."""
    d = Path(directory) if directory is not None else default_directory()
    d = d.resolve()
    if d in _CACHE:
        return _CACHE[d]
    edition = _read(d / "edition.json", EditionFile) if (d / "edition.json").exists() else None
    base = (d / edition.base).resolve() if edition else d  # an edition has only its board.json
    fiefs_file = _read(base / "fiefs.json", FiefsFile)
    board = _read(d / "board.json", BoardFile)
    scen = _read(base / "scenarios.json", ScenariosFile)
    objs = _read(base / "objectives.json", ObjectivesFile)
    fiefs = {}
    for f in fiefs_file.fiefs:
        cells = tuple((c[0], c[1]) for c in f.cells)
        castles = frozenset((c[0], c[1]) for c in f.castles)
        fiefs[f.number] = Fief(f.number, f.name, cells, castles, _distinct_rotations(cells, castles))
    content = Content(
        fiefs=fiefs,
        board=board,
        scenarios=tuple(Scenario(s.name, s.seats, frozenset(s.flourishing)) for s in scen.scenarios),
        objectives=tuple(Objective(o.id, o.western, o.eastern) for o in objs.objectives),
        directory=d,
        colour_digits={str(k): v for k, v in fiefs_file.colour_digits.items()},
        edition_digest=edition.digest if edition else None,
        base_directory=base if edition else None,
    )
    _CACHE[d] = content
    return content


class EditionFile(_Strict):
    """``editions/<name>-<digest>/edition.json``: an earlier edition of the board, kept so that
    games begun on it finish on it (its fiefs, scenarios and objectives are the base folder's)."""

    about: str = ""
    digest: str = Field(pattern=r"^[0-9a-f]{12}$")
    base: str = "../.."


def edition_for(map_id: Optional[dict[str, Any]], content: Content) -> Optional[Content]:
    """The content of the board a record names: ``content`` itself, a kept earlier edition of
    it (``editions/`` beside the board), or None when this program does not have that board."""
    if not isinstance(map_id, dict) or map_id.get("digest") == content.map_id["digest"]:
        return content
    folder = content.directory / "editions"
    if content.edition_digest is not None:  # look beside the current board, not inside an edition
        return None
    name, digest = str(map_id.get("name", "")), str(map_id.get("digest", ""))
    candidate = folder / f"{name}-{digest}"
    if not (re.fullmatch(r"[0-9a-f]{12}", digest) and re.fullmatch(r"[A-Za-z0-9_-]{1,40}", name)) \
            or not (candidate / "edition.json").is_file():
        return None
    edition = load_content(candidate)
    return edition if edition.map_id["digest"] == digest else None
