"""Numbers, dates and times in the current language's format (issue 49), from the CLDR through
Babel: German writes 1.234 and 4,5, French 1 234 (a no-break space) and 29 nov. 2026,
Polish 29 lis 2026. Every screen formats a number or a date a player reads through here.

Why Babel and not a table of our own: the separators are simple, but the dates are not (each
language's month abbreviations, the order of day, month and year, the comma between date and
time, the 12-hour clock of English); the CLDR has them right for every language a translator may
add, and Babel is pure Python. English is the game's British English (en_GB: 29 Nov 2026, 14:05).
"""
from __future__ import annotations

import datetime as _dt
from functools import lru_cache
from typing import Optional, Union

from babel import Locale, dates, numbers

from . import i18n

# the CLDR locale of a language of the game, where it is not the code itself
LOCALES = {"en": "en_GB"}
# the CLDR's narrow no-break space (French 1 234, since CLDR 34) is missing from the game's
# fonts (a box is drawn): the no-break space stands in, as French wrote it before
NARROW_NBSP, NBSP = "\u202f", "\u00a0"


@lru_cache(maxsize=None)
def locale_of(lang: str) -> Locale:
    return Locale.parse(LOCALES.get(lang, lang))


def _shown(text: str) -> str:
    return text.replace(NARROW_NBSP, NBSP)


def number(value: Union[int, float], decimals: Optional[int] = None, lang: Optional[str] = None) -> str:
    """``value`` with the language's digit grouping and decimal sign: whole numbers as they are,
    ``decimals`` fixes the digits after the sign (4.5 -> "4,5" in German)."""
    loc = locale_of(lang or i18n.language())
    if decimals is None and float(value).is_integer():
        return _shown(numbers.format_decimal(int(value), locale=loc))
    if decimals is None:
        return _shown(numbers.format_decimal(value, locale=loc))
    pattern = "#,##0" + ("." + "0" * decimals if decimals > 0 else "")
    return _shown(numbers.format_decimal(round(value, decimals), format=pattern, locale=loc))


def date(day: _dt.date, lang: Optional[str] = None) -> str:
    """A day as the language writes it in a list (CLDR "medium": 29.11.2026, 29 lis 2026)."""
    return _shown(dates.format_date(day, "medium", locale=locale_of(lang or i18n.language())))


def date_time(moment: _dt.datetime, lang: Optional[str] = None) -> str:
    """A day and its time of day to the minute, joined as the language joins them."""
    loc = locale_of(lang or i18n.language())
    joined = str(loc.datetime_formats["medium"]).replace("{1}", str(loc.date_formats["medium"].pattern)) \
        .replace("{0}", str(loc.time_formats["short"].pattern))
    return _shown(dates.format_datetime(moment, joined, locale=loc))


def saved_when(stamp: str, lang: Optional[str] = None) -> str:
    """A save's ``saved_at`` (ISO 8601, local time) as :func:`date_time` writes it; the stamp
    itself (to the minute) when it is not a date."""
    try:
        moment = _dt.datetime.fromisoformat(stamp)
    except ValueError:
        return stamp.replace("T", " ")[:16]
    return date_time(moment.replace(tzinfo=None), lang)
