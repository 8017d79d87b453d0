"""The online protocol (issue 14): JSON messages over a WebSocket, one message per text frame.

Every message is an object with ``"v": PROTOCOL_VERSION`` and a ``"type"``; both directions are
pydantic models, validated on arrival. A client message larger than ``MAX_CLIENT_BYTES`` or nested
deeper than ``MAX_DEPTH`` is refused before it is parsed into models.

Client -> server                       Server -> client
  create  name, seats, scenario, seed    joined   game, code, seat, token, host, map
  join    code, name                     lobby    game, code, seats, started
  resume  game, token                    update   game, n, seat, view, last, seats, turn_left, record
  set_seat token, seat, kind, bot        error    code, key, params, message, rule
  start   token                          pong
  act     token, n, action               watching game, code, map (a spectator)
  ping                                   said     game, seat, name, text | emote
  chat    token, text                    history  game, n, lines (the game log so far)
  emote   token, emote
  resign  token
  rematch token
  watch   code                           clocks   game, n, clocks (every seat's turn timer)
  seen    token, n                       news     game, n, line (a seat change in the log)
  list_games  pace, seats, fits           games    games (code, host, taken, seats, terms...), rating
  quick_match name, pace, seats (t47lobby: answered as a join or a create)
  accounts (the block below):            accounts:
  register name, password, device, key   account  name, session, device_key
  sign_in  name, password, device, key   signed_out everywhere, ended
  whoami   session (or none)              standings rows (name, rating, games, provisional)
  sign_out; sign_out_all                 profile_info name, rating, mu, sigma, games, history
  leaderboard limit; profile name
  my_games; open_game game, seat          my_games_list name, games (t47turn: turn-based games)

A game lives on the server (``server.py``). The host creates it and is seat 0; friends join with
the invite code and take the open seats in order; each seat gets a secret token, which is the
only proof of who a client is (``resume`` brings a dropped client back to its seat). ``update``
carries the receiving seat's view of the state after ``n`` actions (``viewcodec.py``), never the
full state, and ``last``: the action that made it, as that seat may know it (another seat's plan
is only "seat N planned" until the reveal; the setup's decks and objectives are never sent).
"""
from __future__ import annotations

import json
from typing import Annotated, Any, Final, Literal, Optional, Protocol, Union, get_args

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from .cleantext import MAX_CHAT, MAX_NAME, name_problem

# the bytes of a message before its fields (size, UTF-8, nesting, one JSON object, the version): wire_bytes.py
from .wire_bytes import (MAX_CLIENT_BYTES as MAX_CLIENT_BYTES, MAX_DEPTH as MAX_DEPTH,
                         MAX_SERVER_BYTES as MAX_SERVER_BYTES, OLDEST_ERROR_VERSION as OLDEST_ERROR_VERSION,
                         PROTOCOL_VERSION as PROTOCOL_VERSION, ProtocolError as ProtocolError, raw_object)


def _clean_name(name: str) -> str:
    why = name_problem(name)
    if why is not None:
        raise ValueError(why)
    return name


NAME = Annotated[str, Field(min_length=1, max_length=MAX_NAME), AfterValidator(_clean_name)]  # cleantext.py: refused, not cleaned
RATING = Annotated[int, Field(ge=-100, le=200)]  # a rating range's bound (the conservative mu - 3 sigma)
TOKEN = Annotated[str, Field(min_length=16, max_length=64, pattern=r"^[A-Za-z0-9_-]+$")]
GAME_ID = Annotated[str, Field(min_length=1, max_length=40, pattern=r"^[A-Za-z0-9_-]+$")]
CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # an invite's code: no 0/O or 1/I to mistake
CODE_LENGTH = 6  # the codes a server makes; CODE accepts 4-12 (a server may choose another length)
DEFAULT_PORT = 7373  # ``gonzaga serve``'s port, and the one an address typed without a port means
CODE = Annotated[str, Field(min_length=4, max_length=12, pattern=r"^[A-Z0-9]+$")]
BOT = Annotated[str, Field(min_length=1, max_length=24, pattern=r"^[a-z]+(@[0-9]{1,6})?$")]
COLOUR = Literal["red", "yellow", "green", "blue"]
EMOTES = ("hello", "good_luck", "well_played", "thanks", "oops", "thinking")
# t50slips: the close reason a host's own server gives its guests when the host stops hosting
# (the client says "the host closed the game", not "the connection was lost")
CLOSE_HOST_STOPPED: Final = "host_stopped"
MAX_MOVE_HOURS = 168  # t47turn: a turn-based game's time per move, at most a week (12, 24 or 72 offered)
GRACE_DEFAULT = 120  # seconds a dropped player's seat is kept for them before the host may hand it to an AI

