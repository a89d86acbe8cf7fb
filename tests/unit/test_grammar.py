"""The expression grammar (spec/expr.lark) and parser: syntax, precedence, errors, limits."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rummydsl.errors import ExpressionError
from rummydsl.expr import ast
from rummydsl.expr.parser import ERROR_EXAMPLES, MAX_DEPTH, MAX_LENGTH, get_parser, parse


def show(node: ast.Expr) -> str:
    """The AST written back with every operation in brackets."""
    if isinstance(node, ast.IntLit):
        return str(node.value)
    if isinstance(node, ast.BoolLit):
        return "true" if node.value else "false"
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return f"{show(node.obj)}.{node.name}"
    if isinstance(node, ast.Call):
        return f"{node.func}({', '.join(show(a) for a in node.args)})"
    if isinstance(node, ast.Aggregate):
        return f"{node.func}({show(node.element)} for {node.var} in {show(node.iterable)})"
    if isinstance(node, ast.ListExpr):
        return f"[{', '.join(show(i) for i in node.items)}]"
    if isinstance(node, ast.Neg):
        return f"(-{show(node.operand)})"
    if isinstance(node, ast.Not):
        return f"(not {show(node.operand)})"
    if isinstance(node, ast.Range):
        return f"{show(node.low)}..{show(node.high)}"
    if isinstance(node, ast.Conditional):
        return f"({show(node.test)} ? {show(node.then)} : {show(node.otherwise)})"
    assert isinstance(node, (ast.BinOp, ast.BoolOp, ast.Compare, ast.InOp))
    return f"({show(node.left)} {node.op} {show(node.right)})"


# -- every form, precedence and associativity --------------------------------------

FORMS = [
    ("42", "42"),
    ("true", "true"),
    ("false", "false"),
    ("order", "order"),
    ("A", "A"),
    ("10", "10"),
    ("upcard.rank", "upcard.rank"),
    ("min(order, 10)", "min(order, 10)"),
    ("f()", "f()"),
    ("sum(deadwood(o) for o in opponents)", "sum(deadwood(o) for o in opponents)"),
    ("[J, Q, K]", "[J, Q, K]"),
    ("[]", "[]"),
    ("-order", "(-order)"),
    ("not wild", "(not wild)"),
    ("a ? b : c", "(a ? b : c)"),
    ("size in 3..4", "(size in 3..4)"),
    ("rank not in [J, Q, K]", "(rank not in [J, Q, K])"),
    ("rank in A..5", "(rank in A..5)"),
    ("a == b", "(a == b)"),
    ("a != b", "(a != b)"),
    ("a < b", "(a < b)"),
    ("a <= b", "(a <= b)"),
    ("a > b", "(a > b)"),
    ("a >= b", "(a >= b)"),
    ("a // b", "(a // b)"),
    ("a % b", "(a % b)"),
    ("(a)", "a"),
    ("  order\n  + 1 ", "(order + 1)"),
]

PRECEDENCE = [
    # ?: is lowest and right-associative
    ("a ? b : c ? d : e", "(a ? b : (c ? d : e))"),
    ("a ? b ? c : d : e", "(a ? (b ? c : d) : e)"),
    ("a or b ? c : d", "((a or b) ? c : d)"),
    # or < and < not < comparison
    ("a or b and c", "(a or (b and c))"),
    ("a and b or c", "((a and b) or c)"),
    ("not a and b", "((not a) and b)"),
    ("not a == b", "(not (a == b))"),
    ("not not a", "(not (not a))"),
    ("a and b and c", "((a and b) and c)"),
    ("a or b or c", "((a or b) or c)"),
    # comparison < + -
    ("a + 1 == b * 2", "((a + 1) == (b * 2))"),
    ("x in 1..2 + 3", "(x in 1..(2 + 3))"),
    ("x + 1 in [a, b]", "((x + 1) in [a, b])"),
    # + - left-associative, below * // %
    ("1 - 2 - 3", "((1 - 2) - 3)"),
    ("1 + 2 * 3", "(1 + (2 * 3))"),
    ("a // b % c * d", "(((a // b) % c) * d)"),
    ("(1 + 2) * 3", "((1 + 2) * 3)"),
    # unary minus binds tighter than *, looser than attribute access
    ("-a * b", "((-a) * b)"),
    ("--a", "(-(-a))"),
    ("-upcard.order", "(-upcard.order)"),
    ("a - -b", "(a - (-b))"),
    # calls and attributes
    ("value(upcard) - k", "(value(upcard) - k)"),
    ("min(deadwood(o) - k, 0)", "min((deadwood(o) - k), 0)"),
    ("max(deadwood(o) for o in others(p)) + 1", "(max(deadwood(o) for o in others(p)) + 1)"),
    ("sum(max(deadwood(o) - k, 0) for o in opponents)", "sum(max((deadwood(o) - k), 0) for o in opponents)"),
    ("count(x > 1 for x in xs)", "count((x > 1) for x in xs)"),
    ("deadwood(p) == low ? k - low + undercut_bonus : 0",
     "((deadwood(p) == low) ? ((k - low) + undercut_bonus) : 0)"),
    ("rank == A ? 15 : rank in [J, Q, K] ? 10 : pips",
     "((rank == A) ? 15 : ((rank in [J, Q, K]) ? 10 : pips))"),
    ("size >= 3 and same(suit) and consecutive(rank)",
     "(((size >= 3) and same(suit)) and consecutive(rank))"),
    ("knock and (low < k or low == k and undercut_on_tie)",
     "(knock and ((low < k) or ((low == k) and undercut_on_tie)))"),
]


@pytest.mark.parametrize("text, expected", FORMS, ids=[t for t, _ in FORMS])
def test_forms(text: str, expected: str) -> None:
    assert show(parse(text)) == expected


@pytest.mark.parametrize("text, expected", PRECEDENCE, ids=[t for t, _ in PRECEDENCE])
def test_precedence(text: str, expected: str) -> None:
    assert show(parse(text)) == expected


def test_node_kinds_and_fields() -> None:
    node = parse("sum(deadwood(o) for o in opponents)")
    assert isinstance(node, ast.Aggregate)
    assert (node.func, node.var, node.var_line, node.var_column) == ("sum", "o", 1, 21)
    assert isinstance(node.element, ast.Call) and node.element.args == (ast.Name("o", line=1, column=14),)
    in_op = parse("x not in 1..3")
    assert isinstance(in_op, ast.InOp) and in_op.negated and isinstance(in_op.right, ast.Range)
    assert parse("10") == ast.IntLit(10, line=1, column=1)
    assert parse("true") == ast.BoolLit(True, line=1, column=1)
    assert [type(n).__name__ for n in ast.walk(parse("a ? -b : [c]"))] == [
        "Conditional", "Name", "Neg", "Name", "ListExpr", "Name"]


def test_positions_are_one_based_inside_the_text() -> None:
    node = parse("min(order,\n    10) +\n  pips")
    assert isinstance(node, ast.BinOp)
    assert (node.line, node.column) == (1, 1)
    assert (node.right.line, node.right.column) == (3, 3)
    call = node.left
    assert isinstance(call, ast.Call)
    assert (call.args[1].line, call.args[1].column) == (2, 5)


def test_keywords_are_not_names_but_may_start_names() -> None:
    for name in ("order", "index", "notable", "android", "forward", "truest", "in_hand"):
        assert parse(name) == ast.Name(name, line=1, column=1)


def test_grammar_style() -> None:
    """spec/expr.lark: lowercase rules, UPPERCASE terminals, an alias per operation."""
    parser = get_parser()
    for rule in parser.rules:
        assert rule.origin.name.islower()
    for terminal in parser.terminals:
        assert terminal.name.isupper() or terminal.name.startswith("__")
    aliases = {rule.alias for rule in parser.rules if rule.alias}
    assert {"conditional", "or_op", "and_op", "not_op", "compare", "in_op", "not_in_op", "range",
            "add", "sub", "mul", "floordiv", "mod", "neg", "attribute", "call", "aggregate",
            "list", "int", "true", "false", "name"} <= aliases


def test_parser_is_built_once() -> None:
    assert get_parser() is get_parser()


# -- error messages ----------------------------------------------------------------

ERROR_CASES = [(message, example) for message, examples in ERROR_EXAMPLES for example in examples]


def _pattern(message: str) -> str:
    pattern = re.escape(message)
    return pattern.replace(r"\{prev\}", "'.+'").replace(r"\{open\}", r"'[(\[]'")


@pytest.mark.parametrize("message, example", ERROR_CASES, ids=[e for _, e in ERROR_CASES])
def test_errors(message: str, example: str) -> None:
    """Every example of the error table gets its message (the table is the spec)."""
    with pytest.raises(ExpressionError) as info:
        parse(example)
    assert info.value.rule == "expr-syntax"
    assert re.fullmatch(_pattern(message), info.value.message), info.value.message


ERROR_MESSAGES = [
    ("a and", 1, 6, "missing operand after 'and'"),
    ("(a or)", 1, 6, "missing operand after 'or'"),
    ("order >=", 1, 9, "missing operand after '>='"),
    ("x in 1..", 1, 9, "missing operand after '..'"),
    ("a and\n   ", 1, 6, "missing operand after 'and'"),
    ("rank = A", 1, 6, "'=' is not an operator: write '=='"),
    ("wild && a", 1, 6, "'&&' is not an operator: write 'and'"),
    ("wild || a", 1, 6, "'||' is not an operator: write 'or'"),
    ("(a", 1, 1, "unclosed '('"),
    ("min(a,\n  [b, c", 2, 3, "unclosed '['"),
    ("min(a, (b)", 1, 4, "unclosed '('"),
    ("a)", 1, 2, "unmatched ')'"),
    ("(a]", 1, 3, "']' does not close '(' (opened at 1:1)"),
    ("a +\n\n  * b", 3, 3, "missing operand after '+'"),
    ("size\n  in 3...4", 2, 9, "missing operand after '..'"),
    ("", 1, 1, "empty expression"),
    (" \n\t", 1, 1, "empty expression"),
    ("@", 1, 1, "unexpected character '@'"),
    ("a\n  # comment", 2, 3, "unexpected character '#'"),
    ("1 < 2 < 3", 1, 7, "comparisons do not chain: write 'a < b and b < c'"),
    ("order in 1..3..5", 1, 14, "a range 'a..b' can only follow 'in' (x in 1..3)"),
]


@pytest.mark.parametrize("text, line, column, message", ERROR_MESSAGES, ids=[t for t, *_ in ERROR_MESSAGES])
def test_error_positions(text: str, line: int, column: int, message: str) -> None:
    with pytest.raises(ExpressionError) as info:
        parse(text)
    error = info.value
    assert (error.line, error.column, error.message, error.rule) == (line, column, message, "expr-syntax")
    assert str(error) == f"{line}:{column}: {message}"


def test_unexpected_token_says_what_was_expected() -> None:
    with pytest.raises(ExpressionError) as info:
        parse("a ? b : c :")
    assert info.value.message.startswith("unexpected ':'")


# -- limits ------------------------------------------------------------------------


def _rule(text: str) -> str:
    with pytest.raises(ExpressionError) as info:
        parse(text)
    return info.value.rule


def test_length_limit() -> None:
    ok = "1" + " + 1" * 20 + " " * (MAX_LENGTH - 81)
    assert len(ok) == MAX_LENGTH
    parse(ok)
    assert _rule(ok + " ") == "expr-limit"
    assert _rule("(" * 5000) == "expr-limit"


def nested(depth: int) -> str:
    return "(" * (depth - 1) + "a" + ")" * (depth - 1)


def test_depth_limit_brackets() -> None:
    parse("[" * (MAX_DEPTH - 1) + "]" * (MAX_DEPTH - 1))
    assert _rule("[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1)) == "expr-depth"
    assert _rule("(" * 1999) == "expr-depth"
    assert _rule("f(" * 999) == "expr-depth"
    with pytest.raises(ExpressionError) as info:
        parse("(" * 40 + "a" + ")" * 40)
    assert (info.value.line, info.value.column) == (1, MAX_DEPTH + 1)


@pytest.mark.parametrize("unit", ["-", "not ", "a ? b : ", "1 + ", "x.", "a * "])
def test_depth_limit_operators(unit: str) -> None:
    """Long chains without brackets are deep trees too: a clean error, never RecursionError."""
    if unit == "x.":
        text = "x" + ".a" * 900
    else:
        text = unit * (1900 // len(unit)) + "b"
    assert _rule(text) == "expr-depth"


def test_depth_counts_levels() -> None:
    # A chain of n additions is n + 1 levels deep (the top '+' ... the first operand).
    parse(" + ".join(["1"] * MAX_DEPTH))
    assert _rule(" + ".join(["1"] * (MAX_DEPTH + 1))) == "expr-depth"
    parse("-" * (MAX_DEPTH - 1) + "a")
    assert _rule("-" * MAX_DEPTH + "a") == "expr-depth"


def test_integer_limit() -> None:
    assert parse("1000000000") == ast.IntLit(10**9, line=1, column=1)
    assert _rule("1000000001") == "expr-limit"


def test_not_text() -> None:
    with pytest.raises(ExpressionError):
        parse(42)  # type: ignore[arg-type]


# -- only ExpressionError escapes ------------------------------------------------------

TOKENS = [
    "a", "order", "rank", "A", "10", "0", "true", "false", "and", "or", "not", "in", "for",
    "?", ":", "==", "!=", "<", "<=", ">", ">=", "+", "-", "*", "//", "%", "..", ".", ",",
    "(", ")", "[", "]", "min", "sum", "=", "&&", "!", "/", "'", " ", "\n",
]


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=80))
def test_fuzz_text_only_expression_errors(text: str) -> None:
    try:
        parse(text)
    except ExpressionError as error:
        assert error.rule in ("expr-syntax", "expr-limit", "expr-depth")
        assert error.line >= 1 and error.column >= 1


@settings(max_examples=500, deadline=None)
@given(st.lists(st.sampled_from(TOKENS), max_size=40))
def test_fuzz_tokens_only_expression_errors(tokens: list[str]) -> None:
    text = " ".join(tokens)
    try:
        node = parse(text)
    except ExpressionError as error:
        assert error.rule in ("expr-syntax", "expr-limit", "expr-depth")
        assert 1 <= error.line <= text.count("\n") + 1
    else:
        # What parses prints back to something that parses to the same tree.
        assert show(parse(show(node))) == show(node)
