"""Several ``gonzaga serve`` processes on one PostgreSQL database (issue 47): the server's side.
The leases and the notifications themselves are ``leases_pg.py`` (it says why a lease and why
LISTEN/NOTIFY); this part knows no SQL.

Every process accepts every player. A game is run by the process holding its lease (its room is
an *owner*: its table writes, its AI seats think, its turn timer runs); every other process that
has a player or a spectator of it keeps a *follower* room: a replica of the table that writes
nothing, moved on by the owner's notifications (``a``: new actions, read from the store and
applied with ``Table.follow``, so each local connection gets its own seat's update), and that
passes on what the owner tells everyone at the table (``t``: the lobby, log lines, chat,
clocks) and the seats' changes (``s``: the room is read again).

A player's ``act`` sent to a follower is passed on to the owner (``f``, with the seat's token
hash, never the token) and applied there as one of its own players' would be; its update comes
back as news, a refusal as ``r`` for that request. The owner answers within a few milliseconds;
one that does not within ``FORWARD_SECONDS`` (it died meanwhile) is replaced: the follower takes
the lease and handles the act itself, where the client's ``n`` makes a doubled action ``stale``.
An act on a game whose lease has lapsed is taken at once. Other messages of a seat (start, seat
changes, chat, resign, rematch), a ``resume`` and a ``join`` take the game's lease (``steal``):
the game moves to that process, read again from the store (nothing is lost: the store has every
action the former owner wrote, and the fencing refuses any later one) and the message is
handled there as on one process. A write refused because the lease was taken meanwhile
(``LeaseLost``) takes it back once and handles the message again.
A game whose process died (or sleeps) is taken over by another within ``LEASE_SECONDS`` plus a
second, by ``claim_lapsed`` in the one-second tick, or at once by its first player who acts or
comes back (``resume``) on another process.

Presence is shared: every second each process writes which seats' connections it holds and
that it is alive (``leases_pg.GameLeases.beat``; the owner of a game whose seats changed there is
told, ``p``). An owner counts a human seat present when its connection is here or in another
live process; one held nowhere is away from the take-over on (its grace period starts, and the
host may hand it to the AI once it is over), and the owner looks again every ``CHECK_SECONDS``
at the seats it believes held elsewhere (that process may have died).

What a room holds besides its actions is kept in the store too, so that it outlives the process
that heard it: the latest chat lines (``rooms.CHAT_KEPT``, each as it was told: its text was
cleaned before, and it is sent again as it is) and the seats asking for a rematch of a finished
game (a finished game has no lease: whichever process a player's message reaches keeps it,
and passes on a chat line said there to the others, ``t``, as an owner does).
A rematch's players may be connected to different processes: each asks where they are
connected, and the token of their seat in the new game is made there (only its hash is written
with the ask); the process that hears the last ask begins the rematch with those hashes and tells
the others (``m``), which give their own players their tokens (``sharing_rematch.py``).
Each is written on the server's writer thread, after what it had queued, off the event loop
(``_write``). A process reading a game (``load``, ``reload``: a take-over, a steal, a resume)
reads them back behind its own queued writes (``_restore_kept``); the chat lines it heard from
the owner (``t``) and the owner has not written yet are kept after those; a rematch ask or a
player coming back to a finished game reads the asks again (another process may have heard
some). SQLite needs none of this: its one process is the only one that hears the lines and the
asks, and nobody takes its games over: when it stops, every connection ends with it (which
withdraws every ask) and its players come back to a new process, to an empty chat, as before.
"""
from __future__ import annotations

import asyncio
import logging
import time
from collections import deque
from typing import Any, Callable, Optional, Protocol, TypeVar

from pydantic import BaseModel

from ..rules import parse_action
from . import protocol as P
from .admission import Refused
from .rooms import CHAT_KEPT, Conn, GameRoom, clock_now, play_act, token_hash
from .sharing_rematch import RematchServer, SharedRematch
from .storage import GameStore, StoredGame
from .upkeep import forget_room

log = logging.getLogger(__name__)

