"""Issue 10: zoom and pan, tooltips, the planning preview, the view remembered per game.

Driven through the real event loop (posted pygame events, the App stepped frame by frame)."""
from __future__ import annotations

import pygame

from gonzaga.table import persistence
from gonzaga.rules import Place, placement_problem, scoring
from gonzaga.table.session import SeatSpec
from gonzaga.ui.widgets import Tooltip

from test_scenes import app, click, drag, game_scene, key, pass_curtain, plan_by_clicks, post  # noqa: F401


def wheel(app, y, ctrl=False, frames=1):
    if ctrl:
        pygame.key.set_mods(pygame.KMOD_LCTRL)
    post(pygame.MOUSEWHEEL, x=0, y=y, flipped=False, precise_x=0.0, precise_y=float(y), touch=False)
    app.run_frames(frames)
    pygame.key.set_mods(0)


def move(app, pos, frames=1, buttons=(0, 0, 0)):
    post(pygame.MOUSEMOTION, pos=(int(pos[0]), int(pos[1])), rel=(0, 0), buttons=buttons)
    app.run_frames(frames)


def to_placement(app, seed=12, action="B"):
    app.start_session([SeatSpec("Ann", "human", colour="red"), SeatSpec("Bob", "human", colour="blue")], seed)
    app.run_frames(2)
    g = game_scene(app)
    for _ in range(2):
        pass_curtain(app)
        plan_by_clicks(app, g, action=action)
    if app.stack.top is not g:
        key(app, pygame.K_RETURN, frames=2)
    assert app.session.state.phase == "place" and g.place is not None
    return g


def solo_planning(app, seed=3):
    app.start_session([SeatSpec("Me", "human", colour="green"), SeatSpec("Bot", "ai", "greedy", "red")], seed)
    app.run_frames(3)
    g = game_scene(app)
    assert g.private_seat == 0
    return g


