"""The game screen: the map, the seats panel, the log, and the bottom bar that holds a
human's hand (planning), the placement controls, the AI's move, or the end-of-game table.

Everything the screen does to the game goes through ``self.session.submit``; drawing
reads the session and this screen's interface state only. What is secret (a hand, a
plan, an objective) is drawn only while ``private_seat`` is set, which happens only after
the privacy curtain was passed (or, with a single human seat, without a curtain unless
the setting asks for it).
"""
from __future__ import annotations

import json
import logging
from typing import Optional

import pygame

from ..table import persistence
from ..render import pieces, theme
from ..render.board_view import BoardRenderer, mark_icon
from ..rules import ACTION_CARDS, Donate, Place, Plan, Setup, Wedding, plan_problem
from ..rules import scoring
from ..words import i18n
from ..ui import widgets as W
from ..ui.widgets import Button
from .base import Scene, refusal_rule
from .feedback import Feedback
from .placement import PlacementController
from .preview import PLAN_ACTIONS, plan_previews

log = logging.getLogger(__name__)

TOP_H = 54
PANEL_W = 390  # at 1600 px and wider; narrower windows get a narrower panel (see layout)
BOTTOM_H = 200
END_H = 330


def board_texts() -> dict[str, str]:
    """The words the board renderer shows (legend, symbols), in the interface language."""
    return {k: i18n.t(k) for k in BoardRenderer.TEXT_KEYS}


# ---------------------------------------------------------------- the view, remembered per game

VIEWS_FILE = "views.json"
VIEWS_KEPT = 60


def game_key(session) -> str:
    """What names a game across saves and loads: its seed, seats and their names."""
    rec = session.record
    return f"{rec.seed}/{rec.config.seats}/" + ",".join(s.name for s in session.seats)


