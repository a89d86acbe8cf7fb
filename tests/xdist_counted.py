"""xdist's loadgroup scheduling, with each worker's pending tests kept as a count.

Under ``--dist loadgroup`` (the README's test command) a test is a unit of work of its own
unless it is marked ``xdist_group``. xdist's ``LoadScopeScheduling._pending_of`` counts a
worker's pending tests over every unit the worker was ever given, and the controller asks it
at each test's end: work that grows with the square of the tests (about 1.5 s of the
controller's CPU for the whole suite's 7,000). :class:`CountedLoadGroup` decides exactly as
xdist's class does (tests/unit/test_xdist_counted.py plays both on the same runs); it keeps
the count as it goes: down when a test is marked complete, up by a unit's pending tests when
the unit is handed out. A workload that is no worker's (one taken from a worker that went
down) is counted in full, as xdist counts it. tests/conftest.py makes the controller use it.
"""

from __future__ import annotations

from typing import Any

from xdist.scheduler import LoadGroupScheduling

__all__ = ["CountedLoadGroup"]


class CountedLoadGroup(LoadGroupScheduling):  # type: ignore[misc]
    """``LoadGroupScheduling`` with each worker's pending tests counted as they change."""

    def __init__(self, config: Any, log: Any = None) -> None:
        super().__init__(config, log)
        self._pending: dict[Any, int] = {}

    def add_node(self, node: Any) -> None:
        super().add_node(node)
        self._pending[node] = 0

    def _assign_work_unit(self, node: Any) -> None:
        unit = next(iter(self.workqueue.values()))  # the unit xdist's method hands out: the first
        super()._assign_work_unit(node)
        self._pending[node] += sum(not done for done in unit.values())

    def mark_test_complete(self, node: Any, item_index: int, duration: float = 0) -> None:
        nodeid = self.registered_collections[node][item_index]
        if not self.assigned_work[node][self._split_scope(nodeid)][nodeid]:
            self._pending[node] -= 1
        super().mark_test_complete(node, item_index, duration)

    def _pending_of(self, workload: dict[str, dict[str, bool]]) -> int:
        for node, assigned in self.assigned_work.items():
            if assigned is workload:
                return self._pending[node]
        return int(super()._pending_of(workload))
