"""An online game seen from this computer (issue 14): the table (lobby, seats, connection) and
the session the normal game screen plays through.

``Table`` owns the ``Connection``: it sends ``create`` / ``join`` / ``resume``, keeps the seats
and the lobby, the host's commands (``set_seat``, ``start``), and, once the game runs, a
``RemoteSession``. ``Table.tick()`` drains the connection without blocking (the frame loop calls
it through ``RemoteSession.tick``).

``RemoteSession`` is a ``Session`` whose state is the view the server sent for this seat
(``viewcodec.view_from_json``): ``submit`` checks an action with ``rules.check`` on that view
(an Illegal at once, with its rule) and sends ``act``; the server's answer comes back as an
``update`` (or a refusal, shown later). The game log is ``Session``'s own code run on the
previous and the new view and the action as this seat may know it (another seat's plan is a
hidden plan until the reveal; the setup's decks and objectives are never known). There is no
AI here (the server plays the AI seats), no take-back and no autosave: the server keeps the game.

Pure Python (no pygame): tests drive two tables against a real ``ServerThread``.
"""
from __future__ import annotations

import hashlib
import logging
import time
from typing import TYPE_CHECKING, Any, Optional, cast

from pydantic import BaseModel

from ..table import history
from ..table.reviews import finished_from_public
from ..rules import Action, GameRecord, GameState, Illegal, Plan, Setup, check, parse_action
from ..rules.record import RecordError, replay
from ..rules.refusals import REFUSALS
from ..rules.actions import ActionSyntaxError
from ..rules.content import Content, edition_for
from ..rules.view import HIDDEN, public_view
from ..table.history import RoundScores
from ..table.seats import SeatSpec
from ..table.session import ScoreRow, Session
from ..words import formats, i18n
from . import logcodec, protocol, seatnews, seatwords, signins
from .client import CONNECTED, OPEN_TIMEOUT, OWN_SERVER_TIMEOUT, Connection
from .turnclock import ToldClocks
from .viewcodec import view_from_json

if TYPE_CHECKING:  # the types only: a table is given these, it never starts one
    from .mygames import Book
    from .serve import ServerThread

log = logging.getLogger(__name__)

COLOURS: tuple[protocol.COLOUR, ...] = ("red", "yellow", "green", "blue")
MAX_HELD = 500  # updates kept while the screen holds them (an overlay is open); a game has fewer
RESENDS = 3  # a move refused as stale is sent again this many times (the seats plan at the same time)

# what an ``error`` from the server means to the player (i18n keys of words/en_online)
ERROR_TEXT = {
    "unknown_game": "online.err_unknown_game", "full": "online.err_full", "started": "online.err_started",
    "not_host": "online.err_not_host", "bad_token": "online.err_bad_token", "flood": "online.err_flood",
    "server": "online.err_server", "stale": "online.err_stale", "bad_version": "online.err_version",
    "bad_json": "online.err_version", "bad_message": "online.err_version", "too_large": "online.err_version",
    "too_deep": "online.err_version", "not_allowed": "online.err_not_allowed", "limit": "online.err_limit",
    "grace": "online.err_grace", "slow": "online.err_slow", "not_over": "online.err_not_over",
}


def refusal_of(msg: protocol.Error) -> Illegal:
    """A server's refusal as the game screen shows a refused move: the rules' or the table's own
    refusal (``refusal.<key>``, worded by ``i18n.rule_text`` with its rule), else the words of its key."""
    key = msg.key.removeprefix("refusal.")
    if key != msg.key and key in REFUSALS:
        return Illegal(msg.rule or "", key, tuple(sorted(msg.params.items())))
    return Illegal.words(msg.rule or "", refusal_words(msg))


def refusal_words(msg: protocol.Error) -> str:
    """What the player reads for a server's refusal, in their language: the words of its key
    (a newer server's key this copy does not know: the words of its code)."""
    if msg.key.startswith("refusal.") and msg.key.removeprefix("refusal.") in REFUSALS:
        return i18n.rule_text(refusal_of(msg))
    if i18n.known(msg.key) and msg.key not in GENERIC_KEYS:
        return i18n.t(msg.key, **{k: formats.number(v) if isinstance(v, float) else v  # 7,2 in German (t47lobby)
                                  for k, v in msg.params.items() if k != "key"})
    return i18n.t(ERROR_TEXT.get(msg.code, "online.err_server"))


