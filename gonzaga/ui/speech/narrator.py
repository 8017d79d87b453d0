"""What is spoken, read from the screens each frame (issue 49): the focused widget (its label,
role and state), a new screen's name, and on a game screen whose turn it is, the hand and why a
card is unavailable, refusals, the game log (each plan at the reveal, each placement, the
scores and the end), and the hex under the keyboard cursor.

The narrator only reads what the screens already hold: the game screen's ``state`` is the view
of the seat whose hand is open (``table/seatview.py``), so it speaks no secret the screen would
not show (secrets by construction). All words come from the catalogs (``speech.*`` keys).
"""
from __future__ import annotations

import logging
from typing import Any, Optional

from ...rules import legal_placements, scoring
from ...words import i18n
from .. import keys, widgets as W
from . import Speech

log = logging.getLogger(__name__)

BEST_COUNT = 3  # how many places the "best places" key reads
# screens read whole when they open (their ``visible_text``): short overlays that ask or tell one thing
READ_WHOLE = frozenset({"curtain", "objective", "message", "confirm", "error", "prompt"})  # the reveal: the log says it


def describe_widget(w: Any) -> str:
    """A widget as a screen reader says it: label, role, state."""
    if isinstance(w, W.TextField):
        return i18n.t("speech.field", label=getattr(w, "label", "") or "", value=w.value)
    label = getattr(w, "spoken", "") or getattr(w, "label", "") or ""  # spoken: a label that needs its row's name
    parts = [i18n.t("speech.button", label=label)]
    if getattr(w, "selected", False):
        parts.append(i18n.t("speech.selected"))
    if not getattr(w, "enabled", True):
        parts.append(i18n.t("speech.unavailable"))
    sub = getattr(w, "sub", "")
    if sub:
        parts.append(sub)
    return ". ".join(parts)


def describe_hex(st, face, h, feedback: Optional[str]) -> str:
    """The hex ``h`` of the view ``st``: region, site, who holds it, what a placement there scores."""
    c = st.content
    parts = []
    region = c.region_of.get(h)
    parts.append(c.region_names.get(region, region) if region else i18n.t("speech.sea"))
    site = c.sites.get(h)
    if site is not None:
        parts.append(i18n.t(f"speech.site.{site.kind}", name=site.name))
    for p in st.pieces:
        if h in p.cells:
            parts.append(i18n.t("speech.held_by", name=face.seat_name(p.seat)))
            break
    if feedback:
        parts.append(feedback)
    return ". ".join(parts)


def best_places(st, seat: int, count: int = BEST_COUNT) -> list[tuple[str, Any]]:
    """The ``count`` placements of the seat's fief that score most now, best first, each with its
    words ("3 points at Mantova, Verona, Lombardia"): from the seat's own view ``st``. Two that
    would be said alike count once."""
    board = st.board
    found = []
    for a in legal_placements(st, seat):
        cells, _castles = st.content.fiefs[a.fief].footprint(a.anchor, a.rotation)
        pts = scoring.immediate_points(st, seat, board.mask_of(cells))
        sites = [st.content.sites[x].name for x in cells if x in st.content.sites]
        region = next((st.content.region_of[x] for x in cells if x in st.content.region_of), None)
        where = ", ".join(sites + ([st.content.region_names.get(region, region)] if region else []))
        found.append((-pts, a.anchor[1], a.anchor[0], a.rotation, i18n.t("speech.best_one", points=pts, where=where), a))
    found.sort(key=lambda f: f[:4])
    out: list[tuple[str, Any]] = []
    for *_order, words, a in found:
        if words not in (w for w, _a in out):
            out.append((words, a))
        if len(out) == count:
            break
    return out


