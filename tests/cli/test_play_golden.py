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


if __name__ == "__main__":
    for name in sys.argv[1:] or shipped_variant_ids():
        (GOLDEN / f"{name}.txt").write_text(screen(name), encoding="utf-8")
        print(f"wrote {GOLDEN / name}.txt")
