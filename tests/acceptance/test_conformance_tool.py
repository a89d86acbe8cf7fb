"""The conformance tooling: suite files read and checked, cases run, failures located,
``rummydsl test`` (exit codes, -k, --json, --coverage) and the pytest plugin."""

from __future__ import annotations

import io
import json
import textwrap
from pathlib import Path

import pytest

from rummydsl.cli import main
from rummydsl.conformance import load_suite, run_case
from rummydsl.conformance.coverage import coverage, read_rules
from rummydsl.errors import SuiteError


REPO = Path(__file__).resolve().parents[2]

GR15 = textwrap.dedent("""\
    variant: gin_rummy
    cases:
      - id: gr15
        rule: GR-15
        setup:
          dealer: P2
          hands:
            P1: 5H 6H 7H 8H 9C 9D 9S AC 2D 4S
            P2: KS KH KD 2C 3C 4C 9H 4H QC 7D
          stock: KC 3D 4D 5D 6D 8D TD JD 2H 3H TH
          upcard: QD
        actions:
          - P1 pass
          - P2 pass
          - P1 draw stock
          - P1 knock KC [5H 6H 7H 8H] [9C 9D 9S]
          - P2 layoff 9H on P1#1
          - P2 layoff 4H on P1#1
          - P2 done
        expect:
          round_score: {P1: 10, P2: 0}
      - id: meld-run
        rule: GR-3.2
        meld: [AH, 2H, 3H]
        expect: {valid: true, kinds: [run]}
      - id: hand-example
        rule: GR-3.3
        hand: 7C 7S 7D 8D 9D
        expect: {deadwood: 14}
    """)


