"""Issue 10, plain words: refusals without spec ids (the ids go to the log file), plurals right
in both languages, a game log kept as keys and ids (so a change of language re-renders every
line, never a line in two languages), the load screen's errors in one language, and the Last
Turn check announced after every round from round 6 on."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from gonzaga.table import persistence
from gonzaga.rules import load_content, scoring
from gonzaga.table.session import Session
from gonzaga.words import i18n
from gonzaga.ui import widgets as W

import screen_walk as SW

SAVES = Path(__file__).resolve().parent.parent / "saves"
RULE_ID = re.compile(r"\b(?:[SRPKWDEX]\d{1,2})\b")


@pytest.fixture
def english():
    yield
    i18n.set_language("en")


@pytest.fixture
def app(make_app):
    return make_app((1280, 720), reduce_motion=True)


def finished_session() -> Session:
    ls = persistence.read_save(SAVES / "v1-finished.json", load_content())
    return Session(ls.seats, ls.record, content=ls.content)


def shown_texts(app) -> list[str]:
    """Every label drawn on the window this frame, and the game log's lines."""
    W.CHECK.enabled = True
    W.CHECK.reset()
    for sc in app.stack.scenes:
        if getattr(sc, "panel", None) is not None:
            sc.panel.cache = None
    try:
        app.draw()
        out = [lab[2] for lab in W.CHECK.labels]
    finally:
        W.CHECK.enabled = False
        W.CHECK.reset()
    if app.session is not None:
        out += app.session.log_lines()
    return out


def _words(text: str) -> set[str]:
    return {w.lower() for w in re.findall(r"[A-Za-zÀ-ÿ']{4,}", text)}


def only_in(lang: str) -> set[str]:
    """Words of the interface found only in ``lang``'s table (not in the other's, nor in the
    map's and the saves' proper names)."""
    mine, other = (i18n.EN, i18n.IT) if lang == "en" else (i18n.IT, i18n.EN)
    theirs = set().union(*(_words(v) for v in other.values()))
    c = load_content()
    names = " ".join(list(c.region_names.values()) + list(c.sea_names.values()) + [x.name for x in c.sites.values()]
                     + [s.name for s in c.scenarios])
    for f in SAVES.glob("*.json"):
        names += " " + " ".join(s["name"] for s in json.loads(f.read_text())["seats"])
    proper = _words(names) | {"gonzaga", "menu", "replay", "hot-seat"}
    return set().union(*(_words(v) for v in mine.values())) - theirs - proper


def foreign_words(texts: list[str], lang: str) -> set[str]:
    bad = only_in("it" if lang == "en" else "en")
    return set().union(*(_words(t) for t in texts)) & bad


# ---------------------------------------------------------------- plurals

def test_plurals_in_both_languages(english):
    assert i18n.tn("n.rings", 1) == "1 ring" and i18n.tn("n.rings", 2) == "2 rings"
    assert i18n.tn("n.points", 0) == "0 points" and i18n.tn("n.sites", 1) == "1 site"
    i18n.set_language("it")
    assert i18n.tn("n.rings", 1) == "1 anello" and i18n.tn("n.rings", 2) == "2 anelli"
    assert i18n.tn("n.free_sites", 1) == "1 tra città e porti ancora libero nelle regioni fiorenti"
    assert i18n.tn("n.free_sites", 4) == "4 tra città e porti ancora liberi nelle regioni fiorenti"
    assert i18n.tn("place.rings_left", 1) == "1 anello disponibile"
    for table in (i18n.EN, i18n.IT):  # every counted noun has both forms
        for k in table:
            if k.endswith(".one"):
                assert k[:-4] + ".other" in table, k
            if k.endswith(".other"):
                assert k[:-6] + ".one" in table, k


# ---------------------------------------------------------------- the log: keys and ids

