"""Post-game reviews kept with the finished games (issue 48), so that opening one again is instant.

A review is stored in ``finished_dir()/reviews`` under the reviewed game's record digest, the
seat, the budget and the seed (``ai.review.record_digest``): the end screen, the finished games'
list, a replay and ``gonzaga review`` find the same file for the same game, whichever save it
was opened from. A partial review (cancelled) is stored too and resumed later. A file that does
not read back as a review of this game is ignored (and computed again), never shown.
"""
from __future__ import annotations

import json
import logging
import os
from pathlib import Path
from typing import Any, Optional

from ..ai.review_result import Review, record_digest
from ..rules import GameConfig, GameRecord, GameState, Setup, parse_action
from ..rules.actions import ActionSyntaxError
from ..rules.content import Content
from . import persistence as P

log = logging.getLogger(__name__)


def reviews_dir() -> Path:
    d = P.finished_dir() / "reviews"
    d.mkdir(parents=True, exist_ok=True)
    return d


def review_path(digest: str, seat: int, budget: int, seed: int) -> Path:
    return reviews_dir() / f"review-{digest}-s{seat}-b{budget}-r{seed}.json"


def load_review(record: GameRecord, seat: int, budget: int, seed: int = 0) -> Optional[Review]:
    """The stored review (complete or partial) of ``seat`` in this game, or None."""
    dig = record_digest(record)
    path = review_path(dig, seat, budget, seed)
    try:
        if not path.is_file() or path.stat().st_size > 1 << 20:
            return None
        rev = Review.from_json(json.loads(path.read_text(encoding="utf-8")))
    except (OSError, ValueError, KeyError, TypeError) as e:
        log.warning("ignoring the stored review %s: %s", path, e)
        return None
    if (rev.digest, rev.seat, rev.budget, rev.seed) != (dig, seat, budget, seed):
        return None
    return rev


def store_review(review: Review) -> Optional[Path]:
    """Keep ``review`` (written atomically); None when it cannot be written (the review is
    still shown: only the instant reopening is lost, and the log says why)."""
    try:
        path = review_path(review.digest, review.seat, review.budget, review.seed)
        P.atomic_write_text(path, json.dumps(review.to_json(), indent=1))
        return path
    except OSError as e:
        log.warning("cannot keep the review: %s", e)
        return None


def delete_reviews(digest: str) -> None:
    """Forget every review of the game with this record digest (its finished game was deleted)."""
    try:
        for p in reviews_dir().glob(f"review-{digest}-*.json"):
            os.unlink(p)
    except OSError as e:
        log.warning("cannot delete the reviews of %s: %s", digest, e)


# ---------------------------------------------------------------- an online game's record, for its players

FINISHED_FORMAT = "gonzaga-finished"
MAX_FINISHED_ACTIONS = 2000


def public_finished(record: GameRecord, final: GameState) -> dict[str, Any]:
    """What a finished online game's players get for the review of their seats: the record as
    everyone saw it by the end (every action; the setup's objectives, revealed at the end; each
    deck's cards drawn, in order, as they were shown), without what stayed secret: the order of
    the cards never drawn and the game's seed (it seeds the server's AI seats; ``check_secrets``)."""
    setup = record.actions[0]
    if not isinstance(setup, Setup) or final.phase != "over":
        raise ValueError("only a finished game's record is given out")
    drawn = [list(d[: len(d) - len(final.seats[i].deck)]) for i, d in enumerate(setup.decks)]
    return {"format": FINISHED_FORMAT, "config": record.config.to_json(), "scenario": setup.scenario,
            "last_turn_seat": setup.last_turn_seat, "objectives": list(setup.objectives), "drawn": drawn,
            "actions": [a.to_text() for a in record.actions[1:]]}


def finished_from_public(d: Any, content: Content) -> GameRecord:
    """The record ``public_finished`` describes (seed 0; each deck's cards never drawn in number
    order: no seat's view ever showed them, so every view replays as it was). RecordError or
    ValueError when ``d`` is not one."""
    if not isinstance(d, dict) or d.get("format") != FINISHED_FORMAT:
        raise ValueError("not a finished game's public record")
    acts = d.get("actions")
    if not isinstance(acts, list) or len(acts) > MAX_FINISHED_ACTIONS or not all(isinstance(a, str) for a in acts):
        raise ValueError("bad actions")
    config = GameConfig.from_json(d.get("config"))
    drawn, objectives = d.get("drawn"), d.get("objectives")
    if not isinstance(drawn, list) or len(drawn) != config.seats or not isinstance(objectives, list):
        raise ValueError("bad decks")
    cards = sorted(content.fiefs)
    decks = []
    for top in drawn:
        if not isinstance(top, list) or not all(type(c) is int for c in top) or not set(top) <= set(cards) \
                or len(set(top)) != len(top):
            raise ValueError("bad deck")
        decks.append(tuple(top) + tuple(c for c in cards if c not in top))
    setup = Setup(str(d.get("scenario")), int(d.get("last_turn_seat", -1)), tuple(decks),
                  tuple(str(o) for o in objectives))
    try:
        actions = [setup] + [parse_action(a) for a in acts]
    except ActionSyntaxError as e:
        raise ValueError(f"bad action: {e}") from None
    return GameRecord(config, 0, actions)


__all__ = ["FINISHED_FORMAT", "delete_reviews", "finished_from_public", "load_review", "public_finished",
           "review_path", "reviews_dir", "store_review"]
