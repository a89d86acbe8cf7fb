"""Every variant option of RULES.md ("Option index") can be chosen by a house-rule file.

One row per (game, option, value): a tiny file that ``extends`` the shipped variant
of that game sets the option the way the shipped files and docs/language.md do; the
test loads it and reads the choice back through the model, and, where the option
changes something observable without a game engine (card values, meld patterns,
knock limits, round scores, final figures), checks that behaviour too.

Two further tests keep this table honest against RULES.md: its option names are
exactly the option index, and every listed alternative value of an option has a row.
"""

from __future__ import annotations

import re
import textwrap
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

import pytest

from rummydsl.expr import SimpleRoundView
from rummydsl.scoring import final_figures, score_round
from rummydsl.variant import load_variant
from rummydsl.variant.model import Variant

RULES_MD = Path(__file__).resolve().parents[3] / "shared" / "RULES.md"

PARENT = {"GR": "gin_rummy", "SK": "skarney_gin", "GS": "ginski"}

Check = Callable[[Variant], None]


@dataclass(frozen=True)
class Row:
    prefix: str
    """GR, SK or GS: the RULES.md section (and, by default, the shipped parent)."""
    option: str
    """The option's name in RULES.md's option index."""
    value: str
    """The value as RULES.md lists it; ``n=...`` for a free number ("n", "any integer")."""
    rule: str
    """The RULES.md id of the ``[OPT ...]``."""
    yaml: str
    """The house-rule body: how a variant file selects this value."""
    checks: tuple[Check, ...]
    parent: str | None = None
    """The variant extended, when not the game's base variant."""

    @property
    def id(self) -> str:
        return f"{self.rule}-{self.option}={self.value}"


# ----------------------------------------------------------------------------- checks


def attr(path: str, expected: Any) -> Check:
    """The model field at dotted ``path`` (``step:offer.mandatory`` for a turn step) is ``expected``."""

    def check(variant: Variant) -> None:
        node: Any = variant
        parts = path.split(".")
        if parts[0].startswith("step:"):
            node = variant.step(parts[0][len("step:"):])
            assert node is not None, f"no {parts[0]} in the turn"
            parts = parts[1:]
        for part in parts:
            node = getattr(node, part)
        assert node == expected, f"variant.{path} is {node!r}, expected {expected!r}"

    return check


def option_is(name: str, expected: Any) -> Check:
    def check(variant: Variant) -> None:
        assert variant.option(name) == expected

    return check


def parent_is(expected: str) -> Check:
    def check(variant: Variant) -> None:
        assert variant.parent == expected

    return check


def card_values(expected: Mapping[str, int]) -> Check:
    def check(variant: Variant) -> None:
        got = {text: variant.card_values[variant.deck.parse_card(text).id] for text in expected}
        assert got == dict(expected)

    return check


def melds(kind: str, expected: Mapping[str, bool]) -> Check:
    """``kind``'s pattern says ``expected[cards]`` of each group of cards."""

    def check(variant: Variant) -> None:
        kinds = {k.name: k for k in variant.meld_kinds}
        pattern = kinds[kind].pattern
        got = {cards: bool(pattern(variant.deck.parse_cards(cards))) for cards in expected}
        assert got == dict(expected), pattern.text

    return check


def deadwoods(expected: Mapping[str, int]) -> Check:
    """The variant's meld solver gives each hand the least deadwood ``expected[hand]``."""

    def check(variant: Variant) -> None:
        from rummydsl.melds import MeldRules

        rules = MeldRules.from_variant(variant)
        got = {hand: rules.solve(variant.deck.parse_cards(hand)).deadwood for hand in expected}
        assert got == dict(expected)

    return check


def kinds_with(group: str, hand: str, expected: set[str]) -> Check:
    """The group forms the kinds ``expected`` beside the other cards ``hand``."""

    def check(variant: Variant) -> None:
        from rummydsl.melds import MeldRules

        rules = MeldRules.from_variant(variant)
        assert rules.kinds_of(variant.deck.parse_cards(group), hand=variant.deck.parse_cards(hand)) == expected

    return check


def view_for(variant: Variant, **kwargs: Any) -> SimpleRoundView:
    upcard = kwargs.pop("upcard", None)
    if isinstance(upcard, str):
        upcard = variant.deck.parse_card(upcard)
    return SimpleRoundView(upcard=upcard, card_value=lambda c: variant.card_values[c.id], **kwargs)


