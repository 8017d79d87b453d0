"""The game log: the lines one action adds, as keys and parameters put into words only when
shown (so a change of language re-renders every line). Written from what everyone at the table
sees (the setup's scenario, flourishing regions and first seat; plans only once revealed; the
placements), so the same lines serve every seat, a spectator, and a game resumed online
(``net/logcodec.py`` carries them).

``write(prev, action, new, name)`` returns the lines; ``name(seat)`` is a seat's name (a string,
or an ``i18n.Term`` put into words when shown).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from ..rules import Action, GameState, Place, Plan, Setup, Wedding, scoring
from ..rules.state import FIRST_LAST_TURN_CHECK
from ..words import i18n


@dataclass
class LogEntry:
    """One line of the game log, kept as a string key + parameters so it can be re-translated:
    parameters are ids, numbers, seat names and map names, or ``i18n.Term`` (a card, a number
    with its noun, a sentence) put into words when the line is shown - never translated words."""

    round: int
    key: str
    params: dict[str, Any] = field(default_factory=dict)
    parts: list[tuple[str, dict[str, Any]]] = field(default_factory=list)  # extra (key, params) pieces appended to the line

    def text(self) -> str:
        s = i18n.t(self.key, **self.params)
        for k, p in self.parts:
            s += i18n.t(k, **p)
        return s



def _join(sep: str, parts: list[object]) -> object:
    """Names joined: plain text when every part is (a desktop game), else a term put into words
    when shown (a seat name may be a term: an AI's level, in the reader's language)."""
    texts = [p for p in parts if isinstance(p, str)]
    if len(texts) == len(parts):
        return sep.join(texts)
    return i18n.Term("join", sep, tuple(parts))


def _plans(st: GameState) -> list[Plan]:
    """Every seat's plan, once revealed (from the reveal on each seat has one, R3)."""
    return [_plan(s.plan) for s in st.seats]


def _plan(p: Plan | None) -> Plan:
    assert p is not None, "a seat's plan is read only once revealed"
    return p


class _Writer:
    def __init__(self, name: Callable[[int], object]):
        self.seat_name = name
        self.log: list[LogEntry] = []
        self.state: GameState | None = None

    def _add(self, rnd: int, key: str, **params: object) -> LogEntry:
        e = LogEntry(rnd, key, params)
        self.log.append(e)
        return e

    def _region(self, region: str) -> "i18n.Term":
        return i18n.card_term(self.state, region)

    def _log(self, prev: GameState, a: Action, new: GameState) -> None:
        name = self.seat_name
        card = self._region
        if isinstance(a, Setup):
            regions = ", ".join(new.content.region_names[r] for r in sorted(new.flourishing,
                                key=lambda r: [x.id for x in new.content.board.regions].index(r)))
            self._add(0, "log.setup", scenario=new.scenario, regions=regions, name=name(new.last_turn_seat))
        elif isinstance(a, Plan):
            self._add(new.round, "log.planned", round=new.round, name=name(a.seat))
            if new.phase == "place":
                plans = i18n.Term("join", "; ", tuple(
                    i18n.Term("t", "log.plan_king" if p.king else "log.plan",
                              {"name": name(i), "region": card(p.region), "action": card(p.action),
                               "king": card("K")})
                    for i, p in enumerate(_plans(new))))
                self._add(new.round, "log.reveal", round=new.round, plans=plans)
                for i, p in enumerate(_plans(new)):
                    if p.king:
                        self._add(new.round, "log.king_ring", round=new.round, name=name(i))
                self._add(new.round, "log.order", round=new.round,
                          order=_join(", ", [name(i) for i in new.order]))
        else:
            rnd = prev.round
            s_prev = prev.seats[a.seat]
            s_new = new.seats[a.seat]
            points = s_new.site_points - s_prev.site_points
            leagues = sorted(s_new.leagues - s_prev.leagues)
            region = self._region(_plan(s_prev.plan).region)
            if isinstance(a, Place):
                e = self._add(rnd, "log.place", round=rnd, name=name(a.seat), fief=a.fief, region=region,
                              points=points)
            elif isinstance(a, Wedding):
                e = self._add(rnd, "log.wedding", round=rnd, name=name(a.seat),
                              rings=i18n.Term("n", "n.rings", len(a.rings)), region=region, points=points)
            else:
                e = self._add(rnd, "log.donate", round=rnd, name=name(a.seat), fief=s_prev.fief)
            for sea in leagues:
                e.parts.append(("log.league", {"sea": new.content.sea_names.get(sea, sea)}))
            if isinstance(a, (Place, Wedding)):
                e.parts.append(("log.dot", {}))
            if new.round != prev.round and prev.last_round is None and prev.round >= FIRST_LAST_TURN_CHECK:
                # E1, after every round from round 6 on: the sites in flourishing regions still free
                sites = i18n.Term("n", "n.free_sites", scoring.free_flourishing_sites(new))
                if new.last_round is not None:
                    self._add(rnd, "log.last_turn", after=rnd, sites=sites, round=new.last_round)
                else:
                    self._add(rnd, "log.last_turn_check", round=rnd, sites=sites)
            if new.phase == "over":
                scores = _join(", ", [_join(" ", [name(i), str(s.score)]) for i, s in enumerate(new.seats)])
                names = _join(", ", [self.seat_name(i) for i in new.winners])
                result = i18n.Term("t", "end.winner" if len(new.winners) == 1 else "end.winners", {"names": names})
                self._add(rnd, "log.end", result=result, scores=scores)
            elif new.round != prev.round:
                self._log_fiefs(new)
        if isinstance(a, Setup):
            self._log_fiefs(new)

    def _log_fiefs(self, st: GameState) -> None:
        fiefs = _join(", ", [_join(" ", [self.seat_name(i), str(s.fief)]) for i, s in enumerate(st.seats)])
        self._add(st.round, "log.fiefs", round=st.round, fiefs=fiefs)



def write(prev: GameState, a: Action, new: GameState, name: Callable[[int], object]) -> list[LogEntry]:
    """The log lines ``a`` adds, played from ``prev`` to ``new``."""
    w = _Writer(name)
    w.state = new
    w._log(prev, a, new)
    return w.log
