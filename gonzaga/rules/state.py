"""The game state: immutable dataclasses. Only ``engine.apply`` makes new ones."""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Optional, TypeVar

from .actions import Plan
from .board import Board
from .content import Content
from .hexgrid import Hex

COLOURS = ("red", "yellow", "green", "blue")
# Card = fief + colour digit (D1); the digits are content (assets/map/fiefs.json). Games started
# before save format 2 used this other numbering; they keep it so they finish as they were played.
LEGACY_COLOUR_DIGITS = {"red": 1, "yellow": 2, "green": 3, "blue": 4}
NUMBERINGS = ("printed", "v1")
RINGS_PER_SEAT = 6  # S1
FIEFS_PER_SEAT = 12  # S1
LAST_TURN_UNDER = 6  # S4: the Last Turn card lies under the 6th card
FIRST_LAST_TURN_CHECK = 6  # E1: after round 6


T = TypeVar("T")


def evolve(obj: T, **changes: Any) -> T:
    """A copy of a frozen dataclass with some fields changed.

    ``dataclasses.replace`` re-runs ``__init__`` over every field; this copies the
    instance dict, several times faster, which matters in AI playouts.
    """
    new = object.__new__(type(obj))
    d = new.__dict__
    d.update(obj.__dict__)
    d.update(changes)
    return new


@dataclass(frozen=True)
class GameConfig:
    """What a new game is made from; the seed is kept beside it in the record."""

    seats: int = 4
    colours: tuple[str, ...] = ()  # default: the first ``seats`` of COLOURS
    scenario: Optional[str] = None  # None: drawn at random for the seat count (S2)
    last_turn: str = "first"  # "first" seat or "random" (S4)
    numbering: str = "printed"  # card numbers (D1): "printed", or "v1" for games begun before it

    def seat_colours(self) -> tuple[str, ...]:
        return self.colours or COLOURS[: self.seats]

    def to_json(self) -> dict[str, Any]:
        return {"seats": self.seats, "colours": list(self.seat_colours()),
                "scenario": self.scenario, "last_turn": self.last_turn, "numbering": self.numbering}

    @classmethod
    def from_json(cls, d: Any) -> "GameConfig":
        """A config from its JSON form; ValueError (with a short reason) for any bad field."""
        if not isinstance(d, dict):
            raise ValueError("must be an object")
        seats = d.get("seats")
        if type(seats) is not int or not 2 <= seats <= 4:
            raise ValueError("'seats' must be 2, 3 or 4")
        colours = d.get("colours") or []
        if (not isinstance(colours, list) or len(colours) > len(COLOURS)
                or any(not isinstance(c, str) or c not in COLOURS for c in colours)):
            raise ValueError(f"'colours' must list seat colours ({', '.join(COLOURS)})")
        scenario = d.get("scenario")
        if scenario is not None and (not isinstance(scenario, str) or not 0 < len(scenario) <= 40):
            raise ValueError("'scenario' must be a scenario name or null")
        last_turn = d.get("last_turn", "first")
        if last_turn not in ("first", "random"):
            raise ValueError("'last_turn' must be \"first\" or \"random\"")
        numbering = d.get("numbering", "printed")
        if numbering not in NUMBERINGS:
            raise ValueError(f"'numbering' must be one of {', '.join(NUMBERINGS)}")
        return cls(seats=seats, colours=tuple(colours), scenario=scenario, last_turn=last_turn,
                   numbering=numbering)

    def colour_digits(self, content: Content) -> dict[str, int]:
        return LEGACY_COLOUR_DIGITS if self.numbering == "v1" else content.colour_digits


@dataclass(frozen=True)
class Piece:
    """A fief or a ring on the board."""

    seat: int
    kind: str  # "fief" or "ring"
    fief: int  # fief number, 0 for a ring
    cells: tuple[Hex, ...]
    castles: frozenset[Hex]
    mask: int
    round: int


@dataclass(frozen=True)
class SeatState:
    colour: str
    deck: tuple[int, ...]  # fief numbers, top first (hidden: see view.py)
    fief: Optional[int]  # the fief turned up this round (R1), public
    rings: int
    objective: Optional[str]  # hidden from the other seats
    plan: Optional[Plan] = None  # this round's plan; secret until the reveal (R3)
    unavailable: frozenset[str] = frozenset()  # cards played last round (R3, R5, K4)
    fief_mask: int = 0
    ring_mask: int = 0
    leagues: frozenset[str] = frozenset()
    site_points: int = 0
    league_points: int = 0
    donation_points: int = 0
    donations: int = 0
    gonzaga_points: int = 0
    objective_points: int = 0
    deck_hidden: bool = False  # True in a seat's view: ``deck`` is then sorted, not in order
    card_digit: int = 0  # D1: this seat's colour digit

    @property
    def score(self) -> int:
        return (self.site_points + self.league_points + self.donation_points
                + self.gonzaga_points + self.objective_points)

    @property
    def held(self) -> int:
        return self.fief_mask | self.ring_mask

    @property
    def card(self) -> Optional[int]:
        """The number of this round's fief card (D1): fief number + colour digit."""
        return None if self.fief is None else self.fief + self.card_digit


@dataclass(frozen=True)
class GameState:
    content: Content = field(repr=False, compare=False)
    board: Board = field(repr=False, compare=False)
    config: GameConfig
    phase: str = "setup"  # setup, plan, place, over
    round: int = 0
    scenario: Optional[str] = None
    flourishing: frozenset[str] = frozenset()
    seats: tuple[SeatState, ...] = ()
    order: tuple[int, ...] = ()  # this round's turn order (R4)
    turn: int = 0  # index into order during the place phase
    last_turn_seat: int = 0
    last_round: Optional[int] = None  # set when the Last Turn card fires (E1)
    pieces: tuple[Piece, ...] = ()
    winners: tuple[int, ...] = ()
    tiebreak: str = ""  # how X6 decided, once over
    viewer: Optional[int] = None  # set in a seat's view (view.py); None for the full state

    # ------------------------------------------------------------ who acts

    @property
    def n(self) -> int:
        return len(self.seats)

    @property
    def is_over(self) -> bool:
        return self.phase == "over"

    def to_act(self) -> tuple[int, ...]:
        """Seats that may act now: every seat yet to plan, or the one to place."""
        if self.phase == "plan":
            return tuple(i for i, s in enumerate(self.seats) if s.plan is None)
        if self.phase == "place":
            return (self.order[self.turn],)
        return ()

    @property
    def all_fiefs(self) -> int:
        m = 0
        for s in self.seats:
            m |= s.fief_mask
        return m

    @property
    def all_rings(self) -> int:
        m = 0
        for s in self.seats:
            m |= s.ring_mask
        return m

    def scores(self) -> tuple[int, ...]:
        return tuple(s.score for s in self.seats)

    def region_cards(self) -> tuple[str, ...]:
        """The region cards in play (S3): flourishing regions, then Inactive Regions if any."""
        return _region_cards(self.content.region_ids, self.flourishing)

    def with_seat(self, i: int, **changes: Any) -> "GameState":
        seats = list(self.seats)
        seats[i] = evolve(seats[i], **changes)
        return evolve(self, seats=tuple(seats))


@lru_cache(maxsize=64)
def _region_cards(regions: tuple[str, ...], flourishing: frozenset[str]) -> tuple[str, ...]:
    ids = [r for r in regions if r in flourishing]
    if len(ids) < len(regions):
        ids.append("inactive")
    return tuple(ids)