def write(tmp_path: Path, text: str, name: str = "my.suite.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


# ------------------------------------------------------------------ reading


def test_a_good_suite_loads_with_places(tmp_path: Path) -> None:
    suite = load_suite(str(write(tmp_path, GR15)))
    assert [c.id for c in suite.cases] == ["gr15", "meld-run", "hand-example"]
    assert [c.kind for c in suite.cases] == ["script", "meld", "hand"]
    first = suite.cases[0]
    assert first.location.line == 3 and first.rules == ("GR-15",)
    assert [loc.line for loc in first.action_locations] == [13, 14, 15, 16, 17, 18, 19]


@pytest.mark.parametrize(("text", "expected"), [
    pytest.param("variant: gin_rummy\ncases: []\n", ":2:8: ", id="no-cases"),
    pytest.param("variant: gin_rummy\ncases:\n  - id: a\n    meld: [AS]\n", ":3:5: ", id="no-expect"),
    pytest.param("variant: gin_rummy\ncases:\n  - id: a\n    meld: [AS]\n    expect: {deadwood: 1}\n",
                 ":5:14: 'deadwood' is not an expectation of a meld case", id="wrong-expectation"),
    pytest.param("variant: gin_rummy\ncases:\n  - {id: a, meld: [AS], expect: {valid: false}}\n"
                 "  - {id: a, meld: [AH], expect: {valid: false}}\n",
                 ":4:10: case id 'a' is used twice (first at line 3)", id="duplicate-id"),
    pytest.param("variant: gin_rummy\ncases:\n  - id: a\n    setup: {dealer: P1, hands: {P1: AS, P3: 2S}, stock: 3S}\n"
                 "    expect: {to_move: P1}\n", "the hands must be given for seats P1, P2", id="seats"),
    pytest.param("variant: gin_rummy\ncases:\n  - id: a\n    rule: GR9.2\n    meld: [AS]\n    expect: {valid: true}\n",
                 ":4:11: ", id="bad-rule-id"),
    pytest.param("variant: gin_rummy\ncases: [\n", ":", id="bad-yaml"),
    pytest.param("", "", id="empty"),
])
def test_bad_suites_are_located(tmp_path: Path, text: str, expected: str) -> None:
    path = write(tmp_path, text)
    with pytest.raises(SuiteError) as caught:
        load_suite(str(path))
    report = "\n".join(str(d) for d in caught.value.diagnostics)
    assert report.startswith(str(path))
    assert expected in report


# ------------------------------------------------------------------ running


def test_cases_pass(tmp_path: Path) -> None:
    suite = load_suite(str(write(tmp_path, GR15)))
    assert [run_case(c).status for c in suite.cases] == ["passed", "passed", "passed"]


def test_a_wrong_expectation_reports_expected_and_got_at_its_line(tmp_path: Path) -> None:
    suite = load_suite(str(write(tmp_path, GR15.replace("round_score: {P1: 10, P2: 0}",
                                                        "round_score: {P1: 12, P2: 0}"))))
    result = run_case(suite.cases[0])
    assert result.status == "failed"
    report = result.report()
    assert f"{suite.path}:21:20:" in report and "P1's points this round" in report
    assert "expected: 12" in report and "got:      10" in report
    assert "gr15 (GR-15): FAILED" in report


def test_a_refused_action_is_named_with_its_line_and_reason(tmp_path: Path) -> None:
    suite = load_suite(str(write(tmp_path, GR15.replace("P2 layoff 4H on P1#1", "P2 layoff QC on P1#1"))))
    report = run_case(suite.cases[0]).report()
    assert f"{suite.path}:18:9:" in report
    assert "action 6 'P2 layoff QC on P1#1' was refused: QC does not extend the meld" in report


def test_illegal_expectation(tmp_path: Path) -> None:
    text = GR15.replace("      - P2 done\n", "").replace(
        "round_score: {P1: 10, P2: 0}", "{illegal: ['P1 layoff AC on P1#1', 'P2 discard 4H'], to_move: P2}")
    suite = load_suite(str(write(tmp_path, text)))
    assert run_case(suite.cases[0]).passed
    text = text.replace("'P2 discard 4H'", "'P2 done'")
    suite = load_suite(str(write(tmp_path, text)))
    report = run_case(suite.cases[0]).report()
    assert "'P2 done' should be refused, but it was played" in report


def test_a_case_whose_variant_does_not_load_fails_cleanly(tmp_path: Path) -> None:
    suite = load_suite(str(write(tmp_path, GR15.replace("variant: gin_rummy", "variant: nowhere.yaml"))))
    result = run_case(suite.cases[1])
    assert result.status == "failed" and "its variant does not load" in result.report()


def test_a_setup_must_seat_the_variants_players(tmp_path: Path) -> None:
    """GS-2.1: a five-seat setup under Ginski (2 to 4 players) is a failure, not a quiet five-player game."""
    text = ("variant: ginski\ncases:\n  - id: five\n    setup:\n      dealer: P1\n"
            "      hands: {P1: 1R 2R 3R, P2: 1B 2B 3B, P3: 1G 2G 3G, P4: 1P 2P 3P, P5: 1Y 2Y 3Y}\n"
            "      stock: 5Y 6Y 7Y\n    expect: {to_move: P2}\n")
    suite = load_suite(str(write(tmp_path, text)))
    report = run_case(suite.cases[0]).report()
    assert "five" in report and "the setup seats 5 players, but ginski plays 2 to 4" in report


def test_a_setup_seats_any_count_the_variant_allows(tmp_path: Path) -> None:
    """Issue 17: the setup's count of hands is the round's player count, as ``--players N``
    is (GS-2.1: Ginski for two; KR-1: Knock Rummy for two is dealt 10 cards each)."""
    text = ("variant: ginski\ncases:\n  - id: two\n    rule: GS-2.1\n    setup:\n      dealer: P1\n"
            "      hands: {P1: 1R 2R 3R, P2: 1B 2B 3B}\n      stock: 5Y 6Y 7Y\n"
            "    expect: {to_move: P2, phase: draw}\n")
    suite = load_suite(str(write(tmp_path, text)))
    assert run_case(suite.cases[0]).passed, run_case(suite.cases[0]).report()


@pytest.mark.parametrize("hands", [0, 1, 9])
def test_a_setup_of_too_few_or_too_many_hands_is_located(tmp_path: Path, hands: int) -> None:
    """A table seats 2 to 8 (MAX_PLAYERS): a setup of 0, 1 or 9 hands is refused when the
    suite is read, at the hands, naming the case."""
    seats = ", ".join(f"P{i}: {rank}S" for i, rank in zip(range(1, hands + 1), "A23456789"))
    text = (f"variant: knock_rummy\ncases:\n  - id: crowded\n    setup:\n      dealer: P1\n"
            f"      hands: {{{seats}}}\n      stock: KC\n    expect: {{to_move: P2}}\n")
    with pytest.raises(SuiteError) as caught:
        load_suite(str(write(tmp_path, text)))
    report = "\n".join(str(d) for d in caught.value.diagnostics)
    assert ":6:7: case 'crowded': the setup seats " + str(hands) + (" player;" if hands == 1 else " players;") + " a table seats 2 to 8" in report


def test_a_bad_card_in_a_case_fails_cleanly(tmp_path: Path) -> None:
    suite = load_suite(str(write(tmp_path, GR15.replace("meld: [AH, 2H, 3H]", "meld: [AH, 2H, 3Z]"))))
    assert "bad card in the case" in run_case(suite.cases[1]).report()


# ------------------------------------------------------------------ the command


def test_command_counts_and_exit_codes(tmp_path: Path) -> None:
    write(tmp_path, GR15)
    code, out, _ = run("test", str(tmp_path))
    assert code == 0 and out.splitlines()[-1] == "3 passed, 0 failed"
    write(tmp_path, GR15.replace("deadwood: 14", "deadwood: 15"), "other.suite.yaml")
    code, out, _ = run("test", str(tmp_path))
    assert code == 1 and out.splitlines()[-1] == "5 passed, 1 failed"
    assert "hand-example (GR-3.3): FAILED" in out


def test_command_k_json_and_skips(tmp_path: Path) -> None:
    write(tmp_path, GR15.replace("  - id: meld-run\n", "  - id: meld-run\n    skip: not today\n"))
    code, out, _ = run("test", str(tmp_path), "-k", "gr15 or GR-3.3")
    assert code == 0 and out.splitlines()[-1] == "2 passed, 0 failed"
    code, out, _ = run("test", str(tmp_path), "--json")
    payload = json.loads(out)
    assert (payload["passed"], payload["failed"], payload["skipped"]) == (2, 0, 1)
    code, _, err = run("test", str(tmp_path), "-k", "gr15 and (")
    assert code == 2 and "bad -k expression" in err


def test_command_reports_broken_suites_and_missing_paths(tmp_path: Path) -> None:
    write(tmp_path, "variant: gin_rummy\ncases: 3\n")
    code, out, err = run("test", str(tmp_path))
    assert code == 1 and "my.suite.yaml:2:8: " in err and "1 suite file could not be read" in out
    code, _, err = run("test", str(tmp_path / "nope"))
    assert code == 1 and "no such file or folder" in err


def test_coverage_lists_what_no_case_cites(tmp_path: Path) -> None:
    rules = write(tmp_path, "## GR — Gin\n- GR-1 Cards.\n- GR-2 Deal. [OPT void_redeal = same_dealer | rotate]\n"
                            "- GR-3 Melds. [OPT knock_limit = 10 | any integer ≥ 0]\n", "RULES.md")
    write(tmp_path, "variant: gin_rummy\ncases:\n  - {id: a, rule: GR-1, option: void_redeal=rotate, "
                    "meld: [AS], expect: {valid: false}}\n  - {id: b, rule: GR-3, option: knock_limit=7, "
                    "meld: [AS], expect: {valid: false}}\n")
    code, out, _ = run("test", str(tmp_path), "--coverage", str(rules))
    assert code == 0
    assert "rule ids no case cites: GR-2" in out
    assert "option values no case cites: GR void_redeal=same_dealer, GR knock_limit=10" in out


def test_read_rules_of_the_real_rules() -> None:
    text = (REPO.parent / "shared" / "RULES.md").read_text(encoding="utf-8")
    rules, options = read_rules(text)
    assert {"GR-9.2", "SK-11", "GS-7.4"} <= set(rules)
    assert "GR-9" not in rules  # a parent with sub-rules is covered by them
    assert options[("GS", "undercut_penalty")] == ("bonus_to_undercutter", "deduct_from_ender", "both")
    assert coverage(text, []).missing_rules == tuple(rules)


# ------------------------------------------------------------------ the pytest plugin


def test_pytest_plugin_collects_cases_by_id(pytester: pytest.Pytester) -> None:
    pytester.makefile(".suite.yaml", example=GR15.replace("deadwood: 14", "deadwood: 99"))
    result = pytester.runpytest("-v")
    result.assert_outcomes(passed=2, failed=1)
    result.stdout.fnmatch_lines(["*example.suite.yaml::gr15 PASSED*", "*hand-example FAILED*",
                                 "*hand-example (GR-3.3): FAILED*", "*expected: 99*"])


def test_pytest_plugin_reports_a_malformed_suite(pytester: pytest.Pytester) -> None:
    pytester.makefile(".suite.yaml", broken="variant: gin_rummy\ncases: 3\n")
    result = pytester.runpytest()
    result.stdout.fnmatch_lines(["*malformed suite file*", "*broken.suite.yaml:2:8:*"])
    assert result.ret != 0


# ------------------------------------------------------------------ suite strength (--mutants)


def test_mutations_of_gin_rummy() -> None:
    from rummydsl.conformance.mutants import mutations
    from rummydsl.variant import load_variant

    labels = {m.label for m in mutations(load_variant("gin_rummy").data)}
    assert {"options.gin_bonus=26", "options.undercut_on_tie=False", "deal.rotation=loser_deals",
            "knock.limit=11", "stock.at_floor=stock_end", "game.shutout=flat_100",
            "scoring.round[1] removed (GR-9.3)"} <= labels
    assert not any(label.startswith(("deck", "players", "melds", "deal.hand_size")) for label in labels)


def test_mutants_noticed_and_survived(tmp_path: Path) -> None:
    gin = GR15 + (
        "  - id: gin-55\n"
        "    rule: GR-9.3\n"
        "    setup:\n"
        "      dealer: P2\n"
        "      hands:\n"
        "        P1: 5H 6H 7H 8H 9C 9D 9S 2S 3S 4S\n"
        "        P2: KS KH KD 2C 3C 4C 9H 4H QC 7D\n"
        "      stock: KC 3D 4D 5D 6D 8D TD JD 2H 3H TH\n"
        "      upcard: QD\n"
        "    actions: [P1 pass, P2 pass, P1 draw stock, P1 knock KC, P2 done]\n"
        "    expect: {ending: gin, round_score: {P1: 55}}\n")
    write(tmp_path, gin)
    code, out, _ = run("test", "--mutants", str(tmp_path))
    assert code == 1
    assert "not noticed: options.gin_bonus=26" not in out
    assert "not noticed: options.undercut_bonus=26" in out
    assert out.splitlines()[-1].strip().endswith("invalid, not counted)")


# ------------------------------------------------------------------ golden playthroughs


def test_golden_playthroughs_are_current(tmp_path: Path) -> None:
    """tests/conformance/golden is what the generator writes now (else: regenerate and read the diff)."""
    from rummydsl.conformance.golden import write_golden
    from rummydsl.variant import shipped_variant_ids

    folder = REPO / "tests" / "conformance" / "golden"
    written = write_golden(tmp_path, shipped_variant_ids(), seed=2026, rounds=3)
    stale = [path.name for path in written
             if path.read_text(encoding="utf-8") != (folder / path.name).read_text(encoding="utf-8")]
    assert stale == [], (f"golden playthroughs changed: {stale}; if a rule changed on purpose, run "
                         "'python -m rummydsl.conformance.golden tests/conformance/golden' and review the diff")


# Option changes no suite can notice because they change nothing in play (equivalent mutants):
# straight gin allows only gin (knock.limit 0), which is never undercut; a Ginski set already
# cannot pass 5 cards (distinct colours), so set_max 6 is set_max 5.
EQUIVALENT = {
    "straight_gin": {"options.undercut_bonus=26", "options.undercut_bonus=24", "options.undercut_on_tie=False"},
    "ginski": {"options.set_max=6"},
}


@pytest.mark.parametrize("folder", ["gin_rummy", "skarney_gin", "ginski", "gin_three_handed"])
def test_shipped_suites_notice_every_option_change(folder: str) -> None:
    """--mutants: every change of an option of each suite's variant fails some case."""
    from rummydsl.conformance import find_suites, load_suite
    from rummydsl.conformance.mutants import run_mutants

    by_variant: dict[str, list] = {}
    for path in find_suites([str(REPO / "tests" / "conformance" / folder)]):
        for case in load_suite(path).cases:
            if not case.own_variant:
                by_variant.setdefault(case.variant, []).append(case)
    for variant, cases in by_variant.items():
        results = run_mutants(variant, cases, only=lambda m: m.label.startswith("options."))
        survived = {r.mutation.label for r in results if r.status == "survived"}
        assert survived <= EQUIVALENT.get(variant, set()), f"{variant}: no case notices {sorted(survived)}"
