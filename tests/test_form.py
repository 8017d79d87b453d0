"""The labelled-form part alone (gonzaga/scenes/form.py, issue 45), with made-up fields: the Tab
order is the table's, a secret field is drawn as dots, a value is cut at the field's limit, the
rows do not overlap at 1280x720, what was typed survives a new layout, and a question to a server
that never answers is handed over once, at its deadline, as a lost connection."""
from __future__ import annotations

import socket

import pygame
import pytest

from gonzaga.scenes.form import Field, Fields, Question, centred_box
from gonzaga.ui import widgets as W
from gonzaga.ui.widgets import TextField, Widgets
from gonzaga.words import i18n

TABLE = (Field("city", "online.address", "Mantova", 440, 30),
         Field("code", "online.code", "", 220, 4),
         Field("secret", "signin.password", "", 300, 200, secret=True),
         Field("wide", "servers.add_label", "", 0, 300, px=16))


@pytest.fixture
def scaled():
    W.set_ui_scale(W.scale_for((1280, 720)))
    yield
    W.set_ui_scale(1.0)


def laid_out(right: int = 900) -> tuple[Fields, Widgets]:
    form, widgets = Fields(TABLE), Widgets()
    form.layout(widgets, 40, 250, 130, right=right)
    return form, widgets


def tab(widgets: Widgets, shift: bool = False) -> None:
    widgets.handle(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_TAB, mod=pygame.KMOD_SHIFT if shift else 0,
                                      unicode="\t"))


def test_tab_goes_through_the_fields_in_the_tables_order_and_back():
    form, widgets = laid_out()
    seen = []
    for _ in range(5):
        tab(widgets)
        seen.append(widgets.focus)
    assert seen == [form.field("city"), form.field("code"), form.field("secret"), form.field("wide"),
                    form.field("city")]
    tab(widgets, shift=True)
    assert widgets.focus is form.field("wide")
    assert form.field("city").selected is False and form.field("wide").selected is False  # empty: nothing to select


def test_a_secret_field_is_drawn_as_dots():
    form, _ = laid_out()
    form.set("secret", "abc")
    rect = form.field("secret").rect

    def drawn(field: TextField) -> bytes:
        surf = pygame.Surface((1000, 400))
        field.draw(surf)
        return pygame.image.tobytes(surf.subsurface(rect), "RGB")

    plain = TextField("abc", rect, max_len=200)
    dots = TextField("\u2022" * 3, rect, max_len=200)
    assert drawn(form.field("secret")) == drawn(dots) != drawn(plain)


def test_a_value_longer_than_its_limit_is_cut_at_the_limit():
    form, widgets = laid_out()
    tab(widgets)
    tab(widgets)  # the code: 4 characters at most
    widgets.handle(pygame.event.Event(pygame.TEXTINPUT, text="ABCDEFGH"))
    assert form.value("code") == "ABCD"
    form.set("code", "WXYZ12")
    assert form.value("code") == "WXYZ" and form.field("code").value == "WXYZ"
    before = Fields(TABLE)  # not laid out yet: the same limit
    before.set("code", "123456")
    assert before.value("code") == "1234"


def test_the_rows_do_not_overlap_at_1280x720_and_stay_in_the_box(scaled):
    sc = W.sc
    box = centred_box((1280, 720), sc(980), sc(600))
    assert box == pygame.Rect(0, 0, min(sc(980), 1240), min(680, sc(600))).move(
        (1280 - min(sc(980), 1240)) // 2, (720 - min(680, sc(600))) // 2)
    form, widgets = Fields(TABLE), Widgets()
    field_x = box.x + sc(250)
    bottom = form.layout(widgets, box.x + sc(40), field_x, box.y + sc(130), right=box.right - sc(40))
    rects = [f.rect for f in form.fields]
    for text, (x, y) in form.labels:
        img = W.text(text, "sans_semibold", 18)
        rects.append(img.get_rect(midleft=(x, y)))
    for i, a in enumerate(rects):
        assert box.contains(a), (a, box)
        for b in rects[i + 1:]:
            assert not a.colliderect(b), (a, b)
    assert form.field("wide").rect.right == box.right - sc(40)  # width 0: as far as the right edge
    assert bottom == box.y + sc(130) + 4 * sc(62)
    assert [f.rect.h for f in form.fields] == [sc(44)] * 4


def test_what_was_typed_survives_a_new_layout():
    form, widgets = laid_out()
    form.field("code").value = "QX7"
    widgets.clear()
    form.layout(widgets, 0, 200, 10, right=700)
    assert form.current() == ["Mantova", "QX7", "", ""] and form.field("code").value == "QX7"
    assert form.labels[0] == (i18n.t("online.address"), (0, 10 + W.sc(22)))


def test_two_fields_with_one_key_are_refused():
    with pytest.raises(ValueError):
        Fields((Field("a", "online.code"), Field("a", "online.address")))


def test_a_question_nobody_answers_is_handed_over_once_at_its_deadline():
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(1)  # the connection is taken and never answered
    now = [100.0]
    q = Question(clock=lambda: now[0])
    try:
        assert q.answer() is None and not q.busy  # nothing asked
        q.ask(f"ws://127.0.0.1:{listener.getsockname()[1]}", [], "account")
        assert q.busy and q.answer() is None  # waiting
        now[0] += 21.0  # past the answer's deadline (20 s)
        assert q.answer() == (None, i18n.t("online.err_lost"))
        assert not q.busy and q.answer() is None  # once
    finally:
        q.close()
        listener.close()
