"""The tasks of a lab run or a tournament as a sequence made as it is read.

:func:`rummydsl.simulate.run_tasks` takes a :class:`~collections.abc.Sequence` of
:class:`~rummydsl.simulate.GameTask`; a run of a million games should not hold a
million task objects. :class:`LazyTasks` holds only the seeds of the games read so far
(8 bytes each, the draws of :func:`rummydsl.simulate.game_seeds`, drawn as later games
are read) and makes task ``k`` when it is read, in constant time once its seed is drawn, from ``(game, slot)`` with ``game, slot = divmod(start + k, slots)``:
``slots`` tasks a game (one per variant of a compare, one per seating of a tournament),
each told by ``make(slot, game, seed)``.

>>> from rummydsl.simulate import GameTask
>>> tasks = LazyTasks(3, 2, seed=1, make=lambda slot, game, seed: GameTask("v.yaml", game, seed, "ab"[slot]))
>>> len(tasks), [(t.index, t.agents) for t in tasks[1:4]], tasks[-1].index
(6, [(0, 'b'), (1, 'a'), (1, 'b')], 2)
>>> tail = LazyTasks(3, 2, seed=1, make=tasks.make, start=4)
>>> [t.agents for t in tail] == [t.agents for t in tasks][4:]
True
"""

from __future__ import annotations

import random
from array import array
from collections.abc import Sequence
from typing import Callable, Iterator, overload

from ..simulate import GameTask

__all__ = ["LazyTasks"]


class LazyTasks(Sequence[GameTask]):
    """``games * slots`` tasks, less the first ``start`` (already played), made on demand."""

    def __init__(self, games: int, slots: int, seed: int, make: Callable[[int, int, int], GameTask],
                 start: int = 0) -> None:
        self.games = games
        self._master = random.Random(seed)  # the same draws as simulate.game_seeds
        self._seeds = array("Q")
        """The seeds of the games read so far (drawn in order as later games are read)."""
        self.slots = slots
        self.make = make
        """``make(slot, game, seed)``: the task of ``slot`` in game ``game`` (from 0)."""
        self.start = start
        """Tasks already played (a resumed run): the sequence begins after them."""

    def __len__(self) -> int:
        return max(0, self.games * self.slots - self.start)

    def seed(self, game: int) -> int:
        """The seed of game ``game`` (from 0): the ``game``-th draw of ``random.Random(seed)``."""
        while len(self._seeds) <= game:
            self._seeds.append(self._master.getrandbits(64))
        return self._seeds[game]

    def _task(self, position: int) -> GameTask:
        game, slot = divmod(self.start + position, self.slots)
        return self.make(slot, game, self.seed(game))

    def __iter__(self) -> Iterator[GameTask]:
        return (self._task(k) for k in range(len(self)))

    @overload
    def __getitem__(self, position: int) -> GameTask: ...

    @overload
    def __getitem__(self, position: slice) -> Sequence[GameTask]: ...

    def __getitem__(self, position: int | slice) -> GameTask | Sequence[GameTask]:
        if isinstance(position, slice):
            return [self._task(k) for k in range(*position.indices(len(self)))]
        if position < 0:
            position += len(self)
        if not 0 <= position < len(self):
            raise IndexError(position)
        return self._task(position)
