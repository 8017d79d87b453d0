"""Tables of colours by role, checked at load into frozen dataclasses (the map's palettes,
``map_palette.py``, and the interface's, ``ui/palette.py``).

A row of a table becomes its class through :func:`build`, which refuses a missing role, a role
the class does not have (a typo) and a value of the wrong shape or out of range, naming the
table, the palette and the role (``TableError``). Each field says what it holds with
:func:`colour`, :func:`number` or :func:`flag`, or holds rows of another class (:func:`rows`).

Why not pydantic, which validates the game's content files: its models build their validators
when the class is made, which for the two palettes' 140 roles was 75-90 ms of every start, all
of it before the first frame (``python -X importtime``); these checks take well under 1 ms.
For the same reason a palette's class is made with :func:`table`, not a plain ``@dataclass``:
the generated ``__init__``, ``__eq__`` and ``__repr__`` of 60-odd fields were compiled at every
start (6.5 ms for the map's palette, 1.8 ms without them), and only :func:`build` makes a row.
"""
from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

Rgb = tuple[int, int, int]
Rgba = tuple[int, int, int, int]
T = TypeVar("T")
Check = Callable[[Any, str], Any]


class TableError(ValueError):
    """A table's row refused: the message names where (``table palette.role``) and why."""


def _hex(n: int) -> Check:
    shape = "#rrggbb" if n == 3 else "#rrggbbaa"

    def check(v: Any, where: str) -> tuple[int, ...]:
        s = v.removeprefix("#") if isinstance(v, str) and v.startswith("#") else None
        if s is None or len(s) != 2 * n or any(ch not in "0123456789abcdefABCDEF" for ch in s):
            raise TableError(f"{where}: a colour is written {shape}, not {v!r}")
        return tuple(int(s[i:i + 2], 16) for i in range(0, 2 * n, 2))
    return check


def colour(alpha: bool = False) -> Any:
    """A field holding ``"#rrggbb"`` (``alpha``: ``"#rrggbbaa"``), kept as a tuple of bytes."""
    return dataclasses.field(metadata={"check": _hex(4 if alpha else 3)})


def number(lo: float, hi: float, *, whole: bool = True, above: bool = False) -> Any:
    """A field holding a number from ``lo`` (or above it: ``above``) to ``hi``; ``whole``: an int."""
    def check(v: Any, where: str) -> Any:
        if isinstance(v, bool) or not isinstance(v, int if whole else (int, float)):
            raise TableError(f"{where}: {'a whole number' if whole else 'a number'} is wanted, not {v!r}")
        if not (lo < v if above else lo <= v) or v > hi:
            raise TableError(f"{where}: {v!r} is out of range ({'above ' if above else ''}{lo} to {hi})")
        return v
    return dataclasses.field(metadata={"check": check})


def flag() -> Any:
    """A field holding true or false."""
    def check(v: Any, where: str) -> bool:
        if not isinstance(v, bool):
            raise TableError(f"{where}: true or false is wanted, not {v!r}")
        return v
    return dataclasses.field(metadata={"check": check})


def rows(cls: type, names: tuple[str, ...]) -> Any:
    """A field holding one row of ``cls`` for each of ``names``, in that order."""
    def check(v: Any, where: str) -> dict[str, Any]:
        if not isinstance(v, Mapping) or tuple(v) != names:
            got = ", ".join(v) if isinstance(v, Mapping) else repr(v)
            raise TableError(f"{where}: the rows are {', '.join(names)}, in that order; got {got}")
        return {k: build(cls, v[k], f"{where}.{k}") for k in names}
    return dataclasses.field(metadata={"check": check})


def table(cls: type[T]) -> type[T]:
    """A palette's class: frozen fields, rows made only by :func:`build` (no generated
    ``__init__``, ``__eq__`` or ``__repr__``: see above)."""
    return dataclasses.dataclass(frozen=True, eq=False, repr=False, init=False)(cls)


def build(cls: type[T], row: Any, where: str) -> T:
    """``row`` (a mapping of role to value) checked and made into a ``cls``; ``where`` names it
    in a refusal ("ui/palette.py TABLE high")."""
    if not isinstance(row, Mapping):
        raise TableError(f"{where}: a table of roles is wanted, not {type(row).__name__}")
    fields = dataclasses.fields(cls)  # type: ignore[arg-type]
    roles = {f.name for f in fields}
    for k in row:
        if k not in roles:
            raise TableError(f"{where}.{k}: not a role of {cls.__name__} (misspelt?)")
    for f in fields:
        if f.name not in row:
            raise TableError(f"{where}.{f.name}: missing")
    made = object.__new__(cls)
    for f in fields:  # frozen: set as dataclasses' own __init__ sets a frozen field
        object.__setattr__(made, f.name, f.metadata["check"](row[f.name], f"{where}.{f.name}"))
    return made


def roles(cls: type) -> tuple[str, ...]:
    """The roles of a table's class, in the order they are written."""
    return tuple(f.name for f in dataclasses.fields(cls))
