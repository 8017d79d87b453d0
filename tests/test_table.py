"""Issue 38: one authority. The Table is the only place a game's state changes, for a hot-seat or
solo game on this computer and for each room of the online server alike; it tells each observer
only its own view, decides who may take back, ask for a hint or hand a seat to the computer, and
writes every change to its store before anyone sees it."""
from __future__ import annotations

import ast
import random
from pathlib import Path

import pytest

from gonzaga.net.rooms import GameRoom
from gonzaga.net.server import Seat
from gonzaga.rules import (Donate, GameConfig, GameRecord, Place, Plan, Setup, Wedding, legal_actions,
                           legal_plans, load_content, public_view, view)
from gonzaga.rules.view import HIDDEN
from gonzaga.rules.refusals import Illegal
from gonzaga.table.core import Table
from gonzaga.table.seats import SeatRefused, SeatSpec
from gonzaga.table.store import StoreFailed
from gonzaga.table.pacing import InlineWorker
from gonzaga.table.session import Session

ROOT = Path(__file__).resolve().parent.parent
CONTENT = load_content()


def table(kinds=("human", "human"), seed=3, **kw) -> Table:
    colours = ("red", "blue", "green", "yellow")[:len(kinds)]
    seats = [SeatSpec(f"P{i}", k, "greedy", c) for i, (k, c) in enumerate(zip(kinds, colours))]
    t = Table(seats, GameRecord(GameConfig(seats=len(kinds), colours=colours), seed), content=CONTENT, **kw)
    t.start(random.Random(seed))
    return t


def plan(t: Table, seat: int, k: int = 0) -> Plan:
    return [p for p in legal_plans(t.state, seat) if not p.king][k]


def to_place(t: Table, alliance: bool = False) -> None:
    """Every seat plans (humans through ``act``, with ``alliance`` an Alliance if they can; AI
    seats through the table's ticks)."""
    for _ in range(50):
        if t.state.phase != "plan":
            return
        for seat in t.state.to_act():
            if t.is_human(seat):
                wed = [p for p in legal_plans(t.state, seat) if p.action == "C" and p.region != "inactive"]
                assert t.act(seat, wed[0] if alliance and wed else plan(t, seat)) is None
        t.tick()
    raise AssertionError("the plans were never revealed")


# ---------------------------------------------------------------- one authority

@pytest.mark.rule("E-table")
def test_the_server_rooms_and_the_desktop_session_play_through_the_same_table_class():
    room = GameRoom("g", "ABCDEF", GameConfig(seats=2, colours=("red", "blue")), 5,
                    [Seat("Ann", "human", "red"), Seat("", "open", "blue")], CONTENT)
    s = Session.new([SeatSpec("Ann", colour="red"), SeatSpec("Bob", colour="blue")], 5)
    assert type(room.table) is Table and type(s.authority) is Table
    # the lobby may change a seat before the start, the table refuses to start with an open one
    with pytest.raises(ValueError):
        room.table.start(random.Random(5))
    room.seats = [room.seats[0], Seat("Bob", "human", "blue")]
    room.table.start(random.Random(5))
    assert room.state == s.state and room.record.actions == s.record.actions
    with pytest.raises(ValueError):  # after the start only a hand-over changes a seat
        room.seats = [room.seats[0], Seat("AI", "ai", "blue", "greedy")]


@pytest.mark.rule("E-table", "R5", "S2")
def test_who_may_act_is_decided_by_the_table():
    t = table(("human", "ai"))
    mine, theirs = plan(t, 0), plan(t, 1)
    why = t.act(0, theirs)
    assert isinstance(why, SeatRefused) and why.rule == "R5"  # another seat's action
    why = t.act(1, theirs)
    assert isinstance(why, SeatRefused) and why.rule == "R5"  # an AI seat: only its pacing acts for it
    assert t.act(0, Setup("Dante", 0, (), ())).rule == "S2"
    assert t.n == 1 and t.act(0, mine) is None and t.n == 2
    assert t.act(0, plan(t, 0, 1)).rule == "R2"  # the rules' own refusal, with its id


# ---------------------------------------------------------------- observers and views

