"""The words floor (issue 38): every language's catalog is complete and in step with the English
source, every refusal the game can give has words in every language, counted nouns follow the
CLDR plural rules, and the floor never imports pygame or the floors above it."""
from __future__ import annotations

import ast
import dataclasses
import re
import subprocess
import sys
from pathlib import Path

import pytest

from gonzaga.rules import GameConfig, Plan, apply, check, deal, new_game
from gonzaga.rules.refusals import REFUSALS, Illegal
from gonzaga.words import catalog, i18n, rules_text, source

ROOT = Path(__file__).resolve().parent.parent
WORDS = ROOT / "gonzaga" / "words"
OTHER_LANGUAGES = [lang for lang in i18n.LANGUAGES if lang != "en"]


def expected_keys(lang: str, english: dict) -> dict:
    """English's keys as ``lang`` has them: a count's ``key.one``/``key.other`` become the
    language's own plural categories (Polish: one, few, many), each with the English words."""
    cats = catalog.language(lang).plurals
    counts = {k[:-4] for k in english if k.endswith(".one") and k[:-4] + ".other" in english}
    out = {}
    for key, text in english.items():
        base, _, cat = key.rpartition(".")
        if base in counts and cat in ("one", "other"):
            out.update({f"{base}.{c}": english[f"{base}.other"] for c in cats})
        else:
            out[key] = text
    return out


def test_every_language_has_a_catalog_with_every_key_and_the_same_placeholders():
    english = source.english()
    for lang in OTHER_LANGUAGES:
        words = catalog.load(lang)
        want = expected_keys(lang, english)
        assert set(words) == set(want), set(words) ^ set(want)
        for key, text in want.items():
            assert catalog.placeholders(text) == catalog.placeholders(words[key]), (lang, key)
        assert set(i18n.table(lang)) == set(expected_keys(lang, i18n.EN))


def test_polish_counts_have_three_forms_chosen_by_its_plural_rule():
    """The catalog's header rule picks the form (gettext's reading of it): 1 one, 2-4 few
    (not 12-14), 0 and 5+ many; French counts 0 as one."""
    pl = catalog.language("pl")
    assert [pl.category(n) for n in (1, 2, 4, 5, 12, 14, 22, 25, 0, 112)] == \
        ["one", "few", "few", "many", "many", "many", "few", "many", "many", "many"]
    assert catalog.language("fr").category(0) == "one" and catalog.language("en").category(0) == "other"
    words = catalog.load("pl")
    assert {words["n.plans.one"], words["n.plans.few"], words["n.plans.many"]} == {"{n} plan", "{n} plany", "{n} planów"}
    try:  # and the interface says them so
        i18n.set_language("pl")
        assert [i18n.tn("n.plans", n) for n in (1, 3, 5, 22)] == ["1 plan", "3 plany", "5 planów", "22 plany"]
    finally:
        i18n.set_language("en")


@pytest.mark.parametrize("lang", OTHER_LANGUAGES)
def test_no_catalog_is_stale(lang):
    """A translation made for other English is stale: ``tools/po_sync.py`` marks it fuzzy and the
    translator checks it. Nothing stale, fuzzy, missing, untranslated or obsolete is shipped."""
    _, entries = catalog.read_po(catalog.po_path(lang))
    _, report = source.merge(entries, len(catalog.language(lang).plurals))
    assert report == {k: [] for k in report}, report


def test_a_changed_english_text_is_reported_stale():
    _, entries = catalog.read_po(catalog.po_path("it"))
    changed = next(e for e in entries if e.context == "place.confirm")
    changed.msgid = "Confirm the place"  # the English the translation was made for, not today's
    new, report = source.merge(entries)
    assert report["stale"] == ["place.confirm"]
    e = next(e for e in new if e.context == "place.confirm")
    assert e.fuzzy and e.previous == "Confirm the place" and e.msgid == i18n.EN["place.confirm"]
    assert "place.confirm" not in catalog.flat(new, "it")  # the game shows English until checked


def test_the_template_is_in_step(tmp_path):
    pot = catalog.LOCALE / f"{catalog.DOMAIN}.pot"
    _, entries = catalog.read_po(pot)
    assert [(e.context, e.msgid, e.plural) for e in entries] == \
        [(e.context, e.msgid, e.plural) for e in source.entries()], "run python tools/po_sync.py"


