"""Issue 47's throughput, side by side in one run: ``gonzaga netplay-check --seats 2 --games 1
--load 100 --seconds 20`` against several source trees, alternating (A B C A B C ...), one table.

Each tree is a commit, unpacked once with ``git archive COMMIT | tar -x`` into ``--work``
(default: a folder in the system's temporary folder), a folder holding a tree already (``git
archive main | tar -x -C /tmp/main``), or ``.`` for this working tree; all run
with this interpreter (the same packages). netplay-check's load runs over ``wss://`` and then
over plain ``ws://`` on a second server (trees before issue 39 have only ``ws://``: their
netplay-check reports one load, printed as ws). Prints, per tree and mode: actions/s, the
actions acknowledged, latency p50/p99 (ms), the server's peak memory under load (MB), each
column one figure a run. netplay-check's actions/s divides by the bots' whole time, the games'
creation included: on a loaded machine the creation dominates, so read the actions too.

    .venv/bin/python lab/throughput_sides.py                      # 1973e41, 1ff94f5, this tree
    .venv/bin/python lab/throughput_sides.py --runs 3 --trees 1ff94f5 . --out figures.json

Wall-clock figures: run it on a quiet machine (``uptime`` is printed before and after).
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_TREES = ["1973e41", "1ff94f5", "."]


def unpack(tree: str, work: Path) -> Path:
    """The source folder of ``tree`` (a commit, unpacked once; ``.``: this working tree)."""
    if tree == ".":
        return ROOT
    if (Path(tree) / "gonzaga").is_dir():  # a folder already unpacked (main's tree, say)
        return Path(tree).resolve()
    dest = work / tree
    if not (dest / "gonzaga").is_dir():
        dest.mkdir(parents=True, exist_ok=True)
        archive = subprocess.run(["git", "-C", str(ROOT), "archive", tree], check=True, capture_output=True).stdout
        subprocess.run(["tar", "-x", "-C", str(dest)], input=archive, check=True)
    return dest


def run_check(src: Path, load: int, seconds: float, seed: int) -> dict[str, Any]:
    env = dict(os.environ, PYTHONPATH=str(src), SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    argv = [sys.executable, "-m", "gonzaga", "netplay-check", "--seats", "2", "--games", "1", "--load", str(load),
            "--seconds", str(seconds), "--seed", str(seed), "--json"]
    p = subprocess.run(argv, cwd=src, env=env, capture_output=True, text=True, timeout=seconds * 4 + 600)
    text = p.stdout.strip()
    try:
        return dict(json.loads(text[text.index("{"):]))
    except ValueError:
        return {"problems": [f"no figures (status {p.returncode}): {p.stderr[-300:]}"]}


COLUMNS = ("load_actions_per_s", "load_actions", "latency_ms_p50", "latency_ms_p99", "server_rss_mb_peak_load")


def rows(res: dict[str, Any]) -> dict[str, tuple[Any, ...]]:
    """(actions/s, actions, p50, p99, peak MB) per mode of one netplay-check's figures."""
    out = {}
    wss = tuple(res.get(k) for k in COLUMNS)
    if "plain_load_actions_per_s" in res:
        out["wss"] = wss
        out["ws"] = tuple(res.get("plain_" + k) for k in COLUMNS)
    else:
        out["ws"] = wss  # before issue 39: one load, over plain ws://
    return out


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--trees", nargs="+", default=DEFAULT_TREES, help="commits, folders holding a tree, or . for "
                   "this working tree")
    p.add_argument("--runs", type=int, default=2)
    p.add_argument("--load", type=int, default=100)
    p.add_argument("--seconds", type=float, default=20.0)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--work", default=str(Path(tempfile.gettempdir()) / "gonzaga-sides"))
    p.add_argument("--out", default=None, help="also write every run's figures here (JSON)")
    a = p.parse_args()
    work = Path(a.work)
    srcs = {t: unpack(t, work) for t in a.trees}
    label = {t: (subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"], capture_output=True,
                                text=True).stdout.strip() + "+" if t == "." else t) for t in a.trees}
    print("load average before:", os.getloadavg() if hasattr(os, "getloadavg") else "?", flush=True)
    got: dict[str, list[dict[str, Any]]] = {t: [] for t in a.trees}
    for run in range(a.runs):
        for t in a.trees:
            t0 = time.monotonic()
            res = run_check(srcs[t], a.load, a.seconds, a.seed)
            got[t].append(res)
            print(f"run {run + 1} {label[t]}: {rows(res)} problems={res.get('problems')} "
                  f"({time.monotonic() - t0:.0f} s)", flush=True)
    print("load average after:", os.getloadavg() if hasattr(os, "getloadavg") else "?")
    print()
    print("| tree | mode | actions/s | actions | p50 ms | p99 ms | peak MB |")
    print("|---|---|---|---|---|---|---|")
    for t in a.trees:
        for mode in ("ws", "wss"):
            runs = [rows(r).get(mode) for r in got[t]]
            if not any(runs):
                continue
            cols = [" / ".join("-" if r is None or r[i] is None else f"{r[i]:g}" for r in runs) for i in range(len(COLUMNS))]
            print(f"| {label[t]} | {mode} | {' | '.join(cols)} |")
    if a.out:
        Path(a.out).write_text(json.dumps({label[t]: got[t] for t in a.trees}, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
