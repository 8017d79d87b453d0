"""The game log on the wire (``history``, issue 39): ``table.gamelog`` lines as JSON and back.

A line is ``[round, key, params, parts]``; a parameter is a string, a number, null, or an
``i18n.Term`` written ``{"T": kind, "a": [args]}`` (a dict argument ``{"D": {...}}``, a tuple
``{"L": [...]}``). The receiver puts the keys into its own language. What a server sends is
never trusted: only the log's own keys and the terms' four kinds are read, to a bounded depth;
anything else drops the line.
"""
from __future__ import annotations

import re
from typing import Any, Optional

from ..table.gamelog import LogEntry
from ..words import i18n

KEY = re.compile(r"^(log|online|end|n|card|level)\.[a-z0-9_]{1,40}$")
TERMS = ("card", "n", "t", "join")
MAX_DEPTH = 8


def _enc(v: Any) -> Any:
    if isinstance(v, i18n.Term):
        return {"T": v.kind, "a": [_enc(x) for x in v.args]}
    if isinstance(v, dict):
        return {"D": {str(k): _enc(x) for k, x in v.items()}}
    if isinstance(v, (list, tuple)):
        return {"L": [_enc(x) for x in v]}
    if v is None or isinstance(v, (str, int, float, bool)):
        return v
    return str(v)


def encode(entries: list[LogEntry]) -> list[Any]:
    return [[e.round, e.key, _enc(e.params)["D"], [[k, _enc(p)["D"]] for k, p in e.parts]] for e in entries]


class _Bad(ValueError):
    pass


def _dec(v: Any, depth: int) -> Any:
    if depth > MAX_DEPTH:
        raise _Bad("too deep")
    if v is None or isinstance(v, (bool, int, float)):
        return v
    if isinstance(v, str):
        return v[:200]
    if isinstance(v, dict) and len(v) == 1:
        if "D" in v and isinstance(v["D"], dict):
            return {str(k)[:40]: _dec(x, depth + 1) for k, x in list(v["D"].items())[:20]}
        if "L" in v and isinstance(v["L"], list):
            return tuple(_dec(x, depth + 1) for x in v["L"][:20])
    if isinstance(v, dict) and set(v) == {"T", "a"} and v["T"] in TERMS and isinstance(v["a"], list) \
            and len(v["a"]) <= 3:
        args = [_dec(x, depth + 1) for x in v["a"]]
        if v["T"] == "t" and not (len(args) == 2 and isinstance(args[0], str) and KEY.match(args[0])
                                  and isinstance(args[1], dict)):
            raise _Bad("a sentence term")
        return i18n.Term(v["T"], *args)
    raise _Bad("not a log value")


def decode_line(line: Any) -> Optional[LogEntry]:
    """A log line a server sent, or None when this copy cannot read it."""
    try:
        rnd, key, params, parts = line
        if not (isinstance(rnd, int) and isinstance(key, str) and KEY.match(key) and isinstance(parts, list)):
            return None
        e = LogEntry(rnd, key, _dec({"D": params}, 0))
        for k, p in parts[:10]:
            if not (isinstance(k, str) and KEY.match(k)):
                return None
            e.parts.append((k, _dec({"D": p}, 0)))
        e.text()  # a line that cannot be put into words is not kept
        return e
    except (_Bad, TypeError, ValueError, KeyError, IndexError):
        return None
