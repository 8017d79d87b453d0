"""The board renderer (issue 3, drawing half): geometry, labels, render-map, purity."""
from __future__ import annotations

import copy
import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame  # noqa: E402
import pytest  # noqa: E402

from gonzaga.render import icons, theme  # noqa: E402
from gonzaga.render.board_view import BoardRenderer  # noqa: E402
from gonzaga.render.labels import LabelPlacer, around  # noqa: E402
from gonzaga.render.pieces import inset, outline_loops  # noqa: E402
from gonzaga.render.render_map import main as render_map  # noqa: E402
from gonzaga.rules.content import load_content  # noqa: E402


@pytest.fixture(scope="module")
def content():
    pygame.init()
    return load_content()


@pytest.fixture(scope="module")
def renderers(content):
    return {size: BoardRenderer(content, pygame.Rect(0, 0, *size)) for size in ((1920, 1080), (1280, 720))}


def test_hex_screen_round_trip_every_hex(content, renderers):
    for (w, h), r in renderers.items():
        assert r.size > 8
        for hx in content.terrain:
            x, y = r.hex_to_screen(hx)
            assert 0 <= x < w and 0 <= y < h
            assert r.screen_to_hex(x, y) == hx
            # well inside the hex too, not only at the centre
            assert r.screen_to_hex(x + r.size * 0.6, y) == hx
            assert r.screen_to_hex(x, y - r.size * 0.6) == hx


def test_round_trip_with_offset_rect(content):
    r = BoardRenderer(content, pygame.Rect(300, 40, 900, 700))
    for hx in content.terrain:
        x, y = r.hex_to_screen(hx)
        assert r.rect.collidepoint(x, y)
        assert r.screen_to_hex(x, y) == hx


def test_screen_to_hex_off_map(renderers):
    r = renderers[(1920, 1080)]
    assert r.screen_to_hex(-500, -500) is None
    assert r.screen_to_hex(1, 1) is None  # the corner is off the board


def test_map_fits_and_keeps_aspect(content, renderers):
    for (w, h), r in renderers.items():
        xs = [p[0] for hx in content.terrain for p in r.hex_polygon(hx)]
        ys = [p[1] for hx in content.terrain for p in r.hex_polygon(hx)]
        assert min(xs) >= 0 and max(xs) <= w and min(ys) >= 0 and max(ys) <= h
        # one side is (nearly) filled
        assert (max(xs) - min(xs)) > 0.9 * w or (max(ys) - min(ys)) > 0.9 * h


def test_labels_never_overlap_on_the_real_map(renderers):
    for r in renderers.values():
        boxes = r.label_boxes()
        assert len(boxes) >= 40  # sites, regions and seas are named
        for i, a in enumerate(boxes):
            assert r.static_layer().get_rect().contains(a)
            for b in boxes[i + 1:]:
                assert not a.colliderect(b), (a, b)
        # and never cover a site's badge
        for a in boxes:
            for badge in r._badge_boxes:
                assert not a.colliderect(badge), (a, badge)


def test_every_site_region_and_sea_is_named(content, renderers):
    r = renderers[(1920, 1080)]
    n = len(content.sites) + 6 + 6
    assert len(r.label_boxes()) == n


def test_label_placer_picks_a_free_candidate():
    p = LabelPlacer((0, 0, 200, 200), padding=0)
    p.reserve((90, 90, 20, 20))
    box = p.place(around((100, 100), (40, 10), 12))
    assert box is not None and not box.colliderect((90, 90, 20, 20))
    # a second label with the same candidates takes another place
    box2 = p.place(around((100, 100), (40, 10), 12))
    assert box2 is not None and not box2.colliderect(box)
    # nothing fits outside the bounds
    assert p.place([pygame.Rect(190, 190, 40, 40)]) is None


def test_static_layer_is_cached_and_sized(content):
    r = BoardRenderer(content, (0, 0, 640, 400))
    a = r.static_layer()
    assert a.get_size() == (640, 400)
    assert r.static_layer() is a
    r.set_rect((0, 0, 640, 400))
    assert r.static_layer() is a
    r.set_rect((0, 0, 700, 400))
    assert r.static_layer() is not a and r.static_layer().get_size() == (700, 400)


def test_drawing_does_not_mutate_inputs(content, renderers):
    r = renderers[(1280, 720)]
    land = sorted(h for h, t in content.terrain.items() if t == "land")
    f = content.fiefs[50]
    cells, castles = f.footprint(land[10], 2)
    fiefs = [("red", list(cells), set(castles)), (1, tuple(land[40:43]), frozenset(land[40:41]))]
    rings = {land[40]: "blue", land[100]: 3}
    hl = set(land[:20])
    faint = list(land[20:40])
    obj = list(content.objective_cities(content.objectives[0].id))
    flour = {"hispania", "italia"}
    before = copy.deepcopy((fiefs, rings, hl, faint, obj, flour))
    surf = pygame.Surface(r.rect.size)
    r.draw(surf, fiefs=fiefs, rings=rings, highlights=hl, faint=faint, ghost=(list(cells), set(castles), False),
           objective_cities=obj, flourishing=flour)
    assert (fiefs, rings, hl, faint, obj, flour) == before
    # a fief really is drawn: the pixel at its first cell changed
    plain = pygame.Surface(r.rect.size)
    r.draw_static(plain)
    x, y = r.hex_to_screen(cells[0])
    assert surf.get_at((int(x) + 3, int(y) + int(r.size * 0.6))) != plain.get_at((int(x) + 3, int(y) + int(r.size * 0.6)))


