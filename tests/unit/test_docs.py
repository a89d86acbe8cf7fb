"""docs/ stays true: the language reference covers every key of the schema and every
name and function of the expression checker, and every YAML example in docs/ and
the README checks clean (a full variant as it is, a fragment as a house rule)."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path
from typing import Any, Iterator

import pytest

from rummydsl.cli import main
from rummydsl.expr import Context, context_functions, context_names
from rummydsl.resources import read_spec_text
from rummydsl.variant import check_file

REPO = Path(__file__).resolve().parents[2]
DOCS = sorted((REPO / "docs").glob("*.md")) + [REPO / "README.md"]
LANGUAGE = (REPO / "docs" / "language.md").read_text(encoding="utf-8")


def schema_keys(node: Any) -> Iterator[str]:
    """Every property name the variant schema accepts, at any depth."""
    if isinstance(node, dict):
        for name in node.get("properties", {}):
            yield name
        for value in node.values():
            yield from schema_keys(value)
    elif isinstance(node, list):
        for value in node:
            yield from schema_keys(value)


SCHEMA_KEYS = sorted(set(schema_keys(json.loads(read_spec_text("variant.schema.json")))))


@pytest.mark.parametrize("key", SCHEMA_KEYS)
def test_language_reference_covers_schema_key(key: str) -> None:
    assert f"`{key}`" in LANGUAGE or f"`{key}:" in LANGUAGE, f"docs/language.md never mentions `{key}`"


EXPRESSION_NAMES = sorted({(context.value, name) for context in Context
                           for name in context_names(context, True) + context_functions(context)})


@pytest.mark.parametrize("context,name", EXPRESSION_NAMES)
def test_language_reference_covers_expression_name(context: str, name: str) -> None:
    assert re.search(rf"`{re.escape(name)}[`(]", LANGUAGE), f"docs/language.md never mentions `{name}`"


def yaml_blocks() -> Iterator[tuple[str, str, str]]:
    """(doc name and block number, the block, the variant it extends if a fragment)."""
    for doc in DOCS:
        text = doc.read_text(encoding="utf-8")
        parent = "gin_rummy"
        number = 0
        suite = False
        for match in re.finditer(r"<!-- extends: (\w+) -->|<!-- (suite) -->|```yaml\n(.*?)```", text, re.S):
            if match.group(1):
                parent = match.group(1)
                continue
            if match.group(2):
                suite = True
                continue
            number += 1
            if suite:
                SUITE_BLOCKS.append((f"{doc.name}#{number}", match.group(3)))
                suite = False
                continue
            yield f"{doc.name}#{number}", match.group(3), parent


SUITE_BLOCKS: list[tuple[str, str]] = []
"""``yaml`` blocks marked ``<!-- suite -->``: conformance suites, run as suites."""


BLOCKS = list(yaml_blocks())


@pytest.mark.parametrize("name,block,parent", BLOCKS, ids=[b[0] for b in BLOCKS])
def test_docs_yaml_example_checks_clean(name: str, block: str, parent: str, tmp_path: Path) -> None:
    if re.search(r"^rummydsl:", block, re.M):
        text = block
    else:
        text = f"rummydsl: 1\nid: doc_example\nextends: {parent}\nname: Doc example\n{block}"
    path = tmp_path / "example.yaml"
    path.write_text(text, encoding="utf-8")
    errors = [str(d) for d in check_file(str(path)) if d.severity == "error"]
    assert errors == [], f"{name} does not check:\n{text}"


@pytest.mark.parametrize("name,block", SUITE_BLOCKS, ids=[b[0] for b in SUITE_BLOCKS])
def test_docs_suite_example_passes(name: str, block: str, tmp_path: Path) -> None:
    from rummydsl.conformance import load_suite, run_case

    path = tmp_path / "example.suite.yaml"
    path.write_text(block, encoding="utf-8")
    failures = [r.report() for r in map(run_case, load_suite(str(path)).cases) if not r.passed]
    assert failures == [], f"{name}:\n" + "\n".join(failures)


def test_conformance_doc_covers_every_suite_key() -> None:
    doc = (REPO / "docs" / "conformance.md").read_text(encoding="utf-8")
    keys = sorted(set(schema_keys(json.loads(read_spec_text("conformance.schema.json")))))
    missing = [key for key in keys if f"`{key}`" not in doc]
    assert missing == [], f"docs/conformance.md never mentions {missing}"


def test_tutorial_error_example_is_what_check_prints(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    tutorial = (REPO / "docs" / "tutorial.md").read_text(encoding="utf-8")
    final = [block for name, block, _ in BLOCKS if name.startswith("tutorial.md")][-1]
    (tmp_path / "kitchen_gin.yaml").write_text(final.replace("rank ==", "rnak =="), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    out = io.StringIO()
    assert main(["check", "kitchen_gin.yaml"], stdout=out, stderr=io.StringIO()) == 1
    shown = tutorial.split("$ rummydsl check kitchen_gin.yaml\n")[2].split("```")[0]
    assert out.getvalue() == shown


def test_readme_error_example_is_what_check_prints(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    shown = readme.split("$ rummydsl check my_house_rule.yaml\n")[1].split("```")[0]
    source_line = shown.splitlines()[1].strip()
    (tmp_path / "my_house_rule.yaml").write_text(
        "rummydsl: 1\nid: my_house_rule\nextends: gin_rummy\nname: Mine\n\n\n\nmelds:\n  " + source_line + "\n",
        encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    out = io.StringIO()
    assert main(["check", "my_house_rule.yaml"], stdout=out, stderr=io.StringIO()) == 1
    assert out.getvalue() == shown


ERRORS = (REPO / "docs" / "errors.md").read_text(encoding="utf-8")
CATALOGUED = set(re.findall(r"^\| `([a-z-]+)` \|", ERRORS, re.M))
SOURCE = "\n".join(p.read_text(encoding="utf-8") for p in (REPO / "rummydsl").rglob("*.py"))


def test_error_catalogue_covers_every_golden_rule() -> None:
    emitted = set()
    for golden in (REPO / "tests" / "examples" / "bad").glob("*.expected"):
        emitted |= set(re.findall(r"\[([a-z-]+)\]$", golden.read_text(encoding="utf-8"), re.M))
    assert emitted, "no golden files found"
    assert emitted - CATALOGUED == set()


@pytest.mark.parametrize("rule", sorted(CATALOGUED))
def test_catalogued_rule_exists_in_the_code(rule: str) -> None:
    assert f'"{rule}"' in SOURCE, f"docs/errors.md lists {rule!r}, which the code never reports"


RULES_MD = REPO.parent / "shared" / "RULES.md"


@pytest.mark.skipif(not RULES_MD.exists(), reason="../shared/RULES.md is not beside the repository")
def test_options_doc_maps_every_option_of_the_index() -> None:
    index = RULES_MD.read_text(encoding="utf-8").split("## Option index")[1].split("\n## ")[0]
    doc = (REPO / "docs" / "options.md").read_text(encoding="utf-8")
    for prefix in ("GR", "SK", "GS"):
        listed = re.search(rf"^{prefix}: (.*?)\.$", index, re.M | re.S)
        assert listed, prefix
        names = [n.strip() for n in listed.group(1).replace("\n", " ").split(",")]
        section = doc.split(f"({prefix})")[1].split("\n## ")[0]
        documented = set(re.findall(r"^\| (\w+) \|", section, re.M))
        assert set(names) <= documented, f"{prefix}: not in docs/options.md: {set(names) - documented}"


RULES_FAMILY_MD = REPO.parent / "shared" / "RULES-FAMILY.md"
FAMILY_GAMES = ("KR", "BR", "R5", "G3", "CR")


def family_options(prefix: str) -> set[str]:
    """The ``[OPT name = ...]`` names of one game's section of RULES-FAMILY.md."""
    text = RULES_FAMILY_MD.read_text(encoding="utf-8")
    section = re.search(rf"^## {prefix} —(.*?)(?=^## |\Z)", text, re.M | re.S)
    assert section, f"RULES-FAMILY.md has no section {prefix}"
    return set(re.findall(r"\[OPT (\w+) = ", section.group(1)))


