"""Running conformance cases against the engine, and saying exactly where one diverges.

:func:`run_case` runs one :class:`~rummydsl.conformance.suite.Case` and returns a
:class:`CaseResult`: ``passed``, ``failed`` (each difference with the place in
the suite file: the action that was refused, the expectation that differs,
expected vs got) or ``skipped``. A case that cannot run (its variant does not
load, a card is not of the deck) fails with that reason; nothing escapes as a
traceback. The same report serves ``rummydsl test`` and the pytest plugin.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Iterable, Sequence

from ..cards import Card, Deck
from ..errors import ActionError, CardError, Location, RummyDslError, VariantError
from ..safetext import safe_text
from .suite import Case

__all__ = ["CaseResult", "Difference", "run_case", "run_cases"]


@dataclass(frozen=True)
class Difference:
    """One way a case's outcome differs from what it expects."""

    location: Location
    what: str
    expected: Any = None
    got: Any = None

    def __str__(self) -> str:
        text = f"{self.location}: {self.what}"
        if self.expected is not None or self.got is not None:
            text += f"\n    expected: {_show(self.expected)}\n    got:      {_show(self.got)}"
        return text


def _show(value: Any) -> str:
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(str(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {_show(v)}" for k, v in value.items()) + "}"
    return str(value) if not isinstance(value, str) else value


@dataclass(frozen=True)
class CaseResult:
    """The outcome of one case."""

    case: Case
    status: str
    """``passed``, ``failed`` or ``skipped``."""
    differences: tuple[Difference, ...] = ()
    reason: str = ""
    """Why it was skipped."""

    @property
    def passed(self) -> bool:
        return self.status == "passed"

    def report(self) -> str:
        """The failure report: the case, its rule, and every difference (text from the
        suite, a description say, with its control characters escaped: :mod:`rummydsl.safetext`)."""
        return safe_text(self._report())

    def _report(self) -> str:
        case = self.case
        head = f"{case.suite}:{case.location.line}: {case.id}"
        if case.rules:
            head += f" ({', '.join(case.rules)})"
        if self.status == "skipped":
            return f"{head}: skipped: {self.reason}"
        if self.status == "passed":
            return f"{head}: passed"
        lines = [f"{head}: FAILED"]
        if case.description:
            lines.append(f"  {case.description}")
        lines.extend("  " + str(d).replace("\n", "\n  ") for d in self.differences)
        return "\n".join(lines)

    def as_json(self) -> dict[str, Any]:
        return {
            "id": self.case.id,
            "suite": self.case.suite,
            "line": self.case.location.line,
            "rule": list(self.case.rules),
            "status": self.status,
            "differences": [
                {"path": d.location.path, "line": d.location.line, "column": d.location.column,
                 "message": d.what, "expected": _jsonable(d.expected), "got": _jsonable(d.got)}
                for d in self.differences],
            "reason": self.reason or None,
        }


def _jsonable(value: Any) -> Any:
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, set, frozenset)):
        return [_jsonable(v) for v in value]
    return str(value)


class _Fail(Exception):
    def __init__(self, difference: Difference) -> None:
        self.difference = difference


_VARIANTS: dict[str, Any] = {}


def _variant(name: str) -> Any:
    from ..variant import load_variant

    if name not in _VARIANTS:
        _VARIANTS[name] = load_variant(name)
    return _VARIANTS[name]


def run_cases(cases: Iterable[Case]) -> list[CaseResult]:
    """Run every case, in order."""
    return [run_case(case) for case in cases]


def run_case(case: Case) -> CaseResult:
    """Run one case and compare its outcome with its expectations."""
    if case.skip:
        return CaseResult(case, "skipped", reason=case.skip)
    try:
        variant = _variant(case.variant)
    except VariantError as problem:
        first = problem.errors[0] if problem.errors else problem.diagnostics[0]
        return CaseResult(case, "failed", (Difference(case.location, f"its variant does not load: {first}"),))
    try:
        if case.kind == "meld":
            differences = _run_meld(case, variant)
        elif case.kind == "hand":
            differences = _run_hand(case, variant)
        else:
            differences = _run_script(case, variant)
    except _Fail as fail:
        differences = [fail.difference]
    except CardError as problem:
        differences = [Difference(case.location, f"bad card in the case: {problem}")]
    except RummyDslError as problem:
        differences = [Difference(case.location, f"the case cannot run: {problem}")]
    return CaseResult(case, "failed" if differences else "passed", tuple(differences))


