"""Rewrite the golden files in tests/golden/ after an intended change to the rules or the map.

    .venv/bin/python tools/regen_golden.py

Review the diff (git diff tests/golden) before committing: every changed line is a
changed rule outcome.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from golden_cases import GOLDEN_GAMES, PERFT_POSITIONS, perft_counts, golden_game_text  # noqa: E402


def main() -> int:
    out = ROOT / "tests" / "golden"
    out.mkdir(exist_ok=True)
    for name, (bots, seed) in GOLDEN_GAMES.items():
        (out / f"{name}.txt").write_text(golden_game_text(bots, seed))
    perft = {name: perft_counts(*spec) for name, spec in PERFT_POSITIONS.items()}
    (out / "perft.json").write_text(json.dumps(perft, indent=1, sort_keys=True) + "\n")
    print(f"wrote {len(GOLDEN_GAMES)} games and {len(perft)} perft positions to {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
