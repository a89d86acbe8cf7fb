"""Parse expression text into the typed AST of :mod:`rummydsl.expr.ast`.

The grammar is ``spec/expr.lark`` (LALR(1)); the Lark parser is built once per
process and cached. Every failure is an :class:`~rummydsl.errors.ExpressionError`
with a 1-based line and column inside the text and a rule code:

``expr-syntax``
    the text is not an expression; the message comes from :data:`ERROR_EXAMPLES`,
    a table of malformed examples matched by parser state in the manner of Lark's
    ``UnexpectedInput.match_examples`` (the table is tested example by example).
``expr-limit``
    the text is longer than :data:`MAX_LENGTH` characters, or a number is larger
    than :data:`MAX_INT`.
``expr-depth``
    the expression nests deeper than :data:`MAX_DEPTH` levels. A level is a bracket
    or an operation: ``(a + b) * c`` is 3 levels deep (``*``, ``+``, ``a``).
    Brackets are counted before parsing and the tree after it, so no input can
    exhaust the Python stack.

>>> parse("size in 3..4")
InOp(line=1, column=1, op='in', left=Name(line=1, column=1, id='size'), right=Range(line=1, column=9, low=IntLit(line=1, column=9, value=3), high=IntLit(line=1, column=12, value=4)))
>>> parse("rank = A")
Traceback (most recent call last):
...
rummydsl.errors.ExpressionError: 1:6: '=' is not an operator: write '=='
"""

from __future__ import annotations

import os
import re
import stat
import tempfile
from functools import lru_cache
from typing import Any, Callable, Iterable, Sequence, cast

from lark import Lark, Token, Transformer, Tree, v_args
from lark.exceptions import UnexpectedCharacters, UnexpectedInput, UnexpectedToken, VisitError

from rummydsl.errors import ExpressionError
from rummydsl.expr import ast
from rummydsl.limits import MAX_EXPR_DEPTH, MAX_EXPR_LENGTH, MAX_INT_LITERAL
from rummydsl.resources import read_spec_text

__all__ = [
    "MAX_LENGTH",
    "MAX_DEPTH",
    "MAX_INT",
    "ERROR_EXAMPLES",
    "parse",
    "get_parser",
]

MAX_LENGTH = MAX_EXPR_LENGTH
"""The longest expression text, in characters (:data:`rummydsl.limits.MAX_EXPR_LENGTH`)."""
MAX_DEPTH = MAX_EXPR_DEPTH
"""The deepest nesting of an expression, in levels (:data:`rummydsl.limits.MAX_EXPR_DEPTH`)."""
MAX_INT = MAX_INT_LITERAL
"""The largest integer literal (:data:`rummydsl.limits.MAX_INT_LITERAL`)."""

_MISSING_OPERATOR = "missing operator between two values"
_RANGE_MESSAGE = "a range 'a..b' can only follow 'in' (x in 1..3)"

