"""The replay viewer: a finished game, a named save or the autosave, move by move.

The viewer is the game screen (the same map, seat panel, turn order and log, drawn by
``GameScene``) with the replay's controls (``replay_bar.py``) over a replay's face (``table/replay.py``: a game that never plays but can be set
to the state after any number of its record's actions; the screen never holds the record). Controls: start, back,
play/pause at a speed, forward, end; a round strip; a bar to click or drag to any move; keys:
Left/Right one move, Page Up/Down one round, Home/End, Space play/pause, Esc close.

What it shows is public unless the game is over and the player asks for more: before the end,
every seat's objective, the order of every deck and every plan before its reveal are hidden
(``history.public_state``), exactly as at the table; for a finished game a toggle shows every
plan and objective at every move.
"""
from __future__ import annotations

import logging
import sys
from pathlib import Path

import pygame

from ..table import persistence
from ..table.replay import ReplayFace, replay_of, replay_of_save
from ..words import i18n
from .base import Scene
from .dialogs import MessageScene
from .game import GameScene
from .replay_bar import ReplayBar

log = logging.getLogger(__name__)

class ReplayScene(GameScene):
    """The viewer: the game screen of a replay's face (``table/replay.py``) with the replay's
    controls (``replay_bar.ReplayBar``) in place of the live game's."""

    name = "replay"
    blocks_ai = True

    def __init__(self, app, rs: ReplayFace, title: str = ""):
        super().__init__(app, rs)
        self.rs = rs
        self.feedback.record_stats = False
        self.feedback.watch_ui = False
        self.assist.enabled = False  # no hint and no take-back in a replay
        self.controls: ReplayBar = ReplayBar(rs, title, self.widgets, lambda: self.bottom_rect, lambda: self.board_rect,
                                  lambda: self.app.size[0], self.close, lambda: self.app.stack.push("review", rs),
                                  self.feedback.reset, lambda: self.app.stack.top is self)

    @classmethod
    def for_session(cls, app, face) -> "ReplayScene":
        """The finished game of a game screen's face, watched again."""
        return cls(app, replay_of(face), face.name)

    def help_rect(self) -> pygame.Rect:
        """Where the rules reference's "?" goes (scenes/base.py): the replay bar's top right corner."""
        return self.controls.help_rect()

    def help_page(self) -> str:
        return "controls"

    def close(self) -> None:
        if self in self.app.stack.scenes:
            self.app.stack.pop(self)


def replay_scene_for_file(app, path: Path) -> Scene:
    """The viewer on a save file (a finished game, a named save, the autosave), or, for a file
    that cannot be read, a message saying why. The file is only read, never moved."""
    try:
        rs, name = replay_of_save(Path(path), app.content)
    except persistence.SaveError as e:
        msg = e.report() if hasattr(e, "report") else str(e)
        log.warning("cannot watch %s: %s", path, msg)
        try:
            print(f"gonzaga: {msg}", file=sys.stderr, flush=True)
        except (OSError, ValueError):
            pass
        return MessageScene(app, i18n.t("replay.heading_plain"), msg)
    return ReplayScene(app, rs, name)
