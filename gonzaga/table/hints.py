"""Hints (issue 11): what the strongest AI level would do for the seat that must decide now.

The hint is asked from the table's ``hint_view(seat)`` only - a human seat's own view, never
the full state - like every AI seat (spec E), with a seed made from the game's seed, the seat
and the position, and the level's own time budget (about 1.5 s). It runs in a decision worker of its own (a process
for the search levels), so the frame loop never waits and cancelling a hint never touches
the AI seats' decisions::

    svc = HintService()
    svc.request(session, seat)      # returns at once
    hint = svc.poll(session)        # every frame: None until ready (or when the game moved on)
    svc.cancel()                    # H again, Esc, or the decision was made meanwhile

A :class:`Hint` carries the action, its points and a one-line reason in words, worked
out from the same view: the sites covered, sea-league progress, the group it joins.
Nothing here imports pygame.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Hashable, Iterable, Optional, Protocol

from ..rules import Action, GameState, Place, Plan, Wedding, legal_placements, legal_plans, try_on
from ..rules.hexgrid import Hex
from ..rules import scoring
from ..words import i18n
from .pacing import Worker
from ..ai.roster import strongest
from ..ai.bots import best_scoring
from ..ai.worker import DecisionWorker
import logging

def strongest_level() -> str:
    """The strongest AI level (the roster's last: ``expert``)."""
    return strongest()


def hint_seed(game_seed: int, seat: int, position: int) -> int:
    """A seed for the hint at this position: the same question gets the same answer."""
    return (game_seed * 1_000_003 + seat * 7_919 + position * 104_729 + 17) % (2 ** 31 - 1)


@dataclass
class Hint:
    """A suggested decision for ``seat`` and why, in words."""

    seat: int
    action: Action
    points: int
    reason: str
    cells: tuple[Hex, ...] = ()  # the hexes to show on the map (a fief's, or the rings)
    castles: frozenset[Hex] = field(default_factory=frozenset)
    cards: tuple[str, ...] = ()  # a plan's cards: region, action card, "K"
    what: str = ""  # the decision in words: "Italia + Cities", "place fief 50 here", "donate"
    position: int = 0  # the record length it was asked at
    best_now: Optional[int] = None  # the most points any choice scores now (the planning table's best)
    prefer: str = ""  # why the hint gives up points now, when ``best_now`` is more than ``points``

    @property
    def headline(self) -> str:
        return i18n.t("hint.headline", what=self.what, points=self.points)


def _what(v: GameState, a: Action) -> str:
    if isinstance(a, Plan):
        return i18n.t("hint.what_plan", region=i18n.card_name(v, a.region), action=i18n.t(f"card.{a.action}")) \
            + (f" + {i18n.t('card.K')}" if a.king else "")
    if isinstance(a, Place):
        return i18n.t("hint.what_place", fief=a.fief)
    if isinstance(a, Wedding):
        return i18n.tn("hint.what_wedding", len(a.rings))
    return i18n.t("hint.what_donate")


# ---------------------------------------------------------------- explaining a decision

def _site_names(v: GameState, cells: Iterable[Hex]) -> list[str]:
    return [v.content.sites[h].name for h in cells if h in v.content.sites]


def _join(names: list[str]) -> str:
    if len(names) <= 1:
        return "".join(names)
    return i18n.t("hint.and", a=", ".join(names[:-1]), b=names[-1])


def _cover_reason(v: GameState, seat: int, cells: Iterable[Hex],
                  new_piece: Optional[Action]) -> tuple[int, list[str], dict[str, tuple[int, str]]]:
    """(points, reason parts, ``_factors``) for pieces on ``cells``: the sites, the seas, the group."""
    board = v.board
    mask = board.mask_of([h for h in cells if h in board.index_of])
    s = v.seats[seat]
    points = scoring.immediate_points(v, seat, mask)
    parts: list[str] = []
    sites = _site_names(v, cells)
    if sites:
        parts.append(i18n.t("hint.covers", sites=_join(sites), points=scoring.site_points(v, mask)))
    elif isinstance(new_piece, Place):
        parts.append(i18n.t("hint.empty"))
    for sea in scoring.new_leagues(v, s, mask):
        parts.append(i18n.t("hint.league", sea=v.content.sea_names.get(sea, sea)))
    f = _factors(v, seat, cells, new_piece)
    parts += [text for _value, text in f.values()]
    return points, parts, f


# ---------------------------------------------------------------- what else a decision weighs

def _factors(v: GameState, seat: int, cells: Iterable[Hex],
             new_piece: Optional[Action]) -> dict[str, tuple[int, str]]:
    """What a piece on ``cells`` does besides its points now, ``{kind: (value, words)}``:
    ``objective`` (the seat's objective cities it takes), ``harbors`` (harbors toward a sea
    league not yet made), ``blocking`` (rivals whose pieces it borders), ``dominion`` (the seat's
    largest group, when the piece grows it). Only what the seat's own view shows."""
    board = v.board
    on = set(cells)
    mask = board.mask_of([h for h in on if h in board.index_of])
    s = v.seats[seat]
    out: dict[str, tuple[int, str]] = {}
    if s.objective:
        mine = [h for h in v.content.objective_cities(s.objective) if h in on
                and not s.held & board.mask_of([h])]
        if mine:
            out["objective"] = (len(mine), i18n.t("hint.objective", cities=_join(_site_names(v, mine))))
    leagues = scoring.new_leagues(v, s, mask)
    gained, said = 0, []
    for sea, harbors in sorted(board.sea_harbors.items()):
        if sea in leagues or sea in s.leagues or not mask & ~s.held & harbors:
            continue
        gained += (mask & ~s.held & harbors).bit_count()
        said.append(i18n.t("hint.harbors", n=((s.held | mask) & harbors).bit_count(), total=harbors.bit_count(),
                           sea=v.content.sea_names.get(sea, sea)))
    if gained:
        out["harbors"] = (gained, "; ".join(said))
    near = board.neighbours_mask(mask)
    rivals = sorted({p.seat for p in v.pieces if p.seat != seat and p.mask & near})
    if rivals:
        names = _join([i18n.colour_name(v.seats[r].colour) for r in rivals])
        out["blocking"] = (len(rivals), i18n.t("hint.blocking", rivals=names))
    if new_piece is not None and any(board.neighbours_mask(p.mask) & mask for p in v.pieces if p.seat == seat):
        try:
            after = scoring.largest_group(try_on(v, new_piece), seat)  # one move ahead on the seat's own view
        except Exception:  # a view cannot always be played on (hidden decks): skip the group
            after = 0
        if after > scoring.largest_group(v, seat):
            out["dominion"] = (after, i18n.t("hint.dominion", n=after))
    return out


def _cells_of(v: GameState, a: Action) -> tuple[Hex, ...]:
    if isinstance(a, Wedding):
        return tuple(a.rings)
    if isinstance(a, Place):
        return tuple(v.content.fiefs[a.fief].footprint(a.anchor, a.rotation)[0])
    return ()


def _prefer(v: GameState, seat: int, ours: dict[str, tuple[int, str]], best_points: int,
            best: Optional[Action]) -> str:
    """Why the hint scores less now than ``best``: what it weighs (``ours``, the ``_factors`` of
    its own choice) that the best-scoring choice does not (objective, sea league, blocking,
    largest dominion), or the rounds it looks ahead."""
    where = _join(_site_names(v, _cells_of(v, best))) if best is not None else ""
    head = i18n.t("hint.best_now", points=best_points, where=where) if where else \
        i18n.t("hint.best_now_plain", points=best_points)
    theirs = _factors(v, seat, _cells_of(v, best), best) if best is not None else {}
    better = [text for kind, (value, text) in ours.items() if value > theirs.get(kind, (0, ""))[0]]
    if better:
        return head + " " + i18n.t("hint.prefers_for", why="; ".join(better))
    return head + " " + i18n.t("hint.prefers_later")


def _best_under(v: GameState, seat: int, region: str, action: str) -> Optional[tuple[int, Action]]:
    """The best-scoring placement or wedding under a plan: (points, action) or None."""
    opts = best_scoring(v, seat, region, action)
    return max(opts, key=lambda x: x[0]) if opts else None


def _best_plan(v: GameState, seat: int,
               known: dict[tuple[str, str], Optional[tuple[int, Action]]]) -> Optional[tuple[int, Action]]:
    """The planning table's best: (points, placement) of the best plan the seat can make now
    (``known``: the ``_best_under`` already worked out, by (region, action))."""
    top = None
    for p in legal_plans(v, seat):
        if p.king:
            continue
        key = (p.region, p.action)
        b = known[key] if key in known else _best_under(v, seat, p.region, p.action)
        if b is not None and (top is None or b[0] > top[0]):
            top = b
    return top


def explain(v: GameState, seat: int, a: Action) -> Hint:
    """The hint for decision ``a`` of ``seat``, worked out from the view ``v`` only."""
    h = _explain(v, seat, a)
    h.what = _what(v, a)
    return h


def _explain(v: GameState, seat: int, a: Action) -> Hint:
    if isinstance(a, Plan):
        best = _best_under(v, seat, a.region, a.action)
        cards = (a.region, a.action) + (("K",) if a.king else ())
        parts: list[str] = []
        points = 0
        ours: dict[str, tuple[int, str]] = {}
        if best is not None:
            points, act = best
            assert isinstance(act, (Place, Wedding))  # best_scoring lists placements and weddings
            cells = act.rings if isinstance(act, Wedding) else \
                v.content.fiefs[act.fief].footprint(act.anchor, act.rotation)[0]
            sites = _site_names(v, cells)
            parts.append(i18n.t("hint.plan_best", sites=_join(sites), points=points) if sites
                         else i18n.t("hint.plan_spot"))
            ours = _factors(v, seat, _cells_of(v, act), act)
            parts += [text for _v, text in ours.values()]
        else:
            parts.append(i18n.t("hint.plan_none"))
        if a.king:
            parts.append(i18n.t("hint.plan_king"))
        h = Hint(seat, a, points, "; ".join(parts), cards=cards)
        if best is not None:  # where the plan's fief would go: shown on the map, never under the words
            h.cells = tuple(_cells_of(v, best[1]))
        top = _best_plan(v, seat, {(a.region, a.action): best})  # the best of the planning table
        if top is not None:
            h.best_now = top[0]
            if top[0] > points:
                h.prefer = _prefer(v, seat, ours, top[0], top[1])
        return h
    if isinstance(a, (Place, Wedding)):
        cells = _cells_of(v, a)
        castles = v.content.fiefs[a.fief].footprint(a.anchor, a.rotation)[1] if isinstance(a, Place) else ()
        points, parts, ours = _cover_reason(v, seat, cells, a)
        reason = "; ".join(parts) or (i18n.t("hint.rings") if isinstance(a, Wedding) else "")
        h = Hint(seat, a, points, reason, cells=tuple(cells), castles=frozenset(castles))
        plan = v.seats[seat].plan
        top = _best_under(v, seat, plan.region, plan.action) if plan is not None else None
        if top is not None:
            h.best_now = top[0]
            if top[0] > points:
                h.prefer = _prefer(v, seat, ours, top[0], top[1])
        return h
    # a donation: say what the best spot would have scored
    s = v.seats[seat]
    best_points = 0
    if s.plan is not None and s.fief is not None:
        for p in legal_placements(v, seat):
            cells, _ = v.content.fiefs[p.fief].footprint(p.anchor, p.rotation)
            best_points = max(best_points, scoring.immediate_points(v, seat, v.board.mask_of(cells)))
    return Hint(seat, a, scoring.DONATION, i18n.t("hint.donate", best=best_points))


# ---------------------------------------------------------------- the service

class Asker(Protocol):
    """What a hint is asked from: a seat's face (``seatview.SeatView``) or a desktop ``Session``."""

    @property
    def token(self) -> int: ...  # names the game while it runs (``id()`` of a freed session is reused)

    @property
    def position(self) -> int: ...

    def hint_key(self, seat: int) -> Hashable: ...  # changes when ``seat``'s decision changes

    def hint_view(self, seat: Optional[int]) -> Optional[GameState]: ...

    def hint_seed(self, seat: int) -> int: ...


class HintService:
    """Hints computed in the background; at most one at a time."""

    def __init__(self, worker: Optional[Worker] = None, level: Optional[str] = None):
        self._worker = worker
        self.level = level
        self._ticket: Optional[int] = None
        self._asked: Optional[tuple[int, Hashable, int]] = None  # (the game's token, the decision's key, seat)
        self._view: Optional[GameState] = None
        self.hint: Optional[Hint] = None
        self.failed = False

    @property
    def worker(self) -> Worker:
        if self._worker is None:
            self._worker = DecisionWorker(processes=1)
        return self._worker

    @property
    def busy(self) -> bool:
        return self._ticket is not None

    def _same(self, session: Asker) -> bool:
        """The hint asked is for the decision ``session`` waits for now (the same game, and
        the same decision of the same seat: another seat's hidden plan changes nothing)."""
        a = self._asked
        return a is not None and a[:2] == (session.token, session.hint_key(a[2]))

    def current(self, session: Asker) -> Optional[Hint]:
        """The hint shown for this position, if it still applies."""
        return self.hint if self.hint is not None and self._same(session) else None

    def request(self, session: Asker, seat: int, shared: bool = False) -> None:
        """Ask for a hint for ``seat`` at the session's position; returns at once. ``shared``:
        the hint is shown on a screen others see (a hot-seat placement): its words leave out the
        seat's objective (the decision is worked out as always)."""
        self.cancel()
        v = session.hint_view(seat)  # only a human seat's own view: never more than it may know (spec E)
        if v is None:  # the table gives no hint for that seat (an AI's, or the game is over)
            self.failed = True
            return
        level = self.level or strongest_level()
        seed = session.hint_seed(seat)
        self._view = v.with_seat(seat, objective=None) if shared else v
        self._asked = (session.token, session.hint_key(seat), seat)
        self.failed = False
        try:
            self._ticket = self.worker.request(level, seed, v, seat)
        except Exception:  # no worker could start: no hint, the game goes on
            logging.getLogger(__name__).exception("hint request failed")
            self._ticket = None
            self.failed = True

    def poll(self, session: Asker) -> Optional[Hint]:
        """Collect the answer when it is ready; a hint for a position the game left is dropped."""
        if self._asked is not None and not self._same(session):
            self.cancel()
            self.hint = None
            return None
        if self._ticket is None:
            return self.current(session)
        try:
            a = self.worker.result(self._ticket)
        except Exception:  # a failing search must not stop the game: say so, no hint
            logging.getLogger(__name__).exception("hint failed")
            self._ticket = None
            self.failed = True
            return None
        if a is None:
            return None
        self._ticket = None
        assert self._view is not None and self._asked is not None  # set with the ticket
        h = explain(self._view, self._asked[2], a)
        h.position = session.position
        self.hint = h
        return h

    def cancel(self) -> None:
        """Forget the hint being computed (its search is told to stop) and the one shown."""
        if self._ticket is not None and self._worker is not None:
            self._worker.cancel_all()
        self._ticket = None
        self.hint = None
        self._asked = None

    def close(self) -> None:
        self.cancel()
        if self._worker is not None:
            self._worker.close()
            self._worker = None


# the application keeps its service as an attribute of its own (``app._hint_service``); ``app`` is
# typed as any object because the table does not import the application that holds it

def service(app: object) -> HintService:
    """The application's hint service (made on first use)."""
    svc: Optional[HintService] = getattr(app, "_hint_service", None)
    if svc is None:
        svc = HintService()
        setattr(app, "_hint_service", svc)  # noqa: B010 -- ``app`` is any object (above)
    return svc


def close_service(app: object) -> None:
    svc: Optional[HintService] = getattr(app, "_hint_service", None)
    if svc is not None:
        svc.close()
        setattr(app, "_hint_service", None)  # noqa: B010 -- as in ``service``


__all__ = ["Hint", "HintService", "explain", "hint_seed", "strongest_level", "service", "close_service",
]
