"""Playing a run in this process or in a pool of local processes (``simulate --workers N``).

>>> LocalBackend(2).processes(1)
1
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any, Generator, Sequence

from ..errors import BackendError, RummyDslError
from ..simulate import GameOutcome, GameTask, play_task

__all__ = [
    "LocalBackend",
    "local_cpus",
    "AUTO_MIN_TASKS",
    "LOCAL_RESTARTS",
    "LOCAL_CHUNKS_PER_PROCESS",
]




AUTO_MIN_TASKS = 32
"""With ``workers`` not given, each local process gets at least this many tasks: a
process costs about half a CPU second to start (importing rummydsl, loading the
variant), about 30 Gin games, so a short run stays in one process."""


LOCAL_RESTARTS = 3
"""How many times a local run starts its pool again after a worker process died (killed,
out of memory) before it gives up: the lost games are played again from their seeds."""


LOCAL_CHUNKS_PER_PROCESS = 4
"""Chunks of tasks handed to the local pool but not yet consumed, per process: enough to
keep every process busy, few enough that memory stays flat in the number of tasks."""


def local_cpus() -> int:
    """The CPUs this process may use (its affinity mask where the system has one).

    >>> local_cpus() >= 1
    True
    """
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def _worker_start(variant: str) -> None:
    """Load the variant once per worker process (the loader caches it).

    A failure is left for :func:`~rummydsl.simulate.play_task` to raise: an
    initializer that raises makes the pool start workers again and again.
    """
    from ..variant import load_variant

    try:
        load_variant(variant)
    except RummyDslError:
        pass


@dataclass(frozen=True)
class LocalBackend:
    """Play in this process, or in a pool of local processes started with ``spawn``.

    >>> LocalBackend(3).processes(100), LocalBackend(3).processes(2), LocalBackend(1).processes(100)
    (3, 2, 1)
    >>> LocalBackend(None).processes(10)  # a short run is not worth a second process
    1
    """

    workers: int | None = 1
    """How many processes; ``None``: every CPU, each with at least
    :data:`AUTO_MIN_TASKS` tasks."""

    def processes(self, count: int) -> int:
        """How many processes play a run of ``count`` tasks (1: this one)."""
        if self.workers is None:
            wanted = min(local_cpus(), count // AUTO_MIN_TASKS)
        else:
            wanted = min(self.workers, count)
        return max(1, wanted)

    def run(self, tasks: Sequence[GameTask]) -> Generator[GameOutcome, None, None]:
        """Play ``tasks``, yielding outcomes in task order; closing the generator stops the pool.

        Tasks go to the processes in chunks, a bounded window of them at a time (memory
        flat in the number of tasks). A worker process that dies (killed, out of memory)
        breaks the pool: a new pool plays the chunks that were lost again from their
        seeds, so no game is lost or counted twice, up to :data:`LOCAL_RESTARTS` times.

        :raises BackendError: when the pool broke more than :data:`LOCAL_RESTARTS` times.
        """
        processes = self.processes(len(tasks))
        if processes <= 1:
            for task in tasks:
                yield play_task(task)
            return
        import multiprocessing
        from collections import deque
        from concurrent.futures import Future, ProcessPoolExecutor
        from concurrent.futures.process import BrokenProcessPool

        context = multiprocessing.get_context("spawn")
        chunk = max(1, min(16, len(tasks) // (processes * 8)))
        starts = iter(range(0, len(tasks), chunk))
        window = processes * LOCAL_CHUNKS_PER_PROCESS
        pending: deque[tuple[int, Future[list[GameOutcome]]]] = deque()
        pool: ProcessPoolExecutor | None = None
        restarts = 0
        try:
            while True:
                if pool is None:
                    pool = ProcessPoolExecutor(processes, mp_context=context, initializer=_worker_start,
                                               initargs=(tasks[0].variant,))
                    held = list(pending)
                    pending.clear()
                    for start, future in held:  # after a restart: what the broken pool lost, again
                        if not (future.done() and not future.cancelled() and future.exception() is None):
                            future = _submit(pool, tasks[start:start + chunk])
                        pending.append((start, future))
                while len(pending) < window:
                    start = next(starts, -1)
                    if start < 0:
                        break
                    pending.append((start, _submit(pool, tasks[start:start + chunk])))
                if not pending:
                    return
                start, future = pending[0]
                try:
                    outcomes = future.result()
                except BrokenProcessPool:
                    restarts += 1
                    _stop(pool)
                    pool = None
                    if restarts > LOCAL_RESTARTS:
                        raise BackendError(
                            f"a worker process died {restarts} times (the last time playing game "
                            f"{tasks[start].index + 1} or one after it); the run stops") from None
                    continue
                pending.popleft()
                yield from outcomes
        finally:
            if pool is not None:
                _stop(pool)


def _submit(pool: Any, chunk: Sequence[GameTask]) -> Any:
    """``pool.submit`` of one chunk; a pool that broke before taking it (a worker died while
    chunks were being handed out) gives a future failed with its ``BrokenProcessPool``,
    which the run's loop meets as any lost chunk: a new pool plays it again."""
    from concurrent.futures import Future
    from concurrent.futures.process import BrokenProcessPool

    try:
        return pool.submit(_play_chunk, chunk)
    except BrokenProcessPool as broken:
        failed: Future[list[GameOutcome]] = Future()
        failed.set_exception(broken)
        return failed


def _play_chunk(tasks: Sequence[GameTask]) -> list[GameOutcome]:
    """Play consecutive tasks in a worker process (one round trip for several games)."""
    return [play_task(task) for task in tasks]


def _stop(pool: Any) -> None:
    """Stop a process pool now: cancel what has not started, end the processes that play."""
    workers = dict(getattr(pool, "_processes", None) or {})  # private, but the only way before 3.14
    pool.shutdown(wait=False, cancel_futures=True)
    for process in workers.values():
        if process.is_alive():
            process.terminate()
    for process in workers.values():
        process.join(timeout=5)
