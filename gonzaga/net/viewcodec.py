"""A seat's view of the state as JSON and back (issue 14): what the server sends a client.

``view_to_json(view(state, seat))`` holds only what that seat may know (``rules.view``): the
decks as sorted sets, the other seats' objectives as null, their plans as hidden until the
reveal. ``view_from_json`` rebuilds a ``GameState`` that the normal game screens draw; the board
comes from the client's own content (the server's ``map`` id is checked on joining). Only views
are encoded: ``view_to_json`` refuses a full state, so a server cannot send one by mistake.
"""
from __future__ import annotations

from typing import Annotated, Any, Literal, Optional

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from ..rules.actions import Plan
from ..rules.content import Content
from ..rules.engine import new_game
from ..rules.state import GameConfig, GameState, Piece, SeatState, evolve

HEX = tuple[int, int]
_strict = ConfigDict(extra="forbid", frozen=True)


class PlanJ(BaseModel):
    model_config = _strict
    seat: int
    region: Annotated[str, Field(max_length=40)]
    action: Annotated[str, Field(max_length=10)]
    king: bool


class SeatJ(BaseModel):
    model_config = _strict
    colour: str
    deck: list[int]
    fief: Optional[int]
    rings: int
    objective: Optional[str]
    plan: Optional[PlanJ]
    unavailable: list[str]
    fief_mask: int
    ring_mask: int
    leagues: list[str]
    site_points: int
    league_points: int
    donation_points: int
    donations: int
    gonzaga_points: int
    objective_points: int
    deck_hidden: Literal[True]
    card_digit: int


class PieceJ(BaseModel):
    model_config = _strict
    seat: int
    kind: Literal["fief", "ring"]
    fief: int
    cells: list[HEX]
    castles: list[HEX]
    mask: int
    round: int


class ViewJ(BaseModel):
    model_config = _strict
    config: dict[str, Any]  # JSON: GameConfig.to_json
    phase: Literal["setup", "plan", "place", "over"]
    round: int
    scenario: Optional[str]
    flourishing: list[str]
    seats: Annotated[list[SeatJ], Field(max_length=4)]
    order: list[int]
    turn: int
    last_turn_seat: int
    last_round: Optional[int]
    pieces: Annotated[list[PieceJ], Field(max_length=200)]
    winners: list[int]
    tiebreak: str
    viewer: Optional[int]  # None: the public view (a spectator's)


def view_to_json(v: GameState) -> dict[str, Any]:  # a JSON object
    """A seat's view (or the public view, ``viewer`` None) as a JSON-ready dict; ValueError for a
    state that is not a view."""
    if not all(s.deck_hidden for s in v.seats) or (v.viewer is None and v.phase != "over" and any(
            s.objective is not None for s in v.seats)):
        raise ValueError("only a seat's view may be sent, never the full state")
    return {
        "config": {**v.config.to_json(), "colours": list(v.config.colours)}, "phase": v.phase, "round": v.round, "scenario": v.scenario,
        "flourishing": sorted(v.flourishing),
        "seats": [{
            "colour": s.colour, "deck": list(s.deck), "fief": s.fief, "rings": s.rings, "objective": s.objective,
            "plan": None if s.plan is None else {"seat": s.plan.seat, "region": s.plan.region,
                                                 "action": s.plan.action, "king": s.plan.king},
            "unavailable": sorted(s.unavailable), "fief_mask": s.fief_mask, "ring_mask": s.ring_mask,
            "leagues": sorted(s.leagues), "site_points": s.site_points, "league_points": s.league_points,
            "donation_points": s.donation_points, "donations": s.donations, "gonzaga_points": s.gonzaga_points,
            "objective_points": s.objective_points, "deck_hidden": True, "card_digit": s.card_digit,
        } for s in v.seats],
        "order": list(v.order), "turn": v.turn, "last_turn_seat": v.last_turn_seat, "last_round": v.last_round,
        "pieces": [{"seat": p.seat, "kind": p.kind, "fief": p.fief, "cells": [list(c) for c in p.cells],
                    "castles": sorted(list(c) for c in p.castles), "mask": p.mask, "round": p.round}
                   for p in v.pieces],
        "winners": list(v.winners), "tiebreak": v.tiebreak, "viewer": v.viewer,
    }


def view_from_json(d: dict[str, Any], content: Content) -> GameState:
    """The view a server sent, as a state for the screens; ValueError with the first problem."""
    try:
        j = ViewJ.model_validate(d)
        config = GameConfig.from_json(j.config)
    except (ValidationError, ValueError) as e:
        raise ValueError(f"the server sent a view this game cannot read: {e}") from None
    base = new_game(config, content)
    seats = tuple(SeatState(
        colour=s.colour, deck=tuple(s.deck), fief=s.fief, rings=s.rings, objective=s.objective,
        plan=None if s.plan is None else Plan(s.plan.seat, s.plan.region, s.plan.action, s.plan.king),
        unavailable=frozenset(s.unavailable), fief_mask=s.fief_mask, ring_mask=s.ring_mask,
        leagues=frozenset(s.leagues), site_points=s.site_points, league_points=s.league_points,
        donation_points=s.donation_points, donations=s.donations, gonzaga_points=s.gonzaga_points,
        objective_points=s.objective_points, deck_hidden=True, card_digit=s.card_digit) for s in j.seats)
    pieces = tuple(Piece(seat=p.seat, kind=p.kind, fief=p.fief, cells=tuple(p.cells),
                         castles=frozenset(p.castles), mask=p.mask, round=p.round)
                   for p in j.pieces)
    return evolve(base, phase=j.phase, round=j.round, scenario=j.scenario, flourishing=frozenset(j.flourishing),
                  seats=seats, order=tuple(j.order), turn=j.turn, last_turn_seat=j.last_turn_seat,
                  last_round=j.last_round, pieces=pieces, winners=tuple(j.winners), tiebreak=j.tiebreak,
                  viewer=j.viewer)
