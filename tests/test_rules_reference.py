"""The illustrated rules reference (issue 11): a page per rule in both languages with the
printed rulebook's words and no spec ids, pictures drawn from fixture positions whose verdict
the rules engine gives, search, and the "?" on every screen."""
from __future__ import annotations

import re

import pygame
import pytest

from gonzaga.rules import load_content, placement_problem
from gonzaga.words import i18n, rules_pages, rules_text
from scene_events import click, post

SPEC_ID = re.compile(r"\b[SRPWKXE]\d{1,2}\b")


@pytest.fixture(scope="module")
def content():
    return load_content()


# ---------------------------------------------------------------- the pages

@pytest.mark.parametrize("lang", ["en", "it"])
def test_every_page_has_text_and_no_spec_id(lang):
    for p in rules_pages.PAGES:
        text = rules_pages.page_text(p.id, lang)
        assert text, (lang, p.id)
        title = i18n.table(lang)[p.title_key]
        for s in text + [title]:
            assert not SPEC_ID.search(s), (lang, p.id, s)


@pytest.mark.parametrize("lang", ["en", "it"])
def test_no_sentence_of_the_rules_is_lost(lang):
    """Every sentence of the rules text (its ids removed) is on some page."""
    shown = " ".join(" ".join(rules_pages.page_text(p.id, lang)) for p in rules_pages.PAGES)
    for heading, paras in rules_pages.sections(lang):
        for para in paras:
            for _ids, sentence in para:
                assert sentence in shown, (lang, heading, sentence)
    # and the sentences are the rules text's own words
    flat = " ".join(rules_text.text(lang).split())
    for p in rules_pages.PAGES[:3]:
        for para in rules_pages.page_text(p.id, lang):
            assert para.split(":")[0].split(" (")[0] in flat


def test_every_rule_id_has_a_page():
    ids = set(re.findall(r"\*\*([SRPWKXE]\d{1,2})\*\*", open("docs/rules.md", encoding="utf-8").read()))
    assert len(ids) > 30
    for rid in ids:
        assert rules_pages.page_for_rule(rid) in rules_pages.BY_ID, rid
    assert rules_pages.page_for_rule("P8") == "castles"
    assert rules_pages.page_for_rule("P9") == "barriers"
    assert rules_pages.page_for_rule("W3") == "wedding"


def test_search_finds_by_title_and_text_in_both_languages():
    en = lambda p: i18n.table("en")[p.title_key]  # noqa: E731
    it = lambda p: i18n.table("it")[p.title_key]  # noqa: E731
    assert "castles" in rules_pages.search("castle", "en", en)
    assert "barriers" in rules_pages.search("invalicabile", "it", it)
    assert "league" in rules_pages.search("lega navale", "it", it)
    assert rules_pages.search("citta porti", "it", it)  # accents aside
    assert rules_pages.search("zzzz", "en", en) == []


# ---------------------------------------------------------------- the pictures

PAGE_OF_PICTURE = {pid: p.id for p in rules_pages.PAGES for pid in p.pictures}


def test_picture_examples_are_judged_by_the_rules(content):
    """Each legal example is legal under its plan; each illegal one is refused by a rule of
    the page that shows it (castle at sea: P8 on "Castles on land", ...)."""
    from gonzaga.ui import rule_pictures as RP
    ex = RP.examples(content)
    boards = [pid for p in rules_pages.PAGES for pid in p.pictures if pid not in RP.TABLES]
    assert set(boards) <= set(ex), set(boards) - set(ex)
    for pid in boards:
        e = ex[pid]
        page = rules_pages.BY_ID[PAGE_OF_PICTURE[pid]]
        if e.ok is False:
            assert e.rule in page.rules, (pid, e.rule)
        if e.ghost is not None:
            cells, castles, ok = e.ghost
            st = e.state
            # find the placement again from its cells and check its verdict with the rules
            found = None
            for f, fief in content.fiefs.items():
                for k in range(6):
                    for a in cells:
                        fc, fcs = fief.footprint(a, k)
                        if set(fc) == set(cells) and set(fcs) == set(castles):
                            found = (f, a, k)
            assert found, pid
            plan = e.plan or RP._plan_for(st, cells)
            why = placement_problem(st, 0, *found, *plan)
            assert (why is None) == ok, (pid, why)
            if not ok:
                assert why.rule == e.rule
    assert ex["league"].state.seats[0].leagues, "three harbors of a sea make a league"
    assert ex["group"].count >= 4
    assert ex["sites"].state.seats[0].site_points == 6


def test_every_picture_is_drawn(content):
    from gonzaga.ui import rule_pictures as RP
    pygame.display.init()
    pygame.font.init()
    pygame.display.set_mode((64, 64))
    for p in rules_pages.PAGES:
        for pid in p.pictures:
            img = RP.picture(pid, (300, 200), content, "en")
            assert img.get_size() == (300, 200)
            colours = {tuple(img.get_at((x, y))) for x in range(0, 300, 23) for y in range(0, 200, 19)}
            assert len(colours) > 5, pid  # not a blank box


