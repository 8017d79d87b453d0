"""The game screen's parts driven alone (issue 45, "screens built from parts"): each is made with
made-up inputs (a game dealt by the rules, a face of a few fields, a rectangle) and no screen
around it, and what it draws or measures is checked against what those inputs call for."""
from __future__ import annotations

import random
from types import SimpleNamespace

import pygame
import pytest

from gonzaga.render.game_sizes import END_H, TOP_H, panel_width
from gonzaga.rules import ACTION_CARDS, GameConfig, Plan, apply, deal, new_game, public_view, view
from gonzaga.rules.state import evolve
from gonzaga.scenes.game.bar import BottomBar
from gonzaga.scenes.game.camera import Camera
from gonzaga.scenes.game.hand import Hand
from gonzaga.scenes.game.panel import SeatsPanel
from gonzaga.scenes.game.top import TopBar
from gonzaga.scenes.tutorial_marks import TutorialMarks
from gonzaga.table.seats import SeatSpec
from gonzaga.ui import widgets as W
from gonzaga.ui.widgets import Widgets
from gonzaga.words import i18n

NAMES = ["Isabella d'Este", "Federico", "Ludovico il Moro", "Beatrice"]


@pytest.fixture
def window():
    """A 1280x720 window at interface scale 1 in English; the label check on."""
    pygame.init()
    surf = pygame.display.set_mode((1280, 720))
    W.set_ui_scale(1.0)
    i18n.set_language("en")
    W.CHECK.enabled = True
    W.CHECK.reset()
    yield surf
    W.CHECK.enabled = False
    W.CHECK.reset()


def dealt(seats: int, seed: int = 3, public: bool = True):
    """A game dealt by the rules: its public view (no seat's secrets), or the whole state (the end)."""
    st = new_game(GameConfig(seats=seats))
    st = apply(st, deal(st, random.Random(seed)))
    return public_view(st) if public else st


def face(seats: int, log: list | None = None):
    """The few fields of a game's face the panel and the top bar read."""
    specs = [SeatSpec(NAMES[i], "ai" if i % 2 else "human", "greedy") for i in range(seats)]
    return SimpleNamespace(version=1, seats=specs, remote=False, log=log or [], seat_note=lambda i: None,
                           clock_note=lambda i: None, seat_name=lambda i: specs[i].name,
                           result_text=lambda: "")


def make_panel(st, f, chart_room=None, table_height=None):
    return SeatsPanel(f, lambda: st, lambda _i, score: score, chart_room, lambda: False, lambda: 0,
                      lambda: table_height)


def panel_rect(size=(1280, 720)) -> pygame.Rect:
    w, h = size
    pw, _wide = panel_width(size, 1.0)
    return pygame.Rect(w - pw, TOP_H, pw, h - TOP_H)


def test_the_panel_boxes_four_seats_at_1280x720_apart_each_with_its_whole_name(window):
    st, f = dealt(4), face(4)
    panel = make_panel(st, f)
    panel.place(panel_rect())
    panel.draw(window, (-1, -1))
    boxes = [box for box, _seat in panel.seat_rects]
    assert [seat for _box, seat in panel.seat_rects] == [0, 1, 2, 3]
    for i, a in enumerate(boxes):
        assert panel.rect.contains(a), (a, panel.rect)
        assert all(not a.colliderect(b) for b in boxes[i + 1:]), boxes
    labels = {lab[2]: lab[1] for lab in W.CHECK.labels}
    for box, seat in panel.seat_rects:
        name = NAMES[seat]
        assert name in labels, f"{name!r} not drawn whole"
        assert box.contains(labels[name]), (name, labels[name], box)
    assert not W.CHECK.shortened, W.CHECK.shortened
    # the log keeps its five whole lines below the boxes (issue 40), here an empty log's room
    assert panel.log_whole_lines >= 5


