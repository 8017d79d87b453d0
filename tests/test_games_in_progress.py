"""Several games in progress (issue 45), played through the real event loop: each game keeps its
own autosave, New game never replaces one, Continue lists them newest first and resumes each
one's own position, deleting asks first (Esc keeps the game), a damaged autosave among several
is reported by its file name while the others still list, and an older version's single
autosave becomes a game in progress without losing a byte."""
from __future__ import annotations

import shutil
from pathlib import Path

import pygame

from gonzaga.table import in_progress, persistence
from gonzaga.ui import keys
from gonzaga.words import i18n
from scene_events import click, key

SAVES = Path(__file__).resolve().parent.parent / "saves"


def buttons(scene, label):
    return [w for w in scene.widgets.items if getattr(w, "label", None) == label and w.visible]


def press(app, label, frames=2, index=0):
    found = buttons(app.stack.top, label)
    assert len(found) > index, f"no button {label!r} in {[getattr(w, 'label', '?') for w in app.stack.top.widgets.items]}"
    click(app, found[index].rect.center, frames=frames)


def game(app):
    from gonzaga.scenes.game import GameScene
    return app.stack.find(GameScene)


def plan_one(app):
    """The human seat plans by clicks: its first region card and action card, then confirm."""
    g = game(app)
    st = g.state
    s = st.seats[g.private_seat]
    region = next(r for r in st.region_cards() if r not in s.unavailable)
    action = next(a for a in "BAC" if a not in s.unavailable)
    press(app, i18n.card_name(st, region), frames=1)
    press(app, i18n.t(f"card.{action}"), frames=1)
    press(app, i18n.t("plan.confirm"), frames=3)


def new_game_from_title(app):
    press(app, "New game")
    press(app, "2", frames=1)
    press(app, "Start", frames=3)
    assert game(app) is not None


def quit_to_title(app):
    from gonzaga.scenes.title import TitleScene
    if app.stack.top.name == "reveal":  # the round's plans, shown after the last plan
        press(app, i18n.t("reveal.continue"), frames=2)
    press(app, i18n.t("game.menu"), frames=2)
    press(app, i18n.t("menu.quit"), frames=3)
    assert isinstance(app.stack.top, TitleScene), app.stack.top
    app.run_frames(2)  # the title reads the games in progress on its next frame


def moves(app):
    return [a.to_text() for a in app.session.record.actions]


def seat_names(app):
    return ", ".join(s.name for s in app.session.seats)


def in_progress_files():
    return sorted(persistence.autosaves_dir().glob("*.json"))


def test_new_game_never_replaces_a_game_and_continue_resumes_each(make_app):
    app = make_app((1280, 720))
    new_game_from_title(app)
    plan_one(app)
    a_moves, a_file, a_seats = moves(app), app.autosave_file, seat_names(app)
    assert len(a_moves) >= 2  # the setup and the plan played
    quit_to_title(app)
    assert buttons(app.stack.top, "Continue")[0].sub == i18n.t("title.continue_hint", round=1, seats=a_seats)
    new_game_from_title(app)
    b_moves, b_file, b_seats = moves(app), app.autosave_file, seat_names(app)
    assert b_file != a_file and a_file.exists() and b_moves != a_moves
    quit_to_title(app)
    assert in_progress_files() == sorted([a_file, b_file])
    title = app.stack.top
    assert [g.path for g in title.games] == [b_file, a_file]  # newest first
    assert buttons(title, "Continue")[0].sub == i18n.t("title.continue_many", n=2, round=1)
    for path, expected in ((a_file, a_moves), (b_file, b_moves)):
        press(app, "Continue")
        listed = app.stack.top
        assert listed.name == "in_progress"
        rows = [w for w in listed.widgets.items if getattr(w, "label", "").startswith("Round 1 - ")]
        listed_paths = [g.path for g in listed.games]
        # newest first: b, until a resumed game is written again (its AI seats may move on)
        assert sorted(listed_paths) == sorted([a_file, b_file])
        seats_of = {a_file: a_seats, b_file: b_seats}
        assert [r.label.split(" - ")[1] for r in rows] == [seats_of[p] for p in listed_paths]
        click(app, rows[listed_paths.index(path)].rect.center, frames=3)
        assert game(app) is not None and app.autosave_file == path
        # each game its own position (an AI seat may already have moved on from it: a busy machine
        # gives the three frames after the click time for that)
        assert moves(app)[:len(expected)] == expected
        quit_to_title(app)
    assert in_progress_files() == sorted([a_file, b_file])


