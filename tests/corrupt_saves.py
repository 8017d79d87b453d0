"""Damaged and hostile variants of the example saves (issue 15), and a driver for the game's load paths.

``variants(bases)`` makes the matrix: every class of damage the issue names (values JSON allows,
text that cannot be drawn, content checked too late, files that are not files) and the ones
handled before (truncation, bit flips, garbage, versions, illegal or reordered actions, another
board). Each :class:`Variant` says what a reader must answer: message fragments (any one of
them must appear) or ``None`` when the file must load.

Run as a script, it is the driver used by tests/test_hostile_files.py (in a subprocess with a
memory limit and a timeout)::

    python tests/corrupt_saves.py batch SPEC.json   # SPEC: {"work": dir, "variants": [...]}

For each variant, in that one process: (0) ``gonzaga replay FILE`` through the tool's own entry
(``cli.run``), (1) ``gonzaga --load FILE --exit-after-first-frame`` through the program's own
entry (``gonzaga.__main__.main``), (2) the same entry put in the saves folder as the autosave,
and the title screen run until it has checked it for "Continue" (pressed when offered). Each
variant has its own watchdog (SIGALRM): a hang is reported and the batch goes on. It prints
one ``RESULT {json}`` line per variant.
"""
from __future__ import annotations

import base64
import copy
import json
import os
import random
import sys
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Optional

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "saves"
ANY = ("*",)  # any clean outcome: loads, or refused with a known message

# ---------------------------------------------------------------- the variants


@dataclass
class Variant:
    name: str
    cls: str  # class of damage (issue 15's headings, plus "known" for the ones handled before)
    expect: Optional[tuple[str, ...]]  # game: a fragment of the message, or None (must load)
    cli: Any = "same"  # `gonzaga replay`: as ``expect``, "same" for the same, None (must replay)
    data: Optional[bytes] = None  # the file's bytes, for a regular file
    special: Optional[str] = None  # fifo, dir, dangling, loop, devzero, devnull, link_good, sparse
    names: Optional[list[str]] = None  # for a file that must load: the seat names it must show
    over: bool = False  # its game is over (the title then offers no "Continue")

    @property
    def cli_expect(self):
        return self.expect if self.cli == "same" else self.cli

    def to_json(self) -> dict:
        d = asdict(self)
        d["data"] = base64.b64encode(self.data).decode() if self.data is not None else None
        return d

    @classmethod
    def from_json(cls, d: dict) -> "Variant":
        d = dict(d)
        d["data"] = base64.b64decode(d["data"]) if d["data"] is not None else None
        for k in ("expect", "cli"):
            if isinstance(d[k], list):
                d[k] = tuple(d[k])
        return cls(**d)


def materialize(v: Variant, dest: Path, good: Optional[Path] = None) -> Path:
    """Create the variant's entry at ``dest`` (a file, or a FIFO, a link, a folder...)."""
    dest.parent.mkdir(parents=True, exist_ok=True)
    if v.special is None:
        dest.write_bytes(v.data)
    elif v.special == "fifo":
        os.mkfifo(dest)
    elif v.special == "dir":
        dest.mkdir()
        (dest / "inside.json").write_text("{}")
    elif v.special == "dangling":
        os.symlink(dest.parent / "no-such-file.json", dest)
    elif v.special == "loop":
        os.symlink(dest.name, dest)  # a link to itself
    elif v.special == "devzero":
        os.symlink("/dev/zero", dest)
    elif v.special == "devnull":
        os.symlink("/dev/null", dest)
    elif v.special == "link_good":
        target = dest.parent / f".target-{dest.name}"
        target.write_bytes(v.data)
        os.symlink(target.name, dest)
    elif v.special == "sparse":
        with open(dest, "wb") as f:
            f.truncate(3 << 30)  # 3 GB that take no room on disk
    else:
        raise ValueError(v.special)
    return dest


