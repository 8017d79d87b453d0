"""What an online game's screens say of its seats (issue 50), from what the server told this
computer (``remote.Table``): a seat resigned, played by the computer for its player, not
connected with its grace period counting down; whose turn clock runs and how much is left;
what the computer chose for this player when their time ran out. Words only: the screens
(``scenes/remote.py``, the game screen's panel) place them.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Callable, Optional, Protocol, Sequence

from ..rules import Action, Donate, GameState, Place, Plan, Wedding
from ..words import i18n

from . import protocol

if TYPE_CHECKING:
    from ..table.gamelog import LogEntry


class Table(Protocol):
    """What these words read of an online game's table (``remote.Table``)."""

    seats: list[protocol.SeatInfo]
    seat: Optional[int]

    def grace_left(self, seat: int, now: Optional[float] = None) -> Optional[float]: ...

    def clock_of(self, seat: int, now: Optional[float] = None,
                 latest: bool = False) -> Optional[tuple[float, bool]]: ...


def clock(seconds: float) -> str:
    """A count as the screens show it: ``1:05``; a part second counts as a whole one."""
    s = max(0, int(seconds + 0.999))
    return f"{s // 60}:{s % 60:02d}"


def seat_note(table: Table, seat: int, now: float) -> Optional[str]:
    """What a seat's panel says in place of its status, or None (nothing to add)."""
    seats = table.seats
    if not 0 <= seat < len(seats):
        return None
    s = seats[seat]
    if s.resigned:
        return i18n.t("online.you_resigned_short" if seat == table.seat else "online.seat_resigned")
    if s.kind == "ai" and s.player:
        return i18n.t("online.seat_ai_for")
    if s.kind == "human" and not s.connected and seat != table.seat:
        left = table.grace_left(seat, now)
        if left is None:
            return i18n.t("online.away")
        if left > 0:
            return i18n.t("online.away_grace", time=clock(left))
        return i18n.t("online.away_free")
    return None


def clock_note(table: Table, seat: int, now: float) -> Optional[str]:
    """A seat's turn clock as its panel shows it ("0:23 left", or "0:30, not started" while it
    waits for its player's screen), or None: no clock for that seat."""
    c = table.clock_of(seat, now)
    if c is None:
        return None
    left, running = c
    return i18n.t("online.clock_runs" if running else "online.clock_waits", time=clock(left))


def chosen_for_you(st: GameState, action: Action) -> str:
    """The notice for a player whose time ran out: what the computer chose for them."""
    if isinstance(action, Plan):
        cards = f"{i18n.card_name(st, action.region)} + {i18n.card_name(st, action.action)}"
        if action.king:
            cards += " + " + i18n.card_name(st, "K")
        return i18n.t("online.ai_chose_plan", cards=cards)
    if isinstance(action, Place):
        return i18n.t("online.ai_chose_place", fief=action.fief)
    if isinstance(action, Wedding):
        return i18n.t("online.ai_chose_wedding")
    assert isinstance(action, Donate)
    return i18n.t("online.ai_chose_donate")


def chosen_while_away(log: "Sequence[LogEntry]", st: GameState, seat: int, name: str) -> Optional[Plan]:
    """The plan the computer made for ``seat`` (named ``name``) in this round while its player was
    away, as a resume's log tells it; None when there is none to show (only plans: a placement
    is on the map, and after the reveal every plan is on the screen)."""
    plan = st.seats[seat].plan
    if st.phase != "plan" or plan is None:
        return None
    told = any(e.key == "log.ai_planned_for" and e.round == st.round and e.params.get("name") == name for e in log)
    return plan if told else None


def result_text(st: GameState, resigned: Callable[[int], bool], name: Callable[[int], str]) -> str:
    """Who won, among the players who played to the end: a seat whose player resigned is never
    named the winner (the computer played it); when it scored most, that is said instead."""
    winners = [i for i in st.winners if not resigned(i)]
    if winners or not st.winners:
        names = ", ".join(name(i) for i in winners)
        return i18n.t("end.winner" if len(winners) == 1 else "end.winners", names=names)
    return i18n.t("online.end_resigned_top", names=", ".join(name(i) for i in st.winners))
