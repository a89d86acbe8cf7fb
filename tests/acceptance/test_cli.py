"""The command line, called as ``main(argv)`` with captured streams: exit codes
(0 fine, 1 the input is wrong, 2 usage), the text and JSON forms of ``check``, and
``explain``/``schema``/``variants`` on every shipped variant."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from rummydsl.cli import main
from rummydsl.variant import shipped_variant_ids

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
REPO = Path(__file__).resolve().parents[2]


def run(*argv: str, stdin: str = "") -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), stdout=out, stderr=err, stdin=io.StringIO(stdin))
    return code, out.getvalue(), err.getvalue()


def test_check_shipped_variants_is_clean() -> None:
    code, out, err = run("check", str(REPO / "variants"))
    assert code == 0, out + err
    assert out.strip().endswith("0 errors, 0 warnings")


def test_check_bad_file_exits_1_with_place_line_and_caret(tmp_path: Path) -> None:
    bad = tmp_path / "house.yaml"
    bad.write_text('rummydsl: 1\nid: house\nextends: gin_rummy\nname: House\n'
                   'melds:\n  run: "size >= 3 and same(sute) and consecutive(rank)"\n')
    code, out, _ = run("check", str(bad))
    assert code == 1
    lines = out.splitlines()
    assert lines[0].startswith(f"{bad}:6:28: ")
    assert "'sute'" in lines[0]
    assert lines[1] == '      run: "size >= 3 and same(sute) and consecutive(rank)"'
    assert lines[2] == "    " + " " * 27 + "^"
    assert lines[-1] == "1 file checked: 1 error, 0 warnings"


@pytest.mark.parametrize("line_break", ["\u2028", "\u2029", "\x85"], ids=["U+2028", "U+2029", "U+0085"])
def test_check_shows_the_reported_line_when_yaml_breaks_lines_at_unicode_breaks(
        tmp_path: Path, line_break: str) -> None:
    """YAML also breaks lines at U+0085, U+2028 and U+2029: the line shown beside a
    problem (and its caret) must be the line the location counts, as editors do."""
    bad = tmp_path / "house.yaml"
    bad.write_text(f'rummydsl: 1\nid: house{line_break}extends: gin_rummy\nname: House\n'
                   f'# melds below{line_break}melds:\n'
                   '  run: "size >= 3 and same(sute) and consecutive(rank)"\n', encoding="utf-8")
    code, out, _ = run("check", str(bad))
    assert code == 1
    lines = out.splitlines()
    assert lines[0].startswith(f"{bad}:7:28: "), lines
    assert lines[1] == '      run: "size >= 3 and same(sute) and consecutive(rank)"'
    assert lines[2] == "    " + " " * 27 + "^"


def test_check_reports_every_problem_of_every_file() -> None:
    code, out, _ = run("check", "-q", str(EXAMPLES / "bad" / "unknown_keys.yaml"),
                       str(EXAMPLES / "bad" / "wrong_types.yaml"))
    assert code == 1
    assert out.count("unknown key") == 3
    assert out.count("must be") >= 3
    assert "<" not in out.splitlines()[0]  # no tracebacks or reprs


def test_check_json_is_a_list_of_located_objects() -> None:
    code, out, _ = run("check", "--json", str(EXAMPLES / "bad" / "unknown_keys.yaml"))
    assert code == 1
    problems = json.loads(out)
    assert {tuple(sorted(p)) for p in problems} == {
        ("column", "line", "message", "path", "rule", "severity")}
    first = problems[0]
    assert (first["line"], first["column"], first["rule"]) == (5, 1, "schema-unknown-key")
    assert first["message"] == "unknown key 'knok' in the top level; did you mean 'knock'?"


def test_check_json_clean_is_an_empty_list() -> None:
    code, out, _ = run("check", "--json", str(REPO / "variants" / "gin_rummy.yaml"))
    assert (code, json.loads(out)) == (0, [])


def test_warnings_do_not_fail_the_check() -> None:
    code, out, _ = run("check", str(EXAMPLES / "bad" / "warnings_only.yaml"))
    assert code == 0
    assert "warning:" in out
    code, out, _ = run("check", "--no-warnings", str(EXAMPLES / "bad" / "warnings_only.yaml"))
    assert code == 0 and "warning:" not in out


def test_check_missing_path_and_empty_folder(tmp_path: Path) -> None:
    code, out, _ = run("check", str(tmp_path / "nope.yaml"), str(tmp_path))
    assert code == 1
    assert f"{tmp_path / 'nope.yaml'}: no such file or folder" in out
    assert f"{tmp_path}: no .yaml files in this folder" in out


@pytest.mark.parametrize("argv", [[], ["check"], ["frobnicate"], ["check", "--nope", "x.yaml"],
                                  ["explain"], ["melds"]])
def test_usage_errors_exit_2(argv: list[str]) -> None:
    code, out, err = run(*argv)
    assert code == 2
    assert "Traceback" not in out + err


@pytest.mark.parametrize("variant_id", shipped_variant_ids())
def test_explain_every_shipped_variant(variant_id: str) -> None:
    code, out, err = run("explain", variant_id)
    assert code == 0, err
    for heading in ("Players and cards", "Deal", "Melds", "A turn", "Ending a round", "Scoring", "The game"):
        assert f"\n{heading}\n" in out
    if variant_id not in ("gin_rummy", "skarney_gin", "ginski", "contract_rummy"):
        assert "Changed from " in out


def test_explain_house_rule_lists_only_its_changes() -> None:
    code, out, _ = run("explain", "straight_gin")
    assert code == 0
    changes = out.split("Changed from gin_rummy\n")[1].split("\n\n")[0]
    assert changes.splitlines()[1:] == ["- knock.limit: 10 -> 0"]


def test_explain_unknown_variant_suggests() -> None:
    code, _, err = run("explain", "skarny_gin")
    assert code == 1
    assert "did you mean 'skarney_gin'?" in err


def test_explain_bad_file_reports_its_problems() -> None:
    code, _, err = run("explain", str(EXAMPLES / "bad" / "expr_syntax.yaml"))
    assert code == 1
    assert "expr_syntax.yaml:5:17: unclosed '('" in err


def test_schema_prints_the_json_schema() -> None:
    code, out, _ = run("schema")
    assert code == 0
    schema = json.loads(out)
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"


def test_variants_lists_the_shipped_ids() -> None:
    code, out, _ = run("variants")
    assert code == 0
    assert [line.split()[0] for line in out.splitlines()] == shipped_variant_ids()


def test_version() -> None:
    code, out, _ = run("--version")
    assert code == 0 and out.startswith("rummydsl ")


def test_melds_json_follows_the_contract() -> None:
    """DESIGN.md: {deadwood, melds, unmatched, contract} and, one card over the hand
    size, best_discard and deadwood_after_discard (GR-15: the knocker keeps 7)."""
    code, out, _ = run("melds", "gin_rummy", "5H", "6H", "7H", "8H", "9C", "9D", "9S", "AC", "2D", "4S",
                       "KC", "--json")
    assert code == 0
    report = json.loads(out)
    assert set(report) == {"deadwood", "melds", "unmatched", "contract", "best_discard",
                           "deadwood_after_discard"}
    assert (report["best_discard"], report["deadwood_after_discard"]) == ("KC", 7)
    assert sorted(map(sorted, report["melds"])) == [["5H", "6H", "7H", "8H"], ["9C", "9D", "9S"]]


def test_melds_hand_of_hand_size_has_no_discard() -> None:
    code, out, _ = run("melds", "skarney_gin", "3S", "4C", "5C", "JH", "JD", "JC", "8C", "9C", "TC", "2H",
                       "--json")
    assert code == 0
    report = json.loads(out)
    assert "best_discard" not in report
    assert (report["deadwood"], report["contract"]) == (0, True)  # SK-3.3: 2H 3S 4C 5C is a poker


def test_melds_batch_one_json_line_per_hand_in_order() -> None:
    code, out, _ = run("melds", "ginski", "--batch", stdin="4R 5R 6R\n\n9G 9B *\n1R 2R\n")
    assert code == 0
    lines = [json.loads(line) for line in out.splitlines()]
    assert [line["deadwood"] for line in lines] == [0, 0, 3]


def test_melds_batch_bad_line_is_reported_in_place_and_exits_1() -> None:
    code, out, _ = run("melds", "gin_rummy", "--batch", stdin="AS 2S 3S\nAS ZZ\n")
    assert code == 1
    first, second = (json.loads(line) for line in out.splitlines())
    assert first["deadwood"] == 0
    assert second["error"].startswith("line 2: unknown card 'ZZ'")


@pytest.mark.parametrize("cards,fragment", [(["AS", "AS"], "duplicate card 'AS'"),
                                             (["AS", "1X"], "unknown card '1X'"),
                                             (["4R"], "unknown card '4R'")])
def test_melds_bad_cards_exit_1_with_a_message(cards: list[str], fragment: str) -> None:
    code, out, err = run("melds", "gin_rummy", *cards)
    assert code == 1
    assert fragment in err and "Traceback" not in err


@pytest.mark.parametrize("variant_id", shipped_variant_ids())
def test_melds_answers_for_every_shipped_variant(variant_id: str) -> None:
    from rummydsl.variant import load_variant

    variant = load_variant(variant_id)
    cards = [str(card) for card in variant.deck.cards[: variant.hand_size + 1]]
    code, out, err = run("melds", variant_id, *cards, "--json")
    assert code == 0, err
    report = json.loads(out)
    assert report["best_discard"] in cards
    placed = [c for meld in report["melds"] for c in meld] + report["unmatched"]
    assert sorted(placed) == sorted(cards)