@pytest.mark.rule("E-view", "E-table")
def test_observers_each_receive_only_their_own_view():
    t = table(("human", "human", "human"), seed=9)
    told = {0: [], 1: [], 2: [], None: []}
    for seat in told:
        t.observe(lambda v, a, table, seat=seat: told[seat].append((v, a)), seat=seat)
    secret_plan = plan(t, 0)
    assert t.act(0, secret_plan) is None
    for seat, got in told.items():
        (v, a), = got
        assert v == t.view_for(seat) and v.viewer == seat
        assert all(s.deck_hidden and list(s.deck) == sorted(s.deck) for s in v.seats)  # deck order hidden
        for i, s in enumerate(v.seats):
            if i != seat:
                assert s.objective is None  # another seat's objective never leaves the table
        if seat == 0:
            assert a == secret_plan and v.seats[0].plan == secret_plan
        else:  # an unrevealed plan is told as a hidden plan only
            assert a == Plan(0, HIDDEN, HIDDEN, False) and v.seats[0].plan == Plan(0, HIDDEN, HIDDEN, False)
    assert t.view_for(0) == view(t.state, 0)
    assert t.view_for(None) == public_view(t.state)


@pytest.mark.rule("E-view", "E-table")
def test_each_seats_view_is_worked_out_once_per_change_however_many_observe_it():
    """A server's table has three observers of the public view (spectators, accounts, turns):
    one public view per change, not three (issue 47: the server's CPU per action)."""
    t = table(("human", "human"), seed=9)
    told = []
    for seat in (None, 0, None, 1, None):
        t.observe(lambda v, a, table, seat=seat: told.append((seat, v)), seat=seat)
    asked = []
    view_for = t.view_for
    t.view_for = lambda seat: asked.append(seat) or view_for(seat)  # type: ignore[method-assign]
    assert t.act(0, plan(t, 0)) is None
    assert sorted(asked, key=str) == [0, 1, None]
    assert [s for s, _ in told] == [None, 0, None, 1, None]
    for seat, v in told:
        assert v == view_for(seat) and v.viewer == seat


def test_an_observer_that_changes_the_state_gives_the_next_one_a_view_of_the_new_state():
    from gonzaga.table.observers import Observers

    class Stub:
        state = 1

        def view_for(self, seat):
            return ("view", seat, self.state)
    stub, got, obs = Stub(), [], Observers()

    def first(v, a, tb):
        got.append(v)
        stub.state = 2
    obs.add(first, None)
    obs.add(lambda v, a, tb: got.append(v), None)
    obs.tell(stub, None)  # type: ignore[arg-type]
    assert got == [("view", None, 1), ("view", None, 2)]


@pytest.mark.rule("E-view")
def test_the_public_view_hides_every_secret_until_the_end():
    t = table(("human", "human"), seed=4)
    assert t.act(0, plan(t, 0)) is None
    v = public_view(t.state)
    assert v.viewer is None
    assert all(s.objective is None for s in v.seats) and t.state.seats[0].objective is not None
    assert v.seats[0].plan == Plan(0, HIDDEN, HIDDEN, False) and v.seats[1].plan is None
    assert all(s.deck_hidden and list(s.deck) == sorted(s.deck) for s in v.seats)
    assert any(list(s.deck) != sorted(s.deck) for s in t.state.seats)  # there was an order to hide
    assert t.act(1, plan(t, 1)) is None  # revealed: every plan is public now
    v = public_view(t.state)
    assert [s.plan for s in v.seats] == [s.plan for s in t.state.seats]


@pytest.mark.rule("E-view", "E-table")
def test_a_hint_is_only_for_a_human_seat_and_from_its_own_view():
    t = table(("human", "ai"))
    assert t.hint_view(0) == view(t.state, 0)
    assert t.hint_view(1) is None and t.hint_view(None) is None and t.hint_view(7) is None


# ---------------------------------------------------------------- the store

class Failing:
    def __init__(self):
        self.fail = False
        self.kept = []

    def keep(self, change):
        if self.fail:
            raise OSError("the disk is full")
        self.kept.append(change)


