"""The tutorial's script on the game screen (issue 45): where it stands and what it decides. The
game screen consults it as it consults a replay's controls (``GameScene.director``): each frame
(``update``: a step done moves on, a section done goes on in the same game or opens the next at
its own position), for each event first (``handle``: the box's buttons, Enter for Next, a click
the step does not ask for refused), over the finished frame (``draw_over``: the box), and for the
words on screen, the curtain (never: one player), the menu (the tutorial's pause), Play again
and leaving the screen.

A part with explicit inputs (:class:`TutorialDirector`): the script's place (``TutorialSteps``),
the refusals (``TutorialRefusals``), the map's move (``TutorialZoom``), the game's face, the
view the screen draws, the placement under way, the screen's mode and buttons, the hex under a
point, the box (``TutorialBox``, which reads the director's words and buttons), a way to clear
the screen's refusal line, the ways out (:class:`Exits`) and a clock. It never holds the screen
and never sees more of the game than the view the screen draws and the player's own moves."""
from __future__ import annotations

import math
from collections import Counter
from typing import Any, Callable, NamedTuple, Optional

import pygame

from ..rules import Plan, Setup
from ..rules.view import HIDDEN
from ..table import tutorial as T
from ..ui import keys
from ..ui.widgets import Button, Widgets
from ..words import i18n
from .tutorial_box import TutorialBox, Words
from .tutorial_refusals import TutorialRefusals
from .tutorial_steps import TutorialSteps
from .tutorial_zoom import TutorialZoom

CLICKS = (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP)
ENTER = (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_SPACE)
ARROWS = (pygame.K_LEFT, pygame.K_RIGHT, pygame.K_UP, pygame.K_DOWN)
FREE = ("game.menu", "game.objective_button", "end.title")  # buttons a click may reach at any step


class Exits(NamedTuple):
    """Where the tutorial goes from its screen: ``restart(section_id)`` opens it again at a section
    (a fresh game from that section's position), ``title()`` the title screen, ``toast(text)`` a
    note over it, ``pause()`` the tutorial's pause menu and ``new_game()`` the new game screen."""
    restart: Callable[[str], object]
    title: Callable[[], None]
    toast: Callable[[str], None]
    pause: Callable[[], None]
    new_game: Callable[[], None]


