"""The game screen's parts driven alone (issue 45, "screens built from parts"): each is made with
made-up inputs (a game dealt by the rules, a face of a few fields, a rectangle) and no screen
around it, and what it draws or measures is checked against what those inputs call for."""
from __future__ import annotations

import math
import random
from types import SimpleNamespace

import pygame
import pytest

from gonzaga.render import theme
from gonzaga.render.game_sizes import END_H, TOP_H, panel_width
from gonzaga.rules import ACTION_CARDS, GameConfig, Plan, apply, deal, new_game, public_view, view
from gonzaga.rules.state import evolve
from gonzaga.scenes.feedback import Asks, Feedback, Screen
from gonzaga.scenes.feedback_banners import Banners, UiWatch
from gonzaga.scenes.feedback_chart import EndChart
from gonzaga.scenes.feedback_motion import Motion, Sounds
from gonzaga.scenes.game.bar import BottomBar
from gonzaga.scenes.game.camera import Camera
from gonzaga.scenes.game.hand import Hand
from gonzaga.scenes.game.panel import SeatsPanel
from gonzaga.scenes.game.top import TopBar
from gonzaga.scenes.tutorial_marks import TutorialMarks
from gonzaga.table.history import RoundScores
from gonzaga.table.seats import SeatSpec
from gonzaga.ui import widgets as W
from gonzaga.ui.motion import Animator
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


# ---------------------------------------------------------------- the placing, previews, tips and the
# tutorial's parts (h45game): each with made-up inputs, no screen around it

class FakePlacement:
    """A placement under way, as the placing controls read it: a fief in hand, its move once anchored."""

    def __init__(self, can_wed=True):
        self.seat, self.fief, self.mode, self.can_wed = 1, 7, "fief", can_wed
        self.plan = Plan(1, "italia", "C")
        self.anchor, self.rings, self.dragging, self.cursor = None, [], False, None
        self.calls = []

    def action(self):
        return ("place", self.anchor) if self.anchor is not None else None

    def donation(self):
        return ("donate", self.seat)

    def feedback(self):
        return None

    def cancel(self):
        self.calls.append("cancel")
        self.anchor = None

    def toggle_mode(self):
        self.mode = "wedding" if self.mode == "fief" else "fief"

    def rotate(self, step):
        self.calls.append(("rotate", step))


def placing_part(pc, refusal=None):
    """The placing controls over ``pc`` in a 1000-wide bottom bar; what they send, say and ask, recorded."""
    from gonzaga.scenes.game.placing import Placing
    sent, said, changed, done = [], [], [], []

    def seat_view(seat):
        def submit(action):
            sent.append((seat, action))
            return refusal
        return SimpleNamespace(submit=submit)
    f = face(2)
    f.seat_view = seat_view
    part = Placing(lambda: dealt(2), f, lambda: pc, lambda: None, lambda: pygame.Rect(0, 0, 1000, 520),
                   lambda: pygame.Rect(0, 520, 1000, 200), said.append, lambda: changed.append(1),
                   lambda: done.append(1))
    return part, sent, said, changed, done


def test_the_placing_controls_offer_the_buttons_the_placement_allows_and_confirm_only_a_move(window):
    pc = FakePlacement()
    part, sent, said, _changed, done = placing_part(pc)
    widgets = Widgets()
    part.build(widgets)
    labels = [w.label for w in widgets.items]
    assert labels == [i18n.t("place.rotate"), i18n.t("place.wedding"), i18n.t("place.donate"), i18n.t("place.confirm")]
    assert not part.confirm_button.enabled  # no spot yet
    assert all(pygame.Rect(0, 520, 1000, 200).contains(w.rect) for w in widgets.items)
    assert all(w.rect.x >= part.tray_rect().right for w in widgets.items)  # right of the tray
    part.confirm_place()  # nothing in place: said so, nothing sent
    assert said == [i18n.t("place.drag")] and not sent and not done
    pc.anchor = (3, 4)
    part.refresh_confirm()
    assert part.confirm_button.enabled
    part.confirm_place()
    assert sent == [(1, ("place", (3, 4)))] and done == [1]
    narrow = Widgets()
    pc.can_wed = False
    part.build(narrow)
    assert [w.label for w in narrow.items] == [i18n.t("place.rotate"), i18n.t("place.donate"), i18n.t("place.confirm")]


def test_the_placing_controls_donate_only_after_the_confirm_and_say_a_refusal(window):
    pc = FakePlacement()
    from gonzaga.rules.refusals import REFUSALS, Illegal
    key = next(k for k in REFUSALS if "turn" in k)
    refusal = Illegal.of("P1", key)
    part, sent, said, changed, done = placing_part(pc, refusal)
    part.donate()
    assert part.donate_pending and "cancel" in pc.calls and changed == [1] and not sent
    widgets = Widgets()
    part.build(widgets)
    assert [w.label for w in widgets.items] == [i18n.t("common.cancel"), i18n.t("place.donate_confirm")]
    part.cancel_donate()
    assert not part.donate_pending and not sent
    part.donate()
    part.confirm_donate()
    assert sent == [(1, ("donate", 1))]
    assert said[-1] == i18n.rule_text(refusal) and not done  # refused: said, the placement stays