def knock_limit(expected: Mapping[str, int]) -> Check:
    """The knock limit for each dealt upcard (RULES GR-6.1, GR-12.1, GS-6.1)."""

    def check(variant: Variant) -> None:
        assert variant.knock is not None
        got = {up: variant.knock.limit(view_for(variant, upcard=up)) for up in expected}
        assert got == dict(expected)

    return check


def scores(expected: Mapping[str, int], *, ender: str | None, ending: str,
           deadwoods: Mapping[str, int], players: Sequence[str] | None = None,
           upcard: str | None = None, contracts: Mapping[str, bool] | None = None) -> Check:
    """``score_round`` of a round with these deadwoods (and contracts met) gives ``expected``."""
    seats = tuple(players) if players is not None else tuple(deadwoods)

    def check(variant: Variant) -> None:
        view = view_for(variant, players=seats, ender=ender, ending=ending,
                        deadwoods=dict(deadwoods), upcard=upcard, contracts=dict(contracts or {}))
        assert score_round(variant, view) == dict(expected)

    return check


def figures(expected: Mapping[str, int], *, points: Mapping[str, int],
            wins: Mapping[str, int]) -> Check:
    def check(variant: Variant) -> None:
        assert final_figures(variant, dict(points), dict(wins)) == dict(expected)

    return check


def skarney_turn(draw: str = "{from: [stock]}", offer: str = "{}") -> str:
    """Skarney Gin's turn written out (lists replace on ``extends``), with changes."""
    return f"turn:\n  - draw: {draw}\n  - meld: {{}}\n  - offer: {offer}\n"


# Worked-example rounds, reused below.
GR_KNOCK = dict(ender="P1", ending="knock")                     # GR-15
GS_SEATS = ("A", "B", "C")                                      # GS-8: A deals, B knocks
GS_KNOCK = dict(players=GS_SEATS, ender="B", ending="knock")
GS_GIN = dict(players=GS_SEATS, ender="B", deadwoods={"A": 26, "B": 0, "C": 64})

POKER_GROUPS = ("3S 4C 5C", "3S 4S 5S", "3S 4C 5D", "3H 4S 5H 6D", "3S 4C 5D 6H", "3S 4C 5D 6H 7S",
                "QS KC AD", "KS AC 2D", "3S 4C 6D")
POKER = {
    # SK-3.3: poker_suits -> which groups form a poker.
    "not_all_same": (True, False, True, True, True, True, True, False, False),
    "all_different": (False, False, True, False, True, False, True, False, False),
    "any": (True, True, True, True, True, True, True, False, False),
}
POKER_PATTERN = {
    "not_all_same": "size >= 3 and consecutive(rank) and not same(suit)",
    "all_different": "size >= 3 and consecutive(rank) and distinct(suit)",
    "any": "size >= 3 and consecutive(rank)",
}


def row(prefix: str, option: str, value: str, rule: str, yaml: str, *checks: Check,
        parent: str | None = None) -> Row:
    return Row(prefix, option, value, rule, textwrap.dedent(yaml), checks, parent)


