"""The program's command line: --demo, --exit-after-first-frame, --version, bad arguments."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def run(args, tmp_path, timeout=120):
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy", GONZAGA_HOME=str(tmp_path / "home"))
    return subprocess.run([sys.executable, "-m", "gonzaga", *args], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=timeout)


def test_demo_plays_a_whole_game_and_prints_scores(tmp_path):
    shot = tmp_path / "end.png"
    p = run(["--demo", "--seats", "3", "--seed", "7", "--exit-after-game", "--screenshot", str(shot)], tmp_path)
    assert p.returncode == 0, p.stderr
    out = p.stdout
    assert "total" in out and ("winner: " in out or "winners: " in out)
    assert len([ln for ln in out.splitlines() if ln.split() and ln.split()[0] in ("red", "yellow", "green")]) == 3
    assert shot.exists() and shot.stat().st_size > 10_000
    saves = tmp_path / "home" / "data" / "saves"
    assert not (saves / "autosave.json").exists() and not list(saves.glob("in-progress/*.json")), \
        "a demo never autosaves"


def test_first_frame(tmp_path):
    p = run(["--exit-after-first-frame"], tmp_path)
    assert p.returncode == 0, p.stderr
    ms = int(p.stdout.strip().split("first_frame_ms=")[1].split()[0])
    assert 0 < ms < 10_000


def test_version(tmp_path):
    p = run(["--version"], tmp_path)
    assert p.returncode == 0 and p.stdout.startswith("gonzaga ")


def test_bad_arguments_one_line_exit_2(tmp_path):
    for args in (["--seats", "7", "--demo"], ["--bogus"], ["--size", "huge"], ["--demo", "--bots", "wizard,greedy", "--seats", "2"], ["--demo", "--bots", "hard"]):
        p = run(args, tmp_path)
        assert p.returncode == 2, args
        lines = [ln for ln in p.stderr.splitlines() if ln.strip()]
        assert len(lines) == 1 and lines[0].startswith("gonzaga: "), p.stderr


def test_missing_game_data_gives_one_line_and_exit_2(tmp_path, monkeypatch, capsys):
    """A missing or broken assets/map file: a clear message naming the file, never a traceback."""
    import gonzaga.app as app
    import gonzaga.rules as rules
    from gonzaga.rules import ContentError

    def broken(*a, **k):
        raise ContentError("/x/assets/map/board.json: missing file (the game's data is incomplete; reinstall)")

    monkeypatch.setenv("GONZAGA_HOME", str(tmp_path / "home"))
    monkeypatch.setattr(rules, "load_content", broken)
    monkeypatch.setattr(app, "load_content", broken)  # app.py holds its own name for it
    assert app.main(["--exit-after-first-frame"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "board.json" in err and "Traceback" not in err


def test_missing_font_file_falls_back_to_the_default_font(monkeypatch, tmp_path):
    import pygame
    from gonzaga.render import theme
    pygame.font.init()
    monkeypatch.setattr(theme, "font_path", lambda role: tmp_path / "nope.ttf")
    monkeypatch.setattr(theme, "_font_cache", {})
    f = theme.font("title", 31)
    assert f.size("Gonzaga")[0] > 0


def test_first_frame_into_a_closed_pipe_is_quiet(tmp_path):
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy", GONZAGA_HOME=str(tmp_path / "home"))
    p = subprocess.Popen([sys.executable, "-m", "gonzaga", "--exit-after-first-frame"], cwd=ROOT, env=env,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    p.stdout.close()
    err = p.stderr.read().decode()
    assert p.wait(timeout=120) == 0 and "Traceback" not in err


def test_load_of_a_bad_file_says_why_and_keeps_it(tmp_path):
    bad = tmp_path / "game.json"
    bad.write_text('{"format": "gonzaga-save", "seats": [')
    p = run(["--load", str(bad), "--exit-after-first-frame"], tmp_path)
    assert p.returncode == 2 and "Traceback" not in p.stderr
    lines = [line for line in p.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and "damaged or truncated" in lines[0] and "kept as game.json.damaged-" in lines[0]
    assert len(list(tmp_path.glob("game.json.damaged-*"))) == 1
    p = run(["--load", str(tmp_path / "gone.json"), "--exit-after-game"], tmp_path)  # never waits for a game
    assert p.returncode == 2 and "cannot be found" in p.stderr