def test_off_map_cells_are_ignored(renderers):
    r = renderers[(1280, 720)]
    surf = pygame.Surface(r.rect.size)
    r.draw_fiefs(surf, [("green", [(999, 999), (1000, 999)], [(999, 999)])])
    r.draw_rings(surf, {(999, 999): "red"})
    r.draw_highlight(surf, {(999, 999)})
    r.draw_ghost(surf, [(999, 999)], [], True)


def test_outline_of_a_fief_is_one_loop():
    loops = outline_loops([(0, 0), (-1, 1), (0, 1), (-1, 2)])
    assert len(loops) == 1
    assert len(loops[0]) == 14  # 4 hexes, 5 shared sides: 24 - 2 * 5 outer sides
    poly = loops[0]
    inner = inset(poly, 0.1)
    cx = sum(p[0] for p in poly) / len(poly)
    cy = sum(p[1] for p in poly) / len(poly)
    # inset moves every corner closer to the centre
    for (x0, y0), (x1, y1) in zip(poly, inner):
        assert (x1 - cx) ** 2 + (y1 - cy) ** 2 < (x0 - cx) ** 2 + (y0 - cy) ** 2


def test_every_symbol_draws(content):
    pygame.init()
    for name in icons.ICON_NAMES:
        s = icons.icon(name, 32)
        assert s.get_size() == (32, 32)
        assert any(s.get_at((x, y)).a > 128 for x in range(32) for y in range(32))
    used = {s.symbol for s in content.sites.values() if s.symbol} | {s.symbol for s in content.board.seas}
    assert used <= set(icons.ICON_NAMES)


def test_fonts_render_italian():
    """Every shipped face has real glyphs for Italian accents (not the missing-glyph box)."""
    pygame.init()

    def image(f, ch):
        surf = f.render(ch, True, (0, 0, 0), (255, 255, 255))
        return surf.get_size(), pygame.image.tobytes(surf, "RGB")

    for role in theme.FONT_ROLES:
        f = theme.font(role, 24, scaled=False)
        missing = image(f, "\ue000")  # a private-use code point: no font has it
        for ch in "àèéìòùÀÈÉÒ—’":
            assert image(f, ch) != missing, (role, ch)


def test_seat_colours():
    assert theme.seat_color(0) == theme.seat_color("red")
    assert theme.seat_name(3) == "blue"
    with pytest.raises(KeyError):
        theme.seat_color("purple")


def test_render_map_writes_png_of_requested_size(tmp_path, capsys):
    out = tmp_path / "map.png"
    assert render_map([str(out), "--size", "640x360"]) == 0
    assert capsys.readouterr().out.strip() == str(out)
    img = pygame.image.load(str(out))
    assert img.get_size() == (640, 360)


@pytest.mark.parametrize("args", [
    ["x.png", "--size", "big"],
    ["x.png", "--size", "10x10"],
    ["x.png", "--size"],
    ["x.png", "--sizes", "640x360"],
    [],
    ["x.jpg"],
])
def test_render_map_bad_arguments(tmp_path, capsys, args):
    args = [str(tmp_path / a) if a.endswith((".png", ".jpg")) else a for a in args]
    assert render_map(args) == 2
    err = capsys.readouterr().err.strip()
    assert err and "\n" not in err and "Traceback" not in err


def test_render_map_unwritable_path(tmp_path, capsys):
    assert render_map([str(tmp_path / "no" / "such" / "dir" / "map.png")]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("render-map:") and "\n" not in err


def test_moving_the_rect_keeps_the_static_layer(content):
    r = BoardRenderer(content, (0, 0, 500, 400))
    a = r.static_layer()
    h = next(iter(content.terrain))
    x0, y0 = r.hex_to_screen(h)
    r.set_rect((30, 20, 500, 400))
    assert r.static_layer() is a
    x1, y1 = r.hex_to_screen(h)
    assert (round(x1 - x0, 6), round(y1 - y0, 6)) == (30, 20)
    assert r.screen_to_hex(x1, y1) == h


@pytest.mark.parametrize("size", [(800, 600), (1080, 1920)])
def test_labels_at_odd_sizes(content, size):
    r = BoardRenderer(content, pygame.Rect(0, 0, *size))
    boxes = r.label_boxes()
    assert len(boxes) == len(content.sites) + 12
    for i, a in enumerate(boxes):
        for b in boxes[i + 1:]:
            assert not a.colliderect(b)


def test_coastline_formats():
    from gonzaga.render.board_static import _parse_coastline
    sq = [[0, 0], [1, 0], [1, 1]]
    assert _parse_coastline({"polygons": [sq]}) == [([(0.0, 0.0), (1.0, 0.0), (1.0, 1.0)], False)]
    assert len(_parse_coastline({"polygons": [[sq, sq]]})) == 2  # outer ring + hole
    assert _parse_coastline({"polygons": [{"outer": sq, "holes": [sq]}]})[1][1] is True
    assert _parse_coastline([]) == []


def test_translated_texts_and_no_decorations(content):
    texts = {"legend.cities": "Città", "symbol.wine": "Vino", "legend.barrier": "Barriera: nessun feudo attraverso"}
    r = BoardRenderer(content, (0, 0, 1600, 900), texts=texts)
    assert r.static_layer().get_size() == (1600, 900)
    bare = BoardRenderer(content, (0, 0, 1600, 900), decorations=False)
    assert bare.static_layer().get_size() == (1600, 900)
    assert set(BoardRenderer.TEXT_KEYS) >= set(texts)
