"""The guided first game (issue 11): a short scripted game against one AI seat in which the
game teaches by doing. Pure Python (no pygame): the script, the sections and their steps,
the scripted AI's moves, and the progress file. ``tutorial_game.py`` makes its game (a session
against the scripted AI seat); ``scenes/tutorial.py`` plays it on the game screen.

The game is fixed: the setup (scenario Shakespeare, both decks, both objectives), every move
of the AI seat, and every move asked of the player, so the steps can point at exact hexes
and cards. A placing step marks the cities and harbors its text names and accepts every legal
placement of the round's fief that covers exactly those, on ground the rest of the script
leaves free (:func:`accepts`): the points, leagues and Last Turn count stay the script's;
:func:`refusal` names what is wrong with another one, and the screen explains it. The last section starts from a prepared position - the same game some rounds
later, rounds 6 and 7 played by the script - to show the Last Turn card and the end.

Sections can be skipped; each starts from its own position (the script's record up to it),
so the tutorial can be resumed at any section: the progress is kept in ``tutorial.json`` in
the user data folder. ``tests/test_tutorial.py`` replays the script with the rules and plays
the whole tutorial through the event loop.
"""
from __future__ import annotations

import json
import logging
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable, Optional, Union

from ..rules import Action, Donate, GameConfig, GameRecord, GameState, Place, Plan, Setup, Wedding
from ..rules import scoring
from ..rules.hexgrid import Hex
from ..rules import check, legal_placements
from ..words import i18n
from . import persistence

log = logging.getLogger(__name__)

SCENARIO = "Shakespeare"
YOU, AI = 0, 1
COLOURS = ("red", "blue")
DECKS = ((60, 70, 20, 30, 110, 90, 50, 80, 10, 40, 100, 120),
         (50, 40, 100, 20, 90, 110, 120, 30, 80, 10, 60, 70))
OBJECTIVES = ("wool-art", "cathedral-silk")
SEED = 1511  # the record's seed (nothing is drawn from it: the setup is fixed)

# the script, round by round, in the order the actions are recorded (AI plan first)
Decision = Union[Plan, Place, Wedding, Donate]  # a seat's move (every action but the setup)

ROUNDS: tuple[tuple[Decision, ...], ...] = (
    (Plan(AI, "italia", "A"), Plan(YOU, "italia", "B"), Place(AI, 50, (4, 18), 5), Place(YOU, 60, (7, 19), 2)),
    (Plan(AI, "britannia", "B"), Plan(YOU, "britannia", "A"), Place(YOU, 70, (4, 7), 2), Place(AI, 40, (3, 10), 1)),
    (Plan(AI, "inactive", "C"), Plan(YOU, "italia", "C"), Wedding(YOU, ((6, 20), (7, 20))),
     Place(AI, 100, (-11, 26), 5)),
    (Plan(AI, "germania", "A"), Plan(YOU, "germania", "A", True), Place(YOU, 30, (9, 8), 0),
     Place(AI, 20, (11, 7), 3)),
    (Plan(AI, "italia", "B"), Plan(YOU, "inactive", "C"), Place(AI, 90, (6, 24), 5), Donate(YOU)),
    (Plan(AI, "britannia", "A"), Plan(YOU, "germania", "B"), Place(AI, 110, (-2, 8), 4), Place(YOU, 90, (8, 14), 3)),
    (Plan(AI, "germania", "B"), Plan(YOU, "italia", "A"), Place(YOU, 50, (7, 21), 0), Place(AI, 120, (7, 11), 0)),
    (Plan(AI, "inactive", "A"), Plan(YOU, "britannia", "B"), Place(AI, 30, (15, 7), 1), Place(YOU, 80, (4, 9), 1)),
    (Plan(AI, "italia", "C"), Plan(YOU, "italia", "A"), Place(YOU, 10, (8, 23), 1), Place(AI, 80, (8, 19), 0)),
)

