"""The hand: the planning bar of the human whose secrets are on screen (regions, actions, the King's Privilege,
the confirm), and opening and closing that private view.

A part of :class:`GameScene` (see the package's docstring); it reads the scene's state and
widgets as ``self``."""
from __future__ import annotations

import logging

from ...rules import ACTION_CARDS, Plan, plan_problem
from ...words import i18n
from ...ui import widgets as W
from ...ui.widgets import Button

log = logging.getLogger(__name__)

CARDS_TOP = 32  # the region cards' row, from the bottom bar's top (design pixels)
CARD_HEIGHT = 60
ACTION_GAP = 22  # between the rows: room for the "Action card" heading


def action_label_y() -> int:
    """The middle of the heading of the action cards' row, from the bottom bar's top: centred in
    the gap between the rows, so a descender ("Karta akcji") stays clear of the cards below."""
    return W.sc(CARDS_TOP + CARD_HEIGHT + ACTION_GAP / 2)


class HandMixin:
    def solo_objective_allowed(self) -> bool:
        """'My objective' on the top bar: for the only human (solo), or the human placing now."""
        if self.state.phase == "over":
            return False
        humans = self.face.humans
        if len(humans) == 1:
            return True
        return self.face.human_to_place() is not None

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
        card_h = sc(CARD_HEIGHT)  # a label and two lines of subtitle (W.SUB_PX): nothing shrinks under 12 px
        y = b.y + sc(CARDS_TOP)
        for i, r in enumerate(regions):
            unavailable = r in s.unavailable
            btn = Button(i18n.card_name(st, r), (lambda r=r: self.pick_region(r)),
                         (x0 + i * (cw + sc(8)), y, cw, card_h),
                         style="secondary", selected=(self.choice_region == r), px=15,
                         sub=i18n.t("plan.played_last") if unavailable else "")
            btn.enabled = not unavailable
            btn.card = r
            self.widgets.add(btn)
        y += card_h + sc(ACTION_GAP)
        for i, a in enumerate(ACTION_CARDS):
            unavailable = a in s.unavailable
            btn = Button(i18n.t(f"card.{a}"), (lambda a=a: self.pick_action(a)),
                         (x0 + i * (aw + sc(8)), y, aw, card_h),
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
        kb = Button(i18n.t("card.K"), self.toggle_king, (kx, y, aw + sc(16), card_h), style="secondary",
                    selected=self.choice_king, px=14 if small else 16, sub=k_why or i18n.t("plan.king_hint_short"))
        kb.enabled = not k_why
        kb.card = "K"
        self.widgets.add(kb)
        ok = self.choice_region is not None and self.choice_action is not None and \
            plan_problem(st, seat, self.choice_region, self.choice_action, self.choice_king) is None
        done_x = kx + aw + sc(16 + 8)
        done = Button(i18n.t("plan.confirm"), self.confirm_plan,
                      (done_x, y, min(sc(180), b.right - sc(20) - done_x), card_h), px=16 if small else 19)
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
        why = self.face.seat_view(self.private_seat).submit(Plan(self.private_seat, self.choice_region, self.choice_action, self.choice_king))
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