ROWS: list[Row] = [
    # ------------------------------------------------------------------- Gin Rummy (GR)
    *[row("GR", "dealer_rotation", label, "GR-2.2", f"deal: {{rotation: {key}}}\n",
          attr("deal.rotation", key))
      for label, key in (("alternate", "next"), ("winner_deals", "winner_deals"),
                         ("loser_deals", "loser_deals"))],
    *[row("GR", "void_redeal", value, "GR-2.3", f"deal: {{void_redeal: {value}}}\n",
          attr("deal.void_redeal", value))
      for value in ("same_dealer", "rotate")],
    *[row("GR", "knock_limit", label, "GR-6.1", f"knock: {{limit: {n}}}\n",
          knock_limit({"7S": n, "AS": n, "KH": n}))
      for label, n in (("10", 10), ("n=0", 0), ("n=25", 25))],
    *[row("GR", "big_gin", label, "GR-6.3", f"knock: {{big_gin: {key}}}\n",
          attr("knock.big_gin", key == "true"), knock_limit({"7S": 10}))
      for label, key in (("on", "true"), ("off", "false"))],
    *[row("GR", "stock_floor", label, "GR-8", f"stock: {{floor: {n}}}\n",
          attr("stock.floor", n), attr("stock.at_floor", "void"))
      for label, n in (("2", 2), ("n=4", 4))],
    *[row("GR", "last_discard_claim", label, "GR-8", f"stock: {{last_discard_claim: {key}}}\n",
          attr("stock.last_discard_claim", key == "true"))
      for label, key in (("off", "false"), ("on", "true"))],
    *[row("GR", "undercut_bonus", str(n), "GR-9.2", f"options: {{undercut_bonus: {{value: {n}}}}}\n",
          option_is("undercut_bonus", n),
          scores({"P1": 0, "P2": 3 + n}, **GR_KNOCK, deadwoods={"P1": 8, "P2": 5}))
      for n in (25, 20, 10, 0)],
    row("GR", "undercut_on_tie", "true", "GR-9.2", "options: {undercut_on_tie: {value: true}}\n",
        option_is("undercut_on_tie", True),
        scores({"P1": 0, "P2": 25}, **GR_KNOCK, deadwoods={"P1": 6, "P2": 6})),
    row("GR", "undercut_on_tie", "false", "GR-9.2", "options: {undercut_on_tie: {value: false}}\n",
        option_is("undercut_on_tie", False),
        scores({"P1": 0, "P2": 0}, **GR_KNOCK, deadwoods={"P1": 6, "P2": 6}),
        scores({"P1": 0, "P2": 28}, **GR_KNOCK, deadwoods={"P1": 8, "P2": 5})),
    *[row("GR", "gin_bonus", str(n), "GR-9.3", f"options: {{gin_bonus: {{value: {n}}}}}\n",
          option_is("gin_bonus", n),
          scores({"P1": n + 30, "P2": 0}, ender="P1", ending="gin", deadwoods={"P1": 0, "P2": 30}),
          # GR-9.3: gin cannot be undercut, even by a defender with no deadwood.
          scores({"P1": n, "P2": 0}, ender="P1", ending="gin", deadwoods={"P1": 0, "P2": 0}))
      for n in (25, 20)],
    *[row("GR", "big_gin_bonus", str(n), "GR-9.4", f"options: {{big_gin_bonus: {{value: {n}}}}}\n",
          option_is("big_gin_bonus", n),
          scores({"P1": n + 30, "P2": 0}, ender="P1", ending="big_gin", deadwoods={"P1": 0, "P2": 30}))
      for n in (31, 50)],
    *[row("GR", "game_target", label, "GR-10.1", f"game: {{target: {n}}}\n", attr("game.target", n))
      for label, n in (("100", 100), ("150", 150), ("250", 250), ("n=500", 500))],
    *[row("GR", "game_bonus", str(n), "GR-10.2", f"game: {{game_bonus: {n}}}\n",
          attr("game.game_bonus", n),
          figures({"P1": 104 + n + 4 * 25, "P2": 27 + 25}, points={"P1": 104, "P2": 27},
                  wins={"P1": 4, "P2": 1}))
      for n in (100, 0)],
    *[row("GR", "box_bonus", str(n), "GR-10.3", f"game: {{box_bonus: {n}}}\n",
          attr("game.box_bonus", n),
          figures({"P1": 104 + 100 + 4 * n, "P2": 27 + n}, points={"P1": 104, "P2": 27},
                  wins={"P1": 4, "P2": 1}))
      for n in (25, 20, 0)],
    *[row("GR", "shutout", label, "GR-10.4", f"game: {{shutout: {key}}}\n",
          attr("game.shutout", key),
          figures({"P1": p1, "P2": 0}, points={"P1": 104, "P2": 0}, wins={"P1": 4, "P2": 0}),
          # Not a shutout: the option changes nothing.
          figures({"P1": 304, "P2": 52}, points={"P1": 104, "P2": 27}, wins={"P1": 4, "P2": 1}))
      for label, key, p1 in (("double_total", "double_total", (104 + 100 + 100) * 2),
                             ("double_hand_points", "double_hand_points", 104 * 2 + 100 + 100),
                             ("flat_100", "flat_100", 104 + 100 + 100 + 100),
                             ("off", "none", 104 + 100 + 100))],
    row("GR", "oklahoma", "off", "GR-12", "",
        parent_is("gin_rummy"), knock_limit({"7S": 10, "AS": 10, "3H": 10}),
        scores({"P1": 10, "P2": 0}, **GR_KNOCK, deadwoods={"P1": 7, "P2": 17}, upcard="7S")),
    row("GR", "oklahoma", "on", "GR-12", "", parent_is("oklahoma_gin"),
        knock_limit({"7S": 7, "3H": 3, "TD": 10, "KC": 10, "AS": 0}), attr("game.target", 150),
        scores({"P1": 20, "P2": 0}, **GR_KNOCK, deadwoods={"P1": 7, "P2": 17}, upcard="7S"),
        parent="oklahoma_gin"),
    row("GR", "oklahoma_ace", "gin_only", "GR-12.2", "options: {oklahoma_ace: {value: gin_only}}\n",
        option_is("oklahoma_ace", "gin_only"), knock_limit({"AS": 0, "AH": 0, "7S": 7}),
        parent="oklahoma_gin"),
    row("GR", "oklahoma_ace", "one", "GR-12.2", "options: {oklahoma_ace: {value: one}}\n",
        option_is("oklahoma_ace", "one"), knock_limit({"AS": 1, "AH": 1, "7S": 7}),
        parent="oklahoma_gin"),
    row("GR", "spade_double", "on", "GR-12.3", "options: {spade_double: {value: true}}\n",
        option_is("spade_double", True),
        scores({"P1": 20, "P2": 0}, **GR_KNOCK, deadwoods={"P1": 7, "P2": 17}, upcard="7S"),
        scores({"P1": 10, "P2": 0}, **GR_KNOCK, deadwoods={"P1": 7, "P2": 17}, upcard="7H"),
        # Bonuses included (GR-12.3): an undercut with a spade upcard.
        scores({"P1": 0, "P2": 56}, **GR_KNOCK, deadwoods={"P1": 8, "P2": 5}, upcard="KS"),
        parent="oklahoma_gin"),
    row("GR", "spade_double", "off", "GR-12.3", "options: {spade_double: {value: false}}\n",
        option_is("spade_double", False),
        scores({"P1": 10, "P2": 0}, **GR_KNOCK, deadwoods={"P1": 7, "P2": 17}, upcard="7S"),
        parent="oklahoma_gin"),
    row("GR", "hollywood", "off", "GR-13", "game: {hollywood: null}\n",
        attr("game.hollywood_games", None)),
    row("GR", "hollywood", "on", "GR-13", "game: {hollywood: {games: 3}}\n",
        attr("game.hollywood_games", 3)),
    # ---------------------------------------------------------------- Skarney Gin (SK)
    *[row("SK", "void_redeal", value, "SK-2.2", f"deal: {{void_redeal: {value}}}\n",
          attr("deal.void_redeal", value), attr("deal.rotation", "loser_deals"))
      for value in ("same_dealer", "rotate")],
    *[row("SK", "poker_suits", value, "SK-3.3", f"melds:\n  poker: \"{POKER_PATTERN[value]}\"\n",
          melds("poker", dict(zip(POKER_GROUPS, POKER[value]))),
          # The other kinds are untouched.
          melds("run", {"3S 4S 5S": True, "3S 4C 5C": False}), melds("set", {"5C 5D 5S": True}))
      for value in ("not_all_same", "all_different", "any")],
    *[row("SK", "meld_kind_locked", value, "SK-3.4", f"meld_options: {{kind_locked: {value}}}\n",
          attr("kind_locked", value == "true"))
      for value in ("false", "true")],
    *[row("SK", "contract_then_meld_same_turn", value, "SK-5.4",
          f"contract: {{then_meld_same_turn: {value}}}\n",
          attr("contract.then_meld_same_turn", value == "true"), attr("contract.concealed_until_met", True))
      for value in ("true", "false")],
    *[row("SK", "offer_mandatory", value, "SK-7.1", skarney_turn(offer=f"{{mandatory: {value}}}"),
          attr("step:offer.mandatory", value == "true"), attr("step:offer.min_hand", 2),
          attr("step:draw.sources", ("stock",)))
      for value in ("true", "false")],
    *[row("SK", "no_reoffer_accepted_card", value, "SK-7.3",
          skarney_turn(offer=f"{{no_reoffer_accepted: {value}}}"),
          attr("step:offer.no_reoffer_accepted", value == "true"), attr("step:offer.mandatory", True))
      for value in ("false", "true")],
    row("SK", "accepted_ace_skips_draw", "false", "SK-7.3",
        skarney_turn(draw="{from: [stock], skip_after_accepting: null}"),
        attr("step:draw.skip_after_accepting", None)),
    row("SK", "accepted_ace_skips_draw", "true", "SK-7.3",
        skarney_turn(draw="{from: [stock], skip_after_accepting: \"rank == A\"}"),
        lambda v: assert_skips(v, {"AS": True, "AH": True, "KS": False, "2C": False})),
    *[row("SK", "stock_floor", label, "SK-9.3", f"stock: {{floor: {n}}}\n",
          attr("stock.floor", n), attr("stock.at_floor", "stock_end"))
      for label, n in (("2", 2), ("n=4", 4))],
    *[row("SK", "final_turn_offer", label, "SK-9.3", f"stock: {{final_turn_skip: {skip}}}\n",
          attr("stock.final_turn_skip", expected))
      for label, skip, expected in (("none", "[offer]", ("offer",)), ("normal", "[]", ()))],
    *[row("SK", "deadwood_excludes_concealed_melds", value, "SK-10.1",
          f"deadwood: {{excludes_concealed_melds: {value}}}\n",
          attr("deadwood_excludes_concealed_melds", value == "true"))
      for value in ("true", "false")],
    *[row("SK", "gin_bonus", label, "SK-10.2", f"options: {{gin_bonus: {{value: {n}}}}}\n",
          option_is("gin_bonus", n),
          scores({"P1": n + 37, "P2": 0}, ender="P1", ending="out", deadwoods={"P1": 0, "P2": 37},
                 upcard=None))
      for label, n in (("25", 25), ("n=50", 50))],
    # SK-10.3 stock_end_contract: the comparison is unchanged; with `required` the lower
    # deadwood scores only if its player met the contract (SK-11's stock-low end: 21 vs 7).
    *[row("SK", "stock_end_contract", value, "SK-10.3",
          f"options: {{stock_end_contract: {{value: {value}}}}}\n",
          option_is("stock_end_contract", value),
          scores({"P1": 0, "P2": 14}, ender=None, ending="stock_end", deadwoods={"P1": 21, "P2": 7},
                 contracts={"P1": True, "P2": True}),
          scores({"P1": 0, "P2": 14 if value == "any" else 0}, ender=None, ending="stock_end",
                 deadwoods={"P1": 21, "P2": 7}, contracts={"P1": True, "P2": False}),
          # The player with more deadwood never scores, contract or not.
          scores({"P1": 0, "P2": 0 if value == "required" else 14}, ender=None, ending="stock_end",
                 deadwoods={"P1": 21, "P2": 7}, contracts={"P1": True, "P2": False}))
      for value in ("any", "required")],
    *[row("SK", "game_target", label, "SK-10.4", f"game: {{target: {n}}}\n", attr("game.target", n))
      for label, n in (("200", 200), ("n=300", 300))],
    *[row("SK", "game_bonus", label, "SK-10.4", f"game: {{game_bonus: {n}}}\n",
          attr("game.game_bonus", n),
          figures({"P1": 210 + n, "P2": 120}, points={"P1": 210, "P2": 120}, wins={"P1": 9, "P2": 5}))
      for label, n in (("0", 0), ("n=50", 50))],
    # ------------------------------------------------------------------- Ginski (GS)
    row("GS", "number_value", "face", "GS-1.3", "options: {number_value: {value: face}}\n",
        option_is("number_value", "face"),
        card_values({"1R": 1, "7B": 7, "10G": 10, "11P": 11, "13Y": 13, "*": 25})),
    row("GS", "number_value", "cap_10", "GS-1.3", "options: {number_value: {value: cap_10}}\n",
        option_is("number_value", "cap_10"),
        card_values({"1R": 1, "7B": 7, "10G": 10, "11P": 10, "13Y": 10, "*": 25})),
    *[row("GS", "wild_value", label, "GS-1.3", f"options: {{wild_value: {{value: {n}}}}}\n",
          option_is("wild_value", n), card_values({"*": n, "13Y": 13, "2R": 2}))
      for label, n in (("25", 25), ("n=15", 15))],
    *[row("GS", "players", str(n), "GS-2.1", f"players: {n}\n", attr("players", n),
          # "each opponent": B knocks with 2; everyone else holds 26 deadwood.
          scores({**{s: 0 for s in "ABCD"[:n]}, "B": 24 * (n - 1)}, ender="B", ending="knock",
                 players=tuple("ABCD"[:n]), deadwoods={**{s: 26 for s in "ABCD"[:n]}, "B": 2}))
      for n in (3, 2, 4)],
    *[row("GS", "set_max", str(n), "GS-3.2", f"options: {{set_max: {{value: {n}}}}}\n",
          option_is("set_max", n),
          melds("set", {"9R 9B 9G": True, "9R 9B 9G 9P": True, "9R 9B 9G *": True,
                        "9R 9B 9G 9P 9Y": n >= 5, "9R 9B 9G 9P *": n >= 5, "9R 9B 8G": False}))
      for n in (5, 4)],
    *[row("GS", "min_naturals_per_meld", str(n), "GS-3.3", f"options: {{min_naturals: {{value: {n}}}}}\n",
          option_is("min_naturals", n),
          melds("run", {"5R * *": n <= 1, "5R 6R *": True, "* * *": False, "5R * 7R": True}),
          melds("set", {"9R * *": n <= 1, "9R 9B *": True, "* * *": False}))
      for n in (1, 2)],
    *[row("GS", "wild_unique_card", value, "GS-3.3", f"meld_options: {{wild_unique_card: {value}}}\n",
          attr("wild_unique_card", value == "true"),
          # With the option a wild may not stand for a held card: 4R * 6R is no run beside
          # 5R (the wild ends 4R 5R 6R instead, 9G left: 9); all five 9s held leave the
          # wild no set to join (25); 9R 9B * with 9G 9P held must be 9Y, which is free (0).
          deadwoods({"4R 6R * 5R 9G": 9, "9R 9B 9G 9P 9Y *": 25 if value == "true" else 0,
                     "9R 9B * 9G 9P": 0}),
          kinds_with("4R * 6R", "5R", set() if value == "true" else {"run"}))
      for value in ("false", "true")],
    *[row("GS", "first_draw_after_all_pass", value, "GS-4.3", f"upcard_offer: {{after_all_pass: {value}}}\n",
          attr("upcard_offer.after_all_pass", value))
      for value in ("stock_only", "either")],
    *[row("GS", "discard_taken_card", value, "GS-5",
          f"turn:\n  - draw: {{from: [stock, discard]}}\n  - discard: {{taken_card: {value}}}\n",
          attr("step:discard.taken_card", value), attr("step:draw.sources", ("stock", "discard")))
      for value in ("forbidden", "allowed")],
    *[row("GS", "knock_limit", label, "GS-6.1", f"knock: {{limit: {n}}}\n",
          knock_limit({"7R": n, "13Y": n, "*": n}))
      for label, n in (("13", 13), ("n=10", 10))],
    *[row("GS", "layoff", value, "GS-6.4", f"layoff: {{onto: {value}}}\n",
          attr("layoff.onto", value), attr("layoff.after_gin", False))
      for value in ("ender_melds", "none")],
    row("GS", "stock_end", "void", "GS-6.5", "stock: {at_floor: void}\n", attr("stock.at_floor", "void")),
    row("GS", "stock_end", "lowest_deadwood", "GS-6.5", "stock: {at_floor: stock_end}\n",
        attr("stock.at_floor", "stock_end"),
        # The lowest deadwood scores the differences; a tie for lowest scores nothing.
        scores({"A": 0, "B": 70, "C": 0}, players=GS_SEATS, ender="B", ending="stock_end",
               deadwoods={"A": 26, "B": 2, "C": 48}),
        scores({"A": 0, "B": 0, "C": 0}, players=GS_SEATS, ender="B", ending="stock_end",
               deadwoods={"A": 5, "B": 5, "C": 48})),
    *[row("GS", "ginski_bonus", label, "GS-7.1", f"options: {{ginski_bonus: {{value: {n}}}}}\n",
          option_is("ginski_bonus", n),
          scores({"A": 0, "B": n + 90, "C": 0}, ending="gin", **GS_GIN))
      for label, n in (("25", 25), ("n=40", 40))],
    *[row("GS", "big_ginski_bonus", label, "GS-7.2", f"options: {{big_ginski_bonus: {{value: {n}}}}}\n",
          option_is("big_ginski_bonus", n),
          scores({"A": 0, "B": n + 90, "C": 0}, ending="big_gin", **GS_GIN))
      for label, n in (("31", 31), ("50", 50), ("n=60", 60))],
    row("GS", "knock_points", "sum_of_differences", "GS-7.3",
        "options: {knock_points: {value: sum_of_differences}}\n",
        option_is("knock_points", "sum_of_differences"),
        scores({"A": 0, "B": 70, "C": 0}, **GS_KNOCK, deadwoods={"A": 26, "B": 2, "C": 48})),
    row("GS", "knock_points", "lowest_difference", "GS-7.3",
        "options: {knock_points: {value: lowest_difference}}\n",
        option_is("knock_points", "lowest_difference"),
        scores({"A": 0, "B": 24, "C": 0}, **GS_KNOCK, deadwoods={"A": 26, "B": 2, "C": 48})),
    *[row("GS", "undercut_bonus", label, "GS-7.4", f"options: {{undercut_bonus: {{value: {n}}}}}\n",
          option_is("undercut_bonus", n),
          scores({"A": 1 + n, "B": 0, "C": 0}, **GS_KNOCK, deadwoods={"A": 1, "B": 2, "C": 48}))
      for label, n in (("25", 25), ("n=10", 10))],
    row("GS", "undercut_on_tie", "false", "GS-7.4", "options: {undercut_on_tie: {value: false}}\n",
        option_is("undercut_on_tie", False),
        # A tie is no undercut: B's knock scores (2 - 2) + (48 - 2).
        scores({"A": 0, "B": 46, "C": 0}, **GS_KNOCK, deadwoods={"A": 2, "B": 2, "C": 48})),
    row("GS", "undercut_on_tie", "true", "GS-7.4", "options: {undercut_on_tie: {value: true}}\n",
        option_is("undercut_on_tie", True),
        scores({"A": 25, "B": 0, "C": 0}, **GS_KNOCK, deadwoods={"A": 2, "B": 2, "C": 48})),
    row("GS", "undercut_penalty", "bonus_to_undercutter", "GS-7.4",
        "options: {undercut_penalty: {value: bonus_to_undercutter}}\n",
        option_is("undercut_penalty", "bonus_to_undercutter"),
        scores({"A": 26, "B": 0, "C": 0}, **GS_KNOCK, deadwoods={"A": 1, "B": 2, "C": 48})),
    row("GS", "undercut_penalty", "deduct_from_ender", "GS-7.4",
        "options: {undercut_penalty: {value: deduct_from_ender}}\n",
        option_is("undercut_penalty", "deduct_from_ender"),
        scores({"A": 1, "B": -25, "C": 0}, **GS_KNOCK, deadwoods={"A": 1, "B": 2, "C": 48})),
    row("GS", "undercut_penalty", "both", "GS-7.4",
        "options: {undercut_penalty: {value: both}}\n",
        option_is("undercut_penalty", "both"),
        scores({"A": 26, "B": -25, "C": 0}, **GS_KNOCK, deadwoods={"A": 1, "B": 2, "C": 48}),
        # Two tied undercutters each score e - m + 25; the ender loses the bonus once.
        scores({"A": 26, "B": -25, "C": 26}, **GS_KNOCK, deadwoods={"A": 1, "B": 2, "C": 1})),
    *[row("GS", "game_target", label, "GS-7.5", f"game: {{target: {n}}}\n", attr("game.target", n))
      for label, n in (("100", 100), ("n=150", 150))],
]


