"""The fuzz targets of rummydsl: one function a target, taking the raw bytes of one input.

Each target feeds its bytes to one front end of rummydsl and returns quietly when
the front end answers as documented: a result, or an error of the
:class:`~rummydsl.errors.RummyDslError` family. Anything else (any other
exception, a state half-changed by a refused action, two loaders that disagree)
is a crash, raised as the original exception or as :class:`Crash`.

The same functions serve three callers, so a crash is replayed exactly as it was
found: the atheris harnesses (``fuzz/fuzz_*.py``, coverage-guided), the
hypothesis tests of ``tests/fuzz/`` (which build the bytes from mutations of the
shipped files) and the regression corpus test (``tests/fuzz/corpus/<target>/``,
one file a crash, each replayed through :data:`TARGETS`).

Inputs, by target:

``load``
    a variant file's bytes.
``expr``
    an expression (UTF-8, undecodable bytes replaced), compiled and evaluated in
    every context.
``suite``
    a conformance suite file's bytes (its cases are run too).
``action``
    a first line ``VARIANT SEED STEPS`` (a shipped variant, the deal's seed, how
    many random legal actions to play first), then the action text.
``record``
    a game record (JSON lines, as ``simulate --log`` writes), replayed.
``cli``
    a first line of arguments separated by NUL bytes (``check\\0v.yaml``), then the
    bytes of the file ``v.yaml`` that those arguments may name; stdin is empty.
"""

from __future__ import annotations

import atexit
import io
import os
import random
import shutil
import sys
import tempfile
from functools import partial
from pathlib import Path
from typing import Any, Callable, Iterable, Sequence

from rummydsl.cards import Card, Deck
from rummydsl.errors import ActionError, ExpressionError, RummyDslError, SuiteError, VariantError

__all__ = ["Crash", "TARGETS", "load_target", "expr_target", "suite_target", "action_target",
           "record_target", "cli_target", "action_input", "cli_input"]

REPO = Path(__file__).resolve().parents[1]


class Crash(AssertionError):
    """A target broke a promise without raising a foreign exception (a state
    changed by a refused action, two loaders disagreeing, an escaped traceback)."""


def _scratch() -> Path:
    """A folder for the files a target writes (one a process, reused, removed at exit)."""
    global _SCRATCH
    if _SCRATCH is None:
        _SCRATCH = Path(tempfile.mkdtemp(prefix="rummydsl-fuzz-"))
        atexit.register(shutil.rmtree, _SCRATCH, True)
    return _SCRATCH


_SCRATCH: Path | None = None


# -- load --------------------------------------------------------------------------


def load_target(data: bytes) -> None:
    """A variant file's bytes: read both ways (libyaml and pure Python), then checked.

    Reading raises only :class:`VariantError`, and the fast reader agrees with the
    pure-Python one (the same tree and positions, or both refuse). Checking the
    text gives located diagnostics; a text with no error loads, and explains.
    """
    from rummydsl.variant import check_file, load_variant
    from rummydsl.variant.load import load_document
    from rummydsl.variant.load_compose import load_python
    from rummydsl.variant.load_read import Refused, decode

    path = str(_scratch() / "fuzzed.yaml")
    fast = slow = None
    try:
        fast = load_document(path, data)
    except VariantError:
        pass
    try:
        text = decode(path, data)
    except VariantError:
        if fast is not None:
            raise Crash("the reader accepts bytes that do not decode") from None
        return
    try:
        slow = load_python(path, text)
    except (VariantError, Refused):
        pass
    if (fast is None) != (slow is None):
        which = "fast" if slow is None else "pure-Python"
        raise Crash(f"only the {which} reader accepts this text")
    if fast is not None and slow is not None:
        if fast.data != slow.data and repr(fast.data) != repr(slow.data):  # NaN is not equal to itself
            raise Crash(f"the fast reader gives {fast.data!r:.300}, the pure-Python one {slow.data!r:.300}")
        for key in slow.positions:
            if (fast.positions.value(key), fast.positions.key(key)) != (
                    slow.positions.value(key), slow.positions.key(key)):
                raise Crash(f"the readers disagree on the position of {key!r}")
    diagnostics = check_file(path, data.decode("utf-8"))
    for diagnostic in diagnostics:
        if not diagnostic.message or not diagnostic.location.path:
            raise Crash(f"a diagnostic with no message or place: {diagnostic!r}")
    if fast is None or any(d.severity == "error" for d in diagnostics):
        return
    from rummydsl.explainer import explain

    Path(path).write_bytes(data)
    try:
        variant = load_variant(path)
    except VariantError as problem:
        raise Crash(f"check finds no error, but loading refuses: {problem}") from None
    explain(variant)


