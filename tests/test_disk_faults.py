"""Issue 15: a full disk and a read-only data folder. The player is told (once, in plain words),
play goes on, nothing is silently lost, nothing is printed to the terminal.

Each scenario runs twice when the machine allows it:

* on a real file system: a 256 KB tmpfs in a private mount namespace (``unshare -m``, or
  ``unshare -rm`` without root), filled up for the full disk and remounted read-only for the
  read-only folder; the scenario runs in a subprocess inside the namespace (this file, run as
  a script) and prints its observations;
* in-process with patched writes (``os.write`` raising ENOSPC; ``tempfile.mkstemp`` raising
  EROFS - a chmod would not stop root), which runs everywhere.
"""
from __future__ import annotations

import errno
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


# ---------------------------------------------------------------- the scenarios (also run in a namespace)

def _hotseat(app):
    from gonzaga.table.session import SeatSpec
    app.start_session([SeatSpec("Ann", "human", colour="red"), SeatSpec("Bob", "human", colour="blue")], 5)
    app.run_frames(2)
    return app.session


def _act(app, n: int) -> int:
    """``n`` legal actions by the human seats, each followed by a frame; how many were applied."""
    from gonzaga.rules import legal_actions
    s = app.session
    before = len(s.record.actions)
    for _ in range(n):
        seat = s.state.to_act()[0]
        assert s.submit(legal_actions(s.state, seat)[0]) is None
        app.run_frames(1)
    return len(s.record.actions) - before


def _named_save_via_menu(app) -> list[str]:
    """The game menu's "Save game", OK on the proposed name; the toasts it leaves."""
    from gonzaga.scenes.game import GameScene
    from gonzaga.scenes.overlays import MenuScene
    game = app.stack.find(GameScene)
    menu = MenuScene(app, game)
    app.stack.push(menu)
    menu.save()
    app.stack.top._ok()  # the prompt, with its default name
    app.run_frames(1)
    return [t for t, _ in app.toasts]


def _saved_actions() -> int:
    from gonzaga.table import persistence as P
    (auto,) = P.autosaves_dir().glob("*.json")  # the one game in progress
    return len(P.read_save(auto).record.actions)


def full_disk_scenario(fill, free) -> dict:
    """Start a game, fill the disk, play on, free it, play on. ``fill``/``free`` make it so."""
    import logging

    from gonzaga.table import persistence as P
    from gonzaga.app import App
    from gonzaga.scenes.game import GameScene
    P.setup_logging()
    out: dict = {}
    app = App(P.Settings(speed="instant"), size=(1280, 800))
    try:
        app.run_frames(2)
        s = _hotseat(app)
        _act(app, 1)
        out["saved_before"] = _saved_actions()
        fill()
        app.toasts.clear()
        out["applied_while_full"] = _act(app, 4)
        out["banner_full"] = app.banner_text()
        out["toasts_while_full"] = [t for t, _ in app.toasts]
        out["saved_while_full"] = _saved_actions()
        out["in_game"] = isinstance(app.stack.top, GameScene) or app.stack.find(GameScene) is not None
        app.screenshot_key()
        out["screenshot_toast"] = app.toasts[-1][0]
        out["screenshots"] = [p.stat().st_size for p in P.screenshots_dir().glob("*.png")]
        app.toasts.clear()
        out["named_save_toasts"] = _named_save_via_menu(app)
        logging.getLogger("gonzaga.test").error("a log line on a full disk %s", "x" * 2000)
        out["temp_files"] = [p.name for d in (P.saves_dir(), P.autosaves_dir()) for p in d.iterdir()
                             if p.name.endswith(".tmp")]
        free()
        app.toasts.clear()
        out["applied_after"] = _act(app, 1)
        out["banner_after"] = app.banner_text()
        out["toasts_after"] = [t for t, _ in app.toasts]
        out["saved_after"] = _saved_actions()
        out["actions"] = len(s.record.actions)
        _act(app, 1)
        out["toasts_later"] = [t for t, _ in app.toasts]
    finally:
        app.close()
    return out


def read_only_scenario(make_read_only) -> dict:
    """A good and a bad save in a data folder that then becomes read-only; start, look, play."""
    from gonzaga.table import persistence as P
    from gonzaga.app import App
    from gonzaga.scenes.dialogs import ErrorScene
    from gonzaga.scenes.game import GameScene
    from gonzaga.scenes.load_game import LoadScene
    from gonzaga.table.session import SeatSpec, Session
    out: dict = {}
    s = Session.new([SeatSpec("Ann", "human", colour="red"), SeatSpec("Bob", "human", colour="blue")], 5)
    P.save_game(s, P.saves_dir() / "good.json", "Good game")
    (P.saves_dir() / "broken.json").write_text('{"format": "gonzaga-save", ')
    make_read_only()
    P.setup_logging()
    settings = P.load_settings()
    app = App(settings, size=(1280, 800))
    try:
        app.run_frames(2)
        out["banner_start"] = app.banner_text()
        load = LoadScene(app)
        out["load_good"] = [i.name for i in load.saves]
        out["load_errors"] = load.errors
        out["broken_still_there"] = (P.saves_dir() / "broken.json").exists()
        _hotseat(app)
        out["game_started"] = app.stack.find(GameScene) is not None
        out["error_dialog"] = any(isinstance(sc, ErrorScene) for sc in app.stack.scenes)
        app.toasts.clear()
        out["applied"] = _act(app, 3)
        out["banner_in_game"] = app.banner_text()
        out["toasts"] = [t for t, _ in app.toasts]
        app.screenshot_key()
        out["screenshot_toast"] = app.toasts[-1][0]
        app.toggle_fullscreen()  # writes the settings: refused quietly
        app.toggle_fullscreen()
        app.run_frames(1)
        out["error_dialog_end"] = any(isinstance(sc, ErrorScene) for sc in app.stack.scenes)
    finally:
        app.close()
    return out