def assert_skips(variant: Variant, expected: Mapping[str, bool]) -> None:
    """SK-7.3 accepted_ace_skips_draw: the draw step's card predicate."""
    skip = variant.step("draw").skip_after_accepting
    assert skip is not None
    got = {text: bool(skip(variant.deck.parse_card(text))) for text in expected}
    assert got == dict(expected)


def write_house_rule(folder: Path, row: Row) -> Path:
    parent = row.parent or PARENT[row.prefix]
    text = f"rummydsl: 1\nid: house\nname: House rule\nextends: {parent}\n{row.yaml}"
    path = folder / "house.yaml"
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize("row", ROWS, ids=[r.id for r in ROWS])
def test_option_is_settable(row: Row, tmp_path: Path) -> None:
    variant = load_variant(str(write_house_rule(tmp_path, row)))
    assert variant.parent == (row.parent or PARENT[row.prefix])
    for check in row.checks:
        check(variant)


def test_row_ids_are_unique() -> None:
    ids = [r.id for r in ROWS]
    assert len(ids) == len(set(ids))


# ------------------------------------------------------------- the table against RULES.md


def rules_text() -> str:
    if not RULES_MD.is_file():
        pytest.skip(f"RULES.md not found at {RULES_MD} (it lives in the folder beside the repo root)")
    return RULES_MD.read_text(encoding="utf-8")