# -- expr --------------------------------------------------------------------------

def _expr_setup() -> list[tuple[Any, Callable[[Any], Iterable[Any]]]]:
    """Each (environment, how to evaluate a compiled expression there), built once:
    every context over two decks (standard52, and rumski70 with its wild cards)."""
    global _EXPR_SETUP
    if _EXPR_SETUP is not None:
        return _EXPR_SETUP
    from rummydsl.expr.runtime import RoundFacts
    from rummydsl.expr import Choice, Context, Env

    envs: list[tuple[Any, Callable[[Any], Iterable[Any]]]] = []
    options = {"gin_bonus": 25, "layoff": True, "mode": Choice("a", ("a", "b"))}
    for preset in ("standard52", "rumski70"):
        deck = Deck.preset(preset)
        cards = list(deck.cards)
        sample = cards[::9] + cards[-2:]
        groups = [cards[:1], cards[:3], cards[::13][:4], cards[-3:], sample[:5], []]
        kinds = ("run", "set")

        def on_cards(compiled: Any, sample: list[Card] = sample) -> Iterable[Any]:
            return [compiled(card) for card in sample]

        def on_groups(compiled: Any, groups: list[list[Card]] = groups) -> Iterable[Any]:
            return [compiled(group) for group in groups]

        def on_melds(compiled: Any, groups: list[list[Card]] = groups) -> Iterable[Any]:
            return [compiled([]), compiled([("run", groups[1])]),
                    compiled([("set", groups[2]), ("run", groups[3])])]

        values = {card.id: (index % 11) for index, card in enumerate(cards)}

        def value(card: Card, values: dict[int, int] = values) -> int:
            return values[card.id]

        playing = [RoundFacts(players=(0, 1), dealer=0, upcard=cards[5], card_value=value),
                   RoundFacts(players=(0, 1, 2), dealer=2, round=3, scores=(90, 10, -5), card_value=value)]
        ended = [
            RoundFacts(players=(0, 1, 2), dealer=2, round=3, upcard=None, ender=1, ending="knock",
                       deadwoods=(26, 2, 48), contracts=(True, False, True), scores=(90, 10, -5),
                       card_value=value, hand_values=(30, 2, 60), melded_of=lambda p: 10 * p),
            RoundFacts(players=(0, 1), dealer=1, upcard=cards[0], ender=0, ending="gin", deadwoods=(0, 31),
                       scores=(0, 0), contracts=(True, True), card_value=value, hand_values=(0, 40)),
            RoundFacts(players=(0, 1), dealer=0, upcard=cards[1], ender=None, ending="stock_end",
                       deadwoods=(12, 40), scores=(5, 0), contracts=(False, False), card_value=value,
                       hand_values=(20, 40)),
        ]

        def on_views(compiled: Any, views: list[Any]) -> Iterable[Any]:
            return [compiled(view, None, None) for view in _scored(views, compiled)]

        def on_players(compiled: Any, views: list[Any] = ended) -> Iterable[Any]:
            return [compiled(view, p, None) for view in _scored(views, compiled) for p in view.players]

        envs += [
            (Env(Context.CARD, deck, options), on_cards),
            (Env(Context.MELD, deck, options), on_groups),
            (Env(Context.CONTRACT, deck, options, meld_kinds=kinds), on_melds),
            (Env(Context.ROUND, deck, options), partial(on_views, views=playing)),
            (Env(Context.SCORE, deck, options, per_player=False), partial(on_views, views=ended)),
            (Env(Context.SCORE, deck, options, per_player=True), on_players),
        ]
    _EXPR_SETUP = envs
    return envs


