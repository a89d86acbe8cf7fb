"""Backends: where the games of a run are played, in local processes or as Ray tasks.

A :class:`Backend` takes the tasks of a run (:class:`~rummydsl.simulate.GameTask`,
each game with its own seed) and yields their outcomes **in task order**, so
:class:`~rummydsl.simulate.Statistics` sums them in game order and the figures are
the same whatever plays them: one process, N processes, or a Ray cluster.

- :class:`LocalBackend` plays in this process or in a pool of ``workers`` local
  processes (``rummydsl simulate --workers N``; all cores when not given).
- :class:`RayBackend` plays batches of consecutive games as Ray tasks, on a local
  Ray instance or an existing cluster (``rummydsl simulate --ray [ADDRESS]``; needs
  ``pip install 'rummydsl[ray]'``). Results stream back as they finish, are put
  back in game order with a bounded buffer, and a batch that Ray retries after a
  worker died is counted once.

Stop iterating (or ``close()`` the iterator) to cancel what is left.

The package: :mod:`~rummydsl.backends.local` (local processes),
:mod:`~rummydsl.backends.ray_tasks` (Ray), :mod:`~rummydsl.backends.batches` (the
batches a Ray task plays and the reorder buffer) and :mod:`~rummydsl.backends.source`
(a variant as a worker loads it). Import the names from here.

>>> from rummydsl.simulate import make_tasks
>>> from rummydsl.variant import find_variant_path
>>> tasks = make_tasks(find_variant_path("gin_rummy"), count=3, seed=1, agents="greedy", hands=True, log=False)
>>> [outcome.index for outcome in LocalBackend(1).run(tasks)]
[0, 1, 2]
>>> batch_size(100_000, cpus=2), batch_size(10, cpus=2), batch_size(1_000, cpus=64)
(100, 2, 4)
"""

from __future__ import annotations

from typing import Iterator, Protocol, Sequence

from ..simulate import GameOutcome, GameTask
from .batches import BATCHES_PER_CPU, MAX_BATCH, Batch, BatchResult, FailOnce, InOrder, batch_size, play_batch
from .local import AUTO_MIN_TASKS, LOCAL_CHUNKS_PER_PROCESS, LOCAL_RESTARTS, LocalBackend, local_cpus
from .ray_tasks import IN_FLIGHT_PER_CPU, RayBackend, ray_available
from .source import VariantSource

__all__ = [
    "Backend",
    "LocalBackend",
    "RayBackend",
    "Batch",
    "BatchResult",
    "FailOnce",
    "VariantSource",
    "InOrder",
    "batch_size",
    "local_cpus",
    "play_batch",
    "ray_available",
    "AUTO_MIN_TASKS",
    "BATCHES_PER_CPU",
    "MAX_BATCH",
    "IN_FLIGHT_PER_CPU",
    "LOCAL_RESTARTS",
    "LOCAL_CHUNKS_PER_PROCESS",
]




class Backend(Protocol):
    """Plays tasks and yields their outcomes in task order."""

    def run(self, tasks: Sequence[GameTask]) -> Iterator[GameOutcome]:
        """The outcome of every task, in the order of ``tasks``.

        :raises RummyDslError: the error of the first task (in task order) that
            raised one, after the outcomes of the tasks before it.
        """
        ...
