"""Smaller finishes of issue 40 (item 8), each through the real app, headless."""
from __future__ import annotations

import pygame
import pytest

from gonzaga.resources import asset_path


def test_the_window_shows_the_games_icon(make_app, monkeypatch):
    given = []
    real = pygame.display.set_icon
    monkeypatch.setattr(pygame.display, "set_icon", lambda s: (given.append(s), real(s)))
    make_app((1280, 720))
    assert given, "no icon was set: the window keeps pygame's default"
    icon = pygame.image.load(str(asset_path("icon", "gonzaga.png")))
    s = given[-1]
    assert s.get_size() == icon.get_size()
    w, h = icon.get_size()
    assert all(s.get_at((x, y)) == icon.get_at((x, y)) for x in range(0, w, 17) for y in range(0, h, 17))


@pytest.mark.parametrize("lang", ["en", "it"])
@pytest.mark.parametrize("size", [(1280, 720), (1600, 900), (2560, 1440)])
def test_card_subtitles_are_whole_and_never_tiny(make_app, lang, size):
    """The action cards' subtitles (and "played last round") on the planning hand: never
    shortened, never under 90% of their size (the Italian ones were ~8 px at 1280x720)."""
    from gonzaga.render import theme
    from gonzaga.table.session import SeatSpec
    from gonzaga.ui.widgets import Button
    from gonzaga.words import i18n
    app = make_app(size, language=lang)
    app.start_session([SeatSpec("Me", "human", colour="red"), SeatSpec("Bot", "ai", "greedy", "blue")], 3)
    app.run_frames(3)
    g = app.stack.top
    subs = [w for w in g.widgets.items if getattr(w, "sub", "") and w.visible]
    assert len(subs) >= 4
    cards = [w for w in g.widgets.items if getattr(w, "card", None) is not None and w.visible]
    played = [Button(w.label, lambda: None, w.rect, px=w.px, sub=i18n.t("plan.played_last")) for w in cards]
    for w in subs + played:
        lab, (lines, px) = w._fit_label(w.rect)
        assert " ".join(lines) == w.sub, (w.sub, lines)
        assert " ".join(lab[0]) == w.label, (w.label, lab)
        assert px >= w.px * 0.72 * 0.9 - 1e-6, (w.sub, px)
        assert theme.font("sans", px).get_height() >= 14, (w.sub, px)


def test_the_italian_played_last_round_reads_naturally():
    from gonzaga.words import i18n
    i18n.set_language("it")
    try:
        assert i18n.t("plan.played_last") == "giocata al turno scorso"
    finally:
        i18n.set_language("en")


def drawn_texts(monkeypatch) -> list:
    """(text, rect) of every text drawn from now on (``widgets.blit_text`` spied on)."""
    from gonzaga.ui import widgets as W
    drawn: list = []
    real = W.blit_text

    def spy(surf, text, pos, *a, **k):
        r = real(surf, text, pos, *a, **k)
        drawn.append((text, r))
        return r
    monkeypatch.setattr(W, "blit_text", spy)
    return drawn


@pytest.mark.parametrize("scale", [1.0, 1.44, 2.0])
def test_the_score_chart_keeps_end_whole_and_its_numbers_clear_of_the_title(monkeypatch, scale):
    """At 2560x1440 (text 1.44x) the chart's "End" was cut to "Enc" and "150" touched the title."""
    from gonzaga.render import theme
    from gonzaga.ui import charts
    pygame.init()
    drawn = drawn_texts(monkeypatch)
    theme.set_text_scale(scale)
    try:
        surf = pygame.Surface((420, 300), pygame.SRCALPHA)
        series = [charts.seat_series("Ann", [0, 40, 90, 141], "red"), charts.seat_series("Bob", [0, 30, 70, 120], "blue")]
        charts.line_chart(surf, surf.get_rect(), series, ["1", "2", "3", "End"], title="Score by round")
    finally:
        theme.set_text_scale(1.0)
    box = surf.get_rect()
    for text, r in drawn:
        assert box.contains(r), (text, r)
    title = next(r for t, r in drawn if t == "Score by round")
    numbers = [r for t, r in drawn if t.isdigit() and t != "0"]
    assert numbers and not any(r.colliderect(title) for r in numbers)
    assert any(t == "End" for t, _ in drawn)


