"""The board renderer's CPU time per frame, which the load of other processes barely moves.

    python tools/board_cpu.py WxH          (run from the tree to measure: it is put first on the path)

The scene of ``gonzaga/bench/board.py`` (40 fiefs, 10 rings, 180 highlighted hexes, a moving ghost,
objective cities, seals) plus 200 ``hex_to_screen`` calls a frame, as a screen makes. Prints the
least ``time.thread_time`` per frame over 40 batches of 10 frames, fitted and zoomed to 200%, the
least static-layer rebuild of four, and the Python calls per frame (cProfile). Compare two trees
by running it alternately in each (docs/architecture.md, Speed).
"""
from __future__ import annotations

import cProfile
import os
import pstats
import random
import sys
import time

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
sys.path.insert(0, os.getcwd())

import pygame  # noqa: E402

from gonzaga.render.board_view import BoardRenderer  # noqa: E402
from gonzaga.rules.content import load_content  # noqa: E402


def main(argv: list[str]) -> int:
    if len(argv) != 1 or "x" not in argv[0]:
        print(__doc__, file=sys.stderr)
        return 2
    W, H = (int(v) for v in argv[0].lower().split("x"))
    pygame.init()
    content = load_content()
    surf = pygame.Surface((W, H))
    r = BoardRenderer(content, surf.get_rect())
    r.static_layer()
    builds = []
    for i in range(4):
        r.set_rect((0, 0, W - 1 - (i % 2), H))  # a new size each time: a real rebuild
        t = time.thread_time()
        r.static_layer()
        builds.append((time.thread_time() - t) * 1000)
    r.set_rect((0, 0, W, H))
    r.static_layer()
    rng = random.Random(7)
    hexes = sorted(content.terrain)
    used: set = set()
    fiefs: list[tuple] = []
    seats = ("red", "yellow", "green", "blue")
    numbers = sorted(content.fiefs)
    while len(fiefs) < 40:
        cells, castles = content.fiefs[rng.choice(numbers)].footprint(rng.choice(hexes), rng.randrange(6))
        if all(c in content.terrain and c not in used for c in cells) and all(
                content.terrain[c] == "land" for c in castles):
            used |= set(cells)
            fiefs.append((seats[len(fiefs) % 4], cells, castles))
    rings = {fiefs[i][1][0]: seats[(i + 1) % 4] for i in range(10)}
    strong, faint = set(rng.sample(hexes, 60)), set(rng.sample(hexes, 120))
    objective = list(content.objective_cities(content.objectives[0].id))
    ghost_fief = content.fiefs[numbers[-1]]

    def frames(n: int) -> float:
        t = time.thread_time()
        for i in range(n):
            gc, gk = ghost_fief.footprint(hexes[(i * 7) % len(hexes)], i % 6)
            r.draw(surf, fiefs=fiefs, rings=rings, highlights=strong, faint=faint, ghost=(gc, gk, i % 2 == 0),
                   objective_cities=objective, flourishing={"italia", "hispania", "francia"})
            for h in hexes[:200]:
                r.hex_to_screen(h)
        return (time.thread_time() - t) * 1000 / n

    def calls() -> int:
        pr = cProfile.Profile()
        pr.enable()
        frames(10)
        pr.disable()
        return pstats.Stats(pr).total_calls // 10

    frames(20)
    fit, fit_calls = min(frames(10) for _ in range(40)), calls()
    r.sync_builds = True
    r.set_zoom(2.0)
    r.finish_builds()
    frames(20)
    zoomed, zoomed_calls = min(frames(10) for _ in range(40)), calls()
    print(f"{W}x{H}: frame {fit:.3f} ms CPU, zoomed 200% {zoomed:.3f} ms; static rebuild {min(builds):.0f} ms; "
          f"Python calls per frame {fit_calls}, zoomed {zoomed_calls}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
