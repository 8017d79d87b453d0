"""Screenshots of the game screen for the README (zoom, tips, the planning preview).

    python tools/board_screenshots.py [OUT_DIR]      (default: docs/screenshots/)

Plays a seeded four-seat game with greedy bots up to round 6 (headless, SDL's dummy
driver) and saves, at 1280x720 and 2560x1440:

* ``planning-preview-WxH.png``: the planning phase with a region and an action chosen,
  the map showing where the fief could go and its best spot, the table of every pair;
* ``placement-tooltip-WxH.png``: the board zoomed in, a fief held on a legal spot, and
  the pointer resting on a site it covers (its tip).

With ``--high-contrast``: the same two in the high-contrast palettes (the interface's and the
map's, issue 49), named ``high-contrast-planning-preview-WxH.png`` and so on.
"""
from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
os.environ.setdefault("GONZAGA_HOME", tempfile.mkdtemp(prefix="gonzaga-shots-"))

import pygame  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from gonzaga.bench.ui import game_at_round6  # noqa: E402
from gonzaga.ui import widgets as W  # noqa: E402


def _post(kind, **kw):
    pygame.event.post(pygame.event.Event(kind, **kw))


def planning(size, zoom, out):
    app, g = game_at_round6(size, "plan", opponents_as_ai=True)
    W.set_palette(PALETTE)
    prev = g.plans.previews()
    un = app.session.state.seats[0].unavailable
    best = max((k for k in prev if k[0] not in un and k[1] not in un and prev[k].best is not None),
               key=lambda k: prev[k].best)
    g.hand.pick_region(best[0])
    g.hand.pick_action(best[1])
    r = g.renderer
    if zoom > 1:
        r.set_zoom(zoom, r.hex_to_screen(prev[best].best_anchor))
    r.finish_builds()
    ab = next(w for w in g.widgets.items if getattr(w, "card", None) == best[1])
    _post(pygame.MOUSEMOTION, pos=ab.rect.center, rel=(0, 0), buttons=(0, 0, 0))
    app.run_frames(40)  # the card's tip shows
    r.finish_builds()
    app.run_frames(1)
    pygame.image.save(app.screen, str(out))
    app.close()


def placement(size, zoom, out):
    app, g = game_at_round6(size, "place", opponents_as_ai=True)
    W.set_palette(PALETTE)
    st = app.session.state
    pc = g.place
    sites = st.content.sites
    k, anchor = next(((k, a) for k in range(6) for a in sorted(pc.legal[k])
                      if any(c in sites for c in st.content.fiefs[pc.fief].footprint(a, k)[0])),
                     next((k, a) for k in range(6) for a in sorted(pc.legal[k])))
    pc.rotation = k
    r = g.renderer
    r.set_zoom(zoom, r.hex_to_screen(anchor))
    r.finish_builds()
    x, y = r.hex_to_screen(anchor)
    _post(pygame.MOUSEBUTTONDOWN, pos=g.placing.tray_rect().center, button=1)
    _post(pygame.MOUSEMOTION, pos=(int(x), int(y)), rel=(0, 0), buttons=(1, 0, 0))
    _post(pygame.MOUSEBUTTONUP, pos=(int(x), int(y)), button=1)
    app.run_frames(2)
    cells = st.content.fiefs[pc.fief].footprint(anchor, k)[0]
    hover = next((c for c in cells if c in sites), anchor)
    hx, hy = r.hex_to_screen(hover)
    _post(pygame.MOUSEMOTION, pos=(int(hx), int(hy)), rel=(0, 0), buttons=(0, 0, 0))
    app.run_frames(40)  # the tip shows after a short rest
    r.finish_builds()
    app.run_frames(1)
    pygame.image.save(app.screen, str(out))
    app.close()


PALETTE = "normal"


def main(argv):
    global PALETTE
    prefix = ""
    if "--high-contrast" in argv:
        argv = [a for a in argv if a != "--high-contrast"]
        PALETTE, prefix = "high", "high-contrast-"
    out = Path(argv[0]) if argv else ROOT / "docs" / "screenshots"
    out.mkdir(parents=True, exist_ok=True)
    for (w, h), pz, zz in (((1280, 720), 1.0, 2.0), ((2560, 1440), 1.4142, 2.0)):
        p = out / f"{prefix}planning-preview-{w}x{h}.png"
        planning((w, h), pz, p)
        print(p)
        p = out / f"{prefix}placement-tooltip-{w}x{h}.png"
        placement((w, h), zz, p)
        print(p)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
