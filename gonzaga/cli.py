"""Command-line tools: simulate, replay, legal, bench (and render-map, from the renderer; serve and
netplay-check, from the online play in ``gonzaga/net``).

Every command prints JSON with ``--json``; bad input gives one line on stderr and exit 2 (a
damaged or hostile file included: it is read like a save, see gonzaga/table/save_schema.py). Output
into a closed pipe (``| head``) ends the command quietly.
"""
from __future__ import annotations

import argparse
import importlib
import os
import re
import statistics
import sys
from collections import Counter
from typing import Callable

from pydantic import ValidationError

from .ai import bot_names, is_known
from .ai.match import play_game
from .ai.review import DEFAULT_BUDGET as REVIEW_BUDGET
from .ai.review_job import ReviewJob
from .ai.roster import LEVELS

# the command lines' shared helpers (net/report.py's, through cli_common)
from .cli_common import Parser, UsageError, emit, percentile, silence_stdout
from .rules import GameConfig, GameRecord, RecordError, load_content, replay
from .rules.content import ContentError
from .rules.placement import count_placements
from .rules.record import RECORD_VERSION, summary
from .rules.scoring import free_flourishing_sites
from .table import reviews as RV
from .table import save_schema as S


# The commands another module runs: "module:function", the function taking the arguments after
# the command's name. Each module is imported the first time its command runs (as the screens in
# scenes/catalog.py), so that `gonzaga replay` loads neither the server, the online checks nor pygame.
ELSEWHERE = {
    "render-map": "gonzaga.render.render_map:main",
    "serve": "gonzaga.net.serve:main",
    "netplay-check": "gonzaga.net.check:main",
    "accounts": "gonzaga.net.accounts_cli:main",  # a server's accounts (issue 47)
}


def resolve(target: str) -> Callable[[list[str]], int]:
    """The function a ``"module:function"`` string names (importing its module)."""
    module, _, name = target.partition(":")
    return getattr(importlib.import_module(module), name)


def _bot_list() -> str:
    """The AI levels by name (gonzaga/ai/roster.py), weakest first, for the help lines."""
    searching = [lv.name for lv in LEVELS if lv.budgeted]
    text = ", ".join(lv.name for lv in LEVELS)
    if searching:
        text += f" ({' and '.join(searching)} take an iteration budget: {searching[0]}@150)"
    return text


def _parser() -> argparse.ArgumentParser:
    p = Parser(prog="gonzaga")
    sub = p.add_subparsers(dest="command", required=True, parser_class=Parser)
    s = sub.add_parser("simulate", help="play seeded games between bots",
                       description="Play seeded games between AI levels, without a window, and print the "
                                   f"statistics (wins, mean scores, rounds, decision times). AI levels: {_bot_list()}.")
    s.add_argument("--seats", type=int, required=True, help="seats at the table (2-4)")
    s.add_argument("--bots", required=True, help=f"comma-separated AI levels, one per seat: {_bot_list()}")
    s.add_argument("--games", type=int, default=10, help="how many games (default: 10)")
    s.add_argument("--seed", type=int, default=1, help="seed of the first game; the next ones follow (default: 1)")
    s.add_argument("--scenario", default=None, help="play every game on this scenario tile")
    s.add_argument("--json", action="store_true", help="print JSON instead of a table")
    r = sub.add_parser("replay", help="replay a saved game and print its scores",
                       description="Replay a save or a game record move by move, check that it reproduces "
                                   "the stored position, and print the scores.")
    r.add_argument("file", help="a save (.json from the saves folder) or a game record")
    r.add_argument("--json", action="store_true", help="print JSON instead of a table")
    lg = sub.add_parser("legal", help="count the legal placements in a saved position",
                        description="Count, for every seat that plans or places in a saved position, the legal "
                                    "placements of its fief under every region and action card.")
    lg.add_argument("file", help="a save (.json from the saves folder) or a game record")
    lg.add_argument("--json", action="store_true", help="print JSON instead of a table")
    rv = sub.add_parser("review", help="review one seat's decisions in a finished game",
                        description="Compare every decision of one seat with the best the expert finds from "
                                    "that seat's view at the time, and estimate the points each lost (issue 48). "
                                    "The result is kept with the finished games, so asking again is instant.")
    rv.add_argument("file", help="a finished game's save or record")
    rv.add_argument("--seat", type=int, default=0, help="the seat to review, from 0 (default: 0)")
    rv.add_argument("--budget", type=int, default=REVIEW_BUDGET,
                    help=f"rollouts a decision (default: {REVIEW_BUDGET})")
    rv.add_argument("--seed", type=int, default=0, help="the review's seed (default: 0)")
    rv.add_argument("--fresh", action="store_true", help="compute again, ignoring a kept result")
    rv.add_argument("--json", action="store_true", help="print JSON instead of a table")
    b = sub.add_parser("bench", help="measure the engine's speed")
    b.add_argument("--json", action="store_true", help="print JSON instead of a table")
    b.add_argument("--quick", action="store_true", help="fewer repetitions")
    b.add_argument("--no-ui", action="store_true", help="skip the frame-time and start-up figures")
    return p


