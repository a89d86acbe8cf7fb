"""Conformance suites: rule cases as data that any engine could run.

- :mod:`~rummydsl.conformance.suite`: the file format (spec/conformance.schema.json), read and checked;
- :mod:`~rummydsl.conformance.runner`: running cases and reporting where they diverge;
- :mod:`~rummydsl.conformance.coverage`: which RULES.md ids and option values no case cites;
- :mod:`~rummydsl.conformance.plugin`: the pytest plugin (``pytest path/to/suites``).
"""

from __future__ import annotations

from .runner import CaseResult, Difference, run_case, run_cases
from .suite import Case, Suite, find_suites, load_suite

__all__ = ["Case", "Suite", "load_suite", "find_suites", "CaseResult", "Difference", "run_case", "run_cases"]
