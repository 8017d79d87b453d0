"""The translators' catalogs: gettext ``.po`` files read and written with the standard library,
and the CLDR plural rules of the game's languages.

One catalog per language, ``locale/<lang>/LC_MESSAGES/gonzaga.po``. Every entry has
``msgctxt`` = the key (``place.confirm``), ``msgid`` = the English words, ``msgstr`` = the
translation. A message with a count is one plural entry (``msgid`` / ``msgid_plural``,
``msgstr[0]`` / ``msgstr[1]``, indexed as the language's CLDR categories: ``one``, ``other``);
the game's flat tables see it as two keys, ``<key>.one`` and ``<key>.other``.

Why the standard library and not Babel: the game reads the ``.po`` directly (no ``.mo`` to
compile and keep in step, no build step before a frozen build), the format the game uses is a
small subset of gettext's, and Babel would add its CLDR data (tens of MB) to every frozen copy
for two plural rules. Translators still work in any gettext tool (Poedit, Lokalize, Weblate).
``tools/po_sync.py`` writes the catalogs and the template from the English source.
"""
from __future__ import annotations

import gettext
import logging
import string
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable, Optional

log = logging.getLogger(__name__)

LOCALE = Path(__file__).resolve().parent / "locale"
DOMAIN = "gonzaga"

@lru_cache(maxsize=None)
def plural_index(plural_forms: str) -> Callable[[int], int]:
    """The ``msgstr[i]`` index of a count, from a gettext ``Plural-Forms`` header: the standard
    library's own reading of its C expression (``gettext.c2py``), not a rule written again here."""
    expr = plural_forms.split("plural=", 1)[1].strip().rstrip(";")
    return gettext.c2py(expr)


@dataclass(frozen=True)
class Language:
    """A language of the game: its code (the catalog's folder), its name as its speakers write
    it (the settings' picker shows each language so), and its plural rule for counts: the
    gettext ``Plural-Forms`` header (written into the catalog by tools/po_sync.py) and the CLDR
    category (https://cldr.unicode.org, "Language Plural Rules") of each ``msgstr[i]``, in order."""

    code: str
    name: str
    plurals: tuple[str, ...] = ("one", "other")
    plural_forms: str = "nplurals=2; plural=(n != 1);"
    # offered in the settings' picker: a language joins it once every screen fits in it (the
    # layout walk); until then ``--lang`` reaches it, for translators and testers
    offered: bool = True

    def category(self, n: int) -> str:
        """The CLDR category of the integer count ``n`` (``key.one``, ``key.few``...)."""
        return self.plurals[plural_index(self.plural_forms)(n)]


# Every language, in one table (English first: the source). A new language is one entry here
# and its catalog, ``locale/<code>/LC_MESSAGES/gonzaga.po`` (docs/translating.md). The plural
# headers are gettext's usual ones for each language; the glossaries are in docs/glossary/.
# Every one is offered: the layout walk finds every screen fits in each (issue 49).
LANGUAGES: list[Language] = [
    Language("en", "English"),
    Language("it", "Italiano"),
    Language("de", "Deutsch"),
    Language("fr", "Français", plural_forms="nplurals=2; plural=(n > 1);"),
    Language("es", "Español"),
    Language("pl", "Polski", ("one", "few", "many"),
             "nplurals=3; plural=(n==1 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);"),
]


def language(code: str) -> Optional[Language]:
    return next((lang for lang in LANGUAGES if lang.code == code), None)


def codes() -> tuple[str, ...]:
    """The codes of every language, English first. Asked for every word on every frame
    (``i18n.table``): worked out again only when the table is another (a test may add a language)."""
    global _codes
    if _codes[0] is not LANGUAGES or _codes[1] != len(LANGUAGES):
        _codes = (LANGUAGES, len(LANGUAGES), tuple(lang.code for lang in LANGUAGES))
    return _codes[2]


_codes: tuple[object, int, tuple[str, ...]] = (None, -1, ())


def plural_category(lang: str, n: int) -> str:
    """The CLDR plural category of the integer ``n`` in ``lang`` (``one`` or ``other``...)."""
    found = language(lang)
    return found.category(n) if found is not None else "other"


def po_path(lang: str) -> Path:
    return LOCALE / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


class CatalogError(ValueError):
    """A ``.po`` file this reader cannot make sense of (line number and why)."""


@dataclass
class Entry:
    """One message of a catalog."""

    context: str
    msgid: str
    msgstr: str = ""
    plural: str = ""  # msgid_plural; then ``forms`` holds msgstr[0..]
    forms: list[str] = field(default_factory=list)
    fuzzy: bool = False
    comments: list[str] = field(default_factory=list)  # "#." lines for the translator
    previous: str = ""  # "#| msgid": the English the translation was made for


def _unquote(text: str, line_no: int) -> str:
    text = text.strip()
    if len(text) < 2 or text[0] != '"' or text[-1] != '"':
        raise CatalogError(f"line {line_no}: expected a quoted string")
    out, i, body = [], 0, text[1:-1]
    escapes = {"n": "\n", "t": "\t", '"': '"', "\\": "\\", "r": "\r"}
    while i < len(body):
        c = body[i]
        if c == "\\" and i + 1 < len(body):
            out.append(escapes.get(body[i + 1], body[i + 1]))
            i += 2
            continue
        out.append(c)
        i += 1
    return "".join(out)


