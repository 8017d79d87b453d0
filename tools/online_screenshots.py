"""Screenshots of the online screens in a real window: from the worktree root,
``xvfb-run -s "-screen 0 1280x720x24" python tools/online_screenshots.py docs/screenshots``
(PYTHONPATH=. ; issue 39's screens at 1280x720: the friend is a Table in this process, the server
the one the host starts), and issue 50's smaller slips, a short online game seen by a guest, a
spectator and a host in turn (the window takes each part; the other players are Tables in this
process, each host its own server on a loopback port), at a size:
``xvfb-run -s "-screen 0 2560x1440x24" python tools/online_screenshots.py docs/screenshots slips 2560x1440``."""
import os
import sys
import tempfile
import time


def main(out: str) -> None:
    sys.path.insert(0, "tests")
    os.environ["GONZAGA_HOME"] = tempfile.mkdtemp()
    import pygame
    from gonzaga.app import App
    from gonzaga.net import endgame
    from gonzaga.scenes.game import GameScene
    from gonzaga.scenes.online import JoinScene
    from gonzaga.table import persistence
    from gonzaga.words import i18n
    from scene_events import click, key
    from test_online_scenes import button, frames_until, host_game, type_text
    endgame.RESIGN_LEVEL = "random"  # the game to its end quickly
    app = App(persistence.Settings(speed="fast", reduce_motion=True), size=(1280, 720))
    app.run_frames(3)

    def shot(name):
        app.run_frames(2)
        pygame.image.save(app.screen, f"{out}/online-{name}.png")

    # the host screen: 4 seats, a 5-minute grace, a 60 s turn timer
    click(app, button(app, i18n.t("title.host_online")).rect.center, 2)
    click(app, button(app, "4").rect.center)
    h = app.stack.top
    for b in (h.grace_button, h.timer_button, h.timer_button):  # 5 min; a 1-minute turn timer
        click(app, b.rect.center)
    type_text(app, "Ann")
    shot("host-timers")
    click(app, button(app, "2").rect.center)
    h.grace, h.turn_secs = 120, None
    h.layout(app.size)
    app.stack.pop()
    app.run_frames(2)
    game, guest = host_game(app)
    app.toasts.clear()  # the lobby's "Copied" note
    s = app.session
    talk = game.online.talk
    assert guest.chat("Buona fortuna a tutti!") and guest.emote("hello")
    frames_until(app, lambda: any("Hello!" in x for x in s.log_lines()), [guest])
    click(app, talk.field.rect.center)
    type_text(app, "Thanks Bob, you too")
    app.run_frames(2)
    shot("chat")
    app.table.turn_secs = 60  # as when the host chose a 1-minute turn timer: the countdown over the strip
    app.table.timing.told([(0, 60.0, True)], s.n, time.monotonic())  # the server's count
    shot("turn-timer")
    app.table.turn_secs = None
    key(app, pygame.K_RETURN)
    click(app, talk.emote_toggle.rect.center)
    shot("emotes")
    click(app, talk.emote_buttons[1].rect.center)
    frames_until(app, lambda: any("Good luck" in x for x in guest.session.log_lines()), [guest])
    key(app, pygame.K_ESCAPE)
    shot("menu-resign")
    click(app, button(app, i18n.t("online.resign")).rect.center, 2)
    shot("resign-confirm")
    click(app, button(app, i18n.t("online.resign")).rect.center, 2)
    assert guest.resign()
    frames_until(app, lambda: s.state.phase == "over" and guest.session.state.phase == "over", [guest], frames=60000)
    app.run_frames(5)
    click(app, talk.rematch_button.rect.center, 2)
    frames_until(app, lambda: "more" in talk.rematch_words(), [guest])
    shot("rematch")
    guest.ask_rematch()
    frames_until(app, lambda: not app.stack.find(GameScene).face.same_game(s), [guest])
    frames_until(app, lambda: app.stack.find(GameScene).private_seat == 0, [guest])
    shot("rematch-new-game")
    # the join screen with its Watch button; this window then watches the rematch as a spectator
    host_table = app.table
    app.table, app.session = None, None  # the host's game goes on in this process, unseen
    app.stack.push(JoinScene(app, host_table.url, host_table.code, ""))  # the whole invite: its fingerprint
    shot("join-watch")
    click(app, button(app, i18n.t("online.watch")).rect.center, 2)
    frames_until(app, lambda: app.stack.find(GameScene) is not None
                 and app.stack.find(GameScene).face.link is not host_table, [guest, host_table])
    app.toasts.clear()
    shot("watching")
    guest.close()
    host_table.close()
    app.close()


