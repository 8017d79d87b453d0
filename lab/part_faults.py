"""The loop the part-fault scripts share (lab/h45_part_faults.py, h45fx_part_faults.py,
h45_tut_faults.py): each fault (file, line, its replacement, the test to run) written into the
file, the test run, the file restored; prints KILLED or SURVIVED per fault and then n/n killed."""
from __future__ import annotations

import os
import subprocess
import sys
from typing import Callable, Sequence

ENV = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")


def run(faults: Sequence[tuple[str, str, str, str]], test_file: Callable[[str], str] = lambda test: "tests/test_game_parts.py",
        only: Sequence[str] = ()) -> int:
    """Every fault whose test names one of ``only`` (all when empty): how many were killed."""
    killed = tried = 0
    for path, a, b, test in faults:
        if only and not any(o in test for o in only):
            continue
        src = open(path).read()
        assert src.count(a) == 1, (path, a)
        open(path, "w").write(src.replace(a, b))
        try:
            r = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:xdist", "-p", "no:cacheprovider",
                                test_file(test), "-k", test], capture_output=True, text=True, env=ENV)
            tried += 1
            killed += r.returncode != 0
            print(("KILLED" if r.returncode != 0 else "SURVIVED"), path, test, repr(a.strip()[:70]), flush=True)
        finally:
            open(path, "w").write(src)
    print(f"{killed}/{tried} killed")
    return killed
