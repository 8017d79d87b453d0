"""The turn clocks of one online game (issue 50): when each human seat's turn timer starts,
how much it has left, and when it has run out.

A clock is fair only if it runs while its player can see the decision. The round's reveal
dialog (or any other window over the board) can cover it for a while, so the server starts a
seat's clock when that player's screen says the decision is shown (``protocol.Seen``), not when
the decision became due. The other way, showing a clock that already runs on the dialog, would
still take the time the player spends reading the reveal, which is the game's time, not theirs.
A client that never says so (a hostile or broken one, or one that has dropped) cannot hold the
game up for ever: the clock starts by itself ``SEEN_CAP`` seconds after the decision became
due. Pure bookkeeping on a clock the caller passes in (``now``): nothing here reads the time.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Optional

SEEN_CAP = 20.0  # seconds a clock waits for its player's screen before it starts anyway

Position = tuple[int, str, int]


@dataclass
class Clock:
    """One seat's clock at one position: when the decision became due, when the clock started
    (None: not yet), and whether it has run out (the AI was asked)."""

    position: Position
    due: float
    started: Optional[float] = None
    out: bool = False

    def start_at(self, now: float) -> Optional[float]:
        """When it started, the cap counted (None: it has not yet by ``now``)."""
        if self.started is not None:
            return self.started
        return self.due + SEEN_CAP if now >= self.due + SEEN_CAP else None


class TurnClocks:
    """The clocks of a game's human seats due to decide, for a turn timer of ``secs`` seconds."""

    def __init__(self, secs: int):
        self.secs = secs
        self.clocks: dict[int, Clock] = {}

    def sync(self, due: set[int], position: Position, now: float) -> None:
        """The seats ``due`` to decide at ``position``: a seat newly due gets a clock that waits to
        be seen; a seat no longer due (or at another position) loses its clock."""
        for seat in list(self.clocks):
            if seat not in due or self.clocks[seat].position != position:
                del self.clocks[seat]
        for seat in due:
            self.clocks.setdefault(seat, Clock(position, now))

    def seen(self, seat: int, position: Position, now: float) -> bool:
        """``seat``'s player sees its decision at ``position``: its clock starts (once). True when
        it started now."""
        c = self.clocks.get(seat)
        if c is None or c.position != position or c.start_at(now) is not None:
            return False
        c.started = now
        return True

    def left(self, seat: int, now: float) -> Optional[float]:
        """Seconds ``seat`` has left (None: no clock for it); the whole timer until it starts."""
        c = self.clocks.get(seat)
        if c is None:
            return None
        if c.out:
            return 0.0
        start = c.start_at(now)
        return float(self.secs) if start is None else max(0.0, self.secs - (now - start))

    def running(self, seat: int, now: float) -> bool:
        c = self.clocks.get(seat)
        return c is not None and not c.out and c.start_at(now) is not None

    def expired(self, now: float) -> list[int]:
        """The seats whose time has just run out (each told once per position)."""
        out = []
        for seat, c in sorted(self.clocks.items()):
            start = c.start_at(now)
            if not c.out and start is not None and now - start >= self.secs:
                c.out = True
                out.append(seat)
        return out

    def signature(self, now: float) -> tuple[tuple[int, Position, bool, bool], ...]:
        """What the players are told of (a change of it is sent to everyone): who has a clock,
        whether it runs, whether it ran out."""
        return tuple((s, c.position, c.start_at(now) is not None, c.out) for s, c in sorted(self.clocks.items()))


class ToldClocks:
    """What a client was told of the clocks (``protocol.Clocks`` at ``n`` actions, each seat's
    ``SeatInfo.grace_left``): the server's figures, run down by this computer's clock from
    each message's arrival (durations: the two computers' clocks need not agree)."""

    def __init__(self) -> None:
        self.clocks: dict[int, tuple[float, bool, float]] = {}  # seat -> (left, runs, arrived)
        self.n = -1
        self.grace_due: dict[int, float] = {}  # seat -> when its grace period ends here

    def told(self, clocks: Iterable[tuple[int, float, bool]], n: int, at: float) -> None:
        self.clocks = {seat: (left, running, at) for seat, left, running in clocks}
        self.n = n

    def graces(self, lefts: Iterable[tuple[int, Optional[float]]], at: float) -> None:
        self.grace_due = {seat: at + left for seat, left in lefts if left is not None}

    def clock_of(self, seat: int, n: int, now: float) -> Optional[tuple[float, bool]]:
        """``seat``'s clock at ``n`` actions: (seconds left, whether it runs); None: none told."""
        c = self.clocks.get(seat)
        if c is None or self.n != n:
            return None
        left, running, at = c
        return (max(0.0, left - (now - at)) if running else left), running

    def grace_left(self, seat: int, now: float) -> Optional[float]:
        """Seconds of ``seat``'s grace period left (None: not a dropped seat of a game being played)."""
        due = self.grace_due.get(seat)
        return None if due is None else max(0.0, due - now)