def _check_full_disk(out: dict) -> None:
    assert out["applied_while_full"] == 4, "play goes on"
    assert out["in_game"]
    assert "Autosave is not working" in out["banner_full"] and "disk is full" in out["banner_full"]
    assert out["toasts_while_full"] == [], "told once by the banner, not a toast per action"
    assert out["saved_while_full"] == out["saved_before"], "the last good autosave is kept, not damaged"
    assert "could not be saved" in out["screenshot_toast"] and "disk is full" in out["screenshot_toast"]
    assert 0 not in out["screenshots"], "never a 0-byte screenshot"
    assert any("Could not save" in t and "disk is full" in t for t in out["named_save_toasts"])
    assert not any("Errno" in t for t in out["named_save_toasts"]), "no raw exception text"
    assert out["temp_files"] == []
    assert out["applied_after"] == 1 and out["banner_after"] is None
    assert out["toasts_after"] == ["Autosave works again: the game is saved."], "said once"
    assert out["saved_after"] == out["actions"], "the autosave caught up"
    assert "Autosave works again: the game is saved." not in out["toasts_later"][1:]


def _check_read_only(out: dict) -> None:
    assert out["banner_start"] and "Saving is off because" in out["banner_start"] and "cannot be written" in out["banner_start"]
    assert out["load_good"] == ["Good game"], "the good save can still be opened"
    assert len(out["load_errors"]) == 1 and "could not be moved aside" in out["load_errors"][0]
    assert out["broken_still_there"]
    assert out["game_started"] and not out["error_dialog"], "a game starts without a save"
    assert out["applied"] == 3
    assert out["banner_in_game"] == out["banner_start"], "told once, the same words"
    assert out["toasts"] == []
    assert "could not be saved" in out["screenshot_toast"] and "cannot be written" in out["screenshot_toast"]
    assert not out["error_dialog_end"]


# ---------------------------------------------------------------- patched writes (everywhere)

@pytest.fixture
def home(tmp_path, monkeypatch):
    from gonzaga.words import i18n
    i18n.set_language("en")  # the messages checked are the English ones
    monkeypatch.setenv("GONZAGA_HOME", str(tmp_path / "home"))
    yield tmp_path / "home"
    import logging
    root = logging.getLogger()
    for h in list(root.handlers):
        if getattr(h, "_gonzaga", False):
            root.removeHandler(h)
            h.close()


def test_full_disk_patched(home, monkeypatch, capfd):
    real_write = os.write
    state = {"full": False}

    def write(fd, data):
        if state["full"] and fd > 2:
            raise OSError(errno.ENOSPC, "No space left on device")
        return real_write(fd, data)
    monkeypatch.setattr(os, "write", write)
    out = full_disk_scenario(lambda: state.update(full=True), lambda: state.update(full=False))
    _check_full_disk(out)
    err = capfd.readouterr().err
    assert "Traceback" not in err and "Logging error" not in err


def test_read_only_folder_patched(home, monkeypatch, capfd):
    import tempfile

    from gonzaga.table import persistence as P
    real = tempfile.mkstemp
    state = {"ro": False}

    def mkstemp(*a, **k):
        if state["ro"]:
            raise OSError(errno.EROFS, "Read-only file system")
        return real(*a, **k)
    monkeypatch.setattr(P.tempfile, "mkstemp", mkstemp)
    real_replace = os.replace

    def replace(a, b):  # moving a bad save aside is a rename in the read-only folder
        if state["ro"] and str(home) in str(a):
            raise OSError(errno.EROFS, "Read-only file system")
        return real_replace(a, b)
    monkeypatch.setattr(os, "replace", replace)
    out = read_only_scenario(lambda: state.update(ro=True))
    _check_read_only(out)
    err = capfd.readouterr().err
    assert "Traceback" not in err


def test_logging_failures_never_reach_the_terminal(home, capfd):
    import logging

    from gonzaga.table import persistence as P
    P.setup_logging()
    handler = next(h for h in logging.getLogger().handlers if getattr(h, "_gonzaga", False))

    class Full:
        def write(self, s):
            raise OSError(errno.ENOSPC, "No space left on device")

        def flush(self):
            raise OSError(errno.ENOSPC, "No space left on device")
    handler.stream = Full()
    logging.getLogger("gonzaga.test").exception("a failing write")
    err = capfd.readouterr().err
    assert err == ""
    assert handler.failures >= 1


