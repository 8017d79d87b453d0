"""The interface's colours, one table (``TABLE``) of two palettes by role, checked at load into
:class:`Palette` (issue 49; ``render/colour_table.py``): ``"normal"``, the parchment interface, and ``"high"``, high contrast
(black on white, every text at 7:1 or more against what it is drawn on: WCAG 2 AAA;
``tests/test_high_contrast.py``, ``tests/test_contrast_walk.py``).

The widgets' roles are read as ``W.TEXT``, ``W.PANEL``... (``widgets.set_palette`` puts the
palette chosen into those names); the game screen's own (its bars, the seats' panel, the hint
box) as ``palette.now().game_bar``... The map's colours are ``render/map_palette.py``'s table,
switched with these. Colours are written ``"#rrggbb"``.
"""
from __future__ import annotations

from typing import Any

from ..render.colour_table import Rgb, build, colour, number, roles, table


@table
class Palette:
    """Every colour of the interface, by role."""

    # the widgets (ui/widgets.py: W.BG, W.PANEL...)
    bg: Rgb = colour()  # behind the panels
    panel: Rgb = colour()
    panel_dark: Rgb = colour()
    panel_edge: Rgb = colour()
    text: Rgb = colour()
    text_soft: Rgb = colour()
    text_light: Rgb = colour()  # on bg, on the top bar
    button: Rgb = colour()
    button_hover: Rgb = colour()
    button_text: Rgb = colour()
    button_off: Rgb = colour()
    button_secondary: Rgb = colour()
    focus: Rgb = colour()
    ok: Rgb = colour()
    bad: Rgb = colour()
    button_edge: Rgb = colour()
    secondary_hover: Rgb = colour()
    selected: Rgb = colour()
    selected_hover: Rgb = colour()
    selected_edge: Rgb = colour()
    secondary_off: Rgb = colour()
    off_text: Rgb = colour()
    secondary_off_text: Rgb = colour()
    danger_hover: Rgb = colour()  # a danger button under the pointer: a red tint on the panel
    # the game screen (scenes/game/, scenes/assist.py): grounds, then the texts drawn on them
    game_bar: Rgb = colour()  # the bottom bar
    game_side: Rgb = colour()  # the seats' panel
    seat_box: Rgb = colour()  # a seat's box in it
    seat_acting: Rgb = colour()  # the box of the seat to act
    tray: Rgb = colour()  # the fief's tray in the bottom bar, the log's ground
    lit: Rgb = colour()  # the turn order's line now, the log's line under the pointer
    chip: Rgb = colour()  # a card played last round, on a seat's box
    chip_edge: Rgb = colour()
    chip_text: Rgb = colour()
    waiting: Rgb = colour()  # a seat's "planning...", "to act"; the end's "helped by" mark
    clock: Rgb = colour()  # an online seat's turn clock
    order_done: Rgb = colour()  # the turn order's seats that have played
    objective: Rgb = colour()  # "Your objective: ..." in the bottom bar and under the end table
    result: Rgb = colour()  # the end's result line
    row_chosen: Rgb = colour()  # the end table's chosen row
    row_chosen_edge: Rgb = colour()
    best_cell: Rgb = colour()  # the best-points table's pair previewed on the map
    best_cell_edge: Rgb = colour()  # its pair chosen on the cards
    top_bar: Rgb = colour()  # the bar across the window's top (W.TEXT_LIGHT on it)
    top_edge: Rgb = colour()
    top_text: Rgb = colour()  # the Last Turn card not fired, the scenario line
    top_alert: Rgb = colour()  # the Last Turn card fired, the end
    top_who: Rgb = colour()  # who is to act
    hint_box: Rgb = colour()  # a hint's words over the map
    hint_mark: Rgb = colour()  # its "?"
    hint_foot: Rgb = colour()  # its keys
    link: Rgb = colour()  # a refusal's "why?"
    tip_ok: Rgb = colour()  # the ghost's tooltip on the map (white words): a legal place
    tip_bad: Rgb = colour()  # and a refused one
    # panels drawn see-through (a hint, a tooltip over the map) are at least this opaque: in high
    # contrast nothing shows through a panel under its text
    least_opacity: int = number(0, 255)


