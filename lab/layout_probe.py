"""Chosen cases of issue 40's layout matrix (tests/test_layout_walk.py's ``walk_matrix``), outside
the test run: a part of the full matrix when the whole (GONZAGA_LAYOUT_MATRIX=full, 630 cases)
is too long for the machine.

    python lab/layout_probe.py SIZES LANGS SEATS UIS SCREENS      (comma lists)
    python lab/layout_probe.py 1280x720,1600x900,1920x1080,2560x1440,3840x2160 de,fr,es,pl,it,en \\
        2,3,4 80,200 planning,planning_table,reveal,placement,wedding,donation,menu,end

prints the counts by kind and the first 40 problems.
"""
import os
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ["GONZAGA_HOME"] = tempfile.mkdtemp(prefix="gonzaga-layout-")
ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "tests"), str(ROOT)]

import screen_walk as SW  # noqa: E402
import test_layout_walk as T  # noqa: E402
from gonzaga.app import App  # noqa: E402
from gonzaga.render import board_view  # noqa: E402
from gonzaga.table import persistence  # noqa: E402


def main(argv: list[str]) -> int:
    sizes = [tuple(int(v) for v in s.split("x")) for s in argv[0].split(",")]
    langs, seats, uis = argv[1].split(","), [int(x) for x in argv[2].split(",")], [int(x) for x in argv[3].split(",")]
    T.GAME_SCREENS, T.MENU_SCREENS = tuple(argv[4].split(",")), ()
    board_view.build_layer = SW.remembered_builds(board_view.build_layer)
    app = App(persistence.Settings(speed="instant", reduce_motion=True), size=(1280, 720), autosave=False)
    app.run_frames(3)
    cases = [(s, lang, n, u) for s in sizes for lang in langs for n in seats for u in uis]
    t = time.time()
    res = T.walk_matrix(app, cases)
    print(res["counts"], f"{time.time() - t:.0f}s")
    print("\n".join(res["problems"][:40]))
    app.close()
    return 1 if res["problems"] else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
