"""The pages of the illustrated rules reference (issue 11): one topic per rule, its text taken
sentence by sentence from ``rules_text`` (so a correction there shows here too, in every
language) without the spec ids, and the pictures that illustrate it.

Pure Python (no pygame). ``page_for_rule("P8")`` names the page a refusal's "why?" opens; the
ids themselves are never shown to the player.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Callable

from . import rules_text
import unicodedata

_ID = r"[A-Z]\d{1,2}"
_ID_GROUP = re.compile(rf"^\s*{_ID}(?:\s*-\s*{_ID})?(?:\s*,\s*{_ID}(?:\s*-\s*{_ID})?)*\s*$")
_PAREN = re.compile(r"\s*\(([^()]*)\)")


@dataclass(frozen=True)
class Page:
    """One topic: its id, the rule ids it explains, where its text comes from, its pictures."""

    id: str
    section: int  # the ``# heading`` of rules_text (0-based) its sentences come from
    rules: tuple[str, ...] = ()  # empty: the whole section
    pictures: tuple[str, ...] = ()  # picture ids drawn by ``ui/rule_pictures.py``

    @property
    def title_key(self) -> str:
        return f"ref.page.{self.id}"


PAGES: tuple[Page, ...] = (
    Page("goal", 0),
    Page("fief", 1, ("R1",)),
    Page("plan", 1, ("R2",)),
    Page("order", 1, ("R3", "R4"), ("reveal",)),
    Page("king", 1, ("K1", "K2", "K3", "K4"), ("reveal_king",)),
    Page("turn", 1, ("R5", "R6")),
    Page("region", 2, ("P1",), ("region_ok", "region_bad")),
    Page("actions", 2, ("P2", "P3", "P4", "P5"), ("harbors_ok", "harbors_bad")),
    Page("board", 2, ("P6",), ("board_ok", "board_bad")),
    Page("stacking", 2, ("P7",), ("ring_rival_ok", "on_fief_bad", "own_ring_bad")),
    Page("castles", 2, ("P8",), ("castle_ok", "castle_bad")),
    Page("barriers", 2, ("P9",), ("barrier_ok", "barrier_bad")),
    Page("rotation", 2, ("P10",), ("rotations",)),
    Page("wedding", 3, ("W1", "W2", "W3", "W4", "W5", "W6"), ("wedding_ok", "wedding_bad")),
    Page("sites", 4, ("X1",), ("sites",)),
    Page("league", 4, ("X2",), ("league",)),
    Page("donation", 4, ("X3",)),
    Page("gonzaga", 4, ("X4",), ("group",)),
    Page("objective", 4, ("X5",), ("objective_table",)),
    Page("winner", 4, ("X6",)),
    Page("end", 5, ("E1", "E2", "E3")),
    Page("controls", 6),
)

BY_ID = {p.id: p for p in PAGES}

# a refusal's rule id -> the page that explains it (ids the rules can refuse with)
_RULE_PAGE = {
    "S1": "goal", "S2": "goal", "S3": "plan", "S4": "end", "S5": "objective",
    "R1": "fief", "R2": "plan", "R3": "plan", "R4": "order", "R5": "turn", "R6": "turn",
    "P1": "region", "P2": "actions", "P3": "actions", "P4": "actions", "P5": "actions", "P6": "board",
    "P7": "stacking", "P8": "castles", "P9": "barriers", "P10": "rotation",
    "W1": "wedding", "W2": "wedding", "W3": "wedding", "W4": "wedding", "W5": "wedding", "W6": "wedding",
    "K1": "king", "K2": "king", "K3": "king", "K4": "king",
    "X1": "sites", "X2": "league", "X3": "donation", "X4": "gonzaga", "X5": "objective", "X6": "winner",
    "E1": "end", "E2": "end", "E3": "end",
}


def page_for_rule(rule: str) -> str:
    """The page of rule ``rule`` (a refusal's id); the first page for an unknown id."""
    return _RULE_PAGE.get(rule, PAGES[0].id)


# ---------------------------------------------------------------- the text, from rules_text

def _expand(group: str) -> set[str]:
    """'K1-K4' -> {K1, K2, K3, K4}; 'R3, R4' -> {R3, R4}."""
    out = set()
    for part in group.split(","):
        part = part.strip()
        if "-" in part:
            a, b = (x.strip() for x in part.split("-"))
            if a[0] == b[0]:
                out |= {f"{a[0]}{n}" for n in range(int(a[1:]), int(b[1:]) + 1)}
        elif part:
            out.add(part)
    return out


def _ids_and_clean(sentence: str) -> tuple[set[str], str]:
    """The rule ids a sentence names and the sentence without them."""
    ids: set[str] = set()

    def drop(m: re.Match[str]) -> str:
        inner: str = m.group(1)
        whole: str = m.group(0)  # typeshed: a group may be None (or Any); these two always match
        parts = [p.strip() for p in inner.split(";")]
        kept = []
        for p in parts:
            if _ID_GROUP.match(p):
                ids.update(_expand(p))
            else:
                kept.append(p)
        if len(kept) == len(parts):
            return whole
        return f" ({'; '.join(kept)})" if kept else ""

    clean = _PAREN.sub(drop, sentence)
    clean = re.sub(r"\s+([,;:.])", r"\1", clean).strip()
    return ids, clean


def _sentences(paragraph: str) -> list[str]:
    paragraph = re.sub(r"^\d+\.\s+", "", paragraph.strip())  # "1. Take your fief": the list number
    return [s for s in re.split(r"(?<=[.!?])\s+(?=[A-ZÀ-ÖØ-Þ0-9])", paragraph) if s]


@lru_cache(maxsize=4)
def sections(lang: str) -> tuple[tuple[str, tuple[tuple[tuple[tuple[str, ...], str], ...], ...]], ...]:
    """((heading, paragraphs), ...): every paragraph a tuple of (ids, clean sentence). A sentence
    without an id takes the ids of the sentence before it in its paragraph (else the next one's)."""
    out = []
    heading: str | None = None
    paras: list[tuple[tuple[tuple[str, ...], str], ...]] = []
    for line in rules_text.text(lang).strip().splitlines():
        if line.startswith("# "):
            if heading is not None:
                out.append((heading, tuple(paras)))
            heading, paras = line[2:].strip(), []
        elif line.strip():
            tagged = [_ids_and_clean(s) for s in _sentences(line)]
            ids = [set(i) for i, _ in tagged]
            for k in range(len(ids)):  # inherit from the sentence before
                if not ids[k] and k > 0:
                    ids[k] = set(ids[k - 1])
            for k in range(len(ids) - 1, -1, -1):  # leading sentences: from the next one
                if not ids[k] and k + 1 < len(ids):
                    ids[k] = set(ids[k + 1])
            paras.append(tuple((tuple(sorted(i)), c) for i, (_, c) in zip(ids, tagged)))
    if heading is not None:
        out.append((heading, tuple(paras)))
    return tuple(out)


def page_text(page_id: str, lang: str) -> list[str]:
    """The paragraphs of a page in ``lang``: its rules' sentences, ids removed."""
    page = BY_ID[page_id]
    secs = sections(lang)
    if page.section >= len(secs):
        return []
    _, paras = secs[page.section]
    want = set(page.rules)
    out = []
    for para in paras:
        kept = [c for ids, c in para if not want or want & set(ids)]
        if kept:
            out.append(" ".join(kept))
    return out


def search(query: str, lang: str, title: Callable[[Page], str] = lambda p: p.id) -> list[str]:
    """Page ids whose title or text contains every word of ``query`` (case and accents aside),
    the pages whose title has them first."""
    words = [_fold(w) for w in query.split() if w.strip()]
    if not words:
        return [p.id for p in PAGES]
    by_title, by_text = [], []
    for p in PAGES:
        head = _fold(title(p))
        if all(w in head for w in words):
            by_title.append(p.id)
        elif all(w in head + " " + _fold(" ".join(page_text(p.id, lang))) for w in words):
            by_text.append(p.id)
    return by_title + by_text


def _fold(s: str) -> str:
    return "".join(c for c in unicodedata.normalize("NFD", s.lower()) if not unicodedata.combining(c))
