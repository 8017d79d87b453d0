"""A mutation run: realistic one-line bugs in the rules, the session and the saves, each run
against the tests, to show that a test fails when a rule is broken.

    .venv/bin/python tools/mutate.py                 # every mutant, 2 at a time; prints a score
    .venv/bin/python tools/mutate.py --json          # the same, with a JSON summary on stdout
    .venv/bin/python tools/mutate.py --only W4,P7    # mutants breaking these rules (or named so)
    .venv/bin/python tools/mutate.py --layer rules   # the mutants of one layer (rules, authority, saves, network, words, screens, ai)
    .venv/bin/python tools/mutate.py --list          # the mutants, without running them
    .venv/bin/python tools/mutate.py --issue 45 --no-suite   # issue 45's mutants, each against its layer's tests

The table of mutants is tools/mutants.py (``--issue 45``, ``50``, ``51`` select the sets planted for those issues).

Each mutant is one exact snippet of a source file, its replacement, and the rule id it breaks
(the spec's clause ids; ``E-save`` and ``E-view`` name the parts of spec E that the tests mark,
see tests/test_rule_ids.py). Every file git tracks (as it is in the working tree), and the spec
beside the repository, is copied to a temporary folder per job, so the working tree is never
touched. For each mutant:

1. the tests marked ``@pytest.mark.rule(<its id>)`` run (this file is loaded as a pytest plugin
   that selects them); one failing: *killed by its rule's test*;
2. otherwise the fast part of the suite runs (no packaging, scene, render or AI-strength tests),
   stopping at the first failure: a failure is *killed by another test* (a snapshot, say),
   none is *survived*.

When no test of the mutant's own layer failed in step 1, the tests of that layer (``LAYER_TESTS``)
run before step 2: a failure there is *killed by its layer's test*. Layers: ``rules``
(gonzaga/rules), ``authority`` (gonzaga/table: the Table, who may act, the AI pacing, observers,
the store, the session, take-backs, hints, the screens' face), ``saves`` (persistence, the save
schema, the games in progress), ``network`` (gonzaga/net), ``words`` (gonzaga/words), ``screens``
(gonzaga/ui and gonzaga/render: the parts tested without a screen) and ``ai`` (gonzaga/ai: the
fast simulator against the rules); the summary gives, per layer, the share
of mutants killed by a test of their own layer (printed, and under ``layers`` in --json).
``--no-suite`` runs each mutant against its layer's tests only (they alone decide that share).

Tests that already fail on the unmutated copy (another change in progress) are left out of
every run and listed. The goal is every mutant killed by a test marked with its rule, and at
least 95% of each layer's mutants killed by a test of that layer.
"""
from __future__ import annotations

import argparse
import fnmatch
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from queue import Empty, Queue

from mutants import ISSUES, MUTANTS, Mutant  # the table of faults, beside this file

ROOT = Path(__file__).resolve().parent.parent
SPEC = Path(os.environ.get("GONZAGA_SPEC") or ROOT.parent / "shared" / "design" / "spec.md")
SLOW = ("test_package", "test_scenes", "test_scenes_i18n", "test_render", "test_app_cli", "test_monkey",
        "test_layout_walk", "test_zoom_tooltips", "test_tutorial", "test_replay_view", "test_confirm_and_curtains",
        "test_online_scenes", "test_netplay_check", "test_net_server", "test_net_client", "test_audio",
        "test_motion")  # screens, packaging and networking: not where a rule bug shows first
SUITE = ["tests", *(f"--ignore=tests/{name}.py" for name in SLOW),
         "-k", "not smoke and not D5_greedy"]  # the fast part of the suite
TIMEOUT = [600]  # seconds for one pytest run (--timeout); a mutant that hangs the suite is killed by it
FULL_SUITE = [True]  # False (--no-suite): stop after the layer's tests; "survived" then means by its layer


# The layers of the summary: a mutant's layer is its file's folder (gonzaga/rules, gonzaga/table:
# the authority, gonzaga/net: the network), except the save modules, which are the saves' layer
# wherever they live; a layer's tests are these modules (none that take minutes: the server's
# socket tests, test_net_server and test_online_durability, stay out).
LAYER_FOLDERS = {"rules": "rules", "table": "authority", "net": "network", "words": "words", "ui": "screens",
                 "render": "screens", "ai": "ai"}
