"""What a Ray task plays and sends back: batches of consecutive games, their results, the reorder buffer.

They hold no Ray: a batch is played by :func:`play_batch` in any process, and
:class:`InOrder` puts results that arrive in any order back in game order.

>>> batch_size(100_000, cpus=2), batch_size(10, cpus=2), batch_size(1_000, cpus=64)
(100, 2, 4)
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass, field, replace

from ..errors import RummyDslError
from ..simulate import GameOutcome, GameTask, play_task
from .source import VariantSource

__all__ = [
    "Batch",
    "BatchResult",
    "FailOnce",
    "InOrder",
    "batch_size",
    "play_batch",
    "BATCHES_PER_CPU",
    "MAX_BATCH",
]




BATCHES_PER_CPU = 4
"""A Ray run is cut into at least this many batches per CPU of the cluster, so the
last batches are short and no CPU idles long at the end."""


MAX_BATCH = 100
"""At most this many games (or hands) per Ray task: a batch's results are small
(about 1 KB a game without ``--log``) and arrive often enough to stream."""


def batch_size(count: int, cpus: int) -> int:
    """Games per Ray task for a run of ``count`` games on ``cpus`` CPUs.

    At least :data:`BATCHES_PER_CPU` batches per CPU (an even end), at most
    :data:`MAX_BATCH` games per batch, at least 1.

    >>> batch_size(1_000, cpus=2), batch_size(1_000_000, cpus=200), batch_size(3, cpus=2)
    (100, 100, 1)
    """
    per_batch = math.ceil(count / (max(cpus, 1) * BATCHES_PER_CPU))
    return max(1, min(MAX_BATCH, per_batch))


@dataclass(frozen=True)
class FailOnce:
    """Fault injection for tests: the worker that starts batch ``batch`` exits abruptly
    (``os._exit``) the first time, which it marks by creating the file ``marker``;
    Ray's retry then plays the batch again."""

    batch: int
    marker: str

    def strike(self, batch: int) -> None:
        """Exit this process if ``batch`` is the one to fail and it has not failed yet."""
        if batch != self.batch:
            return
        try:
            descriptor = os.open(self.marker, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
        except FileExistsError:
            return
        os.close(descriptor)
        os._exit(70)


@dataclass(frozen=True)
class Batch:
    """Consecutive tasks played by one Ray task."""

    id: int
    """From 0, in task order: batch ``id`` holds the tasks just after batch ``id - 1``'s."""
    tasks: tuple[GameTask, ...]


@dataclass
class BatchResult:
    """What a Ray task sends back: the outcomes of its batch, in order, and the error
    that stopped it (its tasks after that one are not played)."""

    id: int
    outcomes: list[GameOutcome]
    error: RummyDslError | None = None


def play_batch(batch: Batch, sources: dict[str, VariantSource],
               fail_once: FailOnce | None = None) -> BatchResult:
    """Play a batch (in a Ray worker): each task's variant from ``sources`` (by the
    driver's path), the outcomes in order. A rummydsl error ends the batch and is
    sent back as data, so the driver raises it in game order.

    >>> from rummydsl.simulate import make_tasks
    >>> from rummydsl.variant import find_variant_path
    >>> path = find_variant_path("gin_rummy")
    >>> tasks = make_tasks(path, count=2, seed=4, agents="greedy", hands=True, log=False)
    >>> result = play_batch(Batch(0, tuple(tasks)), {path: VariantSource.of(path)})
    >>> [o.index for o in result.outcomes], result.error
    ([0, 1], None)
    """
    if fail_once is not None:
        fail_once.strike(batch.id)
    outcomes: list[GameOutcome] = []
    local: dict[str, str] = {}
    for task in batch.tasks:
        try:
            if task.variant not in local:
                source = sources.get(task.variant)
                local[task.variant] = source.materialise() if source is not None else task.variant
            outcomes.append(play_task(replace(task, variant=local[task.variant])))
        except RummyDslError as problem:
            return BatchResult(batch.id, outcomes, problem)
    return BatchResult(batch.id, outcomes)


@dataclass
class InOrder:
    """The driver's reorder buffer: batch results arrive in any order (and a retried
    batch could arrive twice); :meth:`release` gives them back in batch order, each once.

    >>> buffer = InOrder()
    >>> buffer.add(BatchResult(1, [])), buffer.release()
    (True, [])
    >>> buffer.add(BatchResult(0, [])), [r.id for r in buffer.release()]
    (True, [0, 1])
    >>> buffer.add(BatchResult(1, []))  # a duplicate is ignored
    False
    """

    next_id: int = 0
    """The first batch not yet released."""
    waiting: dict[int, BatchResult] = field(default_factory=dict)
    """Results that arrived before an earlier batch's."""

    def add(self, result: BatchResult) -> bool:
        """Keep ``result``; ``False`` (and nothing kept) if its batch was seen already."""
        if result.id < self.next_id or result.id in self.waiting:
            return False
        self.waiting[result.id] = result
        return True

    def release(self) -> list[BatchResult]:
        """The results that are next in order, removed from the buffer."""
        ready = []
        while self.next_id in self.waiting:
            ready.append(self.waiting.pop(self.next_id))
            self.next_id += 1
        return ready
