"""What a screen may hold of a game: a :class:`GameFace` (what everyone at the screen may see)
and, from it, one :class:`SeatView` per seat played at this screen (that seat's secrets, its
moves, its hints and take-backs). Secrets by construction: neither face exposes the full state,
the record (with the setup's objectives and decks) or the :class:`~gonzaga.table.core.Table`.

Whoever owns a game (the app: a desktop ``Session``, an online ``RemoteSession``, a replay or
the tutorial's game) makes its face with :func:`face_of` and hands that to the screens; the
screens ask it for the face of the seat behind the curtain. A replay is the same face with
controls to move through the game (``replay.ReplayFace``)::

    face = face_of(session)
    face.public()              # the public view (everything once the game is over)
    me = face.seat_view(0)     # a human seat played at this screen (else LookupError)
    me.view(); me.submit(Plan(0, "italia", "B")); me.hint_view(); me.take_back()

The objects keep the session in a name-mangled attribute: Python cannot forbid reaching it,
but no screen does (``tests/test_screen_secrets.py`` reads every screen module's code).
"""
from __future__ import annotations

import hashlib
from typing import TYPE_CHECKING, Any, Callable, Optional, Sequence

from ..rules import Action, GameState, Illegal, Plan, Setup
from ..rules.view import HIDDEN, public_view
from .gamelog import LogEntry
from .seats import SeatRefused, SeatSpec

if TYPE_CHECKING:
    from .history import RoundScores
    from .session import ScoreRow, Session


