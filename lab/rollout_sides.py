"""The engine's rollout rates of two or more trees side by side, alternately (issue 45's bench:
the rollout figures swing by up to a quarter between runs of the same code on this machine).

    .venv/bin/python lab/rollout_sides.py OLD_DIR NEW_DIR [...] [--runs 3]

Runs ``gonzaga.bench.engine.measure_rollouts()`` (the bench's own measure: best of three timings
of each policy) in a fresh process per tree, in turn, ``--runs`` times; prints each run's two
rates (steps/s of the fast simulator, and through ``apply``) and per tree their medians. A tree
is made with ``git archive COMMIT | tar -x -C DIR``.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys

CODE = "import json; from gonzaga.bench.engine import measure_rollouts; print('RATES', json.dumps(measure_rollouts()))"


def one(tree: str) -> tuple[float, float]:
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy", PYTHONPATH=tree)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    out = subprocess.run([sys.executable, "-c", CODE], cwd=tree, env=env, capture_output=True, text=True, timeout=900)
    line = next((x for x in out.stdout.splitlines() if x.startswith("RATES ")), None)
    if line is None:
        raise SystemExit(f"{tree}: no rates in its output: {out.stderr.strip()[-300:]}")
    fast, apply = json.loads(line[len("RATES "):])
    return float(fast), float(apply)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("trees", nargs="+")
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()
    got: dict[str, list[tuple[float, float]]] = {t: [] for t in args.trees}
    for i in range(args.runs):
        for t in args.trees:
            got[t].append(one(t))
            print(f"run {i + 1} {t}: {got[t][-1][0]:.0f} / {got[t][-1][1]:.0f} steps/s", flush=True)
    for t in args.trees:
        print(f"{t:28s} median {statistics.median(f for f, _ in got[t]):.0f} / "
              f"{statistics.median(a for _, a in got[t]):.0f} steps/s (fast simulator / through apply)")
    print(f"load average {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