# keys whose code has plainer words for a player (protocol errors their own game never causes, a
# wrong code, another version, a token that is no seat's): those words are shown instead
GENERIC_KEYS = ("net.bad_json", "net.bad_message", "net.too_large", "net.too_deep", "net.server_failed",
                "net.no_waiting_game", "net.no_game", "net.bad_version", "net.token_here", "net.token_anywhere")
# the errors after which this computer cannot go on in that game (shown with a way back)
FATAL_BEFORE_JOINED = ("unknown_game", "full", "started", "bad_version", "bad_json", "bad_message", "too_large",
                       "too_deep", "server", "flood", "not_allowed", "limit", "account_needed")


def level_of(bot: Optional[str]) -> str:
    """An AI level's name without its think budget ("hard@150" -> "hard")."""
    return (bot or "medium").split("@")[0]


def seat_specs(infos: list[protocol.SeatInfo]) -> list[SeatSpec]:
    """The seats as the game screen describes them (name, human or AI with its level, colour)."""
    return [SeatSpec(protocol.player_name(s) or
                     (i18n.t("online.ai_name", level=i18n.t(f"level.{level_of(s.bot)}")) if s.kind == "ai" else
                      i18n.colour_name(s.colour)), "ai" if s.kind == "ai" else "human", level_of(s.bot),
                     s.colour) for s in infos]


def seed_of(game_id: str) -> int:
    """A number that names the game on this computer (the server keeps the real seed secret):
    it keys the remembered map view and the hints' seeds."""
    return int.from_bytes(hashlib.sha256(game_id.encode()).digest()[:4], "big") % (2 ** 31 - 1) + 1


# ---------------------------------------------------------------- the table

