"""A system notification ("your turn in another game", issue 47, t47turn), behind one small
interface: ``Notifier.show(title, body)``.

The system's own tool, started as a process that the game does not wait for: ``notify-send``
on Linux (libnotify, over D-Bus), ``osascript -e 'display notification ...'`` on macOS, a
PowerShell toast (Windows.UI.Notifications through WinRT) on Windows. Nothing runs at import;
a system without the tool logs it once and shows nothing (the game never stops for it).

Why not desktop-notifier (6.2.0, evaluated for this): on macOS it posts through
UNUserNotificationCenter, which delivers only for a signed app bundle (the game run from the
source or an unsigned build would show nothing), while ``osascript`` works for any process; its
API is asyncio's and the game's frame loop is not; and it adds nine locked packages (six WinRT
projections on Windows, dbus-fast on Linux, rubicon-objc on macOS) with their notices. The
tools here are part of each system (``notify-send`` of most Linux desktops).

``RecordingNotifier`` keeps what it was asked to show (tests); ``Off`` shows nothing.
"""
from __future__ import annotations

import logging
import shutil
import subprocess
import sys
from typing import Optional

log = logging.getLogger(__name__)

APP_NAME = "Gonzaga"
_TOAST = (  # PowerShell: a toast through WinRT, the texts passed as arguments (never inside the script)
    "$t=$args[0];$b=$args[1];"
    "[Windows.UI.Notifications.ToastNotificationManager,Windows.UI.Notifications,ContentType=WindowsRuntime]>$null;"
    "$x=[Windows.UI.Notifications.ToastNotificationManager]::GetTemplateContent("
    "[Windows.UI.Notifications.ToastTemplateType]::ToastText02);"
    "$n=$x.GetElementsByTagName('text');$n.Item(0).InnerText=$t;$n.Item(1).InnerText=$b;"
    "[Windows.UI.Notifications.ToastNotificationManager]::CreateToastNotifier('Gonzaga').Show("
    "[Windows.UI.Notifications.ToastNotification]::new($x))")


class Notifier:
    """Shows a notification; never raises."""

    def show(self, title: str, body: str) -> bool:
        raise NotImplementedError


class Off(Notifier):
    def show(self, title: str, body: str) -> bool:
        return False


class RecordingNotifier(Notifier):
    """What would have been shown, in order (tests)."""

    def __init__(self) -> None:
        self.shown: list[tuple[str, str]] = []

    def show(self, title: str, body: str) -> bool:
        self.shown.append((title, body))
        return True


def command(title: str, body: str, platform: str = sys.platform) -> Optional[list[str]]:
    """The system's command that shows it (None: no tool on this system). The texts are
    arguments, never part of a script: a server's words cannot run anything."""
    title, body = title[:120], body[:400]
    if platform.startswith("linux") or platform.startswith("freebsd"):
        tool = shutil.which("notify-send")
        return [tool, "--app-name", APP_NAME, title, body] if tool else None
    if platform == "darwin":
        script = ("on run argv\ndisplay notification (item 2 of argv) with title (item 1 of argv)\nend run")
        return ["osascript", "-e", script, title, body]
    if platform == "win32":
        tool = shutil.which("powershell") or shutil.which("pwsh")
        return [tool, "-NoProfile", "-NonInteractive", "-Command", _TOAST, title, body] if tool else None
    return None


class SystemNotifier(Notifier):
    """The system's tool, started without waiting for it."""

    def __init__(self) -> None:
        self.missing_told = False

    def show(self, title: str, body: str) -> bool:
        cmd = command(title, body)
        if cmd is None:
            if not self.missing_told:
                self.missing_told = True
                log.info("no notification tool on this system (%s): nothing is shown", sys.platform)
            return False
        try:
            flags = getattr(subprocess, "CREATE_NO_WINDOW", 0)  # Windows: no console window flashes
            subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                             creationflags=flags)
            return True
        except OSError as e:
            log.warning("the notification could not be shown: %s", e)
            return False