def test_the_panel_leaves_the_end_chart_the_room_it_asks(window):
    """At the end the seats' boxes tighten until the chart's room fits below them."""
    st = dealt(4)
    st = evolve(st, phase="over")
    panel = make_panel(st, face(4), chart_room=lambda: 330)
    panel.place(panel_rect())
    y = panel.rect.y + W.sc(10)
    fit = panel.fit_seats(y, set())
    bottom = panel.seats_bottom(panel.seat_boxes(y, set()))
    assert fit in ("full", "nochips", "tight")
    if fit != "tight":  # a fit is taken only where the room below it is left
        assert bottom + 330 <= panel.rect.bottom
    loose = make_panel(st, face(4))
    loose.place(panel_rect())
    assert ("full", "nochips", "tight").index(fit) >= ("full", "nochips", "tight").index(loose.fit_seats(y, set()))


def test_the_panel_puts_the_table_of_best_points_below_the_seats_only_where_the_log_still_fits(window):
    st, f = dealt(2), face(2)
    rect = pygame.Rect(1000, TOP_H, 600, 1440 - TOP_H)
    panel = make_panel(st, f, table_height=200)
    panel.place(rect)
    table = panel.table_rect()
    y = panel.seats_bottom(panel.seat_boxes(rect.y + W.sc(10), set(st.to_act())))
    assert table is not None and table.y == y and table.h == 200 and rect.contains(table)
    assert make_panel(st, f, table_height=None).table_rect() is None  # not planning on a wide window
    tall = make_panel(st, f, table_height=rect.h)  # no room left for the log under it: on the map
    tall.place(rect)
    assert tall.table_rect() is None


def test_the_top_bar_tells_the_last_turn_check_from_the_log(window):
    st = dealt(3)
    entry = SimpleNamespace(key="log.last_turn_check", params={"round": 6, "sites": 4}, text=lambda: "")
    bar = TopBar(face(3, [entry]), lambda: st)
    assert st.last_round is None
    assert bar.status_text() == i18n.t("game.last_turn_check", round=6, sites=4)
    assert TopBar(face(3), lambda: st).status_text() == i18n.t("game.last_turn_not_fired")
    bar.draw(window, objective_button=False)
    assert bar.status_rect is not None and bar.status_rect.bottom <= W.sc(TOP_H)
    assert i18n.t("game.round", round=st.round) in [lab[2] for lab in W.CHECK.labels]


def end_face(rows):
    f = face(len(rows))
    f.score_rows = lambda: rows
    f.shown_seed = lambda: 1234
    f.seat_resigned = lambda seat: False
    f.result_text = lambda: "Federico wins"
    return f


def test_the_bottom_bar_end_table_lists_the_scores_given_one_row_per_seat(window):
    st = evolve(dealt(3, seed=5, public=False), phase="over")
    parts = [(20, 6, 3, 4, 8), (15, 9, 0, 2, 5), (25, 3, 6, 0, 10)]
    rows = [{"seat": i, "name": NAMES[i], "colour": st.seats[i].colour, "sites": a, "leagues": b, "donations": c,
             "gonzaga": d, "objective": e, "total": a + b + c + d + e, "objective_held": i + 1, "winner": i == 2}
            for i, (a, b, c, d, e) in enumerate(parts)]
    bar = BottomBar(end_face(rows), lambda: st, lambda rs: rs)
    bar.place(pygame.Rect(0, 720 - W.sc(END_H), 1280 - panel_rect().w, W.sc(END_H)), W.sc(300))
    bar.draw_ground(window)
    bar.draw_end(window, selected=2)
    assert [seat for seat, _r in bar.end_rows] == [0, 1, 2]
    rects = [r for _s, r in bar.end_rows]
    assert all(a.bottom <= b.top for a, b in zip(rects, rects[1:])) and all(bar.rect.contains(r) for r in rects)
    shown = [(lab[2], lab[1]) for lab in W.CHECK.labels]
    for (seat, rect), (a, b, c, d, e) in zip(bar.end_rows, parts):
        in_row = [text for text, ink in shown if rect.colliderect(ink)]
        assert str(a + b + c + d + e) in in_row and str(a) in in_row, (seat, in_row)
        assert f"{e} ({seat + 1}/6)" in in_row, in_row  # the objective's points and its cities held
    assert bar.end_name(rows[2]) in [t for t, _i in shown]  # the winner, marked
    assert bar.end_name(rows[2]) != NAMES[2] and bar.end_name(rows[0]) == NAMES[0]
    assert "Federico wins" in " ".join(t for t, _i in shown) and "1234" in " ".join(t for t, _i in shown)
    assert not W.CHECK.problems((1280, 720)), W.CHECK.problems((1280, 720))


