"""The table's motions and sounds for what happened between two states of a game: a piece that
settles onto the board, "+N" rising from the sites it scores, the scores counting up, a sea
league's harbors flaring and its banner, the Last Turn banner, and the end table filling row by
row (``derive`` in feedback.py names the events).

Parts of the game screen's feedback (scenes/feedback.py) with explicit inputs: :class:`Sounds`
(played now or after a delay) and :class:`Motion` (the events and what moves for them)."""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Callable, Optional, Sequence

import pygame

from ..render import theme
from ..rules import scoring
from ..ui import widgets as W
from ..ui.motion import Animator, Tween, ease_out, ease_out_back, lerp
from ..words import i18n

END_ROW_S = 0.35  # the end table: one row every this many seconds


@dataclass
class Event:
    kind: str  # reveal, fief, ring, points, league, donation, last_turn, end, score
    seat: Optional[int] = None
    data: dict[str, Any] = field(default_factory=dict)


def derive(prev: Any, new: Any) -> list[Event]:
    """The events between two states of one game (``new`` later than ``prev``)."""
    out: list[Event] = []
    if prev.phase == "plan" and new.phase != "plan" and new.round == prev.round:
        out.append(Event("reveal"))
    board = new.board
    content = new.content
    if len(new.pieces) > len(prev.pieces):
        total: dict[int, int] = {}
        for p in new.pieces[len(prev.pieces):]:
            pts = []
            for h in p.cells:
                if h in content.sites:
                    v = scoring.site_points(prev, board.mask_of([h]))
                    if v:
                        pts.append((h, v))
            total[p.seat] = total.get(p.seat, 0) + sum(v for _h, v in pts)
            out.append(Event(p.kind, p.seat, {"cells": tuple(p.cells), "castles": tuple(p.castles), "points": pts}))
        for seat, n in total.items():
            if n:
                out.append(Event("points", seat, {"n": n}))
    for i, (a, b) in enumerate(zip(prev.seats, new.seats)):
        for sea in sorted(b.leagues - a.leagues):
            out.append(Event("league", i, {"sea": sea}))
        if b.donations > a.donations:
            out.append(Event("donation", i, {"n": b.donation_points - a.donation_points}))
    if prev.last_round is None and new.last_round is not None:
        out.append(Event("last_turn", None, {"round": new.last_round}))
    if prev.phase != "over" and new.phase == "over":
        out.append(Event("end", None, {"winners": tuple(new.winners)}))
    for i, (a, b) in enumerate(zip(prev.seats, new.seats)):
        if a.score != b.score:
            out.append(Event("score", i, {"from": a.score, "to": b.score}))
    return out


class Sounds:
    """Sounds played now or after a delay. Inputs: ``scale`` (the motion's speed: a delay is
    scaled by it, none waits at "instant") and ``play_now`` (the app's audio)."""

    def __init__(self, scale: Callable[[], float], play_now: Callable[[str], None]):
        self.scale = scale
        self.play_now = play_now
        self.waiting: list[list[Any]] = []  # [seconds left, name]

    def play(self, name: str, delay: float = 0.0) -> None:
        d = delay * self.scale()
        if d <= 0:
            self.play_now(name)
        else:
            self.waiting.append([d, name])

    def update(self, dt: float) -> None:
        if not self.waiting:
            return
        for item in self.waiting:
            item[0] -= dt
        for item in [x for x in self.waiting if x[0] <= 0]:
            self.play_now(item[1])
        self.waiting = [x for x in self.waiting if x[0] > 0]


