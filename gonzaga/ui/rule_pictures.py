"""Pictures for the illustrated rules reference (issue 11), drawn by the game's own board
renderer from fixture positions: a two-seat game on the real board whose pieces are put
there by the rules engine (``try_on``, the rules' own moves), and a placement tried on it that the rules accept or
refuse with the very rule the page explains.

The examples are found on the board by search around a named site (so that a change of the
map moves them rather than breaks them), and every one is checked by the rules before it is
drawn; ``examples(content)`` gives them as data for the tests.

    img = picture("castle_bad", (300, 210), content)   # a pygame Surface, cached
    ok = verdict_of("castle_bad")                        # False: an illegal example

Seat 0 (red) is "you", seat 1 (blue) a rival.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Optional

import pygame

from ..render import pieces, theme
from ..render.board_layers import mark_icon
from ..render.board_view import BoardRenderer
from ..rules import (
    GameConfig,
    Place,
    Plan,
    Setup,
    Wedding,
    check,
    hexgrid,
    load_content,
    new_game,
    placement_problem,
    ring_problem,
    scoring,
    try_on,
)
from ..rules.state import GameState, evolve
from ..words import i18n
from . import widgets as W
from .order_words import order_reasons

FIEFS = (50, 60, 10, 20, 30, 70, 40, 80, 90, 100, 110, 120)
DECK = (10, 20, 30, 40, 50, 60, 70, 80, 90, 100, 110, 120)
YOU, RIVAL = 0, 1


@dataclass
class Example:
    """What a picture shows: pieces on the board, and maybe a tried placement."""

    centre: tuple  # hexes the picture is centred on
    state: GameState  # the GameState with the pieces
    ghost: Optional[tuple] = None  # (cells, castles, ok)
    rings_tried: tuple = ()  # ring hexes tried (a wedding): (hex, ok)
    labels: list = field(default_factory=list)  # (hex, text, ok): a tag above the hex
    numbers: list = field(default_factory=list)  # (hex, text): a small disc on the hex
    marks: tuple = ()  # hexes to ring (harbors of a league, ...)
    ok: Optional[bool] = None  # legal (True) / illegal (False) example; None: no verdict
    rule: Optional[str] = None  # the rule the rules engine gave (illegal examples)
    plan: Optional[tuple] = None  # (region, action) the example is judged under
    count: int = 0  # the group's size (the Gonzaga tile's picture)


# ---------------------------------------------------------------- fixture positions

def _site(content, name: str):
    for s in content.sites.values():
        if s.name == name:
            return s.hex
    return next(iter(content.sites))  # a renamed site: any site still gives a picture


def _start(content):
    st = new_game(GameConfig(seats=2, colours=("red", "blue"), scenario="Shakespeare"), content)
    objectives = tuple(o.id for o in content.objectives[:2])
    return try_on(st, Setup("Shakespeare", 0, (DECK, DECK), objectives))


def _plan_for(st, cells) -> Optional[tuple[str, str]]:
    """A plan (region card, action card) under which a fief on ``cells`` may be legal."""
    c = st.content
    board = st.board
    mask = board.mask_of([h for h in cells if h in board.index_of])
    h = (mask & board.harbor).bit_count()
    k = (mask & board.city).bit_count()
    action = "C" if h and k else "A" if h else "B"
    for cell in cells:
        reg = c.region_of.get(cell)
        if reg:
            return (reg if reg in st.flourishing else "inactive"), action
    return None


def _put(st, seat: int, fief: int, anchor, rot: int):
    """``st`` with ``seat``'s fief placed by the rules engine (None if the rules refuse it)."""
    cells, _ = st.content.fiefs[fief].footprint(anchor, rot)
    plan = _plan_for(st, cells)
    if plan is None or placement_problem(st, seat, fief, anchor, rot, *plan) is not None:
        return None
    st = st.with_seat(seat, fief=fief, plan=Plan(seat, *plan))
    st = evolve(st, phase="place", order=(seat,), turn=0)
    return try_on(st, Place(seat, fief, anchor, rot))


