"""Put a headless App on each screen of the game, one after the other (the layout walk test
and tools/screens.py use it). Each ``show_*`` leaves the app with that screen on top, one frame
drawn; ``SCREENS`` lists them in the walk's order."""
from __future__ import annotations

import os
import shutil
from collections import OrderedDict
from pathlib import Path

import pytest

from gonzaga.table import persistence
from gonzaga.rules import Plan, legal_actions
from gonzaga.words import i18n
from gonzaga.ui import widgets as W

SAVES = Path(__file__).resolve().parent.parent / "saves"

# The seat count of the game screens: None walks the example saves in saves/ (four seats, or
# three while placing); 2, 3 or 4 walks games of that many seats made by ``_made_save`` (one
# human, the others AI, with long names: the seats panel at its fullest).
SEATS = None
NAMES = ("Guglielmo", "Federico Secondo", "Ludovico Terzo", "Francesco Quarto")


def remembered_builds(build):
    """``build`` (the board's static layer, ``board_static.build_layer``) kept for its inputs:
    the walk opens the same saves again and again at each size and language, and each opened
    game would build the same board anew (two thirds of the walk's time). A build is a function
    of its arguments, the language (the board's names) and the text scale; the layers are only
    read once built, so one can serve every renderer."""
    from gonzaga.render import theme
    kept: "OrderedDict[tuple, tuple]" = OrderedDict()

    def remembered(board, frame, zoom, window, *, title, decorations, texts):
        key = (id(board.content), frame.size, frame.ox, frame.oy, frame.w, frame.h, tuple(frame.world), frame.fit_size,
               tuple(tuple(r) for r in frame.keep_clear), zoom, tuple(window), title, decorations,
               tuple(sorted(texts.items())), i18n.language(), theme.text_scale(), id(theme.MAP))
        found = kept.get(key)
        if found is None or found[0] is not board.content:  # the board is its content's map
            found = kept[key] = (board.content, build(board, frame, zoom, window, title=title, decorations=decorations,
                                              texts=texts))
        kept.move_to_end(key)
        while len(kept) > KEPT_BUILDS:  # the oldest first: a process may walk many parts of the matrix
            kept.popitem(last=False)
        return found[1]
    return remembered


KEPT_BUILDS = 24  # the board layers remembered (a window-sized layer at 3840x2160 is 33 MB)


def app_fixture(name: str, size=(1280, 720)):
    """A module's ``app`` fixture: an App at ``size`` in its own GONZAGA_HOME, with the language,
    the interface scale and the environment put back afterwards; the board's builds remembered
    (``remembered_builds``) while the module runs."""
    @pytest.fixture(scope="module")
    def app(tmp_path_factory):
        from gonzaga.app import App  # after GONZAGA_HOME is set (persistence reads it)
        from gonzaga.render import board_view
        old = os.environ.get("GONZAGA_HOME")
        os.environ["GONZAGA_HOME"] = str(tmp_path_factory.mktemp(name) / "home")
        build = board_view.build_layer
        board_view.build_layer = remembered_builds(build)
        a = App(persistence.Settings(speed="instant", reduce_motion=True), size=size, autosave=False)
        a.run_frames(3)
        yield a
        board_view.build_layer = build
        a.close()
        i18n.set_language("en")
        W.set_ui_scale(1.0)
        if old is None:
            os.environ.pop("GONZAGA_HOME", None)
        else:
            os.environ["GONZAGA_HOME"] = old
    return app


def resize(app, size) -> None:
    """The window at ``size`` (as after the player resized it)."""
    app.windowed_size = tuple(size)
    app._set_mode(False)
    app._relayout()


def set_language(app, lang: str) -> None:
    app.settings.language = lang
    i18n.set_language(lang)
    app._relayout()


def to_title(app) -> None:
    app.to_title()
    app.run_frames(1)


def _copy(name: str) -> Path:
    dst = persistence.saves_dir() / name
    if not dst.exists():
        shutil.copyfile(SAVES / name, dst)
    return dst


def _load(app, name: str) -> None:
    assert app.open_save(_copy(name)), app.load_failed
    app.run_frames(2)