TABLE: dict[str, dict[str, Any]] = {
    "normal": {
        "bg": "#28201a", "panel": "#f2e8ce", "panel_dark": "#deceaa", "panel_edge": "#785c38", "text": "#342418",
        "text_soft": "#6e5a42", "text_light": "#f6eedc", "button": "#78241e", "button_hover": "#963428",
        "button_text": "#faf0dc", "button_off": "#aaa092", "button_secondary": "#e8daba", "focus": "#ffc83c",
        "ok": "#288c3c", "bad": "#b4281e", "button_edge": "#461410", "secondary_hover": "#faf2e0",
        "selected": "#c8a050", "selected_hover": "#d6b060", "selected_edge": "#6e4c14", "secondary_off": "#d6cec0",
        "off_text": "#ece6dc", "secondary_off_text": "#968c80", "danger_hover": "#fae0d2",
        "game_bar": "#e2d4b4", "game_side": "#e8dcc0", "seat_box": "#f8f0de", "seat_acting": "#fff6d6",
        "tray": "#f6eeda", "lit": "#ffecaa", "chip": "#d6cec0", "chip_edge": "#a09688", "chip_text": "#5a5046",
        "waiting": "#965a14", "clock": "#aa3c14", "order_done": "#968c7e", "objective": "#781e78",
        "result": "#821e14", "row_chosen": "#faecc4", "row_chosen_edge": "#962896", "best_cell": "#e6c478",
        "best_cell_edge": "#6e4c14", "top_bar": "#3a2c22", "top_edge": "#967850", "top_text": "#dccdb4",
        "top_alert": "#ffc85a", "top_who": "#ffecbe", "hint_box": "#fff6d6", "hint_mark": "#966e1e",
        "hint_foot": "#785414", "link": "#1e3c8c", "tip_ok": "#1e6e32",
        "tip_bad": "#961e18", "least_opacity": 0,
    },
    # black on white; the grounds of the game screen white or a light grey that sets the boxes on
    # it apart; the texts of its own colours (objective, result, status...) dark enough for 7:1 on
    # every ground they meet, still in their hue; what marks a line or a cell is a strong yellow
    # or a black edge, not a tint
    "high": {
        "bg": "#000000", "panel": "#ffffff", "panel_dark": "#e4e4e4", "panel_edge": "#000000", "text": "#000000",
        "text_soft": "#2d2d2d", "text_light": "#ffffff", "button": "#780000", "button_hover": "#500000",
        "button_text": "#ffffff", "button_off": "#464646", "button_secondary": "#fff4be", "focus": "#0050ff",
        "ok": "#004600", "bad": "#780000", "button_edge": "#000000", "secondary_hover": "#ffffff",
        "selected": "#ffc800", "selected_hover": "#ffd73c", "selected_edge": "#000000", "secondary_off": "#e1e1e1",
        "off_text": "#ffffff", "secondary_off_text": "#464646", "danger_hover": "#ffe1e1",
        "game_bar": "#ffffff", "game_side": "#e4e4e4", "seat_box": "#ffffff", "seat_acting": "#fff4be",
        "tray": "#ffffff", "lit": "#ffdc50", "chip": "#e8e8e8", "chip_edge": "#000000", "chip_text": "#000000",
        "waiting": "#6e3200", "clock": "#821e00", "order_done": "#404040", "objective": "#5a005a",
        "result": "#780000", "row_chosen": "#ffdc50", "row_chosen_edge": "#000000", "best_cell": "#ffc800",
        "best_cell_edge": "#000000", "top_bar": "#000000", "top_edge": "#ffffff", "top_text": "#ffffff",
        "top_alert": "#ffdc00", "top_who": "#fff096", "hint_box": "#ffffff", "hint_mark": "#503200",
        "hint_foot": "#503200", "link": "#0028aa", "tip_ok": "#005000",
        "tip_bad": "#780000", "least_opacity": 255,
    },
}

PALETTES: dict[str, Palette] = {name: build(Palette, TABLE[name], f"ui/palette.py TABLE {name}") for name in ("normal", "high")}
ROLES: tuple[str, ...] = roles(Palette)
WIDGET_ROLES = ROLES[:ROLES.index("game_bar")]  # W.BG ... W.DANGER_HOVER
COLOUR_ROLES = ROLES[:ROLES.index("least_opacity")]

_now: list[Palette] = [PALETTES["normal"]]


def now() -> Palette:
    """The palette the interface is drawn in now."""
    return _now[0]


def use(name: str) -> None:
    """Draw in the palette ``name`` ("normal" or "high") from now on (``widgets.set_palette``)."""
    _now[0] = PALETTES[name]

