"""The fuzz tests import the targets from fuzz/ and the tree edits from tests/unit/.

A long run: ``RUMMYDSL_FUZZ_EXAMPLES=50 pytest tests/fuzz`` multiplies every fuzz
test's number of examples by 50 (fuzz/README.md).
"""

from __future__ import annotations

import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
for folder in (REPO / "fuzz", REPO / "tests" / "unit"):
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))
