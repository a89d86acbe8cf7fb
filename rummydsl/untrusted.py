"""Opening a file a stranger or a command line named: only a regular file, never a special one.

Every file rummydsl reads because someone wrote its name (a command-line path, an
``extends:`` parent, a suite's ``variant:``, a record or run file) is opened here,
by :func:`open_regular`, and only if it is a *regular file*: never a folder, a FIFO
(which would block the read for ever), a socket, a device (``/dev/zero`` has no
end), nor anything under ``/proc``, ``/sys`` or ``/dev`` (``/proc/self/environ`` is
a "regular" file holding the environment). The check is made twice: on the name
before opening (so a device is never even opened), and on the opened descriptor
(``fstat``, so a name swapped for a FIFO between the two cannot slip through; the
open itself never blocks, as it is made with ``O_NONBLOCK``).

A refusal is an :class:`Untrusted` exception whose text names the reason, never
anything read from the file: ``not a regular file: a FIFO``, ``is under /proc``,
``not a variant file: the name must end in .yaml or .yml``. Callers turn it into
their own located error (a :class:`~rummydsl.errors.VariantError`, a
:class:`~rummydsl.errors.RecordError`).

>>> refusal("/dev/null")
'not a regular file: a character device'
>>> refusal("/proc/self/environ")
'is under /proc, where no variant, suite, record or run file lives'
>>> refusal("notes.txt", variant=True)
'not a variant file: the name must end in .yaml or .yml'
>>> refusal("/no/such/file.yaml") is None   # a missing file is the caller's own error
True
"""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import BinaryIO

from rummydsl.limits import MAX_EXTENDS_UP

__all__ = [
    "VARIANT_SUFFIXES",
    "SPECIAL_TREES",
    "Untrusted",
    "refusal",
    "open_regular",
    "read_regular",
    "is_variant_name",
    "is_variant_file",
    "reach_root",
    "reach_refusal",
    "named_refusal",
]

VARIANT_SUFFIXES = (".yaml", ".yml")
"""How a variant file's name ends."""

SPECIAL_TREES = ("/proc", "/sys", "/dev")
"""Folders of the system's own pseudo-files: nothing in them is ever read."""


class Untrusted(OSError):
    """A file refused before any of it was read; ``str()`` is the reason alone.

    An ``OSError``, so a caller that already reports "cannot read the file: ..."
    for a missing file reports a refused one the same way.
    """

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason

    def __str__(self) -> str:
        return self.reason


_KINDS = (
    (stat.S_ISDIR, "a folder"),
    (stat.S_ISFIFO, "a FIFO (a named pipe)"),
    (stat.S_ISSOCK, "a socket"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
)


def _kind(mode: int) -> str | None:
    """What a file of this mode is, if it is not a regular file."""
    if stat.S_ISREG(mode):
        return None
    for test, name in _KINDS:
        if test(mode):
            if name.startswith("a FIFO"):
                return "a FIFO"
            return name
    return "not a file of data"


def _special_devices() -> set[int]:
    found = set()
    for tree in SPECIAL_TREES:
        try:
            found.add(os.stat(tree).st_dev)
        except OSError:
            pass
    return found


_SPECIAL_DEVICES: set[int] | None = None


def _under_special(real: str, device: int | None = None) -> str | None:
    """The special tree ``real`` (a resolved path) is in, or on whose file system it lies."""
    global _SPECIAL_DEVICES
    for tree in SPECIAL_TREES:
        if real == tree or real.startswith(tree + os.sep):
            return tree
    if device is not None:
        if _SPECIAL_DEVICES is None:
            _SPECIAL_DEVICES = _special_devices()
        if device in _SPECIAL_DEVICES:
            return "a system pseudo-file system (like /proc)"
    return None


def _special_reason(tree: str) -> str:
    if tree.startswith("/"):
        return f"is under {tree}, where no variant, suite, record or run file lives"
    return f"is on {tree}, where no variant, suite, record or run file lives"


def _real(path: str) -> str:
    try:
        return os.path.realpath(path)
    except (OSError, ValueError):
        return os.path.abspath(path)


def is_variant_name(path: str | Path) -> bool:
    """Whether a file's name ends as a variant file's does (``.yaml`` or ``.yml``).

    >>> is_variant_name("house/base.yml"), is_variant_name("/etc/passwd")
    (True, False)
    """
    return str(path).endswith(VARIANT_SUFFIXES)


def refusal(path: str | Path, *, variant: bool = False) -> str | None:
    """Why the file ``path`` may not be read, or None if it may (or does not exist:
    a missing file is left to the caller, which says "does not exist" its own way).

    With ``variant``, the name must also end in ``.yaml`` or ``.yml``. Only the
    name and the file's kind are looked at, never its content.
    """
    name = os.fspath(path)
    if variant and not is_variant_name(name):
        return "not a variant file: the name must end in .yaml or .yml"
    try:
        info = os.stat(name)
    except (OSError, ValueError):
        return None
    kind = _kind(info.st_mode)
    if kind is not None:
        return f"not a regular file: {kind}"
    tree = _under_special(_real(name), info.st_dev)
    if tree is not None:
        return _special_reason(tree)
    return None


def is_variant_file(path: str | Path) -> bool:
    """Whether ``path`` is a variant file by its name and kind: a regular file named
    ``*.yaml``/``*.yml``, outside the system's pseudo-files (for suggestions: its
    content is not read)."""
    try:
        return refusal(path, variant=True) is None and os.path.isfile(path)
    except (OSError, ValueError):
        return False


def open_regular(path: str | Path, *, variant: bool = False) -> BinaryIO:
    """``path`` opened for reading bytes, if it is a regular file (and, with
    ``variant``, named as a variant file).

    :raises Untrusted: (an ``OSError``) naming why the file is refused; nothing
        of the file has been read.
    :raises OSError: as ``open`` does (no such file, permission denied, ...).
    :raises ValueError: for a name with a NUL in it.
    """
    name = os.fspath(path)
    reason = refusal(name, variant=variant)
    if reason is not None:
        raise Untrusted(reason)
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0) \
        | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0)
    fd = os.open(name, flags)
    try:
        info = os.fstat(fd)
        kind = _kind(info.st_mode)
        if kind is not None:
            raise Untrusted(f"not a regular file: {kind}")
        try:
            real = os.readlink(f"/proc/self/fd/{fd}")
        except OSError:
            real = _real(name)
        tree = _under_special(real, info.st_dev)
        if tree is not None:
            raise Untrusted(_special_reason(tree))
        if hasattr(os, "set_blocking"):
            os.set_blocking(fd, True)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def read_regular(path: str | Path, limit: int, *, variant: bool = False) -> bytes:
    """At most ``limit + 1`` bytes of the regular file ``path`` (so a caller can
    tell a file past its limit), opened by :func:`open_regular`.

    :raises Untrusted: or ``OSError``/``ValueError`` as :func:`open_regular`.
    """
    with open_regular(path, variant=variant) as handle:
        return handle.read(limit + 1)


