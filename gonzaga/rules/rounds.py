"""The round's clock as pure functions of plain values: who places first (R4) and when the
game ends (E1, E2).

The engine calls these on its states; the AI's fast simulator (``gonzaga.ai.fastsim``) calls
them on its own lists of numbers, so these rules are written once.
"""
from __future__ import annotations

from typing import Optional

from .state import FIRST_LAST_TURN_CHECK

ACTION_RANK = {"A": 0, "B": 1, "C": 2}  # R4: Harbors, then Cities, then Alliance
LAST_TURN_FREE_SITES = 3  # E1: this many free flourishing sites or fewer: the next round is the last


def turn_order_key(king: bool, action: str, card: int) -> tuple[int, int, int]:
    """R4 as a sort key, lower first: the King's Privilege first, then Harbors, Cities,
    Alliance (so two kings go by their other action card), then the lower fief card
    (fief number + colour digit, D1)."""
    return (0 if king else 1, ACTION_RANK[action], card)


def last_turn_fires(round_no: int, last_round: Optional[int], free_flourishing_sites: int) -> bool:
    """E1: at the end of ``round_no``, the Last Turn card makes the next round the last."""
    return (last_round is None and round_no >= FIRST_LAST_TURN_CHECK
            and free_flourishing_sites <= LAST_TURN_FREE_SITES)


def game_ends(round_no: int, last_round: Optional[int], cards_left: int) -> bool:
    """E1, E2: the game ends with ``round_no``: it was the last round, or the decks are empty."""
    return round_no == last_round or not cards_left