def test_deleting_a_game_asks_first_and_esc_keeps_it(make_app):
    app = make_app((1280, 720))
    new_game_from_title(app)
    quit_to_title(app)
    new_game_from_title(app)
    quit_to_title(app)
    newest, older = [g.path for g in app.stack.top.games]
    press(app, "Continue")
    listed = app.stack.top
    press(app, "Delete", frames=2)  # the first row's: the newest game
    dialog = app.stack.top
    assert dialog.name == "message" and dialog.heading == "Delete this game?"
    assert dialog.body.startswith("Round 1 - ") and str(newest.name) not in dialog.body
    key(app, pygame.K_ESCAPE, frames=2)  # Esc: nothing is deleted
    assert app.stack.top is listed and newest.exists() and len(listed.games) == 2
    press(app, "Delete", frames=2)
    press(app, "Cancel", frames=2)  # Cancel: nothing either
    assert app.stack.top is listed and newest.exists()
    press(app, "Delete", frames=2)
    key(app, pygame.K_RETURN, frames=2)  # Enter: Cancel has the focus, not Delete
    assert app.stack.top is listed and newest.exists()
    press(app, "Delete", frames=2)
    press(app, "Delete", frames=2)  # the dialog's own Delete
    assert app.stack.top is listed and not newest.exists() and older.exists()
    assert [g.path for g in listed.games] == [older]
    key(app, pygame.K_ESCAPE, frames=3)
    title = app.stack.top
    assert [g.path for g in title.games] == [older]
    press(app, "Continue", frames=3)  # one game left: Continue resumes it at once
    assert game(app) is not None and app.autosave_file == older


def test_a_damaged_autosave_among_several_is_named_and_the_others_still_list(make_app, tmp_path, monkeypatch):
    monkeypatch.setenv("GONZAGA_HOME", str(tmp_path / "home"))
    folder = persistence.autosaves_dir()
    good = [folder / "20261101-100000-aaaaaa.json", folder / "20261102-100000-bbbbbb.json"]
    for p in good:
        shutil.copyfile(SAVES / "v1-hotseat-round3-planning.json", p)
    bad = folder / "20261103-100000-cccccc.json"
    bad.write_text('{"format": "gonzaga-save", "save_version": 2, "reco')
    app = make_app((1280, 720), frames=3)
    top = app.stack.top
    assert top.name == "message"
    assert bad.name in top.body and "damaged or truncated" in top.body
    key(app, pygame.K_RETURN, frames=2)
    title = app.stack.top
    assert title.name == "title" and sorted(g.path for g in title.games) == good
    assert not bad.exists() and list(folder.glob(bad.name + ".damaged-*"))  # kept aside, never deleted
    press(app, "Continue")
    assert app.stack.top.name == "in_progress" and len(app.stack.top.games) == 2


def test_an_older_versions_single_autosave_becomes_a_game_in_progress(make_app, tmp_path, monkeypatch):
    monkeypatch.setenv("GONZAGA_HOME", str(tmp_path / "home"))
    legacy = persistence.legacy_autosave_path()
    shutil.copyfile(SAVES / "v1-hotseat-round3-planning.json", legacy)
    data = legacy.read_bytes()
    app = make_app((1280, 720), frames=3)
    (moved,) = in_progress_files()
    assert not legacy.exists() and moved.read_bytes() == data  # the same bytes, only moved
    assert [g.path for g in app.stack.top.games] == [moved]
    press(app, "Continue", frames=3)
    assert game(app) is not None and app.autosave_file == moved
    assert len(app.session.record.actions) == len(persistence.read_save(moved).record.actions)


