"""What a post-game review found (issue 48): a verdict for each decision of one seat, and the
summary the screen and ``gonzaga review`` show. Plain data, light to import (the game keeps and
reads reviews without loading the analysis of ``ai.review``)."""
from __future__ import annotations

import hashlib
from dataclasses import asdict, dataclass, field
from typing import Any, Optional

from ..rules import Action, GameRecord, Place, Plan, Wedding, parse_action

REVIEW_VERSION = 1
KINDS = ("plan", "place", "wedding", "donate")
COSTLY_MAX = 5  # the costliest flagged decisions marked: five at most (fewer when fewer are flagged)


def kind_of(a: Action) -> str:
    if isinstance(a, Plan):
        return "plan"
    if isinstance(a, Place):
        return "place"
    if isinstance(a, Wedding):
        return "wedding"
    return "donate"


@dataclass
class Verdict:
    """One decision of the seat: the move played against the best the expert found."""

    index: int  # the position in the record: the decision is record.actions[index]
    round: int
    kind: str  # one of KINDS (the move played)
    played: str  # the action's text form
    best: str  # the best candidate's text (the played one when nothing beat it)
    played_points: float  # the expected final points of the seat after the move played
    best_points: float
    lost: float  # points lost (margin over the best rival), >= 0
    error: float  # the margin of error of ``lost``
    candidates: int = 0
    rollouts: int = 0

    @property
    def flagged(self) -> bool:
        return self.lost > self.error and self.best != self.played

    @property
    def counted(self) -> float:
        """The loss the summary counts: only a flagged decision's."""
        return self.lost if self.flagged else 0.0


@dataclass
class Review:
    """The review of one seat: a verdict for every decision analysed so far."""

    seat: int
    digest: str  # the reviewed game's record digest (``record_digest``)
    budget: int
    seed: int
    total: int  # decisions the seat made
    verdicts: list[Verdict] = field(default_factory=list)
    version: int = REVIEW_VERSION

    @property
    def complete(self) -> bool:
        return len(self.verdicts) >= self.total

    def costliest(self) -> list[Verdict]:
        """The three to five costliest flagged decisions, costliest first (ties: the earlier)."""
        flagged = sorted((v for v in self.verdicts if v.flagged), key=lambda v: (-v.lost, v.index))
        return flagged[:COSTLY_MAX]

    def lost_by(self) -> dict[str, float]:
        """Points lost (flagged decisions only) by kind: ``plans`` and ``placements`` (placements,
        weddings and donations: what the seat did with its turn)."""
        plans = sum(v.counted for v in self.verdicts if v.kind == "plan")
        turns = sum(v.counted for v in self.verdicts if v.kind != "plan")
        return {"plans": plans, "placements": turns}

    def lost_by_round(self) -> dict[int, float]:
        out: dict[int, float] = {}
        for v in self.verdicts:
            out[v.round] = out.get(v.round, 0.0) + v.counted
        return out

    def best_round(self) -> Optional[int]:
        """The round that lost least (the earliest of equals); None before any verdict."""
        by = self.lost_by_round()
        return min(by, key=lambda r: (by[r], r)) if by else None

    def worst_round(self) -> Optional[int]:
        by = self.lost_by_round()
        return max(by, key=lambda r: (by[r], -r)) if by else None

    def to_json(self) -> dict[str, Any]:
        return {"format": "gonzaga-review", "version": self.version, "seat": self.seat, "digest": self.digest,
                "budget": self.budget, "seed": self.seed, "total": self.total,
                "verdicts": [asdict(v) for v in self.verdicts]}

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> "Review":
        """A review from ``to_json``; ValueError (or KeyError, TypeError) when it is not one."""
        if not isinstance(d, dict) or d.get("format") != "gonzaga-review" or d.get("version") != REVIEW_VERSION:
            raise ValueError("not a review of this version")
        verdicts = []
        for x in d["verdicts"]:
            v = Verdict(int(x["index"]), int(x["round"]), str(x["kind"]), str(x["played"]), str(x["best"]),
                        float(x["played_points"]), float(x["best_points"]), float(x["lost"]), float(x["error"]),
                        int(x.get("candidates", 0)), int(x.get("rollouts", 0)))
            if v.kind not in KINDS:
                raise ValueError(f"unknown decision kind {v.kind!r}")
            parse_action(v.played), parse_action(v.best)  # both must read back
            verdicts.append(v)
        return cls(int(d["seat"]), str(d["digest"]), int(d["budget"]), int(d["seed"]), int(d["total"]), verdicts)


def record_digest(record: GameRecord) -> str:
    """A fingerprint of the game reviewed: its seats, seed and every action (the deal among them),
    the same for the game's record and for a save of it read back."""
    text = "\n".join([str(record.config.seats), str(record.seed)] + [a.to_text() for a in record.actions])
    return hashlib.sha256(text.encode()).hexdigest()[:16]


__all__ = ["KINDS", "REVIEW_VERSION", "Review", "Verdict", "kind_of", "record_digest"]
