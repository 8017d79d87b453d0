"""The engine's rollouts counted in instructions, not seconds (issue 45's bench: on this machine
the rollout rates of the same code swing by a third between runs; an instruction count does
not). Needs valgrind.

    .venv/bin/python lab/rollout_instructions.py OLD_DIR NEW_DIR [...]

In each tree, under ``valgrind --tool=callgrind``, the same fixed work: the set-up alone
(``none``: four of ``rollout_positions``, their tables and memos, as the bench's untimed pass),
then with 30 playouts of each by the fast simulator (``fast``), or 10 of the first through
``apply`` (``apply``). Prints the instructions of each policy's work (the run less the set-up),
per rollout step, with the steps (the same in every tree when the policy plays the same moves).
Takes about five minutes for two trees on two cores."""
from __future__ import annotations

import os
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

WORK = """
import sys
from gonzaga.ai.fastsim import play_out, tables_for
from gonzaga.ai.positions import rollout_positions
from gonzaga.ai.search import play_out as play_out_apply
starts = rollout_positions(4)
for st in starts:
    tables_for(st)
    play_out(st)
steps = 0
if sys.argv[1] == "fast":
    for _ in range(30):
        for st in starts:
            steps += play_out(st)[1]
elif sys.argv[1] == "apply":
    for _ in range(10):
        steps += play_out_apply(starts[0])[1]
print("steps", steps)
"""


def count(tree: str, what: str) -> tuple[int, int]:
    """(instructions, steps) of one run."""
    env = dict(os.environ, PYTHONPATH=tree, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    out = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable,
                          "-c", WORK, what], cwd=tree, env=env, capture_output=True, text=True, timeout=3600)
    got = re.search(r"Collected : (\d+)", out.stderr)
    steps = re.search(r"steps (\d+)", out.stdout)
    if got is None or steps is None:
        raise SystemExit(f"{tree} {what}: {out.stderr.strip()[-300:]}")
    return int(got.group(1)), int(steps.group(1))


def main() -> None:
    trees = sys.argv[1:]
    if not trees:
        raise SystemExit(__doc__)
    jobs = [(t, w) for t in trees for w in ("none", "fast", "apply")]
    with ThreadPoolExecutor(max_workers=2) as pool:
        got = dict(zip(jobs, pool.map(lambda j: count(*j), jobs)))
    for t in trees:
        base = got[(t, "none")][0]
        cells = []
        for w in ("fast", "apply"):
            ir, steps = got[(t, w)]
            cells.append(f"{w}: {ir - base:,} instructions, {steps} steps, {(ir - base) / steps:,.0f} per step")
        print(f"{t}: " + "; ".join(cells))


if __name__ == "__main__":
    main()