def _read_views() -> dict:
    try:
        d = json.loads((persistence.data_dir() / VIEWS_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return d if isinstance(d, dict) else {}


def load_view(key: str) -> Optional[dict]:
    """The zoom and centre last shown for this game, or None (a damaged file is ignored)."""
    v = _read_views().get(key)
    return v if isinstance(v, dict) else None


def store_view(key: str, view: dict) -> None:
    views = _read_views()
    views.pop(key, None)
    views[key] = view
    while len(views) > VIEWS_KEPT:
        views.pop(next(iter(views)))
    try:
        persistence.atomic_write_text(persistence.data_dir() / VIEWS_FILE, json.dumps(views, indent=0))
    except OSError:
        log.warning("cannot write the board view file", exc_info=True)


def _short_sea(name: str) -> str:
    """'Mare Tyrrhenum' -> 'Tyrrhenum' (the seat panel is narrow)."""
    for prefix in ("Mare ", "Oceanus "):
        if name.startswith(prefix):
            return name[len(prefix):]
    return name


class GameScene(Scene):
    name = "game"
    blocks_ai = False

    def __init__(self, app, session, resumed: bool = False):
        super().__init__(app)
        self.session = session
        self.renderer: Optional[BoardRenderer] = None
        self._renderer_lang = ""
        self.private_seat: Optional[int] = None  # the seat whose secrets are on screen now
        self.force_curtain = resumed
        self.curtain_up = False
        self.choice_region: Optional[str] = None
        self.choice_action: Optional[str] = None
        self.choice_king = False
        self.place: Optional[PlacementController] = None
        st = session.state
        self.seen_reveal = st.round if st.phase in ("place", "over") else 0
        self.end_reported = False
        self.end_selected: Optional[int] = None
        self.log_scroll = 0
        self.message = ""  # the last refusal, shown in the bottom bar
        self.donate_pending = False  # Donate was pressed: waiting for its confirm (Enter) or Esc
        self._pieces_version = -1
        self._fiefs = []
        self._rings = {}
        self._layout_key = None
        self.board_rect = pygame.Rect(0, 0, 1, 1)
        self.online = None  # an online game's banners and host buttons (scenes/online.py)
        if getattr(session, "remote", False):
            from .online import RemoteBar, RemoteFeedback
            self.online = RemoteBar(self)
            self.feedback = RemoteFeedback(self)
        else:
            self.feedback = Feedback(self)  # sound and motion (scenes/feedback.py)
        # the view and the hover help
        self.tooltip = W.Tooltip()
        self._mouse = (-1, -1)
        self._ctrl = False
        self._pan_drag: Optional[list] = None  # [button, last pos, moved]
        self._view_key = game_key(session)
        self._view_saved: Optional[dict] = None
        self._view_dirty_t = 0.0
        self._previews: dict = {}
        self._seat_rects: list = []
        self._log_rects: list = []
        self._status_rect: Optional[pygame.Rect] = None
        self._lit: tuple = ()
        self._preview_rect: Optional[pygame.Rect] = None
        self.preview_folded: Optional[bool] = None  # the table of best points: None = by the map's size
        self._preview_head: Optional[pygame.Rect] = None
        self._preview_cells: list = []
        from .assist import AssistBar
        self.assist = AssistBar(self)  # hints, take-backs, a refusal's "why?" (issue 11)
        if self.online is not None:
            from .online import RemoteAssistBar
            self.assist = RemoteAssistBar(self)  # hints; no take-back (the server keeps the game)

    # ------------------------------------------------------------ helpers

    @property
    def state(self):
        return self.session.state

    def curtain_needed(self) -> bool:
        """A curtain only where it protects something: with two humans or more at the screen, or
        with one when the setting asks for it (a loaded game is no different). An online game shows
        only this computer's seat: no curtain."""
        if self.online is not None:
            return False
        return len(self.session.humans) >= 2 or self.app.settings.curtain_solo

    def _mode(self) -> str:
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
        return W.sc(END_H if self.state.phase == "over" else BOTTOM_H)

    def layout(self, size) -> None:
        w, h = size
        sc = W.sc  # every length grows with the interface scale (the window and the UI scale setting)
        bottom = self.bottom_height()
        top = sc(TOP_H)
        pw = int(max(sc(300), min(sc(PANEL_W), w * 0.245)))
        self.board_rect = pygame.Rect(0, top, w - pw, h - top - bottom)
        self.panel_rect = pygame.Rect(w - pw, top, pw, h - top)
        self.bottom_rect = pygame.Rect(0, h - bottom, w - pw, bottom)
        self.info_w = sc(300) if self.bottom_rect.w >= sc(1000) else sc(200)  # the left block of the bottom bar
        if self.renderer is None or self._renderer_lang != i18n.language():
            view = self.renderer.view_state() if self.renderer is not None else load_view(self._view_key)
            self._renderer_lang = i18n.language()
            self.renderer = BoardRenderer(self.state.content, self.board_rect, texts=board_texts())
            if view:
                self.renderer.set_view_state(view)
                self._view_saved = self.renderer.view_state()
        else:
            self.renderer.set_rect(self.board_rect)
        self._layout_key = (size, self._mode(), self.private_seat, self.place.mode if self.place else None,
                            self.state.phase, self.session.version if self._mode() in ("plan", "place") else 0)
        self._build_widgets()

    def _build_widgets(self) -> None:
        self.widgets.clear()
        w = self.app.size[0]
        sc = W.sc
        self.widgets.add(Button(i18n.t("game.menu"), self.open_menu, (w - sc(130), sc(8), sc(116), sc(38)),
                                style="secondary", px=17))
        mode = self._mode()
        b = self.bottom_rect
        if mode == "plan":
            self._build_hand()
        elif mode == "place":
            self._build_place()
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
        if self.solo_objective_allowed():
            x = w - sc(300)
            self.widgets.add(Button(i18n.t("game.objective_button"), self.show_objective, (x, sc(8), sc(160), sc(38)),
                                    style="secondary", px=16))

    def solo_objective_allowed(self) -> bool:
        """'My objective' on the top bar: for the only human (solo), or the human placing now."""
        if self.state.phase == "over":
            return False
        humans = self.session.humans
        if len(humans) == 1:
            return True
        return self.session.human_to_place() is not None

    # ------------------------------------------------------------ the hand (planning, private)

    def _build_hand(self) -> None:
        st = self.state
        seat = self.private_seat
        s = st.seats[seat]
        b = self.bottom_rect
        sc = W.sc
        x0 = b.x + self.info_w
        regions = list(st.region_cards())
        cw = min(sc(150), (b.right - sc(20) - x0 + sc(8)) // max(1, len(regions)) - sc(8))
        aw = min(sc(160), (b.right - sc(20) - x0 - sc(4 * 8 + 12)) // 5)  # A, B, C, K and Done on one row
        small = aw < sc(140)
        y = b.y + sc(32)
        for i, r in enumerate(regions):
            unavailable = r in s.unavailable
            btn = Button(i18n.card_name(st, r), (lambda r=r: self.pick_region(r)),
                         (x0 + i * (cw + sc(8)), y, cw, sc(54)),
                         style="secondary", selected=(self.choice_region == r), px=15,
                         sub=i18n.t("plan.played_last") if unavailable else "")
            btn.enabled = not unavailable
            btn.card = r
            self.widgets.add(btn)
        y += sc(78)
        for i, a in enumerate(ACTION_CARDS):
            unavailable = a in s.unavailable
            btn = Button(i18n.t(f"card.{a}"), (lambda a=a: self.pick_action(a)),
                         (x0 + i * (aw + sc(8)), y, aw, sc(54)),
                         style="secondary", selected=(self.choice_action == a), px=14 if small else 16,
                         sub=i18n.t("plan.played_last") if unavailable else i18n.t(f"card.{a}.rule"))
            btn.enabled = not unavailable
            btn.card = a
            self.widgets.add(btn)
        kx = x0 + 3 * (aw + sc(8)) + sc(12)
        k_why = ""
        if "K" in s.unavailable:
            k_why = i18n.t("plan.played_last")
        elif s.rings < 1:
            k_why = i18n.t("plan.no_ring")
        kb = Button(i18n.t("card.K"), self.toggle_king, (kx, y, aw + sc(16), sc(54)), style="secondary",
                    selected=self.choice_king, px=14 if small else 16, sub=k_why or i18n.t("plan.king_hint_short"))
        kb.enabled = not k_why
        kb.card = "K"
        self.widgets.add(kb)
        ok = self.choice_region is not None and self.choice_action is not None and \
            plan_problem(st, seat, self.choice_region, self.choice_action, self.choice_king) is None
        done_x = kx + aw + sc(16 + 8)
        done = Button(i18n.t("plan.confirm"), self.confirm_plan,
                      (done_x, y, min(sc(180), b.right - sc(20) - done_x), sc(54)), px=16 if small else 19)
        done.enabled = ok
        self.widgets.add(done)

    def pick_region(self, r: str) -> None:
        self.choice_region = r
        self.layout(self.app.size)

    def pick_action(self, a: str) -> None:
        self.choice_action = a
        self.layout(self.app.size)

    def toggle_king(self) -> None:
        self.choice_king = not self.choice_king
        self.layout(self.app.size)

    def confirm_plan(self) -> None:
        if self.private_seat is None or self.choice_region is None or self.choice_action is None:
            self.message = i18n.t("plan.choose_both")
            return
        why = self.session.submit(Plan(self.private_seat, self.choice_region, self.choice_action, self.choice_king))
        if why is not None:
            log.info("plan refused %s: %s", why.rule, why.message)  # the rule's id stays in the log file
            self.message = i18n.rule_text(why)
            return
        self.close_private()

    def open_private(self, seat: int) -> None:
        self.private_seat = seat
        self.curtain_up = False
        self.force_curtain = False
        self.choice_region = self.choice_action = None
        self.choice_king = False
        self.message = ""
        self.layout(self.app.size)

    def close_private(self) -> None:
        self.private_seat = None
        self.choice_region = self.choice_action = None
        self.choice_king = False
        self.layout(self.app.size)

    # ------------------------------------------------------------ placement (public)

    def _build_place(self) -> None:
        pc = self.place
        b = self.bottom_rect
        sc = W.sc
        head = W.text(self._place_heading(), "sans_bold", 19, wrap=self._place_heading_width()).get_height()
        self._tray_top = sc(10) + head + sc(8)  # the tray and the texts beside it: under the heading
        x = self.tray_rect().right + sc(20)
        y = b.bottom - sc(66)
        if self.donate_pending:  # "Donate?": the same confirm step as a placement (Enter / Esc)
            self.widgets.add(Button(i18n.t("common.cancel"), self.cancel_donate, (x, y, sc(160), sc(48)),
                                    style="secondary", px=17))
            self.confirm_button = self.widgets.add(Button(i18n.t("place.donate_confirm"), self.confirm_donate,
                                                          (b.right - sc(250), y, sc(230), sc(48)), px=19))
            return
        if b.w >= sc(1000):  # narrow windows: R, E, the wheel and right click still rotate
            self.widgets.add(Button(i18n.t("place.rotate"), lambda: self.rotate(1), (x, y, sc(120), sc(48)),
                                    style="secondary", px=17))
            x += sc(128)
        if pc.can_wed:
            label = i18n.t("place.fief_mode") if pc.mode == "wedding" else i18n.t("place.wedding")
            self.widgets.add(Button(label, self.toggle_wedding, (x, y, sc(150), sc(48)), style="secondary", px=17))
            x += sc(158)
        self.widgets.add(Button(i18n.t("place.donate"), self.donate, (x, y, sc(160), sc(48)), style="secondary",
                                px=17))
        self.confirm_button = self.widgets.add(Button(i18n.t("place.confirm"), self.confirm_place,
                                                      (b.right - sc(190), y, sc(170), sc(48)), px=20))
        self.confirm_button.enabled = pc.action() is not None

    def _place_heading(self) -> str:
        pc = self.place
        st = self.state
        return i18n.t("place.heading", name=self.session.seat_name(pc.seat), fief=pc.fief,
                      region=i18n.card_name(st, pc.plan.region), action=i18n.card_name(st, pc.plan.action))

    def _place_heading_width(self) -> int:
        return self.bottom_rect.w - W.sc(40) - W.sc(60)  # clear of the "?" in the corner

    def tray_rect(self) -> pygame.Rect:
        b = self.bottom_rect
        top = getattr(self, "_tray_top", W.sc(44))  # under the heading (two lines when it wraps)
        return pygame.Rect(b.x + W.sc(20), b.y + top, min(W.sc(290), int(b.w * 0.25)), b.h - top - W.sc(12))

    def rotate(self, step: int) -> None:
        if self.place:
            self.place.rotate(step)
            self._refresh_confirm()

    def toggle_wedding(self) -> None:
        if self.place:
            self.place.toggle_mode()
            self.layout(self.app.size)

    def donate(self) -> None:
        """Donate (or Shift+D): asks first - the fief is thrown away for 3 points."""
        if self.place:
            self.donate_pending = True
            self.message = ""
            self.place.cancel()
            self.layout(self.app.size)

    def confirm_donate(self) -> None:
        if self.place and self.donate_pending:
            self.donate_pending = False
            self._send(self.place.donation())

    def cancel_donate(self) -> None:
        self.donate_pending = False
        self.layout(self.app.size)

    def confirm_place(self) -> None:
        if not self.place:
            return
        act = self.place.action()
        if act is None:
            fb = self.place.feedback()
            self.message = fb.text if fb is not None and not fb.ok else i18n.t("place.drag")
            return
        self._send(act)

    def _send(self, action) -> None:
        why = self.session.submit(action)
        if why is not None:
            log.info("refused %s: %s", why.rule, why.message)  # the rule's id stays in the log file
            self.message = i18n.rule_text(why)
            return
        self.place = None
        self.donate_pending = False
        self.message = ""
        self.layout(self.app.size)

    def _refresh_confirm(self) -> None:
        if self.place is not None and getattr(self, "confirm_button", None) is not None:
            self.confirm_button.enabled = self.donate_pending or self.place.action() is not None

    # ------------------------------------------------------------ overlays

    def open_menu(self) -> None:
        if self.online is not None:
            from .online import RemoteMenuScene as MenuScene
        else:
            from .overlays import MenuScene
        self.app.stack.push(MenuScene(self.app, self))

    def show_objective(self) -> None:
        from .overlays import CurtainScene, ObjectiveScene
        humans = self.session.humans
        seat = humans[0] if len(humans) == 1 else self.session.human_to_place()
        if seat is None:
            return
        if self.curtain_needed():
            self.app.stack.push(CurtainScene(self.app, self, seat, "objective",
                                             lambda: self.app.stack.push(ObjectiveScene(self.app, self, seat))))
        else:
            self.app.stack.push(ObjectiveScene(self.app, self, seat))

    def watch_replay(self) -> None:
        from .replay_view import ReplayScene
        self.app.stack.push(ReplayScene.for_session(self.app, self.session))

    def play_again(self) -> None:
        from ..table.session import new_seed
        old = self.session
        self.app.start_session(old.seats, new_seed(), old.record.config.scenario)

    # ------------------------------------------------------------ the flow (runs every frame)

    def update(self, dt: float) -> None:
        top = self.app.stack.top
        playing = top is self or not getattr(top, "blocks_ai", True)
        if self.online is not None:  # the connection is read every frame; updates wait under an overlay
            if self.session.tick(hold=not playing):
                self.log_scroll = 0
        elif playing:
            if self.session.tick():
                self.log_scroll = 0
        self._sync()
        if self.online is not None:
            self.online.update(dt)  # after _sync: a refusal from the server stays on the new hand
        self.assist.update(dt)
        self.feedback.update(dt)
        self.tooltip.tick(dt)
        if top is self:
            self._hover()
        else:
            self.tooltip.hide()
            self._lit = ()
        self._keep_view(dt)

    def leave(self) -> None:
        self._save_view()

    # ------------------------------------------------------------ the view (zoom, pan), remembered

    def _keep_view(self, dt: float) -> None:
        """Write the view to the views file once it has rested a second after a change."""
        if self.renderer is None:
            return
        v = self.renderer.view_state()
        if v == self._view_saved:
            self._view_dirty_t = 0.0
            return
        self._view_dirty_t += dt
        if self._view_dirty_t >= 1.0:
            self._save_view()

    def _save_view(self) -> None:
        if self.renderer is None:
            return
        v = self.renderer.view_state()
        if v != self._view_saved:
            store_view(self._view_key, v)
            self._view_saved = v
        self._view_dirty_t = 0.0

    def _held(self) -> bool:
        """A fief (or a ring cursor) is in hand: the wheel turns it, the arrows move it."""
        pc = self.place if self._mode() == "place" else None
        if pc is None:
            return False
        if pc.mode == "wedding":
            return False
        return pc.anchor is not None or pc.dragging

    def _handle_view(self, ev) -> bool:
        """Zoom (Ctrl+wheel, the wheel when nothing is held, +/-), pan (middle or right drag,
        arrows when nothing is held), F / 0 / Home: the whole board; T: the tip by keyboard."""
        r = self.renderer
        if r is None:
            return False
        over_board = self.board_rect.collidepoint(self._mouse)
        if ev.type == pygame.MOUSEWHEEL and over_board:
            ctrl = self._ctrl or bool(pygame.key.get_mods() & pygame.KMOD_CTRL)
            if ctrl or not (self._mode() == "place" and self.place.mode == "fief" and self._held()):
                if ev.y:
                    r.zoom_step(1 if ev.y > 0 else -1, about=self._mouse)
                    self._after_view_change()
                return True
            return False
        if ev.type == pygame.MOUSEBUTTONDOWN and ev.button in (2, 3) and self.board_rect.collidepoint(ev.pos):
            self._pan_drag = [ev.button, ev.pos, False]
            return True
        if ev.type == pygame.MOUSEMOTION and self._pan_drag is not None:
            button, last, moved = self._pan_drag
            dx, dy = ev.pos[0] - last[0], ev.pos[1] - last[1]
            if not moved and abs(dx) + abs(dy) < 5:
                return True
            self._pan_drag = [button, ev.pos, True]
            r.pan_by(dx, dy)
            self._after_view_change()
            return True
        if ev.type == pygame.MOUSEBUTTONUP and ev.button in (2, 3) and self._pan_drag is not None:
            button, _last, moved = self._pan_drag
            self._pan_drag = None
            if ev.button == 3 and not moved and self._mode() == "place" and self.place.mode == "fief":
                self.rotate(1)  # a right click (no drag) turns the fief
            return True
        if ev.type == pygame.KEYDOWN:
            k = ev.key
            if k in (pygame.K_PLUS, pygame.K_EQUALS, pygame.K_KP_PLUS):
                r.zoom_step(1, about=self._zoom_point())
                self._after_view_change()
                return True
            if k in (pygame.K_MINUS, pygame.K_KP_MINUS):
                r.zoom_step(-1, about=self._zoom_point())
                self._after_view_change()
                return True
            if k in (pygame.K_f, pygame.K_0, pygame.K_KP0, pygame.K_HOME):
                r.fit_view()
                self._after_view_change()
                return True
            arrows = {pygame.K_LEFT: (1, 0), pygame.K_RIGHT: (-1, 0), pygame.K_UP: (0, 1), pygame.K_DOWN: (0, -1)}
            if k in arrows and r.zoom > 1.0 and not self._held() and not (
                    self._mode() == "place" and self.place.mode == "wedding" and self.place.cursor is not None):
                dx, dy = arrows[k]
                r.pan_by(dx * self.board_rect.w * 0.2, dy * self.board_rect.h * 0.2)
                self._after_view_change()
                return True
            if k == pygame.K_t:
                self._keyboard_tip()
                return True
        return False

    def _zoom_point(self):
        """+/- zoom about the ghost when there is one, else about the pointer on the map,
        else about the view's centre."""
        pc = self.place if self._mode() == "place" else None
        at = (pc.anchor if pc.mode == "fief" else pc.cursor) if pc is not None else None
        if at is not None:
            return self.renderer.hex_to_screen(at)
        if self.board_rect.collidepoint(self._mouse):
            return self._mouse
        return self.board_rect.center

    def _after_view_change(self) -> None:
        """The map moved under a still pointer: the ghost being dragged follows the pointer."""
        pc = self.place if self._mode() == "place" else None
        if pc is not None and pc.dragging and self.board_rect.collidepoint(self._mouse):
            pc.set_anchor(self.renderer.screen_to_hex(*self._mouse))
        self.tooltip.hide()

    def _sync(self) -> None:
        from .overlays import CurtainScene, RevealScene
        st = self.state
        s = self.session
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
                self.app.stack.push(RevealScene(self.app, self))
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
                        self.app.stack.push(CurtainScene(self.app, self, seat, "plan",
                                                         lambda seat=seat: self.open_private(seat)))
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
                    self.app.stack.push(CurtainScene(self.app, self, seat, "resume", self._after_resume))
                    return
                self.place = PlacementController(s, seat)
                self.message = ""
                self.donate_pending = False
                self.layout(self.app.size)
        key = (self.app.size, self._mode(), self.private_seat, self.place.mode if self.place else None, st.phase,
               s.version if self._mode() in ("plan", "place") else 0)
        if key != self._layout_key:
            self.layout(self.app.size)

    def _after_resume(self) -> None:
        self.force_curtain = False

    # ------------------------------------------------------------ events

    def handle(self, ev) -> bool:
        if ev.type in (pygame.MOUSEMOTION, pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP):
            if ev.type != pygame.MOUSEMOTION or ev.pos != self._mouse:
                self.tooltip.forced = False
            self._mouse = ev.pos
        if ev.type in (pygame.KEYDOWN, pygame.KEYUP) and ev.key in (pygame.K_LCTRL, pygame.K_RCTRL):
            self._ctrl = ev.type == pygame.KEYDOWN
        if ev.type == pygame.KEYDOWN and ev.key != pygame.K_t:
            self.tooltip.hide()
        if self.online is not None and self.online.handle(ev):
            return True
        if self.assist.handle(ev):
            return True
        if ev.type == pygame.MOUSEWHEEL and self.panel_rect.collidepoint(self._mouse):
            self.log_scroll = max(0, self.log_scroll + ev.y)
            return True
        if ev.type == pygame.MOUSEBUTTONDOWN and ev.button == 1 and self._mode() == "plan" \
                and self._click_preview(ev.pos):
            return True
        if self._handle_view(ev):
            self._refresh_confirm()
            return True
        if self.widgets.handle(ev):
            self._refresh_confirm()
            return True
        mode = self._mode()
        if mode == "place" and self._handle_place(ev):
            self._refresh_confirm()
            return True
        if mode == "over" and ev.type == pygame.MOUSEBUTTONDOWN and ev.button == 1:
            for seat, rect in getattr(self, "_end_rows", []):
                if rect.collidepoint(ev.pos):
                    self.end_selected = seat
                    return True
        if ev.type == pygame.KEYDOWN:
            if ev.key == pygame.K_ESCAPE:
                self.open_menu()
                return True
            if mode == "plan" and ev.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
                self.confirm_plan()
                return True
            if ev.key == pygame.K_o and self.solo_objective_allowed():
                self.show_objective()
                return True
        return False

    def _handle_place(self, ev) -> bool:
        pc = self.place
        r = self.renderer
        if self.donate_pending:  # only the donation's confirm (Enter) or cancel (Esc) now
            if ev.type == pygame.KEYDOWN and ev.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
                self.confirm_donate()
                return True
            if ev.type == pygame.KEYDOWN and ev.key == pygame.K_ESCAPE:
                self.cancel_donate()
                return True
            return ev.type in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP) and self.board_rect.collidepoint(ev.pos)
        if ev.type == pygame.MOUSEBUTTONDOWN:
            if ev.button == 3 and pc.mode == "fief":  # a right click off the map still turns it
                pc.rotate(1)
                return True
            if ev.button != 1:
                return False
            h = r.screen_to_hex(*ev.pos) if self.board_rect.collidepoint(ev.pos) else None
            if pc.mode == "wedding":
                if h is not None:
                    why = pc.click_ring(h)
                    self.message = i18n.rule_text(why) if why else ""
                    return True
                return False
            if self.tray_rect().collidepoint(ev.pos):
                pc.dragging = True
                return True
            if h is not None:
                pc.dragging = True  # pick the ghost up, or move it here
                pc.set_anchor(h)
                return True
            return False
        if ev.type == pygame.MOUSEMOTION:
            h = r.screen_to_hex(*ev.pos) if self.board_rect.collidepoint(ev.pos) else None
            if pc.mode == "wedding":
                pc.cursor = h
                return False
            if pc.dragging:
                pc.set_anchor(h)
                return True
            return False
        if ev.type == pygame.MOUSEBUTTONUP and ev.button == 1 and pc.mode == "fief" and pc.dragging:
            pc.dragging = False
            h = r.screen_to_hex(*ev.pos) if self.board_rect.collidepoint(ev.pos) else None
            if h is None:
                pc.cancel()  # dropped off the map: back to the tray
            else:
                pc.set_anchor(h)
                fb = pc.feedback()
                self.message = fb.text if fb is not None and not fb.ok else ""
            return True
        if ev.type == pygame.MOUSEWHEEL and pc.mode == "fief":
            pc.rotate(-1 if ev.y > 0 else 1)
            return True
        if ev.type == pygame.KEYDOWN:
            k = ev.key
            if k in (pygame.K_r,) and pc.mode == "fief":
                pc.rotate(1)
                return True
            if k in (pygame.K_e,) and pc.mode == "fief":
                pc.rotate(-1)
                return True
            arrows = {pygame.K_LEFT: "left", pygame.K_RIGHT: "right", pygame.K_UP: "up", pygame.K_DOWN: "down"}
            if k in arrows:
                pc.move(arrows[k])
                at = pc.anchor if pc.mode == "fief" else pc.cursor
                if at is not None:
                    r.ensure_visible(at)
                return True
            if k == pygame.K_SPACE and pc.mode == "wedding" and pc.cursor is not None:
                why = pc.click_ring(pc.cursor)
                self.message = i18n.rule_text(why) if why else ""
                return True
            if k == pygame.K_w and pc.can_wed:
                self.toggle_wedding()
                return True
            if k == pygame.K_d and ev.mod & pygame.KMOD_SHIFT:
                self.donate()
                return True
            if k in (pygame.K_RETURN, pygame.K_KP_ENTER):
                if pc.mode == "fief" and pc.anchor is None:
                    pc.start_keyboard()
                else:
                    self.confirm_place()
                return True
            if k == pygame.K_ESCAPE and (pc.anchor is not None or pc.rings or pc.dragging):
                pc.cancel()
                self.message = ""
                return True
        return False

    # ------------------------------------------------------------ tips (hover, or T)

    def _hover(self) -> None:
        """What is under the pointer: its tip (after a short rest) and the hexes a log line
        refers to (at once)."""
        self._lit = ()
        if self.tooltip.forced:
            return
        pos = self._mouse
        target, lines = self._tip_at(pos)
        self.tooltip.set(target, lines, pos)

    def _tip_at(self, pos):
        """(target, lines) for the thing at screen point ``pos``; (None, []) for nothing."""
        if pos[0] < 0:
            return None, []
        for w in self.widgets.items:
            if w.visible and w.rect.collidepoint(pos):
                card = getattr(w, "card", None)
                if card is not None and self.private_seat is not None:
                    return ("card", card), self._card_tip(card)
                return None, []
        if self._preview_rect is not None and self._preview_rect.collidepoint(pos):
            for rect, region, action in self._preview_cells:
                if rect.collidepoint(pos):
                    return ("pair", region, action), self._pair_tip(region, action)
            return None, []
        for rect, seat in self._seat_rects:
            if rect.collidepoint(pos):
                return ("seat", seat, self.session.version), self._seat_tip(seat)
        if self._status_rect is not None and self._status_rect.collidepoint(pos):
            return ("status", self.session.version), self._status_tip()
        for rect, idx in self._log_rects:
            if rect.collidepoint(pos):
                self._lit = tuple(self._log_hexes(idx))
                return ("log", idx), [self.session.log[idx].text(), i18n.t("tip.log")] if self._lit else []
        if self.board_rect.collidepoint(pos) and self.renderer is not None:
            h = self.renderer.screen_to_hex(*pos)
            if h is not None:
                return ("hex", h, self.session.version), self.hex_tip(h)
        return None, []

    def _keyboard_tip(self) -> None:
        """T: the tip of the hex under the keyboard ghost (or ring cursor), else of the
        focused card, else of what the pointer is on; shown at once."""
        pc = self.place if self._mode() == "place" else None
        at = (pc.anchor if pc.mode == "fief" else pc.cursor) if pc is not None else None
        if at is not None:
            x, y = self.renderer.hex_to_screen(at)
            self.tooltip.show_now(("hex", at), self.hex_tip(at), (x, y + self.renderer.size))
            return
        f = self.widgets.focus
        if f is not None and getattr(f, "card", None) is not None and self.private_seat is not None:
            self.tooltip.show_now(("card", f.card), self._card_tip(f.card), f.rect.midtop)
            return
        target, lines = self._tip_at(self._mouse)
        self.tooltip.show_now(target, lines, self._mouse)

    def _holders(self, h) -> list[str]:
        st = self.state
        i = st.board.index_of.get(h)
        if i is None:
            return []
        return [self.session.seat_name(n) for n, s in enumerate(st.seats) if s.held >> i & 1]

    def hex_tip(self, h) -> list[str]:
        """A site (name, symbol or sea, region and whether it flourishes, who holds it), a
        sea (its harbors and who holds them, who is close to a league) or a land hex."""
        st = self.state
        c = st.content
        site = c.sites.get(h)
        lines = []
        if site is not None:
            if site.kind == "city":
                lines.append(i18n.t("tip.city", name=site.name, symbol=i18n.t(f"symbol.{site.symbol}")))
            else:
                lines.append(i18n.t("tip.harbor", name=site.name, sea=c.sea_names.get(site.sea, site.sea)))
        elif c.terrain.get(h) == "sea":
            return self._sea_tip(c.sea_of.get(h))
        else:
            lines.append(i18n.t("tip.land"))
        reg = c.region_of.get(h)
        if reg:
            name = c.region_names.get(reg, reg)
            lines.append(i18n.t("tip.flourishing" if reg in st.flourishing else "tip.inactive", region=name))
        who = self._holders(h)
        lines.append(i18n.t("tip.held_by", names=", ".join(who)) if who else i18n.t("tip.free"))
        if site is not None and site.kind == "harbor":
            lines += self._sea_tip(site.sea)[1:]
        return lines

    def _sea_tip(self, sea) -> list[str]:
        st = self.state
        c = st.content
        if sea is None:
            return []
        board = st.board
        lines = [i18n.t("tip.sea", sea=c.sea_names.get(sea, sea))]
        harbors = sorted((x for x in c.sites.values() if x.kind == "harbor" and x.sea == sea), key=lambda x: x.name)
        parts = []
        for x in harbors:
            who = self._holders(x.hex)
            parts.append(f"{x.name} ({', '.join(who) if who else i18n.t('tip.harbor_free')})")
        if parts:
            lines.append(i18n.t("tip.harbors", harbors="; ".join(parts)))
        mask = board.sea_harbors.get(sea, 0)
        won = [self.session.seat_name(i) for i, s in enumerate(st.seats) if sea in s.leagues]
        close = [self.session.seat_name(i) for i, s in enumerate(st.seats)
                 if sea not in s.leagues and (s.held & mask).bit_count() == scoring.SEA_LEAGUE_HARBORS - 1]
        if won:
            lines.append(i18n.t("tip.sea_won", names=", ".join(won)))
        lines.append(i18n.t("tip.sea_close", names=", ".join(close)) if close else i18n.t("tip.sea_none_close"))
        return lines

    def _seat_tip(self, seat: int) -> list[str]:
        """A seat's score so far by category (public parts only: never its objective)."""
        st = self.state
        s = st.seats[seat]
        lines = [i18n.t("tip.seat_head", name=self.session.seat_name(seat), score=i18n.tn("n.points", s.score)),
                 i18n.t("tip.seat_parts", sites=s.site_points, leagues=s.league_points,
                        donations=s.donation_points)]
        if st.phase == "over":
            lines.append(f"{i18n.t('end.gonzaga')} {s.gonzaga_points} · {i18n.t('end.objective')} {s.objective_points}")
        else:
            lines.append(i18n.t("tip.seat_group", pieces=i18n.tn("n.pieces", scoring.largest_group(st, seat))))
            lines.append(i18n.t("tip.seat_secret"))
        return lines

    def _status_tip(self) -> list[str]:
        st = self.state
        head = self._status_text()
        return [head, i18n.t("tip.last_turn", sites=i18n.tn("n.sites", scoring.free_flourishing_sites(st))),
                i18n.t("tip.last_turn_rule")]

    def _card_tip(self, card: str) -> list[str]:
        """What a planning card allows, why it is greyed, and the best it could score now."""
        st = self.state
        seat = self.private_seat
        s = st.seats[seat]
        prev = self.previews()
        if card == "K":
            lines = [i18n.t("card.K"), i18n.t("tip.card_K")]
            if "K" in s.unavailable:
                lines.append(i18n.t("tip.card_greyed", why=i18n.t("plan.played_last")))
            elif s.rings < 1:
                lines.append(i18n.t("tip.card_greyed", why=i18n.t("plan.no_ring")))
            return lines
        if card in PLAN_ACTIONS:
            lines = [i18n.t(f"card.{card}"), i18n.t(f"card.{card}.long")]
            regions = [self.choice_region] if self.choice_region else [r for r in st.region_cards()
                                                                        if r not in s.unavailable]
            bests = [prev[(r, card)].best for r in regions if (r, card) in prev and prev[(r, card)].best is not None]
        else:
            name = i18n.card_name(st, card)
            lines = [name, i18n.t("tip.card_region", region=name)]
            if card != "inactive":
                lines.append(i18n.t("tip.flourishing" if card in st.flourishing else "tip.inactive", region=name))
            actions = [self.choice_action] if self.choice_action in PLAN_ACTIONS else [
                a for a in PLAN_ACTIONS if a not in s.unavailable]
            bests = [prev[(card, a)].best for a in actions if (card, a) in prev and prev[(card, a)].best is not None]
        if card in s.unavailable:
            lines.append(i18n.t("tip.card_greyed", why=i18n.t("plan.played_last")))
        lines.append(i18n.t("tip.card_best", points=max(bests)) if bests else i18n.t("tip.card_none"))
        return lines

    def _pair_tip(self, region: str, action: str) -> list[str]:
        st = self.state
        p = self.previews().get((region, action))
        head = (i18n.t("preview.map", region=i18n.card_name(st, region), action=i18n.card_name(st, action),
                       points=p.best) if p is not None and p.best is not None else
                i18n.t("preview.map_none", region=i18n.card_name(st, region), action=i18n.card_name(st, action)))
        lines = [head, i18n.t(f"card.{action}.long")]
        unavailable = st.seats[self.private_seat].unavailable
        if region in unavailable or action in unavailable:
            lines.append(i18n.t("tip.card_greyed", why=i18n.t("plan.played_last")))
        return lines

    def _log_hexes(self, idx: int) -> list:
        """The hexes of the placement or wedding a log line tells (none for other lines):
        the n-th place/wedding/donate line is the n-th such action of the record."""
        log_ = self.session.log
        if idx >= len(log_) or log_[idx].key not in ("log.place", "log.wedding", "log.donate"):
            return []
        n = sum(1 for e in log_[:idx] if e.key in ("log.place", "log.wedding", "log.donate"))
        acts = [a for a in self.session.record.actions if not isinstance(a, (Plan, Setup))]
        if n >= len(acts):
            return []
        a = acts[n]
        if isinstance(a, Place):
            return list(self.state.content.fiefs[a.fief].footprint(a.anchor, a.rotation)[0])
        if isinstance(a, Wedding):
            return list(a.rings)
        return []

    # ------------------------------------------------------------ the planning preview

    def previews(self) -> dict:
        """Best points and spots of every (region, action) this round for the private seat
        (computed once per round and seat)."""
        seat = self.private_seat
        if seat is None:
            return {}
        key = (self.state.round, seat)  # the board does not change while seats plan
        p = self._previews.get(key)
        if p is None:
            self._previews = {key: plan_previews(self.state, seat)}
            p = self._previews[key]
        return p

    def preview_pair(self):
        """The (region, action) the map previews: a hovered card, else the chosen one; with
        one of them missing, the best of the other kind. None without a region or action."""
        if self._mode() != "plan":
            return None
        region, action = self.choice_region, self.choice_action
        hovered = None
        for w in self.widgets.items:
            if w.hover and w.visible and getattr(w, "card", None) is not None:
                hovered = w.card
        for rect, r_, a_ in self._preview_cells:
            if rect.collidepoint(self._mouse):
                region, action = r_, a_
        if hovered in PLAN_ACTIONS:
            action = hovered
        elif hovered is not None and hovered != "K":
            region = hovered
        if action == "K":
            action = None
        if region is None and action is None:
            return None
        prev = self.previews()
        cands = [(r, a) for (r, a) in prev if (region is None or r == region) and (action is None or a == action)]
        if not cands:
            return None
        return max(cands, key=lambda k: (prev[k].best if prev[k].best is not None else -1))

    def _preview_box(self, size) -> pygame.Rect:
        """The corner of the map where the preview table covers the fewest hexes."""
        r = self.renderer
        key = (tuple(self.board_rect), size, r.view_state())
        if getattr(self, "_preview_box_key", None) == key:
            return self._preview_box_at.copy()
        b = self.board_rect.inflate(-20, -20)
        boxes = [pygame.Rect(b.topleft, size), pygame.Rect((b.right - size[0], b.y), size),
                 pygame.Rect((b.x, b.bottom - size[1]), size), pygame.Rect((b.right - size[0], b.bottom - size[1]), size)]
        centres = [r.hex_to_screen(h) for h in self.state.board.hexes]
        best = min(boxes, key=lambda bx: sum(1 for x, y in centres if bx.collidepoint(x, y)))
        self._preview_box_key, self._preview_box_at = key, best
        return best.copy()

    def preview_is_folded(self, height: int = 0) -> bool:
        """The table of best points (``height`` high) is folded to its title where it would hide
        more than 30% of the map's height (a small window), until the player opens it; a click on
        its title folds and opens it."""
        if self.preview_folded is not None:
            return self.preview_folded
        return height > 0.3 * self.board_rect.h

    def _click_preview(self, pos) -> bool:
        """A click on a cell of the preview table chooses that region and action; a click on its
        title folds or opens it."""
        if self._preview_head is not None and self._preview_head.collidepoint(pos):
            self.preview_folded = not self._preview_folded_now
            return True
        if self._preview_rect is None or not self._preview_rect.collidepoint(pos):
            return False
        unavailable = self.state.seats[self.private_seat].unavailable
        for rect, region, action in self._preview_cells:
            if rect.collidepoint(pos) and region not in unavailable and action not in unavailable:
                self.choice_region, self.choice_action = region, action
                self.layout(self.app.size)
                return True
        return True

    def _draw_preview(self, surf) -> None:
        """On the map: where this round's fief could go under the previewed plan (a light
        wash), its best spot (gold) and the points there; and a table of every pair."""
        self._preview_rect = None
        self._preview_head = None
        self._preview_cells = []
        if self._mode() != "plan":
            return
        st = self.state
        prev = self.previews()
        pair = self.preview_pair()
        r = self.renderer
        if pair is not None:
            p = prev[pair]
            r.draw_highlight(surf, p.cover, kind="cover")
            if p.best is not None:
                r.draw_highlight(surf, p.best_cells, kind="best")
                r.draw_label(surf, p.best_anchor, i18n.t("place.points", points=p.best))
        # the table: regions down, A B C across
        regions = list(st.region_cards())
        unavailable = st.seats[self.private_seat].unavailable
        sc = W.sc
        row_h, col_w = sc(24), sc(50)
        name_w = max(W.text(i18n.card_name(st, reg), "sans", 14).get_width() for reg in regions) + sc(12)
        title_w = W.text(i18n.t("preview.title"), "sans_bold", 15).get_width() + sc(22)  # and its arrow
        width = max(name_w + 3 * col_w, title_w) + sc(20)
        height = sc(34) + row_h * (len(regions) + 1)
        folded = self.preview_is_folded(height)
        full = self._preview_box((width, height))
        box = full if not folded else pygame.Rect(full.x, full.y if full.y <= self.board_rect.y + sc(20)
                                                  else full.bottom - sc(32), width, sc(32))
        W.panel(surf, box, W.PANEL, W.PANEL_EDGE, 8, 2, alpha=238)
        W.blit_text(surf, W.fit_text(i18n.t("preview.title"), "sans_bold", 15, box.w - sc(42)),
                    (box.x + sc(10), box.y + sc(7)), "sans_bold", 15, W.TEXT)
        self._preview_head = pygame.Rect(box.x, box.y, box.w, sc(30))
        self._preview_folded_now = folded
        ax, ay, a = box.right - sc(18), box.y + sc(16), sc(5)  # an arrow: open (down) or folded (right)
        tri = [(ax - a, ay - a // 2), (ax + a, ay - a // 2), (ax, ay + a)] if not folded else \
            [(ax - a // 2, ay - a), (ax - a // 2, ay + a), (ax + a, ay)]
        pygame.draw.polygon(surf, W.TEXT, tri)
        if folded:
            self._preview_rect = box
            return
        y = box.y + sc(32)
        for j, a in enumerate(PLAN_ACTIONS):
            W.blit_text(surf, a, (box.x + sc(10) + name_w + j * col_w + col_w // 2, y), "sans_bold", 14,
                        W.TEXT_SOFT if a in unavailable else W.TEXT, "midtop")
        y += row_h
        for reg in regions:
            gone_r = reg in unavailable
            W.blit_text(surf, W.fit_text(i18n.card_name(st, reg), "sans", 14, name_w - 6), (box.x + sc(10), y + sc(2)),
                        "sans", 14, (150, 140, 128) if gone_r else W.TEXT)
            for j, a in enumerate(PLAN_ACTIONS):
                cell = pygame.Rect(box.x + sc(10) + name_w + j * col_w + 2, y, col_w - 4, row_h - 3)
                pv = prev[(reg, a)]
                gone = gone_r or a in unavailable
                if pair == (reg, a):
                    pygame.draw.rect(surf, (230, 196, 120), cell, 0, 4)
                if (reg, a) == (self.choice_region, self.choice_action):
                    pygame.draw.rect(surf, (110, 76, 20), cell, 2, 4)
                txt = i18n.t("preview.none") if pv.best is None else i18n.t("place.points", points=pv.best)
                W.blit_text(surf, txt, cell.center, "sans_bold" if not gone and pv.best else "sans", 14,
                            (150, 140, 128) if gone or pv.best is None else W.TEXT, "center")
                self._preview_cells.append((cell, reg, a))
            y += row_h
        self._preview_rect = box

    # ------------------------------------------------------------ drawing

    def _pieces(self):
        if self._pieces_version != self.session.version:
            self._pieces_version = self.session.version
            st = self.state
            self._fiefs = [(st.seats[p.seat].colour, p.cells, p.castles) for p in st.pieces if p.kind == "fief"]
            self._rings = {p.cells[0]: st.seats[p.seat].colour for p in st.pieces if p.kind == "ring"}
        return self._fiefs, self._rings

    def draw_info(self) -> dict:
        """What the screen shows now, as data (tests assert on it; nothing secret unless private)."""
        st = self.state
        info = {"mode": self._mode(), "private_seat": self.private_seat, "hand": None, "objective": None,
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
        highlights, faint, ghost, objective = (), (), None, ()
        mode = self._mode()
        if mode == "place":
            highlights, faint = self.place.highlights()
            if self.place.mode == "fief" and self.place.anchor is not None:
                cells, castles = self.place.footprint()
                fb = self.place.feedback()
                ghost = (cells, castles, bool(fb and fb.ok))
        if mode == "plan":
            objective = st.content.objective_cities(st.seats[self.private_seat].objective)
        if mode == "over" and self.end_selected is not None:
            oid = st.seats[self.end_selected].objective
            objective = st.content.objective_cities(oid) if oid else ()
        r = self.renderer
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
        self._draw_preview(surf)
        if self._lit:
            r.draw_highlight(surf, self._lit, kind="best")
        if ghost is not None:
            r.draw_ghost(surf, *ghost, anchor=self.place.anchor)
        if mode == "place" and self.place.mode == "wedding":
            self._draw_wedding(surf)
        self._draw_ai_move(surf)
        self.assist.draw_map(surf)
        if mode == "place":
            self._draw_ghost_label(surf)
        surf.set_clip(clip)
        self._draw_top(surf)
        self._draw_panel_cached(surf)
        self._draw_bottom(surf)
        self.feedback.draw(surf)
        self.widgets.draw(surf)
        self.assist.draw(surf)
        if self.online is not None:
            self.online.draw(surf)
        self.tooltip.draw(surf)

    def _draw_panel_cached(self, surf) -> None:
        """The seats panel and the log change only with the game, the scroll, the scores
        counting up or the log line under the pointer: drawn once, then blitted (a tall
        log is a hundred text blits)."""
        st = self.state
        hovered = None
        if self.app.stack.top is self:
            hovered = next((i for rc, i in self._log_rects if rc.collidepoint(self._mouse)), None)
        key = (self.session.version, getattr(self.session, "presence", None), self.log_scroll,
               tuple(self.panel_rect), hovered, i18n.language(),
               self.app.stack.top is self, theme.text_scale(), surf.get_size(), self.end_selected,
               tuple(self.feedback.score(i, s.score) for i, s in enumerate(st.seats)))
        cached = getattr(self, "_panel_cache", None)
        area = self.panel_rect.clip(surf.get_rect())
        if cached is not None and cached[0] == key and cached[1].get_size() == area.size:
            surf.blit(cached[1], area.topleft)
            return
        self._draw_panel(surf)
        self._panel_cache = (key, surf.subsurface(area).copy())

    def _draw_wedding(self, surf) -> None:
        pc = self.place
        r = self.renderer
        chosen = {h: self.state.seats[pc.seat].colour for h in pc.rings}
        if chosen:
            r.draw_ghost(surf, list(chosen), [], True)
            r.draw_rings(surf, chosen, [])
        if pc.cursor is not None and pc.cursor not in pc.rings:
            r.draw_ghost(surf, [pc.cursor], [], pc.ring_problem(pc.cursor) is None)

    def _draw_ai_move(self, surf) -> None:
        a = self.session.ai_showing
        if a is None:
            return
        st = self.state
        colour = st.seats[a.seat].colour
        r = self.renderer
        t = self.session.ai_showing_progress()
        if isinstance(a, Place):
            cells, castles = st.content.fiefs[a.fief].footprint(a.anchor, a.rotation)
            if int(t * 6) % 2 == 0:
                r.draw_highlight(surf, cells, strong=True)
            r.draw_fiefs(surf, [(colour, cells, castles)])
            center = r.hex_to_screen(cells[0])
        elif isinstance(a, Wedding):
            r.draw_highlight(surf, a.rings, strong=True)
            r.draw_rings(surf, {h: colour for h in a.rings}, [])
            center = r.hex_to_screen(a.rings[0])
        else:
            return
        label = W.text(self.session.seat_name(a.seat), "sans_bold", 17, W.TEXT_LIGHT)
        box = label.get_rect(midbottom=(int(center[0]), int(center[1] - r.size * 1.3))).inflate(16, 8)
        W.panel(surf, box, theme.seat_dark(colour), theme.seat_color(colour), 8, 2)
        surf.blit(label, label.get_rect(center=box.center))

    def _draw_ghost_label(self, surf) -> None:
        pc = self.place
        fb = pc.feedback()
        if fb is None or not fb.text:
            return
        at = pc.anchor if pc.mode == "fief" else (pc.cursor or (pc.rings[-1] if pc.rings else None))
        if at is None:
            return
        x, y = self.renderer.hex_to_screen(at)
        color = (255, 255, 255)
        bg = (30, 110, 50) if fb.ok else (150, 30, 24)
        img = W.text(fb.text, "sans_bold" if fb.ok else "sans_semibold", 18 if fb.ok else 16, color)
        mark = mark_icon(fb.ok, img.get_height())  # a check or a cross: not the colour alone
        box = pygame.Rect(0, 0, img.get_width() + mark.get_width() + 6, img.get_height())
        box.midbottom = (int(x), int(y - self.renderer.size * 2.0))
        box = box.inflate(18, 10)
        box.clamp_ip(self.board_rect)
        W.panel(surf, box, bg, (255, 255, 255), 8, 2, alpha=235)
        surf.blit(mark, (box.x + 9, box.centery - mark.get_height() // 2))
        surf.blit(img, (box.x + 9 + mark.get_width() + 6, box.centery - img.get_height() // 2))

    def _status_text(self) -> str:
        """The Last Turn card: not yet, the last check (after every round from round 6 on: how
        many sites in flourishing regions are still free), fired, or the last round."""
        st = self.state
        if st.last_round is None:
            check = next((e for e in reversed(self.session.log) if e.key == "log.last_turn_check"), None)
            if check is not None:
                return i18n.t("game.last_turn_check", **check.params)
            return i18n.t("game.last_turn_not_fired")
        return i18n.t("game.last_round") if st.round == st.last_round else \
            i18n.t("game.last_turn_fired", round=st.last_round)

    def _draw_top(self, surf) -> None:
        st = self.state
        sc = W.sc
        w = surf.get_width()
        top_h = sc(TOP_H)
        mid = top_h // 2
        bar = pygame.Rect(0, 0, w, top_h)
        pygame.draw.rect(surf, (58, 44, 34), bar)
        pygame.draw.line(surf, (150, 120, 80), (0, top_h - 1), (w, top_h - 1), 2)
        r = W.blit_text(surf, i18n.t("game.round", round=st.round), (sc(16), mid), "title", 30, W.TEXT_LIGHT,
                        "midleft")
        x = r.right + sc(20)
        # two lines: the Last Turn card (or the end), then the scenario and its flourishing regions
        if st.phase == "over":
            status, role, colour = i18n.t("end.heading"), "sans_bold", (255, 200, 90)
        elif st.last_round is not None:
            status, role, colour = self._status_text(), "sans_bold", (255, 200, 90)
        else:
            status, role, colour = self._status_text(), "sans", (220, 205, 180)
        r1 = W.blit_text(surf, status, (x, mid + sc(1)), role, 15, colour, "bottomleft")
        self._status_rect = r1.inflate(8, 6) if st.phase != "over" else None
        flour = ", ".join(rr.name for rr in st.content.board.regions if rr.id in st.flourishing)
        r2 = W.blit_text(surf, i18n.t("game.scenario_line", name=st.scenario, regions=flour), (x, mid + sc(1)),
                         "sans", 14, (220, 205, 180), "topleft")
        right_limit = w - sc(310 if self.solo_objective_allowed() else 150)
        # who is to act: right-aligned, on one or two lines (a count when the names do not fit)
        s = self.session
        short = None
        if st.phase == "plan":
            names = [s.seat_name(i) for i in st.to_act()]
            msg = i18n.t("game.planning_wait", names=", ".join(names))
            short = i18n.t("game.planning_wait_n", plans=i18n.tn("n.plans", len(names)))
        elif st.phase == "place":
            msg = i18n.t("game.to_act", name=s.seat_name(st.to_act()[0]))
        else:
            msg = s.result_text()
        room = right_limit - sc(10) - max(r1.right, r2.right) - sc(24)
        fit = W.fit_lines(msg, "sans_bold", 17, room, top_h - sc(4))
        if fit is None and short is not None:
            fit = W.fit_lines(short, "sans_bold", 17, room, top_h - sc(4))
        lines, px = fit or ([W.fit_text(msg, "sans_bold", 17, max(sc(40), room))], 17)
        lh = theme.font("sans_bold", px).get_linesize()
        y = mid - lh * len(lines) // 2
        for line in lines:
            W.blit_text(surf, line, (right_limit - sc(10), y), "sans_bold", px, (255, 236, 190), "topright")
            y += lh

    def _draw_panel(self, surf) -> None:
        st = self.state
        p = self.panel_rect
        pygame.draw.rect(surf, (232, 220, 192), p)
        pygame.draw.line(surf, W.PANEL_EDGE, p.topleft, p.bottomleft, 2)
        sc = W.sc
        y = p.y + sc(10)
        to_act = set(st.to_act())
        self._seat_rects = []
        self._log_rects = []
        # the seats, the turn order and the log share the panel: when they cannot all be shown (a
        # low window, four seats), last round's cards are left out while the fiefs are placed
        self._seat_chips = True
        if st.phase == "place":
            natural = sum(self._seat_box_height(i, seat, i in to_act) + sc(8) for i, seat in enumerate(st.seats))
            self._seat_chips = y + natural + self._order_height() + sc(80) <= p.bottom
        for i, seat in enumerate(st.seats):
            acting = i in to_act and st.phase != "over"
            box = pygame.Rect(p.x + sc(10), y, p.w - sc(20), self._seat_box_height(i, seat, acting))
            self._seat_rects.append((box, i))
            W.panel(surf, box, (248, 240, 222) if not acting else (255, 246, 214),
                    W.GOLD if acting else W.PANEL_EDGE, 10, 3 if acting else 1)
            self._draw_seat_stripe(surf, pygame.Rect(box.x, box.y, sc(14), box.h), seat.colour)
            self._draw_seat(surf, box, i, seat, acting)
            y = box.bottom + sc(8)
        # turn order (after the reveal)
        if st.phase == "place":
            W.blit_text(surf, i18n.t("game.order"), (p.x + sc(14), y + sc(2)), "sans_bold", 16, W.TEXT)
            y += sc(24)
            for n, (txt, col) in enumerate(self._order_lines()):
                img = W.text(txt, "sans", 15, col, wrap=p.w - sc(30))
                if n == st.turn:
                    pygame.draw.rect(surf, (255, 236, 170), (p.x + sc(10), y - 1, p.w - sc(20), img.get_height() + 1),
                                     0, 4)
                W.blit_text(surf, txt, (p.x + sc(16), y), "sans", 15, col, wrap=p.w - sc(30))
                y += img.get_height()
            y += sc(6)
        # the log (when at least two of its lines fit; at the end the score chart may take its place)
        if p.bottom - y < sc(26 + 10 + 48) or (st.phase == "over" and self.feedback.chart_in_panel()):
            return
        W.blit_text(surf, i18n.t("game.log"), (p.x + sc(14), y + sc(2)), "sans_bold", 16, W.TEXT)
        y += sc(26)
        area = pygame.Rect(p.x + sc(10), y, p.w - sc(20), p.bottom - y - sc(10))
        pygame.draw.rect(surf, (246, 238, 218), area, 0, 6)
        lines = self.session.log
        clip = surf.get_clip()
        surf.set_clip(area.inflate(-4, -4))
        yy = area.bottom - sc(6)
        start = max(0, len(lines) - 1 - self.log_scroll)
        n = start
        for e in reversed(lines[: start + 1]):
            img = W.text(e.text(), "sans", 14, W.TEXT, wrap=area.w - sc(16))
            yy -= img.get_height() + sc(3)
            line_rect = pygame.Rect(area.x + 4, yy - 1, area.w - 8, img.get_height() + 2)
            if e.key in ("log.place", "log.wedding") and line_rect.collidepoint(self._mouse) \
                    and self.app.stack.top is self:
                pygame.draw.rect(surf, (255, 236, 170), line_rect, 0, 4)
            surf.blit(img, (area.x + sc(8), yy))
            self._log_rects.append((line_rect.clip(area), n))
            n -= 1
            if yy < area.y:
                break
        surf.set_clip(clip)

    def _seat_lines(self, i: int, seat, acting: bool, width: int) -> dict:
        """What a seat's panel says, laid out for ``width`` pixels: the kind (human, AI) and its
        status, the rings/deck/fief line (broken between its parts), last round's cards as chips
        (on as many rows as they need) and the sea leagues (wrapped)."""
        st = self.state
        spec = self.session.seats[i]
        kind = i18n.t("game.ai_level", level=i18n.t(f"level.{spec.bot}")) if spec.is_ai else i18n.t("game.human")
        status = ""
        if st.phase == "plan":
            status = i18n.t("game.planned") if seat.plan is not None else i18n.t("game.not_planned")
        elif st.phase == "place" and acting:
            status = i18n.t("game.acting")
        away = getattr(self.session, "seat_away", None)  # an online game: a friend's computer has left
        if away is not None and st.phase != "over" and away(i):
            status = i18n.t("online.away")
        parts = [i18n.t("game.rings", n=seat.rings), i18n.t("game.deck", n=len(seat.deck))]
        if seat.fief is not None:
            parts.append(f"{i18n.t('game.fief', fief=seat.fief)} ({i18n.t('game.card', card=seat.card)})")
        info = [""]
        for part in parts:  # "Rings 4 · Deck 4 · Fief 70 (card 74)", broken only between its parts
            joined = f"{info[-1]}  ·  {part}" if info[-1] else part
            if not info[-1] or W.text(joined, "sans", 15).get_width() <= width:
                info[-1] = joined
            else:
                info.append(part)
        order = {c: n for n, c in enumerate(list(st.region_cards()) + ["A", "B", "C", "K"])}
        chips = [i18n.card_name(st, c) for c in sorted(seat.unavailable, key=lambda c: order.get(c, 99))]
        leagues = [_short_sea(st.content.sea_names.get(x2, x2)) for x2 in sorted(seat.leagues)]
        ltxt = i18n.t("game.leagues", seas=", ".join(leagues)) if leagues else i18n.t("game.no_leagues")
        return {"kind": kind, "status": status, "info": info, "chips": chips, "leagues": ltxt}

    def _chip_rows(self, chips: list, x0: int, width: int) -> list:
        """Last round's cards as chips after "Last:": [(x, row, name, chip width)], flowing on rows."""
        sc = W.sc
        cx = x0 + W.text(i18n.t("game.last_played", cards=""), "sans", 14).get_width() + sc(4)
        out, row = [], 0
        for name in chips:
            cw = W.text(name, "sans_semibold", 13).get_width() + sc(10)
            if cx + cw > x0 + width and cx > x0 + sc(40):
                row += 1
                cx = x0 + sc(10)
            out.append((cx, row, name, cw))
            cx += cw + sc(4)
        return out

    def _order_lines(self) -> list:
        """The turn order's lines (after the reveal): (text, colour)."""
        st = self.state
        out = []
        for n, i in enumerate(st.order):
            plan = st.seats[i].plan
            txt = f"{n + 1}. {self.session.seat_name(i)}: {i18n.card_name(st, plan.region)}, " \
                  f"{i18n.card_name(st, plan.action)}"
            if plan.king:
                txt += " + " + i18n.t("card.K")
            out.append((txt, W.TEXT if n >= st.turn else (150, 140, 126)))
        return out

    def _order_height(self) -> int:
        sc = W.sc
        width = self.panel_rect.w - sc(30)
        return sc(24 + 6) + sum(W.text(t, "sans", 15, c, wrap=width).get_height() for t, c in self._order_lines())

    def _seat_box_height(self, i: int, seat, acting: bool) -> int:
        sc = W.sc
        width = self.panel_rect.w - sc(20) - sc(24) - sc(10)
        ln = self._seat_lines(i, seat, acting, width)
        rows = 1 + max([r for _x, r, _n, _w in self._chip_rows(ln["chips"], 0, width)], default=0)
        if not getattr(self, "_seat_chips", True):
            rows = 0
        leagues_h = W.text(ln["leagues"], "sans", 14, W.TEXT_SOFT, wrap=width).get_height()
        return sc(50) + len(ln["info"]) * sc(22) + rows * sc(23) + leagues_h + sc(6)

    def _draw_seat(self, surf, box: pygame.Rect, i: int, seat, acting: bool) -> None:
        """A seat's panel: name, kind and status, score, rings/deck/fief, last round's cards, leagues."""
        sc = W.sc
        st = self.state
        x = box.x + sc(24)
        width = box.right - sc(10) - x
        ln = self._seat_lines(i, seat, acting, width)
        score = W.blit_text(surf, str(self.feedback.score(i, seat.score)), (box.right - sc(14), box.y + sc(6)),
                            "sans_bold", 30, W.TEXT, "topright")
        name_w = score.x - sc(10) - x
        name = self.session.seats[i].name
        fit = W.fit_lines(name, "sans_bold", 19, name_w, sc(27), max_lines=1)
        lines, px = fit or ([W.fit_text(name, "sans_bold", 19, name_w)], 19)
        W.blit_text(surf, lines[0], (x, box.y + sc(6)), "sans_bold", px, W.TEXT)
        k = W.blit_text(surf, ln["kind"], (x, box.y + sc(31)), "sans", 14, W.TEXT_SOFT)
        if ln["status"]:
            W.blit_text(surf, ln["status"], (k.right + sc(10), box.y + sc(31)), "sans_semibold", 14,
                        W.OK if seat.plan is not None and st.phase == "plan" else (150, 90, 20))
        y = box.y + sc(50)
        for line in ln["info"]:
            W.blit_text(surf, line, (x, y), "sans", 15, W.TEXT)
            y += sc(22)
        if not getattr(self, "_seat_chips", True):  # (no room for last round's cards: see _draw_panel)
            W.blit_text(surf, ln["leagues"], (x, y), "sans", 14, W.TEXT_SOFT, wrap=width)
            return
        # last round's cards (unavailable now)
        W.blit_text(surf, i18n.t("game.last_played", cards=""), (x, y + sc(1)), "sans", 14, W.TEXT_SOFT)
        chips = self._chip_rows(ln["chips"], x, width)
        if not chips:
            cx = x + W.text(i18n.t("game.last_played", cards=""), "sans", 14).get_width() + sc(4)
            W.blit_text(surf, i18n.t("game.none"), (cx, y + sc(1)), "sans", 14, W.TEXT_SOFT)
        for cx, row, name, cw in chips:
            chip = pygame.Rect(cx, y + row * sc(23), cw, sc(20))
            pygame.draw.rect(surf, (214, 206, 192), chip, 0, 5)
            pygame.draw.rect(surf, (160, 150, 136), chip, 1, 5)
            W.blit_text(surf, name, chip.center, "sans_semibold", 13, (90, 80, 70), "center")
        y += (1 + max([r for _x, r, _n, _w in chips], default=0)) * sc(23)
        W.blit_text(surf, ln["leagues"], (x, y), "sans", 14, W.TEXT_SOFT, wrap=width)

    def _draw_seat_stripe(self, surf, rect: pygame.Rect, colour: str) -> None:
        """The seat's colour band on its panel, with its pattern and its crest (a shape)."""
        key = ("stripe", colour, rect.size)
        cache = getattr(self, "_icon_cache", None)
        if cache is None:
            cache = self._icon_cache = {}
        img = cache.get(key)
        if img is None:
            img = pygame.Surface(rect.size, pygame.SRCALPHA)
            pygame.draw.rect(img, theme.seat_color(colour), img.get_rect(), 0, 8)
            pat = pygame.Surface(rect.size, pygame.SRCALPHA)
            pieces.draw_pattern(pat, theme.seat_pattern(colour), theme.seat_mark(colour), 9, alpha=200)
            mask = pygame.Surface(rect.size, pygame.SRCALPHA)
            pygame.draw.rect(mask, (255, 255, 255, 255), mask.get_rect(), 0, 8)
            pat.blit(mask, (0, 0), special_flags=pygame.BLEND_RGBA_MULT)
            img.blit(pat, (0, 0))
            cache[key] = img
        surf.blit(img, rect.topleft)
        c = pieces.crest(colour, W.sc(24))
        surf.blit(c, c.get_rect(center=(rect.centerx + 1, rect.y + W.sc(18))))

    def _draw_bottom(self, surf) -> None:
        b = self.bottom_rect
        pygame.draw.rect(surf, (226, 212, 180), b)
        pygame.draw.line(surf, W.PANEL_EDGE, b.topleft, b.topright, 2)
        mode = self._mode()
        st = self.state
        s = self.session
        sc = W.sc
        self.refusal_rect = None
        if mode == "plan":
            seat = self.private_seat
            ss = st.seats[seat]
            x, iw = b.x + sc(20), self.info_w - sc(30)
            r = W.blit_text(surf, i18n.t("plan.heading", name=s.seat_name(seat)), (x, b.y + sc(10)), "sans_bold", 19,
                            W.TEXT, wrap=iw)
            r = W.blit_text(surf, i18n.t("plan.fief", fief=ss.fief, card=ss.card), (x, r.bottom + sc(4)), "sans", 16,
                            W.TEXT, wrap=iw)
            obj = st.content.objective(ss.objective)
            held = scoring.objective_cities_held(st, seat)
            otxt = i18n.t("plan.objective", west=i18n.t(f"symbol.{obj.western}"), east=i18n.t(f"symbol.{obj.eastern}"))
            oh = W.text(otxt, "sans_semibold", 15, (120, 30, 120), wrap=iw).get_height()
            W.blit_text(surf, otxt, (x, b.bottom - sc(8) - oh), "sans_semibold", 15, (120, 30, 120), wrap=iw)
            top, bottom = r.bottom + sc(4), b.bottom - sc(12) - oh  # the fief between the lines above and below
            icon = pygame.Rect(x, top, sc(120) if self.info_w >= sc(300) else min(sc(100), iw), bottom - top)
            if icon.h >= sc(24):
                self._draw_fief_icon(surf, icon, ss.colour, ss.fief, 0)
            if self.info_w >= sc(300):
                W.blit_text(surf, i18n.t("plan.objective_cities", held=held), (x + sc(130), icon.centery), "sans", 14,
                            W.TEXT_SOFT, "midleft", wrap=iw - sc(130))
            W.blit_text(surf, i18n.t("plan.region"), (b.x + self.info_w, b.y + sc(9)), "sans_semibold", 15,
                        W.TEXT_SOFT)
            W.blit_text(surf, i18n.t("plan.action"), (b.x + self.info_w, b.y + sc(89)), "sans_semibold", 15,
                        W.TEXT_SOFT)
            if self.message:
                W.blit_text(surf, self.message, (b.right - sc(20), b.bottom - sc(12)), "sans", 15, W.BAD,
                            "bottomright", wrap=b.right - sc(40) - b.x - self.info_w, align="right")
        elif mode == "place":
            pc = self.place
            plan = pc.plan
            W.blit_text(surf, self._place_heading(), (b.x + sc(20), b.y + sc(10)), "sans_bold", 19, W.TEXT,
                        wrap=self._place_heading_width())
            tray = self.tray_rect()
            fx = tray.right + sc(20)
            fw = b.right - sc(20) - fx
            buttons_top = b.bottom - sc(66)
            W.panel(surf, tray, (246, 238, 218), W.GOLD if pc.anchor is None else W.PANEL_EDGE, 10, 2)
            if pc.mode == "fief":
                dh = W.text(i18n.t("place.drag"), "sans", 13, wrap=tray.w - sc(12)).get_height()
                self._draw_fief_icon(surf, pygame.Rect(tray.x + sc(10), tray.y + sc(8), tray.w - sc(20),
                                                       tray.h - dh - sc(16)),
                                     st.seats[pc.seat].colour, pc.fief, pc.rotation,
                                     faded=pc.anchor is not None or pc.dragging or self.donate_pending)
                W.blit_text(surf, i18n.t("place.drag"), (tray.centerx, tray.bottom - sc(6)), "sans", 13, W.TEXT_SOFT,
                            "midbottom", wrap=tray.w - sc(12), align="center")
            else:
                r = W.blit_text(surf, i18n.tn("place.rings_left", st.seats[pc.seat].rings),
                                (tray.centerx, tray.y + sc(10)), "sans_semibold", 15, W.TEXT, "midtop",
                                wrap=tray.w - sc(12), align="center")
                W.blit_text(surf, i18n.t("place.wedding_help", region=i18n.card_name(st, plan.region)),
                            (tray.x + sc(10), r.bottom + sc(6)), "sans", 13, W.TEXT_SOFT, wrap=tray.w - sc(20))
            y = tray.y
            if self.donate_pending:  # "Donate?" with Confirm and Cancel (Enter / Esc)
                r = W.blit_text(surf, i18n.t("place.donate_ask", fief=pc.fief), (fx, y), "sans_semibold", 17,
                                W.BAD, wrap=fw)
                W.blit_text(surf, i18n.t("place.donate_keys"), (fx, r.bottom + sc(6)), "sans", 14, W.TEXT_SOFT,
                            wrap=fw)
                return
            r = W.blit_text(surf, i18n.t(f"card.{plan.action}.long"), (fx, y), "sans_italic", 16, W.TEXT_SOFT,
                            wrap=fw)
            y = r.bottom + sc(4)
            fb = pc.feedback()
            why_w = 0  # room beside a refusal for its "why?" link (scenes/assist.py)
            if refusal_rule(self):
                why_w = W.text(i18n.t("ref.why"), "sans_bold", 16).get_width() + sc(16)
            if not pc.has_legal_spot and pc.mode == "fief":
                txt = i18n.t("place.no_spot") if pc.can_wed else i18n.t("place.no_spot_plain")
                r = W.blit_text(surf, txt, (fx, y), "sans_semibold", 17, W.BAD, wrap=fw)
            elif fb is not None:
                r = W.blit_text(surf, fb.text, (fx, y), "sans_bold", 18, W.OK if fb.ok else W.BAD,
                                wrap=fw - (0 if fb.ok else why_w))
                self.refusal_rect = r if not fb.ok else None
            elif self.message:
                r = W.blit_text(surf, self.message, (fx, y), "sans", 16, W.BAD, wrap=fw - why_w)
                self.refusal_rect = r
            else:
                r = pygame.Rect(fx, y, 0, 0)
            y = r.bottom + sc(6)
            for key in ("game.help_keys", "view.keys"):  # the keys, where the buttons leave room
                img = W.text(i18n.t(key), "sans", 13, W.TEXT_SOFT, wrap=fw)
                if y + img.get_height() > buttons_top - sc(4):
                    break
                r = W.blit_text(surf, i18n.t(key), (fx, y), "sans", 13, W.TEXT_SOFT, wrap=fw)
                y = r.bottom + sc(2)
        elif mode == "over":
            self._draw_end(surf)
        else:
            a = s.ai_showing
            if self.online is not None:
                msg = self.online.watch_text()
            elif st.phase == "plan":
                msg = i18n.t("game.waiting_ai")
            elif a is not None:
                key = "place.ai_places" if isinstance(a, Place) else "game.weds" if isinstance(a, Wedding) \
                    else "game.donates"
                msg = i18n.t(key, name=s.seat_name(a.seat))
            elif st.phase == "place":
                seat = st.to_act()[0]
                msg = i18n.t("game.your_turn" if s.is_human(seat) else "game.thinking", name=s.seat_name(seat))
            else:
                msg = ""
            W.blit_text(surf, msg, b.center, "sans_semibold", 22, W.TEXT, "center", wrap=b.w - sc(80), align="center")

    def _draw_fief_icon(self, surf, box: pygame.Rect, colour: str, fief: int, rotation: int, faded=False) -> None:
        from ..render import pieces
        f = self.state.content.fiefs[fief]
        cells, castles = f.rotated(rotation)
        from ..rules import hexgrid
        xs = [hexgrid.to_pixel(c)[0] for c in cells]
        ys = [hexgrid.to_pixel(c)[1] for c in cells]
        span_w = max(xs) - min(xs) + 2
        span_h = max(ys) - min(ys) + 2.2
        px = max(8.0, min(box.w / span_w, box.h / span_h, 30.0))
        key = (colour, fief, rotation, round(px, 1), faded)
        cache = getattr(self, "_icon_cache", None)
        if cache is None:
            cache = self._icon_cache = {}
        spr = cache.get(key)
        if spr is None:
            spr = pieces.fief_sprite(cells, castles, px, theme.seat_color(colour), theme.seat_dark(colour),
                                     theme.seat_light(colour), alpha=110 if faded else 240,
                                     pattern=theme.seat_pattern(colour), pattern_color=theme.seat_mark(colour))
            cache[key] = spr
        img, (ox, oy) = spr
        cx = (min(xs) + max(xs)) / 2 * px
        cy = (min(ys) + max(ys)) / 2 * px
        surf.blit(img, (int(box.centerx - cx + ox), int(box.centery - cy + oy)))
        # the anchor cell (0, 0): the hex the bright map hexes refer to
        ax, ay = int(box.centerx - cx), int(box.centery - cy)
        if (0, 0) in castles:  # below the castle
            ay += int(px * 0.55)
        if True:
            pygame.draw.circle(surf, (255, 255, 255), (ax, ay), max(3, int(px * 0.28)))
            pygame.draw.circle(surf, theme.INK, (ax, ay), max(3, int(px * 0.28)), 2)

    def _draw_end(self, surf) -> None:
        st = self.state
        s = self.session
        b = self.bottom_rect
        sc = W.sc
        r = W.blit_text(surf, i18n.t("end.heading"), (b.x + sc(20), b.y + sc(8)), "title", 32, W.TEXT)
        res = s.result_text()
        if st.tiebreak:
            res += "  " + i18n.t("end.tiebreak", how=i18n.tiebreak(st.tiebreak))
        rx = max(r.right + sc(30), b.x + sc(290))
        rr = W.blit_text(surf, res, (rx, b.y + sc(18)), "sans_bold", 20, (130, 30, 20), wrap=b.right - sc(70) - rx)
        cols = ["end.seat", "end.sites", "end.leagues", "end.donations", "end.gonzaga", "end.objective", "end.total"]
        keys = [None, "sites", "leagues", "donations", "gonzaga", "objective", "total"]
        x0 = b.x + sc(20)
        widths = [sc(230)] + [(b.w - sc(40 + 230)) // 6] * 6
        y = max(b.y + sc(58), rr.bottom + sc(8))
        x = x0
        head_h = 0
        for c, wdt in zip(cols, widths):  # right-aligned headings, on two lines when a column is narrow
            if c == "end.seat":
                hr = W.blit_text(surf, i18n.t(c), (x, y), "sans_bold", 15, W.TEXT_SOFT)
            else:
                hr = W.blit_text(surf, i18n.t(c), (x + wdt - sc(10), y), "sans_bold", 15, W.TEXT_SOFT, "topright",
                                 wrap=wdt - sc(14), align="right")
            head_h = max(head_h, hr.bottom - y)
            x += wdt
        y += head_h + sc(6)
        self._end_rows = []
        for row in self.feedback.end_rows(s.score_rows()):
            rect = pygame.Rect(x0 - sc(6), y - sc(2), b.w - sc(28), sc(30))
            if row["seat"] == self.end_selected:
                pygame.draw.rect(surf, (250, 236, 196), rect, 0, 6)
                pygame.draw.rect(surf, (150, 40, 150), rect, 2, 6)
            self._end_rows.append((row["seat"], rect))
            x = x0
            crest = pieces.crest(row["colour"], sc(20))  # the family's crest: its colour and a shape
            surf.blit(crest, (x - sc(2), y + sc(2)))
            name = row["name"] + (f"  ({i18n.t('end.winner_mark')})" if row["winner"] else "")
            W.blit_text(surf, W.fit_text(name, "sans_bold", 17, widths[0] - sc(30)), (x + sc(24), y + sc(2)),
                        "sans_bold", 17, W.TEXT)
            x += widths[0]
            for k, wdt in zip(keys[1:], widths[1:]):
                val = row[k]
                txt = str(val)
                if k == "objective":
                    txt = f"{val} ({row['objective_held']}/6)"
                W.blit_text(surf, txt, (x + wdt - sc(10), y + sc(2)), "sans_bold" if k == "total" else "sans", 17,
                            W.TEXT, "topright")
                x += wdt
            y += sc(32)
        # under the table, left of the buttons: the chosen seat's objective, and how to choose one
        tw = b.right - sc(440) - x0
        ch = W.text(i18n.t("end.click_row"), "sans", 14, W.TEXT_SOFT, wrap=tw).get_height()
        yb = b.bottom - sc(10) - ch
        W.blit_text(surf, i18n.t("end.click_row"), (x0, yb), "sans", 14, W.TEXT_SOFT, wrap=tw)
        if self.end_selected is not None:
            seat = st.seats[self.end_selected]
            obj = st.content.objective(seat.objective)
            txt = i18n.t("end.objective_of", name=s.seat_name(self.end_selected), west=i18n.t(f"symbol.{obj.western}"),
                         east=i18n.t(f"symbol.{obj.eastern}"),
                         held=scoring.objective_cities_held(st, self.end_selected))
            oh = W.text(txt, "sans_semibold", 15, (120, 30, 120), wrap=tw).get_height()
            W.blit_text(surf, txt, (x0, yb - sc(4) - oh), "sans_semibold", 15, (120, 30, 120), wrap=tw)