def test_unwritable_home_starts_anyway(tmp_path):
    """GONZAGA_HOME is a file: no folder can be made under it, even by root. The game starts."""
    home = tmp_path / "not-a-folder"
    home.write_text("x")
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy", GONZAGA_HOME=str(home))
    p = subprocess.run([sys.executable, "-m", "gonzaga", "--exit-after-first-frame"], cwd=ROOT, env=env,
                       capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr
    assert p.stderr.strip() == "" and "first_frame_ms=" in p.stdout


def test_unwritable_home_in_game(tmp_path, monkeypatch):
    home = tmp_path / "not-a-folder"
    home.write_text("x")
    monkeypatch.setenv("GONZAGA_HOME", str(home))
    from gonzaga.table import persistence as P
    from gonzaga.app import App
    from gonzaga.scenes.game import GameScene
    app = App(P.load_settings(), size=(1280, 800))
    try:
        app.run_frames(2)
        assert "Saving is off" in app.banner_text()
        _hotseat(app)
        assert app.stack.find(GameScene) is not None and _act(app, 2) == 2
    finally:
        app.close()


def test_messages_exist_in_italian():
    from gonzaga.words import i18n
    try:
        i18n.set_language("it")
        assert i18n.t("save.failing", reason=i18n.t("save.reason_full")).startswith("Il salvataggio automatico")
        assert "disco è pieno" in i18n.t("save.screenshot_failed", reason=i18n.t("save.reason_full"))
    finally:
        i18n.set_language("en")


# ---------------------------------------------------------------- a real file system (where allowed)

def _namespace_prefix() -> list[str] | None:
    """The unshare command that gives a private mount namespace here, or None."""
    if sys.platform != "linux" or not shutil.which("unshare"):
        return None
    for prefix in (["unshare", "-m", "--propagation", "private"], ["unshare", "-rm", "--propagation", "private"]):
        try:
            p = subprocess.run([*prefix, "sh", "-c", "mount -t tmpfs -o size=64k tmpfs /mnt 2>/dev/null || "
                                "mount -t tmpfs -o size=64k tmpfs /tmp"], capture_output=True, timeout=20)
        except (OSError, subprocess.TimeoutExpired):
            continue
        if p.returncode == 0:
            return prefix
    return None


def _run_in_namespace(scenario: str, tmp_path: Path) -> dict:
    prefix = _namespace_prefix()
    if prefix is None:
        pytest.skip("no private mount namespace here (unshare/mount refused); the patched test covers it")
    home = tmp_path / "home"
    home.mkdir()
    script = ('mount -t tmpfs -o size=256k,mode=0755 tmpfs "$1" && cd "$2" && '
              'exec "$3" tests/test_disk_faults.py "$4" "$1"')
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy", GONZAGA_HOME=str(home),
               PYTHONPATH=str(ROOT))
    p = subprocess.run([*prefix, "sh", "-c", script, "sh", str(home), str(ROOT), sys.executable, scenario],
                       env=env, capture_output=True, text=True, timeout=180)
    line = next((x for x in p.stdout.splitlines() if x.startswith("RESULT ")), None)
    assert p.returncode == 0 and line, f"exit {p.returncode}\n{p.stdout[-2000:]}\n{p.stderr[-2000:]}"
    assert "Traceback" not in p.stderr and "Logging error" not in p.stderr, p.stderr[-2000:]
    return json.loads(line[len("RESULT "):])


def test_full_disk_on_a_real_tmpfs(tmp_path):
    _check_full_disk(_run_in_namespace("full", tmp_path))


def test_read_only_folder_on_a_real_tmpfs(tmp_path):
    out = _run_in_namespace("read-only", tmp_path)
    _check_read_only(out)
    assert out["log_absent"], "the log could not be created in a read-only folder, and nothing said so on stderr"


def _main(scenario: str, home: str) -> dict:
    os.environ["GONZAGA_HOME"] = home
    if scenario == "full":
        filler = Path(home) / "filler"

        def fill():
            with open(filler, "wb", buffering=0) as f:
                for size in (1 << 16, 1 << 12, 1):
                    try:
                        while True:
                            f.write(b"\0" * size)
                    except OSError as e:
                        assert e.errno == errno.ENOSPC
        return full_disk_scenario(fill, lambda: filler.unlink())
    if scenario == "read-only":
        def remount():
            subprocess.run(["mount", "-o", "remount,ro", home], check=True)
        out = read_only_scenario(remount)
        from gonzaga.table import persistence as P
        out["log_absent"] = not P.log_path().exists()
        return out
    raise SystemExit(f"unknown scenario {scenario}")


if __name__ == "__main__":
    result = _main(sys.argv[1], sys.argv[2])
    print("RESULT " + json.dumps(result), flush=True)