class Narrator:
    """Speaks what changed since the last frame. ``update(app)`` runs once a frame."""

    def __init__(self, speech: Speech) -> None:
        self.speech = speech
        self._top: Any = None
        self._focus: Any = None
        self._game: Any = None
        self._log_seen = 0
        self._turn: Optional[tuple] = None
        self._message = ""
        self._spot: Optional[tuple] = None
        self._over = False
        self._donate = False
        self._failures = 0
        self._best: Optional[list] = None  # [the placement it is for, its best places, the one shown]

    def say(self, text: str, interrupt: bool = False, keep: bool = False) -> None:
        self.speech.announce(text, interrupt, keep)

    def update(self, app: Any) -> None:
        if not self.speech.enabled:
            return
        try:
            self._update(app)
        except Exception:  # speech that fails loses words, never the game (the log has it, once)
            self._failures += 1
            if self._failures == 1:
                log.exception("speech: the narrator failed")

    def _update(self, app: Any) -> None:
        top = app.stack.top
        if top is not self._top:
            self._top = top
            self._focus = None
            name = getattr(top, "name", "")
            key = f"speech.screen.{name}"
            if name in READ_WHOLE and hasattr(top, "visible_text"):
                self.say(". ".join(x for x in top.visible_text() if x), interrupt=True, keep=True)
            elif top is not None and i18n.known(key):
                self.say(i18n.t(key), interrupt=True)
        widgets = getattr(top, "widgets", None)
        focus = getattr(widgets, "focus", None)
        if focus is not None and focus is not self._focus:
            self.say(describe_widget(focus), interrupt=True)
        self._focus = focus
        game = app.game_screen() if hasattr(app, "game_screen") else None
        if game is not None and hasattr(game, "face") and hasattr(game, "place"):
            self._game_update(game)

    # ------------------------------------------------------------ the game screen

    def _game_update(self, g: Any) -> None:
        face = g.face
        if g is not self._game:
            self._game = g
            self._log_seen = len(face.log_lines())  # a resumed game: only what happens from now
            self._turn, self._message = None, ""
            self._spot = None
            self._over = False
        lines = face.log_lines()
        for line in lines[self._log_seen:]:
            self.say(line)
        self._log_seen = len(lines)
        st = g.state
        if st.phase == "over":
            if not self._over:
                self._over = True
                self.say(self.scores(g))
            return
        turn = (st.phase, st.round, st.turn, g.private_seat, g.place.seat if g.place is not None else None)
        if turn != self._turn:
            self._turn = turn
            self._spot = None
            text = self.decision(g)
            if text:
                self.say(text)
        donate = bool(getattr(getattr(g, "placing", None), "donate_pending", False))
        if donate != self._donate:
            self._donate = donate
            if donate:
                self.say(i18n.t("speech.donate_confirm"), interrupt=True, keep=True)
        if g.message != self._message:
            self._message = g.message
            if g.message:
                self.say(i18n.t("speech.refused", why=g.message), interrupt=True, keep=True)
        pc = g.place
        if pc is not None:
            at = pc.anchor if pc.mode == "fief" else pc.cursor
            spot = (pc.mode, at, pc.rotation, tuple(pc.rings))
            if at is not None and spot != self._spot:
                fb = pc.feedback()
                words = None
                if fb is not None and fb.ok and pc.mode == "fief":
                    words = i18n.t("speech.would_score", points=fb.points)
                    if fb.leagues:
                        words += ", " + fb.text.split(", ", 1)[-1]  # the sea leagues, as the ghost says them
                elif fb is not None:
                    words = fb.text
                self.say(describe_hex(pc.state, face, at, words), interrupt=True)
            self._spot = spot

    def decision(self, g: Any) -> str:
        """What the player is asked now, in words (before it is asked: the frame it appears)."""
        st = g.state
        face = g.face
        if g.private_seat is not None and st.phase == "plan":
            s = st.seats[g.private_seat]
            cards = []
            for r in st.region_cards():
                name = i18n.card_name(st, r)
                cards.append(i18n.t("speech.card_unavailable", card=name, why=i18n.t("plan.played_last"))
                             if r in s.unavailable else name)
            actions = []
            for a in ("A", "B", "C"):
                name = i18n.t(f"card.{a}")
                actions.append(i18n.t("speech.card_unavailable", card=name, why=i18n.t("plan.played_last"))
                               if a in s.unavailable else name)
            king = i18n.t("card.K")
            if "K" in s.unavailable:
                king = i18n.t("speech.card_unavailable", card=king, why=i18n.t("plan.played_last"))
            elif s.rings < 1:
                king = i18n.t("speech.card_unavailable", card=king, why=i18n.t("plan.no_ring"))
            return i18n.t("speech.plan", round=st.round, regions=", ".join(cards), actions=", ".join(actions),
                          king=king, fief=s.fief)
        pc = g.place
        if pc is not None and st.phase == "place":
            region = i18n.card_name(st, pc.plan.region)
            text = i18n.t("speech.place", name=face.seat_name(pc.seat), fief=pc.fief, region=region,
                          action=i18n.t(f"card.{pc.plan.action}"), **keys.labels())
            if pc.can_wed:
                text += " " + i18n.t("speech.can_wed", **keys.labels())
            if not pc.has_legal_spot:
                text += " " + i18n.t("speech.place_none", **keys.labels())
            return text
        if st.phase == "place" and 0 <= st.turn < len(st.order) and face.human_to_place() is None:
            return i18n.t("speech.turn", name=face.seat_name(st.order[st.turn]))  # a human's: "place" says it
        return ""

    def scores(self, g: Any) -> str:
        st = g.state
        face = g.face
        rows = sorted(range(len(st.seats)), key=lambda i: -st.seats[i].score)
        table = "; ".join(i18n.t("speech.score", name=face.seat_name(i), points=st.seats[i].score) for i in rows)
        winners = ", ".join(face.seat_name(i) for i in st.winners)
        return i18n.t("speech.end", winners=winners, scores=table)

    def handle(self, ev: Any, app: Any) -> bool:
        """The "best places" key on the game screen while a fief is being placed (speech on)."""
        if not (self.speech.enabled and keys.pressed(ev, "best_places")):
            return False
        g = app.stack.top
        if not getattr(g, "game_screen", False) or getattr(g, "place", None) is None:
            return False
        return self.read_best(g)

    def read_best(self, g: Any) -> bool:
        """The "best places" key: the first press reads the best places for the fief in hand and
        puts the ghost on the best; each next press moves it to the next one and says it."""
        pc = g.place
        if pc is None or pc.mode != "fief":
            self.say(i18n.t("speech.best_none"), interrupt=True)
            return False
        key = (id(pc), pc.key)
        if self._best is None or self._best[0] != key:
            places = best_places(pc.state, pc.seat)
            self._best = [key, places, 0]
            if not places:
                self.say(i18n.t("speech.best_none"), interrupt=True)
                return True
            self.say(i18n.t("speech.best", places="; ".join(w for w, _a in places), **keys.labels()), interrupt=True)
        else:
            self._best[2] = (self._best[2] + 1) % len(self._best[1])
            i = self._best[2]
            self.say(i18n.t("speech.best_n", n=i + 1, count=len(self._best[1]), place=self._best[1][i][0]),
                     interrupt=True)
        a = self._best[1][self._best[2]][1]
        pc.anchor, pc.rotation = a.anchor, a.rotation
        self._spot = (pc.mode, pc.anchor, pc.rotation, tuple(pc.rings))  # said just now: not again as a move
        if getattr(g, "renderer", None) is not None:
            g.renderer.ensure_visible(a.anchor)
        return True