class Table:
    """One online game from this computer's seat: connection, seats, lobby, host commands."""

    def __init__(self, url: str, content: Content, first: BaseModel, *, server: Optional[ServerThread] = None,
                 connection: Optional[Connection] = None, book: Optional[Book] = None, lan: bool = False):
        self.url = url
        self.content = content
        self.server = server  # the ServerThread this computer hosts (stopped with the table)
        self.book = book  # mygames.Book: this seat is kept there, to come back after closing the game
        self.lan = lan  # a hosted server open to the network
        self.player_name = getattr(first, "name", None)
        self._first = first  # create / join, sent again by a retry before the server answered
        self.conn = connection or Connection(url, open_timeout=OPEN_TIMEOUT if server is None else OWN_SERVER_TIMEOUT)
        self.game: Optional[str] = None
        self.code: Optional[str] = None
        self.seat: Optional[int] = None
        self.token: Optional[str] = None
        self.is_host = False
        self.seats: list[protocol.SeatInfo] = []
        self.started = False
        self.session: Optional[RemoteSession] = None
        self.problem: Optional[str] = None  # this computer cannot go on in this game (why, in words)
        self.notice: Optional[str] = None  # the last refusal of a host command (shown once)
        self.refusal: Optional[Illegal] = None  # the server refused our move (the game screen shows it)
        self.changes = 0  # bumped on every lobby or presence change (screens redraw)
        self._held: list[protocol.Update | protocol.News] = []
        self._closed = False
        self.watching = False  # a spectator: no seat, the public view
        self.grace = protocol.GRACE_DEFAULT
        self.turn_secs: Optional[int] = None
        self.rematch: list[int] = []  # the seats that asked for a rematch
        self.watchers = 0
        # issue 50: the clocks and grace periods as the server told them; the decision this screen
        # said it shows (``seen``); the move the computer made for this seat when its time ran out
        self.timing = ToldClocks()
        self._seen_n = -1
        self.moved_for_you: Optional[tuple[GameState, Action]] = None
        self._history: Optional[protocol.History] = None  # a log that came before its snapshot
        self._hello = [] if server is not None else signins.hello(url)  # signed in there: the seat is the account's
        for m in [*self._hello, first]:
            self.conn.send(m)

    @classmethod
    def host(cls, url: str, name: str, seats: list[protocol.SeatRequest], content: Content, *,
             server: Optional[ServerThread] = None,
             scenario: Optional[str] = None, seed: Optional[int] = None, grace: int = protocol.GRACE_DEFAULT,
             turn_secs: Optional[int] = None, watchers: bool = True, listed: bool = False, pace: str = "live",
             move_hours: int = 0, missed_limit: int = 3, rating_min: Optional[int] = None,
             rating_max: Optional[int] = None, **kw: Any) -> "Table":
        """Create a game; the host's choices: ``grace`` (seconds a dropped player's seat is kept for
        them), ``turn_secs`` (a turn timer, or None), ``watchers`` (spectators allowed), ``listed``
        (in the server's list of open games: a game created on a server from "Play on a server");
        ``pace`` "turn": a turn-based game, ``move_hours`` for each move, the AI's after ``missed_limit``."""
        key = getattr(server, "host_key", None)  # the server this computer started creates only for it
        return cls(url, content, protocol.Create(name=name, seats=seats, scenario=scenario, seed=seed, host_key=key,
                                                 grace=grace, turn_secs=turn_secs, watchers=watchers,
                                                 listed=listed, pace="turn" if pace == "turn" else "live",
                                                 move_hours=move_hours, missed_limit=missed_limit,
                                                 rating_min=rating_min, rating_max=rating_max),
                   server=server, **kw)

    @classmethod
    def join(cls, url: str, code: str, name: str, content: Content, **kw: Any) -> "Table":
        return cls(url, content, protocol.Join(code=code, name=name), **kw)

    @classmethod
    def quick(cls, url: str, match: protocol.QuickMatch, content: Content, **kw: Any) -> "Table":
        """Quick match (issue 47): the server seats this player at a fitting table or opens one."""
        return cls(url, content, match, **kw)

    @classmethod
    def watch(cls, url: str, code: str, content: Content, **kw: Any) -> "Table":
        """Watch a game with its invite code: the public view, no seat."""
        t = cls(url, content, protocol.Watch(code=code), **kw)
        t.watching = True
        return t

    @classmethod
    def resume(cls, url: str, game: str, token: str, content: Content, **kw: Any) -> "Table":
        t = cls(url, content, protocol.Resume(game=game, token=token), **kw)
        t.game, t.token = game, token
        return t

    # ------------------------------------------------------------ state

    @property
    def status(self) -> str:
        """connecting / connected / lost / closed."""
        return self.conn.status

    @property
    def error(self) -> str:
        return self.conn.error

    @property
    def joined(self) -> bool:
        return (self.token is not None and self.seat is not None) or (self.watching and self.game is not None)

    def waiting_for(self) -> list[int]:
        """Human seats whose turn it is while their computer is not connected."""
        s = self.session
        if s is None or s.state.phase not in ("plan", "place"):
            return []
        return [i for i in s.state.to_act() if i != self.seat and i < len(self.seats)
                and self.seats[i].kind == "human" and not self.seats[i].connected]

    def open_seats(self) -> list[int]:
        return [i for i, s in enumerate(self.seats) if s.kind == "open"]

    def clock_of(self, seat: int, now: Optional[float] = None, latest: bool = False) -> Optional[tuple[float, bool]]:
        """``seat``'s turn clock at the position shown (``latest``: at the server's latest, which a
        dialog over the board may hold back): (seconds left, whether it runs), or None."""
        n = self.timing.n if latest else self.session.n if self.session is not None else -1
        return self.timing.clock_of(seat, n, time.monotonic() if now is None else now)

    def grace_left(self, seat: int, now: Optional[float] = None) -> Optional[float]:
        """Seconds before the host may let the computer play dropped ``seat`` (None: not dropped)."""
        return self.timing.grace_left(seat, time.monotonic() if now is None else now)

    def resigned(self) -> bool:
        """This computer's player resigned this game (the computer plays their seat)."""
        return self.seat is not None and self.seat < len(self.seats) and self.seats[self.seat].resigned

    # ------------------------------------------------------------ commands

    def _send(self, msg: BaseModel) -> bool:
        if self._closed or self.problem is not None:
            return False
        return self.conn.send(msg)

    def set_seat(self, seat: int, kind: str, bot: Optional[str] = None) -> bool:
        """Host: seat ``seat`` becomes open or an AI (in a started game: an absent human's seat to an AI)."""
        if not (self.is_host and self.token):
            return False
        return self._send(protocol.SetSeat(token=self.token, seat=seat, kind=cast(Any, kind), bot=bot))

    def start(self) -> bool:
        if not (self.is_host and self.token):
            return False
        return self._send(protocol.Start(token=self.token))

    def act(self, n: int, action: Action) -> bool:
        if not self.token:
            return False
        return self._send(protocol.Act(token=self.token, n=n, action=action.to_text()))

    def chat(self, text: str) -> bool:
        """Say a line to the table (cleaned by the server); False when it cannot go."""
        text = text.strip()
        if not (self.token and text):
            return False
        return self._send(protocol.Chat(token=self.token, text=text[:4 * 200]))

    def emote(self, emote: str) -> bool:
        return self.token is not None and self._send(protocol.Emote(token=self.token, emote=emote))

    def seen(self, n: int) -> bool:
        """This screen shows our seat's decision at ``n`` actions: its turn clock may start (told
        once per decision). False when not sent."""
        if n == self._seen_n or not self.token or self.turn_secs is None:
            return False
        if self._send(protocol.Seen(token=self.token, n=n)):
            self._seen_n = n
            return True
        return False

    def resign(self) -> bool:
        """Leave this game for good: the server's AI plays this seat to the end."""
        return self.token is not None and self._send(protocol.Resign(token=self.token))

    def ask_rematch(self) -> bool:
        """In a finished game: ask for a new one with the same seats (it begins when everyone has)."""
        return self.token is not None and self._send(protocol.Rematch(token=self.token))

    def retry(self) -> None:
        """A new connection; this seat comes back with its token (or asks again to create or join)."""
        if self._closed or self.problem is not None:
            return
        self.conn.reconnect()
        for m in self._hello:
            self.conn.send(m)
        if self.session is not None:
            self.session.pending = None  # a move sent before the drop: the snapshot shows whether it landed
        if self.watching and self.code:
            self.conn.send(protocol.Watch(code=self.code))
        elif self.token and self.game:
            self.conn.send(protocol.Resume(game=self.game, token=self.token))
        else:
            self.conn.send(self._first)

    def close(self) -> None:
        """Leave: the connection closes; a hosted server stops (its games stay in its folder)."""
        if self._closed:
            return
        self._closed = True
        self.conn.close()
        if self.server is not None:
            try:
                self.server.stop()
            except Exception:  # stopping must never stop the program
                log.exception("the hosted server did not stop cleanly")

    # ------------------------------------------------------------ receiving

    def tick(self, hold: bool = False) -> bool:
        """Take the server's messages (never blocks). Updates wait while ``hold`` (an overlay
        reads the state); everything else is taken at once. True when something changed."""
        changed = False
        if not hold and self._held:  # first what waited: it came before anything arriving now
            held, self._held = self._held, []
            for u in held:
                changed = (self._update(u) if isinstance(u, protocol.Update) else self._news(u)) or changed
        for msg in self.conn.poll():
            try:
                changed = self._receive(msg, hold) or changed
            except Exception:  # a message this computer cannot use never stops the game
                log.exception("server message %s not used", getattr(msg, "type", "?"))
        return changed

    def _receive(self, msg: BaseModel, hold: bool) -> bool:
        if signins.account_answer(msg, self.url):
            return False
        if isinstance(msg, protocol.Joined):
            return self._joined(msg)
        if isinstance(msg, protocol.Watching):
            return self._watching(msg)
        if isinstance(msg, protocol.Error):
            return self._error(msg)
        if isinstance(msg, protocol.Pong):
            return False
        game = getattr(msg, "game", None)  # every other message is of one game
        if self.game is None or game != self.game:
            log.warning("a %s message for another game (%s) ignored", getattr(msg, "type", "?"), game)
            return False
        if isinstance(msg, protocol.Lobby):
            self._set_seats(msg.seats)
            self.started = self.started or msg.started
            self.code = msg.code
            self.grace, self.turn_secs, self.rematch, self.watchers = msg.grace, msg.turn_secs, msg.rematch, msg.watchers
            return True
        if isinstance(msg, protocol.Clocks):
            self.timing.told(((c.seat, c.left, c.running) for c in msg.clocks), msg.n, time.monotonic())
            return True
        if isinstance(msg, protocol.News):
            if hold and self.session is not None:  # in its place among the updates held
                self._held.append(msg)
                return False
            return self._news(msg)
        if isinstance(msg, protocol.Said):
            if self.session is not None:
                self.session.said(msg)
            return True
        if isinstance(msg, protocol.History):
            self._history = msg
            if self.session is not None:
                self._history = None if self.session.history(msg) else msg
            return True
        if isinstance(msg, protocol.Update):
            if hold and self.session is not None:
                self._held.append(msg)
                if len(self._held) > MAX_HELD:
                    del self._held[0]
                return False
            return self._update(msg)
        return False

    def _joined(self, msg: protocol.Joined) -> bool:
        content = edition_for(msg.map, self.content)
        if content is None:
            log.warning("the server's board %s is not this program's %s", msg.map, self.content.map_id)
            self._stop(i18n.t("online.err_board"))
            return True
        self.content = content
        if self.game is not None and msg.game != self.game:  # a rematch: a new game with the same seats
            self.session, self.started, self._held, self.rematch = None, False, [], []
            self.changes += 1
        self.game, self.code, self.seat, self.token, self.is_host = msg.game, msg.code, msg.seat, msg.token, msg.host
        self._keep()
        return True

    def _watching(self, msg: protocol.Watching) -> bool:
        content = edition_for(msg.map, self.content)
        if content is None:
            self._stop(i18n.t("online.err_board"))
            return True
        self.content = content
        if self.watching and self.game is not None and msg.game != self.game:  # the players' rematch: watched too
            self.session, self.started, self._held, self.rematch = None, False, [], []
            self.changes += 1
            self.notice = i18n.t("online.rematch_watched")
        self.watching, self.game, self.code, self.seat = True, msg.game, msg.code, None
        return True

    def _keep(self) -> None:
        """Keep this seat in the book (every ``joined``): the game can be continued after closing the game."""
        if self.book is None or self.game is None or self.code is None or self.token is None or self.seat is None:
            return
        try:
            self.book.joined(game=self.game, code=self.code, address=self.url, token=self.token, seat=self.seat,
                             host=self.is_host and self.server is not None, name=self.player_name,
                             port=self.server.port if self.server is not None else None,
                             lan=self.lan if self.server is not None else None)
        except Exception:  # the book is a convenience: it never stops the game
            log.exception("the online seat could not be kept")

    def _book(self, what: str, *args: object) -> None:
        if self.book is None or self.game is None:
            return
        try:
            getattr(self.book, what)(*args)
        except Exception:
            log.exception("the online seats' book: %s", what)

    def _error(self, msg: protocol.Error) -> bool:
        """A refusal from the server: its ``code`` decides what happens next, its key and
        parameters what the player reads (``refusal_words``); the English ``message`` is logged."""
        log.info("server error %s (%s): %s (rule %s)", msg.code, msg.key, msg.message, msg.rule)
        s = self.session
        if msg.code == "bad_token" and msg.key != "net.hold_seat":
            self._stop(i18n.t("online.err_bad_token"))
            self._book("forget", self.game, self.token)
        elif msg.code == "unknown_game" and self.token:
            self._stop(i18n.t("online.err_game_gone"))
            self._book("forget", self.game, self.token)
        elif not self.joined and msg.code in FATAL_BEFORE_JOINED:
            self._stop(refusal_words(msg))
        elif s is not None and s.pending is not None and msg.code == "stale" and s.resend():
            pass  # another seat's move reached the server first (the seats plan at once): ours went again
        elif s is not None and s.pending is not None and msg.code in ("illegal", "not_your_seat", "not_started",
                                                                       "stale", "server", "flood"):
            s.pending = None
            self.refusal = refusal_of(msg)
            if msg.code == "stale" and self.game and self.token:  # still stale: this computer may have
                self.conn.send(protocol.Resume(game=self.game, token=self.token))  # missed an update: a snapshot
        elif msg.key == "net.seat_open":  # start: a seat is still open
            self.notice = i18n.t("online.start_needs")
        else:
            self.notice = refusal_words(msg)
        self.changes += 1
        return True

    def _stop(self, problem: str) -> None:
        self.problem = problem
        self.conn.close()

    def _news(self, msg: protocol.News) -> bool:
        """A seat change for the game log (a game not yet shown here has its lobby for that)."""
        if self.session is None:
            return False
        self.session.news(msg)
        return True

    def _set_seats(self, seats: list[protocol.SeatInfo]) -> None:
        names = [s.name for s in self.seats if s.kind == "human"]
        self.timing.graces(((i, s.grace_left) for i, s in enumerate(seats)), time.monotonic())
        self.seats = list(seats)
        self.changes += 1
        if self.seat is not None and names != [s.name for s in seats if s.kind == "human"]:
            self._book("seen", self.game, self.seat, [s.name for s in seats if s.kind == "human"],
                       seats[self.seat].colour if self.seat < len(seats) else "")
        if self.session is not None and len(seats) == len(self.session.seats):
            self.session.seats = seat_specs(self.seats)

    def _update(self, msg: protocol.Update) -> bool:
        if msg.seat != self.seat:
            log.warning("an update for seat %s reached seat %s: ignored", msg.seat, self.seat)
            return False
        if self.session is not None and msg.n < self.session.n:  # a game's positions only go forward
            log.warning("an update at action %d after one at %d: ignored", msg.n, self.session.n)
            return False
        try:
            v = view_from_json(msg.view, self.content)
        except ValueError as e:
            log.warning("%s", e)
            self._stop(i18n.t("online.err_version"))
            return True
        self._set_seats(msg.seats)
        self.started = True
        if v.phase == "over":
            self._book("finished", self.game)
        if self.session is None:
            self.session = RemoteSession(self, v, msg.n, msg.last)
        else:
            self.session.receive(v, msg.n, msg.last)
        if msg.record is not None and v.phase == "over":
            self.session.keep_finished(msg.record)
        if self._history is not None and self.session.history(self._history):
            self._history = None
        return True


