"""The tutorial's game: the player against the scripted AI seat, from a section's position, as
its screen gets it (a face: the screen never holds the session).

Apart from the script (``tutorial.py``) so that reading the tutorial's sections and the player's
progress (the title's "Continue tutorial") does not load the authority and its session."""
from __future__ import annotations

from typing import Optional

from ..ai import make_bot
from ..rules import Action, GameState
from ..rules.content import Content
from .seats import SeatSpec
from .seatview import GameFace, face_of
from .session import Session
from .tutorial import AI, COLOURS, YOU, ai_move, start_record


def tutorial_face(section_id: str, content: Optional[Content], ai_delay: float, name: str) -> GameFace:
    """The tutorial's game from ``section_id`` on, as the screen gets it (its face: the screen
    never holds the session): you against the scripted AI seat."""
    seats = [SeatSpec("Gonzaga", "human", colour=COLOURS[YOU]), SeatSpec("Sforza", "ai", "easy", COLOURS[AI])]
    session = Session(seats, start_record(section_id), content=content, worker=ScriptedWorker(),
                      ai_delay=ai_delay, name=name)
    return face_of(session)


class ScriptedWorker:
    """A decision worker (the session's API) whose AI seat plays the script at once.

    An AI decision the script has no answer for (it cannot happen while the tutorial is
    followed) falls back to the greedy bot, so a game never stalls."""

    def __init__(self) -> None:
        self._answers: dict[int, Action] = {}
        self._n = 0

    def request(self, bot_name: str, seed: int, v: GameState, seat: int) -> int:
        self._n += 1
        a = ai_move(v.round, v.phase) if seat == AI else None
        if a is None or (v.phase == "place" and v.order[v.turn] != seat):
            a = make_bot("greedy", seed).choose(v, seat)
        self._answers[self._n] = a
        return self._n

    def result(self, ticket: int) -> Optional[Action]:
        return self._answers.pop(ticket, None)

    def cancel_all(self) -> None:
        self._answers.clear()

    def close(self) -> None:
        self.cancel_all()
