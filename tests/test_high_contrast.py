"""The high-contrast interface (issue 49): every text pair of its palette reads at 7:1 or more
(WCAG 2 AAA, the formula of WCAG 2.x's relative luminance), set from the Keys and speech screen
through the real loop, saved, and used by the next start."""
from __future__ import annotations

from gonzaga.table import persistence
from gonzaga.ui import widgets as W
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
