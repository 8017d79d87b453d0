"""Take-backs: a human seat takes back its own latest decision (issue 11, issue 38).

What may be taken back follows Board Game Arena's undo policy, adapted to this game, and is
decided here for every table (``Table.take_back`` asks :func:`problem`):

- only the acting human's own latest decision (plan, placement, wedding, donation): never
  another human's, so in hot-seat nobody can undo another human's decision (the desktop
  session says who sits at the screen: ``Session.at_screen``);
- its plan only while the plans are not revealed, its placement, wedding or donation only
  while the round it was made in goes on;
- never past a chance outcome the player has seen: once the next round's fiefs are turned
  up (R1) the round before is settled, and once the plans are revealed (R3) a plan is;
- never anything another human has already seen: not when another human seat decided after
  it, and never a placement, wedding or donation in a game with another human at the table
  (the shared screen, or their own screens online, have shown it to them);
- never once the game is over (the objectives are revealed), never for an AI seat.

AI seats' decisions made after it are undone with it: the record is cut back to the position
before the decision (``Table.rewind``) and the AI seats decide again from the same positions,
which gives the same answers (the table's AI pacing remembers them), so a decision made again
the same way continues the game exactly as before. Every take-back is counted in
``assists["takebacks"]``, which the save, the end screen and the statistics show.

The functions take a table or a desktop ``Session`` (anything with ``record``, ``state``,
``seats``, ``is_human`` and ``humans``). ``problem`` answers with an i18n key (``tb.*``).
"""
from __future__ import annotations

from typing import Optional, Protocol, Sequence

from ..rules import Donate, GameRecord, GameState, Place, Plan, Wedding
from .seats import SeatSpec

DECISIONS = (Plan, Place, Wedding, Donate)


class TableLike(Protocol):
    """What the policy reads: a ``Table`` or a desktop ``Session``."""

    @property
    def record(self) -> GameRecord: ...

    @property
    def state(self) -> GameState: ...

    @property
    def seats(self) -> Sequence[SeatSpec]: ...

    @property
    def humans(self) -> list[int]: ...

    def is_human(self, seat: int) -> bool: ...


class TakesBack(Protocol):
    """A ``Table`` or a desktop ``Session``: what :func:`problem` and :func:`take_back` call."""

    def takeback_problem(self, seat: Optional[int]) -> Optional[str]: ...

    def take_back(self, seat: Optional[int]) -> Optional[str]: ...


def last_decision(table: TableLike, seat: int) -> Optional[int]:
    """The index in the record of ``seat``'s last decision, or None."""
    for i in range(len(table.record.actions) - 1, -1, -1):
        a = table.record.actions[i]
        if isinstance(a, DECISIONS) and a.seat == seat:
            return i
    return None


def round_of(table: TableLike, i: int) -> int:
    """The round in which the record's action ``i`` was made: every round has one plan per seat."""
    acts = table.record.actions
    plans = sum(1 for a in acts[:i] if isinstance(a, Plan))
    n = table.record.config.seats
    return plans // n + 1 if isinstance(acts[i], Plan) else plans // n


def candidate(table: TableLike) -> Optional[int]:
    """The human seat whose decision a "Take back" would concern: the human who decided last."""
    for a in reversed(table.record.actions):
        if isinstance(a, DECISIONS) and table.is_human(a.seat):
            return a.seat
    return None


def rule_problem(table: TableLike, seat: Optional[int], by: Optional[int]) -> Optional[str]:
    """The policy above for a table-like ``table``: None when human ``by`` may take back the
    latest decision of ``seat`` now (only when it is its own)."""
    st = table.state
    if seat is None or not 0 <= seat < len(table.seats):
        return "tb.nothing"
    if st.phase == "over":
        return "tb.over"
    if by != seat or not table.is_human(seat):
        return "tb.nothing"  # nothing of the asker's own: another human's decision is never undone
    i = last_decision(table, seat)
    if i is None:
        return "tb.nothing"
    a = table.record.actions[i]
    r = round_of(table, i)
    if isinstance(a, Plan):
        if st.phase != "plan" or st.round != r:
            return "tb.revealed"
    elif st.round != r:
        return "tb.next_round"
    others = [h for h in table.humans if h != seat]
    if any(isinstance(b, DECISIONS) and b.seat in others for b in table.record.actions[i + 1:]):
        return "tb.other_human"
    if others and not isinstance(a, Plan):
        return "tb.shared_screen"
    return None


def problem(table: TakesBack, seat: Optional[int]) -> Optional[str]:
    """None when ``seat`` may take back its last decision now; else why not (an i18n key)."""
    return table.takeback_problem(seat)


def take_back(table: TakesBack, seat: Optional[int]) -> Optional[str]:
    """Take back ``seat``'s last decision: None when done, else why not (an i18n key)."""
    return table.take_back(seat)
