"""How long the title screen's list of games in progress takes with N autosaves (issue 45)::

    .venv/bin/python lab/games45_list_time.py [N]

Copies saves/v1-four-round8.json N times into a fresh GONZAGA_HOME and times
``in_progress.list_in_progress``: every file read, validated and replayed (best of 3), then again
with the files unchanged since (what the title does each time it shows)."""
from __future__ import annotations

import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
os.environ["GONZAGA_HOME"] = tempfile.mkdtemp(prefix="gonzaga-g45-")
sys.path.insert(0, str(ROOT))
from gonzaga.rules import load_content  # noqa: E402
from gonzaga.table import in_progress, persistence  # noqa: E402

n = int(sys.argv[1]) if len(sys.argv) > 1 else 10
content = load_content()
for i in range(n):
    shutil.copyfile(ROOT / "saves" / "v1-four-round8.json", persistence.autosaves_dir() / f"20260101-0000{i:02d}-abcdef.json")
runs = []
for _ in range(3):
    t0 = time.perf_counter()
    good, bad = in_progress.list_in_progress(content)
    runs.append(time.perf_counter() - t0)
known: in_progress.Known = {}
in_progress.list_in_progress(content, known)
t0 = time.perf_counter()
in_progress.list_in_progress(content, known)
again = time.perf_counter() - t0
best = min(runs)
print(f"{n} games in progress ({len(good)} listed, {len(bad)} bad): {best * 1000:.0f} ms read and replayed "
      f"({best * 1000 / n:.1f} ms a game); again, none changed: {again * 1000:.1f} ms")