def _ring(st, seat: int, hexes):
    """``st`` with ``seat``'s ring(s) placed by a wedding (None if refused)."""
    reg = st.content.region_of.get(hexes[0])
    if reg is None:
        return None
    region = reg if reg in st.flourishing else "inactive"
    st = st.with_seat(seat, fief=DECK[0], plan=Plan(seat, region, "C"))
    st = evolve(st, phase="place", order=(seat,), turn=0)
    a = Wedding(seat, tuple(hexes))
    if check(st, a) is not None:
        return None
    return try_on(st, a)


def _around(st, focus, radius: int = 5):
    """Map hexes around ``focus``, nearest first (a fixed order)."""
    out = [h for h in st.board.hexes if hexgrid.distance(h, focus) <= radius]
    return sorted(out, key=lambda h: (hexgrid.distance(h, focus), h[1], h[0]))


def _find(st, focus, test: Callable, radius: int = 5, fiefs=FIEFS):
    """The first (fief, anchor, rotation, cells, castles) near ``focus`` that passes ``test``."""
    for a in _around(st, focus, radius):
        for f in fiefs:
            for k in st.content.fiefs[f].distinct_rotations:
                cells, castles = st.content.fiefs[f].footprint(a, k)
                if test(f, a, k, cells, castles):
                    return f, a, k, cells, castles
    return None


def _legal_somehow(st, seat, f, a, k, cells) -> Optional[tuple]:
    plan = _plan_for(st, cells)
    if plan and placement_problem(st, seat, f, a, k, *plan) is None:
        return plan
    return None


def _rule(st, seat, f, a, k, plan=("italia", "B")) -> Optional[str]:
    why = placement_problem(st, seat, f, a, k, *plan)
    return why.rule if why else None


def _pair(st, focus, bad_rule: str, ok_test=None, bad_test=None, radius=5, plan=None):
    """A legal example and an illegal one (refused with ``bad_rule``) of the same fief."""
    def bad(f, a, k, cells, castles):
        if _rule(st, YOU, f, a, k, plan or ("italia", "B")) != bad_rule:
            return False
        return bad_test(cells, castles) if bad_test else True
    b = _find(st, focus, bad, radius)
    if b is None:
        return None, None
    fb, ab, kb, cb, csb = b

    def good(f, a, k, cells, castles):
        if f != fb:
            return False
        p = plan if plan and placement_problem(st, YOU, f, a, k, *plan) is None else None
        if p is None and plan is None:
            p = _legal_somehow(st, YOU, f, a, k, cells)
        return p is not None and (ok_test(cells, castles) if ok_test else True)
    g = _find(st, ab, good, radius)
    return g, b


def _ghost_example(st, ex, ok: bool, rule=None, plan=None, label=None) -> Example:
    f, a, k, cells, castles = ex
    e = Example(centre=tuple(cells), state=st, ghost=(tuple(cells), frozenset(castles), ok), ok=ok, rule=rule,
                plan=plan)
    if label:
        e.labels.append((a, label, ok))
    return e


_examples: dict = {}


def examples(content) -> dict[str, Example]:
    """Every picture's example, built and checked by the rules (cached per content)."""
    key = id(content)
    if key not in _examples:
        _examples.clear()
        _examples[key] = (content, _build(content))  # the content is kept: its id stays its own
    return _examples[key][1]


