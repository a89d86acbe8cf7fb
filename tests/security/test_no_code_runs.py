"""No code runs from a file (docs/security.md): YAML tags that would build Python objects
are refused, expressions cannot reach Python, and the package has no way to run text.

The last is a scan of the package's own source: no ``eval``, ``exec``, ``compile`` or
``__import__``, no unsafe YAML loading, no pickle; a new use must come through here
and docs/security.md.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from rummydsl.cards import Deck
from rummydsl.errors import ExpressionError, RummyDslError
from rummydsl.expr import Context, Env, check
from rummydsl.expr.contexts import CARD_ATTRIBUTES
from rummydsl.expr.parser import parse
from rummydsl.variant import check_file

from .conftest import run

PACKAGE = Path(__file__).resolve().parents[2] / "rummydsl"
GRAMMAR = Path(__file__).resolve().parents[2] / "spec" / "expr.lark"

TAGS = [
    "!!python/object/apply:os.system ['touch {marker}']",
    "!!python/object/new:subprocess.Popen [['touch', '{marker}']]",
    "!!python/name:os.system",
    "!!python/module:os",
    "!!python/object:builtins.object {{}}",
    "!<tag:yaml.org,2002:python/object/apply:os.system> ['touch {marker}']",
]


@pytest.mark.parametrize("tag", TAGS)
def test_a_variant_file_cannot_build_python_objects(tag: str, tmp_path: Path) -> None:
    marker = tmp_path / "ran"
    path = tmp_path / "evil.yaml"
    path.write_text(f"rummydsl: 1\nid: evil\nname: {tag.format(marker=marker)}\n", encoding="utf-8")
    code, out, err = run("check", str(path))
    assert code == 1 and ":3:7: YAML tag " in out and "is not allowed" in out
    assert not marker.exists()


@pytest.mark.parametrize("tag", TAGS[:2])
def test_a_suite_file_cannot_build_python_objects(tag: str, tmp_path: Path) -> None:
    marker = tmp_path / "ran"
    path = tmp_path / "evil.suite.yaml"
    path.write_text(f"suite: 1\nvariant: gin_rummy\ncases:\n  - id: {tag.format(marker=marker)}\n",
                    encoding="utf-8")
    code, out, err = run("test", str(path))
    assert code != 0 and "is not allowed" in out + err
    assert not marker.exists()


def test_an_extends_chain_cannot_build_python_objects(tmp_path: Path) -> None:
    marker = tmp_path / "ran"
    (tmp_path / "parent.yaml").write_text(
        f"rummydsl: 1\nid: parent\nname: !!python/object/apply:os.system ['touch {marker}']\n", encoding="utf-8")
    child = tmp_path / "child.yaml"
    child.write_text("rummydsl: 1\nid: child\nname: child\nextends: parent.yaml\n", encoding="utf-8")
    assert check_file(child)  # problems reported, nothing run
    assert not marker.exists()


ESCAPES = [
    "__import__('os')",
    "eval(1)",
    "exec(1)",
    "open(1)",
    "globals()",
    "rank.__class__",
    "card.__class__",
    "rank.__class__.__bases__",
    "suit.__dict__",
    "(1).__class__",
    "lambda: 1",
    "[x for x in hand]",
    "a[0]",
    "'text'",
    "1; 2",
    "getattr(rank, 'name')",
    "type(rank)",
    "__builtins__",
    "rank.value.__self__",
]


@pytest.mark.parametrize("context", [Context.CARD, Context.MELD, Context.SCORE])
@pytest.mark.parametrize("text", ESCAPES)
def test_expressions_cannot_reach_python(text: str, context: Context) -> None:
    """Every way out of the language is a located ExpressionError, before anything runs."""
    with pytest.raises(ExpressionError):
        check(parse(text), Env(context, Deck.preset("standard52")))


def test_the_grammar_has_no_strings_subscripts_or_lambdas() -> None:
    """The language cannot name a Python attribute or build code: no string literals,
    no indexing, no lambda; an attribute is a fixed table of card fields."""
    grammar = GRAMMAR.read_text(encoding="utf-8")
    rules = "\n".join(line for line in grammar.splitlines() if not line.lstrip().startswith("//"))
    for forbidden in ('"\'"', '"\\""', "STRING", '"lambda"', '"import"', '"["  expr "]"', "ESCAPED"):
        assert forbidden not in rules
    assert all(name.isidentifier() and not name.startswith("_") for name in CARD_ATTRIBUTES)


# ---------------------------------------------------------------------------- the source

FORBIDDEN_CALLS = {"eval", "exec", "compile", "__import__", "breakpoint"}
FORBIDDEN_MODULES = {"pickle", "marshal", "shelve", "dill", "ctypes", "code", "codeop"}
UNSAFE_YAML = {"load", "load_all", "unsafe_load", "unsafe_load_all", "full_load", "full_load_all"}
NETWORK_MODULES = {"socket", "ssl", "urllib", "http", "ftplib", "smtplib", "xmlrpc", "requests", "httpx",
                   "aiohttp", "webbrowser"}
PROCESS_MODULES = {"subprocess": {"rummydsl/protocol.py", "rummydsl/llm/agent.py"}}
"""Modules that start programs, and the files allowed to: the program agents, ``cmd:PROGRAM``
(protocol.py) and ``llm:PROGRAM`` (llm/agent.py), each starting only the program its user
named on the command line."""
ALLOWED_FORBIDDEN = {"ctypes": {"rummydsl/protocol.py"}, "socket": {"rummydsl/cli/serve.py"}}
"""Forbidden modules one file may use, and why: protocol.py calls libc's ``prctl`` (a child
subreaper, so a program agent's orphans can be killed; docs/security.md); cli/serve.py
binds the one listening socket of ``rummydsl serve`` (127.0.0.1 unless ``--host`` says
otherwise; docs/security.md, "No network") and opens no other."""


def source_files() -> list[Path]:
    files = sorted(PACKAGE.rglob("*.py"))
    assert len(files) > 20
    return files


def test_the_package_never_runs_text_as_code_nor_uses_the_network() -> None:
    """No eval/exec/compile/__import__, no unsafe YAML load, no pickle; no network module;
    programs started only by the program agents (rummydsl/protocol.py, rummydsl/llm/agent.py)."""
    problems = []
    for path in source_files():
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        where = path.relative_to(PACKAGE.parent)
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in FORBIDDEN_CALLS:
                problems.append(f"{where}:{node.lineno}: calls {node.func.id}()")
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and isinstance(node.func.value, ast.Name) and node.func.value.id == "yaml"
                    and node.func.attr in UNSAFE_YAML):
                problems.append(f"{where}:{node.lineno}: yaml.{node.func.attr}() can build objects")
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                names = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module or ""]
                for name in names:
                    top = name.split(".")[0]
                    if top in ALLOWED_FORBIDDEN and str(where) in ALLOWED_FORBIDDEN[top]:
                        continue
                    if top in FORBIDDEN_MODULES or top in NETWORK_MODULES:
                        problems.append(f"{where}:{node.lineno}: imports {name}")
                    if top in PROCESS_MODULES and str(where) not in PROCESS_MODULES[top]:
                        problems.append(f"{where}:{node.lineno}: imports {name} (only program agents start programs)")
            if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "os"
                    and node.attr in ("system", "popen", "execv", "execvp", "spawnv", "fork", "startfile")):
                problems.append(f"{where}:{node.lineno}: os.{node.attr}")
    assert problems == []


def test_a_bad_variant_is_reported_not_raised(tmp_path: Path) -> None:
    """An untrusted file's problems are family errors or diagnostics, never a crash."""
    path = tmp_path / "deep.yaml"
    path.write_text("rummydsl: 1\nid: deep\nname: x\nknock: {limit: \"" + "(" * 5000 + "1" + ")" * 5000 + "\"}\n",
                    encoding="utf-8")
    try:
        diagnostics = check_file(path)
    except RummyDslError:  # pragma: no cover - a family error is fine too
        return
    assert diagnostics


def test_ctypes_calls_only_prctl() -> None:
    """The one file allowed ctypes (protocol.py) uses it for one call: prctl, to become a
    child subreaper."""
    tree = ast.parse((PACKAGE / "protocol.py").read_text(encoding="utf-8"))
    called = {node.func.attr for node in ast.walk(tree) if isinstance(node, ast.Call)
              and isinstance(node.func, ast.Attribute) and isinstance(node.func.value, ast.Name)
              and node.func.value.id in ("ctypes", "libc")}
    assert called == {"CDLL", "prctl"}
