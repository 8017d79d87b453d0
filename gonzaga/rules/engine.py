"""``new_game``, the chance outcome that sets it up, and ``apply``: the only way state changes."""
from __future__ import annotations

import random
from typing import Iterable, Optional

from . import scoring
from .actions import Action, Donate, Place, Plan, Setup, Wedding
from .board import board_for
from .hexgrid import Hex
from .content import Content, load_content
from .legality import IllegalAction, check
from .rounds import game_ends, last_turn_fires, turn_order_key
from .state import FIEFS_PER_SEAT, NUMBERINGS, evolve, RINGS_PER_SEAT, GameConfig, GameState, Piece, SeatState


def new_game(config: GameConfig, content: Optional[Content] = None) -> GameState:
    """A game waiting for its setup (a chance action: see ``deal``)."""
    content = content or load_content()
    if not 2 <= config.seats <= 4:
        raise ValueError("a game has 2 to 4 seats (S1)")
    if config.numbering not in NUMBERINGS:
        raise ValueError(f"unknown card numbering {config.numbering!r}")
    colours = config.seat_colours()
    if len(colours) != config.seats or len(set(colours)) != config.seats:
        raise ValueError("each seat needs its own colour")
    return GameState(content=content, board=board_for(content), config=config)


def deal(state: GameState, rng: random.Random) -> Setup:
    """Draw the setup's chance outcomes (S2, S4, S5) from the game's generator."""
    cfg = state.config
    content = state.content
    if cfg.scenario:
        scenario = content.scenario(cfg.scenario).name
    else:
        scenario = rng.choice([s.name for s in content.scenarios_for(cfg.seats)])
    decks = []
    for _ in range(cfg.seats):
        deck = sorted(content.fiefs)
        rng.shuffle(deck)
        decks.append(tuple(deck))
    objectives = rng.sample([o.id for o in content.objectives], cfg.seats)
    lt = 0 if cfg.last_turn == "first" else rng.randrange(cfg.seats)
    return Setup(scenario, lt, tuple(decks), tuple(objectives))


def apply(state: GameState, action: Action) -> GameState:
    """The state after ``action``. Never changes ``state``; raises IllegalAction (with the rule)."""
    why = check(state, action)
    if why is not None:
        raise IllegalAction(action, why)
    if isinstance(action, Setup):
        return _setup(state, action)
    if isinstance(action, Plan):
        state = state.with_seat(action.seat, plan=action)
        if all(s.plan is not None for s in state.seats):
            state = _reveal(state)
        return state
    if isinstance(action, Place):
        state = _place(state, action)
    elif isinstance(action, Wedding):
        state = _wedding(state, action)
    elif isinstance(action, Donate):
        s = state.seats[action.seat]
        state = state.with_seat(action.seat, donations=s.donations + 1,
                                donation_points=s.donation_points + scoring.DONATION)
    return _next_turn(state)


# ---------------------------------------------------------------- phases

def _setup(state: GameState, a: Setup) -> GameState:
    sc = state.content.scenario(a.scenario)
    colours = state.config.seat_colours()
    digits = state.config.colour_digits(state.content)
    seats = tuple(SeatState(colour=colours[i], deck=a.decks[i], fief=None, rings=RINGS_PER_SEAT,
                            objective=a.objectives[i], card_digit=digits[colours[i]])
                  for i in range(state.config.seats))
    state = evolve(state, scenario=sc.name, flourishing=sc.flourishing, seats=seats,
                    last_turn_seat=a.last_turn_seat)
    return _start_round(state)


def _start_round(state: GameState) -> GameState:
    """R1: every seat turns up the top card of its deck."""
    seats = tuple(evolve(s, fief=s.deck[0], deck=s.deck[1:], plan=None) for s in state.seats)
    return evolve(state, phase="plan", round=state.round + 1, seats=seats, order=(), turn=0)


def turn_order(state: GameState) -> tuple[int, ...]:
    """R4: K first, then A, B, C; ties by the other action card, then the lower fief card
    (``rounds.turn_order_key``)."""
    def key(i: int) -> tuple[int, int, int]:
        s = state.seats[i]
        plan, card = s.plan, s.card
        assert plan is not None and card is not None  # at the reveal each seat holds a card (R1) and a plan (R3)
        return turn_order_key(plan.king, plan.action, card)
    return tuple(sorted(range(state.n), key=key))


def _reveal(state: GameState) -> GameState:
    """R3: plans are public; K2: a King's Privilege costs a ring now."""
    seats = tuple(evolve(s, rings=s.rings - 1) if s.plan is not None and s.plan.king else s for s in state.seats)
    state = evolve(state, seats=seats)
    return evolve(state, phase="place", order=turn_order(state), turn=0)


