"""A file from a stranger never discloses another file (issue 17, docs/security.md
"Which files a file may name" and "Only regular files are read").

The layout every test here uses (``tree``)::

    tmp/secret.yaml, secret.txt      outside the reach: a canary in each
    tmp/top/mid/                      the reach of house/*.yaml (two folders up)
    tmp/top/mid/.config/hosts.yml     a hidden folder inside the reach: a canary
    tmp/top/mid/notes.yaml            YAML that is no variant (no id): a canary
    tmp/top/mid/rules/base.yaml       a real parent (../base.yaml from house/)
    tmp/top/mid/rules/house/          the files a person names

The canary must never appear in any output: not in a message, not in a source line.
Special files (a FIFO, a socket, /dev/zero) are always tried in a process of its own
(forked from a server that has made the imports, forkserver.py) with a generous timeout, so a regression that blocks on one fails instead of hanging.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from pathlib import Path
from typing import Iterator

import pytest

from rummydsl import untrusted
from rummydsl.errors import VariantError
from rummydsl.resources import variants_dir
from rummydsl.variant import check_file
from rummydsl.variant.extends import resolve

from .conftest import run
from .forkserver import ForkServer

pytestmark = pytest.mark.xdist_group("paths")  # one fork server, on one test worker

CANARY = "CANARY-7f3e9b1c-never-print-me"
HANG_GUARD = 300  # seconds: only ever reached by a command that blocks on a special file
PASSWD_FIRST = Path("/etc/passwd").read_text().splitlines()[0] if Path("/etc/passwd").is_file() else "root:x:0:0"

BASE = (variants_dir() / "gin_rummy.yaml").read_text(encoding="utf-8").replace(
    "id: gin_rummy", "id: house_base", 1)


def child(target: str, name: str = "house") -> str:
    return f"rummydsl: 1\nid: {name}\nname: House\nextends: '{target}'\n"


class Tree:
    def __init__(self, tmp: Path) -> None:
        self.tmp = tmp
        self.reach = tmp / "top" / "mid"
        self.house = self.reach / "rules" / "house"
        self.house.mkdir(parents=True)
        (tmp / "secret.yaml").write_text(f"rummydsl: 1\nid: secret\nname: {CANARY}\n")
        (tmp / "secret.txt").write_text(f"{CANARY}\n")
        (self.reach / ".config").mkdir()
        (self.reach / ".config" / "hosts.yml").write_text(f"github.com:\n  oauth_token: {CANARY}\n")
        (self.reach / "notes.yaml").write_text(f"token: {CANARY}\nother: {CANARY}\n")
        (self.reach / "dupes.yaml").write_text(f"{CANARY}: 1\n{CANARY}: 2\n")
        (self.reach / "tagged.yaml").write_text(f"id: !!python/name:{CANARY} ''\n")
        (self.reach / "plain.yaml").write_text(f"{CANARY}\n")
        (self.reach / "rules" / "base.yaml").write_text(BASE)

    def variant(self, name: str, text: str) -> Path:
        path = self.house / name
        path.write_text(text)
        return path


@pytest.fixture
def tree(tmp_path: Path) -> Tree:
    return Tree(tmp_path)


_FORKS: list[ForkServer] = []


@pytest.fixture(scope="module", autouse=True)
def forks(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """The module's ``rummydsl`` processes, forked after the imports from a server
    started with the canary in its environment (forkserver.py)."""
    server = ForkServer(tmp_path_factory.mktemp("forks"), dict(os.environ, RUMMYDSL_TEST_CANARY=CANARY),
                        None, HANG_GUARD)
    _FORKS.append(server)
    yield
    _FORKS.remove(server)
    server.close()


def subprocess_run(*argv: str, cwd: Path, stdin: str = "") -> tuple[int, str]:
    """``rummydsl ARGV`` in a process of its own (never hangs the suite), with the canary
    in its environment (so /proc/self/environ holds it): exit code and all output."""
    server = _FORKS[-1]
    given = None
    if stdin:
        given = server.scratch / f"stdin-{server.runs + 1}"
        given.write_text(stdin, encoding="utf-8")
    code, out, err = server.run(list(argv), given, cwd)
    text = out.decode("utf-8") + err.decode("utf-8")
    return code, text.replace("\r\n", "\n").replace("\r", "\n")  # as subprocess's text mode reads it


def assert_nothing_disclosed(text: str) -> None:
    assert CANARY not in text, text
    assert PASSWD_FIRST not in text, text
    assert "Traceback" not in text, text


# ----------------------------------------------------------------- the one helper


@pytest.fixture
def specials(tmp_path: Path) -> Iterator[dict[str, Path]]:
    fifo = tmp_path / "fifo.yaml"
    os.mkfifo(fifo)
    folder = tmp_path / "folder.yaml"
    folder.mkdir()
    sock_path = tmp_path / "sock.yaml"
    sock = socket.socket(socket.AF_UNIX)
    sock.bind(str(sock_path))
    try:
        yield {"fifo": fifo, "folder": folder, "socket": sock_path}
    finally:
        sock.close()


@pytest.mark.parametrize(("name", "reason"), [
    ("fifo", "not a regular file: a FIFO"),
    ("folder", "not a regular file: a folder"),
    ("socket", "not a regular file: a socket"),
])
def test_the_helper_refuses_special_files_by_kind(specials: dict[str, Path], name: str, reason: str) -> None:
    assert untrusted.refusal(specials[name]) == reason
    with pytest.raises(untrusted.Untrusted, match=reason):
        untrusted.open_regular(specials[name])


@pytest.mark.parametrize(("path", "reason"), [
    ("/dev/null", "not a regular file: a character device"),
    ("/dev/zero", "not a regular file: a character device"),
    ("/proc/self/environ", "is under /proc"),
    ("/proc/self/cmdline", "is under /proc"),
    ("/sys/kernel/mm/transparent_hugepage/enabled", "is under /sys"),
])
def test_the_helper_refuses_devices_and_system_pseudo_files(path: str, reason: str) -> None:
    if not os.path.exists(path):
        pytest.skip(f"{path} is not on this system")
    assert untrusted.refusal(path).startswith(reason)
    with pytest.raises(untrusted.Untrusted):
        untrusted.open_regular(path)


def test_a_link_to_proc_is_refused_too(tmp_path: Path) -> None:
    link = tmp_path / "environ.yaml"
    link.symlink_to("/proc/self/environ")
    assert untrusted.refusal(link, variant=True).startswith("is under /proc")
    with pytest.raises(untrusted.Untrusted):
        untrusted.read_regular(link, 100, variant=True)


def test_a_name_swapped_for_a_fifo_after_the_first_look_is_caught_without_blocking(tmp_path: Path) -> None:
    """The second check is on the opened descriptor (fstat), and the open itself does
    not wait for a writer: the name-based check is skipped here to show it."""
    fifo = tmp_path / "swapped.yaml"
    os.mkfifo(fifo)
    code = ("import sys; from rummydsl import untrusted\n"
            "untrusted.refusal = lambda *a, **k: None\n"
            "try:\n    untrusted.open_regular(sys.argv[1])\n"
            "except untrusted.Untrusted as e:\n    print(e)\n")
    done = subprocess.run([sys.executable, "-c", code, str(fifo)], capture_output=True, text=True,
                          timeout=HANG_GUARD)
    assert done.stdout == "not a regular file: a FIFO\n", done.stderr


def test_a_variant_file_s_name_ends_in_yaml_or_yml() -> None:
    assert untrusted.refusal("/etc/passwd", variant=True) == \
        "not a variant file: the name must end in .yaml or .yml"
    assert untrusted.refusal("/etc/passwd") is None  # a regular file, fine for a record


# --------------------------------------------------------- extends: how far it reaches


def test_a_parent_one_and_two_folders_up_is_fine(tree: Tree) -> None:
    """A folder of house rules: ``extends: ../base.yaml`` from a subfolder (a real use)."""
    near = tree.variant("near.yaml", child("../base.yaml"))
    assert [d for d in check_file(str(near)) if d.severity == "error"] == []
    (tree.reach / "top_base.yaml").write_text(BASE)
    far = tree.variant("far.yaml", child("../../top_base.yaml"))
    assert resolve(far).chain[1] == str(tree.reach / "top_base.yaml")


def test_a_parent_may_climb_two_folders_not_three(tree: Tree) -> None:
    """MAX_EXTENDS_UP (docs/limits.md): two folders above the file named, not three."""
    (tree.reach / "rules" / "house" / "deep").mkdir()
    (tree.reach / "two_up.yaml").write_text(BASE)
    ok = tree.variant("ok.yaml", child("../../two_up.yaml"))
    assert resolve(ok).chain[1].endswith("two_up.yaml")
    (tree.tmp / "top" / "three_up.yaml").write_text(BASE)
    too_far = tree.variant("far.yaml", child("../../../three_up.yaml"))
    with pytest.raises(VariantError) as error:
        resolve(too_far)
    [diagnostic] = error.value.diagnostics
    assert diagnostic.rule == "extends-reach"
    assert f"it leads outside {str(tree.reach)!r}, the folder 2 above" in diagnostic.message


HOSTILE_PARENTS = [
    # (what extends names, the rule, words of the reason)
    ("/etc/passwd", "extends-reach", "an absolute path"),
    ("/proc/self/environ", "extends-reach", "an absolute path"),
    ("/dev/zero", "extends-reach", "an absolute path"),
    ("{tmp}/secret.yaml", "extends-reach", "an absolute path"),
    ("../../../secret.yaml", "extends-reach", "it leads outside"),
    ("../../../../../../../../../../etc/passwd", "extends-not-variant", "the name must end in .yaml"),
    ("../../../../../../../../../../etc/hostname.yaml", "extends-reach", "it leads outside"),
    ("../../../../../../../../../../proc/self/environ.yaml", "extends-reach", "it leads outside"),
    ("../../.config/hosts.yml", "extends-reach", "the hidden folder '.config'"),
    ("../../notes.yaml", "extends-not-variant", "no 'id'"),
    ("../../../secret.txt", "extends-not-variant", "the name must end in .yaml"),
    ("../../plain.yaml", "top-level", "not a readable variant file"),
    ("../../dupes.yaml", "yaml-duplicate-key", "not a readable variant file (a key written twice)"),
    ("../../tagged.yaml", "yaml-tag", "not a readable variant file"),
    ("out_link.yaml", "extends-reach", "it leads outside"),
    ("passwd_link.yaml", "extends-reach", "it leads outside"),
    ("environ_link.yaml", "extends-reach", "it leads outside"),
    ("zero_link.yaml", "extends-reach", "it leads outside"),
    ("in_link.yaml", "top-level", "not a readable variant file"),
    ("fifo.yaml", "extends-not-variant", "not a regular file: a FIFO"),
    ("folder.yaml", "extends-not-variant", "not a regular file: a folder"),
    ("sock.yaml", "extends-not-variant", "not a regular file: a socket"),
]


def _plant_links_and_specials(tree: Tree) -> socket.socket:
    house = tree.house
    (house / "out_link.yaml").symlink_to(tree.tmp / "secret.yaml")
    (house / "passwd_link.yaml").symlink_to("/etc/passwd")
    (house / "environ_link.yaml").symlink_to("/proc/self/environ")
    (house / "zero_link.yaml").symlink_to("/dev/zero")
    (house / "in_link.yaml").symlink_to(tree.reach / "plain.yaml")
    os.mkfifo(house / "fifo.yaml")
    (house / "folder.yaml").mkdir()
    sock = socket.socket(socket.AF_UNIX)
    sock.bind(str(house / "sock.yaml"))
    return sock


@pytest.mark.parametrize(("target", "rule", "words"), HOSTILE_PARENTS)
def test_check_refuses_a_hostile_parent_and_quotes_nothing_of_it(tree: Tree, target: str, rule: str,
                                                                  words: str) -> None:
    sock = _plant_links_and_specials(tree)
    try:
        path = tree.variant("evil.yaml", child(target.format(tmp=tree.tmp)))
        code, out = subprocess_run("check", "--json", str(path), cwd=tree.house)
        assert code == 1, out
        assert_nothing_disclosed(out)
        found = json.loads(out)
        assert [d["rule"] for d in found if d["severity"] == "error"] == [rule], found
        assert words in found[0]["message"]
        code, out = subprocess_run("check", str(path), cwd=tree.house)
        assert code == 1
        assert_nothing_disclosed(out)
    finally:
        sock.close()


def test_explain_and_simulate_refuse_a_hostile_parent_too(tree: Tree) -> None:
    path = tree.variant("evil.yaml", child("../../../secret.yaml"))
    for argv in (["explain", str(path)], ["simulate", str(path), "--games", "1", "--seed", "1", "--workers", "1"]):
        code, out, err = run(*argv)
        assert code == 1 and "extends-reach" not in out
        assert "it leads outside" in err
        assert_nothing_disclosed(out + err)


def test_a_refused_parent_s_lines_are_never_printed_by_check(tree: Tree) -> None:
    """The caret snippet of a problem placed in a parent that is no variant is left
    out: the line would be the parent's content."""
    path = tree.variant("evil.yaml", child("../../dupes.yaml"))
    code, out, _ = run("check", str(path))
    assert code == 1
    assert out.splitlines()[0].startswith(f"{tree.reach / 'dupes.yaml'}:2:1: not a readable variant file")
    assert_nothing_disclosed(out)


