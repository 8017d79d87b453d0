"""Run AI decisions off the caller's thread, so that the game window stays responsive.

::

    worker = DecisionWorker()
    ticket = worker.request("hard", seed, view(state, seat), seat)   # returns at once
    ...                                                              # every frame:
    action = worker.result(ticket)       # None until ready; re-raises the bot's exception
    worker.cancel_all()                  # e.g. on "new game" or "quit to menu"
    worker.close()

Search bots (``hard``, ``expert``) run in worker processes (the GIL would stall the frame
loop if they ran in a thread), one process per search seat, so that the seats of a round
plan at the same time and none waits in a queue behind another's search (with three search
seats on two cores each gets less of a core, and its time budget still ends its search on
time); the cheap bots (``easy``, ``medium``, ``greedy``, ``random``) run in one background
thread. Processes are started lazily with the "spawn" method,
which is what Windows and macOS use anyway; a frozen (PyInstaller) build must call
``multiprocessing.freeze_support()`` first thing in ``__main__``.

What crosses the process boundary is the view without its ``Content`` and ``Board``
(only the content directory goes along); the worker reloads the content once per
directory (``load_content`` caches it) and rebuilds the board.

Bots are kept alive per (bot name, seed, seat) across decisions, and a seat always goes
to the same process, so a seeded game with an iteration budget (``GONZAGA_AI_ITERATIONS``
in the environment, inherited by the workers) is reproducible.
"""
from __future__ import annotations

import itertools
import multiprocessing
import os
import threading
from concurrent.futures import Future, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import replace
from typing import Any, Callable, Iterable, Optional

from ..rules import Action, GameState, load_content, view as seat_view
from ..rules.board import board_for
from .base import Bot
from .roster import make_bot, searches
import multiprocessing.connection

MAX_PROCESSES = 4  # one per seat at most

# ---------------------------------------------------------------- in the worker

_BOTS: dict[tuple[str, int, int], Bot] = {}
_CANCEL = None  # a shared counter: bumped by cancel_all; a decision of an older generation stops


def _init_worker(cancel_counter: Any) -> None:
    global _CANCEL
    _CANCEL = cancel_counter
    watch_parent()


def watch_parent() -> None:
    """Run in a new worker process: end it as soon as the process that started it is gone, however
    it ended (SIGKILL included, which runs no clean-up in the parent). The parent holds one end of
    a pipe for each child (``multiprocessing.parent_process().sentinel``); the child sees it close
    when the parent dies, and a thread waiting on it ends the worker, mid-search or idle."""
    parent = multiprocessing.parent_process()
    if parent is None or parent.sentinel is None:
        return

    def wait() -> None:
        try:
            multiprocessing.connection.wait([parent.sentinel])
        finally:
            os._exit(0)

    threading.Thread(target=wait, name="gonzaga-watch-parent", daemon=True).start()


def strip_view(view: GameState) -> tuple[GameState, str]:
    """What of a view crosses to a worker process: the view without the (large, costly to pickle)
    Content and Board, and the content's directory."""
    return replace(view, content=None, board=None), str(view.content.directory)  # type: ignore[arg-type]


def _restore(light: GameState, directory: str) -> GameState:
    content = load_content(directory)
    return replace(light, content=content, board=board_for(content))


def _bot(cache: dict[tuple[str, int, int], Bot], name: str, seed: int, seat: int) -> Bot:
    """One bot per (name, seed, seat), kept across decisions (bots may keep state)."""
    key = (name, seed, seat)
    b = cache.get(key)
    if b is None:
        b = cache[key] = make_bot(name, seed)
    return b


def _choose(bot: Bot, view: GameState, seat: int, should_stop: Optional[Callable[[], bool]]) -> Action:
    """Ask ``bot`` for a decision; a search bot polls ``should_stop`` to end early."""
    searching = hasattr(bot, "should_stop")
    searcher: Any = bot  # a search level (``search.HardBot``, ``expert``) has ``should_stop``
    if searching:
        searcher.should_stop = should_stop
    try:
        return bot.choose(view, seat)
    finally:
        if searching:
            searcher.should_stop = None


