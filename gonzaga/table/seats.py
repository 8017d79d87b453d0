"""Who sits at a table and who may do what there (decided here, once, for every kind of table).

A seat is human, AI (with its level) or, in a lobby that has not started, open. The rules a
:class:`~gonzaga.table.core.Table` enforces with these functions:

- a human seat acts only for itself; an AI seat's decisions come only from the table's own
  pacing (its decision worker), never from a message or a screen;
- a hint is only for a human seat, computed from that seat's own view;
- a human seat is handed to an AI only by the table's host or by the seat's own player, in a
  game that has begun and is not over;
- before the game begins (the lobby) seats may be changed freely; after, only that hand-over.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional, Sequence

from ..rules import Action, Illegal, Setup

KINDS = ("human", "ai", "open")


@dataclass
class SeatSpec:
    """Who sits in a chair: a name, human or AI (with the bot's name), a colour."""

    name: str
    kind: str = "human"  # "human" or "ai" ("open": a lobby's seat nobody holds yet)
    bot: str = "greedy"
    colour: str = "red"

    @property
    def is_ai(self) -> bool:
        return self.kind == "ai"

    def to_json(self) -> dict[str, str]:
        return {"name": self.name, "kind": self.kind, "bot": self.bot, "colour": self.colour}


class SeatRefused(Illegal):
    """An action refused because of who sent it (not by a rule of the game): another seat's
    action, or a seat played by the computer. ``rule`` is R5 (each seat acts for itself)."""


def act_problem(seats: Sequence[SeatSpec], seat: int, action: Action) -> Optional[Illegal]:
    """None when ``seat`` (a human) may send ``action``; else why not."""
    if isinstance(action, Setup):
        return Illegal.of("S2", "setup_by_session")
    if not 0 <= seat < len(seats):
        return SeatRefused.of("R5", "no_seat", seat=seat)
    if getattr(action, "seat", None) != seat:
        return SeatRefused.of("R5", "not_this_seat", asked=getattr(action, "seat", None), seat=seat)
    if seats[seat].kind != "human":
        return SeatRefused.of("R5", "seat_computer", name=seats[seat].name or f"{seat + 1}")
    return None


def may_hint(seats: Sequence[SeatSpec], seat: Optional[int]) -> bool:
    """A hint is only for a human seat (and only from its own view: see ``Table.hint_view``)."""
    return seat is not None and 0 <= seat < len(seats) and seats[seat].kind == "human"


def handover_problem(seats: Sequence[SeatSpec], seat: int, by: Optional[int], host: Optional[int], over: bool,
                     started: bool) -> Optional[str]:
    """None when ``by`` may hand ``seat`` to an AI now; else why not (a sentence)."""
    if not 0 <= seat < len(seats):
        return f"there is no seat {seat}"
    if not started:
        return "the game has not begun: change the seats in the lobby"
    if over:
        return "the game is over"
    if seats[seat].kind != "human":
        return f"seat {seat} is not a human's seat"
    if by is None or (by != seat and by != host):
        return "only the host or the seat's own player may hand a seat to the computer"
    return None
