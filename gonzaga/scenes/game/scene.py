"""The game screen: the map, the seats panel, the log, and the bottom bar that holds a
human's hand (planning), the placement controls, the AI's move, or the end-of-game table.

The screen holds only the game's face (``table/seatview.py``): never the session, its record
or its table. Everything it does to the game goes through a seat's face
(``self.face.seat_view(seat).submit``). What it draws comes from ``self.state``, the view of
one seat (``self.face.view(self.viewer())``): the
human whose hand is open (after the privacy curtain, or without one for a single human seat
unless the setting asks for it) or who places now; between turns, behind the curtain and
while only AI seats act, the public view, in which no seat has an objective, a plan before
the reveal or a deck in order. The full state reaches the screen only once the game is over.
"""
from __future__ import annotations

import logging
from typing import Any, Optional

import pygame

from ...render.board_view import BoardRenderer
from ...table.session import new_seed
from ...words import i18n
from ...ui import keys, widgets as W
from ...ui.widgets import Button
from ..assist import AssistBar
from ..base import Scene, refusal_rule
from ..feedback import Asks, Feedback, Screen
from ..placement import PlacementController
from ..remote import RemoteAssistBar, RemoteBar, remote_feedback
from .bar import BottomBar
from .camera import Camera
from .view_memory import ViewMemory
from .hand import Hand
from .panel import SeatsPanel
from .placing import Placing
from .planning import PlanPreviews
from ...render.game_sizes import BOTTOM_H, END_H, TOP_H, board_texts, map_align, map_aspect, panel_width
from .tips import Tips
from .top import TopBar, draw_ai_move

log = logging.getLogger(__name__)