# ----------------------------------------------------------------------------- cards


def _cards(deck: Deck, value: Any) -> tuple[Card, ...]:
    if isinstance(value, str):
        return deck.parse_cards(value)
    return deck.parse_cards([str(v) for v in value])


def _faces(deck: Deck, cards: Iterable[Card]) -> Counter[str]:
    return Counter(str(c) for c in cards)


def _seat(name: str) -> int:
    return int(name[1:]) - 1


def _where(case: Case, key: str) -> Location:
    return case.expect_locations.get(key, case.location)


# ----------------------------------------------------------------------------- meld and hand


def _run_meld(case: Case, variant: Any) -> list[Difference]:
    from ..engine.round import meld_rules

    rules = meld_rules(variant)
    deck = variant.deck
    group = _cards(deck, case.data["meld"])
    hand = _cards(deck, case.data["hand"]) if "hand" in case.data else None
    kinds = set(rules.kinds_of(group, hand=hand))
    expect = case.data["expect"]
    out = []
    if "valid" in expect and bool(kinds) != expect["valid"]:
        out.append(Difference(_where(case, "valid"), "whether the group is a meld", expect["valid"], bool(kinds)))
    if "kinds" in expect and kinds != set(expect["kinds"]):
        out.append(Difference(_where(case, "kinds"), "the kinds the group forms",
                              sorted(expect["kinds"]), sorted(kinds)))
    return out


def _run_hand(case: Case, variant: Any) -> list[Difference]:
    from ..engine.round import meld_rules
    from ..expr.runtime import RoundFacts

    # the deal the hand is judged in: a contract by deal reads it (CR-2)
    facts = RoundFacts(players=tuple(range(variant.players)), dealer=0, round=int(case.data.get("round", 1)))
    rules = meld_rules(variant, facts)
    hand = _cards(variant.deck, case.data["hand"])
    expect = case.data["expect"]
    out = []
    best = rules.solve(hand)
    if "deadwood" in expect and best.deadwood != expect["deadwood"]:
        out.append(Difference(_where(case, "deadwood"), "the least deadwood", expect["deadwood"], best.deadwood))
    if "contract" in expect and best.contract != expect["contract"]:
        out.append(Difference(_where(case, "contract"), "whether the hand holds the contract",
                              expect["contract"], best.contract))
    if "best_discard" in expect or "deadwood_after_discard" in expect:
        card, after = rules.best_discard(hand)
        if "best_discard" in expect:
            wanted = variant.deck.parse_card(str(expect["best_discard"]))
            if variant.deck.face_key(wanted) != variant.deck.face_key(card):
                out.append(Difference(_where(case, "best_discard"), "the best discard", wanted, card))
        if "deadwood_after_discard" in expect and after != expect["deadwood_after_discard"]:
            out.append(Difference(_where(case, "deadwood_after_discard"), "the least deadwood after the discard",
                                  expect["deadwood_after_discard"], after))
    return out


# ----------------------------------------------------------------------------- scripted rounds