class Motion:
    """The events of a game seen change by change, and what moves for them. Inputs: ``face``
    (the game's face: its public view, its version, the seats' names and humans), ``anim`` (the
    tweens, shared with the banners that draw some of them), ``sounds``, ``renderer`` (the map's,
    None before the first layout), ``size`` (the window: a settling piece is drawn off-screen at
    that size), ``seat_rects`` (the side panel's seat boxes: a donation's "+N" rises beside the
    score) and ``ended`` (a game seen to its end: the screen counts it)."""

    def __init__(self, face: Any, anim: Animator, sounds: Sounds, renderer: Callable[[], Any],
                 size: Callable[[], tuple[int, int]], seat_rects: Callable[[], Sequence[tuple[pygame.Rect, int]]],
                 ended: Callable[[], None]):
        self.face = face
        self.anim = anim
        self.sounds = sounds
        self.renderer = renderer
        self.size = size
        self.seat_rects = seat_rects
        self.ended = ended
        self.events: list[Event] = []  # the events of the last change (tests read them)
        self._prev: Any = None
        self._version = -1
        self._end: Optional[Tween] = None
        self._scratch: Optional[pygame.Surface] = None
        self._pills: dict[tuple[str, Optional[str], float], pygame.Surface] = {}
        self.reset()

    def reset(self) -> None:
        """Take the face's state as seen, without any event (a game opened, a jump in a replay)."""
        self._prev = self.face.public()  # events are what the whole table sees
        self._version = self.face.version
        self.anim.clear()
        self._end = None

    def see(self) -> None:
        """The events since the state seen last, and their sounds and motions."""
        if self.face.version != self._version:
            new = self.face.public()
            self.events = derive(self._prev, new)
            self._prev, self._version = new, self.face.version
            self.react(self.events, new)

    def fill_end(self) -> None:
        """Once the game is over, the end table starts filling (once)."""
        if self._prev.phase == "over" and self._end is None:
            n = len(self._prev.seats)
            self._end = self.anim.add("end_rows", END_ROW_S * n, 0.2, ease=lambda p: p)

    def react(self, events: list[Event], state: Any) -> None:
        """The sounds (each once) and motions of ``events`` seen in ``state``."""
        heard: set[str] = set()

        def sound(name: str, delay: float = 0.0) -> None:
            if name not in heard:
                heard.add(name)
                self.sounds.play(name, delay)

        for e in events:
            colour = state.seats[e.seat].colour if e.seat is not None else None
            if e.kind == "reveal":
                sound("reveal")
            elif e.kind in ("fief", "ring") and colour is not None:  # (a piece always has its seat)
                sound(e.kind)
                self._settle(e, colour)
                for h, v in e.data["points"]:
                    self.anim.add("float", 1.3, 0.3, ease=ease_out, hex=h, text=f"+{v}", colour=colour)
            elif e.kind == "points":
                sound("points", 0.3)
            elif e.kind == "league":
                sound("league", 0.5)
                sea = state.content.sea_names.get(e.data["sea"], e.data["sea"])
                harbors = [x.hex for x in state.content.sites.values() if x.kind == "harbor" and x.sea == e.data["sea"]]
                self.anim.add("league", 1.8, 0.4, harbors=harbors, colour=colour)
                self.anim.add("banner", 2.6, 0.4, ease=lambda p: p,
                              text=i18n.t("fx.league", name=self.face.seat_name(e.seat), sea=sea), colour=colour)
            elif e.kind == "donation":
                sound("donation")
                self.anim.add("panel_float", 1.4, 0.1, seat=e.seat, text=f"+{e.data['n']}")
            elif e.kind == "last_turn":
                sound("last_turn", 0.6)
                self.anim.add("banner", 3.2, 0.6, ease=lambda p: p, text=i18n.t("fx.last_turn", round=e.data["round"]),
                              colour=None)
            elif e.kind == "end":
                humans = getattr(self.face, "humans", [])
                won = not humans or any(i in e.data["winners"] for i in humans)
                sound("win" if won else "loss", 0.3)
                self._end = None  # the end table fills from its first row
                self.ended()
            elif e.kind == "score" and e.seat is not None:
                start = self.score(e.seat, e.data["from"])
                self.anim.tweens = [tw for tw in self.anim.tweens
                                    if not (tw.kind == "score" and tw.data["seat"] == e.seat)]
                self.anim.add("score", 0.9, 0.3, seat=e.seat, start=start, end=e.data["to"])

    # ------------------------------------------------------------ what the game screen asks

    def reveal_flips(self, n: int) -> list[Tween]:
        """The reveal's cards turning over, one seat after another (finished at once with reduce motion)."""
        return [self.anim.add("flip", 0.42, 0.15 + 0.24 * k, ease=lambda p: p) for k in range(n)]

    def score(self, seat: int, actual: int) -> int:
        """The score to show for ``seat``: counting up to ``actual`` while it changes."""
        for tw in self.anim.tweens:
            if tw.kind == "score" and tw.data["seat"] == seat:
                return int(round(lerp(tw.data["start"], tw.data["end"], tw.p)))
        return actual

    def pieces(self, fiefs: Any, rings: Any) -> tuple[Any, Any]:
        """The pieces to draw as laid: without those still settling (drawn by ``draw_map``)."""
        settling = [tw for tw in self.anim.tweens if tw.kind == "settle"]
        if not settling:
            return fiefs, rings
        cells = {tw.data["cells"] for tw in settling if tw.data["piece"] == "fief"}
        ring_hexes = {tw.data["cells"][0] for tw in settling if tw.data["piece"] == "ring"}
        fiefs = [f for f in fiefs if tuple(f[1]) not in cells]
        rings = {h: c for h, c in rings.items() if h not in ring_hexes}
        return fiefs, rings

    def end_rows(self, rows: list[Any]) -> list[Any]:
        """The rows of the end table shown so far (it fills row by row)."""
        tw = self._end
        if tw is None or tw.done:
            return rows
        return rows[: min(len(rows), int(tw.raw * len(rows)) + 1) if tw.started else 0]

    # ------------------------------------------------------------ the settling piece

    def _settle(self, e: Event, colour: str) -> None:
        r = self.renderer()
        if r is None or self.sounds.scale() <= 0:
            return
        size = self.size()
        if self._scratch is None or self._scratch.get_size() != size:
            self._scratch = pygame.Surface(size, pygame.SRCALPHA)
        scr = self._scratch
        scr.fill((0, 0, 0, 0))
        cells = e.data["cells"]
        if e.kind == "fief":
            r.draw_fiefs(scr, [(colour, cells, e.data["castles"])])
        else:
            r.draw_rings(scr, {cells[0]: colour}, [])
        pts = [r.hex_to_screen(h) for h in cells]
        pad = r.size * 1.8
        box = pygame.Rect(int(min(x for x, _ in pts) - pad), int(min(y for _, y in pts) - pad),
                          int(max(x for x, _ in pts) - min(x for x, _ in pts) + 2 * pad),
                          int(max(y for _, y in pts) - min(y for _, y in pts) + 2 * pad)).clip(scr.get_rect())
        if box.w <= 0 or box.h <= 0:
            return
        img = pygame.Surface(box.size, pygame.SRCALPHA)  # an exact copy, alpha and all
        img.blit(scr, (0, 0), box, special_flags=pygame.BLEND_RGBA_ADD)
        ax, ay = pts[0]
        self.anim.add("settle", 0.45, 0.0, ease=ease_out_back, piece=e.kind, cells=tuple(cells), img=img,
                      offset=(box.x - ax, box.y - ay), size=r.size)

    # ------------------------------------------------------------ drawing

    def draw_map(self, surf: pygame.Surface) -> None:
        """What moves on the map (the screen clips to it): settling pieces, flaring harbors, "+N"."""
        r = self.renderer()
        if r is None:
            return
        for tw in self.anim.tweens:
            if not tw.started:
                continue
            if tw.kind == "settle":
                self._draw_settle(surf, tw, r)
            elif tw.kind == "league":
                self._draw_league(surf, tw, r)
            elif tw.kind == "float":
                x, y = r.hex_to_screen(tw.data["hex"])
                self._draw_float(surf, tw, (x, y - r.size * 0.4), 50)

    def draw_panel(self, surf: pygame.Surface) -> None:
        """A donation's "+N" rising beside the seat's score in the side panel."""
        for tw in self.anim.tweens:
            if tw.started and tw.kind == "panel_float":
                for rect, seat in self.seat_rects():
                    if seat == tw.data["seat"]:
                        self._draw_float(surf, tw, (rect.right - 104, rect.y + 52), 14)  # beside the score

    def _draw_settle(self, surf: pygame.Surface, tw: Tween, r: Any) -> None:
        d = tw.data
        if abs(r.size - d["size"]) > 1e-6:
            return  # the view was zoomed meanwhile: the piece is simply there
        img = d["img"]
        p = tw.p
        k = 1.22 - 0.22 * p
        w, h = max(1, int(img.get_width() * k)), max(1, int(img.get_height() * k))
        ax, ay = r.hex_to_screen(d["cells"][0])
        cx = ax + d["offset"][0] + img.get_width() / 2
        cy = ay + d["offset"][1] + img.get_height() / 2 - (1 - p) * r.size * 1.4
        shadow = int(90 * (1 - min(1.0, tw.raw * 1.2)))
        if shadow > 0:
            sh = pygame.transform.smoothscale(img, (w, h))
            sh.fill((0, 0, 0, shadow), special_flags=pygame.BLEND_RGBA_MIN)
            surf.blit(sh, sh.get_rect(center=(int(cx + r.size * 0.25), int(ay + d["offset"][1]
                                                                          + img.get_height() / 2 + r.size * 0.2))))
        spr = pygame.transform.smoothscale(img, (w, h)) if (w, h) != img.get_size() else img
        spr.set_alpha(min(255, int(255 * tw.raw / 0.3)))
        surf.blit(spr, spr.get_rect(center=(int(cx), int(cy))))
        img.set_alpha(255)

    def _draw_league(self, surf: pygame.Surface, tw: Tween, r: Any) -> None:
        p = tw.raw
        rad = int(r.size * (0.7 + 2.2 * ease_out(p)))
        a = int(255 * (1 - p))
        gold = theme.GOLD
        for h in tw.data["harbors"]:
            x, y = r.hex_to_screen(h)
            s = pygame.Surface((rad * 2 + 8, rad * 2 + 8), pygame.SRCALPHA)
            c = (rad + 4, rad + 4)
            pygame.draw.circle(s, (*gold, a), c, rad, max(2, int(r.size * 0.18)))
            for k in range(8):
                ang = k * math.pi / 4 + p
                r0, r1 = rad * 0.55, rad * 0.95
                pygame.draw.line(s, (255, 246, 200, a), (c[0] + r0 * math.cos(ang), c[1] + r0 * math.sin(ang)),
                                 (c[0] + r1 * math.cos(ang), c[1] + r1 * math.sin(ang)), 3)
            surf.blit(s, (int(x) - c[0], int(y) - c[1]))

    def _draw_float(self, surf: pygame.Surface, tw: Tween, pos: tuple[float, float], rise: float) -> None:
        raw = tw.raw
        img = self._pill(tw.data["text"], tw.data.get("colour"))
        a = 255 if raw < 0.6 else int(255 * (1 - raw) / 0.4)
        img.set_alpha(max(0, a))
        x, y = pos
        surf.blit(img, img.get_rect(midbottom=(int(x), int(y - rise * ease_out(raw)))))
        img.set_alpha(255)

    def _pill(self, text: str, colour: Optional[str]) -> pygame.Surface:
        key = (text, colour, theme.text_scale())
        img = self._pills.get(key)
        if img is None:
            t = W.text(text, "sans_bold", 22, (255, 255, 255))
            img = pygame.Surface((t.get_width() + 18, t.get_height() + 6), pygame.SRCALPHA)
            fill = theme.seat_dark(colour) if colour else (60, 110, 40)
            edge = theme.seat_color(colour) if colour else theme.GOLD
            pygame.draw.rect(img, fill, img.get_rect(), 0, 10)
            pygame.draw.rect(img, edge, img.get_rect(), 2, 10)
            img.blit(t, t.get_rect(center=img.get_rect().center))
            self._pills[key] = img
        return img
