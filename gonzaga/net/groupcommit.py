"""Grouped commits (issue 47): many games' actions share one commit and one fsync, and the event
loop never waits on the disk.

``GroupCommit`` wraps the server's ``GameStore``. One writer thread owns it: every call goes
through one queue, in order. ``append_soon`` returns at once with a number (its ``seq``); the
thread takes every append waiting in the queue, stores them with the store's ``append_actions``
(one transaction; SQLite: one WAL fsync and one fsync of the acknowledgement log for the batch)
and then tells the event loop, which raises ``durable`` to the batch's last number. A message
to a game's connection sent after the game's last append is held until ``durable`` reaches it
(``rooms.Conn``): nobody is told of an action that is not on disk, and the other games' messages
do not wait for it.

A batch that fails is refused as a whole or, when the store can tell, action by action
(``GameStore.append_actions``); ``on_lost`` hears of every action refused (on the loop, before
``durable`` moves past it), so the server can drop what it had told nobody yet and reload those
games from the store. The other calls (a new game, seats, reads) wait for the queue in front of
them for their game (and the commit under way), so they see every append of it before them.
"""
from __future__ import annotations

import asyncio
import heapq
import logging
import threading
from collections import deque
from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import Any, Callable, Optional, Protocol, TypeVar

from .storage import GameStore, StoredGame, StoreError

log = logging.getLogger(__name__)

MAX_BATCH = 1000  # appends in one transaction (a bound on one commit's size and on its wait)
T = TypeVar("T")


class Holder(Protocol):
    """A connection that holds messages until the writes they follow are durable."""

    def release(self, durable: int) -> Optional[int]:
        """Send what ``durable`` covers; the write number the first message still held waits
        for, None when nothing is held any more."""


@dataclass
class Lost:
    """An append the store refused (nothing of it is on disk): its seq, game, index, text and
    ``owner`` (what the caller gave ``append_soon``, the room), and why."""

    seq: int
    game_id: str
    index: int
    text: str
    owner: Any
    error: StoreError
    epoch: Optional[int] = None  # the game's lease epoch it was queued at (several processes)


@dataclass
class _Append:
    seq: int
    game_id: str
    index: int
    text: str
    owner: Any
    epoch: Optional[int] = None


@dataclass
class _Call:
    fn: Callable[[], Any]
    future: Optional[Future[Any]] = field(default_factory=Future)  # None: nobody waits (``_later``)


