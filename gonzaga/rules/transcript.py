"""A game written out as readable text: for golden files and for checking a game by eye."""
from __future__ import annotations

from .actions import Action, Donate, Place, Plan, Setup, Wedding
from .record import GameRecord
from .engine import apply, new_game
from .content import Content
from .state import GameState


def describe(before: GameState, after: GameState, action: Action) -> str:
    """One line in words for an action, with the points it scored."""
    names = before.content.region_names
    if isinstance(action, Setup):
        return (f"Setup: scenario {action.scenario}, flourishing "
                f"{', '.join(names[r] for r in sorted(after.flourishing))}; Last Turn card to seat "
                f"{action.last_turn_seat}")
    seat = action.seat
    who = before.seats[seat].colour.capitalize()
    gained = after.seats[seat].score - before.seats[seat].score
    leagues = after.seats[seat].leagues - before.seats[seat].leagues
    extra = "".join(f", sea league {before.content.sea_names[s]} +10" for s in sorted(leagues))
    if isinstance(action, Plan):
        return f"{who} plans"
    if isinstance(action, Place):
        regions = sorted({before.content.region_of[c] for c in
                          before.content.fiefs[action.fief].footprint(action.anchor, action.rotation)[0]
                          if c in before.content.region_of})
        where = ", ".join(names[r] for r in regions) or "the sea"
        return f"{who} places fief {action.fief} in {where}, +{gained - 10 * len(leagues)}{extra}"
    if isinstance(action, Wedding):
        return f"{who} holds a wedding with {len(action.rings)} ring(s), +{gained - 10 * len(leagues)}{extra}"
    if isinstance(action, Donate):
        return f"{who} donates fief {before.seats[seat].fief} to the church, +3"
    text: str = action.to_text()
    return text


def transcript(record: GameRecord, content: Content | None = None) -> str:
    """Every action with its text form and its meaning, plans shown at the reveal, scores per round."""
    state = new_game(record.config, content)
    lines = [f"# seed {record.seed}, {record.config.seats} seats"]
    for a in record.actions:
        before = state
        state = apply(state, a)
        lines.append(f"{a.to_text():<44} | {describe(before, state, a)}")
        if before.phase == "plan" and state.phase == "place":
            plans = ", ".join(f"{s.colour} {p.region}/{p.action}{'+K' if p.king else ''}"
                              for s in state.seats if (p := s.plan) is not None)
            lines.append(f"  reveal round {state.round}: {plans}; order {list(state.order)}")
        if before.phase == "place" and state.phase != "place":
            lines.append(f"  end of round {before.round}: scores {list(state.scores())}"
                         + (f"; Last Turn card fired: round {state.last_round} is the last"
                            if state.last_round and not before.last_round else ""))
    if state.is_over:
        for _i, s in enumerate(state.seats):
            lines.append(f"  {s.colour}: {s.score} = sites {s.site_points} + leagues {s.league_points} + "
                         f"donations {s.donation_points} + Gonzaga {s.gonzaga_points} + objective "
                         f"{s.objective_points} ({s.objective})")
        lines.append(f"  winners {list(state.winners)} {state.tiebreak}".rstrip())
    return "\n".join(lines) + "\n"
