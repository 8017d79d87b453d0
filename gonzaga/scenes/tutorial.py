"""The guided first game on screen (issue 11): the game screen, with a box that says one
thing per step, points at the place on the screen, and - where it asks for a move - lets
through every move the step can take (a placement: any that covers the marked cities and
harbors, ``tutorial.accepts``) and says what is wrong with another one: the card, the spot
or the turn. The script is ``tutorial.py``.

``start_tutorial(app, section)`` opens it at a section (each starts from its own position);
"Skip section" jumps to the next one; the progress is saved, so the title screen offers
"Continue tutorial". The tutorial's game is never autosaved and never counted in the
statistics; hints and take-backs are off in it.
"""
from __future__ import annotations

import math
import re
import time
from collections import Counter
from typing import Optional

import pygame

from ..table import tutorial as T
from ..rules import Donate, Place, Plan, Wedding
from ..table.session import SeatSpec, Session
from ..words import i18n
from ..ui import widgets as W
from ..ui.motion import Animator, ease_in_out, lerp, speed_scale
from ..ui.widgets import Button
from .base import ModalScene
from .game import GameScene

BOX_W = 560
_ID_PREFIX = re.compile(r"^[A-Z]\d{1,2}:\s*")


def _no_id(text: str) -> str:
    """A refusal's sentence without a leading rule id ("P8: ...")."""
    return _ID_PREFIX.sub("", text)


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
    """The game screen playing the tutorial's game, step by step."""

    def __init__(self, app, section_id: str):
        record = T.start_record(section_id)
        delay = app.ai_delay() if app.speed == "instant" else max(0.6, app.ai_delay())
        seats = [SeatSpec("Gonzaga", "human", colour=T.COLOURS[T.YOU]),
                 SeatSpec("Sforza", "ai", "easy", T.COLOURS[T.AI])]
        session = Session(seats, record, content=app.content, worker=T.ScriptedWorker(), ai_delay=delay,
                          name=i18n.t("tut.title_button"))
        super().__init__(app, session)
        self.assist.enabled = False  # no hints, no take-backs: the tutorial asks for its moves
        if hasattr(self, "feedback"):
            self.feedback.record_stats = False  # a tutorial is not a game of the statistics
        st = session.state
        if st.phase == "place" and st.turn == 0 and not any(p.round == st.round for p in st.pieces):
            self.seen_reveal = st.round - 1  # a section that starts at the reveal shows it
        self.section = T.section_index(section_id)
        self.step_i = 0
        self.tut_msg = ""  # why a move was refused
        self._next = False  # Next was pressed on this step
        self._t0 = time.monotonic()
        self._revealed = False  # the reveal of this step was on screen
        self.progress = T.load_progress()
        self.progress.section = section_id
        self.progress.started = True
        T.save_progress(self.progress)
        self.box = pygame.Rect(0, 0, BOX_W, 100)
        self.next_button = Button(i18n.t("tut.next"), self.press_next, px=18)
        self.skip_button = Button(i18n.t("tut.skip"), self.skip_section, style="secondary", px=15)
        self.leave_button = Button(i18n.t("tut.leave"), self.leave_tutorial, style="secondary", px=15)
        self.finish_button = Button(i18n.t("tut.finish_button"), self.finish, px=18)
        self._shown_target = False
        self._asked: dict[str, str] = {}  # a placement taken in place of the script's: its text -> the script's
        self._ghost_key = None  # the ghost as last seen: a refusal is cleared once it moves
        self._box_at: Optional[tuple] = None  # the box's corner for this step (kept while it stays clear)
        self.zoom_anim = Animator(lambda: speed_scale(getattr(app, "speed", "normal"),
                                                      getattr(app.settings, "reduce_motion", False)))

    # ------------------------------------------------------------ where we are

    @property
    def sec(self) -> T.Section:
        return T.SECTIONS[self.section]

    @property
    def step(self) -> T.Step:
        return self.sec.steps[min(self.step_i, len(self.sec.steps) - 1)]

    def curtain_needed(self) -> bool:
        return False

    def text(self, step: Optional[T.Step] = None) -> str:
        step = step or self.step
        key = (self.session.version, i18n.language())
        if getattr(self, "_params_key", None) != key:
            p = T.params(self.state)
            p.update(done=i18n.t("plan.confirm"), cont=i18n.t("reveal.continue"), wedding=i18n.t("place.wedding"),
                     confirm=i18n.t("place.confirm"), donate=i18n.t("place.donate"))
            self._params, self._params_key = p, key
        return i18n.t(step.key, **self._params)

    def _until(self, cond) -> bool:
        st = self.state
        if cond is None:
            return True
        if cond[0] == "turn":
            return st.phase == "place" and st.to_act() == (T.YOU,) and self.session.ai_showing is None
        if cond[0] == "round":
            return (st.round > cond[1] or (st.round == cond[1] and st.phase == "plan")) or st.phase == "over"
        if cond[0] == "over":
            return st.phase == "over"
        return True

    def _your_turns(self) -> int:
        return sum(1 for a in self.session.record.actions if isinstance(a, (Place, Wedding, Donate)) and a.seat == T.YOU)

    def _planned(self) -> bool:
        st = self.state
        return st.seats[T.YOU].plan is not None or st.phase != "plan"

    def _expected_plan(self) -> Optional[Plan]:
        return T.your_move(self.state.round, "plan")

    def _complete(self, step: T.Step) -> bool:
        st = self.state
        k = step.kind
        if k == "info":
            return self._next and self._until(step.until)
        if k == "wait":
            return self._until(step.until)
        if k == "region":
            return self.choice_region == step.arg or self._planned()
        if k == "action":
            return self.choice_action == step.arg or self._planned()
        if k == "king":
            return self.choice_king or self._planned()
        if k == "confirm":
            return self._planned()
        if k == "reveal":
            if self.app.stack.find("reveal") is not None:
                self._revealed = True
                return False
            return (self._revealed or st.round > step.arg) and (st.phase != "plan" or st.round > step.arg)
        if k in ("place", "wed", "donate"):
            return self._your_turns() >= step.rnd
        if k == "wedding":
            return (self.place is not None and self.place.mode == "wedding") or self._your_turns() >= step.rnd
        if k == "ring":
            return (self.place is not None and step.arg in self.place.rings) or self._your_turns() >= step.rnd
        return False  # "finish": the Finish button

    # ------------------------------------------------------------ moving on

    def update(self, dt: float) -> None:
        super().update(dt)
        self._zoom_step(dt)
        self._clear_fixed_refusal()
        if not self._shown_target and self.renderer is not None:
            self._shown_target = True
            self._show_target()
        for _ in range(8):  # several steps may be done at once (a resumed section)
            if not self._complete(self.step):
                break
            self._advance()

    def _advance(self) -> None:
        self._next = False
        self.tut_msg = ""
        self._box_at = None
        self._revealed = False
        self._t0 = time.monotonic()
        if self.step_i + 1 < len(self.sec.steps):
            self.step_i += 1
            self._show_target()
            return
        self._section_done()

    def _section_done(self) -> None:
        done = self.sec.id
        if done not in self.progress.done:
            self.progress.done.append(done)
        if self.section + 1 >= len(T.SECTIONS):
            return
        nxt = T.SECTIONS[self.section + 1]
        self.progress.section = nxt.id
        T.save_progress(self.progress)
        have = Counter(self._asked.get(a.to_text(), a.to_text()) for a in self.session.record.actions)
        want = Counter(a.to_text() for a in T.script()[:nxt.start])
        missing = want - have
        if not (have - want) and all(t.split()[1] == str(T.AI) for t in missing.elements()):
            # the game goes on into the next section (the AI's moves still to come are the script's)
            self.section += 1
            self.step_i = 0
            self._show_target()
        else:  # the next section starts from its own position (some rounds later)
            start_tutorial(self.app, nxt.id)

    def _show_target(self) -> None:
        """The map zooms in on the hexes a step points at (F shows the whole board again),
        moving there smoothly (at once with instant speed or reduced motion)."""
        hx = self._target_hexes()
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
        if pc is None or not self.tut_msg or self.step.kind != "place":
            return
        act = pc.action() if pc.mode == "fief" else None
        if act is not None and T.accepts(self.state, self.step, act):
            self.tut_msg = ""
            self.message = ""

    def press_next(self) -> None:
        if self.step.kind == "info" and self._until(self.step.until):
            self._next = True

    def skip_section(self) -> None:
        if self.sec.id not in self.progress.done:
            self.progress.done.append(self.sec.id)
        if self.section + 1 < len(T.SECTIONS):
            self.progress.section = T.SECTIONS[self.section + 1].id
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
        self.session.close()

    # ------------------------------------------------------------ only the move asked

    def _refuse(self, key: str, **kw) -> None:
        self.tut_msg = i18n.t(key, **kw)

    def _card(self, card: str) -> str:
        return i18n.card_name(self.state, card)

    def _wrong_card(self, card: str, kind: str) -> None:
        """A card that is not the one asked now: what it is and what the step asks for."""
        k = self.step.kind
        plan = self._expected_plan()
        if k not in ("region", "action", "king", "confirm") or plan is None:
            self._refuse("tut.read_first" if k == "info" else "tut.not_now")
            return
        if k == "region" and kind != "region":
            self._refuse("tut.region_first", got=self._card(card), want=self._card(plan.region))
        elif k == "region":
            self._refuse("tut.wrong_region", got=self._card(card), want=self._card(plan.region))
        elif kind == "region":
            self._refuse("tut.region_done", got=self._card(card), want=self._card(self.choice_region or plan.region))
        elif kind == "king":
            self._refuse("tut.no_king" if not plan.king else "tut.king_later")
        elif k == "king" and plan.king:
            self._refuse("tut.king_now", got=self._card(card), want=self._card(plan.action))
        else:
            self._refuse("tut.wrong_action", got=self._card(card), want=self._card(plan.action))

    def pick_region(self, r: str) -> None:
        plan = self._expected_plan()
        if self.step.kind in ("region", "action", "king", "confirm") and plan is not None and r == plan.region \
                and (self.step.kind != "region" or r == self.step.arg):
            super().pick_region(r)
        else:
            self._wrong_card(r, "region")

    def pick_action(self, a: str) -> None:
        plan = self._expected_plan()
        if self.step.kind in ("action", "king", "confirm") and plan is not None and a == plan.action:
            super().pick_action(a)
        else:
            self._wrong_card(a, "action")

    def toggle_king(self) -> None:
        plan = self._expected_plan()
        if self.step.kind == "king" and plan is not None and plan.king and not self.choice_king:
            super().toggle_king()
        else:
            self._wrong_card("K", "king")

    def confirm_plan(self) -> None:
        plan = self._expected_plan()
        if self.step.kind == "confirm" and plan is not None and (self.choice_region, self.choice_action,
                                                                  self.choice_king) == (plan.region, plan.action,
                                                                                        plan.king):
            super().confirm_plan()
        elif plan is not None and self.step.kind in ("region", "action", "king"):
            want = {"region": plan.region, "action": plan.action, "king": "K"}[self.step.kind]
            self._refuse("tut.confirm_early", want=self._card(want), done=i18n.t("plan.confirm"))
        else:
            self._refuse("tut.not_now")

    def _click_preview(self, pos) -> bool:
        if self._preview_rect is not None and self._preview_rect.collidepoint(pos):
            self._refuse("tut.no_preview")
            return True
        return False

    def toggle_wedding(self) -> None:
        if self.step.kind == "wedding" or (self.place is not None and self.place.mode == "wedding"
                                           and self.step.kind not in ("ring", "wed")):
            super().toggle_wedding()
        else:
            self._refuse("tut.not_now")

    def donate(self) -> None:
        if self.step.kind == "donate":
            super().donate()
        else:
            self._refuse("tut.place_not_donate")

    def confirm_place(self) -> None:
        pc = self.place
        if pc is not None and pc.mode == "fief" and pc.action() is None and self.step.kind == "place":
            fb = pc.feedback()
            if fb is not None and not fb.ok:
                self._refuse("tut.illegal", reason=_no_id(fb.text))
                return
        super().confirm_place()

    def _send(self, action) -> None:
        k = self.step.kind
        ok = False
        if isinstance(action, Place):
            ok = k == "place" and T.accepts(self.state, self.step, action)
            if ok and action != self.step.arg:
                self._asked[action.to_text()] = self.step.arg.to_text()
            elif k == "place":
                self._refuse_place(action)
            else:
                self._refuse({"donate": "tut.donate_now"}.get(
                    k, "tut.wed_not_place" if k in ("wedding", "ring", "wed") else "tut.not_now"),
                    donate=i18n.t("place.donate"), wedding=i18n.t("place.wedding"))
        elif isinstance(action, Wedding):
            ok = k == "wed" and set(action.rings) == set(self.step.arg.rings)
            if not ok:
                self._refuse("tut.not_now")
        elif isinstance(action, Donate):
            ok = k == "donate"
            if not ok:
                self._refuse("tut.place_not_donate")
        if ok:
            self.tut_msg = ""
            super()._send(action)

    def _names(self, hexes) -> str:
        return i18n.t("tut.and_list", items=", ".join(self._site_name(h) for h in hexes[:-1]),
                      last=self._site_name(hexes[-1])) if len(hexes) > 1 else self._site_name(hexes[0])

    def _refuse_place(self, action: Place) -> None:
        """A legal placement this step does not take: what it misses or covers besides, or
        only its turn."""
        key, kw = T.refusal(self.state, self.step, action)
        sites = self._names(sorted(T.marked(self.state, self.step)))
        self._refuse(key, sites=sites, **{k: self._names(v) if v else "" for k, v in kw.items()})

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
            self.next_button.enabled = self._until(self.step.until)
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
        if ev.type in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP) and self.box.collidepoint(ev.pos):
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
                self._refuse("tut.read_first" if k == "info" else "tut.not_now")
            return True
        if k in ("info", "wait") and ev.type == pygame.KEYDOWN and ev.key in (
                pygame.K_r, pygame.K_e, pygame.K_w, pygame.K_d, pygame.K_LEFT, pygame.K_RIGHT, pygame.K_UP,
                pygame.K_DOWN):
            return True
        pc = self.place
        if pc is not None and pc.mode == "wedding" and self._mode() == "place":
            h = None
            if ev.type == pygame.MOUSEBUTTONDOWN and ev.button == 1 and self.board_rect.collidepoint(ev.pos):
                h = self.renderer.screen_to_hex(*ev.pos)
            elif ev.type == pygame.KEYDOWN and ev.key == pygame.K_SPACE:
                h = pc.cursor
            if h is not None and not (k == "ring" and h == self.step.arg):
                if h in pc.rings:
                    return True  # a ring asked for stays where it is
                if k == "ring":
                    why = pc.ring_problem(h)
                    site = self._site_name(self.step.arg)
                    if why is not None:
                        self._refuse("tut.ring_refused", reason=_no_id(i18n.rule_text(why)), site=site)
                    else:
                        self._refuse("tut.wrong_ring", site=site)
                else:
                    self._refuse("tut.not_now")
                return True
        return super().handle(ev)

    def _free_click(self, pos) -> bool:
        """A click that any step allows: the menu, the objective, the "?"."""
        for w in self.widgets.items:
            if w.visible and w.rect.collidepoint(pos) and getattr(w, "label", "") in (
                    i18n.t("game.menu"), i18n.t("game.objective_button"), i18n.t("end.title")):
                return True
        return False

    def _site_name(self, h) -> str:
        s = self.state.content.sites.get(h)
        return s.name if s else f"{h}"

    def visible_text(self) -> list[str]:
        return [self.text()] + ([self.tut_msg] if self.tut_msg else []) + super().visible_text()

    # ------------------------------------------------------------ what the box points at

    def _target_hexes(self) -> list:
        t = self.step.target
        if t and t[0] == "hexes":
            return T.hexes(t[1], self.state, self.step)
        return []

    def target_rect(self) -> Optional[pygame.Rect]:
        """The screen rectangle the step points at (None: nothing in particular)."""
        t = self.step.target
        if not t:
            return None
        kind, what = t
        if self.step.kind == "donate" and getattr(self, "donate_pending", False):
            kind, what = "button", "place.donate_confirm"  # "Donate?": its confirm
        if kind == "card":
            for w in self.widgets.items:
                if getattr(w, "card", None) == what and w.visible:
                    return w.rect.copy()
            return None
        if kind == "button":
            label = i18n.t(what)
            for w in self.widgets.items:
                if getattr(w, "label", None) == label and w.visible:
                    return w.rect.copy()
            return None
        if kind == "hexes":
            hx = self._target_hexes()
            r = self.renderer
            if not hx or r is None:
                return None
            pts = [r.hex_to_screen(h) for h in hx]
            s = r.size
            rect = pygame.Rect(min(p[0] for p in pts) - s, min(p[1] for p in pts) - s,
                               max(p[0] for p in pts) - min(p[0] for p in pts) + 2 * s,
                               max(p[1] for p in pts) - min(p[1] for p in pts) + 2 * s)
            return rect.clip(self.board_rect) if rect.colliderect(self.board_rect) else None
        b = self.bottom_rect
        if what == "panel":
            rects = [r for r, _ in self._seat_rects]
            return rects[0].unionall(rects[1:]) if rects else self.panel_rect.copy()
        if what == "seat0":
            return self._seat_rects[0][0].copy() if self._seat_rects else None
        if what == "fief_icon":
            return pygame.Rect(b.x + 14, b.y + 34, min(self.info_w - 20, 160), 120)
        if what in ("regions", "hand"):
            cards = [w.rect for w in self.widgets.items if getattr(w, "card", None) is not None and w.visible
                     and (what == "hand" or w.card not in ("A", "B", "C", "K"))]
            return cards[0].unionall(cards[1:]) if cards else None
        if what == "tray":
            return self.tray_rect()
        if what == "status":
            return self._status_rect.copy() if self._status_rect is not None else None
        if what == "reveal":
            rev = self.app.stack.find("reveal")
            return rev.box.copy() if rev is not None and hasattr(rev, "box") else None
        if what == "end_table":
            return b.copy()
        return None

    # ------------------------------------------------------------ drawing

    def _parts(self, width: int) -> list[pygame.Surface]:
        head = W.text(i18n.t("tut.step", section=i18n.t(self.sec.title_key), n=self.step_i + 1,
                             total=len(self.sec.steps)), "sans_semibold", 14, (150, 110, 30))
        parts = [head, W.text(self.text(), "sans", 18, W.TEXT, wrap=width)]
        you = self.state.seats[T.YOU]
        if self.step.key == "tut.plan.fief" and you.fief is not None:  # the text talks about its castles:
            pic = pygame.Surface((min(width, W.sc(220)), W.sc(130)), pygame.SRCALPHA)  # a picture big enough
            self._draw_fief_icon(pic, pic.get_rect().inflate(-8, -8), you.colour, you.fief, 0)
            parts.append(pic)
        if self.tut_msg:
            parts.append(W.text(self.tut_msg, "sans_semibold", 16, W.BAD, wrap=width))
        if self.step.kind == "wait" or (self.step.kind == "info" and not self._until(self.step.until)):
            parts.append(W.text(i18n.t("tut.wait_ai"), "sans_italic", 15, W.TEXT_SOFT))
        return parts

    @staticmethod
    def _height(parts) -> int:
        return sum(p.get_height() for p in parts) + 8 * (len(parts) - 1) + 28 + 46

    def _hex_rect(self, hexes) -> Optional[pygame.Rect]:
        """The screen rectangle around ``hexes`` (with a hex of margin), or None."""
        r = self.renderer
        if not hexes or r is None:
            return None
        pts = [r.hex_to_screen(h) for h in hexes]
        s = r.size
        x0, y0 = min(p[0] for p in pts), min(p[1] for p in pts)
        return pygame.Rect(x0 - s, y0 - 1.6 * s, max(p[0] for p in pts) - x0 + 2 * s,
                           max(p[1] for p in pts) - y0 + 2.6 * s)

    def _avoid(self, target: Optional[pygame.Rect]) -> list[pygame.Rect]:
        """What the box must leave in view: what the step points at (and the hexes it marks),
        the planning table and the preview of the planned pair on the map, the reveal, the
        banners (sea league, Last Turn), the tray the fief is dragged from, the end's chart."""
        avoid = [r for r in (target.inflate(16, 16) if target else None, self._preview_rect,
                             self._hex_rect(self._target_hexes())) if r is not None]
        if self._mode() == "plan" and hasattr(self, "preview_pair"):
            pair = self.preview_pair()
            if pair is not None:
                best = self.previews()[pair]
                rect = self._hex_rect(list(best.best_cells)) if best.best is not None else None
                if rect is not None:
                    avoid.append(rect)
        if self._mode() == "place":  # the tray and the bar's buttons (Rotate, Wedding, Donate, Confirm)
            avoid.append(self.tray_rect())
            avoid += [w.rect for w in self.widgets.items if w.visible and isinstance(w, Button)
                      and w.rect.colliderect(self.bottom_rect)]
        rev = self.app.stack.find("reveal")
        if rev is not None and hasattr(rev, "box"):
            avoid.append(rev.box)
        fb = getattr(self, "feedback", None)
        if fb is not None and hasattr(fb, "banner_rects"):
            avoid += [r.inflate(12, 12) for r in fb.banner_rects()]
        chart = getattr(fb, "chart_rect", None)
        if self.state.phase == "over" and callable(chart) and chart() is not None:  # the end's score chart
            avoid.append(chart())
        return avoid

    def _layout_box(self, target: Optional[pygame.Rect]) -> tuple[pygame.Rect, list]:
        """Where the box goes: where it was this step if that is still clear, else a corner or
        an edge of the map clear of everything in :meth:`_avoid` (narrower if it must), else
        across the bar under the map beside the tray."""
        b = self.board_rect
        avoid = self._avoid(target)
        screen = pygame.Rect(0, 0, *self.app.size)
        m = 12

        def clear(c: pygame.Rect) -> bool:
            return screen.contains(c) and not any(c.colliderect(a) for a in avoid)

        cands = []
        for w in dict.fromkeys((min(BOX_W, b.w - 24), min(460, b.w - 24), min(380, b.w - 24))):
            parts = self._parts(w - 32)
            h = self._height(parts)
            for x in (b.right - w - m, b.x + m, b.centerx - w // 2):
                for y in (b.y + m, b.bottom - h - m, b.centery - h // 2):
                    cands.append((pygame.Rect(x, y, w, h), parts, (w, x - b.x, y - b.y)))
        if self._box_at is not None:
            for c, parts, at in cands:
                if at == self._box_at and clear(c):
                    return c, parts
        for c, parts, at in cands:
            if clear(c):
                self._box_at = at
                return c, parts
        # across the bar under the map (wide, so fewer lines), right of the tray when placing
        left = self.bottom_rect.x + m
        if self._mode() == "place":
            left = max(left, self.tray_rect().right + m)
        w = min(900, self.bottom_rect.right - left - m)
        parts = self._parts(w - 32)
        h = self._height(parts)
        c = pygame.Rect(left, 0, w, h)
        c.bottom = screen.bottom - 6
        if not any(c.colliderect(a) for a in avoid if a is not self._preview_rect):
            return c, parts
        c.top = b.y + m
        return c, parts

    def drawn_guide(self) -> Optional[tuple]:
        """Where a placing step takes one placement only: its anchor and castles (drawn on the
        target); None where several ways fit (or no placement is asked)."""
        st = self.step
        if st.kind != "place" or self.place is None or not isinstance(st.arg, Place):
            return None
        key = (self.session.version, st.key)
        if getattr(self, "_guide_key", None) != key:
            ways = {T.footprint(self.state, p) for p in T.accepted_placements(self.state, st)}
            self._guide = (st.arg.anchor, T.footprint(self.state, st.arg)[1]) if len(ways) == 1 else None
            self._guide_key = key
        return self._guide

    def draw_marks(self, surf) -> None:
        """The hexes the step talks about (gold), and where one placement only fits, its
        castles and its dot: under the ghost, which stays visible on top."""
        hx = self._target_hexes()
        if not hx or self.renderer is None:
            return
        r = self.renderer
        r.draw_highlight(surf, hx, kind="best")
        guide = self.drawn_guide()
        if guide is None:
            return
        anchor, castles = guide
        cells = T.footprint(self.state, self.step.arg)[0]
        r.draw_highlight(surf, [h for h in cells if h not in hx], kind="cover")
        s = r.size
        for h in castles:
            x, y = r.hex_to_screen(h)
            w = max(8, int(s * 0.7))
            body = pygame.Rect(0, 0, w, int(w * 0.6))
            body.midbottom = (int(x), int(y + s * 0.45))
            teeth = [pygame.Rect(body.x + i * w // 5 * 2, body.y - w // 4, w // 5, w // 4 + 1) for i in range(3)]
            for rect in [body] + teeth:
                pygame.draw.rect(surf, (110, 76, 20), rect.inflate(4, 4))
            for rect in [body] + teeth:
                pygame.draw.rect(surf, (250, 236, 200), rect)
        x, y = r.hex_to_screen(anchor)
        rad = max(5, int(s * 0.22))
        pygame.draw.circle(surf, (60, 40, 20), (int(x), int(y - s * 0.35)), rad + 2)
        pygame.draw.circle(surf, (255, 255, 255), (int(x), int(y - s * 0.35)), rad)

    def draw(self, surf) -> None:
        super().draw(surf)
        t = (time.monotonic() - self._t0)
        pulse = 0.5 + 0.5 * math.sin(t * 5.0)
        target = self.target_rect()
        if target is not None:
            col = (255, int(170 + 60 * pulse), 40)
            pygame.draw.rect(surf, col, target.inflate(10, 10), 4, 10)
        self.box, parts = self._layout_box(target)
        box = self.box
        if target is not None:
            self._arrow(surf, box, target, pulse)
        W.panel(surf, box, (255, 250, 236), (170, 120, 40), 12, 3, alpha=250)
        y = box.y + 12
        for p in parts:
            surf.blit(p, (box.x + 16, y))
            y += p.get_height() + 8
        x = box.right - 14
        for b in reversed(self._box_buttons()):
            bw = max(96, W.text(b.label, "sans_semibold", b.px).get_width() + 26)
            b.rect = pygame.Rect(x - bw, box.bottom - 46, bw, 36)
            x -= bw + 8
        for b in self._box_buttons():
            b.draw(surf)

    def _arrow(self, surf, box: pygame.Rect, target: pygame.Rect, pulse: float) -> None:
        """A line with a head from the box to the thing it talks about."""
        tx = min(max(box.centerx, target.left), target.right)
        ty = min(max(box.centery, target.top), target.bottom)
        sx = min(max(tx, box.left + 20), box.right - 20)
        sy = box.bottom if ty > box.bottom else box.top if ty < box.top else box.centery
        if sy == box.centery:
            sx = box.right if tx > box.right else box.left
        dx, dy = tx - sx, ty - sy
        d = math.hypot(dx, dy)
        if d < 30:
            return
        ux, uy = dx / d, dy / d
        end = (tx - ux * 8, ty - uy * 8)
        col = (200, int(140 + 50 * pulse), 30)
        pygame.draw.line(surf, (60, 40, 20), (sx, sy), end, 7)
        pygame.draw.line(surf, col, (sx, sy), end, 4)
        head = [(end[0] + ux * 6, end[1] + uy * 6), (end[0] - ux * 16 - uy * 10, end[1] - uy * 16 + ux * 10),
                (end[0] - ux * 16 + uy * 10, end[1] - uy * 16 - ux * 10)]
        pygame.draw.polygon(surf, col, head)
        pygame.draw.polygon(surf, (60, 40, 20), head, 2)


class TutorialPauseScene(ModalScene):
    """Esc in the tutorial: resume, the rules, the settings, skip the section, leave."""

    opaque = False
    name = "menu"

    def __init__(self, app, game: TutorialGameScene):
        super().__init__(app)
        self.game = game

    def layout(self, size) -> None:
        w, h = size
        self.box = pygame.Rect(0, 0, 400, 430)
        self.box.center = (w // 2, h // 2)
        self.widgets.clear()
        y = self.box.y + 90
        for key, fn in (("menu.resume", self.close), ("menu.rules", self.rules), ("menu.settings", self.settings),
                        ("tut.skip", self.skip), ("tut.leave", self.leave_tutorial)):
            self.widgets.add(Button(i18n.t(key), fn, (self.box.x + 40, y, self.box.w - 80, 50),
                                    style="primary" if key == "menu.resume" else "secondary"))
            y += 62

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
        W.panel(surf, self.box, W.PANEL, W.PANEL_EDGE, 14, 3)
        W.blit_text(surf, i18n.t("tut.menu_heading"), (self.box.centerx, self.box.y + 22), "title", 36, W.TEXT,
                    "midtop")
        self.widgets.draw(surf)


class TutorialMenuScene(ModalScene):
    """From the title screen: the seven sections (done ones marked), Start or Continue."""

    opaque = False
    name = "tutorial_menu"

    def layout(self, size) -> None:
        w, h = size
        self.progress = T.load_progress()
        n = len(T.SECTIONS)
        row = 44 if h >= 760 else 38
        bw = min(720, w - 60)
        intro = W.text(i18n.t("tut.menu_intro"), "sans", 17, W.TEXT, wrap=bw - 80)
        self.intro_h = intro.get_height()
        self.box = pygame.Rect(0, 0, bw, min(h - 40, 80 + self.intro_h + 16 + n * row + 96))
        self.box.center = (w // 2, h // 2)
        self.widgets.clear()
        y = self.box.y + 80 + self.intro_h + 16
        for i, sec in enumerate(T.SECTIONS):
            mark = f"  ({i18n.t('tut.done_mark')})" if sec.id in self.progress.done else ""
            label = f"{i + 1}. {i18n.t(sec.title_key)}{mark}"
            b = Button(label, (lambda sid=sec.id: self.start(sid)), (self.box.x + 40, y, self.box.w - 80, row - 6),
                       style="secondary", px=17, selected=(sec.id == self.progress.section and self.progress.started
                                                            and not self.progress.finished))
            self.widgets.add(b)
            y += row
        if self.progress.started and not self.progress.finished:
            main = i18n.t("tut.continue", section=i18n.t(T.BY_ID[self.progress.section].title_key))
        else:
            main = i18n.t("tut.start")
        bw = min(380, self.box.w - 240)
        self.start_button = self.widgets.add(Button(main, lambda: self.start(None),
                                                    (self.box.x + 40, self.box.bottom - 62, bw, 46)))
        self.widgets.add(Button(i18n.t("common.back"), self.close, (self.box.right - 170, self.box.bottom - 62, 140, 46),
                                style="secondary"))
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
        W.panel(surf, self.box, W.PANEL, W.PANEL_EDGE, 14, 3)
        W.blit_text(surf, i18n.t("tut.menu_heading"), (self.box.x + 40, self.box.y + 18), "title", 40, W.TEXT)
        W.blit_text(surf, i18n.t("tut.menu_intro"), (self.box.x + 40, self.box.y + 80), "sans", 17, W.TEXT,
                    wrap=self.box.w - 80)
        self.widgets.draw(surf)
