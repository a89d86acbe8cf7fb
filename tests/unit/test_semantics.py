"""The semantic checks' meld probe: the size bounds it reads from a pattern, and the
groups it tries, which must include a witness for every shipped meld kind."""

from __future__ import annotations

from pathlib import Path

import pytest

from rummydsl.cards import Deck
from rummydsl.expr import BOOL, Context, Env, compile_expression
from rummydsl.variant import load_variant, shipped_variant_ids
from rummydsl.variant.semantics import MAX_PROBE_SIZE, natural_groups, sample_melds, size_bounds, wild_groups

STANDARD = Deck.preset("standard52")


@pytest.mark.parametrize("pattern,bounds", [
    ("size >= 3 and same(rank)", (3, MAX_PROBE_SIZE)),
    ("size in 3..4 and same(rank)", (3, 4)),
    ("size == 3 and same(suit)", (3, 3)),
    ("same(rank) and size < 5 and size > 2", (3, 4)),
    ("size >= 3 or same(rank)", (1, MAX_PROBE_SIZE)),      # 'or' bounds nothing
    ("not (size < 3) and same(rank)", (1, MAX_PROBE_SIZE)),  # only plain comparisons are read
    ("size in 3..set_max and same(rank)", (3, 5)),           # an option is read at its value
    ("size >= 3 and size <= 20", (3, MAX_PROBE_SIZE)),       # the probe stops at its own limit
])
def test_size_bounds(pattern: str, bounds: tuple[int, int]) -> None:
    env = Env(Context.MELD, STANDARD, options={"set_max": 5})
    assert size_bounds(compile_expression(pattern, env, BOOL)) == bounds


def test_wild_groups_only_for_decks_with_wilds() -> None:
    assert wild_groups(STANDARD, 3) == ()
    rumski = Deck.preset("rumski70")
    assert any(card.wild for group in wild_groups(rumski, 3) for card in group)
    assert all(not card.wild for group in natural_groups(rumski, 3) for card in group)


@pytest.mark.parametrize("variant_id", shipped_variant_ids())
def test_every_shipped_kind_has_witnesses_from_3_to_its_largest(variant_id: str) -> None:
    variant = load_variant(variant_id)
    for kind, by_size in sample_melds(variant).items():
        pattern = next(k for k in variant.meld_kinds if k.name == kind).pattern
        assert max(3, size_bounds(pattern)[0]) in by_size, kind  # CR-2's runs start at 4 cards
        for group in by_size.values():
            assert next(k for k in variant.meld_kinds if k.name == kind).pattern(group)


@pytest.mark.parametrize("poker, warned", [
    ('{pattern: "size >= 3 and consecutive(rank) and distinct(suit)"}', True),
    ('{pattern: "size >= 3 and consecutive(rank) and distinct(suit)", description: null}', False),
    ('{pattern: "size >= 3 and consecutive(rank) and distinct(suit)", description: "all suits differ"}', False),
    ('"size >= 3 and consecutive(rank) and distinct(suit)"', False),  # a string replaces the map whole
    ('{description: "mixed suits"}', False),
])
def test_an_inherited_description_of_a_changed_pattern_is_warned(tmp_path: Path, poker: str, warned: bool) -> None:
    """Skarney's poker changed to distinct(suit) but still described as 'suits are not all the same'."""
    from rummydsl.variant import check_file

    path = tmp_path / "h.yaml"
    path.write_text(f"rummydsl: 1\nid: h\nname: H\nextends: skarney_gin\nmelds:\n  poker: {poker}\n", encoding="utf-8")
    found = [d for d in check_file(str(path)) if d.rule == "description-stale"]
    assert bool(found) == warned, found
    if warned:
        assert (found[0].location.line, found[0].location.column) == (6, 20)  # at the new pattern
        assert found[0].severity == "warning"


@pytest.mark.parametrize("house, rule, severity", [
    ("knock: null\n", "game-end", "error"),  # Gin without knocking: every round is void at the stock floor
    ("knock: null\nstock: {at_floor: turn_over}\n", "game-end", "error"),
    ("scoring: {multiplier: 0}\n", "game-end", "error"),
    ("options: {gin_bonus: 0, big_gin_bonus: 0, undercut_bonus: 0}\nscoring:\n  let: null\n  round:\n"
     "    - {when: gin, ender: \"gin_bonus\"}\n    - {when: knock, ender: \"0\"}\n", "game-end", "error"),
    ("scoring: {round: []}\n", "game-end", "error"),
    ("knock: null\nstock: {at_floor: stock_end}\nscoring: {round: [{when: stock_end, points: \"deadwood(p)\"}]}\n",
     "round-end", "warning"),  # it may end: check cannot tell, and says to play it
    ("knock: null\ngame: {deals: 3}\n", "round-end", "warning"),  # a fixed number of deals ends it
    ("scoring: {round: []}\ngame: {deals: 3}\n", "score-none", "warning"),
])
def test_a_game_that_cannot_end_is_an_error(tmp_path: Path, house: str, rule: str, severity: str) -> None:
    from rummydsl.variant import check_file

    path = tmp_path / "h.yaml"
    path.write_text(f"rummydsl: 1\nid: h\nname: H\nextends: gin_rummy\n{house}", encoding="utf-8")
    found = [(d.rule, d.severity) for d in check_file(str(path)) if d.rule in ("game-end", "round-end", "score-none")]
    assert found == [(rule, severity)]
    if rule == "round-end":
        assert "rummydsl check --play" in next(d.message for d in check_file(str(path)) if d.rule == rule)
