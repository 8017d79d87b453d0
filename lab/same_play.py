"""Record or check the action lists of seeded games between the shipped bots.

    python lab/same_play.py record OUT.json
    python lab/same_play.py check OUT.json

Plays a fixed set of seeded games (``match.play_game``, the engine of ``gonzaga simulate``)
between the shipped levels on pinned budgets (``expert@N``, ``hard@N``: a pinned budget makes
a search reproducible) and keeps, per game, a digest of its every action and the final scores.
``check`` plays them again and names the games that differ: a change meant to leave the
shipped levels' play alone (a refactoring, a removed experiment knob) must report none.
"""
from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from gonzaga.ai.match import play_game  # noqa: E402

GAMES = [  # (bots, seed)
    (("expert@24", "hard@8"), 101),
    (("hard@8", "expert@120"), 102),
    (("expert@24", "medium", "easy"), 103),
    (("medium", "expert@60", "hard@8"), 104),
    (("expert@24", "hard@8", "medium", "easy"), 105),
    (("easy", "medium", "hard@8", "expert@40"), 106),
    (("expert@16", "expert@32", "greedy", "random"), 107),
    (("expert@400", "hard@38"), 108),
    (("hard@38", "expert@250", "hard@38", "medium"), 109),
]


def play_all() -> dict[str, dict]:
    out = {}
    for bots, seed in GAMES:
        res = play_game(list(bots), seed)
        text = "\n".join(repr(a) for a in res.record.actions)
        key = f"{','.join(bots)}/{seed}"
        out[key] = {"actions": len(res.record.actions),
                    "digest": hashlib.sha256(text.encode()).hexdigest()[:16],
                    "scores": list(res.state.scores())}
        print(key, out[key], flush=True)
    return out


def main(argv: list[str]) -> int:
    if len(argv) != 2 or argv[0] not in ("record", "check"):
        print("usage:\n" + "\n".join(__doc__.strip().splitlines()[2:4]), file=sys.stderr)
        return 2
    path = Path(argv[1])
    if argv[0] == "record":
        path.write_text(json.dumps(play_all(), indent=1) + "\n")
        return 0
    want = json.loads(path.read_text())
    got = play_all()
    bad = [k for k in want if want[k] != got.get(k)]
    print("identical" if not bad else f"differ: {', '.join(bad)}")
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
