"""Bring the translators' catalogs in step with the English source (issue 38).

    python tools/po_sync.py            # write locale/gonzaga.pot and update every language's .po
    python tools/po_sync.py --check    # write nothing; exit 1 when a catalog is out of step

Updating keeps every translation. Where the English changed since a translation was made, the
entry is marked ``#, fuzzy`` with the old English in ``#| msgid`` (the game then shows English
until a translator checks it and removes the mark); new keys come in untranslated, keys gone
from the source are dropped. The report names every such key.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from gonzaga.words import catalog, source  # noqa: E402

HEADER = {
    "Project-Id-Version": "gonzaga",
    "MIME-Version": "1.0",
    "Content-Type": "text/plain; charset=UTF-8",
    "Content-Transfer-Encoding": "8bit",
}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--check", action="store_true", help="write nothing; exit 1 when out of step")
    a = p.parse_args(argv)
    bad = False
    if not a.check:
        catalog.write_po(catalog.LOCALE / f"{catalog.DOMAIN}.pot", HEADER, source.entries())
    for po in sorted(catalog.LOCALE.glob(f"*/LC_MESSAGES/{catalog.DOMAIN}.po")):
        lang = po.parent.parent.name
        header, old = catalog.read_po(po)
        found = catalog.language(lang)
        new, report = source.merge(old, len(found.plurals) if found is not None else 2)
        for what, keys in report.items():
            if keys:
                bad = True
                print(f"{lang}: {len(keys)} {what}: {', '.join(keys[:20])}{' ...' if len(keys) > 20 else ''}")
        if not a.check:
            header = {**HEADER, **header, "Language": lang, "Plural-Forms": catalog.language(lang).plural_forms}
            catalog.write_po(po, header, new)
    if a.check and bad:
        print("catalogs out of step: run python tools/po_sync.py, then translate the keys above")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
