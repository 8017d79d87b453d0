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
  watch   code

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

PROTOCOL_VERSION: Final = 2  # 2: ``error`` carries a words key and its parameters (issue 45)
OLDEST_ERROR_VERSION = 1  # every version so far reads an ``error`` {v, type, code, message} (see ``error_text``)
MAX_CLIENT_BYTES = 16 * 1024  # a client message: an action is one short line
MAX_SERVER_BYTES = 1024 * 1024  # a server message: a view with every piece of a 4-seat game
MAX_DEPTH = 6  # objects and lists nested in a client message


def _clean_name(name: str) -> str:
    why = name_problem(name)
    if why is not None:
        raise ValueError(why)
    return name


NAME = Annotated[str, Field(min_length=1, max_length=MAX_NAME), AfterValidator(_clean_name)]  # cleantext.py: refused, not cleaned
TOKEN = Annotated[str, Field(min_length=16, max_length=64, pattern=r"^[A-Za-z0-9_-]+$")]
GAME_ID = Annotated[str, Field(min_length=1, max_length=40, pattern=r"^[A-Za-z0-9_-]+$")]
CODE = Annotated[str, Field(min_length=4, max_length=12, pattern=r"^[A-Z0-9]+$")]
BOT = Annotated[str, Field(min_length=1, max_length=24, pattern=r"^[a-z]+(@[0-9]{1,6})?$")]
COLOUR = Literal["red", "yellow", "green", "blue"]
EMOTES = ("hello", "good_luck", "well_played", "thanks", "oops", "thinking")
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


# every client message type, listed once: the models above, in this union (the rest derives from it)
ClientMessage = Annotated[Union[Create, Join, Resume, SetSeat, Start, Act, Ping, Chat, Emote, Resign, Rematch,
                                Watch], Field(discriminator="type")]
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


class LastAction(BaseModel):
    """The action that led to an update, as the receiving seat may know it."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    kind: Literal["setup", "plan", "place", "wedding", "donate"]
    seat: Optional[int] = None  # None for the setup
    text: Optional[str] = None  # ``to_text()``; None for the setup and for a plan not yet revealed


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


class History(_Msg):
    """The game log up to ``n`` actions (after a ``resume`` or a ``watch``): each line as
    ``gamelog.encode`` writes it (a key and parameters, put into words by the receiver)."""

    type: Literal["history"] = "history"
    game: GAME_ID
    n: int
    lines: Annotated[list[Any], Field(max_length=2000)]  # JSON: ``logcodec.encode``


# every server message type, listed once (as the client's above)
ServerMessage = Annotated[Union[Joined, Lobby, Update, Error, Pong, Watching, Said, History],
                          Field(discriminator="type")]
SERVER_TYPES: tuple[type[BaseModel], ...] = get_args(get_args(ServerMessage)[0])
SERVER_KINDS: tuple[str, ...] = tuple(m.model_fields["type"].default for m in SERVER_TYPES)
_server = TypeAdapter(ServerMessage)


# ---------------------------------------------------------------- encoding and checking

class ProtocolError(ValueError):
    """A message that cannot be accepted: ``code`` is one of ERROR_CODES, ``key`` and ``params``
    the words (``net.*``), ``message`` the English; ``theirs``: the sender's older protocol
    version (the answer is then written so that it can read it: ``error_text``)."""

    def __init__(self, code: str, message: str, key: str = "net.bad_message", theirs: Optional[int] = None,
                 **params: Any):
        super().__init__(message)
        self.code = code
        self.message = message
        self.key = key
        self.params = params
        self.theirs = theirs


def _raw(text: Union[str, bytes], max_bytes: int) -> dict[str, Any]:  # a JSON object
    if isinstance(text, bytes):
        if len(text) > max_bytes:
            raise _too_large(max_bytes)
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError:
            raise ProtocolError("bad_json", "a message must be UTF-8 JSON text", "net.bad_json") from None
    data = text.encode("utf-8", "surrogatepass") if len(text) <= max_bytes else b""
    if len(text) > max_bytes or len(data) > max_bytes:
        raise _too_large(max_bytes)
    if _too_deep(data):
        raise ProtocolError("too_deep", f"a message may nest at most {MAX_DEPTH} levels", "net.too_deep",
                            depth=MAX_DEPTH)
    try:
        obj = json.loads(text)
    except (ValueError, RecursionError):
        raise ProtocolError("bad_json", "a message must be one JSON object", "net.bad_json") from None
    if not isinstance(obj, dict):
        raise ProtocolError("bad_json", "a message must be one JSON object", "net.bad_json")
    v = obj.get("v")
    if v != PROTOCOL_VERSION:
        theirs = v if isinstance(v, int) and not isinstance(v, bool) and OLDEST_ERROR_VERSION <= v < PROTOCOL_VERSION \
            else None
        raise ProtocolError("bad_version", f"this server speaks protocol version {PROTOCOL_VERSION}",
                            "net.bad_version", theirs, version=PROTOCOL_VERSION)
    return obj


def _too_large(max_bytes: int) -> ProtocolError:
    return ProtocolError("too_large", f"a message may hold at most {max_bytes} bytes", "net.too_large",
                         bytes=max_bytes)


_BRACKETS = bytes.maketrans(b"[{]}", b"(())")  # lists and objects alike (mismatches are the parser's)
_NOT_BRACKET = bytes(c for c in range(256) if c not in b"[{]}")
_RUN = b"(" * (MAX_DEPTH + 1)


def _too_deep(data: bytes) -> bool:
    """Whether the JSON text ``data`` nests objects and lists deeper than MAX_DEPTH, decided
    before parsing (so a deeply nested message never reaches the parser's recursion), in linear
    time with C-speed ``bytes`` operations only: escaped backslashes and quotes are dropped, then
    what is between quotes, then everything but brackets; then MAX_DEPTH passes of ``replace``
    each remove the innermost pairs (one level of nesting). A pair left over was nested deeper;
    unpaired brackets are the parser's to refuse, as bad JSON. The loop over characters this
    replaces took up to 1.4 ms for a 16 KiB message; ``gonzaga netplay-check`` measures this one
    as ``nesting_check_us_16k``."""
    if b"[" not in data and b"{" not in data:
        return False
    t = data.replace(b"\\\\", b"").replace(b'\\"', b"")  # JSON pairs backslashes from the left, as here
    t = b"".join(t.split(b'"')[::2]).translate(_BRACKETS, _NOT_BRACKET)
    if _RUN in t:  # that many openings in a row are that deep (or never closed: bad JSON anyway)
        return True
    for _ in range(MAX_DEPTH):
        shorter = t.replace(b"()", b"")
        if len(shorter) == len(t):
            return False
        t = shorter
    return b"()" in t


def _first_error(e: ValidationError) -> str:
    err = e.errors()[0]
    where = ".".join(str(x) for x in err.get("loc", ()) if x not in CLIENT_KINDS)
    msg = str(err.get("msg", "invalid")).removeprefix("Value error, ")  # our own validators' words
    return f"{where or 'message'}: {msg}"


def parse_client(text: Union[str, bytes]) -> ClientMessage:
    """A client message, validated; ProtocolError (with its code) when it cannot be accepted."""
    obj = _raw(text, MAX_CLIENT_BYTES)
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
