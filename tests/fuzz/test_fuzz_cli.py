"""Fuzzing the command line (fuzz/targets.py ``cli``): whatever the arguments and the
file they name, ``main`` returns 0, 1 or 2 (DESIGN.md) and prints no traceback.

The command lines are put together from every subcommand's flags and values, odd
ones mixed in; the file ``v.yaml`` they may name is a shipped variant, suite or
record edited at random (mutations.py), so each subcommand reads a near-miss of
what it expects. Commands that start other programs are not fuzzed (targets.py),
and no folder but the test's own is named (``check /`` would walk the whole disk).
"""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from mutations import fuzz_settings, mutated, repo_files
from seeds import seeds
from targets import cli_input, cli_target

FILES = (repo_files("variants/gin_rummy.yaml", "variants/oklahoma_gin.yaml", "variants/ginski.yaml",
                    "tests/examples/good/*.yaml", "tests/conformance/ginski/melds.suite.yaml",
                    "tests/conformance/variants/gr_knock_7.yaml")
         + seeds("record")[:1])
VALUES = ["v.yaml", "gin_rummy", "ginski", "skarney_gin", "nope", "missing.yaml", ".", "v.yaml/x", "",
          "-", "0", "1", "3", "-1", "x", "2.5", "random", "greedy", "random,greedy", "bogus", "P1", "P2", "P9",
          "AS", "7H", "*", "4R", "out.jsonl", "--", "--json", "-k", "--help", "é", "\x7f", "a" * 300,
          "../v.yaml"]
FLAGS = {
    "check": ["--json", "--no-warnings", "-q", "--quiet", "--play"],
    "explain": ["--markdown"],
    "schema": ["--output", "-o", "--strict"],
    "melds": ["--json", "--batch"],
    "variants": [],
    "simulate": ["--games", "--hands", "--seed", "--agents", "--json", "--log"],
    "replay": [],
    "play": ["--agents", "--seed", "--seat", "--log"],
    "test": ["--json", "-k", "--coverage", "-q"],
}


@st.composite
def command_lines(draw: st.DrawFn) -> list[str]:
    """A subcommand (or nonsense), then its flags and values in any order."""
    command = draw(st.sampled_from([*FLAGS, "chek", "--version", ""]))
    words = draw(st.lists(st.sampled_from(FLAGS.get(command, []) + VALUES), max_size=6))
    if command in ("simulate",) and draw(st.booleans()):
        words += ["v.yaml", draw(st.sampled_from(["--games", "--hands"])), draw(st.sampled_from(["1", "2"])),
                  "--seed", draw(st.sampled_from(["0", "5", "-3"]))]
    return [command, *words] if command else words


@fuzz_settings(60)
@given(command_lines(), mutated(FILES))
def test_any_command_line_exits_0_1_or_2_without_a_traceback(argv: list[str], file: bytes) -> None:
    cli_target(cli_input(argv, file))


@fuzz_settings(30)
@given(st.sampled_from(list(FLAGS)), st.sampled_from(FILES))
def test_every_command_on_a_shipped_file_exits_0_1_or_2(command: str, file: bytes) -> None:
    cli_target(cli_input([command, "v.yaml"], file))
