"""Issue 47 on the desktop: a server's public lobby (filters, a table's terms, joining one refused
with words, quick match into a table that starts once full), the leaderboard (its order and
provisional marks from a hand-made set of ratings) and a profile's chart (its dots are the
rating history). Headless, through the app's real loop with posted events, against a real
server in this process with accounts rated by hand (``online_helpers.seed_accounts``)."""
from __future__ import annotations

import pygame
import pytest

from gonzaga.net import protocol as P
from gonzaga.net.remote import Table
from gonzaga.net.serve import ServerThread, TlsFiles
from gonzaga.net.signins import Keyring
from gonzaga.ui import rating_chart
from gonzaga.words import i18n

from online_helpers import seed_accounts, signed_table
from scene_events import click
from test_online_scenes import app, button, frames_until, top_name, type_text  # noqa: F401 (the fixture)

pytestmark = pytest.mark.rule("E-net")

TWO = [P.SeatRequest(kind="host", colour="red"), P.SeatRequest(kind="open", colour="blue")]
THREE = TWO + [P.SeatRequest(kind="open", colour="green")]


@pytest.fixture
def community(tmp_path):
    """A community server (accounts) whose players were rated by hand."""
    srv = ServerThread(tmp_path / "srv", tls=TlsFiles.own(tmp_path / "srv"), accounts=True).start()
    srv.sessions = seed_accounts(tmp_path / "srv", {
        "Ann": [1.0, 2.0, 20.0],  # 3 games: provisional
        "Bea": [5.0] * 11 + [20.0],  # 12 games, the same rating as Ann's
        "Cleo": [0.0, 2.5, -1.0, 4.0, 3.0, 6.0, 5.5, 8.0, 7.0, 7.5],  # 10 games: no longer provisional
        "Dino": [7.2] * 9,  # 9 games: provisional
        "Ed": [-3.0],
    })
    yield srv
    srv.stop()


def created(app, tables) -> None:
    assert frames_until(app, lambda: all(t.code or t.problem for t in tables), tables)
    assert [t.problem for t in tables] == [None] * len(tables)


def lobby_of(app, srv, tables=()):
    app.stack.push("online_server_games", srv.url, "Ann")
    scene = app.stack.top
    assert frames_until(app, lambda: scene.query is None, tables) and not scene.error, scene.error
    return scene


def shown_hosts(scene) -> list[str]:
    return sorted(g.host for g in scene.games)


def test_the_lobby_shows_a_tables_terms_filters_them_and_says_why_a_join_is_refused(app, community):
    srv, content = community, app.content
    tables = [signed_table(srv.url, content, srv.sessions["Bea"], "Bea", TWO, rating_min=15, rating_max=40),
              signed_table(srv.url, content, srv.sessions["Cleo"], "Cleo", THREE, pace="turn", move_hours=24),
              signed_table(srv.url, content, None, "Guest", TWO)]
    created(app, tables)
    Keyring().signed_in(srv.url, "Dino", srv.sessions["Dino"], None)  # this computer: Dino, 7.2
    try:
        scene = lobby_of(app, srv, tables)
        assert shown_hosts(scene) == ["Bea", "Cleo", "Guest"]
        text = scene.visible_text()
        assert i18n.t("lobby.your_rating", rating="7.2") in text
        bea = next(g for g in scene.games if g.host == "Bea")
        assert scene.game_line(bea) == "Bea's table · rating 20.0 · rated" and "ratings 15 to 40" in scene.game_detail(bea)
        cleo = next(g for g in scene.games if g.host == "Cleo")
        assert scene.game_detail(cleo).startswith("Cleo, free seats: 2 · turn-based, 24 h per move · ")
        # the filters, asked of the server: pace (any, live, turn-based), fits my rating
        click(app, button(app, i18n.t("lobby.pace_filter", pace=i18n.t("lobby.pace_any"))).rect.center)
        assert frames_until(app, lambda: scene.query is None, tables) and shown_hosts(scene) == ["Bea", "Guest"]
        click(app, button(app, i18n.t("lobby.pace_filter", pace=i18n.t("lobby.pace_live"))).rect.center)
        assert frames_until(app, lambda: scene.query is None, tables) and shown_hosts(scene) == ["Cleo"]
        click(app, button(app, i18n.t("lobby.pace_filter", pace=i18n.t("lobby.pace_turn"))).rect.center)
        click(app, button(app, i18n.t("lobby.fits_off")).rect.center)
        assert frames_until(app, lambda: scene.query is None, tables) and shown_hosts(scene) == ["Cleo", "Guest"]
        click(app, button(app, i18n.t("lobby.fits_on")).rect.center)
        assert frames_until(app, lambda: scene.query is None, tables) and len(scene.games) == 3
        # Bea's table: Dino's 7.2 is outside 15..40, said here (the list stays)
        row = scene.rows[[g.host for g in scene.games].index("Bea")]
        join = next(w for w in scene.widgets.items if getattr(w, "label", "") == i18n.t("servers.join")
                    and row.colliderect(w.rect))
        click(app, join.rect.center)
        want = i18n.t("lobby.outside_range", rating=7.2, low="15", high="40")
        assert frames_until(app, lambda: scene.error == want, tables), scene.error
        assert top_name(app) == "ServerGamesScene" and app.table is None
        # Guest's table fills meanwhile: the join says so, and the list is asked again
        other = Table.join(srv.url, tables[2].code, "Zed", content)
        tables.append(other)
        assert frames_until(app, lambda: other.seat == 1, tables)
        guest = [g.host for g in scene.games].index("Guest")
        join = next(w for w in scene.widgets.items if getattr(w, "label", "") == i18n.t("servers.join")
                    and scene.rows[guest].colliderect(w.rect))
        click(app, join.rect.center)
        assert frames_until(app, lambda: scene.error == i18n.t("lobby.table_full"), tables), scene.error
        assert frames_until(app, lambda: scene.query is None, tables) and shown_hosts(scene) == ["Bea", "Cleo"]
    finally:
        for t in tables:
            t.close()


