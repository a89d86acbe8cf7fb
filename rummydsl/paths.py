"""Asking the file system about a path someone typed, without its odd exceptions.

``Path.is_file()`` and friends answer False for a path that does not exist, but
raise ``OSError`` for a name the system cannot look up at all (longer than the
system allows, say) and, before Python 3.8, ``ValueError`` for a NUL inside it. A
path from a command line, a suite or a game record is anybody's text: these
answer False for all of those, and the caller reports "no such file" as usual.

>>> is_file("x" * 5000), is_dir("a\\0b"), exists("x" * 5000)
(False, False, False)
"""

from __future__ import annotations

from pathlib import Path

__all__ = ["is_file", "is_dir", "exists"]


def is_file(path: str | Path) -> bool:
    """Whether ``path`` names a regular file (False where it cannot be looked up)."""
    try:
        return Path(path).is_file()
    except (OSError, ValueError):
        return False


def is_dir(path: str | Path) -> bool:
    """Whether ``path`` names a folder (False where it cannot be looked up)."""
    try:
        return Path(path).is_dir()
    except (OSError, ValueError):
        return False


def exists(path: str | Path) -> bool:
    """Whether ``path`` names anything (False where it cannot be looked up)."""
    try:
        return Path(path).exists()
    except (OSError, ValueError):
        return False
