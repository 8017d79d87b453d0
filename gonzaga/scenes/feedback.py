"""The table responds: what happened, heard and seen.

One observer per game screen. Each frame it compares the game state it saw last with the
session's state now (``derive``: pure, from the two states only, so several moves applied in
one frame are all seen) and watches the screen's own interface state (a card chosen, a turn
that opens, the privacy curtain). For every event it plays a sound *and* starts a motion, so
nothing is told by sound alone:

=============  ===================  ===================================================
event          sound                what is seen
=============  ===================  ===================================================
card chosen    ``card``             the card is selected in the hand
reveal         ``reveal``           the reveal turns the cards over (overlays.py)
fief / ring    ``fief`` / ``ring``  the piece settles onto the board
points         ``points``           "+N" rises from each site it scores; the score counts up
sea league     ``league``           the sea's harbors flare and a banner names the league
donation       ``donation``         "+3" rises from the seat's score
Last Turn      ``last_turn``        a banner: this round is the last
curtain        ``curtain``          the curtain itself
your turn      ``your_turn``        the bottom bar flashes gold with "Your turn"
end            ``win`` / ``loss``   the end table fills row by row; the score-by-round chart
=============  ===================  ===================================================

The motion follows the speed setting and "reduce motion" (``ui.motion``); sounds go to
``app.audio`` when there is one. At the end of a game seen here (not a finished game loaded)
the statistics are updated once (``app.count_finished``).
"""
from __future__ import annotations

import logging
import math
import threading
from dataclasses import dataclass, field
from typing import Any, Optional

import pygame

from ..table import history
from ..render import theme
from ..rules import GameRecord, scoring
from ..ui import charts
from ..words import i18n
from ..ui import widgets as W
from ..ui.motion import Animator, Tween, ease_out, ease_out_back, lerp, speed_scale

log = logging.getLogger(__name__)


@dataclass
class Event:
    kind: str  # reveal, fief, ring, points, league, donation, last_turn, end, score
    seat: Optional[int] = None
    data: dict = field(default_factory=dict)


def derive(prev, new) -> list[Event]:
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


END_ROW_S = 0.35  # the end table: one row every this many seconds


def _banner_size(text_size: tuple[int, int]) -> tuple[int, int]:
    """A banner's size around its text's (the padding its plate adds)."""
    return text_size[0] + 40, text_size[1] + 22