def test_suggestions_list_only_variant_files_inside_the_reach(tree: Tree) -> None:
    rules = tree.reach / "rules"
    os.mkfifo(rules / "basee.yaml")           # a FIFO with the nearest name: never suggested
    (rules / "base.yaml.txt").write_text(CANARY)
    (rules / "bases.yml").mkdir()              # a folder named like a variant
    (rules / ".base.yaml").write_text(BASE)    # hidden
    path = tree.variant("typo.yaml", child("../bsae.yaml"))
    code, out, _ = run("check", str(path))
    assert code == 1
    assert "did you mean '../base.yaml'?" in out
    for never in ("basee", "bases.yml", ".base.yaml", "base.yaml.txt"):
        assert never not in out
    (rules / "base.yaml").unlink()
    code, out, _ = run("check", str(path))
    assert "did you mean" not in out
    # Outside the reach, not even the folder is looked at.
    (tree.tmp / "top" / "base.yaml").write_text(BASE)
    far = tree.variant("far.yaml", child("../../../bsae.yaml"))
    code, out, _ = run("check", str(far))
    assert code == 1 and "did you mean" not in out and "it leads outside" in out


# ---------------------------------------------------------------- a suite's variant


@pytest.mark.parametrize(("variant", "words"), [
    ("/proc/self/environ", "an absolute path"),
    ("/etc/passwd", "an absolute path"),
    ("{tmp}/secret.yaml", "an absolute path"),
    ("../../../secret.yaml", "it leads outside"),
    ("../../../../../../../../../etc/passwd", "the name must end in .yaml"),
    ("../../.config/hosts.yml", "the hidden folder"),
    ("fifo.yaml", "not a regular file: a FIFO"),
    ("environ_link.yaml", "it leads outside"),
])
@pytest.mark.parametrize("where", ["suite", "case"])
def test_a_suite_s_variant_is_held_to_the_same_rule(tree: Tree, variant: str, words: str, where: str) -> None:
    sock = _plant_links_and_specials(tree)
    try:
        named = variant.format(tmp=tree.tmp)
        top, case = (named, "gin_rummy") if where == "suite" else ("gin_rummy", named)
        suite = tree.house / "evil.suite.yaml"
        suite.write_text(f"variant: '{top}'\ncases:\n- id: a\n  variant: '{case}'\n"
                         "  meld: [AS, 2S, 3S]\n  expect: {valid: true}\n")
        code, out = subprocess_run("test", str(suite), cwd=tree.house)
        assert code == 1, out
        assert words in out, out
        assert_nothing_disclosed(out)
    finally:
        sock.close()


