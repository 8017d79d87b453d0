"""Issue 45 (h45fx): the game screen's sound and motion, before and after its parts, to compare
pixels: the end screen (the table filling, the chart in the side panel; and on the map's corner
when the panel's foot leaves it no room), the reveal's cards turning over, a piece settling
with its "+N", a sea league's flare and banners with the "Your turn" flash::

    xvfb-run -s "-screen 0 2560x1440x24" .venv/bin/python lab/h45fx_shots.py --size 1280x720 --out /tmp/shots

Run it in two trees (the commit before and after) and compare the PNGs' bytes (``cmp``).
The clock is held still; every motion is stepped by fixed frames.
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
    size, out = shots.prepare(p, a, "gonzaga-h45fx-")
    time.monotonic = lambda: 1000.0
    import pygame

    import screen_walk as SW
    from gonzaga.app import App
    from gonzaga.rules import legal_actions
    from gonzaga.scenes.feedback import Event
    from gonzaga.table import persistence

    app = App(persistence.Settings(speed="normal", reduce_motion=False), size=size, autosave=False)
    app.run_frames(3)
    SW.resize(app, size)
    SW.set_language(app, a.lang)

    def snap(name: str, frames: int) -> None:
        pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=(2, size[1] - 2), rel=(0, 0), buttons=(0, 0, 0)))
        app.run_frames(frames)
        path = out / f"h45fx-{name}-{size[0]}x{size[1]}.png"
        pygame.image.save(app.screen, str(path))
        print(path, flush=True)

    # the reveal, its cards half turned
    SW.SCREENS["reveal"](app)
    snap("reveal", 14)
    # a piece laid: it settles, "+N" rises; a league and the Last Turn banners, the "Your turn" flash
    SW.SCREENS["placement"](app)
    app.run_frames(30)
    g = SW._game(app)
    s = app.session
    acts = legal_actions(s.state, s.state.to_act()[0])
    s._apply(acts[len(acts) // 2])
    app.run_frames(8)
    sea = sorted(s.state.content.sea_names)[0]
    g.feedback._react([Event("league", 0, {"sea": sea}), Event("last_turn", None, {"round": s.state.round + 1})],
                      s.state)
    g.feedback.anim.add("your_turn", 1.8, 0.0, ease=lambda p: p, seat=0)
    snap("motion", 45)
    # the end: the table fills row by row; the chart (off the frame loop: waited for)
    SW.SCREENS["end"](app)
    g = SW._game(app)
    g.feedback.reset()
    app.run_frames(1)
    snap("end-filling", 20)
    app.run_frames(200)
    print("chart in the panel:", g.feedback.chart_in_panel(), flush=True)
    snap("end", 2)
    # the panel's foot grown (as an online game's chat strip would take it) until the chart has no
    # room there: it stands on the map's corner
    foot = g.panel.foot
    g.panel.foot = lambda: foot() + size[1] * 2 // 3
    app.run_frames(3)
    print("chart in the panel with a tall foot:", g.feedback.chart_in_panel(), flush=True)
    snap("end-on-map", 3)
    app.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