def option_index(text: str) -> dict[str, list[str]]:
    """The "## Option index" section: prefix -> option names, in order."""
    match = re.search(r"^## Option index\s*$(.*?)(?=^## |\Z)", text, re.M | re.S)
    assert match, "RULES.md has no '## Option index' section"
    index: dict[str, list[str]] = {}
    for prefix, names in re.findall(r"\b(GR|SK|GS):(.*?)(?=\b(?:GR|SK|GS):|\Z)", match.group(1), re.S):
        index[prefix] = [name.strip().rstrip(".") for name in names.split(",") if name.strip()]
    return index


def opt_tags(text: str) -> dict[str, dict[str, list[str]]]:
    """Every ``[OPT name = default | alt | ...]`` in the GR, SK and GS sections."""
    tags: dict[str, dict[str, list[str]]] = {}
    for prefix, body in re.findall(r"^## (GR|SK|GS) —(.*?)(?=^## |\Z)", text, re.M | re.S):
        for name, values in re.findall(r"\[OPT (\w+) = ([^\]]+)\]", body):
            tags.setdefault(prefix, {})[name] = [v.strip() for v in values.split("|")
                                                 if v.strip() and v.strip() != "…"]
    return tags


def test_table_covers_exactly_the_option_index() -> None:
    index = option_index(rules_text())
    assert sorted(index) == ["GR", "GS", "SK"]
    listed = {(prefix, name) for prefix, names in index.items() for name in names}
    assert len(listed) == 50, f"the option index lists {len(listed)} options"
    table = {(r.prefix, r.option) for r in ROWS}
    assert table - listed == set(), "rows for options the index does not list"
    assert listed - table == set(), "options of the index with no row"


