"""Issue 15: damaged and hostile save files never crash, hang or exhaust memory, and are kept.

The corrupt-save matrix (tests/corrupt_saves.py) is loaded through ``gonzaga replay`` and
through the game's own load paths (``--load FILE --exit-after-first-frame`` via the program's
entry point, and the title screen's "Continue" check of the autosave), each in a subprocess
with an address-space limit and a timeout, several at a time.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

import corrupt_saves as C
from gonzaga.table import persistence as P
from gonzaga.table import save_schema as S

ROOT = Path(__file__).resolve().parent.parent
MEMORY_LIMIT = 1 << 30  # a game process peaks near 220 MB of address space
TIMEOUT = 90  # seconds for a single load in its own process (it takes about one)
PER_VARIANT = 30  # seconds for one variant in a batch (it takes about a third of one)
CHUNKS = 6  # batches, several at a time: one process each, with the memory limit
WORKERS = 3
# Sets the limit, then becomes the command: thread-safe, unlike preexec_fn.
LIMITED = ("import os, resource, sys; resource.setrlimit(resource.RLIMIT_AS, ({0}, {0})); "
           "os.execv(sys.executable, [sys.executable] + sys.argv[1:])").format(MEMORY_LIMIT)
KNOWN_GAME_MESSAGES = ("damaged or truncated", "not a Gonzaga save", "newer version", "edited by hand",
                       "do not replay", "summary does not match", "another version of the board",
                       "not a usable number", "nested far too deeply", "not a regular file", "too large")


@pytest.fixture(autouse=True)
def english():
    """The messages checked here are the English ones, whatever an earlier test left set."""
    from gonzaga.words import i18n
    i18n.set_language("en")
    yield
    i18n.set_language("en")


def _env(home: Path) -> dict:
    return dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy", GONZAGA_HOME=str(home),
                PYTHONDONTWRITEBYTECODE="1", PYTHONPATH=str(ROOT))  # this tree's gonzaga, whatever is installed


def _limited(args: list[str], home: Path, timeout: float = TIMEOUT) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", LIMITED, *args], cwd=ROOT, env=_env(home), capture_output=True,
                          text=True, errors="replace", timeout=timeout)


@pytest.fixture(scope="module")
def matrix(tmp_path_factory) -> list[C.Variant]:
    tmp = tmp_path_factory.mktemp("bases")
    fresh = C.fresh_bases(tmp)
    bases = fresh[:1] + C.example_bases() + fresh[1:]  # a game in progress on this board comes first
    return C.variants(bases)


def test_the_matrix_covers_every_class(matrix):
    assert len(matrix) >= 60
    classes = {v.cls for v in matrix}
    assert {"known", "values", "text", "content", "not-a-file", "intact"} <= classes
    assert len({v.name for v in matrix}) == len(matrix)
    assert sum(1 for v in matrix if v.expect is None) >= 5, "files that must still load"


def _cli_problems(v: C.Variant, r: dict) -> list[str]:
    problems = []
    code, err, out = r["cli_code"], r["cli_stderr"], r["cli_stdout"]
    if code not in (0, 2):
        problems.append(f"exit status {code}")
    if "Traceback" in err:
        problems.append(f"traceback: {err.strip()[-300:]}")
    if len(err) > 700:
        problems.append(f"a {len(err)}-character message")
    exp = v.cli_expect
    if exp is None:
        if code != 0 or "reproduced: true" not in out:
            problems.append(f"should replay: {err.strip()[:200]}")
    elif exp != C.ANY:
        if code != 2 or not any(f in err for f in exp):
            problems.append(f"expected one of {exp}: {err.strip()[:200]}")
    if code == 2 and len([line for line in err.splitlines() if line.strip()]) != 1:
        problems.append("not one line")
    if any(f"({n})" in err for n in ("RecursionError", "OverflowError", "MemoryError", "ValueError", "TypeError",
                                      "KeyError", "IndexError")):
        problems.append(f"an unforeseen error: {err.strip()[:200]}")
    if not r["cli_kept"]:
        problems.append("file gone")
    return [f"replay: {x}" for x in problems]


def _game_problems(v: C.Variant, r: dict) -> list[str]:
    problems = []
    err = r["load_stderr"]
    if "Traceback" in err:
        problems.append("--load: traceback")
    if r["crashes"]:
        problems.append(f"unexpected errors in the loop: {r['crashes']}")
    if r["load_code"] not in (0, 2):
        problems.append(f"--load exit status {r['load_code']}")
    if not r["load_kept"] or not r["auto_kept"]:
        problems.append("file gone")
    if r["message_again"]:
        problems.append("the message comes back (a loop)")
    messages = [m for m in (err, r["title_message"]) if m]
    if any("unexpected problem" in m for m in messages):
        problems.append(f"an unforeseen error: {messages}")
    if any(len(m) > 700 or not m.strip().isprintable() for m in messages):
        problems.append("a message that quotes too much or cannot be drawn")
    exp = v.expect
    if exp is None or (exp == C.ANY and r["load_code"] == 0):
        if r["load_code"] != 0 or "gonzaga:" in err:
            problems.append(f"--load should open it: {err.strip()[:200]}")
        if r["title_message"]:
            problems.append(f"title reported it: {r['title_message'][:200]}")
        if exp is None and not v.over:
            if not r["continue_offered"]:
                problems.append("no Continue for a good autosave")
            elif r.get("after_continue") not in ("GameScene", "CurtainScene"):
                problems.append(f"Continue led to {r.get('after_continue')}")
            elif v.names is not None and r.get("session_names") != v.names:
                problems.append(f"names {r.get('session_names')} != {v.names}")
    else:
        frags = KNOWN_GAME_MESSAGES if exp == C.ANY else exp
        if r["load_code"] != 2 or not any(f in err for f in frags):
            problems.append(f"--load: expected one of {frags}: {err.strip()[:240]}")
        if not r["title_message"] or not any(f in r["title_message"] for f in frags):
            problems.append(f"Continue check: expected one of {frags}: {str(r['title_message'])[:240]}")
        if r["continue_offered"]:
            problems.append("Continue offered for a bad autosave")
    return [f"game: {x}" for x in problems]


def _run_chunk(variants: list[C.Variant], work: Path) -> tuple[dict, str, int]:
    work.mkdir(parents=True)
    spec = work / "spec.json"
    spec.write_text(json.dumps({"work": str(work), "per_variant_timeout": PER_VARIANT,
                                "variants": [v.to_json() for v in variants]}))
    try:
        p = _limited([str(ROOT / "tests" / "corrupt_saves.py"), "batch", str(spec)], work / "home",
                     timeout=PER_VARIANT * len(variants) + 30)
        stdout, stderr, code = p.stdout, p.stderr, p.returncode
    except subprocess.TimeoutExpired as e:
        stdout = e.stdout.decode(errors="replace") if isinstance(e.stdout, bytes) else (e.stdout or "")
        stderr, code = "timeout", -1
    results = {}
    started = None
    for line in stdout.splitlines():
        if line.startswith("START "):
            started = line[6:]
        elif line.startswith("RESULT "):
            r = json.loads(line[7:])
            results[r["name"]] = r
            started = None
    if started is not None:  # the process died (a signal, the memory limit, the timeout) on this one
        results[started] = {"name": started, "died": f"exit {code}: {stderr.strip()[-600:]}"}
    return results, stderr, code


def test_corrupt_save_matrix(matrix, tmp_path):
    """Every variant, both ways: a clean exit, no traceback, a message naming the problem, the file kept."""
    if not hasattr(os, "mkfifo"):
        pytest.skip("POSIX only (FIFOs, symlinks, RLIMIT_AS)")
    t0 = time.monotonic()
    chunks = [matrix[i::CHUNKS] for i in range(CHUNKS)]
    with ThreadPoolExecutor(WORKERS) as pool:
        runs = list(pool.map(lambda ic: _run_chunk(ic[1], tmp_path / f"chunk{ic[0]}"), enumerate(chunks)))
    failures = []
    for _, stderr, code in runs:
        if code != 0 or "Traceback" in stderr:
            failures.append(f"a batch ended with exit {code}: {stderr.strip()[-600:]}")
    results = {k: r for res, _, _ in runs for k, r in res.items()}
    for v in matrix:
        r = results.get(v.name)
        if r is None:
            failures.append(f"{v.name}: never checked")
        elif "hang" in r or "died" in r or "escaped" in r:
            failures.append(f"{v.name} [{v.cls}]: {r.get('died') or r.get('escaped') or 'hang'}")
        else:
            failures += [f"{v.name} [{v.cls}]: {p}" for p in _cli_problems(v, r) + _game_problems(v, r)]
    print(f"\ncorrupt-save matrix: {len(matrix)} variants, each through replay, --load and Continue, "
          f"in {time.monotonic() - t0:.1f} s")
    assert not failures, "\n".join(failures)


WORST = ("fifo", "symlink-dev-zero", "deep-nesting-top", "action-10mb", "action-1mb", "name-nul", "seed-Infinity")


def test_the_worst_files_through_the_real_entry_points(matrix, tmp_path):
    """``python -m gonzaga replay FILE`` and ``python -m gonzaga --load FILE``, each its own process."""
    if not hasattr(os, "mkfifo"):
        pytest.skip("POSIX only")
    chosen = [v for v in matrix if v.name in WORST]
    assert len(chosen) == len(WORST)

    def one(job):
        v, how = job
        target = C.materialize(v, tmp_path / how / f"{v.name}.json")
        args = ["-m", "gonzaga", "replay", str(target)] if how == "replay" else \
            ["-m", "gonzaga", "--load", str(target), "--exit-after-first-frame"]
        try:
            p = _limited(args, tmp_path / f"home-{how}-{v.name}")
        except subprocess.TimeoutExpired:
            return [f"{v.name} {how}: hang"]
        problems = []
        if p.returncode not in (0, 2) or "Traceback" in p.stderr:
            problems.append(f"{v.name} {how}: exit {p.returncode}: {p.stderr.strip()[-300:]}")
        exp = v.expect if how == "load" else v.cli_expect
        if exp is None and p.returncode != 0:
            problems.append(f"{v.name} {how}: should load: {p.stderr.strip()[:200]}")
        if exp not in (None, C.ANY) and (p.returncode != 2 or not any(f in p.stderr for f in exp)):
            problems.append(f"{v.name} {how}: expected one of {exp}: {p.stderr.strip()[:200]}")
        if not C.kept(target):
            problems.append(f"{v.name} {how}: file gone")
        return problems

    with ThreadPoolExecutor(WORKERS) as pool:
        problems = [p for ps in pool.map(one, [(v, how) for v in chosen for how in ("replay", "load")]) for p in ps]
    assert not problems, "\n".join(problems)


# ---------------------------------------------------------------- in-process checks of the layers

@pytest.mark.rule("E-save")
def test_read_bounded_never_blocks_or_reads_too_much(tmp_path):
    specials = [p for p in (_fifo(tmp_path / "pipe.json"), _symlink("/dev/zero", tmp_path / "zero.json")) if p]
    for special in specials:  # a FIFO would block for ever if it were opened for a plain read
        with pytest.raises(S.FileProblem) as e:
            S.read_bounded(special)
        assert e.value.key == "save.not_file"
    big = tmp_path / "big.json"
    big.write_bytes(b" " * 2000)
    with pytest.raises(S.FileProblem) as e:
        S.read_bounded(big, limit=1000)
    assert e.value.key == "save.too_large"
    assert S.read_bounded(big, limit=2000) == b" " * 2000


@pytest.mark.parametrize("text,key", [
    ('{"a": Infinity}', "save.bad_number"), ('{"a": NaN}', "save.bad_number"), ('{"a": 1e999}', "save.bad_number"),
    ('{"a": ' + "1" * 5000 + "}", "save.bad_number"), ("[" * 50_000 + "]" * 50_000, "save.too_deep"),
    ('{"a": 1', "save.bad_json"), ("\udcff", "save.bad_json"),
])
@pytest.mark.rule("E-save")
def test_parse_json_refuses_what_a_save_never_holds(text, key):
    with pytest.raises(S.FileProblem) as e:
        S.parse_json(text.encode("utf-8", "surrogateescape"))
    assert e.value.key == key


def test_clean_text_and_excerpt():
    assert S.clean_text("A\x00n\u202en\ud800 \t\n x") == "Ann x"
    assert S.excerpt("x" * 10_000) == "x" * 39 + "…"
    deep: list = []
    for _ in range(5000):
        deep = [deep]
    assert len(S.excerpt(deep)) <= 40  # never a RecursionError


def test_record_from_json_raises_only_record_errors():
    from gonzaga.rules import GameRecord, RecordError
    good = {"format": "gonzaga-record", "version": 2, "seed": 1, "actions": [],
            "config": {"seats": 2, "colours": ["red", "blue"], "scenario": None, "last_turn": "first"}}
    deep: list = []
    for _ in range(3000):
        deep = [deep]
    bad_values = [("seed", float("inf")), ("seed", 10 ** 5000), ("seed", -1), ("seed", True), ("seed", deep),
                  ("version", float("nan")), ("version", "2"), ("version", deep), ("actions", ["x" * 1_000_000]),
                  ("actions", [deep]), ("actions", ["place 0 f1 " + "9" * 400 + ",1 r0"]), ("map", [1]),
                  ("map", {"name": deep}), ("config", {"seats": float("inf")}), ("config", {"seats": "2"}),
                  ("config", {"seats": 2, "scenario": ["Dante"]}), ("config", {"seats": 2, "last_turn": "sometimes"}),
                  ("config", {"seats": 2, "colours": [deep]}), ("config", deep)]
    for k, v in bad_values:
        with pytest.raises(RecordError) as e:
            GameRecord.from_json({**good, k: v})
        assert len(str(e.value)) < 300, k
    assert GameRecord.from_json(good).seed == 1


def _hotseat_save(name="g.json"):
    from gonzaga.rules import legal_actions
    from gonzaga.table.session import SeatSpec, Session
    s = Session.new([SeatSpec("Ann", "human", colour="red"), SeatSpec("Bob", "human", colour="blue")], 5)
    s.submit(legal_actions(s.state, 0)[0])
    return s, P.save_game(s, P.saves_dir() / name, "x")


def test_one_bad_entry_never_hides_the_good_saves(tmp_path, monkeypatch):
    monkeypatch.setenv("GONZAGA_HOME", str(tmp_path / "home"))
    _hotseat_save("good.json")
    d = P.saves_dir()
    (d / "folder.json").mkdir()
    not_regular = [d / "folder.json"] + [p for p in (_symlink(d / "gone.json", d / "dangling.json"),
                                                     _fifo(d / "pipe.json"), _symlink("/dev/zero", d / "zero.json"))
                                         if p]
    odd_name = _odd_name_file(d, b"\xff")
    good, bad = P.list_saves()
    assert [g.path.name for g in good] == ["good.json"]
    assert len(bad) == len(not_regular) + odd_name and all(e.moved_to is not None for e in bad)
    for e in bad:
        text = e.report()
        assert text.isprintable() and "\udcff" not in text
    assert sum("not a regular file" in e.message for e in bad) == len(not_regular)
    if sys.platform == "linux":  # where every kind of entry can be made: all five were
        assert len(bad) == 5
    good, bad = P.list_saves()  # moved aside: the listing is clean now
    assert len(good) == 1 and not bad


def test_a_save_whose_name_is_not_utf8_is_named_in_the_log(tmp_path, monkeypatch):
    """The log file is UTF-8: the line about a file named with byte 0xff must still be written
    (escaped), not dropped as a failed write."""
    import logging
    monkeypatch.setenv("GONZAGA_HOME", str(tmp_path / "home"))
    root = logging.getLogger()
    before = list(root.handlers)
    path = P.setup_logging()
    try:
        handler = next(h for h in root.handlers if getattr(h, "_gonzaga", False))
        if not _odd_name_file(P.saves_dir(), b"\xff"):
            pytest.skip("this file system cannot name a file with byte 0xff")
        P.list_saves()
        handler.flush()
        assert handler.failures == 0
        assert "bad save" in path.read_text(encoding="utf-8") and "\\udcff-latin1.json" in path.read_text(encoding="utf-8")
    finally:
        for h in list(root.handlers):
            if h not in before:
                root.removeHandler(h)
                h.close()


def test_unforeseen_errors_while_reading_become_the_saves_own_message(tmp_path, monkeypatch):
    monkeypatch.setenv("GONZAGA_HOME", str(tmp_path / "home"))
    _, path = _hotseat_save()

    def boom(*a, **k):
        raise OverflowError("something nobody foresaw")
    monkeypatch.setattr(P, "replay", boom)  # the name persistence.py replays with
    with pytest.raises(P.SaveError) as e:
        P.load_save(path)
    assert "unexpected problem" in e.value.message and "OverflowError" not in e.value.message
    assert e.value.moved_to is not None and e.value.moved_to.exists()


def test_a_bad_save_in_a_read_only_folder_is_reported_once(tmp_path, monkeypatch):
    """It cannot be moved aside: the message says so, and the title does not show it again."""
    monkeypatch.setenv("GONZAGA_HOME", str(tmp_path / "home"))
    auto = P.new_autosave_path()
    auto.write_text('{"format": "gonzaga-save", ')

    def refuse(src, dst):
        raise PermissionError(13, "Permission denied")
    monkeypatch.setattr(P.os, "replace", refuse)
    from gonzaga.app import App
    from gonzaga.scenes.dialogs import MessageScene
    from gonzaga.scenes.title import TitleScene
    app = App(P.Settings(speed="instant"), size=(1280, 800))
    try:
        app.run_frames(3)
        top = app.stack.top
        assert isinstance(top, MessageScene)
        assert "damaged or truncated" in top.body and "could not be moved aside" in top.body
        top.close()
        app.run_frames(3)
        assert isinstance(app.stack.top, TitleScene) and app.stack.top.games == []
        assert auto.exists()
    finally:
        app.close()


def test_stale_temp_files_are_cleaned_at_start_up(tmp_path, monkeypatch):
    monkeypatch.setenv("GONZAGA_HOME", str(tmp_path / "home"))
    d = P.saves_dir()
    old = [d / f".autosave.json.x{i}.tmp" for i in range(14)]
    for p in old:
        p.write_text("{")
        os.utime(p, (time.time() - 3600, time.time() - 3600))
    fresh = d / ".autosave.json.now.tmp"  # a write under way in another instance: left alone
    fresh.write_text("{")
    other = d / "notes.tmp"
    other.write_text("mine")
    from gonzaga.app import App
    app = App(P.Settings(speed="instant"), size=(1280, 800))
    app.close()
    assert not any(p.exists() for p in old)
    assert fresh.exists() and other.exists()


def test_writes_fsync_the_folder_after_the_rename(tmp_path, monkeypatch):
    if os.name == "nt":
        pytest.skip("no folder fsync on Windows")
    import stat as st
    synced = []
    real = os.fsync

    def spy(fd):
        synced.append(st.S_ISDIR(os.fstat(fd).st_mode))
        return real(fd)
    monkeypatch.setattr(P.os, "fsync", spy)
    P.atomic_write_text(tmp_path / "a.json", "{}")
    assert synced == [False, True]  # the file, then its folder


# ---------------------------------------------------------------- entries only some systems can make

def _fifo(path: Path):
    """A FIFO at ``path``, or None where there are none (Windows)."""
    if not hasattr(os, "mkfifo"):
        return None
    os.mkfifo(path)
    return path


def _symlink(target, path: Path):
    """A symbolic link at ``path``, or None where this system or user cannot make one (Windows
    without developer mode or the privilege; a target such as /dev/zero that Windows lacks)."""
    if str(target).startswith("/dev/") and not Path(target).exists():
        return None
    try:
        os.symlink(target, path)
    except (OSError, NotImplementedError):
        return None
    return path


def _odd_name_file(folder: Path, data: bytes) -> bool:
    """A file whose name is not UTF-8 (byte 0xff on POSIX, a lone surrogate on Windows); False
    where the file system refuses such names (macOS's APFS)."""
    try:
        (folder / "\udcff-latin1.json").write_bytes(data)
    except (OSError, UnicodeError):
        return False
    return True
