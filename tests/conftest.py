"""Test-wide settings.

Under CI (the environment variable CI is set, as `.ci/run` is run) hypothesis draws
the same examples on every run, so a landing never depends on luck; locally the
examples are random, and a failure found there is kept in .hypothesis/ and replayed.

Where ``PYTHONDONTWRITEBYTECODE`` is set, every process of the run (each xdist worker,
each ``rummydsl`` the tests start, their worker processes) would compile the package
from source again and pytest would rewrite every test module's asserts again: the
bytecode goes to a private folder of the temporary directory instead
(``PYTHONPYCACHEPREFIX``), still nothing beside the sources (see docs/performance.md,
"The test suite's cost").
"""

from __future__ import annotations

import os
import stat
import sys
import tempfile
from pathlib import Path


def _bytecode_out_of_the_tree() -> None:
    """Keep compiled modules in ``$TMPDIR/rummydsl-test-bytecode-UID`` (made private to
    this user, else not used) when the environment says not to write them beside the
    sources; a prefix already chosen is kept."""
    if not sys.dont_write_bytecode or os.environ.get("PYTHONPYCACHEPREFIX") or not hasattr(os, "getuid"):
        return
    folder = Path(tempfile.gettempdir()) / f"rummydsl-test-bytecode-{os.getuid()}"
    try:
        folder.mkdir(mode=0o700, exist_ok=True)
        info = folder.lstat()
    except OSError:
        return
    if not stat.S_ISDIR(info.st_mode) or info.st_uid != os.getuid() or info.st_mode & 0o077:
        return  # not this user's alone: compile as the environment asked
    sys.pycache_prefix = str(folder)
    sys.dont_write_bytecode = False
    os.environ["PYTHONPYCACHEPREFIX"] = str(folder)  # the processes the tests start
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)


_bytecode_out_of_the_tree()

# imported only now, so that its modules (pytest rewrites the asserts of a plugin's package) are
# compiled once into the folder above rather than again in every process
from hypothesis import settings  # noqa: E402

settings.register_profile("ci", derandomize=True, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")

# pytester runs the pytest plugin (rummydsl.conformance.plugin) in a sandboxed session.
pytest_plugins = ["pytester"]