def test_a_suite_s_variant_beside_it_still_works(tree: Tree) -> None:
    suite = tree.house / "mine.suite.yaml"
    suite.write_text("variant: ../base.yaml\ncases:\n- id: a\n  meld: [AS, 2S, 3S]\n  expect: {valid: true}\n")
    code, out, err = run("test", str(suite))
    assert code == 0, out + err


# ------------------------------------------------------------------ the language server


def test_the_language_server_s_loader_holds_to_the_rule(tree: Tree) -> None:
    """The editor's diagnostics, go to definition and completion use the same loader."""
    pytest.importorskip("pygls")
    from rummydsl.lsp import features

    _plant_links_and_specials(tree).close()
    for target, rule, words in HOSTILE_PARENTS:
        text = child(target.format(tmp=tree.tmp))
        path = str(tree.house / "editing.yaml")
        problems = features.diagnostics(path, text)
        shown = "\n".join(p.message for p in problems)
        assert words in shown, (target, shown)
        assert_nothing_disclosed(shown)
        if rule == "extends-reach" or "not a regular file" in words or "must end in" in words:
            # Go to definition never opens a file a variant may not name (a file in
            # reach that is no variant may be opened in the editor: the user's own).
            assert features.definition(path, text, 3, 10) is None, target
    good = child("../base.yaml")
    assert features.definition(str(tree.house / "editing.yaml"), good, 3, 10) == \
        str((tree.reach / "rules" / "base.yaml").resolve())


