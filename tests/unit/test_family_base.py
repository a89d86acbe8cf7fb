"""The constructs the rummy family (RULES-FAMILY.md) needs from the shared base:
the deal context and ``deal.hand_size`` as an expression, ``player_count``,
``distance(a, b)``, ``hand_value(p)``, ``count_distinct(a)``, a knock with no
limit, and ``--players N`` (docs/family.md)."""

from __future__ import annotations

import io
import random
from itertools import combinations
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rummydsl.cards import Deck
from rummydsl.cli import main
from rummydsl.engine import Game, Round
from rummydsl.engine.actions import Knock
from rummydsl.errors import ExpressionError, VariantError
from rummydsl.expr import BOOL, INT, Context, Env, SimpleRoundView, compile_expression
from rummydsl.variant import check_file, load_variant, with_players

STANDARD = Deck.preset("standard52")
WILD2 = Deck.from_spec({"preset": "standard52", "wilds": 2})

KNOCK_ANY = """\
rummydsl: 1
id: knock_any
name: Knock any
extends: gin_rummy
players: {count: 3, min: 2, max: 5}
deal:
  hand_size: "player_count == 2 ? 10 : player_count <= 4 ? 7 : 6"
knock: {limit: null, big_gin: false}
layoff: {onto: none}
upcard_offer: null
"""


def write(tmp_path: Path, text: str, name: str = "v.yaml") -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def errors(path: str) -> list[str]:
    return [f"{d.location.line}:{d.location.column}: {d.message} [{d.rule}]"
            for d in check_file(path) if d.severity == "error"]


# -- the deal context ---------------------------------------------------------------------


def test_deal_context_names() -> None:
    e = Env(Context.DEAL, STANDARD, options={"base": 7})
    view = SimpleRoundView(players=("P1", "P2", "P3"), dealer="P3", round=5, scores={"P1": 40})
    cases = {
        "player_count": 3,
        "round <= 4 ? 10 : 12": 12,
        "base + max(score(q) for q in players) // 20": 9,
        "count(q != dealer for q in players)": 2,
        "sum(distance(dealer, q) for q in players)": 0 + 1 + 2,
    }
    for text, value in cases.items():
        assert compile_expression(text, e, INT)(view) == value, text


@pytest.mark.parametrize("text, message", [
    ("value(upcard)", "'value' is not available in the deal context"),
    ("hand_size", "'hand_size' is not available in the deal context"),
    ("deadwood(dealer)", "'deadwood' is not available in the deal context"),
    ("ender == dealer ? 1 : 2", "'ender' is not available in the deal context"),
])
def test_deal_context_refuses_what_a_deal_does_not_know(text: str, message: str) -> None:
    with pytest.raises(ExpressionError) as info:
        compile_expression(text, Env(Context.DEAL, STANDARD), INT)
    assert info.value.rule == "expr-name"
    assert info.value.message.startswith(message), info.value.message


def test_hand_size_expression_by_player_count(tmp_path: Path) -> None:
    variant = load_variant(write(tmp_path, KNOCK_ANY))
    assert variant.deal.hand_size == 7  # at players.count, deal 1
    assert variant.max_hand_size == 10
    for count, size in ((2, 10), (3, 7), (4, 7), (5, 6)):
        seated = with_players(variant, count)
        assert seated.hand_size == size
        game = Game(seated, random.Random(count))
        assert [len(hand) for hand in game.round.hands] == [size] * count
        assert game.round.hand_size == size
        assert game.round.facts().hand_size == size


def test_hand_size_by_deal_changes_each_round(tmp_path: Path) -> None:
    path = write(tmp_path, KNOCK_ANY.replace("player_count == 2 ? 10 : player_count <= 4 ? 7 : 6",
                                             "round <= 2 ? 5 : 6"))
    variant = load_variant(path)
    game = Game(variant, random.Random(3))
    sizes = []
    while len(sizes) < 4 and not game.over:
        sizes.append(game.round.hand_size)
        assert all(len(hand) == game.round.hand_size for hand in game.round.hands)
        while not game.round.over:
            game.round.apply(game.round.legal_actions()[0])
        game.next_round()
    assert sizes[:3] == [5, 5, 6]


