"""The rules of Gonzaga: pure Python, no pygame. Spec: shared/design/spec.md parts B-D.

The public API, in OpenSpiel's vocabulary::

    state = new_game(GameConfig(seats=3))          # waits for its chance outcome
    state = apply(state, deal(state, rng))         # S2, S4, S5 (recorded as an action)
    state.to_act()                                  # seats that may act now
    legal_actions(state, seat)                      # plans, placements, weddings, donation
    check(state, action)                            # None, or Illegal(rule, key, params): .message in English
    state = apply(state, action)                    # raises IllegalAction with the rule id
    view(state, seat)                               # what that seat may know
"""
from .actions import (ACTION_CARDS, ACTION_NAMES, INACTIVE, Action, ActionSyntaxError, Donate, Place,
                      Plan, Setup, Wedding, parse_action)
from .content import Content, ContentError, load_content
from .engine import apply, deal, new_game, play_setup, try_on, turn_order
from .legality import (Illegal, IllegalAction, check, is_legal, legal_actions, legal_placements,
                       legal_plans, legal_weddings, placement_problem, plan_problem, ring_problem,
                       wedding_ring_sets)
from .rounds import ACTION_RANK, LAST_TURN_FREE_SITES, game_ends, last_turn_fires, turn_order_key
from .record import GameRecord, RecordError, replay
from .state import COLOURS, GameConfig, GameState, Piece, SeatState
from .view import determinize, public_view, shown_view, view

__all__ = [
    "ACTION_CARDS", "ACTION_NAMES", "INACTIVE", "Action", "ActionSyntaxError", "Donate", "Place", "Plan",
    "Setup", "Wedding", "parse_action", "Content", "ContentError", "load_content", "apply", "deal",
    "new_game", "play_setup", "try_on", "turn_order", "Illegal", "IllegalAction", "check", "is_legal",
    "legal_actions", "legal_placements", "legal_plans", "legal_weddings", "placement_problem",
    "plan_problem", "ring_problem", "GameRecord", "RecordError", "replay", "COLOURS", "GameConfig",
    "GameState", "Piece", "SeatState", "determinize", "public_view", "shown_view", "view", "wedding_ring_sets",
    "ACTION_RANK", "LAST_TURN_FREE_SITES", "game_ends", "last_turn_fires", "turn_order_key",
]
