"""Screenshots of the layout checks of issue 40 ("every screen fits"), drawn by the game itself
in a real window (run it under ``xvfb-run`` on a machine without a screen)::

    xvfb-run -s "-screen 0 2560x1440x24" .venv/bin/python tools/layout_screenshots.py \\
        --size 1280x720 --lang it planning placement end

Puts the app on each named screen with the layout walk's own games (``tests/screen_walk.py``:
four seats with long names by default, the fullest seats panel), prints what the layout check
finds on it (nothing, when it fits) and writes
``docs/screenshots/layout-<screen>-<lang>-<W>x<H>[-<ui>pct].png``; with ``--high-contrast``, in the
high-contrast palette (issue 49), ``docs/screenshots/high-contrast-<screen>-<lang>-<W>x<H>.png``.
"""
from __future__ import annotations

import sys

import shots



def main(argv=None) -> int:
    p = shots.parser(__doc__)
    p.add_argument("screens", nargs="+", help="screens of tests/screen_walk.py SCREENS (planning, placement, end...)")
    p.add_argument("--seats", type=int, default=4, choices=(2, 3, 4))
    p.add_argument("--ui", type=int, default=100, help="the interface size in percent")
    p.add_argument("--high-contrast", action="store_true", help="the high-contrast palette (settings: Keys and speech)")
    a = p.parse_args(argv)
    size, out = shots.prepare(p, a, "gonzaga-layout-")
    import pygame

    import screen_walk as SW
    from gonzaga.app import App
    from gonzaga.table import persistence
    from gonzaga.ui import widgets as W

    unknown = [s for s in a.screens if s not in SW.SCREENS]
    if unknown:
        p.error(f"unknown screen(s) {', '.join(unknown)}; choose from {', '.join(SW.SCREENS)}")
    SW.SEATS = a.seats
    app = App(persistence.Settings(speed="instant", reduce_motion=True, ui_scale=a.ui), size=size, autosave=False)
    app.run_frames(3)
    if a.high_contrast:
        W.set_palette("high")
    SW.resize(app, size)
    SW.set_language(app, a.lang)
    least = SW.MIN_TEXT_PX * min(1.0, a.ui / 100)
    found = 0
    for name in a.screens:
        SW.SCREENS[name](app)
        problems = SW.check_frame(app, least)
        found += len(problems)
        for line in problems:
            print(f"{name}: {line}")
        # the pointer off the map (the end's chart is see-through under it), what fades in shown whole
        pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=(2, size[1] - 2), rel=(0, 0), buttons=(0, 0, 0)))
        app.run_frames(40)
        pct = "" if a.ui == 100 else f"-{a.ui}pct"
        kind = "high-contrast" if a.high_contrast else "layout"
        path = out / f"{kind}-{name}-{a.lang}-{size[0]}x{size[1]}{pct}.png"
        pygame.image.save(app.screen, str(path))
        print(path)
    app.close()
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
