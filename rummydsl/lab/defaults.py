"""The lab's default numbers, in a module of their own so that the flags of ``compare``,
``sweep`` and ``tournament`` (and their ``--help``) are built without importing the games."""

from __future__ import annotations

__all__ = ["DEFAULT_MAX_GAMES", "DEFAULT_MAX_DEALS"]

DEFAULT_MAX_GAMES = 20_000
"""``compare`` and ``sweep --until``: the most games of each variant."""

DEFAULT_MAX_DEALS = 5_000
"""``tournament --until``: the most deals."""
