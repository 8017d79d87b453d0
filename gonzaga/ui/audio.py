"""Sound: the game's effects and its background music, at the volumes of the settings.

The sounds are WAV files in ``assets/sounds/`` (original, made by ``tools/make_sounds.py``).
The mixer starts on the second frame (the first frame stays fast) and is never required: no
audio device, a mixer that raises or that reports no format (``get_init()`` is None), a missing
or bad file - the game runs silent and the log says so in exactly one line; ``play`` never
raises. Every sound has a visual equivalent drawn by the screens (see
``scenes/feedback.py``): nothing is told by sound alone.

Volumes: an effect plays at ``master_volume * effects_volume``, the music at ``master_volume
* music_volume``; ``mute`` silences both, ``music`` switches the music on or off. The music is
a Sound looped on a reserved channel (``loops=-1``): SDL_mixer repeats a chunk sample by
sample, so the loop (whole periods, made so by the tool) has no seam.
"""
from __future__ import annotations

import collections
import logging
from typing import Any, Optional

import pygame

from ..resources import asset_path

log = logging.getLogger(__name__)

EFFECTS = ("card", "reveal", "fief", "ring", "donation", "points", "league", "last_turn", "curtain",
           "your_turn", "win", "loss")
MUSIC = "music"
# Loudness of each effect relative to the others (the files are normalised to their peak).
GAIN = {"card": 0.6, "reveal": 0.8, "fief": 0.9, "ring": 0.8, "donation": 0.8, "points": 0.7, "league": 0.9,
        "last_turn": 0.9, "curtain": 0.7, "your_turn": 0.75, "win": 0.9, "loss": 0.9}
START_FRAME = 2  # the mixer starts on this call of ``update`` (after the first frame is on screen)


class Audio:
    """The sound manager of one App. ``state``: "waiting" (not started yet), "on", or "silent"."""

    def __init__(self, settings, *, enabled: bool = True):
        self.settings = settings
        self.state = "waiting" if enabled else "silent"
        self.reason = "" if enabled else "disabled"
        self.sounds: dict = {}
        self.history: collections.deque = collections.deque(maxlen=64)  # (name, audible) of each request
        self._music_channel: Optional[pygame.mixer.Channel] = None
        self._music_on = False
        self._calls = 0
        self._applied: Optional[tuple] = None
        self._mixer: Any = None  # the pygame.mixer module once it started

    # ------------------------------------------------------------ volumes

    def effects_gain(self) -> float:
        s = self.settings
        return 0.0 if getattr(s, "mute", False) else _unit(getattr(s, "master_volume", 0.8)) * \
            _unit(getattr(s, "effects_volume", 0.8))

    def music_gain(self) -> float:
        s = self.settings
        if getattr(s, "mute", False) or not getattr(s, "music", True):
            return 0.0
        return _unit(getattr(s, "master_volume", 0.8)) * _unit(getattr(s, "music_volume", 0.5))

    # ------------------------------------------------------------ the mixer

    def start(self) -> bool:
        """Start the mixer and load the sounds; False (silent, one log line) if that fails."""
        if self.state != "waiting":
            return self.state == "on"
        try:
            mixer = pygame.mixer  # a pygame built without SDL_mixer raises NotImplementedError here
            mixer.init(44100, -16, 2, 1024)
            if mixer.get_init() is None:
                raise RuntimeError("the mixer reports no audio format")
            mixer.set_num_channels(12)
            mixer.set_reserved(1)
            self._mixer = mixer
            self._load(mixer)
            self._music_channel = mixer.Channel(0)
        except Exception as e:  # no device, no driver, no SDL_mixer, a bad file: the game goes on silent
            self._go_silent(f"the audio mixer did not start ({_short(e)})")
            return False
        self.state = "on"
        log.info("sound on: %d effects and the music loaded", len(self.sounds) - (MUSIC in self.sounds))
        self._apply()
        return True

    def _load(self, mixer) -> None:
        for name in EFFECTS + (MUSIC,):
            self.sounds[name] = mixer.Sound(str(asset_path("sounds", f"{name}.wav")))

    def _go_silent(self, why: str) -> None:
        self.state = "silent"
        self.reason = why
        self.sounds = {}
        self._music_channel = None
        log.warning("sound off: %s; the game runs silent", why)
        if self._mixer is not None:
            try:
                self._mixer.quit()
            except Exception:
                pass
            self._mixer = None

    def update(self) -> None:
        """Once a frame: starts the mixer on the second frame; follows changed settings."""
        self._calls += 1
        if self.state == "waiting" and self._calls >= START_FRAME:
            self.start()
        if self.state == "on":
            self._apply()

    def _apply(self) -> None:
        key = (self.effects_gain(), self.music_gain())
        if key == self._applied:
            return
        self._applied = key
        try:
            ch = self._music_channel
            music = self.sounds.get(MUSIC)
            if ch is None or music is None:
                return
            if key[1] > 0:
                ch.set_volume(key[1])
                if not self._music_on:
                    ch.play(music, loops=-1)
                    self._music_on = True
            elif self._music_on:
                ch.stop()
                self._music_on = False
        except Exception as e:
            self._go_silent(f"the music could not play ({_short(e)})")

    # ------------------------------------------------------------ playing

    def play(self, name: str) -> bool:
        """Play effect ``name``; True when it is audible. Never raises."""
        gain = self.effects_gain() * GAIN.get(name, 0.8)
        audible = self.state == "on" and gain > 0 and name in self.sounds
        self.history.append((name, audible))
        if not audible:
            return False
        try:
            snd = self.sounds[name]
            snd.set_volume(gain)
            snd.play()
        except Exception as e:
            self._go_silent(f"an effect could not play ({_short(e)})")
            return False
        return True

    def close(self) -> None:
        if self._mixer is not None:
            try:
                self._mixer.stop()
                self._mixer.quit()
            except Exception:
                pass
            self._mixer = None
        if self.state == "on":
            self.state = "waiting"
        self.sounds = {}
        self._music_channel = None
        self._music_on = False
        self._applied = None
        self._calls = 0


def _unit(v) -> float:
    try:
        return max(0.0, min(1.0, float(v)))
    except (TypeError, ValueError):
        return 0.0


def _short(e: BaseException) -> str:
    text = str(e).strip().splitlines()[0] if str(e).strip() else ""
    return f"{type(e).__name__}: {text[:120]}" if text else type(e).__name__
