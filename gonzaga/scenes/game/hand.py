"""The hand: the planning bar of the human whose secrets are on screen (regions, actions, the King's Privilege,
the confirm) and the plan chosen on it.

A part of the game screen with explicit inputs (:class:`Hand`): the view the screen draws, whose
hand is open, and what it asks of the screen (submit the plan, lay the buttons out again, show a
message, close the hand); a gate (``allow``) lets a script (the tutorial) take only the card it asks
for."""
from __future__ import annotations

import logging
from functools import partial
from typing import Any, Callable, Optional

from ...rules import ACTION_CARDS, Plan, plan_problem
from ...words import i18n
from ...ui import widgets as W
from ...ui.widgets import Button, Widgets

log = logging.getLogger(__name__)

CARDS_TOP = 32  # the region cards' row, from the bottom bar's top (design pixels)
CARD_HEIGHT = 60
ACTION_GAP = 22  # between the rows: room for the "Action card" heading


def action_label_y() -> int:
    """The middle of the gap between the rows, from the bottom bar's top, in the window pixels the
    rows are laid out in (each length rounded as ``build`` rounds it): the heading of the action
    cards' row is centred there by its ink, so a descender ("Karta akcji") stays clear of the cards
    below (at 90% on 1920x1080 it touched them, issue 49's full layout matrix)."""
    return W.sc(CARDS_TOP) + W.sc(CARD_HEIGHT) + W.sc(ACTION_GAP) // 2


def _always(kind: str, card: str) -> bool:
    return True


class Hand:
    """The open hand. Inputs: ``view`` (the state the screen draws: the seat's own view while its
    hand is open), ``seat`` (whose hand is open, or None), ``submit`` (the plan to that seat's face:
    None, or the refusal), ``changed`` (a card was chosen: the screen lays its buttons out again),
    ``say`` (the bottom bar's message) and ``done`` (the plan was taken). ``allow(kind, card)``
    (kind: "region", "action", "king" or "confirm") may refuse a choice; it says why itself."""

    def __init__(self, view: Callable[[], Any], seat: Callable[[], Optional[int]],
                 submit: Callable[[Plan], Any], changed: Callable[[], None], say: Callable[[str], None],
                 done: Callable[[], None]):
        self.view = view
        self.seat = seat
        self.submit = submit
        self.changed = changed
        self.say = say
        self.done = done
        self.allow: Callable[[str, str], bool] = _always
        self.region: Optional[str] = None  # the cards chosen so far
        self.action: Optional[str] = None
        self.king = False

    def clear(self) -> None:
        self.region = self.action = None
        self.king = False

    def build(self, widgets: Widgets, b: Any, info_w: int) -> None:
        """The cards and the confirm as buttons in the bottom bar ``b`` right of its left block."""
        st = self.view()
        seat = self.seat()
        assert seat is not None
        s = st.seats[seat]
        sc = W.sc
        x0 = b.x + info_w
        regions = list(st.region_cards())
        cw = min(sc(150), (b.right - sc(20) - x0 + sc(8)) // max(1, len(regions)) - sc(8))
        aw = min(sc(160), (b.right - sc(20) - x0 - sc(4 * 8 + 12)) // 5)  # A, B, C, K and Done on one row
        small = aw < sc(140)
        card_h = sc(CARD_HEIGHT)  # a label and two lines of subtitle (W.SUB_PX): nothing shrinks under 12 px
        y = b.y + sc(CARDS_TOP)
        for i, r in enumerate(regions):
            unavailable = r in s.unavailable
            btn = Button(i18n.card_name(st, r), partial(self.pick_region, r),
                         (x0 + i * (cw + sc(8)), y, cw, card_h),
                         style="secondary", selected=(self.region == r), px=15,
                         sub=i18n.t("plan.played_last") if unavailable else "")
            btn.enabled = not unavailable
            btn.card = r
            widgets.add(btn)
        y += card_h + sc(ACTION_GAP)
        for i, a in enumerate(ACTION_CARDS):
            unavailable = a in s.unavailable
            btn = Button(i18n.t(f"card.{a}"), partial(self.pick_action, a),
                         (x0 + i * (aw + sc(8)), y, aw, card_h),
                         style="secondary", selected=(self.action == a), px=14 if small else 16,
                         sub=i18n.t("plan.played_last") if unavailable else i18n.t(f"card.{a}.rule"))
            btn.enabled = not unavailable
            btn.card = a
            widgets.add(btn)
        kx = x0 + 3 * (aw + sc(8)) + sc(12)
        k_why = ""
        if "K" in s.unavailable:
            k_why = i18n.t("plan.played_last")
        elif s.rings < 1:
            k_why = i18n.t("plan.no_ring")
        kb = Button(i18n.t("card.K"), self.toggle_king, (kx, y, aw + sc(16), card_h), style="secondary",
                    selected=self.king, px=14 if small else 16, sub=k_why or i18n.t("plan.king_hint_short"))
        kb.enabled = not k_why
        kb.card = "K"
        widgets.add(kb)
        ok = self.region is not None and self.action is not None and \
            plan_problem(st, seat, self.region, self.action, self.king) is None
        done_x = kx + aw + sc(16 + 8)
        done = Button(i18n.t("plan.confirm"), self.confirm,
                      (done_x, y, min(sc(180), b.right - sc(20) - done_x), card_h), px=16 if small else 19)
        done.enabled = ok
        widgets.add(done)

    def pick_region(self, r: str) -> None:
        if self.allow("region", r):
            self.region = r
            self.changed()

    def pick_action(self, a: str) -> None:
        if self.allow("action", a):
            self.action = a
            self.changed()

    def toggle_king(self) -> None:
        if self.allow("king", "K"):
            self.king = not self.king
            self.changed()

    def choose(self, region: str, action: str, king: Optional[bool] = None) -> None:
        """Both cards at once (a click on the table of best points, a hint played)."""
        self.region, self.action = region, action
        if king is not None:
            self.king = king

    def confirm(self) -> None:
        if not self.allow("confirm", ""):
            return
        seat = self.seat()
        if seat is None or self.region is None or self.action is None:
            self.say(i18n.t("plan.choose_both"))
            return
        why = self.submit(Plan(seat, self.region, self.action, self.king))
        if why is not None:
            log.info("plan refused %s: %s", why.rule, why.message)  # the rule's id stays in the log file
            self.say(i18n.rule_text(why))
            return
        self.done()
