"""Timing of the board renderer: ``python -m gonzaga.bench.board [WxH] [--frames N]``.

Prints the static-layer build time (several rebuilds, first one apart: it also loads the
fonts and makes the textures) and the per-frame dynamic draw time with 40 fiefs, 10 rings,
180 highlighted hexes, a ghost that moves every frame, objective cities and seals.
"""
from __future__ import annotations

import os
import random
import statistics
import sys
import time

import pygame

from ..render.board_view import BoardRenderer
from ..rules.content import load_content


def main(argv: list[str]) -> int:
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")  # both read by pygame.init(), below
    size = (1920, 1080)
    frames = 300
    args = list(argv)
    if "--frames" in args:
        i = args.index("--frames")
        frames = int(args[i + 1])
        del args[i:i + 2]
    if args:
        w, h = args[0].lower().split("x")
        size = (int(w), int(h))
    pygame.init()
    content = load_content()
    W, H = size
    surf = pygame.Surface(size)
    r = BoardRenderer(content, surf.get_rect())
    t = time.perf_counter()
    r.static_layer()
    first = (time.perf_counter() - t) * 1000
    builds = []
    for i in range(8):
        r.set_rect((0, 0, W - 1 - (i % 2), H))  # a new size each time: a real rebuild
        t = time.perf_counter()
        r.static_layer()
        builds.append((time.perf_counter() - t) * 1000)
    r.set_rect((0, 0, W, H))
    r.static_layer()

    rng = random.Random(7)
    hexes = sorted(content.terrain)
    used: set = set()
    fiefs: list[tuple] = []  # (seat, cells, castles)
    seats = ("red", "yellow", "green", "blue")
    numbers = sorted(content.fiefs)
    while len(fiefs) < 40:
        f = content.fiefs[rng.choice(numbers)]
        cells, castles = f.footprint(rng.choice(hexes), rng.randrange(6))
        if all(c in content.terrain and c not in used for c in cells) and all(
                content.terrain[c] == "land" for c in castles):
            used |= set(cells)
            fiefs.append((seats[len(fiefs) % 4], cells, castles))
    rings = {fiefs[i][1][0]: seats[(i + 1) % 4] for i in range(10)}
    strong = set(rng.sample(hexes, 60))
    faint = set(rng.sample(hexes, 120))
    objective = list(content.objective_cities(content.objectives[0].id))
    ghost_fief = content.fiefs[numbers[-1]]
    # warm the sprite caches (a fief's sprite is made once, when it is first drawn)
    r.draw(surf, fiefs=fiefs, rings=rings)
    times = []
    for i in range(frames):
        gc, gk = ghost_fief.footprint(hexes[(i * 7) % len(hexes)], i % 6)
        t = time.perf_counter()
        r.draw(surf, fiefs=fiefs, rings=rings, highlights=strong, faint=faint, ghost=(gc, gk, i % 2 == 0),
               objective_cities=objective, flourishing={"italia", "hispania", "francia"})
        times.append((time.perf_counter() - t) * 1000)
    print(f"board {W}x{H}, hex radius {r.size:.1f} px")
    print(f"static layer: first build {first:.0f} ms (fonts, textures); rebuilds median "
          f"{statistics.median(builds):.0f} ms, min {min(builds):.0f}, max {max(builds):.0f} (n={len(builds)})")
    print(f"dynamic frame: median {statistics.median(times):.2f} ms, min {min(times):.2f}, "
          f"p95 {sorted(times)[int(len(times) * 0.95)]:.2f} (n={frames}; 40 fiefs, 10 rings, "
          f"180 highlighted hexes, moving ghost, 6 objective cities, 6 seals)")
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main(sys.argv[1:]))