def _build(content) -> dict[str, Example]:
    st0 = _start(content)
    out: dict[str, Example] = {}
    sea = lambda cells: any(content.terrain.get(c) == "sea" for c in cells)  # noqa: E731

    # P8 castles on land: the same fief over a coast, castles on land / a castle at sea
    g, b = _pair(st0, _site(content, "Genova"), "P8", ok_test=lambda cells, cs: sea(cells))
    if g and b:
        out["castle_ok"] = _ghost_example(st0, g, True)
        out["castle_bad"] = _ghost_example(st0, b, False, "P8")
    # P9 barriers: the Alps north of Venezia
    g, b = _pair(st0, _site(content, "Venezia"), "P9")
    if g and b:
        out["barrier_ok"] = _ghost_example(st0, g, True)
        out["barrier_bad"] = _ghost_example(st0, b, False, "P9")
    # P6 on the board: by the edge of the map, south of Jerez
    edge = lambda cells, cs: any(hexgrid.add(c, d) not in content.terrain  # noqa: E731
                                 for c in cells for d in hexgrid.DIRECTIONS)
    g, b = _pair(st0, _site(content, "Jerez"), "P6", ok_test=edge,
                 bad_test=lambda cells, cs: sum(c in content.terrain for c in cells) >= len(cells) - 1, radius=6)
    if g and b:
        out["board_ok"] = _ghost_example(st0, g, True)
        out["board_bad"] = _ghost_example(st0, b, False, "P6")
    # P1 the planned region (Italia): one hex is enough / no hex of it
    italia = lambda cells, cs: sum(content.region_of.get(c) == "italia" for c in cells) == 1 and sea(cells)  # noqa
    g, b = _pair(st0, _site(content, "Bari"), "P1", ok_test=italia, plan=("italia", "A"), radius=6)
    if g and b:
        out["region_ok"] = _ghost_example(st0, g, True, plan=("italia", "A"))
        out["region_bad"] = _ghost_example(st0, b, False, "P1", plan=("italia", "A"))
    # P2 Harbors: a harbor and no city / a harbor and a city
    harbor_only = lambda cells, cs: any(c in content.sites and content.sites[c].kind == "harbor"  # noqa: E731
                                        for c in cells)
    g, b = _pair(st0, _site(content, "Ancona"), "P2", ok_test=harbor_only,
                 bad_test=harbor_only, plan=("italia", "A"))
    if g and b:
        out["harbors_ok"] = _ghost_example(st0, g, True, plan=("italia", "A"))
        out["harbors_bad"] = _ghost_example(st0, b, False, "P2", plan=("italia", "A"))
    _stacking(st0, content, out)
    _wedding(st0, content, out)
    _scoring(st0, content, out)
    return out


def _stacking(st0, content, out) -> None:
    """P7: a rival's fief with a rival's ring and your own ring beside it; three tries."""
    focus = _site(content, "Nürnberg")
    land = lambda cells: sum(content.terrain.get(c) == "land" for c in cells)  # noqa: E731
    rf = _find(st0, focus, lambda f, a, k, cells, cs: len(cells) == 4 and land(cells) == 4
               and _legal_somehow(st0, RIVAL, f, a, k, cells) is not None, radius=3)
    if rf is None:
        return
    st = _put(st0, RIVAL, *rf[:3])
    taken = set(rf[3])
    beside = [h for h in _around(st, focus, 5) if h not in taken and content.terrain.get(h) == "land"
              and any(hexgrid.are_adjacent(h, c) for c in taken)]
    rival_ring = next((h for h in beside if _ring(st, RIVAL, [h]) is not None), None)
    if rival_ring is None:
        return
    st = _ring(st, RIVAL, [rival_ring])
    own = next((h for h in beside[::-1] if h != rival_ring and not hexgrid.are_adjacent(h, rival_ring)
                and _ring(st, YOU, [h]) is not None), None)
    if own is None:
        return
    st = _ring(st, YOU, [own])

    def tried(need, want_rule, overlap_fief: bool):
        def t(f, a, k, cells, cs):
            cells = set(cells)
            if need not in cells or bool(cells & taken) != overlap_fief:
                return False
            if want_rule is None:
                return own not in cells and _legal_somehow(st, YOU, f, a, k, list(cells)) is not None
            return _rule(st, YOU, f, a, k) == want_rule and (own in cells) == (need == own)
        return _find(st, need, t, radius=2)
    for pid, ex, good in (("ring_rival_ok", tried(rival_ring, None, False), True),
                          ("on_fief_bad", tried(rf[3][1], "P7", True), False),
                          ("own_ring_bad", tried(own, "P7", False), False)):
        if ex is None:
            continue
        e = _ghost_example(st, ex, good, None if good else "P7")
        e.centre = tuple(sorted(set(ex[3]) | taken))
        out[pid] = e