def kept(dest: Path) -> bool:
    """The entry is still there, or moved aside as ``<name>.damaged-*`` beside it."""
    if os.path.lexists(dest):
        return True
    return any(p.name.startswith(dest.name + ".damaged-") for p in dest.parent.iterdir())


def _dump(d: Any) -> bytes:
    return json.dumps(d, indent=1, ensure_ascii=False).encode("utf-8")


def _raw(d: dict, path: tuple, literal: str) -> bytes:
    """``d`` as JSON with the value at ``path`` replaced by a literal (Infinity, 1e999, ...)."""
    d = copy.deepcopy(d)
    marker = "@@MARK@@"
    _set(d, path, marker)
    return json.dumps(d).replace(f'"{marker}"', literal).encode("utf-8")


def _set(d, path, value):
    for k in path[:-1]:
        d = d[k]
    d[path[-1]] = value


def _edit(d: dict, path: tuple, value) -> bytes:
    d = copy.deepcopy(d)
    _set(d, path, value)
    return _dump(d)


def fresh_bases(tmp: Path) -> list[tuple[str, bytes]]:
    """Saves made now, on this board: a 2-seat hot-seat game and a 4-seat game with AI seats."""
    from gonzaga.table import persistence
    from gonzaga.rules import legal_actions
    from gonzaga.table.session import InlineWorker, SeatSpec, Session

    out = []
    s = Session.new([SeatSpec("Ann", "human", colour="red"), SeatSpec("Bob", "human", colour="blue")], 5)
    for _ in range(6):
        for seat in s.state.to_act()[:1]:
            s.submit(legal_actions(s.state, seat)[0])
    out.append(("fresh-hotseat", persistence.save_game(s, tmp / "fresh-hotseat.json", "Hot seat").read_bytes()))
    seats = [SeatSpec("Isa", "human", colour="green"), SeatSpec("Red AI", "ai", "greedy", "red"),
             SeatSpec("Yellow AI", "ai", "random", "yellow"), SeatSpec("Blue AI", "ai", "greedy", "blue")]
    s = Session.new(seats, 11, worker=InlineWorker(), ai_delay=0.0)
    for _ in range(40):
        human = s.humans_to_plan() or ([s.human_to_place()] if s.human_to_place() is not None else [])
        for seat in human:
            s.submit(legal_actions(s.state, seat)[0])
        s.tick()
        if s.state.round >= 3:
            break
    out.append(("fresh-four", persistence.save_game(s, tmp / "fresh-four.json", "Four seats").read_bytes()))
    return out


def example_bases() -> list[tuple[str, bytes]]:
    """The example saves in saves/ that load on this board (an edition change may retire some)."""
    from gonzaga.table import persistence
    out = []
    for p in sorted(EXAMPLES.glob("*.json")):
        try:
            persistence.read_save(p)
        except persistence.SaveError:
            continue
        out.append((p.stem, p.read_bytes()))
    return out