# ---------------------------------------------------------------- the session the game screen plays

class RemoteSession(Session):
    """A game played on a server, seen from one seat (see the module's docstring)."""

    remote = True  # the screens switch off what a remote game does not have (take-backs, saving)

    def __init__(self, table: Table, v: GameState, n: int, last: Optional[protocol.LastAction]):
        seats = seat_specs(table.seats) if len(table.seats) == len(v.seats) else \
            [SeatSpec(i18n.colour_name(s.colour), "human", colour=s.colour) for s in v.seats]
        super().__init__(seats, GameRecord(v.config, seed_of(table.game or ""), []), content=v.content,
                         worker=None)
        self.table = table
        self.seat: Optional[int] = table.seat  # None: a spectator
        self.n = 0  # the server's record length this state is at
        self.pending: Optional[tuple[Action, int]] = None  # our move sent (at n), not yet applied
        self._resends = 0
        self.rounds = history.RoundScores([], [[] for _ in v.seats], None)  # for the end screen's chart
        self.finished: Optional[GameRecord] = None  # the whole record, once the game is over (keep_finished)
        self.receive(v, n, last)

    # ------------------------------------------------------------ who plays here

    def plays(self) -> bool:
        """This computer plays its seat: not a spectator, and the seat is not the AI's (resigned)."""
        seats = self.table.seats
        return self.seat is not None and not (self.seat < len(seats) and seats[self.seat].kind == "ai")

    def is_human(self, seat: int) -> bool:
        """Only this computer's seat is played on this screen (a spectator plays none)."""
        return seat == self.seat and self.plays()

    @property
    def humans(self) -> list[int]:
        return [self.seat] if self.seat is not None and self.plays() else []  # a resigned player watches: the reveals go on by themselves

    # ------------------------------------------------------------ the log: history and chat

    def history(self, msg: protocol.History) -> bool:
        """The server's game log up to ``msg.n`` actions replaces ours (after a resume: the
        whole game so far); False while our state is not at that point yet."""
        if msg.n != self.n:
            return False
        lines = [e for e in (logcodec.decode_line(x) for x in msg.lines) if e is not None]
        self.log = [e for e in lines]
        if msg.rounds is not None and msg.scores is not None and len(msg.scores) == len(self.state.seats) \
                and all(len(row) == len(msg.rounds) for row in msg.scores):  # the chart from round 1
            self.rounds = history.RoundScores(list(msg.rounds), [list(row) for row in msg.scores], self.rounds.final)
        self.version += 1
        self._chosen_while_away()
        return True

    def _chosen_while_away(self) -> None:
        """Back in the game: a plan the computer made for this player while they were away is
        shown to them as if they had been there (``seatwords.chosen_while_away``)."""
        if self.seat is not None and self.plays():
            plan = seatwords.chosen_while_away(self.log, self.state, self.seat, self.seat_name(self.seat))
            if plan is not None:
                self.table.moved_for_you = (self.state, plan)

    def news(self, msg: protocol.News) -> None:
        """A seat change the server told (a drop, a return, a resignation...): a line of the log."""
        e = logcodec.decode_line(msg.line)
        if e is not None:
            self.log.append(e)
            self.version += 1

    def said(self, msg: protocol.Said) -> None:
        """A chat line or an emote: a line of the log (the server cleaned the text), under the
        round it was said in (lines sent again after a resume come after the log of later rounds)."""
        rnd = self.state.round if msg.round is None else min(msg.round, self.state.round)
        if msg.emote is not None:
            e = self._add(rnd, "online.said_emote", name=msg.name,
                          emote=i18n.Term("t", f"online.emote_{msg.emote}", {}))
        elif msg.text:
            e = self._add(rnd, "online.said", name=msg.name, text=msg.text)
        else:
            return
        if any(x.round > rnd for x in self.log):  # said in an earlier round: after that round's lines
            self.log.pop()
            at = max((i + 1 for i, x in enumerate(self.log) if x.round <= rnd), default=0)
            self.log.insert(at, e)
        self.version += 1

    def humans_to_plan(self) -> list[int]:
        return [] if self.pending is not None else super().humans_to_plan()

    def human_to_place(self) -> Optional[int]:
        return None if self.pending is not None else super().human_to_place()

    # ------------------------------------------------------------ playing

    def submit(self, action: Action) -> Optional[Illegal]:
        """Check on the view and send; None when sent (the server's update applies it)."""
        if isinstance(action, Setup):
            return Illegal.of("S2", "setup_by_server")
        if action.seat != self.seat:
            return Illegal.of("R5", "seat_remote", name=self.seat_name(action.seat))
        why = check(self.state, action)
        if why is not None:
            return why
        if self.pending is not None:
            return Illegal.words("", i18n.t("online.sending"))
        if self.table.status != CONNECTED or not self.table.act(self.n, action):
            return Illegal.words("", i18n.t("online.not_connected"))
        self.pending = (action, self.n)
        self._resends = 0
        return None

    def resend(self) -> bool:
        """Our move reached the server after another seat's (several seats plan at once, so this is
        common): send it again at the new position when it is still legal (a few times at most)."""
        assert self.pending is not None  # asked only for a move waiting for its answer
        action = self.pending[0]
        if self._resends >= RESENDS or self.seat not in self.state.to_act() or check(self.state, action) is not None:
            return False
        if not self.table.act(self.n, action):
            return False
        self._resends += 1
        self.pending = (action, self.n)
        return True

    @property
    def presence(self) -> tuple[bool, ...]:
        """Per seat: its computer is connected now (the table's latest lobby or update)."""
        return tuple(x.connected for x in self.table.seats)

    def seat_away(self, seat: int) -> bool:
        """A human seat whose computer is not connected now (its panel says so)."""
        p = self.presence
        return seat != self.seat and seat < len(p) and not p[seat] and not self.seats[seat].is_ai

    def tick(self, now: Optional[float] = None, hold: bool = False) -> bool:
        """Take what the server sent; True when the state changed."""
        version = self.version
        self.table.tick(hold=hold)
        return self.version != version

    def receive(self, v: GameState, n: int, last: Optional[protocol.LastAction]) -> None:
        """The server's view after ``n`` actions: the new state, its log lines and the last action."""
        prev = self.state
        action = self._known_action(last, v)
        if action is not None and n == self.n + 1:
            self.record.actions.append(action)
            try:
                if last is not None and last.by_ai:  # the turn timer ran out: the computer chose
                    self.log.append(seatnews.timed_line(prev, action, self.seat_name))
                    if action.seat == self.seat:  # type: ignore[union-attr]
                        self.table.moved_for_you = (v, action)
                self._log(prev, action, v)
            except Exception:  # the log is words: a line that cannot be written never stops the game
                log.exception("log line for %s", action.to_text())
            if prev.phase == "place":
                rs = history.round_scores([prev, v])
                for i, row in enumerate(rs.scores):
                    self.rounds.scores[i] += row
                self.rounds.rounds += rs.rounds
        elif n != self.n and self.log:  # a snapshot after a gap: say the log skips
            self._add(v.round, "online.log_back")
        if v.phase == "over":
            self.rounds.final = list(v.scores())
        self.state = v
        self.n = n
        self.last_action = action
        if self.pending is not None and (last is None or last.seat == self.seat or self.seat not in v.to_act()):
            self.pending = None  # our move is in (or a snapshot shows where the game is)
        self.version += 1

    @staticmethod
    def _known_action(last: Optional[protocol.LastAction], v: GameState) -> Optional[Action]:
        """The action as this seat may know it: the setup without its secrets, another seat's
        plan as a hidden plan (as views show it), the rest as played."""
        if last is None:
            return None
        if last.kind == "setup":
            return Setup(v.scenario or "", v.last_turn_seat, (), ())
        if last.text is None:
            return Plan(last.seat if last.seat is not None else 0, HIDDEN, HIDDEN, False) \
                if last.kind == "plan" else None
        try:
            return parse_action(last.text)
        except ActionSyntaxError:
            log.warning("the server's last action %r cannot be read", last.text)
            return None

    def seat_note(self, seat: int, now: Optional[float] = None) -> Optional[str]:
        """What the seat's panel says of it instead of its status (``seatwords.seat_note``)."""
        return seatwords.seat_note(self.table, seat, time.monotonic() if now is None else now)

    def clock_note(self, seat: int, now: Optional[float] = None) -> Optional[str]:
        """The seat's turn clock in words, or None (``seatwords.clock_note``)."""
        return seatwords.clock_note(self.table, seat, time.monotonic() if now is None else now)

    def seat_resigned(self, seat: int) -> bool:
        """The seat's player resigned: the computer played it to the end (never named the winner)."""
        seats = self.table.seats
        return 0 <= seat < len(seats) and seats[seat].resigned

    def score_rows(self) -> list[ScoreRow]:
        """The end table's rows: a resigned seat is never marked as a winner (the computer played it)."""
        rows = super().score_rows()
        for row in rows:
            if self.seat_resigned(row["seat"]):
                row["winner"] = False
        return rows

    def result_text(self) -> str:
        """Who won, among the players who played to the end (``seatwords.result_text``)."""
        return seatwords.result_text(self.state, self.seat_resigned, self.seat_name)

    def keep_finished(self, data: dict[str, Any]) -> None:
        """The finished game's whole record, sent by the server at the end (issue 48: the review of
        this seat). Kept only when it replays to the final scores the server's view shows; a
        record that does not is logged and ignored (no Review is offered then)."""
        try:
            record = finished_from_public(data, self.state.content)
            final = replay(record, self.state.content)
        except (RecordError, ValueError) as e:
            log.warning("the finished game's record cannot be used: %s", e)
            return
        if final.phase != "over" or list(final.scores()) != list(self.state.scores()):
            log.warning("the finished game's record does not end as the game did: ignored")
            return
        self.finished = record

    def round_scores(self) -> RoundScores:
        """The scores by round seen here (the end screen's chart; a remote game has no full record to replay)."""
        return self.rounds

    def view_for(self, seat: Optional[int]) -> GameState:
        """This seat's view as the server sent it; for another seat or None, what everyone sees."""
        return self.state if seat == self.seat else public_view(self.state)

    def hint_view(self, seat: Optional[int]) -> Optional[GameState]:
        """A hint only for this computer's seat, from the view the server sent it."""
        return self.state if seat == self.seat and self.state.phase not in ("setup", "over") else None

    # ------------------------------------------------------------ what a remote game does not do

    def takeback_problem(self, seat: Optional[int]) -> Optional[str]:
        return "tb.nothing"  # the server keeps the game: nothing is taken back

    def take_back(self, seat: Optional[int]) -> Optional[str]:
        return "tb.nothing"

    def rewind(self, n: int) -> None:
        raise ValueError("an online game is kept by the server: nothing is taken back")

    def rematch(self, seed: int, **kw: Any) -> "Session":
        raise ValueError("an online game is hosted again from the title screen")

    def close(self) -> None:
        super().close()
        self.table.close()

