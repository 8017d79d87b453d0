"""A post-game review computed in the background (issue 48): one decision at a time in a worker
process, so the window stays responsive, with its progress, the time left, cancel and resume.

::

    job = ReviewJob(record, seat, budget, seed, done=stored_partial_or_None)
    job.start()
    ...                       # every frame:
    job.poll()                # collects finished decisions, sends the next; True when complete
    job.fraction, job.seconds_left(), job.review
    job.cancel()              # stops the decision being analysed; job.review keeps what is done
    job.start()               # resumes from there
    job.close()

Each decision travels as the seat's view (without Content and Board, as ``worker`` sends a
decision) and comes back as a ``Verdict``; the decisions are analysed in record order, each with
its own seed, so a resumed review equals one run without a break.
"""
from __future__ import annotations

import logging
import multiprocessing
import time
from concurrent.futures import Executor, Future, ProcessPoolExecutor, ThreadPoolExecutor
from typing import Any, Callable, Optional

from ..rules import Action, GameRecord, GameState
from ..rules.content import Content
from .review import DEFAULT_BUDGET, Review, Verdict, analyse, decision_seed, decisions, record_digest
from .worker import _restore, strip_view, watch_parent

_STOP = None  # in the worker process: a shared counter; an analysis of an older generation stops


def _init(counter: Any) -> None:
    global _STOP
    _STOP = counter
    watch_parent()


def _analyse_in_process(light: Any, directory: str, seat: int, action: Action, budget: int, seed: int, index: int,
                        generation: int) -> Optional[Verdict]:
    counter = _STOP
    stop = (lambda: counter.value != generation) if counter is not None else None
    return analyse(_restore(light, directory), seat, action, budget, seed, index, stop)


class ReviewJob:
    """The review of one seat of a finished game, decision by decision, off the caller's thread."""

    def __init__(self, record: GameRecord, seat: int, budget: int = DEFAULT_BUDGET, seed: int = 0,
                 content: Optional[Content] = None, done: Optional[Review] = None,
                 use_processes: bool = True, clock: Callable[[], float] = time.monotonic):
        self._todo: list[tuple[int, GameState, Action]] = list(decisions(record, seat, content))
        dig = record_digest(record)
        if done is not None and (done.digest, done.seat, done.budget, done.seed) == (dig, seat, budget, seed):
            self.review = done
        else:
            self.review = Review(seat, dig, budget, seed, len(self._todo))
        self.seat, self.budget, self.seed = seat, budget, seed
        self._use_processes = use_processes
        self._clock = clock
        self._executor: Optional[Executor] = None
        self._counter: Any = None  # the worker's shared generation counter (a multiprocessing Value)
        self._generation = 0
        self._future: Optional["Future[Optional[Verdict]]"] = None
        self._sent_at = 0.0
        self._spent: list[float] = []  # seconds each decision took (this session)
        self.running = False
        self.failed = False

    # ------------------------------------------------------------ progress

    @property
    def complete(self) -> bool:
        return self.review.complete

    @property
    def fraction(self) -> float:
        return len(self.review.verdicts) / max(1, self.review.total)

    def seconds_left(self) -> Optional[float]:
        """The time left at the pace so far (None before the first decision came back)."""
        if not self._spent:
            return None
        per = sum(self._spent) / len(self._spent)
        left = self.review.total - len(self.review.verdicts)
        busy = self._clock() - self._sent_at if self._future is not None else 0.0
        return max(0.0, left * per - min(busy, per))

    # ------------------------------------------------------------ control

    def start(self) -> None:
        """Start (or resume) the analysis; returns at once."""
        if self.complete or self.running:
            return
        self.running = True
        self.failed = False
        self._send_next()

    def poll(self) -> bool:
        """Collect a finished decision and send the next; True when the review is complete. A
        failure in the analysis stops the job (``failed``); the log has it."""
        fut = self._future
        if fut is not None and fut.done():
            self._future = None
            try:
                verdict = fut.result()
            except Exception:
                logging.getLogger(__name__).exception("review decision failed")
                self.running, self.failed = False, True
                return self.complete
            if verdict is not None:
                self._spent.append(self._clock() - self._sent_at)
                self.review.verdicts.append(verdict)
                self.review.verdicts.sort(key=lambda v: v.index)
            if self.running:
                self._send_next()
        return self.complete

    def cancel(self) -> None:
        """Stop: the decision being analysed is abandoned; what is done is kept (``review``)."""
        self.running = False
        self._future = None
        self._generation += 1
        if self._counter is not None:
            with self._counter.get_lock():
                self._counter.value = self._generation

    def close(self) -> None:
        self.cancel()
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = None

    def wait(self, timeout: float = 600.0) -> bool:
        """Block until complete (the command line, tests); True when complete."""
        end = time.monotonic() + timeout
        self.start()
        while self.running and not self.poll() and time.monotonic() < end:
            fut = self._future
            if fut is not None:
                try:
                    fut.exception(timeout=max(0.0, end - time.monotonic()))
                except Exception:  # a timeout: the loop ends by the clock
                    pass
        return self.complete

    # ------------------------------------------------------------ internals

    def _next(self) -> Optional[tuple[int, GameState, Action]]:
        have = {v.index for v in self.review.verdicts}
        return next((x for x in self._todo if x[0] not in have), None)

    def _send_next(self) -> None:
        item = self._next()
        if item is None:
            self.running = False
            return
        index, v, a = item
        seed = decision_seed(self.seed, self.seat, index)
        self._sent_at = self._clock()
        if self._use_processes:
            if self._executor is None:
                ctx = multiprocessing.get_context("spawn")
                self._counter = ctx.Value("i", self._generation)
                self._executor = ProcessPoolExecutor(max_workers=1, mp_context=ctx, initializer=_init,
                                                     initargs=(self._counter,))
            light, directory = strip_view(v)
            self._future = self._executor.submit(_analyse_in_process, light, directory, self.seat, a,
                                                 self.budget, seed, index, self._generation)
        else:
            if self._executor is None:
                self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="gonzaga-review")
            generation = self._generation
            self._future = self._executor.submit(analyse, v, self.seat, a, self.budget, seed, index,
                                                 lambda: self._generation != generation)


__all__ = ["ReviewJob"]
