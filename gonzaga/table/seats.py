"""Who sits at a table and who may do what there (decided here, once, for every kind of table).

A seat is human, AI (with its level) or, in a lobby that has not started, open. The rules a
:class:`~gonzaga.table.core.Table` enforces with these functions:

- a human seat acts only for itself; an AI seat's decisions come only from the table's own
  pacing (its decision worker), never from a message or a screen;
- a hint is only for a human seat, computed from that seat's own view;
- a human seat is handed to an AI only by the table's host or by the seat's own player, in a
  game that has begun and is not over; the host only once the seat's player has been away for
  the table's grace period (online: their connection dropped);
- a seat handed to an AI that way may be taken back by its own player (not after resigning:
  a player who resigns leaves the seat to the AI for the rest of the game);
- the turn timer lets an AI stand in for a human seat for one decision, when it is that seat's
  turn;
- before the game begins (the lobby) seats may be changed freely; after, only that hand-over.

Every refusal is an ``Illegal``: a key of ``rules/refusals.py`` with its parameters and a rule id
(``E-table``, or the rules' own), never a sentence; the words floor puts it into words where it
is shown, and the server sends the key on (``net/server.py``).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional, Sequence

from ..rules import Action, Illegal, Setup

KINDS = ("human", "ai", "open")
TABLE_RULE = "E-table"  # the project's id for who may act, hand over or resign (tests/test_rule_ids.py)


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


def _in_play_problem(seats: Sequence[SeatSpec], seat: int, started: bool, over: bool) -> Optional[Illegal]:
    """None when ``seat`` (one of ``seats``) is a human's seat in a game being played, as a
    hand-over or a resignation needs; else why not."""
    if not started:
        return Illegal.of(TABLE_RULE, "not_begun")
    if over:
        return Illegal.of("E3", "game_over")
    if seats[seat].kind != "human":
        return Illegal.of(TABLE_RULE, "not_human_seat", seat=seat)
    return None


def handover_problem(seats: Sequence[SeatSpec], seat: int, by: Optional[int], host: Optional[int], over: bool,
                     started: bool) -> Optional[Illegal]:
    """None when ``by`` may hand ``seat`` to an AI now; else why not."""
    if not 0 <= seat < len(seats):
        return Illegal.of(TABLE_RULE, "no_seat", seat=seat)
    if by is None or (by != seat and by != host):
        return Illegal.of(TABLE_RULE, "handover_who")
    return _in_play_problem(seats, seat, started, over)


def grace_problem(seat: int, by: Optional[int], away_since: Optional[float], grace: float,
                  now: float) -> Optional[Illegal]:
    """The host hands another player's seat to an AI only once that player has been away for
    ``grace`` seconds (a dropped connection is given time to come back); None when it may."""
    if by == seat:
        return None
    if away_since is None:
        return Illegal.of(TABLE_RULE, "seat_connected", seat=seat)
    left = grace - (now - away_since)
    if left > 0:
        return Illegal.of(TABLE_RULE, "grace_left", seat=seat, seconds=int(left + 0.999))
    return None


def give_back_problem(seats: Sequence[SeatSpec], seat: int, by: Optional[int], handed: set[int],
                      over: bool) -> Optional[Illegal]:
    """None when ``by`` may take back its own ``seat`` from the AI now; else why not."""
    if not 0 <= seat < len(seats):
        return Illegal.of(TABLE_RULE, "no_seat", seat=seat)
    if over:
        return Illegal.of("E3", "game_over")
    if by != seat:
        return Illegal.of(TABLE_RULE, "give_back_who")
    if seats[seat].kind != "ai" or seat not in handed:
        return Illegal.of(TABLE_RULE, "not_handed", seat=seat)
    return None


def resign_problem(seats: Sequence[SeatSpec], seat: int, by: Optional[int], started: bool,
                   over: bool) -> Optional[Illegal]:
    """None when ``by`` may resign ``seat`` now; else why not."""
    if not 0 <= seat < len(seats) or by != seat:
        return Illegal.of(TABLE_RULE, "resign_who")
    return _in_play_problem(seats, seat, started, over)
