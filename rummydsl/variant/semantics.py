"""Checks that need the whole variant: beyond what the schema and the types can say.

Errors are variants that cannot be played (the deck cannot hold the deal, a meld
kind can never be formed, the contract can never be met, a turn cannot end).
Warnings are valid but odd choices (a meld kind no hand is big enough for, a knock
limit no hand can reach, settings that have no effect).

:func:`semantic_diagnostics` runs the checks in a fixed order (the order of the
diagnostics); each part of the variant has its module:

- :mod:`.semantics_deal`: the deal and the player counts;
- :mod:`.semantics_turn`: the turn's steps, knocking, the stock, going out, buying;
- :mod:`.semantics_melds`: the meld kinds and the contract, probed with the sample
  groups of :mod:`.semantics_probe`;
- :mod:`.semantics_scoring`: scoring and the game;
- :mod:`.semantics_report`: the report they write into, each problem at its place.

This module's import path stays the way to reach the probe (``sample_melds``,
``natural_groups``, ``wild_groups``, ``size_bounds``, ``MAX_PROBE_SIZE``).
"""

from __future__ import annotations

from typing import Any

from ..errors import Diagnostic
from .model import Variant
from .semantics_deal import check_deal, check_sit_out
from .semantics_melds import check_contract, check_melds
from .semantics_probe import MAX_PROBE_SIZE, natural_groups, sample_groups, sample_melds, size_bounds, wild_groups
from .semantics_report import Report
from .semantics_scoring import check_game, check_integer_sizes, check_scoring, names_through_lets
from .semantics_turn import check_buying, check_knock, check_turn

__all__ = ["semantic_diagnostics", "sample_melds", "sample_groups", "natural_groups", "wild_groups",
           "size_bounds", "MAX_PROBE_SIZE"]

#: The old private name of :func:`.semantics_scoring.names_through_lets`, which
#: rummydsl/playcheck.py imports from here.
_names_through_lets = names_through_lets


def semantic_diagnostics(variant: Variant, positions: Any) -> list[Diagnostic]:
    """Every semantic problem of a built variant, each at its place in ``positions``
    (the :class:`~rummydsl.variant.load_positions.Positions` of its YAML)."""
    report = Report(positions, [])
    check_deal(variant, report)
    check_sit_out(variant, report)
    check_turn(variant, report)
    samples = check_melds(variant, report)
    check_contract(variant, report, samples)
    check_knock(variant, report)
    check_scoring(variant, report)
    check_integer_sizes(variant, report)
    check_game(variant, report)
    check_buying(variant, report)
    return report.found
