"""Every refusal the game can give, by key: the English words (``Illegal.message``, for logs and
the command line) and the parameters each one takes.

A refusal is an :class:`Illegal`: the failing rule's id, a key of :data:`REFUSALS` and its
parameters. The words floor (``gonzaga/words``) puts it into the player's language from the key
and the parameters (the English here is the ``msgid`` of the translators' catalogs), so a
rewording here never breaks a translation silently: the catalog test reports it as stale.

Parameters are plain values: ``{region}`` a region's map name (a proper name, the same in
every language), ``{action}`` an action card's letter A/B/C (every language says the card's
name), ``{name}`` a seat's name, numbers as numbers. The inactive regions have keys of their
own (``..._inactive``), because languages word them differently.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .actions import ACTION_NAMES

REFUSALS: dict[str, str] = {
    # ---- the game and its seats
    "game_over": "the game is over",
    "no_seat": "there is no seat {seat}",
    "plan_first": "every seat must plan before anybody places",
    "not_your_turn": "it is not this seat's turn",
    "unknown_action": "unknown action",
    # ---- setup (a recorded chance action)
    "set_up_already": "the game is already set up",
    "no_scenario": "there is no scenario tile '{scenario}'",
    "scenario_seats": "{scenario} is a tile for {seats} seats",
    "deck_per_seat": "one deck and one objective per seat",
    "deck_cards": "each deck holds the twelve fief cards once",
    "objective_cards": "each seat gets a different objective card",
    "last_turn_seat": "the Last Turn card must go to a seat",
    # ---- planning
    "no_region_card": "{region} has no region card in this scenario",
    "no_region_card_inactive": "the inactive regions have no region card in this scenario",
    "not_action_card": "'{card}' is not an action card",
    "region_card_played": "the {region} card was played last round",
    "inactive_card_played": "the Inactive Regions card was played last round",
    "action_card_played": "the {action} card was played last round",
    "king_played": "the King's Privilege was played last round",
    "king_ring": "the King's Privilege needs a ring in supply",
    "plans_before_reveal": "plans are made before the reveal",
    "planned_already": "this seat has already planned this round",
    # ---- placing a fief
    "wrong_fief": "this round's fief is {fief}, not {asked}",
    "rotation": "a rotation is 0 to 5 sixths of a turn",
    "off_map": "part of the fief would hang off the map",
    "fief_there": "a fief is already there",
    "own_ring_there": "one of your own rings is there",
    "castle_on_sea": "a castle would stand on the sea",
    "barrier": "the fief would cross a barrier",
    "not_in_region": "no hex of the fief is in {region}",
    "not_in_region_inactive": "no hex of the fief is in the inactive regions",
    "harbors_need": "Harbors: cover at least one harbor and no city",
    "harbors_no_city": "Harbors: the fief may not cover a city",
    "cities_no_harbor": "Cities: the fief may not cover a harbor",
    "alliance_need": "Alliance: cover at least one city and one harbor (or hold a wedding)",
    # ---- weddings
    "wedding_card": "a wedding needs the Alliance card",
    "wedding_rings": "a wedding places one or two rings",
    "wedding_two": "a wedding places at most two rings",
    "rings_short": "not enough rings in supply",
    "no_more_rings": "no more rings for this wedding",
    "ring_off_map": "a ring must go on a hex of the map",
    "ring_own_fief": "a ring may not go on your own fief",
    "ring_there": "that hex already has a ring",
    "first_ring": "the first ring must go in {region}",
    "first_ring_inactive": "the first ring must go in the inactive regions",
    "second_ring": "the second ring must be next to the first",
    # ---- the tables around the rules: who may act there
    "setup_by_session": "the setup is drawn by the session",
    "setup_by_server": "the setup is drawn by the server",
    "seat_computer": "{name} is played by the computer",
    "not_this_seat": "that action is for seat {asked}; this is seat {seat}",
    "seat_remote": "{name} plays on another computer",
    "replay": "a replay is watched, not played",
    # ---- who may hand a seat to the computer, take it back or resign (``table/seats.py``)
    "not_begun": "the game has not begun",
    "not_playing": "the game is not being played",
    "not_human_seat": "seat {seat} is not a human's seat",
    "not_seats_turn": "it is not seat {seat}'s turn",
    "handover_who": "only the host or the seat's own player may hand a seat to the computer",
    "seat_connected": "seat {seat} is connected: its player is playing",
    "grace_left": "seat {seat}'s player may come back for {seconds} more seconds",
    "give_back_who": "only the seat's own player may take it back",
    "not_handed": "seat {seat} was not handed to the computer",
    "resign_who": "only a seat's own player may resign it",
}


@dataclass(frozen=True)
class Illegal:
    """Why an action is illegal: the failing rule's id, the refusal's key in :data:`REFUSALS`
    and its parameters (``(name, value)`` pairs). ``said`` holds words that come already worded
    from elsewhere (a server's refusal this copy cannot key, a connection's state), with no key.

    Build one with :meth:`of` (a keyed refusal) or :meth:`words`."""

    rule: str
    key: str = ""
    params: tuple[tuple[str, Any], ...] = ()
    said: str = ""

    def __post_init__(self) -> None:
        if self.key and self.key not in REFUSALS:  # a sentence passed where a key belongs
            raise KeyError(f"no refusal {self.key!r} in REFUSALS")

    @classmethod
    def of(cls, rule: str, key: str, **params: Any) -> "Illegal":
        return cls(rule, key, tuple(sorted(params.items())))

    @classmethod
    def words(cls, rule: str, text: str) -> "Illegal":
        """A refusal already put into words by somebody else (shown as it is)."""
        return cls(rule, "", (), text)

    @property
    def args(self) -> dict[str, Any]:
        return dict(self.params)

    @property
    def message(self) -> str:
        """The refusal in English (logs, the command line, the online protocol)."""
        if not self.key:
            return self.said
        args = self.args
        if "action" in args:
            args["action"] = ACTION_NAMES.get(args["action"], args["action"])
        return REFUSALS[self.key].format(**args)

    def __str__(self) -> str:
        return f"{self.rule}: {self.message}"
