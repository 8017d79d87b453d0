"""The game record: config, seed and every action (chance outcomes included).

Replaying a record applies its actions in order and never calls a random
generator, so it reproduces the game on any Python version. The JSON form is
documented in docs/save-format.md.
"""
from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from typing import Optional

from .actions import Action, ActionSyntaxError, parse_action
from .content import Content
from .engine import apply, new_game
from .legality import IllegalAction
from .state import GameConfig, GameState

RECORD_FORMAT = "gonzaga-record"
RECORD_VERSION = 1


class RecordError(ValueError):
    """A record that cannot be read or does not replay; the message says where."""


@dataclass
class GameRecord:
    config: GameConfig
    seed: int
    actions: list[Action] = field(default_factory=list)
    map_id: Optional[dict] = None  # the board the game was played on (Content.map_id)

    def to_json(self, state: Optional[GameState] = None) -> dict:
        d = {"format": RECORD_FORMAT, "version": RECORD_VERSION,
             "config": self.config.to_json(), "seed": self.seed,
             "actions": [a.to_text() for a in self.actions]}
        map_id = state.content.map_id if state is not None else self.map_id
        if map_id is not None:
            d["map"] = map_id
        if state is not None:
            d["summary"] = summary(state)
        return d

    @classmethod
    def from_json(cls, d: dict) -> "GameRecord":
        if not isinstance(d, dict) or d.get("format") != RECORD_FORMAT:
            raise RecordError("not a Gonzaga game record (field 'format')")
        v = d.get("version")
        if not isinstance(v, int) or v > RECORD_VERSION:
            raise RecordError(f"record version {v!r} is newer than this program reads ({RECORD_VERSION})")
        try:
            config = GameConfig.from_json(d["config"])
            seed = int(d["seed"])
            texts = d["actions"]
        except (KeyError, TypeError, ValueError) as e:
            raise RecordError(f"record is missing or has a bad field: {e}") from None
        if not isinstance(texts, list):
            raise RecordError("record field 'actions' must be a list")
        actions = []
        for n, t in enumerate(texts):
            try:
                actions.append(parse_action(str(t)))
            except ActionSyntaxError as e:
                raise RecordError(f"action {n + 1}: {e}") from None
        map_id = d.get("map")
        if map_id is not None and not isinstance(map_id, dict):
            raise RecordError("record field 'map' must be an object")
        return cls(config, seed, actions, map_id)


def replay(record: GameRecord, content: Optional[Content] = None, upto: Optional[int] = None) -> GameState:
    """The state after the record's first ``upto`` actions (all by default)."""
    try:
        state = new_game(record.config, content)
    except ValueError as e:
        raise RecordError(f"record config: {e}") from None
    if other_map(record, state.content):
        raise RecordError(f"the game was played on another version of the board "
                          f"({record.map_id.get('name')} {record.map_id.get('digest')}, this program has "
                          f"{state.content.map_id['name']} {state.content.map_id['digest']})")
    for n, a in enumerate(record.actions[:upto]):
        try:
            state = apply(state, a)
        except IllegalAction as e:
            raise RecordError(f"action {n + 1} ({a.to_text()}) is illegal: {e.why}") from None
        except (KeyError, IndexError, AttributeError, TypeError) as e:
            raise RecordError(f"action {n + 1} ({a.to_text()}) cannot be applied: {e!r}") from None
    return state


def other_map(record: GameRecord, content: Content) -> bool:
    """True when the record names a board other than ``content``'s (older records name none)."""
    return bool(record.map_id) and record.map_id.get("digest") != content.map_id["digest"]


def summary(state: GameState) -> dict:
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