def _wedding(st0, content, out) -> None:
    """W3: a ring on a city of the planned region and a second one beside it / not beside it."""
    city = _site(content, "York")
    region = content.region_of.get(city)
    st = _ring(st0, YOU, [city])
    if st is None:
        return
    second = next((h for h in _around(st0, city, 1) if h != city and ring_problem(st0, YOU, h) is None), None)
    far = next((h for h in _around(st0, city, 2) if hexgrid.distance(h, city) == 2
                and ring_problem(st0, YOU, h) is None), None)
    if second is None or far is None:
        return
    good = _ring(st0, YOU, [city, second])
    if good is None:
        return
    e = Example(centre=(city, second), state=good, ok=True, plan=(region, "C"))
    pts = scoring.site_points(st0, st0.board.mask_of([city, second]))
    low = max((city, second), key=lambda h: (h[1], h[0]))
    e.labels.append(((low[0] - 1, low[1] + 2), f"+{pts}", True))
    out["wedding_ok"] = e
    w = Wedding(YOU, (city, far))
    bad_state = st0.with_seat(YOU, fief=DECK[0], plan=Plan(YOU, region, "C"))
    bad_state = evolve(bad_state, phase="place", order=(YOU,), turn=0)
    why = check(bad_state, w)
    if why is None:
        return
    out["wedding_bad"] = Example(centre=(city, far), state=st, rings_tried=((far, False),), ok=False, rule=why.rule,
                                 plan=(region, "C"))


def _scoring(st0, content, out) -> None:
    """X1 two cities, X2 a sea league, X4 a group of connected pieces."""
    m, v = _site(content, "Mantova"), _site(content, "Venezia")
    both = _find(st0, m, lambda f, a, k, cells, cs: m in cells and v in cells
                 and _legal_somehow(st0, YOU, f, a, k, cells) is not None, radius=2)
    if both:
        st = _put(st0, YOU, *both[:3])
        e = Example(centre=tuple(both[3]), state=st)
        e.labels.append((both[1], f"+{st.seats[YOU].site_points}", True))
        out["sites"] = e
    # a sea league: three harbors of one sea (the one with the closest harbors)
    best = None
    for sea, _mask in st0.board.sea_harbors.items():
        hs = [h for h in content.sites if content.sites[h].kind == "harbor" and content.sites[h].sea == sea]
        hs.sort(key=lambda h: (h[1], h[0]))
        for drop in range(len(hs)):
            three = [h for i, h in enumerate(hs) if i != drop]
            spread = max(hexgrid.distance(a, b) for a in three for b in three)
            if best is None or spread < best[0]:
                best = (spread, sea, three)
    if best:
        _, sea, three = best
        st = st0
        for h in three:
            nxt = _ring(st, YOU, [h])
            if nxt is None:
                break
            st = nxt
        else:
            e = Example(centre=tuple(three), state=st, marks=tuple(three))
            e.labels.append((three[-1], f"+{scoring.SEA_LEAGUE}", True))
            out["league"] = e
    _group(st0, content, out)


