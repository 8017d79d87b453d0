"""Turn-based games and *My games* on a community server (issue 47, t47turn).

A game created with ``pace: "turn"`` is played when its players open it: each human decision has
``move_hours`` (a clock per decision, ``turnclock.TurnClocks`` on the server's wall clock, started
when the decision becomes due: nobody is expected to watch it). When a clock runs out the AI
level ``timers.TIMER_LEVEL`` makes that decision for the seat (``Table.time_out``, from the
seat's own view, as the live turn timer does), and the seat's missed moves in a row grow; a move
by the player sets them back to 0; at ``missed_limit`` the seat is the AI's for good (the table's
resignation: it cannot be taken back) and everyone is told (``news``). Every human seat must be
an account's (``account_needed``): My games finds the games by account.

Where each turn-based game stands (its deadlines as seconds since the epoch, its missed moves)
is written to the store after every change (``turn_index.py``), so a restarted server keeps the
deadlines. A turn-based game that nobody has been connected to for ``TURN_IDLE`` seconds, and
that waits only for its players, leaves memory; the store's index of deadlines brings it back
when a time runs out (``tick``), and a player's ``resume`` or ``open_game`` when they open it.

*My games* (``my_games``) answers from the index, never by loading games: the account's seats,
the games in memory told as they stand now, the others as last written.
"""
from __future__ import annotations

import logging
import time
from typing import Any, Callable, Optional, Protocol

from . import protocol as P
from . import upkeep
from .account_desk import AccountDesk
from .admission import Refused
from .rooms import Conn, GameRoom, Seat, _ai_name, token_hash, turn_position
from .timers import TIMER_LEVEL
from .turn_index import MineRow, TurnIndex, TurnRow, index_of
from .turnclock import Clock, TurnClocks

log = logging.getLogger(__name__)

TURN_IDLE = 600.0  # seconds without a connection before a turn-based game waiting for its players leaves memory
DUE_CHECK = 30.0  # seconds between two looks in the store for games out of memory whose time ran out
RECENT_DAYS = 7  # My games lists the games finished this many days ago or less


def wall_now() -> float:
    """The turn-based clocks' time: seconds since the epoch (deadlines outlive the process;
    tests move this module's ``time`` on)."""
    return time.time()


class TurnServer(upkeep.KeptServer, Protocol):
    """What the turn keeper uses of the server (``server.GameServer``)."""
    accounts: AccountDesk

    def _save_seats(self, room: GameRoom, seats: list[Seat]) -> None: ...
    def _new_token(self) -> str: ...
    def on_resume(self, conn: Conn, m: P.Resume) -> None: ...


class TurnPace:
    """One turn-based room's clocks (one per due human seat) and missed moves in a row."""

    def __init__(self, room: GameRoom, missed: tuple[int, ...] = ()):
        self.secs = room.move_hours * 3600
        self.clocks = TurnClocks(self.secs)
        self.missed = [missed[i] if i < len(missed) else 0 for i in range(len(room.seats))]
        self.written: Optional[TurnRow] = None  # the row last stored

    def sync(self, room: GameRoom, now: float) -> None:
        """The clocks of the human seats due now; a new one runs from now (no screen to wait for)."""
        t = room.table
        playing = t.started and not t.is_over
        due = {i for i in room.state.to_act() if t.seats[i].kind == "human"} if playing else set()
        self.clocks.sync(due, turn_position(room.state), now)
        for c in self.clocks.clocks.values():
            if c.started is None:
                c.started = c.due

    def restore(self, room: GameRoom, deadlines: dict[int, float]) -> None:
        """Deadlines stored at this position (a restart, a reload): kept as they were."""
        pos = turn_position(room.state)
        for seat, deadline in deadlines.items():
            if 0 <= seat < len(room.seats):
                start = deadline - self.secs
                self.clocks.clocks[seat] = Clock(pos, start, start)

    def deadlines(self) -> dict[int, float]:
        return {s: c.due + self.secs for s, c in self.clocks.clocks.items() if not c.out}

    def row(self, room: GameRoom, finished_at: Optional[float]) -> TurnRow:
        return TurnRow(room.id, "turn", room.move_hours, room.missed_limit, room.n,
                       room.state.round if room.started else 0, {} if finished_at else self.deadlines(),
                       tuple(self.missed), finished_at)