LAYER_MODULES = {"saves": ("persistence", "save_schema", "in_progress")}
LAYER_TESTS = {
    "rules": ("test_rules_*", "test_fiefs_and_actions", "test_record_upgrade", "test_golden_and_perft",
              "test_random_play", "test_map_data", "test_audit_rules", "test_behaviours_rules"),
    "authority": ("test_table", "test_table_audit", "test_session", "test_takeback", "test_takeback_save",
                  "test_hints", "test_audit_session", "test_secret_views", "test_stats", "test_finished_games",
                  "test_behaviours_table", "test_seatview", "test_screen_secrets"),
    "saves": ("test_saves", "test_hostile_files", "test_disk_faults", "test_crash_safety", "test_takeback_save",
              "test_audit_saves", "test_behaviours_saves", "test_games_in_progress"),
    "network": ("test_net_protocol", "test_audit_net", "test_online_admission", "test_online_resume",
                "test_net_storage", "test_online_play", "test_behaviours_net", "test_accounts", "test_online_seats",
                "test_online_servers", "test_turns", "test_behaviours_turns",
                # the desktop's client on a fake connection; several processes on one PostgreSQL
                "test_net_client", "test_store_sharing"),
    "words": ("test_i18n_catalogs", "test_own_words", "test_plain_words", "test_behaviours_words", "test_formats",
              "test_system_language"),
    # issue 51: the screens' small parts that take no screen (own keys, the map's palette) and the AI's simulator
    "screens": ("test_own_keys", "test_map_contrast", "test_behaviours_screens", "test_high_contrast"),
    "ai": ("test_rules_compare", "test_behaviours_ai"),
}


def layer_of(file: str) -> str:
    """The layer of a source file: rules, authority, saves, network, or other."""
    path = Path(file)
    for layer, stems in LAYER_MODULES.items():
        if path.stem in stems:
            return layer
    for folder, layer in LAYER_FOLDERS.items():
        if folder in path.parts[:-1]:
            return layer
    return "other"


def test_layers(nodeid: str) -> set:
    """The layers whose tests include this test (``tests/test_x.py::test_y``)."""
    stem = Path(nodeid.split("::")[0]).stem
    return {layer for layer, pats in LAYER_TESTS.items() if any(fnmatch.fnmatch(stem, p) for p in pats)}


# ---------------------------------------------------------------- the pytest plugin (-p mutate)

def pytest_addoption(parser):
    parser.addoption("--mutate-rule", default=None, help="run only the tests marked with this rule id")


def pytest_collection_modifyitems(config, items):
    rule = config.getoption("--mutate-rule")
    if not rule:
        return
    keep, drop = [], []
    for item in items:
        ids = {i for m in item.iter_markers("rule") for i in m.args}
        (keep if rule in ids else drop).append(item)
    items[:] = keep
    config.hook.pytest_deselected(items=drop)


def pytest_runtest_logreport(report):
    _note_failure(report)


def pytest_collectreport(report):
    _note_failure(report)


def _note_failure(report):
    out = os.environ.get("MUTATE_FAILURES")
    if out and report.failed:
        with open(out, "a", encoding="utf-8") as f:
            f.write((report.nodeid or "collection") + "\n")


# ---------------------------------------------------------------- running

@dataclass
class Result:
    mutant: Mutant
    status: str  # killed-by-rule, killed-by-layer, killed-by-other, survived, stale, timeout
    tests: list = field(default_factory=list)
    seconds: float = 0.0
    own_layer: bool = False  # a test of the mutant's own layer failed

    @property
    def layer(self) -> str:
        return layer_of(self.mutant.file)


def tracked_files() -> list[str]:
    """Every file git tracks in the repository (the copy is the repository, not a subset of it)."""
    out = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout
    return [p for p in out.decode("utf-8").split("\0") if p]


