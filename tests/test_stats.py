"""Statistics (issue 13): one entry per finished game, counted when the game ends on screen and
never again (not when the save is loaded; watching it: test_replay_view.py); a damaged file is kept aside and a new one
started, with a message; the screen shows the figures and its reset asks first."""
from __future__ import annotations

import json

import time

import pytest

from gonzaga.table import persistence, stats
from gonzaga.ai import make_bot
from gonzaga.rules import load_content, view
from gonzaga.table.session import SeatSpec, Session


@pytest.fixture
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("GONZAGA_HOME", str(tmp_path / "home"))
    return tmp_path / "home"


def finished(seed=4, seats=None, stop_before_end=False):
    seats = seats or [SeatSpec("Ann", "human", colour="red"), SeatSpec("Bot", "ai", "easy", "blue")]
    s = Session.new(seats, seed, content=load_content())
    bots = [make_bot("greedy", seed + i) for i in range(len(seats))]
    while not s.is_over:
        st = s.state
        seat = st.to_act()[0]
        a = bots[seat].choose(view(st, seat), seat)
        if stop_before_end and st.phase == "place" and st.round == st.last_round and st.turn == len(st.order) - 1:
            return s, a
        if s.is_human(seat):
            assert s.submit(a) is None
        else:
            s._apply(a)
    return s, None


def test_a_game_is_counted_once(home):
    s, _ = finished()
    assert stats.record_game(s) is None
    assert stats.record_game(s) is None  # the same game again: not counted twice
    st, problem = stats.load()
    assert problem is None and len(st.games) == 1
    g = st.games[0]
    assert g.seats == 2 and g.mode == "solo" and g.opponents == ["easy"]
    assert g.score == s.state.seats[0].score and g.won == (0 in s.state.winners)
    assert g.takebacks is False and g.hints is False
    # a finished game without a human seat (the demo) is not counted
    demo, _ = finished(seats=[SeatSpec("A", "ai", "easy", "red"), SeatSpec("B", "ai", "easy", "blue")])
    assert stats.entry_for(demo) is None


def test_a_game_finished_again_after_a_takeback_is_the_same_game(home):
    from gonzaga.rules import Donate, GameRecord
    s, last = finished(seed=13, stop_before_end=True)
    again = Session(s.seats, GameRecord(s.record.config, s.record.seed, list(s.record.actions)), content=s.content)
    s.submit(last) if s.is_human(last.seat) else s._apply(last)
    again.submit(Donate(last.seat)) if again.is_human(last.seat) else again._apply(Donate(last.seat))
    assert s.is_over and again.is_over and s.record.actions != again.record.actions
    stats.record_game(s)
    stats.record_game(again)
    assert len(stats.load()[0].games) == 1


def test_takebacks_and_hints_are_read_from_the_session_when_there(home):
    s, _ = finished(seed=6)
    s.assists = {"takebacks": 0, "hints": 2}  # issue 11 counts them on the session (and in the save)
    stats.record_game(s)
    g = stats.load()[0].games[0]
    assert g.hints is True and g.takebacks is False
    t, _ = finished(seed=7)
    t.takebacks = 1  # or a count or a flag of that name
    stats.record_game(t)
    assert stats.load()[0].games[1].takebacks is True


def test_counted_when_it_ends_on_screen_not_when_loaded(home):
    from gonzaga.app import App
    from gonzaga.scenes.game import GameScene
    from gonzaga.table.seatview import face_of
    app = App(persistence.Settings(speed="instant"), size=(1280, 720))
    app.run_frames(2)
    s, last = finished(seed=11, stop_before_end=True)
    s.content = app.content
    app.session = s
    g = GameScene(app, face_of(s))
    app.stack.replace(g)
    app.run_frames(3)
    assert stats.load()[0].games == []
    s._apply(last) if not s.is_human(last.seat) else s.submit(last)
    app.run_frames(3)
    assert s.is_over
    assert len(stats.load()[0].games) == 1
    path = persistence.save_game(s, persistence.named_save_path("done"), "done")
    for _ in range(2):  # loaded again (twice): still one game
        assert app.open_save(path)
        app.run_frames(5)
    assert len(stats.load()[0].games) == 1
    app.close()