class Feedback:
    """Sound and motion for one game screen (``scene``: a GameScene or the replay viewer)."""

    def __init__(self, scene, *, record_stats: bool = True, watch_ui: bool = True):
        self.scene = scene
        self.app = scene.app
        self.record_stats = record_stats
        self.watch_ui = watch_ui
        self.anim = Animator(self.scale)
        self.events: list[Event] = []  # the events of the last change (tests read them)
        self._sounds: list[list] = []  # [seconds left, name]
        self._scratch: Optional[pygame.Surface] = None
        self._choice: Optional[tuple[Optional[str], Optional[str], bool]] = None  # the hand's (region, action, king)
        self._turn: Optional[tuple[Optional[int], Optional[tuple[int, Any]]]] = None  # (private seat, (placing seat, key))
        self._curtain: Optional[int] = None
        self._end: Optional[Tween] = None
        self._steady: Optional[tuple] = None  # steady_rects' answer and what it was for
        self._chart: Optional[tuple[tuple, pygame.Surface]] = None  # (key, surface)
        self.reset()

    def scale(self) -> float:
        return speed_scale(getattr(self.app, "speed", "normal"), getattr(self.app.settings, "reduce_motion", False))

    def reset(self) -> None:
        """Take the session's state as seen, without any event (a game opened, a jump in a replay)."""
        s = self.scene.face
        self._prev = s.public()  # events are what the whole table sees
        self._version = s.version
        self.anim.clear()
        self._end = None

    # ------------------------------------------------------------ every frame

    def update(self, dt: float) -> None:
        self.anim.update(dt)
        if self._sounds:
            for item in self._sounds:
                item[0] -= dt
            for item in [x for x in self._sounds if x[0] <= 0]:
                self._play_now(item[1])
            self._sounds = [x for x in self._sounds if x[0] > 0]
        s = self.scene.face
        if s.version != self._version:
            new = s.public()
            self.events = derive(self._prev, new)
            self._prev, self._version = new, s.version
            self._react(self.events, new)
        if self.watch_ui:
            self._watch_ui()
        if self.scene.state.phase == "over" and self._end is None:
            n = len(self.scene.state.seats)
            self._end = self.anim.add("end_rows", END_ROW_S * n, 0.2, ease=lambda p: p)

    def play(self, name: str, delay: float = 0.0) -> None:
        d = delay * self.scale()
        if d <= 0:
            self._play_now(name)
        else:
            self._sounds.append([d, name])

    def _play_now(self, name: str) -> None:
        audio = getattr(self.app, "audio", None)
        if audio is not None:
            audio.play(name)

    def _react(self, events: list[Event], state) -> None:
        heard: set = set()

        def sound(name: str, delay: float = 0.0) -> None:
            if name not in heard:
                heard.add(name)
                self.play(name, delay)

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
                              text=i18n.t("fx.league", name=self.scene.face.seat_name(e.seat), sea=sea),
                              colour=colour)
            elif e.kind == "donation":
                sound("donation")
                self.anim.add("panel_float", 1.4, 0.1, seat=e.seat, text=f"+{e.data['n']}")
            elif e.kind == "last_turn":
                sound("last_turn", 0.6)
                self.anim.add("banner", 3.2, 0.6, ease=lambda p: p, text=i18n.t("fx.last_turn", round=e.data["round"]),
                              colour=None)
            elif e.kind == "end":
                s = self.scene.face
                humans = getattr(s, "humans", [])
                won = not humans or any(i in e.data["winners"] for i in humans)
                sound("win" if won else "loss", 0.3)
                self._end = None  # the end table fills from its first row
                if self.record_stats:
                    self._record_stats()
            elif e.kind == "score" and e.seat is not None:
                start = self.score(e.seat, e.data["from"])
                self.anim.tweens = [tw for tw in self.anim.tweens
                                    if not (tw.kind == "score" and tw.data["seat"] == e.seat)]
                self.anim.add("score", 0.9, 0.3, seat=e.seat, start=start, end=e.data["to"])

    def _record_stats(self) -> None:
        message = self.app.count_finished(self.scene.face)  # the app holds the game: it counts it
        if message:
            self.app.toast(message, 9)

    def _watch_ui(self) -> None:
        sc = self.scene
        hand = getattr(sc, "hand", None)
        choice = (hand.region, hand.action, hand.king) if hand is not None else (None, None, False)
        if self._choice is not None and choice != self._choice and any(choice):
            self.play("card")
        self._choice = choice
        place = getattr(sc, "place", None)
        turn = (getattr(sc, "private_seat", None), (place.seat, place.key) if place is not None else None)
        before = self._turn or (None, None)
        mine, placing = turn
        seat = None
        if mine is not None and mine != before[0]:
            seat = mine
        elif placing is not None and placing != before[1]:
            seat = mine if mine is not None else placing[0]
        if seat is not None:
            self.play("your_turn")
            self.anim.clear("your_turn")
            self.anim.add("your_turn", 1.8, 0.0, ease=lambda p: p, seat=seat)
        self._turn = turn
        top = self.app.stack.top
        curtain = id(top) if top is not None and top.name == "curtain" else None
        if curtain is not None and curtain != self._curtain:
            self.play("curtain")
        self._curtain = curtain

    # ------------------------------------------------------------ what the game screen asks

    def reveal_flips(self, n: int) -> list:
        """The reveal's cards turning over, one seat after another (tweens; finished at once with
        reduce motion)."""
        return [self.anim.add("flip", 0.42, 0.15 + 0.24 * k, ease=lambda p: p) for k in range(n)]

    def score(self, seat: int, actual: int) -> int:
        """The score to show for ``seat``: counting up to ``actual`` while it changes."""
        for tw in self.anim.tweens:
            if tw.kind == "score" and tw.data["seat"] == seat:
                return int(round(lerp(tw.data["start"], tw.data["end"], tw.p)))
        return actual

    def pieces(self, fiefs, rings):
        """The pieces to draw as laid: without those still settling (drawn by ``draw``)."""
        settling = [tw for tw in self.anim.tweens if tw.kind == "settle"]
        if not settling:
            return fiefs, rings
        cells = {tw.data["cells"] for tw in settling if tw.data["piece"] == "fief"}
        ring_hexes = {tw.data["cells"][0] for tw in settling if tw.data["piece"] == "ring"}
        fiefs = [f for f in fiefs if tuple(f[1]) not in cells]
        rings = {h: c for h, c in rings.items() if h not in ring_hexes}
        return fiefs, rings

    def end_rows(self, rows: list) -> list:
        """The rows of the end table shown so far (it fills row by row)."""
        tw = self._end
        if tw is None or tw.done:
            return rows
        return rows[: min(len(rows), int(tw.raw * len(rows)) + 1) if tw.started else 0]

    # ------------------------------------------------------------ the settling piece

    def _settle(self, e: Event, colour: str) -> None:
        r = self.scene.renderer
        if r is None or self.scale() <= 0:
            return
        size = self.app.size
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

    def draw(self, surf: pygame.Surface) -> None:
        """Everything that moves, over the game screen (called at the end of its draw)."""
        sc = self.scene
        over = sc.state.phase == "over"
        if not self.anim.tweens and not over:
            return
        r = sc.renderer
        clip = surf.get_clip()
        if over and self.chart_in_panel():
            self._draw_chart(surf, on_map=False)
        surf.set_clip(sc.board_rect)
        if over and not self.chart_in_panel():
            self._draw_chart(surf, on_map=True)
        for tw in self.anim.tweens:
            if not tw.started or r is None:
                continue
            if tw.kind == "settle":
                self._draw_settle(surf, tw, r)
            elif tw.kind == "league":
                self._draw_league(surf, tw, r)
            elif tw.kind == "float":
                x, y = r.hex_to_screen(tw.data["hex"])
                self._draw_float(surf, tw, (x, y - r.size * 0.4), 50)
        surf.set_clip(clip)
        banners = 0
        for tw in self.anim.tweens:
            if not tw.started:
                continue
            if tw.kind == "banner":
                self._draw_banner(surf, tw, banners)
                banners += 1
            elif tw.kind == "your_turn":
                self._draw_your_turn(surf, tw)
            elif tw.kind == "panel_float":
                for rect, seat in (sc.panel.seat_rects if getattr(sc, "panel", None) is not None else []):
                    if seat == tw.data["seat"]:
                        self._draw_float(surf, tw, (rect.right - 104, rect.y + 52), 14)  # beside the score

    def _draw_settle(self, surf, tw, r) -> None:
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

    def _draw_league(self, surf, tw, r) -> None:
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

    def _draw_float(self, surf, tw, pos, rise: float) -> None:
        raw = tw.raw
        img = self._pill(tw.data["text"], tw.data.get("colour"))
        a = 255 if raw < 0.6 else int(255 * (1 - raw) / 0.4)
        img.set_alpha(max(0, a))
        x, y = pos
        surf.blit(img, img.get_rect(midbottom=(int(x), int(y - rise * ease_out(raw)))))
        img.set_alpha(255)

    def _pill(self, text: str, colour: Optional[str]) -> pygame.Surface:
        key = (text, colour, theme.text_scale())
        cache = self.__dict__.setdefault("_pills", {})
        img = cache.get(key)
        if img is None:
            t = W.text(text, "sans_bold", 22, (255, 255, 255))
            img = pygame.Surface((t.get_width() + 18, t.get_height() + 6), pygame.SRCALPHA)
            fill = theme.seat_dark(colour) if colour else (60, 110, 40)
            edge = theme.seat_color(colour) if colour else theme.GOLD
            pygame.draw.rect(img, fill, img.get_rect(), 0, 10)
            pygame.draw.rect(img, edge, img.get_rect(), 2, 10)
            img.blit(t, t.get_rect(center=img.get_rect().center))
            cache[key] = img
        return img

    def _card(self, key, make) -> pygame.Surface:
        """A small drawn card (a banner, a label), made once and kept while it is used."""
        cache = self.__dict__.setdefault("_cards", {})
        img = cache.get(key)
        if img is None:
            if len(cache) > 32:
                cache.clear()
            img = cache[key] = make()
        return img

    def _banner_image(self, tw) -> pygame.Surface:
        colour = tw.data.get("colour")

        def make() -> pygame.Surface:
            t = W.text(tw.data["text"], "sans_bold", 24, W.TEXT_LIGHT)
            s = pygame.Surface(_banner_size(t.get_size()), pygame.SRCALPHA)
            edge = theme.seat_color(colour) if colour else theme.GOLD
            pygame.draw.rect(s, (58, 44, 34), s.get_rect(), 0, 12)
            pygame.draw.rect(s, edge, s.get_rect(), 3, 12)
            s.blit(t, t.get_rect(center=s.get_rect().center))
            return s

        return self._card(("banner", tw.data["text"], colour, theme.text_scale()), make)

    def _banner_box(self, size: tuple[int, int], below: int, raw: float = 1.0) -> pygame.Rect:
        """Where a banner of ``size`` stands, ``below`` others over it, ``raw`` into its slide-in."""
        b = self.scene.board_rect
        top = b.y + 53 + below * (size[1] + 8)
        box = pygame.Rect((0, 0), size)
        box.midtop = (b.centerx, top + int(14 * (1 - ease_out(min(1.0, raw / 0.1)))))
        return box

    def banner_rects(self) -> list[pygame.Rect]:
        """Where the banners shown now (and about to show) stand, the "Your turn" flash above the
        bar among them: other boxes (the tutorial's) keep clear of them."""
        out, banners = [], 0
        for tw in self.anim.tweens:
            if tw.kind == "banner":
                out.append(self._banner_box(self._banner_image(tw).get_size(), banners))
                banners += 1
            elif tw.kind == "your_turn":
                box = self.your_turn_box(tw.data["seat"])
                if box is not None:
                    out.append(box)
        return out

    def _draw_banner(self, surf, tw, below: int = 0) -> None:
        """A banner at the top of the map (``below`` others already there: under them)."""
        raw = tw.raw
        a = min(1.0, raw / 0.1, (1 - raw) / 0.2)
        if a <= 0:
            return
        img = self._banner_image(tw)
        box = self._banner_box(img.get_size(), below, raw)
        img.set_alpha(int(245 * a))
        surf.blit(img, box)
        img.set_alpha(255)

    def steady_rects(self, seats) -> tuple[list[pygame.Rect], list[pygame.Rect]]:
        """Where the "Your turn" flash of any of ``seats`` and the banners would stand if they
        appeared now (shown or not), as (flash, banners): a box that keeps clear of them stays
        put when they come and go. The banners: the Last Turn banner of this round and any seat's
        sea league, one under another (a league and the Last Turn can come at one round's end);
        none once the game is over."""
        sc = self.scene
        st = sc.state
        key = (tuple(sc.board_rect), tuple(getattr(sc, "bottom_rect", None) or ()), theme.text_scale(),
               i18n.language(), st.round, st.last_round, tuple(seats), len(st.seats))
        if self._steady is not None and self._steady[0] == key:
            return self._steady[1]
        flash = [r for r in (self.your_turn_box(s) for s in seats) if r is not None]
        texts = [i18n.t("fx.league", name=sc.face.seat_name(i), sea=sea)
                 for i in range(len(st.seats)) for sea in st.content.sea_names.values()]
        if st.last_round is None:
            texts.append(i18n.t("fx.last_turn", round=st.round))
        font = theme.font("sans_bold", 24)  # as _banner_image draws them, without drawing them
        sizes = [_banner_size(font.size(t)) for t in texts]
        widest = (max(w for w, _ in sizes), max(h for _, h in sizes))
        banners = [] if st.phase == "over" else [self._banner_box(widest, i) for i in range(2)]
        self._steady = (key, (flash, banners))
        return flash, banners

    def _your_turn_image(self, seat: int) -> pygame.Surface:
        """The "Your turn, <name>" label of the flash."""
        text = i18n.t("fx.your_turn", name=self.scene.face.seat_name(seat))

        def make() -> pygame.Surface:
            t = W.text(text, "sans_bold", 18, (70, 50, 10))
            s = pygame.Surface((t.get_width() + 24, t.get_height() + 10), pygame.SRCALPHA)
            pygame.draw.rect(s, (255, 226, 140), s.get_rect(), 0, 10)
            pygame.draw.rect(s, (150, 110, 30), s.get_rect(), 2, 10)
            s.blit(t, t.get_rect(center=s.get_rect().center))
            return s

        return self._card(("turn", text, theme.text_scale()), make)

    def your_turn_box(self, seat: int) -> Optional[pygame.Rect]:
        """Where the flash's label for ``seat`` stands: on the map, just above the bar (None: no
        bar); the one place that says so, whether the flash is shown or not."""
        sc = self.scene
        rect = getattr(sc, "bottom_rect", None)
        if rect is None:
            return None
        box = self._your_turn_image(seat).get_rect(midbottom=(rect.centerx, rect.y - 8))
        online = getattr(sc, "online", None)
        for r in online.keep_clear() if online is not None else ():  # beside an online game's chat strip
            if box.colliderect(r) and r.right + 8 + box.w <= sc.board_rect.right:
                box.x = r.right + 8
        box.clamp_ip(sc.board_rect)
        return box

    def _draw_your_turn(self, surf, tw) -> None:
        sc = self.scene
        rect = getattr(sc, "bottom_rect", None)
        box = self.your_turn_box(tw.data["seat"])
        if rect is None or box is None:
            return
        pulse = 0.5 + 0.5 * math.cos(tw.raw * 3 * 2 * math.pi)
        fade = 1 - max(0.0, (tw.raw - 0.7) / 0.3)
        width = max(1, int((3 + 4 * pulse) * fade))
        pygame.draw.rect(surf, theme.GOLD, rect.inflate(-4, -4), width, 8)
        img = self._your_turn_image(tw.data["seat"])
        img.set_alpha(int(255 * fade))
        surf.blit(img, box)
        img.set_alpha(255)

    # ------------------------------------------------------------ the end screen's chart

    def chart_rect(self) -> pygame.Rect:
        """Where the score-by-round chart goes: in the side panel in place of the log, below the
        seats, when it has room there (the map stays whole); else on the map's corner."""
        r = self._panel_chart_rect()
        if r is not None:
            return r
        b = self.scene.board_rect
        w = min(W.sc(470), int(b.w * 0.4))
        h = min(W.sc(270), int(b.h * 0.5))
        # a legend on two rows (four long names at 1280x720) takes its room from the map, not the plot
        names = [self.scene.face.seat_name(i) for i in range(self.scene.state.n)]
        h = min(int(b.h * 0.65), h + charts.legend_height(names, w) - charts.legend_height(names[:1], w))
        r = pygame.Rect(0, 0, w, h)
        r.bottomright = (b.right - W.sc(12), b.bottom - W.sc(12))
        return r

    def _panel_chart_rect(self) -> Optional[pygame.Rect]:
        """Below the seats' boxes (measured once per panel size, game step, language and scale:
        asked several times a frame at the end)."""
        sc = self.scene
        p = getattr(sc, "panel_rect", None)
        panel = getattr(sc, "panel", None)
        if p is None or panel is None:  # (a scene without the side panel)
            return None
        foot = panel.foot()  # (an online game's chat strip at the panel's foot)
        key = (tuple(p), sc.face.version, i18n.language(), theme.text_scale(), W.sc(100), foot)
        cached = self.__dict__.get("_panel_chart")
        if cached is None or cached[0] != key:
            # the boxes as the panel draws them at the end, in the fit it chooses (issue 40: measured
            # with the fit of an earlier frame, the chart stood over the fourth seat's box)
            panel.fit_seats(p.y + W.sc(10), set())
            y = panel.seats_bottom(panel.seat_boxes(p.y + W.sc(10), set()))  # (two columns on a wide window)
            r = pygame.Rect(p.x + W.sc(10), y + W.sc(58), p.w - W.sc(20), p.bottom - foot - y - W.sc(68))  # Watch and Review above, clear of the seat boxes' totals
            need = self._chart_need(r.w)
            cached = self._panel_chart = (key, r if r.w >= W.sc(220) and r.h >= need else None)  # (a readable plot)
        return None if cached[1] is None else cached[1].copy()

    def _chart_need(self, width: int) -> int:
        """The least height of a readable chart ``width`` wide (a legend on two rows takes room)."""
        names = [self.scene.face.seat_name(i) for i in range(self.scene.state.n)]
        return W.sc(190) + charts.legend_height(names, width) - charts.legend_height(names[:1], width)

    def panel_chart_room(self) -> int:
        """The height the end chart needs under the seats' boxes in the side panel (with Watch and
        Review above it): the seats' boxes are drawn smaller to leave it (issue 50: at 1280x720
        with three seats the chart stood over the map)."""
        p = self.scene.panel_rect
        return W.sc(68) + self._chart_need(p.w - W.sc(20))

    def _round_scores(self, s):
        """The game's scores by round, replayed in a thread (a whole game takes tens of ms: more
        than a frame); None until it is ready."""
        key = (s.token, s.position)
        job = self.__dict__.get("_scores_job")
        if job is None or job[0] != key:
            rec = s.finished_record()  # the chart is drawn once the game is over: the record is public then
            record = GameRecord(rec.config, rec.seed, list(rec.actions))
            box: list = []
            content = self.scene.state.content

            def run() -> None:
                try:
                    box.append(history.round_scores(history.states(record, content)))
                except Exception:  # the chart is decoration: never a crash
                    log.exception("score-by-round chart")
                    box.append(None)
            t = threading.Thread(target=run, name="gonzaga-chart", daemon=True)
            job = self._scores_job = (key, box, t)
            t.start()
        return job[1][0] if job[1] else None

    def chart_in_panel(self) -> bool:
        """The end chart stands in the side panel, in place of the log (which is then not drawn)."""
        return self._panel_chart_rect() is not None

    def _draw_chart(self, surf, on_map: bool) -> None:
        """The score-by-round chart; on the map's corner it is see-through while the pointer is on it."""
        sc = self.scene
        s = sc.face
        rect = self.chart_rect()
        if rect.w < 200 or rect.h < 140:
            return
        key = (s.token, s.position, rect.size, i18n.language(), theme.text_scale(), on_map)
        if self._chart is None or self._chart[0] != key or W.CHECK.enabled:  # (a layout check sees it drawn)
            rs = self._round_scores(s)
            if rs is None:
                return  # being computed off the frame loop: drawn in a frame or two
            img = pygame.Surface(rect.size, pygame.SRCALPHA)
            W.CHECK.place(img, rect.topleft)
            labels = [str(x) for x in rs.rounds] + ([i18n.t("chart.end")] if rs.final else [])
            series = []
            for i, seat in enumerate(sc.state.seats):
                vals = list(rs.scores[i]) + ([rs.final[i]] if rs.final else [])
                series.append(charts.seat_series(s.seat_name(i), vals, seat.colour))
            charts.line_chart(img, img.get_rect(), series, labels, title=i18n.t("chart.by_round"),
                              alpha=255)  # opaque: the pointer on it shows the map under it
            self._chart = (key, img)
        img = self._chart[1]
        mouse = getattr(sc, "_mouse", (-1, -1))
        img.set_alpha(70 if on_map and rect.collidepoint(mouse) else 255)
        surf.blit(img, rect)
        img.set_alpha(255)
