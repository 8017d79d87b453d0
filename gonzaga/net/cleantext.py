"""Text that players type and others read online: names and chat (issue 39).

A name is who a seat is at every table it is shown on, so a name holding characters that change
how the text around it reads is **refused**, not cleaned: control characters (NUL, newlines,
tabs...), bidirectional overrides, embeddings and isolates (which can make "Ann" read as another
seat's name, or turn a chat line around), zero-width characters (two names that look the same),
and names that are only spaces. Cleaning a name silently would show the others something the
player did not choose; the player's own game cleans what was typed (``clean_name``) before it
is sent, so a refusal only ever reaches a client that did not.

A chat line is free text: the server **cleans** it (the same characters dropped, spaces
collapsed, cut to ``MAX_CHAT``) and refuses only a line left empty.
"""
from __future__ import annotations

import unicodedata
from typing import Optional

MAX_NAME = 24
MAX_CHAT = 200
# bidirectional marks, embeddings, overrides and isolates; zero-width and invisible joiners
_INVISIBLE = frozenset(
    "\u061c\u200b\u200c\u200d\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2060\u2061\u2062\u2063\u2064"
    "\u2066\u2067\u2068\u2069\ufeff\u180e\u00ad")


def _bad(ch: str) -> bool:
    """A character that must not be in a name or a chat line: a control, format, surrogate or
    private character, or one of the invisible ones above (a space is fine)."""
    return ch in _INVISIBLE or unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp")


def name_problem(name: str) -> Optional[str]:
    """None for a name that may be shown as it is; else why not, in words."""
    if any(_bad(ch) for ch in name):
        return "a name may not hold control, invisible or text-direction characters"
    if not name.strip():
        return "a name cannot be only spaces"
    if name != " ".join(name.split()):
        return "a name may not begin or end with spaces, nor hold several in a row"
    if len(name) > MAX_NAME:
        return f"a name has at most {MAX_NAME} characters"
    return None


def clean(text: str, limit: int) -> str:
    """``text`` without the characters ``_bad`` names, its spaces collapsed, at most ``limit`` long."""
    kept = "".join(" " if ch in "\t\n\r\v\f\u2028\u2029" else ch for ch in text)
    kept = "".join(ch for ch in kept if not _bad(ch))
    return " ".join(kept.split())[:limit].rstrip()


def clean_name(text: str) -> str:
    """A name as the player's own game would send it (not cut: a name too long is the player's to
    shorten; the server checks it with ``name_problem``)."""
    return clean(text, len(text))


def clean_chat(text: str) -> str:
    return clean(text, MAX_CHAT)