def test_the_placing_controls_gate_lets_a_script_refuse_a_move(window):
    pc = FakePlacement()
    part, sent, _said, changed, _done = placing_part(pc)
    asked = []

    def gate(kind, action):
        asked.append((kind, action))
        return kind == "send" and action == ("donate", 1)
    part.allow = gate
    part.toggle_wedding()
    assert pc.mode == "fief" and not changed  # refused: the mode stays
    pc.anchor = (2, 2)
    part.confirm_place()
    assert not sent and asked[-1] == ("confirm", None)
    part.send(("place", (2, 2)))
    assert not sent and asked[-1] == ("send", ("place", (2, 2)))
    part.send(pc.donation())
    assert sent == [(1, ("donate", 1))]


class MapRenderer(FakeRenderer):
    """What the table of best points asks of the board renderer: nothing on the map to keep clear."""

    def decoration_rects(self):
        return []

    def legend_rect(self):
        return None

    def view_state(self):
        return {"zoom": 1.0}

    def draw_label(self, surf, h, text):
        self.calls.append(("label", h, text))


def previews_part(st, hand, in_panel=None, mouse=(-1, -1)):
    from gonzaga.scenes.game.planning import PlanPreviews
    changed = []
    part = PlanPreviews(lambda: st, lambda: 0, lambda: True, hand, Widgets(), lambda: mouse, lambda: MapRenderer(),
                        lambda: pygame.Rect(0, 54, 960, 466), lambda: [], lambda: in_panel, lambda: changed.append(1))
    return part, changed


def test_the_previews_show_the_best_pair_of_the_card_chosen_and_a_click_on_the_table_chooses(window):
    from gonzaga.scenes.preview import PLAN_ACTIONS, plan_previews
    st = view(dealt(3, public=False), 0)
    hand = SimpleNamespace(region=None, action=None, choose=lambda r, a: chosen.append((r, a)))
    chosen = []
    part, changed = previews_part(st, hand, in_panel=pygame.Rect(880, 300, 400, 300))
    assert part.pair() is None  # no card chosen, none hovered
    region = next(r for r in st.region_cards() if r not in st.seats[0].unavailable)
    hand.region = region
    every = plan_previews(st, 0)
    best = max(PLAN_ACTIONS, key=lambda a: every[(region, a)].best if every[(region, a)].best is not None else -1)
    assert part.pair() == (region, best)  # the region chosen, its best action
    part.draw(window)  # the map's pass: the table goes in the panel
    assert part.rect is None
    part.draw(window, in_panel=True)
    assert len(part.cells) == 3 * len(st.region_cards()) and part.rect is not None
    assert all(part.rect.contains(c) for c, _r, _a in part.cells), (part.rect, part.cells[-1], part.table_size()[:2])
    free = next(c for c in part.cells if c[1] not in st.seats[0].unavailable and c[2] not in st.seats[0].unavailable)
    assert part.click(free[0].center) and chosen == [(free[1], free[2])] and changed == [1]
    part.allow = lambda pos: True  # a script takes the click first
    assert part.click(free[0].center) and chosen == [(free[1], free[2])]


def test_the_previews_table_folds_on_the_map_where_it_would_hide_too_much(window):
    st = view(dealt(4, public=False), 0)
    hand = SimpleNamespace(region=None, action=None)
    part, _changed = previews_part(st, hand)
    height = part.table_size()[1]
    assert part.is_folded(height) == (height > 0.3 * 466)
    assert part.is_folded(int(0.3 * 466) + 1) and not part.is_folded(int(0.3 * 466))
    part.folded = False  # opened by the player
    assert not part.is_folded(10_000)
    part.draw(window)
    assert part.head is not None and part.rect is not None and pygame.Rect(0, 54, 960, 466).contains(part.rect)
    assert part.click(part.head.center) and part.folded is True  # a click on its title folds it


def tips_part(st, widgets=None, seat=None, previews=None):
    from gonzaga.scenes.game.tips import Tips
    f = face(st.n)
    f.public_actions = lambda: []
    panel = SimpleNamespace(seat_rects=[(pygame.Rect(1000, 60, 260, 100), 1)], log_rects=[])
    top = SimpleNamespace(status_rect=None)
    previews = previews or SimpleNamespace(rect=None, cells=[], hand=None, previews=dict)
    return Tips(lambda: st, f, W.Tooltip(), lambda: (-1, -1), widgets or Widgets(), previews, panel, top,
                lambda: FakeRenderer(), lambda: pygame.Rect(0, 54, 960, 466), lambda: seat, lambda: None,
                lambda: False)


def test_the_tips_name_a_city_its_region_and_holders_and_a_seat_without_its_secret(window):
    st = dealt(2)
    tips = tips_part(st)
    h = next(h for h, s in st.content.sites.items() if s.kind == "city")
    site = st.content.sites[h]
    lines = tips.hex_tip(h)
    assert lines[0] == i18n.t("tip.city", name=site.name, symbol=i18n.t(f"symbol.{site.symbol}"))
    assert lines[-1] == i18n.t("tip.free")  # nobody holds it in a game just dealt
    assert tips.at((1010, 70)) == (("seat", 1, 1), tips._seat_tip(1))
    assert tips._seat_tip(1)[-1] == i18n.t("tip.seat_secret")
    sx, sy = FakeRenderer().hex_to_screen(h)
    assert tips.at((sx, sy)) == (("hex", h, 1), lines)
    tips.quiet = lambda pos: True  # a script's box stands there
    assert tips.at((sx, sy)) == (None, [])