def run(argv: list[str]) -> int:
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")  # render-map and bench load pygame: no banner on stdout
    if argv and argv[0] in ELSEWHERE:
        return resolve(ELSEWHERE[argv[0]])(argv[1:])
    try:
        args = _parser().parse_args(argv)
        handler = {"simulate": cmd_simulate, "replay": cmd_replay, "legal": cmd_legal,
                   "bench": cmd_bench, "review": cmd_review}[args.command]
        code = handler(args)
        sys.stdout.flush()  # a closed pipe shows up here at the latest
        return code
    except UsageError as e:
        print(str(e), file=sys.stderr)
        return 2
    except BrokenPipeError:  # the reader went away (| head): stop quietly, no traceback
        silence_stdout()
        return 0


# ---------------------------------------------------------------- simulate

def cmd_simulate(args) -> int:
    names = [b.strip() for b in args.bots.split(",") if b.strip()]
    if not 2 <= args.seats <= 4:
        raise UsageError("gonzaga simulate: --seats must be 2, 3 or 4")
    if len(names) != args.seats:
        raise UsageError(f"gonzaga simulate: --bots names {len(names)} bot(s) for {args.seats} seats")
    known = bot_names()
    for n in names:  # a search level may pin its iterations: hard@150, expert@2000
        if not is_known(n):
            raise UsageError(f"gonzaga simulate: unknown bot {n!r} (known: {', '.join(known)}; "
                             "hard@N or expert@N pins N iterations)")
    if args.games < 1:
        raise UsageError("gonzaga simulate: --games must be at least 1")
    try:
        content = load_content()
    except ContentError as e:
        raise UsageError(f"gonzaga simulate: {e}") from None
    if args.scenario:
        try:
            sc = content.scenario(args.scenario)
        except KeyError:
            raise UsageError(f"gonzaga simulate: unknown scenario {args.scenario!r}") from None
        if sc.seats != args.seats:
            raise UsageError(f"gonzaga simulate: {sc.name} is a tile for {sc.seats} seats")
    config = GameConfig(seats=args.seats, scenario=args.scenario)
    uniq = sorted(set(names))
    wins: dict[str, float] = {n: 0.0 for n in uniq}
    scores: dict[str, list[int]] = {n: [] for n in uniq}
    times: dict[str, list[float]] = {n: [] for n in uniq}
    rounds: list[int] = []
    turns = donations = illegal = 0
    region_use = Counter({r.id: 0 for r in content.board.regions})
    sea_use = Counter({s.id: 0 for s in content.board.seas})
    scen: dict[str, dict] = {}
    for g in range(args.games):
        seat_bots = [names[(i + g) % len(names)] for i in range(args.seats)]
        res = play_game(seat_bots, seed=args.seed + g, config=config, content=content)
        st = res.state
        rounds.append(st.round)
        illegal += res.illegal
        for i, n in enumerate(seat_bots):
            scores[n].append(st.seats[i].score)
            times[n].extend(res.decision_ms[i])
            if i in st.winners:
                wins[n] += 1.0 / len(st.winners)
        turns += sum(res.turns)
        donations += sum(res.donations)
        for p in st.pieces:
            for rid in {content.region_of.get(h) for h in p.cells} - {None}:
                region_use[rid] += 1
            for sid in {content.sea_of.get(h) for h in p.cells} - {None}:
                sea_use[sid] += 1
        entry = scen.setdefault(str(st.scenario), {"games": 0, "rounds": [], "free_flourishing_sites": []})
        entry["games"] += 1
        entry["rounds"].append(st.round)
        entry["free_flourishing_sites"].append(free_flourishing_sites(st))
    out = {
        "games": args.games, "seats": args.seats, "bots": names,
        "wins": {n: round(wins[n], 3) for n in uniq},
        "mean_score": {n: round(statistics.mean(scores[n]), 2) for n in uniq},
        "rounds": {"min": min(rounds), "median": statistics.median(rounds), "max": max(rounds),
                   "histogram": {str(k): v for k, v in sorted(Counter(rounds).items())}},
        "donation_rate": round(donations / turns, 4) if turns else 0.0,
        "illegal_actions": illegal,
        "decision_ms": {n: {"p50": round(percentile(times[n], 0.5), 3),
                            "p95": round(percentile(times[n], 0.95), 3)} for n in uniq},
        "region_use": dict(region_use), "sea_use": dict(sea_use),
        "scenarios": {k: {"games": v["games"], "mean_rounds": round(statistics.mean(v["rounds"]), 2),
                          "filled": sum(1 for x in v["free_flourishing_sites"] if x == 0),
                          "mean_free_flourishing_sites": round(statistics.mean(v["free_flourishing_sites"]), 2)}
                      for k, v in sorted(scen.items())},
    }
    emit(out, args.json)
    return 0