def shipped_games() -> set[str]:
    """The family games (KR, BR, ...) whose ids some shipped variant lists in ``rules:``."""
    from rummydsl.variant import load_variant, shipped_variant_ids

    return {rule.split("-")[0] for variant_id in shipped_variant_ids()
            for rule in load_variant(variant_id).rules}


@pytest.mark.skipif(not RULES_FAMILY_MD.exists(), reason="../shared/RULES-FAMILY.md is not beside the repository")
@pytest.mark.parametrize("prefix", FAMILY_GAMES)
def test_options_doc_maps_every_family_option(prefix: str) -> None:
    """Every family game ships, and its options are in docs/options.md (issue 11)."""
    doc = (REPO / "docs" / "options.md").read_text(encoding="utf-8")
    family = doc.split("\n## The rummy family\n")[1]
    section = family.split(f"({prefix})")[1].split("\n### ")[0].split("\n## ")[0]
    documented = set(re.findall(r"^\| (\w+) \|", section, re.M)) - {"option"}
    names = family_options(prefix)
    assert names, prefix
    assert prefix in shipped_games(), f"no shipped variant lists the {prefix}- rule ids"
    assert documented <= names, f"{prefix}: docs/options.md lists options RULES-FAMILY.md does not"
    assert names <= documented, f"{prefix}: not in docs/options.md: {names - documented}"


