"""What a meld pattern says for certain, read from its checked syntax tree.

The meld solver enumerates candidate groups by shape (cards of one rank, or
sequences), and the semantic checks probe only the sizes a pattern can accept.
Both need *necessary* conditions of a pattern, which its top-level ``and``s give:
``size >= 3``, ``size in 3..4``, ``size <= set_max`` (an option, read at its
value), ``same(rank)``, ``same(suit)``, ``consecutive(rank)``. Anything else
(an ``or``, a ``not``, a conditional) says nothing here; the compiled predicate
always has the last word. The same ``and``s say which melds split into two smaller
melds (:func:`split_sizes`, the cost search's short candidate list) and whether being
a meld never depends on suits (:func:`suit_blind`); the variant's checks ask the
first too (a kind whose candidates explode).

>>> from rummydsl.cards import Deck
>>> from rummydsl.expr import BOOL, Context, Env, compile_expression
>>> env = Env(Context.MELD, Deck.preset("rumski70"), options={"set_max": 5})
>>> compile_expression("size >= 3 and size <= set_max and same(rank)", env, BOOL).facts
PatternFacts(min_size=3, max_size=5, same_rank=True, same_suit=False, consecutive=False)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

from rummydsl.expr import ast

__all__ = ["PatternFacts", "ContractFacts", "pattern_facts", "contract_facts", "bounds_of", "split_sizes",
           "suit_blind", "suit_symmetric"]


@dataclass(frozen=True)
class PatternFacts:
    """Necessary conditions of a meld pattern: every group it accepts has them."""

    min_size: int = 1
    """No accepted group has fewer cards."""
    max_size: int | None = None
    """No accepted group has more cards (``None``: no bound)."""
    same_rank: bool = False
    """The natural cards of an accepted group share one rank."""
    same_suit: bool = False
    """The natural cards of an accepted group share one suit."""
    consecutive: bool = False
    """The natural cards of an accepted group take distinct sequence positions in one run."""


@dataclass(frozen=True)
class ContractFacts:
    """Necessary conditions of a contract: how many melds it can take."""

    min_melds: int = 1
    """No collection of fewer melds meets it."""
    max_melds: int | None = None
    """No collection of more melds meets it (``None``: no bound)."""
    min_size: int = 1
    """Every meld of a collection that meets it has at least this many cards (from ``all(size ...)``)."""
    max_size: int | None = None
    """Every meld of a collection that meets it has at most this many cards (``None``: no bound)."""


def bounds_of(node: ast.Expr, bindings: Mapping[int, tuple[str, Any]], name: str) -> tuple[int, int | None]:
    """The least and greatest values the context name ``name`` (``size``, ``count``)
    can have where ``node`` holds, from its top-level ``and``s; ``(1, None)`` if none."""
    low, high = 1, None
    for part in _conjuncts(node):
        if isinstance(part, ast.Compare) and _is_name(part.left, bindings, name):
            bound = _number(part.right, bindings)
            if bound is None:
                continue
            if part.op in (">=", ">", "=="):
                low = max(low, bound + (part.op == ">"))
            if part.op in ("<=", "<", "=="):
                top = bound - (part.op == "<")
                high = top if high is None else min(high, top)
        elif (isinstance(part, ast.InOp) and part.op == "in" and _is_name(part.left, bindings, name)
              and isinstance(part.right, ast.Range)):
            first, last = _number(part.right.low, bindings), _number(part.right.high, bindings)
            if first is not None:
                low = max(low, first)
            if last is not None:
                high = last if high is None else min(high, last)
    return low, high


def pattern_facts(node: ast.Expr, bindings: Mapping[int, tuple[str, Any]]) -> PatternFacts:
    """The facts of a checked meld pattern; ``bindings`` resolve option names
    (the checker's ``Checked.bindings``)."""
    same_rank = same_suit = consecutive = False
    for part in _conjuncts(node):
        if isinstance(part, ast.Call) and len(part.args) == 1 and isinstance(part.args[0], ast.Name):
            attribute = part.args[0].id
            same_rank |= part.func == "same" and attribute == "rank"
            same_suit |= part.func == "same" and attribute == "suit"
            consecutive |= part.func == "consecutive"
    low, high = bounds_of(node, bindings, "size")
    return PatternFacts(low, high, same_rank, same_suit, consecutive)


def contract_facts(node: ast.Expr, bindings: Mapping[int, tuple[str, Any]]) -> ContractFacts:
    """The facts of a checked contract (``count == 3 and all(size == 3)``: 3 melds of 3 cards).

    A contract by deal (CR-2), ``c ? a : b``, has what both branches have: the fewer
    melds and smaller melds of the two, and a bound only where both have one.
    """
    if isinstance(node, ast.Conditional):
        one = contract_facts(node.then, bindings)
        two = contract_facts(node.otherwise, bindings)
        return ContractFacts(min(one.min_melds, two.min_melds), _loose(one.max_melds, two.max_melds),
                             min(one.min_size, two.min_size), _loose(one.max_size, two.max_size))
    low, high = bounds_of(node, bindings, "count")
    size_low, size_high = 1, None
    for part in _conjuncts(node):
        if isinstance(part, ast.Call) and part.func == "all" and len(part.args) == 1:
            lo, hi = bounds_of(part.args[0], bindings, "size")
            size_low = max(size_low, lo)
            if hi is not None:
                size_high = hi if size_high is None else min(size_high, hi)
    return ContractFacts(low, high, size_low, size_high)


def _loose(one: int | None, two: int | None) -> int | None:
    """The larger of two upper bounds (``None``, no bound, if either has none)."""
    return None if one is None or two is None else max(one, two)


def _conjuncts(node: ast.Expr) -> list[ast.Expr]:
    found: list[ast.Expr] = []
    stack = [node]
    while stack:
        part = stack.pop()
        if isinstance(part, ast.BoolOp) and part.op == "and":
            stack += [part.right, part.left]
        else:
            found.append(part)
    return found


def _is_name(part: ast.Expr, bindings: Mapping[int, tuple[str, Any]], name: str) -> bool:
    return isinstance(part, ast.Name) and bindings.get(id(part), ("", None)) == ("context", name)


def _number(part: ast.Expr, bindings: Mapping[int, tuple[str, Any]]) -> int | None:
    """An integer literal, or an option's integer value."""
    if isinstance(part, ast.IntLit):
        return part.value
    if isinstance(part, ast.Name):
        kind, value = bindings.get(id(part), ("", None))
        if kind == "option" and isinstance(value, int) and not isinstance(value, bool):
            return value
    return None


# -- which melds split into smaller melds (the cost search's short candidate list) ----

#: Conjuncts that every sub-group of a meld keeps, given its size is still in bounds:
#: ``same(rank)``, ``same(suit)``, ``distinct(suit)``, ``distinct(rank)`` and
#: ``consecutive(rank)`` (a window of a sequence is a sequence).
_HEREDITARY_CALLS = {("same", "rank"), ("same", "suit"), ("distinct", "suit"), ("distinct", "rank"),
                     ("consecutive", "rank")}


def _conjunct_kinds(node: Any) -> tuple[frozenset[tuple[str, str]], bool] | None:
    """The hereditary calls of a pattern's top-level ``and``s, and whether one more
    conjunct is ``not same(suit)``; ``None`` when any other conjunct is there (an
    ``or``, a conditional, ``naturals``, ``size % 2``...). A bound on ``size`` (a
    number or an option, read by the pattern's facts) is allowed."""
    calls: set[tuple[str, str]] = set()
    not_same_suit = False
    stack = [node]
    while stack:
        part = stack.pop()
        if isinstance(part, ast.BoolOp) and part.op == "and":
            stack += [part.left, part.right]
        elif isinstance(part, ast.Call) and len(part.args) == 1 and isinstance(part.args[0], ast.Name) \
                and (part.func, part.args[0].id) in _HEREDITARY_CALLS:
            calls.add((part.func, part.args[0].id))
        elif (isinstance(part, ast.Not) and isinstance(part.operand, ast.Call) and part.operand.func == "same"
              and len(part.operand.args) == 1 and isinstance(part.operand.args[0], ast.Name)
              and part.operand.args[0].id == "suit"):
            not_same_suit = True
        elif isinstance(part, ast.Compare) and _is_size(part.left) and (
                (part.op in (">=", ">", "==") and isinstance(part.right, ast.IntLit))
                or (part.op in ("<=", "<") and isinstance(part.right, (ast.IntLit, ast.Name)))):
            continue  # a least size only as a number (the facts read it for sure); a greatest may be an option
        elif isinstance(part, ast.InOp) and part.op == "in" and _is_size(part.left) \
                and isinstance(part.right, ast.Range) and isinstance(part.right.low, ast.IntLit) \
                and isinstance(part.right.high, (ast.IntLit, ast.Name)):
            continue
        else:
            return None
    return frozenset(calls), not_same_suit


def _is_size(node: Any) -> bool:
    return isinstance(node, ast.Name) and node.id == "size"


def split_sizes(kinds: Mapping[str, object]) -> dict[str, int | None]:
    """For each kind, the size from which every *wild-free* meld of it splits into two
    smaller wild-free melds (of it or another kind), or ``None`` when that is not known.

    A kind qualifies when its pattern is only conjuncts that every window or subset of
    a meld keeps (``same``/``distinct`` of rank or suit, ``consecutive(rank)``) and
    bounds on ``size`` read by its facts: a meld of ``2 * min_size`` cards or more splits
    into a first piece of ``min_size`` cards (the lowest sequence positions, or any
    cards of a set) and the rest, both of the kind. A kind with one more conjunct
    ``not same(suit)`` (Skarney's poker, SK-3.3) qualifies when another qualifying kind
    has the same conjuncts plus ``same(suit)`` (the run), at most its least size and
    no smaller greatest size: each piece is then of one kind or the other. Splitting
    keeps the cost (a meld's cards cost the same in one meld or two), so the cost
    search may leave out the melds that split; the canonical arrangement is still
    read with them (:mod:`rummydsl.melds.search`).

    >>> from rummydsl.cards import Deck
    >>> from rummydsl.expr import BOOL, Context, Env, compile_expression
    >>> env = Env(Context.MELD, Deck.preset("standard52"))
    >>> pats = {"set": "size in 3..4 and same(rank)", "run": "size >= 3 and same(suit) and consecutive(rank)",
    ...         "poker": "size >= 3 and consecutive(rank) and not same(suit)", "odd": "size >= 3 and size % 2 == 1"}
    >>> split_sizes({k: compile_expression(t, env, BOOL) for k, t in pats.items()})
    {'set': 6, 'run': 6, 'poker': 6, 'odd': None}
    """
    read: dict[str, tuple[frozenset[tuple[str, str]], bool, int, int | None]] = {}
    for name, predicate in kinds.items():
        facts = getattr(predicate, "facts", None)
        node = getattr(predicate, "ast", None)
        if not isinstance(facts, PatternFacts) or node is None:
            continue
        got = _conjunct_kinds(node)
        if got is not None:
            read[name] = (got[0], got[1], max(facts.min_size, 1), facts.max_size)
    out: dict[str, int | None] = {}
    for name in kinds:
        if name not in read:
            out[name] = None
            continue
        calls, not_same_suit, low, high = read[name]
        if not not_same_suit:
            out[name] = 2 * low
            continue
        partners = [other_low for other, (other_calls, other_not, other_low, other_high) in read.items()
                    if other != name and not other_not and other_calls == calls | {("same", "suit")}
                    and other_low <= low and (other_high is None or (high is not None and other_high >= high))]
        out[name] = 2 * low if partners else None
    return out


def suit_blind(kinds: Mapping[str, object]) -> bool:
    """Whether being a meld never depends on suits: every kind's pattern is conjuncts
    :func:`split_sizes` reads with no suit in them, except pairs that say the same
    with ``same(suit)`` and with ``not same(suit)`` and the same size bounds (Skarney's
    run and poker, SK-3.2 and SK-3.3: together, any sequence). Then two cards of one
    rank and one value are interchangeable for the cost of an arrangement.

    >>> from rummydsl.cards import Deck
    >>> from rummydsl.expr import BOOL, Context, Env, compile_expression
    >>> env = Env(Context.MELD, Deck.preset("standard52"))
    >>> skarney = {"set": "size in 3..4 and same(rank)", "run": "size >= 3 and same(suit) and consecutive(rank)",
    ...            "poker": "size >= 3 and consecutive(rank) and not same(suit)"}
    >>> suit_blind({k: compile_expression(t, env, BOOL) for k, t in skarney.items()})
    True
    >>> del skarney["poker"]
    >>> suit_blind({k: compile_expression(t, env, BOOL) for k, t in skarney.items()})
    False
    """
    read: dict[str, tuple[frozenset[tuple[str, str]], bool, int, int | None]] = {}
    for name, predicate in kinds.items():
        facts = getattr(predicate, "facts", None)
        node = getattr(predicate, "ast", None)
        if not isinstance(facts, PatternFacts) or node is None:
            return False
        got = _conjunct_kinds(node)
        if got is None:
            return False
        read[name] = (got[0], got[1], facts.min_size, facts.max_size)
    same_suit = ("same", "suit")
    for name, (calls, not_same, low, high) in read.items():
        suits = {call for call in calls if call[1] == "suit"}
        if not suits and not not_same:
            continue
        if not_same and not suits:
            pair = calls | {same_suit}
            wanted_not = False
        elif suits == {same_suit} and not not_same:
            pair = calls - {same_suit}
            wanted_not = True
        else:
            return False
        if not any(other_calls == pair and other_not == wanted_not and (other_low, other_high) == (low, high)
                   for other_calls, other_not, other_low, other_high in read.values()):
            return False
    return True


#: What a pattern that ignores which suit is which may call: the selector each takes.
_SYMMETRIC_CALLS = {"same": ("rank", "suit"), "distinct": ("rank", "suit"), "count_distinct": ("rank", "suit"),
                    "consecutive": ("rank",)}
_MELD_CONTEXT_NAMES = ("size", "naturals", "wilds")


def suit_symmetric(kinds: Mapping[str, object]) -> bool:
    """Whether being a meld never depends on *which* suit a card has, only on which cards
    share one: every kind is a compiled meld pattern whose syntax tree reads suits only
    as ``same(suit)``, ``distinct(suit)`` or ``count_distinct(suit)``, with no colour, no
    symbol (a named suit or rank) and nothing else outside numbers, the meld's counts
    (``size``, ``naturals``, ``wilds``), its options and operators. Then renaming the
    suits (one suit for another, the same renaming for every card) turns a meld into a
    meld and a non-meld into a non-meld: a hand's least deadwood is the renamed hand's
    when the card values and sequence positions do not depend on the suit either (the
    solver checks that on the deck).

    >>> from rummydsl.cards import Deck
    >>> from rummydsl.expr import BOOL, Context, Env, compile_expression
    >>> env = Env(Context.MELD, Deck.preset("rumski70"), options={"set_max": 5})
    >>> ginski = {"run": "size >= 3 and naturals >= 1 and same(suit) and consecutive(rank)",
    ...           "set": "size >= 3 and size <= set_max and same(rank) and distinct(suit)"}
    >>> suit_symmetric({k: compile_expression(t, env, BOOL) for k, t in ginski.items()})
    True
    >>> suit_symmetric({"run": compile_expression("same(colour) and consecutive(rank)", env, BOOL)})
    False
    >>> suit_symmetric({"any": len})
    False
    """
    for predicate in kinds.values():
        node = getattr(predicate, "ast", None)
        options = getattr(predicate, "options", None)
        if node is None or not isinstance(options, frozenset) or not isinstance(
                getattr(predicate, "facts", None), PatternFacts):
            return False
        stack = [node]
        while stack:
            part = stack.pop()
            if isinstance(part, ast.Call) and part.func not in ("min", "max", "abs"):
                selectors = _SYMMETRIC_CALLS.get(part.func)
                if (selectors is None or len(part.args) != 1 or not isinstance(part.args[0], ast.Name)
                        or part.args[0].id not in selectors):
                    return False
                continue  # the selector is read, not a value
            if isinstance(part, ast.Name):
                if part.id not in _MELD_CONTEXT_NAMES and part.id not in options:
                    return False
            elif not isinstance(part, (ast.IntLit, ast.BoolLit, ast.Neg, ast.Not, ast.BinOp, ast.BoolOp,
                                       ast.Compare, ast.InOp, ast.Range, ast.Conditional, ast.Call)):
                return False
            stack.extend(ast.children(part))
    return True
