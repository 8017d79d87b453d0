"""The English source of the catalogs, as gettext entries: the interface words (``i18n.EN``,
with the refusals as ``refusal.<key>``) and the rules text, line by line. ``tools/po_sync.py``
writes the template and brings every language's catalog in step with it; the catalog test
(``tests/test_i18n_catalogs.py``) compares them.
"""
from __future__ import annotations

from . import catalog, i18n, rules_text
from .catalog import Entry

PLURAL_SUFFIXES = (".one", ".other")
RULES_NOTE = "A line of the rules text: keep the rule ids in brackets (R1, K1-K4) as they are."


def plural_keys(table: dict[str, str]) -> set[str]:
    """The keys ``x`` that are one plural message: ``x.one`` and ``x.other`` both exist."""
    return {k[:-4] for k in table if k.endswith(".one") and f"{k[:-4]}.other" in table}


def entries() -> list[Entry]:
    """Every message of the game, English only (``msgstr`` empty), in source order."""
    en = i18n.EN
    plurals = plural_keys(en)
    out: list[Entry] = []
    for key, text in en.items():
        if key.endswith(PLURAL_SUFFIXES) and key.rsplit(".", 1)[0] in plurals:
            base = key.rsplit(".", 1)[0]
            if key.endswith(".one"):
                out.append(Entry(base, text, plural=en[f"{base}.other"], forms=["", ""],
                                 comments=["A count: msgstr[0] for one, msgstr[1] for other (CLDR)."]))
            continue
        out.append(Entry(key, text))
    out += [Entry(key, line, comments=[RULES_NOTE]) for key, line in rules_text.entries()]
    return out


def english() -> dict[str, str]:
    """key -> English words of every message (plural keys as ``x.one`` / ``x.other``)."""
    return catalog.flat(entries(), "en", english=True)


def merge(old: list[Entry], nplurals: int = 2) -> tuple[list[Entry], dict[str, list[str]]]:
    """A language's entries brought in step with the English source (a count's entry keeps the
    language's ``nplurals`` forms: three in Polish), and what changed:
    ``stale`` (the English changed since the translation: kept, marked fuzzy, the old English
    in ``#| msgid``), ``missing`` (new keys, untranslated), ``obsolete`` (keys gone, dropped),
    ``fuzzy`` (already marked), ``untranslated``."""
    by_key = {e.context: e for e in old}
    report: dict[str, list[str]] = {"stale": [], "missing": [], "obsolete": [], "fuzzy": [], "untranslated": []}
    out = []
    for src in entries():
        forms = (list(src.forms) + [""] * nplurals)[:nplurals] if src.plural else list(src.forms)
        e = Entry(src.context, src.msgid, plural=src.plural, forms=forms, comments=list(src.comments))
        was = by_key.get(src.context)
        if was is None:
            report["missing"].append(src.context)
        else:
            e.msgstr, e.fuzzy, e.previous = was.msgstr, was.fuzzy, was.previous
            if src.plural:
                e.forms = (was.forms + [""] * nplurals)[:nplurals] if was.forms else [was.msgstr] * nplurals
            if (was.msgid, was.plural) != (src.msgid, src.plural):
                report["stale"].append(src.context)
                e.fuzzy, e.previous = True, was.msgid
            elif was.fuzzy:
                report["fuzzy"].append(src.context)
        if not (all(e.forms) if e.plural else e.msgstr):
            report["untranslated"].append(src.context)
        out.append(e)
    known = {e.context for e in out}
    report["obsolete"] = [e.context for e in old if e.context not in known]
    return out, report