def test_quick_match_opens_a_table_that_starts_once_a_second_player_quick_matches(app, community):
    from gonzaga.scenes.game import GameScene
    srv, content = community, app.content
    scene = lobby_of(app, srv)
    assert scene.games == [] and i18n.t("servers.no_games") in scene.visible_text()
    click(app, button(app, i18n.t("lobby.seats_filter", seats=i18n.t("lobby.any"))).rect.center)  # any -> 2
    assert frames_until(app, lambda: scene.query is None) and i18n.t("lobby.no_tables") in scene.visible_text()
    click(app, button(app, i18n.t("lobby.quick")).rect.center, 2)
    assert frames_until(app, lambda: top_name(app) == "LobbyScene")
    mine = app.table
    assert mine.seat == 0 and len(mine.seats) == 2
    other = Table.quick(srv.url, P.QuickMatch(name="Zed", seats=2), content)
    try:
        assert frames_until(app, lambda: app.stack.find(GameScene) is not None and other.session is not None, [other])
        assert other.game == mine.game and other.seat == 1  # the same table, started without a Start
    finally:
        other.close()


LEADERBOARD = [("1", "Ann", "20.0?", "3"), ("1", "Bea", "20.0", "12"), ("3", "Cleo", "7.5", "10"),
               ("4", "Dino", "7.2?", "9"), ("5", "Ed", "-3.0?", "1")]  # by hand from the fixture's ratings


def test_the_leaderboard_orders_and_marks_the_hand_made_ratings_and_a_profile_draws_its_history(app, community):
    srv = community
    app.stack.push("signin", srv.url)  # reachable from the account screen
    click(app, button(app, i18n.t("signin.ratings")).rect.center, 2)
    board = app.stack.top
    assert top_name(app) == "LeaderboardScene"
    assert frames_until(app, lambda: board.request is None and board.rows)
    assert [board.cells(row, rank) for _, row, rank in board.row_rects] == LEADERBOARD
    click(app, button(app, "Cleo").rect.center, 2)
    profile = app.stack.top
    assert top_name(app) == "ProfileScene"
    assert frames_until(app, lambda: profile.request is None and profile.info is not None and profile.points)
    history = [p.rating for p in profile.info.history]
    assert history == [0.0, 2.5, -1.0, 4.0, 3.0, 6.0, 5.5, 8.0, 7.0, 7.5]
    assert profile.summary() == "Rating 7.5 · rated games: 10"
    pts = profile.points
    assert len(pts) == len(history)
    steps = [b[0] - a[0] for a, b in zip(pts, pts[1:])]
    assert min(steps) > 0 and max(steps) - min(steps) <= 1  # one game a step, evenly
    (_, y0), (_, y3) = pts[0], pts[3]
    per_point = (y0 - y3) / (history[3] - history[0])  # pixels per rating point (4.0 apart)
    assert per_point > 0  # a higher rating is drawn higher up
    for (x, y), v in zip(pts, history):
        assert abs((y0 - y) - per_point * (v - history[0])) <= 1.0, (v, y)
        assert app.screen.get_at((x, y))[:3] == rating_chart.LINE  # drawn there
    assert profile.chart.collidepoint(pts[0]) and profile.chart.collidepoint(pts[-1])