def test_the_tips_tell_a_cards_best_points_only_while_a_hand_is_open(window):
    st = view(dealt(3, public=False), 0)
    widgets = Widgets()
    from gonzaga.ui.widgets import Button
    btn = widgets.add(Button("A", lambda: None, (100, 600, 80, 60)))
    btn.card = "A"
    hand = SimpleNamespace(region=None, action=None)
    from gonzaga.scenes.preview import plan_previews
    every = plan_previews(st, 0)
    pv = SimpleNamespace(rect=None, cells=[], hand=hand, previews=lambda: every)
    open_hand = tips_part(st, widgets, seat=0, previews=pv)
    target, lines = open_hand.at((120, 620))
    free = [r for r in st.region_cards() if r not in st.seats[0].unavailable]
    bests = [every[(r, "A")].best for r in free if every[(r, "A")].best is not None]
    assert target == ("card", "A") and lines[0] == i18n.t("card.A")
    assert lines[-1] == (i18n.t("tip.card_best", points=max(bests)) if bests else i18n.t("tip.card_none"))
    assert tips_part(st, widgets, seat=None, previews=pv).at((120, 620)) == (None, [])  # no hand open


def tutorial_step(kind, arg=None, target=None, key="tut.x"):
    return SimpleNamespace(kind=kind, arg=arg, target=target, key=key, until=None)


def test_the_tutorials_refusals_let_through_only_the_card_the_step_asks_for(window):
    from gonzaga.scenes.tutorial_refusals import TutorialRefusals
    from gonzaga.table import tutorial as T
    st = dealt(2)
    plan = T.your_move(st.round, "plan")
    assert plan is not None  # the script plans in round 1
    step = [tutorial_step("region", arg=plan.region)]
    hand = SimpleNamespace(region=None, action=None, king=False)
    gate = TutorialRefusals(lambda: step[0], lambda: st, hand, lambda: None, lambda: None)
    other = next(r for r in st.region_cards() if r != plan.region)
    assert gate.card("region", plan.region) and gate.msg == ""
    assert not gate.card("region", other)
    assert gate.msg == i18n.t("tut.wrong_region", got=i18n.card_name(st, other), want=i18n.card_name(st, plan.region))
    assert not gate.card("action", plan.action)  # the region first
    assert gate.msg == i18n.t("tut.region_first", got=i18n.card_name(st, plan.action),
                              want=i18n.card_name(st, plan.region))
    step[0] = tutorial_step("action", arg=plan.action)
    assert gate.card("action", plan.action) and not gate.card("confirm", "")
    assert not gate.move("donate", None) and gate.msg == i18n.t("tut.place_not_donate")
    step[0] = tutorial_step("donate")
    assert gate.move("donate", None)
    assert gate.click_table((5, 5)) is False  # no table drawn: the click goes on


def test_the_tutorials_box_points_at_the_card_the_step_names_and_stays_clear_of_it(window):
    from gonzaga.scenes.tutorial_box import Frame, TutorialBox, Words
    from gonzaga.ui.widgets import Button
    st = dealt(2)
    widgets = Widgets()
    card = widgets.add(Button("Italia", lambda: None, (700, 420, 140, 60)))  # a made-up card on the map's corner
    card.card = "italia"
    step = [tutorial_step("region", arg="italia", target=("card", "italia"))]
    frame = Frame(pygame.Rect(0, 54, 960, 466), pygame.Rect(0, 520, 960, 200), pygame.Rect(960, 54, 320, 666),
                  300, pygame.Rect(0, 0, 1280, 720))
    placing = SimpleNamespace(donate_pending=False, tray_rect=lambda: pygame.Rect(20, 560, 240, 150))
    plans = SimpleNamespace(rect=pygame.Rect(600, 64, 350, 200), pair=lambda: None, previews=dict)  # top right
    box = TutorialBox(lambda: step[0], lambda: Words("Step 1 / 3", "Choose the region card Italia.", "", False),
                      lambda: [], lambda: st, lambda: 1, lambda: "plan", lambda: None, widgets, lambda: None,
                      lambda: frame, lambda: [], plans, placing, SimpleNamespace(seat_rects=[]),
                      SimpleNamespace(status_rect=None), SimpleNamespace(), SimpleNamespace(), lambda: None)
    assert box.target_rect() == card.rect
    box.draw(window, 0.5)
    assert frame.board.contains(box.rect)
    assert not box.rect.colliderect(card.rect.inflate(16, 16)) and not box.rect.colliderect(plans.rect)
    step[0] = tutorial_step("place", target=("rect", "tray"))
    assert box.target_rect() == placing.tray_rect()


