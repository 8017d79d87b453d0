"""The first frame of two or more trees side by side, alternately (issue 45's start-up figure).

    .venv/bin/python lab/first_frame_sides.py OLD_DIR NEW_DIR [...] [--runs 9]

Runs ``python -m gonzaga --exit-after-first-frame`` in each tree in turn (with that tree first
on ``PYTHONPATH`` and bytecode cached, as an installed game starts), ``--runs`` times, and prints
per tree the first frame's wall time (``first_frame_ms``, from the package's import to the first
frame drawn) and the whole process's CPU time (user + system, from ``getrusage``: less moved by
other work on a shared machine than the wall time). Minimum and median of the runs.
Linux and macOS (``resource``); a tree is made with ``git archive COMMIT | tar -x -C DIR``.
"""
from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys


def one(tree: str) -> tuple[float, float]:
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy", PYTHONPATH=tree)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    out = subprocess.run([sys.executable, "-m", "gonzaga", "--exit-after-first-frame"], cwd=tree, env=env,
                         capture_output=True, text=True, timeout=300)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    line = next((x for x in out.stdout.splitlines() if x.startswith("first_frame_ms=")), None)
    if line is None:
        raise SystemExit(f"{tree}: no first_frame_ms in its output: {out.stderr.strip()[-300:]}")
    cpu = (after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime) * 1000.0
    return float(line.split("=", 1)[1]), cpu


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("trees", nargs="+")
    ap.add_argument("--runs", type=int, default=9)
    args = ap.parse_args()
    for t in args.trees:
        one(t)  # a first run each, not counted: it writes the tree's bytecode
    wall: dict[str, list[float]] = {t: [] for t in args.trees}
    cpu: dict[str, list[float]] = {t: [] for t in args.trees}
    for _ in range(args.runs):
        for t in args.trees:
            w, c = one(t)
            wall[t].append(w)
            cpu[t].append(c)
    print(f"{'tree':28s} {'wall min':>9s} {'median':>8s} {'CPU min':>9s} {'median':>8s}   (ms, {args.runs} runs each)")
    for t in args.trees:
        print(f"{t:28s} {min(wall[t]):9.0f} {statistics.median(wall[t]):8.0f} {min(cpu[t]):9.0f} "
              f"{statistics.median(cpu[t]):8.0f}")
    print(f"load average {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
