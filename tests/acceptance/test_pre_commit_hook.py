"""The pre-commit hook of .pre-commit-hooks.yaml, run by pre-commit itself in a
temporary git repository holding a good and a bad variant file (and a conformance
suite, which the hook leaves alone).

``try-repo`` installs this repository as pre-commit's users get it (a fresh virtual
environment and ``pip install``), which needs the package index; where that cannot
work the test is skipped with the reason. The ``repo: local`` test runs the same
hook definition (files, types, exclude, entry) with the rummydsl already installed,
and needs no network.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

REPO = Path(__file__).resolve().parents[2]
MANIFEST = REPO / ".pre-commit-hooks.yaml"

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="pre-commit needs git")

GOOD = "rummydsl: 1\nid: house\nextends: gin_rummy\nname: House\ngame:\n  target: 150\n"
BAD = 'rummydsl: 1\nid: broken\nextends: gin_rummy\nname: Broken\ncard_value: "min(ordr, 10)"\n'
SUITE = "variant: gin_rummy\ncases: []\n"


def pre_commit() -> list[str]:
    if shutil.which("pre-commit") is None:
        pytest.skip("pre-commit is not installed (pip install pre-commit; it is in the test extra)")
    return [sys.executable, "-m", "pre_commit"]


def git_repo(path: Path) -> Path:
    """A git repository with a good and a bad variant file and a suite, all added."""
    path.mkdir()
    (path / "variants").mkdir()
    (path / "variants" / "house.yaml").write_text(GOOD, encoding="utf-8")
    (path / "variants" / "broken.yaml").write_text(BAD, encoding="utf-8")
    (path / "variants" / "house.suite.yaml").write_text(SUITE, encoding="utf-8")
    run(["git", "init", "-q"], path)
    return path


def run(argv: list[str], cwd: Path, home: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@example.invalid",
               GIT_COMMITTER_NAME="t", GIT_COMMITTER_EMAIL="t@example.invalid")
    if home is not None:
        env["PRE_COMMIT_HOME"] = str(home)
    return subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True, check=False)


def the_hook() -> dict[str, Any]:
    hooks = yaml.safe_load(MANIFEST.read_text(encoding="utf-8"))
    assert [hook["id"] for hook in hooks] == ["rummydsl-check"]
    hook: dict[str, Any] = hooks[0]
    return hook


def test_the_manifest_offers_rummydsl_check_as_a_python_hook_on_yaml() -> None:
    hook = the_hook()
    assert hook["entry"] == "rummydsl check" and hook["language"] == "python" and hook["types"] == ["yaml"]


def test_local_hook_reports_the_bad_file_and_passes_the_good(tmp_path: Path) -> None:
    command = pre_commit()
    repo = git_repo(tmp_path / "project")
    hook = {**the_hook(), "language": "system"}  # the installed rummydsl, no environment to build
    hook.pop("minimum_pre_commit_version")
    config = {"repos": [{"repo": "local", "hooks": [hook]}]}
    (repo / ".pre-commit-config.yaml").write_text(yaml.safe_dump(config), encoding="utf-8")
    run(["git", "add", "."], repo)
    result = run([*command, "run", "--all-files", "--verbose"], repo, home=tmp_path / "cache")
    output = result.stdout + result.stderr
    assert result.returncode == 1, output
    assert "variants/broken.yaml:5:18: unknown name 'ordr'; did you mean 'order'?" in output
    assert "2 files checked: 1 error" in output  # house.yaml and broken.yaml; not the suite

    (repo / "variants" / "broken.yaml").write_text(BAD.replace("ordr", "order"), encoding="utf-8")
    run(["git", "add", "."], repo)
    result = run([*command, "run", "--all-files"], repo, home=tmp_path / "cache")
    assert result.returncode == 0, result.stdout + result.stderr


def test_try_repo_installs_and_runs_the_hook_as_users_get_it(tmp_path: Path) -> None:
    command = pre_commit()
    repo = git_repo(tmp_path / "project")
    run(["git", "add", "."], repo)
    result = run([*command, "try-repo", str(REPO), "rummydsl-check", "--all-files", "--verbose"], repo,
                 home=tmp_path / "cache")
    output = result.stdout + result.stderr
    if "- hook id: rummydsl-check" not in output:  # the hook never ran: its environment could not be built
        pytest.skip(f"pre-commit could not install the hook here (offline?): {output.strip()[-300:]}")
    assert result.returncode == 1, output
    assert "variants/broken.yaml:5:18: unknown name 'ordr'" in output


def editors_snippet() -> str:
    """The `.pre-commit-config.yaml` of docs/editors.md, as written there."""
    doc = (REPO / "docs" / "editors.md").read_text(encoding="utf-8")
    section = doc.split("## Checking before each commit", 1)[1]
    return section.split("```yml\n", 1)[1].split("```", 1)[0]


def test_the_documented_rev_is_the_release_tag_of_this_version() -> None:
    """Releases are tagged v + pyproject's version on the commit that ships them; the
    doc's snippet names the current one."""
    import re

    pyproject = (REPO / "pyproject.toml").read_text(encoding="utf-8")
    found = re.search(r'^version = "([^"]+)"', pyproject, re.M)
    assert found, "pyproject.toml has no version"
    version = found.group(1)
    config = yaml.safe_load(editors_snippet())
    (entry,) = config["repos"]
    assert entry["rev"] == f"v{version}"
    assert [hook["id"] for hook in entry["hooks"]] == ["rummydsl-check"]
    assert "example.org" not in editors_snippet()


def test_the_documented_snippet_works_as_written(tmp_path: Path) -> None:
    """docs/editors.md's snippet, verbatim, in a project beside a clone of this
    repository: pre-commit installs the hook from the tagged release and runs it."""
    command = pre_commit()
    snippet = editors_snippet()
    rev = yaml.safe_load(snippet)["repos"][0]["rev"]
    tags = run(["git", "tag", "--list", rev], REPO).stdout.split()
    if rev not in tags:
        pytest.skip(f"this clone has no tag {rev!r} yet (a release is tagged on the commit that ships it: "
                    f"git tag {rev})")
    clone = run(["git", "clone", "-q", str(REPO), str(tmp_path / "rummydsl")], tmp_path)
    assert clone.returncode == 0, clone.stderr
    repo = git_repo(tmp_path / "project")
    (repo / ".pre-commit-config.yaml").write_text(snippet, encoding="utf-8")
    run(["git", "add", "."], repo)
    result = run([*command, "run", "--all-files", "--verbose"], repo, home=tmp_path / "cache")
    output = result.stdout + result.stderr
    if "- hook id: rummydsl-check" not in output:  # the hook never ran: its environment could not be built
        pytest.skip(f"pre-commit could not install the hook here (offline?): {output.strip()[-300:]}")
    assert result.returncode == 1, output
    assert "variants/broken.yaml:5:18: unknown name 'ordr'; did you mean 'order'?" in output
