"""Screenshots of issue 45's games in progress and the small list outside the game screen
(branch games45), drawn by the game itself::

    xvfb-run -s "-screen 0 2560x1440x24" .venv/bin/python lab/games45_shots.py --size 1280x720 [--only NAME]

Writes ``/tmp/games45-shots/<name>-<W>x<H>.png``.
"""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tools"))
import shots  # noqa: E402


def main(argv=None) -> int:
    p = shots.parser(__doc__)
    p.add_argument("--only", default="")
    p.add_argument("--seats", type=int, default=3)
    a = p.parse_args(argv)
    a.out = "/tmp/games45-shots"
    size, out = shots.prepare(p, a, "gonzaga-g45-")
    import pygame
    from gonzaga.app import App
    from gonzaga.table import persistence
    from gonzaga.table.session import SeatSpec

    tag = f"{size[0]}x{size[1]}-{a.lang}"
    want = set(a.only.split(",")) if a.only else None

    def shot(app, name):
        app.run_frames(2)
        path = out / f"{name}-{tag}.png"
        pygame.image.save(app.screen, str(path))
        print(path)

    def new_app():
        app = App(persistence.Settings(speed="instant", language=a.lang), size=size)
        app.run_frames(3)
        return app

    from gonzaga.scenes.game import GameScene
    bots = [SeatSpec("Isabella", "human", colour="red"), SeatSpec("Sforza", "ai", "medium", "blue"),
            SeatSpec("Este", "ai", "easy", "green")]
    if want is None or want & {"title", "continue", "delete"}:
        app = new_app()
        for seed in (3, 4, 5):
            app.start_session(bots, seed)
            app.run_frames(3)
            app.to_title()
        app.run_frames(4)
        shot(app, "title")
        app.stack.top.continue_game()
        shot(app, "continue")
        app.stack.top.ask_delete(app.stack.top.games[0])
        shot(app, "delete")
        app.close()
    if want is None or "end" in want or "replay" in want:
        app = new_app()
        ais = [SeatSpec("Ann AI", "ai", "greedy", "red"), SeatSpec("Bob AI", "ai", "greedy", "blue"),
               SeatSpec("Cid AI", "ai", "easy", "yellow"), SeatSpec("Dora AI", "ai", "easy", "green")][:a.seats]
        app.start_session(ais, 5)
        for _ in range(30000):
            app.run_frames(1)
            if app.session.is_over and app.stack.find(GameScene).end_reported:
                break
            if app.stack.top.name in ("reveal", "curtain"):
                app.stack.top.close()
        app.run_frames(30)
        shot(app, f"end{a.seats}")
        app.to_title()
        app.run_frames(3)
        from gonzaga.table import finished
        (info,) = finished.list_finished()[0]
        app.stack.push("replay_file", info.path)
        shot(app, "replay")
        app.close()
    if want is None or "save" in want or "game" in want:
        app = new_app()
        app.start_session(bots, 3)
        app.run_frames(4)
        shot(app, "game")
        g = app.stack.find(GameScene)
        app.stack.push("menu", g)
        app.run_frames(1)
        app.stack.top.save()
        shot(app, "save")
        app.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
