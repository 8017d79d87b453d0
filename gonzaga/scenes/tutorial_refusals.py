"""The tutorial's answers to a move it does not ask for (``scenes/tutorial.py``): which card,
spot, turn or button the step wants instead, and only the asked move let through to the game
screen.

A part with explicit inputs (:class:`TutorialRefusals`): the gates the game screen's parts consult
(``Hand.allow`` for the cards, ``Placing.allow`` for the moves on the map, ``PlanPreviews.allow``
for the table of best points) and the words of the last refusal (``msg``)."""
from __future__ import annotations

import re
from typing import Any, Callable, Optional

import pygame

from ..rules import Donate, Place, Plan, Wedding
from ..table import tutorial as T
from ..ui import keys
from ..words import i18n

_ID_PREFIX = re.compile(r"^[A-Z]\d{1,2}:\s*")


def _no_id(text: str) -> str:
    """A refusal's sentence without a leading rule id ("P8: ...")."""
    return _ID_PREFIX.sub("", text)


class TutorialRefusals:
    """Only the move the step asks for; for any other, what is wrong with it (``msg``). Inputs:
    ``step`` (the tutorial's step now), ``view`` (the state the screen draws), ``hand`` (the hand
    part: the cards chosen), ``controller`` (the placement under way, or None) and ``table`` (the
    table of best points as last drawn, or None). ``asked``: a placement taken in place of the
    script's, by its text: the script's text."""

    def __init__(self, step: Callable[[], T.Step], view: Callable[[], Any], hand: Any,
                 controller: Callable[[], Any], table: Callable[[], Optional[pygame.Rect]]):
        self.step = step
        self.view = view
        self.hand = hand
        self.controller = controller
        self.table = table
        self.msg = ""  # why a move was refused
        self.asked: dict[str, str] = {}

    def refuse(self, key: str, **kw: Any) -> None:
        self.msg = i18n.t(key, **{"rotate": keys.label("rotate"), **kw})  # the player's key (issue 49)

    def expected_plan(self) -> Optional[Plan]:
        """The plan the script makes this round (None: the script plans nothing now)."""
        move = T.your_move(self.view().round, "plan")
        return move if isinstance(move, Plan) else None

    def _card(self, card: str) -> str:
        return i18n.card_name(self.view(), card)

    def _wrong_card(self, card: str, kind: str) -> None:
        """A card that is not the one asked now: what it is and what the step asks for."""
        k = self.step().kind
        plan = self.expected_plan()
        if k not in ("region", "action", "king", "confirm") or plan is None:
            self.refuse("tut.read_first" if k == "info" else "tut.not_now")
            return
        if k == "region" and kind != "region":
            self.refuse("tut.region_first", got=self._card(card), want=self._card(plan.region))
        elif k == "region":
            self.refuse("tut.wrong_region", got=self._card(card), want=self._card(plan.region))
        elif kind == "region":
            self.refuse("tut.region_done", got=self._card(card), want=self._card(self.hand.region or plan.region))
        elif kind == "king":
            self.refuse("tut.no_king" if not plan.king else "tut.king_later")
        elif k == "king" and plan.king:
            self.refuse("tut.king_now", got=self._card(card), want=self._card(plan.action))
        else:
            self.refuse("tut.wrong_action", got=self._card(card), want=self._card(plan.action))

    def card(self, kind: str, card: str) -> bool:
        """The gate of the game screen's hand (``Hand.allow``): only the card, or the confirm, the
        step asks for; for any other, why not."""
        plan = self.expected_plan()
        step = self.step()
        k = step.kind
        hand = self.hand
        if kind == "region":
            if k in ("region", "action", "king", "confirm") and plan is not None and card == plan.region \
                    and (k != "region" or card == step.arg):
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
            self.refuse("tut.confirm_early", want=self._card(want), done=i18n.t("plan.confirm"))
        else:
            self.refuse("tut.not_now")
        return False

    def click_table(self, pos: tuple[int, int]) -> Optional[bool]:
        """The gate of the table of best points (``PlanPreviews.allow``): the tutorial plans by the cards."""
        rect = self.table()
        if rect is not None and rect.collidepoint(pos):
            self.refuse("tut.no_preview")
            return True
        return False

    def move(self, kind: str, action: Any) -> bool:
        """The gate of the placing controls (``Placing.allow``): the wedding, the donation, the
        confirm and the move sent, as the step asks."""
        k = self.step().kind
        pc = self.controller()
        if kind == "wedding":
            if k == "wedding" or (pc is not None and pc.mode == "wedding" and k not in ("ring", "wed")):
                return True
            self.refuse("tut.not_now")
            return False
        if kind == "donate":
            if k == "donate":
                return True
            self.refuse("tut.place_not_donate")
            return False
        if kind == "confirm":
            if pc is not None and pc.mode == "fief" and pc.action() is None and k == "place":
                fb = pc.feedback()
                if fb is not None and not fb.ok:
                    self.refuse("tut.illegal", reason=_no_id(fb.text))
                    return False
            return True
        ok = self._sent(k, action)
        if ok:
            self.msg = ""
        return ok

    def _sent(self, k: str, action: Any) -> bool:
        step = self.step()
        asked: Any = step.arg  # the script's move (a Place, a Wedding), a hex or a card
        if isinstance(action, Place):
            ok = k == "place" and T.accepts(self.view(), step, action)
            if ok and action != step.arg:
                self.asked[action.to_text()] = asked.to_text()
            elif k == "place":
                self._refuse_place(action)
            else:
                self.refuse({"donate": "tut.donate_now"}.get(
                    k, "tut.wed_not_place" if k in ("wedding", "ring", "wed") else "tut.not_now"),
                    donate=i18n.t("place.donate"), wedding=i18n.t("place.wedding"))
            return ok
        if isinstance(action, Wedding):
            if k == "wed" and set(action.rings) == set(asked.rings):
                return True
            self.refuse("tut.not_now")
            return False
        if isinstance(action, Donate):
            if k == "donate":
                return True
            self.refuse("tut.place_not_donate")
        return False

    def ring(self, h: Any) -> bool:
        """A ring put down during a wedding (a click or Space on ``h``): True where the step takes
        it (the game screen goes on), else False, and why not."""
        step = self.step()
        k = step.kind
        pc = self.controller()
        if k == "ring" and h == step.arg:
            return True
        if h in pc.rings:
            return False  # a ring asked for stays where it is
        if k == "ring":
            why = pc.ring_problem(h)
            site = self.site_name(step.arg)
            if why is not None:
                self.refuse("tut.ring_refused", reason=_no_id(i18n.rule_text(why)), site=site)
            else:
                self.refuse("tut.wrong_ring", site=site)
        else:
            self.refuse("tut.not_now")
        return False

    def _names(self, hexes: list[Any]) -> str:
        return i18n.t("tut.and_list", items=", ".join(self.site_name(h) for h in hexes[:-1]),
                      last=self.site_name(hexes[-1])) if len(hexes) > 1 else self.site_name(hexes[0])

    def _refuse_place(self, action: Place) -> None:
        """A legal placement this step does not take: what it misses or covers besides, or
        only its turn."""
        st, step = self.view(), self.step()
        key, kw = T.refusal(st, step, action)
        sites = self._names(sorted(T.marked(st, step)))
        self.refuse(key, sites=sites, **{k: self._names(v) if v else "" for k, v in kw.items()})

    def site_name(self, h: Any) -> str:
        s = self.view().content.sites.get(h)
        return s.name if s else f"{h}"
