"""The guided first game on screen (issue 11): the game screen, with a box that says one
thing per step, points at the place on the screen, and - where it asks for a move - lets
through every move the step can take (a placement: any that covers the marked cities and
harbors, ``tutorial.accepts``) and says what is wrong with another one: the card, the spot
or the turn. The script is ``table/tutorial.py``; where it stands, the box, the refusals, the
marks on the map, the map's move to them and the script's decisions are parts with explicit
inputs (``tutorial_steps.py``, ``tutorial_box.py``, ``tutorial_refusals.py``,
``tutorial_marks.py``, ``tutorial_zoom.py`` and ``tutorial_director.py``) that the scene builds
on the game screen's own parts: the refusals are the gates the hand, the placing controls and the
table of best points consult; the director is the screen's ``director``, consulted as a replay's
controls are.

``start_tutorial(app, section)`` opens it at a section (each starts from its own position);
"Skip section" jumps to the next one; the progress is saved, so the title screen offers
"Continue tutorial". The tutorial's game is never autosaved and never counted in the
statistics; hints and take-backs are off in it.
"""
from __future__ import annotations

import time
from functools import partial
from typing import Any, Optional

import pygame

from ..table import tutorial as T
from ..table.tutorial_game import tutorial_face
from ..words import i18n
from ..ui import widgets as W
from ..ui.motion import speed_scale
from ..ui.widgets import Button
from .base import ModalScene
from .game import GameScene
from .tutorial_box import Frame, TutorialBox
from .tutorial_director import Exits, TutorialDirector
from .tutorial_marks import TutorialMarks
from .tutorial_refusals import TutorialRefusals
from .tutorial_steps import TutorialSteps
from .tutorial_zoom import TutorialZoom


def start_tutorial(app, section_id: Optional[str] = None) -> "TutorialGameScene":
    """Open the tutorial at ``section_id`` (default: where the player stopped)."""
    progress = T.load_progress()
    section_id = section_id if section_id in T.BY_ID else progress.section
    app.end_session()  # a game in progress stays in its autosave ("Continue" on the title)
    scene = TutorialGameScene(app, section_id)
    app.stack.replace("title")
    app.stack.push(scene)
    return scene


class TutorialGameScene(GameScene):
    """The game screen playing the tutorial's game, step by step: the screen's parts with the
    tutorial's own on them (``direct``), its director the screen's ``director``, consulted as a
    replay's controls are. A constructor only: it overrides nothing of the game screen."""

    def __init__(self, app, section_id: str):
        delay = app.ai_delay() if app.speed == "instant" else max(0.6, app.ai_delay())
        face = tutorial_face(section_id, app.content, delay, i18n.t("tut.title_button"))
        super().__init__(app, face)
        self.assist.enabled = False  # no hints, no take-backs: the tutorial asks for its moves
        self.feedback.record_stats = False  # a tutorial is not a game of the statistics
        st = face.view(T.YOU)
        if st.phase == "place" and st.turn == 0 and not any(p.round == st.round for p in st.pieces):
            self.seen_reveal = st.round - 1  # a section that starts at the reveal shows it
        self.director: TutorialDirector = direct(self, app, T.section_index(section_id))
        d = self.director  # its parts and its script, under the names the tutorial's tests and tools read
        self.steps, self.refusals, self.box = d.steps, d.refusals, d.box()
        self.text, self._box_buttons = d.text, d.buttons
        self.next_button, self.skip_button = d.next_button, d.skip_button
        self.leave_button, self.finish_button = d.leave_button, d.finish_button

    sec = property(lambda self: self.director.sec, doc="The section under way.")
    step = property(lambda self: self.director.step, doc="The step under way.")


def direct(g: GameScene, app, section: int) -> TutorialDirector:
    """The tutorial's parts on the game screen ``g`` at ``section`` (an index of ``T.SECTIONS``):
    the script's place, the refusals as the gates of the hand, the placing controls and the table
    of best points, the marks on the map, the map's move to them, the box, and the director that
    drives them (returned)."""
    steps = TutorialSteps(section, lambda: g.state, g.face, g.hand, lambda: g.place,
                          lambda: app.stack.find("reveal") is not None)
    # only the card, the move or the button the step asks for (tutorial_refusals.py)
    refusals = TutorialRefusals(lambda: steps.step, lambda: g.state, g.hand, lambda: g.place, lambda: g.plans.rect)
    g.hand.allow, g.placing.allow, g.plans.allow = refusals.card, refusals.move, refusals.click_table
    g.tips.quiet = lambda pos: box.rect.collidepoint(pos)  # no tip of the map under the box or its buttons
    marks = TutorialMarks(lambda: steps.step, lambda: g.state, lambda: g.face.version, lambda: g.renderer,
                          lambda: g.place)
    g.map_marks = marks  # drawn on the map under the ghost
    zoom = TutorialZoom(marks.target_hexes, lambda: g.renderer, lambda: speed_scale(
        getattr(app, "speed", "normal"), getattr(app.settings, "reduce_motion", False)))
    exits = Exits(partial(start_tutorial, app), app.to_title, app.toast,
                  lambda: app.stack.push(TutorialPauseScene(app, d)), partial(new_game_from_title, app))
    d = TutorialDirector(steps, refusals, zoom, g.face, lambda: g.state, lambda: g.place, g.screen_mode, g.widgets,
                         partial(hex_at, g), lambda: box, g.say, exits, time.monotonic)
    box = TutorialBox(lambda: steps.step, d.words, d.buttons, lambda: g.state, lambda: g.face.version, g.screen_mode,
                      lambda: g.place, g.widgets, lambda: g.renderer,
                      lambda: Frame(g.board_rect, g.bottom_rect, g.panel_rect, g.info_w, pygame.Rect(0, 0, *app.size)),
                      marks.target_hexes, g.plans, g.placing, g.panel, g.top, g.bar, g.feedback,
                      lambda: reveal_box(app))
    return d