def _quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\t", "\\t") + '"'


def read_po(path: Path) -> tuple[dict[str, str], list[Entry]]:
    """(header fields, entries) of a ``.po`` file. Obsolete entries (``#~``) are skipped; a
    repeated context is an error (one key, one message)."""
    entries: list[Entry] = []
    header: dict[str, str] = {}
    cur: dict[str, Any] = {}  # field name -> its text; flags and comments -> their lists
    field_name = None
    seen: set[str] = set()

    def flush() -> None:
        nonlocal cur
        if "msgid" not in cur:
            return  # comments and flags waiting for their entry
        e = Entry(cur.get("msgctxt", ""), cur["msgid"], cur.get("msgstr", ""), cur.get("msgid_plural", ""),
                  [cur[k] for k in sorted((k for k in cur if k.startswith("msgstr[")),
                                          key=lambda k: int(k[7:-1]))],
                  "fuzzy" in cur.get("flags", ()), cur.get("comments", []), cur.get("previous", ""))
        if not e.context and not e.msgid:
            for line in e.msgstr.splitlines():
                if ":" in line:
                    k, v = line.split(":", 1)
                    header[k.strip()] = v.strip()
        else:
            if e.context in seen:
                raise CatalogError(f"{path.name}: the key {e.context!r} is there twice")
            seen.add(e.context)
            entries.append(e)
        cur = {}

    for no, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        line = raw.strip()
        if not line:
            continue
        if line.startswith("#~"):
            continue
        if line.startswith("#"):
            if field_name is not None:
                flush()
                field_name = None
            if line.startswith("#,"):
                cur.setdefault("flags", []).extend(f.strip() for f in line[2:].split(","))
            elif line.startswith("#."):
                cur.setdefault("comments", []).append(line[2:].strip())
            elif line.startswith("#| msgid "):
                cur["previous"] = _unquote(line[len("#| msgid "):], no)
            continue
        if line.startswith('"'):
            if field_name is None:
                raise CatalogError(f"{path.name} line {no}: a string outside any field")
            cur[field_name] += _unquote(line, no)
            continue
        key, _, rest = line.partition(" ")
        if key not in ("msgctxt", "msgid", "msgid_plural", "msgstr") and not (
                key.startswith("msgstr[") and key.endswith("]")):
            raise CatalogError(f"{path.name} line {no}: unknown field {key!r}")
        if key in ("msgctxt", "msgid") and "msgid" in cur:
            flush()  # a new entry begins
        cur[key] = _unquote(rest, no)
        field_name = key
    flush()
    return header, entries


def write_po(path: Path, header: dict[str, str], entries: list[Entry]) -> None:
    lines = ['msgid ""', 'msgstr ""'] + [_quote(f"{k}: {v}\n") for k, v in header.items()]
    for e in entries:
        lines.append("")
        lines += [f"#. {c}" for c in e.comments]
        flags = (["fuzzy"] if e.fuzzy else []) + (
            ["python-brace-format"] if placeholders(e.msgid) or placeholders(e.plural) else [])
        if flags:
            lines.append("#, " + ", ".join(flags))
        if e.previous:
            lines.append(f"#| msgid {_quote(e.previous)}")
        lines.append(f"msgctxt {_quote(e.context)}")
        lines.append(f"msgid {_quote(e.msgid)}")
        if e.plural:
            lines.append(f"msgid_plural {_quote(e.plural)}")
            lines += [f"msgstr[{i}] {_quote(f)}" for i, f in enumerate(e.forms)]
        else:
            lines.append(f"msgstr {_quote(e.msgstr)}")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def placeholders(text: str) -> set[str]:
    """The ``{names}`` of a ``str.format`` text."""
    return {f for _, f, _, _ in string.Formatter().parse(text) if f}


def flat(entries: list[Entry], lang: str, english: bool = False) -> dict[str, str]:
    """key -> words: a plural entry gives ``key.one`` / ``key.other`` (the language's CLDR
    categories in ``msgstr[i]`` order). Untranslated and fuzzy entries are left out (the game
    falls back to English), as gettext does; ``english`` reads the msgids instead."""
    out: dict[str, str] = {}
    found = language(lang)
    cats = found.plurals if found is not None else ("one", "other")
    for e in entries:
        if e.plural:
            forms = [e.msgid, e.plural] if english else e.forms
            if not english and (e.fuzzy or not all(forms)):
                continue
            for cat, text in zip(cats if not english else ("one", "other"), forms):
                out[f"{e.context}.{cat}"] = text
        elif english:
            out[e.context] = e.msgid
        elif e.msgstr and not e.fuzzy:
            out[e.context] = e.msgstr
    return out


@lru_cache(maxsize=8)
def load(lang: str) -> dict[str, str]:
    """The translations of ``lang`` by key (empty when the language has no catalog); read once
    (the interface and the rules text share it), not to be changed by callers."""
    path = po_path(lang)
    if not path.is_file():
        return {}
    try:
        return flat(read_po(path)[1], lang)
    except (OSError, UnicodeDecodeError, CatalogError) as e:  # a hand-edited catalog: English, not a crash
        log.warning("the %s catalog %s cannot be read (%s): the game speaks English", lang, path, e)
        return {}
