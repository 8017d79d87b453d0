"""Twelve-word shingles of a text, hashed: how the game's own rules text is checked against the
printed rulebooks without keeping the rulebooks (``tools/rulebook_shingles.py`` makes the
hashes, ``tests/test_own_words.py`` checks every game text against them).

A shingle is twelve consecutive words of the normalised text: lower case, accents folded,
every character that is not a letter or a digit turned into a space (so ``dell'anello`` is
``dell anello``, markdown and punctuation vanish). Its hash is the first 16 hex digits of the
SHA-256 of the twelve words joined by single spaces.
"""
from __future__ import annotations

import hashlib
import re
import unicodedata

SIZE = 12
_NOT_WORD = re.compile(r"[^0-9a-z]+")


def words(text: str) -> list[str]:
    """The words of ``text``, normalised (lower case, accents folded, punctuation dropped)."""
    folded = "".join(c for c in unicodedata.normalize("NFKD", text.lower()) if not unicodedata.combining(c))
    return _NOT_WORD.sub(" ", folded).split()


def digest(shingle: list[str] | tuple[str, ...]) -> str:
    return hashlib.sha256(" ".join(shingle).encode("utf-8")).hexdigest()[:16]


def shingles(text: str, size: int = SIZE) -> list[tuple[int, str]]:
    """(index of the first word, hash) of every ``size``-word run of ``text``."""
    w = words(text)
    return [(i, digest(w[i:i + size])) for i in range(len(w) - size + 1)]


def matches(text: str, known: set[str], size: int = SIZE) -> list[str]:
    """The passages of ``text`` (runs of ``size`` or more words, merged where they overlap)
    whose every ``size``-word shingle is in ``known``."""
    w = words(text)
    hits = [i for i, h in shingles(text, size) if h in known]
    out: list[str] = []
    start: int | None = None
    end = 0  # where the passage begun at ``start`` ends (read only once it has begun)
    for i in hits:
        if start is not None and i <= end:
            end = i + size
            continue
        if start is not None:
            out.append(" ".join(w[start:end]))
        start, end = i, i + size
    if start is not None:
        out.append(" ".join(w[start:end]))
    return out
