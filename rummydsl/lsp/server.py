"""``rummydsl lsp``: the language server for variant files, over stdio (pygls).

It answers from the editor's text, saved or not: diagnostics as you type (the same
problems, at the same places, as ``rummydsl check``), hover, completion and go to
definition on ``extends:``. The answers come from :mod:`rummydsl.lsp.features`;
this module only speaks the protocol. It needs the ``lsp`` extra
(``pip install 'rummydsl[lsp]'``).
"""

from __future__ import annotations

import os

from lsprotocol import types as lsp
from pygls.lsp.server import LanguageServer
from pygls.uris import from_fs_path

from .. import __version__
from . import features

__all__ = ["server", "serve"]

server = LanguageServer("rummydsl", __version__)
"""The server; :func:`serve` runs it over stdin and stdout."""

_SEVERITY = {"error": lsp.DiagnosticSeverity.Error, "warning": lsp.DiagnosticSeverity.Warning}
_KIND = {"key": lsp.CompletionItemKind.Property, "value": lsp.CompletionItemKind.EnumMember,
         "function": lsp.CompletionItemKind.Function, "name": lsp.CompletionItemKind.Variable,
         "variant": lsp.CompletionItemKind.File}


def _path_and_text(ls: LanguageServer, uri: str) -> tuple[str, str]:
    document = ls.workspace.get_text_document(uri)
    path = document.path or os.path.join(os.getcwd(), "untitled.yaml")
    return path, document.source


def _publish(ls: LanguageServer, uri: str) -> None:
    path, text = _path_and_text(ls, uri)
    found = [
        lsp.Diagnostic(
            range=lsp.Range(lsp.Position(p.span.line, p.span.start), lsp.Position(p.span.line, p.span.end)),
            message=p.message,
            severity=_SEVERITY[p.severity],
            code=p.rule,
            source="rummydsl",
        )
        for p in features.diagnostics(path, text)
    ]
    version = ls.workspace.get_text_document(uri).version
    ls.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(uri=uri, diagnostics=found, version=version))


@server.feature(lsp.TEXT_DOCUMENT_DID_OPEN)
def _did_open(ls: LanguageServer, params: lsp.DidOpenTextDocumentParams) -> None:
    _publish(ls, params.text_document.uri)


@server.feature(lsp.TEXT_DOCUMENT_DID_CHANGE)
def _did_change(ls: LanguageServer, params: lsp.DidChangeTextDocumentParams) -> None:
    _publish(ls, params.text_document.uri)


@server.feature(lsp.TEXT_DOCUMENT_DID_SAVE)
def _did_save(ls: LanguageServer, params: lsp.DidSaveTextDocumentParams) -> None:
    _publish(ls, params.text_document.uri)


@server.feature(lsp.TEXT_DOCUMENT_DID_CLOSE)
def _did_close(ls: LanguageServer, params: lsp.DidCloseTextDocumentParams) -> None:
    ls.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(uri=params.text_document.uri, diagnostics=[]))


@server.feature(lsp.TEXT_DOCUMENT_HOVER)
def _hover(ls: LanguageServer, params: lsp.HoverParams) -> lsp.Hover | None:
    path, text = _path_and_text(ls, params.text_document.uri)
    found = features.hover(path, text, params.position.line, params.position.character)
    if found is None:
        return None
    return lsp.Hover(contents=lsp.MarkupContent(kind=lsp.MarkupKind.Markdown, value=found))


@server.feature(lsp.TEXT_DOCUMENT_COMPLETION,
                lsp.CompletionOptions(trigger_characters=[" ", "(", "{", ",", "[", "-", '"']))
def _completion(ls: LanguageServer, params: lsp.CompletionParams) -> lsp.CompletionList:
    path, text = _path_and_text(ls, params.text_document.uri)
    items = [
        lsp.CompletionItem(
            label=item.label,
            kind=_KIND[item.kind],
            detail=item.detail or None,
            documentation=(lsp.MarkupContent(kind=lsp.MarkupKind.Markdown, value=item.documentation)
                           if item.documentation else None),
        )
        for item in features.completions(path, text, params.position.line, params.position.character)
    ]
    return lsp.CompletionList(is_incomplete=False, items=items)


@server.feature(lsp.TEXT_DOCUMENT_DEFINITION)
def _definition(ls: LanguageServer, params: lsp.DefinitionParams) -> lsp.Location | None:
    path, text = _path_and_text(ls, params.text_document.uri)
    target = features.definition(path, text, params.position.line, params.position.character)
    if target is None:
        return None
    start = lsp.Position(0, 0)
    return lsp.Location(uri=from_fs_path(target) or target, range=lsp.Range(start, start))


def serve() -> None:
    """Run the language server over stdin and stdout until the editor stops it."""
    server.start_io()
