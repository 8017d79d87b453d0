"""Issue 49: numbers and dates in each language's format (gonzaga/words/formats.py, the CLDR
through Babel), and the screens that show them use it."""
from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from gonzaga.scenes.continue_games import entry_text
from gonzaga.scenes.review import decimal
from gonzaga.table.persistence import SaveInfo
from gonzaga.words import formats, i18n

NBSP = "\u00a0"


@pytest.mark.parametrize("lang, want", [
    ("en", "1,234"), ("it", "1.234"), ("de", "1.234"), ("es", "1.234"),
    ("fr", f"1{NBSP}234"),  # CLDR's narrow no-break space, drawn as a no-break space (the fonts lack it)
    ("pl", f"1{NBSP}234"),
])
def test_thousands(lang, want):
    assert formats.number(1234, lang=lang) == want


@pytest.mark.parametrize("lang, want", [
    ("en", "4.5"), ("it", "4,5"), ("de", "4,5"), ("fr", "4,5"), ("es", "4,5"), ("pl", "4,5"),
])
def test_one_decimal(lang, want):
    assert formats.number(4.5, 1, lang=lang) == want
    assert formats.number(4.0, 1, lang=lang) == want[0] + want[1] + "0"  # the digit stays: 4.0, 4,0
    assert formats.number(1234567.0, 0, lang=lang) == formats.number(1234567, lang=lang)


def test_no_narrow_space_reaches_a_screen():
    assert "\u202f" not in formats.number(12345, lang="fr") + formats.saved_when("2026-11-29T14:05:00", "fr")


@pytest.mark.parametrize("lang, want", [
    ("en", "29 Nov 2026"),  # the game's British English
    ("it", "29 nov 2026"),
    ("de", "29.11.2026"),
    ("fr", "29 nov. 2026"),
    ("es", "29 nov 2026"),
    ("pl", "29 lis 2026"),  # listopad
])
def test_dates(lang, want):
    assert formats.date(dt.date(2026, 11, 29), lang) == want


@pytest.mark.parametrize("lang, want", [
    ("en", "3 Mar 2026, 09:07"), ("de", "03.03.2026, 09:07"), ("pl", "3 mar 2026, 09:07"),
    ("fr", "3 mars 2026, 09:07"),
])
def test_a_saves_time(lang, want):
    assert formats.saved_when("2026-03-03T09:07:41", lang) == want


def test_a_stamp_that_is_no_date_is_shown_as_it_is():
    assert formats.saved_when("yesterday", "de") == "yesterday"


def test_the_current_language_is_the_default():
    try:
        i18n.set_language("de")
        assert formats.number(2.25, 1) in ("2,2", "2,3") and formats.number(1500) == "1.500"
        i18n.set_language("pl")
        assert formats.date(dt.date(2026, 1, 5)) == "5 sty 2026"
    finally:
        i18n.set_language("en")


def test_screens_show_dates_and_numbers_so():
    """The games in progress, the statistics and the review's decimals come through formats."""
    info = SaveInfo(Path("x.json"), "", "2026-11-29T14:05:33", 4, "plan", "Anna, Bruno", False)
    try:
        i18n.set_language("de")
        assert "29.11.2026, 14:05" in entry_text(info)
        assert decimal(12.5) == "12,5"
        i18n.set_language("fr")
        assert "29 nov. 2026, 14:05" in entry_text(info)
    finally:
        i18n.set_language("en")
