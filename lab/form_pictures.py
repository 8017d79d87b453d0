"""The form screens drawn headless, one PNG each (h45forms, issue 45): sign-in (with and without
an address), join (empty and filled), host (on this computer and on a server), the server list and
the leaderboard without an address; English and Italian; 1280x720 and 2560x1440. The cursor's
blink is fixed, so two checkouts that draw alike write byte-identical files:

    (cd /tmp/old && /work/wt/NAME/.venv/bin/python /work/wt/NAME/lab/form_pictures.py /tmp/before)
    .venv/bin/python lab/form_pictures.py /tmp/after
    for f in /tmp/before/*.png; do cmp -s $f /tmp/after/$(basename $f) || echo DIFF $f; done

(the checkout drawn is the one in the current folder: run it from each checkout's root)."""
import os
import sys
import tempfile

sys.path.insert(0, os.getcwd())
os.environ["GONZAGA_HOME"] = tempfile.mkdtemp()
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
import pygame  # noqa: E402

pygame.time.get_ticks = lambda: 0  # the cursor's blink fixed
from gonzaga.app import App  # noqa: E402
from gonzaga.table import persistence  # noqa: E402

SCREENS = (("signin", ("example.org:7000",), {}), ("signin", (), {}),
           ("online_join", (), {}), ("online_join", ("1.2.3.4:7000", "ABCD-EFGH", "Ann"), {}),
           ("online_host", (), {}), ("online_host", (), {"server": "ws://example.org:7000"}),
           ("online_servers", (), {}), ("ratings", ("",), {}))


def main(out: str) -> None:
    os.makedirs(out, exist_ok=True)
    for lang in ("en", "it"):
        for size in ((1280, 720), (2560, 1440)):
            app = App(persistence.Settings(speed="fast", reduce_motion=True, language=lang), size=size)
            app.run_frames(3)
            for name, args, kw in SCREENS:
                app.stack.push(name, *args, **kw)
                app.run_frames(3)
                pygame.image.save(app.screen, f"{out}/{name}-{len(args)}{len(kw)}-{lang}-{size[0]}.png")
                app.stack.pop(app.stack.top)
                app.run_frames(1)
            app.close()


if __name__ == "__main__":
    main(sys.argv[1])
