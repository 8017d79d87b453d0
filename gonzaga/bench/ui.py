"""Interface figures for ``gonzaga bench --json`` (merged by ``bench.engine.run_bench``).

* ``frame_ms_p50`` / ``frame_ms_p99``: one frame (events, update, draw) at 2560x1440 with
  the board zoomed to 200%, mid-game, with every overlay on: a fief dragged over every
  hex in view (legal anchors, the faint other-rotation anchors, the ghost with its mark
  and its points or reason, fiefs, rings and the names above them, seals, seat panel,
  log, a hover tip); then, in the planning phase, the pointer moved over the map and the
  cards with the planning preview on (its spots, its best spot, the table, tips). The
  figure is over both sweeps. Target p99 <= 16.7 ms.
* ``zoom_frame_ms_p99``: frames while zooming (Ctrl+wheel, towards the pointer) and
  panning (middle-button drag) at 2560x1440, with pauses in which the crisp layer of
  the new zoom is built in the background. Target <= 16.7 ms.
* ``frame_ms_p99_1600``: the drag at 1600x1000 without zoom (the earlier figure).
* ``frame_cpu_ms_p99`` / ``zoom_frame_cpu_ms_p99``: the same frames' CPU time on the frame
  loop's thread (what a frame costs whatever else the machine is running; the wall-clock
  figures above also count waiting for the cores and for the layer builder).
* ``first_frame_ms`` (``first_frame_ms()``, added by ``bench.engine.run_bench``): ``gonzaga
  --exit-after-first-frame`` run as a subprocess: from the
  first import of the package to the first title frame on screen, with the modules' bytecode
  compiled once beforehand, as an installed or packaged game has it. Target <= 1000 ms.

All run in a subprocess with SDL's dummy video driver, so no window opens.
"""
from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import time

import pygame

from ..ai import make_bot
from ..app import App
from ..rules import legal_placements, view
from ..scenes.game import GameScene
from ..table import persistence
from ..table.seats import SeatSpec
from ..table.seatview import face_of
from ..table.session import Session


def bench_env() -> dict:
    """The environment of the measuring subprocesses (also gonzaga/bench/anim.py's)."""
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy", PYGAME_HIDE_SUPPORT_PROMPT="1")
    env.setdefault("GONZAGA_HOME", os.path.join(os.path.expanduser("~"), ".cache", "gonzaga-bench"))
    return env


def first_frame_ms(runs: int = 3) -> float:
    """The best of ``runs`` starts to the first title frame, with the modules' bytecode cached as
    an installed game has it (pip compiles it on install; the packaged game ships it): an
    uncounted first start writes the caches, and PYTHONDONTWRITEBYTECODE is lifted for these
    starts (with it, every start would compile the game's modules from source again)."""
    env = bench_env()
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    times = [_start_ms(env) for _ in range(runs + 1)][1:]
    found = [t for t in times if t is not None]
    return round(min(found) if found else -1.0, 1)


def _start_ms(env: dict) -> float | None:
    """One ``gonzaga --exit-after-first-frame``: its first_frame_ms (None if it printed none)."""
    p = subprocess.run([sys.executable, "-m", "gonzaga", "--exit-after-first-frame"], capture_output=True,
                       text=True, env=env, timeout=120)
    for line in p.stdout.splitlines():
        if line.startswith("first_frame_ms="):
            return float(line.split("=", 1)[1])
    return None


def _p(times: list, q: float) -> float:
    times = sorted(times)
    return round(times[min(len(times) - 1, int(round(q * (len(times) - 1))))], 2)


