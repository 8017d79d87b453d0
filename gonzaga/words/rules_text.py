"""The rules in short, for the in-game viewer and the rules reference ("#" starts a heading).
Ids as in docs/rules.md.

The English is here; every other language is in the catalog (``locale/<lang>/LC_MESSAGES/
gonzaga.po``), one entry per line of the text: ``rules.<section>.0`` its heading,
``rules.<section>.<n>`` its paragraphs. The wording is the project's own (issue 41: no run of
twelve words from the printed rulebooks, ``tests/test_own_words.py``) but the terms are the
rulebook's: fief / feudo, city / città, harbor / porto, sea league / Lega Navale,
wedding / Matrimonio, ring / anello, King's Privilege / Privilegio del Re, barrier / confine
invalicabile, flourishing / fiorente, Last Turn card / carta Ultimo Turno, Gonzaga tile /
tessera bonus Gonzaga, hidden objective card / carta Città Segrete.
"""
from __future__ import annotations

from functools import lru_cache

from . import catalog

EN = """# Goal
Score points by covering cities and harbors with your fiefs, by forming sea leagues and by donating to the church. At the end, the seat with the most connected fiefs takes the Gonzaga tile (15 points), and you score a bonus for the cities of your hidden objective card that you hold.
# A round
1. Take your fief (R1): every seat turns up the top card of its fief deck. The card's number is public: the fief's number plus the seat's colour digit (red 1, yellow 2, blue 3, green 4), so fief 50 is card 51, 52, 53 or 54.
2. Plan your move (R2): in secret, choose one region card (one for each flourishing region, and Inactive Regions for all the inactive ones) and one action card. Cards you played last round are not available (shown greyed). If you have a ring left, you may add the King's Privilege: you still choose one of the other action cards (Harbors, Cities or Alliance), which says how you place; the King's Privilege costs a ring at the reveal, and neither card can be played in the next round (K1-K4).
3. Reveal and turn order (R3, R4): all plans are shown at once. Seats with the King's Privilege play first, then Harbors, then Cities, then Alliance. The King's Privilege makes a seat play first only among seats without it: seats that both played it are ordered among themselves by their other action card (Harbors, then Cities, then Alliance), and only then by the lower fief card number. Seats without it that played the same action card go by the lower fief card number.
4. Place your fief (R5, R6): in turn order, place your fief, hold a wedding (Alliance only), or donate the fief to the church for 3 points. A donation is always allowed, even when the fief could be placed; rings cannot be donated. The fief card then leaves the game.
# Placing a fief
At least one land hex of the fief in the planned region (P1); with the Inactive Regions card, in any inactive region. The rest of the fief may reach into other regions and the sea. Harbors: at least one harbor and no city (P2). Cities: at least one city and no harbor, or only empty hexes (P3). Alliance: at least one city and at least one harbor (P4). Every city or harbor under the fief counts as covered, in any region, even one that a rival's ring already holds (P5). Every hex on the map, land or sea (P6). Never on another fief; a rival's ring may be under it (the ring goes back on top), your own ring may not (P7). Castles on land hexes (P8). No fief may straddle a barrier (P9); but two fiefs that touch across a barrier are still connected. Rotate freely; never flip (P10).
# Weddings
With the Alliance card you may hold a wedding instead of placing your fief: the round's fief is discarded and scores nothing (W1). Put one ring from your player board on a hex of the planned region (W2; with the Inactive Regions card, of any inactive region) and, if you like, a second ring on a hex next to the first: land or sea, any region, even across a barrier (W3). A ring may go on an empty hex or on a rival's fief, never on your own fief or on a hex that already has a ring (W4). Each ring counts as one fief: it scores the city or harbor under it and counts for sea leagues, your objective and the Gonzaga tile (W5). Each ring placed needs a ring in supply (W6). Rings are never recovered; rings left at the end score nothing.
# Scoring
Each city or harbor covered by the fief or ring you place: 3 points in a flourishing region, 1 in an inactive region (X1), also when a rival's ring already holds it. Sea league: the first time you hold 3 harbors of one sea, 10 points; one sea league per sea, a 4th harbor scores nothing more, and the harbors need not be connected (X2). Donation to the church: 3 points (X3).
At the end, the Gonzaga tile: 15 points to the seat with the most connected fiefs, and every tied seat scores it. Each ring counts as one fief, and barriers do not break a dominion: pieces that share a hex side are connected even across a barrier (X4). Your hidden objective card: 0, 1, 2, 3, 4, 5 or 6 of its six cities held score 0, 2, 5, 10, 15, 25 or 35 points; the cities need not be connected (X5). The highest total wins; a tie goes to the seat holding the most cities and harbors, and if still tied the victory is shared (X6).
# The end
At the end of round 6 and of every later round, the seat with the Last Turn card on top of its fief deck counts the cities and harbors of the flourishing regions that nobody holds: three or fewer, the next round is the last; four or more, the card goes under the next fief card and the count is made again at the end of the next round (E1). If the fief decks run out first, the game ends with that round: at most 12 rounds (E2). Then the Gonzaga tile and the objectives are scored, and the highest total wins (E3).
# Controls
Drag your fief from the panel onto the map. Mouse wheel, R/E or right click rotate. Arrows move it, Enter or Confirm places it, Esc cancels. Highlighted hexes: where the fief's anchor can go with this rotation (faint: with another rotation). F11 full screen, F12 screenshot.
Take back (Ctrl+Z) undoes your own latest plan until the plans are revealed, and your own latest placement, wedding or donation until you confirm your plan of the next round. Only in a game with one human: with several players at one screen the computer cannot tell who sits at it, so a take-back could undo another player's secret plan or a move everyone has seen; hot-seat and online games have no take-backs.
"""



def entries(english: str = EN) -> list[tuple[str, str]]:
    """(key, line) of every heading and paragraph of the text, in order."""
    out, section, para = [], -1, 0
    for line in english.strip().splitlines():
        if not line.strip():
            continue
        if line.startswith("# "):
            section, para = section + 1, 0
        else:
            para += 1
        out.append((f"rules.{section}.{para}", line))
    return out


@lru_cache(maxsize=8)
def text(lang: str) -> str:
    """The rules text in ``lang``: every line from the language's catalog, else in English."""
    if lang == "en":
        return EN
    words = catalog.load(lang)
    return "\n".join(words.get(k) or line for k, line in entries()) + "\n"


def __getattr__(name: str) -> str:
    if name == "IT":  # the Italian text, as ``rules_text.IT``
        return text("it")
    raise AttributeError(name)
