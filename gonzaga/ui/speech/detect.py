"""Is the player's screen reader running? Asked once, on the speech worker's thread (it may
start a short process), so the "Screen reader" setting's Automatic can follow it:

- Windows: the system's screen-reader flag (``SystemParametersInfo(SPI_GETSCREENREADER)``),
  which NVDA, JAWS and Narrator set while they run;
- macOS: VoiceOver's switch (``defaults read com.apple.universalaccess voiceOverOnOffKey``);
- Linux: an ``orca`` process, or GNOME's "screen reader" switch (``gsettings``).
"""
from __future__ import annotations

import logging
import os
import subprocess
import sys
from pathlib import Path

log = logging.getLogger(__name__)

SPI_GETSCREENREADER = 0x0046


def _windows() -> bool:
    import ctypes  # Windows only, and only here: 5 ms of every start elsewhere
    flag = ctypes.c_int(0)  # ctypes.windll exists only on Windows: read here, never at import
    ok = ctypes.windll.user32.SystemParametersInfoW(SPI_GETSCREENREADER, 0, ctypes.byref(flag), 0)  # type: ignore[attr-defined]
    return bool(ok and flag.value)


def _output(cmd: list[str]) -> str:
    try:
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=3, check=False,
                              stdin=subprocess.DEVNULL)
    except (OSError, subprocess.SubprocessError):
        return ""
    return done.stdout.strip()


def _macos() -> bool:
    return _output(["defaults", "read", "com.apple.universalaccess", "voiceOverOnOffKey"]) == "1"


def orca_running(proc: Path = Path("/proc")) -> bool:
    """A process named orca (the GNOME screen reader) in ``proc``."""
    try:
        pids = [p for p in os.listdir(proc) if p.isdigit()]
    except OSError:
        return False
    for pid in pids:
        try:
            if (proc / pid / "comm").read_text(encoding="utf-8", errors="replace").strip() == "orca":
                return True
        except OSError:
            continue
    return False


def _linux() -> bool:
    if orca_running():
        return True
    return _output(["gsettings", "get", "org.gnome.desktop.a11y.applications", "screen-reader-enabled"]) == "true"


def screen_reader_running(platform: str = sys.platform) -> bool:
    """True when the platform's screen reader runs; False when not, or when it cannot be told."""
    try:
        if platform == "win32":
            return _windows()
        if platform == "darwin":
            return _macos()
        if platform.startswith("linux"):
            return _linux()
    except Exception as e:  # never a reason to stop the game
        log.warning("speech: could not tell whether a screen reader runs: %s", e)
    return False