ERROR_CODES = (
    "bad_json",      # not JSON, or not a JSON object
    "bad_version",   # "v" is not PROTOCOL_VERSION
    "too_large",     # over MAX_CLIENT_BYTES (the connection is closed too)
    "too_deep",      # nested deeper than MAX_DEPTH
    "bad_message",   # valid JSON, but not any message of this protocol
    "unknown_game",  # no game with that code or id
    "bad_token",     # the token is no seat's of that game
    "not_host",      # only the host's seat may do that
    "full",          # no open seat left
    "started",       # the game has begun: the lobby cannot change so
    "not_started",   # the game has not begun
    "illegal",       # the rules refuse the action: ``rule`` names the rule (the game is unchanged)
    "not_your_seat", # the action is for another seat
    "stale",         # ``n`` is not the number of actions the game has: the client missed an update
    "flood",         # too many messages too fast (the connection may be closed)
    "server",        # the server failed on this message (logged); the game is unchanged
    "not_allowed",   # this server does not allow that (a chosen seed, an AI level or budget it does not
                     # offer, a new game on a host's own server without the host's key)
    "limit",         # too many connections, games or wrong invite codes from one address: try later
    "grace",         # a dropped player may still come back to that seat (``message`` says for how long)
    "slow",          # chat: too many lines too fast (the line is not sent)
    "not_over",      # rematch: the game is not over yet
    # accounts (issue 47, t47accounts)
    "bad_session",   # the session token is unknown, expired or ended: sign in again
    "wrong_password",  # no account of that name, or another password
    "name_taken",    # register: an account of that name (in any case) exists
    "banned",        # the account is banned by the server's operator
    "no_account",    # profile: no account of that name
    "account_needed",  # t47turn: a turn-based game's seats are accounts' (sign in first)
)


