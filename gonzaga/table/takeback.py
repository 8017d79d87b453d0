"""Take-backs: a human seat takes back its own latest decision (issue 11, issue 38).

What may be taken back follows Board Game Arena's undo policy, adapted to this game, and is
decided here for every table (``Table.take_back`` asks :func:`problem`):

- only at a table with one human (issue 40). With several humans (hot-seat, or online, where
  the server keeps the game) nothing is taken back: on a shared screen the program cannot
  tell who sits at it, so a take-back could undo another human's secret plan; and every
  placement is seen by everyone at once;
- only the acting human's own latest decision (plan, placement, wedding, donation), never an
  AI seat's alone;
- its plan only while the plans are not revealed (R3);
- its placement, wedding or donation while the round it was made in goes on, and - when it
  was the round's last, so the next round's fiefs (R1) turned up at once - until the human
  confirms its plan of the next round: that plan, then its last decision, says the new fiefs
  were seen, and the round before is settled;
- never once the game is over (the objectives are revealed).

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
    if len(table.humans) > 1:
        return "tb.hot_seat"  # several humans: nothing is taken back (the docstring says why)
    if by != seat or not table.is_human(seat):
        return "tb.nothing"  # nothing of the asker's own: another human's decision is never undone
    i = last_decision(table, seat)
    if i is None:
        return "tb.nothing"
    if isinstance(table.record.actions[i], Plan) and (st.phase != "plan" or st.round != round_of(table, i)):
        return "tb.revealed"
    # A placement, wedding or donation needs no test of its own: a round's plan phase ends only
    # once every seat has planned, so one still the seat's last decision was made in this round,
    # or was the last of the round before and the seat has not confirmed its next plan yet.
    return None


def problem(table: TakesBack, seat: Optional[int]) -> Optional[str]:
    """None when ``seat`` may take back its last decision now; else why not (an i18n key)."""
    return table.takeback_problem(seat)


def take_back(table: TakesBack, seat: Optional[int]) -> Optional[str]:
    """Take back ``seat``'s last decision: None when done, else why not (an i18n key)."""
    return table.take_back(seat)
