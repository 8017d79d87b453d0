"""The high-contrast interface (issue 49): every text pair of its palette reads at 7:1 or more
(WCAG 2 AAA, the formula of WCAG 2.x's relative luminance), set from the Keys and speech screen
through the real loop, saved, and used by the next start."""
from __future__ import annotations

import pytest

from gonzaga.render.colour_table import TableError, build
from gonzaga.table import persistence
from gonzaga.ui import palette, widgets as W
from scene_events import click

# (text, background) pairs the widgets draw
PAIRS = [("TEXT", "PANEL"), ("TEXT_SOFT", "PANEL"), ("TEXT", "PANEL_DARK"), ("TEXT", "BUTTON_SECONDARY"),
         ("TEXT", "SECONDARY_HOVER"), ("TEXT", "SELECTED"), ("TEXT", "SELECTED_HOVER"), ("BUTTON_TEXT", "BUTTON"),
         ("BUTTON_TEXT", "BUTTON_HOVER"), ("OFF_TEXT", "BUTTON_OFF"), ("SECONDARY_OFF_TEXT", "SECONDARY_OFF"),
         ("BAD", "PANEL"), ("OK", "PANEL"), ("TEXT_LIGHT", "BG")]


def luminance(c) -> float:
    def channel(v: int) -> float:
        s = v / 255
        return s / 12.92 if s <= 0.04045 else ((s + 0.055) / 1.055) ** 2.4
    r, g, b = (channel(v) for v in c)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a, b) -> float:
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def test_the_formula_knows_black_on_white():
    assert round(contrast((0, 0, 0), (255, 255, 255)), 1) == 21.0
    assert round(contrast((119, 119, 119), (255, 255, 255)), 2) == 4.48  # WCAG's own example grey


def test_every_text_pair_of_the_high_contrast_palette_reads_at_7_to_1():
    high = W.PALETTES["high"]
    assert set(high) == set(W.PALETTES["normal"]) == set(W.PALETTE_NAMES)
    low = {f"{a}/{b}": round(contrast(high[a], high[b]), 1) for a, b in PAIRS if contrast(high[a], high[b]) < 7}
    assert not low, low
    normal = W.PALETTES["normal"]  # and it is the higher one where the parchment is weakest
    assert contrast(high["TEXT_SOFT"], high["PANEL"]) > 2 * contrast(normal["TEXT_SOFT"], normal["PANEL"])  # 13.8 vs 5.4


def test_switched_on_in_the_settings_saved_and_used_at_the_next_start(make_app):
    app = make_app((1280, 720))
    assert W.TEXT == W.PALETTES["normal"]["TEXT"]
    app.stack.push("settings_keys")
    app.run_frames(1)
    on = next(w for w in app.stack.top.widgets.items if getattr(w, "spoken", "") == "High contrast: On")
    click(app, on.rect.center, frames=2)
    assert W.TEXT == (0, 0, 0) and W.PANEL == (255, 255, 255)
    assert persistence.load_settings().access.high_contrast
    app.close()
    W.set_palette("normal")
    again = make_app((1280, 720), access=persistence.load_settings().access)
    assert W.PANEL == W.PALETTES["high"]["PANEL"]
    again.close()
    W.set_palette("normal")


# (text, ground) pairs the game screen draws in its own roles (ui/palette.py): the bottom bar, the
# seats' panel and boxes, the turn order, the log, the chips, the end table, the best-points table,
# the top bar, the hint box
GAME_PAIRS = [("text", "game_bar"), ("text_soft", "game_bar"), ("objective", "game_bar"), ("result", "game_bar"),
              ("waiting", "game_bar"), ("link", "game_bar"), ("bad", "game_bar"), ("ok", "game_bar"),
              ("text", "tray"), ("text_soft", "tray"), ("text", "game_side"), ("text", "lit"),
              ("order_done", "game_side"), ("text", "seat_box"), ("text_soft", "seat_box"), ("ok", "seat_box"),
              ("waiting", "seat_box"), ("clock", "seat_box"), ("text", "seat_acting"), ("text_soft", "seat_acting"),
              ("waiting", "seat_acting"), ("clock", "seat_acting"), ("chip_text", "chip"), ("text", "row_chosen"),
              ("text", "best_cell"), ("secondary_off_text", "panel"), ("text_light", "top_bar"),
              ("top_text", "top_bar"), ("top_alert", "top_bar"), ("top_who", "top_bar"), ("text", "hint_box"),
              ("hint_foot", "hint_box"), ("hint_mark", "hint_box")]


def test_the_game_screens_own_colours_read_at_7_to_1_in_high_contrast():
    high, normal = palette.PALETTES["high"], palette.PALETTES["normal"]
    ratios = {f"{a}/{b}": round(contrast(getattr(high, a), getattr(high, b)), 1) for a, b in GAME_PAIRS}
    assert not {k: v for k, v in ratios.items() if v < 7}, ratios
    # the ghost's tooltip: white words on green or red (parchment: 6.3:1 on the green)
    tips = {k: round(contrast((255, 255, 255), getattr(high, k)), 1) for k in ("tip_ok", "tip_bad")}
    assert min(tips.values()) >= 7, tips
    assert round(contrast((255, 255, 255), normal.tip_ok), 1) == 6.3
    # the weakest of the parchment's: the turn order's seats done on the panel, 2.4:1 (by hand:
    # luminances 0.267 and 0.721, 0.771 / 0.317); in high contrast 8.2:1 (0.0513 and 0.776)
    assert round(contrast(normal.order_done, normal.game_side), 1) == 2.4
    assert round(contrast(high.order_done, high.game_side), 1) == 8.2


def test_the_palette_table_is_validated_at_load():
    good = palette.TABLE

    def load(table):
        return {name: build(palette.Palette, table[name], f"ui TABLE {name}") for name in table}

    assert load(good)["high"].game_bar == (255, 255, 255)
    with pytest.raises(TableError, match=r"TABLE high\.objective: a colour is written #rrggbb, not '#5a005'"):
        load({**good, "high": {**good["high"], "objective": "#5a005"}})
    with pytest.raises(TableError, match=r"TABLE normal\.tray: missing"):
        load({**good, "normal": {k: v for k, v in good["normal"].items() if k != "tray"}})
    with pytest.raises(TableError, match=r"TABLE high\.seat_bx: not a role of Palette"):
        load({**good, "high": {**good["high"], "seat_bx": "#ffffff"}})
    with pytest.raises(TableError, match=r"high\.least_opacity: 300 is out of range \(0 to 255\)"):
        load({**good, "high": {**good["high"], "least_opacity": 300}})
    with pytest.raises(TableError, match=r"high\.least_opacity: a whole number is wanted, not True"):
        load({**good, "high": {**good["high"], "least_opacity": True}})
    with pytest.raises(TableError, match=r"high\.text: a colour is written #rrggbb, not \(0, 0, 0\)"):
        load({**good, "high": {**good["high"], "text": (0, 0, 0)}})
