"""Ratings of a community server's accounts (issue 47), from each rated game's final order.

**Why openskill's Plackett-Luce model.** A Gonzaga game is a free-for-all of 2 to 4 players with
a full final order (ties possible: a shared victory, equal points and sites). Plackett-Luce
rates a whole order at once, as the probability of that order given each player's skill, so a
third place against two strong players says more than a third place against two beginners,
and 2-, 3- and 4-player games go into one scale. openskill (Weng and Lin's Bayesian
approximation, MIT licence, pure Python, maintained) implements it; its TrueSkill-like ``mu``
and ``sigma`` carry the uncertainty, so a new account moves fast and a settled one slowly.
The rating shown is the conservative ``mu - 3 sigma`` (openskill's ``ordinal``); an account is
marked provisional for its first ``accounts.PROVISIONAL_GAMES`` rated games (``accounts.provisional``).

**Which games are rated.** A finished game in which every seat was taken by a different account
(its seat bound to the account, ``account_desk.py``). A game with an AI level seated from the
start, or with a player who did not sign in, is unrated: an AI's strength has no measured rating
to stand for, and a seat nobody owns cannot be rated. A player who dropped out or resigned keeps
their seat's place: the AI that played it to the end plays *for them* (a resigned seat ranks
below every seat that did not resign, so resigning never pays). Each game is rated once (its id
is kept), whatever restarts happen.
"""
from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Optional, Sequence

from openskill.models import PlackettLuce

from ..rules import GameState
from ..rules.scoring import sites_held

log = logging.getLogger(__name__)

MODEL = PlackettLuce()  # openskill's defaults: mu 25, sigma 25/3, beta 25/6, tau 25/300


@dataclass(frozen=True)
class Rating:
    mu: float
    sigma: float
    games: int = 0

    @property
    def shown(self) -> float:
        """The conservative rating (``mu - 3 sigma``), rounded for people."""
        return round(self.mu - 3.0 * self.sigma, 2)


def new_rating() -> Rating:
    r = MODEL.rating()
    return Rating(float(r.mu), float(r.sigma), 0)


def final_ranks(state: GameState, resigned: Sequence[bool]) -> list[int]:
    """Each seat's place (1 first; equal places for equal results) in a finished game: points,
    then sites held (the rulebook's tie-break, X6); a seat that resigned below every other."""
    keys = [(not resigned[i], state.seats[i].score, sites_held(state, i)) for i in range(state.n)]
    return [1 + sum(1 for k in keys if k > keys[i]) for i in range(state.n)]


def rate(ratings: Sequence[Rating], ranks: Sequence[int]) -> list[Rating]:
    """The players' new ratings after one game of ``ranks`` (in seat order)."""
    teams = [[MODEL.rating(mu=r.mu, sigma=r.sigma)] for r in ratings]
    out = MODEL.rate(teams, ranks=[float(x) for x in ranks])
    return [Rating(float(t[0].mu), float(t[0].sigma), r.games + 1) for t, r in zip(out, ratings)]


def rated_accounts(owners: Sequence[Optional[int]]) -> Optional[list[int]]:
    """The seats' accounts when the game is rated (every seat an account's, all different); None otherwise."""
    if any(o is None for o in owners) or len(set(owners)) != len(owners):
        return None
    return [int(o) for o in owners if o is not None]