def test_the_language_server_end_to_end(tree: Tree) -> None:
    pytest.importorskip("pygls")
    import importlib.util

    spec = importlib.util.spec_from_file_location(
        "_lsp_driver", Path(__file__).parents[1] / "acceptance" / "test_lsp.py")
    assert spec is not None and spec.loader is not None
    driver = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(driver)
    open_file, in_a_server = driver.open_file, driver.in_a_server

    path = tree.house / "editing.yaml"
    text = child("../../dupes.yaml")

    async def scenario(client) -> None:  # type: ignore[no-untyped-def]
        found = await open_file(client, path, text)
        shown = "\n".join(d.message for d in found)
        assert "not a readable variant file" in shown
        assert_nothing_disclosed(shown)

    in_a_server(scenario)


# ----------------------------------------------------------------------------- replay


def _record(tmp_path: Path) -> list[dict[str, object]]:
    log = tmp_path / "games.jsonl"
    code, _, err = run("simulate", "gin_rummy", "--games", "1", "--seed", "3", "--log", str(log))
    assert code == 0, err
    return [json.loads(line) for line in log.read_text().splitlines()]


def _write(path: Path, lines: list[dict[str, object]]) -> Path:
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    return path


def test_replay_never_opens_the_path_a_record_header_names(tree: Tree, monkeypatch: pytest.MonkeyPatch) -> None:
    lines = _record(tree.tmp)
    evil = tree.tmp / "evil.yaml"
    evil.write_text(f"rummydsl: 1\nid: gin_rummy\nname: {CANARY}\nextends: gin_rummy\n")
    lines[0]["variant_path"] = str(evil)
    record = _write(tree.tmp / "evil.jsonl", lines)
    import rummydsl.variant as variant_module

    asked: list[str] = []
    real = variant_module.load_variant
    monkeypatch.setattr(variant_module, "load_variant", lambda name: asked.append(name) or real(name))
    code, out, err = run("replay", str(record))
    assert code == 0 and "every result matches" in out, err
    assert asked == ["gin_rummy"]
    assert_nothing_disclosed(out + err)


