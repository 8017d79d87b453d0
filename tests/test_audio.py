"""Sound (issue 13): the effects and the music load and play with the dummy audio driver; a mixer
that fails, or reports no format, leaves the game silent with exactly one log line; the sound
files are small, original and the music loops without a seam."""
from __future__ import annotations

import array
import logging
import re
import time
import wave
from pathlib import Path

import pygame
import pytest

from gonzaga.ui import audio
from gonzaga.table import persistence
from gonzaga.ui.audio import EFFECTS, Audio

ROOT = Path(__file__).resolve().parent.parent
SOUNDS = ROOT / "assets" / "sounds"


def audio_lines(caplog) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.name == "gonzaga.ui.audio" and r.levelno >= logging.WARNING]


@pytest.fixture
def fresh_mixer():
    yield
    if pygame.mixer.get_init():
        pygame.mixer.quit()


def test_effects_and_music_play_with_the_dummy_driver(fresh_mixer):
    a = Audio(persistence.Settings())
    assert a.start(), a.reason
    assert a.state == "on"
    assert set(a.sounds) == set(EFFECTS) | {"music"}
    for name in EFFECTS:
        assert a.play(name), name
    assert a._music_channel.get_busy()  # the music loops on its reserved channel
    a.close()
    assert pygame.mixer.get_init() is None


def test_volumes_mute_and_music_follow_the_settings(fresh_mixer):
    s = persistence.Settings(master_volume=0.5, effects_volume=0.5, music_volume=0.4)
    a = Audio(s)
    assert a.effects_gain() == pytest.approx(0.25)
    assert a.music_gain() == pytest.approx(0.2)
    a.start()
    s.mute = True
    a.update()
    assert a.effects_gain() == 0 and a.music_gain() == 0
    assert not a.play("fief")  # muted: nothing is heard (and nothing breaks)
    assert a.history[-1] == ("fief", False)
    assert not a._music_channel.get_busy()
    s.mute = False
    s.music = False
    a.update()
    assert not a._music_channel.get_busy()
    assert a.play("fief")
    a.close()


def test_a_mixer_that_raises_leaves_the_game_silent_with_one_log_line(monkeypatch, caplog, fresh_mixer):
    def broken(*args, **kw):
        raise pygame.error("No available audio device")

    monkeypatch.setattr(pygame.mixer, "init", broken)
    caplog.set_level(logging.INFO)
    a = Audio(persistence.Settings())
    for _ in range(5):
        a.update()
    assert a.state == "silent"
    for name in EFFECTS + ("no-such-sound",):
        assert a.play(name) is False
    a.close()
    lines = audio_lines(caplog)
    assert len(lines) == 1 and "silent" in lines[0] and "No available audio device" in lines[0], lines


def test_a_mixer_with_no_format_is_silent_too(monkeypatch, caplog, fresh_mixer):
    monkeypatch.setattr(pygame.mixer, "init", lambda *a, **k: None)
    monkeypatch.setattr(pygame.mixer, "get_init", lambda: None)
    caplog.set_level(logging.INFO)
    a = Audio(persistence.Settings())
    assert not a.start()
    assert not a.play("card")
    assert len(audio_lines(caplog)) == 1


def test_the_game_runs_silent_when_the_mixer_fails(monkeypatch, caplog, tmp_path):
    """The whole game, not only the sound manager: frames go on, a game is played, one log line."""
    monkeypatch.setenv("GONZAGA_HOME", str(tmp_path / "home"))

    def broken(*args, **kw):
        raise pygame.error("ALSA: no such device")

    monkeypatch.setattr(pygame.mixer, "init", broken)
    caplog.set_level(logging.INFO)
    from gonzaga.app import App
    from gonzaga.table.session import SeatSpec
    app = App(persistence.Settings(speed="instant"), size=(1280, 720))
    app.start_session([SeatSpec("Ann", "ai", "random", "red"), SeatSpec("Bob", "ai", "random", "blue")], 3)
    # the AI seats decide in a thread: frames run while they think. Bounded by the clock, not
    # by a count of frames: on a loaded machine 20,000 frames once ran out before round 2
    deadline = time.monotonic() + 120
    while app.session.state.round < 2 and time.monotonic() < deadline:
        app.step(1 / 60)
    assert app.session.state.round >= 2  # the game went on, silent
    assert app.audio.state == "silent"
    assert len(audio_lines(caplog)) == 1
    app.close()


def test_the_sound_files_are_small_mono_and_original():
    total = 0
    for name in EFFECTS + ("music",):
        p = SOUNDS / f"{name}.wav"
        with wave.open(str(p)) as w:
            assert w.getnchannels() == 1 and w.getsampwidth() == 2
            assert w.getframerate() in (11025, 22050)
        total += p.stat().st_size
    assert total < 700 * 1024, total
    licence = (SOUNDS / "LICENSE.md").read_text(encoding="utf-8")
    assert "original" in licence and "tools/make_sounds.py" in licence


def test_the_music_loops_without_a_seam():
    """The jump from the last sample back to the first is no bigger than the steps inside."""
    with wave.open(str(SOUNDS / "music.wav")) as w:
        x = array.array("h", w.readframes(w.getnframes()))
    steps = sorted(abs(x[i + 1] - x[i]) for i in range(len(x) - 1))
    seam = abs(x[0] - x[-1])
    assert seam <= steps[int(len(steps) * 0.995)], (seam, steps[-1])
    # and it continues smoothly: the slope across the seam is like the slopes next to it
    before = x[-1] - x[-2]
    across = x[0] - x[-1]
    after = x[1] - x[0]
    assert abs(across - (before + after) / 2) <= steps[int(len(steps) * 0.99)]


def test_the_packaged_build_includes_the_sounds():
    spec = (ROOT / "build_exe.spec").read_text(encoding="utf-8")
    assert re.search(r'"assets"\s*/\s*"sounds"\), "assets/sounds"', spec)


def test_every_event_sound_is_known():
    assert set(audio.GAIN) == set(EFFECTS)
