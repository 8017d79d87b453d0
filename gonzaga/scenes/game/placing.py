"""Placement on the game screen: the bottom bar's controls while a human places (rotate, wedding, donate,
confirm), the mouse and keys on the board, and the ghost's labels.

A part of the game screen with explicit inputs (:class:`Placing`): the view the screen draws, the
placement under way, the map and the bottom bar, and what it asks of the screen (the bar's message,
lay the buttons out again, the placement was taken); a gate (``allow``) lets a script (the tutorial)
take only the move it asks for, as ``Hand.allow`` does for the cards."""
from __future__ import annotations

import logging
from typing import Any, Callable, Optional

import pygame

from ...render.board_layers import mark_icon
from ...words import i18n
from ...ui import keys, palette
from ...ui import widgets as W
from ...ui.widgets import Button, Widgets

log = logging.getLogger(__name__)


def _always(kind: str, action: Any) -> bool:
    return True


class Placing:
    """The placing controls. Inputs: ``view`` (the state the screen draws), ``face`` (the game's face:
    names, and each seat's ``submit``), ``controller`` (the placement under way, a
    ``PlacementController``, or None), ``renderer`` (the board renderer), ``board`` (the map's
    rectangle), ``bottom`` (the bottom bar's rectangle), ``say`` (the bar's message), ``changed`` (lay
    the buttons out again) and ``done`` (the move was taken). ``allow(kind, action)`` (kind:
    "wedding", "donate", "confirm" or "send" with the action) may refuse a move; it says why itself.
    ``donate_pending``: Donate was pressed, its confirm (Enter) or Esc awaited."""

    def __init__(self, view: Callable[[], Any], face: Any, controller: Callable[[], Any],
                 renderer: Callable[[], Any], board: Callable[[], pygame.Rect], bottom: Callable[[], pygame.Rect],
                 say: Callable[[str], None], changed: Callable[[], None], done: Callable[[], None]):
        self.view = view
        self.face = face
        self.controller = controller
        self.renderer = renderer
        self.board = board
        self.bottom = bottom
        self.say = say
        self.changed = changed
        self.done = done
        self.allow: Callable[[str, Any], bool] = _always
        self.donate_pending = False
        self.confirm_button: Optional[Button] = None
        self._tray_top: Optional[int] = None  # the tray's top in the bar: under the heading (two lines when it wraps)

    # ------------------------------------------------------------ the bar's buttons

    def build(self, widgets: Widgets) -> None:
        """The bar's buttons while a human places (Rotate, Wedding, Donate, Confirm; or the donation's confirm)."""
        pc = self.controller()
        b = self.bottom()
        sc = W.sc
        head = W.text(self.heading(), "sans_bold", 19, wrap=self.heading_width()).get_height()
        self._tray_top = sc(10) + head + sc(8)  # the tray and the texts beside it: under the heading
        x = self.tray_rect().right + sc(20)
        y = b.bottom - sc(66)
        if self.donate_pending:  # "Donate?": the same confirm step as a placement (Enter / Esc)
            widgets.add(Button(i18n.t("common.cancel"), self.cancel_donate, (x, y, sc(160), sc(48)),
                               style="secondary", px=17))
            self.confirm_button = Button(i18n.t("place.donate_confirm"), self.confirm_donate,
                                         (b.right - sc(250), y, sc(230), sc(48)), px=19)
            widgets.add(self.confirm_button)
            return
        if b.w >= sc(1000) and pc.mode != "wedding":  # (narrow windows: R, E, the wheel, right click); rings do not turn
            widgets.add(Button(i18n.t("place.rotate"), lambda: self.rotate(1), (x, y, sc(120), sc(48)),
                               style="secondary", px=17))
            x += sc(128)
        if pc.can_wed:
            label = i18n.t("place.fief_mode") if pc.mode == "wedding" else i18n.t("place.wedding")
            widgets.add(Button(label, self.toggle_wedding, (x, y, sc(150), sc(48)), style="secondary", px=17))
            x += sc(158)
        widgets.add(Button(i18n.t("place.donate"), self.donate, (x, y, sc(160), sc(48)), style="secondary", px=17))
        confirm = Button(i18n.t("place.confirm"), self.confirm_place, (b.right - sc(190), y, sc(170), sc(48)), px=20)
        widgets.add(confirm)
        confirm.enabled = pc.action() is not None
        self.confirm_button = confirm

    def heading(self) -> str:
        pc = self.controller()
        st = self.view()
        key = "place.heading_wedding" if pc.mode == "wedding" else "place.heading"  # no fief is placed in a wedding
        return i18n.t(key, name=self.face.seat_name(pc.seat), fief=pc.fief,
                      region=i18n.card_name(st, pc.plan.region), action=i18n.card_name(st, pc.plan.action))

    def heading_width(self) -> int:
        return int(self.bottom().w - W.sc(40) - W.sc(60))  # clear of the "?" in the corner

    def tray_rect(self) -> pygame.Rect:
        b = self.bottom()
        top = self._tray_top if self._tray_top is not None else W.sc(44)  # under the heading
        return pygame.Rect(b.x + W.sc(20), b.y + top, min(W.sc(290), int(b.w * 0.25)), b.h - top - W.sc(12))

    # ------------------------------------------------------------ the moves

    def rotate(self, step: int) -> None:
        pc = self.controller()
        if pc:
            pc.rotate(step)
            self.refresh_confirm()

    def toggle_wedding(self) -> None:
        if self.controller() and self.allow("wedding", None):
            self.controller().toggle_mode()
            self.changed()

    def donate(self) -> None:
        """Donate (or Shift+D): asks first - the fief is thrown away for 3 points."""
        pc = self.controller()
        if pc and self.allow("donate", None):
            self.donate_pending = True
            self.say("")
            pc.cancel()
            self.changed()

    def confirm_donate(self) -> None:
        pc = self.controller()
        if pc and self.donate_pending:
            self.donate_pending = False
            self.send(pc.donation())

    def cancel_donate(self) -> None:
        self.donate_pending = False
        self.changed()

    def confirm_place(self) -> None:
        pc = self.controller()
        if not pc or not self.allow("confirm", None):
            return
        act = pc.action()
        if act is None:
            fb = pc.feedback()
            self.say(fb.text if fb is not None and not fb.ok else i18n.t("place.drag"))
            return
        self.send(act)

    def send(self, action: Any) -> None:
        """The move to the placing seat's face (if the gate lets it through); a refusal goes to the bar."""
        if not self.allow("send", action):
            return
        why = self.face.seat_view(self.controller().seat).submit(action)
        if why is not None:
            log.info("refused %s: %s", why.rule, why.message)  # the rule's id stays in the log file
            self.say(i18n.rule_text(why))
            return
        self.donate_pending = False
        self.done()

    def refresh_confirm(self) -> None:
        if self.controller() is not None and self.confirm_button is not None:
            self.confirm_button.enabled = self.donate_pending or self.controller().action() is not None

    # ------------------------------------------------------------ the mouse and keys

    def handle(self, ev: pygame.event.Event) -> bool:
        pc = self.controller()
        r = self.renderer()
        board = self.board()
        if self.donate_pending:  # only the donation's confirm (Enter) or cancel (Esc) now
            if ev.type == pygame.KEYDOWN and ev.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
                self.confirm_donate()
                return True
            if ev.type == pygame.KEYDOWN and ev.key == pygame.K_ESCAPE:
                self.cancel_donate()
                return True
            return ev.type in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP) and board.collidepoint(ev.pos)
        if ev.type == pygame.MOUSEBUTTONDOWN:
            if ev.button == 3 and pc.mode == "fief":  # a right click off the map still turns it
                pc.rotate(1)
                return True
            if ev.button != 1:
                return False
            h = r.screen_to_hex(*ev.pos) if board.collidepoint(ev.pos) else None
            if pc.mode == "wedding":
                if h is not None:
                    why = pc.click_ring(h)
                    self.say(i18n.rule_text(why) if why else "")
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
            h = r.screen_to_hex(*ev.pos) if board.collidepoint(ev.pos) else None
            if pc.mode == "wedding":
                pc.cursor = h
                return False
            if pc.dragging:
                pc.set_anchor(h)
                return True
            return False
        if ev.type == pygame.MOUSEBUTTONUP and ev.button == 1 and pc.mode == "fief" and pc.dragging:
            pc.dragging = False
            h = r.screen_to_hex(*ev.pos) if board.collidepoint(ev.pos) else None
            if h is None:
                pc.cancel()  # dropped off the map: back to the tray
            else:
                pc.set_anchor(h)
                fb = pc.feedback()
                self.say(fb.text if fb is not None and not fb.ok else "")
            return True
        if ev.type == pygame.MOUSEWHEEL and pc.mode == "fief":
            pc.rotate(-1 if ev.y > 0 else 1)
            return True
        if ev.type == pygame.KEYDOWN:
            return self._key(ev, pc, r)
        return False

    def _key(self, ev: pygame.event.Event, pc: Any, r: Any) -> bool:
        k = ev.key
        if keys.pressed(ev, "rotate") and pc.mode == "fief":
            pc.rotate(1)
            return True
        if keys.pressed(ev, "rotate_back") and pc.mode == "fief":
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
            self.say(i18n.rule_text(why) if why else "")
            return True
        if keys.pressed(ev, "wedding") and pc.can_wed:
            self.toggle_wedding()
            return True
        if keys.pressed(ev, "donate"):
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
            self.say("")
            return True
        return False

    # ------------------------------------------------------------ drawing

    def draw_wedding(self, surf: pygame.Surface) -> None:
        pc = self.controller()
        r = self.renderer()
        chosen = {h: self.view().seats[pc.seat].colour for h in pc.rings}
        if chosen:
            r.draw_ghost(surf, list(chosen), [], True)
            r.draw_rings(surf, chosen, [])
        if pc.cursor is not None and pc.cursor not in pc.rings:
            r.draw_ghost(surf, [pc.cursor], [], pc.ring_problem(pc.cursor) is None)

    def draw_ghost_label(self, surf: pygame.Surface) -> None:
        pc = self.controller()
        fb = pc.feedback()
        if fb is None or not fb.text:
            return
        at = pc.anchor if pc.mode == "fief" else (pc.cursor or (pc.rings[-1] if pc.rings else None))
        if at is None:
            return
        r = self.renderer()
        x, y = r.hex_to_screen(at)
        color = (255, 255, 255)
        bg = palette.now().tip_ok if fb.ok else palette.now().tip_bad
        img = W.text(fb.text, "sans_bold" if fb.ok else "sans_semibold", 18 if fb.ok else 16, color)
        mark = mark_icon(fb.ok, img.get_height())  # a check or a cross: not the colour alone
        box = pygame.Rect(0, 0, img.get_width() + mark.get_width() + 6, img.get_height())
        box.midbottom = (int(x), int(y - r.size * 2.0))
        box = box.inflate(18, 10)
        box.clamp_ip(self.board())
        W.panel(surf, box, bg, (255, 255, 255), 8, 2, alpha=235)
        surf.blit(mark, (box.x + 9, box.centery - mark.get_height() // 2))
        surf.blit(img, (box.x + 9 + mark.get_width() + 6, box.centery - img.get_height() // 2))