@pytest.mark.parametrize("variant_path", ["/etc/passwd", "/proc/self/environ", "{tmp}/secret.yaml",
                                          "{tmp}/fifo.yaml", "/dev/zero"])
def test_a_record_of_a_variant_that_is_not_shipped_needs_variant(tree: Tree, variant_path: str) -> None:
    os.mkfifo(tree.tmp / "fifo.yaml")
    lines = _record(tree.tmp)
    lines[0]["variant"] = "house"
    lines[0]["variant_path"] = variant_path.format(tmp=tree.tmp)
    record = _write(tree.tmp / "evil.jsonl", lines)
    code, out = subprocess_run("replay", str(record), cwd=tree.tmp)
    assert code == 1
    assert "is not a shipped variant" in out and "--variant PATH" in out
    assert_nothing_disclosed(out)


def test_replay_variant_checks_the_content_sha256(tree: Tree) -> None:
    lines = _record(tree.tmp)
    record = _write(tree.tmp / "games.jsonl", lines)
    other = tree.tmp / "other.yaml"
    other.write_text((variants_dir() / "gin_rummy.yaml").read_text().replace("target: 100", "target: 150"))
    code, out, err = run("replay", str(record), "--variant", str(other))
    assert (code, out) == (1, "")
    assert "the record was not made with the file" in err and "(its rules differ)" in err
    code, out, err = run("replay", str(record), "--variant", "gin_rummy")
    assert code == 0, err