def variants(bases: list[tuple[str, bytes]]) -> list[Variant]:
    """The matrix. ``bases``: (name, bytes) of saves that load; the first two are used most."""
    assert bases, "no base save loads"
    rng = random.Random(15)
    V: list[Variant] = []
    add = V.append
    n0, b0 = bases[0]  # targeted edits: the first base (a game in progress on this board)
    d0 = json.loads(b0)
    d1 = next(json.loads(b) for _, b in bases if any(s["kind"] == "ai" for s in json.loads(b)["seats"]))
    names0 = [s["name"] for s in d0["seats"]]
    rec = ("record",)

    # -- known classes: truncation, bit flips, garbage, encodings
    bad_json = ("damaged or truncated",)
    for name, b in bases:
        for frac in (0.1, 0.5, 0.97):
            add(Variant(f"truncated-{int(frac * 100)}-{name}", "known", bad_json, data=b[: int(len(b) * frac)]))
    add(Variant("empty-file", "known", bad_json, data=b""))
    add(Variant("garbage", "known", bad_json, data=bytes(rng.randrange(256) for _ in range(3000))))
    add(Variant("nul-bytes", "known", bad_json, data=b0[:200] + b"\x00" * 64 + b0[200:]))
    add(Variant("utf16", "known", bad_json, data=b0.decode().encode("utf-16")))
    add(Variant("latin1-byte", "known", bad_json, data=b0.replace(b'"format"', b'"f\xe9rmat"', 1)))
    add(Variant("bom", "known", None, data=b"\xef\xbb\xbf" + b0, names=names0))
    for i in range(10):
        b = bytearray(b0)
        for _ in range(1 + i % 3):
            pos = rng.randrange(len(b))
            b[pos] ^= 1 << rng.randrange(8)
        add(Variant(f"bitflip-{i}", "known", ANY, cli=ANY, data=bytes(b)))

    # -- known classes: versions, formats, actions, summary, board
    add(Variant("save-version-99", "known", ("newer version",), cli=None, data=_edit(d0, ("save_version",), 99)))
    add(Variant("record-version-99", "known", ("newer",), data=_edit(d0, rec + ("version",), 99)))
    add(Variant("not-a-save-format", "known", ("not a Gonzaga",), cli=None, data=_edit(d0, ("format",), "other")))
    add(Variant("top-level-array", "known", ("not a Gonzaga",), data=b"[1, 2, 3]"))
    add(Variant("top-level-string", "known", ("not a Gonzaga",), data=b'"gonzaga-save"'))
    add(Variant("record-file-not-save", "known", ("not a Gonzaga save",), cli=None, data=_dump(d0["record"])))
    acts = d0["record"]["actions"]
    add(Variant("illegal-action-appended", "known", ("illegal",),
                data=_edit(d0, rec + ("actions",), acts + ["donate 0", "donate 0"])))
    add(Variant("actions-reversed", "known", ("illegal",), data=_edit(d0, rec + ("actions",), acts[::-1])))
    add(Variant("action-unreadable", "known", ("cannot read",),
                data=_edit(d0, rec + ("actions",), acts[:2] + ["place 0 fX 1,1 r9"] + acts[2:])))
    add(Variant("action-removed", "known", ("illegal", "summary does not match", "does not reproduce"),
                data=_edit(d0, rec + ("actions",), acts[:1] + acts[2:])))
    add(Variant("summary-digest", "known", ("summary does not match", "does not reproduce"),
                data=_edit(d0, rec + ("summary", "digest"), "0" * 16)))
    add(Variant("another-board", "known", ("another",),
                data=_edit(d0, rec + ("map",), {"name": "Atlantis", "version": 1, "digest": "0" * 12})))
    add(Variant("seat-kind-wizard", "known", ("seats.0.kind",), cli=None, data=_edit(d0, ("seats", 0, "kind"), "wizard")))
    add(Variant("colours-disagree", "known", ("colour",), cli=None,
                data=_edit(d0, ("seats",), [dict(s, colour=c) for s, c in
                                            zip(d0["seats"], ["yellow", "green", "red", "blue"])])))
    add(Variant("config-missing", "known", ("config",), data=_edit(d0, rec, {k: v for k, v in d0["record"].items()
                                                                             if k != "config"})))
    add(Variant("duplicate-key", "known", None, data=b0.replace(b'"seed":', b'"seed": 1, "seed":', 1), names=names0))

    # -- values that JSON allows and the code does not expect
    seed = rec + ("seed",)
    seats = rec + ("config", "seats")
    for lit in ("Infinity", "-Infinity", "NaN", "1e999"):
        add(Variant(f"seed-{lit}", "values", ("not a usable number",), data=_raw(d0, seed, lit)))
        add(Variant(f"seats-{lit}", "values", ("not a usable number",), data=_raw(d0, seats, lit)))
    add(Variant("seed-5000-digits", "values", ("not a usable number",), data=_raw(d0, seed, "9" * 5000)))
    add(Variant("seats-5000-digits", "values", ("not a usable number",), data=_raw(d0, seats, "7" * 5000)))
    add(Variant("seed-2**64", "values", ("seed",), data=_raw(d0, seed, str(2 ** 64))))
    add(Variant("seed-negative", "values", ("seed",), data=_raw(d0, seed, "-1")))
    add(Variant("seed-float", "values", ("seed",), data=_raw(d0, seed, "1.5")))
    add(Variant("seed-string", "values", ("seed",), data=_edit(d0, seed, "12")))
    add(Variant("seats-true", "values", ("seats",), data=_raw(d0, seats, "true")))
    add(Variant("seats-9", "values", ("seats",), data=_raw(d0, seats, "9")))
    add(Variant("seats-2.0", "values", ("seats",), data=_raw(d0, seats, "2.0")))
    add(Variant("save-version-true", "values", ("save_version",), cli=None, data=_raw(d0, ("save_version",), "true")))
    add(Variant("save-version-1e999", "values", ("not a usable number",), data=_raw(d0, ("save_version",), "1e999")))
    deep = "[" * 100_000 + "]" * 100_000
    add(Variant("deep-nesting-top", "values", ("nested",), data=deep.encode()))
    add(Variant("deep-nesting-seed", "values", ("nested",), data=_raw(d0, seed, deep)))
    add(Variant("nesting-500-action", "values", ("actions",), data=_raw(d0, rec + ("actions",), "[" * 500 + "]" * 500)))
    add(Variant("nesting-500-map", "values", ("map",), data=_raw(d0, rec + ("map",), "[" * 500 + "]" * 500)))
    add(Variant("actions-50000", "values", ("actions",), data=_edit(d0, rec + ("actions",), ["donate 0"] * 50_000)))
    add(Variant("actions-not-list", "values", ("actions",), data=_edit(d0, rec + ("actions",), {"a": 1})))
    add(Variant("seats-list-1000", "values", ("seats",), cli=None, data=_edit(d0, ("seats",), d0["seats"] * 500)))
    add(Variant("summary-winner-99", "values", ("winners",), data=_edit(d0, rec + ("summary", "winners"), [99])))
    add(Variant("action-long-number", "values", ("too long",),
                data=_edit(d0, rec + ("actions",), acts + ["donate 1234567890123"])))

    # -- text that cannot be drawn
    add(Variant("name-nul", "text", None, data=_edit(d0, ("seats", 0, "name"), "A\x00nn"),
                names=["Ann"] + names0[1:]))
    add(Variant("name-surrogate", "text", None, data=_dump_surrogate(d0), names=["Ann"] + names0[1:]))
    add(Variant("name-bidi-zero-width", "text", None, data=_edit(d0, ("seats", 0, "name"), "\u202eA\u200bnn\u2066"),
                names=["Ann"] + names0[1:]))
    add(Variant("name-escape-codes", "text", None, data=_edit(d0, ("seats", 0, "name"), "\x1b[31mAnn\x1b[0m"),
                names=["[31mAnn[0m"] + names0[1:]))
    add(Variant("name-only-controls", "text", ("seats.0.name",), cli=None, data=_edit(d0, ("seats", 0, "name"), "\n\t\x00")))
    add(Variant("name-500k", "text", ("seats.0.name",), cli=None, data=_edit(d0, ("seats", 0, "name"), "N" * 500_000)))
    add(Variant("save-name-10k", "text", ("field 'name'",), cli=None, data=_edit(d0, ("name",), "S" * 10_000)))
    add(Variant("saved-at-controls", "text", None, cli=None, data=_edit(d0, ("saved_at",), "2026\x00-01\x07"),
                names=names0))
    add(Variant("action-1mb", "text", ("actions",), data=_edit(d0, rec + ("actions",), acts[:1] + ["x" * 1_000_000])))
    add(Variant("action-10mb", "text", ("too large",), data=_edit(d0, rec + ("actions",), acts[:1] + ["x" * 10_000_000])))
    add(Variant("action-nul", "text", ("actions",), data=_edit(d0, rec + ("actions",), acts + ["donate\x000"])))
    add(Variant("action-non-ascii", "text", ("actions",), data=_edit(d0, rec + ("actions",), acts + ["dönate 0"])))

    # -- content checked too late
    cfg = rec + ("config",)
    add(Variant("scenario-atlantis", "content", ("scenario",), data=_edit(d0, cfg + ("scenario",), "Atlantis")))
    add(Variant("scenario-list", "content", ("scenario",), data=_edit(d0, cfg + ("scenario",), ["Dante"])))
    other = "Dante" if d0["record"]["config"]["seats"] != 4 else "Cervantes"
    add(Variant("scenario-other-seat-count", "content", ("scenario",), data=_edit(d0, cfg + ("scenario",), other)))
    add(Variant("last-turn-sometimes", "content", ("last_turn",), data=_edit(d0, cfg + ("last_turn",), "sometimes")))
    add(Variant("numbering-v3", "content", ("numbering",), data=_edit(d0, cfg + ("numbering",), "v3")))
    add(Variant("colours-twice", "content", ("colour",),
                data=_edit(d0, cfg + ("colours",), [d0["record"]["config"]["colours"][0]] * len(d0["seats"]))))
    ai = next((i for i, s in enumerate(d1["seats"]) if s["kind"] == "ai"), None)
    if ai is not None:
        add(Variant("bot-wizard", "content", ("AI level",), cli=None, data=_edit(d1, ("seats", ai, "bot"), "wizard")))
    add(Variant("setup-unknown-scenario", "content", ("illegal", "cannot read", "scenario"),
                data=_edit(d0, rec + ("actions",), [acts[0].replace(acts[0].split()[1], "Atlantis", 1)] + acts[1:])))
    add(Variant("extra-field", "content", ("Extra inputs",), cli=None, data=_edit(d0, ("cheat",), True)))

    # -- files that are not files
    add(Variant("fifo", "not-a-file", ("not a regular file",), special="fifo"))
    add(Variant("folder", "not-a-file", ("not a regular file",), special="dir"))
    add(Variant("dangling-symlink", "not-a-file", ("not a regular file",), special="dangling"))
    add(Variant("symlink-loop", "not-a-file", ("not a regular file",), special="loop"))
    add(Variant("symlink-dev-zero", "not-a-file", ("not a regular file",), special="devzero"))
    add(Variant("symlink-dev-null", "not-a-file", ("not a regular file",), special="devnull"))
    add(Variant("sparse-3gb", "not-a-file", ("too large",), special="sparse"))
    add(Variant("symlink-to-good-save", "not-a-file", None, data=b0, special="link_good", names=names0))

    # -- and the bases themselves load
    for name, b in bases:
        d = json.loads(b)
        add(Variant(f"intact-{name}", "intact", None, data=b, names=[s["name"] for s in d["seats"]],
                    over=d["record"].get("summary", {}).get("phase") == "over"))
    return V