class FakeReplay:
    """A replay's face of 30 moves, rounds starting at moves 0, 10 and 20, not finished."""

    def __init__(self):
        self.step, self.first_step, self.n_steps = 0, 0, 30
        self.finished, self.show_all = False, False

    def seek(self, n):
        self.step = max(self.first_step, min(self.n_steps, n))

    def round_starts(self):
        return {1: 0, 2: 10, 3: 20}

    def shown(self):
        return SimpleNamespace(round=1 + self.step // 10)

    def step_lines(self):
        return [f"move {self.step}"]

    def log_lines(self):
        return []


def test_the_replay_bar_moves_by_its_buttons_keys_slider_and_clock(window):
    from gonzaga.scenes.replay_bar import STEP_S, ReplayBar
    rs = FakeReplay()
    widgets = Widgets()
    jumps, closed = [], []
    bar = ReplayBar(rs, "Tuesday game", widgets, lambda: pygame.Rect(0, 520, 960, 200),
                    lambda: pygame.Rect(0, 54, 960, 466), lambda: 1280, lambda: closed.append(1), lambda: None,
                    lambda: jumps.append(rs.step), lambda: True)
    bar.build()
    labels = [w.label for w in widgets.items]
    assert labels[:6] == [i18n.t("replay.close"), i18n.t("replay.start"), i18n.t("replay.back"), i18n.t("replay.play"),
                          i18n.t("replay.forward"), i18n.t("replay.end")]
    assert labels[10:13] == ["1", "2", "3"]  # the rounds, after the four speeds
    assert not widgets.items[1].enabled and not widgets.items[2].enabled and widgets.items[4].enabled
    bar.forward()
    assert rs.step == 1 and jumps == []  # one move on: it animates
    bar.to_round(3)
    assert rs.step == 20 and jumps == [20]
    bar.seek(25)
    bar.handle(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_PAGEUP, mod=0, unicode=""))
    assert rs.step == 20  # in the middle of round 3: first back to its start
    bar.handle(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_PAGEUP, mod=0, unicode=""))
    assert rs.step == 10  # at its start: the round before
    s = bar._slider
    bar.handle(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=(s.right - 1, s.centery), button=1))
    assert rs.step == 30 and not bar.playing
    bar.to_start()
    bar.set_speed(2.0)
    bar.toggle_play()
    bar.update(STEP_S / 2.0 - 0.01)
    assert rs.step == 0
    bar.update(0.02)
    assert rs.step == 1  # a move each STEP_S / speed
    bar.handle(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_ESCAPE, mod=0, unicode=""))
    assert closed == [1]
    assert bar.heading().startswith(i18n.t("replay.heading", name="Tuesday game"))
    assert i18n.t("replay.public_only") in bar.heading()  # not finished: public only


def test_the_tutorials_steps_are_done_by_what_the_game_and_the_screen_show(window):
    from gonzaga.scenes.tutorial_steps import TutorialSteps
    st = [evolve(dealt(2), round=2)]
    hand = SimpleNamespace(region=None, action=None, king=False)
    reveal = [False]
    f = face(2)
    f.ai_showing, f.public_actions = None, lambda: []
    steps = TutorialSteps(0, lambda: st[0], f, hand, lambda: None, lambda: reveal[0])
    assert steps.step is steps.sec.steps[0] and steps.step_i == 0
    info = tutorial_step("info")
    assert not steps.complete(info)  # Next not pressed
    steps.next_pressed = True
    assert steps.complete(info)
    assert not steps.complete(tutorial_step("region", arg="italia"))
    hand.region = "italia"
    assert steps.complete(tutorial_step("region", arg="italia"))
    assert not steps.complete(tutorial_step("confirm"))  # planning, no plan yet
    assert steps.complete(tutorial_step("wait", target=None)) and steps.until(("round", 2))
    assert not steps.until(("round", 3)) and not steps.until(("over",))
    reveal_step = tutorial_step("reveal", arg=2)
    reveal[0] = True
    assert not steps.complete(reveal_step) and steps.revealed  # on screen: read it first
    reveal[0] = False
    st[0] = evolve(st[0], phase="place")
    assert steps.complete(reveal_step)  # read and closed, the placing begun
    assert not steps.complete(tutorial_step("finish"))  # only its button


# ---------------------------------------------------------------- the tutorial's director and the map's
# move to its targets (h45tut): made-up inputs, no screen around them

class Refusals:
    """The refusals as the director reads them: the last one (its key), the moves taken for the script's
    and a wedding's gate, which takes only the harbors in ``rings``."""

    def __init__(self, rings=()):
        self.msg, self.asked, self.rings = "", {}, rings

    def refuse(self, key, **kw):
        self.msg = key

    def ring(self, h):
        if h not in self.rings:
            self.msg = "tut.wrong_ring"
        return h in self.rings