@pytest.mark.parametrize("variant", ["/proc/self/environ", "/etc/passwd", "{tmp}/fifo.yaml"])
def test_replay_variant_is_a_variant_file(tree: Tree, variant: str) -> None:
    os.mkfifo(tree.tmp / "fifo.yaml")
    record = _write(tree.tmp / "games.jsonl", _record(tree.tmp))
    code, out = subprocess_run("replay", str(record), "--variant", variant.format(tmp=tree.tmp), cwd=tree.tmp)
    assert code == 1
    assert_nothing_disclosed(out)


# -------------------------------------------------- every path on the command line


@pytest.fixture
def cli_specials(tmp_path: Path) -> Iterator[dict[str, str]]:
    fifo = tmp_path / "fifo.yaml"
    os.mkfifo(fifo)
    fifo_jsonl = tmp_path / "fifo.jsonl"
    os.mkfifo(fifo_jsonl)
    sock = socket.socket(socket.AF_UNIX)
    sock.bind(str(tmp_path / "sock.yaml"))
    link = tmp_path / "environ.yaml"
    link.symlink_to("/proc/self/environ")
    try:
        yield {"fifo": str(fifo), "fifo_jsonl": str(fifo_jsonl), "socket": str(tmp_path / "sock.yaml"),
               "environ_link": str(link), "zero": "/dev/zero", "null": "/dev/null",
               "environ": "/proc/self/environ", "passwd": "/etc/passwd"}
    finally:
        sock.close()


COMMANDS = [
    ["check", "{f}"],
    ["explain", "{f}"],
    ["simulate", "{f}", "--games", "1", "--seed", "1", "--workers", "1"],
    ["test", "{f}"],
    ["replay", "{f}"],
    ["simulate", "gin_rummy", "--games", "2", "--seed", "1", "--workers", "1", "--resume", "{f}"],
]


@pytest.mark.parametrize("argv", COMMANDS, ids=lambda a: "-".join(a[:1] + (a[-2:-1] if "--resume" in a else [])))
@pytest.mark.parametrize("kind", ["fifo", "fifo_jsonl", "socket", "environ_link", "zero", "null", "environ",
                                  "passwd"])
def test_no_command_reads_a_special_file_named_on_its_command_line(cli_specials: dict[str, str], argv: list[str],
                                                                   kind: str, tmp_path: Path) -> None:
    """A FIFO would block for ever, /dev/zero never ends, /proc/self/environ holds the
    canary: each is refused by name and kind, exit 1, nothing of it printed."""
    code, out = subprocess_run(*(a.format(f=cli_specials[kind]) for a in argv), cwd=tmp_path)
    assert code == 1, out
    assert_nothing_disclosed(out)
    if kind in ("fifo", "fifo_jsonl", "socket", "zero", "null"):
        assert "not a regular file" in out or "not a variant file" in out, out
    if kind in ("environ", "environ_link") and argv[0] in ("replay", "simulate") and "--resume" in argv:
        assert "is under /proc" in out, out


# ---------------------------------------------- links named on the command line


def test_a_folder_s_links_that_lead_out_of_it_are_not_read(tree: Tree) -> None:
    """``check variants/`` on a folder from anyone (a pull request): a ``*.yaml`` in it
    that is a link to a file outside the folder is refused, its target never read."""
    folder = tree.house
    (folder / "ok.yaml").write_text(BASE)
    (folder / "also_ok.yaml").symlink_to(folder / "ok.yaml")
    (folder / "passwd.yaml").symlink_to("/etc/passwd")
    (folder / "secret.yaml").symlink_to(tree.tmp / "secret.yaml")
    (folder / "hosts.yml").symlink_to(tree.reach / ".config" / "hosts.yml")
    code, out, _ = run("check", str(folder))
    assert code == 1
    assert_nothing_disclosed(out)
    for name in ("passwd.yaml", "secret.yaml", "hosts.yml"):
        assert f"{folder / name}: cannot read the file: a symbolic link that leads outside the folder" in out
    assert "3 errors" in out and "2 files checked" in out
    suites = tree.house / "suites"
    suites.mkdir()
    (suites / "evil.suite.yaml").symlink_to("/proc/self/environ")
    (suites / "out.suite.yaml").symlink_to(tree.tmp / "secret.yaml")
    code, out, err = run("test", str(suites))
    assert code == 1
    assert_nothing_disclosed(out + err)
    assert "a symbolic link that leads outside the folder" in out + err


