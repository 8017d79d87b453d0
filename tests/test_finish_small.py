"""Smaller finishes of issue 40 (item 8), each through the real app, headless."""
from __future__ import annotations

import pygame

from gonzaga.resources import asset_path


def test_the_window_shows_the_games_icon(make_app, monkeypatch):
    given = []
    real = pygame.display.set_icon
    monkeypatch.setattr(pygame.display, "set_icon", lambda s: (given.append(s), real(s)))
    make_app((1280, 720))
    assert given, "no icon was set: the window keeps pygame's default"
    icon = pygame.image.load(str(asset_path("icon", "gonzaga.png")))
    s = given[-1]
    assert s.get_size() == icon.get_size()
    w, h = icon.get_size()
    assert all(s.get_at((x, y)) == icon.get_at((x, y)) for x in range(0, w, 17) for y in range(0, h, 17))
