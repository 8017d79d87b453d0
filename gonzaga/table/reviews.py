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
from typing import Optional

from ..ai.review_result import Review, record_digest
from ..rules import GameRecord
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


__all__ = ["delete_reviews", "load_review", "review_path", "reviews_dir", "store_review"]
