"""A game's record watched move by move (the replay viewer's data: ``scenes/replay_view.py``
shows it through a :class:`~gonzaga.table.seatview.ReplayFace`). All the states are computed
once when it opens, ``history.states`` (a whole game takes a few milliseconds). What it shows is
public unless the game is over and the watcher asks for every secret (``show_all``).
"""
from __future__ import annotations

from pathlib import Path
from typing import Optional

from ..rules import Action, GameRecord, GameState
from ..rules.content import Content
from ..rules.legality import Illegal
from ..words import formats, i18n
from . import history, persistence
from .seats import SeatSpec
from .seatview import GameFace
from .session import Session


class ReplaySession(Session):
    """A game's record as a session that never plays; ``seek(n)`` shows it after n actions."""

    def __init__(self, seats: list[SeatSpec], record: GameRecord, content: Optional[Content] = None,
                 name: str = ""):
        self._marks: list[int] = []  # len(log) after each action
        super().__init__(seats, record, content=content, worker=None, name=name)
        self.full_log = list(self.log)
        self.states = history.states(self.record, self.state.content)
        self.log_len = [0] + self._marks
        self.finished = self.states[-1].phase == "over"
        self.show_all = False
        self._public: dict[int, GameState] = {}
        self.step = 0
        self.seek(self.first_step)

    def _apply(self, action: Action, notify: bool = True) -> None:
        super()._apply(action, notify)
        self._marks.append(len(self.log))

    @property
    def n_steps(self) -> int:
        return len(self.states) - 1

    @property
    def first_step(self) -> int:
        return 1 if self.n_steps >= 1 else 0  # step 0 is the empty table before the deal

    def state_at(self, n: int) -> GameState:
        """The state shown at step ``n``: every secret only for a finished game shown in full."""
        if self.show_all and self.finished:
            return self.states[n]
        st = self._public.get(n)
        if st is None:
            st = self._public[n] = history.public_state(self.states[n])
        return st

    def seek(self, n: int) -> None:
        n = max(self.first_step, min(self.n_steps, n))
        self.step = n
        self.state = self.state_at(n)
        self.log = self.full_log[: self.log_len[n]]
        self.last_action = self.record.actions[n - 1] if n > 0 else None
        self.version += 1

    def step_lines(self, n: Optional[int] = None) -> list[str]:
        """What happened at step ``n``, in words (the log lines that move added)."""
        n = self.step if n is None else n
        if n <= 0:
            return []
        return [e.text() for e in self.full_log[self.log_len[n - 1]: self.log_len[n]]]

    def round_starts(self) -> dict[int, int]:
        """The first step of each round."""
        out: dict[int, int] = {}
        for n, st in enumerate(self.states):
            if n >= self.first_step and st.round >= 1 and st.round not in out:
                out[st.round] = n
        return out

    def tick(self, now: Optional[float] = None) -> bool:  # never plays
        return False

    def view_for(self, seat: Optional[int] = None) -> GameState:
        """The step shown (public, or in full for a finished game shown in full), for every seat."""
        return self.state

    # A viewer is watched, never played: the game screen under it must not change the record
    # (an action or a take-back would leave ``states`` behind the record).
    def is_human(self, seat: int) -> bool:
        return False

    def submit(self, action: Action) -> Optional[Illegal]:
        return Illegal.of("R5", "replay")

    def rewind(self, n: int) -> None:
        raise ValueError("a replay is watched, not played")


class ReplayFace(GameFace):
    """A game watched move by move: the same face, with the controls of a replay. What it shows
    is public unless the game is over and the watcher asks for every secret (``show_all``)."""

    def __init__(self, rs: ReplaySession):
        super().__init__(rs)
        self.__rs = rs

    @property
    def step(self) -> int:
        return self.__rs.step

    @property
    def first_step(self) -> int:
        return self.__rs.first_step

    @property
    def n_steps(self) -> int:
        return self.__rs.n_steps

    @property
    def finished(self) -> bool:
        return self.__rs.finished

    @property
    def show_all(self) -> bool:
        return self.__rs.show_all

    @show_all.setter
    def show_all(self, on: bool) -> None:
        self.__rs.show_all = on and self.__rs.finished

    def seek(self, n: int) -> None:
        self.__rs.seek(n)

    def shown(self) -> GameState:
        """The step shown (public, or in full for a finished game shown in full)."""
        return self.__rs.state

    def step_lines(self, n: Optional[int] = None) -> list[str]:
        return self.__rs.step_lines(n)

    def round_starts(self) -> dict[int, int]:
        return self.__rs.round_starts()

    def _shown(self, seat: Optional[int]) -> GameState:
        return self.__rs.state

    def finished_record(self) -> GameRecord:
        """The whole record of the game watched, once that game is over (whatever step is shown)."""
        if not self.__rs.finished:
            raise LookupError("the record is shown only once the game is over")
        return self.__rs.record


def replay_of(face: GameFace) -> ReplayFace:
    """A finished game watched again: only once it is over (then the whole record is public)."""
    record = face.finished_record()  # raises while the game goes on
    return ReplayFace(ReplaySession(list(face.seats), record, face.public().content, face.name))


def finished_of_save(path: Path, content: Optional[Content]) -> Optional[tuple[GameRecord, list[SeatSpec], Content]]:
    """A finished game's record, seats and board from its save file (the post-game review), or
    None when the game it holds is not over; raises ``persistence.SaveError`` for a file that
    cannot be read. The file is only read."""
    ls = persistence.read_save(Path(path), content)
    if ls.state.phase != "over":
        return None
    return ls.record, list(ls.seats), ls.state.content


def replay_of_save(path: Path, content: Optional[Content]) -> tuple[ReplayFace, str]:
    """A save file (a finished game, a named save, an autosave) to watch, and its title; raises
    ``persistence.SaveError`` for a file that cannot be read. The file is only read."""
    ls = persistence.read_save(Path(path), content)
    rs = ReplaySession(ls.seats, ls.record, ls.state.content, ls.model.name)  # the board it was played on
    return ReplayFace(rs), file_title(ls)


def file_title(ls: persistence.LoadedSave) -> str:
    """A save's game as a player knows it: its name, else its seats and when it was saved (a
    finished game's or an autosave's file is named after a digest or a number, no title)."""
    if ls.model.name:
        return ls.model.name
    return i18n.t("replay.untitled", seats=", ".join(s.name for s in ls.model.seats),
                  when=formats.saved_when(ls.model.saved_at))
