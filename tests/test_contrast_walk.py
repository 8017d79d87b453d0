"""Issue 49: the whole interface in high contrast, every screen of the layout walk: every label
the widget layer draws reads at 7:1 or more against what it is drawn on (WCAG 2 AAA), measured
on the frame's own pixels (``screen_walk.low_contrast``)."""
from __future__ import annotations

import pygame

from gonzaga.render import theme
from gonzaga.ui import palette, widgets as W

import screen_walk as SW

app = SW.app_fixture("contrast", (1280, 720))


def test_the_measure_knows_black_on_white_and_grey_on_white():
    surf = pygame.Surface((200, 60))
    surf.fill((255, 255, 255))
    for colour, want in (((0, 0, 0), 21.0), ((119, 119, 119), 4.48)):
        img = W.text("Mm", "sans_bold", 30, colour)
        rect = surf.blit(img, (10, 10))
        assert round(SW._label_contrast(surf, img, rect)[0], 2) == want


def test_every_screen_in_high_contrast_reads_at_7_to_1(app):
    """Every label of the 18 screens, the game screen's own colours too (its bars, the seats'
    panel, the best-points table, the end: ``ui/palette.py``'s game roles), 7:1 or more."""
    W.set_palette("high")
    try:
        found = []
        for name, show in SW.SCREENS.items():
            show(app)
            found += [f"{name}: {p}" for p in SW.low_contrast(app)]
    finally:
        W.set_palette("normal")
    print(f"\n{len(SW.SCREENS)} screens; labels under 7:1: {len(found)}")
    assert not found, "\n".join(found)


def test_the_game_screen_follows_the_setting_at_once(app):
    """Switched while the game screen is open, its next frame is drawn in the other palette: the
    bottom bar and the seats' panel (a part drawn once and kept), and the planning seat's fief
    picture (kept too) in the map's seat colour of that palette; and back again."""
    SW.show_planning(app)
    g = SW._game(app)
    seat = g.state.seats[g.private_seat].colour
    bar, side = g.bar.rect, g.panel.rect
    block = pygame.Rect(bar.x, bar.y, g.bar.info_w, bar.h)  # the seat's name, fief and objective
    try:
        for name in ("normal", "high", "normal"):
            W.set_palette(name)
            app.run_frames(1)
            pal = palette.PALETTES[name]
            assert tuple(app.screen.get_at((bar.x + 5, bar.y + 5)))[:3] == pal.game_bar, name
            assert tuple(app.screen.get_at((side.x + 5, side.y + 4)))[:3] == pal.game_side, name
            fill = theme.seat_color(seat)  # drawn 94% opaque: within 14 of it on each channel
            pixels = app.screen.subsurface(block)
            count = sum(max(abs(a - b) for a, b in zip(pixels.get_at((x, y)), fill)) <= 14
                        for x in range(block.w) for y in range(block.h))
            assert count > 25, (name, fill, count)
    finally:
        W.set_palette("normal")
