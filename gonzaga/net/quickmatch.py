"""Quick match (issue 47): one message, ``quick_match``, seats its player at the best fitting open
table of the public lobby, or opens one with the player's terms and lets them wait there.

**Which table.** A listed table waiting for players (``listing.waiting_for_players``) of the
pace asked for (turn-based: the same time per move, unless the player takes any), of the size
asked for (or any), whose rating range holds the player's rating (``listing.in_range``: a player
not signed in fits only tables without a range), where the player's account has no seat yet;
of those, the one waiting longest (oldest first). None fits: a new listed table of that pace and
size (two seats when any size will do: it fills soonest), every other seat open for a player,
which starts by itself once full (``Create.auto_start``). Its seats are human only, so a game it
makes is rated when every player is signed in (docs/server.md, Ratings: an AI seated from the
start makes a game unrated).

**Two players at once never make two half-empty tables.** Choosing a table and taking its seat
happen in one call on the server's event loop, with no ``await`` between them, and every message
of every connection is handled on that loop one at a time: the second quick match sees the table
the first one opened (or the seat it took). With several processes on one database
(``sharing.py``) the choice is made among every process's waiting tables, read from the store
under the database's advisory lock that quick matches take one at a time, held until the seat
or the new table is stored (``Sharing.quick_match``); a table another process runs is taken
over first (its lease), as a ``join`` does.
"""
from __future__ import annotations

import logging
from typing import Any, Callable, Iterable, Optional

from . import listing
from . import protocol as P
from .admission import Refused
from .rooms import Conn, GameRoom

log = logging.getLogger(__name__)

COLOURS = ("red", "yellow", "green", "blue")
NEW_TABLE_SEATS = 2  # "any size": a new table of two fills soonest
TURN_HOURS = 24  # "any time per move": a new turn-based table's


def fits(room: GameRoom, m: P.QuickMatch, rating: Optional[float], mine: Callable[[GameRoom], bool]) -> bool:
    """Whether ``room`` may take the player of ``m`` (rated ``rating``); ``mine``: whether the
    player already has a seat there."""
    return (listing.waiting_for_players(room) and room.pace == m.pace
            and (m.pace != "turn" or not m.move_hours or room.move_hours == m.move_hours)
            and (m.seats is None or len(room.seats) == m.seats)
            and listing.in_range(room, rating) and not mine(room))


def best_table(rooms: Iterable[GameRoom], m: P.QuickMatch, rating: Optional[float],
               mine: Callable[[GameRoom], bool]) -> Optional[GameRoom]:
    """The fitting table waiting longest, or None."""
    fitting = [r for r in rooms if fits(r, m, rating, mine)]
    return min(fitting, key=lambda r: (r.created, r.code)) if fitting else None


def new_table(m: P.QuickMatch) -> P.Create:
    """The listed table a quick match opens when none fits: the player's terms, other seats open."""
    n = m.seats or NEW_TABLE_SEATS
    seats = [P.SeatRequest(kind="host" if i == 0 else "open", colour=COLOURS[i]) for i in range(n)]  # type: ignore[arg-type]
    hours = (m.move_hours or TURN_HOURS) if m.pace == "turn" else 0
    return P.Create(name=m.name, seats=seats, listed=True, pace=m.pace, move_hours=hours, auto_start=True)


def on_quick_match(server: Any, conn: Conn, m: P.QuickMatch) -> None:
    """``GameServer``'s handler of ``quick_match`` (it does not import the server)."""
    if server.admission.host_key is not None:
        raise Refused("not_allowed", "net.no_listing")
    desk = server.accounts
    me = desk.current(conn)

    def mine(room: GameRoom) -> bool:
        if any(c is conn for _, c in room.conns()):
            return True
        return me is not None and any(s.token_hash and desk.seat_owner(s.token_hash) == me.account for s in room.seats)

    rating = listing.rating_of(server, conn)
    sharing = server.sharing

    def choose(rooms: Iterable[GameRoom]) -> None:
        room = best_table(rooms, m, rating, mine)
        if room is None:
            server.on_create(conn, new_table(m))
            log.info("quick match: a new table")
            return
        if room.follower:  # another process runs it: this one takes it, as a join does
            room = sharing.steal(room, "quick match")
        server.on_join(conn, P.Join(code=room.code, name=m.name))  # its first open seat, as a join takes it
        log.info("quick match: seated at game %s", room.id)
    if sharing is None:
        choose(server.rooms.values())
    else:
        sharing.quick_match(choose)


def start_when_full(server: Any, room: GameRoom) -> None:
    """Deal a table that starts by itself (``Create.auto_start``) once its last seat is taken."""
    if room.auto_start and not room.started and all(s.kind != "open" for s in room.seats):
        server._deal(room)