@pytest.mark.parametrize("size, where", [
    ("player_count == 2 ? 10 : 12 - round", "7:14: deal.hand_size gives 0 cards with 3 players, deal 12; "
                                           "a hand is 1 to 19 cards [deal-size]"),
    ("player_count * 4", "7:14: the deck has 52 cards, too few to deal 4 × 16 and an upcard with 4 players and "
                         "keep a stock above its floor of 2 (needs at least 68) [deal-size]"),
    ("10 // (player_count - 2)", "7:15: division by zero (dealing to 2 players) [expr-runtime]"),
    ("value(upcard)", "7:15: 'value' is not available in the deal context; functions here: min, max, abs, "
                      "score, distance, sum, count, any, all [expr-name]"),
    ("true", "7:15: this expression must give an int, got a bool [expr-type]"),
])
def test_hand_size_checked_for_every_count_and_deal(tmp_path: Path, size: str, where: str) -> None:
    path = write(tmp_path, KNOCK_ANY.replace("player_count == 2 ? 10 : player_count <= 4 ? 7 : 6", size))
    assert errors(path) == [where]


def test_hand_size_expression_checked_beside_schema_errors(tmp_path: Path) -> None:
    """One run reports a schema error elsewhere and the hand size expression's error."""
    text = KNOCK_ANY.replace("player_count == 2 ? 10 : player_count <= 4 ? 7 : 6", "player_cont") + "game: {target: 0}\n"
    found = errors(write(tmp_path, text))
    assert any("[schema-range]" in line for line in found), found
    assert "7:15: unknown name 'player_cont'; did you mean 'player_count'? [expr-name]" in found


def test_fixed_hand_size_keeps_its_old_checks(tmp_path: Path) -> None:
    text = KNOCK_ANY.replace('"player_count == 2 ? 10 : player_count <= 4 ? 7 : 6"', "10")
    found = [(d.rule, d.severity) for d in check_file(write(tmp_path, text))]
    assert ("players", "warning") in found  # 5 × 10 cards is too many: a warning at players.max, as before
    assert errors(write(tmp_path, text)) == []


def test_hand_size_runtime_error_names_the_deal(tmp_path: Path) -> None:
    path = write(tmp_path, KNOCK_ANY.replace("player_count == 2 ? 10 : player_count <= 4 ? 7 : 6",
                                             "score(dealer) > 50 ? 0 : 7"))
    variant = load_variant(path)
    with pytest.raises(ExpressionError) as info:
        Round.deal(variant, random.Random(1), dealer=0, players=3, scores=(60, 0, 0), number=4)
    assert info.value.rule == "expr-runtime"
    assert "gives 0 cards in deal 4 with 3 players" in info.value.message


# -- player_count, distance, hand_value --------------------------------------------------------


def test_player_count_and_distance() -> None:
    view = SimpleRoundView(players=("P1", "P2", "P3", "P4"), ender="P3", ending="knock",
                           deadwoods={"P1": 5, "P2": 9, "P3": 5, "P4": 5})
    e = Env(Context.SCORE, STANDARD)
    assert compile_expression("player_count", Env(Context.ROUND, STANDARD), INT)(view) == 4
    distances = compile_expression("sum(distance(ender, o) for o in opponents)", e, INT)(view)
    assert distances == 1 + 2 + 3
    # KR-4.2: the nearest opponent to the knocker's left holding the lowest deadwood
    near = compile_expression("min(deadwood(o) == 5 ? distance(ender, o) : player_count for o in opponents)",
                              e, INT)
    assert near(view) == 1  # P4, before P1
    per = Env(Context.SCORE, STANDARD, per_player=True)
    assert [compile_expression("distance(p, ender)", per, INT)(view, p) for p in view.players] == [2, 1, 0, 3]


def test_distance_of_a_player_not_seated_is_a_runtime_error() -> None:
    compiled = compile_expression("distance(ender, dealer)", Env(Context.SCORE, STANDARD), INT)
    with pytest.raises(ExpressionError) as info:
        compiled(SimpleRoundView(players=("P1", "P2"), ending="stock_end"))
    assert (info.value.rule, info.value.column) == ("expr-runtime", 1)
    assert info.value.message.startswith("distance(None, 'P1'): None is not a player of this round")


