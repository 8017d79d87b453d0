"""Two checkouts' ``gonzaga bench`` figures side by side, measured in one run.

    .venv/bin/python tools/bench_compare.py OLD_DIR NEW_DIR [--rounds 3] [--no-ui] [--json]

OLD_DIR and NEW_DIR are trees of the project (for example ``git worktree add /tmp/old <commit>``).
The two are run alternately, OLD then NEW, ``--rounds`` times each, with this interpreter and
the tree itself first on ``PYTHONPATH``, so that a change of machine load hits both alike; the
table gives each figure's median per tree and NEW's change against OLD (a positive change is
better for rates, worse for times). Exit code 2 on a bad argument or a bench that fails.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

# figures where a larger number is better; every other figure is a time (smaller is better)
RATES = ("playouts_per_s", "rollout_steps_per_s", "rollout_steps_per_s_apply")
SHOWN = ("placement_query_us", "playouts_per_s", "rollout_steps_per_s", "rollout_steps_per_s_apply",
         "frame_ms_p99", "frame_cpu_ms_p99", "first_frame_ms")


def run_bench(tree: Path, ui: bool) -> dict:
    env = dict(os.environ, PYTHONPATH=str(tree), SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    # both trees start from cached bytecode, as an installed game does (an older tree's bench
    # would otherwise time compiling the game's modules when PYTHONDONTWRITEBYTECODE is set)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    cmd = [sys.executable, "-m", "gonzaga", "bench", "--json"] + ([] if ui else ["--no-ui"])
    out = subprocess.run(cmd, cwd=tree, env=env, capture_output=True, text=True, timeout=1800)
    if out.returncode != 0:
        raise RuntimeError(f"bench failed in {tree}: {out.stderr.strip()[-400:]}")
    return json.loads(out.stdout)


def compare(old: list[dict], new: list[dict]) -> list[tuple[str, float, float, float]]:
    """(figure, old median, new median, change in % where positive is better)."""
    rows = []
    for key in SHOWN:
        a = [r[key] for r in old if isinstance(r.get(key), (int, float))]
        b = [r[key] for r in new if isinstance(r.get(key), (int, float))]
        if not a or not b:
            continue
        ma, mb = statistics.median(a), statistics.median(b)
        change = (mb - ma) / ma * 100 if key in RATES else (ma - mb) / ma * 100
        rows.append((key, ma, mb, change))
    return rows


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description="Two checkouts' gonzaga bench figures, side by side.")
    p.add_argument("old", type=Path)
    p.add_argument("new", type=Path)
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--no-ui", action="store_true", help="leave out the drawing figures")
    p.add_argument("--json", action="store_true")
    a = p.parse_args(argv)
    for tree in (a.old, a.new):
        if not (tree / "gonzaga" / "__init__.py").is_file():
            print(f"bench_compare: {tree} is not a tree of the project", file=sys.stderr)
            return 2
    old, new = [], []
    try:
        for _ in range(max(1, a.rounds)):
            old.append(run_bench(a.old.resolve(), not a.no_ui))
            new.append(run_bench(a.new.resolve(), not a.no_ui))
    except (RuntimeError, json.JSONDecodeError, subprocess.TimeoutExpired) as e:
        print(f"bench_compare: {e}", file=sys.stderr)
        return 2
    rows = compare(old, new)
    if a.json:
        print(json.dumps({k: {"old": o, "new": n, "change_pct": round(c, 1)} for k, o, n, c in rows}, indent=1))
    else:
        print(f"{'figure':<28}{'old':>12}{'new':>12}{'change':>10}   (medians of {len(old)} runs each, "
              "positive = better)")
        for k, o, n, c in rows:
            print(f"{k:<28}{o:>12.2f}{n:>12.2f}{c:>+9.1f}%")
    return 0


if __name__ == "__main__":
    sys.exit(main())
