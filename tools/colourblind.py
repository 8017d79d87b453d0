"""The board as players with red-green colour blindness see it.

    python tools/colourblind.py [OUT_DIR] [--high-contrast]      (default: docs/)

Draws a zoomed part of the board with fiefs and rings of all four families, a legal and
an illegal ghost, and a strip with each family's pattern, crest and ring, then writes
``colourblind-normal.png`` and the same picture through the deuteranopia and protanopia
simulations of Machado, Oliveira and Fernandes (2009, severity 1.0, applied in linear
RGB): ``colourblind-deuteranopia.png`` and ``colourblind-protanopia.png``.

With ``--high-contrast``, the map in its high-contrast palette (``render/map_palette.py``):
``colourblind-high-contrast-normal.png`` and so on.

What to look for: the four families must stay apart by their pattern (stripes, dots,
crosses, chevrons), their crest (diamond, roundel, triangle, square) and brightness;
the ghost by its check mark or cross.
"""
from __future__ import annotations

import os
import random
import sys
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pygame  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from gonzaga.render import pieces, theme  # noqa: E402
from gonzaga.render.board_view import BoardRenderer  # noqa: E402
from gonzaga.rules.content import load_content  # noqa: E402

# Machado et al. 2009, severity 1.0 (linear RGB)
MATRICES = {
    "protanopia": ((0.152286, 1.052583, -0.204868),
                   (0.114503, 0.786281, 0.099216),
                   (-0.003882, -0.048116, 1.051998)),
    "deuteranopia": ((0.367322, 0.860646, -0.227968),
                     (0.280085, 0.672501, 0.047413),
                     (-0.011820, 0.042940, 0.968881)),
}
SEATS = ("red", "yellow", "green", "blue")


def _to_linear(v: int) -> float:
    c = v / 255.0
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def _to_srgb(c: float) -> int:
    c = min(1.0, max(0.0, c))
    v = c * 12.92 if c <= 0.0031308 else 1.055 * c ** (1 / 2.4) - 0.055
    return int(round(v * 255))


def simulate(surf: pygame.Surface, kind: str) -> pygame.Surface:
    """``surf`` as seen with ``kind`` ("protanopia" or "deuteranopia")."""
    m = MATRICES[kind]
    lin = [_to_linear(v) for v in range(256)]
    data = pygame.image.tobytes(surf, "RGB")
    memo: dict[bytes, bytes] = {}
    out = bytearray(len(data))
    for i in range(0, len(data), 3):
        px = data[i:i + 3]
        got = memo.get(px)
        if got is None:
            r, g, b = lin[px[0]], lin[px[1]], lin[px[2]]
            got = bytes(_to_srgb(row[0] * r + row[1] * g + row[2] * b) for row in m)
            memo[px] = got
        out[i:i + 3] = got
    return pygame.image.frombytes(bytes(out), surf.get_size(), "RGB")


def scene(size=(1600, 1000)) -> pygame.Surface:
    """A zoomed part of the board with every family's pieces, and a legend strip."""
    pygame.init()
    content = load_content()
    W, H = size
    strip_h = 175
    surf = pygame.Surface(size)
    surf.fill((40, 32, 26))
    r = BoardRenderer(content, pygame.Rect(0, 0, W, H - strip_h))
    rng = random.Random(3)
    land = sorted(h for h, t in content.terrain.items() if t == "land")
    centre = land[len(land) // 2]
    near = sorted(content.terrain, key=lambda h: (h[0] - centre[0]) ** 2 + (h[1] - centre[1]) ** 2)[:160]
    used: set = set()
    fiefs = []
    numbers = sorted(content.fiefs)
    tries = 0
    while len(fiefs) < 12 and tries < 5000:
        tries += 1
        f = content.fiefs[rng.choice(numbers)]
        cells, castles = f.footprint(rng.choice(near), rng.randrange(6))
        if all(c in content.terrain and c not in used for c in cells) and all(
                content.terrain[c] == "land" for c in castles):
            used |= set(cells)
            fiefs.append((SEATS[len(fiefs) % 4], cells, castles))
    free = [h for h in near if h not in used and content.terrain[h] == "land"]
    rings = {free[i * 3]: SEATS[i % 4] for i in range(8) if i * 3 < len(free)}
    x, y = r.hex_to_screen(centre)
    r.set_zoom(2.0, (x, y))
    r.finish_builds()
    r.draw(surf, fiefs=fiefs, rings=rings, flourishing={"italia", "germania", "francia"})
    spare = [h for h in near if h not in used and h not in rings]
    f = content.fiefs[numbers[-1]]
    for ok, at in ((True, spare[len(spare) // 3]), (False, spare[2 * len(spare) // 3])):
        cells, castles = f.footprint(at, 0)
        r.draw_ghost(surf, cells, castles, ok, anchor=at)
    # the legend: each family's fief sample, ring and crest, with its name
    y0 = H - strip_h
    pygame.draw.rect(surf, (232, 220, 192) if theme.MAP.textured else theme.PARCHMENT, (0, y0, W, strip_h))
    fnt = theme.font("sans_bold", 22, scaled=False)
    cw = W // 4
    for i, seat in enumerate(SEATS):
        x0 = i * cw + 20
        img, (ox, oy) = pieces.fief_sprite([(0, 0), (1, 0), (0, 1)], [(0, 0)], 34, theme.seat_color(seat),
                                           theme.seat_dark(seat), theme.seat_light(seat), alpha=max(235, theme.MAP.fief_alpha),
                                           pattern=theme.seat_pattern(seat), pattern_color=theme.seat_mark(seat),
                                           pattern_alpha=theme.MAP.pattern_alpha, halo=theme.MAP.fief_halo)
        surf.blit(img, (x0, y0 + 8))
        g = pieces.ring_glyph(seat, 70)
        surf.blit(g, (x0 + img.get_width() + 10, y0 + 18))
        c = pieces.crest(seat, 40)
        surf.blit(c, (x0 + img.get_width() + 90, y0 + 33))
        t = fnt.render(f"{seat}: {theme.seat_pattern(seat)}, {theme.seat_crest(seat)}", True, theme.INK)
        surf.blit(t, (x0, y0 + strip_h - 34))
    return surf


def main(argv: list[str]) -> int:
    prefix = "colourblind-"
    if "--high-contrast" in argv:
        argv = [a for a in argv if a != "--high-contrast"]
        theme.set_map_palette("high")
        prefix = "colourblind-high-contrast-"
    out = Path(argv[0]) if argv else ROOT / "docs"
    out.mkdir(parents=True, exist_ok=True)
    img = scene()
    pygame.image.save(img, str(out / f"{prefix}normal.png"))
    for kind in ("deuteranopia", "protanopia"):
        path = out / f"{prefix}{kind}.png"
        pygame.image.save(simulate(img, kind), str(path))
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
