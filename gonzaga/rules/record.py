"""The game record: config, seed and every action (chance outcomes included).

Replaying a record applies its actions in order and never calls a random
generator, so it reproduces the game on any Python version. The JSON form is
documented in docs/save-format.md.
"""
from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field, replace
from typing import Any, Optional

from .actions import Action, ActionSyntaxError, parse_action
from .content import Content, edition_for, load_content
from .engine import apply, new_game
from .legality import IllegalAction
from .state import GameConfig, GameState
import reprlib

RECORD_FORMAT = "gonzaga-record"
RECORD_VERSION = 2  # 2: the printed card numbering (D1); version 1 records are upgraded on reading


class RecordError(ValueError):
    """A record that cannot be read or does not replay; the message says where."""


@dataclass
class GameRecord:
    config: GameConfig
    seed: int
    actions: list[Action] = field(default_factory=list)
    map_id: Optional[dict[str, Any]] = None  # the board the game was played on (Content.map_id)
    version: int = RECORD_VERSION  # the format it was read from; ``upgrade`` makes it current

    def to_json(self, state: Optional[GameState] = None) -> dict[str, Any]:
        d: dict[str, Any] = {"format": RECORD_FORMAT, "version": RECORD_VERSION,
             "config": self.config.to_json(), "seed": self.seed,
             "actions": [a.to_text() for a in self.actions]}
        map_id = state.content.map_id if state is not None else self.map_id
        if map_id is not None:
            d["map"] = map_id
        if state is not None:
            d["summary"] = summary(state)
        return d

    @classmethod
    def from_json(cls, d: Any) -> "GameRecord":
        """A record from its JSON form; RecordError (never another exception) if anything is wrong.

        Every field is checked for type, range and size before it is used, and a message quotes
        at most a short excerpt of a bad value (a record may be hostile: huge numbers, deep
        nesting, megabyte strings).
        """
        try:
            return cls._from_json(d)
        except RecordError:
            raise
        except RecursionError:
            raise RecordError("record is nested too deeply") from None
        except Exception as e:  # nothing unforeseen escapes as a traceback
            raise RecordError(f"record has a bad field ({type(e).__name__})") from None

    @classmethod
    def _from_json(cls, d: Any) -> "GameRecord":
        if not isinstance(d, dict) or d.get("format") != RECORD_FORMAT:
            raise RecordError("not a Gonzaga game record (field 'format')")
        v = d.get("version")
        if type(v) is not int or v < 1:
            raise RecordError(f"record field 'version' must be a whole number (found {_excerpt(v)})")
        if v > RECORD_VERSION:
            raise RecordError(f"record version {v} is newer than this program reads ({RECORD_VERSION})")
        if "config" not in d:
            raise RecordError("record is missing the field 'config'")
        try:
            config = GameConfig.from_json(d["config"])
        except (KeyError, TypeError, ValueError) as e:
            raise RecordError(f"record field 'config': {_excerpt(e.args[0] if e.args else e, 80)}") from None
        seed = d.get("seed")
        if type(seed) is not int or not 0 <= seed <= MAX_SEED:
            raise RecordError(f"record field 'seed' must be a whole number from 0 to 2**63 (found {_excerpt(seed)})")
        texts = d.get("actions")
        if not isinstance(texts, list):
            raise RecordError("record field 'actions' must be a list")
        if len(texts) > MAX_ACTIONS:
            raise RecordError(f"record field 'actions' has {len(texts)} actions (a game has at most {MAX_ACTIONS})")
        actions = []
        for n, t in enumerate(texts):
            if not isinstance(t, str) or len(t) > MAX_ACTION_TEXT:
                raise RecordError(f"action {n + 1}: not an action ({_excerpt(t)})")
            try:
                actions.append(parse_action(t))
            except (ActionSyntaxError, ValueError, TypeError, OverflowError):
                raise RecordError(f"action {n + 1}: cannot read {_excerpt(t)}") from None
        map_id = d.get("map")
        if map_id is not None:
            if not isinstance(map_id, dict):
                raise RecordError("record field 'map' must be an object")
            for k, x in map_id.items():
                if not isinstance(k, str) or len(k) > 40 or not (
                        (isinstance(x, str) and len(x) <= 80) or (type(x) is int and abs(x) < 10 ** 9)):
                    raise RecordError(f"record field 'map' has a bad entry ({_excerpt(k)})")
        return cls(config, seed, actions, map_id, v)


MAX_SEED = 2 ** 63
MAX_ACTIONS = 500  # a four-seat game that runs all 12 rounds has about 100 actions
MAX_ACTION_TEXT = 400  # the longest, a four-seat setup, has about 260 characters


