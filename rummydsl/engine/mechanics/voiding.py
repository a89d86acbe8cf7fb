"""Play that makes the round void, beside the stock floor (``void:``).

Two limits keep a round finite where nothing else would (OpenSpiel's game has
both; the language says them for any variant, docs/language.md):

- ``void.at_discard_draw: N``: the round is void at the draw step's N-th draw from
  the discard pile of the round; that draw is not made. Taking the upcard in the
  first-turn offer (GR-4) and claiming the last discard (GR-8) are not draw steps,
  so they do not count.
- ``void.after_throwbacks: N``: a turn that discards the very card it took from the
  discard pile is a *throwback*; when N turns in a row are throwbacks, the round is
  void as that discard is made (before a last-discard claim can open). A turn that
  ends any other way breaks the row.

The state is the round's: ``discard_draws`` (draw-step draws from the pile so
far), ``throwbacks`` (the row's length) and ``throwback_turn`` (the turn, by
``Round.turns``, of the row's last throwback).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...cards import Card
from ...endings import Ending

from ..fields import Field
if TYPE_CHECKING:
    from ..round import Round

__all__ = ["void_at_discard_draw", "void_after_discard", "void_state"]

FIELDS: tuple[Field, ...] = (
    Field("discard_draws", lambda rnd: 0, json=lambda rnd, text: void_state(rnd), key=""),
    Field("throwbacks", lambda rnd: 0),
    Field("throwback_turn", lambda rnd: -1),
)
"""``discard_draws``: draw-step draws from the pile so far (``void.at_discard_draw``);
``throwbacks``: the turns in a row that discarded the card taken from the pile, the last
of them in turn ``throwback_turn`` (``void.after_throwbacks``). Written as
:func:`void_state` gives them."""



def void_at_discard_draw(rnd: Round) -> bool:
    """Count a draw step's draw from the discard pile, about to be made; True when it
    makes the round void (``void.at_discard_draw``): the round is then over, the
    draw not made."""
    limit = rnd.variant.void.at_discard_draw
    if limit is None:
        return False
    rnd.discard_draws += 1
    if rnd.discard_draws < limit:
        return False
    rnd.finish(Ending.VOID, None)
    return True


def void_after_discard(rnd: Round, card: Card) -> bool:
    """Note ``card``, just discarded by the player on turn; True when it ends a row of
    ``void.after_throwbacks`` throwbacks, which makes the round void (then over)."""
    limit = rnd.variant.void.after_throwbacks
    if limit is None:
        return False
    if card is not rnd.taken:
        rnd.throwbacks = 0
        return False
    in_row = rnd.throwbacks and rnd.throwback_turn == rnd.turns - 1
    rnd.throwbacks = rnd.throwbacks + 1 if in_row else 1
    rnd.throwback_turn = rnd.turns
    if rnd.throwbacks < limit:
        return False
    rnd.finish(Ending.VOID, None)
    return True


def void_state(rnd: Round) -> dict[str, int]:
    """The counters as JSON, for the variant's rules that keep them (none: empty)."""
    void = rnd.variant.void
    out: dict[str, int] = {}
    if void.at_discard_draw is not None:
        out["discard_draws"] = rnd.discard_draws
    if void.after_throwbacks is not None:
        out["throwbacks"] = rnd.throwbacks
        out["throwback_turn"] = rnd.throwback_turn
    return out