def game_at_round6(size, phase: str, *, opponents_as_ai: bool = False):
    """An App at ``size`` showing a mid-game table of four (round 6+), at the start of ``phase``
    for seat 0 (placing: with a legal spot). Greedy bots play every seat up to there; then the
    seats are four humans (hot-seat, seat 0's hand open), or seat 0 and three AI seats
    (``opponents_as_ai``: a solo game, as the README's screenshots show it)."""
    names = ("Ann", "Yellow AI", "Green AI", "Blue AI") if opponents_as_ai else ("Ann", "Bob", "Cy", "Di")
    seats = [SeatSpec(n, "human", colour=c) for n, c in zip(names, ("red", "yellow", "green", "blue"))]
    app = App(persistence.Settings(speed="instant"), size=size, autosave=False)
    s = Session.new(seats, 7, content=app.content)
    bots = [make_bot("greedy", i) for i in range(4)]
    while True:
        st = s.state
        if st.round >= 6 and st.phase == phase and (
                phase == "plan" or (st.to_act()[0] == 0 and legal_placements(st, 0))):
            break
        seat = st.to_act()[0]
        s.submit(bots[seat].choose(view(st, seat), seat))
    if opponents_as_ai:  # from here on they are shown as AI seats
        s.seats[1:] = [SeatSpec(x.name, "ai", "greedy", x.colour) for x in seats[1:]]
    app.session = s  # type: ignore[assignment]  # (app.py is not annotated yet: it infers None)
    g = GameScene(app, face_of(s))
    app.stack.push(g)
    app.run_frames(3)
    while app.stack.top is not g:
        app.stack.pop()
    if phase == "plan" and not opponents_as_ai:
        g.open_private(0)
    app.run_frames(2)
    return app, g


def _post(kind, **kw) -> None:
    pygame.event.post(pygame.event.Event(kind, **kw))


def _motion(pos, buttons=(0, 0, 0)) -> None:
    _post(pygame.MOUSEMOTION, pos=(int(pos[0]), int(pos[1])), rel=(0, 0), buttons=buttons)


_CPU: dict[int, list] = {}  # id(times) -> the same frames' CPU time on the frame loop's thread


def _timed(app, times: list) -> None:
    """One frame: its wall time into ``times``, its CPU time (this thread only: what the
    frame itself costs, whatever else the machine runs) beside it."""
    c0 = time.thread_time()
    t0 = time.perf_counter()
    app.step(1 / 60)
    times.append((time.perf_counter() - t0) * 1000)
    _CPU.setdefault(id(times), []).append((time.thread_time() - c0) * 1000)