def test_a_catalog_reads_back_what_was_written_and_refuses_a_key_twice(tmp_path):
    path = tmp_path / "x.po"
    entries = [catalog.Entry("a.b", 'Say "hi"\n\tthere', "Di' \"ciao\""),
               catalog.Entry("n.x", "{n} x", plural="{n} xs", forms=["{n} ics", "{n} icses"], fuzzy=True,
                             comments=["a count"], previous="{n} old")]
    catalog.write_po(path, {"Language": "it"}, entries)
    header, back = catalog.read_po(path)
    assert header["Language"] == "it" and back == entries
    path.write_text(path.read_text(encoding="utf-8") + '\nmsgctxt "a.b"\nmsgid "again"\nmsgstr "ancora"\n',
                    encoding="utf-8")
    with pytest.raises(catalog.CatalogError, match="a.b"):
        catalog.read_po(path)


def test_a_damaged_catalog_leaves_english_not_a_crash(tmp_path, monkeypatch, caplog):
    po = tmp_path / "it" / "LC_MESSAGES" / f"{catalog.DOMAIN}.po"
    po.parent.mkdir(parents=True)
    po.write_text('msgctxt "a"\nmsgid "b"\nmsgstr "c\n', encoding="utf-8")  # an unclosed string
    monkeypatch.setattr(catalog, "LOCALE", tmp_path)
    assert catalog.load.__wrapped__("it") == {}
    assert "cannot be read" in caplog.text
    po.write_bytes(b'msgctxt "a"\nmsgid "b"\nmsgstr "\xff"\n')  # not UTF-8
    assert catalog.load.__wrapped__("it") == {}


def test_the_english_source_holds_each_key_once():
    """Two entries with one key in a dict literal: the second wins silently (issue 38 found
    ``online.away`` twice)."""
    for path in sorted(WORDS.glob("en*.py")) + [ROOT / "gonzaga" / "rules" / "refusals.py"]:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Dict):
                keys = [k.value for k in node.keys if isinstance(k, ast.Constant)]
                twice = {k for k in keys if keys.count(k) > 1}
                assert not twice, f"{path.name}: {sorted(twice)}"


def _constants(node) -> set[str]:
    """The string values an argument can take: a constant, or both sides of ``a if c else b``."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return {node.value}
    if isinstance(node, ast.IfExp):
        return _constants(node.body) | _constants(node.orelse)
    raise AssertionError(f"line {node.lineno}: a refusal key must be written out, not computed")


def _refusal_keys_in_the_code() -> set[str]:
    """Every refusal key the code can build, read from the source: ``Illegal.of(rule, "key", ...)``
    and ``_in_region(rule, "key", ...)`` of legality.py (which also gives ``key_inactive``)."""
    keys: set[str] = set()
    for path in (ROOT / "gonzaga").rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        helper = {id(n) for f in ast.walk(tree) if isinstance(f, ast.FunctionDef) and f.name == "_in_region"
                  for n in ast.walk(f)}  # its calls pass the key on: its callers are read instead
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call) or len(node.args) < 2 or id(node) in helper:
                continue
            f = node.func
            if isinstance(f, ast.Attribute) and f.attr == "of" and getattr(f.value, "id", "") in ("Illegal", "SeatRefused"):
                keys |= _constants(node.args[1])
            elif isinstance(f, ast.Name) and f.id == "_in_region":
                keys |= {k + tail for k in _constants(node.args[1]) for tail in ("", "_inactive")}
    return keys


def test_every_refusal_the_code_gives_has_words_in_every_language():
    used = _refusal_keys_in_the_code()
    assert {"fief_there", "not_in_region", "not_in_region_inactive", "harbors_need", "harbors_no_city",
            "first_ring", "first_ring_inactive", "seat_computer"} <= used
    assert used <= set(REFUSALS), used - set(REFUSALS)
    assert set(REFUSALS) <= used, f"refusals nobody gives: {set(REFUSALS) - used}"
    for lang in i18n.LANGUAGES:
        table = i18n.table(lang)
        for key in REFUSALS:
            assert table.get(f"refusal.{key}"), (lang, key)


def test_a_refusal_needs_a_key_of_the_registry():
    with pytest.raises(KeyError):
        Illegal("P7", "a fief is already there")  # a sentence where the key belongs
    why = Illegal.of("P1", "not_in_region", region="Italia")
    assert why.message == "no hex of the fief is in Italia" and str(why) == "P1: no hex of the fief is in Italia"


@pytest.mark.rule("R3")
def test_R3_the_inactive_regions_card_played_last_round_reads_well_in_both_languages():
    """It said "the the inactive regions card was played last round" (and, in Italian, "la carta
    the inactive regions ..."): the inactive regions now have refusals of their own."""
    st = new_game(GameConfig(seats=3))
    st = apply(st, deal(st, __import__("random").Random(3)))
    assert "inactive" in st.region_cards()
    st = st.with_seat(0, unavailable=frozenset({"inactive"}))
    why = check(st, Plan(0, "inactive", "A"))
    assert why.rule == "R3" and why.message == "the Inactive Regions card was played last round"
    try:
        i18n.set_language("it")
        assert i18n.rule_text(why) == "La carta Regioni inattive è stata giocata al turno scorso"
    finally:
        i18n.set_language("en")


def test_counted_nouns_follow_the_cldr_plural_rules():
    assert [catalog.plural_category("it", n) for n in (0, 1, 2, 5)] == ["other", "one", "other", "other"]
    assert [catalog.plural_category("en", n) for n in (0, 1, 2)] == ["other", "one", "other"]
    try:
        i18n.set_language("it")
        assert [i18n.tn("n.rings", n) for n in (0, 1, 2)] == ["0 anelli", "1 anello", "2 anelli"]
    finally:
        i18n.set_language("en")
    assert [i18n.tn("n.rings", n) for n in (0, 1, 2)] == ["0 rings", "1 ring", "2 rings"]
    _, entries = catalog.read_po(catalog.po_path("it"))
    counted = {e.context for e in entries if e.plural}
    assert {"n.rings", "place.rings_left", "stats.reset_body"} <= counted
    assert counted == source.plural_keys(i18n.EN)


def test_the_rules_text_comes_from_the_catalog():
    it = rules_text.text("it")
    assert it != rules_text.text("en")
    assert it.count("\n# ") == rules_text.EN.count("\n# ")
    assert catalog.load("it")["rules.0.0"] in it


def test_the_words_floor_imports_no_pygame_nor_the_floors_above():
    for path in WORDS.glob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [("." * node.level) + (node.module or "")]
            for name in names:
                assert not re.match(r"(pygame|\.\.(ui|render|scenes|net|ai|session|app)\b|gonzaga\.(ui|render|scenes))",
                                    name), f"{path.name} imports {name}"
    code = ("import sys, gonzaga.words.i18n, gonzaga.words.rules_pages, gonzaga.words.source; "
            "assert 'pygame' not in sys.modules, 'pygame'")
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT)


