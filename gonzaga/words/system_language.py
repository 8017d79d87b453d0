"""The system's language: the first start speaks it when the game has it (issue 49).

Where each system keeps it:

- Linux and other POSIX systems: the environment, as gettext reads it (``LANGUAGE``, a list
  such as ``nl:de``, then ``LC_ALL``, ``LC_MESSAGES``, ``LANG``: the first one set decides),
  then ``locale.getlocale()``.
- Windows: the user's display language (``GetUserDefaultUILanguage`` through ctypes, its
  number named by ``locale.windows_locale``), then ``locale.getlocale()`` ("German_Germany").
- macOS: the environment when the game is started from a terminal; started from the Finder it
  has none, and the system's list of preferred languages (``defaults read -g AppleLanguages``)
  is asked last, once, with a short timeout.

Every reader is a parameter, so tests fake each platform; only a Windows or a macOS machine
proves the calls themselves. English when nothing matches a language the game offers.
"""
from __future__ import annotations

import locale
import logging
import os
import re
import subprocess
import sys
from typing import Callable, Mapping, Optional

from . import catalog

log = logging.getLogger(__name__)

POSIX_VARS = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")  # gettext's order
# the language part of Windows' locale names ("German_Germany", "Polish_Poland"...)
WINDOWS_NAMES = {"english": "en", "italian": "it", "german": "de", "french": "fr", "spanish": "es",
                 "polish": "pl"}


def _offered() -> tuple[str, ...]:
    return tuple(lang.code for lang in catalog.LANGUAGES if lang.offered)


def code_of(tag: str) -> Optional[str]:
    """The game's language code of a system's locale name ("de_DE.UTF-8", "fr-CA", "es_419",
    "pl", "German_Germany"), or None for one the game does not offer ("C", "nl_NL")."""
    tag = tag.strip().strip('"').strip()
    if not tag:
        return None
    head = re.split(r"[_\-.@]", tag, maxsplit=1)[0].lower()
    code = WINDOWS_NAMES.get(head, head)
    return code if code in _offered() else None


def from_environment(env: Mapping[str, str]) -> tuple[bool, Optional[str]]:
    """(whether the environment names a language at all, the game's code for it): the first of
    gettext's variables that is set decides; ``LANGUAGE`` may list several, the first the game
    has wins. "C" and "POSIX" name no language."""
    for var in POSIX_VARS:
        value = env.get(var, "")
        if not value:
            continue
        tags = [x for x in value.split(":") if x and x.split(".")[0] not in ("C", "POSIX")]
        if not tags:
            continue
        for tag in tags:
            code = code_of(tag)
            if code is not None:
                return True, code
        return True, None
    return False, None


def _getlocale() -> Optional[str]:
    try:
        return locale.getlocale()[0]
    except (ValueError, TypeError):  # a locale name Python cannot parse
        return None


def _windows_ui_language() -> Optional[str]:
    """The user's display language on Windows ("de_DE"), from GetUserDefaultUILanguage."""
    try:
        import ctypes  # Windows only, and only here: 5 ms of every start elsewhere
        langid = ctypes.windll.kernel32.GetUserDefaultUILanguage()  # type: ignore[attr-defined]
    except (AttributeError, OSError):
        return None
    return locale.windows_locale.get(int(langid))


def _mac_languages() -> Optional[str]:
    """The first of macOS's preferred languages ("de-DE"), from ``defaults read -g AppleLanguages``."""
    try:
        out = subprocess.run(["defaults", "read", "-g", "AppleLanguages"], capture_output=True, text=True,
                             timeout=2, check=False).stdout
    except (OSError, subprocess.SubprocessError):
        return None
    found = re.findall(r'"?([A-Za-z]{2,3}(?:[-_][A-Za-z0-9]+)*)"?\s*,?\s*$', out, re.MULTILINE)
    return found[0] if found else None


def system_language(platform: str = sys.platform, env: Optional[Mapping[str, str]] = None,
                    getlocale: Callable[[], Optional[str]] = _getlocale,
                    windows_ui: Callable[[], Optional[str]] = _windows_ui_language,
                    mac_languages: Callable[[], Optional[str]] = _mac_languages) -> str:
    """The code of the system's language when the game offers it, else "en"."""
    env = os.environ if env is None else env
    tries: list[Callable[[], Optional[str]]] = []
    if platform.startswith("win"):
        tries = [windows_ui, getlocale]
    else:
        named, code = from_environment(env)
        if named:
            return code or "en"
        tries = [getlocale] + ([mac_languages] if platform == "darwin" else [])
    for read in tries:
        tag = read()
        if tag and _names_language(tag):  # not None, "C", "POSIX" or a bare "UTF-8" (macOS from the Finder)
            code = code_of(tag)
            log.info("system language %r: %s", tag, code or "not offered, English")
            return code or "en"
    return "en"


def _names_language(tag: str) -> bool:
    head = re.split(r"[_\-.@]", tag.strip().strip('"'), maxsplit=1)[0].lower()
    return head in WINDOWS_NAMES or (head.isalpha() and len(head) in (2, 3) and head not in ("c", "utf"))
