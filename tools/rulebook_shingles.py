"""Turn the printed rulebooks into the hashed twelve-word shingles the own-words test checks
against (issue 41). The rulebooks are not in the repository (copyright): only the hashes are
committed, in ``tests/data/rulebook_shingles.txt``, one per line, sorted.

    python tools/rulebook_shingles.py [--rules ../shared/rules] [--out tests/data/rulebook_shingles.txt]

The default rulebook folder is ``/work/shared/rules`` (``gonzaga-rules-en.md`` and
``gonzaga-regole-it.txt``); run it again when a rulebook changes.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from gonzaga.words.shingles import shingles  # noqa: E402

BOOKS = ("gonzaga-rules-en.md", "gonzaga-regole-it.txt")
HEADER = ("# SHA-256 (first 16 hex digits) of every 12-word shingle of the printed rulebooks\n"
          "# ({books}), normalised as gonzaga/words/shingles.py says. Made by tools/rulebook_shingles.py.\n")


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
