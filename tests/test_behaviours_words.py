"""Issue 45, the words' lookup: a key the player's language lacks falls back to English (never
the bare key), a number picks its plural by the language's rule (0 is plural in English and
Italian), and a card logged as a term is worded in the language it is shown in, not the one it
was logged in."""
from __future__ import annotations

import pytest

from gonzaga.words import catalog, i18n
from gonzaga.words.i18n import EN, Term

pytestmark = pytest.mark.rule("E-words")


@pytest.fixture
def italian():
    i18n.set_language("it")
    yield
    i18n.set_language("en")


def test_a_key_the_language_lacks_falls_back_to_english(italian, monkeypatch):
    it = i18n.table("it")
    assert it["hint.headline"] != EN["hint.headline"]  # Italian has it...
    monkeypatch.delitem(it, "hint.headline")  # ...until a new key is not translated yet
    assert i18n.t("hint.headline", what="X", points=7) == EN["hint.headline"].format(what="X", points=7)
    assert i18n.t("no.such.key") == "no.such.key"  # a key nobody has: shown as it is, not a crash


@pytest.mark.parametrize("lang", ["en", "it"])
def test_zero_and_two_are_plural_one_is_singular(lang):
    assert [catalog.plural_category(lang, n) for n in (0, 1, 2, 11, 21)] == ["other", "one", "other", "other",
                                                                           "other"]
    i18n.set_language(lang)
    try:
        table = i18n.table(lang)
        assert i18n.tn("hint.what_wedding", 0) == table["hint.what_wedding.other"].format(n=0)
        assert i18n.tn("hint.what_wedding", 1) == table["hint.what_wedding.one"].format(n=1)
    finally:
        i18n.set_language("en")


def test_a_logged_card_is_worded_in_the_language_it_is_shown_in(italian):
    term = Term("card", "A", "Harbors")  # logged while the game was in English
    assert format(term) == i18n.table("it")["card.A"] != EN["card.A"]
    i18n.set_language("en")
    assert format(term) == EN["card.A"]
    assert format(Term("card", "italia", "Italia")) == "Italia"  # a region: its map name
