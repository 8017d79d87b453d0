"""Two figures of ``gonzaga netplay-check`` (issue 39): whether a game's hidden setup shows up
anywhere a client or an operator can read, and what the nesting check of a message costs.

``secret_strings`` reads the stopped server's store: each game's seed and the deck order of its
setup (the first cards of each deck, dotted as only ``Setup.to_text`` writes them, and the
``decks=`` of that text). ``scan`` then looks for them in every file of the check's folder that
a client received (the bots' message logs) or that the server wrote (its log file, at debug
level, and its stderr). The seed of a game online only seeds its AI seats; the setup is dealt
from the system's randomness, and neither may be sent or logged.
"""
from __future__ import annotations

import json
import time
from pathlib import Path

from .storage import open_store
from .wire_bytes import MAX_CLIENT_BYTES, too_deep

DECK_PREFIX = 8  # the first cards of a deck, in order: nothing else writes them so


def secret_strings(data: Path) -> dict[str, str]:
    """What must never be seen: {text: which game's secret it is}."""
    store = open_store(data)
    try:
        games = store.load_games()
    finally:
        store.close()
    out: dict[str, str] = {}
    for g in games:
        out[str(g.seed)] = f"the seed of game {g.id}"
        if g.actions and g.actions[0].startswith("setup "):
            decks = g.actions[0].split("decks=", 1)[1].split(" ", 1)[0]
            out["decks=" + decks[:40]] = f"the setup of game {g.id}"
            for k, deck in enumerate(decks.split("|")):
                cards = deck.split(".")[:DECK_PREFIX]
                if len(cards) == DECK_PREFIX:
                    out[".".join(cards)] = f"deck {k} of game {g.id}"
    return out


def scan(folder: Path, secrets: dict[str, str]) -> tuple[int, int, list[str]]:
    """(files read, bytes read, what was found where) over the check's folder."""
    found: list[str] = []
    files = nbytes = 0
    paths = [p for p in sorted(folder.rglob("*")) if p.is_file() and (
        p.suffix in (".jsonl", ".stderr") or ".log" in p.name)]
    for p in paths:
        text = p.read_text(encoding="utf-8", errors="replace")
        files += 1
        nbytes += len(text)
        for s, what in secrets.items():
            if len(s) >= 6 and s in text:
                found.append(f"{what} in {p.name}")
    return files, nbytes, found


def nesting_cost_us() -> dict[str, float]:
    """Microseconds ``protocol.parse_client``'s nesting check takes for 16 KiB messages of the
    shapes that cost it most (the best of 50 runs each)."""
    shapes = {
        "wide": '{"v":2,"type":"ping","x":[' + ",".join(["[]"] * 6000) + "]}",
        "deep": '{"v":2,"type":"ping","x":' + "[" * 8000 + "]" * 8000 + "}",
        "strings": '{"v":2,"type":"ping","x":[' + ",".join(['""'] * 6000) + "]}",
        "escapes": '{"v":2,"type":"ping","x":"' + '\\"' * 8000 + '"}',
        "six_deep": '{"v":2,"type":"ping","x":[' + ",".join(["[[[[[]]]]]"] * 1600) + "]}",
    }
    out = {}
    for name, text in shapes.items():
        data = text.encode()[:MAX_CLIENT_BYTES]
        best = float("inf")
        for _ in range(50):
            t = time.perf_counter()
            too_deep(data)
            best = min(best, time.perf_counter() - t)
        out[name] = round(best * 1e6, 1)
    return out


def describe(found: list[str]) -> str:
    return json.dumps(found[:3])
