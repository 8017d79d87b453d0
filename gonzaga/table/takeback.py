"""Take-backs: a human seat takes back its last decision (issue 11).

What may be taken back follows Board Game Arena's undo policy, adapted to this game:

- only the seat's own last decision: its plan while the plans are not revealed, or its
  placement, wedding or donation while the round it was made in goes on;
- never past a chance outcome the player has seen: once the next round's fiefs are turned
  up (R1) the round before is settled, and once the plans are revealed (R3) a plan is;
- never when another human seat acted after it, and never a placement, wedding or donation
  in a game with another human at the table: the shared screen has shown it to them;
- never once the game is over (the objectives are revealed).

AI seats' decisions made after it are undone with it: the game's record is cut back to the
position before the decision (``Session.rewind``) and the AI seats decide again from the
same positions, which gives the same answers (the session remembers them), so a decision
made again the same way continues the game exactly as before. Every take-back is counted
in ``session.assists["takebacks"]``, which the save, the end screen and the statistics show.

Pure Python (no pygame). ``problem`` answers with an i18n key (``tb.*``), never a rule id.
"""
from __future__ import annotations

from typing import Optional

from ..rules import Donate, Place, Plan, Wedding

DECISIONS = (Plan, Place, Wedding, Donate)


def last_decision(session, seat: int) -> Optional[int]:
    """The index in the record of ``seat``'s last decision, or None."""
    for i in range(len(session.record.actions) - 1, -1, -1):
        a = session.record.actions[i]
        if isinstance(a, DECISIONS) and a.seat == seat:
            return i
    return None


def round_of(session, i: int) -> int:
    """The round in which the record's action ``i`` was made: every round has one plan per seat."""
    acts = session.record.actions
    plans = sum(1 for a in acts[:i] if isinstance(a, Plan))
    n = session.record.config.seats
    return plans // n + 1 if isinstance(acts[i], Plan) else plans // n


def candidate(session) -> Optional[int]:
    """The human seat whose decision a "Take back" would concern: the human who decided last."""
    for a in reversed(session.record.actions):
        if isinstance(a, DECISIONS) and session.is_human(a.seat):
            return a.seat
    return None


def problem(session, seat: Optional[int]) -> Optional[str]:
    """None when ``seat`` may take back its last decision now; else why not (an i18n key)."""
    st = session.state
    if seat is None or not 0 <= seat < len(session.seats):
        return "tb.nothing"
    if st.phase == "over":
        return "tb.over"
    if not session.is_human(seat):
        return "tb.nothing"
    i = last_decision(session, seat)
    if i is None:
        return "tb.nothing"
    a = session.record.actions[i]
    r = round_of(session, i)
    if isinstance(a, Plan):
        if st.phase != "plan" or st.round != r:
            return "tb.revealed"
    elif st.round != r:
        return "tb.next_round"
    others = [h for h in session.humans if h != seat]
    if any(isinstance(b, DECISIONS) and b.seat in others for b in session.record.actions[i + 1:]):
        return "tb.other_human"
    if others and not isinstance(a, Plan):
        return "tb.shared_screen"
    return None


def take_back(session, seat: Optional[int]) -> Optional[str]:
    """Take back ``seat``'s last decision: None when done, else why not (an i18n key)."""
    why = problem(session, seat)
    if why is not None:
        return why
    i = last_decision(session, seat)
    session.assists["takebacks"] = session.assists.get("takebacks", 0) + 1  # before: the autosave says it
    session.rewind(i)
    return None

