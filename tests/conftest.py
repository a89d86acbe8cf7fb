"""Test-wide settings.

Under CI (the environment variable CI is set, as `.ci/run` is run) hypothesis draws
the same examples on every run, so a landing never depends on luck; locally the
examples are random, and a failure found there is kept in .hypothesis/ and replayed.
"""

from __future__ import annotations

import os

from hypothesis import settings

settings.register_profile("ci", derandomize=True, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")

# pytester runs the pytest plugin (rummydsl.conformance.plugin) in a sandboxed session.
pytest_plugins = ["pytester"]
