"""Fuzzing the variant loader and checker (fuzz/targets.py ``load``): only VariantError
escapes, the libyaml and pure-Python readers agree, and a text with no error loads.

The inputs are the repository's variant files edited at random (lines, tokens,
bytes), random bytes, and random strings of YAML tokens. Tree-level edits of the
shipped variants are tests/unit/test_check_fuzz.py's.
"""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from mutations import YAML_TOKENS, fuzz_settings, mutated, repo_files
from targets import load_target

VARIANTS = repo_files("variants/*.yaml", "tests/examples/**/*.yaml", "tests/conformance/variants/*.yaml")


@fuzz_settings(60)
@given(mutated(VARIANTS))
def test_edited_variant_files_give_only_variant_errors(data: bytes) -> None:
    load_target(data)


@fuzz_settings(40)
@given(st.binary(max_size=300))
def test_random_bytes_give_only_variant_errors(data: bytes) -> None:
    load_target(data)


@fuzz_settings(40)
@given(st.lists(st.sampled_from(YAML_TOKENS + [b"\n", b"  ", b"a", b"id", b"1", b"x: "]), max_size=40))
def test_strings_of_yaml_tokens_give_only_variant_errors(tokens: list[bytes]) -> None:
    load_target(b"".join(tokens))