class _Msg(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    v: Literal[2] = PROTOCOL_VERSION


# ---------------------------------------------------------------- client -> server

class SeatRequest(BaseModel):
    """A seat asked for when a game is created: the host (first), an open seat for a friend, or
    an AI run by the server."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    kind: Literal["host", "open", "ai"]
    colour: COLOUR
    bot: Optional[BOT] = None  # for "ai": an AI level ("medium", "hard@150", ...)


class Create(_Msg):
    type: Literal["create"] = "create"
    name: NAME  # the host's name
    seats: Annotated[list[SeatRequest], Field(min_length=2, max_length=4)]
    scenario: Optional[Annotated[str, Field(max_length=40)]] = None
    seed: Optional[Annotated[int, Field(ge=1, le=2**31)]] = None  # refused unless the server runs with
    # --test-seeds (the project's own tests): a seed chosen by a client would let it know every deck
    host_key: Optional[Annotated[str, Field(min_length=16, max_length=64, pattern=r"^[A-Za-z0-9_-]+$")]] = None
    # a server started by the desktop game creates games only for its host, who holds this key
    grace: Annotated[int, Field(ge=0, le=3600)] = GRACE_DEFAULT  # seconds before a dropped seat may go to an AI
    turn_secs: Optional[Annotated[int, Field(ge=10, le=3600)]] = None  # a turn timer: then an AI plays the move
    watchers: bool = True  # whether spectators may watch with the invite code
    listed: bool = False  # shown in the server's list of open games (``list_games``; issue 50)
    # t47turn (issue 47): a live game (as before) or a turn-based one, whose players move when they
    # open it: ``move_hours`` for each decision (then the AI plays it), and after ``missed_limit``
    # missed moves in a row the seat is the AI's for good (``turns.py``); every human seat an account
    pace: Literal["live", "turn"] = "live"
    move_hours: Annotated[int, Field(ge=0, le=MAX_MOVE_HOURS)] = 0
    missed_limit: Annotated[int, Field(ge=1, le=10)] = 3
    rating_min: Optional[RATING] = None  # t47lobby: only accounts rated inside [min, max] may join
    rating_max: Optional[RATING] = None
    auto_start: bool = False  # t47lobby: it starts by itself once every seat is taken (quick match's tables)


class Join(_Msg):
    type: Literal["join"] = "join"
    code: CODE
    name: NAME


class Resume(_Msg):
    type: Literal["resume"] = "resume"
    game: GAME_ID
    token: TOKEN


class SetSeat(_Msg):
    """Host only. In the lobby: make a seat open or an AI. In a started game: hand a
    disconnected remote seat to an AI level (it stays an AI)."""

    type: Literal["set_seat"] = "set_seat"
    token: TOKEN
    seat: Annotated[int, Field(ge=0, le=3)]
    kind: Literal["open", "ai"]
    bot: Optional[BOT] = None


class Start(_Msg):
    type: Literal["start"] = "start"
    token: TOKEN


class Act(_Msg):
    type: Literal["act"] = "act"
    token: TOKEN
    n: Annotated[int, Field(ge=0, le=100_000)]  # the number of actions the client has seen
    action: Annotated[str, Field(min_length=1, max_length=400)]  # ``Action.to_text()``


class Ping(_Msg):
    type: Literal["ping"] = "ping"


class Chat(_Msg):
    """A short line to everyone at the table (cleaned by the server: ``cleantext.clean_chat``)."""

    type: Literal["chat"] = "chat"
    token: TOKEN
    text: Annotated[str, Field(min_length=1, max_length=4 * MAX_CHAT)]


class Emote(_Msg):
    type: Literal["emote"] = "emote"
    token: TOKEN
    emote: Literal[EMOTES]  # type: ignore[valid-type]


class Resign(_Msg):
    """The sender leaves the game for good: the server's AI plays that seat to the end."""

    type: Literal["resign"] = "resign"
    token: TOKEN


class Rematch(_Msg):
    """In a finished game: the sender wants a new game with the same seats (it begins, with a
    fresh deal, once every player of the game has asked)."""

    type: Literal["rematch"] = "rematch"
    token: TOKEN


class Watch(_Msg):
    """Watch a game with its invite code: the public view only, never a seat's."""

    type: Literal["watch"] = "watch"
    code: CODE


# ---- issue 50 (t50invite): a server's open games, asked for by "Play on a server"

MAX_LISTED = 50  # open games in one answer (the newest)


class ListGames(_Msg):
    """The games of this server waiting for players that their host chose to list (``Create.listed``)."""

    type: Literal["list_games"] = "list_games"
    pace: Optional[Literal["live", "turn"]] = None  # t47lobby: filters (None: any)
    seats: Optional[Annotated[int, Field(ge=2, le=4)]] = None
    fits: bool = False  # only tables whose rating range holds the asker's (signed in) rating


class ListedSeat(BaseModel):
    """A seat of a listed table: open, a player's (their name) or an AI's (its level)."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    kind: Literal["human", "ai", "open"]
    name: Annotated[str, Field(max_length=24)] = ""
    bot: Optional[BOT] = None


class OpenGame(BaseModel):
    """A listed game not started with a seat open: its invite code, its host's name, the seats
    taken of all, its turn timer, and how long ago it was created (a duration: the two
    computers' clocks need not agree)."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    code: CODE
    host: Annotated[str, Field(max_length=24)]
    taken: Annotated[int, Field(ge=0, le=4)]
    seats: Annotated[int, Field(ge=2, le=4)]
    turn_secs: Optional[Annotated[int, Field(ge=10, le=3600)]] = None
    age: Annotated[int, Field(ge=0)]  # seconds since it was created
    # t47lobby: the table's terms (absent from servers before them: the defaults)
    pace: Literal["live", "turn"] = "live"
    move_hours: Annotated[int, Field(ge=0, le=168)] = 0
    rating_min: Optional[RATING] = None
    rating_max: Optional[RATING] = None
    host_rating: Optional[float] = None  # None: the host has no account (or no rated game)
    host_games: Annotated[int, Field(ge=0)] = 0  # the host's rated games (provisional under 10)
    seating: Annotated[list[ListedSeat], Field(max_length=4)] = []
    rated: bool = False  # finished, the game would be rated (no AI seat, a server that rates)


class Games(_Msg):
    """The answer to ``list_games`` (newest first)."""

    type: Literal["games"] = "games"
    games: Annotated[list[OpenGame], Field(max_length=MAX_LISTED)]
    rating: Optional[float] = None  # t47lobby: the asker's own rating (signed in), for "fits my rating"


# ---- t47lobby (issue 47): the public lobby's terms and quick match (``listing.py``, ``quickmatch.py``)
class QuickMatch(_Msg):
    """Seat me at the best fitting open table (``pace``, ``seats``: None for any size, a rating
    range holding mine), oldest waiting first, or open a listed one with these terms and wait."""

    type: Literal["quick_match"] = "quick_match"
    name: NAME
    pace: Literal["live", "turn"] = "live"
    move_hours: Annotated[int, Field(ge=0, le=168)] = 0  # turn-based: the time per move (0: any)
    seats: Optional[Annotated[int, Field(ge=2, le=4)]] = None
# ---- end t47lobby


# ---------------------------------------------------------------- accounts (issue 47, t47accounts)
# A community server's accounts (``accounts.py``, ``account_desk.py``): a connection signs in with
# a name and a password (``register``, ``sign_in``) or with a session token kept from before
# (``whoami``); the answer is ``account``. A seat taken while signed in belongs to the account:
# only a connection signed in to it may act for that seat. Servers without accounts (the
# desktop host) refuse these with ``not_allowed``.

SESSION = Annotated[str, Field(min_length=40, max_length=64, pattern=r"^[A-Za-z0-9_-]+$")]  # 256 bits
PASSWORD = Annotated[str, Field(min_length=1, max_length=1000)]  # its rules are the server's (words keys)
DEVICE = Annotated[str, Field(max_length=40)]  # a label the player may read in a list of sessions


class Register(_Msg):
    """A new account, signed in at once (``account`` with its session)."""

    type: Literal["register"] = "register"
    name: NAME
    password: PASSWORD
    device: DEVICE = ""
    device_key: Optional[SESSION] = None  # as in ``SignIn``


class SignIn(_Msg):
    type: Literal["sign_in"] = "sign_in"
    name: NAME
    password: PASSWORD
    device: DEVICE = ""
    device_key: Optional[SESSION] = None  # the key ``account`` gave this computer before: a guesser
    # against this account never slows a sign-in that carries it (``accounts.py``)


class WhoAmI(_Msg):
    """With ``session``: sign this connection in with a token kept from before. Without: which
    account this connection is signed in to."""

    type: Literal["whoami"] = "whoami"
    session: Optional[SESSION] = None


class SignOut(_Msg):
    """End this connection's session (its token is useless from now on)."""

    type: Literal["sign_out"] = "sign_out"


class SignOutAll(_Msg):
    """End every session of the account this connection is signed in to, this one too."""

    type: Literal["sign_out_all"] = "sign_out_all"


class AccountInfo(_Msg):
    """Signed in: the account's name as registered; after ``register`` and ``sign_in`` the new
    session's token and this computer's device key (keep both; never the password)."""

    type: Literal["account"] = "account"
    name: Annotated[str, Field(max_length=24)]
    session: Optional[SESSION] = None
    device_key: Optional[SESSION] = None
    days: int = 30  # a session not used for this many days ends


class SignedOut(_Msg):
    type: Literal["signed_out"] = "signed_out"
    everywhere: bool = False
    ended: int = 0  # sessions ended


class LeaderboardAsk(_Msg):
    """The best ratings of the server (``ratings.py``); no sign-in needed."""

    type: Literal["leaderboard"] = "leaderboard"
    limit: Annotated[int, Field(ge=1, le=100)] = 50


class ProfileAsk(_Msg):
    type: Literal["profile"] = "profile"
    name: NAME


class Standing(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    name: Annotated[str, Field(max_length=24)]
    rating: float  # mu - 3 sigma
    games: int
    provisional: bool  # fewer rated games than ``ratings.PROVISIONAL_GAMES``


class Standings(_Msg):
    type: Literal["standings"] = "standings"
    rows: Annotated[list[Standing], Field(max_length=100)]


class RatingPoint(BaseModel):
    """An account's rating after one rated game, and its place in it."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    game: GAME_ID
    rating: float
    place: Annotated[int, Field(ge=1, le=4)]
    at: float  # seconds since the epoch (the server's clock)


class ProfileInfo(_Msg):
    type: Literal["profile_info"] = "profile_info"
    name: Annotated[str, Field(max_length=24)]
    rating: Optional[float] = None  # None: no rated game yet
    mu: Optional[float] = None
    sigma: Optional[float] = None
    games: int = 0
    provisional: bool = True
    history: Annotated[list[RatingPoint], Field(max_length=100)] = []  # oldest first


ACCOUNT_CLIENT_TYPES = (Register, SignIn, WhoAmI, SignOut, SignOutAll, LeaderboardAsk, ProfileAsk)
ACCOUNT_SERVER_TYPES = (AccountInfo, SignedOut, Standings, ProfileInfo)
ACCOUNT_KINDS: tuple[str, ...] = tuple(m.model_fields["type"].default for m in ACCOUNT_CLIENT_TYPES)


# ---- t50seats (issue 50): fair turn timers
class Seen(_Msg):
    """The sender's screen shows its seat's decision at ``n`` actions (no dialog over it): its
    turn timer starts now (``turnclock.py``; the server waits for this at most ``SEEN_CAP``)."""

    type: Literal["seen"] = "seen"
    token: TOKEN
    n: Annotated[int, Field(ge=0, le=100_000)]
# ---- end t50seats


# ---- t47turn (issue 47): turn-based games and My games (``turns.py``, ``mygames_index.py``)
MAX_MY_GAMES = 200  # rows in one ``my_games_list``


class MyGamesAsk(_Msg):
    """Every game of the account this connection is signed in to (``my_games_list``)."""

    type: Literal["my_games"] = "my_games"


class OpenMine(_Msg):
    """Take a seat of the signed-in account in game ``game`` (from My games, on a computer that may
    not hold its token): answered as a ``resume`` is, with a new token for the seat (the old one
    acts no more)."""

    type: Literal["open_game"] = "open_game"
    game: GAME_ID
    seat: Optional[Annotated[int, Field(ge=0, le=3)]] = None  # None: the account's first seat there


class MyGameRow(BaseModel):
    """One game of the account: whose turn it is, how long is left (a duration, seconds), the
    round, the players' names (this seat's included, by seat), how it stands."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    game: GAME_ID
    code: CODE
    seat: Annotated[int, Field(ge=0, le=3)]
    pace: Literal["live", "turn"] = "live"
    move_hours: Annotated[int, Field(ge=0, le=MAX_MOVE_HOURS)] = 0
    your_turn: bool = False
    to_act: Annotated[list[Annotated[int, Field(ge=0, le=3)]], Field(max_length=4)] = []
    left: Optional[Annotated[float, Field(ge=0, allow_inf_nan=False)]] = None  # your deadline, else the nearest
    round: Annotated[int, Field(ge=0, le=99)] = 0
    players: Annotated[list[Annotated[str, Field(max_length=24)]], Field(max_length=4)] = []
    started: bool = False
    finished: bool = False
    missed: Annotated[int, Field(ge=0, le=10)] = 0  # your moves missed in a row


class MyGamesList(_Msg):
    """The answer to ``my_games``: the games where it is your turn first (the nearest deadline
    first), then the others being played, then the recently finished."""

    type: Literal["my_games_list"] = "my_games_list"
    name: Annotated[str, Field(max_length=24)]
    games: Annotated[list[MyGameRow], Field(max_length=MAX_MY_GAMES)] = []
# ---- end t47turn


# every client message type, listed once: the models above, in this union (the rest derives from it)
ClientMessage = Annotated[Union[Create, Join, Resume, SetSeat, Start, Act, Ping, Chat, Emote, Resign, Rematch,
                                Watch, ListGames, Seen, QuickMatch,  # QuickMatch: t47lobby
                                Register, SignIn, WhoAmI, SignOut, SignOutAll, LeaderboardAsk, ProfileAsk,  # t47accounts
                                MyGamesAsk, OpenMine,  # t47turn
                                ], Field(discriminator="type")]
CLIENT_TYPES: tuple[type[BaseModel], ...] = get_args(get_args(ClientMessage)[0])
CLIENT_KINDS: tuple[str, ...] = tuple(m.model_fields["type"].default for m in CLIENT_TYPES)
_client = TypeAdapter(ClientMessage)


# ---------------------------------------------------------------- server -> client

class SeatInfo(BaseModel):
    """A seat as everyone at the table sees it."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    name: Annotated[str, Field(max_length=24)]  # "" for an open seat
    kind: Literal["human", "ai", "open"]
    colour: COLOUR
    bot: Optional[str] = None
    connected: bool = False  # a human seat with a client attached now (AI seats: True)
    player: Optional[Annotated[str, Field(max_length=24)]] = None  # an AI seat a player may take back: who
    resigned: bool = False  # the player resigned: the AI plays the seat to the end
    # t50seats: a human seat of a started game whose computer is not connected: the seconds
    # left of the grace period (0: the host may let the AI play it now); None otherwise
    grace_left: Optional[Annotated[float, Field(ge=0, le=3600, allow_inf_nan=False)]] = None


class _SeatLike(Protocol):
    @property
    def kind(self) -> str: ...
    @property
    def name(self) -> str: ...
    @property
    def player(self) -> Optional[str]: ...


def player_name(seat: _SeatLike) -> Optional[str]:
    """The player a seat (a ``SeatInfo`` or a server room's seat) belongs to: a human seat's
    name, or the player an AI seat plays for (who dropped out or resigned: the seat is still
    theirs, in the panels, the chat and the game log alike); None for an AI's own seat or a
    seat without a name."""
    if seat.kind == "ai":
        return seat.player or None
    return seat.name or None


class Joined(_Msg):
    type: Literal["joined"] = "joined"
    game: GAME_ID
    code: CODE
    seat: int
    token: TOKEN
    host: bool
    map: dict[str, Any]  # JSON; the server's ``Content.map_id``: a client with another board refuses to play


class Lobby(_Msg):
    type: Literal["lobby"] = "lobby"
    game: GAME_ID
    code: CODE
    seats: list[SeatInfo]
    started: bool
    grace: int = GRACE_DEFAULT  # the host's choices (create)
    turn_secs: Optional[int] = None
    rematch: list[int] = []  # the seats that asked for a rematch (a finished game)
    watchers: int = 0  # spectators watching now
    pace: Literal["live", "turn"] = "live"  # t47turn: the host's choices (create)
    move_hours: int = 0
    missed_limit: int = 3


class LastAction(BaseModel):
    """The action that led to an update, as the receiving seat may know it."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    kind: Literal["setup", "plan", "place", "wedding", "donate"]
    seat: Optional[int] = None  # None for the setup
    text: Optional[str] = None  # ``to_text()``; None for the setup and for a plan not yet revealed
    by_ai: bool = False  # t50seats: the turn timer ran out and the computer decided for that (human) seat


class Update(_Msg):
    type: Literal["update"] = "update"
    game: GAME_ID
    n: int  # actions in the game's record so far
    seat: Optional[int]  # the receiving seat; ``view`` is ``view(state, seat)``; None: a spectator's public view
    view: dict[str, Any]  # JSON: ``viewcodec.view_to_json``
    last: Optional[LastAction] = None  # None for a snapshot (on joining, resuming, starting)
    seats: list[SeatInfo]
    # a turn timer and the receiving seat due to decide: the seconds it has left (a duration, not
    # a time of day, so the two computers' clocks need not agree); None otherwise
    turn_left: Optional[Annotated[float, Field(ge=0, le=3600, strict=True, allow_inf_nan=False)]] = None
    # t48review (issue 48): once the game is over, a seated player's update carries the finished
    # game's record as everyone saw it (``table.reviews.public_finished``: the objectives, revealed
    # then, and the cards drawn; never the undrawn cards' order nor the seed), so that the player
    # can review their own seat; never before the end, never to a spectator
    record: Optional[dict[str, Any]] = None


PARAM = Union[Annotated[str, Field(max_length=200)], int, float, None]


class Error(_Msg):
    """A refusal: ``code`` says what the client does next (one of ERROR_CODES); ``key`` and
    ``params`` what the player reads (a words key, ``i18n.t(key, **params)`` in the client's own
    language; ``refusal.<key>`` for a refusal of the rules or the table, with ``rule`` its id);
    ``message`` is the same in English, for logs and tools: nobody decides by it."""

    type: Literal["error"] = "error"
    code: Literal[ERROR_CODES]  # type: ignore[valid-type]
    key: Annotated[str, Field(max_length=80, pattern=r"^[a-z0-9_.]+$")]
    params: Annotated[dict[Annotated[str, Field(max_length=40)], PARAM], Field(max_length=8)] = {}
    message: str
    rule: Optional[str] = None  # for "illegal" (and the table's refusals): the rule's id (spec clause)


class Pong(_Msg):
    type: Literal["pong"] = "pong"


class Watching(_Msg):
    """A spectator's ``joined``: no seat, no token."""

    type: Literal["watching"] = "watching"
    game: GAME_ID
    code: CODE
    map: dict[str, Any]  # JSON, as in ``Joined``


class Said(_Msg):
    """A chat line (cleaned) or an emote, from a seat (its name as the table shows it)."""

    type: Literal["said"] = "said"
    game: GAME_ID
    seat: Annotated[int, Field(ge=0, le=3)]
    name: Annotated[str, Field(max_length=24)]
    text: Optional[Annotated[str, Field(max_length=MAX_CHAT)]] = None
    emote: Optional[Literal[EMOTES]] = None  # type: ignore[valid-type]
    # t50slips: the round it was said in (a line sent again after a resume goes under its round)
    round: Optional[Annotated[int, Field(ge=0, le=99)]] = None


class History(_Msg):
    """The game log up to ``n`` actions (after a ``resume`` or a ``watch``): each line as
    ``gamelog.encode`` writes it (a key and parameters, put into words by the receiver)."""

    type: Literal["history"] = "history"
    game: GAME_ID
    n: int
    lines: Annotated[list[Any], Field(max_length=2000)]  # JSON: ``logcodec.encode``
    # t50slips: the public scores by round so far (the end chart of a late joiner or a spectator
    # starts at round 1): the rounds that ended, and per seat its score at each
    rounds: Optional[Annotated[list[Annotated[int, Field(ge=0, le=99)]], Field(max_length=99)]] = None
    scores: Optional[Annotated[list[Annotated[list[int], Field(max_length=99)]], Field(max_length=4)]] = None


# ---- t50seats (issue 50): every seat's clock, and seat changes told in the game log
class SeatClock(BaseModel):
    """A human seat due to decide under the turn timer: the seconds it has left, and whether its
    clock runs (False: it starts when that player's screen shows the decision)."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    seat: Annotated[int, Field(ge=0, le=3)]
    left: Annotated[float, Field(ge=0, le=3600, allow_inf_nan=False)]
    running: bool


class Clocks(_Msg):
    """Every seat's turn clock at ``n`` actions (sent to everyone, spectators too, whenever one
    starts, stops or the game moves on; durations, so the computers' clocks need not agree)."""

    type: Literal["clocks"] = "clocks"
    game: GAME_ID
    n: int
    clocks: Annotated[list[SeatClock], Field(max_length=4)] = []


class News(_Msg):
    """A line of the game log that no action wrote: a seat's player dropped, came back, or
    resigned, a seat went to the computer, a spectator came or left (``logcodec`` line)."""

    type: Literal["news"] = "news"
    game: GAME_ID
    n: int  # the actions the game had when it happened (a resume's ``history`` has it in place)
    line: list[Any]
# ---- end t50seats


# every server message type, listed once (as the client's above)
ServerMessage = Annotated[Union[Joined, Lobby, Update, Error, Pong, Watching, Said, History, Games, Clocks, News,
                                AccountInfo, SignedOut, Standings, ProfileInfo,  # accounts (t47accounts)
                                MyGamesList,  # t47turn
                                ], Field(discriminator="type")]
SERVER_TYPES: tuple[type[BaseModel], ...] = get_args(get_args(ServerMessage)[0])
SERVER_KINDS: tuple[str, ...] = tuple(m.model_fields["type"].default for m in SERVER_TYPES)
_server = TypeAdapter(ServerMessage)


# ---------------------------------------------------------------- encoding and checking

def _first_error(e: ValidationError) -> str:
    err = e.errors()[0]
    where = ".".join(str(x) for x in err.get("loc", ()) if x not in CLIENT_KINDS)
    msg = str(err.get("msg", "invalid")).removeprefix("Value error, ")  # our own validators' words
    # at most an error parameter's length: pydantic's words for an unknown type list every type,
    # and a list grown past 200 characters made the refusal itself fail (the connection dropped)
    return f"{where or 'message'}: {msg}"[:200]


def parse_client(text: Union[str, bytes]) -> ClientMessage:
    """A client message, validated; ProtocolError (with its code) when it cannot be accepted."""
    obj = raw_object(text, MAX_CLIENT_BYTES)
    try:
        return _client.validate_python(obj)
    except ValidationError as e:
        detail = _first_error(e)
        raise ProtocolError("bad_message", detail, detail=detail) from None


def parse_server(text: Union[str, bytes]) -> ServerMessage:
    """A server message, validated (the client trusts nothing it cannot check either)."""
    try:
        obj = json.loads(text)
    except (ValueError, RecursionError):
        raise ProtocolError("bad_json", "the server sent something that is not JSON") from None
    if not isinstance(obj, dict):
        raise ProtocolError("bad_json", "the server sent something that is not a JSON object", "net.bad_json")
    if obj.get("v") != PROTOCOL_VERSION:
        if obj.get("type") == "error" and obj.get("code") == "bad_version":  # an older server refusing us
            return Error(code="bad_version", key="online.err_version", message=str(obj.get("message", ""))[:200])
        raise ProtocolError("bad_version", f"the server does not speak protocol version {PROTOCOL_VERSION}",
                            "net.bad_version", version=PROTOCOL_VERSION)
    try:
        return _server.validate_python(obj)
    except ValidationError as e:
        detail = _first_error(e)
        raise ProtocolError("bad_message", detail, detail=detail) from None


def encode(msg: BaseModel) -> str:
    """One message as the JSON text of one WebSocket frame."""
    return msg.model_dump_json()


def error_text(code: str, key: str, message: str, rule: Optional[str] = None,
               params: Optional[dict[str, Any]] = None, version: Optional[int] = None) -> str:
    """An ``error`` as the JSON text of one frame. For a client of an older ``version`` (it sent
    a message of that version): the shape every version reads, {v, type, code, message}, so that
    an older game can tell its player that the server is another version, instead of dropping an
    answer it cannot read and waiting."""
    if version is not None and version != PROTOCOL_VERSION:
        return json.dumps({"v": version, "type": "error", "code": code, "message": message})
    return encode(Error(code=code, key=key, params=params or {}, message=message, rule=rule))