def _group(st0, content, out) -> None:
    """X4: four connected pieces of yours (a ring among them, one joined across the Alps) and
    a piece apart; the group's pieces are numbered."""
    m = _site(content, "Mantova")
    st = st0
    group: list[set] = []
    first = _find(st, m, lambda f, a, k, cells, cs: m in cells and _legal_somehow(st, YOU, f, a, k, cells)
                  is not None, radius=2)
    if first is None:
        return
    st = _put(st, YOU, *first[:3])
    group.append(set(first[3]))
    held = set(first[3])
    barrier_edges = set()
    b = st.board
    for h in held:
        i = b.index_of[h]
        for d in range(6):
            if b.barrier[d] >> i & 1:
                barrier_edges.add(hexgrid.add(h, hexgrid.DIRECTIONS[d]))
    for want_barrier in (True, False):
        def touches(f, a, k, cells, cs, want=want_barrier, held=held, st=st):  # bound now (ruff B023)
            if set(cells) & held:
                return False
            adj = any(hexgrid.are_adjacent(c, h) for c in cells for h in held)
            if not adj or (want and not set(cells) & barrier_edges):
                return False
            return _legal_somehow(st, YOU, f, a, k, cells) is not None
        nxt = _find(st, m, touches, radius=5)
        if nxt is None:
            return
        st = _put(st, YOU, *nxt[:3])
        group.append(set(nxt[3]))
        held |= set(nxt[3])
    ring = next((h for h in _around(st, m, 4) if h not in held and any(hexgrid.are_adjacent(h, x) for x in held)
                 and content.terrain.get(h) == "land" and _ring(st, YOU, [h]) is not None), None)
    if ring is None:
        return
    st = _ring(st, YOU, [ring])
    group.append({ring})
    e = Example(centre=tuple(sorted(held | {ring})), state=st)
    for n, cells in enumerate(group, 1):
        e.numbers.append((_middle(cells), str(n)))
    e.count = scoring.largest_group(st, YOU)
    out["group"] = e


def _middle(cells) -> tuple:
    """The cell of a piece nearest its centre (where its number goes)."""
    pts = [hexgrid.to_pixel(c) for c in cells]
    mx = sum(p[0] for p in pts) / len(pts)
    my = sum(p[1] for p in pts) / len(pts)
    return min(cells, key=lambda c: ((hexgrid.to_pixel(c)[0] - mx) ** 2 + (hexgrid.to_pixel(c)[1] - my) ** 2, c))


# ---------------------------------------------------------------- drawing

class _Board:
    """One board renderer at a hex size, whose fitted layer the crops are cut from."""

    def __init__(self, content, hex_px: float, texts):
        r = BoardRenderer(content, pygame.Rect(0, 0, 64, 64), decorations=False, texts=texts)
        x0, y0, x1, y1 = r.board.extent
        self.size = (int((x1 - x0) * hex_px) + 24, int((y1 - y0) * hex_px) + 24)
        r.set_rect(pygame.Rect(0, 0, *self.size))
        r.static_layer()
        self.r = r

    def crop(self, size, centre_hexes, draw: Callable) -> pygame.Surface:
        r = self.r
        r.set_rect(pygame.Rect(0, 0, *self.size))
        pts = [r.hex_to_screen(h) for h in centre_hexes]
        cx = (min(p[0] for p in pts) + max(p[0] for p in pts)) / 2
        cy = (min(p[1] for p in pts) + max(p[1] for p in pts)) / 2
        r.set_rect(pygame.Rect(int(size[0] / 2 - cx), int(size[1] / 2 - cy), *self.size))
        surf = pygame.Surface(size)
        surf.fill(theme.SEA_TABLE)
        r.draw_static(surf)
        draw(r, surf)
        return surf


_boards: dict = {}


def _board(content, hex_px: float, lang: str, texts) -> _Board:
    key = (id(content), round(hex_px), lang)
    b = _boards.get(key)
    if b is None:
        if len(_boards) > 3:
            _boards.clear()
        b = _boards[key] = _Board(content, round(hex_px), texts)
    return b


def _draw_example(e: Example, r, surf) -> None:
    st = e.state
    fiefs = [(st.seats[p.seat].colour, p.cells, p.castles) for p in st.pieces if p.kind == "fief"]
    rings = {p.cells[0]: st.seats[p.seat].colour for p in st.pieces if p.kind == "ring"}
    r.draw_fiefs(surf, fiefs)
    if e.ghost is not None:  # under the rings: a ring stays on top of a fief (P7)
        cells, castles, ok = e.ghost
        r.draw_ghost(surf, cells, castles, ok)
    if rings:
        r.draw_rings(surf, rings, [c for _s, _c, cs in fiefs for c in cs])
    r.draw_site_names(surf)
    if e.marks:
        r.draw_objective_cities(surf, e.marks)
    for h, ok in e.rings_tried:
        r.draw_ghost(surf, [h], [], ok)
    for h, text, ok in e.labels:
        r.draw_label(surf, h, text, ok)
    for h, text in e.numbers:
        x, y = r.hex_to_screen(h)
        rad = max(9, int(r.size * 0.55))
        pygame.draw.circle(surf, (255, 250, 236), (int(x), int(y)), rad)
        pygame.draw.circle(surf, theme.INK, (int(x), int(y)), rad, 2)
        W.blit_text(surf, text, (x, y), "sans_bold", rad * 1.3, theme.INK, "center")