def test_reveal_pictures_follow_the_turn_order_rule(content):
    """R4 as printed: King's Privilege, then Harbors, then Cities (12 before 83); two Kings
    are ordered by their other card, not by the fief card."""
    from gonzaga.ui.rule_pictures import reveal_state
    st = reveal_state(content, king=False)
    assert [st.seats[i].card for i in st.order][2:] == [12, 83]
    assert st.seats[st.order[0]].plan.king
    st = reveal_state(content, king=True)
    first, second = (st.seats[i] for i in st.order[:2])
    assert first.plan.king and second.plan.king and first.plan.action == "A" and first.card > second.card


# ---------------------------------------------------------------- the scene and the "?"

@pytest.fixture
def app(make_app):
    return make_app((1280, 720))


def press(app, label, frames=1):
    for w in app.stack.top.widgets.items:
        if getattr(w, "label", None) == label and w.visible:
            click(app, w.rect.center, frames)
            return
    raise AssertionError(f"no button {label!r}")


def help_click(app):
    """Click the "?" of the screen on top; returns the reference scene it opened."""
    from gonzaga.scenes.base import help_corner
    from gonzaga.scenes.rules_reference import RulesReferenceScene
    under = app.stack.top
    r = help_corner(app).rect(under)
    assert r is not None, f"no ? on {under.name}"
    click(app, r.center)
    top = app.stack.top
    assert isinstance(top, RulesReferenceScene), f"? on {under.name} opened {top}"
    return top


def close_reference(app):
    from gonzaga.scenes.rules_reference import RulesReferenceScene
    post(pygame.KEYDOWN, key=pygame.K_ESCAPE, mod=0, unicode="", scancode=0)
    app.run_frames(1)
    assert not isinstance(app.stack.top, RulesReferenceScene)


def test_the_question_mark_opens_the_page_of_every_screen(app):
    from gonzaga.scenes.game import GameScene
    from gonzaga.table.session import SeatSpec
    ref = help_click(app)  # the title
    assert ref.page == "goal"
    close_reference(app)
    press(app, "New game", frames=2)
    assert help_click(app).page == "goal"
    close_reference(app)
    post(pygame.KEYDOWN, key=pygame.K_ESCAPE, mod=0, unicode="", scancode=0)
    app.run_frames(2)
    press(app, "Settings")
    assert help_click(app).page == "controls"
    close_reference(app)
    post(pygame.KEYDOWN, key=pygame.K_ESCAPE, mod=0, unicode="", scancode=0)
    app.run_frames(1)
    press(app, "Load game")
    assert help_click(app).page == "controls"
    close_reference(app)
    post(pygame.KEYDOWN, key=pygame.K_ESCAPE, mod=0, unicode="", scancode=0)
    app.run_frames(1)
    # the game: planning, the reveal, placing
    app.start_session([SeatSpec("Me", "human", colour="red"), SeatSpec("Bot", "ai", "greedy", "blue")], 3)
    app.run_frames(3)
    g = app.stack.find(GameScene)
    assert g.private_seat == 0
    assert help_click(app).page == "plan"
    close_reference(app)
    st = app.session.state
    s = st.seats[0]
    press(app, i18n.card_name(st, next(r for r in st.region_cards() if r not in s.unavailable)))
    press(app, i18n.t("card.B"))
    press(app, i18n.t("plan.confirm"), frames=3)
    for _ in range(50):
        if app.stack.top.name == "reveal":
            break
        app.run_frames(1)
    assert help_click(app).page == "order"
    close_reference(app)
    # F1 opens it too
    post(pygame.KEYDOWN, key=pygame.K_F1, mod=0, unicode="", scancode=0)
    app.run_frames(1)
    assert app.stack.top.name == "rules"
    close_reference(app)


def test_reference_scene_lists_searches_and_turns_pages(app):
    from gonzaga.scenes.rules_reference import open_page, open_rule
    ref = open_page(app, "castles")
    app.run_frames(1)
    text = " ".join(ref.visible_text())
    assert "Castles on land" in text and "castle in the sea" in text
    assert not SPEC_ID.search(" ".join(ref.page_lines()))
    post(pygame.KEYDOWN, key=pygame.K_DOWN, mod=0, unicode="", scancode=0)
    app.run_frames(1)
    assert ref.page == "barriers"
    for ch in "wedding":
        post(pygame.TEXTINPUT, text=ch)
    app.run_frames(1)
    assert ref.matches and ref.page == "wedding" and "wedding" in ref.matches
    open_rule(app, "P7")
    assert ref.page == "stacking" and app.stack.top is ref
    i18n.set_language("it")
    try:
        ref.layout(app.size)
        app.run_frames(1)
        assert "Nessun feudo sopra un feudo" in " ".join(ref.visible_text())
    finally:
        i18n.set_language("en")