_EXPR_SETUP: list[tuple[Any, Callable[[Any], Iterable[Any]]]] | None = None


def _scored(views: list[Any], compiled: Any) -> list[Any]:
    """The views a score expression may be asked about: a round that ended at the
    stock floor has no ender, and a formula that uses ``ender`` is not evaluated
    then (docs/language.md, the score context; ``check`` reports such a case)."""
    if "ender" in compiled.names:
        return [view for view in views if view.ender is not None]
    return views


def expr_target(data: bytes) -> None:
    """An expression: parsed, then compiled and evaluated in every context and deck.

    Only :class:`ExpressionError` escapes parsing, checking, compiling and
    evaluating, and a value has the type the checker gave it (an ``int``
    expression gives an ``int``, a ``bool`` one a ``bool``).
    """
    from rummydsl.expr import compile_expression, parse

    text = data.decode("utf-8", "replace")
    try:
        parse(text)
    except ExpressionError:
        return
    for env, run in _expr_setup():
        try:
            compiled = compile_expression(text, env)
        except ExpressionError:
            continue
        try:
            results = list(run(compiled))
        except ExpressionError:
            continue
        wanted = {"int": int, "bool": bool}.get(compiled.type.name)
        for result in results:
            if wanted is not None and type(result) is not wanted:
                raise Crash(f"{text!r} in {env.context.value}: the checker says {compiled.type}, "
                            f"the value is {result!r}")


# -- suite -------------------------------------------------------------------------


def suite_target(data: bytes) -> None:
    """A conformance suite file: loaded (only :class:`SuiteError` escapes), and each
    of its first cases run (nothing escapes: a case passes, fails or is skipped)."""
    from rummydsl.conformance.runner import run_case
    from rummydsl.conformance.suite import load_suite

    folder = _scratch() / "suites"
    folder.mkdir(exist_ok=True)
    path = folder / "fuzzed.suite.yaml"
    path.write_bytes(data)
    try:
        suite = load_suite(str(path))
    except SuiteError:
        return
    for case in suite.cases[:8]:
        run_case(case)


# -- action ------------------------------------------------------------------------


def action_input(variant: str, seed: int, steps: int, text: str) -> bytes:
    """The bytes of an ``action`` input (the inverse of :func:`_read_action_input`).

    >>> action_input("gin_rummy", 3, 12, "P1 draw stock")
    b'gin_rummy 3 12\\nP1 draw stock'
    """
    return f"{variant} {seed} {steps}\n{text}".encode("utf-8", "surrogatepass")


def _read_action_input(data: bytes) -> tuple[str, int, int, str]:
    """The variant, seed, steps and action text of an input (lenient: a header that
    does not read picks gin_rummy, seed 0, no steps)."""
    from rummydsl.variant import shipped_variant_ids

    head, _, rest = data.partition(b"\n")
    words = head.decode("utf-8", "replace").split()
    ids = shipped_variant_ids()
    if len(words) == 3 and words[0] in ids and words[1].isdigit() and words[2].isdigit():
        return words[0], int(words[1]) % 2**32, min(int(words[2]), 200), rest.decode("utf-8", "replace")
    return "gin_rummy", 0, 0, data.decode("utf-8", "replace")


def action_target(data: bytes) -> None:
    """An action text: parsed alone, then applied to a live round.

    Parsing raises only :class:`ActionError`; what parses prints as text that
    parses back to the same action. Applied to a round dealt with the seed and
    played ``STEPS`` random legal actions on, the action is played or refused with
    a family error, and a refused action leaves the round exactly as it was (a
    played one leaves a round that can list its next actions).
    """
    from rummydsl.engine.actions import parse_action
    from rummydsl.engine.round import Round
    from rummydsl.variant import load_variant

    name, seed, steps, text = _read_action_input(data)
    variant = load_variant(name)
    for players in sorted({variant.players, 4}):
        try:
            action = parse_action(text, variant.deck, players)
        except ActionError:
            continue
        again = parse_action(str(action), variant.deck, players)
        if again != action:
            raise Crash(f"{text!r} reads as {action!r}, which prints as {str(action)!r}, read back as {again!r}")
    rng = random.Random(seed)
    rnd = Round.deal(variant, rng, dealer=seed % variant.players)
    for _ in range(steps):
        legal = rnd.listed()
        if rnd.over or not legal:
            break
        rnd.apply(rng.choice(legal))
    before = rnd.to_json()
    try:
        rnd.apply(text)
    except RummyDslError:
        after = rnd.to_json()
        if after != before:
            changed = sorted(key for key in before if before[key] != after.get(key))
            raise Crash(f"{text!r} was refused but changed the round: {', '.join(changed)}") from None
        return
    rnd.to_json()  # a played action leaves a round that still describes itself and goes on
    rnd.listed()


