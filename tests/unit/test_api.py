"""The public API: typed for a user's type checker, lazy at run time, one copy of each helper."""

from __future__ import annotations

import ast
import importlib
import json
import pkgutil
import re
import subprocess
import sys
import textwrap
import types
from pathlib import Path

import pytest

import rummydsl
from rummydsl import resources
from rummydsl.endings import SCORED_ENDING_NAMES, SCORED_ENDINGS, Ending
from rummydsl.expr import ENDINGS, Context, context_names
from rummydsl.expr import runtime
from rummydsl.suggest import closest
from rummydsl.variant import VARIANT_ID, find_variant_path, is_variant_id, shipped_variant_ids

PACKAGE = Path(rummydsl.__file__).resolve().parent
SOURCE_ROOT = PACKAGE.parent


# -- the lazy exports and what a type checker sees ------------------------------------


def _type_checking_imports() -> dict[str, str]:
    """Name → module of the imports under ``if TYPE_CHECKING:`` in rummydsl/__init__.py."""
    tree = ast.parse((PACKAGE / "__init__.py").read_text(encoding="utf-8"))
    found: dict[str, str] = {}
    for node in tree.body:
        if isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING":
            for statement in node.body:
                assert isinstance(statement, ast.ImportFrom) and statement.module
                for alias in statement.names:
                    found[alias.asname or alias.name] = statement.module
    return found


def test_all_the_lazy_exports_and_the_type_checking_imports_agree() -> None:
    exports = rummydsl._EXPORTS
    assert set(rummydsl.__all__) == {"__version__", *exports}
    assert len(rummydsl.__all__) == len(set(rummydsl.__all__))
    assert _type_checking_imports() == exports


@pytest.mark.parametrize("name", sorted(rummydsl._EXPORTS))
def test_each_export_resolves_to_its_module_attribute(name: str) -> None:
    module = importlib.import_module(rummydsl._EXPORTS[name])
    assert getattr(rummydsl, name) is getattr(module, name)


def test_an_unknown_attribute_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match="no attribute 'load_varient'"):
        getattr(rummydsl, "load_varient")


def test_import_rummydsl_loads_no_heavy_module() -> None:
    code = ("import sys, rummydsl; heavy = ['rummydsl.melds', 'rummydsl.variant', 'rummydsl.expr', "
            "'lark', 'yaml', 'jsonschema']; print([m for m in heavy if m in sys.modules])")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


USER_PROGRAM = """\
    import rummydsl
    from rummydsl.expr import SimpleRoundView

    reveal_type(rummydsl.load_variant)
    variant = rummydsl.load_variant("gin_rummy")
    reveal_type(variant.deal)
    reveal_type(variant.meld_kinds[0].pattern)
    reveal_type(variant.meld_kinds[0].pattern(variant.deck.parse_cards("AS 2S 3S")))
    assert variant.knock is not None and variant.knock.limit is not None  # None: no limit (KR-3)
    reveal_type(variant.knock.limit(SimpleRoundView()))
    reveal_type(variant.scoring.cases[0].when.fn)
    reveal_type(rummydsl.MeldRules.from_variant(variant).solve("AS 2S 3S").deadwood)
    reveal_type(rummydsl.Ending.GIN.scored)
    reveal_type(rummydsl.explain)
"""


