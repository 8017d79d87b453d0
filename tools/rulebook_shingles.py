"""Turn the printed rulebooks into the hashed twelve-word shingles the own-words test checks
against (issue 41). The rulebooks are not in the repository (copyright): only the hashes are
committed, in ``tests/data/rulebook_shingles.txt``, one per line, sorted. The test
(``tests/test_own_words.py``) loads this file for ``words``, ``digest`` and ``matches``.

A shingle is twelve consecutive words of the normalised text: lower case, accents folded,
every character that is not a letter or a digit turned into a space (so ``dell'anello`` is
``dell anello``, markdown and punctuation vanish). Its hash is the first 16 hex digits of the
SHA-256 of the twelve words joined by single spaces.

    python tools/rulebook_shingles.py [--rules ../shared/rules] [--out tests/data/rulebook_shingles.txt]

The default rulebook folder is ``/work/shared/rules`` (``gonzaga-rules-en.md`` and
``gonzaga-regole-it.txt``); run it again when a rulebook changes.
"""
from __future__ import annotations

import argparse
import hashlib
import re
import sys
import unicodedata
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

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


BOOKS = ("gonzaga-rules-en.md", "gonzaga-regole-it.txt")
HEADER = ("# SHA-256 (first 16 hex digits) of every 12-word shingle of the printed rulebooks\n"
          "# ({books}), normalised as tools/rulebook_shingles.py says. Made by tools/rulebook_shingles.py.\n")


def build(folder: Path) -> list[str]:
    hashes: set[str] = set()
    for name in BOOKS:
        path = folder / name
        if not path.is_file():
            raise SystemExit(f"rulebook_shingles: {path} not found")
        hashes |= {h for _, h in shingles(path.read_text(encoding="utf-8"))}
    return sorted(hashes)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rules", type=Path, default=Path("/work/shared/rules"))
    p.add_argument("--out", type=Path, default=ROOT / "tests" / "data" / "rulebook_shingles.txt")
    a = p.parse_args(argv)
    hashes = build(a.rules)
    a.out.parent.mkdir(parents=True, exist_ok=True)
    a.out.write_text(HEADER.format(books=", ".join(BOOKS)) + "\n".join(hashes) + "\n", encoding="utf-8")
    print(f"{len(hashes)} shingles written to {a.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
