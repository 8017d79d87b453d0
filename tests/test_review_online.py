"""The post-game review of an online game (issue 48): once the game is over the server sends each
player the finished game's whole record (never before the end, never to a spectator); the end
screen's Review reviews this computer's own seat only. Headless, through the app's real loop
against the in-process server (helpers from ``test_online_scenes``)."""
from __future__ import annotations

import json
import time
from dataclasses import replace

import pytest

from gonzaga.scenes import review as RS
from gonzaga.words import i18n

from scene_events import click
from test_online_scenes import app, button, host_game, top_name  # noqa: F401 (fixture)
from test_online_talk_scenes import wait_for


@pytest.fixture(autouse=True)
def small_review(monkeypatch):
    monkeypatch.setattr(RS, "BUDGET", 8)
    monkeypatch.setattr(RS, "USE_PROCESSES", False)


def test_after_an_online_game_the_player_reviews_their_own_seat_only(app, monkeypatch):  # noqa: F811 (the fixture)
    from gonzaga.net import endgame
    from gonzaga.scenes.game import GameScene
    monkeypatch.setattr(endgame, "RESIGN_LEVEL", "random")  # the game to its end quickly
    game, guest = host_game(app)
    old = game.face._GameFace__s
    room = app.table.server.server.rooms[app.table.game]
    assert room.update(0, None).record is None and old.finished is None  # not before the end
    assert not game.face.review_ready()
    assert app.table.resign() and guest.resign()  # the server's AI plays both seats to the end
    assert wait_for(app, lambda: old.state.phase == "over" and guest.session.state.phase == "over"
                    and old.finished is not None and guest.session.finished is not None, [guest], seconds=600)
    # each player got the game as everyone saw it by the end: every action, the objectives (revealed
    # then), the cards drawn in order; not the seed nor the order of the cards never drawn
    true, sent = room.record, room.update(0, None).record
    assert sent is not None and "seed" not in sent and str(true.seed) not in json.dumps(sent)
    for got in (old.finished, guest.session.finished):
        assert [a.to_text() for a in got.actions[1:]] == [a.to_text() for a in true.actions[1:]]
        assert got.actions[0].objectives == true.actions[0].objectives and got.seed == 0
        for i, deck in enumerate(got.actions[0].decks):
            n = len(deck) - len(room.state.seats[i].deck)  # the cards drawn
            assert deck[:n] == true.actions[0].decks[i][:n] and list(deck[n:]) == sorted(deck[n:])
    assert old.record.actions[0].objectives == ()  # what the game screen held while playing
    assert room.update(None, None).record is None  # a spectator's update: no record
    screen = app.stack.find(GameScene)
    assert wait_for(app, lambda: any(getattr(w, "label", "") == i18n.t("review.button")
                                     for w in screen.widgets.items))
    app.run_frames(2)
    click(app, button(app, i18n.t("review.button")).rect.center, 2)
    assert top_name(app) == "ReviewScene"
    rs = app.stack.top
    assert rs.seat == 0 and rs.choices == [0]  # this computer's seat; the friend's is not offered
    assert rs.played is old.finished
    end = time.monotonic() + 300
    while not rs.job.complete:
        assert time.monotonic() < end and not rs.job.failed
        app.run_frames(1)
        time.sleep(0.005)
    assert rs.review.seat == 0 and rs.review.total == len(rs.review.verdicts) > 0
    guest.close()


def test_an_online_game_without_its_record_gets_a_message_not_a_review(make_app):
    """A spectator's face, or a player's when the record did not come (an older server): the
    end screen shows no Review, and the review asked for all the same says why."""

    class Face:  # what the review asks of an online game's face
        remote = True
        own_seat = None
        seats = ()

        def finished_record(self):
            raise AssertionError("a face not ready for a review is not asked for its record")

        def review_ready(self):
            return False

    Face.finished_record = lambda self: None  # the face's record, as a spectator's session holds it
    scene = RS.ReviewScene.for_face(make_app((1280, 720)), Face())
    assert type(scene).__name__ == "MessageScene" and scene.body == i18n.t("review.online_none")


def test_the_record_sent_at_the_end_gives_every_seat_the_views_it_had():
    """``public_finished`` withholds the seed and the order of the cards never drawn; the record
    rebuilt from it gives each seat, at each of its decisions, the very view it had (so its review
    is the same as from the true record) and ends with the same scores."""
    from gonzaga.ai.match import play_game
    from gonzaga.ai.review import decisions
    from gonzaga.rules import replay
    from gonzaga.table.reviews import finished_from_public, public_finished
    true = play_game(["medium"] * 4, 5).record
    final = replay(true)
    assert all(s.deck for s in final.seats)  # cards were left undrawn: their order is a secret
    sent = public_finished(true, final)
    text = json.dumps(sent)
    assert "seed" not in sent and "decks=" not in text
    got = finished_from_public(json.loads(text), final.content)
    assert replay(got).scores() == final.scores() and got.seed == 0
    for i, s in enumerate(final.seats):
        rest = got.actions[0].decks[i][-len(s.deck):]
        assert sorted(rest) == sorted(s.deck) and list(rest) == sorted(rest)
    for seat in range(4):  # the config reads back with its default colours written out: the same game
        mine = [(i, replace(v, config=None)) for i, v, _ in decisions(true, seat)]
        assert mine and mine == [(i, replace(v, config=None)) for i, v, _ in decisions(got, seat)]
    with pytest.raises(ValueError):
        finished_from_public({**sent, "drawn": [[999]] * 4}, final.content)
