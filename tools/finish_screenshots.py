"""Screenshots of the finishes of issue 40 (hints, finished games, the smaller fixes), drawn by
the game itself in a real window (run it under ``xvfb-run`` on a machine without a screen)::

    xvfb-run -s "-screen 0 2560x1440x24" .venv/bin/python tools/finish_screenshots.py --size 1280x720

Writes ``docs/screenshots/finish-<screen>-<W>x<H>.png``: ``hint-place`` and ``hint-plan`` (a
hint with its reasons), ``load`` (the finished games kept), ``end`` (the score chart),
``plan-it`` (the Italian hand and the best-points table), ``title-200`` (the title at 200%),
``new-game`` (New game remembering the last table).
"""
from __future__ import annotations

import sys
import time

import shots


def main(argv=None) -> int:
    p = shots.parser(__doc__, lang=False)
    p.add_argument("--level", default="hard@60", help="the hint's AI level (a quick budget)")
    a = p.parse_args(argv)
    size, out = shots.prepare(p, a, "gonzaga-finish-")
    import pygame

    from gonzaga.ai.worker import DecisionWorker
    from gonzaga.app import App
    from gonzaga.table import hints, persistence
    from gonzaga.table.session import SeatSpec
    from scene_events import key

    tag = f"{size[0]}x{size[1]}"

    def shot(app, name):
        app.run_frames(2)
        path = out / f"finish-{name}-{tag}.png"
        pygame.image.save(app.screen, str(path))
        print(path)

    def hint_app(lang="en"):
        app = App(persistence.Settings(speed="instant", language=lang), size=size)
        app.run_frames(2)
        svc = hints.service(app)
        svc._worker = DecisionWorker(use_processes=False)
        svc.level = a.level
        return app

    def wait_hint(app, g, seconds=180.0):
        # by the clock, with a moment each frame for the hint's thread (a busy machine starves it)
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            if g.assist.hint() is not None:
                return g.assist.hint()
            app.run_frames(1)
            time.sleep(0.002)
        raise SystemExit(f"no hint within {seconds:.0f} s")

    from test_assist import plan, to_placement
    # a hint for the plan, then for a placement (round 3: pieces on the board)
    app = hint_app()
    app.start_session([SeatSpec("Isabella", "human", colour="red"), SeatSpec("Sforza", "ai", "medium", "blue"),
                       SeatSpec("Este", "ai", "medium", "green")], 11)
    app.run_frames(3)
    from gonzaga.scenes.game import GameScene
    g = app.stack.find(GameScene)
    key(app, pygame.K_h)
    wait_hint(app, g)
    shot(app, "hint-plan")
    app.stack.find(GameScene).assist.service().cancel()
    for _ in range(3):
        plan(app, g)
        to_placement(app, g)
        if app.session.state.round >= 3:
            break
        key(app, pygame.K_h)
        wait_hint(app, g)
        key(app, pygame.K_RETURN, frames=3)  # Enter plays the hinted move
        for _ in range(3000):
            if g.private_seat is not None and app.stack.top is g:
                break
            if app.stack.top is not g:
                key(app, pygame.K_RETURN)
            app.run_frames(1)
    key(app, pygame.K_h)
    wait_hint(app, g)
    shot(app, "hint-place")
    app.close()

    # a finished game kept, after another game started; the end screen's chart
    app = App(persistence.Settings(speed="instant"), size=size)
    app.run_frames(2)
    bots = [SeatSpec("Ann AI", "ai", "greedy", "red"), SeatSpec("Bob AI", "ai", "greedy", "blue"),
            SeatSpec("Cid AI", "ai", "easy", "yellow")]
    for seed in (5, 6):
        app.start_session(bots, seed)
        for _ in range(30000):
            app.run_frames(1)
            if app.session.is_over and app.stack.find(GameScene).end_reported:
                break
            if app.stack.top.name in ("reveal", "curtain"):
                app.stack.top.close()
        app.run_frames(30)
    shot(app, "end")
    app.start_session(bots, 7)
    app.run_frames(3)
    app.to_title()
    app.stack.push("load")
    shot(app, "load")
    app.close()

    # the Italian hand and the best-points table
    app = App(persistence.Settings(speed="instant", language="it"), size=size)
    app.run_frames(2)
    app.start_session([SeatSpec("Isabella", "human", colour="red"), SeatSpec("Sforza", "ai", "medium", "blue")], 3)
    app.run_frames(3)
    g = app.stack.find(GameScene)
    g.plans.folded = False
    plan(app, g)
    to_placement(app, g)
    for _ in range(2000):  # round 2: the cards played last round are greyed, with why
        if g.private_seat is not None and app.session.state.round == 2 and app.stack.top is g:
            break
        if g.place is not None and app.stack.top is g:
            key(app, pygame.K_RETURN)
            key(app, pygame.K_RETURN)
        elif app.stack.top is not g:
            key(app, pygame.K_RETURN)
        app.run_frames(1)
    g.plans.folded = False
    shot(app, "plan-it")
    app.close()

    # the title at 200%, and New game remembering the last table
    app = App(persistence.Settings(speed="instant", ui_scale=200), size=size)
    app.run_frames(3)
    shot(app, "title-200")
    app.close()
    app = App(persistence.Settings(speed="instant"), size=size)
    app.run_frames(2)
    app.stack.push("new_game")
    app.run_frames(2)
    ng = app.stack.top
    ng.set_count(2)
    ng.fields[0].value = "Isabella"
    ng.set_level(1, "hard")
    ng.set_scenario([t.name for t in app.content.scenarios_for(2)][-1])
    ng.start()
    app.run_frames(2)
    app.to_title()
    app.stack.push("new_game")
    shot(app, "new-game")
    app.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
