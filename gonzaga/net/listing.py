"""A server's list of open games (issue 50), the public lobby of issue 47: what "Play on a
server" shows before a player joins, and the terms a listed table sets.

Only games whose host asked for it (``Create.listed``) are listed, and only while they wait for
players: not started, a seat open. A host's own server (the desktop's "Host online game") lists
nothing: its games are for the friends its host invites (``Refused`` with ``net.no_listing``).

Each listed table shows its seats (taken, open, AI levels), its pace (live, or turn-based with
the time per move: t47turn's ``Create.pace``/``move_hours``), the rating range its creator chose
and its host's name and rating. **A rating range** (``Create.rating_min``/``rating_max``, in the
shown rating, ``mu - 3 sigma``) admits only signed-in accounts whose rating is inside it
(``check_range``, at ``join`` and quick match), and its creator must be one of them. An account
with no rated game has the rating of a new one, ``NEW_RATING``.
"""
from __future__ import annotations

import time
from typing import Any, Iterable, Optional

from . import protocol as P
from .account_desk import R as _RATINGS
from .admission import Admission, Refused
from .rooms import Conn, GameRoom

NEW_RATING = 0.0  # openskill's new player: mu 25, sigma 25/3, so mu - 3 sigma = 0 (tests check it)


def open_games(rooms: Iterable[GameRoom], admission: Admission, now: Optional[float] = None,
               server: Any = None, ask: Optional[P.ListGames] = None, rating: Optional[float] = None) -> P.Games:
    """The listed games waiting for players that pass ``ask``'s filters, newest first (at most
    ``P.MAX_LISTED``); ``rating``: the asker's (for ``fits``, and told back)."""
    if admission.host_key is not None:
        raise Refused("not_allowed", "net.no_listing")
    now = time.time() if now is None else now
    ask = ask or P.ListGames()
    waiting = [r for r in rooms if waiting_for_players(r) and (ask.pace is None or r.pace == ask.pace)
               and (ask.seats is None or len(r.seats) == ask.seats) and (not ask.fits or in_range(r, rating))]
    waiting.sort(key=lambda r: r.created, reverse=True)
    return P.Games(games=[_listed(r, now, server) for r in waiting[: P.MAX_LISTED]], rating=rating)


def waiting_for_players(room: GameRoom) -> bool:
    return room.listed and not room.started and any(s.kind == "open" for s in room.seats)


def _listed(r: GameRoom, now: float, server: Any) -> P.OpenGame:
    host = r.seats[r.host_seat]
    standing = _standing(server, host.token_hash) if server is not None else None
    return P.OpenGame(code=r.code, host=host.name[:24], taken=sum(1 for s in r.seats if s.kind != "open"),
                      seats=len(r.seats), turn_secs=r.turn_secs, age=int(max(0.0, now - r.created)),
                      pace="turn" if r.pace == "turn" else "live", move_hours=max(0, min(168, r.move_hours)),
                      rating_min=r.rating_min, rating_max=r.rating_max,
                      host_rating=None if standing is None else standing[0],
                      host_games=0 if standing is None else standing[1],
                      seating=[P.ListedSeat(kind=s.kind, name=s.name[:24] if s.kind == "human" else "",  # type: ignore[arg-type]
                                            bot=s.bot if s.kind == "ai" else None) for s in r.seats],
                      rated=server is not None and rates(server) and not any(s.kind == "ai" for s in r.seats))


def rates(server: Any) -> bool:
    """Whether ``server`` rates its games (accounts, and openskill installed: docs/server.md)."""
    return server.accounts.store is not None and _RATINGS is not None


def _standing(server: Any, digest: Optional[str]) -> Optional[tuple[float, int]]:
    """(rating, rated games) of the account a seat's token is bound to; None without one."""
    desk = server.accounts
    owner = desk.seat_owner(digest) if digest and desk.store is not None else None
    if owner is None:
        return None
    s = desk.store.standing(owner)
    return (round(s.shown, 2), s.games) if s is not None else (NEW_RATING, 0)


def rating_of(server: Any, conn: Conn) -> Optional[float]:
    """The rating of the account ``conn`` is signed in to (``NEW_RATING`` before its first rated
    game); None when it is not signed in (or the server has no accounts)."""
    desk = server.accounts
    me = desk.current(conn)
    if me is None or desk.store is None:
        return None
    s = desk.store.standing(me.account)
    return round(s.shown, 2) if s is not None else NEW_RATING


def in_range(room: GameRoom, rating: Optional[float]) -> bool:
    """Whether a player of ``rating`` (None: not signed in) may sit at ``room``."""
    if room.rating_min is None and room.rating_max is None:
        return True
    if rating is None:
        return False
    return (room.rating_min is None or rating >= room.rating_min) and (room.rating_max is None or rating <= room.rating_max)


def seat_to_join(server: Any, conn: Conn, room: Optional[GameRoom]) -> tuple[GameRoom, int]:
    """The room and open seat a ``join`` takes: a listed table that filled meanwhile says so, an
    invite code that names no waiting game gets one answer whatever the reason (a guess learns
    nothing of a game: counted against the address), and a rating range is checked."""
    seat = None if room is None or room.started else next(
        (i for i, s in enumerate(room.seats) if s.kind == "open"), None)
    if seat is None and room is not None and room.listed:  # listed: public anyway, so say why
        raise Refused("full", "lobby.table_full")
    if room is None or seat is None:
        server.admission.wrong_guess(conn.address)
        raise Refused("unknown_game", "net.no_waiting_game")
    check_range(server, conn, room)
    return room, seat


def check_range(server: Any, conn: Conn, room: GameRoom) -> None:
    """Refused when ``room`` has a rating range that ``conn``'s account is not inside."""
    if room.rating_min is None and room.rating_max is None:
        return
    rating = rating_of(server, conn)
    if rating is None:
        raise Refused("not_allowed", "lobby.range_sign_in")
    if not in_range(room, rating):
        raise Refused("not_allowed", "lobby.outside_range", rating=rating, low=_bound(room.rating_min),
                      high=_bound(room.rating_max))


def check_terms(server: Any, conn: Conn, m: P.Create) -> None:
    """A new table's rating range: on a server with accounts, from a creator inside it."""
    if m.rating_min is None and m.rating_max is None:
        return
    if server.accounts.store is None:
        raise Refused("not_allowed", "lobby.range_no_accounts")
    if m.rating_min is not None and m.rating_max is not None and m.rating_min > m.rating_max:
        raise Refused("bad_message", "lobby.range_empty", low=m.rating_min, high=m.rating_max)
    rating = rating_of(server, conn)
    if rating is None:
        raise Refused("not_allowed", "lobby.range_sign_in")
    if (m.rating_min is not None and rating < m.rating_min) or (m.rating_max is not None and rating > m.rating_max):
        raise Refused("not_allowed", "lobby.range_not_yours", rating=rating, low=_bound(m.rating_min),
                      high=_bound(m.rating_max))


def _bound(v: Optional[int]) -> str:
    return "" if v is None else str(v)


def on_list_games(server: Any, conn: Conn, m: P.ListGames) -> None:
    """``GameServer``'s handler of ``list_games`` (a ``server.GameServer``: this module does not import it)."""
    conn.send(open_games(server.rooms.values(), server.admission, server=server, ask=m,
                         rating=rating_of(server, conn)))
