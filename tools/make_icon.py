"""Draw the game's icon (a gold ring on a shield of the four seat colours) into assets/icon/.

    .venv/bin/python tools/make_icon.py

Writes gonzaga.png (256 px, also used as the window icon), gonzaga.ico (PNG-in-ICO, for the
Windows build) and gonzaga.icns (PNG-in-ICNS, 16 to 1024 px, for the macOS bundle). Run once
after changing the design; the files are committed. ``--icns`` writes only gonzaga.icns.
"""
from __future__ import annotations

import io
import os
import struct
import sys
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
import pygame  # noqa: E402

OUT = Path(__file__).resolve().parent.parent / "assets" / "icon"


def draw(size: int) -> pygame.Surface:
    s = pygame.Surface((size, size), pygame.SRCALPHA)
    c = size / 2
    # a hexagon shield split in four seat colours
    import math
    pts = [(c + 0.47 * size * math.cos(math.radians(60 * i - 90)),
            c + 0.47 * size * math.sin(math.radians(60 * i - 90))) for i in range(6)]
    colours = [(178, 44, 40), (226, 176, 46), (58, 130, 70), (44, 86, 160)]
    quads = [[(c, c), pts[0], pts[1], (pts[1][0], c)], [(c, c), (pts[1][0], c), pts[2], pts[3]],
             [(c, c), pts[3], pts[4], (pts[4][0], c)], [(c, c), (pts[4][0], c), pts[5], pts[0]]]
    for col, q in zip(colours, quads):
        pygame.draw.polygon(s, col, q)
    pygame.draw.polygon(s, (60, 40, 20), pts, max(2, size // 28))
    # the ring
    pygame.draw.circle(s, (120, 84, 20), (c, c * 1.02), size * 0.25)
    pygame.draw.circle(s, (246, 204, 92), (c, c), size * 0.24)
    pygame.draw.circle(s, (0, 0, 0, 0), (c, c), size * 0.15)
    pygame.draw.circle(s, (120, 84, 20), (c, c), size * 0.15, max(1, size // 64))
    pygame.draw.circle(s, (255, 238, 170), (c - size * 0.09, c - size * 0.12), size * 0.04)
    return s


def png_bytes(surf: pygame.Surface) -> bytes:
    buf = io.BytesIO()
    pygame.image.save(surf, buf, "icon.png")
    return buf.getvalue()


def write_ico(path: Path, sizes=(16, 32, 48, 64, 128, 256)) -> None:
    images = [png_bytes(draw(n)) for n in sizes]
    header = struct.pack("<HHH", 0, 1, len(images))
    offset = 6 + 16 * len(images)
    entries = b""
    for n, data in zip(sizes, images):
        entries += struct.pack("<BBBBHHII", n % 256, n % 256, 0, 0, 1, 32, len(data), offset)
        offset += len(data)
    path.write_bytes(header + entries + b"".join(images))


# ICNS entry types holding PNG data, with their size in pixels (Apple's icns format: a 'icns'
# header with the file's length, then per image a 4-letter type, the entry's length, the PNG)
ICNS_TYPES = (("icp4", 16), ("icp5", 32), ("icp6", 64), ("ic07", 128), ("ic08", 256), ("ic09", 512),
              ("ic10", 1024), ("ic11", 32), ("ic12", 64), ("ic13", 256), ("ic14", 512))


def icns_bytes() -> bytes:
    drawn: dict[int, bytes] = {}
    body = b""
    for kind, n in ICNS_TYPES:
        if n not in drawn:
            drawn[n] = png_bytes(draw(n))
        body += kind.encode("ascii") + struct.pack(">I", 8 + len(drawn[n])) + drawn[n]
    return b"icns" + struct.pack(">I", 8 + len(body)) + body


def main(argv: list[str]) -> int:
    pygame.init()
    OUT.mkdir(parents=True, exist_ok=True)
    written = []
    if "--icns" not in argv:
        pygame.image.save(draw(256), str(OUT / "gonzaga.png"))
        write_ico(OUT / "gonzaga.ico")
        written += [OUT / "gonzaga.png", OUT / "gonzaga.ico"]
    (OUT / "gonzaga.icns").write_bytes(icns_bytes())
    written.append(OUT / "gonzaga.icns")
    print("wrote " + ", ".join(map(str, written)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
