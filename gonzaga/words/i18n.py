"""Interface words in the player's language: ``t(key, **params)``, ``tn(key, n)`` and the
refusals' words (``rule_text``).

Pure Python (no pygame): the session uses it for the game log. The English is the source
(``en``, ``en_learn``, ``en_online`` and the refusals of ``gonzaga/rules/refusals.py``, as
``refusal.<key>``); every other language is a gettext catalog,
``locale/<lang>/LC_MESSAGES/gonzaga.po`` (see ``catalog``). A key missing from a catalog falls
back to English. Italian wording follows the printed Italian rules (feudo, regione, Porti,
Città, Alleanza, Privilegio del Re, Lega Navale, Matrimonio, confine invalicabile,
terraferma...).
"""
from __future__ import annotations

from typing import Any, Optional

from ..rules.content import Content
from ..rules.engine import TIEBREAKS
from ..rules.refusals import REFUSALS, Illegal
from ..rules.state import GameState
from . import catalog
from .en import EN as _GAME_EN
from .en_accounts import EN as _ACCOUNTS_EN
from .en_learn import EN as _LEARN_EN
from .en_lobby import EN as _LOBBY_EN
from .en_online import EN as _ONLINE_EN
from .en_review import EN as _REVIEW_EN
from .en_access import EN as _ACCESS_EN
from .en_turns import EN as _TURNS_EN

_language = "en"

EN: dict[str, str] = {**_GAME_EN, **_LEARN_EN, **_ONLINE_EN, **_REVIEW_EN, **_ACCOUNTS_EN, **_ACCESS_EN, **_TURNS_EN, **_LOBBY_EN,
                      **{f"refusal.{k}": v for k, v in REFUSALS.items()}}
# The translations of the interface, read from a language's catalog the first time that language
# is asked for (an English game never parses the Italian catalog before its first frame); the
# catalog also holds the rules text (``rules_text``). ``i18n.IT`` is the Italian table.
_TABLES: dict[str, dict[str, str]] = {"en": EN}


def set_language(lang: str) -> None:
    global _language
    _language = lang if lang in catalog.codes() else "en"


def language() -> str:
    return _language


def table(lang: str) -> dict[str, str]:
    if lang not in catalog.codes():
        return EN
    words = _TABLES.get(lang)
    if words is None:
        # a count's forms are kept under the language's own categories (Polish ``key.few``,
        # ``key.many``), which English does not have
        words = _TABLES[lang] = {k: v for k, v in catalog.load(lang).items()
                                 if k in EN or f"{k.rpartition('.')[0]}.other" in EN}
    return words


def __getattr__(name: str) -> Any:
    if name == "IT":  # the Italian table, as ``i18n.IT``
        return table("it")
    if name == "LANGUAGES":  # the codes of ``catalog.LANGUAGES``, read when asked (a test may add one)
        return catalog.codes()
    raise AttributeError(name)


def languages(current: str = "") -> list[tuple[str, str]]:
    """(code, name) of every language the settings' picker offers, English first (and
    ``current``, one reached with ``--lang``, so that the picker can show it)."""
    return [(lang.code, lang.name) for lang in catalog.LANGUAGES if lang.offered or lang.code == current]


def t(key: str, **params: object) -> str:
    """The words for ``key`` in the current language, with ``{params}`` filled in."""
    return _fill(table(_language).get(key) or EN.get(key), key, params)


def english(key: str, **params: object) -> str:
    """The English words for ``key`` (logs, tools, a server's ``message``), whatever the
    interface language; the key itself when it has none."""
    return _fill(EN.get(key), key, params)


def _fill(text: Optional[str], key: str, params: dict[str, object]) -> str:
    """``text`` with ``params`` filled in; the key when there are no words, the words unfilled
    when a placeholder does not match (a translation's slip shows, never crashes the screen)."""
    if text is None:
        return key
    try:
        return text.format(**params) if params else text
    except (KeyError, IndexError, ValueError):
        return text


def known(key: str) -> bool:
    """Whether ``key`` has words (a key that came over the network may not)."""
    return key in EN


def tn(key: str, n: int, **params: object) -> str:
    """A number and its noun in the current language: ``key.<category>`` with the CLDR plural
    category of ``n`` (``one`` or ``other`` in English and Italian; ``one``, ``few``, ``many`` in
    Polish), with ``{n}`` and ``params``; English's ``other`` where the language has no words."""
    cat = catalog.plural_category(_language, n)
    if f"{key}.{cat}" not in table(_language) and f"{key}.{cat}" not in EN:
        cat = "other"
    return t(f"{key}.{cat}", n=n, **params)


class Term:
    """A parameter of a game-log line that is put into words only when the line is shown, so
    that the log keeps keys and ids and a change of language re-renders every line:
    ``Term("card", id, name)`` a planning card (region id with its map name, ``inactive``, or
    A/B/C/K), ``Term("n", key, n)`` a number with its noun (:func:`tn`), ``Term("t", key, params)``
    a sentence, ``Term("join", sep, parts)`` parts joined."""

    __slots__ = ("kind", "args")

    def __init__(self, kind: str, *args: Any):
        self.kind = kind
        self.args = args  # their types depend on ``kind`` (above)

    def __format__(self, spec: str) -> str:
        k, a = self.kind, self.args
        if k == "card":
            card: str
            name: str
            card, name = a
            return t(f"card.{card}") if card in ("A", "B", "C", "K", "inactive") else name
        if k == "n":
            return tn(a[0], a[1])
        if k == "t":
            return t(a[0], **a[1])
        if k == "join":
            sep: str = a[0]
            return sep.join(format(x) for x in a[1])
        return str(a)

    def __str__(self) -> str:
        return format(self)

    def __repr__(self) -> str:
        return f"Term({self.kind!r}, {', '.join(repr(x) for x in self.args)})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Term) and (self.kind, self.args) == (other.kind, other.args)

    def __hash__(self) -> int:
        return hash((self.kind, repr(self.args)))


def _content(state_or_content: GameState | Content | None) -> Optional[Content]:
    return state_or_content.content if isinstance(state_or_content, GameState) else state_or_content


def card_term(state_or_content: GameState | Content | None, card: str) -> Term:
    content = _content(state_or_content)
    return Term("card", card, content.region_names.get(card, card) if content is not None else card)


def tiebreak(text: str) -> str:
    """The engine's tie-break (``GameState.tiebreak``, one of ``engine.TIEBREAKS``) in the
    current language; "" for none (a sentence from elsewhere is shown as it is)."""
    how = TIEBREAKS.get(text)
    if how is not None:
        return t(f"end.tb_{how}")
    return text


def rule_text(why: Illegal) -> str:
    """What a refusal (an ``Illegal``) says to the player, in the interface language: worded
    from its key and parameters (an action card's letter becomes the card's name); its rule id
    is never shown (it stays in the log file). A refusal without a key shows its own words."""
    if why.key:
        args = why.args
        if "action" in args:
            args["action"] = t(f"card.{args['action']}")
        msg = t(f"refusal.{why.key}", **args)
    else:
        msg = why.said
    return msg[:1].upper() + msg[1:]


placeholders = catalog.placeholders


def colour_name(colour: str) -> str:
    return t(f"colour.{colour}")


def card_name(state_or_content: GameState | Content, card: str) -> str:
    """A planning card's name: a region id, ``inactive``, or A/B/C/K."""
    if card in ("A", "B", "C", "K"):
        return t(f"card.{card}")
    if card == "inactive":
        return t("card.inactive")
    content = _content(state_or_content)
    assert content is not None
    return content.region_names.get(card, card)