def picture(pid: str, size: tuple[int, int], content, lang: str = "en", texts=None) -> pygame.Surface:
    """The picture ``pid`` at ``size`` (cached per size and language)."""
    key = (pid, tuple(size), id(content), lang)
    img = _cache.get(key)
    if img is None:
        if len(_cache) > 80:
            _cache.clear()
        img = _cache[key] = _draw(pid, size, content, lang, texts)
    return img


_cache: dict = {}


def _draw(pid: str, size, content, lang: str, texts) -> pygame.Surface:
    if pid in TABLES:
        return TABLES[pid](size, content, lang)
    e = examples(content).get(pid)
    hex_px = max(12.0, min(22.0, size[0] / 15.0))
    surf = None
    if e is not None:
        b = _board(content, hex_px, lang, texts)
        surf = b.crop(size, e.centre, lambda r, s: _draw_example(e, r, s))
    if surf is None:
        surf = pygame.Surface(size)
        surf.fill((226, 214, 186))
    if e is not None and e.ok is not None:
        m = mark_icon(e.ok, 30)
        surf.blit(m, (size[0] - m.get_width() - 8, 8))
    pygame.draw.rect(surf, (120, 92, 56), surf.get_rect(), 2)
    return surf


def verdict_of(pid: str, content=None) -> Optional[bool]:
    """True for a legal example, False for an illegal one, None for a picture without verdict."""
    if pid in TABLES:
        return None
    e = examples(content or load_content()).get(pid)
    return None if e is None else e.ok


# ---------------------------------------------------------------- pictures that are tables

def _text(s, px, color=(50, 40, 30), role="sans"):
    return W.text(s, role, px, color)


def _objective_table(size, content, lang):
    surf = pygame.Surface(size)
    surf.fill((246, 238, 218))
    w, h = size
    cols = len(scoring.OBJECTIVE_TABLE)
    cw = (w - 40) // (cols + 1)
    y0 = h // 2 - 40
    heads = (i18n.t("ref.table.cities"), i18n.t("ref.table.points"))
    for row, (label, values) in enumerate(zip(heads, (range(cols), scoring.OBJECTIVE_TABLE))):
        y = y0 + row * 44
        img = _text(label, 17, role="sans_bold")
        surf.blit(img, (20, y + 10))
        for i, v in enumerate(values):
            x = 20 + cw * (i + 1)
            cell = pygame.Rect(x, y, cw - 6, 38)
            pygame.draw.rect(surf, (232, 220, 192) if row == 0 else (255, 236, 170), cell, 0, 6)
            pygame.draw.rect(surf, (150, 120, 80), cell, 1, 6)
            t = _text(str(v), 19, role="sans_bold" if row else "sans")
            surf.blit(t, t.get_rect(center=cell.center))
    cap = _text(i18n.t("ref.table.example"), 15, (110, 90, 66))
    surf.blit(cap, (20, y0 + 100))
    pygame.draw.rect(surf, (120, 92, 56), surf.get_rect(), 2)
    return surf