def test_distance_type_errors() -> None:
    e = Env(Context.SCORE, STANDARD)
    with pytest.raises(ExpressionError) as info:
        compile_expression("distance(ender)", e, INT)
    assert info.value.message == "'distance' takes 2 arguments, got 1"
    with pytest.raises(ExpressionError) as info:
        compile_expression("distance(ender, 1)", e, INT)
    assert (info.value.column, info.value.message) == (17, "'distance' needs player, got int")


def test_hand_value_reads_the_view() -> None:
    e = Env(Context.SCORE, STANDARD, per_player=True)
    view = SimpleRoundView(players=("P1", "P2"), ender="P1", ending="out", deadwoods={"P1": 0, "P2": 12},
                           hand_values={"P2": 31})
    assert compile_expression("hand_value(p)", e, INT)(view, "P2") == 31
    assert compile_expression("hand_value(p)", e, INT)(view, "P1") == 0  # absent: the deadwood
    with pytest.raises(ExpressionError) as info:
        compile_expression("hand_value(p)", Env(Context.ROUND, STANDARD), INT)
    assert info.value.message.startswith("'hand_value' is not available in the round context")


def test_hand_value_in_the_engine_counts_melds_held(tmp_path: Path) -> None:
    """BR-5/KR: a hand value counts melds still in the hand; the knocker's shown melds too."""
    text = KNOCK_ANY + """\
scoring:
  round:
    - {when: "knock or gin", points: "hand_value(p) * 1000 + deadwood(p)"}
game: {target: 100000000}
"""
    variant = load_variant(write(tmp_path, text))
    cards = variant.deck.parse_cards
    rnd = Round.from_setup(variant, dealer=2,
                           hands=[cards("AS 2S 3S 9H 9D KC KD".split()),
                                  cards("4C 4D 4H 7S 8S JH QH".split()),
                                  cards("5C 6C 7C 8C 9C TC JC".split())],
                           stock=cards("5D 2H 3H".split()), upcard=variant.deck.parse_card("TD"))
    rnd.apply("P1 draw stock")
    rnd.apply("P1 knock KD")
    assert rnd.result is not None
    # P1 keeps AS 2S 3S (meld, 6) 9H 9D KC 5D: hand value 6 + 9 + 9 + 10 + 5 = 39, deadwood 33
    # P2: 4C 4D 4H meld (12) 7S 8S JH QH: 12 + 7 + 8 + 10 + 10 = 47, deadwood 35
    # P3: a 7-card run, 5..J of clubs: 5+6+7+8+9+10+10 = 55, deadwood 0
    assert rnd.result.points == (39033, 47035, 55000)


# -- count_distinct -----------------------------------------------------------------------


@pytest.mark.parametrize("deck, cards, selector, value", [
    (STANDARD, "5H 6H 7H", "suit", 1),
    (STANDARD, "5H 6S 7H", "suit", 2),
    (STANDARD, "5H 6S 7D 8C", "suit", 4),
    (STANDARD, "5H 5D 5S", "rank", 1),
    (STANDARD, "5H 6D 7H", "colour", 1),
    (WILD2, "5H 6H *", "suit", 2),  # the wild shows a suit the naturals lack
    (WILD2, "5H 6S 7D 8C *", "suit", 4),  # no fifth suit in the deck
    (WILD2, "* *", "suit", 2),
    (WILD2, "5H 6D * *", "colour", 2),  # two colours only
    (WILD2, "5H 6H 7H *", "rank", 4),
])
def test_count_distinct(deck: Deck, cards: str, selector: str, value: int) -> None:
    compiled = compile_expression(f"count_distinct({selector})", Env(Context.MELD, deck), INT)
    group = deck.parse_cards(cards.split())
    assert compiled(group) == value


