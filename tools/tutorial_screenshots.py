"""Screenshots of the tutorial's placing steps (issue 40), drawn by the game in a window:

    xvfb-run -s "-screen 0 2560x1440x24" .venv/bin/python tools/tutorial_screenshots.py \
        [--size 1280x720] [--lang en] [--out docs/screenshots]

- ``tutorial-fief-<size>.png``: the round's fief drawn large where the text talks of castles;
- ``tutorial-bari-<size>.png``: "cover Bari" with the ghost on one of the ways the step takes;
- ``tutorial-wrong-turn-<size>.png``: Mantova and Venezia, the fief at the right place but
  turned wrong, and the box saying so;
- ``tutorial-harbors-<size>.png``: the one way over Newcastle and Hull, castles and dot drawn;
- ``tutorial-emden-<size>.png``: the box clear of Emden;
- ``tutorial-league-<size>.png``: the sea league's banner, clear of the box.
"""
from __future__ import annotations


import shots


def main(argv=None) -> int:
    p = shots.parser(__doc__)
    a = p.parse_args(argv)
    size, out = shots.prepare(p, a, "gonzaga-shots-")
    import pygame

    from gonzaga.app import App
    from gonzaga.table import persistence
    from gonzaga.table import tutorial as T
    import test_tutorial as TT
    import test_tutorial_accepts as TA

    app = App(persistence.Settings(speed="instant", language=a.lang), size=size)
    app.run_frames(2)
    tag = f"{size[0]}x{size[1]}"

    def shot(name: str, frames: int = 20) -> None:
        pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=(2, size[1] - 2), rel=(0, 0), buttons=(0, 0, 0)))
        app.run_frames(frames)
        path = out / f"tutorial-{name}-{tag}.png"
        pygame.image.save(app.screen, str(path))
        print("wrote", path)

    # the fief's picture, big enough to see its castles
    from gonzaga.scenes.tutorial import start_tutorial
    g = start_tutorial(app, "plan")
    app.run_frames(2)
    while g.step.key != "tut.plan.fief":
        TT.do_step(app, g)
    shot("fief")
    # cover Bari: an accepted way that is not the script's
    g = TA.to_step(app, *TA.PLACING[4])
    other = next(q for q in TA.accepted_now(g) if q != g.step.arg)
    TA.put(app, g, other)
    shot("bari")
    # Mantova and Venezia: the right place, the wrong turn
    g = TA.to_step(app, *TA.PLACING[0])
    every = TA.accepted_now(g)
    turn = next(q for q in TA.legal_placements(g.state, T.YOU) if not T.accepts(g.state, g.step, q)
                and any(r.anchor == q.anchor for r in every))
    TA.put(app, g, turn)
    TT.key(app, pygame.K_RETURN, frames=2)
    shot("wrong-turn")
    # Newcastle and Hull: one way only, drawn
    TA.to_step(app, *TA.PLACING[1])
    shot("harbors")
    # Emden, then the sea league's banner
    from gonzaga.scenes.tutorial import start_tutorial
    start_tutorial(app, "king")
    app.run_frames(3)
    shot("emden")
    g = TA.to_step(app, *TA.PLACING[2])
    TA.put(app, g, g.step.arg)
    app.speed = "normal"  # the banners show (instant speed skips them)
    TT.key(app, pygame.K_RETURN, frames=2)
    shot("league", frames=50)
    app.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
