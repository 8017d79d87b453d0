"""What the server does when grouped commits refuse actions (issue 47, ``groupcommit.py``).

With grouped commits a table applies an action before it is on disk; nobody is told of it until
it is (``rooms.Conn`` holds the messages). When the store refuses it after all (a full disk, a
broken database), the game in memory is ahead of what is stored and must not stay so: it is
read again from the store and its connections move to it, each dropping the messages it was
holding from that action on (so every client is left at the stored position, which is what it
was told), and the player whose action it was gets the refusal ``not_stored``, as when the store
refused at once. A game that cannot be read again closes its connections (1011); their clients
come back with ``resume``.

With several processes on PostgreSQL an action is also refused when its game's lease was taken
by another process after it was queued (``LeaseLost``, ``store_pg.append_fenced``): the game is
read again the same way, as a follower of its new owner (this process's fence for it is
dropped), so its players' next acts go to the owner (``sharing.py``); the refused act of a
player connected here is passed on to the owner too, as their next act would be
(``Sharing.resend``): the player is not told of the refusal, only of its outcome there.
"""
from __future__ import annotations

import logging
from collections import deque
from typing import TYPE_CHECKING, Optional

from ..rules import Action, ActionSyntaxError, parse_action
from . import upkeep
from .admission import Refused
from .groupcommit import GroupCommit, Lost
from .rooms import Conn, GameRoom
from .sharing import follow_actions
from .storage import LeaseLost

if TYPE_CHECKING:  # the server calls this module; this module only uses the server it is given
    from .server import GameServer

log = logging.getLogger(__name__)

CLOSE_NOT_STORED = 1011


def group_commits(server: "GameServer") -> GroupCommit:
    """From now on ``server``'s store is behind one writer thread that commits many games'
    actions at once, and its messages wait for the writes they follow; on ``server.loop``."""
    assert server.loop is not None and server.commits is None
    fences: Optional[dict[str, int]] = getattr(server.store, "fences", None) \
        if getattr(server.store, "fencing", False) else None  # several processes: each game's lease epoch
    server.commits = GroupCommit(server.store, server.loop, lambda lost: back_to_stored(server, lost),
                                 fence=None if fences is None else fences.get)
    server.store = server.commits
    if server.turns.index is not None:  # its rows are written on the same thread, off the loop
        server.turns.index.commits = server.commits
    return server.commits


def back_to_stored(server: "GameServer", lost: list[Lost]) -> None:
    """The games of ``lost`` (actions the store refused) go back to what is stored (see above)."""
    rooms = {id(x.owner): x.owner for x in lost if isinstance(x.owner, GameRoom)}
    for old in rooms.values():
        if server.rooms.get(old.id) is not old:
            continue  # already read again (a later action of the same game)
        first = min((x for x in lost if x.owner is old), key=lambda x: x.seq)
        if isinstance(first.error, LeaseLost):
            fences = getattr(server.store, "fences", None)
            if fences is not None and fences.get(old.id) == first.epoch:
                del fences[old.id]  # not taken back meanwhile: read again as a follower
            log.warning("game %s: action %d was not stored: another process runs the game now", old.id, first.index)
        else:
            log.error("game %s: action %d could not be stored (%s): the game goes back to what is stored",
                      old.id, first.index, first.error)
        conns: list[tuple[Optional[int], Conn]] = [(i, c) for i, c in old.conns()] + [(None, c) for c in old.watchers]
        for _, c in conns:  # what was sent before the refused action was queued still goes
            c.held = deque(h for h in c.held if h[0] < first.seq or not isinstance(h[1], str))
            c.room = c.seat = None
        upkeep.forget_room(server, old)
        old.table.close()
        ours = old.id in (getattr(server.store, "fences", None) or {})  # (taken back meanwhile: an owner again)
        new, later = _read_again(server, old.id, first.index if isinstance(first.error, LeaseLost) and not ours else None)
        actor = getattr(_parsed(first.text), "seat", None)
        for seat, c in conns:
            if new is None:
                c.abandon(CLOSE_NOT_STORED, "not stored")
                continue
            if seat is None:
                new.watchers.append(c)
            else:
                new.seats[seat].conn = c
                new.arrived(seat, fresh=False)
            c.room, c.seat = new, seat
            if seat is not None and seat == actor and new.seats[seat].kind == "human":
                if isinstance(first.error, LeaseLost) and new.follower and server.sharing is not None:
                    server.sharing.resend(c, new, seat, first.index, first.text)  # to the game's owner now
                else:
                    c.refuse(Refused("server", "net.not_stored"))
        if new is not None and later:  # the new owner's actions since, each told as the owner's news would be
            follow_actions(new, later)
        if new is not None and server.sharing is not None:
            server.sharing.presence(new, tell=False)  # seats held by another process are not away
        if new is not None:
            new.said, new.news = old.said, deque(((k, e) for k, e in old.news if k <= new.n), maxlen=old.news.maxlen)
            server._pump(new)


def _read_again(server: "GameServer", game_id: str, told: Optional[int]) -> tuple[Optional[GameRoom], list[str]]:
    """The game as stored, registered; with ``told`` (another process runs it now), read only
    up to the ``told`` actions its connections were told of, and the ones stored since after it
    (the caller tells them: read in one go they would be skipped, their news finding the room
    up to date)."""
    if server.stopping:
        return None, []
    try:
        g = server.store.load_game(game_id)
    except Exception as e:
        log.error("game %s cannot be read again: %s", game_id, e)
        return None, []
    if g is None:
        return None, []
    later: list[str] = []
    if told is not None and 0 < told <= len(g.actions):
        g.actions, later = g.actions[:told], g.actions[told:]
    try:
        room = server._rebuild(g)
    except Exception as e:
        log.error("game %s cannot be resumed: %s", game_id, e)
        return None, []
    server._register(room)
    return room, later


def _parsed(text: str) -> Optional[Action]:
    try:
        return parse_action(text)
    except (ActionSyntaxError, ValueError):
        return None