class GroupCommit(GameStore):
    """The server's store behind one writer thread (see the module docstring). ``loop`` is the
    event loop that is told (``durable``, ``on_lost``, ``hold``); the other methods are the store's,
    blocking until the thread has done them (and everything queued before them).

    ``fence`` (several processes on PostgreSQL, ``leases_pg.py``): a game's lease epoch now, or
    None when this process does not hold it. Each append keeps the epoch it was queued at and
    the batch is written by the store's ``append_fenced``, which refuses alone a game whose lease
    was taken since (``LeaseLost``): a stale owner's action is never written, even when this
    process has taken the game back by the time the batch commits."""

    def __init__(self, store: GameStore, loop: asyncio.AbstractEventLoop,
                 on_lost: Optional[Callable[[list[Lost]], None]] = None, max_batch: int = MAX_BATCH,
                 fence: Optional[Callable[[str], Optional[int]]] = None):
        self.store, self.loop, self.on_lost, self.max_batch = store, loop, on_lost, max_batch
        self.fence = fence
        self._after: list[tuple[int, Callable[[], None]]] = []  # (seq, what to do once durable reaches it)
        self.issued = 0  # the last seq handed out (on the loop)
        self.durable = 0  # every append up to this seq is on disk or was refused (on the loop)
        self.batches = 0  # commits made (for the figures and the tests)
        # (the write its first held message waits for, a tie-breaker, the holder): a landed batch
        # releases only the holders it covers, not every connection holding something
        self._holders: list[tuple[int, int, Holder]] = []
        self._held_count = 0
        self._queue: deque[Any] = deque()
        self._wake = threading.Condition()
        self._closed = False
        self._thread = threading.Thread(target=self._run, name="gonzaga-commits", daemon=True)
        self._thread.start()

    # ------------------------------------------------------------ on the event loop

    def append_soon(self, game_id: str, index: int, text: str, owner: Any = None) -> int:
        """Queue action ``index`` of the game; its seq (a message sent after it waits for it)."""
        if self._closed:
            raise StoreError("the store is closed: the action cannot be kept")
        self.issued += 1
        epoch = self.fence(game_id) if self.fence is not None else None
        self._put(_Append(self.issued, game_id, index, text, owner, epoch))
        return self.issued

    def after(self, seq: int, fn: Callable[[], None]) -> None:
        """``fn`` on the loop once every append up to ``seq`` has landed (stored, or refused and
        reported to ``on_lost`` first); at once when they have."""
        if seq <= self.durable:
            fn()
        else:
            self._after.append((seq, fn))

    def hold(self, holder: Holder, seq: int) -> None:
        """``holder`` held nothing and now holds a message that waits for write ``seq``: it is
        released when a batch lands with ``durable`` at ``seq`` or beyond."""
        self._held_count += 1
        heapq.heappush(self._holders, (seq, self._held_count, holder))

    def _landed(self, last: int, lost: list[Lost]) -> None:
        """A batch is done (on the loop): the refused ones first, then the messages after it go."""
        if lost and self.on_lost is not None:
            try:
                self.on_lost(lost)
            except Exception:  # the messages must still go: a failure here is only logged
                log.exception("handling %d actions the store refused failed", len(lost))
        self.durable = max(self.durable, last)
        holders, again = self._holders, []
        while holders and holders[0][0] <= self.durable:
            h = heapq.heappop(holders)[2]
            seq = h.release(self.durable)
            if seq is not None:  # later messages wait for a later write
                again.append((max(seq, self.durable + 1), h))
        for seq, h in again:
            self.hold(h, seq)
        due = [fn for seq, fn in self._after if seq <= self.durable]
        self._after = [(seq, fn) for seq, fn in self._after if seq > self.durable]
        for fn in due:
            try:
                fn()
            except Exception:
                log.exception("a call waiting for a batch failed")

    # ------------------------------------------------------------ the writer thread

    def _put(self, job: Any, game: Optional[str] = "") -> None:
        """Queue ``job`` last; a call about ``game`` (None: about no game's actions) goes first
        when none of that game's actions is queued, so that it waits only for the commit under way
        (the calls come one at a time: the loop waits for each)."""
        with self._wake:
            if game != "" and not any(isinstance(j, _Append) and j.game_id == game for j in self._queue):
                self._queue.appendleft(job)
            else:
                self._queue.append(job)
            self._wake.notify()

    def _run(self) -> None:
        while True:
            with self._wake:
                while not self._queue:
                    if self._closed:
                        return
                    self._wake.wait()
                if isinstance(self._queue[0], _Call):
                    job: Any = self._queue.popleft()
                    batch: list[_Append] = []
                else:
                    job = None
                    batch = []
                    while self._queue and isinstance(self._queue[0], _Append) and len(batch) < self.max_batch:
                        batch.append(self._queue.popleft())
            if job is not None and job.future is None:
                try:
                    job.fn()
                except Exception as e:  # as the server's quiet writes always were: logged
                    log.error("the store failed: %s", e)
            elif job is not None:
                try:
                    job.future.set_result(job.fn())
                except BaseException as e:  # handed to the caller, who raises it
                    job.future.set_exception(e)
            else:
                self._commit(batch)

    def _commit(self, batch: list[_Append]) -> None:
        try:
            if self.fence is not None:
                results = self.store.append_fenced(  # type: ignore[attr-defined]  # a fencing store's
                    [(a.game_id, a.index, a.text, a.epoch) for a in batch])
            else:
                results = self.store.append_actions([(a.game_id, a.index, a.text) for a in batch])
        except Exception as e:  # the whole batch is refused: nothing of it is on disk
            err = e if isinstance(e, StoreError) else StoreError(f"cannot store actions: {e}")
            log.error("%d actions could not be stored: %s", len(batch), err)
            results = [err] * len(batch)
        self.batches += 1
        lost = [Lost(a.seq, a.game_id, a.index, a.text, a.owner, r, a.epoch)
                for a, r in zip(batch, results) if r is not None]
        try:
            self.loop.call_soon_threadsafe(self._landed, batch[-1].seq, lost)
        except RuntimeError:  # the loop is closed (the server stopped): nobody is waiting
            pass

    def _call(self, fn: Callable[[], T], game: Optional[str] = "") -> T:
        """``fn`` on the writer thread, after everything queued before it (``game``: see ``_put``)."""
        if self._closed:
            raise StoreError("the store is closed")
        future: Future[Any] = Future()
        self._put(_Call(fn, future), game)
        return future.result()  # type: ignore[no-any-return]

    def _later(self, fn: Callable[[], Any]) -> None:
        """``fn`` on the writer thread after everything queued now; nobody waits for it."""
        if self._closed:
            raise StoreError("the store is closed")
        self._put(_Call(fn, None))

    def call(self, fn: Callable[[], T]) -> T:
        """``fn`` (another part's statements on the store, e.g. the turn index's reads) on the
        writer thread after everything queued now; its answer."""
        return self._call(fn)

    def later(self, fn: Callable[[], Any]) -> None:
        """``fn`` (another part's write, e.g. a turn index row) on the writer thread after
        everything queued now, not waited for: the event loop goes on at once."""
        self._later(fn)

    # ------------------------------------------------------------ the store's calls, in order

    def append_action(self, game_id: str, index: int, text: str) -> None:
        err = self._call(lambda: self.store.append_actions([(game_id, index, text)])[0])
        if err is not None:
            raise err

    def create_game(self, game: StoredGame) -> None:
        self._call(lambda: self.store.create_game(game), game.id)

    def replace_seats(self, game_id: str, seats: list[dict[str, Any]]) -> None:
        self._call(lambda: self.store.replace_seats(game_id, seats), game_id)

    def set_started(self, game_id: str) -> None:
        """Queued after the game's actions, not waited for: the server only ever logged its
        failure, and a game read again is started when it has actions (``_rebuild``)."""
        self._later(lambda: self.store.set_started(game_id))

    def set_finished(self, game_id: str) -> None:
        """As ``set_started``: a game read again is finished when its state is over."""
        self._later(lambda: self.store.set_finished(game_id))

    def load_games(self, finished: bool = True) -> list[StoredGame]:
        return self._call(lambda: self.store.load_games(finished))

    def load_game(self, game_id: str) -> Optional[StoredGame]:
        return self._call(lambda: self.store.load_game(game_id), game_id)

    def delete_game(self, game_id: str) -> None:
        self._call(lambda: self.store.delete_game(game_id), game_id)

    def code_taken(self, code: str) -> bool:
        return self._call(lambda: self.store.code_taken(code), None)

    def __getattr__(self, name: str) -> Any:
        """Any other of the store's methods (one a newer store has) goes through the queue too, in
        order; its other attributes are the store's."""
        attr = getattr(self.store, name)
        if not callable(attr):
            return attr

        def call(*args: Any, **kwargs: Any) -> Any:
            return self._call(lambda: attr(*args, **kwargs))
        return call

    def close(self) -> None:
        """Finish what is queued (every append is committed, or refused), then stop the thread;
        the store itself is closed by whoever opened it."""
        with self._wake:
            self._closed = True
            self._wake.notify()
        self._thread.join(timeout=30)