def test_count_distinct_checks_its_argument() -> None:
    with pytest.raises(ExpressionError) as info:
        compile_expression("count_distinct(suite) >= 2", Env(Context.MELD, STANDARD), BOOL)
    assert (info.value.column, info.value.message) == (
        16, "count_distinct(...) takes rank, suit or colour, got 'suite'; did you mean 'suit'?")
    with pytest.raises(ExpressionError) as info:
        compile_expression("count_distinct(suit)", Env(Context.MELD, STANDARD), BOOL)
    assert info.value.message == "this expression must give a bool, got an int"


def _naive_count_distinct(deck: Deck, cards: list[Any]) -> int:
    """The most suits any choice of suits for the wild cards shows."""
    natural = {c.suit.index for c in cards if not c.wild}
    wilds = sum(c.wild for c in cards)
    best = 0
    for chosen in combinations(range(len(deck.suits)), min(wilds, len(deck.suits))):
        best = max(best, len(natural | set(chosen)))
    return max(best, len(natural))


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_count_distinct_matches_brute_force(data: st.DataObject) -> None:
    cards = data.draw(st.lists(st.sampled_from(list(WILD2.cards)), min_size=1, max_size=7, unique=True))
    compiled = compile_expression("count_distinct(suit)", Env(Context.MELD, WILD2), INT)
    assert compiled(cards) == _naive_count_distinct(WILD2, cards)


SKARNEY_TWO_SUITS = """\
rummydsl: 1
id: skarney_two_suits
name: Skarney, poker melds of two suits or more
extends: skarney_gin
melds:
  poker: "size >= 3 and consecutive(rank) and count_distinct(suit) >= 2"
"""


def test_skarney_house_rule_with_count_distinct(tmp_path: Path) -> None:
    variant = load_variant(write(tmp_path, SKARNEY_TWO_SUITS))
    poker = next(kind for kind in variant.meld_kinds if kind.name == "poker")
    assert poker.pattern(STANDARD.parse_cards("5H 6S 7H".split()))
    assert not poker.pattern(STANDARD.parse_cards("5H 6H 7H".split()))
    from rummydsl.engine.round import meld_rules

    solver = meld_rules(variant)
    hand = STANDARD.parse_cards("5H 6S 7H 9C 9D 9S KD".split())
    assert solver.solve(hand, check_contract=False).deadwood == 10


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_solver_stays_exact_with_count_distinct(data: st.DataObject) -> None:
    """The least deadwood of the house rule's solver equals a brute force over every
    partition of the hand into melds the patterns accept (C-6)."""
    variant = _two_suits()
    from rummydsl.engine.round import meld_rules

    solver = meld_rules(variant)
    pool = [c for c in variant.deck.cards if c.rank is not None and c.rank.order <= 6]
    hand = data.draw(st.lists(st.sampled_from(pool), min_size=3, max_size=9, unique=True))
    values = variant.card_values
    kinds = variant.meld_kinds

    def best(cards: tuple[Any, ...]) -> int:
        if not cards:
            return 0
        first, rest = cards[0], cards[1:]
        result = values[first.id] + best(rest)  # the first card unmatched
        for size in range(2, len(rest) + 1):
            for others in combinations(rest, size):
                group = (first, *others)
                if any(kind.pattern(group) for kind in kinds):
                    left = tuple(c for c in rest if c not in others)
                    result = min(result, best(left))
        return result

    assert solver.solve(hand, check_contract=False).deadwood == best(tuple(hand))


_TWO_SUITS: list[Any] = []


def _two_suits() -> Any:
    if not _TWO_SUITS:
        import tempfile

        folder = Path(tempfile.mkdtemp())
        _TWO_SUITS.append(load_variant(write(folder, SKARNEY_TWO_SUITS)))
    return _TWO_SUITS[0]


# -- a knock with no limit --------------------------------------------------------------------


