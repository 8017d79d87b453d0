"""Issue 51, the own keys' behaviours that the screen tests left open, each checked against the
promise of ``ui/keys.py``: a key is an action's with its modifier, so Ctrl+R is free while R
turns the fief (and taking it is no conflict), and a shortcut never fires with a Ctrl or Alt the
action does not ask for (Ctrl+R is not R). Keys that move around every screen are never taken."""
from __future__ import annotations

import pygame
import pytest

from gonzaga.ui import keys

pytestmark = pytest.mark.rule("E-ui")


@pytest.fixture(autouse=True, scope="module")
def pygame_keys():
    pygame.init()  # key names are read through SDL
    yield


def down(key: int, mod: int = 0) -> pygame.event.Event:
    return pygame.event.Event(pygame.KEYDOWN, key=key, mod=mod)


def test_a_key_with_another_modifier_is_no_conflict():
    b = keys.Bindings()
    assert b.key("rotate") == "r" and b.key("take_back") == "z"  # R turns the fief, Ctrl+Z takes back
    assert b.assign("take_back", "r") is None  # Ctrl+R: nobody's
    assert b.label("take_back") == "Ctrl+R" and b.key("rotate") == "r"
    assert b.assign("donate", "w") is None  # Shift+W is not W (the wedding's)
    assert b.label("donate") == "Shift+W" and b.label("wedding") == "W"
    # the same key with the same modifier is a conflict, named
    assert b.assign("rotate", "w") == "W is already the key for Wedding or fief: change that one first."


def test_a_shortcut_does_not_fire_with_a_modifier_it_does_not_ask_for():
    b = keys.Bindings()
    assert b.pressed(down(pygame.K_r), "rotate")
    assert not b.pressed(down(pygame.K_r, pygame.KMOD_LCTRL), "rotate")  # Ctrl+R is not R
    assert not b.pressed(down(pygame.K_r, pygame.KMOD_LALT), "rotate")
    assert b.pressed(down(pygame.K_r, pygame.KMOD_LSHIFT), "rotate")  # Shift is no command (caps)
    assert b.pressed(down(pygame.K_z, pygame.KMOD_LCTRL), "take_back")
    assert not b.pressed(down(pygame.K_z), "take_back")  # Z alone takes nothing back
    assert not b.pressed(pygame.event.Event(pygame.KEYUP, key=pygame.K_r, mod=0), "rotate")


@pytest.mark.parametrize("name", ["tab", "return", "space", "escape", "left", "up"])
def test_keys_that_move_around_every_screen_are_never_taken(name):
    b = keys.Bindings()
    why = b.assign("rotate", name)
    assert why is not None and "moves around every screen" in why
    assert b.key("rotate") == "r" and b.own == {}


def test_a_long_name_is_cut_with_an_ellipsis_and_fits_its_room():
    """A seat name too long for its box ends in "…" (the players' list: long names were cut
    without a sign), and the cut name with its sign fits the width; a short one is left whole."""
    from gonzaga.render import theme
    from gonzaga.ui import widgets as W
    name = "Federico Gonzaga, Marchese di Mantova e Signore di Sabbioneta"
    font = theme.font("sans", 16)
    room = font.size(name)[0] // 2
    cut = W.fit_text(name, "sans", 16, room)
    assert cut.endswith("…") and name.startswith(cut[:-1]) and len(cut) > 5
    assert font.size(cut)[0] <= room < font.size(name[:len(cut)] + "…")[0]  # as long as fits, no shorter
    assert W.fit_text("Ann", "sans", 16, room) == "Ann"


def test_the_key_labels_follow_a_new_key_and_the_language_at_once():
    """The labels are kept per language (the help line asks for them every frame): a key the
    player takes and a language chosen show at once, never a label kept from before."""
    from gonzaga.words import i18n
    b = keys.Bindings()
    assert b.labels()["donate"] == "Shift+D"
    assert b.assign("donate", "g") is None
    assert b.labels()["donate"] == "Shift+G"  # the new key, not the one kept
    try:
        i18n.set_language("it")
        assert b.labels()["donate"] == "Maiusc+G"  # the Italian word for Shift
    finally:
        i18n.set_language("en")
    assert b.labels()["donate"] == "Shift+G"
    b.labels()["donate"] = "spoilt"  # a caller's copy: the labels kept are not changed
    assert b.labels()["donate"] == "Shift+G"
