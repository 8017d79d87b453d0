"""Where the tutorial's script stands and when its step is done (``scenes/tutorial.py``): the
section and the step in it, and for each kind of step what the game or the screen must show for it
to be done (a card chosen, the plan sent, the reveal read, the player's turn taken, Next pressed).

A part with explicit inputs (:class:`TutorialSteps`): the view the screen draws, the game's face,
the hand, the placement under way and whether the reveal is open. It draws nothing."""
from __future__ import annotations

from typing import Any, Callable, Optional

from ..rules import Donate, Place, Wedding
from ..table import tutorial as T


class TutorialSteps:
    """The script's place. Inputs: ``view`` (the state the screen draws), ``face`` (the game's face:
    its public moves, the AI's move on show), ``hand`` (the hand part: the cards chosen),
    ``controller`` (the placement under way, or None) and ``reveal_open`` (the reveal is on
    screen). ``section``, ``step_i``: where the script stands; ``next_pressed``: Next was pressed
    on this step; ``revealed``: this step's reveal was on screen."""

    def __init__(self, section: int, view: Callable[[], Any], face: Any, hand: Any, controller: Callable[[], Any],
                 reveal_open: Callable[[], bool]):
        self.view = view
        self.face = face
        self.hand = hand
        self.controller = controller
        self.reveal_open = reveal_open
        self.section = section
        self.step_i = 0
        self.next_pressed = False
        self.revealed = False

    @property
    def sec(self) -> T.Section:
        return T.SECTIONS[self.section]

    @property
    def step(self) -> T.Step:
        return self.sec.steps[min(self.step_i, len(self.sec.steps) - 1)]

    def until(self, cond: Optional[tuple[Any, ...]]) -> bool:
        """The game has come to ``cond``: ("turn",) the player's turn to place, ("round", n) round
        n's planning, ("over",) the end; None: at once."""
        st = self.view()
        if cond is None:
            return True
        if cond[0] == "turn":
            return bool(st.phase == "place" and st.to_act() == (T.YOU,) and self.face.ai_showing is None)
        if cond[0] == "round":
            return bool((st.round > cond[1] or (st.round == cond[1] and st.phase == "plan")) or st.phase == "over")
        if cond[0] == "over":
            return bool(st.phase == "over")
        return True

    def your_turns(self) -> int:
        """The player's turns taken so far (placements, weddings, donations)."""
        return sum(1 for a in self.face.public_actions() if isinstance(a, (Place, Wedding, Donate)) and a.seat == T.YOU)

    def planned(self) -> bool:
        st = self.view()
        return bool(st.seats[T.YOU].plan is not None or st.phase != "plan")

    def complete(self, step: T.Step) -> bool:
        """``step`` is done (a reveal step notes that its reveal was on screen)."""
        st = self.view()
        k = step.kind
        arg: Any = step.arg
        pc = self.controller()
        if k == "info":
            return self.next_pressed and self.until(step.until)
        if k == "wait":
            return self.until(step.until)
        if k == "region":
            return bool(self.hand.region == arg or self.planned())
        if k == "action":
            return bool(self.hand.action == arg or self.planned())
        if k == "king":
            return bool(self.hand.king or self.planned())
        if k == "confirm":
            return self.planned()
        if k == "reveal":
            if self.reveal_open():
                self.revealed = True
                return False
            return bool((self.revealed or st.round > arg) and (st.phase != "plan" or st.round > arg))
        if k in ("place", "wed", "donate"):
            return self.your_turns() >= step.rnd
        if k == "wedding":
            return (pc is not None and pc.mode == "wedding") or self.your_turns() >= step.rnd
        if k == "ring":
            return (pc is not None and arg in pc.rings) or self.your_turns() >= step.rnd
        return False  # "finish": the Finish button
