"""Start-up (issue 22): each command imports only what it uses (``rummydsl check`` loads the
variant loader and nothing of the games, the lab or the servers), and the script leaves
without a last walk of the cycle collector.

Each case runs the command in a fresh interpreter and reads ``sys.modules`` after it,
so what an earlier test imported does not count. No timing is measured here (that is
benchmarks/bench_check.py).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from rummydsl.cli.parser import COMMANDS, build_parser, command_of

REPO = Path(__file__).resolve().parents[2]

_PROBE = (
    "import io, json, sys\n"
    "from rummydsl.cli import main\n"
    "code = main(sys.argv[1:], stdout=io.StringIO(), stderr=io.StringIO())\n"
    "print(json.dumps([code, sorted(sys.modules)]))\n"
)

_GAMES = ("rummydsl.engine", "rummydsl.agents", "rummydsl.envs", "rummydsl.record", "rummydsl.simulate",
          "rummydsl.backends", "rummydsl.melds", "rummydsl.scoring")
_TOOLS = ("rummydsl.lab", "rummydsl.conformance", "rummydsl.web", "rummydsl.lsp", "rummydsl.terminal",
          "rummydsl.explainer", "rummydsl.save")
_THIRD_PARTY = ("numpy", "ray", "fastapi", "starlette", "uvicorn", "pygls", "matplotlib", "gymnasium",
                "pettingzoo", "hypothesis", "multiprocessing", "concurrent")


def _modules(*argv: str) -> tuple[int, set[str]]:
    result = subprocess.run([sys.executable, "-c", _PROBE, *argv], capture_output=True, text=True, cwd=REPO,
                            check=True)
    code, modules = json.loads(result.stdout.splitlines()[-1])
    return code, set(modules)


def _loaded(modules: set[str], packages: tuple[str, ...]) -> list[str]:
    return sorted(m for m in modules if any(m == p or m.startswith(p + ".") for p in packages))


def test_check_imports_the_loader_and_nothing_of_the_games() -> None:
    code, modules = _modules("check", "variants/", "tests/examples/good")
    assert code == 0
    assert "rummydsl.variant" in modules and "rummydsl.cli.check" in modules
    assert _loaded(modules, _GAMES + _TOOLS + _THIRD_PARTY) == []
    # The other commands' modules of the CLI are not imported either.
    assert _loaded(modules, ("rummydsl.cli",)) == ["rummydsl.cli", "rummydsl.cli.check", "rummydsl.cli.parser"]
    # Valid files pass the compiled schema check, so jsonschema is not imported.
    assert "jsonschema" not in modules


def test_check_json_of_a_broken_file_imports_no_games(tmp_path: Path) -> None:
    broken = tmp_path / "broken.yaml"
    broken.write_text("extends: gin_rummy\nname: Broken\ndeal: {hand_size: many}\n", encoding="utf-8")
    code, modules = _modules("check", "--json", str(broken))
    assert code == 1
    assert _loaded(modules, _GAMES + _TOOLS + _THIRD_PARTY) == []


@pytest.mark.parametrize("argv", [["--help"], ["--version"], [], ["play", "--help"], ["serve", "--help"],
                                  ["replay", "--help"], ["simulate", "--help"]])
def test_help_and_version_import_only_the_parser(argv: list[str]) -> None:
    _, modules = _modules(*argv)
    assert _loaded(modules, ("rummydsl",)) == ["rummydsl", "rummydsl.cli", "rummydsl.cli.parser",
                                               "rummydsl.errors", "rummydsl.safetext"]


@pytest.mark.parametrize("command", ["compare", "sweep", "tournament"])
def test_the_lab_commands_help_imports_only_their_flags(command: str) -> None:
    """``compare --help`` (and sweep's, tournament's) builds the flags from
    :mod:`rummydsl.lab.command` and its defaults, without the games or the lab's runs."""
    code, modules = _modules(command, "--help")
    assert code == 0
    assert _loaded(modules, _GAMES + _THIRD_PARTY) == []
    assert _loaded(modules, ("rummydsl.lab",)) == ["rummydsl.lab", "rummydsl.lab.command", "rummydsl.lab.defaults"]


def test_explain_and_variants_load_no_games() -> None:
    for argv in (["explain", "gin_rummy"], ["variants"]):
        code, modules = _modules(*argv)
        assert code == 0
        assert _loaded(modules, _GAMES + ("rummydsl.lab", "rummydsl.web", "rummydsl.conformance")) == [], argv


def test_the_parser_built_for_one_command_parses_as_the_whole_one() -> None:
    """``main`` builds only the named command's arguments; the result is the same."""
    cases = [["check", "variants/", "--json", "--play", "2"],
             ["simulate", "gin_rummy", "--games", "3", "--seed", "1", "--ray"],
             ["compare", "gin_rummy", "oklahoma_gin", "--games", "2", "--seed", "3"],
             ["test", "tests/conformance", "-k", "gin"], ["serve", "--port", "0"]]
    for argv in cases:
        assert command_of(argv) == argv[0]
        assert build_parser(only=argv[0]).parse_args(argv) == build_parser().parse_args(argv)


def test_every_command_is_listed_without_its_arguments() -> None:
    text = build_parser(only="").format_help()
    assert all(name in text for name in COMMANDS)
    assert command_of(["--version", "check"]) == "check"
    assert command_of(["nonsense", "check"]) is None


def test_the_script_exits_with_the_code_of_main(monkeypatch: pytest.MonkeyPatch) -> None:
    """``run`` (the ``rummydsl`` script) freezes what is left before it exits, so that
    Python's last collection at shutdown skips it; the exit code is ``main``'s."""
    import gc

    from rummydsl.cli import run

    monkeypatch.setattr(sys, "argv", ["rummydsl", "--version"])
    gc.unfreeze()  # what tests/conftest.py froze after collection: so only run() can freeze here
    assert gc.get_freeze_count() == 0
    try:
        with pytest.raises(SystemExit) as done:
            run()
        assert done.value.code == 0
        assert gc.get_freeze_count() > 0
    finally:
        gc.unfreeze()  # this process goes on: give its objects back to the collector
        gc.collect()
        gc.freeze()  # and freeze what is left, as tests/conftest.py does after collection


def test_python_m_runs_the_script_with_its_exit_codes(tmp_path: Path) -> None:
    broken = tmp_path / "broken.yaml"
    broken.write_text("extends: gin_rummy\ndeal: {hand_size: many}\n", encoding="utf-8")
    for path, code in (("variants/", 0), (str(broken), 1)):
        result = subprocess.run([sys.executable, "-m", "rummydsl.cli", "check", "-q", path], capture_output=True,
                                text=True, cwd=REPO)
        assert result.returncode == code, result.stderr
        assert "checked:" in result.stdout


def test_check_gives_the_cycle_collector_back() -> None:
    """``check`` pauses the collector while it reads the files, and only then."""
    import gc
    import io

    from rummydsl.cli import main

    assert gc.isenabled()
    assert main(["check", "-q", "variants/gin_rummy.yaml"], stdout=io.StringIO(), stderr=io.StringIO()) == 0
    assert gc.isenabled()
