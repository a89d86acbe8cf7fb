"""The language server's answers as plain data (rummydsl.lsp.place, .features,
.reference), without a client: where the cursor is in half-typed YAML, and that
every expression name has hover text from docs/language.md."""

from __future__ import annotations

import pytest

from rummydsl.expr import Context, context_functions, context_names
from rummydsl.lsp.features import completions, diagnostics, expression_context, hover, schema_key_paths
from rummydsl.lsp.place import place_at
from rummydsl.lsp.reference import expression_help

PLACES = [
    ("deck: {preset: standard52, ac|}", ("deck",), "key", "ac"),
    ("turn: [draw: {from: [st|]}]", ("turn", 0, "draw", "from", 0), "item", "st"),
    ("turn:\n  - draw:\n      from: [stock]\n      sk|", ("turn", 0, "draw"), "key", "sk"),
    ('scoring:\n  round:\n    - when: gin\n      ender: "gin_bo|"', ("scoring", "round", 0, "ender"), "value",
     "gin_bo"),
    ("scoring:\n  round:\n    - when: gin\n      |", ("scoring", "round", 0), "key", ""),
    ("knock:\n  limit: >-\n    upcard.ra|", ("knock", "limit"), "value", "ra"),
    ("turn:\n  - dr|", ("turn", 0), "item", "dr"),
    ("game:\n  shutout: do|", ("game", "shutout"), "value", "do"),
    ("game:\n  target: 100\n  |", ("game",), "key", ""),
    ("game:\n  target: 100\n|", (), "key", ""),
    ("game: # a comm|", (), "comment", ""),
    ("'quoted key': {a|", ("quoted key",), "key", "a"),
]


@pytest.mark.parametrize("source,path,role,word", PLACES, ids=[p[0] for p in PLACES])
def test_place_at_the_cursor(source: str, path: tuple[object, ...], role: str, word: str) -> None:
    lines = source.split("\n")
    line = next(i for i, text in enumerate(lines) if "|" in text)
    column = lines[line].index("|")
    lines[line] = lines[line].replace("|", "")
    place = place_at(lines, line, column)
    assert (place.path, place.role, place.word) == (path, role, word)


@pytest.mark.parametrize("context,name", sorted({(c.value, n) for c in Context
                                                 for n in context_names(c, True) + context_functions(c)}))
def test_every_expression_name_has_hover_text(context: str, name: str) -> None:
    text = expression_help(context, name)
    assert text is not None and f"`{name}" in text


def test_expression_contexts_of_fields() -> None:
    assert expression_context(("card_value",)) == "card"
    assert expression_context(("turn", 0, "draw", "skip_after_accepting")) == "card"
    assert expression_context(("melds", "poker", "pattern")) == "meld"
    assert expression_context(("contract", "melds")) == "contract"
    assert expression_context(("melded_value",)) == "melded"
    assert expression_context(("knock", "limit")) == "round"
    assert expression_context(("deal", "hand_size")) == "deal"
    assert expression_context(("scoring", "let", "k")) == "score"
    assert expression_context(("scoring", "round", 2, "others")) == "score"
    assert expression_context(("scoring", "round", 2, "rule")) is None
    assert expression_context(("melds",)) is None


def test_broken_yaml_is_a_diagnostic_not_a_crash(tmp_path: object) -> None:
    found = diagnostics("/nowhere/h.yaml", "rummydsl: 1\nid: [unclosed\n")
    assert found and found[0].severity == "error"


def test_names_stay_known_while_the_text_is_broken() -> None:
    good = "rummydsl: 1\nid: h\nextends: gin_rummy\nname: H\noptions: {house_bonus: 5}\n"
    # as the server does on every change; the option is not used yet, which check says
    assert [d.rule for d in diagnostics("/nowhere/names.yaml", good)] == ["option-unused"]
    broken = good + 'knock: {limit: "house_b'
    labels = [c.label for c in completions("/nowhere/names.yaml", broken, 5, len('knock: {limit: "house_b'))]
    assert labels == ["house_bonus"]


def test_hover_outside_anything_is_none() -> None:
    assert hover("/nowhere/h.yaml", "rummydsl: 1\n\n", 1, 0) is None
    assert hover("/nowhere/h.yaml", "# a comment: yes\n", 0, 4) is None


KEY_PATHS = schema_key_paths()


def block_yaml(path: tuple[str | int, ...]) -> tuple[str, int, int]:
    """``path`` written as nested block YAML (a list index as a ``- `` item), and the
    line and column of its last key."""
    lines: list[str] = []
    indent, dash, column = 0, False, 0
    for step in path:
        if isinstance(step, int):
            dash = True
            continue
        prefix = " " * indent + ("- " if dash else "")
        lines.append(f"{prefix}{step}:")
        column, indent, dash = len(prefix), len(prefix) + 2, False
    return "\n".join(lines) + "\n", len(lines) - 1, column


@pytest.mark.parametrize("path", KEY_PATHS, ids=[".".join(map(str, p)) for p in KEY_PATHS])
def test_every_key_of_the_schema_has_hover_text(path: tuple[str | int, ...]) -> None:
    text, line, column = block_yaml(path)
    shown = hover("/nowhere/keys.yaml", text, line, column + 1)
    key = str(path[-1])
    assert shown and shown.startswith(f"**{key}**\n\n") and len(shown) > len(key) + 8, text


def test_the_key_walk_sees_nested_and_list_keys() -> None:
    assert ("scoring", "round", 0, "when") in KEY_PATHS
    assert ("turn", 0, "draw", "from") in KEY_PATHS
    assert len(KEY_PATHS) > 60


def test_hover_on_a_name_the_file_chose_says_which_map_it_is_in() -> None:
    shown = hover("/nowhere/h.yaml", 'melds:\n  poker: "size >= 3"\n', 1, 3)
    assert shown is not None and shown.startswith("**poker**: an entry of `melds`") and "Meld kinds" in shown


def test_key_completion_leaves_out_keys_the_map_already_has() -> None:
    text = "rummydsl: 1\nid: h\nextends: gin_rummy\nname: H\ngame:\n  target: 150\n  \n"
    labels = [c.label for c in completions("/nowhere/keys.yaml", text, 6, 2)]
    assert labels == ["deals", "winner", "game_bonus", "box_bonus", "shutout", "shutout_per", "hollywood", "match"]
    top = [c.label for c in completions("/nowhere/keys.yaml", text, 7, 0)]
    assert "game" not in top and "extends" not in top and "deal" in top


def test_completion_offers_the_openspiel_keys_and_values() -> None:
    """The keys issue 17 added (void, deadwood.arrangement) come from the schema like every other."""
    text = "rummydsl: 1\nid: h\nextends: gin_rummy\nname: H\nvoid:\n  \ndeadwood:\n  arrangement: \n"
    assert [c.label for c in completions("/nowhere/keys.yaml", text, 5, 2)] == ["at_discard_draw",
                                                                                 "after_throwbacks"]
    values = [c.label for c in completions("/nowhere/keys.yaml", text, 7, len("  arrangement: "))]
    assert set(values) >= {"least", "as_shown"}
    top = [c.label for c in completions("/nowhere/keys.yaml", "rummydsl: 1\nid: h\n\n", 2, 0)]
    assert "void" in top
