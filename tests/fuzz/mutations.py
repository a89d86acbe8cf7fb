"""Hypothesis strategies that mutate files, and the settings every fuzz test shares.

:func:`mutated` applies 1 to 4 edits to the bytes of a real file: a line deleted,
doubled, swapped, indented or taken from another file; a token of the format
inserted; a byte changed; the end cut off. Most results are still nearly the
file, so they reach past the first parser into the checks behind it.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Sequence

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

REPO = Path(__file__).resolve().parents[2]

SCALE = max(1, int(os.environ.get("RUMMYDSL_FUZZ_EXAMPLES", "1") or "1"))
"""How many times the default number of examples a fuzz test runs (a long run sets it)."""


def fuzz_settings(examples: int) -> settings:
    """The settings of a fuzz test of ``examples`` examples (times :data:`SCALE`): no
    deadline (no wall-clock limits in tests), and no health check about slow data."""
    return settings(max_examples=examples * SCALE, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                           HealthCheck.filter_too_much])


def repo_files(*patterns: str) -> list[bytes]:
    """The bytes of the repository's files matching ``patterns``, sorted by path."""
    paths = sorted({p for pattern in patterns for p in REPO.glob(pattern) if ".venv" not in p.parts})
    return [p.read_bytes() for p in paths]


YAML_TOKENS = [b": ", b"- ", b"? ", b"&a ", b"*a", b"<<: *a", b"!!python/name:os.system", b"!!str ",
               b"!!binary ", b"!x ", b"%YAML 1.1\n", b"---\n", b"...\n", b"\t", b"\r\n", b"\xc2\x85",
               b"\xe2\x80\xa8", b"\xef\xbb\xbf", b"'", b'"', b"|", b">-", b"{", b"}", b"[", b"]", b",", b"#",
               b"~", b"null", b"yes", b"0x1F", b"1e400", b".nan", b"99999999999999999999999", b"2001-12-14",
               b"\x00", b"\xff", "é♠".encode(), b"extends: ", b"./", b"../", b"gin_rummy", b"size >= 3",
               b"deadwood(ender)", b" ? 1 : ", b"(", b")", b"//", b"-", b"0"]


@st.composite
def mutated(draw: st.DrawFn, sources: Sequence[bytes], tokens: Sequence[bytes] = YAML_TOKENS) -> bytes:
    """One of ``sources``, edited 1 to 4 times (module docstring)."""
    data = draw(st.sampled_from(list(sources)))
    for _ in range(draw(st.integers(1, 4))):
        lines = data.splitlines(keepends=True) or [b""]
        at = draw(st.integers(0, len(lines) - 1))
        edit = draw(st.sampled_from(["delete", "double", "swap", "indent", "dedent", "splice", "token",
                                     "token", "byte", "cut"]))
        if edit == "delete":
            del lines[at]
        elif edit == "double":
            lines.insert(at, lines[at])
        elif edit == "swap":
            other = draw(st.integers(0, len(lines) - 1))
            lines[at], lines[other] = lines[other], lines[at]
        elif edit == "indent":
            lines[at] = b"  " + lines[at]
        elif edit == "dedent":
            lines[at] = lines[at][min(2, len(lines[at]) - len(lines[at].lstrip(b" "))):]
        elif edit == "splice":
            donor = draw(st.sampled_from(list(sources))).splitlines(keepends=True) or [b""]
            lines[at] = draw(st.sampled_from(donor))
        else:
            whole = b"".join(lines)
            offset = draw(st.integers(0, len(whole)))
            if edit == "token":
                whole = whole[:offset] + draw(st.sampled_from(list(tokens))) + whole[offset:]
            elif edit == "byte":
                whole = whole[:offset] + bytes([draw(st.integers(0, 255))]) + whole[offset + 1:]
            else:
                whole = whole[:offset]
            lines = [whole]
        data = b"".join(lines)
    return data
