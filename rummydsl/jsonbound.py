"""JSON from outside (agent answers, game records, saves, run files), read within limits.

Python's :func:`json.loads` has two failures no caller of it expects: an integer of
more than 4,300 digits is a :class:`ValueError` (Python's guard against slow
``int()`` conversions), and brackets nested past the interpreter's stack are a
:class:`RecursionError`. :func:`loads` is :func:`json.loads` with both bounded
first, by the limits :data:`~rummydsl.limits.MAX_JSON_DEPTH` and
:data:`~rummydsl.limits.MAX_JSON_NUMBER`: it raises only
:class:`json.JSONDecodeError` (a :class:`JSONLimitError` for a limit), whose
``msg``, ``lineno`` and ``colno`` every caller already turns into a located
message.

>>> loads('{"points": [1, 2.5, null]}')
{'points': [1, 2.5, None]}
>>> try:
...     loads('[' * 100 + ']' * 100)
... except JSONLimitError as problem:
...     print(problem.colno, problem.msg)
65 nested too deeply: at most 64 levels of lists and objects
>>> try:
...     loads('{"game": ' + '9' * 5000 + '}')
... except JSONLimitError as problem:
...     print(problem.colno, problem.msg)
10 a number of 5,000 characters: at most 100
"""

from __future__ import annotations

import functools
import json
import re
from itertools import accumulate
from typing import Any

from . import limits

__all__ = ["JSONLimitError", "loads"]


class JSONLimitError(json.JSONDecodeError):
    """A JSON text past a limit: nested too deeply, or a number too long.

    A :class:`json.JSONDecodeError`, so a caller's ``msg`` and ``colno`` handling
    covers it; ``pos`` is where the offending bracket or number begins.
    """


_STRING = re.compile(r'"(?:[^"\\]|\\.)*"?', re.DOTALL)
"""A string, or the rest of the text after an unclosed quote (as the JSON parser reads it): matching
to the end keeps the scan linear, where a pattern that must find the closing quote would search
again from every later quote."""
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")
_STEP = [0] * 256
_STEP[ord("[")] = _STEP[ord("{")] = 1
_STEP[ord("]")] = _STEP[ord("}")] = -1
_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"?|[\[\]{}]|-?[0-9][0-9.eE+-]*', re.DOTALL)


@functools.lru_cache(maxsize=4)
def _long_run(limit: int) -> re.Pattern[str]:
    return re.compile(f"[0-9.eE+-]{{{limit + 1}}}")


def _deepest(text: str) -> int:
    """How deeply ``text`` nests lists and objects (brackets in strings not counted), in C loops."""
    if text.count("[") + text.count("{") <= limits.MAX_JSON_DEPTH:
        return 0  # cannot be too deep: the common case costs two counts
    brackets = _NOT_BRACKET.sub("", _STRING.sub("", text)).encode("ascii")
    return max(accumulate(map(_STEP.__getitem__, brackets)), default=0)


def _place(text: str, *, depth: bool) -> int:
    """Where the first bracket past the depth limit, or the first overlong number, begins
    (-1 if none: long runs of digits were in strings).

    Every JSON number lies whole in one token (it begins with ``-`` or a digit, and all
    its characters are in the token's set), and strings are skipped as the JSON parser
    reads them, so no number the parser would convert is missed."""
    level = 0
    for match in _TOKEN.finditer(text):
        token = match.group()
        if token[0] == '"':
            continue
        if token in "[{":
            level += 1
            if depth and level > limits.MAX_JSON_DEPTH:
                return match.start()
        elif token in "]}":
            level -= 1
        elif not depth and len(token) > limits.MAX_JSON_NUMBER:
            return match.start()
    return -1


def loads(text: str) -> Any:
    """The value of the JSON ``text``, read within the JSON limits.

    :raises json.JSONDecodeError: for text that is not JSON.
    :raises JSONLimitError: for lists and objects nested deeper than
        :data:`~rummydsl.limits.MAX_JSON_DEPTH`, or a number longer than
        :data:`~rummydsl.limits.MAX_JSON_NUMBER` characters (checked before
        Python converts it); ``pos`` is where the bracket or number begins.
    """
    if _deepest(text) > limits.MAX_JSON_DEPTH:  # the C parser recurses once a level
        raise JSONLimitError(f"nested too deeply: at most {limits.MAX_JSON_DEPTH} levels of lists and objects",
                             text, _place(text, depth=True))
    if _long_run(limits.MAX_JSON_NUMBER).search(text):  # a long run of number characters: a number?
        place = _place(text, depth=False)
        if place >= 0:
            length = len(_TOKEN.match(text, place).group())  # type: ignore[union-attr]
            raise JSONLimitError(f"a number of {length:,} characters: at most {limits.MAX_JSON_NUMBER}",
                                 text, place)
    return json.loads(text)
