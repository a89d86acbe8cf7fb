"""A golden play screen per shipped variant (issue 23): ``rummydsl play VARIANT --seed 1``
with a person who asks for help, plays the first move listed a few times, asks for a
hint and the score sheet, and quits; the whole output compared with
tests/cli/golden_play/VARIANT.txt.

Captured streams, not a pty: the pty adds only the echo of what is typed (the
acceptance tests, tests/acceptance/test_play_terminal.py, play in a real one). After a
deliberate change of the screen, write the files again and read the diff::

    python tests/cli/test_play_golden.py            # every shipped variant
    python tests/cli/test_play_golden.py ginski     # one
"""

from __future__ import annotations

import io
import sys
from pathlib import Path

import pytest

from rummydsl.variant import shipped_variant_ids

GOLDEN = Path(__file__).resolve().parent / "golden_play"
MOVES = 8
"""How many times the person plays the first move listed."""
TYPED = "help\n" + "1\n" * MOVES + "hint\nscore\nquit\n"


def screen(variant: str) -> str:
    """What ``rummydsl play VARIANT --seed 1`` prints for :data:`TYPED`."""
    from rummydsl.cli import main

    out, err = io.StringIO(), io.StringIO()
    code = main(["play", variant, "--seed", "1"], stdout=out, stderr=err, stdin=io.StringIO(TYPED))
    assert (code, err.getvalue()) == (0, "")
    return out.getvalue()


@pytest.mark.parametrize("variant", shipped_variant_ids())
def test_the_play_screen_is_as_written(variant: str) -> None:
    expected = (GOLDEN / f"{variant}.txt").read_text(encoding="utf-8")
    assert screen(variant) == expected, f"the screen changed: python {Path(__file__).name} {variant}"


def test_every_shipped_variant_has_a_golden_screen() -> None:
    assert sorted(p.stem for p in GOLDEN.glob("*.txt")) == sorted(shipped_variant_ids())


def test_the_screen_docs_cli_md_shows_is_a_golden_one() -> None:
    """docs/cli.md's play section shows a screen of one of these files, as it is."""
    import re

    doc = (Path(__file__).resolve().parents[2] / "docs" / "cli.md").read_text(encoding="utf-8")
    section = doc.split("\n## play\n", 1)[1].split("\n## ", 1)[0]
    named = re.search(r"This screen is from tests/cli/golden_play/(\w+)\.txt:\n\n```\n(.*?)```", section, re.S)
    assert named is not None
    block = named.group(2).splitlines()  # the last line is the prompt, which the golden answers on its line
    lines = [line.rstrip() for line in (GOLDEN / f"{named.group(1)}.txt").read_text(encoding="utf-8").splitlines()]
    n = len(block)
    assert any(lines[i:i + n - 1] == block[:-1] and lines[i + n - 1].startswith(block[-1])
               for i in range(len(lines) - n + 1))


if __name__ == "__main__":
    for name in sys.argv[1:] or shipped_variant_ids():
        (GOLDEN / f"{name}.txt").write_text(screen(name), encoding="utf-8")
        print(f"wrote {GOLDEN / name}.txt")