class TutorialStage:
    """A director on made-up inputs: a dealt game (its view: ``st[0]``), the script's place at ``section``
    (the real ``TutorialSteps``), a face whose player's own moves are ``mine``, a box, a map's move and ways
    out that note what is asked of them in ``calls``, a map of made-up hexes (``hexes``: point -> hex), a
    "Menu" button and a clock (``t[0]``)."""

    def __init__(self, tmp_path, monkeypatch, section=0, mine=()):
        monkeypatch.setenv("GONZAGA_HOME", str(tmp_path / "home"))  # the progress is saved there
        from gonzaga.scenes.tutorial_director import Exits, TutorialDirector
        from gonzaga.scenes.tutorial_steps import TutorialSteps
        from gonzaga.ui.widgets import Button
        self.calls, self.st, self.pc, self.mode, self.t = [], [dealt(2)], [None], ["watch"], [100.0]
        self.hexes = {(300, 300): (3, 3), (310, 300): (4, 3)}
        self.widgets = Widgets()
        self.menu = self.widgets.add(Button(i18n.t("game.menu"), lambda: None, (1150, 8, 116, 38)))
        self.face = f = face(2)
        f.ai_showing, f.public_actions = None, lambda: []
        f.seat_view = lambda seat: SimpleNamespace(actions=lambda: list(mine))
        f.close = lambda: self.calls.append("close")
        self.steps = TutorialSteps(section, lambda: self.st[0], f, SimpleNamespace(region=None, action=None, king=False),
                                   lambda: self.pc[0], lambda: False)
        self.refusals = Refusals(rings=[(4, 3)])
        note = self.calls.append
        self.zoom = SimpleNamespace(update=lambda dt: note("zoom.update"), show=lambda: note("zoom.show"))
        self.box = SimpleNamespace(rect=pygame.Rect(600, 100, 300, 150), new_step=lambda: note("box.new_step"),
                                   draw=lambda surf, pulse: note(("box.draw", pulse)))
        exits = Exits(lambda sid: note(("restart", sid)), lambda: note("title"), lambda text: note(("toast", text)),
                      lambda: note("pause"), lambda: note("new_game"))
        self.d = TutorialDirector(self.steps, self.refusals, self.zoom, f, lambda: self.st[0], lambda: self.pc[0],
                                  lambda: self.mode[0], self.widgets, self.hexes.get, lambda: self.box,
                                  lambda text: note(("say", text)), exits, lambda: self.t[0])

    def key(self, k, unicode=""):
        return self.d.handle(pygame.event.Event(pygame.KEYDOWN, key=k, mod=0, unicode=unicode, scancode=0))

    def click(self, pos, down=True):
        return self.d.handle(pygame.event.Event(pygame.MOUSEBUTTONDOWN if down else pygame.MOUSEBUTTONUP,
                                                pos=pos, button=1))


def test_the_tutorials_director_moves_on_once_the_step_is_done_and_not_before(window, tmp_path, monkeypatch):
    from gonzaga.table import tutorial as T
    s = TutorialStage(tmp_path, monkeypatch)
    d = s.d
    first = T.SECTIONS[0].steps[0]
    assert d.step is first and first.kind == "info" and first.until is None
    assert d.buttons() == [d.next_button, d.skip_button, d.leave_button] and d.next_button.enabled
    assert d.visible_text() == [d.text()] and d.text() == d.words().text and not d.words().waiting
    d.update(0.02)
    assert s.steps.step_i == 0 and s.calls == ["zoom.update"]  # Next not pressed: the step stays
    s.refusals.msg = "tut.read_first"
    assert d.visible_text() == [d.text(), "tut.read_first"]  # the step's words, then the refusal
    s.t[0] = 101.0
    assert s.key(pygame.K_RETURN) and s.steps.next_pressed  # Enter is Next on a step that talks
    d.update(0.02)
    assert s.steps.step_i == 1 and not s.steps.next_pressed and s.refusals.msg == ""
    assert s.calls[1:] == ["zoom.update", "box.new_step", "zoom.show"]  # the box starts again, the map moves
    assert d.text() == d.text(T.SECTIONS[0].steps[1]) != d.text(first)
    assert d.words().head == i18n.t("tut.step", section=i18n.t("tut.section.plan"), n=2, total=len(T.SECTIONS[0].steps))
    s.t[0] = 101.1  # the pulse of the box's frame and arrow: 0.1 s into the step
    d.draw_over(window)
    assert s.calls[-1][0] == "box.draw" and s.calls[-1][1] == pytest.approx(0.5 + 0.5 * math.sin(0.5))
    # a step that talks of the player's turn: Next waits for it, and Enter does nothing before
    s.steps.section, s.steps.step_i = T.section_index("place"), 0
    assert d.step.until == ("turn",) and d.words().waiting
    assert d.buttons()[0] is d.next_button and not d.next_button.enabled
    assert s.key(pygame.K_RETURN) and not s.steps.next_pressed


def test_the_tutorials_director_refuses_a_click_the_step_does_not_ask_for(window, tmp_path, monkeypatch):
    from gonzaga.table import tutorial as T
    s = TutorialStage(tmp_path, monkeypatch)
    d = s.d
    assert s.click((300, 300)) and s.refusals.msg == "tut.read_first"  # the map, while the box talks
    s.refusals.msg = ""
    assert s.click((300, 300), down=False) and s.refusals.msg == ""  # the release is the box's too, unsaid
    assert s.click((700, 150)) and s.refusals.msg == ""  # the box is not the map
    assert not s.click(s.menu.rect.center) and s.refusals.msg == ""  # the menu: any step lets it through
    assert s.key(pygame.K_LEFT) and s.key(pygame.K_r, "r")  # no moving or turning while it talks
    assert not s.key(pygame.K_ESCAPE)  # the screen's: its menu, which is the director's pause
    d.open_menu()
    assert s.calls[-1] == "pause"
    s.steps.section, s.steps.step_i = T.section_index("end"), len(T.SECTIONS[-1].steps) - 1
    assert d.step.kind == "finish" and d.buttons() == [d.finish_button]
    assert s.click((300, 300)) and s.refusals.msg == "tut.not_now"
    # a wedding's ring: only the harbor the step asks for
    s.steps.section, s.steps.step_i = T.section_index("wedding"), 6
    assert d.step.kind == "ring"
    s.mode[0], s.pc[0] = "place", SimpleNamespace(mode="wedding", cursor=(3, 3), anchor=None, rotation=0, rings=[])
    s.refusals.msg = ""
    assert s.click((300, 300)) and s.refusals.msg == "tut.wrong_ring"  # hex (3, 3): refused, not the screen's
    assert not s.click((310, 300))  # hex (4, 3): the placing controls take it
    assert s.key(pygame.K_SPACE, " ")  # Space rings the hex under the cursor, (3, 3): refused
    s.mode[0] = "watch"
    assert not s.click((300, 300))  # not placing: not a ring


