"""The bytes of a wire message before its fields (``protocol.py`` checks those): at most so many
bytes, UTF-8, nested at most ``MAX_DEPTH`` deep (decided before the JSON parser sees it), one JSON
object, and this protocol's version. A message that fails is a :class:`ProtocolError`, with the
code and the words key the sender is answered with."""
from __future__ import annotations

import json
from typing import Any, Final, Optional, Union

PROTOCOL_VERSION: Final = 2  # 2: ``error`` carries a words key and its parameters (issue 45)
OLDEST_ERROR_VERSION = 1  # every version so far reads an ``error`` {v, type, code, message} (see ``error_text``)
MAX_CLIENT_BYTES = 16 * 1024  # a client message: an action is one short line
MAX_SERVER_BYTES = 1024 * 1024  # a server message: a view with every piece of a 4-seat game
MAX_DEPTH = 6  # objects and lists nested in a client message


class ProtocolError(ValueError):
    """A message that cannot be accepted: ``code`` is one of ERROR_CODES, ``key`` and ``params``
    the words (``net.*``), ``message`` the English; ``theirs``: the sender's older protocol
    version (the answer is then written so that it can read it: ``error_text``)."""

    def __init__(self, code: str, message: str, key: str = "net.bad_message", theirs: Optional[int] = None,
                 **params: Any):
        super().__init__(message)
        self.code = code
        self.message = message
        self.key = key
        self.params = params
        self.theirs = theirs


def raw_object(text: Union[str, bytes], max_bytes: int) -> dict[str, Any]:
    """The JSON object a message is, checked before its fields; ProtocolError when it is not one."""
    if isinstance(text, bytes):
        if len(text) > max_bytes:
            raise _too_large(max_bytes)
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError:
            raise ProtocolError("bad_json", "a message must be UTF-8 JSON text", "net.bad_json") from None
    data = text.encode("utf-8", "surrogatepass") if len(text) <= max_bytes else b""
    if len(text) > max_bytes or len(data) > max_bytes:
        raise _too_large(max_bytes)
    if too_deep(data):
        raise ProtocolError("too_deep", f"a message may nest at most {MAX_DEPTH} levels", "net.too_deep",
                            depth=MAX_DEPTH)
    try:
        obj = json.loads(text)
    except (ValueError, RecursionError):
        raise ProtocolError("bad_json", "a message must be one JSON object", "net.bad_json") from None
    if not isinstance(obj, dict):
        raise ProtocolError("bad_json", "a message must be one JSON object", "net.bad_json")
    v = obj.get("v")
    if v != PROTOCOL_VERSION:
        theirs = v if isinstance(v, int) and not isinstance(v, bool) and OLDEST_ERROR_VERSION <= v < PROTOCOL_VERSION \
            else None
        raise ProtocolError("bad_version", f"this server speaks protocol version {PROTOCOL_VERSION}",
                            "net.bad_version", theirs, version=PROTOCOL_VERSION)
    return obj


def _too_large(max_bytes: int) -> ProtocolError:
    return ProtocolError("too_large", f"a message may hold at most {max_bytes} bytes", "net.too_large",
                         bytes=max_bytes)


_BRACKETS = bytes.maketrans(b"[{]}", b"(())")  # lists and objects alike (mismatches are the parser's)
_NOT_BRACKET = bytes(c for c in range(256) if c not in b"[{]}")
_RUN = b"(" * (MAX_DEPTH + 1)


def too_deep(data: bytes) -> bool:
    """Whether the JSON text ``data`` nests objects and lists deeper than MAX_DEPTH, decided
    before parsing (so a deeply nested message never reaches the parser's recursion), in linear
    time with C-speed ``bytes`` operations only: escaped backslashes and quotes are dropped, then
    what is between quotes, then everything but brackets; then MAX_DEPTH passes of ``replace``
    each remove the innermost pairs (one level of nesting). A pair left over was nested deeper;
    unpaired brackets are the parser's to refuse, as bad JSON. The loop over characters this
    replaces took up to 1.4 ms for a 16 KiB message; ``gonzaga netplay-check`` measures this one
    as ``nesting_check_us_16k``."""
    if data.count(b"[") + data.count(b"{") <= MAX_DEPTH:  # (an act has one): no deeper than its openings
        return False
    t = data.replace(b"\\\\", b"").replace(b'\\"', b"")  # JSON pairs backslashes from the left, as here
    t = b"".join(t.split(b'"')[::2]).translate(_BRACKETS, _NOT_BRACKET)
    if _RUN in t:  # that many openings in a row are that deep (or never closed: bad JSON anyway)
        return True
    for _ in range(MAX_DEPTH):
        shorter = t.replace(b"()", b"")
        if len(shorter) == len(t):
            return False
        t = shorter
    return b"()" in t