ERROR_EXAMPLES: tuple[tuple[str, tuple[str, ...]], ...] = (
    # The label is the message; ``{prev}`` is the token before the error, ``{open}``
    # the innermost unclosed bracket. An error matches an example that failed in the
    # same parser state (with the same acceptable tokens) on the same token, else on
    # a token of the same type; entries are tried in order.
    ("'**' is not an operator: there is no power operator", ("a ** b",)),
    ("only a name can be called: write 'f(x)'", ("a.b(c)", "(f)(x)", "1(2)", "[a](b)", "f(a)(b)")),
    ("empty parentheses", ("()", "a + ()", "(())")),
    (
        "missing operand after {prev}",
        (
            "a and", "(a and)", "a and and b",
            "a or", "(a or)", "a or or b",
            "not", "(not)", "a and not",
            "a +", "(a +)", "a + + b", "a + *",
            "a -", "-", "(-)", "[a -]",
            "a *", "(a *)", "a //", "f(a //)", "a %", "(a %)",
            "a ==", "(a ==)", "(a <)", "a == == b",
            "a in", "(a in)", "a not in", "(a not in)",
            "a ?", "(a ?)", "a ? b :", "(a ? b :)",
            "x in 1..", "(x in 1..)",
        ),
    ),
    ("missing ':' of 'a ? b : c'", ("a ? b", "(a ? b)", "a ? b ? c : d")),
    ("missing item after ','", ("f(a,)", "[a,]", "f(a, , b)")),
    ("expected an attribute name after '.'", ("a.", "a.1", "a.(b)", "1.5", "a.and")),
    ("expected 'in' after 'not' (write 'not in', or 'not' before the condition)", ("a not b", "a not", "(a not)")),
    ("comparisons do not chain: write 'a < b and b < c'", ("a < b < c", "a == b == c", "a < b in c", "a in b in c", "a in b == c")),
    (_RANGE_MESSAGE, ("1..3", "a..b", "x == 1..3", "[1..3]", "f(1..3)", "x in 1..3..5")),
    ("expected a loop variable after 'for'", ("sum(x for)", "sum(x for 1 in y)", "sum(x for in y)")),
    ("expected 'in' after the loop variable", ("sum(x for y)", "sum(x for y z)", "sum(x for y, z in w)")),
    ("'for' belongs inside a call: sum(e for x in xs)", ("x for x in y", "[x for x in y]", "f(a, x for x in y)")),
    (_MISSING_OPERATOR, ("a b", "a 1", "1 a", "1 2", "(a) b", "f(a) b", "[a] b", "a.b c", "true a", "a true", "a [b]")),
    ("unclosed {open}", ("(a", "(a + b", "f(a", "f(a, b", "[a", "[a, b", "sum(x for x in y", "(a ? b : c")),
    # Characters that are not part of the language, matched by the text at the error.
    ("'=' is not an operator: write '=='", ("a = b",)),
    ("'&&' is not an operator: write 'and'", ("a && b",)),
    ("'||' is not an operator: write 'or'", ("a || b",)),
    ("'&' is not an operator: write 'and'", ("a & b",)),
    ("'|' is not an operator: write 'or'", ("a | b",)),
    ("'!' is not an operator: write 'not' (or '!=')", ("!a", "a ! b")),
    ("'/' is not an operator: write '//' (division rounding down)", ("a / b",)),
    ("quotes are not part of expressions: write the bare name (rank == A)", ('"a"', "'a'", "a == 'b'")),
)
"""The message table: ``(message, malformed examples)``; tested by ``tests/unit/test_grammar.py::test_errors``."""

_OPEN = {"(": ")", "[": "]"}
_CLOSE = {")": "(", "]": "["}
_BAD_CHARS = re.compile(r"[=&|!/'\"]+")
_TOKEN_WORDS = {
    "NAME": "a name",
    "INT": "a number",
    "COMP_OP": "a comparison",
    "$END": "the end",
}
_OPERAND_STARTS = frozenset({"NAME", "INT", "LPAR", "LSQB", "MINUS", "NOT", "TRUE", "FALSE"})
_VALUE_TOKENS = frozenset({"NAME", "INT", "TRUE", "FALSE", "LSQB"})


def private_cache_file() -> str | bool:
    """Where Lark keeps the built tables between runs: a file in a folder of the temp
    folder that only this user can open (``rummydsl-UID``), or ``False`` for no cache.

    Not Lark's own ``cache=True``: that file has a predictable name in the shared temp
    folder and Lark unpickles it (lark-parser/lark#1628), so a file another user left
    there would run code as whoever parses. A folder that is not ours, not private, or a
    link means no cache (slower by some 20 ms, never unsafe).
    """
    getuid = getattr(os, "getuid", None)
    if getuid is None:
        return False
    folder = os.path.join(tempfile.gettempdir(), f"rummydsl-{getuid()}")
    try:
        os.mkdir(folder, 0o700)
    except FileExistsError:
        pass
    except OSError:
        return False
    try:
        info = os.lstat(folder)
    except OSError:
        return False
    if not stat.S_ISDIR(info.st_mode) or info.st_uid != getuid() or info.st_mode & 0o077:
        return False
    return os.path.join(folder, "expr.lark.cache")


