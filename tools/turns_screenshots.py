"""Screenshots of issue 47's turn-based screens (t47turn), drawn by the game in a real window
(under ``xvfb-run`` on a machine without a screen)::

    xvfb-run -s "-screen 0 2560x1440x24" .venv/bin/python tools/turns_screenshots.py --size 1280x720

Writes ``docs/screenshots/turns-<screen>-<W>x<H>.png``: ``title`` (My games with its count beside
Play on a server), ``mygames`` (the list: your turn first, a server that does not answer named),
``create`` (creating a turn-based game on a server), ``settings`` (the notification's setting).
The server is a ``gonzaga serve``-like one with accounts in this process, on the loopback.
"""
from __future__ import annotations

import sys

import shots


def main(argv=None) -> int:
    p = shots.parser(__doc__)
    a = p.parse_args(argv)
    size, out = shots.prepare(p, a, "gonzaga-turns-")
    import tempfile

    import pygame

    from gonzaga.app import App
    from gonzaga.net import accounts
    from gonzaga.net.serve import ServerThread
    from gonzaga.net.signins import Keyring
    from gonzaga.table import persistence
    from gonzaga.words import i18n
    from test_online_scenes import button, frames_until
    from turn_helpers import account, turn_game, wait_for

    accounts.REGISTERS = 20  # this one address registers the pictures' players
    srv = ServerThread(tempfile.mkdtemp(prefix="gonzaga-turns-srv-"), test_seeds=True, any_level=True,
                       accounts=True).start()
    try:
        ann, bea = turn_game(srv.url, hours=24, names=("Isabella", "Federico"))  # Isabella's turn
        _, _ = turn_game(srv.url, hours=72, names=("Ludovico", "Barbara"))
        ann.act(ann.my_actions()[0])  # the first game: Federico's turn now
        wait_for(lambda: srv.server.rooms[ann.game].n == 2)
        second = account(srv.url, "Isabella", ann.session)
        second.send(type="create", name="Isabella", seats=[{"kind": "host", "colour": "red"},
                                                           {"kind": "open", "colour": "blue"},
                                                           {"kind": "ai", "colour": "green", "bot": "easy"}],
                    seed=5, pace="turn", move_hours=12)
        second.expect("joined")
        paola = account(srv.url, "Paola")
        paola.send(type="join", code=second.code, name="Paola")
        paola.expect("joined")
        second.send(type="start", token=second.token)
        second.expect("update")
        lobby = account(srv.url, "Isabella", ann.session)  # a third: waiting for players
        lobby.send(type="create", name="Isabella", seats=[{"kind": "host", "colour": "red"},
                                                          {"kind": "open", "colour": "yellow"}],
                   pace="turn", move_hours=72)
        lobby.expect("joined")

        tag = f"{size[0]}x{size[1]}"
        app = App(persistence.Settings(speed="fast", reduce_motion=True, language=a.lang), size=size)
        Keyring().signed_in(srv.url, "Isabella", ann.session, ann.device_key)
        Keyring().signed_in("wss://games.example.org:7373", "Isabella", ann.session, ann.device_key)

        def shot(name):
            app.run_frames(3)
            path = out / f"turns-{name}-{tag}.png"
            pygame.image.save(app.screen, str(path))
            print(path)

        assert frames_until(app, lambda: app.turn_watch is not None and app.turn_watch.servers == 2
                            and app.turn_watch.count == 1, frames=2000, seconds=60)
        shot("title")
        button(app, i18n.t("mygames.button_n", n=1)).on_click()
        scene = app.stack.top
        assert frames_until(app, lambda: scene.poll is None, frames=2000, seconds=60)
        shot("mygames")
        app.stack.pop(scene)
        app.stack.push("online_host", server=srv.url, player="Isabella")
        button(app, i18n.t("pace.turn")).on_click()
        shot("create")
        app.stack.pop(app.stack.top)
        app.stack.push("settings")
        shot("settings")
        app.close()
    finally:
        srv.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
