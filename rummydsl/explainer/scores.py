"""The sections "Scoring" and "The game" of ``explain``: scoring formulas in words where they have a usual shape.

>>> from rummydsl.variant import load_variant
>>> game_end(load_variant("gin_rummy"))
'First to 100 points wins.'
"""

from __future__ import annotations

import re
from typing import Any

from ..expr import ast
from ..variant.model import Variant
from .say import Speaker
from .words import bullet, filled, folded, text_of, unparse

__all__ = ["scoring_section", "game_section", "game_end"]


def scoring_section(variant: Variant) -> list[str]:
    scoring = variant.scoring
    words = _Words(variant)
    out: list[str] = []
    for name, compiled in scoring.lets:
        if name in words.constants or name in words.lets:
            continue  # folded into the formulas that use it, or said in words where they use it
        phrase = words.lets.get(name) or words.speaker().say(words.tree(compiled))
        out += bullet(f"{name}: {phrase}.")
    for case in scoring.cases:
        parts = []
        if case.points is not None:
            parts.append(words.each("each player", case.points))
        if case.ender is not None:
            parts.append(f"{words.ender} scores {words.points(case.ender)}")
        if case.others is not None:
            parts.append(words.others(case.others))
        rule = f" [{case.rule}]" if case.rule else ""
        out += bullet(f"{words.when(case.when)}: {'; '.join(parts) or 'nobody scores'}.{rule}")
    if scoring.multiplier is not None and text_of(scoring.multiplier) != "1":
        said = words.multiplier(scoring.multiplier)
        if said is not None:
            out += bullet(said)
    out += bullet("The first case that holds scores the round; if none holds, nobody scores.")
    return out


class _Words:
    """Scoring formulas in words, where they are one of the usual shapes.

    Each method gives words for a shape it knows and the formula (with option
    values filled in) for any other.

    >>> from rummydsl.variant import load_variant
    >>> gin = _Words(load_variant("gin_rummy"))
    >>> gin.points(gin.variant.scoring.cases[1].ender)
    "25 plus the defender's deadwood"
    >>> gin.points(gin.variant.scoring.cases[3].ender)
    'the difference in deadwood'
    """

    def __init__(self, variant: Variant) -> None:
        self.variant = variant
        two = variant.players == 2
        ends_by_knock = variant.knock is not None and variant.step("meld") is None
        self.ender = "the knocker" if ends_by_knock else "the player who ended the round"
        self.opponents = "the defender's" if two else "the opponents'"
        self.constants: dict[str, Any] = {}
        self.lets: dict[str, str] = {}
        self.mine: str | None = None  # the let that is the ender's deadwood
        self.low: str | None = None  # the let that is the lowest opponent deadwood
        for name, compiled in variant.scoring.lets:
            tree = folded(compiled, variant, self.constants)
            if isinstance(tree, (ast.BoolLit, ast.IntLit)):
                self.constants[name] = tree.value
                continue
            text = unparse(tree)
            if text == "deadwood(ender)":
                self.mine = name
                self.lets[name] = f"{self.ender}'s deadwood"
            elif text == "min(deadwood(o) for o in opponents)":
                self.low = name
                self.lets[name] = ("the defender's deadwood" if two
                                   else "the lowest deadwood among the opponents")
            elif self.mine and self.low and text in (f"knock and {self.low} <= {self.mine}",
                                                     f"knock and {self.low} < {self.mine}"):
                than = "no more than" if "<=" in text else "less than"
                self.lets[name] = (f"a knock where {'the' if two else 'a'} defender's deadwood is {than} "
                                   f"{self.ender}'s (an undercut)")

    def formula(self, compiled: Any) -> str:
        return filled(compiled, self.variant, self.constants)

    def tree(self, compiled: Any) -> Any:
        return folded(compiled, self.variant, self.constants)

    def speaker(self, scored: bool = False) -> Speaker:
        """Words for the other formulas of the scoring (``p`` is "they" when ``scored``)."""
        lets = {name: phrase for name, phrase in self.lets.items()}
        return Speaker(self.variant, "score", ender=self.ender, lets=lets, scored=scored)

    def each(self, who: str, compiled: Any) -> str:
        """``who`` scores the formula, said with ``p`` as "they"; a choice with nothing
        otherwise puts its condition first."""
        tree = self.tree(compiled)
        speak = self.speaker(scored=True)
        if isinstance(tree, ast.Conditional) and isinstance(tree.otherwise, ast.IntLit) and tree.otherwise.value == 0:
            return f"{who} scores, if {speak.say(tree.test, clause=True)}, {speak.say(tree.then)} (otherwise nothing)"
        return f"{who} scores {speak.say(tree)}"

    def multiplier(self, compiled: Any) -> str | None:
        """The round's multiplier in words: "when the upcard is a spade, every score of the round counts double";
        None when, the options filled in, it is 1 (``spade_double: false``): nothing to say."""
        tree = self.tree(compiled)
        if isinstance(tree, ast.IntLit) and tree.value == 1:
            return None
        speak = self.speaker()
        if (isinstance(tree, ast.Conditional) and isinstance(tree.otherwise, ast.IntLit) and tree.otherwise.value == 1
                and isinstance(tree.then, ast.IntLit)):
            times = {2: "counts double", 3: "counts triple"}.get(tree.then.value,
                                                                 f"is multiplied by {tree.then.value}")
            test = speak.say(tree.test, clause=True)
            return f"When {test}, every score of the round {times}."
        return f"Every score of the round is multiplied by {speak.say(tree)}."

    def when(self, compiled: Any) -> str:
        text = self.formula(compiled)
        endings = {"big_gin": "Big gin", "gin": "Gin", "knock": "A knock", "out": "Going out",
                   "stock_end": "The stock runs down to its floor", "true": "Always"}
        if text in endings:
            return endings[text]
        if text in self.lets:
            phrase = self.lets[text]
            return phrase[0].upper() + phrase[1:]
        return f"When {self.speaker().say(self.tree(compiled), clause=True)}"

    def points(self, compiled: Any) -> str:
        text = self.formula(compiled)
        theirs = "sum(deadwood(o) for o in opponents)"
        if text == theirs:
            return f"{self.opponents} deadwood"
        match = re.fullmatch(r"(-?\d+) \+ " + re.escape(theirs), text)
        if match:
            return f"{match.group(1)} plus {self.opponents} deadwood"
        if self.mine and self.low:
            difference = ("the difference in deadwood" if self.variant.players == 2 else
                          f"by how much each opponent's deadwood is above {self.ender}'s, added up")
            if text == f"sum(max(deadwood(o) - {self.mine}, 0) for o in opponents)":
                return difference
            if text == f"{self.low} - {self.mine}" and self.variant.players == 2:
                return difference
        return self.speaker().say(self.tree(compiled))

    def others(self, compiled: Any) -> str:
        text = self.formula(compiled)
        if self.mine and self.low:
            head = f"deadwood(p) == {self.low} ? {self.mine} - {self.low}"
            if text == f"{head} : 0":
                return "the defender with the lowest deadwood scores the difference in deadwood"
            match = re.fullmatch(re.escape(head) + r" \+ (\d+) : 0", text)
            if match:
                return (f"the defender with the lowest deadwood scores the difference in deadwood "
                        f"plus {match.group(1)}")
        return self.each("each other player", compiled)