@lru_cache(maxsize=None)
def get_parser() -> Lark:
    """The LALR parser of ``spec/expr.lark``, built once per process."""
    return Lark(
        read_spec_text("expr.lark"),
        parser="lalr",
        lexer="basic",
        propagate_positions=True,
        maybe_placeholders=True,
        cache=private_cache_file(),  # the built LALR tables, kept between runs where safe
    )


def parse(text: str) -> ast.Expr:
    """Parse one expression into its typed AST.

    :param text: the expression (it may span lines; positions are 1-based inside it).
    :raises ExpressionError: rule ``expr-syntax``, ``expr-limit`` or ``expr-depth``.

    >>> parse("not wild")
    Not(line=1, column=1, operand=Name(line=1, column=5, id='wild'))
    >>> parse("(a")
    Traceback (most recent call last):
    ...
    rummydsl.errors.ExpressionError: 1:1: unclosed '('
    """
    if not isinstance(text, str):
        raise ExpressionError(f"an expression must be text, got {type(text).__name__}", 1, 1, "expr-syntax")
    return _parse(text)


@lru_cache(maxsize=1024)
def _parse(text: str) -> ast.Expr:
    # The AST is immutable, so one per text is shared: a house rule repeats most of
    # its parent's expressions, in other contexts. Errors are raised, never cached.
    if len(text) > MAX_LENGTH:
        raise ExpressionError(
            f"expression is {len(text)} characters long; the limit is {MAX_LENGTH}",
            1, 1, "expr-limit",
        )
    if not text.strip():
        raise ExpressionError("empty expression", 1, 1, "expr-syntax")
    brackets = _scan_brackets(text)
    if brackets.too_deep is not None:
        line, column = _position(text, brackets.too_deep)
        raise ExpressionError(f"expression nests deeper than {MAX_DEPTH} levels", line, column, "expr-depth")
    try:
        tree = get_parser().parse(text)
    except UnexpectedInput as exc:
        raise _syntax_error(text, exc, brackets) from None
    _check_depth(text, tree)
    try:
        result: ast.Expr = _ToAst().transform(tree)
    except VisitError as exc:
        if isinstance(exc.orig_exc, ExpressionError):
            raise exc.orig_exc from None
        raise
    return result


# -- limits -------------------------------------------------------------------


class _Brackets:
    __slots__ = ("too_deep", "stack_at", "unclosed")

    def __init__(self, too_deep: int | None = None,
                 stack_at: dict[int, tuple[tuple[str, int], ...]] | None = None,
                 unclosed: tuple[tuple[str, int], ...] = ()) -> None:
        self.too_deep = too_deep
        """Offset of the first bracket deeper than MAX_DEPTH."""
        self.stack_at = stack_at
        """For each closing bracket's offset: the open brackets just before it."""
        self.unclosed = unclosed
        """The brackets still open at the end (character, offset)."""


def _scan_brackets(text: str) -> _Brackets:
    result = _Brackets(stack_at={})
    stack: list[tuple[str, int]] = []
    assert result.stack_at is not None
    for offset, char in enumerate(text):
        if char in _OPEN:
            stack.append((char, offset))
            if len(stack) > MAX_DEPTH and result.too_deep is None:
                result.too_deep = offset
        elif char in _CLOSE:
            result.stack_at[offset] = tuple(stack)
            if stack and stack[-1][0] == _CLOSE[char]:
                stack.pop()
    result.unclosed = tuple(stack)
    return result