def test_knock_without_limit_any_deadwood(tmp_path: Path) -> None:
    variant = load_variant(write(tmp_path, KNOCK_ANY))
    assert variant.knock is not None and variant.knock.limit is None
    cards = variant.deck.parse_cards
    rnd = Round.from_setup(variant, dealer=2,
                           hands=[cards("AS 3D 5H 7C 9S JD KH".split()),
                                  cards("2S 4D 6H 8C TS QD KC".split()),
                                  cards("2C 4C 6C 8D TH QH KD".split())],
                           stock=cards("5D 2H 3H".split()), upcard=variant.deck.parse_card("TD"))
    assert rnd.knock_limit is None
    rnd.apply("P1 draw stock")
    knocks = [a for a in rnd.legal_actions() if isinstance(a, Knock)]
    assert len(knocks) == 8 and all(a.card is not None for a in knocks)  # one per card, no big gin
    assert "P1 knock KH" in rnd.legal_actions()
    rnd.apply("P1 knock KH")
    assert rnd.result is not None and str(rnd.result.ending) == "knock"
    assert rnd.result.deadwoods[0] == 1 + 3 + 5 + 7 + 9 + 10 + 5


def test_knock_listing_without_limit_searches_no_card(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    variant = load_variant(write(tmp_path, KNOCK_ANY))
    rnd = Game(variant, random.Random(5)).round
    rnd.apply(f"P{rnd.to_move + 1} draw stock")  # no card taken from the pile is barred
    calls: list[Any] = []
    original = type(rnd.rules).solve

    def counting(self: Any, *args: Any, **kwargs: Any) -> Any:
        calls.append(args)
        return original(self, *args, **kwargs)

    monkeypatch.setattr(type(rnd.rules), "solve", counting)
    rnd._listed = None
    listed = list(rnd.legal_actions())
    assert sum(isinstance(a, Knock) for a in listed) == len(rnd.hands[rnd.to_move])
    assert calls == []


def test_knock_limit_key_optional_in_schema(tmp_path: Path) -> None:
    import jsonschema

    from rummydsl.variant.schema import variant_schema

    knock = variant_schema()["properties"]["knock"]
    jsonschema.validate({"big_gin": False}, knock)
    # under 'extends' a key left out is inherited: the parent's limit stays
    text = KNOCK_ANY.replace("knock: {limit: null, big_gin: false}", "knock: {big_gin: false}")
    inherited = load_variant(write(tmp_path, text)).knock
    assert inherited is not None and inherited.limit is not None and inherited.limit.text == "10"


def test_explain_says_any_deadwood_and_sizes(tmp_path: Path) -> None:
    out = io.StringIO()
    assert main(["explain", write(tmp_path, KNOCK_ANY)], stdout=out, stderr=io.StringIO()) == 0
    text = " ".join(out.getvalue().split())
    assert "7 cards each (10 with 2 players, 7 with 3 to 4 players, 6 with 5 players)" in text
    assert "A round ends by knocking with any deadwood." in text
    assert "with any deadwood (there is no knock limit)" in text


# -- --players N --------------------------------------------------------------------------------


def test_with_players_refuses_a_count_outside_the_range(tmp_path: Path) -> None:
    variant = load_variant(write(tmp_path, KNOCK_ANY))
    with pytest.raises(VariantError) as info:
        with_players(variant, 6)
    assert info.value.diagnostics[0].message == (
        "variant 'knock_any' is played by 2 to 5 players (its 'players'), not 6")
    assert with_players(variant, None) is variant


def test_simulate_with_players(tmp_path: Path) -> None:
    path = write(tmp_path, KNOCK_ANY)
    log = tmp_path / "log.jsonl"
    out, err = io.StringIO(), io.StringIO()
    code = main(["simulate", path, "--games", "3", "--seed", "4", "--players", "5", "--agents", "random",
                 "--log", str(log)], stdout=out, stderr=err)
    assert code == 0, err.getvalue()
    assert "P5" in out.getvalue() and "P6" not in out.getvalue()
    out = io.StringIO()
    # a house rule replays with its file given: a record's own path is never opened
    assert main(["replay", str(log), "--variant", path], stdout=out, stderr=io.StringIO()) == 0
    assert "every result matches" in out.getvalue()


def test_simulate_players_outside_range_is_a_clear_error(tmp_path: Path) -> None:
    out, err = io.StringIO(), io.StringIO()
    code = main(["simulate", "gin_rummy", "--games", "1", "--seed", "1", "--players", "3"], stdout=out, stderr=err)
    assert code != 0
    assert "variant 'gin_rummy' is played by exactly 2 players (its 'players'), not 3" in err.getvalue()


def test_check_play_with_players(tmp_path: Path) -> None:
    path = write(tmp_path, KNOCK_ANY)
    out = io.StringIO()
    assert main(["check", path, "--play", "2", "--players", "4"], stdout=out, stderr=io.StringIO()) == 0
    out = io.StringIO()
    assert main(["check", path, "--play", "2", "--players", "9"], stdout=out, stderr=io.StringIO()) == 1
    assert "is played by 2 to 5 players (its 'players'), not 9" in out.getvalue()
    err = io.StringIO()
    assert main(["check", path, "--players", "4"], stdout=io.StringIO(), stderr=err) == 2
    assert "give --play too" in err.getvalue()


# -- rule ids of RULES-FAMILY.md -------------------------------------------------------------------

RULES_FAMILY_MD = Path(__file__).resolve().parents[3] / "shared" / "RULES-FAMILY.md"


def test_family_rule_ids_are_rule_ids(tmp_path: Path) -> None:
    text = KNOCK_ANY + "rules: [KR-1, KR-4.2, BR-5, R5-3, G3-2, CR-6]\n"
    assert errors(write(tmp_path, text)) == []
    assert load_variant(write(tmp_path, text, "w.yaml")).rules[1] == "KR-4.2"
    bad = KNOCK_ANY + "rules: [XR-1]\n"
    assert [e.split(": ", 1)[1] for e in errors(write(tmp_path, bad, "x.yaml"))] == [
        "'rules[0]' is 'XR-1'; it must be a RULES.md or RULES-FAMILY.md id such as GR-9.2 or KR-4.1 "
        "[schema-pattern]"]


def _coverage_run(*args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(["test", *args], stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def test_coverage_reads_every_rules_file_given(tmp_path: Path) -> None:
    rules = write(tmp_path, "## GR — Gin\n- GR-1 Cards.\n- GR-2 Deal.\n", "RULES.md")
    family = write(tmp_path, "## KR — Knock Rummy\n- KR-1 Deal. [OPT game_target = 100 | n]\n- KR-2 Turn.\n",
                   "FAMILY.md")
    write(tmp_path, "variant: gin_rummy\ncases:\n  - {id: a, rule: [GR-1, KR-1], option: game_target=150, "
                    "meld: [AS], expect: {valid: false}}\n", "my.suite.yaml")
    code, out, _ = _coverage_run(str(tmp_path), "--coverage", rules, "--coverage", family)
    assert code == 0
    assert "2 of 4 rule ids cited" in out
    assert "rule ids no case cites: GR-2, KR-2" in out
    assert "option values no case cites: KR game_target=100" in out


def test_bare_coverage_reads_rules_family_beside_rules(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write(tmp_path, "## GR — Gin\n- GR-1 Cards.\n", "RULES.md")
    write(tmp_path, "## KR — Knock Rummy\n- KR-1 Deal.\n", "RULES-FAMILY.md")
    suites = tmp_path / "suites"
    suites.mkdir()
    write(suites, "variant: gin_rummy\ncases:\n  - {id: a, rule: GR-1, meld: [AS], expect: {valid: false}}\n",
          "my.suite.yaml")
    monkeypatch.chdir(tmp_path)
    code, out, _ = _coverage_run(str(suites), "--coverage")
    assert code == 0
    assert "1 of 2 rule ids cited" in out and "rule ids no case cites: KR-1" in out


@pytest.mark.skipif(not RULES_FAMILY_MD.exists(), reason="../shared/RULES-FAMILY.md is not beside the repository")
def test_read_rules_of_rules_family() -> None:
    from rummydsl.conformance.coverage import read_rules

    rules, options = read_rules(RULES_FAMILY_MD.read_text(encoding="utf-8"))
    assert {"KR-1", "KR-4.1", "KR-4.3", "BR-6", "R5-7", "G3-3", "CR-6"} <= set(rules)
    assert "KR-4" not in rules
    assert options[("KR", "knock_penalty")] == ("10", "n")
    assert options[("BR", "ace")] == ("low", "high", "both")