@pytest.mark.rule("E-save", "E-table")
def test_the_store_is_written_before_anyone_sees_a_change_and_a_failure_changes_nothing():
    store = Failing()
    t = table(("human", "human"), store=store)
    seen = []
    t.observe(lambda v, a, table: seen.append((len(store.kept), table.n)), seat=None)
    assert t.act(0, plan(t, 0)) is None
    assert seen == [(2, 2)]  # the observer was told after the store had kept it
    assert store.kept[-1].record.actions == t.record.actions and store.kept[-1].state == t.state
    before = (t.state, list(t.record.actions), t.version, t.last_action)
    store.fail = True
    with pytest.raises(StoreFailed):
        t.act(1, plan(t, 1))
    assert (t.state, list(t.record.actions), t.version, t.last_action) == before and len(seen) == 1
    store.fail = False
    assert t.act(1, plan(t, 1)) is None and t.n == 3


# ---------------------------------------------------------------- take-backs

def hotseat_at(phase_kind: str, seed: int):
    """A hot-seat game (two humans, one AI) where human A has just made a decision of the kind
    asked (plan, place, wedding, donate) and human B is the next to decide, if one is found."""
    for s in range(seed, seed + 40):
        t = table(("human", "human", "ai"), seed=s, worker=InlineWorker())
        if phase_kind == "plan":
            a = 0
            assert t.act(a, plan(t, a)) is None
            return t, a
        for _ in range(6):
            to_place(t, alliance=phase_kind == "wedding")
            while t.state.phase == "place":
                seat = t.state.to_act()[0]
                if not t.is_human(seat):
                    t.tick()
                    continue
                acts = legal_actions(t.state, seat)
                kind = {"place": Place, "wedding": Wedding, "donate": Donate}[phase_kind]
                wanted = [x for x in acts if isinstance(x, kind)]
                nxt = t.state.to_act()
                turn = t.state.turn
                if wanted and turn + 1 < len(t.state.order) and t.is_human(t.state.order[turn + 1]):
                    assert t.act(seat, wanted[0]) is None
                    return t, seat
                assert t.act(seat, acts[0] if not wanted or kind is Donate else wanted[0]) is None, nxt
            if t.is_over:
                break
    pytest.skip(f"no hot-seat position with a {phase_kind} followed by the other human")


@pytest.mark.rule("E-table")
@pytest.mark.parametrize("kind", ["plan", "place", "wedding", "donate"])
def test_in_hotseat_nobody_undoes_another_humans_decision(kind):
    t, a = hotseat_at(kind, seed=11)
    b = next(h for h in t.humans if h != a)
    before = (t.state, list(t.record.actions))
    assert t.take_back(a, by=b) == "tb.hot_seat"  # B may not undo A's decision (nor anyone: issue 40)
    assert t.take_back(b, by=b) is not None  # nor may B undo anything of its own here
    assert (t.state, list(t.record.actions)) == before and t.assists["takebacks"] == 0
    s = Session([SeatSpec(x.name, x.kind, x.bot, x.colour) for x in t.seats], t.record, content=CONTENT)
    assert s.at_screen() == b  # the curtain has passed to B: the desktop asks in B's name
    assert s.take_back(a) == "tb.hot_seat" and s.record.actions == before[1]


def solo_placing(seed: int):
    """A solo game (one human, two AI seats) at the human's placement, the first of its round (so
    an AI seat's placement after it leaves the round open); None when the seed gives no such turn."""
    seats = [SeatSpec("Me", colour="red"), SeatSpec("Bot", "ai", "easy", "blue"),
             SeatSpec("Bot2", "ai", "greedy", "green")]
    t = Table(seats, GameRecord(GameConfig(seats=3, colours=("red", "blue", "green")), seed), content=CONTENT,
              worker=InlineWorker())
    t.start(random.Random(seed))
    for _ in range(10):  # the AI seats plan first: the human's plan is the last one before the reveal
        t.tick()
    assert t.act(0, plan(t, 0)) is None and t.state.phase == "place"
    if t.state.order[0] != 0:
        return None
    for _ in range(20):
        if t.state.to_act() == (0,):
            return t
        t.tick()
    raise AssertionError("the human was never to place")


