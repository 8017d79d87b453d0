"""Finished games kept to be watched again (the load screen's second list): kept once per game
(named after its final digest), listed newest first, deleted when the player asks. The files are
saves like any other (``persistence.save_game``), in ``persistence.finished_dir()``."""
from __future__ import annotations

import os
from pathlib import Path
from typing import Optional

from ..rules import Content
from ..rules.record import digest
from ..ai.review_result import record_digest
from . import persistence as P
from .reviews import delete_reviews
from .persistence import SaveError, SaveInfo, Saveable


def keep_finished(session: Saveable) -> Optional[Path]:
    """Keep a finished game in ``finished_dir()`` to be watched again (written atomically, like
    every save). The file is named after the game's final digest, so the same game is kept once
    however often it ends on screen (a finished save opened again). None when the game is not
    over; raises SaveWriteError when it cannot be written."""
    st = session.state
    if st.phase != "over":
        return None
    path = P.finished_dir() / f"finished-{digest(st)}.json"
    if os.path.lexists(path):
        return path
    return P.save_game(session, path)


def list_finished(content: Optional[Content] = None) -> tuple[list[SaveInfo], list[SaveError]]:
    """The finished games kept, newest first (by the date they ended), and the bad files (moved aside)."""
    good, bad = P.list_saves(P.finished_dir(), content)
    good.sort(key=lambda i: i.saved_at, reverse=True)
    return good, bad


def delete_finished(path: Path) -> None:
    """Delete a kept finished game (the player asked); only a file of the finished games' folder.
    Raises SaveWriteError when it cannot be deleted."""
    path = Path(path)
    if path.parent.resolve() != P.finished_dir().resolve() or not path.name.endswith(".json"):
        raise ValueError(f"not a kept finished game: {path}")
    try:  # its post-game reviews go with it (issue 48)
        delete_reviews(record_digest(P.read_save(path).record))
    except (P.SaveError, OSError):
        pass
    P.remove_durably(path)
