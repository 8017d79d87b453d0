"""The games in progress (issue 45): each desktop game keeps its own autosave, one file per
game in ``persistence.autosaves_dir()`` (``saves/in-progress/<date>-<time>-<random>.json``),
written atomically after every change like every save. "Continue" lists the games whose file
reads and is not over, newest first; New game never writes over another game's file; a game
that ends is kept with the finished games and leaves this list (``retire``); deleting one is
the player's choice, asked first on the screen.

The single ``saves/autosave.json`` of older versions is moved here, bytes unchanged, the first
time the list is read (``migrate_legacy``): nothing is lost.
"""
from __future__ import annotations

import logging
import os
from pathlib import Path
from typing import Optional

from ..rules import Content
from . import persistence as P
from .persistence import SaveError, SaveInfo

log = logging.getLogger(__name__)


def migrate_legacy() -> Optional[Path]:
    """Move an older version's one autosave into the games in progress (a rename: the same
    bytes, named after the time it was last written); its new path, or None when there was none
    or it could not be moved (then it stays where it was and is tried again next time)."""
    old = P.legacy_autosave_path()
    try:
        st = old.lstat()
    except OSError:
        return None
    target = P.new_autosave_path(st.st_mtime)
    try:
        os.replace(old, target)
    except OSError as e:
        log.warning("could not move the old autosave %s: %s", old, e)
        return None
    P.fsync_dir(target.parent)
    P.fsync_dir(old.parent)
    log.info("the old autosave %s is now the game in progress %s", old, target.name)
    return target


def _going(ls: P.LoadedSave) -> bool:
    return ls.state.phase != "over"


Known = dict[str, tuple[tuple[int, int, int], Optional[SaveInfo]]]  # path -> (its stat, its line or None: over)


def list_in_progress(content: Optional[Content] = None,
                     known: Optional[Known] = None) -> tuple[list[SaveInfo], list[SaveError]]:
    """The games in progress, newest first (the one played last), and the errors of the autosaves
    that cannot be read (each moved aside, ``<file>.damaged-<time>``, so it is reported once).
    One bad file never hides the others.

    ``known`` (kept by the caller between calls) spares reading again a file that has not
    changed since (same size, time and inode: every write replaces the file): reading one
    replays its whole game, some 50 ms for a four-seat game in round 8."""
    migrate_legacy()
    folder = P.autosaves_dir()
    P.clean_stale_temps(folder)
    known = {} if known is None else known
    entries = P.save_entries(folder)
    old = P.legacy_autosave_path()
    if os.path.lexists(old):  # it could not be moved (a read-only folder): listed where it is
        entries.append(old)
    good: list[SaveInfo] = []
    bad: list[SaveError] = []
    for p in entries:
        try:
            st = os.lstat(p)
            stamp: Optional[tuple[int, int, int]] = (st.st_mtime_ns, st.st_size, st.st_ino)
        except OSError:
            stamp = None
        hit = known.get(str(p))
        if stamp is not None and hit is not None and hit[0] == stamp:
            if hit[1] is not None:
                good.append(hit[1])
            continue
        ls = P.load_listed(p, content, bad)
        if ls is None:
            continue
        info = P.save_info(p, ls) if _going(ls) else None
        if stamp is not None:
            known[str(p)] = (stamp, info)
        if info is not None:
            good.append(info)
    return good, bad


def _check_own(path: Path) -> Path:
    path = Path(path)
    if path.parent.resolve() != P.autosaves_dir().resolve() or path.suffix != ".json":
        raise ValueError(f"not the autosave of a game in progress: {path}")
    return path


def delete(path: Path) -> None:
    """Delete a game in progress (the player asked, and said yes); only a file of
    ``autosaves_dir()``. Raises SaveWriteError (its text is for the player) when it cannot."""
    path = _check_own(path)
    P.remove_durably(path)


def retire(path: Optional[Path]) -> bool:
    """A finished game, once kept with the finished games, leaves the games in progress: its
    autosave is removed when it holds a game that is over. False when nothing was removed."""
    if path is None or not P.is_autosave_file(path) or path.name == P.AUTOSAVE:
        return False
    try:
        if P.read_save(path).state.phase != "over":
            return False
        delete(path)
    except (SaveError, OSError, ValueError) as e:
        log.warning("finished game's autosave %s not removed: %s", path, e)
        return False
    return True
