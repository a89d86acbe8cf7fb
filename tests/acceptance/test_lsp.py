"""``rummydsl lsp`` driven end to end as an editor drives it: a client (pygls's
``LanguageClient``) starts ``python -m rummydsl.cli lsp`` as a subprocess and speaks
the Language Server Protocol to it over stdio, one server for the module's tests as an
editor keeps one for its session. Diagnostics come from the unsaved
text and match ``rummydsl check``'s places and words; hover, completion and go to
definition answer at the cursor."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path
from typing import Any, Awaitable, Callable, Iterator

import pytest

pytest.importorskip("pygls", reason="the language server needs the lsp extra (pygls)")

from lsprotocol import types as lsp  # noqa: E402
from pygls.lsp.client import LanguageClient  # noqa: E402
from pygls.uris import from_fs_path, to_fs_path  # noqa: E402

from rummydsl.resources import variants_dir  # noqa: E402
from rummydsl.variant import check_file  # noqa: E402

pytestmark = pytest.mark.xdist_group("lsp")  # one language server, on one test worker

REPO = Path(__file__).resolve().parents[2]
BAD = REPO / "tests" / "examples" / "bad"


class Editor(LanguageClient):
    """A client that keeps the diagnostics the server publishes, by document."""

    def __init__(self) -> None:
        super().__init__("test-editor", "1")
        self.diagnostics: dict[str, list[lsp.Diagnostic]] = {}
        self.published: asyncio.Queue[str] = asyncio.Queue()

        @self.feature(lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        def _published(params: lsp.PublishDiagnosticsParams) -> None:
            self.diagnostics[params.uri] = list(params.diagnostics)
            self.published.put_nowait(params.uri)

    async def wait_for_diagnostics(self, uri: str) -> list[lsp.Diagnostic]:
        while await self.published.get() != uri:
            pass
        return self.diagnostics[uri]


def in_a_server(scenario: Callable[[Editor], Awaitable[None]]) -> None:
    """Start a server of its own, initialize a session, run ``scenario``, shut down (for a
    test elsewhere, tests/security/test_paths.py; this module's tests share one, below)."""

    async def session() -> None:
        client = Editor()
        await client.start_io(sys.executable, "-m", "rummydsl.cli", "lsp")
        try:
            await client.initialize_async(lsp.InitializeParams(capabilities=lsp.ClientCapabilities()))
            client.initialized(lsp.InitializedParams())
            await scenario(client)
            await client.shutdown_async(None)
        finally:
            client.exit(None)  # also when the scenario failed: a server left running would hang stop()
            await client.stop()

    asyncio.run(session())


Scenario = Callable[[Editor], Awaitable[None]]
Served = Callable[[Scenario], None]
"""A test's way to run its scenario in the module's server."""


@pytest.fixture(scope="module")
def with_server() -> Iterator[Served]:
    """One server for the module's scenarios, as an editor keeps one for its session: started
    and initialized once, each test's ``scenario`` run in it (each on files of its own),
    shut down and exited at the end (its start is 0.6 s of CPU, most of a scenario's cost)."""
    loop = asyncio.new_event_loop()
    client = Editor()

    async def start() -> None:
        await client.start_io(sys.executable, "-m", "rummydsl.cli", "lsp")
        await client.initialize_async(lsp.InitializeParams(capabilities=lsp.ClientCapabilities()))
        client.initialized(lsp.InitializedParams())

    async def stop(shut_down: bool) -> None:
        try:
            if shut_down:
                await client.shutdown_async(None)
        finally:
            client.exit(None)  # also when a scenario failed: a server left running would hang stop()
            await client.stop()

    def run(scenario: Scenario) -> None:
        loop.run_until_complete(scenario(client))

    started = False
    try:
        loop.run_until_complete(start())
        started = True
        yield run
    finally:
        loop.run_until_complete(stop(started))
        loop.close()


def uri_of(path: Path) -> str:
    uri = from_fs_path(str(path))
    assert uri is not None
    return uri


async def open_file(client: Editor, path: Path, text: str | None = None) -> list[lsp.Diagnostic]:
    """Open ``path`` (with ``text`` as its unsaved content) and wait for its diagnostics."""
    uri = uri_of(path)
    client.text_document_did_open(lsp.DidOpenTextDocumentParams(lsp.TextDocumentItem(
        uri=uri, language_id="yaml", version=1,
        text=path.read_text(encoding="utf-8") if text is None else text)))
    return await client.wait_for_diagnostics(uri)


def places(diagnostics: list[lsp.Diagnostic]) -> list[tuple[int, int, str]]:
    """(line, column, message) from 1, as ``check`` counts."""
    return [(d.range.start.line + 1, d.range.start.character + 1, d.message) for d in diagnostics]


ONE_FILE_BAD = ["expr_syntax", "expr_unknown_name", "expr_wrong_type", "unknown_keys", "missing_required",
                "bad_options", "bad_turn", "expr_block_scalar", "mixed_problems", "malformed_yaml"]


def test_diagnostics_are_checks_problems_at_checks_places(with_server: Served) -> None:
    async def scenario(client: Editor) -> None:
        for name in ONE_FILE_BAD:
            path = BAD / f"{name}.yaml"
            lines = path.read_text(encoding="utf-8").splitlines()
            extends = [(number + 1, line.index(":") + 3) for number, line in enumerate(lines)
                       if line.startswith("extends:")]
            expected = []
            for d in check_file(str(path)):
                if d.location.path == str(path):
                    expected.append((d.location.line, max(d.location.column, 1), d.message))
                else:  # a problem of the parent: on this file's extends value, with the parent's place
                    expected.append((*extends[0], f"{d.location}: {d.message}"))
            assert expected, name
            assert places(await open_file(client, path)) == expected, name

    with_server(scenario)


def test_diagnostics_have_severity_code_and_source(with_server: Served) -> None:
    async def scenario(client: Editor) -> None:
        found = await open_file(client, BAD / "warnings_only.yaml")
        assert found and {d.severity for d in found} == {lsp.DiagnosticSeverity.Warning}
        assert all(d.source == "rummydsl" and d.code for d in found)

    with_server(scenario)


def test_diagnostics_come_from_the_unsaved_text_as_you_type(tmp_path: Path, with_server: Served) -> None:
    async def scenario(client: Editor) -> None:
        path = tmp_path / "house.yaml"
        saved = "rummydsl: 1\nid: house\nextends: gin_rummy\nname: House\ngame:\n  target: 150\n"
        path.write_text(saved, encoding="utf-8")
        assert await open_file(client, path) == []
        uri = uri_of(path)
        typed = 'card_value: "rank == A ? 11 : min(ordr, 10)"\n'
        client.text_document_did_change(lsp.DidChangeTextDocumentParams(
            lsp.VersionedTextDocumentIdentifier(uri=uri, version=2),
            [lsp.TextDocumentContentChangePartial(
                range=lsp.Range(lsp.Position(6, 0), lsp.Position(6, 0)), text=typed)]))
        found = await client.wait_for_diagnostics(uri)
        assert [(d.range.start.line, d.range.start.character, d.range.end.character) for d in found] == [(6, 34, 38)]
        assert "'ordr'" in found[0].message and "did you mean 'order'?" in found[0].message
        assert path.read_text(encoding="utf-8") == saved  # checked from the buffer, not the disk
        # The same text saved is what `check` reports, at the same place.
        path.write_text(saved + typed, encoding="utf-8")
        assert [(d.location.line, d.location.column, d.message) for d in check_file(str(path))] == \
               [(7, 35, found[0].message)]

    with_server(scenario)


def test_a_problem_in_the_parent_shows_on_extends(tmp_path: Path, with_server: Served) -> None:
    async def scenario(client: Editor) -> None:
        (tmp_path / "base.yaml").write_text((variants_dir() / "gin_rummy.yaml").read_text(encoding="utf-8")
                                            .replace("min(order, 10)", "min(ordr, 10)"), encoding="utf-8")
        child = tmp_path / "child.yaml"
        child.write_text("rummydsl: 1\nid: child\nextends: ./base.yaml\nname: Child\n", encoding="utf-8")
        found = await open_file(client, child)
        assert found and all(d.range.start.line == 2 and d.range.start.character == 9 for d in found)
        assert "base.yaml:" in found[0].message and "'ordr'" in found[0].message

    with_server(scenario)


async def hover_text(client: Editor, path: Path, text: str, line: int, column: int) -> str:
    await open_file(client, path, text)
    found = await client.text_document_hover_async(lsp.HoverParams(
        lsp.TextDocumentIdentifier(uri=uri_of(path)), lsp.Position(line, column)))
    assert found is not None and isinstance(found.contents, lsp.MarkupContent)
    return found.contents.value


HOUSE = "rummydsl: 1\nid: house\nextends: gin_rummy\nname: House\n"


def test_hover_on_a_key_gives_the_schema_description(tmp_path: Path, with_server: Served) -> None:
    async def scenario(client: Editor) -> None:
        text = HOUSE + "game:\n  shutout: none\n"
        shown = await hover_text(client, tmp_path / "h.yaml", text, 5, 4)
        assert "When a loser scored nothing in the game (GR-10.4)." in shown
        assert "`double_total`" in shown and "Default: `none`" in shown

    with_server(scenario)


def test_hover_on_an_expression_function_gives_the_reference(tmp_path: Path, with_server: Served) -> None:
    async def scenario(client: Editor) -> None:
        text = HOUSE + 'melds:\n  run: "size >= 3 and consecutive(rank) and same(suit)"\n'
        shown = await hover_text(client, tmp_path / "h.yaml", text, 5, 26)
        assert "`consecutive(rank)`: bool" in shown and "meld context" in shown

    with_server(scenario)


async def completion_labels(client: Editor, path: Path, text: str, line: int, column: int) -> list[str]:
    await open_file(client, path, text)
    found = await client.text_document_completion_async(lsp.CompletionParams(
        lsp.TextDocumentIdentifier(uri=uri_of(path)), lsp.Position(line, column)))
    assert isinstance(found, lsp.CompletionList)
    return [item.label for item in found.items]


def test_completion_of_keys_at_the_cursors_place(tmp_path: Path, with_server: Served) -> None:
    async def scenario(client: Editor) -> None:
        labels = await completion_labels(client, tmp_path / "c.yaml", HOUSE + "game:\n  \n", 5, 2)
        assert labels == ["target", "deals", "winner", "game_bonus", "box_bonus", "shutout", "shutout_per", "hollywood", "match"]
        labels = await completion_labels(client, tmp_path / "c.yaml", HOUSE + "deal: {upcard: true, ro}\n", 4, 23)
        assert labels == ["rotation"]

    with_server(scenario)


def test_completion_of_values_ids_options_and_meld_kinds(tmp_path: Path, with_server: Served) -> None:
    async def scenario(client: Editor) -> None:
        path = tmp_path / "c.yaml"
        assert await completion_labels(client, path, HOUSE + "game:\n  shutout: d\n", 5, 12) == \
            ["double_total", "double_hand_points"]
        assert "skarney_gin" in await completion_labels(client, path, "extends: s\n", 0, 10)
        assert await completion_labels(client, path, HOUSE + "turn: [draw: {from: [st]}]\n", 4, 23) == ["stock"]
        options = await completion_labels(client, path, HOUSE + "options:\n  \n", 5, 2)
        assert {"gin_bonus", "undercut_bonus"} <= set(options)
        assert set(await completion_labels(client, path, HOUSE + "melds:\n  \n", 5, 2)) == {"set", "run"}

    with_server(scenario)


def test_completion_in_an_expression_offers_its_contexts_names(tmp_path: Path, with_server: Served) -> None:
    async def scenario(client: Editor) -> None:
        path = tmp_path / "e.yaml"
        meld = await completion_labels(client, path, HOUSE + 'melds:\n  poker: "size >= 3 and con"\n', 5, 27)
        assert meld == ["consecutive"]
        score = await completion_labels(client, path, HOUSE + "knock:\n  limit: \"\n", 5, 10)
        assert {"upcard", "value", "score", "gin_bonus"} <= set(score) and "deadwood" not in score
        contract = await completion_labels(client, path, HOUSE + 'contract: {melds: "any(kind == ', 4, 31)
        assert {"set", "run", "count_where", "kind"} <= set(contract)

    with_server(scenario)


def test_go_to_the_parent_from_extends(tmp_path: Path, with_server: Served) -> None:
    async def scenario(client: Editor) -> None:
        async def target(path: Path, text: str) -> Any:
            await open_file(client, path, text)
            return await client.text_document_definition_async(lsp.DefinitionParams(
                lsp.TextDocumentIdentifier(uri=uri_of(path)), lsp.Position(2, 11)))

        shipped = await target(tmp_path / "a.yaml", HOUSE)
        # the server may import rummydsl from another place than this test does (the source
        # tree beside the installed package): the target is the shipped file, wherever it is
        assert isinstance(shipped, lsp.Location) and shipped.uri.endswith("/variants/gin_rummy.yaml")
        assert Path(str(to_fs_path(shipped.uri))).read_text(encoding="utf-8") == (
            variants_dir() / "gin_rummy.yaml").read_text(encoding="utf-8")
        (tmp_path / "base.yaml").write_text(HOUSE, encoding="utf-8")
        relative = await target(tmp_path / "b.yaml", HOUSE.replace("gin_rummy", "./base.yaml"))
        assert isinstance(relative, lsp.Location) and relative.uri == uri_of((tmp_path / "base.yaml").resolve())
        assert await target(tmp_path / "c.yaml", HOUSE.replace("gin_rummy", "nothing_here")) is None

    with_server(scenario)


def test_a_completion_far_past_the_end_is_answered_at_the_end(tmp_path: Path, with_server: Served) -> None:
    """Regression (issue 17): a completion at line 10**9 was answered after minutes (the
    server padded the text to it); positions are held to the text. The cheap twin that
    counts the work is tests/unit/test_safetext.py::test_a_completion_far_past_the_end_is_held_to_the_text."""
    async def scenario(client: Editor) -> None:
        text = HOUSE + "game:\n  target: 150\n"
        at_end = await completion_labels(client, tmp_path / "far.yaml", text, 6, 0)
        far = await completion_labels(client, tmp_path / "far.yaml", text, 10**9, 10**9)
        assert far == at_end and "deal" in far

    with_server(scenario)