# ---------------------------------------------------------------- replay and legal

def load_record_file(path: str, content=None):
    """A record from a record file or a save file (which wraps one); UsageError if unusable.

    The file is read like a save (a regular file of at most 1 MiB, strict JSON) and the record
    is checked field by field (types, ranges, sizes, the scenario against the content) before
    ``GameRecord.from_json`` builds it.
    """
    shown = S.excerpt(path, 120)
    try:
        d = S.read_json_file(path)
    except S.FileProblem as e:
        if e.key == "save.missing":
            raise UsageError(f"gonzaga: no such file: {shown}") from None
        raise UsageError(f"gonzaga: {shown}: {e.message()}") from None
    if isinstance(d, dict) and "record" in d:
        d = d["record"]
    if not isinstance(d, dict) or d.get("format") != "gonzaga-record":
        raise UsageError(f"gonzaga: {shown}: not a Gonzaga game record or save (field 'format')")
    v = d.get("version")
    if type(v) is int and v > RECORD_VERSION:
        raise UsageError(f"gonzaga: {shown}: record version {S.excerpt(v)} is newer than this program "
                         f"reads ({RECORD_VERSION})")
    try:
        S.validate_record(d, content)
    except ValidationError as e:
        raise UsageError(f"gonzaga: {shown}: {S.validation_detail(e)}") from None
    try:
        return GameRecord.from_json(d), (d.get("summary") if isinstance(d, dict) else None)
    except RecordError as e:
        raise UsageError(f"gonzaga: {shown}: {S.excerpt(str(e), 200)}") from None


def replay_problem(text: str, limit: int = 200) -> str:
    """A replay's failure, what is wrong first: "action 1 is illegal: S2: there is no scenario
    tile 'X' (setup X lt=0 ...)" - the action's long text last, where cutting it loses nothing."""
    m = re.match(r"action (\d+) \((.*)\) (is illegal|cannot be applied): (.*)\Z", text, re.S)
    if not m:
        return S.excerpt(text, limit)
    head = f"action {m.group(1)} {m.group(3)}: {S.excerpt(m.group(4), limit)}"
    return f"{head} ({S.excerpt(m.group(2), max(40, limit - len(head)))})"


