"""Frame times while the table's animations run, for ``gonzaga bench --json`` (issue 13).

* ``anim_frame_ms_p50`` / ``anim_frame_ms_p99``: one frame (events, update, draw) of the game
  screen at 1600x1000, mid-game (4 seats, from round 6), counted only while something moves:
  after every placement the piece settles, "+N" rises from its sites, the scores count up, and
  on top of that a sea league celebration (its harbors flare, a banner) and the Last Turn banner
  are started each time, so every kind of motion runs at once; then the end of the game (the
  table filling row by row, the score-by-round chart). Target p99 <= 16.7 ms.
* ``anim_frame_cpu_ms_p99``: the same frames' CPU time on the frame loop's thread (what they
  cost whatever else the machine runs; ``anim_frame_ms_max`` is the slowest frame, wall clock).

Runs in a subprocess with SDL's dummy drivers (``python -m gonzaga.bench.anim``);
``GONZAGA_ANIM_TRACE=1`` prints each frame's time and what was moving to stderr.
"""
from __future__ import annotations

import json
import os
import subprocess
import statistics
import sys
import time

from ..ai import make_bot
from ..app import App
from ..rules import view
from ..scenes.feedback import Event
from ..scenes.game import GameScene
from ..table import persistence
from ..table.seats import SeatSpec
from ..table.seatview import face_of
from ..table.session import Session
from .ui import bench_env


def _frames(quick: bool) -> dict:
    seats = [SeatSpec(n, "human", colour=c) for n, c in
             (("Ann", "red"), ("Bob", "yellow"), ("Cy", "green"), ("Di", "blue"))]
    app = App(persistence.Settings(speed="normal"), size=(1600, 1000), autosave=False)
    s = Session.new(seats, 7, content=app.content)
    bots = [make_bot("greedy", i) for i in range(4)]
    while not (s.state.round == 6 and s.state.phase == "place"):
        seat = s.state.to_act()[0]
        s.submit(bots[seat].choose(view(s.state, seat), seat))
    app.session = s  # type: ignore[assignment]  # (app.py is not annotated yet: it infers None)
    g = GameScene(app, face_of(s))
    app.stack.replace(g)
    app.run_frames(3)
    sea = sorted(s.state.content.sea_names)[0]
    times: list[float] = []
    cpu: list[float] = []

    def act() -> None:
        """The next move; a round's plans all at once (no curtain: only the game screen is timed)."""
        seat = s.state.to_act()[0]
        s.submit(bots[seat].choose(view(s.state, seat), seat))
        while s.state.phase == "plan":
            seat = s.state.to_act()[0]
            s.submit(bots[seat].choose(view(s.state, seat), seat))

    def frame() -> None:
        while app.stack.top is not g:  # the reveal: closed at once
            app.stack.pop()
        t0, c0 = time.perf_counter(), time.thread_time()
        app.step(1 / 60)
        if app.stack.top is g:
            times.append((time.perf_counter() - t0) * 1000)
            cpu.append((time.thread_time() - c0) * 1000)
            if os.environ.get("GONZAGA_ANIM_TRACE"):
                print(round(times[-1], 1), s.state.phase, sorted({tw.kind for tw in g.feedback.anim.tweens}),
                      file=sys.stderr)

    moves = 0
    while not s.is_over and moves < (8 if quick else 24):
        act()
        moves += 1
        frame()  # the frame that sees the move and starts its motion
        if not s.is_over:
            seat = s.state.order[s.state.turn] if s.state.phase == "place" else 0
            g.feedback._react([Event("league", seat, {"sea": sea}),
                               Event("last_turn", None, {"round": s.state.round + 1})], s.state)
        for _ in range(75):  # 1.25 s: the piece settles, the points rise, the scores count, the banners
            frame()
    while not s.is_over:
        act()
    for _ in range(150):  # the end: the table fills row by row, the chart
        frame()
    app.close()
    times.sort()
    cpu.sort()

    def p99(v: list) -> float:
        return round(v[min(len(v) - 1, int(round(0.99 * (len(v) - 1))))], 2)
    return {"anim_frame_ms_p50": round(statistics.median(times), 2), "anim_frame_ms_p99": p99(times),
            "anim_frame_ms_max": round(times[-1], 2), "anim_frame_cpu_ms_p99": p99(cpu),
            "anim_frame_samples": len(times)}


def measure(quick: bool = False) -> dict:
    """The figures, measured in a subprocess (headless)."""
    p = subprocess.run([sys.executable, "-m", "gonzaga.bench.anim"] + (["--quick"] if quick else []),
                       capture_output=True, text=True, env=bench_env(), timeout=600)
    try:
        return json.loads(p.stdout.strip().splitlines()[-1])
    except (IndexError, ValueError):
        return {"anim_frame_error": (p.stderr.strip().splitlines() or ["no output"])[-1]}


if __name__ == "__main__":
    print(json.dumps(_frames("--quick" in sys.argv)))
