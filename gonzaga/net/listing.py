"""A server's list of open games (issue 50): what "Play on a server" shows before a player joins.

Only games whose host asked for it (``Create.listed``) are listed, and only while they wait for
players: not started, a seat open. A host's own server (the desktop's "Host online game") lists
nothing: its games are for the friends its host invites (``Refused`` with ``net.no_listing``).
"""
from __future__ import annotations

import time
from typing import Any, Iterable, Optional

from . import protocol as P
from .admission import Admission, Refused
from .rooms import Conn, GameRoom


def open_games(rooms: Iterable[GameRoom], admission: Admission, now: Optional[float] = None) -> P.Games:
    """The listed games waiting for players, newest first (at most ``P.MAX_LISTED``)."""
    if admission.host_key is not None:
        raise Refused("not_allowed", "net.no_listing")
    now = time.time() if now is None else now
    waiting = [r for r in rooms if r.listed and not r.started and any(s.kind == "open" for s in r.seats)]
    waiting.sort(key=lambda r: r.created, reverse=True)
    return P.Games(games=[P.OpenGame(code=r.code, host=r.seats[r.host_seat].name[:24],
                                     taken=sum(1 for s in r.seats if s.kind != "open"), seats=len(r.seats),
                                     turn_secs=r.turn_secs, age=int(max(0.0, now - r.created)))
                          for r in waiting[: P.MAX_LISTED]])


def on_list_games(server: Any, conn: Conn, m: P.ListGames) -> None:
    """``GameServer``'s handler of ``list_games`` (a ``server.GameServer``: this module does not import it)."""
    conn.send(open_games(server.rooms.values(), server.admission))