TICK_SECONDS = 1.0  # renew the leases, take over lapsed games
CHECK_SECONDS = 5.0  # followers compare their counts with the store's (a notification missed)
FORWARD_SECONDS = 3.0  # an act passed on to the owner and not answered is taken here after this
QUICK_MATCH_LOCK = 4_700_048  # the advisory lock quick matches take, one process at a time
T = TypeVar("T")
STEALS = {"act", "start", "set_seat", "chat", "emote", "resign", "rematch", "resume", "join"}
KEPT_AGAIN = {"rematch", "resume", "watch"}  # read the kept asks (and lines) of a finished game first


class Leases(Protocol):
    """What this part uses of ``leases_pg.GameLeases`` (and its store)."""
    process: str

    def take(self, game_id: str, why: str = "take") -> int: ...

    def take_lapsed(self, game_id: str) -> Optional[int]: ...

    def renew(self) -> set[str]: ...

    def claim_lapsed(self, limit: int = 20) -> dict[str, int]: ...

    def release(self) -> None: ...

    def drop(self, game_id: str) -> None: ...

    def tell(self, kind: str, game_id: str, n: int = 0, extra: str = "") -> None: ...

    def beat(self, gone: set[tuple[str, int]], come: set[tuple[str, int]]) -> None: ...

    def held_elsewhere(self, game_ids: list[str]) -> dict[str, set[int]]: ...

    def waiting_tables(self, limit: int = 50) -> list[str]: ...

    def keep_clocks(self, game_id: str, told: str) -> None: ...

    def clocks_of(self, game_id: str) -> Optional[tuple[str, float]]: ...

    def exclusive(self, key: int, fn: Callable[[], T]) -> T: ...


class SharedServer(RematchServer, Protocol):
    """What this part uses of ``server.GameServer`` (and gives ``SharedRematch``)."""
    store: GameStore
    rooms: dict[str, GameRoom]
    by_code: dict[str, GameRoom]
    tokens: dict[str, tuple[GameRoom, int]]
    stopping: bool
    loop: Optional[asyncio.AbstractEventLoop]

    def _rebuild(self, g: StoredGame) -> GameRoom: ...

    def _register(self, room: GameRoom) -> None: ...

    def _pump(self, room: GameRoom) -> None: ...

    def _settle(self, room: GameRoom) -> None: ...


class TellingStore(GameStore):
    """The PostgreSQL store, telling the other processes of each change of a game's row (``s``)
    and letting go of a finished game's lease."""

    def __init__(self, inner: Any, leases: Leases):
        self.inner, self.leases = inner, leases

    def __getattr__(self, name: str) -> Any:  # fences, lost, load_actions, game_of_code, counts...
        return getattr(self.inner, name)

    def _told(self, game_id: str) -> None:
        try:
            self.leases.tell("s", game_id)
        except Exception as e:  # the followers read the game again at their next check
            log.warning("game %s: the other processes could not be told of a change: %s", game_id, e)

    def create_game(self, game: StoredGame) -> None:
        self.inner.create_game(game)
        self.leases.take(game.id, "created")

    def replace_seats(self, game_id: str, seats: list[dict[str, Any]]) -> None:
        self.inner.replace_seats(game_id, seats)
        self._told(game_id)

    def set_started(self, game_id: str) -> None:
        self.inner.set_started(game_id)
        self._told(game_id)

    def set_finished(self, game_id: str) -> None:
        self.inner.set_finished(game_id)
        self._told(game_id)
        try:
            self.leases.drop(game_id)
        except Exception as e:  # a lease of a finished game is only left over
            log.warning("game %s: its lease could not be let go of: %s", game_id, e)

    def append_action(self, game_id: str, index: int, text: str) -> None:
        self.inner.append_action(game_id, index, text)

    def load_games(self, finished: bool = True) -> list[StoredGame]:
        return list(self.inner.load_games(finished))

    def load_game(self, game_id: str) -> Optional[StoredGame]:
        return self.inner.load_game(game_id)  # type: ignore[no-any-return]

    def delete_game(self, game_id: str) -> None:
        self.inner.delete_game(game_id)
        try:
            self.leases.tell("d", game_id)
        except Exception as e:
            log.warning("game %s: the other processes could not be told it was deleted: %s", game_id, e)

    def code_taken(self, code: str) -> bool:
        return bool(self.inner.code_taken(code))

    def close(self) -> None:
        self.inner.close()