def hex_at(g: GameScene, pos) -> Any:
    """The hex under ``pos`` on the map of ``g``, or None (off the map, or before the first layout)."""
    if g.renderer is None or not g.board_rect.collidepoint(pos):
        return None
    return g.renderer.screen_to_hex(*pos)


def new_game_from_title(app) -> None:
    """The tutorial's Play again: the new game screen, over the title."""
    app.to_title()
    app.stack.push("new_game")


def reveal_box(app) -> Optional[pygame.Rect]:
    """The reveal's box while it is open over the game screen, else None."""
    rev = app.stack.find("reveal")
    return rev.box if rev is not None and hasattr(rev, "box") else None


class TutorialPauseScene(ModalScene):
    """Esc in the tutorial: resume, the rules, the settings, skip the section, leave."""

    opaque = False
    name = "menu"

    def __init__(self, app, director: TutorialDirector):
        super().__init__(app)
        self.director = director

    def layout(self, size) -> None:
        w, h = size
        sc = W.sc  # grown with the interface scale, as the other menus
        self.box = pygame.Rect(0, 0, sc(400), sc(430))
        self.box.center = (w // 2, h // 2)
        self.widgets.clear()
        y = self.box.y + sc(90)
        for key, fn in (("menu.resume", self.close), ("menu.rules", self.rules), ("menu.settings", self.settings),
                        ("tut.skip", self.skip), ("tut.leave", self.leave_tutorial)):
            self.widgets.add(Button(i18n.t(key), fn, (self.box.x + sc(40), y, self.box.w - sc(80), sc(50)),
                                    style="primary" if key == "menu.resume" else "secondary"))
            y += sc(62)

    def rules(self) -> None:
        self.app.stack.push("rules_reference", "goal")

    def settings(self) -> None:
        self.app.stack.push("settings")

    def skip(self) -> None:
        self.close()
        self.director.skip_section()

    def leave_tutorial(self) -> None:
        self.close()
        self.director.leave_tutorial()

    def draw(self, surf) -> None:
        W.dim(surf, 150)
        W.panel(surf, self.box, W.PANEL, W.PANEL_EDGE, W.sc(14), W.sc(3))
        W.blit_text(surf, i18n.t("tut.menu_heading"), (self.box.centerx, self.box.y + W.sc(22)), "title", 36, W.TEXT,
                    "midtop")
        self.widgets.draw(surf)


class TutorialMenuScene(ModalScene):
    """From the title screen: the seven sections (done ones marked), Start or Continue."""

    opaque = False
    name = "tutorial_menu"

    def layout(self, size) -> None:
        w, h = size
        sc = W.sc  # grown with the interface scale, as the other menus
        self.progress = T.load_progress()
        n = len(T.SECTIONS)
        row = sc(44) if h >= sc(760) else sc(38)
        bw = min(sc(720), w - 60)
        intro = W.text(i18n.t("tut.menu_intro"), "sans", 17, W.TEXT, wrap=bw - sc(80))
        self.intro_h = intro.get_height()
        self.box = pygame.Rect(0, 0, bw, min(h - 40, sc(80) + self.intro_h + sc(16) + n * row + sc(96)))
        self.box.center = (w // 2, h // 2)
        self.widgets.clear()
        y = self.box.y + sc(80) + self.intro_h + sc(16)
        for i, sec in enumerate(T.SECTIONS):
            mark = f"  ({i18n.t('tut.done_mark')})" if sec.id in self.progress.done else ""
            label = f"{i + 1}. {i18n.t(sec.title_key)}{mark}"
            b = Button(label, partial(self.start, sec.id), (self.box.x + sc(40), y, self.box.w - sc(80), row - sc(6)),
                       style="secondary", px=17, selected=(sec.id == self.progress.section and self.progress.started
                                                            and not self.progress.finished))
            self.widgets.add(b)
            y += row
        if self.progress.started and not self.progress.finished:
            main = i18n.t("tut.continue", section=i18n.t(T.BY_ID[self.progress.section].title_key))
        else:
            main = i18n.t("tut.start")
        bw = min(sc(380), self.box.w - sc(240))
        self.start_button = self.widgets.add(Button(main, lambda: self.start(None),
                                                    (self.box.x + sc(40), self.box.bottom - sc(62), bw, sc(46))))
        self.widgets.add(Button(i18n.t("common.back"), self.close,
                                (self.box.right - sc(170), self.box.bottom - sc(62), sc(140), sc(46)), style="secondary"))
        self.widgets.focus = self.start_button
        self.start_button.focused = True

    def start(self, section_id: Optional[str]) -> None:
        if section_id is None:
            p = self.progress
            section_id = p.section if p.started and not p.finished else T.SECTIONS[0].id
        self.close()
        start_tutorial(self.app, section_id)

    def draw(self, surf) -> None:
        W.dim(surf, 150)
        sc = W.sc
        W.panel(surf, self.box, W.PANEL, W.PANEL_EDGE, sc(14), sc(3))
        W.blit_text(surf, i18n.t("tut.menu_heading"), (self.box.x + sc(40), self.box.y + sc(18)), "title", 40, W.TEXT)
        W.blit_text(surf, i18n.t("tut.menu_intro"), (self.box.x + sc(40), self.box.y + sc(80)), "sans", 17, W.TEXT,
                    wrap=self.box.w - sc(80))
        self.widgets.draw(surf)