def test_the_bottom_bar_says_whose_turn_it_is_between_turns(window):
    st = dealt(2)
    f = face(2)
    f.ai_showing = None
    f.is_human = lambda seat: seat == 0
    bar = BottomBar(f, lambda: evolve(st, phase="place", order=(1, 0), turn=0), lambda rs: rs)
    bar.place(pygame.Rect(0, 600, 900, 120), 300)
    bar.draw_watch(window, None)
    assert i18n.t("game.thinking", name=NAMES[1]) in [lab[2] for lab in W.CHECK.labels]
    W.CHECK.reset()
    bar.draw_watch(window, "the host is away")  # an online game's own words
    assert [lab[2] for lab in W.CHECK.labels] == ["the host is away"]


def test_the_hand_offers_the_cards_and_submits_the_plan_chosen(window):
    st = view(dealt(3, public=False), 0)  # seat 0's own view: its hand is open
    sent, said, done, changed = [], [], [], []
    refusal = []

    def submit(plan):
        sent.append(plan)
        return refusal[0] if refusal else None
    hand = Hand(lambda: st, lambda: 0, submit, lambda: changed.append(1), said.append, lambda: done.append(1))
    widgets = Widgets()
    bar = pygame.Rect(0, 720 - 200, 1000, 200)
    hand.build(widgets, bar, 300)
    cards = [w.card for w in widgets.items if w.card is not None]
    assert cards == list(st.region_cards()) + list(ACTION_CARDS) + ["K"]
    confirm = widgets.items[-1]
    assert confirm.label == i18n.t("plan.confirm") and not confirm.enabled
    assert all(bar.contains(w.rect) and w.rect.x >= 300 for w in widgets.items)
    hand.confirm()  # nothing chosen: asked for both, nothing sent
    assert said == [i18n.t("plan.choose_both")] and not sent
    region = st.region_cards()[1]
    hand.pick_region(region)
    hand.pick_action("B")
    hand.toggle_king()
    assert changed == [1, 1, 1]
    widgets = Widgets()
    hand.build(widgets, bar, 300)
    selected = {w.card for w in widgets.items if w.card is not None and w.selected}
    assert selected == {region, "B", "K"} and widgets.items[-1].enabled
    hand.confirm()
    assert sent == [Plan(0, region, "B", True)] and done == [1]


def test_the_hands_gate_keeps_a_refused_card_unchosen(window):
    st = view(dealt(2, public=False), 1)
    asked = []
    hand = Hand(lambda: st, lambda: 1, lambda plan: None, lambda: None, lambda _m: None, lambda: None)
    hand.allow = lambda kind, card: asked.append((kind, card)) or card == "C"
    hand.pick_region(st.region_cards()[0])
    hand.pick_action("A")
    hand.pick_action("C")
    hand.confirm()
    assert (hand.region, hand.action, hand.king) == (None, "C", False)
    assert asked == [("region", st.region_cards()[0]), ("action", "A"), ("action", "C"), ("confirm", "")]