def test_log_keeps_keys_and_ids_and_switches_language(english):
    s = finished_session()
    translated = set(i18n.EN.values()) | set(i18n.IT.values())

    def check(v, where):
        if isinstance(v, i18n.Term):
            for a in v.args:
                if isinstance(a, (tuple, list)):
                    for x in a:
                        check(x, where)
                elif isinstance(a, dict):
                    for x in a.values():
                        check(x, where)
                elif isinstance(a, str) and v.kind != "card":
                    assert a not in translated or a.startswith(("n.", "log.", "end.")), (where, a)
        elif isinstance(v, str):
            assert v not in translated, (where, v)  # never a word already in one language
        else:
            assert isinstance(v, int), (where, v)

    for e in s.log:
        for k, v in e.params.items():
            check(v, (e.key, k))
    en = s.log_lines()
    i18n.set_language("it")
    it = s.log_lines()
    assert len(en) == len(it) and all(a != b for a, b in zip(en, it) if not a.startswith("Scenario"))
    assert not foreign_words(it, "it"), foreign_words(it, "it")
    assert any("anelli in" in line or "anello in" in line for line in it)  # a wedding, counted in Italian
    i18n.set_language("en")
    assert s.log_lines() == en
    assert not foreign_words(en, "en"), foreign_words(en, "en")


@pytest.mark.parametrize("lang", ["it", "en"])
def test_a_game_screen_speaks_one_language(app, lang):
    """Planning, placement (a refusal shown), the end table, with the whole log: no word of the
    other language, and no rule id anywhere."""
    SW.set_language(app, lang)
    texts = []
    for screen in ("planning", "placement", "wedding", "donation", "end"):
        SW.SCREENS[screen](app)
        texts += shown_texts(app)
    assert not foreign_words(texts, lang), foreign_words(texts, lang)
    ids = [t for t in texts if RULE_ID.search(t)]
    assert not ids, ids


def test_refusals_have_no_rule_id_and_the_log_file_keeps_it(app, caplog):
    import logging
    from gonzaga.rules import Donate
    SW.show_placement(app)
    g = SW._game(app)
    assert g.message and not RULE_ID.search(g.message)
    assert g.place.feedback().rule  # the id is still known (the "why?" link, the rules page)
    with caplog.at_level(logging.INFO, logger="gonzaga.scenes.game"):
        g.placing.send(Donate((g.place.seat + 1) % 3))  # not this seat's turn: refused
    assert not RULE_ID.search(g.message)
    assert any(RULE_ID.search(r.getMessage()) for r in caplog.records)


def test_load_errors_in_one_language(tmp_path, english):
    d = json.loads((SAVES / "v1-solo-round5-placing.json").read_text())
    d["seats"][0]["kind"] = "robot"
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(d))
    i18n.set_language("it")
    with pytest.raises(persistence.SaveError) as e:
        persistence.read_save(bad, load_content())
    msg = e.value.message
    assert "seats.0.kind" in msg and not foreign_words([msg], "it"), msg
    i18n.set_language("en")
    with pytest.raises(persistence.SaveError) as e:
        persistence.read_save(bad, load_content())
    assert "human" in e.value.message  # in English the detail stays as precise as before


# ---------------------------------------------------------------- the Last Turn check

def test_last_turn_check_after_every_round_from_6(english):
    """E1: a log line after each round from round 6 on with the free sites in flourishing regions,
    until the card fires (that line says the next round is the last)."""
    from gonzaga.rules import apply, new_game
    s = finished_session()
    st = new_game(s.record.config, s.content)
    expected = []
    for a in s.record.actions:
        new = apply(st, a)
        if new.round != st.round and st.round >= 6 and st.last_round is None:
            expected.append((st.round, scoring.free_flourishing_sites(new), new.last_round))
        st = new
    assert expected and expected[-1][2] is not None  # this game ends by the Last Turn card
    got = [(e.params.get("round") if e.key == "log.last_turn_check" else e.params["after"],
            e.params["sites"].args[1], e.params["round"] if e.key == "log.last_turn" else None)
           for e in s.log if e.key in ("log.last_turn_check", "log.last_turn")]
    assert got == expected
    lines = [line for line in s.log_lines() if "flourishing regions still free" in line]
    assert lines[0] == f"Round 6: {i18n.tn('n.free_sites', expected[0][1])}: the game goes on."
    assert "the Last Turn card fires" in lines[-1]


def test_last_turn_check_in_the_header(app):
    SW.show_planning(app)  # four seats, round 8, the card not fired yet
    g = SW._game(app)
    st = g.state
    assert st.round == 8 and st.last_round is None
    status = g.top.status_text()
    assert status.startswith("After round 7: ") and status.endswith("the game goes on")
    assert status in shown_texts(app)
