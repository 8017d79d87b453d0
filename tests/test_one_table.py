"""Issue 45, each concept defined once: an AI level is one entry of ``ai/roster.LEVELS`` plus its
words, a language one entry of ``words/catalog.LANGUAGES`` plus its catalog, an online message
type one model of ``net/protocol.py``. Each test adds one and everything that lists them picks
it up: the new game and settings screens, the server's allowed levels, the command line, the
statistics, the hint, and the catalog check."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from gonzaga.ai import roster
from gonzaga.ai.roster import Level
from gonzaga.net import protocol as P
from gonzaga.net.admission import Admission, Refused
from gonzaga.words import catalog, i18n, source

ROOT = Path(__file__).resolve().parent.parent


def level_words_missing() -> list[tuple[str, str]]:
    """(language, level) of every level without its words (``level.<name>``) in some language."""
    return [(lang, lv.name) for lang in i18n.LANGUAGES for lv in roster.LEVELS
            if not i18n.table(lang).get(f"level.{lv.name}")]


def test_every_level_has_words_in_every_language():
    assert level_words_missing() == []


@pytest.fixture
def master(monkeypatch):
    """A new level, the strongest, offered to players: one entry of the roster."""
    monkeypatch.setattr(roster, "LEVELS", roster.LEVELS + (Level("master", "gonzaga.ai.levels:MediumBot",
                                                                   shipped=True),))
    return "master"


def test_a_new_level_is_one_entry_and_its_words(master, monkeypatch, make_app):
    from gonzaga import app as app_module
    from gonzaga.cli import run
    from gonzaga.scenes.new_game import ai_levels
    from gonzaga.table import hints, stats
    assert level_words_missing() == [(code, "master") for code in catalog.codes()]  # the check asks for its words
    monkeypatch.setitem(i18n.EN, "level.master", "Master")
    for code in catalog.codes()[1:]:
        monkeypatch.setitem(i18n.table(code), "level.master", f"Master ({code})")
    assert level_words_missing() == []
    # everything that lists levels has it
    assert ai_levels() == ["easy", "medium", "hard", "expert", "master"]
    assert roster.shipped_levels()[-1] == "master" and roster.default_level(ai_levels()) == "medium"
    Admission().check_level("master", 1)  # a public server seats it
    with pytest.raises(Refused) as no:
        Admission().check_level("greedy", 1)
    assert no.value.params["levels"] == "easy, medium, hard, expert, master"
    assert hints.strongest_level() == "master" and stats.level_order()[-1] == "master"
    assert roster.make_bot("master", 3).choose is not None and not roster.searches("master")
    assert app_module.parse_args(["--demo", "--seats", "2", "--bots", "master,easy"]).bots == ["master", "easy"]
    assert run(["simulate", "--seats", "2", "--bots", "master,random", "--games", "1"]) == 0
    # the new game screen offers it, in words
    app = make_app((1600, 1000))
    scene = app.stack.push("new_game")
    app.run_frames(1)
    assert "Master" in [getattr(w, "label", None) for w in scene.widgets.items]


@pytest.fixture
def klingon(monkeypatch, tmp_path):
    """A new language in a copy of the catalogs: one entry of the table and its catalog (made
    from the Italian one, every entry a Klingon word for this test)."""
    locale = tmp_path / "locale"
    shutil.copytree(catalog.LOCALE, locale)
    header, entries = catalog.read_po(locale / "it" / "LC_MESSAGES" / "gonzaga.po")
    for e in entries:
        if e.plural:
            e.forms = [f"tlh {e.msgid}", f"tlh {e.plural}"]
        else:
            e.msgstr = "tlh " + e.msgid if e.context != "title.new" else "chu' Quj"
    (locale / "tlh" / "LC_MESSAGES").mkdir(parents=True)
    catalog.write_po(locale / "tlh" / "LC_MESSAGES" / "gonzaga.po", {**header, "Language": "tlh"}, entries)
    monkeypatch.setattr(catalog, "LOCALE", locale)
    monkeypatch.setattr(catalog, "LANGUAGES", catalog.LANGUAGES + [catalog.Language("tlh", "tlhIngan Hol")])
    catalog.load.cache_clear()
    i18n._TABLES.pop("tlh", None)
    yield "tlh"
    catalog.load.cache_clear()
    i18n._TABLES.pop("tlh", None)
    i18n.set_language("en")


def test_a_new_language_is_one_entry_and_its_catalog(klingon, make_app):
    from gonzaga import app as app_module
    from gonzaga.table import persistence
    assert "tlh" in i18n.LANGUAGES and ("tlh", "tlhIngan Hol") in i18n.languages()
    i18n.set_language("tlh")
    assert i18n.language() == "tlh" and i18n.t("title.new") == "chu' Quj"
    assert app_module.parse_args(["--lang", "tlh"]).lang == "tlh"
    assert persistence.Settings(language="tlh").language == "tlh"
    # the catalog check reads every language's catalog: an entry left out is reported
    _, entries = catalog.read_po(catalog.LOCALE / "tlh" / "LC_MESSAGES" / "gonzaga.po")
    _, report = source.merge(entries[1:])
    assert report["missing"] == [entries[0].context]
    # the settings screen offers it, by its own name
    i18n.set_language("en")
    app = make_app((1600, 1000))
    scene = app.stack.push("settings")
    app.run_frames(1)
    assert "tlhIngan Hol" in [getattr(w, "label", None) for w in scene.widgets.items]


def test_a_language_without_a_catalog_or_a_catalog_without_a_language_is_found():
    folders = {p.parent.parent.name for p in catalog.LOCALE.glob(f"*/LC_MESSAGES/{catalog.DOMAIN}.po")}
    assert folders == set(catalog.codes()) - {"en"}
    for lang in catalog.LANGUAGES:
        assert lang.category(1) in lang.plurals and lang.category(7) in lang.plurals


def test_the_message_types_are_listed_once():
    """Each message type is one model; the unions, the kinds and the parser derive from them."""
    kinds = [m.model_fields["type"].default for m in P.CLIENT_TYPES]
    assert tuple(kinds) == P.CLIENT_KINDS
    assert P.SERVER_KINDS == ("joined", "lobby", "update", "error", "pong", "watching", "said", "history", "games",
                              "clocks", "news", "account", "signed_out", "standings", "profile_info",
                              "my_games_list")
    for m in P.CLIENT_TYPES:
        assert type(P.parse_client(P.encode(_sample(m)))) is m
    text = (ROOT / "gonzaga" / "net" / "protocol.py").read_text(encoding="utf-8")
    assert len([line for line in text.splitlines() if '"rematch"' in line]) == 1  # a type's name: once, in its model


def _sample(model):
    """A valid message of ``model`` (tokens and codes of the right shape)."""
    values = {"token": "t" * 20, "code": "ABCDEF", "name": "Ann", "game": "g1", "n": 0, "action": "donate 0",
              "text": "hi", "emote": "hello", "seat": 1, "kind": "open", "password": "a long password",
              "seats": [P.SeatRequest(kind="host", colour="red"), P.SeatRequest(kind="open", colour="blue")]}
    need = {k: v for k, v in values.items() if k in model.model_fields and model.model_fields[k].is_required()}
    return model(**need)
