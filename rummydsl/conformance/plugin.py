"""The pytest plugin: suite files (``*.suite.yaml``) become test items named by case id.

Installed with rummydsl (a ``pytest11`` entry point), so ``pytest path/to/suites``
works in any project: each case is one item, ``-k`` selects by case id, and a
failure shows the same report as ``rummydsl test`` (the case, its rule id, each
difference with its place in the suite file). A malformed suite file is a
collection error with every problem at ``path:line:col``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Iterator

import pytest

from ..errors import SuiteError
from ..safetext import safe_text
from .runner import run_case
from .suite import SUITE_SUFFIXES, load_suite

__all__ = ["pytest_collect_file", "SuiteFile", "CaseItem"]


def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> pytest.Collector | None:
    """Collect ``*.suite.yaml`` files."""
    if file_path.name.endswith(SUITE_SUFFIXES):
        return SuiteFile.from_parent(parent, path=file_path)
    return None


class CaseFailed(Exception):
    """A case's outcome differs from what it expects (the report is the message)."""


class SuiteFile(pytest.File):
    """One suite file."""

    def collect(self) -> Iterator[pytest.Item]:
        try:
            suite = load_suite(str(self.path))
        except SuiteError as problem:
            found = "\n".join(str(d) for d in problem.diagnostics)
            raise self.CollectError(safe_text("malformed suite file:\n" + found)) from None
        for case in suite.cases:
            item = CaseItem.from_parent(self, name=case.id, case=case)
            for tag in case.tags:
                if tag.isidentifier():
                    self.config.addinivalue_line("markers", f"{tag}: a conformance case tag")
                    item.add_marker(tag)
            yield item


class CaseItem(pytest.Item):
    """One case of a suite."""

    def __init__(self, *, case: Any, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.case = case
        for rule in case.rules:
            self.user_properties.append(("rule", rule))

    def runtest(self) -> None:
        result = run_case(self.case)
        if result.status == "skipped":
            pytest.skip(safe_text(result.reason or ""))
        if not result.passed:
            raise CaseFailed(result.report())

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> str:
        if isinstance(excinfo.value, CaseFailed):
            return str(excinfo.value)
        return str(super().repr_failure(excinfo))

    def reportinfo(self) -> tuple[Path, int, str]:
        rules = f" ({', '.join(self.case.rules)})" if self.case.rules else ""
        return self.path, self.case.location.line - 1, f"case {self.case.id}{rules}"
