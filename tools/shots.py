"""What the screenshot tools share (``tools/*_screenshots.py``): their common options, a
private game home so that no player's settings or saves are touched, and the tests' helpers
(``tests/screen_walk.py``, ``tests/scene_events.py``...) on the import path."""
from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def parser(doc: str, size: str = "1280x720", lang: bool = True) -> argparse.ArgumentParser:
    """A parser with ``--size WxH``, ``--out`` (docs/screenshots) and, with ``lang``, ``--lang``."""
    p = argparse.ArgumentParser(description=doc.splitlines()[0])
    p.add_argument("--size", default=size, help="the window, WIDTHxHEIGHT")
    if lang:
        p.add_argument("--lang", default="en", choices=("en", "it", "de", "fr", "es", "pl"))  # catalog.LANGUAGES
    p.add_argument("--out", default=str(ROOT / "docs" / "screenshots"))
    return p


def prepare(p: argparse.ArgumentParser, a: argparse.Namespace, prefix: str) -> tuple[tuple[int, int], Path]:
    """The window size and the output folder (made); a fresh GONZAGA_HOME, silent audio and the
    project and its tests on the import path. Call before importing the game."""
    try:
        w, h = (int(x) for x in a.size.lower().split("x"))
    except ValueError:
        p.error(f"--size: {a.size!r} is not WIDTHxHEIGHT")
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    os.environ["GONZAGA_HOME"] = tempfile.mkdtemp(prefix=prefix)
    for path in (ROOT / "tests", ROOT):
        if str(path) not in sys.path:
            sys.path.insert(0, str(path))
    return (w, h), out
