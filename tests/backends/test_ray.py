"""The Ray backend on a local Ray instance (2 CPUs): the same figures as local
processes, games in order across batches, house-rule files sent to the workers, errors in game order. Skipped where Ray is
not installed; CI installs it (``pip install '.[test,ray]'`` in .ci/run).

Every test here shares one Ray instance, on one test worker (``xdist_group``; the
README runs ``pytest -n 2 --dist loadgroup``): two local instances started at once
conflict, and a second one started in the same process is refused its token. The
batches whose worker dies come last: Ray tells its driver of a death later, when it
chooses, and a message that lands while a test captures a command's standard output
breaks that output (it broke the house-rule test's JSON once, under two workers)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Sequence

import pytest

from rummydsl.backends import FailOnce, LocalBackend, RayBackend
from rummydsl.errors import AgentError
from rummydsl.simulate import GameOutcome, make_tasks, simulate
from rummydsl.variant import find_variant_path

from .conftest import run, without_time
from .test_local import fingerprint, write_house_rules

pytestmark = [pytest.mark.usefixtures("ray_instance"), pytest.mark.xdist_group("ray")]


@pytest.mark.parametrize("variant,unit,count", [
    ("gin_rummy", "--games", "12"),
    ("ginski", "--hands", "9"),          # three players
])
def test_ray_gives_the_figures_and_the_log_of_local_processes(
        variant: str, unit: str, count: str, tmp_path: Path) -> None:
    argv = ("simulate", variant, unit, count, "--seed", "21", "--agents", "greedy,random", "--json")
    figures = {}
    logs = {}
    for name, extra in [("one", ("--workers", "1")), ("two", ("--workers", "2")), ("ray", ("--ray",))]:
        log = tmp_path / f"{name}.jsonl"
        code, out, err = run(*argv, *extra, "--log", str(log))
        assert (code, err) == (0, ""), err
        figures[name] = without_time(out)
        logs[name] = log.read_text(encoding="utf-8")
    assert figures["one"] == figures["two"] == figures["ray"]
    assert logs["one"] == logs["two"] == logs["ray"]
    assert figures["ray"]["games" if unit == "--games" else "hands"] == int(count)


def outcomes_of(backend: object, tasks: Sequence[object]) -> list[GameOutcome]:
    return list(backend.run(tasks))  # type: ignore[attr-defined]


def test_small_batches_come_back_in_game_order() -> None:
    tasks = make_tasks(find_variant_path("gin_rummy"), count=11, seed=4, agents="greedy", hands=True, log=False)
    local = outcomes_of(LocalBackend(1), tasks)
    for batch, in_flight in [(1, 1), (1, 4), (3, 2), (4, 8)]:
        played = outcomes_of(RayBackend(batch=batch, in_flight=in_flight), tasks)
        assert fingerprint(played) == fingerprint(local), (batch, in_flight)


def test_a_house_rule_file_plays_on_ray_as_it_does_here(tmp_path: Path) -> None:
    house = write_house_rules(tmp_path / "house rules")
    code, here, err = run("simulate", str(house), "--games", "4", "--seed", "2", "--json", "--workers", "1")
    assert (code, err) == (0, ""), err
    code, on_ray, err = run("simulate", str(house), "--games", "4", "--seed", "2", "--json", "--ray")
    assert (code, err) == (0, ""), err
    assert without_time(on_ray) == without_time(here)
    assert without_time(on_ray)["variant"] == "house"


def test_an_error_comes_in_game_order_after_the_games_before_it() -> None:
    tasks = make_tasks(find_variant_path("gin_rummy"), count=6, seed=3, agents="greedy", hands=True, log=False)
    tasks[4] = replace(tasks[4], agents="clever")
    for backend in (LocalBackend(1), RayBackend(batch=2, in_flight=3)):
        seen: list[int] = []
        with pytest.raises(AgentError, match="unknown agent 'clever'"):
            for outcome in backend.run(tasks):
                seen.append(outcome.index)
        assert seen == [0, 1, 2, 3], backend


def test_stopping_early_cancels_the_rest_and_ray_stays_usable() -> None:
    tasks = make_tasks(find_variant_path("gin_rummy"), count=40, seed=3, agents="greedy", hands=True, log=False)
    backend = RayBackend(batch=2, in_flight=4)
    outcomes = backend.run(tasks)
    first = next(outcomes)
    outcomes.close()
    assert first.index == 0
    assert [o.index for o in RayBackend(batch=3).run(tasks[:5])] == [0, 1, 2, 3, 4]


def test_a_backend_that_did_not_start_ray_leaves_it_running() -> None:
    import ray

    backend = RayBackend()
    assert backend.cpus() == 2 and not backend.started
    backend.close()
    assert ray.is_initialized()


# -- compare and sweep on Ray (issue 12) ----------------------------------------------------


@pytest.mark.parametrize("argv", [
    ("compare", "gin_rummy", "straight_gin", "oklahoma_gin", "--games", "6", "--seed", "5"),
    ("compare", "gin_rummy", "skarney_gin", "--until", "0.5", "--max-games", "4", "--seed", "3"),
    ("sweep", "gin_rummy", "--set", "knock.limit=5,10", "--games", "5", "--seed", "9",
     "--agents", "greedy,random"),
])
def test_compare_and_sweep_on_ray_give_the_figures_of_one_local_worker(argv: tuple[str, ...]) -> None:
    code, local, err = run(*argv, "--json", "--workers", "1")
    assert (code, err) == (0, ""), err
    code, on_ray, err = run(*argv, "--json", "--ray")
    assert (code, err) == (0, ""), err
    assert without_time(on_ray) == without_time(local)


def test_a_sweep_of_a_house_rule_file_plays_on_ray_as_it_does_here(tmp_path: Path) -> None:
    house = write_house_rules(tmp_path / "house rules")
    argv = ("sweep", str(house), "--set", "options.gin_bonus=20,30", "--games", "4", "--seed", "2", "--json")
    code, here, err = run(*argv, "--workers", "1")
    assert (code, err) == (0, ""), err
    code, on_ray, err = run(*argv, "--ray")
    assert (code, err) == (0, ""), err
    assert without_time(on_ray) == without_time(here)
    assert [arm["base"] for arm in without_time(on_ray)["variants"]] == [str(house.resolve())] * 2  # type: ignore[index]


def test_a_compare_begun_on_ray_resumes_in_local_processes_to_the_same_file(tmp_path: Path) -> None:
    argv = ("compare", "gin_rummy", "oklahoma_gin", "--games", "6", "--seed", "11")
    on_ray, local = tmp_path / "ray.jsonl", tmp_path / "local.jsonl"
    code, _, err = run(*argv, "--ray", "--out", str(on_ray))
    assert (code, err) == (0, ""), err
    code, whole, err = run(*argv, "--workers", "1", "--out", str(local), "--json")  # the file and the figures, one run
    assert (code, err) == (0, ""), err
    assert on_ray.read_bytes() == local.read_bytes()
    lines = on_ray.read_bytes().split(b"\n")
    on_ray.write_bytes(b"\n".join(lines[:6]) + b"\n")   # from game 3 of oklahoma_gin on, lost
    code, resumed, err = run(*argv, "--workers", "1", "--resume", str(on_ray), "--json")
    assert (code, err) == (0, ""), err
    assert without_time(resumed) == without_time(whole)
    assert on_ray.read_bytes() == local.read_bytes()


# -- what a local instance opens (issue 17: no port on every interface, no shared /tmp) -------


def _listening_inodes() -> dict[str, str]:
    """Socket inode -> the local address of every listening TCP socket (IPv4 and IPv6), from /proc/net."""
    found: dict[str, str] = {}
    for name in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            rows = Path(name).read_text(encoding="ascii").splitlines()[1:]
        except OSError:
            continue
        for row in rows:
            fields = row.split()
            if fields[3] == "0A":  # TCP_LISTEN
                found[fields[9]] = fields[1].split(":")[0]
    return found


def _loopback(address: str) -> bool:
    """Whether a /proc/net address (hex, in the kernel's byte order) is a loopback address:
    127.x.x.x, ::1 or ::ffff:127.x.x.x."""
    if len(address) == 8:
        return address.endswith("7F")  # little-endian: the first byte is the last pair
    return address in ("00000000000000000000000001000000",) or (
        address.startswith("0000000000000000FFFF0000") and address.endswith("7F"))


def _tree(root: int) -> list[int]:
    """``root`` and every process descending from it (by /proc/PID/stat's parent ids)."""
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                parents[int(entry.name)] = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
    tree, todo = [root], [root]
    while todo:
        pid = todo.pop()
        children = [child for child, parent in parents.items() if parent == pid]
        tree += children
        todo += children
    return tree


@pytest.mark.skipif(not Path("/proc/net/tcp").exists(), reason="reads the listening sockets from /proc/net")
def test_a_local_instance_listens_on_the_loopback_address_only(ray_instance: RayBackend) -> None:
    import os

    import ray

    @ray.remote
    def touch() -> int:
        return os.getpid()

    assert ray.get(touch.remote()) > 0  # a worker has started too
    listening = _listening_inodes()
    opened = {}
    for pid in _tree(os.getpid()):
        try:
            descriptors = list(Path(f"/proc/{pid}/fd").iterdir())
        except OSError:
            continue
        for descriptor in descriptors:
            try:
                target = os.readlink(descriptor)
            except OSError:
                continue
            inode = target[len("socket:["):-1] if target.startswith("socket:[") else ""
            if inode in listening:
                opened[(pid, inode)] = listening[inode]
    assert opened, "a local Ray instance listens on some port"
    assert {where: address for where, address in opened.items() if not _loopback(address)} == {}


def test_a_local_instance_keeps_its_files_in_a_private_folder(ray_instance: RayBackend) -> None:
    import os
    import stat

    root = ray_instance.root
    assert root is not None and Path(root, "r").is_dir()
    mode = os.stat(root)
    assert stat.S_IMODE(mode.st_mode) == 0o700 and mode.st_uid == os.getuid()
    if "RAY_AUTH_MODE" in ray_instance._saved:  # not chosen by whoever runs the tests: a token
        assert os.environ["RAY_AUTH_MODE"] == "token" and len(os.environ["RAY_AUTH_TOKEN"]) == 64


# -- last: the batches whose worker dies (see the module's docstring) ---------------------


def test_a_batch_whose_worker_dies_is_retried_and_counted_once(tmp_path: Path) -> None:
    marker = tmp_path / "died"
    backend = RayBackend(batch=2, in_flight=2, fail_once=FailOnce(batch=1, marker=str(marker)))
    crashed = simulate("gin_rummy", hands=8, seed=6, agents="greedy", backend=backend)
    assert marker.exists()  # the worker of batch 1 (hands 3 and 4) did exit on its first attempt
    local = simulate("gin_rummy", hands=8, seed=6, agents="greedy", workers=1)
    assert crashed.hands == 8
    assert crashed.as_json(0.0) == local.as_json(0.0)


def test_a_batch_whose_worker_always_dies_is_a_backend_error_naming_its_games(tmp_path: Path) -> None:
    from rummydsl.errors import BackendError

    marker = tmp_path / "died"

    class Always(FailOnce):
        def strike(self, batch: int) -> None:
            if batch == self.batch:
                import os

                os._exit(70)

    tasks = make_tasks(find_variant_path("gin_rummy"), count=4, seed=6, agents="greedy", hands=True, log=False)
    backend = RayBackend(batch=2, in_flight=2, max_retries=1, fail_once=Always(batch=1, marker=str(marker)))
    seen: list[int] = []
    with pytest.raises(BackendError) as caught:
        for outcome in backend.run(tasks):
            seen.append(outcome.index)
    assert seen == [0, 1]
    assert str(caught.value).startswith("batch 1 (games 3 to 4) failed on Ray after 1 retries: ")
