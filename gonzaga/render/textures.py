"""Procedural textures (fixed seeds, no image files): parchment, sea, and mask helpers.

Noise is value noise: small random grey images scaled up smoothly and multiplied in, a few
octaves. A 128 x 128 grain tile is made once per process and tiled for the finest octave.
"""
from __future__ import annotations

import random

import pygame

Color = tuple[int, int, int]

_grain_tiles: dict[int, pygame.Surface] = {}
_tex_cache: dict[tuple, pygame.Surface] = {}


_GREY_PALETTE = [(i, i, i) for i in range(256)]


def _random_grey(w: int, h: int, rng: random.Random, lo: int, hi: int) -> pygame.Surface:
    """A ``w`` x ``h`` image of random greys between ``lo`` and ``hi`` (fast: bytes, not pixels)."""
    table = bytes(lo + (v * (hi - lo)) // 255 for v in range(256))
    data = rng.randbytes(w * h).translate(table)
    grey = pygame.image.frombytes(data, (w, h), "P")
    grey.set_palette(_GREY_PALETTE)
    s = pygame.Surface((w, h))
    s.blit(grey, (0, 0))
    return s


def _grain_tile(seed: int) -> pygame.Surface:
    t = _grain_tiles.get(seed)
    if t is None:
        t = _random_grey(128, 128, random.Random(seed), 232, 255)
        _grain_tiles[seed] = t
    return t


def noise(size: tuple[int, int], seed: int, octaves=((18, 200, 255), (60, 222, 255)),
          grain: bool = True) -> pygame.Surface:
    """A grey multiplier image (255 = unchanged) of ``size``: a product of smooth octaves.

    Each octave is (cells across, darkest, lightest)."""
    w, h = size
    rng = random.Random(seed)
    low_size = (max(2, w // 4), max(2, h // 4))
    low = pygame.Surface(low_size)
    low.fill((255, 255, 255))
    for cells, lo, hi in octaves:
        cw = max(2, cells)
        ch = max(2, int(cells * h / max(1, w)) + 1)
        small = _random_grey(cw, ch, rng, lo, hi)
        low.blit(pygame.transform.smoothscale(small, low_size), (0, 0), special_flags=pygame.BLEND_MULT)
    out = pygame.transform.smoothscale(low, size)
    if grain:
        tile = _grain_tile(seed)
        for x in range(0, w, 128):
            for y in range(0, h, 128):
                out.blit(tile, (x, y), special_flags=pygame.BLEND_MULT)
    return out


def textured(size: tuple[int, int], color: Color, seed: int, octaves=((18, 200, 255), (60, 222, 255)),
             grain: bool = True) -> pygame.Surface:
    """``color`` modulated by noise, cached per arguments (copy before drawing on it)."""
    key = (size, tuple(color), seed, tuple(octaves), grain)
    s = _tex_cache.get(key)
    if s is None:
        s = pygame.Surface(size)
        s.fill(color)
        s.blit(noise(size, seed, octaves, grain), (0, 0), special_flags=pygame.BLEND_MULT)
        if len(_tex_cache) > 24 or sum(t.get_width() * t.get_height() for t in _tex_cache.values()) > 24_000_000:
            _tex_cache.clear()  # zoomed layers are large: keep the cache's memory bounded
        _tex_cache[key] = s
    return s


def ground(size: tuple[int, int], color: Color, seed: int, octaves=((18, 200, 255), (60, 222, 255)),
           grain: bool = True, *, textured_: bool = True) -> pygame.Surface:
    """``textured(...)``, or ``color`` flat when ``textured_`` is False (the map in high
    contrast: no grain to lower the contrast of what is drawn on it). Copy before drawing on it."""
    if textured_:
        return textured(size, color, seed, octaves, grain)
    s = pygame.Surface(size)
    s.fill(color)
    return s


def vignette(size: tuple[int, int], strength: int = 70) -> pygame.Surface:
    """A multiplier image that darkens towards the edges."""
    w, h = size
    small = pygame.Surface((9, 7))
    for x in range(9):
        for y in range(7):
            dx = abs(x - 4) / 4.0
            dy = abs(y - 3) / 3.0
            d = max(dx, dy) ** 2 * 0.6 + (dx * dx + dy * dy) * 0.2
            v = int(255 - strength * min(1.0, d))
            small.set_at((x, y), (v, v, v))
    return pygame.transform.smoothscale(small, size)


# ---------------------------------------------------------------- alpha masks

def sharpen_alpha(mask: pygame.Surface, cut: int, gain_doublings: int) -> None:
    """In place: alpha -> clamp((alpha - cut) * 2**gain_doublings); RGB left white.

    Used after a blur to turn a soft mask back into a smooth-edged crisp one."""
    mask.fill((0, 0, 0, cut), special_flags=pygame.BLEND_RGBA_SUB)
    for _ in range(gain_doublings):
        mask.blit(mask, (0, 0), special_flags=pygame.BLEND_RGBA_ADD)
    mask.fill((255, 255, 255, 0), special_flags=pygame.BLEND_RGBA_MAX)


def apply_mask(tex: pygame.Surface, mask: pygame.Surface) -> pygame.Surface:
    """``tex`` (any surface) with its alpha set to ``mask``'s alpha (mask RGB must be white)."""
    if tex.get_flags() & pygame.SRCALPHA:
        out = tex.copy()
    else:
        out = pygame.Surface(tex.get_size(), pygame.SRCALPHA)
        out.blit(tex, (0, 0))
    out.blit(mask, (0, 0), special_flags=pygame.BLEND_RGBA_MULT)
    return out


def colored_mask(mask: pygame.Surface, color: Color, alpha: int = 255) -> pygame.Surface:
    """A flat ``color`` layer whose alpha is ``mask``'s alpha times ``alpha``/255."""
    out = pygame.Surface(mask.get_size(), pygame.SRCALPHA)
    out.fill((*color, alpha))
    out.blit(mask, (0, 0), special_flags=pygame.BLEND_RGBA_MULT)
    return out