def test_the_charts_axis_and_points_are_the_hand_calculated_ones():
    values = [0.0, 4.0, -2.0, 10.0]
    assert rating_chart.axis_range(values) == (-5, 10)
    assert rating_chart.axis_range([1.0, 3.0]) == (0, 5)
    assert rating_chart.axis_range([]) == (0, 5)
    plot = pygame.Rect(10, 20, 300, 150)  # bottom 170: -5 there, 10 at 20
    assert rating_chart.points(values, plot, -5, 10) == [(10, 120), (110, 80), (210, 140), (310, 20)]
    assert rating_chart.points([3.0], plot, 0, 5) == [(160, 20 + 150 - 90)]  # one game: the middle


@pytest.mark.parametrize("lang", ["en", "it", "de", "fr", "es", "pl"])
def test_the_lobby_and_ratings_screens_fit_in_every_language(app, community, lang):
    """The lobby with a table of every kind of term, the leaderboard, a profile and the create
    screen with its rating range, at the smallest and the usual window: nothing cut or overlapping."""
    import screen_walk as SW
    srv, content = community, app.content
    SW.set_language(app, lang)
    four = TWO + [P.SeatRequest(kind="ai", colour="green", bot="hard"), P.SeatRequest(kind="open", colour="yellow")]
    tables = [signed_table(srv.url, content, srv.sessions["Bea"], "Bea", four, turn_secs=60),
              signed_table(srv.url, content, srv.sessions["Cleo"], "Cleo", THREE, pace="turn", move_hours=72,
                           rating_min=-10, rating_max=10)]
    created(app, tables)
    Keyring().signed_in(srv.url, "Dino", srv.sessions["Dino"], None)
    problems: list = []
    try:
        scene = lobby_of(app, srv, tables)
        scene.fits = True  # the longest words of the toggle
        scene.layout(app.size)
        problems += SW.problems_at(app, "lobby")
        click(app, button(app, i18n.t("lobby.ratings")).rect.center, 2)
        board = app.stack.top
        assert frames_until(app, lambda: board.request is None and board.rows, tables)
        problems += SW.problems_at(app, "leaderboard")
        click(app, button(app, "Cleo").rect.center, 2)
        profile = app.stack.top
        assert frames_until(app, lambda: profile.request is None and profile.info is not None, tables)
        problems += SW.problems_at(app, "profile")
        from gonzaga.scenes.online import HostScene
        create = HostScene(app, server=srv.url, player="Ann")
        app.stack.push(create)
        create.set_count(4)  # the most rows, with the rating range's
        create.range_fields[0].value, create.range_fields[1].value = "-10", "150"
        mine = (i18n.t("lobby.range_label"), i18n.t("lobby.range_blank"))  # this row's (German's "lost or slow
        # players" runs into its buttons on every host screen: not this test's)
        problems += [p for p in SW.problems_at(app, "create") if any(t in p for t in mine)]
    finally:
        for t in tables:
            t.close()
    assert not problems, "\n".join(problems)


def test_a_table_created_on_a_server_carries_the_rating_range_typed(app, community):
    from gonzaga.net.browse import GameList
    from test_online_servers import answer
    srv = community
    Keyring().signed_in(srv.url, "Dino", srv.sessions["Dino"], None)  # 7.2
    lobby_of(app, srv)
    click(app, button(app, i18n.t("servers.create")).rect.center, 2)
    host = app.stack.top
    assert top_name(app) == "HostScene" and len(host.range_fields) == 2
    low, high = host.range_fields
    click(app, low.rect.center)
    type_text(app, "abc")
    click(app, button(app, i18n.t("servers.create_button")).rect.center)
    assert host.error == i18n.t("lobby.range_bad", value="abc") and top_name(app) == "HostScene"
    low.value = "-5"
    click(app, high.rect.center)
    type_text(app, "30")
    click(app, button(app, i18n.t("servers.create_button")).rect.center, 2)
    assert top_name(app) == "LobbyScene"
    table = app.table
    assert frames_until(app, lambda: table.code is not None and len(table.seats) == 2)
    games = answer(GameList(srv.url), [table]).games
    assert [(g.host, g.rating_min, g.rating_max, g.host_rating) for g in games] == [("Dino", -5, 30, 7.2)]


def test_a_refusals_rating_is_written_in_the_players_language():
    from gonzaga.net.remote import refusal_words
    msg = P.Error(code="not_allowed", key="lobby.outside_range", params={"rating": 7.25, "low": "15", "high": "40"},
                  message="")
    try:
        i18n.set_language("de")
        assert "7,25" in refusal_words(msg) and "15" in refusal_words(msg)
    finally:
        i18n.set_language("en")
    assert refusal_words(msg) == "Your rating 7.25 is outside this table's range (15 to 40)."