def test_a_finished_games_autosave_leaves_the_list(tmp_path, monkeypatch):
    """``retire`` removes only an autosave whose game is over."""
    monkeypatch.setenv("GONZAGA_HOME", str(tmp_path / "home"))
    going = persistence.new_autosave_path()
    shutil.copyfile(SAVES / "v1-hotseat-round3-planning.json", going)
    assert not in_progress.retire(going) and going.exists()
    over = sorted(SAVES.glob("*.json"))
    ended = next(p for p in over if persistence.read_save(p).state.phase == "over")
    done = persistence.new_autosave_path()
    shutil.copyfile(ended, done)
    assert [g.path for g in in_progress.list_in_progress()[0]] == [going]
    assert in_progress.retire(done) and not done.exists()


# ---------------------------------------------------------------- the save name field (issue 45's small list)

def _save_prompt(make_app):
    from gonzaga.table.session import SeatSpec
    app = make_app((1280, 720))
    app.start_session([SeatSpec("Ann", "human", colour="red"), SeatSpec("Bot", "ai", "greedy", "blue")], 3)
    app.run_frames(3)
    press(app, i18n.t("game.menu"), frames=2)
    press(app, i18n.t("menu.save"), frames=2)
    prompt = app.stack.top
    assert prompt.name == "prompt"
    return app, prompt


def type_text(app, text):
    pygame.event.post(pygame.event.Event(pygame.TEXTINPUT, text=text))
    app.run_frames(1)


def test_typing_a_save_name_replaces_the_name_offered(make_app):
    app, prompt = _save_prompt(make_app)
    offered = prompt.field.value
    assert offered  # a name is offered (the scenario and the date)
    type_text(app, "Tuesday")
    assert prompt.field.value == "Tuesday"  # not the offered name with "Tuesday" after it
    type_text(app, " game")
    assert prompt.field.value == "Tuesday game"  # once typed over, typing adds
    key(app, pygame.K_a, mod=pygame.KMOD_CTRL)  # Ctrl+A selects it all again
    type_text(app, "Friday")
    assert prompt.field.value == "Friday"
    key(app, pygame.K_a, mod=pygame.KMOD_CTRL)
    key(app, pygame.K_BACKSPACE)  # Backspace on the selection empties the field
    assert prompt.field.value == ""
    type_text(app, "Sunday")
    key(app, pygame.K_RETURN, frames=2)
    assert (persistence.saves_dir() / "Sunday.json").exists()


def test_the_arrow_keys_keep_the_name_offered_and_type_after_it(make_app):
    app, prompt = _save_prompt(make_app)
    offered = prompt.field.value
    key(app, pygame.K_END)
    type_text(app, " b")
    assert prompt.field.value == offered + " b"


def test_the_replay_of_a_finished_game_is_titled_by_its_seats_and_date_not_its_file(make_app):
    """A finished game is kept as ``finished-<digest>.json`` with no name: the replay's title
    says whose game it was and when, never the file's digest."""
    import json
    app = make_app((1280, 720))
    d = json.loads((SAVES / "v1-finished.json").read_text())
    d["name"] = ""
    kept = persistence.finished_dir() / "finished-0123456789abcdef.json"
    kept.write_text(json.dumps(d))
    app.stack.push("load")
    app.run_frames(1)
    press(app, i18n.t("load.watch"), frames=2)  # the finished game's Watch
    v = app.stack.top
    assert v.name == "replay"
    head = v.controls.heading().split("  ·  ")[0]
    assert head == "Replay: Mantova, Ferrara, 22 Nov 2026, 02:57", head  # the date as English writes it
    named = persistence.saves_dir() / "named.json"
    d["name"] = "Tuesday game"
    named.write_text(json.dumps(d))
    v2 = app.stack.push("replay_file", named)
    assert v2.controls.heading().startswith("Replay: Tuesday game  ·  ")