def _check_depth(text: str, tree: Tree[Token]) -> None:
    """Raise ``expr-depth`` if the tree is deeper than MAX_DEPTH (iteratively)."""
    stack: list[tuple[Any, int]] = [(tree, 1)]
    while stack:
        node, depth = stack.pop()
        if not isinstance(node, Tree):
            continue
        if node.data != "arguments":
            if depth > MAX_DEPTH:
                line = getattr(node.meta, "line", 1)
                column = getattr(node.meta, "column", 1)
                raise ExpressionError(
                    f"expression nests deeper than {MAX_DEPTH} levels", line, column, "expr-depth"
                )
            depth += 1
        stack.extend((child, depth) for child in node.children)


def _position(text: str, offset: int) -> tuple[int, int]:
    line = text.count("\n", 0, offset) + 1
    column = offset - (text.rfind("\n", 0, offset) + 1) + 1
    return line, column


def _end_position(text: str) -> tuple[int, int]:
    return _position(text, len(text.rstrip()))


# -- syntax errors --------------------------------------------------------------


class _Example:
    __slots__ = ("message", "lexical", "state", "token_type", "token_value", "accepts")

    def __init__(self, message: str, lexical: bool, state: Any, token_type: str,
                 token_value: str, accepts: frozenset[str]) -> None:
        self.message = message
        self.lexical = lexical
        self.state = state
        self.token_type = token_type
        self.token_value = token_value
        self.accepts = accepts


def _char_offset(exc: UnexpectedCharacters) -> int:
    """Where the lexer stopped: always an int here (lark types the base attribute as None)."""
    return cast(int, exc.pos_in_stream)


def _error_key(text: str, exc: UnexpectedInput) -> tuple[bool, Any, str, str, frozenset[str]]:
    """(lexical?, parser state, token type, token text, accepted token types)."""
    if isinstance(exc, UnexpectedCharacters):
        at = _char_offset(exc)
        match = _BAD_CHARS.match(text, at)
        bad = match.group(0) if match else text[at]
        if match and bad[0] in "'\"":
            bad = bad[0]
        return True, None, "", bad, frozenset()
    token = getattr(exc, "token", None)
    if token is None:  # pragma: no cover - LALR reports the end as a $END token
        return False, exc.state, "$END", "", frozenset()
    accepts = getattr(exc, "accepts", None) or ()
    return False, exc.state, token.type, str(token), frozenset(accepts)


@lru_cache(maxsize=None)
def _examples() -> tuple[_Example, ...]:
    parser = get_parser()
    found = []
    for message, examples in ERROR_EXAMPLES:
        for example in examples:
            try:
                parser.parse(example)
            except UnexpectedInput as exc:
                lexical, state, token_type, token_value, accepts = _error_key(example, exc)
                found.append(_Example(message, lexical, state, token_type, token_value, accepts))
            else:  # pragma: no cover - the table test catches this
                raise AssertionError(f"error example {example!r} parses")
    return tuple(found)


def _match_example(text: str, exc: UnexpectedInput) -> str | None:
    lexical, state, token_type, token_value, accepts = _error_key(text, exc)
    if lexical:
        for example in _examples():
            if example.lexical and example.token_value == token_value:
                return example.message
        return None
    by_type: str | None = None
    for example in _examples():
        if example.lexical or example.state != state or example.accepts != accepts:
            continue
        if example.token_value == token_value and example.token_type == token_type:
            return example.message
        if by_type is None and example.token_type == token_type:
            by_type = example.message
    if token_value == "..":
        # A range anywhere but after `in`: the state varies, the token says it all.
        return _RANGE_MESSAGE
    return by_type


def _previous_token(text: str, offset: int) -> str:
    try:
        tokens = list(get_parser().lex(text[:offset]))
    except UnexpectedInput:  # pragma: no cover - the prefix lexed once already
        return "this"
    if not tokens:
        return "this"
    return repr(str(tokens[-1]))


