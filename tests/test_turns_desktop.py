"""Issue 47 on the desktop (t47turn): the title's "My games (N)", the My games screen (your turn
first, a server that does not answer named, a game opened through the account on a computer
without its token), a system notification when it becomes your turn in another game (none when
the setting is off), and the pace offered when creating a game on a server. Against a real
server with accounts in this process, the app headless."""
from __future__ import annotations

import pytest

from gonzaga.net import protocol as P
from gonzaga.net.mygames_poll import EVERY, ServerGames, TurnWatch
from gonzaga.net.signins import Keyring
from gonzaga.ui.notify import RecordingNotifier, command

from test_online_scenes import button, frames_until
from turn_helpers import account, caught_up, play_until, registers, srv, turn_game, wait_for  # noqa: F401 (fixtures)

pytestmark = pytest.mark.rule("E-net")


def signed_in(app, client) -> None:
    """This computer keeps ``client``'s session for its server (as the sign-in screen would)."""
    Keyring().signed_in(client.ws_url, client.name, client.session, client.device_key)


def sign(url: str, c, name: str) -> None:
    c.ws_url, c.name = url, name


def watch_round(app) -> bool:
    """Frames until My games' watch has finished a round (started again at once)."""
    w = app.turn_watch
    if w is not None:
        w.next = 0.0
    return frames_until(app, lambda: app.turn_watch is not None and app.turn_watch.poll_now is None
                        and app.turn_watch.known is not None, frames=400)


# ---------------------------------------------------------------- the watch, alone

class FakePoll:
    def __init__(self, results):
        self.results = results

    def poll(self) -> bool:
        return True

    def close(self) -> None:
        pass


def _row(game: str, your_turn: bool, seat: int = 0) -> P.MyGameRow:
    return P.MyGameRow(game=game, code="ABCDEF", seat=seat, pace="turn", move_hours=24, your_turn=your_turn,
                       started=True, round=2)


def test_the_watch_tells_each_game_newly_your_turn_once_and_never_the_one_on_the_screen():
    now = [0.0]
    rounds = [
        {"ws://a": ServerGames("ws://a", "Ann", [_row("g1", True), _row("g2", False)])},
        {"ws://a": ServerGames("ws://a", "Ann", [_row("g1", True), _row("g2", True), _row("g3", True)])},
        {"ws://a": ServerGames("ws://a", "Ann", [_row("g1", True), _row("g2", True), _row("g3", True)])},
    ]
    told = []
    w = TurnWatch(lambda url, row: told.append((url, row.game)), clock=lambda: now[0],
                  start=lambda: FakePoll(rounds.pop(0)))
    w.tick()  # the first round: where things stand, nothing told
    assert told == [] and w.count == 1 and w.servers == 1
    w.tick()  # not a minute yet: nothing asked
    assert len(rounds) == 2
    w.playing = "g3"
    now[0] += EVERY
    w.tick()
    assert told == [("ws://a", "g2")] and w.count == 3  # g3 is on the screen
    now[0] += EVERY
    w.tick()
    assert told == [("ws://a", "g2")]  # still your turn: not told again


def test_the_systems_notification_tool_gets_the_texts_as_arguments_never_as_script():
    evil = 'x" & do shell script "touch /tmp/pwned'
    mac = command("Gonzaga", evil, "darwin")
    assert mac[:2] == ["osascript", "-e"] and evil not in mac[2] and mac[-1] == evil
    win = command("Gonzaga", evil, "win32")
    assert win is None or (evil not in win[4] and win[-1] == evil)
    lin = command("Gonzaga", evil, "linux")
    assert lin is None or lin[-1] == evil


# ---------------------------------------------------------------- the app