def test_the_title_maps_legend_compass_and_cartouche_keep_off_its_corner_buttons(make_app):
    """At these windows the legend (or the cartouche) stood under Statistics, or the cartouche
    under the "?" of the help (the playtest saw it at 1600x1000)."""
    from gonzaga.scenes.base import help_corner
    for size in ((1600, 1000), (1280, 1024), (1366, 768), (1280, 720), (2560, 1440)):
        app = make_app(size, frames=5)
        title = app.stack.top
        assert title.name == "title" and title.backdrop.decorations, size
        corners = [title.widgets.items[0].rect, help_corner(app).rect(title)]
        assert title.widgets.items[0].label == "Statistics"
        hit = [(c, d) for c in corners for d in title.backdrop.decorations if c.colliderect(d)]
        assert not hit, (size, hit)
        app.close()


def _placing(make_app, lang, size=(1280, 720)):
    from gonzaga.table.session import SeatSpec
    app = make_app(size, language=lang)
    app.start_session([SeatSpec("Isabella", "human", colour="red"), SeatSpec("Sforza", "ai", "greedy", "blue")], 3)
    app.run_frames(3)
    plan_one(app)
    g = game(app)
    for _ in range(3000):
        if g.place is not None and app.stack.top is g:
            return app, g
        if app.stack.top is not g:
            key(app, pygame.K_RETURN)
        app.run_frames(1)
    raise AssertionError("never the human seat's turn to place")


def test_the_map_keys_line_shows_while_placing_at_1280x720_in_both_languages(make_app, monkeypatch):
    """The keys under the placing help: the map's line (zoom, pan, whole board) was left out at
    1280x720, in Italian at every size (two paragraphs: the second had no room)."""
    from gonzaga.ui import widgets as W
    for lang, size in (("it", (1280, 720)), ("en", (1280, 720)), ("it", (2560, 1440))):
        app, g = _placing(make_app, lang, size)
        drawn: list[tuple[str, pygame.Rect]] = []
        real = W.blit_text

        def spy(surf, text, *a, real=real, drawn=drawn, **k):
            r = real(surf, text, *a, **k)
            drawn.append((text, r))
            return r
        monkeypatch.setattr(W, "blit_text", spy)
        g.draw(app.screen)
        monkeypatch.setattr(W, "blit_text", real)
        zoom = [r for text, r in drawn if i18n.t("view.keys", **keys.labels()) in text
                and i18n.t("game.help_keys", **keys.labels()) in text]
        assert zoom, (lang, size, [t for t, _ in drawn])
        buttons_top = min(w.rect.top for w in g.widgets.items if w.visible and w.rect.colliderect(g.bottom_rect)
                          and w.rect.top > zoom[0].top)
        assert zoom[0].bottom <= buttons_top, (lang, size)  # clear of the buttons under it
        app.close()
        i18n.set_language("en")


def test_an_unchanged_autosave_is_not_read_again_but_a_changed_one_is(tmp_path, monkeypatch):
    """The title lists the games each time it shows: a file that has not changed is not
    replayed again (``known``); one written since is."""
    monkeypatch.setenv("GONZAGA_HOME", str(tmp_path / "home"))
    a, b = persistence.new_autosave_path(), persistence.new_autosave_path()
    for p in (a, b):
        shutil.copyfile(SAVES / "v1-hotseat-round3-planning.json", p)
    reads = []
    real = persistence.load_save
    monkeypatch.setattr(persistence, "load_save", lambda p, c=None: (reads.append(p), real(p, c))[1])
    known: in_progress.Known = {}
    first, _ = in_progress.list_in_progress(known=known)
    again, _ = in_progress.list_in_progress(known=known)
    assert sorted(reads) == sorted([a, b]) and [g.path for g in again] == [g.path for g in first]
    shutil.copyfile(SAVES / "v1-solo-round5-placing.json", a)  # the game played on (a new file)
    reads.clear()
    third, _ = in_progress.list_in_progress(known=known)
    assert reads == [a] and next(g for g in third if g.path == a).round == 5
