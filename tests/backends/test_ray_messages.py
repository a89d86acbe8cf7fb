"""What Ray prints for its cluster never lands in a ``--ray`` command's standard output
(issue 22): a worker's death, ``(raylet) A worker died or was killed ...``, is printed by
Ray's driver to ``sys.stdout`` whenever it arrives, and would break ``--json``.

Checked without a Ray instance: a stand-in backend prints as Ray's driver does (to the
``sys.stdout`` of the moment) while the command runs and when it is closed; and, where Ray
is installed, Ray's own printing function is called under the CLI's redirection.
"""

from __future__ import annotations

import io
import json
import os
import sys
from typing import Any, Generator, Sequence

import pytest

import rummydsl.backends
from rummydsl.backends import LocalBackend
from rummydsl.cli import main
from rummydsl.cli.runs import ray_messages_to

DEATH = "(raylet) A worker died or was killed while executing a task by an unexpected system error."


class ChattyBackend(LocalBackend):
    """Plays in this process, printing to ``sys.stdout`` as Ray's driver does."""

    def __init__(self, address: str | None = None, **options: Any) -> None:
        super().__init__(1)

    def cpus(self) -> int:
        return 1

    def run(self, tasks: Sequence[Any]) -> Generator[Any, None, None]:
        print(DEATH)
        yield from super().run(tasks)

    def close(self) -> None:
        print("(raylet) leftover at shutdown")


@pytest.mark.parametrize("argv", [
    ["simulate", "gin_rummy", "--hands", "1", "--seed", "3", "--agents", "greedy", "--json", "--ray"],
    ["compare", "knock_rummy", "knock_rummy", "--games", "1", "--seed", "3", "--agents", "greedy", "--json",
     "--ray"],
])
def test_ray_messages_go_to_standard_error(argv: list[str], monkeypatch: pytest.MonkeyPatch,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(rummydsl.backends, "RayBackend", ChattyBackend)
    monkeypatch.delenv("RAY_COLOR_PREFIX", raising=False)
    code = main(argv, stdin=io.StringIO())  # the process's own streams, as the command line has them
    out, err = capsys.readouterr()
    assert code == 0, err
    figures = json.loads(out)  # the whole of standard output is the command's JSON
    assert isinstance(figures, dict)
    assert DEATH in err and "leftover at shutdown" in err
    assert "RAY_COLOR_PREFIX" not in os.environ  # set only while the command ran
    print("after the command", flush=True)
    assert capsys.readouterr().out == "after the command\n"  # sys.stdout is given back


def test_a_chosen_colour_setting_is_kept() -> None:
    os.environ["RAY_COLOR_PREFIX"] = "1"
    try:
        with ray_messages_to(io.StringIO()):
            assert os.environ["RAY_COLOR_PREFIX"] == "1"
        assert os.environ["RAY_COLOR_PREFIX"] == "1"
    finally:
        del os.environ["RAY_COLOR_PREFIX"]


def test_rays_own_printing_follows_the_redirection() -> None:
    """Ray's driver prints cluster messages with ``print_to_stdstream`` (Ray 2.x); under
    :func:`ray_messages_to` a raylet line reaches the stream given, without colour codes."""
    pytest.importorskip("ray", reason="Ray is not installed (pip install 'rummydsl[ray]')")
    worker = pytest.importorskip("ray._private.worker")
    printer = getattr(worker, "print_to_stdstream", None)
    if printer is None:  # pragma: no cover - another Ray layout
        pytest.skip("this Ray prints cluster messages another way")
    err = io.StringIO()
    stdout = sys.stdout
    with ray_messages_to(err):
        printer({"lines": [DEATH.removeprefix("(raylet) ") + " 22"], "pid": "raylet", "is_err": False},
                ignore_prefix=False)
    assert sys.stdout is stdout
    assert "A worker died or was killed" in err.getvalue() and "\x1b" not in err.getvalue()


def test_an_output_stream_of_its_own_is_left_alone(monkeypatch: pytest.MonkeyPatch,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    """A caller that gives ``main`` its own output stream: Ray's lines cannot reach it, and
    they stay on ``sys.stdout`` (where a test's captured output is)."""
    monkeypatch.setattr(rummydsl.backends, "RayBackend", ChattyBackend)
    out, err = io.StringIO(), io.StringIO()
    code = main(["simulate", "gin_rummy", "--hands", "1", "--seed", "3", "--agents", "greedy", "--json", "--ray"],
                stdout=out, stderr=err, stdin=io.StringIO())
    assert (code, err.getvalue()) == (0, "")
    assert isinstance(json.loads(out.getvalue()), dict)
    assert DEATH in capsys.readouterr().out
