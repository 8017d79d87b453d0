"""The voices the game can speak through, one class each, and the table that picks one per
platform (issue 49).

Why these:

- **Windows: Tolk, through ``cytolk``** (a wheel for CPython 3.11 x64 that carries Tolk's DLLs
  and NVDA's controller client). Tolk speaks through NVDA, JAWS, System Access, SuperNova,
  ZoomText and Dolphin, and falls back to SAPI 5 (the system's own voices, which Narrator users
  hear too). ``accessible-output2`` (2022) does the same on Windows, but its macOS part needs
  ``appscript`` and its Linux part the ``speechd`` module, which PyPI has no wheel for.
- **macOS: VoiceOver's own AppleScript command** (``tell application "VoiceOver" to output``,
  through ``osascript``; what accessible-output2 does via appscript, without the dependency),
  falling back to ``say``. pyobjc for NSAccessibility announcements would add ~10 MB of wheels
  for one call.
- **Linux: speech-dispatcher** through ``spd-say`` (the voice Orca speaks with; the Python
  ``speechd`` module ships only with the distributions), falling back to ``espeak-ng``.

pyttsx3 was left out: it drives the same system synthesizers (SAPI 5, NSSpeechSynthesizer,
eSpeak) but needs pywin32/comtypes on Windows and pyobjc on macOS; the back ends above reach
those voices with no dependency. Every call here runs on the speech worker's thread, never the
frame loop's (``speech/__init__.py``).
"""
from __future__ import annotations

import logging
import shutil
import subprocess
import sys
from typing import Callable, Optional, Protocol

log = logging.getLogger(__name__)


class Voice(Protocol):
    """A way to speak. ``say`` may block until the words are spoken (the worker waits);
    ``stop`` cuts what is being spoken (called from the worker too)."""

    name: str

    def say(self, text: str) -> None: ...

    def stop(self) -> None: ...

    def close(self) -> None: ...


class RecordingVoice:
    """Keeps what it was given (tests): ``spoken`` in order; nothing is cut."""

    name = "recording"

    def __init__(self) -> None:
        self.spoken: list[str] = []

    def say(self, text: str) -> None:
        self.spoken.append(text)

    def stop(self) -> None:
        pass

    def close(self) -> None:
        pass


class ProcessVoice:
    """A command that speaks its last argument and ends when done (``say``, ``espeak-ng``, ``spd-say -w``).
    ``stop`` ends the running one; ``cancel`` is an extra command that silences the service."""

    def __init__(self, name: str, command: list[str], cancel: Optional[list[str]] = None,
                 wait: bool = True) -> None:
        self.name = name
        self.command = command
        self.cancel = cancel
        self.wait = wait
        self._proc: Optional[subprocess.Popen] = None

    def say(self, text: str) -> None:
        try:
            self._proc = subprocess.Popen(self.command + [text], stdin=subprocess.DEVNULL,
                                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        except OSError as e:
            log.warning("speech: %s could not start: %s", self.name, e)
            return
        if self.wait:
            self._proc.wait()

    def stop(self) -> None:
        p = self._proc
        if p is not None and p.poll() is None:
            p.terminate()
        if self.cancel:
            try:
                subprocess.run(self.cancel, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL, timeout=2, check=False)
            except (OSError, subprocess.SubprocessError):
                pass

    def close(self) -> None:
        self.stop()


class TolkVoice:
    """Windows: the running screen reader through Tolk (cytolk), SAPI 5 when none runs."""

    name = "tolk"

    def __init__(self) -> None:
        from cytolk import tolk  # only on Windows (the lock's marker); loaded on the worker's thread
        self._tolk = tolk
        tolk.try_sapi(True)  # no screen reader: the system's voice
        tolk.load()

    def say(self, text: str) -> None:
        self._tolk.output(text, True)

    def stop(self) -> None:
        self._tolk.silence()

    def close(self) -> None:
        self._tolk.unload()


def voiceover_command() -> list[str]:
    """osascript speaking its argument through VoiceOver (the player allows "VoiceOver to be
    controlled with AppleScript" in VoiceOver Utility; otherwise it fails and ``say`` speaks)."""
    return ["osascript", "-e", "on run argv", "-e", 'tell application "VoiceOver" to output (item 1 of argv)',
            "-e", "end run", "--"]


def espeak_voice(lang: str) -> Optional[ProcessVoice]:
    exe = shutil.which("espeak-ng") or shutil.which("espeak")
    return ProcessVoice("espeak", [exe, "-v", lang, "--"]) if exe else None


def spd_voice(lang: str) -> Optional[ProcessVoice]:
    exe = shutil.which("spd-say")
    return ProcessVoice("speech-dispatcher", [exe, "-w", "-l", lang, "--"], cancel=[exe, "-C"]) if exe else None


def _voiceover(lang: str) -> Optional[ProcessVoice]:
    return ProcessVoice("voiceover", voiceover_command()) if shutil.which("osascript") else None


def _say(lang: str) -> Optional[ProcessVoice]:
    return ProcessVoice("say", ["say", "--"]) if shutil.which("say") else None


def _tolk(lang: str) -> Optional[TolkVoice]:
    return TolkVoice()


# platform -> (the screen reader's voice, the speech synthesis fallback), each a maker taking the
# language code and giving None where that voice is not installed
VOICES: dict[str, tuple[Callable[[str], Optional[Voice]], Callable[[str], Optional[Voice]]]] = {
    "win32": (_tolk, _tolk),  # Tolk itself falls back to SAPI 5
    "darwin": (_voiceover, _say),
    "linux": (spd_voice, espeak_voice),
}


def platform_key(platform: str = sys.platform) -> str:
    return "linux" if platform.startswith(("linux", "freebsd")) else platform


def make_voice(reader_running: bool, lang: str, platform: str = sys.platform) -> Optional[Voice]:
    """The screen reader's voice when one runs, else the synthesis fallback; None when neither
    is installed (then nothing is spoken, and the log says so once)."""
    makers = VOICES.get(platform_key(platform))
    if makers is None:
        return None
    for make in (makers if reader_running else makers[1:]):
        try:
            v = make(lang)
        except Exception as e:  # a library that fails to load (a missing DLL): try the next
            log.warning("speech: a voice could not start: %s", e)
            v = None
        if v is not None:
            return v
    log.warning("speech: no voice on this system")
    return None
