"""Issue 40, a wide window: the map's height is its limit, so the width it cannot use goes to the
side panel (two columns of seats, the table of best points below them, the log) instead of empty
sea on both sides of the map; the map keeps its size and a strip on its left for the title and
the legend. Windows that are not wide (1280x720, 1600x900, 1600x1000) keep their layout."""
from __future__ import annotations


import pytest

from gonzaga.render.game_sizes import board_size, map_aspect, map_size, panel_width
from gonzaga.ui import widgets as W

import screen_walk as SW


app = SW.app_fixture("wide", (1280, 720))


def map_height(g) -> float:
    """The whole map's height on screen (the renderer's hex size times the map's height in hexes)."""
    from gonzaga.render.board_view import BoardRenderer
    _x0, y0, _x1, y1 = BoardRenderer.extent_of(g.state.content)
    return g.renderer._fit_size * (y1 - y0)


@pytest.mark.parametrize("size", [(1920, 1080), (2560, 1440)], ids=["1920x1080", "2560x1440"])
def test_a_wide_window_gives_the_panel_what_the_map_cannot_use(app, size):
    SW.resize(app, size)
    SW.set_language(app, "en")
    SW.show_planning(app)
    g = SW._game(app)
    aspect = map_aspect(app.content)
    scale = W.ui_scale()
    before = int(max(300 * scale, min(390 * scale, size[0] * 0.245)))  # the panel's width before issue 40's
    assert g.wide and g.panel_rect.w >= before + W.sc(200)
    # the map as large as before: its height is the limit
    old_w, bh = board_size(size, scale)
    assert map_height(g) >= min(old_w / aspect, bh) * 0.96 - 2
    assert map_size(size, scale, aspect) == pytest.approx(min(old_w / aspect, bh))
    # the seats in two columns, the table of best points below them, in the panel
    boxes = [b for b, _i in g.panel.seat_rects]
    assert boxes[0].y == boxes[1].y and boxes[0].right < boxes[1].x, boxes
    table = g.plans.rect
    assert table is not None and g.panel_rect.contains(table), (table, g.panel_rect)
    assert all(not table.colliderect(b) for b in boxes) and table.y > max(b.bottom for b in boxes)
    # nothing on the map covers its legend; the map stands clear of the panel
    legend = g.renderer.legend_rect()
    assert legend is not None and g.board_rect.contains(legend)
    assert not SW.check_frame(app), SW.check_frame(app)
    # the width the map cannot use is not left as sea on its right: it stands by the panel
    x0, _y0, x1, _y1 = g.renderer.extent_of(g.state.content)
    right = g.renderer._rect.x + g.renderer._fit_o[0] + x1 * g.renderer._fit_size
    assert g.board_rect.right - right < W.sc(60), (right, g.board_rect)
    SW.show_placement(app)
    g = SW._game(app)
    assert g.wide and g.panel.seat_rects[0][0].y == g.panel.seat_rects[1][0].y
    assert not SW.check_frame(app), SW.check_frame(app)


@pytest.mark.parametrize("size", [(1280, 720), (1600, 900), (1600, 1000)], ids=["1280x720", "1600x900", "1600x1000"])
def test_a_window_that_is_not_wide_keeps_its_layout(app, size):
    SW.resize(app, size)
    SW.show_planning(app)
    g = SW._game(app)
    scale = W.ui_scale()
    assert not g.wide
    assert g.panel_rect.w == int(max(300 * scale, min(390 * scale, size[0] * 0.245)))
    assert g.renderer.align_x == 0.5  # the map centred, as before
    assert all(b.x == g.panel.seat_rects[0][0].x for b, _i in g.panel.seat_rects)  # one column
    assert g.plans.rect is None or g.board_rect.contains(g.plans.rect)  # the table on the map


def test_the_panel_width_rule():
    """The rule alone: wide only where the panel gains much; never beyond two columns of seats."""
    aspect = 1.1
    assert panel_width((1280, 720), 1.0, aspect) == (313, False)
    assert panel_width((1600, 900), 1.0, aspect)[1] is False
    pw, wide = panel_width((2560, 1440), 1.44, aspect)
    assert wide and 900 < pw < 1300
    pw, wide = panel_width((3440, 1440), 1.44, aspect)  # ultra-wide: two columns at most; the map centred
    assert wide and pw == int((2 * 390 + 60) * 1.44)
    assert panel_width((2560, 1440), 1.44) == (561, False)  # no map: the panel as before


def test_a_hovered_cell_of_the_table_is_the_one_previewed(app):
    """The pointer on a cell of the table of best points previews that pair: its cell lit, its
    best spot on the map (the pair is read before the table's cells are laid out anew)."""
    import pygame
    SW.resize(app, (2560, 1440))
    SW.show_planning(app)
    g = SW._game(app)
    app.run_frames(1)
    chosen = (g.hand.region, g.hand.action)
    unavailable = g.state.seats[g.private_seat].unavailable
    rect, region, action = next(c for c in g.plans.cells if (c[1], c[2]) != chosen
                                and c[1] not in unavailable and c[2] not in unavailable)
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=rect.center, rel=(0, 0), buttons=(0, 0, 0)))
    app.run_frames(2)
    assert g.plans.pair() == (region, action)
    assert tuple(app.screen.get_at((rect.x + 3, rect.centery)))[:3] == (230, 196, 120)  # its cell lit
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=(2, 2), rel=(0, 0), buttons=(0, 0, 0)))
    app.run_frames(1)


def test_the_panel_table_measures_the_seats_once_for_what_they_depend_on(app, monkeypatch):
    """The table of best points in the panel is asked for three times a frame (the panel, the
    map's pass, the panel's pass): the seats' boxes are laid out anew only when what they
    depend on changes (here the language), and the table follows them then."""
    SW.resize(app, (2560, 1440))
    SW.set_language(app, "en")
    SW.show_planning(app)
    g = SW._game(app)
    app.run_frames(2)
    calls = []
    boxes = g.panel.seat_boxes
    monkeypatch.setattr(g.panel, "seat_boxes", lambda *a, **k: calls.append(1) or boxes(*a, **k))
    app.run_frames(10)
    assert not calls, f"{len(calls)} layouts of the seats in 10 frames"
    before = g.panel.table_rect()
    SW.set_language(app, "it")
    app.run_frames(2)
    assert calls, "a new language: the seats measured anew"
    fresh = g.panel.seats_bottom(boxes(g.panel_rect.y + W.sc(10), set(g.state.to_act())))
    table = g.panel.table_rect()
    assert before is not None and table is not None and table.y == fresh
    SW.set_language(app, "en")
