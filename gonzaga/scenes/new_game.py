"""New game: 2-4 seats (human or AI with a level, a name, a colour), the scenario tile, the seed."""
from __future__ import annotations

from functools import partial

import pygame

from ..render import theme
from ..table import persistence
from ..table.seats import SeatSpec
from ..table.session import new_seed, seed_is_secret
from ..words import i18n
from ..ui import widgets as W
from ..ui.widgets import Button, TextField
from .base import Scene
from ..ai import roster

COLOURS = ("red", "yellow", "green", "blue")
FAMILIES = ("Este", "Sforza", "Medici", "Visconti")


def ai_levels() -> list[str]:
    """The levels the forms offer: the roster's shipped ones (``ai/roster.py``)."""
    return list(roster.shipped_levels()) or ["greedy"]


def default_level(levels: list[str]) -> str:
    """The level a new AI seat starts at (the roster's default, when it is offered)."""
    return roster.default_level(levels)


class NewGameScene(Scene):
    name = "new_game"

    def __init__(self, app):
        super().__init__(app)
        self.levels = ai_levels()
        level = default_level(self.levels)
        self.count = 3
        self.seats = [SeatSpec(i18n.t("new.human") if i == 0 else FAMILIES[i], "human" if i == 0 else "ai",
                               level, COLOURS[i]) for i in range(4)]
        self.seats[0].name = "Gonzaga"
        self.scenario = None  # None: random
        self._restore(getattr(app.settings, "last_table", None))
        self.seed = str(new_seed())
        self.fields: list[TextField] = []
        self.seed_field = None
        self.error = ""

    def _restore(self, last) -> None:
        """Start from the last table started here (seats, levels, names, colours, scenario); a
        level no longer offered or a colour taken twice falls back to the defaults."""
        if last is None:
            return
        for i, t in enumerate(last.seats[:4]):
            bot = t.bot if t.bot in self.levels else self.seats[i].bot
            self.seats[i] = SeatSpec(t.name or self.seats[i].name, t.kind, bot, t.colour)
        self.count = last.count
        shown = self.seats[:self.count]
        if len({s.colour for s in shown}) != len(shown):  # each seat at the table its own colour
            for i, s in enumerate(self.seats):
                s.colour = COLOURS[i]
        taken = [s.colour for s in shown]
        for s in self.seats[self.count:]:  # the seats not at the table: a free colour each, should they join
            if s.colour in taken:
                s.colour = next(c for c in COLOURS if c not in taken)
            taken.append(s.colour)
        self.scenario = last.scenario  # checked against this seat count's tiles in ``layout``

    def _remember(self) -> None:
        seats = [persistence.TableSeat(name=s.name[:40], kind=s.kind, bot=s.bot or "", colour=s.colour)
                 for s in self.seats]
        self.app.settings.last_table = persistence.LastTable(count=self.count, seats=seats, scenario=self.scenario)
        persistence.save_settings(self.app.settings)

    # ------------------------------------------------------------ layout

    def layout(self, size) -> None:
        for i, f in enumerate(self.fields):
            self.seats[i].name = f.value or self.seats[i].name
        if self.seed_field is not None:
            self.seed = self.seed_field.value
        self.widgets.clear()
        self.fields = []
        w, h = size
        sc = W.sc
        self.box = pygame.Rect(0, 0, min(sc(1180), w - 40), min(h - 40, sc(500 + 58 * self.count + 40)))
        self.box.center = (w // 2, h // 2)
        x0 = self.box.x + sc(40)
        y = self.box.y + sc(96)
        self.labels = []
        # the labels' column: 170 design pixels, wider when a language's label needs it (Spanish
        # "Loseta de Escenario"); the controls right of it start where it ends
        label_font = theme.font("sans_semibold", 18)
        col = max(sc(170), max(label_font.size(i18n.t(k))[0] for k in ("new.seats", "new.scenario", "new.seed")) + sc(14))
        # seat count
        self.labels.append((i18n.t("new.seats"), (x0, y + sc(22))))
        for i, n in enumerate((2, 3, 4)):
            self.widgets.add(Button(str(n), partial(self.set_count, n), (x0 + col + sc(i * 70), y, sc(60), sc(44)),
                                    style="secondary", selected=(n == self.count)))
        y += sc(70)
        # seat rows
        for i in range(self.count):
            s = self.seats[i]
            self.labels.append((i18n.t("new.seat", n=i + 1), (x0, y + sc(22))))
            x = x0 + sc(110)
            self.widgets.add(Button(i18n.t("new.human"), partial(self.set_kind, i, "human"),
                                    (x, y, sc(110), sc(44)), style="secondary", selected=not s.is_ai, px=17))
            self.widgets.add(Button(i18n.t("new.ai"), partial(self.set_kind, i, "ai"),
                                    (x + sc(116), y, sc(70), sc(44)), style="secondary", selected=s.is_ai, px=17))
            x += sc(200)
            lw = sc(98) if self.box.w >= sc(1100) else sc(84)
            for j, lvl in enumerate(self.levels):
                b = Button(i18n.t(f"level.{lvl}"), partial(self.set_level, i, lvl),
                           (x + j * (lw + sc(6)), y, lw, sc(44)), style="secondary",
                           selected=(s.is_ai and s.bot == lvl), px=16 if lw > sc(90) else 15)
                b.visible = s.is_ai
                self.widgets.add(b)
            x += max(3, len(self.levels)) * (lw + sc(6)) + sc(10)
            fw = max(sc(120), min(sc(260), self.box.right - sc(40 + 150 + 16) - x))
            f = TextField(s.name, (x, y, fw, sc(44)), max_len=20)
            self.fields.append(f)
            self.widgets.add(f)
            x += fw + sc(16)
            self.widgets.add(Button(i18n.colour_name(s.colour), partial(self.next_colour, i),
                                    (x, y, sc(150), sc(44)), style="secondary", swatch=theme.seat_color(s.colour),
                                    px=17))
            y += sc(58)
        y += sc(16)
        # scenario
        self.labels.append((i18n.t("new.scenario"), (x0, y + sc(22))))
        tiles = [None] + [t.name for t in self.app.content.scenarios_for(self.count)]
        if self.scenario not in tiles:
            self.scenario = None
        x = x0 + col
        bw = (self.box.right - sc(40) - x) // len(tiles) - sc(8)
        for j, name in enumerate(tiles):
            self.widgets.add(Button(name or i18n.t("new.random"), partial(self.set_scenario, name),
                                    (x + j * (bw + sc(8)), y, bw, sc(44)), style="secondary",
                                    selected=(name == self.scenario), px=16))
        y += sc(52)
        self.flourish_y = y
        y += sc(44)
        # seed
        self.labels.append((i18n.t("new.seed"), (x0, y + sc(22))))
        if seed_is_secret(self.seats[: self.count]):  # hot seat: no seed on screen before the game is over
            self.seed_field = None
            self.labels.append((i18n.t("new.seed_secret"), (x0 + col, y + sc(22))))
        else:
            self.seed_field = TextField(self.seed, (x0 + col, y, sc(200), sc(44)), max_len=9, digits=True)
            self.widgets.add(self.seed_field)
            self.widgets.add(Button(i18n.t("new.reroll"), self.reroll, (x0 + col + sc(216), y, sc(150), sc(44)),
                                    style="secondary", px=17))
        # bottom
        self.widgets.add(Button(i18n.t("common.back"), self.back,
                                (self.box.x + sc(40), self.box.bottom - sc(70), sc(150), sc(48)), style="secondary"))
        self.start_button = self.widgets.add(Button(i18n.t("common.start"), self.start,
                                                    (self.box.right - sc(220), self.box.bottom - sc(70), sc(180),
                                                     sc(48)), px=22))

    # ------------------------------------------------------------ actions

    def _sync(self) -> None:
        for i, f in enumerate(self.fields):
            self.seats[i].name = f.value
        if self.seed_field is not None:
            self.seed = self.seed_field.value

    def _relayout(self) -> None:
        self._sync()
        self.layout(self.app.size)

    def set_count(self, n: int) -> None:
        self.count = n
        self._relayout()

    def set_kind(self, i: int, kind: str) -> None:
        self.seats[i].kind = kind
        self._relayout()

    def set_level(self, i: int, lvl: str) -> None:
        self.seats[i].bot = lvl
        self._relayout()

    def next_colour(self, i: int) -> None:
        used = {s.colour for j, s in enumerate(self.seats[: self.count]) if j != i}
        c = self.seats[i].colour
        for _ in range(4):
            c = COLOURS[(COLOURS.index(c) + 1) % 4]
            if c not in used:
                break
        self.seats[i].colour = c
        self._relayout()

    def set_scenario(self, name) -> None:
        self.scenario = name
        self._relayout()

    def reroll(self) -> None:
        self._sync()
        self.seed = str(new_seed())
        self.layout(self.app.size)

    def back(self) -> None:
        self.app.stack.pop(self)

    def chosen_seats(self) -> list[SeatSpec]:
        self._sync()
        out = []
        for _i, s in enumerate(self.seats[: self.count]):
            name = s.name.strip() or i18n.colour_name(s.colour)
            out.append(SeatSpec(name, s.kind, s.bot, s.colour))
        return out

    def start(self) -> None:
        seats = self.chosen_seats()
        if len({s.colour for s in seats}) != len(seats):
            self.error = i18n.t("new.colours_clash")
            return
        # hot seat: a fresh seed, since the one on screen may have been seen before a seat became human
        seed = int(self.seed) if self.seed.isdigit() and not seed_is_secret(seats) else new_seed()
        self._remember()
        self.app.start_session(seats, seed, self.scenario)

    def handle(self, ev) -> bool:
        if ev.type == pygame.KEYDOWN and ev.key == pygame.K_ESCAPE and not self.widgets.editing():
            self.back()
            return True
        return super().handle(ev)

    # ------------------------------------------------------------ drawing

    def draw(self, surf) -> None:
        title = self.app.stack.scenes[0]
        if hasattr(title, "backdrop"):
            title.backdrop.draw(surf)
        else:
            surf.fill(W.BG)
        sc = W.sc
        W.panel(surf, self.box, W.PANEL, W.PANEL_EDGE, 16, 3, alpha=246)
        W.blit_text(surf, i18n.t("new.heading"), (self.box.x + sc(40), self.box.y + sc(22)), "title", 44, W.TEXT)
        W.blit_text(surf, i18n.t("new.hint"), (self.box.right - sc(40), self.box.y + sc(44)), "sans", 15, W.TEXT_SOFT,
                    "topright")
        for text, pos in self.labels:
            W.blit_text(surf, text, pos, "sans_semibold", 18, W.TEXT, "midleft")
        if self.scenario:
            tile = self.app.content.scenario(self.scenario)
            regions = ", ".join(r.name for r in self.app.content.board.regions if r.id in tile.flourishing)
            msg = i18n.t("new.flourishing", regions=regions)
        else:
            msg = i18n.t("new.random_hint")
        W.blit_text(surf, msg, (self.box.x + sc(210), self.flourish_y + sc(4)), "sans_italic", 17, W.TEXT_SOFT,
                    wrap=self.box.right - sc(40) - self.box.x - sc(210))
        if self.error:
            W.blit_text(surf, self.error, (self.start_button.rect.x - sc(20), self.start_button.rect.centery), "sans",
                        17, W.BAD, "midright")
        self.widgets.draw(surf)
