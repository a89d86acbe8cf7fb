"""What each defect found by fuzzing does now, exactly (the corpus test only says it
no longer crashes). One test a fix, named after its corpus file."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from rummydsl.cli import main
from rummydsl.errors import RecordError
from rummydsl.record import replay_record

CORPUS = Path(__file__).resolve().parent / "corpus"


def test_record_not_utf8_line(tmp_path: Path) -> None:
    path = tmp_path / "game.jsonl"
    path.write_bytes((CORPUS / "record" / "not_utf8_line.jsonl").read_bytes())
    with pytest.raises(RecordError) as caught:
        replay_record(str(path))
    assert str(caught.value) == f"{path}:2: not UTF-8 text: byte 0x80 at byte 32 of the line"


@pytest.mark.parametrize("argv", [["--help"], ["play", "--help"], ["check", "-h", "x.yaml"]])
def test_cli_help_exits(argv: list[str]) -> None:
    out, err = io.StringIO(), io.StringIO()
    assert main(argv, stdout=out, stderr=err) == 0
    assert out.getvalue().startswith("usage: rummydsl")
    assert err.getvalue() == ""


def test_record_deal_score_not_a_number(tmp_path: Path) -> None:
    path = tmp_path / "game.jsonl"
    path.write_bytes((CORPUS / "record" / "deal_score_not_a_number.jsonl").read_bytes())
    with pytest.raises(RecordError) as caught:
        replay_record(str(path))
    assert str(caught.value) == f"{path}:3: scores: P1: expected a whole number, got None"