def test_the_tutorials_director_goes_on_in_the_same_game_only_after_the_scripts_moves(window, tmp_path, monkeypatch):
    from gonzaga.rules import Setup
    from gonzaga.table import tutorial as T
    order = T.SECTIONS[1]
    yours = [a for a in T.script()[:order.start] if not isinstance(a, Setup) and a.seat == T.YOU]
    assert yours  # the player's plan of round 1
    for mine, goes_on in ((yours, True), ([], False)):
        s = TutorialStage(tmp_path, monkeypatch, mine=mine)
        s.steps.step_i = len(T.SECTIONS[0].steps) - 1
        s.st[0] = evolve(s.st[0], phase="place")  # the plan sent: the section's last step is done
        assert s.d.step.kind == "confirm"
        s.d.update(0.02)
        p = T.load_progress()
        assert p.done == ["plan"] and p.section == "order"
        if goes_on:  # the script's moves so far: the next section in this game
            assert (s.steps.section, s.steps.step_i) == (1, 0) and s.calls[-1] == "zoom.show"
            assert ("restart", "order") not in s.calls
        else:  # else the next section from its own position
            assert s.steps.section == 0 and s.calls[-1] == ("restart", "order")


def test_the_tutorials_director_skips_leaves_and_finishes_and_keeps_the_progress(window, tmp_path, monkeypatch):
    from gonzaga.table import tutorial as T
    s = TutorialStage(tmp_path, monkeypatch, section=T.section_index("place"))
    d = s.d
    assert T.load_progress().section == "place" and not d.curtain_needed()  # one player: never a curtain
    d.skip_section()
    p = T.load_progress()
    assert p.done == ["place"] and p.section == "wedding" and s.calls[-1] == ("restart", "wedding")
    d.leave_tutorial()
    assert T.load_progress().section == "place" and s.calls[-1] == "title"
    d.play_again()
    d.leave()
    assert s.calls[-2:] == ["new_game", "close"]
    s.steps.section = len(T.SECTIONS) - 1  # the last section skipped: the tutorial is finished
    d.skip_section()
    p = T.load_progress()
    assert p.finished and p.done == [x.id for x in T.SECTIONS] and p.section == T.SECTIONS[0].id
    assert s.calls[-2:] == ["title", ("toast", i18n.t("tut.finished"))]
    s.calls.clear()
    s.steps.step_i = len(T.SECTIONS[-1].steps) - 1
    assert d.step.kind == "finish" and s.key(pygame.K_RETURN)  # Enter is Finish on the last step
    assert s.calls == ["title", ("toast", i18n.t("tut.finished"))]


def test_the_tutorials_director_clears_a_placing_refusal_once_the_fief_is_put_where_it_is_taken(
        window, tmp_path, monkeypatch):
    from gonzaga.table import tutorial as T
    s = TutorialStage(tmp_path, monkeypatch, section=T.section_index("place"))
    s.steps.step_i = 3
    assert s.d.step.kind == "place"
    monkeypatch.setattr(T, "accepts", lambda st, step, act: act == "taken")  # the script's judge, made up
    act = ["refused"]
    pc = SimpleNamespace(mode="fief", anchor=(1, 1), rotation=0, rings=[], action=lambda: act[0])
    s.pc[0] = pc
    s.refusals.msg = "tut.wrong_spot"
    s.d.update(0.02)
    assert s.refusals.msg == "tut.wrong_spot"  # moved, but still not where the step takes it
    pc.anchor, act[0] = (2, 1), "taken"
    s.d.update(0.02)
    assert s.refusals.msg == "" and s.calls[-1] == ("say", "")  # the box's and the bar's line both go
    s.refusals.msg = "tut.wrong_turn"  # a refusal said after the move (Enter on it): the ghost has not moved
    s.d.update(0.02)
    assert s.refusals.msg == "tut.wrong_turn"
    pc.rotation = 1  # turned: judged again
    s.d.update(0.02)
    assert s.refusals.msg == ""


class ZoomRenderer:
    """What the map's move asks of the board renderer: a view (zoom and centre) it sets and reads."""

    def __init__(self):
        self.zoom, self.cx, self.cy, self.seen = 1.0, 0.0, 0.0, []

    def view_state(self):
        return {"zoom": self.zoom, "cx": self.cx, "cy": self.cy}

    def set_view_state(self, v):
        self.zoom, self.cx, self.cy = v["zoom"], v["cx"], v["cy"]

    def hex_to_screen(self, h):
        return (10.0 * h[0], 10.0 * h[1])

    def set_zoom(self, z, about):
        self.zoom = z

    def ensure_visible(self, h, margin):
        self.seen.append(h)
        self.cx, self.cy = float(h[0]), float(h[1])