def _drag_frames(quick: bool, size=(2560, 1440), zoom: float = 2.0) -> list:
    """Frame times of a fief dragged over every hex in view (every 3rd with ``quick``),
    the wheel turning it now and then, a tip showing; the board at ``zoom``."""
    app, g = game_at_round6(size, "place")
    r = g.renderer
    pc = g.place
    spots = sorted(pc.any_rotation)
    centre = r.hex_to_screen(spots[len(spots) // 2]) if spots else g.board_rect.center
    if zoom > 1:
        r.set_zoom(zoom, centre)
        r.finish_builds()
    key = pygame.K_LCTRL  # noqa: F841 (the plain wheel turns the held fief)
    pc.dragging = True
    hexes = r.visible_hexes()
    # a snake over the rows, so that the ghost moves a hex at a time
    hexes.sort(key=lambda h: (h[1], h[0] if h[1] % 2 == 0 else -h[0]))
    if quick:
        hexes = hexes[::3]
    # warm up: the sprites of this zoom, the fonts
    for h in hexes[:20]:
        _motion(r.hex_to_screen(h), (1, 0, 0))
        app.step(1 / 60)
    times: list = []
    for n, h in enumerate(hexes):
        _motion(r.hex_to_screen(h), (1, 0, 0))
        if n % 7 == 0:
            _post(pygame.MOUSEWHEEL, x=0, y=1, flipped=False, precise_x=0.0, precise_y=1.0, touch=False)
        _timed(app, times)
    app.close()
    return times


def _plan_frames(quick: bool, size=(2560, 1440), zoom: float = 2.0) -> list:
    """Frame times in the planning phase with the preview on: the pointer over the map's
    hexes (tips) and over the cards (the preview follows the hovered pair)."""
    app, g = game_at_round6(size, "plan")
    r = g.renderer
    prev = g.plans.previews()
    best = max((k for k in prev if prev[k].best is not None), key=lambda k: prev[k].best)
    g.hand.choose(*best)
    g.layout(app.size)
    r.set_zoom(zoom, r.hex_to_screen(prev[best].best_anchor))
    r.finish_builds()
    hexes = r.visible_hexes()
    hexes.sort(key=lambda h: (h[1], h[0] if h[1] % 2 == 0 else -h[0]))
    hexes = hexes[::3 if quick else 2]
    cards = [w for w in g.widgets.items if getattr(w, "card", None) is not None]
    for h in hexes[:10]:
        _motion(r.hex_to_screen(h))
        app.step(1 / 60)
    times: list = []
    for n, h in enumerate(hexes):
        if n % 5 == 4 and cards:
            _motion(cards[(n // 5) % len(cards)].rect.center)
        else:
            _motion(r.hex_to_screen(h))
        _timed(app, times)
    app.close()
    return times


def _zoom_frames(quick: bool, size=(2560, 1440)) -> list:
    """Frame times while zooming in and out towards the pointer (Ctrl+wheel) and panning
    with the middle button, with short rests in which the crisp layers are built in
    the background (frames keep being measured meanwhile)."""
    app, g = game_at_round6(size, "place")
    b = g.board_rect
    times: list = []
    rounds = 2 if quick else 4
    pygame.key.set_mods(pygame.KMOD_LCTRL)
    for k in range(rounds):
        p = (b.x + b.w * (0.3 + 0.1 * k), b.y + b.h * (0.35 + 0.08 * k))
        _motion(p)
        app.step(1 / 60)
        for direction in (1, -1):
            for _step in range(6):  # in (or out) six levels, a notch every 4 frames
                _post(pygame.MOUSEWHEEL, x=0, y=direction, flipped=False, precise_x=0.0,
                      precise_y=float(direction), touch=False)
                for _ in range(4):
                    _timed(app, times)
            if direction == 1:
                # pan with the middle button: 60 frames of movement
                _post(pygame.MOUSEBUTTONDOWN, pos=(int(p[0]), int(p[1])), button=2)
                x, y = p
                for i in range(60):
                    x += 9 if (i // 20) % 2 == 0 else -7
                    y += 5 if (i // 15) % 2 == 0 else -6
                    _motion((x, y), (0, 1, 0))
                    _timed(app, times)
                _post(pygame.MOUSEBUTTONUP, pos=(int(x), int(y)), button=2)
                # a rest: the crisp layer of this zoom is built meanwhile (frames go on)
                for _ in range(45 if quick else 90):
                    _timed(app, times)
    pygame.key.set_mods(0)
    app.close()
    return times


def _figures(quick: bool) -> dict:
    drag = _drag_frames(quick)
    plan = _plan_frames(quick)
    both = drag + plan
    zoom = _zoom_frames(quick)
    old = _drag_frames(quick, (1600, 1000), 1.0)
    cpu_both = _CPU.get(id(drag), []) + _CPU.get(id(plan), [])
    cpu_zoom = _CPU.get(id(zoom), [])
    return {"frame_ms_p50": round(statistics.median(both), 2), "frame_ms_p99": _p(both, 0.99),
            "frame_cpu_ms_p99": _p(cpu_both, 0.99) if cpu_both else -1,
            "zoom_frame_cpu_ms_p99": _p(cpu_zoom, 0.99) if cpu_zoom else -1,
            "frame_samples": len(both), "drag_frame_ms_p99": _p(drag, 0.99), "plan_frame_ms_p99": _p(plan, 0.99),
            "zoom_frame_ms_p50": round(statistics.median(zoom), 2), "zoom_frame_ms_p99": _p(zoom, 0.99),
            "zoom_frame_ms_max": round(max(zoom), 2), "zoom_samples": len(zoom),
            "frame_ms_p99_1600": _p(old, 0.99)}


def measure_ui(quick: bool = False) -> dict:
    out = {}
    p = subprocess.run([sys.executable, "-m", "gonzaga.bench.ui", "--drag"] + (["--quick"] if quick else []),
                       capture_output=True, text=True, env=bench_env(), timeout=600)
    try:
        out.update(json.loads(p.stdout.strip().splitlines()[-1]))
    except (IndexError, ValueError):
        out["frame_error"] = (p.stderr.strip().splitlines() or ["no output"])[-1]
    return out


if __name__ == "__main__":
    if "--drag" in sys.argv:
        print(json.dumps(_figures("--quick" in sys.argv)))
    else:
        quick = "--quick" in sys.argv
        print(json.dumps({**measure_ui(quick), "first_frame_ms": first_frame_ms(1 if quick else 3)}, indent=1))