def _add_piece(state: GameState, seat: int, kind: str, fief: int, cells: Iterable[Hex],
               castles: Iterable[Hex], mask: int) -> GameState:
    piece = Piece(seat, kind, fief, tuple(cells), frozenset(castles), mask, state.round)
    s = state.seats[seat]
    points = scoring.site_points(state, mask)
    leagues = scoring.new_leagues(state, s, mask)
    changes = dict(site_points=s.site_points + points,
                   league_points=s.league_points + scoring.SEA_LEAGUE * len(leagues),
                   leagues=s.leagues | frozenset(leagues))
    if kind == "fief":
        changes["fief_mask"] = s.fief_mask | mask
    else:
        changes["ring_mask"] = s.ring_mask | mask
    state = state.with_seat(seat, **changes)
    return evolve(state, pieces=state.pieces + (piece,))


def _place(state: GameState, a: Place) -> GameState:
    board = state.board
    o = board.orientation(a.fief, a.rotation)
    q, r = a.anchor
    cells = [(q + dq, r + dr) for dq, dr in o.cells]
    castles = [(q + dq, r + dr) for dq, dr in o.castles]
    mask = board.placement_mask(board.index_of[a.anchor], o)
    return _add_piece(state, a.seat, "fief", a.fief, cells, castles, mask)


def _wedding(state: GameState, a: Wedding) -> GameState:
    for h in a.rings:
        s = state.seats[a.seat]
        state = state.with_seat(a.seat, rings=s.rings - 1)
        state = _add_piece(state, a.seat, "ring", 0, [h], [], state.board.mask_of([h]))
    return state


def _next_turn(state: GameState) -> GameState:
    """R5: the fief card leaves the game; after the last seat, the round ends."""
    seat = state.order[state.turn]
    plan = state.seats[seat].plan
    assert plan is not None  # only a seat that planned has a turn (R4)
    played = {plan.region, plan.action} | ({"K"} if plan.king else set())
    state = state.with_seat(seat, fief=None, unavailable=frozenset(played))
    if state.turn + 1 < len(state.order):
        return evolve(state, turn=state.turn + 1)
    return _end_round(state)


def _end_round(state: GameState) -> GameState:
    """E1, E2: the Last Turn card, then the next round or the end."""
    if game_ends(state.round, state.last_round, len(state.seats[0].deck)):
        return _end_game(state)
    if last_turn_fires(state.round, state.last_round, scoring.free_flourishing_sites(state)):
        state = evolve(state, last_round=state.round + 1)
    return _start_round(state)


# how X6 decided a tie (``GameState.tiebreak``, in saves and views as these exact words): the
# words floor words each by this table (``i18n.tiebreak``), never by what the sentence says
TIEBREAK_SITES = "tie on points broken by most cities and harbors held"
TIEBREAK_SHARED = "tie on points and on sites held: a shared victory"
TIEBREAKS = {TIEBREAK_SITES: "sites", TIEBREAK_SHARED: "shared"}


def _end_game(state: GameState) -> GameState:
    """E3: the Gonzaga tile (X4), the objectives (X5), then the winner (X6)."""
    tile = scoring.gonzaga_tile([scoring.largest_group(state, i) for i in range(state.n)])
    for i in range(state.n):
        held = scoring.objective_cities_held(state, i)
        state = state.with_seat(i, objective_points=scoring.OBJECTIVE_TABLE[held], gonzaga_points=tile[i])
    totals = state.scores()
    winners = scoring.winners(totals, [scoring.sites_held(state, i) for i in range(state.n)])
    tiebreak = ""
    if totals.count(max(totals)) > 1:
        tiebreak = TIEBREAK_SITES if len(winners) == 1 else TIEBREAK_SHARED
    return evolve(state, phase="over", winners=tuple(winners), tiebreak=tiebreak)


def play_setup(state: GameState, rng: random.Random) -> tuple[GameState, Setup]:
    """Convenience: draw and apply the setup."""
    a = deal(state, rng)
    return apply(state, a), a


__all__ = ["new_game", "deal", "apply", "turn_order", "play_setup", "try_on", "FIEFS_PER_SEAT"]


def try_on(state: GameState, *actions: Action) -> GameState:
    """The position after ``actions`` tried on ``state`` outside any game being played: a rule
    picture's position, a hint's look one move ahead, a stored record checked move by move.
    Raises ``IllegalAction`` as ``apply`` does. A game being played moves on only through its
    table (``gonzaga/table``); a test over the package's syntax tree keeps it so."""
    for a in actions:
        state = apply(state, a)
    return state