def _decide_in_process(name: str, seed: int, light: GameState, directory: str, seat: int, generation: int) -> Action:
    counter = _CANCEL
    stop = (lambda: counter.value != generation) if counter is not None else None
    return _choose(_bot(_BOTS, name, seed, seat), _restore(light, directory), seat, stop)


def decide_once(name: str, seed: int, light: GameState, directory: str, seat: int) -> Action:
    """One decision in a process of a pool shared by many games (the online server): a fresh bot
    each time, so the process keeps nothing per game."""
    return make_bot(name, seed).choose(_restore(light, directory), seat)


def _warm(directory: str) -> None:
    """Run once in a new worker process: load the content ahead of use (the bots came with
    this module's imports)."""
    board_for(load_content(directory))


# ---------------------------------------------------------------- in the caller

class DecisionWorker:
    """Tickets for AI decisions computed in the background."""

    def __init__(self, processes: int = MAX_PROCESSES, use_processes: Optional[bool] = None):
        """``processes``: at most this many worker processes for search bots; each search
        seat gets its own while there are enough (then seats share them).

        ``use_processes``: False runs every bot in the background thread (tests, or
        platforms where spawning is unwanted); None decides by the bot's name.
        """
        self._n_proc = max(1, processes)
        self._use_processes = use_processes
        self._all: list[ProcessPoolExecutor] = []  # every process started
        self._idle: list[ProcessPoolExecutor] = []  # started ahead (prestart), no seat yet
        self._by_seat: dict[int, ProcessPoolExecutor] = {}
        self._thread: Optional[ThreadPoolExecutor] = None
        self._futures: dict[int, Future[Action]] = {}
        self._tickets = itertools.count(1)
        self._lock = threading.Lock()
        self._start_lock = threading.Lock()  # executors may be made by prestart's thread too
        self._bots: dict[tuple[str, int, int], Bot] = {}
        self._cancel: Any = None  # a shared counter with the process (multiprocessing Value)
        self._generation = 0
        self._thread_generation = 0
        self._closed = False

    # ------------------------------------------------------------ API

    def request(self, bot_name: str, seed: int, view: GameState, seat: int) -> int:
        """Start a decision for ``seat`` from its ``view``; returns a ticket at once."""
        if self._closed:
            raise RuntimeError("the decision worker is closed")
        if view.viewer is None:  # a full state: hide what the seat may not know (spec E)
            view = seat_view(view, seat)
        elif view.viewer != seat:
            raise ValueError(f"a view for seat {view.viewer} cannot decide for seat {seat}")
        ticket = next(self._tickets)
        if self._in_process(bot_name):
            fut = self._submit_process(bot_name, seed, view, seat)
        else:
            fut = self._submit_thread(bot_name, seed, view, seat)
        with self._lock:
            self._futures[ticket] = fut
        return ticket

    def result(self, ticket: int) -> Optional[Action]:
        """The chosen action when ready, else None. A bot's exception is raised here."""
        with self._lock:
            fut = self._futures.get(ticket)
        if fut is None:
            raise KeyError(f"unknown or cancelled ticket {ticket}")
        if not fut.done():
            return None
        with self._lock:
            self._futures.pop(ticket, None)
        return fut.result()

    def prestart(self, bot_names: Iterable[str], content_directory: Any) -> None:
        """Start the worker processes in the background if any of ``bot_names`` needs them,
        so that the first decision does not pause the window while a process spawns."""
        wanted = sum(1 for n in bot_names if self._in_process(n))
        if self._closed or not wanted:
            return

        def start() -> None:
            for _ in range(wanted):
                try:
                    with self._start_lock:
                        if self._closed or len(self._all) >= self._n_proc:
                            return
                        if len(self._idle) + len(self._by_seat) >= wanted:
                            return
                        ex = self._new_executor()
                        self._idle.append(ex)
                    ex.submit(_warm, str(content_directory))
                except Exception:  # a failed warm-up only costs the pause it tried to save
                    return

        threading.Thread(target=start, name="gonzaga-ai-prestart", daemon=True).start()

    def pending(self) -> int:
        with self._lock:
            return sum(1 for f in self._futures.values() if not f.done())

    def cancel_all(self) -> None:
        """Forget every open ticket; running searches are told to stop early."""
        with self._lock:
            futs = list(self._futures.values())
            self._futures.clear()
        for f in futs:
            f.cancel()
        self._generation += 1
        self._thread_generation += 1
        if self._cancel is not None:
            with self._cancel.get_lock():
                self._cancel.value = self._generation

    def close(self) -> None:
        if self._closed:
            return
        self.cancel_all()
        with self._start_lock:  # no executor may be started by prestart after this
            self._closed = True
            executors = list(self._all)
        for ex in executors:
            # wait: a process killed while it starts prints a traceback on the terminal;
            # cancel_all above already told running searches to stop early
            ex.shutdown(wait=True, cancel_futures=True)
        if self._thread is not None:
            self._thread.shutdown(wait=False, cancel_futures=True)

    def __enter__(self) -> "DecisionWorker":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ------------------------------------------------------------ internals

    def _in_process(self, name: str) -> bool:
        if self._use_processes is not None:
            return self._use_processes
        return searches(name)

    def processes(self) -> int:
        """Worker processes started so far."""
        return len(self._all)

    def _new_executor(self) -> ProcessPoolExecutor:
        """A new one-process pool (the caller holds ``_start_lock``)."""
        ctx = multiprocessing.get_context("spawn")
        if self._cancel is None:
            self._cancel = ctx.Value("i", self._generation)
        ex = ProcessPoolExecutor(max_workers=1, mp_context=ctx, initializer=_init_worker,
                                 initargs=(self._cancel,))
        self._all.append(ex)
        return ex

    def _executor(self, seat: int) -> ProcessPoolExecutor:
        """The seat's own process: a prestarted one, a new one, or (past the limit) a shared one."""
        with self._start_lock:
            if self._closed:
                raise RuntimeError("the decision worker is closed")
            ex = self._by_seat.get(seat)
            if ex is None:
                if self._idle:
                    ex = self._idle.pop(0)
                elif len(self._all) < self._n_proc:
                    ex = self._new_executor()
                else:
                    ex = self._all[seat % len(self._all)]
                self._by_seat[seat] = ex
            return ex

    def _submit_process(self, name: str, seed: int, view: GameState, seat: int) -> Future[Action]:
        light, directory = strip_view(view)
        args = (name, seed, light, directory, seat, self._generation)
        try:
            return self._executor(seat).submit(_decide_in_process, *args)
        except BrokenProcessPool:  # a worker died (killed, out of memory): start afresh
            with self._start_lock:
                dead = self._by_seat.pop(seat, None)
                if dead is not None:
                    if dead in self._all:
                        self._all.remove(dead)
                    for k in [k for k, v in self._by_seat.items() if v is dead]:
                        del self._by_seat[k]
            return self._executor(seat).submit(_decide_in_process, *args)

    def _submit_thread(self, name: str, seed: int, view: GameState, seat: int) -> Future[Action]:
        if self._thread is None:
            self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="gonzaga-ai")
        generation = self._thread_generation

        def run() -> Action:
            return _choose(_bot(self._bots, name, seed, seat), view, seat,
                           lambda: self._thread_generation != generation)

        return self._thread.submit(run)


def cpu_count() -> int:
    return os.cpu_count() or 1


__all__ = ["DecisionWorker", "watch_parent"]