def reveal_state(content, king: bool):
    """A four-seat round revealed (R3) by the rules engine: the printed rulebook's example
    (King's Privilege with Alliance; Harbors; Cities with cards 12 and 83), or two King's
    Privileges ordered by their other card."""
    st = new_game(GameConfig(seats=4, colours=("red", "green", "yellow", "blue"), scenario="Dante"), content)
    deck = lambda top: (top,) + tuple(n for n in DECK if n != top)  # noqa: E731
    if king:
        decks = (deck(30), deck(50), deck(10), deck(80))
        plans = [Plan(0, "italia", "C"), Plan(1, "francia", "A"), Plan(2, "hispania", "B", True),
                 Plan(3, "germania", "A", True)]
    else:
        decks = (deck(60), deck(30), deck(10), deck(80))
        plans = [Plan(0, "italia", "C", True), Plan(1, "francia", "A"), Plan(2, "hispania", "B"),
                 Plan(3, "germania", "B")]
    objectives = tuple(o.id for o in content.objectives[:4])
    return try_on(st, Setup("Dante", 0, decks, objectives), *plans)


def _reveal_table(king: bool):
    def draw(size, content, lang):
        st = reveal_state(content, king)
        names = [i18n.t(f"ref.example_name.{i}") for i in range(4)]
        surf = pygame.Surface(size)
        surf.fill((246, 238, 218))
        w, h = size
        reasons = order_reasons(st)
        row_h = max(30, min(44, (h - 20) // 4))
        y = (h - row_h * 4) // 2
        for pos, i in enumerate(st.order):
            s = st.seats[i]
            p = s.plan
            surf.blit(_text(str(pos + 1), 24, role="title"), (14, y))
            pygame.draw.rect(surf, theme.seat_color(s.colour), (44, y + 6, 14, 14), 0, 3)
            surf.blit(_text(f"{names[i]} ({s.card})", 16, role="sans_bold"), (64, y + 2))
            cards = i18n.t(f"card.{p.action}") + (" + " + i18n.t("card.K") if p.king else "")
            surf.blit(_text(cards, 15), (64, y + row_h // 2 + 1))
            why = _text(reasons[i], 14, (110, 90, 66), "sans_italic")
            x = max(230, w // 2 - 20)
            if why.get_width() > w - x - 10:
                why = W.text(reasons[i], "sans_italic", 13, (110, 90, 66), wrap=w - x - 10)
            surf.blit(why, (x, y + 4))
            y += row_h
        pygame.draw.rect(surf, (120, 92, 56), surf.get_rect(), 2)
        return surf
    return draw


def _rotations(size, content, lang):
    """P10: one fief in its six rotations (never flipped)."""
    surf = pygame.Surface(size)
    surf.fill((246, 238, 218))
    f = content.fiefs[50]
    w, h = size
    n = 6
    cw = (w - 20) // 3
    chh = (h - 20) // 2
    px = max(9.0, min(cw / 7.0, chh / 6.0))
    for k in range(n):
        cells, castles = f.rotated(k)
        spr, (mx, my) = pieces.fief_sprite(cells, castles, px, theme.seat_color("red"), theme.seat_dark("red"),
                                           theme.seat_light("red"), alpha=235, pattern=theme.seat_pattern("red"),
                                           pattern_color=theme.seat_mark("red"))
        xs = [hexgrid.to_pixel(c, px)[0] for c in cells]
        ys = [hexgrid.to_pixel(c, px)[1] for c in cells]
        cx = 10 + cw * (k % 3) + cw // 2
        cy = 10 + chh * (k // 3) + chh // 2
        ox = cx - (min(xs) + max(xs)) / 2
        oy = cy - (min(ys) + max(ys)) / 2
        surf.blit(spr, (int(ox + mx), int(oy + my)))
        t = _text(f"{k * 60}°", 13, (110, 90, 66))
        surf.blit(t, (10 + cw * (k % 3) + 4, 10 + chh * (k // 3) + 2))
    pygame.draw.rect(surf, (120, 92, 56), surf.get_rect(), 2)
    return surf


#: height / width of the pictures that are tables (board crops are 0.68)
ASPECT = {"objective_table": 0.42, "reveal": 0.36, "reveal_king": 0.36, "rotations": 0.5}

TABLES = {"objective_table": _objective_table, "reveal": _reveal_table(False),
          "reveal_king": _reveal_table(True), "rotations": _rotations}