def test_a_damaged_file_is_kept_aside_and_a_new_one_started(home):
    s, _ = finished(seed=12)
    stats.record_game(s)
    path = stats.stats_path()
    for bad in ("{not json", json.dumps({"format": "gonzaga-stats", "version": 1, "games": [{"id": 3}]}),
                json.dumps({"format": "gonzaga-stats", "version": 99, "games": []}), "[]"):
        path.write_text(bad, encoding="utf-8")
        st, message = stats.load()
        assert st.games == [] and message and "damaged" in message
        kept = sorted(path.parent.glob("stats.json.damaged-*"))
        assert kept and any(k.read_text(encoding="utf-8") == bad for k in kept)
        assert stats.load() == (st, None)  # a new, valid file: the message is shown once
        for k in kept:
            k.unlink()
    # recording over a damaged file counts the game and returns the message (the screen shows it)
    path.write_text("garbage", encoding="utf-8")
    message = stats.record_game(s)
    assert message and len(stats.load()[0].games) == 1


def test_a_damaged_file_is_reported_on_screen_and_never_blocks(home):
    from gonzaga.app import App
    from gonzaga.scenes.stats_view import StatsScene
    stats.stats_path().parent.mkdir(parents=True, exist_ok=True)
    stats.stats_path().write_text("\x00\x01 not a statistics file", encoding="utf-8")
    app = App(persistence.Settings(speed="instant"), size=(1280, 720))
    app.run_frames(2)
    scene = app.stack.push(StatsScene(app))
    app.run_frames(2)
    assert any("damaged" in t for t in scene.visible_text())
    app.stack.pop()
    app.stack.push(StatsScene(app))  # once only
    assert not any("damaged" in t for t in app.stack.top.visible_text())
    app.close()


def test_summary_and_the_screen_in_both_languages_with_a_reset_that_asks(home):
    from gonzaga.app import App
    from gonzaga.scenes.stats_view import ConfirmScene, StatsScene
    from gonzaga.words import i18n
    seats3 = [SeatSpec("Ann", "human", colour="red"), SeatSpec("B", "ai", "hard", "blue"),
              SeatSpec("C", "ai", "easy", "green")]
    hot = [SeatSpec("Ann", "human", colour="red"), SeatSpec("Bea", "human", colour="blue")]
    for seed, seats in ((1, None), (2, seats3), (3, hot)):
        stats.record_game(finished(seed=seed, seats=seats)[0])
    sm = stats.summary(stats.load()[0])
    assert sm["played"] == 3
    assert sum(p for p, _w in sm["by_seats"].values()) == 3
    assert sm["by_mode"]["hotseat"][0] == 1 and sm["by_mode"]["hotseat"][1] == 1  # a human always wins it
    assert sm["by_level"]["hard"][0] == 1
    assert sm["best"] >= sm["mean"] > 0
    assert "online" not in sm["by_mode"]  # no online game yet: no empty group on the chart
    st = stats.load()[0]
    online = st.games[0].model_copy(update={"id": stats.online_id("g1"), "mode": "online"})
    stats.save(st.model_copy(update={"games": st.games + [online]}))
    sm = stats.summary(stats.load()[0])
    assert sm["played"] == 4 and sm["by_mode"]["online"][0] == 1
    for lang in ("en", "it"):
        app = App(persistence.Settings(speed="instant", language=lang), size=(1280, 720))
        app.run_frames(2)
        scene = app.stack.push(StatsScene(app))
        app.run_frames(2)
        texts = scene.visible_text()
        assert i18n.t("stats.heading") in texts and any(t.startswith(i18n.t("stats.played")) for t in texts)
        reset = next(w for w in scene.widgets.items if w.label == i18n.t("stats.reset"))
        reset.activate()
        assert isinstance(app.stack.top, ConfirmScene)
        app.stack.top.close()  # Cancel: nothing is lost
        assert len(stats.load()[0].games) == 4
        app.close()
    app = App(persistence.Settings(speed="instant"), size=(1280, 720))
    app.run_frames(2)
    scene = app.stack.push(StatsScene(app))
    scene.ask_reset()
    app.stack.top._yes()
    assert stats.load()[0].games == [] and scene.stats.games == []
    app.close()


