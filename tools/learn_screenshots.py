"""Screenshots of the learning aids (issue 11) for the README, drawn headless by the game itself:

    .venv/bin/python tools/learn_screenshots.py [--size 1600x1000] [--lang en] [--out docs/screenshots]

- ``tutorial.png``: a step of the guided first game (placing the first fief);
- ``rules-reference.png``: a page of the rules reference with its pictures;
- ``hint.png``: a hint for a placement, on the map (the strongest AI level, as in a game).
"""
from __future__ import annotations

import os
import sys
import time

import shots


def main(argv=None) -> int:
    p = shots.parser(__doc__, size="1600x1000")
    a = p.parse_args(argv)
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    size, out = shots.prepare(p, a, "gonzaga-shots-")
    import pygame

    from gonzaga.table import persistence
    from gonzaga.app import App

    def settle(app, frames=6):
        app.run_frames(2)
        from gonzaga.scenes.game import GameScene
        g = app.stack.find(GameScene)
        if g is not None and g.renderer is not None:
            g.renderer.finish_builds()
        app.run_frames(frames)

    # the tutorial: step by step to the first placement, the fief dragged near its spot
    app = App(persistence.Settings(speed="normal", language=a.lang), size=size)
    app.run_frames(2)
    import test_tutorial as TT
    from gonzaga.scenes.tutorial import start_tutorial
    start_tutorial(app, "place")
    for _ in range(4000):
        g = TT.tut(app)
        if g.step.kind == "place":
            break
        TT.do_step(app, g)
        time.sleep(0.002)
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=(4, size[1] - 4), rel=(0, 0), buttons=(0, 0, 0)))
    settle(app, 30)
    pygame.image.save(app.screen, str(out / "tutorial.png"))
    app.close()

    # a page of the rules reference
    app = App(persistence.Settings(speed="instant", language=a.lang), size=size)
    app.run_frames(3)
    from gonzaga.scenes.rules_reference import open_page
    open_page(app, "stacking")
    app.run_frames(3)
    pygame.image.save(app.screen, str(out / "rules-reference.png"))
    app.close()

    # a hint for a placement, worked out by the strongest level
    app = App(persistence.Settings(speed="normal", language=a.lang), size=size)
    app.run_frames(2)
    from gonzaga.scenes.game import GameScene
    from gonzaga.table.session import SeatSpec
    app.start_session([SeatSpec("Gonzaga", "human", colour="red"), SeatSpec("Sforza", "ai", "medium", "blue"),
                       SeatSpec("Este", "ai", "easy", "green")], 4242)
    app.run_frames(5)
    g = app.stack.find(GameScene)
    st = app.session.state
    plan = next(x for x in __import__("gonzaga.rules", fromlist=["legal_plans"]).legal_plans(st, 0)
                if not x.king and x.region == "britannia" and x.action == "C")
    app.session.submit(plan)
    g.close_private()
    for _ in range(4000):
        app.run_frames(1)
        if app.stack.top is not g:
            pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RETURN, mod=0, unicode="", scancode=0))
        if g.place is not None:
            break
        time.sleep(0.002)
    g.assist.toggle_hint()
    t0 = time.time()
    while g.assist.hint() is None and time.time() - t0 < 60:
        app.run_frames(1)
        time.sleep(0.01)
    h = g.assist.hint()
    if h is not None and h.cells:  # zoomed in on the spot, as a player would look at it
        pts = [g.renderer.hex_to_screen(c) for c in h.cells]
        g.renderer.set_zoom(2.0, about=(sum(x for x, _ in pts) / len(pts), sum(y for _, y in pts) / len(pts)))
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=(4, size[1] - 4), rel=(0, 0), buttons=(0, 0, 0)))
    settle(app, 4)
    pygame.image.save(app.screen, str(out / "hint.png"))
    app.close()
    print(f"wrote tutorial.png, rules-reference.png and hint.png in {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