def _dump_surrogate(d: dict) -> bytes:
    """A seat name with a lone surrogate escape (valid JSON, not encodable text)."""
    d = copy.deepcopy(d)
    d["seats"][0]["name"] = "A@@S@@nn"
    return json.dumps(d).replace("@@S@@", "\\ud800").encode()


# ---------------------------------------------------------------- the driver (runs in a subprocess)

class Hang(Exception):
    pass


def _on_alarm(signum, frame):
    raise Hang()


def check_one(v: Variant, work: Path) -> dict:
    """Load one variant through ``gonzaga replay`` and through the game; what each said and did."""
    import io
    import shutil
    from contextlib import redirect_stderr, redirect_stdout

    out: dict = {"name": v.name, "crashes": []}
    home = work / "home"
    os.environ["GONZAGA_HOME"] = str(home)

    # (0) gonzaga replay FILE: the tool command's own entry (cli.run), its exit status and output
    from gonzaga.cli import run as cli_run
    target = materialize(v, work / "cli" / f"{v.name}.json")
    o, e = io.StringIO(), io.StringIO()
    with redirect_stdout(o), redirect_stderr(e):
        out["cli_code"] = cli_run(["replay", str(target)])
    out["cli_stdout"], out["cli_stderr"], out["cli_kept"] = o.getvalue()[:2000], e.getvalue(), kept(target)

    # (1) gonzaga --load FILE --exit-after-first-frame: the program's own entry (``main``)
    from gonzaga import app as app_mod
    from gonzaga.__main__ import main
    crashes = out["crashes"]
    orig_crash = app_mod.App._crash

    def record_crash(self, exc):
        crashes.append(f"{type(exc).__name__}: {exc}"[:300])
        return orig_crash(self, exc)
    app_mod.App._crash = record_crash
    try:
        target = materialize(v, work / "elsewhere" / f"{v.name}.json")
        o, e = io.StringIO(), io.StringIO()
        with redirect_stdout(o), redirect_stderr(e):
            out["load_code"] = main(["--load", str(target), "--exit-after-first-frame", "--size", "1280x800"])
        out["load_stderr"] = e.getvalue()
        out["load_kept"] = kept(target)

        # (2) the same entry as the autosave: the title screen checks it for "Continue"
        import pygame
        from gonzaga.table import persistence
        from gonzaga.app import App
        from gonzaga.render import theme
        from gonzaga.scenes.dialogs import MessageScene
        from gonzaga.scenes.title import TitleScene
        from gonzaga.ui import widgets
        theme._font_cache.clear()  # main() ended with pygame.quit(): its fonts died with it
        widgets._cache.clear()
        auto = persistence.autosaves_dir() / "20260101-120000-abcdef.json"  # a game in progress
        for p in auto.parent.iterdir():  # what step (1) may have left (--load goes on in a game of its own)
            shutil.rmtree(p) if p.is_dir() and not p.is_symlink() else p.unlink()
        materialize(v, auto)
        app = App(persistence.Settings(speed="instant"), size=(1280, 800))
        try:
            app.run_frames(2)  # the title checks the autosave in its second frame
            top = app.stack.top
            out["title_message"] = top.body if isinstance(top, MessageScene) else None
            if isinstance(top, MessageScene):
                top.close()
                app.run_frames(3)
            out["message_again"] = isinstance(app.stack.top, MessageScene)  # never a loop
            title = app.stack.find(TitleScene)
            out["continue_offered"] = title is not None and bool(title.games)
            out["auto_kept"] = kept(auto)
            if out["continue_offered"]:
                title.continue_game()
                app.run_frames(5)
                out["after_continue"] = type(app.stack.top).__name__
                out["session_names"] = [s.name for s in app.session.seats] if app.session else None
        finally:
            app.close()
            pygame.quit()
            theme._font_cache.clear()
            widgets._cache.clear()
    finally:
        app_mod.App._crash = orig_crash
    return out


def batch(spec: dict) -> None:
    """Check each variant of ``spec``; one ``RESULT`` line each (a hang is reported, then the next)."""
    import signal
    import traceback
    signal.signal(signal.SIGALRM, _on_alarm)
    work = Path(spec["work"])
    for d in spec["variants"]:
        v = Variant.from_json(d)
        print(f"START {v.name}", flush=True)
        signal.alarm(spec.get("per_variant_timeout", 30))
        try:
            res = check_one(v, work / v.name)
        except Hang:
            res = {"name": v.name, "hang": True}
        except BaseException as exc:  # reported as a failure of this variant, never swallowed
            res = {"name": v.name, "escaped": "".join(traceback.format_exception(exc))[-1500:]}
        finally:
            signal.alarm(0)
        print("RESULT " + json.dumps(res), flush=True)


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "batch":
        batch(json.loads(Path(sys.argv[2]).read_text()))
        sys.exit(0)
    print(__doc__)
    sys.exit(2)