def test_a_user_type_checker_sees_real_types(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    api = pytest.importorskip("mypy.api")
    program = tmp_path / "user.py"
    program.write_text(textwrap.dedent(USER_PROGRAM), encoding="utf-8")
    config = tmp_path / "mypy.ini"
    config.write_text("[mypy]\n", encoding="utf-8")
    if (SOURCE_ROOT / "pyproject.toml").is_file():  # a source checkout (an editable install hides it from mypy)
        monkeypatch.setenv("MYPYPATH", str(SOURCE_ROOT))
    stdout, stderr, status = api.run([str(program), "--strict", "--config-file", str(config),
                                      "--cache-dir", str(tmp_path / "cache")])
    revealed = re.findall(r'Revealed type is "(.*)"', stdout)
    assert status == 0, stdout + stderr
    assert revealed[:5] + revealed[6:] == [
        "def (name: str) -> rummydsl.variant.model.Variant",
        "rummydsl.variant.model.Deal",
        "rummydsl.expr.compiled.MeldPattern",  # its home; rummydsl.expr.compile re-exports it
        "bool",
        "int",
        "int",
        "bool",
        "def (variant: rummydsl.variant.model.Variant, *, markdown: bool =) -> str",
    ], stdout
    # the closure of a 'when': fn(view, p, lets) -> bool (mypy spells the Mapping its own way)
    assert revealed[5].startswith("def (rummydsl.expr.runtime.RoundView, Any, ") and revealed[5].endswith(") -> bool")


def test_no_export_is_hidden_by_a_submodule_of_the_same_name() -> None:
    # Importing rummydsl.x sets the attribute x of the package: an export named x
    # (the function rummydsl.explain, once) would then be the module.
    for info in pkgutil.walk_packages(rummydsl.__path__, "rummydsl."):
        if not info.name.startswith(("rummydsl.spec", "rummydsl.variants")):
            importlib.import_module(info.name)
    hidden = [name for name in rummydsl._EXPORTS if isinstance(getattr(rummydsl, name), types.ModuleType)]
    assert hidden == []
    assert rummydsl.explain(rummydsl.load_variant("gin_rummy")).startswith("Gin Rummy")


# -- one copy of each helper -------------------------------------------------------------


def test_only_suggest_uses_difflib() -> None:
    users = sorted(str(path.relative_to(PACKAGE)) for path in PACKAGE.rglob("*.py")
                   if re.search(r"difflib|get_close_matches", path.read_text(encoding="utf-8")))
    assert users == ["suggest.py"]


def test_closest_does_not_depend_on_the_order_or_repeats_of_candidates() -> None:
    names = ["rank", "suit", "order", "colour", "pips", "wild", "rank"]
    assert closest("ordr", names) == closest("ordr", reversed(names)) == "order"
    assert closest("suite", names, cutoff=0.7) == "suit"
    assert closest("sxyz", names, cutoff=0.7) is None
    assert closest("anything", []) is None


def test_the_variant_id_pattern_is_the_schemas() -> None:
    schema = json.loads(resources.read_spec_text("variant.schema.json"))
    assert f"^{VARIANT_ID.pattern}$" == schema["properties"]["id"]["pattern"]


def test_shipped_ids_are_the_yaml_files_named_like_ids(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("gin_rummy.yaml", "house2.yaml", "Bad-Name.yaml", "notes.txt", "draft.yml", "_x.yaml"):
        (tmp_path / name).write_text("id: x\n", encoding="utf-8")
    monkeypatch.setattr(resources, "variants_dir", lambda: tmp_path)
    assert shipped_variant_ids() == ["gin_rummy", "house2"]
    assert find_variant_path("house2") == str(tmp_path / "house2.yaml")
    assert not is_variant_id("Bad-Name")


def test_find_variant_is_the_old_name_of_find_variant_path() -> None:
    """Issue 18 renamed it to say that it gives a path; the old name stays for callers."""
    from rummydsl.variant import find_variant

    assert find_variant is find_variant_path
    assert find_variant("gin_rummy") == find_variant_path("gin_rummy")


def test_an_unreadable_variants_folder_ships_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(resources, "variants_dir", lambda: tmp_path / "missing")
    assert shipped_variant_ids() == []


# -- the endings ---------------------------------------------------------------------


def test_the_scored_endings_are_the_score_context_names_and_runtime_endings() -> None:
    assert [e.name for e in Ending] == ["GIN", "BIG_GIN", "KNOCK", "OUT", "STOCK_END", "VOID"]
    assert SCORED_ENDINGS == tuple(e for e in Ending if e is not Ending.VOID)
    assert ENDINGS == runtime.ENDINGS == SCORED_ENDING_NAMES == ("gin", "big_gin", "knock", "out", "stock_end")
    score_names = set(context_names(Context.SCORE))
    assert set(SCORED_ENDING_NAMES) <= score_names
    assert "void" not in score_names
    assert f"{Ending.BIG_GIN}" == str(Ending.BIG_GIN) == "big_gin" and Ending.VOID == "void"


def test_endings_import_nothing_of_rummydsl() -> None:
    tree = ast.parse((PACKAGE / "endings.py").read_text(encoding="utf-8"))
    imported = [n.module or "" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)]
    imported += [a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names]
    assert not [m for m in imported if m.startswith("rummydsl") or m.startswith(".")]
    assert all(not isinstance(n, ast.ImportFrom) or n.level == 0 for n in ast.walk(tree))
