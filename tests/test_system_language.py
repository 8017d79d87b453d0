"""Issue 49: the first start speaks the system's language (gonzaga/words/system_language.py), read
on each platform where that platform keeps it (faked here: only a Windows or a macOS machine
runs the real calls); the settings' picker names each language in its own words."""
from __future__ import annotations

import json
import locale
import subprocess

import pytest

from gonzaga.table import persistence
from gonzaga.words import i18n
from gonzaga.words import system_language as SL
from gonzaga.words.system_language import code_of, system_language


def nothing():
    return None


def never():
    raise AssertionError("not asked on this platform, or not when the environment answered")


@pytest.mark.parametrize("env, want", [
    ({"LANG": "de_DE.UTF-8"}, "de"),
    ({"LANG": "pl_PL.UTF-8"}, "pl"),
    ({"LC_ALL": "fr_CA.UTF-8", "LANG": "de_DE.UTF-8"}, "fr"),  # LC_ALL before LANG
    ({"LC_MESSAGES": "es_MX.UTF-8", "LANG": "it_IT.UTF-8"}, "es"),  # the messages' locale before LANG
    ({"LANGUAGE": "nl:pl", "LANG": "nl_NL.UTF-8"}, "pl"),  # gettext's list: the first the game has
    ({"LANGUAGE": "it_IT", "LC_ALL": "de_DE.UTF-8"}, "it"),
    ({"LANG": "nl_NL.UTF-8"}, "en"),  # a language the game does not have: English, not the locale
    ({"LANG": "es_419.UTF-8"}, "es"),  # Latin American Spanish
])
def test_linux_reads_the_environment_as_gettext_does(env, want):
    assert system_language("linux", env, getlocale=never, windows_ui=never, mac_languages=never) == want


def test_linux_without_a_language_in_the_environment_asks_locale():
    assert system_language("linux", {}, getlocale=lambda: "de_AT", windows_ui=never, mac_languages=never) == "de"
    assert system_language("linux", {"LANG": "C"}, getlocale=lambda: "fr_FR", windows_ui=never,
                           mac_languages=never) == "fr"
    assert system_language("linux", {}, getlocale=nothing, windows_ui=never, mac_languages=never) == "en"
    assert system_language("linux", {"LANG": "C.UTF-8", "LANGUAGE": ""}, getlocale=lambda: "C", windows_ui=never,
                           mac_languages=never) == "en"


def test_windows_asks_the_display_language_then_the_locale_never_the_environment():
    env = {"LANG": "it_IT.UTF-8"}  # set by a POSIX shell on Windows: not what the user reads
    assert system_language("win32", env, getlocale=never, windows_ui=lambda: "pl_PL", mac_languages=never) == "pl"
    # no display language: the locale, named the Windows way
    assert system_language("win32", env, getlocale=lambda: "German_Germany", windows_ui=nothing,
                           mac_languages=never) == "de"
    assert system_language("win32", env, getlocale=lambda: "Spanish_Spain", windows_ui=nothing,
                           mac_languages=never) == "es"
    assert system_language("win32", env, getlocale=lambda: "Dutch_Netherlands", windows_ui=nothing,
                           mac_languages=never) == "en"


def test_windows_display_language_number_is_named_by_the_standard_library():
    """GetUserDefaultUILanguage's numbers (Microsoft's LCIDs) through locale.windows_locale."""
    assert code_of(locale.windows_locale[0x0415]) == "pl"
    assert code_of(locale.windows_locale[0x0407]) == "de"
    assert code_of(locale.windows_locale[0x040C]) == "fr"
    assert code_of(locale.windows_locale[0x0C0A]) == "es"


def test_macos_from_a_terminal_reads_the_environment_from_the_finder_its_preferred_languages():
    assert system_language("darwin", {"LANG": "fr_FR.UTF-8"}, getlocale=never, windows_ui=never,
                           mac_languages=never) == "fr"
    # started from the Finder: no LANG, the C library's locale a bare "UTF-8"
    assert system_language("darwin", {}, getlocale=lambda: "UTF-8", windows_ui=never,
                           mac_languages=lambda: "pl-PL") == "pl"
    assert system_language("darwin", {}, getlocale=nothing, windows_ui=never, mac_languages=nothing) == "en"


def test_macos_preferred_languages_output_is_read(monkeypatch):
    """``defaults read -g AppleLanguages`` prints a property list; its first entry counts."""
    class Done:
        stdout = '(\n    "de-DE",\n    "en-GB",\n    en\n)\n'
    monkeypatch.setattr(subprocess, "run", lambda *a, **k: Done())
    assert SL._mac_languages() == "de-DE"

    def missing(*a, **k):
        raise FileNotFoundError("defaults")
    monkeypatch.setattr(subprocess, "run", missing)
    assert SL._mac_languages() is None


def test_first_start_takes_the_system_language_a_chosen_one_stays(tmp_path, monkeypatch):
    monkeypatch.setenv("GONZAGA_HOME", str(tmp_path / "home"))
    monkeypatch.setattr(persistence, "system_language", lambda: "pl")
    assert persistence.load_settings().language == "pl"  # no settings file: the first start
    s = persistence.load_settings()
    s.language = "it"
    assert persistence.save_settings(s)
    assert persistence.load_settings().language == "it"  # chosen once: the system's no longer counts
    # a settings file from before there was a language in it
    d = json.loads(persistence.settings_path().read_text(encoding="utf-8"))
    del d["language"]
    persistence.settings_path().write_text(json.dumps(d), encoding="utf-8")
    assert persistence.load_settings().language == "pl"


def test_the_picker_offers_six_languages_each_by_its_own_name():
    assert i18n.languages() == [("en", "English"), ("it", "Italiano"), ("de", "Deutsch"), ("fr", "Français"),
                                ("es", "Español"), ("pl", "Polski")]