# the sites the texts name, by their hexes (the names come from the board)
SITES = {"mantova": (6, 18), "venezia": (7, 18), "genova": (4, 19), "newcastle": (3, 6), "hull": (4, 7),
         "york": (3, 7), "firenze": (6, 20), "ancona": (7, 20), "emden": (9, 8), "norwich": (4, 9),
         "bari": (8, 23)}
ALPS = ((7, 17), (6, 17), (8, 16))  # hexes just north of Venezia, across the barrier


def setup() -> Setup:
    return Setup(SCENARIO, YOU, DECKS, OBJECTIVES)


def script() -> list[Action]:
    """Every action of the tutorial game, the setup first."""
    return [setup()] + [a for rnd in ROUNDS for a in rnd]


def config() -> GameConfig:
    return GameConfig(seats=2, colours=COLOURS, scenario=SCENARIO)


def ai_move(round_: int, phase: str) -> Optional[Action]:
    """The AI seat's scripted decision in ``round_`` (plan or place phase)."""
    if not 1 <= round_ <= len(ROUNDS):
        return None
    for a in ROUNDS[round_ - 1]:
        if a.seat == AI and (isinstance(a, Plan) == (phase == "plan")):
            return a
    return None


def your_move(round_: int, phase: str) -> Optional[Action]:
    if not 1 <= round_ <= len(ROUNDS):
        return None
    for a in ROUNDS[round_ - 1]:
        if a.seat == YOU and (isinstance(a, Plan) == (phase == "plan")):
            return a
    return None


# ---------------------------------------------------------------- steps and sections

@dataclass(frozen=True)
class Step:
    """One thing said, pointed at, and maybe asked.

    ``kind``: "info" (Next), "wait" (goes on when ``until`` holds), "region"/"action"/"king"/
    "confirm" (the hand), "reveal" (read the turn order, then Continue), "place" (the fief,
    ``arg`` the Place), "wedding" (press Wedding), "ring" (``arg`` the hex), "wed" (Confirm the
    wedding, ``arg`` the Wedding), "donate", "finish".
    ``target``: what the screen points at: ("card", id), ("button", i18n key), ("hexes", key),
    ("rect", name) or None. ``until``: for "wait" (and for "info", before Next shows):
    ("turn",) the player's turn to place, ("round", n) round n's planning, ("over",).
    """

    kind: str
    key: str
    target: Optional[tuple[str, str]] = None
    arg: object = None
    until: Optional[tuple[Union[str, int], ...]] = None
    rnd: int = 0  # the round of a placing step (its move is the player's move of that round)


@dataclass(frozen=True)
class Section:
    id: str
    start: int  # how many actions of ``script()`` its position has
    steps: tuple[Step, ...] = field(default_factory=tuple)

    @property
    def title_key(self) -> str:
        return f"tut.section.{self.id}"


def _r(n: int) -> tuple[Decision, ...]:
    return ROUNDS[n - 1]