# ------------------------------------------------------------------ names inside files


def reach_root(named: str | Path) -> str:
    """The folder inside which the files that ``named`` (the file a person named)
    names in turn must lie: its own folder, resolved, climbed
    :data:`~rummydsl.limits.MAX_EXTENDS_UP` folders.

    >>> reach_root("/srv/rules/house/fast/quick.yaml")
    '/srv/rules'
    """
    folder = os.path.dirname(_real(os.path.abspath(os.fspath(named))))
    for _ in range(MAX_EXTENDS_UP):
        folder = os.path.dirname(folder)
    return folder


def _inside(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder.rstrip(os.sep) + os.sep)


def reach_refusal(target: str, folder: str, root: str, *, also: tuple[str, ...] = ()) -> str | None:
    """Why a file in ``folder`` may not name the variant file ``target`` (as
    ``extends:`` or a suite's ``variant:`` do), or None if it may.

    The rule (docs/security.md, "Which files a file may name"): ``target`` is a
    relative path ending in ``.yaml``/``.yml``; with ``..`` and symbolic links
    followed it lies inside ``root`` (:func:`reach_root`) or one of ``also`` (the
    shipped variants' folder), and it does not go down into a hidden folder (a
    name starting with ``.``, such as ``.config`` or ``.ssh``) nor name a hidden
    file. Only names are looked at: nothing is opened.

    >>> reach_refusal("/etc/passwd.yaml", "/srv/rules", "/srv")
    'an absolute path: a file names another only relative to its own folder'
    >>> reach_refusal("../../../../etc/shadow.yaml", "/srv/rules/house", "/srv")
    "it leads outside '/srv', the folder 2 above the file you named"
    >>> reach_refusal("../.config/gh/hosts.yml", "/srv/rules", "/srv")
    "it goes into the hidden folder '.config'"
    >>> reach_refusal("../base.yaml", "/srv/rules/house", "/srv") is None
    True
    """
    if "\0" in target:
        return "a NUL character in the name"
    if os.path.isabs(target) or target.startswith("\\") or (len(target) > 1 and target[1] == ":"):
        return "an absolute path: a file names another only relative to its own folder"
    if "\\" in target:
        return "a backslash in the path: folders are separated by '/'"
    if not is_variant_name(target):
        return "not a variant file: the name must end in .yaml or .yml"
    real_folder = _real(folder)
    real = _real(os.path.join(real_folder, target))
    if any(_inside(real, place) for place in also):
        return None  # the shipped variants' folder, wherever the package is installed
    if not _inside(real, root):
        return f"it leads outside {root!r}, the folder {MAX_EXTENDS_UP} above the file you named"
    try:
        common = os.path.commonpath([real, real_folder])
    except ValueError:
        common = real_folder
    below = os.path.relpath(real, common).split(os.sep)
    for part in below[:-1]:
        if part.startswith("."):
            return f"it goes into the hidden folder {part!r}"
    if below[-1].startswith("."):
        return "it names a hidden file"
    return None


def named_refusal(path: str | Path, *, walked: str | None = None) -> str | None:
    """Why the variant or suite file ``path``, named on a command line (or found in
    the folder ``walked`` that was), may not be read, or None if it may.

    :func:`refusal` with ``variant``, and a symbolic link is held to the rule of
    :func:`reach_refusal` measured from the folder the link lies in (so a
    ``house.yaml`` that links to ``/etc/passwd``, ``~/.config/gh/hosts.yml`` or
    ``/proc/self/environ`` is refused, while a link to a file a folder or two away
    is followed); a file found by walking ``walked`` must lie inside it.

    >>> named_refusal("/dev/null")
    'not a variant file: the name must end in .yaml or .yml'
    """
    reason = refusal(path, variant=True)
    if reason is not None:
        return reason
    name = os.fspath(path)
    folder = _real(os.path.dirname(os.path.abspath(name)) or os.sep)
    lexical = os.path.join(folder, os.path.basename(name))
    real = _real(lexical)
    if walked is not None and not _inside(real, _real(walked)):
        return f"a symbolic link that leads outside the folder {walked!r}"
    if real != lexical:
        root = folder
        for _ in range(MAX_EXTENDS_UP):
            root = os.path.dirname(root)
        linked = reach_refusal(os.path.relpath(real, folder), folder, root)
        if linked is not None:
            return f"a symbolic link to a file no variant may name: {linked}"
    return None