def _excerpt(value: Any, limit: int = 40) -> str:
    """A short printable quotation of any value, for messages (never the whole of a huge one)."""
    r = reprlib.Repr()
    r.maxlevel, r.maxlist, r.maxdict, r.maxstring, r.maxother, r.maxlong = 3, 4, 4, limit, limit, limit
    try:
        s = r.repr(value)
    except Exception:
        s = type(value).__name__
    s = "".join(ch if ch.isprintable() else "?" for ch in s[: limit * 2])
    return s if len(s) <= limit else s[: limit - 1] + "…"


def replay(record: GameRecord, content: Optional[Content] = None, upto: Optional[int] = None) -> GameState:
    """The state after the record's first ``upto`` actions (all by default).

    An older record is upgraded first (see ``upgrade``); a record from another board is
    replayed only when it is an earlier edition of this board (same name), and then only
    if every one of its moves is legal on this one.
    """
    content = content_of(record, content or load_content())
    if record.version < RECORD_VERSION:
        record = upgrade(record, content)
    return _replay(record, content, upto)


def _replay(record: GameRecord, content: Content, upto: Optional[int] = None,
            trace: Optional[list[Any]] = None) -> GameState:
    try:
        state = new_game(record.config, content)
    except ValueError as e:
        raise RecordError(f"record config: {e}") from None
    for n, a in enumerate(record.actions[:upto]):
        try:
            state = apply(state, a)
        except IllegalAction as e:
            raise RecordError(f"action {n + 1} ({a.to_text()}) is illegal: {e.why}") from None
        except (KeyError, IndexError, AttributeError, TypeError) as e:
            raise RecordError(f"action {n + 1} ({a.to_text()}) cannot be applied: {e!r}") from None
        if trace is not None:
            trace.append(state.order)
    return state


def upgrade(record: GameRecord, content: Optional[Content] = None) -> GameRecord:
    """A version 1 record made current.

    Version 1 games were played with the old card numbering (green 3, blue 4; D1 now prints
    blue 3, green 4). The numbering only matters when two seats tie on the turn order, so a
    game whose turn order is the same under both numberings becomes a plain printed-numbering
    game; one where it differs keeps the old numbering (config ``numbering: "v1"``) so that it
    finishes exactly as it was played.
    """
    if record.version >= RECORD_VERSION:
        return record
    content = content or load_content()
    legacy = replace(record, config=replace(record.config, numbering="v1"), version=RECORD_VERSION)
    printed = replace(record, config=replace(record.config, numbering="printed"), version=RECORD_VERSION)
    old_orders: list[Any] = []
    _replay(legacy, content, trace=old_orders)  # raises RecordError when the game does not replay
    new_orders: list[Any] = []
    try:
        _replay(printed, content, trace=new_orders)
    except RecordError:
        return legacy
    return printed if new_orders == old_orders else legacy


def content_of(record: GameRecord, content: Content) -> Content:
    """The board a record is replayed on: its own (this one or a kept earlier edition), else this
    one when the record names an earlier edition of it that was not kept; RecordError otherwise."""
    own = edition_for(record.map_id, content)
    if own is not None:
        return own
    if earlier_board(record, content):
        return content
    named = record.map_id or {}
    raise RecordError(f"the game was played on another board "
                      f"({named.get('name')} {named.get('digest')}, this program has "
                      f"{content.map_id['name']} {content.map_id['digest']})")


def earlier_board(record: GameRecord, content: Content) -> bool:
    """True when the record names an earlier edition of this board (same board name)."""
    return bool(record.map_id) and (record.map_id or {}).get("name") == content.map_id["name"]


def other_map(record: GameRecord, content: Content) -> bool:
    """True when the record names a board other than ``content``'s (older records name none)."""
    return bool(record.map_id) and (record.map_id or {}).get("digest") != content.map_id["digest"]


def summary(state: GameState) -> dict[str, Any]:
    """A short fingerprint of a state: enough to check that a replay reproduces it."""
    return {"round": state.round, "phase": state.phase, "scores": list(state.scores()),
            "winners": list(state.winners), "digest": digest(state)}


def digest(state: GameState) -> str:
    parts = [state.phase, str(state.round), str(state.scenario), repr(state.order), str(state.turn),
             str(state.last_round), repr(state.winners)]
    for s in state.seats:
        parts.append(repr((s.colour, s.deck, s.fief, s.rings, s.objective, s.plan, sorted(s.unavailable),
                           s.fief_mask, s.ring_mask, sorted(s.leagues), s.score, s.donations)))
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()[:16]


def dumps(record: GameRecord, state: Optional[GameState] = None) -> str:
    return json.dumps(record.to_json(state), indent=1)
