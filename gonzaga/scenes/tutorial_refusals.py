"""The tutorial's answers to a move it does not ask for (``scenes/tutorial.py``): which card,
spot, turn or button the step wants instead, and only the asked move let through to the game
screen. A mixin of ``TutorialGameScene``, before ``GameScene`` (whose moves it filters)."""
from __future__ import annotations

import re

from ..rules import Donate, Place, Wedding
from ..table import tutorial as T
from ..ui import keys
from ..words import i18n

_ID_PREFIX = re.compile(r"^[A-Z]\d{1,2}:\s*")


def _no_id(text: str) -> str:
    """A refusal's sentence without a leading rule id ("P8: ...")."""
    return _ID_PREFIX.sub("", text)


class TutorialRefusals:
    """Only the move the step asks for; for any other, what is wrong with it (``tut_msg``)."""

    def _refuse(self, key: str, **kw) -> None:
        self.tut_msg = i18n.t(key, **{"rotate": keys.label("rotate"), **kw})  # the player's key (issue 49)

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
            self._refuse("tut.region_done", got=self._card(card), want=self._card(self.hand.region or plan.region))
        elif kind == "king":
            self._refuse("tut.no_king" if not plan.king else "tut.king_later")
        elif k == "king" and plan.king:
            self._refuse("tut.king_now", got=self._card(card), want=self._card(plan.action))
        else:
            self._refuse("tut.wrong_action", got=self._card(card), want=self._card(plan.action))

    def _hand_allows(self, kind: str, card: str) -> bool:
        """The gate of the game screen's hand (``Hand.allow``): only the card, or the confirm, the
        step asks for; for any other, why not."""
        plan = self._expected_plan()
        k = self.step.kind
        hand = self.hand
        if kind == "region":
            if k in ("region", "action", "king", "confirm") and plan is not None and card == plan.region \
                    and (k != "region" or card == self.step.arg):
                return True
            self._wrong_card(card, "region")
        elif kind == "action":
            if k in ("action", "king", "confirm") and plan is not None and card == plan.action:
                return True
            self._wrong_card(card, "action")
        elif kind == "king":
            if k == "king" and plan is not None and plan.king and not hand.king:
                return True
            self._wrong_card("K", "king")
        elif k == "confirm" and plan is not None and (hand.region, hand.action, hand.king) == (plan.region, plan.action,
                                                                                                plan.king):
            return True
        elif plan is not None and k in ("region", "action", "king"):
            want = {"region": plan.region, "action": plan.action, "king": "K"}[k]
            self._refuse("tut.confirm_early", want=self._card(want), done=i18n.t("plan.confirm"))
        else:
            self._refuse("tut.not_now")
        return False

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

    def _site_name(self, h) -> str:
        s = self.state.content.sites.get(h)
        return s.name if s else f"{h}"