# -- record ------------------------------------------------------------------------


def record_target(data: bytes) -> None:
    """A game record: replayed, raising only family errors."""
    from rummydsl.record import replay_record

    path = _scratch() / "fuzzed.jsonl"
    path.write_bytes(data)
    try:
        replay_record(str(path))
    except RummyDslError:
        pass


# -- cli ---------------------------------------------------------------------------

_FILE = "v.yaml"
"""The name, in a ``cli`` input's arguments, of the file made of the input's rest."""


def cli_input(argv: Sequence[str], file: bytes = b"") -> bytes:
    """The bytes of a ``cli`` input (the inverse of :func:`_read_cli_input`).

    >>> cli_input(["check", "v.yaml"], b"id: x")
    b'check\\x00v.yaml\\nid: x'
    """
    return "\0".join(argv).encode("utf-8", "surrogatepass") + b"\n" + file


def _read_cli_input(data: bytes) -> tuple[list[str], bytes]:
    head, _, file = data.partition(b"\n")
    argv = head.decode("utf-8", "replace").split("\0") if head else []
    return argv, file


_CLI_REFUSED = ("cmd:", "lsp", "--workers", "--mutants")
"""Arguments a fuzzed command line may not hold: they start programs or processes
(an agent program, the language server, worker processes, a mutants run)."""


def cli_target(data: bytes) -> None:
    """A command line and a file: ``main`` returns 0, 1 or 2 and prints no traceback.

    Counts are capped (``--games``/``--hands`` at most 3) so that one input is quick;
    arguments that start other programs are left out (:data:`_CLI_REFUSED`).
    """
    from rummydsl.cli import main

    argv, file = _read_cli_input(data)
    if any(word in argument for argument in argv for word in _CLI_REFUSED):
        return
    for flag in ("--games", "--hands"):
        if flag in argv[:-1]:
            at = argv.index(flag) + 1
            if argv[at].strip().isdigit() and int(argv[at]) > 3:
                return
    folder = _scratch() / "cli"
    folder.mkdir(exist_ok=True)
    (folder / _FILE).write_bytes(file)
    out, err = io.StringIO(), io.StringIO()
    cwd = os.getcwd()
    os.chdir(folder)
    try:
        code = main(argv, stdout=out, stderr=err, stdin=io.StringIO(""))
    except SystemExit as leaving:
        raise Crash(f"rummydsl {' '.join(argv)}: main exits ({leaving.code!r}) instead of returning") from None
    finally:
        os.chdir(cwd)
    if code not in (0, 1, 2):
        raise Crash(f"rummydsl {' '.join(argv)}: exit code {code!r}\n{err.getvalue()[-2000:]}")
    if "Traceback" in err.getvalue():
        raise Crash(f"rummydsl {' '.join(argv)}: a traceback on stderr\n{err.getvalue()[-2000:]}")


TARGETS: dict[str, Callable[[bytes], None]] = {
    "load": load_target,
    "expr": expr_target,
    "suite": suite_target,
    "action": action_target,
    "record": record_target,
    "cli": cli_target,
}
"""Each target's entry point, by the name of its corpus folder."""


def main(argv: Sequence[str]) -> int:
    """Run one target over files: ``python fuzz/targets.py TARGET FILE...`` (a crash raises)."""
    target = TARGETS[argv[0]]
    for name in argv[1:]:
        target(Path(name).read_bytes())
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