def _replayed(path: str):
    try:
        content = load_content()
    except ContentError as e:
        raise UsageError(f"gonzaga: {e}") from None
    record, stored = load_record_file(path, content)
    shown = S.excerpt(path, 120)
    try:
        state = replay(record, content)
    except (RecordError, ContentError) as e:
        raise UsageError(f"gonzaga: {shown}: {replay_problem(str(e))}") from None
    except RecursionError:
        raise UsageError(f"gonzaga: {shown}: the record does not replay (nested too deeply)") from None
    except Exception as e:  # a record the checks above let through and the engine cannot take
        raise UsageError(f"gonzaga: {shown}: the record does not replay ({type(e).__name__})") from None
    if stored and stored.get("digest") and stored["digest"] != summary(state)["digest"]:
        raise UsageError(f"gonzaga: {path}: the replay does not reproduce the stored state "
                         f"(digest {summary(state)['digest']} != {stored['digest']})")
    return record, state


def score_table(state) -> list[dict]:
    rows = []
    for i, s in enumerate(state.seats):
        rows.append({"seat": i, "colour": s.colour, "score": s.score, "sites": s.site_points,
                     "sea_leagues": s.league_points, "donations": s.donation_points,
                     "gonzaga": s.gonzaga_points, "objective": s.objective_points, "rings": s.rings})
    return rows


def cmd_replay(args) -> int:
    record, state = _replayed(args.file)
    out = {"file": args.file, "actions": len(record.actions), "round": state.round, "phase": state.phase,
           "scenario": state.scenario, "reproduced": True, "scores": score_table(state)}
    if state.is_over:
        out["winners"] = list(state.winners)
        out["tiebreak"] = state.tiebreak
    emit(out, args.json)
    return 0


def cmd_review(args) -> int:
    record, state = _replayed(args.file)
    if not state.is_over:
        raise UsageError(f"gonzaga: {S.excerpt(args.file, 120)}: the game is not over (a review needs a finished game)")
    if not 0 <= args.seat < state.n:
        raise UsageError(f"gonzaga: --seat must be from 0 to {state.n - 1}")
    if not 1 <= args.budget <= 100_000:
        raise UsageError("gonzaga: --budget must be from 1 to 100000")
    kept = None if args.fresh else RV.load_review(record, args.seat, args.budget, args.seed)
    job = ReviewJob(record, args.seat, args.budget, args.seed, state.content, done=kept)
    try:
        job.wait(timeout=24 * 3600.0)
    finally:
        job.close()
    rev = job.review
    if not rev.complete:  # the analysis failed (its traceback went to stderr): keep what is done
        RV.store_review(rev)
        raise UsageError(f"gonzaga: the review stopped after {len(rev.verdicts)} of {rev.total} decisions")
    RV.store_review(rev)
    out = rev.to_json()
    out.update(file=args.file, lost=rev.lost_by(), best_round=rev.best_round(),
               costliest=[v.index for v in rev.costliest()])
    if args.json:
        emit(out, True)
        return 0
    print(f"seat {rev.seat}: {rev.lost_by()['placements']:.1f} points lost to placements, "
          f"{rev.lost_by()['plans']:.1f} to plans; round {rev.best_round()} was the best")
    marked = {v.index for v in rev.costliest()}
    for v in rev.verdicts:
        flag = "*" if v.index in marked else ("!" if v.flagged else " ")
        print(f"{flag} round {v.round:2d}  {v.played:28s} lost {v.lost:5.1f} +- {v.error:4.1f}  best {v.best}")
    return 0


def cmd_legal(args) -> int:
    _, state = _replayed(args.file)
    if state.phase not in ("plan", "place"):
        raise UsageError(f"gonzaga legal: nobody places in this position (phase {state.phase})")
    board = state.board
    seats = []
    for seat in state.to_act():
        s = state.seats[seat]
        counts = {}
        for region in state.region_cards():
            rmask = board.region_mask(region, state.flourishing)
            for action in ("A", "B", "C"):
                counts[f"{region}/{action}"] = count_placements(
                    board, s.fief, rmask, action, state.all_fiefs, s.ring_mask)
        seats.append({"seat": seat, "fief": s.fief, "card": s.card, "placements": counts,
                      "total": sum(counts.values())})
    emit({"file": args.file, "round": state.round, "phase": state.phase, "seats": seats}, args.json)
    return 0


# ---------------------------------------------------------------- bench

def cmd_bench(args) -> int:
    from .bench.engine import run_bench  # it drives the game's screens (pygame): only this command loads them
    out = run_bench(quick=args.quick, ui=not args.no_ui)
    emit(out, args.json)
    return 0