def test_ctrl_wheel_zooms_towards_the_cursor_then_a_fief_lands_where_dropped(app):
    g = to_placement(app)
    s = app.session
    r = g.renderer
    pc = g.place
    rot = next(k for k in range(6) if pc.legal[k])
    while pc.rotation != rot:
        key(app, pygame.K_r)
    target = sorted(pc.legal[rot])[len(pc.legal[rot]) // 2]
    x, y = r.hex_to_screen(target)
    move(app, (x, y))
    size0 = r.size
    wheel(app, 1, ctrl=True)
    wheel(app, 1, ctrl=True)
    assert r.zoom > 1.3 and r.size > size0 * 1.3
    assert pc.rotation == rot, "Ctrl+wheel zooms, it does not turn the fief"
    # the hex under the cursor stayed under it
    assert r.screen_to_hex(x, y) == target
    # drag from the tray to the target at this zoom and drop it there
    tx, ty = r.hex_to_screen(target)
    assert g.board_rect.collidepoint(tx, ty)
    drag(app, g.placing.tray_rect().center, (int(tx), int(ty)), frames=2)
    assert pc.anchor == target and pc.feedback().ok
    key(app, pygame.K_RETURN, frames=2)
    assert s.record.actions[-1] == Place(pc.seat, pc.fief, target, rot)


def test_plain_wheel_still_turns_a_held_fief_and_zooms_when_nothing_is_held(app):
    g = to_placement(app)
    r = g.renderer
    pc = g.place
    centre = g.board_rect.center
    move(app, centre)
    wheel(app, 1)  # nothing held: zoom
    assert r.zoom > 1.0 and pc.rotation == 0
    h = r.screen_to_hex(*centre)
    drag(app, g.placing.tray_rect().center, centre)
    assert pc.anchor == h
    z = r.zoom
    wheel(app, -1)  # held: turn
    assert pc.rotation == 1 and r.zoom == z


def test_pan_with_middle_and_right_drag_arrows_and_fit_key(app):
    g = to_placement(app)
    r = g.renderer
    pc = g.place
    c = g.board_rect.center
    move(app, c)
    for _ in range(4):
        wheel(app, 1)
    assert r.zoom >= 2.0
    h = r.screen_to_hex(*c)
    # middle drag: the map follows the hand
    post(pygame.MOUSEBUTTONDOWN, pos=c, button=2)
    app.run_frames(1)
    end = (c[0] + 120, c[1] + 60)
    move(app, (c[0] + 60, c[1] + 30), buttons=(0, 1, 0))
    move(app, end, buttons=(0, 1, 0))
    post(pygame.MOUSEBUTTONUP, pos=end, button=2)
    app.run_frames(1)
    assert r.screen_to_hex(*end) == h
    # a right drag pans too, and does not turn the fief; a right click (no drag) turns it
    rot = pc.rotation
    post(pygame.MOUSEBUTTONDOWN, pos=end, button=3)
    app.run_frames(1)
    move(app, c, buttons=(0, 0, 1))
    post(pygame.MOUSEBUTTONUP, pos=c, button=3)
    app.run_frames(1)
    assert r.screen_to_hex(*c) == h and pc.rotation == rot
    click(app, c, button=3)
    assert pc.rotation == (rot + 1) % 6
    # arrows pan while nothing is held
    before = r.hex_to_screen(h)
    key(app, pygame.K_LEFT)
    after = r.hex_to_screen(h)
    assert after[0] > before[0] and pc.anchor is None
    # F: the whole board again
    key(app, pygame.K_f)
    assert r.zoom == 1.0
    for hx in app.session.state.board.hexes:
        assert g.board_rect.collidepoint(r.hex_to_screen(hx))


def test_pan_is_clamped_and_the_board_cannot_be_lost(app):
    g = to_placement(app)
    r = g.renderer
    key(app, pygame.K_PLUS)
    key(app, pygame.K_PLUS)
    for _ in range(8):  # 20% of the view a press: well past the board's edge
        key(app, pygame.K_RIGHT)
    vis = r.visible_hexes()
    assert len(vis) > 20, "some of the board is always in view"
    for _ in range(8):
        key(app, pygame.K_UP)
        key(app, pygame.K_LEFT)
    assert len(r.visible_hexes()) > 20
    r.pan_by(-10 ** 6, -10 ** 6)
    assert len(r.visible_hexes()) > 20


def test_hover_tooltip_names_the_site_and_t_shows_it_at_once(app):
    g = to_placement(app)
    st = app.session.state
    r = g.renderer
    site = next(x for x in sorted(st.content.sites.values(), key=lambda x: x.hex) if x.kind == "city")
    x, y = r.hex_to_screen(site.hex)
    move(app, (x, y), frames=2)
    assert not g.tooltip.visible, "a tip waits a moment"
    app.run_frames(30)
    assert g.tooltip.visible and site.name in g.tooltip.lines[0]
    region = st.content.region_names[st.content.region_of[site.hex]]
    assert any(region in line for line in g.tooltip.lines)
    assert not g.tooltip.rect.collidepoint(int(x), int(y)), "the tip never covers the pointer"
    # the keyboard: T shows the tip of the hex under the keyboard ghost at once
    move(app, (2, 2))
    key(app, pygame.K_RETURN)  # the keyboard ghost appears
    key(app, pygame.K_t)
    assert g.tooltip.visible and g.tooltip.lines == g.tips.hex_tip(g.place.anchor)


def test_sea_and_seat_tooltips_show_public_things_only(app):
    g = to_placement(app)
    st = app.session.state
    r = g.renderer
    sea_hex = next(h for h in st.board.hexes if st.content.terrain[h] == "sea" and h not in st.content.sites)
    lines = g.tips.hex_tip(sea_hex)
    sea = st.content.sea_of[sea_hex]
    assert st.content.sea_names[sea] in lines[0] and any("Harbors" in x for x in lines)
    box, seat = g.panel.seat_rects[1]
    move(app, box.center)
    app.run_frames(30)
    text = " ".join(g.tooltip.lines)
    assert g.tooltip.visible and "points so far" in text
    assert st.seats[seat].objective not in text
    del r


def test_log_line_hover_lights_the_hexes_of_that_placement(app):
    g = to_placement(app)
    s = app.session
    pc = g.place
    k, a = next((k, a) for k in range(6) for a in sorted(pc.legal[k]))
    while pc.rotation != k:
        key(app, pygame.K_r)
    drag(app, g.placing.tray_rect().center, g.renderer.hex_to_screen(a))
    key(app, pygame.K_RETURN, frames=3)
    cells = set(s.state.content.fiefs[pc.fief].footprint(a, k)[0])
    idx = max(i for i, e in enumerate(s.log) if e.key == "log.place")
    rect = next(rc for rc, i in g.panel.log_rects if i == idx)
    move(app, rect.center)
    assert set(g.tips.lit) == cells


def brute_best(state, seat, region, action):
    """The best immediate points of the seat's fief under a plan, hex by hex and rotation
    by rotation with the rules' own check (no placement generator)."""
    fief = state.seats[seat].fief
    best = None
    for h in state.board.hexes:
        for k in range(6):
            if placement_problem(state, seat, fief, h, k, region, action) is None:
                cells, _ = state.content.fiefs[fief].footprint(h, k)
                pts = scoring.immediate_points(state, seat, state.board.mask_of(cells))
                best = pts if best is None else max(best, pts)
    return best


def test_planning_preview_shows_the_best_points_of_each_pair(app):
    g = solo_planning(app)
    st = app.session.state
    prev = g.plans.previews()
    regions = list(st.region_cards())
    assert set(prev) == {(r, a) for r in regions for a in "ABC"}
    for pair in [(regions[0], "B"), (regions[1], "A"), (regions[-1], "C")]:
        assert prev[pair].best == brute_best(st, 0, *pair), pair
    # hovering a region card and an action card previews that pair on the map and in the table
    from gonzaga.words import i18n
    region = next(r for r in regions if prev[(r, "B")].best is not None)
    rb = next(w for w in g.widgets.items if getattr(w, "card", None) == region)
    click(app, rb.rect.center)
    ab = next(w for w in g.widgets.items if getattr(w, "card", None) == "B")
    move(app, ab.rect.center, frames=2)
    assert g.plans.pair() == (region, "B")
    cell = next(rc for rc, r_, a_ in g.plans.cells if (r_, a_) == (region, "B"))
    move(app, cell.center, frames=30)
    assert g.tooltip.visible and i18n.t("place.points", points=prev[(region, "B")].best) in g.tooltip.lines[0]
    # the card's tip tells the best too
    move(app, ab.rect.center, frames=30)
    assert any(str(prev[(region, "B")].best) in line for line in g.tooltip.lines)
    # clicking a cell of the table chooses that plan
    other = next((r_, a_) for rc, r_, a_ in g.plans.cells
                 if r_ not in st.seats[0].unavailable and a_ not in st.seats[0].unavailable and (r_, a_) != (region, "B"))
    rc = next(rc for rc, r_, a_ in g.plans.cells if (r_, a_) == other)
    click(app, rc.center)
    assert (g.hand.region, g.hand.action) == other


def test_the_preview_table_folds_on_a_small_window_and_opens_on_a_click(make_app):
    """At 1280x720 the table of best points would hide much of the map: it shows its title only
    until the player clicks it open (and folds again on a second click); a large window opens it."""
    app = make_app((1280, 720))
    g = solo_planning(app)
    app.run_frames(2)
    head = g.plans.head
    assert head is not None and not g.plans.cells and g.plans.rect.h <= head.h + 4
    folded_h = g.plans.rect.h
    click(app, head.center)
    app.run_frames(1)
    assert len(g.plans.cells) == 3 * len(g.state.region_cards()) and g.plans.rect.h > 4 * folded_h
    click(app, g.plans.head.center)
    app.run_frames(1)
    assert not g.plans.cells
    big = make_app((1920, 1080))
    g2 = solo_planning(big)
    big.run_frames(2)
    assert g2.plans.cells  # room enough: open from the start


def test_the_view_is_remembered_across_save_and_load(app):
    g = to_placement(app)
    r = g.renderer
    move(app, g.board_rect.center)
    wheel(app, 1, ctrl=True)
    wheel(app, 1, ctrl=True)
    key(app, pygame.K_RIGHT)
    view = r.view_state()
    assert view["zoom"] > 1.0
    path = persistence.named_save_path("viewtest")
    persistence.save_game(app.session, path, "viewtest")
    app.run_frames(70)  # the view is written once it rests a second
    app.to_title()
    app.run_frames(1)
    assert app.open_save(path)
    app.run_frames(2)
    g2 = game_scene(app)
    assert g2 is not g
    v2 = g2.renderer.view_state()
    assert v2["zoom"] == view["zoom"]
    assert abs(v2["cx"] - view["cx"]) < 0.05 and abs(v2["cy"] - view["cy"]) < 0.05


def test_zoomed_layer_is_built_off_the_frame_and_labels_stay_put(app):
    g = to_placement(app)
    r = g.renderer
    move(app, g.board_rect.center)
    wheel(app, 1, ctrl=True)
    assert r.zoom > 1.0
    r.finish_builds()
    app.run_frames(1)
    assert r._shown is not None and r._shown.zoom == r.zoom, "the crisp layer of this zoom is shown"


def test_tooltip_stays_in_the_window_and_off_the_pointer():
    t = Tooltip()
    bounds = pygame.Rect(0, 0, 800, 600)
    for pos in [(10, 10), (790, 10), (10, 590), (790, 590), (400, 300)]:
        t.pos = pos
        r = t.place((220, 90), bounds)
        assert bounds.contains(r)
        assert not r.collidepoint(pos)


def test_no_tip_while_a_fief_is_dragged_nor_after_the_drop_and_none_over_the_ghost(app):
    """Issue 40: a tip never shows during a drag; after the drop it waits for the pointer to
    move on; and a site's tip under a held fief stands beside the fief, not on it."""
    g = to_placement(app)
    st = app.session.state
    r = g.renderer
    pc = g.place
    rot = next(k for k in range(6) if any(
        any(c in st.content.sites for c in st.content.fiefs[pc.fief].footprint(a, k)[0]) for a in pc.legal[k]))
    while pc.rotation != rot:
        key(app, pygame.K_r)
    anchor = next(a for a in sorted(pc.legal[rot])
                  if any(c in st.content.sites for c in st.content.fiefs[pc.fief].footprint(a, rot)[0]))
    site = next(c for c in st.content.fiefs[pc.fief].footprint(anchor, rot)[0] if c in st.content.sites)
    sx, sy = r.hex_to_screen(site)
    post(pygame.MOUSEBUTTONDOWN, pos=g.placing.tray_rect().center, button=1)
    move(app, (sx, sy), buttons=(1, 0, 0))
    app.run_frames(40)  # a long rest with the fief held over a city
    assert pc.dragging and not g.tooltip.visible, "no tip during a drag"
    post(pygame.MOUSEBUTTONUP, pos=(int(sx), int(sy)), button=1)
    app.run_frames(40)
    assert pc.anchor is not None and not pc.dragging
    assert not g.tooltip.visible, "no tip at the spot of the drop until the pointer moves"
    move(app, (sx + 1, sy))
    app.run_frames(40)
    assert g.tooltip.visible and g.tooltip.rect is not None
    assert not g.tooltip.rect.colliderect(g.tips.ghost_box()), "the tip leaves the held fief uncovered"