def test_msgfmt_accepts_the_catalogs():
    """GNU gettext's own check (placeholders of python-brace-format entries, plural forms), where
    the tool is installed."""
    import shutil
    if shutil.which("msgfmt") is None:
        pytest.skip("GNU gettext's msgfmt is not installed")
    for po in catalog.LOCALE.glob("*/LC_MESSAGES/*.po"):
        subprocess.run(["msgfmt", "--check", "-o", "/dev/null", str(po)], check=True, capture_output=True)


def test_the_picker_offers_only_languages_every_screen_fits_in(monkeypatch):
    """Every language is offered once the layout walk passes in it (all six, issue 49); one not
    offered yet is reached with ``--lang``, and the picker then shows it."""
    assert [code for code, _ in i18n.languages()] == ["en", "it", "de", "fr", "es", "pl"]
    monkeypatch.setattr(catalog, "LANGUAGES", [dataclasses.replace(x, offered=x.code in ("en", "it"))
                                               for x in catalog.LANGUAGES])
    assert [code for code, _ in i18n.languages()] == ["en", "it"]
    assert ("pl", "Polski") in i18n.languages("pl") and ("de", "Deutsch") not in i18n.languages("pl")


def test_bringing_a_catalog_in_step_keeps_every_form_of_a_count():
    """tools/po_sync.py merges with the language's own number of forms: Polish keeps its third
    (it once cut every count to two, and the catalog lost its 'many' forms)."""
    _, entries = catalog.read_po(catalog.po_path("pl"))
    new, _ = source.merge(entries, len(catalog.language("pl").plurals))
    was = {e.context: e.forms for e in entries if e.plural}
    kept = {e.context: e.forms for e in new if e.plural}
    assert kept == was and all(len(f) == 3 and all(f) for f in kept.values())


def test_a_count_without_words_in_its_category_reads_english(monkeypatch):
    """A language missing one form of a count shows English's plural words, not its singular."""
    try:
        i18n.set_language("pl")
        monkeypatch.delitem(i18n.table("pl"), "n.plans.few")
        assert i18n.tn("n.plans", 3) == "3 plans"
        assert i18n.tn("n.plans", 5) == "5 planów"
    finally:
        i18n.set_language("en")
