"""The top bar of the game screen (the round, the Last Turn card, the scenario, who is to act) and
the AI's move as it is shown on the map.

A part of the game screen with explicit inputs (:class:`TopBar`): the game's face and the view
the screen draws."""
from __future__ import annotations

from typing import Any, Callable, Optional

import pygame

from ...render import theme
from ...render.game_sizes import TOP_H
from ...rules import Place, Wedding
from ...ui import palette
from ...ui import widgets as W
from ...words import i18n


class TopBar:
    """The bar across the window's top. Inputs: ``face`` (the game's face: the log, the names,
    the result) and ``view`` (the state the screen draws now); ``status_rect`` is where the Last
    Turn card's line was last drawn (its tip)."""

    def __init__(self, face: Any, view: Callable[[], Any]):
        self.face = face
        self.view = view
        self.status_rect: Optional[pygame.Rect] = None

    def status_text(self) -> str:
        """The Last Turn card: not yet, the last check (after every round from round 6 on: how
        many sites in flourishing regions are still free), fired, or the last round."""
        st = self.view()
        if st.last_round is None:
            check = next((e for e in reversed(self.face.log) if e.key == "log.last_turn_check"), None)
            if check is not None:
                return i18n.t("game.last_turn_check", **check.params)
            return i18n.t("game.last_turn_not_fired")
        return i18n.t("game.last_round") if st.round == st.last_round else \
            i18n.t("game.last_turn_fired", round=st.last_round)

    def draw(self, surf: pygame.Surface, objective_button: bool) -> None:
        """The bar; ``objective_button``: "My objective" stands on it (the words keep clear)."""
        st = self.view()
        sc = W.sc
        w = surf.get_width()
        top_h = sc(TOP_H)
        mid = top_h // 2
        bar = pygame.Rect(0, 0, w, top_h)
        pygame.draw.rect(surf, palette.now().top_bar, bar)
        pygame.draw.line(surf, palette.now().top_edge, (0, top_h - 1), (w, top_h - 1), 2)
        r = W.blit_text(surf, i18n.t("game.round", round=st.round), (sc(16), mid), "title", 30, W.TEXT_LIGHT,
                        "midleft")
        x = r.right + sc(20)
        # two lines: the Last Turn card (or the end), then the scenario and its flourishing regions
        if st.phase == "over":
            status, role, colour = i18n.t("end.heading"), "sans_bold", palette.now().top_alert
        elif st.last_round is not None:
            status, role, colour = self.status_text(), "sans_bold", palette.now().top_alert
        else:
            status, role, colour = self.status_text(), "sans", palette.now().top_text
        r1 = W.blit_text(surf, status, (x, mid + sc(1)), role, 15, colour, "bottomleft")
        self.status_rect = r1.inflate(8, 6) if st.phase != "over" else None
        flour = ", ".join(rr.name for rr in st.content.board.regions if rr.id in st.flourishing)
        r2 = W.blit_text(surf, i18n.t("game.scenario_line", name=st.scenario, regions=flour), (x, mid + sc(1)),
                         "sans", 14, palette.now().top_text, "topleft")
        right_limit = w - sc(310 if objective_button else 150)
        # who is to act: right-aligned, on one or two lines (a count when the names do not fit)
        s = self.face
        short = None
        if st.phase == "plan":
            names = [s.seat_name(i) for i in st.to_act()]
            msg = i18n.t("game.planning_wait", names=", ".join(names))
            short = i18n.t("game.planning_wait_n", plans=i18n.tn("n.plans", len(names)))
        elif st.phase == "place":
            msg = i18n.t("game.to_act", name=s.seat_name(st.to_act()[0]))
        else:
            msg = s.result_text()
        room = right_limit - sc(10) - max(r1.right, r2.right) - sc(24)
        fit = W.fit_lines(msg, "sans_bold", 17, room, top_h - sc(4))
        if fit is None and short is not None:
            fit = W.fit_lines(short, "sans_bold", 17, room, top_h - sc(4))
        lines, px = fit or ([W.fit_text(msg, "sans_bold", 17, max(sc(40), room))], 17)
        lh = theme.font("sans_bold", px).get_linesize()
        y = mid - lh * len(lines) // 2
        for line in lines:
            W.blit_text(surf, line, (right_limit - sc(10), y), "sans_bold", px, palette.now().top_who, "topright")
            y += lh


def draw_ai_move(surf: pygame.Surface, face: Any, view: Any, renderer: Any) -> None:
    """The AI's move as it is shown (``face.ai_showing``): its fief or rings blinking, the seat's name over it."""
    a = face.ai_showing
    if a is None:
        return
    st = view
    colour = st.seats[a.seat].colour
    r = renderer
    t = face.ai_showing_progress()
    if isinstance(a, Place):
        cells, castles = st.content.fiefs[a.fief].footprint(a.anchor, a.rotation)
        if int(t * 6) % 2 == 0:
            r.draw_highlight(surf, cells, strong=True)
        r.draw_fiefs(surf, [(colour, cells, castles)])
        center = r.hex_to_screen(cells[0])
    elif isinstance(a, Wedding):
        r.draw_highlight(surf, a.rings, strong=True)
        r.draw_rings(surf, {h: colour for h in a.rings}, [])
        center = r.hex_to_screen(a.rings[0])
    else:
        return
    label = W.text(face.seat_name(a.seat), "sans_bold", 17, W.TEXT_LIGHT)
    box = label.get_rect(midbottom=(int(center[0]), int(center[1] - r.size * 1.3))).inflate(16, 8)
    W.panel(surf, box, theme.seat_dark(colour), theme.seat_color(colour), 8, 2)
    surf.blit(label, label.get_rect(center=box.center))
