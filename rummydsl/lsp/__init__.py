"""Editor support for variant files: the editor schema and the language server.

:mod:`rummydsl.lsp.editor_schema` needs nothing beyond the core install (``rummydsl
schema`` prints it). :mod:`rummydsl.lsp.server` needs the ``lsp`` extra (pygls):
``pip install 'rummydsl[lsp]'``. Importing this package imports neither.
"""

from __future__ import annotations

__all__: list[str] = []