def test_the_title_counts_your_turns_and_my_games_lists_them_your_turn_first(make_app, srv):
    ann, bea = turn_game(srv.url, names=("Ann", "Bea"))  # both plan: Ann's turn
    ann2, carl = turn_game(srv.url, names=("Ann2", "Carl"))
    app = make_app((1280, 720))
    sign(srv.url, ann, "Ann")
    signed_in(app, ann)
    Keyring().signed_in("ws://127.0.0.1:9", "Ann", ann.session, ann.device_key)  # a server that does not answer
    ann.act(ann.my_actions()[0])  # in the first game Ann has planned: Bea's turn now
    wait_for(lambda: srv.server.rooms[ann.game].n == 2)
    second = account(srv.url, "Ann", ann.session)  # Ann's second game, where it is her turn
    second.send(type="create", name="Ann", seats=[{"kind": "host", "colour": "red"},
                                                  {"kind": "open", "colour": "blue"}], seed=3, pace="turn",
                move_hours=12)
    second.expect("joined")
    dora = account(srv.url, "Dora")
    dora.send(type="join", code=second.code, name="Dora")
    dora.expect("joined")
    second.send(type="start", token=second.token)
    second.expect("update")
    assert frames_until(app, lambda: app.turn_watch is not None and app.turn_watch.servers == 2, frames=600)
    assert app.turn_watch.count == 1
    assert frames_until(app, lambda: any(getattr(w, "label", "") == "My games (1 your turn)"
                                         for w in app.stack.top.widgets.items))
    button(app, "My games (1 your turn)").on_click()
    assert app.stack.top.name == "my_games"
    scene = app.stack.top
    assert frames_until(app, lambda: scene.poll is None, frames=600)
    assert [(g.game, g.your_turn) for _url, g in scene.rows] == [(second.game, True), (ann.game, False)]
    text = " ".join(scene.visible_text())
    assert "Your turn" in text and "Waiting for Bea" in text and "with Dora" in text
    assert "127.0.0.1:9 does not answer" in scene.error
    # opened on a computer without the seat's token: through the account (a new token)
    [b for b in scene.widgets.items if getattr(b, "label", "") == "Open"][0].on_click()
    assert frames_until(app, lambda: app.session is not None, frames=600)
    assert app.table.game == second.game and app.table.seat == 0 and app.table.token != second.token


@pytest.mark.parametrize("on", [True, False])
def test_a_notification_when_it_becomes_your_turn_in_another_game_and_none_when_turned_off(make_app, srv, on):
    ann, bea = turn_game(srv.url)
    ann.act(ann.my_actions()[0])  # Bea's turn: not Ann's
    room = srv.server.rooms[ann.game]
    wait_for(lambda: room.n == 2)
    app = make_app((1280, 720), turn_notify=on)
    app.notifier = RecordingNotifier()
    sign(srv.url, ann, "Ann")
    signed_in(app, ann)
    assert frames_until(app, lambda: app.turn_watch is not None and app.turn_watch.known is not None, frames=600)
    assert app.notifier.shown == []
    caught_up(bea, room)
    bea.act(bea.my_actions()[0])  # Bea plans: the reveal, then the first place is someone's
    wait_for(lambda: room.n >= 3)
    play_until(room, bea, 0)
    assert 0 in room.state.to_act()
    assert watch_round(app)
    if on:
        assert app.notifier.shown == [("Gonzaga: your turn",
                                       f"It is your turn in a game on {srv.url} (round {room.state.round}).")]
    else:
        assert app.notifier.shown == []


def test_creating_on_a_server_offers_live_or_turn_based_with_its_times(make_app, srv):
    app = make_app((1280, 720))
    app.stack.push("online_host", server=srv.url, player="Ann")
    scene = app.stack.top
    button(app, "Turn-based").on_click()
    assert scene.pace == "turn" and not scene.timer_button.enabled
    button(app, "Time per move: 24 h").on_click()
    assert scene.move_hours == 72
    button(app, "AI after 3 missed").on_click()
    assert scene.missed_limit == 5
    scene.host()
    sent = app.table._first  # the create, as sent
    assert (sent.pace, sent.move_hours, sent.missed_limit, sent.turn_secs) == ("turn", 72, 5, None)
    assert frames_until(app, lambda: app.table.problem is not None, frames=300)  # not signed in: refused
    assert app.table.problem == "Turn-based games are played with an account: sign in to this server first."


def test_an_ais_seat_in_my_games_is_named_in_the_players_language():
    from gonzaga.scenes.mygames import shown_name
    from gonzaga.words import i18n
    try:
        i18n.set_language("it")
        assert shown_name("AI (easy)") == i18n.t("online.ai_name", level=i18n.t("level.easy")) != "AI (easy)"
        assert shown_name("AI (hard@150)") == i18n.t("online.ai_name", level=i18n.t("level.hard"))
        assert shown_name("AI (Bea)") == "AI (Bea)"  # a player who chose such a name keeps it
    finally:
        i18n.set_language("en")