class Workspace:
    """A private copy of the repository (and the spec beside it) to mutate and test."""

    def __init__(self, base: Path, n: int):
        self.dir = base / f"job{n}"
        self.repo = self.dir / "repo"
        for name in tracked_files():  # as they are in the working tree, edits in progress included
            src = ROOT / name
            if src.is_file():
                (self.repo / name).parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(src, self.repo / name)
        if SPEC.is_file():
            (self.dir / "shared" / "design").mkdir(parents=True)
            shutil.copy2(SPEC, self.dir / "shared" / "design" / "spec.md")

    def pytest(self, args: list[str], deselect: list[str], first_failure: bool = True) -> tuple[int, list[str]]:
        failures = self.dir / "failures.txt"
        failures.unlink(missing_ok=True)
        env = {**os.environ, "PYTHONPATH": f"{self.repo}{os.pathsep}{self.repo / 'tools'}",
               "PYTHONDONTWRITEBYTECODE": "1", "MUTATE_FAILURES": str(failures),
               "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy", "GONZAGA_HOME": str(self.dir / "home")}
        env.pop("GONZAGA_SPEC", None)
        cmd = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "mutate",
               "--rootdir", str(self.repo), *(["-x"] if first_failure else []), *args]
        cmd += [f"--deselect={d}" for d in deselect]
        proc = subprocess.Popen(cmd, cwd=self.repo, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                start_new_session=True)
        try:
            rc = proc.wait(timeout=TIMEOUT[0])
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
            rc = -1
        failed = failures.read_text().split() if failures.exists() else []
        return rc, failed

    def check_imports_copy(self) -> None:
        env = {**os.environ, "PYTHONPATH": str(self.repo)}
        out = subprocess.run([sys.executable, "-c", "import gonzaga; print(gonzaga.__file__)"], cwd=self.repo,
                             env=env, capture_output=True, text=True).stdout.strip()
        if not out.startswith(str(self.repo)):
            raise SystemExit(f"the copy's package is not the one imported ({out}); is gonzaga installed elsewhere?")


def baseline(ws: Workspace, layers=None) -> list[str]:
    """Tests failing before any mutation (someone's change in progress): left out of every run.
    ``layers``: only the tests of these layers run (--no-suite)."""
    args = SUITE if layers is None else [a for layer in layers for a in layer_suite(ws, layer)[:-2]] + SUITE[-2:]
    rc, failed = ws.pytest(args, [], first_failure=False)
    if rc not in (0, 1, 5) or "collection" in failed:
        raise SystemExit(f"the unmutated suite does not run (pytest exit {rc}): {failed[:3]}")
    return failed


def layer_suite(ws: Workspace, layer: str) -> list[str]:
    """The pytest arguments that run the tests of ``layer`` in this copy (none: an empty list)."""
    names = sorted({p.relative_to(ws.repo).as_posix() for pat in LAYER_TESTS.get(layer, ())
                    for p in (ws.repo / "tests").glob(pat + ".py")})
    return [*names, *SUITE[-2:]] if names else []