def test_the_tutorials_zoom_moves_the_map_to_the_steps_hexes_smoothly_or_at_once(window):
    from gonzaga.scenes.tutorial_zoom import TutorialZoom
    r = ZoomRenderer()
    hexes = [[(4, 6)]]
    scale = [1.0]
    zoom = TutorialZoom(lambda: hexes[0], lambda: r, lambda: scale[0])
    zoom.update(0.0)  # the first frame shows the first step's target: the move begins where the map was
    assert zoom.shown and r.seen == [(4, 6)] and r.view_state() == {"zoom": 1.0, "cx": 0.0, "cy": 0.0}
    zoom.update(0.3)  # half way in time, eased: half way on the map
    assert r.zoom == pytest.approx(1.5) and (r.cx, r.cy) == (pytest.approx(2.0), pytest.approx(3.0))
    zoom.update(0.3)
    assert r.view_state() == {"zoom": 2.0, "cx": 4.0, "cy": 6.0} and zoom.tween is None
    hexes[0] = []
    zoom.show()  # a step that points at no hex: the map stays
    assert r.view_state() == {"zoom": 2.0, "cx": 4.0, "cy": 6.0}
    hexes[0], scale[0] = [(8, 2)], 0.0  # instant speed or reduced motion: there at once, zoom kept
    zoom.show()
    assert r.view_state() == {"zoom": 2.0, "cx": 8.0, "cy": 2.0} and zoom.tween is None


# ---------------------------------------------------------------- the feedback's parts (issue 45, h45fx):
# the motions, the banners and the "Your turn" flash, the screen's moments, the end chart, composed


class SeenFace:
    """A game's face as the feedback reads it: the public view now, its version, names, humans."""

    def __init__(self, st, humans=(0,)):
        self.state, self.version, self.humans = st, 1, list(humans)
        self.token, self.position = "game-1", 0

    def public(self):
        return self.state

    def seat_name(self, i: int) -> str:
        return NAMES[i]

    def move(self, st) -> None:
        self.state, self.version = st, self.version + 1


def scored(st, seat: int, points: int, sea: str | None = None):
    """``st`` with ``points`` more for ``seat`` (and its league of ``sea``)."""
    seats = list(st.seats)
    s = seats[seat]
    seats[seat] = evolve(s, site_points=s.site_points + points, leagues=s.leagues | ({sea} if sea else set()))
    return evolve(st, seats=tuple(seats))


def test_the_motion_counts_a_score_up_names_a_league_and_the_last_turn_and_counts_the_end_once(window):
    st = dealt(3)
    f = SeenFace(st)
    heard, ended = [], []
    anim = Animator(lambda: 1.0)
    m = Motion(f, anim, Sounds(lambda: 1.0, heard.append), lambda: None, lambda: (1280, 720), lambda: [],
               lambda: ended.append(1))
    sea = sorted(st.content.sea_names)[0]
    before = st.seats[1].score
    f.move(evolve(scored(st, 1, 7, sea), last_round=st.round + 1))
    m.see()
    assert [e.kind for e in m.events] == ["league", "last_turn", "score"]
    texts = [tw.data["text"] for tw in anim.tweens if tw.kind == "banner"]
    assert texts == [i18n.t("fx.league", name=NAMES[1], sea=st.content.sea_names[sea]),
                     i18n.t("fx.last_turn", round=st.round + 1)]
    assert m.score(1, before + 7) == before  # it counts up from the old score (after 0.3 s)
    m.sounds.update(0.55)
    assert heard == ["league"]  # heard after its delay, the Last Turn's later
    m.sounds.update(0.1)
    assert heard == ["league", "last_turn"]
    anim.update(0.3 + 0.45)
    assert before < m.score(1, before + 7) < before + 7
    anim.update(1.0)
    assert m.score(1, before + 7) == before + 7
    rows = ["a", "b", "c"]
    f.move(evolve(f.state, phase="over", winners=(0,)))
    m.see()
    m.fill_end()
    m.see()
    m.fill_end()
    assert ended == [1]
    assert m.end_rows(rows) == []  # the end table fills from its first row, after 0.2 s
    anim.update(0.2 + 0.35 * 1.5)  # one row every 0.35 s: half of it
    assert m.end_rows(rows) == ["a", "b"]
    anim.update(1.0)
    assert m.end_rows(rows) == rows
    m.sounds.update(0.3)
    assert heard[-1] == "win"  # the human seat 0 won


def test_the_banners_stack_under_the_map_top_and_the_flash_stands_above_the_bar_beside_a_strip(window):
    st = dealt(3)
    board, bottom = pygame.Rect(0, 54, 967, 466), pygame.Rect(0, 520, 967, 200)
    strip: list[pygame.Rect] = []
    anim = Animator(lambda: 1.0)
    b = Banners(SeenFace(st), lambda: st, anim, lambda: board, lambda: bottom, lambda: strip)
    box = b.your_turn_box(0)
    assert box is not None and box.midbottom == (bottom.centerx, bottom.y - 8)
    strip.append(pygame.Rect(bottom.centerx - 100, bottom.y - 60, 150, 60))  # a chat strip where it would stand
    beside = b.your_turn_box(0)
    assert beside is not None and beside.x == strip[0].right + 8 and beside.bottom == box.bottom
    assert Banners(SeenFace(st), lambda: st, anim, lambda: board, lambda: None, lambda: []).your_turn_box(0) is None
    strip.clear()
    anim.add("banner", 2.0, 0.0, ease=lambda p: p, text="League", colour="red")
    anim.add("banner", 2.0, 0.0, ease=lambda p: p, text="League", colour=None)
    anim.add("your_turn", 1.8, 0.0, ease=lambda p: p, seat=0)
    first, second, flash = b.banner_rects()
    assert first.top == board.y + 53 and first.centerx == board.centerx  # where it settles once slid in
    assert second.top == first.bottom + 8 and flash == box
    flashes, banners = b.steady_rects((0,))
    assert flashes == [box] and len(banners) == 2 and banners[1].top == banners[0].bottom + 8
    assert b.steady_rects((0,))[1][0].top == board.y + 53
    over = evolve(st, phase="over")
    assert Banners(SeenFace(over), lambda: over, anim, lambda: board, lambda: bottom, lambda: []).steady_rects((0,))[1] == []
    anim.update(0.01)
    window.fill((0, 0, 0))
    b.draw(window)
    assert tuple(window.get_at((bottom.x + 3, bottom.centery)))[:3] == tuple(theme.GOLD)  # the bar flashes gold


