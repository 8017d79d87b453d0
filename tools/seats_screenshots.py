"""Screenshots of issue 50's seat changes and fair turn timers in a real window: from the worktree
root, ``xvfb-run -s "-screen 0 2560x1440x24" .venv/bin/python tools/seats_screenshots.py OUT 1280x720``
(and ``2560x1440``): the computer's move for a player out of time, a dropped friend's countdown
with every seat's clock, and a resigned end screen. The friend is a Table in this process, the
server the one the host's game starts; its turn clocks are moved on as the tests move them (its
rooms' ``time``), not waited for."""
import os
import sys
import socket
import tempfile
import time
from types import SimpleNamespace


def plays(guest) -> bool:
    """The friend makes its decision when it is due (its first legal one); True if it did."""
    from gonzaga.rules import legal_actions
    s = guest.session
    if s is None or s.pending is not None or guest.seat not in s.state.to_act():
        return False
    return s.submit(legal_actions(s.state, guest.seat)[0]) is None


def main(out: str, size: str) -> None:
    sys.path.insert(0, "tests")
    os.environ["GONZAGA_HOME"] = tempfile.mkdtemp()
    import pygame
    from gonzaga.app import App
    from gonzaga.net import endgame, rooms, upkeep
    from gonzaga.table import persistence
    import screen_walk as SW
    from test_online_scenes import frames_until, host_game
    endgame.RESIGN_LEVEL = "random"  # the game to its end quickly
    skew = [0.0]
    server_clock = SimpleNamespace(monotonic=lambda: time.monotonic() + skew[0])
    rooms.time = server_clock  # type: ignore[assignment]
    upkeep.time = server_clock  # type: ignore[assignment]
    w, h = (int(x) for x in size.split("x"))
    app = App(persistence.Settings(speed="fast", reduce_motion=True), size=(w, h))
    app.run_frames(3)

    def shot(name):
        app.run_frames(3)
        pygame.image.save(app.screen, f"{out}/seats-{name}-{size}.png")

    game, guest = host_game(app, turn_timer=True)
    app.toasts.clear()
    s, t = app.session, app.table
    frames_until(app, lambda: t.clock_of(0) is not None and t.clock_of(0)[1], [guest])
    skew[0] += 31  # nobody plans: the computer plans for both when the time runs out
    frames_until(app, lambda: s.state.seats[0].plan is not None and t.moved_for_you is not None, [guest])
    frames_until(app, lambda: app.stack.top is game, [guest])
    shot("moved-for-you")
    game.online.dismiss_chosen()
    # the friend's network goes away while it is his turn or the next round's plans
    guest.conn._ws.socket.shutdown(socket.SHUT_RDWR)
    frames_until(app, lambda: not t.seats[1].connected, [guest])
    while app.stack.top is not game:
        app.stack.pop()
    app.run_frames(30)
    shot("countdown")
    guest.retry()
    frames_until(app, lambda: t.seats[1].connected, [guest])
    assert t.resign()  # Ann resigns; Bob plays on (his first legal move each time) to the end
    SW.resize(app, (1280, 720))  # played in a small window (a large one draws slowly), shown at the size asked
    frames_until(app, lambda: plays(guest) and False or s.state.phase == "over", [guest], seconds=600)
    SW.resize(app, (w, h))
    while app.stack.top is not game:
        app.stack.pop()
    shot("resigned-end")
    guest.close()
    app.close()


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else "1280x720")
