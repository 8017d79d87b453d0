"""``gonzaga render-map OUT.png [--size WxH]``: draw the board to a PNG, headless.

Prints the path written and returns 0. Bad arguments or a path that cannot be written:
one line on stderr, return 2.
"""
from __future__ import annotations

import os
import sys
from pathlib import Path

import pygame

from ..rules.content import ContentError, load_content
from .board_view import BoardRenderer

USAGE = "usage: gonzaga render-map OUT.png [--size WxH]"
HELP = f"""{USAGE}

Draw the board (the map with its regions, cities, harbors and seas) to a PNG file,
without opening a window, and print the path written.

positional arguments:
  OUT.png      the PNG file to write

options:
  -h, --help   show this help message and exit
  --size WxH   the picture's size in pixels, each side 200-8192 (default: 1920x1080)"""
DEFAULT_SIZE = (1920, 1080)
MIN_SIDE, MAX_SIDE = 200, 8192


def _fail(msg: str) -> int:
    print(f"render-map: {msg}", file=sys.stderr)
    return 2


def parse_size(text: str) -> tuple[int, int]:
    parts = text.lower().replace("×", "x").split("x")
    if len(parts) != 2:
        raise ValueError(f"--size wants WxH, e.g. 1920x1080, not {text!r}")
    try:
        w, h = int(parts[0]), int(parts[1])
    except ValueError:
        raise ValueError(f"--size wants WxH with whole numbers, not {text!r}") from None
    if not (MIN_SIDE <= w <= MAX_SIDE and MIN_SIDE <= h <= MAX_SIDE):
        raise ValueError(f"--size sides must be between {MIN_SIDE} and {MAX_SIDE} pixels, not {text!r}")
    return w, h


def main(argv: list[str]) -> int:
    out: str | None = None
    size = DEFAULT_SIZE
    args = list(argv)
    i = 0
    while i < len(args):
        a = args[i]
        if a in ("-h", "--help"):
            print(HELP)
            return 0
        if a == "--size" or a.startswith("--size="):
            if a == "--size":
                if i + 1 >= len(args):
                    return _fail("--size needs a value WxH, e.g. --size 1280x720")
                val = args[i + 1]
                i += 2
            else:
                val = a.split("=", 1)[1]
                i += 1
            try:
                size = parse_size(val)
            except ValueError as e:
                return _fail(str(e))
            continue
        if a.startswith("-"):
            return _fail(f"unknown option {a!r}; {USAGE}")
        if out is not None:
            return _fail(f"one output file only; {USAGE}")
        out = a
        i += 1
    if out is None:
        return _fail(f"missing output file; {USAGE}")
    path = Path(out)
    if path.suffix.lower() != ".png":
        return _fail(f"the output file must end in .png: {out}")
    if path.exists() and path.is_dir():
        return _fail(f"{out} is a directory")
    parent = path.parent if str(path.parent) else Path(".")
    if not parent.is_dir():
        return _fail(f"cannot write {out}: folder {parent} does not exist")
    if not os.access(parent, os.W_OK) or (path.exists() and not os.access(path, os.W_OK)):
        return _fail(f"cannot write {out}: permission denied")

    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")  # no window is ever opened (read by pygame.init)
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

    try:
        content = load_content()
    except ContentError as e:
        return _fail(str(e))
    was_init = pygame.get_init()
    pygame.init()
    try:
        surf = pygame.Surface(size)
        renderer = BoardRenderer(content, surf.get_rect())
        renderer.draw_static(surf)
        try:
            pygame.image.save(surf, str(path))
        except (pygame.error, OSError) as e:
            return _fail(f"cannot write {out}: {e}")
    finally:
        if not was_init:
            pygame.quit()
    print(path)
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main(sys.argv[1:]))