class GameScene(Scene):
    name = "game"
    blocks_ai = False
    game_screen = True  # the mark the app finds a game screen by (it does not import this class)

    def __init__(self, app, face, resumed: bool = False):
        super().__init__(app)
        self.face = face  # a GameFace (table/seatview.py): what this screen may know of the game
        self.renderer: Optional[BoardRenderer] = None
        self._renderer_lang = ""
        self.private_seat: Optional[int] = None  # the seat whose hand is open (planning)
        self._view_cache: Optional[tuple] = None  # ((game token, version, seat), the view drawn)
        self.force_curtain = resumed
        self.curtain_up = False
        self.place: Optional[PlacementController] = None
        st = face.public()
        self.seen_reveal = st.round if st.phase in ("place", "over") else 0
        self.end_reported = False
        self.end_selected: Optional[int] = None
        self.message = ""  # the last refusal, shown in the bottom bar
        self._pieces_version = -1
        self._fiefs: list[Any] = []
        self._rings: dict[Any, Any] = {}
        self._layout_key: Optional[tuple[Any, ...]] = None
        self.board_rect = pygame.Rect(0, 0, 1, 1)
        self.wide = False  # the window is wide: the side panel took the width the map cannot use
        self._map_aspect: Optional[float] = None
        self.online: Optional[RemoteBar] = None  # an online game's banners and host buttons (scenes/online.py)
        if face.remote:
            self.online = RemoteBar(self)
        self.feedback = feedback_of(self)  # sound and motion (scenes/feedback.py)
        # the view and the hover help
        self.tooltip = W.Tooltip()
        self._mouse = (-1, -1)
        self.view_memory = ViewMemory(face.view_key())  # the zoom kept per game (keyed without its seed)
        # hints, take-backs, a refusal's "why?" (issue 11); online, hints only (the server keeps the game)
        self.assist = RemoteAssistBar(self) if self.online is not None else AssistBar(self)
        # the parts with explicit inputs: what each reads, and what it asks of the screen
        self.top = TopBar(face, lambda: self.state)
        self.panel = SeatsPanel(face, lambda: self.state, self.feedback.score,
                                getattr(self.feedback, "panel_chart_room", None), self.feedback.chart_in_panel,
                                self._panel_foot, self._panel_table_height)
        self.bar = BottomBar(face, lambda: self.state, self.feedback.end_rows)
        self.map_marks: Optional[Any] = None  # marks on the map under the ghost (the tutorial's: tutorial_marks.py)
        # the bottom bar's controls in place of the live game's hand and placing controls, with the
        # keys, frames and words that go with them (a replay's: replay_bar.ReplayBar); None: the game's
        self.controls: Optional[Any] = None
        self.director: Optional[Any] = None  # a script driving the screen (the tutorial's: tutorial_director.py)
        self.hand = Hand(lambda: self.state, lambda: self.private_seat,
                         lambda plan: face.seat_view(plan.seat).submit(plan), self._relayout, self.say, self.close_private)
        self.placing = Placing(lambda: self.state, face, lambda: self.place, lambda: self.renderer,
                               lambda: self.board_rect, lambda: self.bottom_rect, self.say, self._relayout, self._placed)
        self.plans = PlanPreviews(lambda: self.state, lambda: self.private_seat, lambda: self.screen_mode() == "plan",
                                  self.hand, self.widgets, lambda: self._mouse, lambda: self.renderer,
                                  lambda: self.board_rect, self._keep_clear, self.panel.table_rect, self._relayout)
        self.camera = Camera(lambda: self.renderer, lambda: self.board_rect, lambda: self._mouse, self._placing_now,
                             self.placing.rotate, lambda: self.tips.by_key(), self.tooltip.hide)
        self.tips = Tips(lambda: self.state, face, self.tooltip, lambda: self._mouse, self.widgets, self.plans,
                         self.panel, self.top, lambda: self.renderer, lambda: self.board_rect,
                         lambda: self.private_seat, self._placing_now, lambda: self.camera.pan_drag is not None)

    # ------------------------------------------------------------ helpers

    def viewer(self) -> Optional[int]:
        """The seat whose view the screen draws: the human whose hand is open (behind its
        curtain), or who places now when alone at the screen; None, the public view, between
        turns, while only AI seats act, and during a placement on a shared (hot-seat) screen,
        where no curtain stands (the placement itself reads its seat's own view)."""
        if self.private_seat is not None:
            return self.private_seat
        if self.place is not None and not self.curtain_needed():
            return self.place.seat
        return None

    @property
    def state(self):
        """The state this screen draws: the view of ``viewer()`` (``face.view``); the full
        state only once the game is over (the end-of-game table shows every objective)."""
        s = self.face
        seat = self.viewer()
        key = (s.token, s.version, seat)
        if self._view_cache is None or self._view_cache[0] != key:
            self._view_cache = (key, s.view(seat))
        return self._view_cache[1]

    def curtain_needed(self) -> bool:
        """A curtain only where it protects something: with two humans or more at the screen, or
        with one when the setting asks for it (a loaded game is no different). An online game shows
        only this computer's seat: no curtain; a script (``director``) decides for its screen."""
        if self.director is not None or self.online is not None:
            return self.director is not None and bool(self.director.curtain_needed())
        return len(self.face.humans) >= 2 or self.app.settings.curtain_solo

    def screen_mode(self) -> str:
        """What the screen is doing: "plan", "place" (the seat on screen), "watch" or "over"."""
        st = self.state
        if st.phase == "over":
            return "over"
        if self.private_seat is not None and st.phase == "plan":
            return "plan"
        if self.place is not None and st.phase == "place":
            return "place"
        return "watch"

    # ------------------------------------------------------------ layout

    def bottom_height(self) -> int:
        if self.controls is not None:
            return W.sc(self.controls.height)
        return W.sc(END_H if self.state.phase == "over" else BOTTOM_H)

    def layout(self, size) -> None:
        w, h = size
        sc = W.sc  # every length grows with the interface scale (the window and the UI scale setting)
        bottom = self.bottom_height()
        top = sc(TOP_H)
        if self._map_aspect is None:
            self._map_aspect = map_aspect(self.state.content)
        pw, self.wide = panel_width(size, W.ui_scale(), self._map_aspect)  # a wide window: the panel takes
        self.board_rect = pygame.Rect(0, top, w - pw, h - top - bottom)
        self.panel_rect = pygame.Rect(w - pw, top, pw, h - top)
        self.bottom_rect = pygame.Rect(0, h - bottom, w - pw, bottom)
        self.panel.place(self.panel_rect)
        self.info_w = sc(300) if self.bottom_rect.w >= sc(1000) else sc(200)  # the left block of the bottom bar
        self.bar.place(self.bottom_rect, self.info_w)
        if self.renderer is None or self._renderer_lang != i18n.language():
            view = self.renderer.view_state() if self.renderer is not None else self.view_memory.recall()
            self._renderer_lang = i18n.language()
            self.renderer = BoardRenderer(self.state.content, self.board_rect, texts=board_texts())
            if view:
                self.renderer.set_view_state(view)
                self.view_memory.shown(self.renderer.view_state())
        else:
            self.renderer.set_rect(self.board_rect)
        # a wide window: the map by the panel, its strip on the left (centred if that leaves the strip)
        self.renderer.set_align(map_align(self.board_rect.size, self._map_aspect) if self.wide else 0.5)
        if self.online is not None:  # the chat strip sits on the map: the legend goes elsewhere
            self.renderer.set_keep_clear([r.move(-self.board_rect.x, -self.board_rect.y)
                                          for r in self.online.keep_clear()])
        self._layout_key = (size, self.screen_mode(), self.private_seat, self.place.mode if self.place else None,
                            self.state.phase, self.face.version if self.screen_mode() in ("plan", "place") else 0)
        self._build_widgets()

    def _build_widgets(self) -> None:
        if self.controls is not None:
            self.controls.build()
            return
        self.widgets.clear()
        w = self.app.size[0]
        sc = W.sc
        self.widgets.add(Button(i18n.t("game.menu"), self.open_menu, (w - sc(130), sc(8), sc(116), sc(38)),
                                style="secondary", px=17))
        mode = self.screen_mode()
        b = self.bottom_rect
        if mode == "plan":
            self.hand.build(self.widgets, self.bottom_rect, self.info_w)
        elif mode == "place":
            self.placing.build(self.widgets)
        elif mode == "over" and self.online is not None:  # the host's computer keeps it: no replay here
            self.widgets.add(Button(i18n.t("end.title"), self.app.to_title,
                                    (b.right - sc(230), b.bottom - sc(62), sc(210), sc(48))))
        elif mode == "over":
            self.widgets.add(Button(i18n.t("end.play_again"), self.play_again,
                                    (b.right - sc(230), b.bottom - sc(62), sc(210), sc(48))))
            self.widgets.add(Button(i18n.t("end.title"), self.app.to_title,
                                    (b.right - sc(420), b.bottom - sc(62), sc(176), sc(48)), style="secondary"))
            c = self.feedback.chart_rect()  # the score-by-round chart; its game can be watched again
            self.widgets.add(Button(i18n.t("replay.watch"), self.watch_replay,
                                    (c.right - sc(206), c.y - sc(36), sc(206), sc(30)), style="secondary", px=15))
        if mode == "over" and self.face.review_ready():  # issue 48; online: own seat, once the record came
            c = self.feedback.chart_rect()  # beside Watch within the chart's width; online (no Watch) alone
            x, r = (c.right - sc(206), c.right) if self.online is not None else (max(c.x, c.right - sc(346)), c.right - sc(214))
            self.widgets.add(Button(i18n.t("review.button"), self.review_game, (x, c.y - sc(36), r - x, sc(30)),
                                    style="secondary", px=15))
        if self.solo_objective_allowed():
            x = w - sc(300)
            self.widgets.add(Button(i18n.t("game.objective_button"), self.show_objective, (x, sc(8), sc(160), sc(38)),
                                    style="secondary", px=16))

    def _placing_now(self) -> Optional[PlacementController]:
        """The placement under way at this screen (a human places now), else None."""
        return self.place if self.screen_mode() == "place" else None

    def _relayout(self) -> None:
        self.layout(self.app.size)

    def _placed(self) -> None:
        """The placement (or wedding, or donation) was taken: the bar waits for the next turn."""
        self.place = None
        self.message = ""
        self.layout(self.app.size)

    def _keep_clear(self) -> list:
        """What the table of best points never covers: the buttons on the map (Hint, Take back) and
        an online game's chat strip and banner (as last drawn, while it says something)."""
        keep = [w.rect for w in self.assist._buttons()]
        if self.online is not None:
            keep += self.online.keep_clear()
            if self.online.box is not None:
                keep.append(self.online.box)
        return keep

    def say(self, message: str) -> None:
        """A line for the bottom bar (a refusal, what to do next): how the parts speak."""
        self.message = message

    def solo_objective_allowed(self) -> bool:
        """'My objective' on the top bar: for the only human (solo), or the human placing now."""
        if self.state.phase == "over" or self.controls is not None:
            return False
        humans = self.face.humans
        if len(humans) == 1:
            return True
        return self.face.human_to_place() is not None

    def open_private(self, seat: int) -> None:
        """The hand of ``seat`` opens (behind its curtain, if one stands)."""
        self.private_seat = seat
        self.curtain_up = False
        self.force_curtain = False
        self.hand.clear()
        self.message = ""
        self.layout(self.app.size)

    def close_private(self) -> None:
        self.private_seat = None
        self.hand.clear()
        self.layout(self.app.size)

    # ------------------------------------------------------------ overlays

    def open_menu(self) -> None:
        if self.director is not None:
            return self.director.open_menu()
        self.app.stack.push("online_menu" if self.online is not None else "menu", self)

    def show_objective(self) -> None:
        humans = self.face.humans
        seat = humans[0] if len(humans) == 1 else self.face.human_to_place()
        if seat is None:
            return
        if self.curtain_needed():
            self.app.stack.push("curtain", self, seat, "objective",
                                lambda: self.app.stack.push("objective", self, seat))
        else:
            self.app.stack.push("objective", self, seat)

    def watch_replay(self) -> None:
        self.app.stack.push("replay", self.face)

    def review_game(self) -> None:
        """The post-game review: the only human seat's, else the player chooses (scenes/review.py)."""
        self.app.stack.push("review", self.face)

    def play_again(self) -> None:
        if self.director is not None:
            return self.director.play_again()
        old = self.face
        self.app.start_session(list(old.seats), new_seed(), old.scenario)

    # ------------------------------------------------------------ the flow (runs every frame)

    def update(self, dt: float) -> None:
        if self.controls is not None:
            self.controls.update(dt)
        top = self.app.stack.top
        playing = top is self or not getattr(top, "blocks_ai", True)
        if self.online is not None:  # the connection is read every frame; updates wait under an overlay
            if self.face.tick(hold=not playing):
                self.panel.log_scroll = 0
        elif playing:
            if self.face.tick():
                self.panel.log_scroll = 0
        self._sync()
        if self.online is not None:
            self.online.update(dt)  # after _sync: a refusal from the server stays on the new hand
        self.assist.update(dt)
        self.feedback.update(dt)
        self.tooltip.tick(dt)
        if top is self:
            self.tips.hover()
        else:
            self.tips.off()
        if self.renderer is not None:
            self.view_memory.keep(self.renderer.view_state(), dt)
        if self.director is not None:
            self.director.update(dt)

    def leave(self) -> None:
        if self.renderer is not None:
            self.view_memory.save(self.renderer.view_state())
        if self.director is not None:
            self.director.leave()

    def _sync(self) -> None:
        if self.controls is not None:  # a replay's: no curtain, no reveal, no hand, nothing of the live game
            return
        st = self.state
        s = self.face
        if st.phase == "over":
            self.private_seat = None
            self.place = None
            if not self.end_reported:
                self.end_reported = True
                self.end_selected = st.winners[0] if st.winners else 0
                self.layout(self.app.size)
                self.app.game_over(s)
            return
        top = self.app.stack.top
        if top is not self:
            return
        if st.phase == "place" and st.round > self.seen_reveal:
            self.seen_reveal = st.round
            self.private_seat = None
            self.layout(self.app.size)  # the hand goes before the reveal is drawn over the screen
            if s.humans or self.app.speed != "instant":
                self.app.stack.push("reveal", self)
                return
        if st.phase == "plan":
            self.place = None
            if self.private_seat is not None and self.private_seat not in s.humans_to_plan():
                self.close_private()
            if self.private_seat is None:
                waiting = s.humans_to_plan()
                if waiting:
                    seat = waiting[0]
                    if self.curtain_needed():
                        self.app.stack.push("curtain", self, seat, "plan",
                                            lambda seat=seat: self.open_private(seat))
                    else:
                        self.open_private(seat)
                    return
        elif st.phase == "place":
            seat = s.human_to_place()
            if seat is None:
                if self.place is not None:
                    self.place = None
                    self.layout(self.app.size)
            elif self.place is None or self.place.key != (st.round, st.turn) or self.place.seat != seat:
                if self.force_curtain and self.curtain_needed():  # a loaded game: the next player sits down first
                    self.app.stack.push("curtain", self, seat, "resume", self._after_resume)
                    return
                self.place = PlacementController(s.seat_view(seat))
                self.message = ""
                self.placing.donate_pending = False
                self.layout(self.app.size)
        key = (self.app.size, self.screen_mode(), self.private_seat, self.place.mode if self.place else None, st.phase,
               s.version if self.screen_mode() in ("plan", "place") else 0)
        if key != self._layout_key:
            self.layout(self.app.size)

    def _after_resume(self) -> None:
        self.force_curtain = False

    # ------------------------------------------------------------ events

    def handle(self, ev) -> bool:
        if any(part is not None and part.handle(ev) for part in (self.controls, self.director)):  # theirs first
            return True
        if ev.type in (pygame.MOUSEMOTION, pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP):
            if ev.type != pygame.MOUSEMOTION or ev.pos != self._mouse:
                self.tooltip.forced = False
            self._mouse = ev.pos
            if ev.type == pygame.MOUSEBUTTONUP and self.tips.dragging():  # a drop: no tip here
                self.tips.after_drop = ev.pos
                self.tooltip.hide()
        if ev.type in (pygame.KEYDOWN, pygame.KEYUP) and ev.key in (pygame.K_LCTRL, pygame.K_RCTRL):
            self.camera.ctrl = ev.type == pygame.KEYDOWN
        if ev.type == pygame.KEYDOWN and not keys.pressed(ev, "tip"):
            self.tooltip.hide()
        if self.online is not None and self.online.handle(ev):
            return True
        if self.assist.handle(ev):
            return True
        if ev.type == pygame.MOUSEWHEEL and self.panel_rect.collidepoint(self._mouse):
            self.panel.log_scroll = max(0, self.panel.log_scroll + ev.y)
            return True
        if ev.type == pygame.MOUSEBUTTONDOWN and ev.button == 1 and self.screen_mode() == "plan" \
                and self.plans.click(ev.pos):
            return True
        if self.camera.handle(ev):
            self.placing.refresh_confirm()
            return True
        if self.widgets.handle(ev):
            self.placing.refresh_confirm()
            return True
        mode = self.screen_mode()
        if mode == "place" and self.placing.handle(ev):
            self.placing.refresh_confirm()
            return True
        if mode == "over" and ev.type == pygame.MOUSEBUTTONDOWN and ev.button == 1:
            for seat, rect in self.bar.end_rows:
                if rect.collidepoint(ev.pos):
                    self.end_selected = seat
                    return True
        if ev.type == pygame.KEYDOWN:
            if ev.key == pygame.K_ESCAPE:
                self.open_menu()
                return True
            if mode == "plan" and ev.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
                self.hand.confirm()
                return True
            if keys.pressed(ev, "objective") and self.solo_objective_allowed():
                self.show_objective()
                return True
        return False

    # ------------------------------------------------------------ drawing

    def _panel_foot(self) -> int:
        """The height an online game's chat strip takes at the panel's foot (a wide window), or 0."""
        return self.online.talk.panel_foot() if self.online is not None else 0

    def _panel_table_height(self) -> Optional[int]:
        """The table of best points' height while it may go in the side panel (a wide window, a
        human planning), else None."""
        return self.plans.table_size()[1] if self.wide and self.screen_mode() == "plan" else None

    def _draw_bottom(self, surf) -> None:
        """The bottom bar as the mode asks (the hand's cards and the placing buttons are widgets)."""
        if self.controls is not None:
            self.controls.draw(surf)
            return
        bar = self.bar
        bar.draw_ground(surf)
        mode = self.screen_mode()
        if mode == "plan" and self.private_seat is not None:
            bar.draw_plan(surf, self.private_seat, self.message)
        elif mode == "place":
            pl = self.placing
            bar.draw_place(surf, self.place, pl.heading(), pl.heading_width(), pl.tray_rect(),
                           pl.donate_pending, self.message, bool(refusal_rule(self)))
        elif mode == "over":
            bar.draw_end(surf, self.end_selected)
        else:
            bar.draw_watch(surf, self.online.watch_text() if self.online is not None else None)

    def _pieces(self):
        if self._pieces_version != self.face.version:
            self._pieces_version = self.face.version
            st = self.state
            self._fiefs = [(st.seats[p.seat].colour, p.cells, p.castles) for p in st.pieces if p.kind == "fief"]
            self._rings = {p.cells[0]: st.seats[p.seat].colour for p in st.pieces if p.kind == "ring"}
        return self._fiefs, self._rings

    def draw_info(self) -> dict:
        """What the screen shows now, as data (tests assert on it; nothing secret unless private)."""
        st = self.state
        info: dict[str, Any] = {"mode": self.screen_mode(), "private_seat": self.private_seat, "hand": None, "objective": None,
                "plans": {}}
        if self.private_seat is not None and st.phase == "plan":
            s = st.seats[self.private_seat]
            info["hand"] = {"regions": list(st.region_cards()), "unavailable": sorted(s.unavailable)}
            info["objective"] = s.objective
        if st.phase != "plan":
            info["plans"] = {i: s.plan.to_text() for i, s in enumerate(st.seats) if s.plan is not None}
        return info

    def draw(self, surf) -> None:
        st = self.state
        if self.renderer is None:
            surf.fill(W.BG)  # else the board, the bars and the panel cover the whole window
        fiefs, rings = self.feedback.pieces(*self._pieces())
        highlights: Any = ()
        faint: Any = ()
        ghost, objective = None, ()
        mode = self.screen_mode()
        pc = self.place
        if mode == "place":
            assert pc is not None
            highlights, faint = pc.highlights()
            if pc.mode == "fief" and pc.anchor is not None:
                cells, castles = pc.footprint()
                fb = pc.feedback()
                ghost = (cells, castles, bool(fb and fb.ok))
        if mode == "plan":
            objective = st.content.objective_cities(st.seats[self.private_seat].objective)
        if mode == "over" and self.end_selected is not None:
            oid = st.seats[self.end_selected].objective
            objective = st.content.objective_cities(oid) if oid else ()
        r = self.renderer
        assert r is not None  # laid out before the first frame
        clip = surf.get_clip()
        surf.set_clip(self.board_rect)
        r.draw_static(surf)
        r.draw_flourishing(surf, st.flourishing)
        r.draw_fiefs(surf, fiefs)
        if rings:
            r.draw_rings(surf, rings, [c for _s, _c, cs in fiefs for c in cs])
        if objective:  # on top of the pieces: a held city is still seen
            r.draw_highlight(surf, objective, strong=True)
            r.draw_objective_cities(surf, objective)
        r.draw_highlight(surf, faint, strong=False)
        r.draw_highlight(surf, highlights, strong=True)
        if fiefs or rings or highlights or faint:
            r.draw_site_names(surf)  # above pieces and highlights: a name is never hidden
        self.plans.draw(surf)
        if self.tips.lit:
            r.draw_highlight(surf, self.tips.lit, kind="best")
        if self.map_marks is not None:  # under the ghost
            self.map_marks.draw(surf)
        if ghost is not None and pc is not None:
            r.draw_ghost(surf, *ghost, anchor=pc.anchor)
        if mode == "place" and pc is not None and pc.mode == "wedding":
            self.placing.draw_wedding(surf)
        draw_ai_move(surf, self.face, st, r)
        self.assist.draw_map(surf)
        if mode == "place":
            self.placing.draw_ghost_label(surf)
        surf.set_clip(clip)
        self.top.draw(surf, self.solo_objective_allowed())
        self.panel.draw_cached(surf, self._mouse, self.app.stack.top is self,
                               (mode, self.private_seat, self.end_selected))
        if mode == "plan":
            self.plans.draw(surf, in_panel=True)  # a wide window's table of best points, in the panel
        self._draw_bottom(surf)
        self.feedback.draw(surf)
        self.widgets.draw(surf)
        self.assist.draw(surf)
        if self.online is not None:
            self.online.draw(surf)
        self.tooltip.draw(surf)
        for over in (self.controls, self.director):  # over everything: the replay's bar's last touches, the box
            if over is not None:
                over.draw_over(surf)

    def visible_text(self) -> list[str]:
        out = super().visible_text() + (self.controls.visible_text() if self.controls is not None else [])
        return self.director.visible_text() + out if self.director is not None else out  # the script's words first


def feedback_of(game: GameScene) -> Feedback:
    """The game screen's sound and motion: what they read of the screen (getters: it lays itself
    out again at any time) and ask of the app; an online game's with its chat strip under the banners."""
    screen = Screen(lambda: game.state, lambda: game.renderer, lambda: game.board_rect,
                    lambda: getattr(game, "bottom_rect", None), lambda: getattr(game, "panel_rect", None),
                    lambda: getattr(game, "panel", None), lambda: game._mouse,
                    lambda: (game.hand.region, game.hand.action, game.hand.king),
                    lambda: (game.private_seat, (game.place.seat, game.place.key) if game.place is not None else None),
                    lambda: game.online.keep_clear() if game.online is not None else ())
    app = game.app
    asks = Asks(lambda: app.speed, lambda: app.settings.reduce_motion, lambda: app.size,
                lambda name: app.audio.play(name), lambda: app.count_finished(game.face), app.toast,
                lambda: id(app.stack.top) if getattr(app.stack.top, "name", "") == "curtain" else None)
    if game.online is not None:
        return remote_feedback(game.face, screen, asks, game.online)
    return Feedback(game.face, screen, asks)
