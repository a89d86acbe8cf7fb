"""The regression corpus: every input a fuzzer found a crash with, replayed through the
same entry point (fuzz/targets.py), one test a file.

``corpus/<target>/<name>`` is an input of target ``<target>``; its name says what
the crash was. A test fails if the crash comes back (fuzz/README.md says how to add
a file).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from targets import TARGETS

CORPUS = Path(__file__).resolve().parent / "corpus"
FILES = sorted(p for p in CORPUS.glob("*/*") if p.is_file() and not p.name.startswith("."))


def test_every_corpus_folder_names_a_target() -> None:
    folders = {p.name for p in CORPUS.iterdir() if p.is_dir()}
    assert folders <= set(TARGETS), folders - set(TARGETS)


@pytest.mark.parametrize("path", FILES, ids=[f"{p.parent.name}/{p.name}" for p in FILES])
def test_a_crash_found_by_fuzzing_stays_fixed(path: Path) -> None:
    TARGETS[path.parent.name](path.read_bytes())
