"""What a round's expressions read: :class:`~rummydsl.expr.runtime.RoundFacts`, kept
importable from here (it lives in :mod:`rummydsl.expr.runtime`, beside the
:class:`~rummydsl.expr.runtime.RoundView` it is, so the variant's checks below the
engine can build one too).
"""

from __future__ import annotations

from ..expr.runtime import RoundFacts

__all__ = ["RoundFacts"]
