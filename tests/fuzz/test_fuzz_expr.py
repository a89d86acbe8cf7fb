"""Fuzzing the expression front end (fuzz/targets.py ``expr``): parse, check, compile
and evaluate in every context; only ExpressionError escapes, and a value has the
type the checker gave it.

The inputs are expressions generated from the grammar (spec/expr.lark) over every
name and function the contexts know, the shipped variants' expressions edited at
random, and random strings of expression tokens.
"""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from mutations import fuzz_settings, mutated
from seeds import expressions
from targets import expr_target

from rummydsl.expr import Context, context_functions, context_names

NAMES = sorted({name for context in Context for name in context_names(context, True)}
               | {"gin_bonus", "layoff", "mode", "a", "b", "A", "K", "T", "S", "H", "R", "run", "set", "x", "o",
                  "red", "black", "knock_points"})
FUNCTIONS = sorted({name for context in Context for name in context_functions(context)})
OPERATORS = ["or", "and", "==", "!=", "<", "<=", ">", ">=", "+", "-", "*", "//", "%"]

atoms = st.one_of(st.integers(0, 2**70).map(str), st.sampled_from(["true", "false"]), st.sampled_from(NAMES))


def _compound(inner: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    return st.one_of(
        st.tuples(inner, st.sampled_from(OPERATORS), inner).map(" ".join),
        st.tuples(inner, inner, inner).map(lambda t: f"{t[0]} ? {t[1]} : {t[2]}"),
        inner.map(lambda e: f"not {e}"), inner.map(lambda e: f"-{e}"), inner.map(lambda e: f"({e})"),
        st.tuples(inner, st.sampled_from(["rank", "suit", "colour", "order", "pips", "wild", "size", "x"]))
        .map(lambda t: f"{t[0]}.{t[1]}"),
        st.tuples(st.sampled_from(FUNCTIONS), st.lists(inner, max_size=3))
        .map(lambda t: f"{t[0]}({', '.join(t[1])})"),
        st.tuples(st.sampled_from(FUNCTIONS), inner, st.sampled_from(["o", "p", "x", "q"]), inner)
        .map(lambda t: f"{t[0]}({t[1]} for {t[2]} in {t[3]})"),
        st.lists(inner, max_size=4).map(lambda items: f"[{', '.join(items)}]"),
        st.tuples(inner, st.sampled_from(["in", "not in"]), inner, inner)
        .map(lambda t: f"{t[0]} {t[1]} {t[2]}..{t[3]}"),
        st.tuples(inner, st.sampled_from(["in", "not in"]), inner).map(" ".join),
    )


grammar_expressions = st.recursive(atoms, _compound, max_leaves=12)
SHIPPED = [text.encode() for text in expressions()]


@fuzz_settings(150)
@given(grammar_expressions)
def test_expressions_from_the_grammar_give_only_expression_errors(text: str) -> None:
    expr_target(text.encode())


@fuzz_settings(100)
@given(mutated(SHIPPED, [b" ", b"(", b")", b"[", b"]", b",", b"..", b"?", b":", b"and ", b"not ", b"-",
                         b"//", b"0", b"99999999999999999999", b"ender", b"size", b"rank", b"p", b".", b"\n",
                         b"\x00", "é".encode(), b"for o in players"]))
def test_edited_shipped_expressions_give_only_expression_errors(data: bytes) -> None:
    expr_target(data)


@fuzz_settings(60)
@given(st.text(max_size=60))
def test_random_text_gives_only_expression_errors(text: str) -> None:
    expr_target(text.encode("utf-8", "surrogatepass"))
