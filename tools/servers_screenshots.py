"""Screenshots of issue 50's screens (the whole invite; play on a server), drawn by the game in a
real window (under ``xvfb-run`` on a machine without a screen)::

    xvfb-run -s "-screen 0 2560x1440x24" .venv/bin/python tools/servers_screenshots.py --size 1280x720

Writes ``docs/screenshots/servers-<screen>-<W>x<H>.png``: ``title`` (Play on a server under
Host and Join), ``lobby-local`` and ``lobby-lan`` (the
host's lobby with "Let other computers join" off and on: the whole invites), ``list`` (the saved
servers), ``games`` (a server's public lobby: tables with their seats, pace, rating range and
host's rating, issue 47), ``create`` (creating a game on a server), ``ratings`` (the server's
leaderboard) and ``profile`` (a player's rating history). The server is a ``gonzaga serve``-like
one in this process, on the loopback, with accounts rated by hand
(``tests/online_helpers.seed_accounts``); the network address shown in ``lobby-lan`` is an
example one.
"""
from __future__ import annotations

import sys

import shots


def main(argv=None) -> int:
    p = shots.parser(__doc__)
    a = p.parse_args(argv)
    size, out = shots.prepare(p, a, "gonzaga-servers-")
    import tempfile

    import pygame

    from gonzaga.app import App
    from gonzaga.net import hosting
    from gonzaga.net import protocol as P
    from gonzaga.net.serve import ServerThread, TlsFiles
    from gonzaga.net.server_list import ServerList
    from gonzaga.net.signins import Keyring
    from online_helpers import seed_accounts, signed_table
    from gonzaga.scenes import lobby as lobby_mod
    from gonzaga.table import persistence
    from gonzaga.words import i18n
    from scene_events import click
    from test_net_client import pump
    from test_online_scenes import button, frames_until, type_text

    tag = f"{size[0]}x{size[1]}"
    app = App(persistence.Settings(speed="fast", reduce_motion=True, language=a.lang), size=size)
    app.run_frames(3)

    def shot(name):
        app.run_frames(3)
        path = out / f"servers-{name}-{tag}.png"
        pygame.image.save(app.screen, str(path))
        print(path)

    def host(lan: bool) -> None:
        click(app, button(app, i18n.t("title.host_online")).rect.center, 2)
        type_text(app, "Ann")
        if lan:
            click(app, button(app, i18n.t("settings.on")).rect.center)
        click(app, button(app, i18n.t("online.host_button")).rect.center, 2)
        t = app.table
        assert frames_until(app, lambda: t.code is not None and len(t.seats) == 2)
        shot("lobby-lan" if lan else "lobby-local")
        click(app, button(app, i18n.t("online.leave")).rect.center, 2)

    shot("title")
    host(False)
    start = hosting.start_server  # the example network address, on the loopback here
    hosting.start_server = lambda book, d, lan, port=None: start(book, d, False, port)
    lobby_mod.lan_ip = lambda: "192.168.1.20"
    host(True)

    folder = tempfile.mkdtemp(prefix="gonzaga-serve-")
    srv = ServerThread(folder, tls=TlsFiles.own(folder), accounts=True).start()
    import random
    rng = random.Random(4)

    def walk(n: int, drift: float) -> list:
        out, r = [], 0.0
        for _ in range(n):
            r += drift + rng.uniform(-2.5, 2.5)
            out.append(round(r, 2))
        return out
    sessions = seed_accounts(folder, {"Ann": walk(24, 0.9), "Beatrice": walk(40, 0.7), "Isabella": walk(6, 0.4),
                                      "Francesco": walk(15, 0.2), "Ludovico": walk(30, 1.1), "Cecilia": walk(3, 1.0),
                                      "Federico": walk(11, -0.3), "Elisabetta": walk(9, 0.8)})
    two = [P.SeatRequest(kind="host", colour="red"), P.SeatRequest(kind="open", colour="blue")]
    three = two + [P.SeatRequest(kind="open", colour="green")]
    four = two + [P.SeatRequest(kind="ai", colour="green", bot="easy"), P.SeatRequest(kind="open", colour="yellow")]
    tables = [signed_table(srv.url, app.content, sessions.get(name), name, seats, **terms)
              for name, seats, terms in (("Beatrice", four, {"turn_secs": 60}),
                                         ("Isabella", two, {"pace": "turn", "move_hours": 24}),
                                         ("Francesco", three, {"rating_min": 0, "rating_max": 15}),
                                         ("Guest", two, {"turn_secs": 30}))]
    assert pump(tables, lambda: all(t.code or t.problem for t in tables), 3000), [t.problem for t in tables]
    Keyring().signed_in(srv.url, "Ann", sessions["Ann"], None)  # the player looking: signed in
    book = ServerList()
    book.add("games.example.org")
    book.add(f"serving on {srv.url}")
    click(app, button(app, i18n.t("title.servers")).rect.center, 2)
    shot("list")
    click(app, button(app, i18n.t("servers.open")).rect.center, 2)
    games = app.stack.top
    assert frames_until(app, lambda: games.query is None, tables)
    type_text(app, "Ann")
    shot("games")
    click(app, button(app, i18n.t("lobby.ratings")).rect.center, 2)
    board = app.stack.top
    assert frames_until(app, lambda: board.request is None and board.rows, tables)
    shot("ratings")
    click(app, button(app, "Ludovico").rect.center, 2)
    profile = app.stack.top
    assert frames_until(app, lambda: profile.request is None and profile.info is not None, tables)
    shot("profile")
    click(app, button(app, i18n.t("common.back")).rect.center, 2)
    click(app, button(app, i18n.t("common.back")).rect.center, 2)
    click(app, button(app, i18n.t("servers.create")).rect.center, 2)
    shot("create")
    for t in tables:
        t.close()
    srv.stop()
    app.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