class FakeRenderer:
    """What the camera asks of the board renderer, recorded."""

    def __init__(self):
        self.calls, self.zoom = [], 1.0

    def zoom_step(self, step, about):
        self.calls.append(("zoom", step, tuple(about)))
        self.zoom += 0.5 * step

    def pan_by(self, dx, dy):
        self.calls.append(("pan", dx, dy))

    def fit_view(self):
        self.calls.append(("fit",))

    def hex_to_screen(self, h):
        return (100 + h[0], 100 + h[1])

    def screen_to_hex(self, x, y):
        return (x - 100, y - 100)

    def draw_highlight(self, surf, hexes, kind="", strong=False):
        self.calls.append(("highlight", list(hexes), kind))


def test_the_camera_zooms_pans_and_leaves_a_held_fief_to_the_wheel(window):
    r = FakeRenderer()
    board = pygame.Rect(0, 60, 900, 500)
    mouse = [(300, 300)]
    placing = [None]
    turned, tips, moved = [], [], []
    cam = Camera(lambda: r, lambda: board, lambda: mouse[0], lambda: placing[0], turned.append,
                 lambda: tips.append(1), lambda: moved.append(1))
    wheel = pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=1)
    assert cam.handle(wheel) and r.calls == [("zoom", 1, (300, 300))] and moved == [1]  # about the pointer
    # a fief in hand: the plain wheel is the fief's (not taken), Ctrl+wheel still zooms
    placing[0] = SimpleNamespace(mode="fief", anchor=(5, 5), dragging=False, cursor=None)
    assert cam.held() and not cam.handle(wheel) and len(r.calls) == 1
    cam.ctrl = True
    assert cam.handle(wheel) and r.calls[-1] == ("zoom", 1, (300, 300))
    cam.ctrl = False
    # + zooms about the ghost, not the pointer
    plus = pygame.event.Event(pygame.KEYDOWN, key=pygame.K_PLUS, mod=0, unicode="+", scancode=0)
    assert cam.handle(plus) and r.calls[-1] == ("zoom", 1, (105, 105))
    # a right click without a drag turns the fief; a right drag pans and turns nothing
    down = pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=3, pos=(400, 300))
    up = pygame.event.Event(pygame.MOUSEBUTTONUP, button=3, pos=(400, 300))
    assert cam.handle(down) and cam.pan_drag is not None and cam.handle(up) and turned == [1]
    cam.handle(down)
    cam.handle(pygame.event.Event(pygame.MOUSEMOTION, pos=(402, 301), rel=(2, 1), buttons=(0, 0, 1)))
    assert r.calls[-1][0] == "zoom"  # under 5 pixels: not a drag yet
    cam.handle(pygame.event.Event(pygame.MOUSEMOTION, pos=(440, 320), rel=(38, 19), buttons=(0, 0, 1)))
    cam.handle(pygame.event.Event(pygame.MOUSEBUTTONUP, button=3, pos=(440, 320)))
    assert r.calls[-1] == ("pan", 40, 20) and turned == [1] and cam.pan_drag is None
    # off the map the wheel is not the camera's
    mouse[0] = (1000, 300)
    placing[0] = None
    assert not cam.handle(wheel)


def test_the_tutorials_marks_light_the_hexes_the_step_names_and_nothing_else(window):
    r = FakeRenderer()
    step = [SimpleNamespace(kind="info", target=("hexes", "venezia"), arg=None, key="s1")]
    marks = TutorialMarks(lambda: step[0], lambda: dealt(2), lambda: 1, lambda: r, lambda: None)
    assert marks.target_hexes() == [(7, 18)]  # Venezia, as the tutorial's table of sites has it
    assert marks.drawn_guide() is None  # no placement asked: no single placement drawn
    marks.draw(window)
    assert r.calls == [("highlight", [(7, 18)], "best")]
    step[0] = SimpleNamespace(kind="card", target=("card", "A"), arg=None, key="s2")  # a card, not the map
    r.calls.clear()
    marks.draw(window)
    assert marks.target_hexes() == [] and r.calls == []
