"""Backends without Ray: local processes, the batch and reorder machinery a Ray run
uses (played here in this process), variant sources for remote workers, and the
clear error when Ray is missing."""

from __future__ import annotations

import shutil
import sys
from dataclasses import replace
from pathlib import Path
from typing import Iterator, Sequence

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rummydsl.backends import (
    AUTO_MIN_TASKS,
    Batch,
    BatchResult,
    InOrder,
    LocalBackend,
    RayBackend,
    VariantSource,
    batch_size,
    local_cpus,
    play_batch,
)
from rummydsl.cli import build_parser
from rummydsl.errors import AgentError, BackendError, VariantError
from rummydsl.simulate import GameOutcome, GameTask, GameTasks, make_tasks, run_tasks, simulate
from rummydsl.variant import find_variant_path, load_variant

from .conftest import run, without_time


def fingerprint(outcomes: Sequence[GameOutcome]) -> list[tuple[int, int, object, object]]:
    """What Statistics reads of each outcome, comparable across processes."""
    return [(o.index, o.seed, o.played.rounds, o.played.result) for o in outcomes]


# -- local processes ------------------------------------------------------------------


@pytest.mark.parametrize("workers,count,expected", [
    (1, 100, 1),
    (2, 100, 2),
    (3, 2, 2),          # never more processes than tasks
    (4, 0, 1),
    (None, AUTO_MIN_TASKS * 2 - 1, 1),   # not given: a short run stays in this process
])
def test_how_many_processes_a_local_run_starts(workers: int | None, count: int, expected: int) -> None:
    assert LocalBackend(workers).processes(count) == expected


def test_without_workers_a_long_run_uses_every_cpu() -> None:
    assert LocalBackend(None).processes(AUTO_MIN_TASKS * 1000) == local_cpus()


def test_the_command_line_defaults_to_every_cpu_and_refuses_workers_with_ray() -> None:
    args = build_parser().parse_args(["simulate", "gin_rummy", "--games", "1", "--seed", "1"])
    assert args.workers is None and args.ray is None
    args = build_parser().parse_args(["simulate", "gin_rummy", "--games", "1", "--seed", "1", "--ray"])
    assert args.ray == ""
    args = build_parser().parse_args(["simulate", "gin_rummy", "--games", "1", "--seed", "1",
                                      "--ray", "ray://head:10001"])
    assert args.ray == "ray://head:10001"
    code, out, err = run("simulate", "gin_rummy", "--games", "1", "--seed", "1", "--workers", "2", "--ray")
    assert code == 2 and out == ""
    assert "argument --ray: not allowed with argument --workers" in err


def test_the_default_gives_the_figures_of_one_worker() -> None:
    argv = ("simulate", "gin_rummy", "--hands", str(AUTO_MIN_TASKS * 2), "--seed", "8", "--json")
    code, default, err = run(*argv)
    assert (code, err) == (0, "")
    code, one, err = run(*argv, "--workers", "1")
    assert (code, err) == (0, "")
    assert without_time(default) == without_time(one)


class Recording:
    """A backend that plays in this process and remembers what it was given."""

    def __init__(self) -> None:
        self.runs: list[int] = []

    def run(self, tasks: Sequence[GameTask]) -> Iterator[GameOutcome]:
        self.runs.append(len(tasks))
        return LocalBackend(1).run(tasks)


def test_simulate_and_run_tasks_play_on_the_backend_given() -> None:
    backend = Recording()
    stats = simulate("gin_rummy", hands=3, seed=2, agents="greedy", backend=backend)
    assert backend.runs == [3] and stats.hands == 3
    assert stats.as_json(0.0) == simulate("gin_rummy", hands=3, seed=2, agents="greedy").as_json(0.0)
    tasks = make_tasks(find_variant_path("gin_rummy"), count=2, seed=2, agents="greedy", hands=True, log=False)
    assert [o.index for o in run_tasks(tasks, backend=backend)] == [0, 1]
    assert backend.runs == [3, 2]
    assert fingerprint(list(run_tasks(tasks, 2))) == fingerprint(list(run_tasks(tasks)))  # the old signature


def test_a_run_makes_its_tasks_on_demand_equal_to_the_list() -> None:
    keywords = dict(count=9, seed=13, agents="greedy,random", hands=True, log=True)
    listed = make_tasks("v.yaml", **keywords)  # type: ignore[arg-type]
    lazy = GameTasks("v.yaml", **keywords)  # type: ignore[arg-type]
    assert len(lazy) == 9 and list(lazy) == listed
    for part in (slice(2, 5), slice(None, None, 2), slice(-3, None), slice(7, 100)):
        assert list(lazy[part]) == listed[part]
    assert lazy[-1] == listed[-1]
    with pytest.raises(IndexError):
        lazy[9]


# -- batches, in this process -----------------------------------------------------------


@pytest.mark.parametrize("count,cpus,expected", [
    (1, 2, 1),
    (8, 2, 1),
    (9, 2, 2),
    (1_000, 2, 100),             # capped at MAX_BATCH
    (1_000, 64, 4),              # 4 batches a CPU
    (1_000_000, 2_000, 100),
])
def test_batch_size(count: int, cpus: int, expected: int) -> None:
    assert batch_size(count, cpus) == expected


@given(st.lists(st.integers(0, 11), max_size=60), st.randoms(use_true_random=False))
def test_the_reorder_buffer_releases_every_batch_once_in_order(repeats: list[int], rng: object) -> None:
    arrivals = list(range(12)) + repeats    # every batch once, some again (a retry)
    rng.shuffle(arrivals)  # type: ignore[attr-defined]
    buffer = InOrder()
    released: list[int] = []
    kept = 0
    for batch_id in arrivals:
        kept += buffer.add(BatchResult(batch_id, []))
        released.extend(result.id for result in buffer.release())
    assert released == list(range(12))
    assert kept == 12 and buffer.waiting == {}


