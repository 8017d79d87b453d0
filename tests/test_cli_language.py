"""Issue 49: what the program prints for players speaks their language (``--lang``, else the
settings' language): no display, an unexpected error, a save that cannot be opened. The
``--exit-after-game`` score table and ``first_frame_ms`` stay English: scripts read them
(tools/release_check.py, tests/test_package.py)."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import gonzaga.app as app
from gonzaga.table import persistence
from gonzaga.words import i18n

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("GONZAGA_HOME", str(tmp_path / "home"))
    yield tmp_path / "home"
    i18n.set_language("en")


def no_display(*a, **k):
    raise app.NoDisplay("no screen")


def broken(*a, **k):
    raise RuntimeError("a fault")


@pytest.fixture
def no_quit(monkeypatch):
    """main quits pygame after NoDisplay: not in this process, where the other tests draw."""
    monkeypatch.setattr(app.pygame, "quit", lambda: None)


def test_no_display_in_german(home, monkeypatch, capsys, no_quit):
    monkeypatch.setattr(app, "App", no_display)
    assert app.main(["--lang", "de"]) == 2
    assert capsys.readouterr().err == "gonzaga: Gonzaga braucht einen Bildschirm: no screen\n"


def test_no_display_in_the_settings_language(home, monkeypatch, capsys, no_quit):
    """Without ``--lang``: the language the player chose in the settings."""
    persistence.settings_path().parent.mkdir(parents=True, exist_ok=True)
    persistence.settings_path().write_text(json.dumps({"language": "pl"}), encoding="utf-8")
    monkeypatch.setattr(app, "App", no_display)
    assert app.main([]) == 2
    assert capsys.readouterr().err == "gonzaga: Gonzaga potrzebuje ekranu: no screen\n"


@pytest.mark.parametrize("lang, words", [("fr", "une erreur inattendue a arrêté le jeu"),
                                         ("es", "un error inesperado ha detenido el juego"),
                                         ("it", "un errore imprevisto ha fermato il gioco")])
def test_an_unexpected_error_in_the_players_language(home, monkeypatch, capsys, lang, words):
    monkeypatch.setattr(app, "App", broken)
    app.main(["--lang", lang])
    err = capsys.readouterr().err
    assert err.startswith(f"gonzaga: {words}") and "Traceback" not in err


def test_a_save_that_cannot_be_found_in_german(tmp_path):
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy", GONZAGA_HOME=str(tmp_path / "home"))
    p = subprocess.run([sys.executable, "-m", "gonzaga", "--lang", "de", "--load", str(tmp_path / "gone.json"),
                        "--exit-after-game"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert p.returncode == 2 and "Dieser Spielstand ist nicht zu finden" in p.stderr
