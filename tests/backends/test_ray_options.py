"""What ``--ray`` asks of Ray, checked without Ray (a stand-in ``ray`` module records the
``ray.init`` call): with no address, a new local instance on the loopback address, with no
dashboard, its files in a private folder, token authentication, and all of it undone by
``close()``; with an address (or RAY_ADDRESS), the cluster's own settings, untouched
(docs/security.md, docs/scale.md)."""

from __future__ import annotations

import os
import stat
import sys
import types
from pathlib import Path
from typing import Any

import pytest

from rummydsl.backends import ray_tasks
from rummydsl.backends import RayBackend


class FakeRay(types.ModuleType):
    """Enough of ``ray`` for :meth:`RayBackend._connect` and :meth:`RayBackend.close`."""

    def __init__(self) -> None:
        super().__init__("ray")
        self.calls: list[dict[str, Any]] = []
        self.environment: list[dict[str, str | None]] = []
        self.running = False

    def is_initialized(self) -> bool:
        return self.running

    def init(self, **options: Any) -> None:
        self.calls.append(options)
        self.environment.append({name: os.environ.get(name) for name in
                                 ("RAY_AUTH_MODE", "RAY_AUTH_TOKEN", "RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER")})
        self.constant = constants.ENABLE_RAY_CLUSTER
        self.running = True

    def shutdown(self) -> None:
        self.running = False

    def cluster_resources(self) -> dict[str, float]:
        return {"CPU": 2.0}


constants = types.ModuleType("ray._private.ray_constants")


@pytest.fixture
def fake_ray(monkeypatch: pytest.MonkeyPatch) -> FakeRay:
    ray = FakeRay()
    private = types.ModuleType("ray._private")
    constants.ENABLE_RAY_CLUSTER = True  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "ray", ray)
    monkeypatch.setitem(sys.modules, "ray._private", private)
    monkeypatch.setitem(sys.modules, "ray._private.ray_constants", constants)
    for name in ("RAY_ADDRESS", "RAY_AUTH_MODE", "RAY_AUTH_TOKEN", "RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER"):
        monkeypatch.delenv(name, raising=False)
    return ray


def test_no_address_starts_a_private_loopback_instance(fake_ray: FakeRay) -> None:
    backend = RayBackend()
    assert backend.cpus() == 2
    (options,) = fake_ray.calls
    root = backend.root
    assert root is not None
    assert options["address"] == "local"  # never a cluster found on the machine
    assert options["include_dashboard"] is False
    assert options["_node_ip_address"] == "127.0.0.1"
    assert options["_temp_dir"] == os.path.join(root, "r")
    info = os.stat(root)
    assert stat.S_IMODE(info.st_mode) == 0o700 and info.st_uid == os.getuid()
    assert len(root) <= ray_tasks._MAX_RAY_ROOT  # room for Ray's sockets below it
    (environment,) = fake_ray.environment
    assert environment["RAY_AUTH_MODE"] == "token" and len(environment["RAY_AUTH_TOKEN"] or "") == 64
    assert environment["RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER"] == "0" and fake_ray.constant is False
    backend.close()
    assert not Path(root).exists()
    assert "RAY_AUTH_MODE" not in os.environ and "RAY_AUTH_TOKEN" not in os.environ
    assert "RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER" not in os.environ
    assert constants.ENABLE_RAY_CLUSTER is True  # type: ignore[attr-defined]


def test_a_chosen_authentication_mode_is_respected(fake_ray: FakeRay, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RAY_AUTH_MODE", "disabled")
    backend = RayBackend()
    backend.cpus()
    assert fake_ray.environment[0]["RAY_AUTH_MODE"] == "disabled"
    assert fake_ray.environment[0]["RAY_AUTH_TOKEN"] is None
    backend.close()
    assert os.environ["RAY_AUTH_MODE"] == "disabled"


@pytest.mark.parametrize("address,variable", [("head:6379", None), ("ray://head:10001", None), (None, "head:6379")])
def test_a_cluster_is_reached_with_its_own_settings(address: str | None, variable: str | None, fake_ray: FakeRay,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    if variable is not None:
        monkeypatch.setenv("RAY_ADDRESS", variable)
    backend = RayBackend(address)
    backend.cpus()
    (options,) = fake_ray.calls
    assert options["address"] == address
    assert "_temp_dir" not in options and "_node_ip_address" not in options
    assert backend.root is None and fake_ray.environment[0]["RAY_AUTH_TOKEN"] is None
    backend.close()


def test_a_failed_start_leaves_nothing(fake_ray: FakeRay, monkeypatch: pytest.MonkeyPatch) -> None:
    from rummydsl.errors import BackendError

    def refuse(**options: Any) -> None:
        raise RuntimeError("no room")

    monkeypatch.setattr(fake_ray, "init", refuse)
    backend = RayBackend()
    made: list[str] = []
    real = ray_tasks.private_ray_root
    monkeypatch.setattr(ray_tasks, "private_ray_root", lambda: made.append(real()) or made[-1])
    with pytest.raises(BackendError, match="cannot start or reach a Ray instance: no room"):
        backend.cpus()
    assert made and not Path(made[0]).exists()
    assert "RAY_AUTH_TOKEN" not in os.environ and constants.ENABLE_RAY_CLUSTER is True  # type: ignore[attr-defined]


def test_a_program_agent_never_sees_the_ray_token(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """A local instance keeps its token in the environment: a program agent is started without it."""
    import io

    from rummydsl.cli import main

    seen = tmp_path / "env.txt"
    program = tmp_path / "p.py"
    program.write_text("import json, os, sys\n"
                       f"open({str(seen)!r}, 'w').write(repr(sorted(os.environ)))\n"
                       "for line in sys.stdin:\n"
                       "    m = json.loads(line)\n"
                       "    if m['type'] == 'quit': break\n"
                       "    if m['type'] == 'act': print(m['legal'][0], flush=True)\n", encoding="utf-8")
    monkeypatch.setenv("RAY_AUTH_TOKEN", "secret-token")
    out, err = io.StringIO(), io.StringIO()
    code = main(["simulate", "gin_rummy", "--games", "1", "--seed", "1", "--agents",
                 f"greedy,cmd:{sys.executable} {program}"], stdout=out, stderr=err, stdin=io.StringIO())
    assert (code, err.getvalue()) == (0, "")
    names = seen.read_text(encoding="utf-8")
    assert "RAY_AUTH_TOKEN" not in names and "RUMMYDSL_AGENT_TOKEN" in names