def _describe(token: Token) -> str:
    if token.type == "$END":
        return "end of expression"
    if token.type == "NAME":
        return f"name {str(token)!r}"
    if token.type == "INT":
        return f"number {str(token)}"
    return repr(str(token))


def _expected_words(accepts: Iterable[str]) -> list[str]:
    accepts = set(accepts)
    words: list[str] = []
    if _OPERAND_STARTS & accepts:
        words.append("a value")
        accepts -= _OPERAND_STARTS
    terminals = {t.name: t for t in get_parser().terminals}
    for name in sorted(accepts):
        if name in _TOKEN_WORDS:
            words.append(_TOKEN_WORDS[name])
        elif name in terminals:
            words.append(repr(terminals[name].pattern.value))
    return words


def _by_rule(text: str, offset: int, exc: UnexpectedToken) -> str | None:
    """Messages for errors the table has no example of, by what the parser wanted."""
    accepts = set(exc.accepts or ())
    if accepts and accepts <= _OPERAND_STARTS and exc.token.type not in _OPERAND_STARTS:
        return f"missing operand after {_previous_token(text, offset)}"
    if exc.token.type in _VALUE_TOKENS and "NAME" not in accepts:
        return _MISSING_OPERATOR
    return None


def _syntax_error(text: str, exc: UnexpectedInput, brackets: _Brackets) -> ExpressionError:
    if isinstance(exc, UnexpectedCharacters):
        offset = _char_offset(exc)
    elif isinstance(exc, UnexpectedToken) and exc.token.type != "$END":
        offset = exc.token.start_pos or 0
    else:
        offset = len(text.rstrip())
    line, column = _position(text, offset)

    # Brackets first: a closing bracket that closes nothing, or the wrong thing.
    if isinstance(exc, UnexpectedToken) and exc.token.type in ("RPAR", "RSQB"):
        assert brackets.stack_at is not None
        open_before = brackets.stack_at.get(offset, ())
        closer = str(exc.token)
        if not open_before:
            return ExpressionError(f"unmatched {closer!r}", line, column, "expr-syntax")
        opener, at = open_before[-1]
        if _OPEN[opener] != closer:
            oline, ocol = _position(text, at)
            return ExpressionError(
                f"{closer!r} does not close {opener!r} (opened at {oline}:{ocol})",
                line, column, "expr-syntax",
            )

    message = _match_example(text, exc)
    if message is not None and "{open}" in message:
        if not brackets.unclosed:
            message = None
        else:
            opener, at = brackets.unclosed[-1]
            line, column = _position(text, at)
            message = message.format(open=repr(opener))
    elif message is not None and "{prev}" in message:
        message = message.format(prev=_previous_token(text, offset))
    if message is None and isinstance(exc, UnexpectedToken) and exc.token.type == "$END" and brackets.unclosed:
        opener, at = brackets.unclosed[-1]
        line, column = _position(text, at)
        message = f"unclosed {opener!r}"
    if message is None and isinstance(exc, UnexpectedToken):
        message = _by_rule(text, offset, exc)
    if message is None:
        if isinstance(exc, UnexpectedCharacters):
            message = f"unexpected character {text[offset]!r}"
        elif not isinstance(exc, UnexpectedToken):  # pragma: no cover - not raised by LALR
            message = "unexpected end of expression"
        else:
            message = f"unexpected {_describe(exc.token)}"
            words = _expected_words(exc.accepts or ())
            if words and len(words) <= 4 and exc.token.type != "$END":
                message += f"; expected {' or '.join(words)}"
    return ExpressionError(message, line, column, "expr-syntax")


# -- tree to AST ----------------------------------------------------------------


def _pos(meta: Any) -> dict[str, int]:
    return {"line": getattr(meta, "line", 1), "column": getattr(meta, "column", 1)}