def test_readme_lists_every_shipped_variant() -> None:
    from rummydsl.variant import shipped_variant_ids

    readme = (REPO / "README.md").read_text(encoding="utf-8")
    listed = readme.split("VARIANT is a shipped variant id (")[1].split(")")[0]
    assert sorted(re.findall(r"`(\w+)`", listed)) == shipped_variant_ids()


def test_readme_melds_example_is_what_melds_prints() -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    command, shown = readme.split("$ rummydsl melds ")[1].split("```")[0].split("\n", 1)
    out = io.StringIO()
    assert main(["melds", *command.split()], stdout=out, stderr=io.StringIO()) == 0
    assert out.getvalue() == shown


def schema_paths(node: Any, defs: dict[str, Any], path: str = "") -> Iterator[str]:
    """Every key path of the variant schema (``deal.hand_size``, ``turn[].draw.from``)."""
    if "$ref" in node:
        yield from schema_paths(defs[node["$ref"].split("/")[-1]], defs, path)
        return
    for key in ("oneOf", "anyOf"):
        for sub in node.get(key, []):
            yield from schema_paths(sub, defs, path)
    for name, sub in node.get("properties", {}).items():
        here = f"{path}.{name}" if path else name
        yield here
        yield from schema_paths(sub, defs, here)
    if isinstance(node.get("items"), dict):
        yield from schema_paths(node["items"], defs, path + "[]")


def test_engine_doc_maps_every_schema_key_to_a_test_that_exists() -> None:
    """docs/engine.md: a row per key of the schema, each naming a test that exists."""
    schema = json.loads(read_spec_text("variant.schema.json"))
    keys = set(schema_paths(schema, schema["$defs"]))
    doc = (REPO / "docs" / "engine.md").read_text(encoding="utf-8")
    rows = dict(re.findall(r"^\| `([^`]+)` \| [^|]+ \| (.+) \|$", doc, re.M))
    assert sorted(keys - set(rows)) == [], "schema keys with no row in docs/engine.md"
    assert sorted(set(rows) - keys) == [], "rows of docs/engine.md for keys the schema does not have"
    for key, refs in rows.items():
        for ref in re.findall(r"`([^`]+)`", refs):
            file, _, name = ref.partition("::")
            source = REPO / file
            assert source.is_file(), f"{key}: {file} does not exist"
            assert re.search(rf"^def {re.escape(name)}\(", source.read_text(encoding="utf-8"), re.M), \
                f"{key}: no test {name} in {file}"


