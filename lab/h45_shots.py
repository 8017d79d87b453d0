"""Issue 45 (h45game): the same five game screens before and after the game screen's parts
(planning, placement, a wedding, the tutorial's box, a replay), to compare their pixels::

    xvfb-run -s "-screen 0 2560x1440x24" .venv/bin/python lab/h45_shots.py --size 1280x720 --out /tmp/shots

Run it in two trees (the commit before and after) and compare the PNGs (lab/h45_compare.py).
The tutorial's pulse reads the clock: the clock is held still while it is drawn.
"""
from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tools"))
import shots  # noqa: E402


def main(argv=None) -> int:
    p = shots.parser(__doc__)
    a = p.parse_args(argv)
    size, out = shots.prepare(p, a, "gonzaga-h45-")
    time.monotonic = lambda: 1000.0  # the tutorial's pulse and box timing: still
    import pygame

    import screen_walk as SW
    from gonzaga.app import App
    from gonzaga.table import persistence
    from gonzaga.scenes.tutorial import start_tutorial
    from gonzaga.scenes.replay_view import ReplayScene
    from gonzaga.table import tutorial as T

    app = App(persistence.Settings(speed="instant", reduce_motion=True), size=size, autosave=False)
    app.run_frames(3)
    SW.resize(app, size)
    SW.set_language(app, a.lang)

    def snap(name: str) -> None:
        pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=(2, size[1] - 2), rel=(0, 0), buttons=(0, 0, 0)))
        app.run_frames(40)
        path = out / f"h45-{name}-{size[0]}x{size[1]}.png"
        pygame.image.save(app.screen, str(path))
        print(path)

    for name in ("planning", "placement", "wedding"):
        SW.SCREENS[name](app)
        snap(name)
    for sec in (T.SECTIONS[0].id, T.SECTIONS[2].id):
        start_tutorial(app, sec)
        app.run_frames(5)
        snap(f"tutorial-{sec}")
    SW.SCREENS["end"](app)
    g = SW._game(app)
    rs = ReplayScene.for_session(app, g.face)
    app.stack.push(rs)
    app.run_frames(2)
    ctl = getattr(rs, "controls", None) or rs  # the replay's bar (a part since h45game), or the scene before
    ctl.seek((rs.rs.first_step + rs.rs.n_steps) // 2)
    snap("replay")
    app.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
