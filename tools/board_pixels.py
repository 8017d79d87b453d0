"""The board renderer's pictures in many states, to compare two trees pixel by pixel.

    python tools/board_pixels.py shoot OUT_DIR          (this tree's renderer)
    python tools/board_pixels.py compare DIR_A DIR_B    (exit code 1 if any picture differs)

``shoot`` draws the board at 1280x720 and 2560x1440, with and without decorations (the second
offset in its window), with every dynamic layer (fiefs, rings, highlights of each kind, both
ghosts, tags, objective rings, seals, site names) fitted, zoomed, panned, zoomed to the top,
after ``ensure_visible``, with a part kept clear, aligned right and resized; it writes a PNG per
state and the geometry the renderer reports (label boxes, decoration rects, view states) as text.
Run it in the old tree (``git archive <commit> | tar -x -C /tmp/old``) and in this one, then
``compare``: a refactoring of the renderer should leave every file identical (issue 45).
"""
from __future__ import annotations

import os
import sys
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pygame  # noqa: E402

sys.path.insert(0, os.getcwd())  # the tree to draw with: the one this is run from

from gonzaga.render.board_view import BoardRenderer  # noqa: E402
from gonzaga.rules.content import load_content  # noqa: E402


def shoot(out: Path) -> None:
    pygame.init()
    pygame.display.set_mode((1, 1))
    out.mkdir(parents=True, exist_ok=True)
    content = load_content()
    for W, H in ((1280, 720), (2560, 1440)):
        for deco, offset in ((True, (0, 0)), (False, (37, 21))):
            _shoot_one(content, out, (W, H), deco, offset)


def _shoot_one(content, out: Path, size: tuple[int, int], deco: bool, offset: tuple[int, int]) -> None:
    land = sorted(h for h, t in content.terrain.items() if t == "land")
    sites = sorted(content.sites)
    regions = [r.id for r in content.board.regions]
    fiefs = [("red", land[10:14], [land[11]]), ("blue", land[40:43], []), (2, land[80:84], [land[81]]),
             ("yellow", [sites[3], sites[4]], [sites[3]])]
    rings = {land[60]: "green", sites[5]: "red"}
    W, H = size
    r = BoardRenderer(content, pygame.Rect(offset[0], offset[1], W - offset[0], H - offset[1]), decorations=deco)
    r.sync_builds = True
    surf = pygame.Surface((W, H))
    stem = f"{W}x{H}_{int(deco)}"
    info: list[str] = []

    def frame(name: str) -> None:
        surf.fill((0, 0, 0))
        r.draw(surf, fiefs=fiefs, rings=rings, highlights=land[100:110], faint=land[120:125],
               ghost=(land[130:134], [land[131]], False), objective_cities=sites[:3], flourishing=regions[:3])
        r.draw_highlight(surf, land[140:143], kind="cover")
        r.draw_highlight(surf, land[150:152], kind="best")
        r.draw_label(surf, land[150], "+7")
        r.draw_label(surf, land[151], "-2", ok=False)
        r.draw_ghost(surf, land[160:163], [], True, anchor=land[161])
        r.draw_site_names(surf, sites[:6])
        pygame.image.save(surf, str(out / f"{stem}_{name}.png"))

    def geometry() -> None:
        info.append(repr((r.label_boxes(), r.compass_rect(), r.legend_rect(), r.decoration_rects(),
                          r.view_state(), r.size)))

    frame("fit")
    geometry()
    r.zoom_step(3, about=(W // 3, H // 2))
    r.finish_builds()
    frame("z3")
    r.pan_by(-140, 77)
    r.finish_builds()
    frame("z3pan")
    r.set_zoom(4.0, about=(W - 50, 40))
    r.finish_builds()
    frame("z4")
    r.ensure_visible(land[5])
    frame("z4vis")
    info.append(repr((r.view_state(), r.visible_hexes()[:20], r.hex_polygon(land[3]), r.screen_to_hex(300, 300))))
    r.fit_view()
    r.set_keep_clear([pygame.Rect(0, H - 300, 320, 300)])
    frame("keep")
    r.set_align(1.0)
    frame("align")
    r.set_rect(pygame.Rect(0, 0, W // 2, H // 2))
    frame("half")
    geometry()
    (out / f"{stem}_info.txt").write_text("\n".join(info) + "\n", encoding="utf-8")


def compare(a: Path, b: Path) -> int:
    pygame.init()
    differ = 0
    names = sorted(p.name for p in a.iterdir())
    for name in names:
        pa, pb = a / name, b / name
        if not pb.exists():
            same = False
        elif name.endswith(".png"):
            same = (pygame.image.tobytes(pygame.image.load(str(pa)), "RGB")
                    == pygame.image.tobytes(pygame.image.load(str(pb)), "RGB"))
        else:
            same = pa.read_bytes() == pb.read_bytes()
        if not same:
            differ += 1
            print("differs:", name)
    print(f"{len(names)} files, {differ} differ")
    return 1 if differ else 0


def main(argv: list[str]) -> int:
    if len(argv) == 2 and argv[0] == "shoot":
        shoot(Path(argv[1]))
        return 0
    if len(argv) == 3 and argv[0] == "compare":
        return compare(Path(argv[1]), Path(argv[2]))
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