@pytest.mark.parametrize(("target", "refused"), [
    ("{tmp}/secret.yaml", "it leads outside"),
    ("{reach}/.config/hosts.yml", "the hidden folder '.config'"),
    ("/etc/passwd", "not a variant file"),
    ("/proc/self/environ", "is under /proc"),
    ("{reach}/rules/base.yaml", None),
])
def test_a_link_named_on_the_command_line_is_held_to_the_same_reach(tree: Tree, target: str,
                                                                     refused: str | None) -> None:
    link = tree.house / "house.yaml"
    link.symlink_to(target.format(tmp=tree.tmp, reach=tree.reach))
    code, out, err = run("check", str(link))
    assert_nothing_disclosed(out + err)
    if refused is None:
        assert code == 0, out
    else:
        assert code == 1 and refused in out, out
        code, out, err = run("explain", str(link))
        assert code == 1 and refused in err, err
        assert_nothing_disclosed(out + err)


def test_coverage_and_saves_read_only_regular_files(tmp_path: Path) -> None:
    suite = tmp_path / "a.suite.yaml"
    suite.write_text("variant: gin_rummy\ncases:\n- id: a\n  meld: [AS, 2S, 3S]\n  expect: {valid: true}\n")
    code, out = subprocess_run("test", "--coverage", "/proc/self/environ", str(suite), cwd=tmp_path)
    assert code == 2 and "--coverage cannot read '/proc/self/environ': is under /proc" in out, out
    assert_nothing_disclosed(out)
    fifo = tmp_path / "game.save"
    os.mkfifo(fifo)
    code_text = ("import sys\nfrom rummydsl.errors import RecordError\nfrom rummydsl.save import read_save\n"
                 "from rummydsl.variant import load_variant\n"
                 "try:\n    read_save(load_variant('gin_rummy'), sys.argv[1])\n"
                 "except RecordError as e:\n    print(e)\n")
    done = subprocess.run([sys.executable, "-c", code_text, str(fifo)], capture_output=True, text=True,
                          timeout=HANG_GUARD)
    assert done.stdout == f"{fifo}: cannot read the save: not a regular file: a FIFO\n", done.stderr


@pytest.mark.parametrize(("written", "words"), [
    ('"..\\\\base.yaml"', "a backslash in the path"),
    ('"../rules\\0/base.yaml"', "a NUL character in the name"),
    ("'" + "../" * 3000 + "etc/hostname.yaml'", "it leads outside"),
    ("~/.config/gh/hosts.yml", "the hidden folder '.config'"),
])
def test_odd_parent_names_are_refused_by_name_in_a_short_message(tree: Tree, written: str, words: str) -> None:
    path = tree.variant("odd.yaml", f"rummydsl: 1\nid: odd\nname: Odd\nextends: {written}\n")
    with pytest.raises(VariantError) as error:
        resolve(path)
    [diagnostic] = error.value.diagnostics
    assert diagnostic.rule == "extends-reach" and words in diagnostic.message
    assert len(diagnostic.message) < 400


def test_completion_offers_no_names_from_a_yaml_file_that_is_no_variant(tree: Tree) -> None:
    pytest.importorskip("pygls")
    from rummydsl.lsp import features

    (tree.reach / "config.yaml").write_text(f"options:\n  {CANARY.replace('-', '_')}: {{value: 1}}\n")
    path = str(tree.house / "editing.yaml")
    assert features._parent_tree(path, {"extends": "../../config.yaml"}) == {}
    items = features.completions(path, "rummydsl: 1\nid: h\nname: H\nextends: ../../config.yaml\noptions:\n  \n",
                                 5, 2)
    assert all(CANARY.replace("-", "_") not in str(item) for item in items)