@pytest.mark.parametrize("doc", [d for d in DOCS if ">>> " in d.read_text(encoding="utf-8")],
                         ids=lambda d: d.name)
def test_docs_interactive_examples_run(doc: Path) -> None:
    """Every ``>>>`` example in docs/ prints what the page shows."""
    import doctest

    if doc.name == "environments.md":  # its examples drive PettingZoo, Gymnasium and OpenSpiel
        pytest.importorskip("pettingzoo")
        pytest.importorskip("pyspiel")

    failures, _ = doctest.testfile(str(doc), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert failures == 0


def test_readme_test_command_is_the_one_ci_runs() -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    second = readme.split("```sh\n")[1].splitlines()[1]
    command = second.rsplit("&& ", 1)[1]
    ci = (REPO / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    assert any(line.split("#")[0].strip() == command for line in ci), command
    extras = re.search(r"pip install '(\.\[[^\]]*\])'", second)
    assert extras and any(f'pip install --quiet "{extras[1]}"' in line for line in ci), \
        "the README installs the extras .ci/run installs"


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: p.name)
def test_no_page_holds_a_section_twice(doc: Path) -> None:
    """A merge once pasted docs/performance.md's engine sections in a second time."""
    headings = [line for line in doc.read_text(encoding="utf-8").splitlines() if line.startswith("## ")]
    assert len(headings) == len(set(headings)), sorted(h for h in headings if headings.count(h) > 1)
    text = doc.read_text(encoding="utf-8")
    paragraphs = [p for p in text.split("\n\n") if len(p) > 400 and not p.startswith("|")]
    assert len(paragraphs) == len(set(paragraphs)), "a long paragraph appears twice"


def notation_examples() -> list[tuple[str, str, str]]:
    """(deck preset, the text as written, the text it must print as) of docs/notation.md."""
    text = (REPO / "docs" / "notation.md").read_text(encoding="utf-8")
    found = []
    for preset, block in re.findall(r"<!-- notation: (\w+) -->\n```notation\n(.*?)```", text, re.S):
        for line in block.splitlines():
            written, _, printed = line.partition(" = ")
            found.append((preset, written.strip(), (printed or written).strip()))
    return found


NOTATION = notation_examples()


@pytest.mark.parametrize("preset,written,printed", NOTATION, ids=[f"{p}:{w}" for p, w, _ in NOTATION])
def test_notation_example_reads_and_prints_back(preset: str, written: str, printed: str) -> None:
    from rummydsl.cards import Deck
    from rummydsl.engine.actions import parse_action

    deck = Deck.preset(preset)
    if " " in written:
        assert str(parse_action(written, deck, 4)) == printed
    else:
        assert str(deck.parse_card(written)) == printed


def test_notation_is_in_docs_and_nobody_sends_readers_to_design_md() -> None:
    """The notation is docs/notation.md; DESIGN.md is not in the repository."""
    assert len(NOTATION) > 20
    for doc in DOCS:
        for number, line in enumerate(doc.read_text(encoding="utf-8").splitlines(), start=1):
            if "DESIGN.md" in line:
                assert not re.search(r"notation|`P\d |cards are written", line, re.I), \
                    f"{doc.name}:{number} sends readers to DESIGN.md for the notation: {line}"


def test_the_top_level_table_of_the_language_reference_lists_every_top_level_key() -> None:
    """A newcomer found `melded_value` and `buying` in their own sections but not in the table."""
    schema = json.loads((REPO / "spec" / "variant.schema.json").read_text(encoding="utf-8"))
    text = (REPO / "docs" / "language.md").read_text(encoding="utf-8")
    table = text.split("## Top level\n")[1].split("\n## ")[0]
    listed = set(re.findall(r"^\| `(\w+)` \|", table, re.M))
    assert set(schema["properties"]) - listed == set()
