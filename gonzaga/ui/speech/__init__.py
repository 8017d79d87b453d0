"""Speech for players who cannot see the screen (issue 49): ``Speech.announce(text)`` hands words
to the player's screen reader, or to the system's speech synthesis when none runs
(``backends.py`` says which library on which system and why).

The frame loop never waits for speech: announcements go to a queue that one worker thread
speaks. A newer announcement that interrupts (a focus change, the cursor's next hex) drops the
ones still queued and cuts the one being spoken. The "Screen reader" setting is ``auto`` (speak
when the system's screen reader runs, ``detect.py``), ``on`` or ``off``.
"""
from __future__ import annotations

import logging
import threading
from collections import deque
from typing import Callable, Optional

from ...words import i18n
from . import backends, detect
from .backends import RecordingVoice, Voice

log = logging.getLogger(__name__)

MODES = ("auto", "on", "off")


class Speech:
    """The game's one voice. ``mode``: the setting; ``voice``: a given voice (tests) instead of
    the platform's; ``running``: how to tell whether a screen reader runs (``detect``)."""

    def __init__(self, mode: str = "auto", *, voice: Optional[Voice] = None,
                 running: Callable[[], bool] = detect.screen_reader_running,
                 make: Callable[[bool, str], Optional[Voice]] = backends.make_voice) -> None:
        self.mode = mode
        self._given = voice
        self._running = running
        self._make = make
        self.reader: Optional[bool] = None  # a screen reader runs: found out by the worker
        self.detected = threading.Event()  # set once the worker knows (tests wait on it)
        self.history: list[str] = []  # every announcement made while speaking was on (tests, the log)
        self._queue: deque[tuple[str, bool]] = deque()  # (words, interruptible)
        self._cut = False
        self._busy = False
        self._speaking_interruptible = False
        self._voice: Optional[Voice] = None
        self._voice_lang = ""
        self._cond = threading.Condition()
        self._closing = False
        self._thread: Optional[threading.Thread] = None

    # ------------------------------------------------------------ the frame loop's side

    @property
    def enabled(self) -> bool:
        """Speaking now: the setting's on, or auto with a screen reader running (auto counts as
        on until the worker has found out, so the first words are not lost)."""
        if self.mode == "off":
            return False
        if self.mode == "on" or self._given is not None:
            return True
        return self.reader is not False

    def set_mode(self, mode: str) -> None:
        self.mode = mode if mode in MODES else "auto"
        if not self.enabled:
            self.silence()

    def announce(self, text: str, interrupt: bool = True, keep: bool = False) -> None:
        """Speak ``text`` (already in the player's language). ``interrupt`` (focus changes, the
        cursor's hex): drop the interruptible ones queued and cut one being spoken; the others
        (what happened in the game, what is asked) wait their turn and are never dropped. ``keep``:
        it interrupts, but is never dropped itself (a refusal, a question)."""
        text = " ".join(text.split())
        if not text or not self.enabled:
            return
        self.history.append(text)
        with self._cond:
            if interrupt:
                self._queue = deque(q for q in self._queue if not q[1])
                cut = self._busy and self._speaking_interruptible
                self._cut = self._cut or cut
                v = self._voice
                if cut and isinstance(v, backends.ProcessVoice) and v._proc is not None and v._proc.poll() is None:
                    v._proc.terminate()  # a signal only: the frame does not wait
            self._queue.append((text, interrupt and not keep))
            self._start()
            self._cond.notify()

    def silence(self) -> None:
        with self._cond:
            self._queue.clear()
            self._cut = self._busy

    def idle(self, timeout: float = 5.0) -> bool:
        """Wait until everything queued has been spoken (tests and tools; never the frame loop)."""
        with self._cond:
            return self._cond.wait_for(lambda: not self._queue and not self._busy, timeout)

    def close(self) -> None:
        with self._cond:
            self._closing = True
            self._queue.clear()
            self._cond.notify_all()
        if self._thread is not None:
            self._thread.join(timeout=3)
            self._thread = None

    # ------------------------------------------------------------ the worker's side

    def start(self) -> None:
        """Start the worker now (the app does, so Automatic finds the screen reader early)."""
        with self._cond:
            if self.mode != "off":
                self._start()

    def _start(self) -> None:
        if self._thread is None and not self._closing:
            self._thread = threading.Thread(target=self._work, name="speech", daemon=True)
            self._thread.start()

    def _work(self) -> None:
        if self._given is None and self.mode == "auto":
            self.reader = self._running()
            log.info("speech: screen reader running: %s", self.reader)
        self.detected.set()
        while True:
            with self._cond:
                self._cond.wait_for(lambda: self._queue or self._closing)
                if self._closing:
                    break
                text, self._speaking_interruptible = self._queue.popleft()
                cut, self._cut = self._cut, False
                self._busy = True
            try:
                v = self._voice_now() if self.enabled else None
                if v is not None:
                    if cut:
                        v.stop()
                    v.say(text)
            except Exception as e:  # a voice that fails loses words, never the game
                log.warning("speech: %s", e)
            with self._cond:
                self._busy = False
                self._cond.notify_all()
        if self._voice is not None:
            try:
                self._voice.close()
            except Exception:
                pass

    def _voice_now(self) -> Optional[Voice]:
        if self._given is not None:
            return self._given
        lang = i18n.language()
        if self._voice is None or lang != self._voice_lang:
            if self._voice is not None:
                self._voice.close()
            self._voice = self._make(bool(self.reader), lang)
            self._voice_lang = lang
        return self._voice


__all__ = ["MODES", "RecordingVoice", "Speech", "Voice"]
