"""What each defect found by fuzzing does now, exactly (the corpus test only says it
no longer crashes). One test a fix, named after its corpus file."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest

from rummydsl.cards import Deck
from rummydsl.cli import main
from rummydsl.errors import ExpressionError, RecordError, VariantError
from rummydsl.expr import Context, Env, compile_expression
from rummydsl.record import replay_record

CORPUS = Path(__file__).resolve().parent / "corpus"


def test_record_not_utf8_line(tmp_path: Path) -> None:
    path = tmp_path / "game.jsonl"
    path.write_bytes((CORPUS / "record" / "not_utf8_line.jsonl").read_bytes())
    with pytest.raises(RecordError) as caught:
        replay_record(str(path))
    assert str(caught.value) == f"{path}:2:32: not UTF-8 text: byte 0x80 at column 32"


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
    assert str(caught.value) == f"{path}:3: round 1 deal: scores: P1: expected a whole number, got None"


LONG = "a" * 300  # longer than a file name may be: the system refuses to look it up (ENAMETOOLONG)


def test_cli_check_name_too_long() -> None:
    out, err = io.StringIO(), io.StringIO()
    assert main(["check", LONG], stdout=out, stderr=err) == 1
    assert f"{LONG}: no such file or folder" in out.getvalue()


def test_cli_test_name_too_long() -> None:
    out, err = io.StringIO(), io.StringIO()
    assert main(["test", LONG], stdout=out, stderr=err) == 1
    assert err.getvalue() == f"rummydsl test: {LONG}: no such file or folder: {LONG!r}\n"


def test_cli_coverage_rules_not_utf8(tmp_path: Path) -> None:
    suite = tmp_path / "a.suite.yaml"
    suite.write_text("variant: gin_rummy\ncases:\n- id: a\n  meld: [AS, 2S, 3S]\n  expect: {valid: true}\n")
    rules = tmp_path / "RULES.md"
    rules.write_bytes(b"\xff\xfe")
    out, err = io.StringIO(), io.StringIO()
    assert main(["test", "--coverage", str(rules), str(suite)], stdout=out, stderr=err) == 2
    assert err.getvalue() == f"rummydsl test: --coverage cannot read {str(rules)!r}: it is not UTF-8 text\n"


def test_record_variant_path_too_long(tmp_path: Path) -> None:
    path = tmp_path / "game.jsonl"
    path.write_bytes((CORPUS / "record" / "variant_path_too_long.jsonl").read_bytes())
    warnings: list[str] = []
    with pytest.raises(RecordError, match="no game in the record: it holds only its header"):
        replay_record(str(path), on_warning=warnings.append)  # the header alone replays nothing (issue 17)
    # The header's path is a note, never opened (docs/security.md): the shipped id is used.
    assert warnings[0].startswith(f"the record names the file {LONG[:100]!r}"[:-1])
    assert "replaying with the shipped 'gin_rummy'" in warnings[0]


def _vanishing(self: Path, pattern: str) -> Any:
    """``Path.rglob`` over a folder whose files vanish while it is walked (/proc)."""
    raise FileNotFoundError(2, "No such file or directory", "/proc/29666")


def test_cli_walk_of_a_changing_folder(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    # Found as `rummydsl test /`: a process ended while /proc was walked (no corpus
    # file: the race cannot be replayed from bytes).
    monkeypatch.setattr(Path, "rglob", _vanishing)
    for command in ("test", "check"):
        out, err = io.StringIO(), io.StringIO()
        assert main([command, str(tmp_path)], stdout=out, stderr=err) == 1
        assert "cannot read the folder" in out.getvalue() + err.getvalue()
        assert "No such file or directory" in out.getvalue() + err.getvalue()


@pytest.mark.parametrize("context", [Context.ROUND, Context.SCORE])
def test_expr_all_call_outside_contract(context: Context) -> None:
    # all/any without 'for' are the contract's per-meld tests; elsewhere they were
    # compiled as such and failed at run time ('ScoreFrame' object has no attribute 'melds').
    env = Env(context, Deck.preset("standard52"))
    text = (CORPUS / "expr" / "all_call_outside_contract").read_text()
    with pytest.raises(ExpressionError) as caught:
        compile_expression(text, env)
    assert str(caught.value) == "1:5: 'all' works on a list: write all(e for x in xs)"
    assert compile_expression("all(p == dealer for p in players)", env).type.name == "bool"


def test_load_flow_plain_question_mark() -> None:
    # libyaml read 'nam?e' inside {...} as one plain scalar and the fast path accepted
    # the file, which PyYAML's reader (whose positions are exact) refuses at the '?'.
    from rummydsl.variant.load import load_document

    with pytest.raises(VariantError) as caught:
        load_document("v.yaml", (CORPUS / "load" / "flow_plain_question_mark.yaml").read_bytes())
    assert str(caught.value) == ("v.yaml:3:31: malformed YAML: expected ',' or '}', but got '?', while parsing "
                                 "a flow mapping that starts on line 3, column 7")
    assert load_document("v.yaml", "a: x?y\n").data == {"a": "x?y"}  # outside a flow collection, as before


def test_suite_expect_a_seat_not_playing(tmp_path: Path) -> None:
    # An expected hand or table of a seat past the round's players raised IndexError
    # out of run_case; now the case fails and says why.
    from rummydsl.conformance.runner import run_case
    from rummydsl.conformance.suite import load_suite

    path = tmp_path / "a.suite.yaml"
    path.write_bytes((CORPUS / "suite" / "expect_a_seat_not_playing.yaml").read_bytes())
    (case,) = load_suite(str(path)).cases
    result = run_case(case)
    assert result.status == "failed"
    assert [d.what for d in result.differences] == ["hands: P3 is not a seat of this round (P1 to P2)",
                                                    "table: P3 is not a seat of this round (P1 to P2)"]
    assert [d.location.line for d in result.differences] == [12, 13]
