"""Check translated catalogs against the English template, with the reader the game uses.

    python3 lab/po_lint.py de fr es pl

Reads gonzaga/words/catalog.py from its file (read-only; no virtualenv needed) and checks,
per language: every msgctxt of gonzaga.pot present and no extra one, the same msgid, no empty
or fuzzy msgstr, ``{placeholders}`` identical to the English (plural forms: to the union of
msgid and msgid_plural), ``nplurals`` msgstr[i] lines for each plural entry, the header's
Language and Plural-Forms. Prints entries and translated share; exit status 1 on any problem.
"""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
_spec = importlib.util.spec_from_file_location("_catalog", ROOT / "gonzaga/words/catalog.py")
assert _spec and _spec.loader
catalog = importlib.util.module_from_spec(_spec)
sys.modules["_catalog"] = catalog
_spec.loader.exec_module(catalog)

# gettext's standard Plural-Forms for each language this lint knows
PLURAL_FORMS = {
    "de": "nplurals=2; plural=(n != 1);",
    "es": "nplurals=2; plural=(n != 1);",
    "fr": "nplurals=2; plural=(n > 1);",
    "it": "nplurals=2; plural=(n != 1);",
    "pl": "nplurals=3; plural=(n==1 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);",
}


def lint(lang: str) -> tuple[list[str], int, int]:
    """(problems, entries, translated entries) of one language's catalog."""
    _, template = catalog.read_po(ROOT / "gonzaga/words/locale/gonzaga.pot")
    header, entries = catalog.read_po(catalog.po_path(lang))
    problems: list[str] = []
    want_forms = PLURAL_FORMS[lang]
    if header.get("Language") != lang:
        problems.append(f"header Language is {header.get('Language')!r}")
    if header.get("Plural-Forms") != want_forms:
        problems.append(f"header Plural-Forms is {header.get('Plural-Forms')!r}")
    nplurals = int(re.search(r"nplurals=(\d+)", want_forms).group(1))  # type: ignore[union-attr]
    by_key = {e.context: e for e in entries}
    done = 0
    for t in template:
        e = by_key.pop(t.context, None)
        if e is None:
            problems.append(f"{t.context}: missing")
            continue
        if e.msgid != t.msgid or e.plural != t.plural:
            problems.append(f"{t.context}: the English differs from the template")
        if e.fuzzy:
            problems.append(f"{t.context}: fuzzy")
        texts = e.forms if t.plural else [e.msgstr]
        if t.plural and len(e.forms) != nplurals:
            problems.append(f"{t.context}: {len(e.forms)} plural forms, not {nplurals}")
        if not all(s.strip() for s in texts):
            problems.append(f"{t.context}: empty translation")
            continue
        want = catalog.placeholders(t.msgid) | catalog.placeholders(t.plural)
        for s in texts:
            try:
                got = catalog.placeholders(s)
            except ValueError as exc:
                problems.append(f"{t.context}: broken braces ({exc}): {s!r}")
                continue
            # a singular form may leave out {n} ("one ring"), never add a name
            if got - want or (want - got and not (t.plural and want - got <= {"n"})):
                problems.append(f"{t.context}: placeholders {sorted(got)} instead of {sorted(want)}")
        if not e.fuzzy:
            done += 1
    problems += [f"{k}: not in the template" for k in by_key]
    return problems, len(template), done


def main(langs: list[str]) -> int:
    bad = 0
    for lang in langs:
        problems, total, done = lint(lang)
        print(f"{lang}: {done}/{total} entries translated ({100 * done / total:.1f} %), "
              f"{len(problems)} problem(s)")
        for p in problems:
            print(f"  {p}")
        bad += bool(problems)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:] or ["de", "fr", "es", "pl"]))
