"""The web playground (``rummydsl serve``, the ``web`` extra): write a house rule in the
browser, see ``check``'s problems as you type, read it back and play it.

The package: :mod:`~rummydsl.web.texts` (a posted variant text checked, explained and
built with the limits of a file, its ``extends:`` held to shipped variants),
:mod:`~rummydsl.web.games` (the games in memory: a :class:`~rummydsl.Match` and agents
for the other seats), :mod:`~rummydsl.web.app` (the Starlette application: the JSON
API of DESIGN.md and the page) and ``static/`` (the page, with its CodeMirror editor
built once from web/ in the repository). docs/playground.md describes it all.
"""

from __future__ import annotations

__all__: list[str] = []
