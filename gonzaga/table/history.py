"""A game's history from its record (pure Python, no pygame): the state after every action,
the scores at the end of every round, and a stable id of a game.

``states(record)[n]`` is ``rules.replay(record, upto=n)`` for every n, computed in one pass
(the replay viewer steps through them; the end screen's chart samples them).
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Iterable, Optional

from ..rules import Content, GameRecord, GameState, SeatState, new_game, try_on
from ..rules.view import public_view
from .seats import SeatSpec
from ..rules import load_content
from ..rules.record import upgrade


def states(record: GameRecord, content: Optional[Content] = None) -> list[GameState]:
    """The state before any action, then after each action of the record."""
    content = content or load_content()
    if record.version < 2:
        record = upgrade(record, content)
    st = new_game(record.config, content)
    out = [st]
    for a in record.actions:
        st = try_on(st, a)
        out.append(st)
    return out


@dataclass
class RoundScores:
    """Each seat's score at the end of each round (sites, sea leagues and donations: what is
    scored during play), and the final totals (with the Gonzaga tile and the objectives)."""

    rounds: list[int]  # 1, 2, ... the rounds that ended
    scores: list[list[int]]  # scores[seat][k]: at the end of rounds[k]
    final: Optional[list[int]]  # the totals once the game is over, else None


def _played(s: SeatState) -> int:
    return s.site_points + s.league_points + s.donation_points


def round_scores(history: list[GameState]) -> RoundScores:
    """Scores sampled at each round's end from the states of ``states()``."""
    rounds: list[int] = []
    per_round: list[list[int]] = []
    for prev, st in zip(history, history[1:]):
        if prev.phase == "place" and (st.round != prev.round or st.phase == "over"):
            rounds.append(prev.round)
            per_round.append([_played(s) for s in st.seats])
    n = len(history[-1].seats) if history else 0
    scores = [[row[i] for row in per_round] for i in range(n)]
    last = history[-1] if history else None
    final = list(last.scores()) if last is not None and last.phase == "over" else None
    return RoundScores(rounds, scores, final)


def public_state(state: GameState) -> GameState:
    """What everyone at the table may see: ``rules.view.public_view`` (no objective, no deck order,
    no plan before the reveal; every objective once the game is over)."""
    return public_view(state)


def game_id(record: GameRecord, seats: Iterable[SeatSpec] = ()) -> str:
    """A game's identity: its config, seed, setup (the deal) and seats (name, human or AI level).

    The same game keeps it whatever happens to it: loaded again, finished again after a take-back,
    or a save made during it finished twice; so statistics count it once. (A game started again
    from the same seed with the same seats is the same game for the statistics too.)
    """
    setup = record.actions[0].to_text() if record.actions else ""
    who = [f"{getattr(s, 'name', '')}/{getattr(s, 'kind', '')}/{getattr(s, 'bot', '')}" for s in seats]
    text = "\n".join([repr(sorted(record.config.to_json().items())), str(record.seed), setup] + who)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:20]
