"""tests/xdist_counted.py's scheduler decides exactly as xdist's loadgroup scheduler does.

Both are played on the same runs, side by side: the same collection (tests of their own and
``xdist_group`` groups), the same order in which the workers report their tests done, a
worker going down part way through in some runs; every batch each hands a worker, every
shutdown, what the crashed worker was running and ``tests_finished`` / ``has_pending`` after
each step must be the same.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

pytest.importorskip("xdist")

from xdist.scheduler import LoadGroupScheduling  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/, where conftest.py finds it
from xdist_counted import CountedLoadGroup  # noqa: E402


class Worker:
    """What a scheduler asks of a worker: a name, the batches sent, shutdown."""

    def __init__(self, name: str, log: list[tuple[Any, ...]]) -> None:
        self.name, self.log = name, log
        self.shutting_down = False
        self.queue: list[int] = []
        self.gateway = SimpleNamespace(id=name)

    def send_runtest_some(self, indices: list[int]) -> None:
        self.log.append(("send", self.name, tuple(indices)))
        self.queue.extend(indices)

    def shutdown(self) -> None:
        self.log.append(("shutdown", self.name))
        self.shutting_down = True


def _collection(rng: random.Random) -> list[str]:
    ids = []
    for k in range(rng.randrange(1, 160)):
        test = f"tests/unit/test_m{k % 7}.py::test_{k}[p{k}]"
        ids.append(test + (f"@group{rng.randrange(3)}" if rng.random() < 0.15 else ""))
    return ids


def _play(cls: type, seed: int, workers: int, crash_at: int | None) -> list[tuple[Any, ...]]:
    """One run: the log of what the scheduler did, the workers' reports in ``seed``'s order."""
    rng = random.Random(seed)
    ids = _collection(rng)
    config = SimpleNamespace(getvalue=lambda name: ["popen"] * workers if name == "tx" else None,
                             option=SimpleNamespace(loadscopereorder=False))
    log: list[tuple[Any, ...]] = []
    sched = cls(config, log=None)
    sched.log = lambda *args: None
    nodes = [Worker(f"gw{n}", log) for n in range(workers)]
    for node in nodes:
        sched.add_node(node)
    for node in nodes:
        sched.add_node_collection(node, ids)
    sched.schedule()
    step = 0
    while True:
        busy = [node for node in nodes if node.queue and node in sched.assigned_work]
        if not busy:
            break
        node = rng.choice(busy)
        if crash_at is not None and step == crash_at and len(sched.assigned_work) > 1:
            log.append(("crashed", node.name, sched.remove_node(node)))
            node.queue.clear()
        else:
            sched.mark_test_complete(node, node.queue.pop(0))
        log.append(("state", sched.tests_finished, sched.has_pending))
        step += 1
    return log


@pytest.mark.parametrize("workers", [1, 2, 3])
def test_the_counting_scheduler_decides_as_xdists_does(workers: int) -> None:
    for seed in range(40):
        crash_at = seed % 9 if seed % 3 == 0 else None
        assert _play(CountedLoadGroup, seed, workers, crash_at) == _play(LoadGroupScheduling, seed, workers,
                                                                          crash_at), seed


def test_the_conftest_hook_uses_it_for_loadgroup_only(pytestconfig: pytest.Config) -> None:
    conftest = pytestconfig.pluginmanager.get_plugin(str(Path(__file__).resolve().parents[1] / "conftest.py"))
    assert conftest is not None

    def config(dist: str) -> Any:
        return SimpleNamespace(getvalue=lambda name: dist if name == "dist" else ["popen", "popen"],
                               option=SimpleNamespace(loadscopereorder=False))

    assert isinstance(conftest.pytest_xdist_make_scheduler(config("loadgroup"), None), CountedLoadGroup)
    assert conftest.pytest_xdist_make_scheduler(config("load"), None) is None