def _setup(case: Case, variant: Any) -> Any:
    from ..engine import Game, Round

    setup = case.data["setup"]
    deck = variant.deck
    seats = sorted(setup["hands"], key=lambda name: int(name[1:]))
    low, high = variant.players_range
    if not low <= len(seats) <= high:  # the setup's count, any the variant allows (as --players N)
        where = case.location
        allowed = f"{low}" if low == high else f"{low} to {high}"
        raise _Fail(Difference(where, f"the setup seats {len(seats)} players, but "
                                      f"{variant.id} plays {allowed} (players: {{min, max}})"))
    texts = [_text(setup["hands"][seat]) for seat in seats]
    stock_text = _text(setup["stock"])
    upcard_text = "" if setup.get("upcard") is None else str(setup["upcard"])
    # parse all at once, so repeated faces take the next copy of a several-pack deck
    cards = deck.parse_cards(" ".join([*texts, stock_text, upcard_text]).split())
    hands = []
    at = 0
    for text in texts:
        count = len(text.split())
        hands.append(cards[at:at + count])
        at += count
    stock = cards[at:at + len(stock_text.split())]
    at += len(stock_text.split())
    upcard = cards[at] if upcard_text else None
    scores = [int(setup.get("scores", {}).get(seat, 0)) for seat in seats]
    wins = [int(setup.get("wins", {}).get(seat, 0)) for seat in seats]
    sits_out = setup.get("sits_out")
    rnd = Round.from_setup(variant, dealer=_seat(setup["dealer"]), hands=hands, stock=stock, upcard=upcard,
                           scores=scores, number=int(setup.get("round", 1)),
                           sat_out=None if sits_out is None else _seat(sits_out))
    return Game.resume(variant, rnd, scores=scores, wins=wins)


def _text(value: Any) -> str:
    return value if isinstance(value, str) else " ".join(str(v) for v in value)


def _run_script(case: Case, variant: Any) -> list[Difference]:
    game = _setup(case, variant)
    rnd = game.round
    actions = case.data.get("actions", [])
    if isinstance(actions, str):
        actions = [actions]
    for number, text in enumerate(actions):
        where = case.action_locations[number] if number < len(case.action_locations) else case.location
        try:
            rnd.apply(text)
        except ActionError as problem:
            raise _Fail(Difference(where, f"action {number + 1} {text!r} was refused: {problem.reason}")) from None
    expect = case.data["expect"]
    out: list[Difference] = []
    if "illegal" in expect:
        out.extend(_illegal(case, rnd, expect["illegal"]))
    for key in ("legal_includes", "legal_excludes"):
        if key in expect:
            legal = rnd.legal_actions()
            for text in expect[key]:
                try:
                    action = rnd.parse(text)
                except ActionError as problem:
                    out.append(Difference(_where(case, key), f"{text!r} is not an action: {problem.reason}"))
                    continue
                inside = action in legal
                if inside != (key == "legal_includes"):
                    reason = rnd.why_illegal(action)
                    what = (f"{text!r} should be legal, but: {reason}" if key == "legal_includes"
                            else f"{text!r} should be illegal, but it is legal")
                    out.append(Difference(_where(case, key), what))
    out.extend(_state(case, variant, game, expect))
    return out


def _illegal(case: Case, rnd: Any, texts: str | Sequence[str]) -> Iterable[Difference]:
    where = _where(case, "illegal")
    for text in [texts] if isinstance(texts, str) else texts:
        try:
            action = rnd.parse(text)
        except ActionError as problem:
            yield Difference(where, f"{text!r} is not an action: {problem.reason}")
            continue
        before = rnd.to_json()
        try:
            rnd.apply(action)
        except ActionError:
            if rnd.to_json() != before:
                yield Difference(where, f"{text!r} was refused but the state changed")
            continue
        yield Difference(where, f"{text!r} should be refused, but it was played")
        return  # the state has moved on: later checks would mislead


def _player_name(seat: int | None) -> str | None:
    return None if seat is None else f"P{seat + 1}"


