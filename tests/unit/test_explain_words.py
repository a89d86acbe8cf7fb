"""``explain`` in words a person can read at the table: option values filled in,
usual formulas in words, no Python reprs, nothing the file contradicts, and the
pages of docs/rules/ kept current."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest

from rummydsl.cli import main
from rummydsl.explainer import explain
from rummydsl.variant import load_variant, shipped_variant_ids

REPO = Path(__file__).resolve().parents[2]
RULES_DOCS = REPO / "docs" / "rules"


def words(text: str) -> str:
    return " ".join(text.split())


def write(folder: Path, name: str, text: str) -> str:
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return str(path)


@pytest.mark.parametrize("variant_id", shipped_variant_ids())
def test_docs_rules_page_is_current(variant_id: str) -> None:
    """docs/rules/<id>.md is `rummydsl explain --markdown <id>`; regenerate with
    `for v in $(rummydsl variants | cut -d' ' -f1); do rummydsl explain --markdown $v > docs/rules/$v.md; done`."""
    page = RULES_DOCS / f"{variant_id}.md"
    assert page.is_file(), f"docs/rules/{variant_id}.md is missing"
    out = io.StringIO()
    assert main(["explain", "--markdown", variant_id], stdout=out, stderr=io.StringIO()) == 0
    assert out.getvalue() == page.read_text(encoding="utf-8")


def test_gin_scoring_in_words() -> None:
    text = words(explain(load_variant("gin_rummy")))
    assert "A knock: the knocker scores the difference in deadwood. [GR-9.1]" in text
    assert "Gin: the knocker scores 25 plus the defender's deadwood. [GR-9.3]" in text
    assert "the defender with the lowest deadwood scores the difference in deadwood plus 25. [GR-9.2]" in text


def test_option_values_are_filled_in_and_decided_choices_made() -> None:
    text = words(explain(load_variant("oklahoma_gin")))
    assert "at most the upcard's value (0 if the upcard is an ace)" in text
    assert "When the upcard is a spade, every score of the round counts double." in text
    assert "oklahoma_ace" not in text.split("Players and cards")[1].split("Options")[0]  # the rules say values


@pytest.mark.parametrize("variant_id", shipped_variant_ids())
def test_no_python_reprs(variant_id: str) -> None:
    text = explain(load_variant(variant_id))
    assert not re.search(r"\{'|\['|\bTrue\b|\bFalse\b|\bNone\b|mappingproxy", text), text


def test_changes_are_shown_as_yaml(tmp_path: Path) -> None:
    path = write(tmp_path, "h.yaml", "rummydsl: 1\nid: h\nname: H\nextends: gin_rummy\n"
                 "turn: [draw, discard]\nknock: {limit: 5}\n")
    text = words(explain(load_variant(path)))
    assert "- turn.draw.from: [stock, discard] -> (the default)" in text
    assert "- turn.discard.taken_card: forbidden -> (the default)" in text
    assert "{'" not in text


def test_a_default_is_said_to_be_one(tmp_path: Path) -> None:
    """After a house rule drops 'taken_card', explain no longer states the rule
    as if the file said it: it says the default applies."""
    path = write(tmp_path, "h.yaml", "rummydsl: 1\nid: h\nname: H\nextends: gin_rummy\n"
                 "turn: [draw: {from: [stock, discard]}, discard]\n")
    text = words(explain(load_variant(path)))
    assert "may not be discarded (the default: the file does not say; 'taken_card: allowed' allows it)" in text


def test_parent_is_named_by_its_id_and_a_summary_is_made(tmp_path: Path) -> None:
    write(tmp_path, "base.yaml", "rummydsl: 1\nid: house_base\nname: House base\nextends: gin_rummy\n")
    path = write(tmp_path, "child.yaml", "rummydsl: 1\nid: child\nname: Child\nextends: ./base.yaml\n"
                 "knock: {limit: 5}\n")
    text = explain(load_variant(path))
    assert text.startswith("Child  (extends house_base)\n")
    assert "Changed from house_base" in text
    assert ("2 players, 10 cards each. A round ends by knocking with at most 5 deadwood, or by gin. "
            "First to 100 points wins.") in words(text)


def test_rules_points_that_were_left_out() -> None:
    skarney = words(explain(load_variant("skarney_gin")))
    assert "The player after the dealer plays first (the non-dealer, with two players)." in skarney  # SK-2.3
    assert "melds still in the hand do not count" in skarney  # SK-10.1, the default
    assert "No lay-offs after gin or big gin." in words(explain(load_variant("gin_rummy")))  # GR-7.2


def test_a_plain_option_value_keeps_the_inherited_rule_and_description(tmp_path: Path) -> None:
    path = write(tmp_path, "h.yaml", "rummydsl: 1\nid: h\nname: H\nextends: gin_rummy\noptions: {gin_bonus: 30}\n")
    variant = load_variant(path)
    assert variant.options["gin_bonus"].rule == "GR-9.3"
    assert variant.options["gin_bonus"].description == "Bonus for going gin."
    assert "gin_bonus = 30 [GR-9.3]: Bonus for going gin." in explain(variant)


@pytest.mark.parametrize("variant_id", shipped_variant_ids())
def test_no_shipped_variant_needs_a_raw_formula(variant_id: str) -> None:
    """Every formula of a shipped variant is said in words: the fallback that shows a
    formula as written is for what the explainer cannot word yet."""
    from rummydsl.explainer import unworded

    assert unworded(load_variant(variant_id)) == []


@pytest.mark.parametrize("variant_id", shipped_variant_ids())
def test_no_operator_reaches_the_page(variant_id: str) -> None:
    text = explain(load_variant(variant_id)).split("\nOptions\n")[0]
    text = "\n".join(line for line in text.splitlines() if set(line) - {"=", "-"})  # not the underlines
    assert not re.search(r"==|!=|<=|>=| \? |//|\w\(\w", text), text


def test_a_formula_without_words_is_shown_as_written_and_noted() -> None:
    from rummydsl.expr.parser import parse
    from rummydsl.explainer.say import Speaker
    from rummydsl.explainer.words import collecting_raw

    with collecting_raw() as seen:
        said = Speaker(load_variant("gin_rummy"), "score").say(parse("mystery(ender) + 1"))
    assert said == "mystery(ender) + 1"
    assert seen == ["mystery(ender) + 1"]


@pytest.mark.parametrize("variant_id, expected", [
    ("oklahoma_gin", "When the upcard is a spade, every score of the round counts double."),
    ("oklahoma_gin", "if the deadwood of the cards kept is at most the upcard's value (0 if the upcard is an ace)"),
    ("knock_rummy", "near: the distance to the left of the knocker of the nearest opponent for whom their "
                    "deadwood is low (the number of players if there is none)."),
    ("knock_rummy", "each other player scores, if their distance to the left of the knocker is near, "
                    "differences plus 10 (otherwise nothing). [KR-4.2]"),
    ("knock_rummy", "differences: how much the deadwood of each of the players is above low, added up."),
    ("contract_rummy", "in deal 1, two sets; in deal 2, a set and a run; in deal 3, two runs; in deal 4, "
                       "three sets; in deal 5, two sets and a run; in deal 6, a set and two runs; in deal 7, "
                       "three runs."),
    ("contract_rummy", "set: three or more cards of the same rank, at least two of them natural (not wild)."),
    ("skarney_gin", "first lay-down must satisfy: three melds of three cards each."),
    ("skarney_gin", "poker (three or more consecutive cards whose suits are not all the same): three or more "
                    "cards in sequence, not all of one suit."),
    ("skarney_gin", "each player scores, if their deadwood is lower than that of every one of the other "
                    "players, the lowest deadwood among the other players minus their deadwood (otherwise "
                    "nothing). [SK-10.3]"),
    ("rummy", "scores the opponents' hand value (every card still held), doubled if the player who ended "
              "the round put cards on the table in at most one turn of the round. [BR-5]"),
    ("rummy_500", "worth, to the player who laid it there: its card value (1 if it lies in a run and it is "
                  "an ace and it is at the low end of its meld)."),
    ("ginski", "set: three to five cards of the same rank, each of a different suit, at least one of them "
               "natural (not wild)."),
])
def test_formulas_read_as_a_rule_book(variant_id: str, expected: str) -> None:
    assert expected in words(explain(load_variant(variant_id)))


def test_the_issues_contract_reads_in_words() -> None:
    from rummydsl.expr.parser import parse
    from rummydsl.explainer.shapes import contract_words

    said = contract_words(load_variant("gin_rummy"),
                          parse("count == 3 and any(size == 4) and count_where(size == 3) == 2"))
    assert said == "three melds: at least one of four cards, and exactly two of three cards"


# Every construct of docs/language.md's expressions, in the context it is read in:
# each is said without its formula and without an operator.
CONSTRUCTS = [
    ("card", "rank in [J, Q, K] ? 10 : pips", False), ("card", "colour == red", True), ("card", "wild", True),
    ("card", "suit != S and order >= 3", True), ("card", "max(order, 10) - abs(pips - 5)", False),
    ("melded", "kind == set and position == size ? value * 2 : value", False),
    ("meld", "size >= 3 and count_distinct(suit) >= 2 and wilds <= 1", True),
    ("meld", "same(colour) or distinct(rank)", True), ("meld", "naturals > wilds", True),
    ("contract", "cards >= 9 and count_where(kind == run) >= 1", True),
    ("contract", "count == 2 and all(kind == set)", True),
    ("round", "round == 1 ? 10 : hand_size // 2", False), ("round", "upcard.pips % 5", False),
    ("round", "player_count not in [2, 3] ? 1 : 2", False), ("round", "round in 1..3", True),
    ("round", "score(dealer) > 50", True), ("round", "count(score(q) > 0 for q in players)", False),
    ("round", "any(score(q) >= 90 for q in players)", True), ("round", "all(score(q) == 0 for q in players)", True),
    ("score", "max(deadwood(o) for o in opponents)", False), ("score", "-deadwood(ender)", False),
    ("score", "met_contract(p) and melded_turns(p) >= 2", True), ("score", "melded(p) - hand_value(p)", False),
    ("score", "distance(ender, dealer) == 1", True), ("score", "sum(score(o) for o in others(p))", False),
    ("score", "gin or big_gin or knock or out or stock_end", True), ("score", "not gin", True),
    ("next_deal", "last_void ? last_sat_out : next(last_winner)", False),
]


@pytest.mark.parametrize("context, formula, clause", CONSTRUCTS)
def test_every_documented_construct_is_worded(context: str, formula: str, clause: bool) -> None:
    from rummydsl.expr.parser import parse
    from rummydsl.explainer.say import Speaker
    from rummydsl.explainer.words import collecting_raw

    variant = load_variant("contract_rummy")
    with collecting_raw() as seen:
        if context == "meld":
            from rummydsl.explainer.shapes import meld_words
            said = meld_words(variant, parse(formula))
        elif context == "contract":
            from rummydsl.explainer.shapes import contract_words
            said = contract_words(variant, parse(formula))
        else:
            said = Speaker(variant, context, scored=True).say(parse(formula), clause=clause)
    assert seen == [], said
    assert not re.search(r"==|!=|<=|>=|\?|//|%|\w\(", said), said


def test_changed_from_shows_one_flag_of_a_turn_step() -> None:
    text = explain(load_variant("openspiel_gin")).split("Changed from gin_rummy")[1].split("\n\n", 1)[0]
    assert "- turn.discard.taken_card: forbidden -> allowed" in text
    assert "turn.draw" not in text and "[{" not in text


def test_changed_from_shows_one_deals_contract(tmp_path: Path) -> None:
    contract = load_variant("contract_rummy").data["contract"]["melds"]
    changed = contract.replace("count == 3 and all(kind == run)", "count == 3 and all(kind == run) and any(size >= 5)")
    assert changed != contract
    path = write(tmp_path, "h.yaml", "rummydsl: 1\nid: h\nname: H\nextends: contract_rummy\n"
                 f"contract: {{melds: \"{' '.join(changed.split())}\"}}\n")
    text = explain(load_variant(path)).split("Changed from contract_rummy\n")[1].split("\n\n", 1)[0]
    assert words(text.split("\n", 1)[1]) == ("- contract in deal 7: three runs -> three runs: "
                                             "at least one of five or more cards")


def test_changed_from_says_formulas_in_words() -> None:
    text = words(explain(load_variant("oklahoma_gin")).split("Changed from gin_rummy")[1].split("\n\n", 1)[0])
    assert "- knock.limit: 10 -> the upcard's value (0 if the upcard is an ace)" in text
    assert "- scoring.multiplier: 1 -> double when the upcard is a spade" in text


def test_changed_from_leaves_out_what_is_set_to_what_it_was(tmp_path: Path) -> None:
    """A newcomer uncommented settings of `rummydsl new`'s file at their parent's values:
    `options.gin_bonus: 25 -> 25` and a pattern rewritten to the same words were listed."""
    path = write(tmp_path, "same.yaml", "rummydsl: 1\nid: same\nname: Same\nextends: gin_rummy\n"
                 "options:\n  gin_bonus: 25\n  undercut_on_tie: true\nknock:\n  limit: 8\n")
    text = explain(load_variant(path)).split("Changed from gin_rummy\n")[1].split("\n\n", 1)[0]
    assert words(text.split("\n", 1)[1]) == "- knock.limit: 10 -> 8"
    path = write(tmp_path, "sk.yaml", "rummydsl: 1\nid: sk\nname: Sk\nextends: skarney_gin\nmelds:\n"
                 "  poker: \"size >= 3 and consecutive(rank) and not same(suit)\"\n")
    text = explain(load_variant(path)).split("Changed from skarney_gin\n")[1].split("\n\n", 1)[0]
    assert words(text.split("\n", 1)[1]) == "Nothing: these are the rules of skarney_gin."


def test_scoring_names_no_formula_name_it_has_said_in_words(tmp_path: Path) -> None:
    """Gin's Scoring began with 'k: the knocker's deadwood.' though no sentence used 'k';
    a multiplier that is 1 once the options are filled in said 'multiplied by 1'."""
    text = words(explain(load_variant("gin_rummy")).split("Scoring\n")[1].split("The game\n")[0])
    assert not re.search(r"^- (k|low|undercut):", text, re.M), text
    path = write(tmp_path, "ok2.yaml", "rummydsl: 1\nid: ok2\nname: Ok2\nextends: oklahoma_gin\n"
                 "options:\n  spade_double: false\n")
    text = explain(load_variant(path)).split("Scoring\n")[1].split("The game\n")[0]
    assert "multiplied" not in text and "double" not in text
