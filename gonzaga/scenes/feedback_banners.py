"""The banners at the top of the map (a sea league, the Last Turn) and the "Your turn" flash
above the bottom bar: where they stand (also before they show: a box that keeps clear of them
stays put) and their drawing; and :class:`UiWatch`, which hears the screen's own moments (a
card chosen, a turn that opens, the privacy curtain).

Parts of the game screen's feedback (scenes/feedback.py) with explicit inputs."""
from __future__ import annotations

import math
from typing import Any, Callable, Optional, Sequence

import pygame

from ..render import theme
from ..ui import widgets as W
from ..ui.motion import Animator, Tween, ease_out
from ..words import i18n

Choice = tuple[Optional[str], Optional[str], bool]  # the hand's (region, action, king)
Turn = tuple[Optional[int], Optional[tuple[int, Any]]]  # (the seat whose hand is open, (placing seat, its key))


def banner_size(text_size: tuple[int, int]) -> tuple[int, int]:
    """A banner's size around its text's (the padding its plate adds)."""
    return text_size[0] + 40, text_size[1] + 22


class Banners:
    """The banners and the flash. Inputs: ``face`` (the seats' names), ``view`` (the state the
    screen draws: the round, the Last Turn, the seas), ``anim`` (the tweens: the banners and the
    flash are among them), ``board`` (the map's rectangle), ``bottom`` (the bottom bar's; None:
    no bar, no flash) and ``keep_clear`` (boxes the flash steps aside from: an online game's chat
    strip)."""

    def __init__(self, face: Any, view: Callable[[], Any], anim: Animator, board: Callable[[], pygame.Rect],
                 bottom: Callable[[], Optional[pygame.Rect]], keep_clear: Callable[[], Sequence[pygame.Rect]]):
        self.face = face
        self.view = view
        self.anim = anim
        self.board = board
        self.bottom = bottom
        self.keep_clear = keep_clear
        self._cards: dict[tuple[Any, ...], pygame.Surface] = {}
        self._steady: Optional[tuple[tuple[Any, ...], tuple[list[pygame.Rect], list[pygame.Rect]]]] = None

    def _card(self, key: tuple[Any, ...], make: Callable[[], pygame.Surface]) -> pygame.Surface:
        """A small drawn card (a banner, a label), made once and kept while it is used."""
        img = self._cards.get(key)
        if img is None:
            if len(self._cards) > 32:
                self._cards.clear()
            img = self._cards[key] = make()
        return img

    def _banner_image(self, tw: Tween) -> pygame.Surface:
        colour = tw.data.get("colour")

        def make() -> pygame.Surface:
            t = W.text(tw.data["text"], "sans_bold", 24, W.TEXT_LIGHT)
            s = pygame.Surface(banner_size(t.get_size()), pygame.SRCALPHA)
            edge = theme.seat_color(colour) if colour else theme.GOLD
            pygame.draw.rect(s, (58, 44, 34), s.get_rect(), 0, 12)
            pygame.draw.rect(s, edge, s.get_rect(), 3, 12)
            s.blit(t, t.get_rect(center=s.get_rect().center))
            return s

        return self._card(("banner", tw.data["text"], colour, theme.text_scale()), make)

    def _banner_box(self, size: tuple[int, int], below: int, raw: float = 1.0) -> pygame.Rect:
        """Where a banner of ``size`` stands, ``below`` others over it, ``raw`` into its slide-in."""
        b = self.board()
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

    def steady_rects(self, seats: Sequence[int]) -> tuple[list[pygame.Rect], list[pygame.Rect]]:
        """Where the "Your turn" flash of any of ``seats`` and the banners would stand if they
        appeared now (shown or not), as (flash, banners): a box that keeps clear of them stays
        put when they come and go. The banners: the Last Turn banner of this round and any seat's
        sea league, one under another (a league and the Last Turn can come at one round's end);
        none once the game is over."""
        st = self.view()
        key = (tuple(self.board()), tuple(self.bottom() or ()), theme.text_scale(),
               i18n.language(), st.round, st.last_round, tuple(seats), len(st.seats))
        if self._steady is not None and self._steady[0] == key:
            return self._steady[1]
        flash = [r for r in (self.your_turn_box(s) for s in seats) if r is not None]
        texts = [i18n.t("fx.league", name=self.face.seat_name(i), sea=sea)
                 for i in range(len(st.seats)) for sea in st.content.sea_names.values()]
        if st.last_round is None:
            texts.append(i18n.t("fx.last_turn", round=st.round))
        font = theme.font("sans_bold", 24)  # as _banner_image draws them, without drawing them
        sizes = [banner_size(font.size(t)) for t in texts]
        widest = (max(w for w, _ in sizes), max(h for _, h in sizes))
        banners = [] if st.phase == "over" else [self._banner_box(widest, i) for i in range(2)]
        self._steady = (key, (flash, banners))
        return flash, banners

    def _your_turn_image(self, seat: int) -> pygame.Surface:
        """The "Your turn, <name>" label of the flash."""
        text = i18n.t("fx.your_turn", name=self.face.seat_name(seat))

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
        rect = self.bottom()
        if rect is None:
            return None
        box = self._your_turn_image(seat).get_rect(midbottom=(rect.centerx, rect.y - 8))
        board = self.board()
        for r in self.keep_clear():  # beside an online game's chat strip
            if box.colliderect(r) and r.right + 8 + box.w <= board.right:
                box.x = r.right + 8
        box.clamp_ip(board)
        return box

    # ------------------------------------------------------------ drawing

    def draw(self, surf: pygame.Surface) -> None:
        """The banners, one under another in the order they came, and the flash."""
        banners = 0
        for tw in self.anim.tweens:
            if not tw.started:
                continue
            if tw.kind == "banner":
                self._draw_banner(surf, tw, banners)
                banners += 1
            elif tw.kind == "your_turn":
                self._draw_your_turn(surf, tw)

    def _draw_banner(self, surf: pygame.Surface, tw: Tween, below: int = 0) -> None:
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

    def _draw_your_turn(self, surf: pygame.Surface, tw: Tween) -> None:
        rect = self.bottom()
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


class UiWatch:
    """The screen's own moments, heard and the turn's flashed. Inputs: ``choice`` (the hand's
    region, action and king now), ``turn`` (the seat whose hand is open, and the placing seat
    with its placement's key), ``curtain`` (an id of the privacy curtain shown, None without
    one), ``play`` (a sound) and ``anim`` (the flash is a tween)."""

    def __init__(self, choice: Callable[[], Choice], turn: Callable[[], Turn], curtain: Callable[[], Optional[int]],
                 play: Callable[[str], None], anim: Animator):
        self.choice = choice
        self.turn = turn
        self.curtain = curtain
        self.play = play
        self.anim = anim
        self._choice: Optional[Choice] = None
        self._turn: Optional[Turn] = None
        self._curtain: Optional[int] = None

    def update(self) -> None:
        choice = self.choice()
        if self._choice is not None and choice != self._choice and any(choice):
            self.play("card")
        self._choice = choice
        turn = self.turn()
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
        curtain = self.curtain()
        if curtain is not None and curtain != self._curtain:
            self.play("curtain")
        self._curtain = curtain