def _state(case: Case, variant: Any, game: Any, expect: dict[str, Any]) -> Iterable[Difference]:
    rnd = game.round
    deck = variant.deck
    result = rnd.result

    def check(key: str, what: str, got: Any) -> Iterable[Difference]:
        if key in expect and expect[key] != got:
            yield Difference(_where(case, key), what, expect[key], got)

    yield from check("to_move", "the player to move", _player_name(rnd.to_move))
    yield from check("phase", "the phase", rnd.phase.value)
    yield from check("round_over", "whether the round is over", result is not None)
    if "discard_top" in expect:
        top = rnd.discards[-1] if rnd.discards else None
        wanted = None if expect["discard_top"] is None else str(deck.parse_card(str(expect["discard_top"])))
        got = None if top is None else str(top)
        if wanted != got:
            yield Difference(_where(case, "discard_top"), "the top of the discard pile", wanted, got)
    yield from check("stock_size", "the stock's size", len(rnd.stock))
    if "hands" in expect:
        for seat, cards in expect["hands"].items():
            if _seat(seat) >= rnd.players:
                yield _no_seat(case, "hands", seat, rnd.players)
                continue
            wanted_hand = _faces(deck, _cards(deck, cards))
            got_hand = _faces(deck, rnd.hands[_seat(seat)])
            if wanted_hand != got_hand:
                yield Difference(_where(case, "hands"), f"{seat}'s hand (as a set)",
                                 sorted(wanted_hand.elements()), sorted(got_hand.elements()))
    if "table" in expect:
        for seat, melds in expect["table"].items():
            if _seat(seat) >= rnd.players:
                yield _no_seat(case, "table", seat, rnd.players)
                continue
            wanted_melds = [sorted(_faces(deck, _cards(deck, m)).elements()) for m in melds]
            got_melds = [sorted(_faces(deck, m.cards).elements()) for m in rnd.table[_seat(seat)]]
            if wanted_melds != got_melds:
                yield Difference(_where(case, "table"), f"{seat}'s table melds (in order, each as a set)",
                                 [" ".join(m) for m in wanted_melds], [" ".join(m) for m in got_melds])
    needs_result = ("ending", "ender", "undercut", "deadwoods", "round_score", "scores", "game_over",
                    "winner", "figures", "next_dealer", "next_sits_out")
    if result is None:
        for key in needs_result:
            if key in expect and key != "scores":
                yield Difference(_where(case, key), f"{key!r} is expected, but the round is not over "
                                                    f"({_player_name(rnd.to_move)} to move, {rnd.phase.value})")
        return
    yield from check("ending", "how the round ended", result.ending)
    yield from check("ender", "who ended the round", _player_name(result.ender))
    yield from check("undercut", "whether the knock was undercut", result.undercut)
    if "deadwoods" in expect:
        yield from _by_player(case, "deadwoods", "deadwood at the end", expect["deadwoods"], result.deadwoods)
    if "round_score" in expect:
        yield from _by_player(case, "round_score", "points this round", expect["round_score"], result.points)
    if "scores" in expect:
        totals = tuple(before + won for before, won in zip(rnd.scores, result.points))
        yield from _by_player(case, "scores", "game total after the round", expect["scores"], totals)
    if any(key in expect for key in ("game_over", "winner", "figures", "next_dealer", "next_sits_out")):
        game.next_round()
        yield from check("game_over", "whether the game is over", game.over)
        if "winner" in expect:
            got = _player_name(game.result.winner) if game.result is not None else None
            if expect["winner"] != got:
                yield Difference(_where(case, "winner"), "the winner of the game", expect["winner"], got)
        if "figures" in expect:
            if game.result is None:
                yield Difference(_where(case, "figures"), "'figures' is expected, but the game is not over")
            else:
                yield from _by_player(case, "figures", "final figure", expect["figures"], game.result.figures)
        if "next_dealer" in expect:
            got_dealer = None if game.over else _player_name(game.dealer)
            yield from check("next_dealer", "the next dealer", got_dealer)
        if "next_sits_out" in expect:
            got_sitter = None if game.over else _player_name(game.sat_out)
            yield from check("next_sits_out", "who sits out the next round", got_sitter)


def _no_seat(case: Case, key: str, seat: str, players: int) -> Difference:
    """An expectation about a seat the round does not have."""
    return Difference(_where(case, key), f"{key}: {seat} is not a seat of this round (P1 to P{players})")


def _by_player(case: Case, key: str, what: str, expected: dict[str, int], got: Sequence[int]) -> Iterable[Difference]:
    for seat, value in expected.items():
        index = _seat(seat)
        actual = got[index] if index < len(got) else None
        if actual != value:
            yield Difference(_where(case, key), f"{seat}'s {what}", value, actual)