@pytest.mark.rule("E-table")
def test_solo_the_human_undoes_their_latest_decision_and_the_ai_seats_replay():
    t = next(t for t in map(solo_placing, range(21, 60)) if t is not None)
    acts = legal_actions(t.state, 0)
    n, state = t.n, t.state
    assert t.act(0, acts[0]) is None
    for _ in range(10):
        if t.n > n + 1:
            break
        t.tick()
    after = list(t.record.actions)
    assert len(after) == n + 2 and after[-1].seat != 0  # an AI seat has placed after the human
    assert t.take_back(0, by=1) == "tb.nothing"  # asked by another seat: refused
    assert t.take_back(0) is None and t.assists["takebacks"] == 1
    assert t.n == n and t.state == state  # back to before the human's decision
    assert t.act(0, acts[0]) is None
    for _ in range(10):
        if t.n > n + 1:
            break
        t.tick()
    assert t.record.actions == after  # the AI seat decided the same way again


@pytest.mark.rule("E-table")
def test_a_seat_is_handed_to_the_computer_only_by_the_host_or_its_own_player():
    t = table(("human", "human", "human"), worker=InlineWorker())
    t.host = 0
    assert t.hand_to_ai(2, "greedy", by=1) is not None and t.seats[2].kind == "human"
    assert t.hand_to_ai(2, "greedy", by=None) is not None
    assert t.hand_to_ai(1, "greedy", by=1) is None and t.seats[1].kind == "ai"  # its own player
    assert t.hand_to_ai(2, "greedy", by=0) == Illegal.of("E-table", "seat_connected", seat=2)  # the host: only a
    # seat whose player is away
    t.mark_away(2, True)
    assert t.hand_to_ai(2, "greedy", by=1) == Illegal.of("E-table", "handover_who")  # another player: not even a seat left
    assert t.hand_to_ai(2, "greedy", by=0) is None and t.seats[2].kind == "ai"  # the host
    assert t.hand_to_ai(2, "greedy", by=0) is not None  # an AI seat is not handed again
    assert t.act(0, plan(t, 0)) is None
    for _ in range(10):
        t.tick()
    assert t.state.phase == "place"  # the seats handed over planned through the table's pacing


# ---------------------------------------------------------------- the only caller of apply

ALLOWED_APPLY = {"gonzaga/table/core.py"}  # the bench makes its positions with gonzaga/ai/positions.py
ALLOWED_TRY_ON = {"gonzaga/table/hints.py", "gonzaga/table/history.py", "gonzaga/net/check.py",
                  "gonzaga/ui/rule_pictures.py"}


def _callers(name: str) -> set[str]:
    """Modules outside gonzaga/rules and gonzaga/ai that call the rules' ``name`` (a bare name or
    an attribute, however it was imported)."""
    out = set()
    for path in sorted((ROOT / "gonzaga").rglob("*.py")):
        rel = path.relative_to(ROOT).as_posix()
        if rel.startswith(("gonzaga/rules/", "gonzaga/ai/")):
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        aliases = {name}
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module and "rules" in node.module:
                aliases |= {a.asname or a.name for a in node.names if a.name == name}
        for node in ast.walk(tree):
            if isinstance(node, ast.Call):
                f = node.func
                if (isinstance(f, ast.Name) and f.id in aliases) or (isinstance(f, ast.Attribute) and f.attr == name):
                    out.add(rel)
    return out


@pytest.mark.rule("E-table")
def test_outside_the_rules_and_the_ai_only_the_table_applies_an_action():
    assert _callers("apply") == ALLOWED_APPLY
    assert _callers("try_on") <= ALLOWED_TRY_ON  # look-aheads and record checks, never a game's move


@pytest.mark.rule("E-table")
def test_the_authority_floor_imports_only_the_rules_the_ai_and_the_words():
    """gonzaga/table sits above the rules, the AI and the words (and the version and resources, at the
    bottom), below net, render, ui and scenes (tests/test_floors.py checks every floor)."""
    wrong = []
    for path in sorted((ROOT / "gonzaga" / "table").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.level == 2:
                names = [f"{node.module}.{a.name}" if node.module else a.name for a in node.names]
                wrong += [f"{path.name}: {n}" for n in names
                          if not n.startswith(("rules", "ai", "words", "version", "resources"))]
            elif isinstance(node, (ast.Import, ast.ImportFrom)):
                mods = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module or ""]
                wrong += [f"{path.name}: {m}" for m in mods if m.split(".")[0] in ("pygame", "gonzaga")]
    assert not wrong
