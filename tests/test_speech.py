"""The speech layer (issue 49): announcements never wait for the voice, a newer interrupting one
drops the queued ones and cuts the one being spoken, the setting decides, the table picks a voice
per platform, and the Linux screen reader is found by its process."""
from __future__ import annotations

import threading
from pathlib import Path

from gonzaga.ui.speech import Speech, backends, detect
from gonzaga.words import i18n


class HeldVoice:
    """Speaks only when the test lets it (an Event, not a clock): ``said`` in order, ``stops`` counted."""

    name = "held"

    def __init__(self) -> None:
        self.said: list[str] = []
        self.stops = 0
        self.started = threading.Event()
        self.release = threading.Semaphore(0)  # one release() lets one announcement be spoken

    def say(self, text: str) -> None:
        self.started.set()
        self.release.acquire(timeout=5)
        self.said.append(text)

    def stop(self) -> None:
        self.stops += 1

    def close(self) -> None:
        pass


def test_announcing_never_waits_for_the_voice_and_a_newer_one_cuts_the_stale():
    v = HeldVoice()
    s = Speech("on", voice=v)
    try:
        s.announce("first focus")
        assert v.started.wait(5)  # the worker speaks it; announce() has long returned
        s.announce("Round 2: Bot has planned.", interrupt=False)  # what happened: never dropped
        s.announce("second focus")
        s.announce("Not allowed: a fief is already there", keep=True)  # cuts, drops the second focus, is kept
        s.announce("newest focus")  # drops nothing more: the refusal is kept
        v.release.release(4)
        assert s.idle(5)
        assert v.said == ["first focus", "Round 2: Bot has planned.", "Not allowed: a fief is already there",
                          "newest focus"]
        assert v.stops == 1
        assert s.history == ["first focus", "Round 2: Bot has planned.", "second focus",
                             "Not allowed: a fief is already there", "newest focus"]
    finally:
        v.release.release(4)
        s.close()


def test_off_says_nothing_and_auto_follows_the_screen_reader():
    off = Speech("off")
    off.announce("hello")
    assert off.history == [] and not off.enabled
    made = []

    def make(reader, lang):
        made.append((reader, lang))
        return backends.RecordingVoice()

    auto = Speech("auto", running=lambda: False, make=make)
    auto.start()
    assert auto.detected.wait(5)
    auto.announce("hello")
    assert auto.reader is False and not auto.enabled and made == [] and auto.history == []
    auto.close()
    on = Speech("auto", running=lambda: True, make=make)
    on.announce("hello")
    assert on.idle(5)
    assert on.reader is True and made == [(True, "en")] and on.history == ["hello"]
    on.close()


def test_the_table_picks_the_reader_then_the_fallback(monkeypatch):
    have = {"spd-say": "/usr/bin/spd-say", "espeak-ng": "/usr/bin/espeak-ng"}
    monkeypatch.setattr(backends.shutil, "which", lambda name: have.get(name))
    assert backends.make_voice(True, "it", "linux").name == "speech-dispatcher"
    assert backends.make_voice(True, "it", "linux").command[-3:] == ["-l", "it", "--"]
    assert backends.make_voice(False, "it", "linux").name == "espeak"
    del have["spd-say"]
    assert backends.make_voice(True, "it", "linux").name == "espeak"  # no speech-dispatcher: the synthesizer
    have.clear()
    assert backends.make_voice(True, "it", "linux") is None
    have.update({"osascript": "/usr/bin/osascript", "say": "/usr/bin/say"})
    assert backends.make_voice(True, "en", "darwin").name == "voiceover"
    assert backends.make_voice(False, "en", "darwin").name == "say"


def test_orca_is_found_by_its_process(tmp_path: Path):
    for pid, comm in (("1", "systemd"), ("42", "bash"), ("self", "x")):
        (tmp_path / pid).mkdir()
        (tmp_path / pid / "comm").write_text(comm + "\n")
    assert not detect.orca_running(tmp_path)
    (tmp_path / "77").mkdir()
    (tmp_path / "77" / "comm").write_text("orca\n")
    assert detect.orca_running(tmp_path)
    assert not detect.orca_running(tmp_path / "missing")


def test_hot_seat_speech_tells_no_other_seats_secret(make_app):
    """Two humans at one screen: while Bob's hand is open, nothing spoken names Ann's objective
    cities or her plan; Bob's own hand is spoken (the narrator reads the screen's view only)."""
    import pygame
    from gonzaga.rules import Plan
    from gonzaga.scenes.game import GameScene
    from gonzaga.table.session import SeatSpec
    from gonzaga.ui.speech import RecordingVoice
    from gonzaga.ui.speech.narrator import Narrator
    from scene_events import key
    app = make_app((1280, 720), speed="instant")
    app.speech.close()
    app.speech = Speech("on", voice=RecordingVoice())
    app.narrator = Narrator(app.speech)
    app.start_session([SeatSpec("Ann", "human", colour="red"), SeatSpec("Bob", "human", colour="blue")], 12)
    app.run_frames(2)
    g = app.stack.find(GameScene)
    full = app.session.state
    c = full.content
    ann_cities = {c.sites[h].name for h in c.objective_cities(full.seats[0].objective)}
    bob_cities = {c.sites[h].name for h in c.objective_cities(full.seats[1].objective)}
    secret = ann_cities - bob_cities
    assert secret
    key(app, pygame.K_SPACE, frames=2)  # Ann lifts her curtain
    s = g.state.seats[0]
    region = next(r for r in g.state.region_cards() if r not in s.unavailable)
    action = next(a for a in "AB" if a not in s.unavailable)
    assert g.face.seat_view(0).submit(Plan(0, region, action, False)) is None
    app.run_frames(2)
    start = len(app.speech.history)
    key(app, pygame.K_SPACE, frames=2)  # Bob lifts his
    assert g.private_seat == 1
    heard = " | ".join(app.speech.history[start:])
    assert "Round 1: choose your plan" in heard  # Bob's hand is spoken
    ann_plan = f"Ann {i18n.card_name(full, region)} + {i18n.t('card.' + action)}"
    assert ann_plan not in heard
    assert not [name for name in secret if name in heard], heard
