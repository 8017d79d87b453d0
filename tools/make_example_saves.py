"""Write the current-format example saves in ``saves/`` (the tests load and replay every one).

    .venv/bin/python tools/make_example_saves.py

The version 1 examples (``saves/v1-*.json``) are never rewritten: they are what older
programs wrote, kept to prove that old saves still load. This makes the ``v2-*`` ones:

- ``v2-solo-round4-placing.json``: one human and two AI seats, the human to place in round 4;
- ``v2-legacy-numbering-round7.json``: a game kept on the old card numbering by the upgrade
  (config ``numbering: "v1"``) because a green-blue tie decided a turn order, resumable.

Games are played by seeded bots, so the files are the same on every run but for ``saved_at``.
"""
from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from gonzaga.table import persistence  # noqa: E402
from gonzaga.ai import make_bot  # noqa: E402
from gonzaga.ai.match import bot_seed  # noqa: E402
from gonzaga.rules import GameConfig, GameRecord, apply, deal, load_content, new_game, view  # noqa: E402
from gonzaga.rules.record import _replay  # noqa: E402
from gonzaga.table.session import SeatSpec, Session  # noqa: E402

import random  # noqa: E402


def play(seats: list[SeatSpec], seed: int, stop, numbering: str = "printed") -> GameRecord:
    """Play seeded bots (a human seat plays as ``greedy``) until ``stop(state)`` is true."""
    content = load_content()
    cfg = GameConfig(seats=len(seats), colours=tuple(s.colour for s in seats), numbering=numbering)
    st = new_game(cfg, content)
    actions = [deal(st, random.Random(seed))]
    st = apply(st, actions[0])
    bots = [make_bot(s.bot if s.kind == "ai" else "greedy", bot_seed(seed, i)) for i, s in enumerate(seats)]
    while not st.is_over and not stop(st):
        seat = st.to_act()[0]
        a = bots[seat].choose(view(st, seat), seat)
        st = apply(st, a)
        actions.append(a)
    return GameRecord(cfg, seed, actions, content.map_id)


def order_depends_on_numbering(rec: GameRecord) -> bool:
    from dataclasses import replace
    content = load_content()
    a, b = [], []
    try:
        _replay(rec, content, trace=a)
        _replay(replace(rec, config=replace(rec.config, numbering="printed")), content, trace=b)
    except Exception:
        return True
    return a != b


def write(name: str, title: str, seats: list[SeatSpec], rec: GameRecord) -> Path:
    session = Session(seats, rec, name=title)
    path = ROOT / "saves" / name
    persistence.save_game(session, path, title)
    print(f"{path.relative_to(ROOT)}: round {session.state.round}, {session.state.phase}, "
          f"numbering {rec.config.numbering}")
    return path


def main() -> None:
    solo = [SeatSpec("Isabella", "human", "greedy", "red"), SeatSpec("Sforza AI", "ai", "medium", "blue"),
            SeatSpec("Este AI", "ai", "easy", "green")]
    rec = play(solo, 2024, lambda st: st.round == 4 and st.phase == "place" and st.to_act() == (0,))
    write("v2-solo-round4-placing.json", "Solo, round 4", solo, rec)

    four = [SeatSpec("Verde", "human", "greedy", "green"), SeatSpec("Blu", "human", "greedy", "blue"),
            SeatSpec("Rosso AI", "ai", "greedy", "red"), SeatSpec("Giallo AI", "ai", "greedy", "yellow")]
    for seed in range(1, 200):
        rec = play(four, seed, lambda st: st.round == 7 and st.phase == "plan", numbering="v1")
        if order_depends_on_numbering(rec):
            write("v2-legacy-numbering-round7.json", f"Old numbering (seed {seed})", four, rec)
            break
    else:
        raise SystemExit("no seed gave a turn order decided by the old numbering")


if __name__ == "__main__":
    main()