def slips(out: str, size: tuple[int, int]) -> None:
    """Issue 50's slips, each step saved as ``slips-<step>-<W>x<H>.png``."""
    sys.path.insert(0, "tests")
    from pathlib import Path
    home = Path(tempfile.mkdtemp())
    os.environ["GONZAGA_HOME"] = str(home)
    import itertools
    import pygame
    from gonzaga.app import App
    from gonzaga.net import endgame, mygames, protocol
    from gonzaga.net.hosting import start_server
    from gonzaga.net.remote import Table
    from gonzaga.rules import apply, legal_actions
    from gonzaga.scenes.game import GameScene
    from gonzaga.scenes.online import JoinScene
    from gonzaga.scenes.overlays import RevealScene
    from gonzaga.table import persistence
    from gonzaga.words import i18n
    from scene_events import click, key, post
    from test_online_scenes import button, frames_until, type_text
    endgame.RESIGN_LEVEL = "random"  # a resigned seat plays to the end quickly
    app = App(persistence.Settings(speed="fast", reduce_motion=True), size=size)
    app.run_frames(3)
    tag = f"{size[0]}x{size[1]}"

    def shot(name: str, frames: int = 2) -> None:
        app.run_frames(frames)
        pygame.image.save(app.screen, f"{out}/slips-{name}-{tag}.png")
        print("saved", name)

    def hover(pos) -> None:
        pygame.mouse.set_pos(pos)
        post(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0))
        app.run_frames(60)  # longer than a tooltip's rest

    def host_elsewhere(folder: str, seats, turn_secs=None):
        server = start_server(mygames.Book(), home / folder, False)
        t = Table.host(server.url_at("127.0.0.1"), "Ann", seats, app.content, server=server, turn_secs=turn_secs)
        assert frames_until(app, lambda: t.code is not None, [t])
        return t, server

    def screen():
        return app.stack.find(GameScene)

    def own(game):
        return game.face._GameFace__s

    def play(tables, cond, limit: int = 4000) -> None:
        """The in-process tables play their first legal move whenever it is theirs, until ``cond()``."""
        for _ in range(limit):
            if cond():
                return
            for t in tables:
                s = t.session
                if s is None or s.pending is not None or t.seat is None or t.seats[t.seat].kind != "human":
                    continue
                st = s.state
                if t.seat in st.to_act() and (st.phase != "plan" or st.seats[t.seat].plan is None):
                    s.submit(legal_actions(st, t.seat)[0])
            frames_until(app, lambda: True, tables, frames=1, seconds=0)
        assert cond()

    red, yellow, green = (protocol.SeatRequest(kind="host", colour="red"),
                          protocol.SeatRequest(kind="open", colour="yellow"),
                          protocol.SeatRequest(kind="ai", colour="green", bot="easy"))

    # ---- A: the window is Bob, a guest in Ann's game with a 30 s turn timer
    ann, server = host_elsewhere("ann", [red, yellow], turn_secs=30)
    app.stack.push(JoinScene(app, ann.url, ann.code, ""))
    app.run_frames(1)
    click(app, app.stack.top.fields[2].rect.center)
    type_text(app, "Bob")
    click(app, button(app, i18n.t("online.join_button")).rect.center, 2)
    assert frames_until(app, lambda: type(app.stack.top).__name__ == "LobbyScene", [ann])
    assert frames_until(app, lambda: app.table.turn_secs == 30, [ann])
    shot("guest-lobby-timer")
    ann.start()
    assert frames_until(app, lambda: screen() is not None and ann.session is not None, [ann])
    game = screen()
    bob = own(game)
    st = server.server.rooms[ann.game].table.state  # the plans under which Bob places first
    a, b = next((a, b) for a, b in itertools.product(legal_actions(st, 0), legal_actions(st, 1))
                if apply(apply(st, a), b).order[0] == 1)
    assert frames_until(app, lambda: ann.session.state.phase == "plan", [ann])
    ann.session.submit(a)
    assert frames_until(app, lambda: bob.state.seats[0].plan is not None, [ann])
    assert ann.chat("Ciao Bob, buona fortuna!")
    bob.submit(b)
    assert frames_until(app, lambda: isinstance(app.stack.top, RevealScene), [ann])
    shot("reveal-bar")
    key(app, pygame.K_RETURN)
    assert frames_until(app, lambda: game.place is not None, [ann])
    shot("your-turn-flash", 1)
    key(app, pygame.K_h)
    shot("hint-working", 1)
    frames_until(app, lambda: game.assist.hint() is not None and not game.assist.busy(), [ann], seconds=60)
    shot("hint-beside-chat")
    key(app, pygame.K_ESCAPE)
    key(app, pygame.K_ESCAPE)
    click(app, button(app, i18n.t("online.resign")).rect.center, 2)
    shot("resign-confirm")
    key(app, pygame.K_RETURN)  # Cancel, the default
    app.run_frames(5)
    if type(app.stack.top).__name__ == "RemoteMenuScene":
        key(app, pygame.K_ESCAPE)
    ann.close()  # Ann stops hosting
    assert frames_until(app, lambda: app.table.status == "lost")
    app.run_frames(2)
    hover(game.online.retry_button.rect.center)
    shot("host-closed")
    app.to_title()
    app.run_frames(3)

    # ---- B: the window watches Ann and Bob's game from round 2, to its end and their rematch
    ann, server = host_elsewhere("ann2", [red, yellow, green])
    bob_t = Table.join(ann.url, ann.code, "Bob", app.content)
    assert frames_until(app, lambda: len(ann.seats) == 3 and not ann.open_seats(), [ann, bob_t])
    ann.start()
    assert frames_until(app, lambda: ann.session is not None and bob_t.session is not None, [ann, bob_t])
    assert bob_t.chat("Buona fortuna a tutti!")
    play([ann, bob_t], lambda: ann.session.state.round == 2 and ann.session.state.phase == "plan")
    app.stack.push(JoinScene(app, ann.url, ann.code, ""))
    app.run_frames(1)
    click(app, button(app, i18n.t("online.watch")).rect.center, 2)
    assert frames_until(app, lambda: screen() is not None and own(screen()).n == ann.session.n, [ann, bob_t])
    app.toasts.clear()
    shot("spectator-late", 10)
    assert ann.resign() and bob_t.resign()
    assert frames_until(app, lambda: own(screen()).state.phase == "over", [ann, bob_t], seconds=600)
    shot("spectator-end-chart", 20)
    old = own(screen())
    assert ann.ask_rematch() and bob_t.ask_rematch()
    assert frames_until(app, lambda: own(screen()) is not old and own(screen()).state.phase == "plan", [ann, bob_t])
    shot("spectator-rematch", 10)
    bob_t.close()
    ann.close()
    app.table = None
    app.to_title()
    app.run_frames(3)

    # ---- C: the window is the host (its remembered name), three seats, at the end
    click(app, button(app, i18n.t("title.host_online")).rect.center, 2)
    click(app, button(app, "3").rect.center)
    app.toasts.clear()  # (the spectator's note of the rematch)
    shot("host-remembered-name")
    click(app, button(app, i18n.t("online.host_button")).rect.center, 2)
    t = app.table
    assert frames_until(app, lambda: t.code is not None)
    cleo = Table.join(t.url, t.code, "Cleo", app.content)
    assert frames_until(app, lambda: not t.open_seats() and len(t.seats) == 3, [cleo])
    app.toasts.clear()
    click(app, app.stack.top.start_button.rect.center, 2)
    assert frames_until(app, lambda: screen() is not None and cleo.session is not None, [cleo])
    assert t.resign() and cleo.resign()
    assert frames_until(app, lambda: own(screen()).state.phase == "over", [cleo], seconds=600)
    app.toasts.clear()
    shot("player-end-chart", 20)
    cleo.close()
    app.close()


if __name__ == "__main__":
    if len(sys.argv) > 2 and sys.argv[2] == "slips":
        w, h = (int(x) for x in (sys.argv[3] if len(sys.argv) > 3 else "1280x720").split("x"))
        slips(sys.argv[1], (w, h))
    else:
        main(sys.argv[1])
    print("ok")
