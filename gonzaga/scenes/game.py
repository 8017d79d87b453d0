"""The game screen: the map, the seats panel, the log, and the bottom bar that holds a
human's hand (planning), the placement controls, the AI's move, or the end-of-game table.

Everything the screen does to the game goes through ``self.session.submit``; drawing
reads the session and this screen's interface state only. What is secret (a hand, a
plan, an objective) is drawn only while ``private_seat`` is set, which happens only after
the privacy curtain was passed (or, with a single human seat, without a curtain unless
the setting asks for it).
"""
from __future__ import annotations

import logging
from typing import Optional

import pygame

from ..render import theme
from ..render.board_view import BoardRenderer
from ..rules import ACTION_CARDS, Place, Plan, Wedding, plan_problem
from ..rules import scoring
from ..ui import i18n
from ..ui import widgets as W
from ..ui.widgets import Button
from .base import Scene
from .placement import PlacementController

log = logging.getLogger(__name__)

TOP_H = 54
PANEL_W = 390  # at 1600 px and wider; narrower windows get a narrower panel (see layout)
BOTTOM_H = 200
END_H = 330


def board_texts() -> dict[str, str]:
    """The words the board renderer shows (legend, symbols), in the interface language."""
    return {k: i18n.t(k) for k in BoardRenderer.TEXT_KEYS}


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
        self._pieces_version = -1
        self._fiefs = []
        self._rings = {}
        self._layout_key = None
        self.board_rect = pygame.Rect(0, 0, 1, 1)

    # ------------------------------------------------------------ helpers

    @property
    def state(self):
        return self.session.state

    def curtain_needed(self) -> bool:
        return self.force_curtain or len(self.session.humans) >= 2 or self.app.settings.curtain_solo

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

    def layout(self, size) -> None:
        w, h = size
        bottom = END_H if self.state.phase == "over" else BOTTOM_H
        pw = int(max(300, min(PANEL_W, w * 0.245)))
        self.board_rect = pygame.Rect(0, TOP_H, w - pw, h - TOP_H - bottom)
        self.panel_rect = pygame.Rect(w - pw, TOP_H, pw, h - TOP_H)
        self.bottom_rect = pygame.Rect(0, h - bottom, w - pw, bottom)
        self.info_w = 300 if self.bottom_rect.w >= 1000 else 200  # the left block of the bottom bar
        if self.renderer is None or self._renderer_lang != i18n.language():
            self._renderer_lang = i18n.language()
            self.renderer = BoardRenderer(self.app.content, self.board_rect, texts=board_texts())
        else:
            self.renderer.set_rect(self.board_rect)
        self._layout_key = (size, self._mode(), self.private_seat, self.place.mode if self.place else None,
                            self.state.phase, self.session.version if self._mode() in ("plan", "place") else 0)
        self._build_widgets()

    def _build_widgets(self) -> None:
        self.widgets.clear()
        w = self.app.size[0]
        self.widgets.add(Button(i18n.t("game.menu"), self.open_menu, (w - 130, 8, 116, 38), style="secondary", px=17))
        mode = self._mode()
        b = self.bottom_rect
        if mode == "plan":
            self._build_hand()
        elif mode == "place":
            self._build_place()
        elif mode == "over":
            self.widgets.add(Button(i18n.t("end.play_again"), self.play_again, (b.right - 230, b.bottom - 62, 210, 48)))
            self.widgets.add(Button(i18n.t("end.title"), self.app.to_title, (b.right - 420, b.bottom - 62, 176, 48),
                                    style="secondary"))
        if self.solo_objective_allowed():
            x = w - 300
            self.widgets.add(Button(i18n.t("game.objective_button"), self.show_objective, (x, 8, 160, 38),
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
        x0 = b.x + self.info_w
        regions = list(st.region_cards())
        cw = min(150, (b.right - 20 - x0 + 8) // max(1, len(regions)) - 8)
        aw = min(160, (b.right - 20 - x0 - 4 * 8 - 12) // 5)  # A, B, C, K and Done on one row
        small = aw < 140
        y = b.y + 32
        for i, r in enumerate(regions):
            unavailable = r in s.unavailable
            btn = Button(i18n.card_name(st, r), (lambda r=r: self.pick_region(r)), (x0 + i * (cw + 8), y, cw, 54),
                         style="secondary", selected=(self.choice_region == r), px=15,
                         sub=i18n.t("plan.played_last") if unavailable else "")
            btn.enabled = not unavailable
            self.widgets.add(btn)
        y += 78
        for i, a in enumerate(ACTION_CARDS):
            unavailable = a in s.unavailable
            btn = Button(i18n.t(f"card.{a}"), (lambda a=a: self.pick_action(a)), (x0 + i * (aw + 8), y, aw, 54),
                         style="secondary", selected=(self.choice_action == a), px=14 if small else 16,
                         sub=i18n.t("plan.played_last") if unavailable else i18n.t(f"card.{a}.rule"))
            btn.enabled = not unavailable
            self.widgets.add(btn)
        kx = x0 + 3 * (aw + 8) + 12
        k_why = ""
        if "K" in s.unavailable:
            k_why = i18n.t("plan.played_last")
        elif s.rings < 1:
            k_why = i18n.t("plan.no_ring")
        kb = Button(i18n.t("card.K"), self.toggle_king, (kx, y, aw + 16, 54), style="secondary",
                    selected=self.choice_king, px=14 if small else 16, sub=k_why or i18n.t("plan.king_hint_short"))
        kb.enabled = not k_why
        self.widgets.add(kb)
        ok = self.choice_region is not None and self.choice_action is not None and \
            plan_problem(st, seat, self.choice_region, self.choice_action, self.choice_king) is None
        done_x = kx + aw + 16 + 8
        done = Button(i18n.t("plan.confirm"), self.confirm_plan, (done_x, y, min(180, b.right - 20 - done_x), 54),
                      px=16 if small else 19)
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
        x = self.tray_rect().right + 20
        y = b.bottom - 66
        if b.w >= 1000:  # narrow windows: R, E, the wheel and right click still rotate
            self.widgets.add(Button(i18n.t("place.rotate"), lambda: self.rotate(1), (x, y, 120, 48),
                                    style="secondary", px=17))
            x += 128
        if pc.can_wed:
            label = i18n.t("place.fief_mode") if pc.mode == "wedding" else i18n.t("place.wedding")
            self.widgets.add(Button(label, self.toggle_wedding, (x, y, 150, 48), style="secondary", px=17))
            x += 158
        self.widgets.add(Button(i18n.t("place.donate"), self.donate, (x, y, 160, 48), style="secondary", px=17))
        self.confirm_button = self.widgets.add(Button(i18n.t("place.confirm"), self.confirm_place,
                                                      (b.right - 190, y, 170, 48), px=20))
        self.confirm_button.enabled = pc.action() is not None

    def tray_rect(self) -> pygame.Rect:
        b = self.bottom_rect
        return pygame.Rect(b.x + 20, b.y + 44, min(290, int(b.w * 0.25)), b.h - 56)

    def rotate(self, step: int) -> None:
        if self.place:
            self.place.rotate(step)
            self._refresh_confirm()

    def toggle_wedding(self) -> None:
        if self.place:
            self.place.toggle_mode()
            self.layout(self.app.size)

    def donate(self) -> None:
        if self.place:
            self._send(self.place.donation())

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
            self.message = i18n.rule_text(why)
            return
        self.place = None
        self.message = ""
        self.layout(self.app.size)

    def _refresh_confirm(self) -> None:
        if self.place is not None and getattr(self, "confirm_button", None) is not None:
            self.confirm_button.enabled = self.place.action() is not None

    # ------------------------------------------------------------ overlays

    def open_menu(self) -> None:
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

    def play_again(self) -> None:
        from ..session import new_seed
        old = self.session
        self.app.start_session(old.seats, new_seed(), old.record.config.scenario)

    # ------------------------------------------------------------ the flow (runs every frame)

    def update(self, dt: float) -> None:
        top = self.app.stack.top
        if top is self or not getattr(top, "blocks_ai", True):
            if self.session.tick():
                self.log_scroll = 0
        self._sync()

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
                if self.force_curtain:  # a loaded game: the next player sits down first
                    self.app.stack.push(CurtainScene(self.app, self, seat, "resume", self._after_resume))
                    return
                self.place = PlacementController(s, seat)
                self.message = ""
                self.layout(self.app.size)
        key = (self.app.size, self._mode(), self.private_seat, self.place.mode if self.place else None, st.phase,
               s.version if self._mode() in ("plan", "place") else 0)
        if key != self._layout_key:
            self.layout(self.app.size)

    def _after_resume(self) -> None:
        self.force_curtain = False

    # ------------------------------------------------------------ events

    def handle(self, ev) -> bool:
        if ev.type == pygame.MOUSEWHEEL and self.panel_rect.collidepoint(pygame.mouse.get_pos()):
            self.log_scroll = max(0, self.log_scroll + ev.y)
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
        if ev.type == pygame.MOUSEBUTTONDOWN:
            if ev.button == 3 and pc.mode == "fief":
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
        surf.fill(W.BG)
        fiefs, rings = self._pieces()
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
        if ghost is not None:
            r.draw_ghost(surf, *ghost)
        if mode == "place" and self.place.mode == "wedding":
            self._draw_wedding(surf)
        self._draw_ai_move(surf)
        if mode == "place":
            self._draw_ghost_label(surf)
        self._draw_top(surf)
        self._draw_panel(surf)
        self._draw_bottom(surf)
        self.widgets.draw(surf)

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
        box = img.get_rect(midbottom=(int(x), int(y - self.renderer.size * 2.0))).inflate(18, 10)
        box.clamp_ip(self.board_rect)
        W.panel(surf, box, bg, (255, 255, 255), 8, 2, alpha=235)
        surf.blit(img, img.get_rect(center=box.center))

    def _draw_top(self, surf) -> None:
        st = self.state
        w = surf.get_width()
        bar = pygame.Rect(0, 0, w, TOP_H)
        pygame.draw.rect(surf, (58, 44, 34), bar)
        pygame.draw.line(surf, (150, 120, 80), (0, TOP_H - 1), (w, TOP_H - 1), 2)
        x = 16
        r = W.blit_text(surf, i18n.t("game.round", round=st.round), (x, TOP_H // 2), "title", 30, W.TEXT_LIGHT,
                        "midleft")
        x = r.right + 20
        if st.phase == "over":
            r = W.blit_text(surf, i18n.t("end.heading"), (x, TOP_H // 2), "sans_bold", 17, (255, 200, 90), "midleft")
        elif st.last_round is not None:
            txt = i18n.t("game.last_round") if st.round == st.last_round else \
                i18n.t("game.last_turn_fired", round=st.last_round)
            r = W.blit_text(surf, txt, (x, TOP_H // 2), "sans_bold", 17, (255, 200, 90), "midleft")
        else:
            r = W.blit_text(surf, i18n.t("game.last_turn_not_fired"), (x, TOP_H // 2), "sans", 16, (220, 205, 180),
                            "midleft")
        x = r.right + 24
        flour = ", ".join(rr.name for rr in st.content.board.regions if rr.id in st.flourishing)
        right_limit = w - (310 if self.solo_objective_allowed() else 150)
        line = W.fit_text(i18n.t("game.scenario_line", name=st.scenario, regions=flour), "sans", 16,
                          max(40, right_limit - x - 260))
        r = W.blit_text(surf, line, (x, TOP_H // 2), "sans", 16, (220, 205, 180), "midleft")
        # who is to act
        s = self.session
        if st.phase == "plan":
            names = [s.seat_name(i) for i in st.to_act()]
            msg = i18n.t("game.planning_wait", names=", ".join(names))
        elif st.phase == "place":
            msg = i18n.t("game.to_act", name=s.seat_name(st.to_act()[0]))
        else:
            msg = s.result_text()
        msg = W.fit_text(msg, "sans_bold", 18, max(60, right_limit - r.right - 30))
        W.blit_text(surf, msg, (right_limit - 10, TOP_H // 2), "sans_bold", 18, (255, 236, 190), "midright")

    def _draw_panel(self, surf) -> None:
        st = self.state
        s = self.session
        p = self.panel_rect
        pygame.draw.rect(surf, (232, 220, 192), p)
        pygame.draw.line(surf, W.PANEL_EDGE, p.topleft, p.bottomleft, 2)
        y = p.y + 10
        to_act = set(st.to_act())
        for i, seat in enumerate(st.seats):
            box = pygame.Rect(p.x + 10, y, p.w - 20, 118)
            acting = i in to_act and st.phase != "over"
            W.panel(surf, box, (248, 240, 222) if not acting else (255, 246, 214),
                    W.GOLD if acting else W.PANEL_EDGE, 10, 3 if acting else 1)
            pygame.draw.rect(surf, theme.seat_color(seat.colour), (box.x, box.y, 12, box.h), 0, 10)
            spec = s.seats[i]
            x = box.x + 22
            W.blit_text(surf, W.fit_text(spec.name, "sans_bold", 19, 180), (x, box.y + 6), "sans_bold", 19, W.TEXT)
            kind = i18n.t("game.ai_level", level=i18n.t(f"level.{spec.bot}")) if spec.is_ai else i18n.t("game.human")
            W.blit_text(surf, kind, (x, box.y + 31), "sans", 14, W.TEXT_SOFT)
            W.blit_text(surf, str(seat.score), (box.right - 14, box.y + 6), "sans_bold", 30, W.TEXT, "topright")
            line = f"{i18n.t('game.rings', n=seat.rings)}  ·  {i18n.t('game.deck', n=len(seat.deck))}"
            if seat.fief is not None:
                line += f"  ·  {i18n.t('game.fief', fief=seat.fief)} ({i18n.t('game.card', card=seat.card)})"
            W.blit_text(surf, W.fit_text(line, "sans", 15, box.right - 10 - x), (x, box.y + 50), "sans", 15, W.TEXT)
            # last round's cards (unavailable now)
            cx = x
            W.blit_text(surf, i18n.t("game.last_played", cards=""), (cx, box.y + 72), "sans", 14, W.TEXT_SOFT)
            cx += W.text(i18n.t("game.last_played", cards=""), "sans", 14).get_width() + 4
            order = {c: n for n, c in enumerate(list(st.region_cards()) + ["A", "B", "C", "K"])}
            if not seat.unavailable:
                W.blit_text(surf, i18n.t("game.none"), (cx, box.y + 72), "sans", 14, W.TEXT_SOFT)
            for card in sorted(seat.unavailable, key=lambda c: order.get(c, 99)):
                name = i18n.card_name(st, card)
                img = W.text(name, "sans_semibold", 13, (90, 80, 70))
                chip = pygame.Rect(cx, box.y + 71, img.get_width() + 10, 20)
                if chip.right > box.right - 8:
                    break
                pygame.draw.rect(surf, (214, 206, 192), chip, 0, 5)
                pygame.draw.rect(surf, (160, 150, 136), chip, 1, 5)
                surf.blit(img, img.get_rect(center=chip.center))
                cx = chip.right + 4
            leagues = [_short_sea(st.content.sea_names.get(x2, x2)) for x2 in sorted(seat.leagues)]
            ltxt = i18n.t("game.leagues", seas=", ".join(leagues)) if leagues else i18n.t("game.no_leagues")
            W.blit_text(surf, W.fit_text(ltxt, "sans", 14, box.w - 150), (x, box.y + 95), "sans", 14, W.TEXT_SOFT)
            status = ""
            if st.phase == "plan":
                status = i18n.t("game.planned") if seat.plan is not None else i18n.t("game.not_planned")
            elif st.phase == "place" and acting:
                status = i18n.t("game.acting")
            if status:
                W.blit_text(surf, status, (box.right - 12, box.y + 95), "sans_semibold", 14,
                            W.OK if seat.plan is not None and st.phase == "plan" else (150, 90, 20), "topright")
            y = box.bottom + 8
        # turn order (after the reveal)
        if st.phase == "place":
            W.blit_text(surf, i18n.t("game.order"), (p.x + 14, y + 2), "sans_bold", 16, W.TEXT)
            y += 24
            for n, i in enumerate(st.order):
                plan = st.seats[i].plan
                txt = f"{n + 1}. {s.seat_name(i)}: {i18n.card_name(st, plan.region)}, {i18n.card_name(st, plan.action)}"
                if plan.king:
                    txt += " + K"
                col = W.TEXT if n >= st.turn else (150, 140, 126)
                if n == st.turn:
                    pygame.draw.rect(surf, (255, 236, 170), (p.x + 10, y - 1, p.w - 20, 21), 0, 4)
                W.blit_text(surf, W.fit_text(txt, "sans", 15, p.w - 30), (p.x + 16, y), "sans", 15, col)
                y += 21
            y += 6
        # the log
        W.blit_text(surf, i18n.t("game.log"), (p.x + 14, y + 2), "sans_bold", 16, W.TEXT)
        y += 26
        area = pygame.Rect(p.x + 10, y, p.w - 20, p.bottom - y - 10)
        pygame.draw.rect(surf, (246, 238, 218), area, 0, 6)
        lines = self.session.log
        clip = surf.get_clip()
        surf.set_clip(area.inflate(-4, -4))
        yy = area.bottom - 6
        start = max(0, len(lines) - 1 - self.log_scroll)
        for e in reversed(lines[: start + 1]):
            img = W.text(e.text(), "sans", 14, W.TEXT, wrap=area.w - 16)
            yy -= img.get_height() + 3
            surf.blit(img, (area.x + 8, yy))
            if yy < area.y:
                break
        surf.set_clip(clip)

    def _draw_bottom(self, surf) -> None:
        b = self.bottom_rect
        pygame.draw.rect(surf, (226, 212, 180), b)
        pygame.draw.line(surf, W.PANEL_EDGE, b.topleft, b.topright, 2)
        mode = self._mode()
        st = self.state
        s = self.session
        if mode == "plan":
            seat = self.private_seat
            ss = st.seats[seat]
            W.blit_text(surf, W.fit_text(i18n.t("plan.heading", name=s.seat_name(seat)), "sans_bold", 19,
                                         self.info_w - 30), (b.x + 20, b.y + 10), "sans_bold", 19, W.TEXT)
            W.blit_text(surf, i18n.t("plan.fief", fief=ss.fief, card=ss.card), (b.x + 20, b.y + 40), "sans", 16, W.TEXT,
                        wrap=self.info_w - 30)
            icon = pygame.Rect(b.x + 20, b.y + 64, 120, 84) if self.info_w >= 300 else \
                pygame.Rect(b.x + 20, b.y + 84, 100, 62)
            self._draw_fief_icon(surf, icon, ss.colour, ss.fief, 0)
            obj = st.content.objective(ss.objective)
            held = scoring.objective_cities_held(st, seat)
            W.blit_text(surf, i18n.t("plan.objective", west=i18n.t(f"symbol.{obj.western}"),
                                     east=i18n.t(f"symbol.{obj.eastern}")), (b.x + 20, b.bottom - 44), "sans_semibold",
                        15, (120, 30, 120), wrap=self.info_w - 30)
            if self.info_w >= 300:
                W.blit_text(surf, i18n.t("plan.objective_cities", held=held), (b.x + 150, b.y + 96), "sans", 14,
                            W.TEXT_SOFT, wrap=140)
            W.blit_text(surf, i18n.t("plan.region"), (b.x + self.info_w, b.y + 9), "sans_semibold", 15, W.TEXT_SOFT)
            W.blit_text(surf, i18n.t("plan.action"), (b.x + self.info_w, b.y + 89), "sans_semibold", 15, W.TEXT_SOFT)
            if self.message:
                W.blit_text(surf, self.message, (b.right - 20, b.bottom - 12), "sans", 15, W.BAD, "bottomright")
        elif mode == "place":
            pc = self.place
            plan = pc.plan
            head = i18n.t("place.heading", name=s.seat_name(pc.seat), fief=pc.fief,
                          region=i18n.card_name(st, plan.region), action=i18n.card_name(st, plan.action))
            W.blit_text(surf, head, (b.x + 20, b.y + 10), "sans_bold", 19, W.TEXT)
            fx = self.tray_rect().right + 20
            fw = b.right - 20 - fx
            W.blit_text(surf, W.fit_text(i18n.t(f"card.{plan.action}.long"), "sans_italic", 16, fw), (fx, b.y + 44),
                        "sans_italic", 16, W.TEXT_SOFT)
            tray = self.tray_rect()
            W.panel(surf, tray, (246, 238, 218), W.GOLD if pc.anchor is None else W.PANEL_EDGE, 10, 2)
            if pc.mode == "fief":
                self._draw_fief_icon(surf, tray.inflate(-20, -30), st.seats[pc.seat].colour, pc.fief, pc.rotation,
                                     faded=pc.anchor is not None or pc.dragging)
                W.blit_text(surf, i18n.t("place.drag"), (tray.centerx, tray.bottom - 6), "sans", 13, W.TEXT_SOFT,
                            "midbottom")
            else:
                W.blit_text(surf, i18n.t("place.rings_left", n=st.seats[pc.seat].rings), (tray.centerx, tray.y + 10),
                            "sans_semibold", 15, W.TEXT, "midtop")
                W.blit_text(surf, i18n.t("place.wedding_help", region=i18n.card_name(st, plan.region)),
                            (tray.x + 10, tray.y + 36), "sans", 13, W.TEXT_SOFT, wrap=tray.w - 20)
            fb = pc.feedback()
            y = b.y + 68
            if not pc.has_legal_spot and pc.mode == "fief":
                txt = i18n.t("place.no_spot") if pc.can_wed else i18n.t("place.no_spot_plain")
                W.blit_text(surf, W.fit_text(txt, "sans_semibold", 17, fw), (fx, y), "sans_semibold", 17, W.BAD)
            elif fb is not None:
                W.blit_text(surf, W.fit_text(fb.text, "sans_bold", 18, fw), (fx, y), "sans_bold", 18,
                            W.OK if fb.ok else W.BAD)
            elif self.message:
                W.blit_text(surf, W.fit_text(self.message, "sans", 16, fw), (fx, y), "sans", 16, W.BAD)
            W.blit_text(surf, i18n.t("game.help_keys"), (fx, y + 28), "sans", 13, W.TEXT_SOFT, wrap=fw)
        elif mode == "over":
            self._draw_end(surf)
        else:
            a = s.ai_showing
            if st.phase == "plan":
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
            W.blit_text(surf, msg, b.center, "sans_semibold", 22, W.TEXT, "center")

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
                                     theme.seat_light(colour), alpha=110 if faded else 240)
            cache[key] = spr
        img, (ox, oy) = spr
        cx = (min(xs) + max(xs)) / 2 * px
        cy = (min(ys) + max(ys)) / 2 * px
        surf.blit(img, (int(box.centerx - cx + ox), int(box.centery - cy + oy)))

    def _draw_end(self, surf) -> None:
        st = self.state
        s = self.session
        b = self.bottom_rect
        W.blit_text(surf, i18n.t("end.heading"), (b.x + 20, b.y + 8), "title", 32, W.TEXT)
        res = s.result_text()
        if st.tiebreak:
            res += "  " + i18n.t("end.tiebreak", how=i18n.tiebreak(st.tiebreak))
        W.blit_text(surf, res, (b.x + 290, b.y + 18), "sans_bold", 20, (130, 30, 20))
        cols = ["end.seat", "end.sites", "end.leagues", "end.donations", "end.gonzaga", "end.objective", "end.total"]
        keys = [None, "sites", "leagues", "donations", "gonzaga", "objective", "total"]
        x0 = b.x + 20
        widths = [230] + [(b.w - 40 - 230) // 6] * 6
        y = b.y + 58
        x = x0
        for c, wdt in zip(cols, widths):
            W.blit_text(surf, i18n.t(c), (x + (wdt - 10 if c != "end.seat" else 0), y), "sans_bold", 15, W.TEXT_SOFT,
                        "topright" if c != "end.seat" else "topleft")
            x += wdt
        y += 24
        self._end_rows = []
        for row in s.score_rows():
            rect = pygame.Rect(x0 - 6, y - 2, b.w - 28, 30)
            if row["seat"] == self.end_selected:
                pygame.draw.rect(surf, (250, 236, 196), rect, 0, 6)
                pygame.draw.rect(surf, (150, 40, 150), rect, 2, 6)
            self._end_rows.append((row["seat"], rect))
            x = x0
            pygame.draw.rect(surf, theme.seat_color(row["colour"]), (x, y + 4, 16, 16), 0, 3)
            name = row["name"] + (f"  ({i18n.t('end.winner_mark')})" if row["winner"] else "")
            W.blit_text(surf, W.fit_text(name, "sans_bold", 17, widths[0] - 30), (x + 24, y + 2), "sans_bold", 17,
                        W.TEXT)
            x += widths[0]
            for k, wdt in zip(keys[1:], widths[1:]):
                val = row[k]
                txt = str(val)
                if k == "objective":
                    txt = f"{val} ({row['objective_held']}/6)"
                W.blit_text(surf, txt, (x + wdt - 10, y + 2), "sans_bold" if k == "total" else "sans", 17, W.TEXT,
                            "topright")
                x += wdt
            y += 32
        if self.end_selected is not None:
            seat = st.seats[self.end_selected]
            obj = st.content.objective(seat.objective)
            txt = i18n.t("end.objective_of", name=s.seat_name(self.end_selected), west=i18n.t(f"symbol.{obj.western}"),
                         east=i18n.t(f"symbol.{obj.eastern}"),
                         held=scoring.objective_cities_held(st, self.end_selected))
            W.blit_text(surf, txt, (x0, b.bottom - 56), "sans_semibold", 15, (120, 30, 120))
        W.blit_text(surf, i18n.t("end.click_row"), (x0, b.bottom - 30), "sans", 14, W.TEXT_SOFT)