def _int(token: Token) -> int:
    value = int(str(token))
    if value > MAX_INT:
        raise ExpressionError(
            f"number {str(token)[:20]} is too large (the limit is {MAX_INT})",
            token.line or 1, token.column or 1, "expr-limit",
        )
    return value


def _arith(op: ast.ArithOp) -> Callable[[_ToAst, Any, ast.Expr, ast.Expr], ast.Expr]:
    """The transformer method for one arithmetic operator."""
    def method(self: _ToAst, meta: Any, left: ast.Expr, right: ast.Expr) -> ast.Expr:
        return ast.BinOp(op, left, right, **_pos(meta))

    return method


@v_args(meta=True, inline=True)
class _ToAst(Transformer[Token, ast.Expr]):
    """Lark tree → typed AST (safe: the tree depth is checked first)."""

    def int(self, meta: Any, token: Token) -> ast.Expr:
        return ast.IntLit(_int(token), **_pos(meta))

    def true(self, meta: Any) -> ast.Expr:
        return ast.BoolLit(True, **_pos(meta))

    def false(self, meta: Any) -> ast.Expr:
        return ast.BoolLit(False, **_pos(meta))

    def name(self, meta: Any, token: Token) -> ast.Expr:
        return ast.Name(str(token), **_pos(meta))

    def attribute(self, meta: Any, obj: ast.Expr, token: Token) -> ast.Expr:
        return ast.Attribute(obj, str(token), **_pos(meta))

    def arguments(self, meta: Any, *items: ast.Expr) -> tuple[ast.Expr, ...]:
        return items

    def call(self, meta: Any, func: Token, args: Sequence[ast.Expr] | None) -> ast.Expr:
        return ast.Call(str(func), tuple(args or ()), **_pos(meta))

    def aggregate(self, meta: Any, func: Token, element: ast.Expr, var: Token, iterable: ast.Expr) -> ast.Expr:
        return ast.Aggregate(
            str(func), element, str(var), iterable,
            var_line=var.line or 1, var_column=var.column or 1, **_pos(meta),
        )

    def list(self, meta: Any, items: Sequence[ast.Expr] | None) -> ast.Expr:
        return ast.ListExpr(tuple(items or ()), **_pos(meta))

    def neg(self, meta: Any, operand: ast.Expr) -> ast.Expr:
        return ast.Neg(operand, **_pos(meta))

    def not_op(self, meta: Any, operand: ast.Expr) -> ast.Expr:
        return ast.Not(operand, **_pos(meta))

    add = _arith("+")
    sub = _arith("-")
    mul = _arith("*")
    floordiv = _arith("//")
    mod = _arith("%")

    def and_op(self, meta: Any, left: ast.Expr, right: ast.Expr) -> ast.Expr:
        return ast.BoolOp("and", left, right, **_pos(meta))

    def or_op(self, meta: Any, left: ast.Expr, right: ast.Expr) -> ast.Expr:
        return ast.BoolOp("or", left, right, **_pos(meta))

    def compare(self, meta: Any, left: ast.Expr, op: Token, right: ast.Expr) -> ast.Expr:
        # the grammar's COMP_OP terminal matches only these operators
        return ast.Compare(cast(ast.CompareOp, str(op)), left, right, **_pos(meta))

    def in_op(self, meta: Any, element: ast.Expr, container: ast.Expr) -> ast.Expr:
        return ast.InOp("in", element, container, **_pos(meta))

    def not_in_op(self, meta: Any, element: ast.Expr, container: ast.Expr) -> ast.Expr:
        return ast.InOp("not in", element, container, **_pos(meta))

    def range(self, meta: Any, low: ast.Expr, high: ast.Expr) -> ast.Expr:
        return ast.Range(low, high, **_pos(meta))

    def conditional(self, meta: Any, test: ast.Expr, then: ast.Expr, otherwise: ast.Expr) -> ast.Expr:
        return ast.Conditional(test, then, otherwise, **_pos(meta))