SECTIONS: tuple[Section, ...] = (
    Section("plan", 1, (
        Step("info", "tut.plan.welcome"),
        Step("info", "tut.plan.panel", ("rect", "panel")),
        Step("info", "tut.plan.fief", ("rect", "fief_icon")),
        Step("info", "tut.plan.scenario", ("rect", "regions")),
        Step("info", "tut.plan.cards", ("rect", "hand")),
        Step("region", "tut.plan.region", ("card", "italia"), "italia"),
        Step("action", "tut.plan.action", ("card", "B"), "B"),
        Step("confirm", "tut.plan.confirm", ("button", "plan.confirm")),
    )),
    Section("order", 3, (
        Step("reveal", "tut.order.reveal", ("rect", "reveal"), 1),
    )),
    Section("place", 4, (
        Step("info", "tut.place.rival", ("hexes", "ai_last"), until=("turn",)),
        Step("info", "tut.place.tray", ("rect", "tray")),
        Step("info", "tut.place.rules", ("hexes", "alps")),
        Step("place", "tut.place.first", ("hexes", "goal"), _r(1)[3], rnd=1),
        Step("info", "tut.place.scored", ("rect", "seat0"), until=("round", 2)),
        Step("info", "tut.place.greyed", ("card", "italia")),
        Step("region", "tut.place.region", ("card", "britannia"), "britannia"),
        Step("action", "tut.place.action", ("card", "A"), "A"),
        Step("confirm", "tut.place.confirm", ("button", "plan.confirm")),
        Step("reveal", "tut.place.reveal", ("rect", "reveal"), 2),
        Step("place", "tut.place.harbors", ("hexes", "goal"), _r(2)[2], rnd=2),
        Step("info", "tut.place.alliance", ("hexes", "ai_last"), until=("round", 3)),
    )),
    Section("wedding", 9, (
        Step("info", "tut.wedding.rings", ("rect", "seat0")),
        Step("region", "tut.wedding.region", ("card", "italia"), "italia"),
        Step("action", "tut.wedding.action", ("card", "C"), "C"),
        Step("confirm", "tut.wedding.confirm", ("button", "plan.confirm")),
        Step("reveal", "tut.wedding.reveal", ("rect", "reveal"), 3),
        Step("wedding", "tut.wedding.mode", ("button", "place.wedding"), rnd=3),
        Step("ring", "tut.wedding.first", ("hexes", "firenze"), SITES["firenze"], rnd=3),
        Step("ring", "tut.wedding.second", ("hexes", "ancona"), SITES["ancona"], rnd=3),
        Step("wed", "tut.wedding.wed", ("button", "place.confirm"), _r(3)[2], rnd=3),
        Step("info", "tut.wedding.done", ("rect", "seat0")),
    )),
    Section("king", 13, (
        Step("info", "tut.king.emden", ("hexes", "emden"), until=("round", 4)),
        Step("region", "tut.king.region", ("card", "germania"), "germania"),
        Step("action", "tut.king.action", ("card", "A"), "A"),
        Step("king", "tut.king.king", ("card", "K")),
        Step("confirm", "tut.king.confirm", ("button", "plan.confirm")),
        Step("reveal", "tut.king.reveal", ("rect", "reveal"), 4),
        Step("place", "tut.king.place", ("hexes", "goal"), _r(4)[2], rnd=4),
        Step("info", "tut.king.league", ("rect", "seat0")),
    )),
    Section("scoring", 17, (
        Step("info", "tut.scoring.points", ("rect", "seat0"), until=("round", 5)),
        Step("region", "tut.scoring.region", ("card", "inactive"), "inactive"),
        Step("action", "tut.scoring.action", ("card", "C"), "C"),
        Step("confirm", "tut.scoring.confirm", ("button", "plan.confirm")),
        Step("reveal", "tut.scoring.reveal", ("rect", "reveal"), 5),
        Step("donate", "tut.scoring.donate", ("button", "place.donate"), _r(5)[3], until=("turn",), rnd=5),
    )),
    Section("end", 29, (
        Step("info", "tut.end.later", None, until=("round", 8)),
        Step("info", "tut.end.last_turn", ("rect", "status")),
        Step("region", "tut.end.region", ("card", "britannia"), "britannia"),
        Step("action", "tut.end.action", ("card", "B"), "B"),
        Step("confirm", "tut.end.confirm", ("button", "plan.confirm")),
        Step("reveal", "tut.end.reveal", ("rect", "reveal"), 8),
        Step("place", "tut.end.place", ("hexes", "goal"), _r(8)[3], until=("turn",), rnd=8),
        Step("info", "tut.end.fired", ("rect", "status"), until=("round", 9)),
        Step("region", "tut.end.region2", ("card", "italia"), "italia"),
        Step("action", "tut.end.action2", ("card", "A"), "A"),
        Step("confirm", "tut.end.confirm", ("button", "plan.confirm")),
        Step("reveal", "tut.end.reveal2", ("rect", "reveal"), 9),
        Step("place", "tut.end.place2", ("hexes", "goal"), _r(9)[2], rnd=9),
        Step("wait", "tut.end.rings", ("hexes", "ai_next"), until=("over",)),
        Step("info", "tut.end.gonzaga", ("rect", "end_table")),
        Step("info", "tut.end.objective", ("rect", "end_table")),
        Step("finish", "tut.end.finish", ("rect", "end_table")),
    )),
)