_KIND = {"v1-four-round8.json": "plan", "v1-solo-round5-placing.json": "place",
         "v1-hotseat-round3-planning.json": "hotseat"}


def _made_save(n: int, kind: str) -> Path:
    """A save of ``n`` seats, played with fixed moves: "plan" (round 8, seat 0 to plan), "place"
    (round 5 on, seat 0 to place with a legal spot and a ring), "hotseat" (two humans, round 3
    planning), "over" (the game's end). Made once per saves folder."""
    from gonzaga.rules import legal_placements
    from gonzaga.table.session import SeatSpec, Session
    path = persistence.saves_dir() / f"walk-{n}-{kind}.json"
    if path.exists():
        return path
    colours = ("red", "yellow", "green", "blue")
    humans = [SeatSpec(NAMES[i], "human", colour=colours[i]) for i in range(n)]
    for seed in range(11 + n, 60 + n):
        s = Session.new(humans, seed)
        for _ in range(2000):
            st = s.state
            if kind == "plan" and st.round >= 8 and st.phase == "plan" or \
                    kind == "hotseat" and st.round >= 3 and st.phase == "plan" or \
                    kind == "place" and st.round >= 5 and st.phase == "place" and st.to_act()[0] == 0 and \
                    legal_placements(st, 0) and any(type(x).__name__ == "Wedding" for x in legal_actions(st, 0)) or \
                    kind == "over" and st.phase == "over":
                break
            if st.phase == "over":
                break
            seat = st.to_act()[0]
            acts = legal_actions(st, seat)
            s._apply(acts[(len(acts) * 2) // 3] if st.phase == "place" else acts[(st.round + seat) % len(acts)])
        if (st.phase == "over") == (kind == "over"):
            break
    else:
        raise AssertionError(f"no {kind} position with {n} seats")
    people = 2 if kind == "hotseat" else 1
    s.seats[people:] = [SeatSpec(x.name, "ai", "greedy", x.colour) for x in humans[people:]]
    persistence.save_game(s, path)
    return path


def _open(app, name: str) -> None:
    """Open the example save ``name``, or with ``SEATS`` set, a made save of that kind."""
    if SEATS is None:
        _load(app, name)
        return
    assert app.open_save(_made_save(SEATS, _KIND[name])), app.load_failed
    app.run_frames(2)


def _game(app):
    from gonzaga.scenes.game import GameScene
    try:
        return app.stack.find(GameScene)
    except LookupError:
        return None


def _pass_curtains(app, n: int = 3) -> None:
    from gonzaga.scenes.overlays import CurtainScene
    for _ in range(n):
        if isinstance(app.stack.top, CurtainScene):
            app.stack.top.lift()
            app.run_frames(1)


# ---------------------------------------------------------------- the screens

def show_title(app) -> None:
    to_title(app)
    app.stack.top.games = []
    app.stack.top._checked = True
    app._relayout()
    app.run_frames(1)


def show_title_continue(app) -> None:
    """The title with every extra entry: Continue (an autosave) and Continue tutorial."""
    from gonzaga.table import tutorial
    to_title(app)
    auto = persistence.new_autosave_path()
    shutil.copyfile(SAVES / "v1-four-round8.json", auto)
    p = tutorial.load_progress()
    tutorial.save_progress(tutorial.Progress(tutorial.SECTIONS[2].id, [], False, True))
    try:
        title = app.stack.top
        title._checked = False
        app.run_frames(2)
        assert title.games
        app._relayout()
        app.run_frames(1)
    finally:
        auto.unlink()
        tutorial.save_progress(p)


def show_new_game(app) -> None:
    from gonzaga.scenes.new_game import NewGameScene
    to_title(app)
    sc = app.stack.push(NewGameScene(app))
    sc.set_count(4)
    sc.set_scenario(app.content.scenarios_for(4)[0].name)  # the flourishing line is the longest
    app.run_frames(1)


def show_settings(app) -> None:
    from gonzaga.scenes.settings import SettingsScene
    to_title(app)
    app.stack.push(SettingsScene(app))
    app.run_frames(1)


def show_settings_keys(app) -> None:  # issue 49: the screen reader, high contrast, own keys
    show_settings(app)
    app.stack.push("settings_keys")
    app.run_frames(1)


def show_load(app) -> None:
    from gonzaga.scenes.load_game import LoadScene
    to_title(app)
    for name in ("v1-solo-round5-placing.json", "v1-hotseat-round3-planning.json", "v1-four-round8.json"):
        _copy(name)
    bad = persistence.saves_dir() / "broken.json"
    bad.write_text('{"format": "gonzaga-save", "sav')
    app.stack.push(LoadScene(app))
    app.run_frames(1)


def show_rules(app) -> None:
    from gonzaga.scenes.rules_view import RulesScene
    to_title(app)
    app.stack.push(RulesScene(app))
    app.run_frames(1)


def show_planning(app) -> None:
    """Four seats in round 8, the one human planning (no curtain: solo)."""
    _open(app, "v1-four-round8.json")
    _pass_curtains(app)
    g = _game(app)
    st = g.state
    s = st.seats[g.private_seat]
    g.hand.pick_region(next(r for r in st.region_cards() if r not in s.unavailable))
    g.hand.pick_action(next(a for a in "CBA" if a not in s.unavailable))
    app.run_frames(1)
    assert g.screen_mode() == "plan", g.screen_mode()


def show_planning_table(app) -> None:
    """Planning with the best-points table opened by the player (a small window folds it at
    first): open, it still covers no control, corner piece or seat."""
    show_planning(app)
    g = _game(app)
    g.plans.folded = False
    app.run_frames(1)
    assert g.plans.rect is not None and not g.plans._folded_now


def _plan_everyone(app, king: bool = True) -> None:
    """Every seat plans (the AI seats' plans given directly): two with the King's Privilege and
    the same action, so that the reveal's reasons are as long as they get."""
    s = app.session
    st = s.state
    kings = 0
    for seat in range(st.n):
        if st.seats[seat].plan is not None:
            continue
        plans = [a for a in legal_actions(s.state, seat) if isinstance(a, Plan)]
        want_king = king and kings < 2
        pick = next((p for p in plans if p.king == want_king and p.action == "C"), None) or \
            next((p for p in plans if p.king == want_king), plans[0])
        kings += pick.king
        s._apply(pick)


def show_reveal(app) -> None:
    from gonzaga.scenes.overlays import RevealScene
    _open(app, "v1-four-round8.json")
    _pass_curtains(app)
    _plan_everyone(app)
    app.run_frames(2)
    assert isinstance(app.stack.top, RevealScene), app.stack.top


def _placing(app):
    _open(app, "v1-solo-round5-placing.json")
    _pass_curtains(app)
    g = _game(app)
    assert g.screen_mode() == "place", g.screen_mode()
    return g


def show_placement(app) -> None:
    """The human places: the ghost on a spot the rules refuse (the reason is shown)."""
    from gonzaga.rules import placement_problem
    g = _placing(app)
    pc = g.place
    st = g.state
    best = None
    for h in st.board.hexes:  # the longest refusal
        why = placement_problem(st, pc.seat, pc.fief, h, pc.rotation, pc.plan.region, pc.plan.action)
        if why is not None and (best is None or len(i18n.rule_text(why)) > len(i18n.rule_text(best[1]))):
            best = (h, why)
    pc.set_anchor(best[0])
    g.message = pc.feedback().text
    app.run_frames(1)


def show_wedding(app) -> None:
    g = _placing(app)
    g.placing.toggle_wedding()
    pc = g.place
    first = sorted(pc.ring_candidates())[0]
    pc.click_ring(first)
    app.run_frames(1)
    assert pc.mode == "wedding"


def show_donation(app) -> None:
    """Donate pressed: the "Donate?" step with its confirm and cancel."""
    g = _placing(app)
    g.placing.donate()
    app.run_frames(1)
    assert g.placing.donate_pending


def show_objective_curtain(app) -> None:
    """The curtain before "My objective" (a solo game with the solo curtain on): it has Cancel."""
    from gonzaga.scenes.overlays import CurtainScene
    app.settings.curtain_solo = True
    try:
        g = _placing(app)
        g.show_objective()
        app.run_frames(1)
    finally:
        app.settings.curtain_solo = False
    assert isinstance(app.stack.top, CurtainScene) and app.stack.top.purpose == "objective"


def show_curtain(app) -> None:
    from gonzaga.scenes.overlays import CurtainScene
    _open(app, "v1-hotseat-round3-planning.json")
    assert isinstance(app.stack.top, CurtainScene), app.stack.top


def show_menu(app) -> None:
    _open(app, "v1-four-round8.json")
    _pass_curtains(app)
    _game(app).open_menu()
    app.run_frames(1)


def show_end(app) -> None:
    """Four seats at the end of the game (round 8 played on to the end)."""
    _open(app, "v1-four-round8.json")
    _pass_curtains(app)
    s = app.session
    for _ in range(400):
        st = s.state
        if st.phase == "over":
            break
        seat = st.to_act()[0]
        acts = legal_actions(st, seat)
        s._apply(acts[len(acts) // 2] if st.phase == "place" else acts[0])
    from gonzaga.scenes.overlays import RevealScene
    for _ in range(5):
        app.run_frames(1)
        if isinstance(app.stack.top, RevealScene):
            app.stack.top.close()
    app.run_frames(3)
    g = _game(app)
    assert g.screen_mode() == "over"
    job = g.feedback.__dict__.get("_scores_job")  # the score chart is worked out off the frame loop
    if job is not None:
        job[2].join(30)
    app.run_frames(2)


def show_review(app) -> None:
    """The post-game review of seat 0 of a finished game (a small budget, worked out once and
    then kept, as the game keeps it), its costliest decision chosen."""
    from gonzaga.scenes.review import ReviewScene
    to_title(app)
    ls = persistence.read_save(SAVES / "v1-finished.json", app.content)
    scene = ReviewScene(app, ls.record, ls.seats, ls.state.content, seat=0, budget=8, use_processes=False)
    assert scene.job is not None and scene.job.wait(300)
    scene.sel = scene._first_choice()
    app.stack.push(scene)
    app.run_frames(2)


SCREENS = {
    "title": show_title, "title_continue": show_title_continue, "new_game": show_new_game, "settings": show_settings, "load": show_load,
    "rules": show_rules, "planning": show_planning, "planning_table": show_planning_table, "reveal": show_reveal, "placement": show_placement,
    "wedding": show_wedding, "curtain": show_curtain, "menu": show_menu, "end": show_end,
    "donation": show_donation, "objective_curtain": show_objective_curtain, "review": show_review,
    "settings_keys": show_settings_keys,
}


MIN_TEXT_PX = 12  # the smallest text at interface size 100% (window pixels; scaled with the setting)


def check_frame(app, min_px: float = 0) -> list[str]:
    """Draw one frame with the label check on; what it found wrong: labels shortened, cut or
    overlapping, labels under ``min_px`` pixels, and on the game screen a log of fewer than
    LOG_LINES whole lines, a button, the score chart or the best-points table over a seat's
    box or over a control, or an end chart whose legend leaves a seat out."""
    W.CHECK.enabled = True
    W.CHECK.reset()
    for scene in app.stack.scenes:  # parts drawn once and kept (the seats panel): drawn again
        if getattr(scene, "panel", None) is not None:
            scene.panel.cache = None
    try:
        app.draw()
        out = W.CHECK.problems(app.size)
        if min_px:
            out += W.CHECK.small_texts(min_px)
        g = _game(app)
        if g is not None and app.stack.top is g:
            out += _game_problems(g)
        return out
    finally:
        W.CHECK.enabled = False
        W.CHECK.reset()


def _game_problems(g) -> list[str]:
    from gonzaga.scenes.game.panel import LOG_LINES
    out = []
    over = g.screen_mode() == "over"
    if not (over and g.feedback.chart_in_panel()) and g.panel.log_whole_lines < LOG_LINES:
        out.append(f"game: the log shows {g.panel.log_whole_lines} whole lines (< {LOG_LINES})")
    covers = [("button " + getattr(w, "label", "?"), w.rect) for w in g.widgets.items if w.visible]
    covers += [("button " + b.label, b.rect) for b in g.assist._buttons()]
    if over:
        chart = g.feedback.chart_rect()
        covers.append(("the score chart", chart))
        # its legend names every seat (issue 40: at 1280x720 the fourth seat was left out)
        shown = [lab[2] for lab in W.CHECK.labels if chart.colliderect(lab[1])]
        for i in range(g.state.n):
            name = g.face._GameFace__s.seat_name(i)
            if not any(x == name or x.endswith("…") and name.startswith(x[:-1]) for x in shown):
                out.append(f"game: the score chart {tuple(chart)} does not name seat {i} ({name!r})")
    if g.plans.rect is not None:
        table = g.plans.rect
        pieces = [("the map's corner piece", d) for d in g.renderer.decoration_rects()]
        legend = g.renderer.legend_rect()
        if legend is not None:
            pieces.append(("the map's legend", legend))
        for name, rect in covers + pieces:
            if table.colliderect(rect):
                out.append(f"game: the best-points table {tuple(table)} covers {name} {tuple(rect)}")
        covers.append(("the best-points table", table))
    for box, seat in g.panel.seat_rects:
        for name, rect in covers:
            if box.colliderect(rect):
                out.append(f"game: {name} {tuple(rect)} covers seat {seat}'s box {tuple(box)}")
    return out


def problems_at(app, what: str, sizes=((1280, 720), (1600, 1000))) -> list[str]:
    """The label problems of the screen on top, drawn at each of ``sizes`` in turn."""
    out = []
    for size in sizes:
        resize(app, size)
        app.run_frames(1)
        out.extend(f"{what} {size[0]}x{size[1]}: {p}" for p in check_frame(app))
    return out


def _label_contrast(surf, img, rect) -> tuple[float, tuple, tuple]:
    """The contrast ratio (WCAG 2) of a label just drawn on ``surf`` at ``rect``: its colour (the
    most opaque pixel of its image) against what lies under it (the commonest colour of ``surf``
    where the image is wholly transparent, sampled on a grid of the ink). Only what ``surf``'s
    clip let through counts; a label drawn wholly outside it (a list's scrolled-away rows) is 21:1."""
    from gonzaga.render.theme import contrast_ratio
    ink = img.get_bounding_rect()
    step = max(1, min(ink.w, ink.h) // 12)
    best, colour, under = -1, (0, 0, 0), {}
    clip = surf.get_clip()
    for y in range(ink.top, ink.bottom, step):
        for x in range(ink.left, ink.right, step):
            if not clip.collidepoint(rect.x + x, rect.y + y):
                continue
            r, g, b, a = img.get_at((x, y))
            if a > best:
                best, colour = a, (r, g, b)
            if a == 0:
                c = tuple(surf.get_at((rect.x + x, rect.y + y)))[:3]
                under[c] = under.get(c, 0) + 1
    if best < 128 or not under:
        return 21.0, colour, colour
    ground = max(under, key=under.get)
    return contrast_ratio(colour, ground), colour, ground


def low_contrast(app, least: float = 7.0) -> list[str]:
    """Draw one frame; every label of the widget layer whose contrast with what it is drawn on is
    under ``least`` (issue 49: the interface in high contrast reads at 7:1 or more)."""
    found: list[str] = []
    note = W.CHECK.note_label

    def noting(surf, img, rect, s, px=0):
        note(surf, img, rect, s, px)
        if s.strip():
            ratio, colour, ground = _label_contrast(surf, img, rect)
            if ratio < least:
                found.append(f"{W.CHECK.scene}: {s!r} {colour} on {ground}: {ratio:.2f}:1")
    W.CHECK.note_label = noting  # type: ignore[method-assign]
    try:
        check_frame(app)
    finally:
        del W.CHECK.note_label
    return sorted(set(found))
