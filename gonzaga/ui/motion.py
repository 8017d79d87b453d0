"""Motion: short tweens that follow the speed setting, and the "reduce motion" setting.

An :class:`Animator` holds running :class:`Tween` objects; a screen asks it for a tween's
eased progress (0..1) while it draws. Durations are given for the "normal" speed and scaled by
:func:`speed_scale` (slow 1.5x, fast 0.5x); with the "instant" speed or with ``reduce_motion``
every tween is created finished, so what is drawn is at once the final state: the change
happens, without the movement. Time comes from ``update(dt)`` (the frame loop's dt), so tests
drive it exactly.
"""
from __future__ import annotations

import math
from typing import Callable, Optional

import pygame

from . import widgets as W

SPEED_SCALE = {"slow": 1.5, "normal": 1.0, "fast": 0.5, "instant": 0.0}


def speed_scale(speed: str, reduce_motion: bool) -> float:
    """How long animations last relative to "normal"; 0 means instant changes."""
    if reduce_motion:
        return 0.0
    return SPEED_SCALE.get(speed, 1.0)


# ---------------------------------------------------------------- easing

def linear(p: float) -> float:
    return p


def ease_out(p: float) -> float:
    return 1 - (1 - p) ** 3


def ease_in_out(p: float) -> float:
    return 4 * p ** 3 if p < 0.5 else 1 - (-2 * p + 2) ** 3 / 2


def ease_out_back(p: float) -> float:
    """Overshoots a little and settles (a piece set down)."""
    c = 1.4
    return 1 + (c + 1) * (p - 1) ** 3 + c * (p - 1) ** 2


# ---------------------------------------------------------------- tweens

class Tween:
    """One animation: ``kind`` (what it is), its data, a delay and a duration (seconds)."""

    __slots__ = ("kind", "data", "delay", "duration", "elapsed", "ease")

    def __init__(self, kind: str, duration: float, delay: float = 0.0, ease: Callable[[float], float] = ease_out,
                 **data):
        self.kind = kind
        self.data = data
        self.delay = max(0.0, delay)
        self.duration = max(0.0, duration)
        self.elapsed = 0.0
        self.ease = ease

    @property
    def started(self) -> bool:
        return self.elapsed >= self.delay

    @property
    def done(self) -> bool:
        return self.elapsed >= self.delay + self.duration

    @property
    def raw(self) -> float:
        """Linear progress 0..1 (0 before the delay, 1 once done)."""
        if self.duration <= 0:
            return 1.0 if self.elapsed >= self.delay else 0.0
        return max(0.0, min(1.0, (self.elapsed - self.delay) / self.duration))

    @property
    def p(self) -> float:
        """Eased progress."""
        return self.ease(self.raw)

    def finish(self) -> None:
        self.elapsed = self.delay + self.duration


class Animator:
    """The running tweens of one screen. ``scale`` () -> the current duration scale."""

    def __init__(self, scale: Callable[[], float] = lambda: 1.0):
        self.scale = scale
        self.tweens: list[Tween] = []

    def add(self, kind: str, duration: float, delay: float = 0.0, ease: Callable[[float], float] = ease_out,
            **data) -> Tween:
        k = self.scale()
        tw = Tween(kind, duration * k, delay * k, ease, **data)
        if k <= 0:
            tw.finish()  # reduce motion / instant: the final state at once
        else:
            self.tweens.append(tw)
        return tw

    def update(self, dt: float) -> None:
        if not self.tweens:
            return
        if self.scale() <= 0:  # the setting changed while something ran
            self.finish_all()
            return
        for tw in self.tweens:
            tw.elapsed += dt
        self.tweens = [tw for tw in self.tweens if not tw.done]

    def active(self, kind: Optional[str] = None) -> list[Tween]:
        return [tw for tw in self.tweens if kind is None or tw.kind == kind]

    @property
    def running(self) -> bool:
        return bool(self.tweens)

    def finish_all(self) -> None:
        for tw in self.tweens:
            tw.finish()
        self.tweens = []

    def clear(self, kind: Optional[str] = None) -> None:
        self.tweens = [tw for tw in self.tweens if kind is not None and tw.kind != kind]


# ---------------------------------------------------------------- drawing helpers

def flip_card(surf: pygame.Surface, rect: pygame.Rect, face: pygame.Surface, p: float,
              back: tuple = (120, 36, 30), edge: tuple = (210, 170, 90)) -> None:
    """A card turning over at progress ``p``: its back narrows to an edge (p < 0.5), then its face
    widens (p >= 0.5); ``face`` is the face already drawn at the size of ``rect``."""
    rect = pygame.Rect(rect)
    if p >= 1.0:
        surf.blit(face, rect)
        return
    half = abs(math.cos(math.pi * p))
    w = max(2, int(rect.w * half))
    r = pygame.Rect(0, 0, w, rect.h)
    r.center = rect.center
    if p < 0.5:
        pygame.draw.rect(surf, back, r, 0, 6)
        pygame.draw.rect(surf, edge, r, 2, 6)
        if w > 14:
            inner = r.inflate(-10, -10)
            pygame.draw.rect(surf, edge, inner, 1, 4)
    else:
        surf.blit(pygame.transform.smoothscale(face, (w, rect.h)), r)


def lerp(a: float, b: float, p: float) -> float:
    return a + (b - a) * p


def card_text(surf: pygame.Surface, s: str, pos, p: float, role: str = "sans", px: float = 18) -> None:
    """A card's name at ``pos`` (top left), turned over at progress ``p`` (1: face up, as plain text)."""
    face = W.text(s, role, px, W.TEXT)
    if p >= 1.0:
        surf.blit(face, pos)
        return
    rect = face.get_rect(topleft=pos).inflate(14, 8)
    card = pygame.Surface(rect.size, pygame.SRCALPHA)
    card.fill((250, 244, 228, 255))
    pygame.draw.rect(card, (150, 120, 80), card.get_rect(), 1)
    card.blit(face, (7, 4))
    flip_card(surf, rect, card, p)