class GameFace:
    """A game as a shared screen may know it: seats, public view, log, whose turn, the AI's move
    being shown; and the faces of the seats played here (:meth:`seat_view`)."""

    def __init__(self, session: "Session"):
        self.__s = session
        self._seat_views: dict[int, SeatView] = {}

    # ------------------------------------------------------------ who sits where (public)

    @property
    def token(self) -> int:
        """Names this game on this computer while it runs (never reused, unlike ``id``)."""
        return self.__s.token

    @property
    def seats(self) -> Sequence[SeatSpec]:
        """Names, colours and kinds (human or AI, and the AI's level) of the seats."""
        return tuple(self.__s.seats)

    @property
    def name(self) -> str:
        return self.__s.name

    def seat_name(self, seat: int) -> str:
        return self.__s.seat_name(seat)

    def is_human(self, seat: int) -> bool:
        """A seat played by a human at this screen."""
        return self.__s.is_human(seat)

    @property
    def humans(self) -> list[int]:
        return self.__s.humans

    def humans_to_plan(self) -> list[int]:
        return self.__s.humans_to_plan()

    def human_to_place(self) -> Optional[int]:
        return self.__s.human_to_place()

    def waiting_for_ai(self) -> list[int]:
        return self.__s.waiting_for_ai()

    # ------------------------------------------------------------ what everyone sees

    @property
    def version(self) -> int:
        return self.__s.version

    @property
    def position(self) -> int:
        """How many actions the game has had (public: every move is counted on the log)."""
        return self.__s.position

    @property
    def log(self) -> list[LogEntry]:
        return self.__s.log

    def log_lines(self) -> list[str]:
        return self.__s.log_lines()

    @property
    def last_action(self) -> Optional[Action]:
        a = self.__s.last_action
        return a if a is None else _public_action(a, self.public())

    @property
    def ai_showing(self) -> Optional[Action]:
        return self.__s.ai_showing

    def ai_showing_progress(self) -> float:
        return self.__s.ai_showing_progress()

    @property
    def is_over(self) -> bool:
        return self.__s.is_over

    def public(self) -> GameState:
        """The public view; once the game is over, everything (the objectives are shown)."""
        return self._shown(None)

    def _shown(self, seat: Optional[int]) -> GameState:
        v = self.__s.view_for(seat)
        return self.__s.state if v.phase == "over" else v

    def public_actions(self) -> list[Action]:
        """The record as everyone may know it: the setup without its secrets, a plan hidden
        until its round's reveal."""
        return self._actions(None)

    def _actions(self, seat: Optional[int]) -> list[Action]:
        acts = self.__s.record.actions
        cut = _hidden_from(acts, self.__s.view_for(None))
        out: list[Action] = []
        for i, a in enumerate(acts):
            if isinstance(a, Setup):
                out.append(Setup(a.scenario, a.last_turn_seat, (), ()))
            elif isinstance(a, Plan) and i >= cut and a.seat != seat:
                out.append(Plan(a.seat, HIDDEN, HIDDEN, False))
            else:
                out.append(a)
        return out

    def view_key(self) -> str:
        """What names this game across saves and loads (for the board's zoom kept per game),
        without saying its seed: a digest of the seed, the seats and their names."""
        rec = self.__s.record
        text = f"{rec.seed}/{rec.config.seats}/" + ",".join(s.name for s in self.__s.seats)
        return hashlib.sha256(text.encode("utf-8")).hexdigest()[:20]

    def shown_seed(self) -> Optional[int]:
        return self.__s.shown_seed()

    @property
    def scenario(self) -> Optional[str]:
        """The scenario chosen when the game was made (None: drawn), to play again the same way."""
        return self.__s.record.config.scenario

    def score_rows(self) -> "list[ScoreRow]":
        return self.__s.score_rows()

    def result_text(self) -> str:
        return self.__s.result_text()

    @property
    def assists(self) -> dict[str, int]:
        """Take-backs and hints used in this game (the end screen says the game was helped)."""
        return self.__s.assists

    # ------------------------------------------------------------ the seats played here

    def seat_view(self, seat: int) -> "SeatView":
        """The face of ``seat``, a human seat played at this screen (else ``LookupError``)."""
        if not (0 <= seat < len(self.__s.seats)) or not self.__s.is_human(seat):
            raise LookupError(f"seat {seat} is not played at this screen")
        sv = self._seat_views.get(seat)
        if sv is None:
            sv = self._seat_views[seat] = SeatView(self, self.__s, seat)
        return sv

    def view(self, seat: Optional[int]) -> GameState:
        """What the screen draws for ``seat``: its own view while it is played here; None, or a
        seat not (or no longer: handed to the AI online) played here, the public view."""
        if seat is None or not (0 <= seat < len(self.__s.seats)) or not self.__s.is_human(seat):
            return self.public()
        return self.seat_view(seat).view()

    def takeback_seat(self) -> Optional[int]:
        """The human seat a take-back would concern now (the one who decided last), if it may."""
        seat = self.__s.takeback_candidate()
        return seat if seat is not None and self.__s.takeback_problem(seat) is None else None

    def take_back(self) -> Optional[str]:
        """Take back the latest decision of the human who decided last: None when done, else
        why not (an i18n key)."""
        return self.__s.take_back(self.__s.takeback_candidate())

    # ------------------------------------------------------------ the game goes on

    def tick(self, now: Optional[float] = None, **kw: Any) -> bool:
        """Let the game go on (AI seats act, the server's news is read): True when it changed."""
        return bool(self.__s.tick(now, **kw))

    def close(self) -> None:
        self.__s.close()

    def same_game(self, other: object) -> bool:
        """``other`` (a session handed over by the app or the network) is this face's game."""
        return other is self.__s

    # ------------------------------------------------------------ an online game

    @property
    def remote(self) -> bool:
        return bool(getattr(self.__s, "remote", False))

    @property
    def link(self) -> Any:
        """An online game's connection (the client's table: its seats, status, chat); None here."""
        return getattr(self.__s, "table", None) if self.remote else None

    @property
    def own_seat(self) -> Optional[int]:
        """An online game's seat of this computer (None: a spectator, or a desktop game)."""
        return getattr(self.__s, "seat", None) if self.remote else None

    def plays_here(self) -> bool:
        """An online game: this computer plays its seat (not a spectator, not handed to the AI)."""
        plays: Optional[Callable[[], bool]] = getattr(self.__s, "plays", None)
        return bool(plays()) if self.remote and plays is not None else False

    @property
    def server_position(self) -> int:
        """An online game: the server's record length the state shown is at."""
        return int(getattr(self.__s, "n", self.position))

    @property
    def move_pending(self) -> bool:
        """An online game: our move was sent and the server has not applied it yet."""
        return getattr(self.__s, "pending", None) is not None

    @property
    def presence(self) -> Optional[tuple[bool, ...]]:
        return getattr(self.__s, "presence", None)

    def seat_away(self, seat: int) -> bool:
        away: Optional[Callable[[int], bool]] = getattr(self.__s, "seat_away", None)
        return bool(away(seat)) if away is not None else False

    def seat_note(self, seat: int) -> Optional[str]:
        """An online game: what the seat's panel says instead of its status (resigned, played by
        the computer for its player, not connected with its grace counting down), or None."""
        note: Optional[Callable[[int], Optional[str]]] = getattr(self.__s, "seat_note", None)
        return note(seat) if self.remote and note is not None else None

    def clock_note(self, seat: int) -> Optional[str]:
        """An online game under a turn timer: the seat's clock in words, or None (no clock)."""
        note: Optional[Callable[[int], Optional[str]]] = getattr(self.__s, "clock_note", None)
        return note(seat) if self.remote and note is not None else None

    def seat_resigned(self, seat: int) -> bool:
        """An online game: the seat's player resigned (the computer played it to the end)."""
        res: Optional[Callable[[int], bool]] = getattr(self.__s, "seat_resigned", None)
        return bool(res(seat)) if self.remote and res is not None else False

    def round_scores(self) -> "Optional[RoundScores]":
        """An online game's scores by round as seen here (None for a game with its record here)."""
        rs: Optional[Callable[[], RoundScores]] = getattr(self.__s, "round_scores", None)
        return rs() if rs is not None else None

    # ------------------------------------------------------------ a finished game, watched again

    def finished_record(self) -> Any:
        """The whole record, once the game is over (the statistics and the end chart replay it)."""
        if not self.is_over:
            raise LookupError("the record is shown only once the game is over")
        full = getattr(self.__s, "finished", None) if self.remote else None  # online: sent at the end
        return full if full is not None else self.__s.record

    def review_ready(self) -> bool:
        """The finished game can be reviewed here: a desktop game once over; an online one once
        the server sent its whole record, for a player's own seat (a spectator has none)."""
        if not self.is_over:
            return False
        return not self.remote or (self.own_seat is not None and getattr(self.__s, "finished", None) is not None)