def test_option_index_matches_the_rules_text() -> None:
    """Every [OPT ...] in a section is in that section's index, and the reverse."""
    text = rules_text()
    index = option_index(text)
    tags = opt_tags(text)
    for prefix in ("GR", "SK", "GS"):
        assert sorted(tags[prefix]) == sorted(index[prefix]), prefix


def test_every_listed_value_has_a_row() -> None:
    """Each value an [OPT ...] lists has a row; a free number ("n") has at least one other."""
    tags = opt_tags(rules_text())
    missing = []
    for prefix, options in tags.items():
        for name, listed in options.items():
            values = {r.value for r in ROWS if r.prefix == prefix and r.option == name}
            for value in listed:
                free = value == "n" or value.startswith("any integer")
                ok = any(v.startswith("n=") for v in values) if free else value in values
                if not ok:
                    missing.append(f"{prefix} {name}={value}")
    assert missing == []


def _string_options() -> list[tuple[str, str, str]]:
    from rummydsl.variant import shipped_variant_ids

    found = []
    for variant_id in shipped_variant_ids():
        variant = load_variant(variant_id)
        if variant.parent_data is not None:
            continue
        for option in variant.options.values():
            for value in option.one_of or ():
                found.append((variant_id, option.name, value))
    return found


@pytest.mark.parametrize("variant_id, name, value", _string_options())
def test_a_string_option_is_set_by_its_bare_value(tmp_path: Path, variant_id: str, name: str, value: str) -> None:
    """docs/options.md lists a string option's values bare (`number_value: cap_10`); a
    house rule writes them so, and keeps the option's choices, rule and description."""
    from rummydsl.variant import check_file

    path = tmp_path / "h.yaml"
    path.write_text(f"rummydsl: 1\nid: h\nname: H\nextends: {variant_id}\noptions: {{{name}: {value}}}\n",
                    encoding="utf-8")
    assert [str(d) for d in check_file(str(path)) if d.severity == "error"] == []
    option = load_variant(str(path)).options[name]
    parent = load_variant(variant_id).options[name]
    assert (option.value, option.one_of, option.rule, option.description) == (
        value, parent.one_of, parent.rule, parent.description)