class TutorialDirector:
    """The script's decisions. Inputs: ``steps``, ``refusals`` and ``zoom`` (the parts above),
    ``face`` (the game's face: its version, the player's own moves, ``close``), ``view`` (the
    state the screen draws), ``controller`` (the placement under way, or None), ``mode`` (the
    screen's mode), ``widgets`` (the screen's buttons), ``hex_at`` (the hex under a point of the
    map, or None), ``box`` (the box, made after the director), ``say`` (the screen's refusal
    line), ``exits`` and ``clock`` (seconds, for the box's pulse). ``progress``: the saved
    progress, kept up to date."""

    def __init__(self, steps: TutorialSteps, refusals: TutorialRefusals, zoom: TutorialZoom, face: Any,
                 view: Callable[[], Any], controller: Callable[[], Any], mode: Callable[[], str], widgets: Widgets,
                 hex_at: Callable[[tuple[int, int]], Any], box: Callable[[], TutorialBox],
                 say: Callable[[str], None], exits: Exits, clock: Callable[[], float]):
        self.steps = steps
        self.refusals = refusals
        self.zoom = zoom
        self.face = face
        self.view = view
        self.controller = controller
        self.mode = mode
        self.widgets = widgets
        self.hex_at = hex_at
        self.box = box
        self.say = say
        self.exits = exits
        self.clock = clock
        self.next_button = Button(i18n.t("tut.next"), self.press_next, px=18)
        self.skip_button = Button(i18n.t("tut.skip"), self.skip_section, style="secondary", px=15)
        self.leave_button = Button(i18n.t("tut.leave"), self.leave_tutorial, style="secondary", px=15)
        self.finish_button = Button(i18n.t("tut.finish_button"), self.finish, px=18)
        self._t0 = clock()  # the step's start: the box's pulse
        self._ghost_key: Optional[tuple[Any, ...]] = None  # the ghost as last seen: a refusal is cleared once it moves
        self._params: Optional[tuple[tuple[Any, ...], dict[str, Any]]] = None  # the texts' parameters, and for what
        self.progress = T.load_progress()
        self.progress.section = T.SECTIONS[steps.section].id
        self.progress.started = True
        T.save_progress(self.progress)

    # ------------------------------------------------------------ where we are

    @property
    def sec(self) -> T.Section:
        return self.steps.sec

    @property
    def step(self) -> T.Step:
        return self.steps.step

    def curtain_needed(self) -> bool:
        """Never a curtain: one player at the screen, who may see everything it shows."""
        return False

    def text(self, step: Optional[T.Step] = None) -> str:
        """A step's words (this one's by default), with the game's names and the player's keys."""
        step = step or self.step
        key = (self.face.version, i18n.language(), keys.label("rotate"))
        if self._params is None or self._params[0] != key:
            p = T.params(self.view())
            p.update(done=i18n.t("plan.confirm"), cont=i18n.t("reveal.continue"), wedding=i18n.t("place.wedding"),
                     confirm=i18n.t("place.confirm"), donate=i18n.t("place.donate"), rotate=keys.label("rotate"))
            self._params = (key, p)
        return i18n.t(step.key, **self._params[1])

    def words(self) -> Words:
        """What the box says now."""
        step = self.step
        head = i18n.t("tut.step", section=i18n.t(self.sec.title_key), n=self.steps.step_i + 1, total=len(self.sec.steps))
        waiting = step.kind == "wait" or (step.kind == "info" and not self.steps.until(step.until))
        return Words(head, self.text(), self.refusals.msg, waiting)

    def buttons(self) -> list[Button]:
        """The box's buttons: Next (enabled once the game is where the step talks of) or Finish,
        then Skip section and Leave."""
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

    def visible_text(self) -> list[str]:
        """The words the tutorial puts on screen: the step's, and the last refusal's."""
        msg = self.refusals.msg
        return [self.text()] + ([msg] if msg else [])

    # ------------------------------------------------------------ moving on

    def update(self, dt: float) -> None:
        """After the screen's frame: the map's move, a refusal the ghost moved away from, and the
        steps done (several at once in a resumed section)."""
        self.zoom.update(dt)
        self._clear_fixed_refusal()
        for _ in range(8):
            if not self.steps.complete(self.step):
                break
            self._advance()

    def _advance(self) -> None:
        self.steps.next_pressed = False
        self.refusals.msg = ""
        self.box().new_step()
        self.steps.revealed = False
        self._t0 = self.clock()
        if self.steps.step_i + 1 < len(self.sec.steps):
            self.steps.step_i += 1
            self.zoom.show()
            return
        self._section_done()

    def _section_done(self) -> None:
        """The next section goes on in this game if the moves so far are its start's, else it opens
        at its own position (some rounds later)."""
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
            self.zoom.show()
        else:
            self.exits.restart(nxt.id)

    def _clear_fixed_refusal(self) -> None:
        """A refusal of a placement goes once the fief is moved or turned to where it is taken."""
        pc = self.controller()
        key = None if pc is None else (pc.mode, pc.anchor, pc.rotation, tuple(pc.rings))
        if key == self._ghost_key:
            return
        self._ghost_key = key
        if pc is None or not self.refusals.msg or self.step.kind != "place":
            return
        act = pc.action() if pc.mode == "fief" else None
        if act is not None and T.accepts(self.view(), self.step, act):
            self.refusals.msg = ""
            self.say("")

    # ------------------------------------------------------------ the buttons and the ways out

    def press_next(self) -> None:
        if self.step.kind == "info" and self.steps.until(self.step.until):
            self.steps.next_pressed = True

    def skip_section(self) -> None:
        if self.sec.id not in self.progress.done:
            self.progress.done.append(self.sec.id)
        if self.steps.section + 1 < len(T.SECTIONS):
            self.progress.section = T.SECTIONS[self.steps.section + 1].id
            T.save_progress(self.progress)
            self.exits.restart(self.progress.section)
        else:
            self.finish()

    def leave_tutorial(self) -> None:
        self.progress.section = self.sec.id
        T.save_progress(self.progress)
        self.exits.title()

    def finish(self) -> None:
        self.progress.done = [s.id for s in T.SECTIONS]
        self.progress.finished = True
        self.progress.section = T.SECTIONS[0].id
        T.save_progress(self.progress)
        self.exits.title()
        self.exits.toast(i18n.t("tut.finished"))

    def open_menu(self) -> None:
        self.exits.pause()

    def play_again(self) -> None:
        """At the end a new game of one's own, chosen on the new game screen."""
        self.exits.new_game()

    def leave(self) -> None:
        """The screen goes: the tutorial's game with it."""
        self.face.close()

    # ------------------------------------------------------------ events and drawing

    def handle(self, ev: pygame.event.Event) -> bool:
        """Before the screen: True when the tutorial took the event (its buttons, Next by Enter, a
        click or key the step does not ask for, a wedding's ring on another harbor)."""
        for b in self.buttons():
            if ev.type == pygame.MOUSEMOTION:
                b.hover = b.rect.collidepoint(ev.pos)
            elif b.handle(ev):
                return True
        if ev.type in CLICKS and self.box().rect.collidepoint(ev.pos):
            return True  # the box is not the map
        k = self.step.kind
        if ev.type == pygame.KEYDOWN and ev.key in ENTER:
            if k == "info":
                self.press_next()
                return True
            if k == "finish":
                self.finish()
                return True
            if k in ("wait", "reveal"):
                return True
        if k in ("info", "wait", "finish") and ev.type in CLICKS and ev.button == 1 and not self._free_click(ev.pos):
            if ev.type == pygame.MOUSEBUTTONDOWN:
                self.refusals.refuse("tut.read_first" if k == "info" else "tut.not_now")
            return True
        if k in ("info", "wait") and ev.type == pygame.KEYDOWN and (ev.key in ARROWS or any(
                keys.pressed(ev, a) for a in ("rotate", "rotate_back", "wedding", "donate"))):
            return True
        pc = self.controller()
        if pc is not None and pc.mode == "wedding" and self.mode() == "place":
            h = None
            if ev.type == pygame.MOUSEBUTTONDOWN and ev.button == 1:
                h = self.hex_at(ev.pos)
            elif ev.type == pygame.KEYDOWN and ev.key == pygame.K_SPACE:
                h = pc.cursor
            if h is not None and not self.refusals.ring(h):
                return True
        return False

    def _free_click(self, pos: tuple[int, int]) -> bool:
        """A click that any step allows: the menu, the objective, the "?"."""
        free = [i18n.t(k) for k in FREE]
        return any(w.visible and w.rect.collidepoint(pos) and getattr(w, "label", "") in free
                   for w in self.widgets.items)

    def draw_over(self, surf: pygame.Surface) -> None:
        """The box over the finished frame; its target's frame and its arrow pulse."""
        t = self.clock() - self._t0
        self.box().draw(surf, 0.5 + 0.5 * math.sin(t * 5.0))
