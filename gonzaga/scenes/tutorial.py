"""The guided first game on screen (issue 11): the game screen, with a box that says one
thing per step, points at the place on the screen, and - where it asks for a move - lets
through every move the step can take (a placement: any that covers the marked cities and
harbors, ``tutorial.accepts``) and says what is wrong with another one: the card, the spot
or the turn. The script is ``table/tutorial.py``; where it stands, the box, the refusals and the
marks on the map are parts with explicit inputs (``tutorial_steps.py``, ``tutorial_box.py``,
``tutorial_refusals.py`` and ``tutorial_marks.py``) that the scene builds on the game screen's
own parts: the refusals are the gates the hand, the placing controls and the table of best points
consult.

``start_tutorial(app, section)`` opens it at a section (each starts from its own position);
"Skip section" jumps to the next one; the progress is saved, so the title screen offers
"Continue tutorial". The tutorial's game is never autosaved and never counted in the
statistics; hints and take-backs are off in it.
"""
from __future__ import annotations

import math
import time
from collections import Counter
from functools import partial
from typing import Any, Optional

import pygame

from ..table import tutorial as T
from ..rules import Plan, Setup
from ..rules.view import HIDDEN
from ..words import i18n
from ..ui import keys, widgets as W
from ..ui.motion import Animator, ease_in_out, lerp, speed_scale
from ..ui.widgets import Button
from .base import ModalScene
from .game import GameScene
from .tutorial_box import Frame, TutorialBox, Words
from .tutorial_marks import TutorialMarks
from .tutorial_refusals import TutorialRefusals
from .tutorial_steps import TutorialSteps


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
    """The game screen playing the tutorial's game, step by step: the script's steps drive the game
    screen's parts, with three of its own (the box: ``tutorial_box``; the answers to a move not
    asked: ``tutorial_refusals``; the marks on the map: ``tutorial_marks``)."""

    def __init__(self, app, section_id: str):
        delay = app.ai_delay() if app.speed == "instant" else max(0.6, app.ai_delay())
        face = T.tutorial_face(section_id, app.content, delay, i18n.t("tut.title_button"))
        super().__init__(app, face)
        self.assist.enabled = False  # no hints, no take-backs: the tutorial asks for its moves
        # only the card, the move or the button the step asks for (tutorial_refusals.py)
        self.refusals = TutorialRefusals(lambda: self.step, lambda: self.state, self.hand, lambda: self.place,
                                         lambda: self.plans.rect)
        self.hand.allow = self.refusals.card
        self.placing.allow = self.refusals.move
        self.plans.allow = self.refusals.click_table
        self.tips.quiet = lambda pos: self.box.rect.collidepoint(pos)  # no tip of the map under the box or its buttons
        self.marks = TutorialMarks(lambda: self.step, lambda: self.state, lambda: self.face.version,
                                   lambda: self.renderer, lambda: self.place)
        self.map_marks = self.marks  # drawn on the map under the ghost
        if hasattr(self, "feedback"):
            self.feedback.record_stats = False  # a tutorial is not a game of the statistics
        st = face.view(T.YOU)
        if st.phase == "place" and st.turn == 0 and not any(p.round == st.round for p in st.pieces):
            self.seen_reveal = st.round - 1  # a section that starts at the reveal shows it
        self.steps = TutorialSteps(T.section_index(section_id), lambda: self.state, face, self.hand,
                                   lambda: self.place, lambda: self.app.stack.find("reveal") is not None)
        self._t0 = time.monotonic()
        self.progress = T.load_progress()
        self.progress.section = section_id
        self.progress.started = True
        T.save_progress(self.progress)
        self.box = TutorialBox(lambda: self.step, self._words, self._box_buttons, lambda: self.state,
                               lambda: self.face.version, self._mode, lambda: self.place, self.widgets,
                               lambda: self.renderer, self._frame, self.marks.target_hexes, self.plans,
                               self.placing, self.panel, self.top, self.bar, self.feedback, self._reveal_box)
        self.next_button = Button(i18n.t("tut.next"), self.press_next, px=18)
        self.skip_button = Button(i18n.t("tut.skip"), self.skip_section, style="secondary", px=15)
        self.leave_button = Button(i18n.t("tut.leave"), self.leave_tutorial, style="secondary", px=15)
        self.finish_button = Button(i18n.t("tut.finish_button"), self.finish, px=18)
        self._shown_target = False
        self._ghost_key: Optional[tuple[Any, ...]] = None  # the ghost as last seen: a refusal is cleared once it moves
        self.zoom_anim = Animator(lambda: speed_scale(getattr(app, "speed", "normal"),
                                                      getattr(app.settings, "reduce_motion", False)))

    # ------------------------------------------------------------ where we are

    @property
    def sec(self) -> T.Section:
        return self.steps.sec

    @property
    def step(self) -> T.Step:
        return self.steps.step

    def curtain_needed(self) -> bool:
        return False

    def text(self, step: Optional[T.Step] = None) -> str:
        step = step or self.step
        key = (self.face.version, i18n.language(), keys.label("rotate"))
        if getattr(self, "_params_key", None) != key:
            p = T.params(self.state)
            p.update(done=i18n.t("plan.confirm"), cont=i18n.t("reveal.continue"), wedding=i18n.t("place.wedding"),
                     confirm=i18n.t("place.confirm"), donate=i18n.t("place.donate"), rotate=keys.label("rotate"))
            self._params, self._params_key = p, key
        return i18n.t(step.key, **self._params)

    # ------------------------------------------------------------ moving on

    def update(self, dt: float) -> None:
        super().update(dt)
        self._zoom_step(dt)
        self._clear_fixed_refusal()
        if not self._shown_target and self.renderer is not None:
            self._shown_target = True
            self._show_target()
        for _ in range(8):  # several steps may be done at once (a resumed section)
            if not self.steps.complete(self.step):
                break
            self._advance()

    def _advance(self) -> None:
        self.steps.next_pressed = False
        self.refusals.msg = ""
        self.box.new_step()
        self.steps.revealed = False
        self._t0 = time.monotonic()
        if self.steps.step_i + 1 < len(self.sec.steps):
            self.steps.step_i += 1
            self._show_target()
            return
        self._section_done()

    def _section_done(self) -> None:
        done = self.sec.id
        if done not in self.progress.done:
            self.progress.done.append(done)
        if self.steps.section + 1 >= len(T.SECTIONS):
            return
        nxt = T.SECTIONS[self.steps.section + 1]
        self.progress.section = nxt.id
        T.save_progress(self.progress)
        mine = self.face.seat_view(T.YOU).actions()  # the AI's plan is hidden until the reveal: "missing" below
        have = Counter(self.refusals.asked.get(a.to_text(), a.to_text()) for a in mine
                       if not isinstance(a, Setup) and not (isinstance(a, Plan) and a.region == HIDDEN))
        want = Counter(a.to_text() for a in T.script()[:nxt.start] if not isinstance(a, Setup))
        missing = want - have
        if not (have - want) and all(t.split()[1] == str(T.AI) for t in missing.elements()):
            # the game goes on into the next section (the AI's moves still to come are the script's)
            self.steps.section += 1
            self.steps.step_i = 0
            self._show_target()
        else:  # the next section starts from its own position (some rounds later)
            start_tutorial(self.app, nxt.id)

    def _show_target(self) -> None:
        """The map zooms in on the hexes a step points at (F shows the whole board again),
        moving there smoothly (at once with instant speed or reduced motion)."""
        hx = self.marks.target_hexes()
        r = self.renderer
        if not hx or r is None:
            return
        start = r.view_state()
        pts = [r.hex_to_screen(h) for h in hx]
        centre = (sum(p[0] for p in pts) / len(pts), sum(p[1] for p in pts) / len(pts))
        if r.zoom < 1.99:
            r.set_zoom(2.0, about=centre)
        for h in hx:
            r.ensure_visible(h, margin=4.0)
        end = r.view_state()
        self.zoom_anim.clear("zoom")
        self._zoom_tw = None
        if end != start:
            tw = self.zoom_anim.add("zoom", 0.6, ease=ease_in_out, start=start, end=end)
            if not tw.done:
                self._zoom_tw = tw
                r.set_view_state(start)  # the frames between go from here to there

    def _zoom_step(self, dt: float) -> None:
        tw = getattr(self, "_zoom_tw", None)
        if tw is None or self.renderer is None:
            return
        self.zoom_anim.update(dt)
        a, b = tw.data["start"], tw.data["end"]
        if tw.done:
            self._zoom_tw = None
            self.renderer.set_view_state(b)
        else:
            self.renderer.set_view_state({k: lerp(a[k], b[k], tw.p) for k in ("zoom", "cx", "cy")})

    def _clear_fixed_refusal(self) -> None:
        """A refusal of a placement goes once the fief is moved or turned to where it is taken."""
        pc = self.place
        key = None if pc is None else (pc.mode, pc.anchor, pc.rotation, tuple(pc.rings))
        if key == self._ghost_key:
            return
        self._ghost_key = key
        if pc is None or not self.refusals.msg or self.step.kind != "place":
            return
        act = pc.action() if pc.mode == "fief" else None
        if act is not None and T.accepts(self.state, self.step, act):
            self.refusals.msg = ""
            self.message = ""

    def press_next(self) -> None:
        if self.step.kind == "info" and self.steps.until(self.step.until):
            self.steps.next_pressed = True

    def skip_section(self) -> None:
        if self.sec.id not in self.progress.done:
            self.progress.done.append(self.sec.id)
        if self.steps.section + 1 < len(T.SECTIONS):
            self.progress.section = T.SECTIONS[self.steps.section + 1].id
            T.save_progress(self.progress)
            start_tutorial(self.app, self.progress.section)
        else:
            self.finish()

    def leave_tutorial(self) -> None:
        self.progress.section = self.sec.id
        T.save_progress(self.progress)
        self.app.to_title()

    def finish(self) -> None:
        self.progress.done = [s.id for s in T.SECTIONS]
        self.progress.finished = True
        self.progress.section = T.SECTIONS[0].id
        T.save_progress(self.progress)
        self.app.to_title()
        self.app.toast(i18n.t("tut.finished"))

    def leave(self) -> None:
        super().leave()
        self.face.close()

    def play_again(self) -> None:
        self.app.to_title()
        self.app.stack.push("new_game")

    def open_menu(self) -> None:
        self.app.stack.push(TutorialPauseScene(self.app, self))

    # ------------------------------------------------------------ events

    def _box_buttons(self) -> list[Button]:
        k = self.step.kind
        out = []
        if k == "finish":
            out.append(self.finish_button)
        elif k == "info":
            self.next_button.enabled = self.steps.until(self.step.until)
            out.append(self.next_button)
        if k != "finish":
            out += [self.skip_button, self.leave_button]
        return out

    def handle(self, ev) -> bool:
        for b in self._box_buttons():
            if ev.type == pygame.MOUSEMOTION:
                b.hover = b.rect.collidepoint(ev.pos)
            elif b.handle(ev):
                return True
        if ev.type in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP) and self.box.rect.collidepoint(ev.pos):
            return True  # the box is not the map
        k = self.step.kind
        if ev.type == pygame.KEYDOWN and ev.key in (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_SPACE):
            if k == "info":
                self.press_next()
                return True
            if k == "finish":
                self.finish()
                return True
            if k in ("wait", "reveal"):
                return True
        if k in ("info", "wait", "finish") and ev.type in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP) \
                and ev.button == 1 and not self._free_click(ev.pos):
            if ev.type == pygame.MOUSEBUTTONDOWN:
                self.refusals.refuse("tut.read_first" if k == "info" else "tut.not_now")
            return True
        if k in ("info", "wait") and ev.type == pygame.KEYDOWN and (ev.key in (
                pygame.K_LEFT, pygame.K_RIGHT, pygame.K_UP, pygame.K_DOWN)
                or any(keys.pressed(ev, a) for a in ("rotate", "rotate_back", "wedding", "donate"))):
            return True
        pc = self.place
        if pc is not None and pc.mode == "wedding" and self._mode() == "place":
            h = None
            if ev.type == pygame.MOUSEBUTTONDOWN and ev.button == 1 and self.board_rect.collidepoint(ev.pos):
                h = self.renderer.screen_to_hex(*ev.pos) if self.renderer is not None else None
            elif ev.type == pygame.KEYDOWN and ev.key == pygame.K_SPACE:
                h = pc.cursor
            if h is not None and not self.refusals.ring(h):
                return True
        return super().handle(ev)

    def _free_click(self, pos) -> bool:
        """A click that any step allows: the menu, the objective, the "?"."""
        for w in self.widgets.items:
            if w.visible and w.rect.collidepoint(pos) and getattr(w, "label", "") in (
                    i18n.t("game.menu"), i18n.t("game.objective_button"), i18n.t("end.title")):
                return True
        return False

    def visible_text(self) -> list[str]:
        msg = self.refusals.msg
        return [self.text()] + ([msg] if msg else []) + super().visible_text()

    def _words(self) -> Words:
        """What the box says now (``tutorial_box.Words``)."""
        step = self.step
        head = i18n.t("tut.step", section=i18n.t(self.sec.title_key), n=self.steps.step_i + 1, total=len(self.sec.steps))
        waiting = step.kind == "wait" or (step.kind == "info" and not self.steps.until(step.until))
        return Words(head, self.text(), self.refusals.msg, waiting)

    def _frame(self) -> Frame:
        return Frame(self.board_rect, self.bottom_rect, self.panel_rect, self.info_w, pygame.Rect(0, 0, *self.app.size))

    def _reveal_box(self) -> Optional[pygame.Rect]:
        rev = self.app.stack.find("reveal")
        return rev.box if rev is not None and hasattr(rev, "box") else None

    def draw(self, surf) -> None:
        super().draw(surf)
        t = (time.monotonic() - self._t0)
        self.box.draw(surf, 0.5 + 0.5 * math.sin(t * 5.0))  # the target's frame and the arrow pulse



class TutorialPauseScene(ModalScene):
    """Esc in the tutorial: resume, the rules, the settings, skip the section, leave."""

    opaque = False
    name = "menu"

    def __init__(self, app, game: TutorialGameScene):
        super().__init__(app)
        self.game = game

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
        self.game.skip_section()

    def leave_tutorial(self) -> None:
        self.close()
        self.game.leave_tutorial()

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