@pytest.mark.parametrize("lang", ["en", "it"])
def test_the_best_points_table_is_headed_by_the_cards_names(make_app, monkeypatch, lang):
    """Its columns were A, B, C: letters the cards never show."""
    from gonzaga.table.session import SeatSpec
    from gonzaga.words import i18n
    app = make_app((1280, 720), language=lang)
    app.start_session([SeatSpec("Me", "human", colour="red"), SeatSpec("Bot", "ai", "greedy", "blue")], 3)
    app.run_frames(3)
    g = app.stack.top
    g.plans.folded = False
    drawn = drawn_texts(monkeypatch)
    app.run_frames(1)
    table = g.plans.rect
    inside = [t for t, r in drawn if table.contains(r)]
    for a in "ABC":
        assert i18n.t(f"card.{a}") in inside, inside
        assert a not in inside


@pytest.mark.parametrize("size", [(1280, 720), (2560, 1440)])
@pytest.mark.parametrize("scale", [100, 150, 200])
@pytest.mark.parametrize("lang", ["en", "it"])
def test_host_and_join_online_share_one_text_size(make_app, size, scale, lang):
    from gonzaga.words import i18n
    app = make_app(size, ui_scale=scale, language=lang)
    app.run_frames(2)
    title = app.stack.top
    pair = [w for w in title.widgets.items if getattr(w, "label", None) in
            (i18n.t("title.host_online"), i18n.t("title.join_online"))]
    assert len(pair) == 2
    sizes = {round(b._fit_label(b.rect)[0][1], 3) for b in pair}
    assert len(sizes) == 1, sizes


def test_new_game_remembers_the_last_table_even_after_a_restart(make_app):
    from gonzaga.table import persistence
    from scene_events import click
    app = make_app((1280, 720))
    app.stack.push("new_game")
    app.run_frames(2)
    ng = app.stack.top
    ng.set_count(2)
    ng.set_level(1, "hard" if "hard" in ng.levels else ng.levels[-1])
    ng.next_colour(1)
    ng.fields[0].value = "Isabella"
    ng.fields[1].value = "Ludovico"
    tiles = [t.name for t in app.content.scenarios_for(2)]
    ng.set_scenario(tiles[-1])
    want = ([(s.name, s.kind, s.bot, s.colour) for s in ng.chosen_seats()], tiles[-1])
    click(app, ng.start_button.rect.center, 3)
    assert app.session is not None and [s.name for s in app.session.seats] == ["Isabella", "Ludovico"]
    app.to_title()
    app.stack.push("new_game")
    app.run_frames(2)
    again = app.stack.top
    assert again is not ng and again.count == 2
    assert ([(s.name, s.kind, s.bot, s.colour) for s in again.chosen_seats()], again.scenario) == want
    app.close()
    later = make_app((1280, 720))  # the next time the game opens: its settings from the file
    later.settings = persistence.load_settings()
    assert later.settings.last_table is not None
    later.stack.push("new_game")
    later.run_frames(2)
    ng3 = later.stack.top
    assert ([(s.name, s.kind, s.bot, s.colour) for s in ng3.chosen_seats()], ng3.scenario) == want


def test_a_damaged_last_table_falls_back_to_the_defaults(make_app):
    from gonzaga.table import persistence
    import json
    p = persistence.settings_path()
    p.write_text(json.dumps({"last_table": {"count": 9, "seats": "x"}, "language": "en"}))
    assert persistence.load_settings().last_table is None
    p.write_text(json.dumps({"last_table": {"count": 2, "seats": [{"name": "A", "kind": "ai", "bot": "nope",
                                                                  "colour": "red"}] * 4}}))
    app = make_app((1280, 720), **{})
    app.settings = persistence.load_settings()
    app.stack.push("new_game")
    app.run_frames(2)
    ng = app.stack.top
    assert all(s.bot in ng.levels for s in ng.seats)
    assert len({s.colour for s in ng.seats}) == 4