def run_one(ws: Workspace, m: Mutant, deselect: list[str]) -> Result:
    """Stage 1 (the tests marked with the mutant's rule), then the tests of its layer when none of
    them failed yet, then stage 2 (the fast suite)."""
    t0 = time.monotonic()
    path = ws.repo / m.file
    text = path.read_text(encoding="utf-8")
    mutated = m.apply(text)
    if mutated is None:
        return Result(m, "stale", [f"snippet not found once in {m.file}"])
    path.write_text(mutated, encoding="utf-8")
    layer = layer_of(m.file)
    try:
        if not FULL_SUITE[0]:  # --no-suite: the tests of its layer only, which decide the per-layer figure
            if not layer_suite(ws, layer):
                return Result(m, "survived", ["no tests for its layer"], time.monotonic() - t0)
            rc, failed = ws.pytest(layer_suite(ws, layer), deselect)
            if rc == -1:
                return Result(m, "timeout", failed, time.monotonic() - t0, True)
            if rc not in (0, 5):
                return Result(m, "killed-by-layer", failed or [f"pytest exit {rc}"], time.monotonic() - t0, True)
            return Result(m, "survived", [], time.monotonic() - t0)
        rc, failed = ws.pytest(SUITE + ["--mutate-rule", m.rule], deselect)
        if rc == -1:
            return Result(m, "timeout", [], time.monotonic() - t0)
        own = any(layer in test_layers(t) for t in failed)
        if failed and own:
            return Result(m, "killed-by-rule", failed, time.monotonic() - t0, True)
        args = layer_suite(ws, layer)
        if args:
            rc2, failed2 = ws.pytest(args, deselect)
            if rc2 == -1:  # the layer's own tests hang on it
                return Result(m, "timeout", failed, time.monotonic() - t0, True)
            if rc2 not in (0, 5):
                if failed:
                    return Result(m, "killed-by-rule", failed + failed2, time.monotonic() - t0, True)
                return Result(m, "killed-by-layer", failed2 or [f"pytest exit {rc2}"], time.monotonic() - t0, True)
        if failed:
            return Result(m, "killed-by-rule", failed, time.monotonic() - t0)
        rc, failed = ws.pytest(SUITE, deselect)
        if rc == -1:
            return Result(m, "timeout", [], time.monotonic() - t0)
        if rc != 0 and rc != 5:
            return Result(m, "killed-by-other", failed or [f"pytest exit {rc}"], time.monotonic() - t0)
        return Result(m, "survived", [], time.monotonic() - t0)
    finally:
        path.write_text(text, encoding="utf-8")