class TurnKeeper:
    """The server's turn-based games and My games (a part of ``GameServer``, ``server.turns``)."""

    def __init__(self, server: TurnServer):
        self.server = server
        self.index: Optional[TurnIndex] = index_of(server.store)
        self.paces: dict[str, TurnPace] = {}  # turn-based rooms in memory
        self.quiet: dict[str, float] = {}  # room id -> when someone was last connected (wall clock)
        self.looked = 0.0  # when the store was last asked for games whose time ran out
        self.finished: set[str] = set()  # games whose end was written
        server.accounts.on_bound = self.bound  # a seat taken while signed in: into My games' index

    def handler(self, msg: Any, own: Optional[Callable[[Conn, Any], None]]) -> Optional[Callable[[Conn, Any], None]]:
        """What runs ``msg`` (``own``: the server's handler of its type): My games' messages here;
        a create, join or hand-over checked here first for a turn-based game."""
        kind = getattr(msg, "type", "")
        if kind == "my_games":
            return self.on_my_games
        if kind == "open_game":
            return self.on_open_game
        checks: dict[str, Callable[[Conn, Any], None]] = {
            "create": self._check_create, "join": self._check_join, "set_seat": self._check_handover}
        check = checks.get(kind)
        if check is None or own is None:
            return own
        run, first = own, check

        def checked(conn: Conn, m: Any) -> None:
            first(conn, m)
            run(conn, m)
        return checked

    # ------------------------------------------------------------ creating and joining

    def _check_create(self, conn: Conn, m: P.Create) -> None:
        """A turn-based game: a time per move, a store that keeps its clocks, a signed-in host."""
        if m.pace != "turn":
            return
        if self.index is None:
            raise Refused("not_allowed", "turns.none")
        if not 1 <= m.move_hours <= P.MAX_MOVE_HOURS:
            raise Refused("bad_message", "turns.move_hours", least=1, most=P.MAX_MOVE_HOURS)
        if m.turn_secs is not None:
            raise Refused("bad_message", "turns.no_timer")
        if self.server.accounts.current(conn) is None:
            raise Refused("account_needed", "turns.account_needed")

    def _check_join(self, conn: Conn, m: P.Join) -> None:
        """A seat of a turn-based game is an account's (a wrong code is the server's to answer)."""
        room = self.server.by_code.get(m.code)
        if room is not None and room.pace == "turn" and self.server.accounts.current(conn) is None:
            raise Refused("account_needed", "turns.account_needed")

    def _check_handover(self, conn: Conn, m: P.SetSeat) -> None:
        """A turn-based game's seats go to the AI only by missed moves, never by the host."""
        found = self.server.tokens.get(token_hash(m.token))
        if found is not None and found[0].pace == "turn" and found[0].started:
            raise Refused("not_allowed", "turns.no_handover", limit=found[0].missed_limit)

    def bound(self, room: GameRoom, seat: int, account: int) -> None:
        """``seat`` of ``room`` is now ``account``'s (``AccountDesk.bind_held``)."""
        if self.index is None:
            return
        try:
            self.index.add_seat(account, room.id, seat)
        except Exception as e:
            log.error("game %s: seat %d could not be indexed for its account: %s", room.id, seat, e)

    # ------------------------------------------------------------ playing

    def registered(self, room: GameRoom) -> None:
        """``room`` is served now (new, loaded at start, or reloaded): a turn-based one gets its
        clocks back from the index; a lobby's pace is written; every game's end is written when
        it comes."""
        room.table.observe(lambda v, a, t: self.changed(room, a), seat=None)
        self.server.accounts.watch(room)  # rated at its end, even with nobody connected then
        if self.index is None:
            return
        if room.pace != "turn":
            if not room.started:  # a new game (created, a rematch) or a lobby: its pace is indexed
                self._put(TurnRow(room.id, room.pace, room.move_hours, room.missed_limit))
            return
        try:
            row = self.index.get(room.id)
        except Exception as e:
            log.error("game %s: its clocks could not be read (they start again): %s", room.id, e)
            row = None
        pace = TurnPace(room, row.missed if row else ())
        if row is not None and row.n == room.n and room.started:
            pace.restore(room, row.deadlines)
            pace.written = row
        self.paces[room.id] = pace
        self.quiet[room.id] = wall_now()
        self.changed(room)

    def changed(self, room: GameRoom, action: Any = None) -> None:
        """After every change of ``room`` (its table's observer): a turn-based game's clocks and
        row (a player's own move forgets their missed moves); any game's end, once."""
        if self.index is None:
            return
        now = wall_now()
        over = room.table.is_over
        pace = self.paces.get(room.id)
        if pace is None:
            if over and room.id not in self.finished:
                self.finished.add(room.id)
                self._put(TurnRow(room.id, room.pace, room.move_hours, room.missed_limit, room.n,
                                  room.state.round, finished_at=now))
            return
        seat = getattr(action, "seat", None)
        if room.by_hand and isinstance(seat, int) and 0 <= seat < len(pace.missed):  # not the AI's for them
            pace.missed[seat] = 0
        pace.sync(room, now)
        written = pace.written
        row = pace.row(room, written.finished_at if written and written.finished_at else (now if over else None))
        if row != written:
            pace.written = row
            self._put(row)

    def _put(self, row: TurnRow) -> None:
        assert self.index is not None
        try:
            self.index.put(row)
        except Exception as e:  # the next change writes it again
            log.error("game %s: where it stands could not be stored: %s", row.game_id, e)

    def tick(self, now: Optional[float] = None) -> None:
        """Once a second (``upkeep``): games out of memory whose time ran out come back; each
        turn-based game's clocks run out; idle ones leave memory."""
        srv = self.server
        now = wall_now() if now is None else now
        if self.index is not None and now - self.looked >= DUE_CHECK:
            self.looked = now
            for gid in self.index.due(now):
                if gid not in srv.rooms:
                    log.info("game %s: a move's time ran out while it was out of memory", gid)
                    upkeep.reload_game(srv, gid)
        for gid, pace in list(self.paces.items()):
            room = srv.rooms.get(gid)
            if room is None:
                del self.paces[gid]
                self.quiet.pop(gid, None)
                continue
            if room.started and not room.finished:
                pace.sync(room, now)
                for seat in pace.clocks.expired(now):
                    self._missed(room, pace, seat)
            self._maybe_release(room, now)

    def _missed(self, room: GameRoom, pace: TurnPace, seat: int) -> None:
        """``seat``'s time ran out: the AI decides for it; at the limit, for good."""
        pace.missed[seat] += 1
        n = pace.missed[seat]
        if n >= room.missed_limit:
            self._to_ai_for_good(room, seat, n)
        else:
            why = room.table.time_out(seat, TIMER_LEVEL)
            if why is not None:
                log.info("game %s: seat %d's time ran out, the AI may not decide: %s", room.id, seat, why.message)
            else:
                log.info("game %s: seat %d missed a move (%d in a row): the AI decides", room.id, seat, n)
        self.changed(room)
        self.server._pump(room)

    def _to_ai_for_good(self, room: GameRoom, seat: int, n: int) -> None:
        why = room.table.resign(seat, TIMER_LEVEL, by=seat)  # the table's word: it cannot be taken back
        if why is not None:
            log.info("game %s: seat %d stays: %s", room.id, seat, why.message)
            return
        old = room.seats[seat]
        seats = list(room.seats)
        seats[seat] = Seat(_ai_name(TIMER_LEVEL), "ai", old.colour, TIMER_LEVEL, old.token_hash,
                           player=old.name, resigned=True)
        seats[seat].conn = old.conn
        try:
            self.server.store.replace_seats(room.id, [s.to_json() for s in seats])
        except Exception as e:  # the table has moved on: the seat stays the AI's in this run
            log.error("game %s: the seat handed over could not be stored: %s", room.id, e)
        room.seats = seats
        log.info("game %s: seat %d missed %d moves in a row: the AI plays it to the end", room.id, seat, n)
        room.tell_news("log.seat_missed_out", seat, n=n)
        self.server._broadcast_lobby(room)

    def _maybe_release(self, room: GameRoom, now: float) -> None:
        """A turn-based game nobody is connected to, waiting only for its players, leaves memory
        after TURN_IDLE (it is in the store; its deadlines in the index)."""
        if room.everyone():
            self.quiet[room.id] = now
            return
        if now - self.quiet.setdefault(room.id, now) < TURN_IDLE or room.finished or not room.started:
            return
        if room.table.ai.waiting():  # an AI seat, or one standing in, is to decide
            return
        room.table.close()
        upkeep.forget_room(self.server, room)
        self.paces.pop(room.id, None)
        self.quiet.pop(room.id, None)
        log.info("game %s: waiting for its players, out of memory", room.id)

    # ------------------------------------------------------------ My games

    def on_my_games(self, conn: Conn, m: P.MyGamesAsk) -> None:
        me = self.server.accounts.current(conn)
        if me is None:
            raise Refused("bad_session", "accounts.not_signed_in")
        conn.send(self.my_games(me.account, me.name))

    def my_games(self, account: int, name: str, now: Optional[float] = None) -> P.MyGamesList:
        """The games of ``account``, from the index: your turn first (nearest deadline first), then
        the others being played, then the recently finished (latest first)."""
        if self.index is None:
            raise Refused("not_allowed", "turns.none")
        now = wall_now() if now is None else now
        rows = [self._row(r, now) for r in self.index.mine(account, now - RECENT_DAYS * 86400.0, P.MAX_MY_GAMES)]

        def order(r: P.MyGameRow) -> tuple[int, float]:
            if r.finished:
                return (3, 0.0)
            if r.your_turn:
                return (0, r.left if r.left is not None else float("inf"))
            return (1 if r.started else 2, r.left if r.left is not None else float("inf"))
        return P.MyGamesList(name=name, games=sorted(rows, key=order))

    def _row(self, r: MineRow, now: float) -> P.MyGameRow:
        room = self.server.rooms.get(r.game_id)
        turn = r.turn
        pace, hours = (turn.pace, turn.move_hours) if turn else ("live", 0)
        started, finished = r.started, r.finished
        if room is not None:  # in memory: as it stands now
            started, finished = room.started, room.finished
            playing = room.started and not room.finished
            to_act = sorted(room.state.to_act()) if playing else []
            rnd = room.state.round if room.started else 0
            p = self.paces.get(room.id)
            deadlines = p.deadlines() if p is not None else {}
            missed = p.missed[r.seat] if p is not None and r.seat < len(p.missed) else 0
            players = [P.player_name(s) or s.name for s in room.seats]
        else:  # out of memory: waiting for the players, as last written
            to_act = sorted(turn.deadlines) if turn and not finished else []
            rnd = turn.round if turn else 0
            deadlines = dict(turn.deadlines) if turn else {}
            missed = turn.missed[r.seat] if turn and r.seat < len(turn.missed) else 0
            players = [_stored_name(s) for s in r.seats]
        mine = deadlines.get(r.seat)
        deadline = mine if mine is not None else (min(deadlines.values()) if deadlines else None)
        return P.MyGameRow(game=r.game_id, code=r.code, seat=r.seat, pace="turn" if pace == "turn" else "live",
                           move_hours=hours, your_turn=r.seat in to_act and not finished, to_act=to_act,
                           left=None if deadline is None or finished else round(max(0.0, deadline - now), 1),
                           round=max(0, min(99, rnd)), players=[n[:24] for n in players[:4]],
                           started=started, finished=finished, missed=min(10, missed))

    # ------------------------------------------------------------ opening a game of the account

    def on_open_game(self, conn: Conn, m: P.OpenMine) -> None:
        """A seat of the signed-in account, on a computer that may not hold its token: the seat gets
        a new token (the old one acts no more) and the connection resumes with it."""
        srv = self.server
        me = srv.accounts.current(conn)
        if me is None:
            raise Refused("bad_session", "accounts.not_signed_in")
        if self.index is None:
            raise Refused("not_allowed", "turns.none")
        seats = self.index.seats_of(me.account, m.game)
        seat = seats[0] if seats and m.seat is None else (m.seat if m.seat in seats else None)
        room = srv.rooms.get(m.game) or (upkeep.reload_game(srv, m.game) if seat is not None else None)
        if seat is None or room is None or seat >= len(room.seats):
            raise Refused("unknown_game", "net.no_game")
        token = srv._new_token()
        old = room.seats[seat]
        new = Seat(old.name, old.kind, old.colour, old.bot, token_hash(token), old.player, old.resigned)
        new.conn = old.conn
        seated = list(room.seats)
        seated[seat] = new
        srv._save_seats(room, seated)
        room.seats = seated
        if old.token_hash:
            srv.tokens.pop(old.token_hash, None)
        srv.tokens[token_hash(token)] = (room, seat)
        desk = srv.accounts
        if desk.store is not None:
            desk.store.bind_seat(token_hash(token), me.account)
            desk.seats[token_hash(token)] = me.account
        log.info("game %s: seat %d opened by its account on another computer", room.id, seat)
        srv.on_resume(conn, P.Resume(game=room.id, token=token))


def _stored_name(seat: Any) -> str:
    """A stored seat's name as the table shows it (``protocol.player_name``'s rule)."""
    if not isinstance(seat, dict):
        return ""
    if seat.get("kind") == "ai":
        return str(seat.get("player") or seat.get("name") or "")
    return str(seat.get("name") or "")
