"""Typed actions with a stable one-line text form (for records, logs and golden files).

    setup Colombo lt=0 decks=30.10.120...|... objectives=wine-art|university-bank
    plan 1 francia B          plan 0 inactive C+K
    place 1 f50 3,-2 r2
    wed 0 3,-2 4,-2
    donate 2
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Union

from .hexgrid import Hex

ACTION_CARDS = ("A", "B", "C")  # Harbors, Cities, Alliance (S3); K is a flag on the plan
ACTION_NAMES = {"A": "Harbors", "B": "Cities", "C": "Alliance", "K": "King's Privilege"}
INACTIVE = "inactive"  # the Inactive Regions card


@dataclass(frozen=True, slots=True)
class Setup:
    """The chance outcome that starts a game (S2, S4, S5): recorded, never re-drawn."""

    scenario: str
    last_turn_seat: int
    decks: tuple[tuple[int, ...], ...]  # fief numbers per seat, top card first
    objectives: tuple[str, ...]  # objective id per seat

    def to_text(self) -> str:
        decks = "|".join(".".join(str(n) for n in d) for d in self.decks)
        return (f"setup {self.scenario.replace(' ', '_')} lt={self.last_turn_seat} "
                f"decks={decks} objectives={'|'.join(self.objectives)}")


@dataclass(frozen=True, slots=True)
class Plan:
    """A seat's secret plan for the round (R2): a region card and an action card, maybe K."""

    seat: int
    region: str  # a region id or "inactive"
    action: str  # "A", "B" or "C"
    king: bool = False

    def to_text(self) -> str:
        return f"plan {self.seat} {self.region} {self.action}{'+K' if self.king else ''}"


@dataclass(frozen=True, slots=True)
class Place:
    """Place the round's fief with its anchor cell (0, 0) on ``anchor``, turned ``rotation``."""

    seat: int
    fief: int
    anchor: Hex
    rotation: int

    def to_text(self) -> str:
        return f"place {self.seat} f{self.fief} {self.anchor[0]},{self.anchor[1]} r{self.rotation}"


@dataclass(frozen=True, slots=True)
class Wedding:
    """Put one or two rings instead of the fief (W1-W6)."""

    seat: int
    rings: tuple[Hex, ...]

    def to_text(self) -> str:
        return f"wed {self.seat} " + " ".join(f"{q},{r}" for q, r in self.rings)


@dataclass(frozen=True, slots=True)
class Donate:
    """Donate the round's fief to the church (X3, R6)."""

    seat: int

    def to_text(self) -> str:
        return f"donate {self.seat}"


Action = Union[Setup, Plan, Place, Wedding, Donate]


class ActionSyntaxError(ValueError):
    """A line that is not the text form of any action."""


def _hex(tok: str) -> Hex:
    q, r = tok.split(",")
    return (int(q), int(r))


def parse_action(text: str) -> Action:
    """Read the text form written by ``to_text``."""
    parts = text.split()
    try:
        kind = parts[0]
        if kind == "setup":
            fields = dict(p.split("=", 1) for p in parts[2:])
            decks = tuple(tuple(int(n) for n in d.split(".")) for d in fields["decks"].split("|"))
            return Setup(parts[1].replace("_", " "), int(fields["lt"]), decks,
                         tuple(fields["objectives"].split("|")))
        if kind == "plan" and len(parts) == 4:
            action, _, king = parts[3].partition("+")
            if action not in ACTION_CARDS or king not in ("", "K"):
                raise ActionSyntaxError(f"unknown action card in {text!r}")
            return Plan(int(parts[1]), parts[2], action, king == "K")
        if kind == "place" and len(parts) == 5 and parts[2].startswith("f") and parts[4].startswith("r"):
            return Place(int(parts[1]), int(parts[2][1:]), _hex(parts[3]), int(parts[4][1:]))
        if kind == "wed" and len(parts) in (3, 4):
            return Wedding(int(parts[1]), tuple(_hex(p) for p in parts[2:]))
        if kind == "donate" and len(parts) == 2:
            return Donate(int(parts[1]))
    except (IndexError, KeyError, ValueError) as e:
        if isinstance(e, ActionSyntaxError):
            raise
        raise ActionSyntaxError(f"cannot read action {text!r}") from None
    raise ActionSyntaxError(f"cannot read action {text!r}")
