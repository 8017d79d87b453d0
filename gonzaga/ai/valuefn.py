"""A learned position value: each seat's expected final score, fitted to self-play games.

``Sim.position_values`` counts a position by hand (points so far, the objective held,
sea-league potentials, rings, a share of the Gonzaga tile). Its terms were guessed, so a
rollout stopped at its horizon is valued with a bias that no number of rollouts removes.
Here the same kind of facts are features, with one look ahead (the value of each seat's
best plan for the round being planned), and a linear model for each (seats, rounds
left) predicts the seat's final score as the rollout policy would reach it playing on
(``lab/fit_value.py`` plays the games and fits the weights into ``value_table``). So a
rollout stopped early is valued as if it had been played to the end, without the noise
of playing it.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Optional

from ..rules import scoring
from .heuristics import OBJ

if TYPE_CHECKING:  # the type only: the simulator imports this module
    from .fastsim import Sim

FEATURES = (
    "bias",  # 1
    "points",  # points scored so far (sites, leagues, donations)
    "objective",  # objective points held now (X5, the sampled card)
    "objective_free",  # free cities of the seat's objective
    "objective_step",  # points the next objective city would add, when one is free
    "league_one",  # seas without the seat's league where it holds 1 harbor and 3 are still reachable
    "league_two",  # ... where it holds 2
    "rings",  # rings in supply that rounds remain to use
    "largest",  # pieces in the seat's largest dominion (X4)
    "largest_lead",  # its largest dominion minus the best rival's
    "tile_share",  # the Gonzaga tile's points times a softmax share of the largest dominions
    "rival_league_two",  # seas where a rival holds 2 harbors, has no league, and a harbor is free
    "free_sites",  # free sites on the board
    "best_plan",  # planning: the seat's best plan for the round now planned, as the rollout policy values it
)


def features(sim: Sim) -> list[list[float]]:
    """Every seat's feature vector (in ``FEATURES`` order) for the position of ``sim``."""
    # the free sites, free harbors per sea and each seat's harbors per sea (0 where it has its
    # league), as the rollout policy keeps them: cached until the next piece goes down
    free, fr, counts, _ = sim._shared()
    n = sim.n
    nfree = free.bit_count()
    held = [sim.fm[i] | sim.rm[i] for i in range(n)]
    groups = [sim.largest(i) for i in range(n)]
    w, tot = sim.tile_weights()
    # what the coming round offers each seat: the value the policy would plan on (contention
    # with the rivals ahead included). The static counts above cannot see what the next
    # placement reaches; with it the held-out margin error fell from 12.73 to 12.51 in two
    # seats and from 12.42 to 12.13 in four (issue 12, ninth session: the diary, lab/README.md)
    plan = sim.phase == "plan"
    out = []
    for i in range(n):
        left = sim.rounds_left(i)
        obj = sim.obj[i]
        oh = (held[i] & obj).bit_count()
        ofree = (obj & free).bit_count()
        one = two = rtwo = 0
        for si in range(len(fr)):
            mine = counts[i][si]
            if mine > 0 and mine + fr[si] >= 3:
                if mine == 1:
                    one += 1
                elif mine == 2:
                    two += 1
            if fr[si] and any(counts[j][si] == 2 for j in range(n) if j != i):
                rtwo += 1
        rival_best = max((groups[j] for j in range(n) if j != i), default=0)
        out.append([
            1.0,
            float(sim.pts[i]),
            float(OBJ[oh]),
            float(ofree),
            float(OBJ[min(6, oh + 1)] - OBJ[oh]) if ofree else 0.0,
            float(one),
            float(two),
            float(min(sim.rings[i], left + 1)) if left else 0.0,
            float(groups[i]),
            float(groups[i] - rival_best),
            scoring.GONZAGA_TILE * w[i] / tot,
            float(rtwo),
            float(nfree),
            max(v for v, _ in sim.plan_values(i)) if plan else 0.0,
        ])
    return out


def weights_for(table: dict[int, dict[int, list[float]]], n: int, left: int) -> Optional[list[float]]:
    """The fitted weights for ``n`` seats with ``left`` rounds left (the nearest fitted
    number of rounds when that one was never seen), or None when the seat count was not fitted."""
    rows = table.get(n)
    if not rows:
        return None
    if left in rows:
        return rows[left]
    near = min(rows, key=lambda k: (abs(k - left), k))
    return rows[near]


def values(sim: Sim, table: dict[int, dict[int, list[float]]]) -> list[float]:
    """Each seat's predicted final score (the final scores themselves when the game is over)."""
    if sim.phase == "over":
        return [float(x) for x in sim.final_scores()]
    if not table.get(sim.n):
        return sim.position_values()
    return [sum(a * b for a, b in zip(weights_for(table, sim.n, sim.rounds_left(i)) or (), f))
            for i, f in enumerate(features(sim))]