@pytest.mark.parametrize("options, message", [
    ("{number_value: cap_11}", "option 'number_value' is 'cap_11', not one of face, cap_10; did you mean 'cap_10'?"),
    ("{colour_mode: bright}", "option 'colour_mode' is a string, but no parent declares a string option "
                              "'colour_mode' with its choices; write colour_mode: {value: bright, one_of: "
                              "[bright, ...]} to declare one"),
    ("{set_max: five}", "option 'set_max' is an integer (the parent's value is 5), not a string like 'five'"),
    ("{undercut_on_tie: no}", "option 'undercut_on_tie' is a boolean (the parent's value is false), not a "
                              "string like 'no'; YAML 1.2 reads 'no' as text: write false"),
])
def test_a_bare_string_that_is_no_value_says_what_to_write(tmp_path: Path, options: str, message: str) -> None:
    from rummydsl.variant import check_file

    path = tmp_path / "h.yaml"
    path.write_text(f"rummydsl: 1\nid: h\nname: H\nextends: ginski\noptions: {options}\n", encoding="utf-8")
    errors = [d for d in check_file(str(path)) if d.severity == "error"]
    assert [d.message for d in errors] == [message]
    assert (errors[0].location.line, errors[0].location.column) == (5, options.index(":") + 12)  # at the value
