"""Screenshots of issue 39's online screens in a real window, 1280x720: from the worktree root,
``xvfb-run -s "-screen 0 1280x720x24" python tools/online_screenshots.py docs/screenshots``
(PYTHONPATH=. ; the friend is a Table in this process, the server the one the host starts)."""
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


if __name__ == "__main__":
    main(sys.argv[1])
    print("ok")
