"""Interface figures for ``gonzaga bench --json`` (merged by ``bench.run_bench``).

* ``frame_ms_p50`` / ``frame_ms_p99``: one frame (events, update, draw) while a fief is
  dragged across the whole map at 1600x1000, mid-game, with every overlay on (legal
  anchors, the faint other-rotation anchors, the ghost with its points or reason,
  fiefs and rings, seals, seat panel, log). Target p99 <= 16.7 ms.
* ``first_frame_ms``: ``gonzaga --exit-after-first-frame`` run as a subprocess: from the
  first import of the package to the first title frame on screen. Target <= 1000 ms.

Both run in a subprocess with SDL's dummy video driver, so no window opens.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys


def _env() -> dict:
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy", PYGAME_HIDE_SUPPORT_PROMPT="1")
    env.setdefault("GONZAGA_HOME", os.path.join(os.path.expanduser("~"), ".cache", "gonzaga-bench"))
    return env


def first_frame_ms(runs: int = 3) -> float:
    best = None
    for _ in range(runs):
        p = subprocess.run([sys.executable, "-m", "gonzaga", "--exit-after-first-frame"], capture_output=True,
                           text=True, env=_env(), timeout=120)
        for line in p.stdout.splitlines():
            if line.startswith("first_frame_ms="):
                v = float(line.split("=", 1)[1])
                best = v if best is None else min(best, v)
    return round(best if best is not None else -1.0, 1)


def _drag_frames(quick: bool) -> dict:
    """Runs inside the subprocess: returns the frame-time percentiles."""
    import statistics
    import time

    import pygame

    from . import persistence
    from .ai import make_bot
    from .app import App
    from .rules import view
    from .scenes.game import GameScene
    from .session import SeatSpec, Session

    seats = [SeatSpec(n, "human", colour=c) for n, c in
             (("Ann", "red"), ("Bob", "yellow"), ("Cy", "green"), ("Di", "blue"))]
    app = App(persistence.Settings(speed="instant"), size=(1600, 1000), autosave=False)
    s = Session.new(seats, 7, content=app.content)
    bots = [make_bot("greedy", i) for i in range(4)]
    while not (s.state.round == 6 and s.state.phase == "place"):
        seat = s.state.to_act()[0]
        s.submit(bots[seat].choose(view(s.state, seat), seat))
    app.session = s
    g = GameScene(app, s)
    app.stack.push(g)
    app.run_frames(3)
    while app.stack.top is not g:
        app.stack.pop()
    app.run_frames(2)
    pc = g.place
    pc.dragging = True
    r = g.renderer
    hexes = list(s.state.board.hexes)
    if quick:
        hexes = hexes[::3]
    times = []
    for n, h in enumerate(hexes):
        x, y = r.hex_to_screen(h)
        pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=(int(x), int(y)), rel=(0, 0), buttons=(1, 0, 0)))
        if n % 7 == 0:
            pygame.event.post(pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=1, flipped=False, precise_x=0.0,
                                                 precise_y=1.0, touch=False))
        t0 = time.perf_counter()
        app.step(1 / 60)
        times.append((time.perf_counter() - t0) * 1000)
    times.sort()
    app.close()
    p99 = times[min(len(times) - 1, int(round(0.99 * (len(times) - 1))))]
    return {"frame_ms_p50": round(statistics.median(times), 2), "frame_ms_p99": round(p99, 2),
            "frame_samples": len(times)}


def measure_ui(quick: bool = False) -> dict:
    out = {}
    p = subprocess.run([sys.executable, "-m", "gonzaga.ui_bench", "--drag"] + (["--quick"] if quick else []),
                       capture_output=True, text=True, env=_env(), timeout=300)
    try:
        out.update(json.loads(p.stdout.strip().splitlines()[-1]))
    except (IndexError, ValueError):
        out["frame_error"] = (p.stderr.strip().splitlines() or ["no output"])[-1]
    out["first_frame_ms"] = first_frame_ms(1 if quick else 3)
    return out


if __name__ == "__main__":
    if "--drag" in sys.argv:
        print(json.dumps(_drag_frames("--quick" in sys.argv)))
    else:
        print(json.dumps(measure_ui("--quick" in sys.argv), indent=1))