class Sharing:
    """The games of one process among several (see the module docstring)."""

    def __init__(self, server: SharedServer, leases: Leases, clock: Callable[[], float] = time.monotonic):
        self.server, self.leases, self.clock = server, leases, clock
        self.checked = clock()
        self.steals = 0
        self.taken_over = 0
        self.forwarded = 0
        # acts passed on to the owner, by request number: (connection, game, n, the local handling
        # should the owner not answer, the timer for that)
        self.pending: dict[int, tuple[Conn, str, int, Callable[[], None], asyncio.TimerHandle]] = {}
        self._req = 0
        self.held: set[tuple[str, int]] = set()  # (game, seat) whose connection this process said it holds
        self.listener: Any = None  # leases_pg.Listener, once listening (serve.py)
        self.rematches = SharedRematch(server, leases, self.load)  # players on several processes

    @property
    def store(self) -> Any:
        return self.server.store

    # ------------------------------------------------------------ rooms

    def registered(self, room: GameRoom) -> None:
        """A room the server just registered: an owner if this process holds its lease."""
        room.follower = room.id not in self.store.fences
        room.mirror = lambda text, r=room: self._mirror(r, text)
        room.keep_said = lambda text, r=room: self._keep_said(r, text)
        room.rematch.changed = lambda seat, asked, r=room: self._keep_ask(r, seat, asked)

    def _mirror(self, room: GameRoom, text: str) -> None:
        """What an owner tells everyone at its table, passed on to the followers' connections; and
        a finished game's chat by whichever process hears it (a finished game has no owner)."""
        if self.server.stopping or (room.follower and not (room.finished and _said(text))):
            return
        try:
            self.leases.tell("t", room.id, room.n, text)
        except Exception as e:
            log.warning("game %s: the other processes could not be told: %s", room.id, e)
        if '"type":"clocks"' in text[:30]:
            self._keep_clocks(room.id, text)

    def _write(self, what: str, gid: str, fn: Callable[[Any], None]) -> None:
        """``fn`` on the store (the PostgreSQL one, behind the game's store wrappers), on the
        server's writer thread after what it has queued, off the event loop (at once when the
        server has none); a failure is logged, the room goes on."""
        commits = getattr(self.server, "commits", None)
        store = commits.store if commits is not None else self.store

        def run() -> None:
            try:
                fn(store)
            except Exception as e:
                log.warning("game %s: %s could not be kept: %s", gid, what, e)
        if commits is None:
            return run()
        try:
            commits.later(run)
        except Exception as e:  # the writer has stopped (the server stops)
            log.warning("game %s: %s could not be kept: %s", gid, what, e)

    def _keep_clocks(self, gid: str, text: str) -> None:
        """The clocks just told, kept in the store for a process that takes the game over
        (``_restore_clocks``); the next change keeps them again."""
        self._write("its clocks", gid, lambda _store: self.leases.keep_clocks(gid, text))

    def _keep_said(self, room: GameRoom, text: str) -> None:
        """A chat line just told (``room.say``), kept as it was told with the game's latest ones."""
        gid = room.id
        self._write("a chat line", gid, lambda store: store.keep_said(gid, text, CHAT_KEPT))

    def _keep_ask(self, room: GameRoom, seat: Optional[int], asked: bool) -> None:
        """A rematch ask, its withdrawal (the player left), or every ask done (the rematch began).
        A process that stops withdraws nothing: its players come back elsewhere, asks standing."""
        if self.server.stopping and not asked:
            return
        gid, me = room.id, self.leases.process
        self._write("a rematch ask", gid, lambda store: store.keep_ask(gid, seat, asked, process=me))

    def _restore_kept(self, room: GameRoom, old: Optional[GameRoom] = None) -> None:
        """``room``'s chat lines and rematch asks as the store keeps them (read after this
        process's own writes queued before), then the lines ``old`` (this process's copy) heard
        after the store's last one; ``old``'s own when the store cannot be read."""
        try:
            texts, asks = self.store.kept(room.id, CHAT_KEPT)
        except Exception as e:
            log.warning("game %s: its chat and rematch asks could not be read: %s", room.id, e)
            if old is not None:
                room.said, room.rematch.seats = old.said, set(old.rematch)
            return
        kept: list[P.Said] = []
        for text in texts:
            try:
                msg = P.parse_server(text)
            except P.ProtocolError as e:  # not what this server keeps: left out
                log.warning("game %s: a kept chat line is unreadable: %s", room.id, e)
                continue
            if isinstance(msg, P.Said) and msg.game == room.id:
                kept.append(msg)
        heard = list(old.said) if old is not None else []
        if kept:
            later = [i for i, m in enumerate(heard) if m == kept[-1]]
            heard = heard[later[-1] + 1:] if later else []
        room.said = deque(kept + heard, maxlen=CHAT_KEPT)
        players = {i for i, s in enumerate(room.seats) if s.token_hash}
        room.rematch.restore(asks & players if room.finished else set())

    def _restore_clocks(self, room: GameRoom) -> None:
        """An owner's turn clocks continued from those its former owner last kept (at the same
        position): a running clock keeps running from where it was, not from the whole time."""
        if room.follower or room.clocks is None or not room.started or room.finished:
            return
        try:
            found = self.leases.clocks_of(room.id)
            msg = P.parse_server(found[0]) if found is not None else None
        except Exception as e:
            log.warning("game %s: its clocks could not be read (they start again): %s", room.id, e)
            return
        if found is None or not isinstance(msg, P.Clocks) or msg.n != room.n:
            return
        now = clock_now()
        room.sync_clocks(now)
        for sc in msg.clocks:
            c = room.clocks.clocks.get(sc.seat)
            if c is None:
                continue
            if sc.running:
                c.started = now - found[1] - (room.clocks.secs - sc.left)
            else:
                c.due = min(c.due, now - found[1])
        room.clocks_told = None  # everyone is told the clocks as they stand

    def load(self, game_id: str) -> Optional[GameRoom]:
        """The room of ``game_id`` here, read from the store when this process has none."""
        srv = self.server
        room = srv.rooms.get(game_id)
        if room is not None:
            return room
        g = self.store.load_game(game_id)
        if g is None:
            return None
        room = srv._rebuild(g)
        srv._register(room)
        self._restore_kept(room)
        return room

    def reload(self, old: GameRoom) -> GameRoom:
        """``old`` read again from the store (an owner if this process holds the lease, else a
        follower), its connections and spectators moved to the new room. The actions stored
        since ``old``'s last are applied after the move, each told to the connections (read in
        one go they would be skipped: their news comes later and finds the room up to date)."""
        srv = self.server
        g = self.store.load_game(old.id)
        later: list[str] = []
        if g is not None and old.started and 0 < old.n <= len(g.actions):
            g.actions, later = g.actions[:old.n], g.actions[old.n:]
        old.table.close()
        forget_room(srv, old)  # type: ignore[arg-type]
        if g is None:
            for c in old.everyone():
                c.room = c.seat = None
            return old
        new = srv._rebuild(g)
        srv._register(new)
        for i, s in enumerate(old.seats):
            held = s.conn
            if held is None:
                continue
            if i < len(new.seats) and new.seats[i].token_hash == s.token_hash:
                new.seats[i].conn = held
                held.room = new
            else:
                held.room = held.seat = None
        for c in old.watchers:
            new.watchers.append(c)
            c.room = new
        new.news, new.timed = old.news, old.timed | new.timed
        self._restore_kept(new, old)
        for i, s in enumerate(new.seats):
            if s.kind == "human" and s.conn is not None:
                new.table.mark_away(i, False)
        self.presence(new, tell=False)  # an owner: a seat held nowhere is away from now (its grace period)
        self._restore_clocks(new)
        follow_actions(new, later)
        if not later and new.n > old.n:  # read in one go (the old copy had not begun): where it stands now
            for i, c in new.conns():
                c.send(new.update(i, None))
            for c in new.watchers:
                c.send(new.update(None, None))
        if new.table.is_over and not new.finished:
            new.finished = True
        return new

    def steal(self, room: GameRoom, why: str = "acted") -> GameRoom:
        """This process runs ``room``'s game from now on (its former owner stops at its next write)."""
        self.leases.take(room.id, why)
        self.steals += 1
        new = self.reload(room)
        self.server._pump(new)
        return new

    def follow(self, room: GameRoom) -> None:
        """This process lost ``room``'s lease: it follows the game from now on."""
        if room.follower:
            return
        room.follower = True
        self.store.fences.pop(room.id, None)
        room.table.ai.close()
        log.info("game %s is run by another process now", room.id)

    def catch_up(self, room: GameRoom, n: int) -> GameRoom:
        """A follower moved on to the store's ``n`` actions, each told to its connections."""
        if room.n >= n:
            return room
        try:
            texts = self.store.load_actions(room.id, room.n)
            follow_actions(room, texts)
        except Exception as e:
            log.warning("game %s: read again (%s)", room.id, e)
            return self.reload(room)
        room.started = room.started or room.n > 0
        if room.table.is_over and not room.finished:
            room.finished = True
            room.table.close()
        return room

    # ------------------------------------------------------------ messages

    def wrap(self, conn: Conn, msg: BaseModel, handle: Callable[[Conn, Any], None]) -> Callable[[Conn, Any], None]:
        """``handle`` for ``msg``, run where its game's lease is: taken first when the message is
        a seat's and the game is run elsewhere, and once more when it was taken meanwhile."""
        kind = getattr(msg, "type", "")
        if kind not in STEALS and kind != "watch":
            return handle

        def run(c: Conn, m: Any) -> None:
            gid = self._target(m)
            had = gid in self.server.rooms if gid is not None else False  # (``load`` reads them)
            room = self.load(gid) if gid is not None else None
            if room is None:
                return handle(c, m)
            if had and room.finished and kind in KEPT_AGAIN:  # no lease: other processes may have kept some
                self._restore_kept(room, room)
            if room.follower and kind == "act":
                gid_ = room.id
                if self.leases.take_lapsed(gid_) is None:
                    return self._forward(c, m, room, lambda: self._here(c, m, gid_, handle))
                room = self.reload(room)  # its process stopped: this one runs it now
                self.server._pump(room)
            elif room.follower and kind in STEALS and not room.finished:
                room = self.steal(room)  # (a finished game is shown where it is asked for)
            self._here(c, m, room.id, handle, stolen=False)
            if kind == "resume":
                self.rematches.came_back(c)
        return run

    def _here(self, c: Conn, m: Any, gid: str, handle: Callable[[Conn, Any], None], stolen: bool = True) -> None:
        """``handle`` here; after taking the lease when ``stolen`` (an owner that did not answer)
        or when the write was refused because another process took it meanwhile."""
        room = self.server.rooms.get(gid) or self.load(gid)
        if room is not None and stolen and room.follower:
            self.steal(room, "no answer")
        try:
            handle(c, m)
        except Refused as r:
            if r.key != "net.not_stored" or gid not in self.store.lost:
                raise
            room = self.server.rooms.get(gid)
            if room is None:
                raise
            self.steal(room, "refused")
            handle(c, m)

    def _forward(self, c: Conn, m: Any, room: GameRoom, fallback: Callable[[], None]) -> None:
        """Pass ``act`` ``m`` on to the process that runs ``room``; its update comes as news, a
        refusal as an ``r`` for this request. No answer within FORWARD_SECONDS (the owner died
        meanwhile): taken here, where the client's ``n`` makes a doubled action ``stale``."""
        self._send_on(c, room.id, int(m.n), token_hash(m.token), m.action, fallback)

    def _send_on(self, c: Conn, gid: str, n: int, digest: str, text: str, fallback: Callable[[], None]) -> None:
        self._req += 1
        req = self._req
        loop = self.server.loop
        assert loop is not None  # messages come on the loop
        timer = loop.call_later(FORWARD_SECONDS, self._unanswered, req)
        self.pending[req] = (c, gid, n, fallback, timer)
        self.forwarded += 1
        self.leases.tell("f", gid, n, f"{req} {digest} {text}")

    def resend(self, c: Conn, room: GameRoom, seat: int, n: int, text: str) -> None:
        """``c``'s act (``text`` at ``n`` actions) that was refused because another process took
        the game before it was stored (grouped commits, ``LeaseLost``): passed on to that process
        as the player's act would have been (there, the game having moved on makes it ``stale``);
        nobody answering, it is taken here as ``_forward``'s are."""
        def fallback() -> None:
            r = self.server.rooms.get(room.id)
            if r is None:
                raise Refused("server", "net.not_stored")
            if r.follower:
                r = self.steal(r, "no answer")
            play_act(r, seat, n, text)
            self.server._settle(r)
        self._send_on(c, room.id, n, room.seats[seat].token_hash or "", text, fallback)

    def _unanswered(self, req: int) -> None:
        p = self.pending.pop(req, None)
        if p is None:
            return
        conn, gid, _n, fallback, _timer = p
        log.warning("game %s: the process running it did not answer an action in %.0f s: taken here",
                    gid, FORWARD_SECONDS)
        try:
            fallback()
        except Refused as r:
            conn.refuse(r)
        except Exception:
            log.exception("game %s: an action taken over failed", gid)
            conn.refuse(Refused("server", "net.server_failed"))

    def _answered(self, gid: str, n: int) -> None:
        """News of ``n`` actions in ``gid``: the acts passed on before it are done (or stale)."""
        for req, (_c, g, sent, _f, timer) in list(self.pending.items()):
            if g == gid and sent < n:
                timer.cancel()
                del self.pending[req]

    def _act_for_other(self, room: GameRoom, process: str, n: int, extra: str) -> None:
        """An ``act`` another process passed on (this one runs ``room``): applied, or its refusal
        sent back as ``r``."""
        req, digest, text = (extra.split(" ", 2) + ["", ""])[:3]
        found = self.server.tokens.get(digest)
        try:
            if found is None or found[0] is not room:
                raise Refused("bad_token", "net.token_here")
            play_act(room, found[1], n, text)
            self.server._settle(room)
            return
        except Refused as refused:
            r = refused
        except Exception:
            log.exception("game %s: an action passed on failed", room.id)
            r = Refused("server", "net.server_failed")
        answer = P.error_text(r.code, r.key, r.message, r.rule, r.params)
        self.leases.tell("r", room.id, n, f"{process} {req} {answer}")

    def _refusal(self, extra: str) -> None:
        """A refusal of an act this process passed on: told to its connection."""
        to, req, text = (extra.split(" ", 2) + ["", ""])[:3]
        if to != self.leases.process:
            return
        p = self.pending.pop(int(req), None) if req.isdigit() else None
        if p is not None:
            p[4].cancel()
            p[0].send(text)

    def _target(self, m: Any) -> Optional[str]:
        """The game a message is about, if this process can tell (None: the handler decides)."""
        srv = self.server
        token = getattr(m, "token", None)
        if m.type == "resume":
            return str(m.game)
        if m.type in ("join", "watch"):
            room = srv.by_code.get(m.code)
            return room.id if room is not None else self.store.game_of_code(m.code)
        if isinstance(token, str):
            found = srv.tokens.get(token_hash(token))
            return found[0].id if found is not None else None
        return None

    def on_news(self, payload: str) -> None:
        """A notification of another process (on the event loop)."""
        kind, gid, n, process, extra = (payload.split(" ", 4) + ["", "", "", ""])[:5]
        if process == self.leases.process or self.server.stopping:
            return
        if kind == "r":
            return self._refusal(extra)
        room = self.server.rooms.get(gid)
        if room is None:
            return
        if kind in ("a", "s", "l") and not room.follower and self._unsettled(room, lambda: self.on_news(payload)):
            self.follow(room)  # another process runs it: this one writes no more, and reads it once settled
            return
        try:
            if kind == "f":
                if not room.follower:
                    self._act_for_other(room, process, int(n), extra)
                return
            if kind == "l" or (kind in ("a", "s") and not room.follower):
                self.follow(room)  # someone else runs it now
            if kind == "a":
                room = self.catch_up(room, int(n))
                self._answered(gid, int(n))
            elif kind == "s":
                self.reload(room)
            elif kind == "p":
                self.presence(room, tell=True)
            elif kind == "t" and (room.follower or (room.finished and _said(extra))):
                for c in room.everyone():
                    c.send(extra)
                if _said(extra):  # kept for whoever comes here later
                    self._heard_said(room, extra)
            elif kind == "d":
                forget_room(self.server, room)  # type: ignore[arg-type]
            elif kind == "m":
                self.rematches.began(room, extra)
            elif kind == "q" and room.finished:  # a rematch ask made elsewhere: shown here too
                self._restore_kept(room, room)
                self.server._broadcast_lobby(room)
        except Exception:
            log.exception("game %s: a notification %r failed", gid, kind)

    def _heard_said(self, room: GameRoom, text: str) -> None:
        """A chat line the owner told: a follower keeps it too (its players may come back here)."""
        try:
            msg = P.parse_server(text)
        except P.ProtocolError:
            return
        if isinstance(msg, P.Said) and msg.game == room.id:
            room.said.append(msg)

    def _unsettled(self, room: GameRoom, retry: Callable[[], None]) -> bool:
        """Whether ``room`` (an owner) has actions on their way to the disk (grouped commits): its
        table is then ahead of the store, so it is not moved on from the store until they have
        landed; ``retry`` runs then (after a refused one has sent the game back to the store)."""
        commits = getattr(self.server, "commits", None)
        if commits is None or room.written <= commits.durable:
            return False
        commits.after(room.written, retry)
        return True

    def presence(self, room: GameRoom, tell: bool, elsewhere: Optional[set[int]] = None) -> None:
        """An owner's human seats as the processes hold them: a seat whose connection is here or
        in another live process is present, one held nowhere is away from now (its grace period
        starts; the host may hand it to the AI once it is over); ``tell``: the table is told
        (news and the seats) of each change."""
        if room.follower or room.finished:
            return
        if elsewhere is None:
            elsewhere = self.leases.held_elsewhere([room.id]).get(room.id, set())
        changed = False
        for i, s in enumerate(room.seats):
            if s.kind != "human":
                continue
            here, away = s.conn is not None or i in elsewhere, i in room.table.away
            if here and away:
                room.arrived(i, fresh=tell)
            elif not here and not away:
                room.left(i, tell=tell and room.started)
            changed = changed or here == away
        if changed and room.started:
            self.server._broadcast_lobby(room)

    def _beat(self) -> None:
        """Say which seats' connections this process holds (and that it is alive); the owners of
        the games whose seats changed are told (``p``)."""
        held = {(r.id, i) for r in self.server.rooms.values() if not r.finished
                for i, s in enumerate(r.seats) if s.conn is not None}
        gone, come = self.held - held, held - self.held
        self.leases.beat(gone, come)
        self.held = held
        for gid in sorted({g for g, _ in gone | come}):
            room = self.server.rooms.get(gid)
            if room is None or room.follower:
                self.leases.tell("p", gid)

    def _recheck_presence(self) -> None:
        """The owners' seats believed held by another process, checked again (that process may
        have died since: its rows count no more once it stops saying it is alive)."""
        rooms = [r for r in self.server.rooms.values() if not r.follower and not r.finished and r.started and any(
            s.kind == "human" and s.conn is None and i not in r.table.away for i, s in enumerate(r.seats))]
        if rooms:
            found = self.leases.held_elsewhere([r.id for r in rooms])
            for r in rooms:
                self.presence(r, tell=True, elsewhere=found.get(r.id, set()))

    def quick_match(self, choose: Callable[[list[GameRoom]], None]) -> None:
        """``choose`` (quick match's choice of a table, and its seat taken or a table opened) among
        every process's listed tables waiting for players, one process at a time (the database's
        advisory lock, held until the seat or the new table is stored): two players asking at once
        on two processes end at one table. The tables are read again from the store under the
        lock (a follower's copy may not have heard of a seat taken a moment ago)."""
        def run() -> None:
            rooms = []
            for gid in self.leases.waiting_tables():
                room = self.server.rooms.get(gid)
                if room is None:
                    room = self.load(gid)
                elif room.follower:
                    room = self.reload(room)
                if room is not None:
                    rooms.append(room)
            choose(rooms)
        self.leases.exclusive(QUICK_MATCH_LOCK, run)

    def on_gap(self) -> None:
        """The listener reconnected: compare every follower's count with the store's now."""
        self.checked = self.clock() - CHECK_SECONDS

    # ------------------------------------------------------------ the tick

    def start(self) -> int:
        """At start: take over every game whose lease lapsed (or that has none); how many."""
        count = 0
        while True:
            got = self.leases.claim_lapsed(500)
            count += self._took(got)
            if not got:
                return count

    def tick(self) -> None:
        """Renew this process's leases (follow the games whose lease was taken), take over
        lapsed games, and now and then check the followers' counts."""
        srv = self.server
        mine = self.leases.renew()
        self._beat()
        for room in list(srv.rooms.values()):
            if not room.follower and room.id not in mine and not room.finished:
                self.follow(room)
        self.taken_over += self._took(self.leases.claim_lapsed())
        if self.clock() - self.checked >= CHECK_SECONDS:
            self.checked = self.clock()
            self._recheck_presence()
            followers = [r for r in srv.rooms.values() if r.follower and not r.finished]
            if followers:
                counts = self.store.counts([r.id for r in followers])
                for r in followers:
                    self.catch_up(r, counts.get(r.id, 0))

    def _retake(self, gid: str) -> Callable[[], None]:
        def again() -> None:
            self._took({gid: 0})
        return again

    def _took(self, got: dict[str, int]) -> int:
        srv = self.server
        for gid in got:
            room = srv.rooms.get(gid)
            if room is not None and not room.follower and self._unsettled(room, self._retake(gid)):
                continue
            try:
                if room is not None:
                    room = self.reload(room)
                else:
                    room = self.load(gid)
                    if room is not None:  # its players held elsewhere are there; the others away from now
                        self.presence(room, tell=False)
                        self._restore_clocks(room)
                if room is not None:
                    log.warning("game %s taken over (its process stopped renewing its lease)", gid)
                    srv._pump(room)
            except Exception:
                log.exception("game %s could not be taken over", gid)
        return len(got)

    async def run(self, stop: asyncio.Event) -> None:
        """The tick every TICK_SECONDS until ``stop``."""
        while not stop.is_set():
            try:
                await asyncio.wait_for(stop.wait(), TICK_SECONDS)
                return
            except asyncio.TimeoutError:
                pass
            try:
                self.tick()
            except Exception:
                log.exception("the leases' tick failed")


def _said(text: str) -> bool:
    """Whether ``text``, a message this server encoded, is a chat line (``protocol.encode`` puts
    the type first after the version: a cheap look before any parse; the parse then decides)."""
    return '"type":"said"' in text[:30]


def follow_actions(room: GameRoom, texts: list[str]) -> None:
    """The owner's actions ``texts`` applied to a follower's table, as its players' own (the turn
    timer's were marked by the owner)."""
    room.by_hand = True
    try:
        for text in texts:
            room.table.follow(parse_action(text))
    finally:
        room.by_hand = False