class SeatView:
    """One seat's face: its own view, its moves, its hints and take-backs. Made by
    :meth:`GameFace.seat_view` for a human seat played at this screen."""

    def __init__(self, face: GameFace, session: "Session", seat: int):
        self.face = face
        self.seat = seat
        self.__s = session

    def view(self) -> GameState:
        """What this seat may see (everything once the game is over)."""
        return self.face._shown(self.seat)

    def submit(self, action: Action) -> Optional[Illegal]:
        """This seat's move: None when applied (or sent), else the rule that refuses it."""
        if getattr(action, "seat", None) != self.seat:
            return SeatRefused.of("R5", "not_this_seat", asked=getattr(action, "seat", None), seat=self.seat)
        return self.__s.submit(action)

    # hints (``hints.Asker``): from this seat's own view only
    @property
    def token(self) -> int:
        return self.__s.token

    @property
    def version(self) -> int:
        return self.__s.version

    @property
    def position(self) -> int:
        return self.__s.position

    def hint_view(self, seat: Optional[int] = None) -> Optional[GameState]:
        """The view a hint for this seat is worked out from, or None (no hint may be given)."""
        return self.__s.hint_view(self.seat) if seat in (None, self.seat) else None

    def hint_key(self, seat: int) -> tuple[object, ...]:
        return self.__s.hint_key(self.seat)

    def hint_seed(self, seat: int) -> int:
        return self.__s.hint_seed(self.seat)

    def takeback_problem(self) -> Optional[str]:
        return self.__s.takeback_problem(self.seat)

    def actions(self) -> list[Action]:
        """The record as this seat knows it: the public record with its own plans shown."""
        return self.face._actions(self.seat)


def face_of(session: "Session") -> GameFace:
    """The face a screen gets of ``session``."""
    return GameFace(session)


def _hidden_from(actions: Sequence[Action], st: GameState) -> int:
    """The index from which plans are still secret: the current round's, while it plans."""
    if st.phase != "plan":
        return len(actions)
    i = len(actions)
    while i > 0 and isinstance(actions[i - 1], Plan):
        i -= 1
    return i


def _public_action(a: Action, v: GameState) -> Action:
    if isinstance(a, Setup):
        return Setup(a.scenario, a.last_turn_seat, (), ())
    if isinstance(a, Plan) and v.phase == "plan":
        return Plan(a.seat, HIDDEN, HIDDEN, False)
    return a


__all__ = ["GameFace", "SeatView", "face_of", "public_view"]