def game_section(variant: Variant) -> list[str]:
    game = variant.game
    best = "lowest" if game.winner == "lowest" else "highest"
    if game.deals is None:
        out = bullet(f"A game ends after the round in which a player's total reaches {game.target}; the "
                      f"{best} total wins, and an exact tie for {best} plays another round.")
    else:
        reached = "" if game.target is None else f", or earlier after the round in which a total reaches {game.target}"
        out = bullet(f"A game is exactly {game.deals} deals{reached}; the {best} total wins (after the last "
                      f"deal a tie for {best} goes to the tied player first in seat order, P1 first; before "
                      "it a tie plays another round). Each deal's number is the expressions' 'round'.")
    if game.game_bonus:
        out += bullet(f"The winner gets a game bonus of {game.game_bonus}.")
    if game.box_bonus:
        out += bullet(f"At the end each player gets {game.box_bonus} for every hand they won "
                       "(not counted toward the target).")
    shutout = {"double_total": "the winner's whole final figure is doubled",
               "double_hand_points": "the winner's hand points are doubled before bonuses",
               "flat_100": "the winner gets 100 more", "none": None}[game.shutout]
    if shutout and game.shutout_per == "each_loser":  # G3-3
        out += bullet(f"Shutout, for each loser who scored nothing in the game: {shutout} "
                       "(once more for each such loser).")
    elif shutout:
        out += bullet(f"Shutout: if the loser scored nothing, {shutout}.")
    if game.hollywood_games:
        out += bullet(f"Hollywood: {game.hollywood_games} games run on one score sheet; a round's points go "
                       "into every open game where the player has an entry, and into the first open game "
                       "where they have none.")
    if game.match_games_to_win:
        out += bullet(f"A match goes to the first player to win {game.match_games_to_win} games.")
    return out


def game_end(variant: Variant) -> str:
    """How a game ends and who wins, in one sentence (GR-10.1, CR-2, CR-6)."""
    game = variant.game
    best = "lowest" if game.winner == "lowest" else "highest"
    if game.deals is not None and game.target is None:
        return f"A game is {game.deals} deals; the {best} total wins."
    if game.deals is not None:
        return (f"A game ends after {game.deals} deals, or when a total reaches {game.target}; "
                f"the {best} total wins.")
    if game.winner == "lowest":
        return f"A game ends when a total reaches {game.target}; the lowest total wins."
    return f"First to {game.target} points wins."