def test_the_title_screen_opens_the_statistics(home):
    from gonzaga.app import App
    from gonzaga.scenes.stats_view import StatsScene
    from gonzaga.words import i18n
    app = App(persistence.Settings(speed="instant"), size=(1280, 720))
    app.run_frames(3)
    b = next(w for w in app.stack.top.widgets.items if w.label == i18n.t("title.stats"))
    assert app.screen.get_rect().contains(b.rect)
    b.activate()
    assert isinstance(app.stack.top, StatsScene)
    assert i18n.t("stats.empty") in app.stack.top.visible_text()
    app.run_frames(2)
    app.close()


@pytest.mark.parametrize("size,n,in_panel", [((1600, 1000), 4, True), ((1920, 1080), 4, True), ((1280, 720), 2, True),
                                             ((1280, 720), 3, True), ((1280, 720), 4, True)])
def test_the_end_chart_leaves_the_map_whole_when_the_panel_has_room(home, size, n, in_panel):
    """The score-by-round chart goes in the side panel (in place of the log) when there is room,
    so the final map is seen whole; the seats' boxes are drawn smaller to make that room (issue
    50: four seats at 1280x720 put it over the map); a panel that has none keeps it on the map's corner."""
    import pygame
    from gonzaga.app import App
    from gonzaga.scenes.game import GameScene
    colours = ["red", "yellow", "green", "blue"]
    seats = [SeatSpec("Ann", "human", colour="red")] + [SeatSpec(f"Bot{i}", "ai", "easy", colours[i])
                                                         for i in range(1, n)]
    s, _ = finished(seed=5, seats=seats)
    path = persistence.save_game(s, persistence.saves_dir() / "end.json", "End")
    app = App(persistence.Settings(speed="instant", reduce_motion=True), size=size)
    try:
        app.run_frames(2)
        assert app.open_save(path)
        app.run_frames(6)
        g = app.stack.find(GameScene)
        c = g.feedback.chart_rect()
        if in_panel:
            assert g.panel_rect.contains(c) and not c.colliderect(g.board_rect)
            seat_boxes = [r for r, _ in g.panel.seat_rects]
            assert seat_boxes and not any(c.colliderect(r) for r in seat_boxes)
        else:
            assert g.board_rect.contains(c)
        watch = next(b for b in g.widgets.items if getattr(b, "label", "") == i18n_t("replay.watch"))
        assert not watch.rect.colliderect(c) and g.app.size[0] >= watch.rect.right
        app.screen.fill((0, 0, 0))
        g.draw(app.screen)
        assert pygame.Rect(c).w > 0
        # the chart is opaque (issue 45: over the map at 1280x720 it let the map show through)
        end = time.monotonic() + 30  # the scores by round are replayed off the frame loop
        g.feedback._draw_chart(app.screen, on_map=not in_panel)
        while g.feedback._chart is None:
            assert time.monotonic() < end, "the end chart was never drawn"
            app.run_frames(1)
            g.feedback._draw_chart(app.screen, on_map=not in_panel)
        img = g.feedback._chart[1]
        assert img.get_at((img.get_width() - 4, img.get_height() // 2)).a == 255
    finally:
        app.close()


def i18n_t(key):
    from gonzaga.words import i18n
    return i18n.t(key)