def test_the_ui_watch_hears_a_card_chosen_a_turn_opening_and_the_curtain_once_each(window):
    choice, turn, curtain, heard = [(None, None, False)], [(None, None)], [None], []
    anim = Animator(lambda: 1.0)
    w = UiWatch(lambda: choice[0], lambda: turn[0], lambda: curtain[0], heard.append, anim)
    w.update()
    assert heard == []
    choice[0] = ("Italia", None, False)
    w.update()
    w.update()
    assert heard == ["card"]
    turn[0] = (1, None)  # seat 1's hand opens
    w.update()
    w.update()
    assert heard == ["card", "your_turn"] and [tw.data["seat"] for tw in anim.tweens] == [1]
    turn[0] = (None, (2, ("fief", 1)))  # seat 2 places
    w.update()
    assert heard[-1] == "your_turn" and [tw.data["seat"] for tw in anim.tweens] == [2]  # one flash at a time
    curtain[0] = 5
    w.update()
    w.update()
    assert heard.count("curtain") == 1
    curtain[0] = None
    w.update()
    curtain[0] = 6
    w.update()
    assert heard.count("curtain") == 2 and heard.count("card") == 1


def test_the_end_chart_stands_in_the_panel_when_it_has_room_else_on_the_maps_corner(window):
    st = evolve(dealt(4), phase="over")
    f = SeenFace(st)
    room: list = []  # the panel leaves the room the chart asks (the chart is made below)
    panel = make_panel(st, face(4), chart_room=lambda: room[0]())
    prect = panel_rect()
    panel.place(prect)
    board = pygame.Rect(0, TOP_H, prect.x, 720 - TOP_H - END_H)
    asked = []

    def scores(s):
        asked.append(s)
        return RoundScores([1, 2], [[0, 5], [2, 4], [1, 1], [0, 9]], [10, 6, 3, 12])

    chart = EndChart(f, lambda: st, lambda: board, lambda: prect, lambda: panel, lambda: (-1, -1), scores)
    room.append(chart.panel_room)
    r = chart.rect()
    assert chart.in_panel() and prect.contains(r) and not r.colliderect(board)
    assert r.h >= chart.panel_room() - W.sc(68)  # the room it asks is the room it takes
    y = panel.seats_bottom(panel.seat_boxes(prect.y + W.sc(10), set()))
    assert r.y == y + W.sc(58)  # under the seats' boxes, Watch and Review between
    window.fill((0, 0, 0))
    chart.draw(window, on_map=False)
    assert asked == [f] and chart.image is not None
    assert tuple(window.get_at((r.right - 4, r.centery)))[:3] != (0, 0, 0)
    panel.foot = lambda: 400  # a tall foot (an online game's chat strip): no room left under the seats
    cornered = EndChart(f, lambda: st, lambda: board, lambda: prect, lambda: panel, lambda: (-1, -1), scores)
    c = cornered.rect()
    assert not cornered.in_panel() and board.contains(c)
    assert c.bottomright == (board.right - W.sc(12), board.bottom - W.sc(12))
    waiting = EndChart(f, lambda: st, lambda: board, lambda: None, lambda: None, lambda: (-1, -1), lambda s: None)
    waiting.draw(window, on_map=True)
    assert waiting.image is None  # the scores are still being worked out: nothing yet


def test_the_feedback_counts_a_game_seen_to_its_end_once_and_draws_under_its_banners_first(window):
    st = dealt(2)
    f = SeenFace(st)
    counted, toasts, under = [], [], []
    board = pygame.Rect(0, 54, 900, 466)
    screen = Screen(lambda: f.state, lambda: None, lambda: board, lambda: None, lambda: None, lambda: None,
                    lambda: (-1, -1), lambda: (None, None, False), lambda: (None, None), lambda: ())
    asks = Asks(lambda: "instant", lambda: False, lambda: (1280, 720), lambda name: None,
                lambda: counted.append(1) or "Counted", lambda m, s: toasts.append(m), lambda: None)
    fb = Feedback(f, screen, asks, round_scores=lambda s: None, under_banners=under.append)
    fb.draw(window)
    assert under == [window]  # even with nothing moving
    f.move(evolve(st, phase="over", winners=(1,)))
    fb.update(1 / 60)
    fb.update(1 / 60)
    assert counted == [1] and toasts == ["Counted"]
    quiet = Feedback(SeenFace(st), screen, asks, record_stats=False)
    quiet.face.move(evolve(st, phase="over", winners=(1,)))
    quiet.update(1 / 60)
    assert counted == [1] and "end" in [e.kind for e in quiet.events]
