"""Text from a file on a terminal (issue 17, section 2): control characters are shown
escaped wherever a file's text is printed, lone surrogates are refused where they are
written, ``check`` prints N problems in time linear in N, and the language server holds
a client's positions to the text."""

from __future__ import annotations

import io
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from rummydsl.cli import main
from rummydsl.resources import variants_dir
from rummydsl.safetext import SafeStream, safe_text

GIN = (variants_dir() / "gin_rummy.yaml").read_text(encoding="utf-8")

RAW = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\ud800-\udfff]")
"""What no command may print: C0 but tab and newline, DEL, C1, bidi controls, surrogates."""


def run(*argv: str, stdin: str = "") -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), stdout=out, stderr=err, stdin=io.StringIO(stdin))
    return code, out.getvalue(), err.getvalue()


def no_raw_controls(text: str) -> None:
    found = RAW.search(text)
    assert found is None, f"raw {found.group()!r} printed: {text[max(found.start() - 40, 0):found.end() + 40]!r}"
    assert "Traceback" not in text


def variant(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8", newline="")
    return path


def described(text: str, description: str) -> str:
    """``text`` (gin_rummy) with its description written as ``description`` (YAML source)."""
    return re.sub(r"(?m)^description: >-\n(  .*\n)+", lambda _: f"description: {description}\n", text, count=1)


def line_of(text: str, fragment: str) -> int:
    return text[:text.index(fragment)].count("\n") + 1


def renamed(name: str) -> str:
    """gin_rummy with its name line written as ``name`` (YAML source)."""
    return GIN.replace("name: Gin Rummy", f"name: {name}", 1)


# -- the function --------------------------------------------------------------------

@pytest.mark.parametrize("char,shown", [
    ("\x1b", "\\x1b"), ("\x07", "\\x07"), ("\x00", "\\x00"), ("\r", "\\r"), ("\x0b", "\\x0b"),
    ("\x7f", "\\x7f"), ("\x80", "\\x80"), ("\x85", "\\x85"), ("\x9b", "\\x9b"), ("\x9f", "\\x9f"),
    ("\u202a", "\\u202a"), ("\u202e", "\\u202e"), ("\u2066", "\\u2066"), ("\u2069", "\\u2069"),
    ("\ud800", "\\ud800"), ("\udfff", "\\udfff"),
])
def test_safe_text_escapes_what_a_terminal_obeys(char: str, shown: str) -> None:
    assert safe_text(f"a{char}b") == f"a{shown}b"
    assert safe_text(f"a{char}b").isascii()


@pytest.mark.parametrize("text", ["plain", "tab\there", "two\nlines", "Rommé ♠♥ – “quoted” \u00a0 \u200b",
                                  "\u202f\u2028"])
def test_safe_text_keeps_ordinary_text(text: str) -> None:
    assert safe_text(text) == text


def test_a_line_of_text_escapes_its_newlines_too() -> None:
    assert safe_text("one\ntwo", lines=False) == "one\\ntwo"
    out = io.StringIO()
    SafeStream(out).write("\x1b[2J\n")
    assert out.getvalue() == "\\x1b[2J\n"


# -- where a file's text is printed ------------------------------------------------------

def test_check_shows_the_source_line_escaped_with_the_caret_under_the_character(tmp_path: Path) -> None:
    """Regression (issue 17): the caret snippet printed the file's line raw, so a file
    could set the terminal's title and clear its screen."""
    path = variant(tmp_path, "raw.yaml", renamed("Gin \x1b]0;pwned\x07\x1b[2J Rummy"))
    code, out, err = run("check", str(path))
    no_raw_controls(out + err)
    lines = out.splitlines()
    first = next(i for i, line in enumerate(lines) if "control character U+001B" in line)
    assert lines[first].startswith(f"{path}:{line_of(GIN, 'name: Gin')}:11: ")
    assert lines[first + 1] == "    name: Gin \\x1b]0;pwned\\x07\\x1b[2J Rummy"
    assert lines[first + 2] == "    " + " " * 10 + "^"  # under the \ of \x1b, the 11th character
    # a bidi override in an unknown key: escaped in the message and in the snippet
    path = variant(tmp_path, "bidi.yaml", GIN + "\x1b\u202ebad: 1\n".replace("\x1b", "x"))
    code, out, err = run("check", str(path))
    no_raw_controls(out + err)
    assert "    x\\u202ebad: 1" in out


def test_a_long_line_s_window_is_escaped_too(tmp_path: Path) -> None:
    path = variant(tmp_path, "long.yaml", GIN + "x" * 300 + "\x9b\x1b[2J: 1\n")
    code, out, err = run("check", str(path))
    no_raw_controls(out + err)
    assert "\\x9b" in out and code == 1


@pytest.mark.parametrize("markdown", [False, True], ids=["text", "markdown"])
def test_explain_shows_names_and_descriptions_escaped(tmp_path: Path, markdown: bool) -> None:
    """Regression (issue 17): explain printed a variant's name and description raw."""
    text = described(renamed(r'"Gin\e]0;pwned\a\e[2J \x9b2J \u202eyxalag"'),
                     '"a \\e[31mred\\x85 \\x90 rule \\u2066x\\u2069."')
    path = variant(tmp_path, "named.yaml", text)
    argv = ["explain", str(path)] + (["--markdown"] if markdown else [])
    code, out, err = run(*argv)
    assert code == 0, err
    no_raw_controls(out + err)
    assert "Gin\\x1b]0;pwned\\x07\\x1b[2J \\x9b2J \\u202eyxalag" in out
    assert "\\x1b[31mred" in out
    if not markdown:  # the underline is as long as the title as shown
        title, underline = out.splitlines()[:2]
        assert len(underline) == len(title)
    from rummydsl.explainer import explain
    from rummydsl.variant import load_variant

    assert RAW.search(explain(load_variant(str(path)), markdown=markdown)) is None  # the library's text too


def test_suite_reports_show_descriptions_escaped(tmp_path: Path) -> None:
    """Regression (issue 17): a suite report printed a case's description raw."""
    suite = tmp_path / "s.suite.yaml"
    suite.write_text('variant: gin_rummy\ncases:\n- id: c1\n  description: "a case \\e]0;title\\a\\e[2J \\x85"\n'
                     "  meld: 7H 8H 9H\n  expect: {valid: false}\n", encoding="utf-8")
    code, out, err = run("test", str(suite))
    assert code == 1
    no_raw_controls(out + err)
    assert "a case \\x1b]0;title\\x07\\x1b[2J \\x85" in out


def test_the_pytest_plugin_shows_descriptions_escaped(pytester: pytest.Pytester) -> None:
    """A suite run by pytest (the ``pytest11`` plugin) reports through the same escaping.
    The session is pytester's, in this process (as tests/acceptance/test_conformance_tool.py
    runs the plugin): a second interpreter and pytest's start-up would add nothing the
    report's text does not show."""
    suite = pytester.path / "p.suite.yaml"
    suite.write_text('variant: gin_rummy\ncases:\n- id: c1\n  description: "a case \\e]0;title\\a\\e[2J \\x85"\n'
                     "  meld: 7H 8H 9H\n  expect: {valid: false}\n", encoding="utf-8")
    done = pytester.runpytest("-q", "-p", "no:cacheprovider", str(suite))
    text = done.stdout.str() + done.stderr.str()
    assert done.ret == 1 and "1 failed" in text, text
    no_raw_controls(text)
    assert "a case \\x1b]0;title\\x07\\x1b[2J \\x85" in text


def test_play_and_simulate_show_a_name_escaped(tmp_path: Path) -> None:
    path = variant(tmp_path, "named.yaml", renamed(r'"Gin \e[2J\x9b"'))
    code, out, err = run("simulate", str(path), "--games", "2", "--seed", "1")
    assert code == 0, err
    no_raw_controls(out + err)
    code, out, err = run("play", str(path), "--seed", "1", stdin="quit\n")
    no_raw_controls(out + err)


def test_progress_keeps_its_own_carriage_return() -> None:
    """rummydsl's own terminal control (the progress line's ``\\r``) is not escaped."""
    from rummydsl.progress import Progress

    out = io.StringIO()
    bar = Progress(SafeStream(out), 10, force=True, clock=lambda: 0.0)  # type: ignore[arg-type]
    assert bar.stream is out


# -- lone surrogates -------------------------------------------------------------------

SURROGATES = [
    ("name", renamed(r'"Gin \ud800 Rummy"'), "name: ", 7, "\\ud800"),
    ("description", described(GIN, r'"two \udfff"'), "description: ", 14, "\\udfff"),
    ("key", GIN + '"k\\udc00": 1\n', '"k\\udc00', 1, "\\udc00"),
    ("in a list", GIN.replace("rules: [GR-1,", 'rules: ["\\ud800", GR-1,', 1), "rules: [", 9, "\\ud800"),
]


@pytest.mark.parametrize("where,text,marker,column,escape", SURROGATES, ids=[s[0] for s in SURROGATES])
def test_a_lone_surrogate_is_refused_where_it_is_written(tmp_path: Path, where: str, text: str, marker: str,
                                                         column: int, escape: str) -> None:
    """Regression (issue 17): "\\ud800" in a name or description passed check and crashed
    explain and test with UnicodeEncodeError; a string that is not Unicode is refused."""
    path = variant(tmp_path, "s.yaml", text)
    place = f"{line_of(text, marker)}:{column}"
    for command in ("check", "explain"):
        code, out, err = run(command, str(path))
        assert code == 1, (command, out, err)
        no_raw_controls(out + err)
        assert (f"{path}:{place}: not Unicode text: the escape '{escape}' is half of a surrogate pair "
                "(a lone surrogate)") in out + err, out + err
    suite = tmp_path / "s.suite.yaml"
    suite.write_text(f"variant: {path.name}\ncases:\n- id: c\n  meld: 7H 8H 9H\n  expect: {{valid: true}}\n",
                     encoding="utf-8")
    code, out, err = run("test", str(suite))
    assert code == 1 and "not Unicode text" in out + err
    no_raw_controls(out + err)


def test_a_lone_surrogate_in_a_suite_is_refused(tmp_path: Path) -> None:
    suite = tmp_path / "s.suite.yaml"
    suite.write_text('variant: gin_rummy\ncases:\n- id: c\n  description: "a \\ud800"\n  meld: 7H 8H 9H\n'
                     "  expect: {valid: true}\n", encoding="utf-8")
    code, out, err = run("test", str(suite))
    assert code == 1
    assert f"{suite}:4:16: not Unicode text: the escape '\\ud800'" in out + err
    no_raw_controls(out + err)


def test_a_surrogate_pair_written_as_one_escape_is_fine(tmp_path: Path) -> None:
    path = variant(tmp_path, "ok.yaml", renamed(r'"Gin \U0001F0A1 Rummy"'))
    code, out, err = run("explain", str(path))
    assert code == 0 and "Gin \U0001f0a1 Rummy" in out


@pytest.mark.parametrize("encoding", ["ascii", "latin-1"])
def test_no_command_fails_to_print_under_a_narrow_encoding(tmp_path: Path, encoding: str) -> None:
    """Under an ASCII or Latin-1 terminal, what the encoding cannot hold is written as
    a backslash escape, not a UnicodeEncodeError traceback."""
    path = variant(tmp_path, "wide.yaml", renamed('"Gin ♠ “Rummy” \\u202e"'))
    env = dict(os.environ, PYTHONIOENCODING=encoding)
    for argv in (["explain", str(path)], ["check", str(tmp_path / "nope ♠.yaml")]):
        command = [sys.executable, "-c", "import sys; from rummydsl.cli import main; sys.exit(main())", *argv]
        done = subprocess.run(command, capture_output=True, env=env, timeout=600)
        text = (done.stdout + done.stderr).decode(encoding)
        assert done.returncode in (0, 1) and "Traceback" not in text, text
        assert "\\u2660" in text or "\\xe2" in text or "\\u202e" in text


# -- time: check prints N problems in linear time ----------------------------------------

def test_check_splits_each_file_once_however_many_problems(tmp_path: Path, monkeypatch: Any) -> None:
    """Regression (issue 17): check split the source again for every problem it printed
    (20,000 unknown keys in a 256 KiB file: over 60 s). The work is counted, not timed."""
    from rummydsl.variant import load_read

    calls: list[int] = []
    real = load_read.split_lines

    def counting(text: str) -> list[str]:
        calls.append(len(text))
        return real(text)

    monkeypatch.setattr(load_read, "split_lines", counting)
    for keys in (10, 400):
        path = variant(tmp_path, f"keys{keys}.yaml", GIN + "".join(f"u{i}: 1\n" for i in range(keys)))
        calls.clear()
        code, out, err = run("check", str(path))
        assert code == 1 and f"{keys} errors" in out
        assert out.count("    ^") == keys  # every problem has its snippet
        assert len(calls) <= 1, f"the source was split {len(calls)} times for {keys} problems"


# -- the language server's positions ------------------------------------------------------

def test_a_completion_far_past_the_end_is_held_to_the_text(monkeypatch: Any) -> None:
    """Regression (issue 17): a completion at line 10**9 took minutes (the text was padded
    with empty lines up to it); positions are held to the text, and the work counted."""
    from rummydsl.lsp import features

    text = "rummydsl: 1\nid: h\nextends: gin_rummy\nname: H\ngame:\n  target: 150\n"
    seen: list[int] = []
    real = features.place_at

    def counting(lines: Any, line: int, column: int) -> Any:
        seen.append(len(lines))
        return real(lines, line, column)

    monkeypatch.setattr(features, "place_at", counting)
    near = [c.label for c in features.completions("/nowhere/h.yaml", text, 6, 0)]
    far = [c.label for c in features.completions("/nowhere/h.yaml", text, 10**6, 10**6)]
    huge = [c.label for c in features.completions("/nowhere/h.yaml", text, 10**9, -3)]
    assert far == near == huge and "deal" in near
    assert max(seen) <= text.count("\n") + 1, seen
    assert features.hover("/nowhere/h.yaml", text, 5, 10**9) is None or True  # no error past a line's end
    assert features.hover("/nowhere/h.yaml", text, 10**9, 0) is None
    assert features.definition("/nowhere/h.yaml", text, 10**9, 10**9) is None