BY_ID = {s.id: s for s in SECTIONS}


def section_index(section_id: str) -> int:
    return [s.id for s in SECTIONS].index(section_id)


def start_record(section_id: str) -> GameRecord:
    """The record a section starts from: the script up to its position."""
    sec = BY_ID[section_id]
    return GameRecord(config(), SEED, script()[:sec.start])


# ---------------------------------------------------------------- what the texts say

def params(state: GameState) -> dict[str, object]:
    """The values the step texts name, read from the game as it stands."""
    c = state.content
    you, ai = state.seats[YOU], state.seats[AI]
    held = scoring.objective_cities_held(state, YOU)
    out: dict[str, object] = {k: (c.sites[h].name if h in c.sites else k) for k, h in SITES.items()}
    out["germanicum"] = c.sea_names.get("germanicum", "Mare Germanicum")
    out.update(fief=you.fief, card=you.card, ai_fief=ai.fief, ai_card=ai.card, score=you.score, ai_score=ai.score,
               rings=you.rings, scenario=state.scenario, free=scoring.free_flourishing_sites(state),
               regions=", ".join(r.name for r in c.board.regions if r.id in state.flourishing),
               group=scoring.largest_group(state, YOU), ai_group=scoring.largest_group(state, AI),
               held=held)
    out["obj_points"] = scoring.OBJECTIVE_TABLE[held]
    obj = c.objective(you.objective) if you.objective else None
    out["west"] = i18n.t(f"symbol.{obj.western}") if obj else ""
    out["east"] = i18n.t(f"symbol.{obj.eastern}") if obj else ""
    best = 0
    if you.plan is not None and you.fief is not None and state.phase == "place":
        for p in legal_placements(state, YOU):
            cells, _ = c.fiefs[p.fief].footprint(p.anchor, p.rotation)
            best = max(best, scoring.immediate_points(state, YOU, state.board.mask_of(cells)))
    out["best"] = best
    winners = [i for i in state.winners]
    out["winner"] = ", ".join(("Gonzaga" if i == YOU else "Sforza") for i in winners)
    return out


def hexes(name: str, state: GameState, step: Step) -> list[Hex]:
    """The hexes a step points at: a named site, the Alps, the fief asked for, the AI's move."""
    if name in SITES:
        return [SITES[name]]
    if name == "alps":
        return list(ALPS)
    if name == "goal" and isinstance(step.arg, Place):
        return sorted(marked(state, step))
    if name == "ai_last":
        fiefs = [p for p in state.pieces if p.seat == AI]
        return list(fiefs[-1].cells) if fiefs else []
    if name == "ai_next":
        a = ai_move(state.round, "place")
        if isinstance(a, Place):
            return list(state.content.fiefs[a.fief].footprint(a.anchor, a.rotation)[0])
        fiefs = [p for p in state.pieces if p.seat == AI]
        return list(fiefs[-1].cells) if fiefs else []
    return []


def sites_of(state: GameState, cells: Iterable[Hex]) -> frozenset[Hex]:
    """The cities and harbors under ``cells``."""
    return frozenset(h for h in cells if h in state.content.sites)


def marked(state: GameState, step: Step) -> frozenset[Hex]:
    """The hexes a placing step asks the player to cover: the cities and harbors under the
    script's placement (the ones its text names)."""
    if not isinstance(step.arg, Place):
        return frozenset()
    return sites_of(state, footprint(state, step.arg)[0])


def _later_cells(state: GameState, step: Step) -> frozenset[Hex]:
    """The hexes the script still needs after this (placing) step (later fiefs and rings, either seat)."""
    if not isinstance(step.arg, Place):
        return frozenset()
    acts = script()
    out: set[Hex] = set()
    for a in acts[acts.index(step.arg) + 1:]:
        if isinstance(a, Place):
            out |= footprint(state, a)[0]
        elif isinstance(a, Wedding):
            out |= set(a.rings)
    return frozenset(out)