def layer_summary(results: list) -> dict:
    """Per layer (in the order rules, authority, saves, network, words, screens, ai, other; only those with mutants):
    how many mutants, how many killed, how many killed by a test of their own layer, and its share."""
    out = {}
    for name in ("rules", "authority", "saves", "network", "words", "screens", "ai", "other"):
        rs = [r for r in results if r.layer == name and r.status != "stale"]
        if not rs:
            continue
        own = sum(r.own_layer for r in rs)
        out[name] = {"mutants": len(rs), "killed": sum(r.status not in ("survived",) for r in rs),
                     "killed_by_own_layer": own, "survived": sum(r.status == "survived" for r in rs),
                     "own_layer_percent": round(100.0 * own / len(rs), 1)}
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--json", action="store_true", help="print a JSON summary on stdout (the report goes to stderr)")
    ap.add_argument("--jobs", type=int, default=2, help="mutants tested at once (default 2)")
    ap.add_argument("--only", default="", help="comma-separated rule ids or words of mutant names")
    ap.add_argument("--layer", default="", help="only the mutants of these layers (comma-separated: rules, "
                    "authority, saves, network, words, screens, ai)")
    ap.add_argument("--list", action="store_true", help="list the mutants and exit")
    ap.add_argument("--timeout", type=float, default=600.0,
                    help="seconds for one pytest run (default 600; a busy machine needs more for the baseline)")
    ap.add_argument("--issue", default="", help="only the mutants planted for this issue (" + ", ".join(ISSUES) + ")")
    ap.add_argument("--keep", action="store_true", help="keep the temporary copies")
    ap.add_argument("--no-suite", action="store_true",
                    help="run only the tests of each mutant's layer (LAYER_TESTS), which decide the per-layer "
                         "figure; 'survived' then means by its layer (far quicker on a busy machine)")
    ap.add_argument("--skip-tests", default="", metavar="EXPR",
                    help="leave out tests matching this -k expression (e.g. 'compare or brute_force', to see "
                         "what the hand-worked tests kill alone)")
    args = ap.parse_args(argv)
    FULL_SUITE[0] = not args.no_suite
    TIMEOUT[0] = args.timeout
    if args.skip_tests:
        SUITE[-1] += f" and not ({args.skip_tests})"
    mutants = MUTANTS
    if args.issue:
        mutants = ISSUES[args.issue]
    if args.only:
        keys = [k.strip() for k in args.only.split(",") if k.strip()]
        mutants = [m for m in mutants if m.rule in keys or any(k in m.name for k in keys)]
    if args.layer:
        layers = {k.strip() for k in args.layer.split(",")}
        mutants = [m for m in mutants if layer_of(m.file) in layers]
    report = sys.stderr if args.json else sys.stdout
    if args.list:
        stale = 0
        for m in mutants:
            ok = m.apply((ROOT / m.file).read_text(encoding="utf-8")) is not None
            stale += not ok
            print(f"{m.rule:7} {m.file:28} {m.what}" + ("" if ok else "  (STALE: snippet not found once)"),
                  file=report)
        print(f"{len(mutants)} mutants, {stale} stale", file=report)
        return 1 if stale else 0
    base = Path(tempfile.mkdtemp(prefix="gonzaga-mutate-"))
    base.chmod(0o755)  # a test that drops root (as ``nobody``) still imports the copy's modules
    t0 = time.monotonic()
    try:
        jobs = max(1, min(args.jobs, len(mutants)))
        spaces = [Workspace(base, n) for n in range(jobs)]
        spaces[0].check_imports_copy()
        print(f"{len(mutants)} mutants, {jobs} at a time; copies in {base}", file=report, flush=True)
        skipped = baseline(spaces[0], sorted({layer_of(m.file) for m in mutants}) if args.no_suite else None)
        if skipped:
            print(f"left out (failing before any mutation): {', '.join(skipped)}", file=report, flush=True)
        queue: Queue = Queue()
        for m in mutants:
            queue.put(m)
        results: list[Result] = []
        lock = threading.Lock()

        def work(ws: Workspace):
            while True:
                try:
                    m = queue.get_nowait()
                except Empty:
                    return
                r = run_one(ws, m, skipped)
                with lock:
                    results.append(r)
                    first = r.tests[0] if r.tests else ""
                    print(f"{r.status:15} {'layer' if r.own_layer else '     '} {m.rule:10} {m.file:28} {m.what}  "
                          f"[{r.seconds:.0f}s] {first}",
                          file=report, flush=True)

        threads = [threading.Thread(target=work, args=(ws,)) for ws in spaces]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    finally:
        if not args.keep:
            shutil.rmtree(base, ignore_errors=True)
    order = {m: i for i, m in enumerate(mutants)}
    results.sort(key=lambda r: order[r.mutant])
    count = {s: sum(r.status == s for r in results) for s in
             ("killed-by-rule", "killed-by-layer", "killed-by-other", "timeout", "survived", "stale")}
    total = len(results)
    killed = count["killed-by-rule"] + count["killed-by-layer"] + count["killed-by-other"] + count["timeout"]
    print(f"\nscore: {killed}/{total} killed; {count['killed-by-rule']}/{total} killed by a test marked with the "
          f"rule the mutant breaks; {count['survived']} survived, {count['stale']} stale "
          f"({time.monotonic() - t0:.0f} s)", file=report)
    layers = layer_summary(results)
    for name, d in layers.items():
        print(f"  {name:10} {d['killed_by_own_layer']:3}/{d['mutants']:<3} killed by a test of the layer "
              f"({d['own_layer_percent']:5.1f}%); {d['killed']} killed in all, {d['survived']} survived",
              file=report)
    for r in results:
        if r.status in ("survived", "killed-by-other", "stale") or not r.own_layer:
            print(f"  {r.status}{'' if r.own_layer else ' (not by its layer)'}: {r.mutant.name} {r.tests[:1]}",
                  file=report)
    if args.json:
        json.dump({"total": total, "killed": killed, "killed_by_rule": count["killed-by-rule"],
                   "killed_by_layer": count["killed-by-layer"],
                   "killed_by_other": count["killed-by-other"], "timeout": count["timeout"],
                   "survived": count["survived"], "stale": count["stale"], "left_out": skipped,
                   "layers": layers,
                   "mutants": [{"rule": r.mutant.rule, "file": r.mutant.file, "what": r.mutant.what,
                                "layer": r.layer, "own_layer": r.own_layer,
                                "status": r.status, "tests": r.tests, "seconds": round(r.seconds, 1)}
                               for r in results]}, sys.stdout, indent=1)
        print()
    return 0 if count["killed-by-rule"] == total else 1


if __name__ == "__main__":
    sys.exit(main())