def test_a_batch_plays_its_games_like_the_local_backend() -> None:
    path = find_variant_path("oklahoma_gin")
    tasks = make_tasks(path, count=5, seed=3, agents="greedy,random", hands=True, log=True)
    result = play_batch(Batch(7, tuple(tasks[2:])), {path: VariantSource.of(path)})
    assert result.id == 7 and result.error is None
    local = list(LocalBackend(1).run(tasks))[2:]
    assert fingerprint(result.outcomes) == fingerprint(local)
    assert [o.lines for o in result.outcomes] == [o.lines for o in local]


def test_a_batch_stops_at_an_error_and_sends_it_back_after_the_games_before() -> None:
    path = find_variant_path("gin_rummy")
    tasks = make_tasks(path, count=3, seed=3, agents="greedy", hands=True, log=False)
    broken = tasks[:2] + [replace(tasks[2], agents="clever")] + tasks[3:]
    result = play_batch(Batch(0, tuple(broken)), {})
    assert [o.index for o in result.outcomes] == [0, 1]
    assert isinstance(result.error, AgentError) and "'clever'" in str(result.error)


def test_a_shipped_variant_travels_as_its_id() -> None:
    assert VariantSource.of(find_variant_path("ginski")) == VariantSource(shipped="ginski")
    assert VariantSource(shipped="ginski").materialise() == "ginski"


def test_a_missing_shipped_variant_on_a_worker_is_its_error_in_order() -> None:
    tasks = make_tasks(find_variant_path("gin_rummy"), count=2, seed=3, agents="greedy", hands=True, log=False)
    result = play_batch(Batch(0, tuple(tasks)), {tasks[0].variant: VariantSource(shipped="no_such_game")})
    assert result.outcomes == [] and isinstance(result.error, VariantError)
    assert "no shipped variant or file 'no_such_game'" in str(result.error)


def write_house_rules(folder: Path) -> Path:
    """A house rule two files deep: sub/house.yaml extends ../base.yaml extends gin_rummy."""
    (folder / "sub").mkdir(parents=True)
    (folder / "base.yaml").write_text(
        "rummydsl: 1\nid: house_base\nextends: gin_rummy\nname: House base\nknock: {limit: '7'}\n")
    (folder / "sub" / "house.yaml").write_text(
        "rummydsl: 1\nid: house\nextends: ../base.yaml\nname: House\ngame: {target: 50}\n")
    return folder / "sub" / "house.yaml"


def test_a_house_rule_file_travels_as_text_and_plays_the_same_without_its_files(tmp_path: Path) -> None:
    house = write_house_rules(tmp_path / "driver")
    path = find_variant_path(str(house))
    source = VariantSource.of(path)
    assert source.shipped is None
    # gin_rummy, extended by id, is not sent: every worker has it
    assert [name for name, _ in source.files] == [str(Path("sub", "house.yaml")), "base.yaml"]
    tasks = make_tasks(path, count=3, seed=5, agents="greedy", hands=False, log=False)
    here = list(LocalBackend(1).run(tasks))
    shutil.rmtree(tmp_path / "driver")   # as on a worker of another machine: the files are not there
    result = play_batch(Batch(0, tuple(tasks)), {path: source})
    assert result.error is None
    assert fingerprint(result.outcomes) == fingerprint(here)
    worker_path = source.materialise()
    assert worker_path != path and load_variant(worker_path).id == "house"
    assert load_variant(worker_path).game.target == 50 and source.materialise() == worker_path


def test_a_chain_file_that_cannot_be_read_is_a_backend_error_naming_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import rummydsl.backends.source as source  # where VariantSource.of opens the files

    house = write_house_rules(tmp_path)
    real_open = open

    def refuse_base(file: str, *args: object, **keywords: object) -> object:
        if file.endswith("base.yaml"):
            raise PermissionError(13, "Permission denied")
        return real_open(file, *args, **keywords)  # type: ignore[call-overload]

    monkeypatch.setattr(source, "open", refuse_base, raising=False)
    with pytest.raises(BackendError) as caught:
        VariantSource.of(str(house))
    base = str((tmp_path / "base.yaml").resolve())
    assert str(caught.value) == (f"cannot read {base!r} to send it to the workers: "
                                 "[Errno 13] Permission denied")


# -- without Ray --------------------------------------------------------------------------


def test_without_ray_the_ray_flag_is_a_usage_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)   # `import ray` raises ImportError
    code, out, err = run("simulate", "gin_rummy", "--games", "1", "--seed", "1", "--ray")
    assert (code, out) == (2, "")
    assert err == ("rummydsl simulate: --ray needs Ray, which is not installed; "
                   "install it with pip install 'rummydsl[ray]'\n")
    with pytest.raises(BackendError, match=r"pip install 'rummydsl\[ray\]'"):
        RayBackend()


@pytest.mark.parametrize("keywords,message", [
    ({"batch": 0}, "a Ray batch must hold at least 1 game, got 0"),
    ({"in_flight": -1}, "at least 1 Ray batch must be in flight, got -1"),
])
def test_bad_ray_settings_are_refused(keywords: dict[str, int], message: str) -> None:
    pytest.importorskip("ray")
    with pytest.raises(BackendError) as caught:
        RayBackend(**keywords)  # type: ignore[arg-type]
    assert str(caught.value) == message