def accepts(state: GameState, step: Step, action: object) -> bool:
    """A placing step takes every legal placement of the round's fief that covers the marked
    cities and harbors and no other (so the points, the sea leagues and the Last Turn count
    are the script's), on hexes the rest of the script leaves free: any anchor, any turn."""
    if not (isinstance(action, Place) and isinstance(step.arg, Place) and action.fief == step.arg.fief):
        return False
    cells = footprint(state, action)[0]
    return (sites_of(state, cells) == marked(state, step) and not cells & _later_cells(state, step)
            and check(state, action) is None)


def accepted_placements(state: GameState, step: Step) -> list[Place]:
    """Every placement a placing step accepts now (tests play each of them)."""
    if not isinstance(step.arg, Place):
        return []
    return [p for p in legal_placements(state, step.arg.seat) if accepts(state, step, p)]


def refusal(state: GameState, step: Step, action: Place) -> tuple[str, dict[str, list[Hex]]]:
    """Why a legal placement is not one the step takes: an i18n key and the hexes it names
    (``sites``: what to cover, ``missing``/``extra``: what it misses or covers besides).
    Only its turn is wrong when another rotation at this very anchor is taken."""
    goal = marked(state, step)
    cells = footprint(state, action)[0]
    got = sites_of(state, cells)
    if any(p.anchor == action.anchor for p in accepted_placements(state, step)):
        return "tut.wrong_turn", {"missing": sorted(goal - got), "extra": sorted(got - goal)}
    if goal - got:
        return ("tut.wrong_part" if got & goal else "tut.wrong_spot"), {"missing": sorted(goal - got)}
    if got - goal:
        return "tut.extra_site", {"extra": sorted(got - goal)}
    return "tut.keep_free", {}


def footprint(state: GameState, a: Place) -> tuple[frozenset[Hex], frozenset[Hex]]:
    cells, castles = state.content.fiefs[a.fief].footprint(a.anchor, a.rotation)
    return frozenset(cells), frozenset(castles)


def same_place(state: GameState, a: object, b: object) -> bool:
    """Two placements of the same fief on the same hexes, castles included (a symmetric fief
    may be turned another way and still be the same)."""
    return (isinstance(a, Place) and isinstance(b, Place) and a.fief == b.fief
            and footprint(state, a) == footprint(state, b))


def reading_words(lang: str = "en") -> int:
    """How many words the player reads (the steps' texts): the ten-minute budget's measure."""
    table = i18n.table(lang)
    return sum(len(table.get(st.key, "").split()) for sec in SECTIONS for st in sec.steps)


# ---------------------------------------------------------------- progress

PROGRESS_FILE = "tutorial.json"


@dataclass
class Progress:
    section: str = SECTIONS[0].id  # where "Continue tutorial" starts
    done: list[str] = field(default_factory=list)  # sections finished or skipped
    finished: bool = False
    started: bool = False

    @property
    def index(self) -> int:
        return section_index(self.section)


def progress_path() -> Path:
    return persistence.data_dir() / PROGRESS_FILE


def load_progress() -> Progress:
    """The saved progress; a missing, damaged or foreign file is a fresh start (never an error)."""
    try:
        d = json.loads(progress_path().read_text(encoding="utf-8"))
        if not isinstance(d, dict) or d.get("version") != 1:
            return Progress()
        sec = d.get("section")
        done = [x for x in d.get("done", []) if isinstance(x, str) and x in BY_ID]
        return Progress(sec if sec in BY_ID else SECTIONS[0].id, done, bool(d.get("finished")), True)
    except (OSError, ValueError, TypeError):
        return Progress()


def save_progress(p: Progress) -> bool:
    d = {"version": 1, "section": p.section, "done": sorted(set(p.done), key=section_index),
         "finished": p.finished}
    try:
        persistence.atomic_write_text(progress_path(), json.dumps(d, indent=1))
        return True
    except OSError as e:  # progress not kept: the tutorial goes on
        log.warning("tutorial progress not saved: %s", e)
        return False
