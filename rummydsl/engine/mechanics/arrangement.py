"""Whose arrangement of a hand counts at a knock (``deadwood.arrangement``, C-6).

With ``least`` (the default) a hand's deadwood is the least its cards allow
(C-6): melds a player shows must belong to such an arrangement, and a defender
is scored on the least deadwood of what it keeps, whatever it showed.

With ``as_shown`` a hand is scored on the melds its player shows (as OpenSpiel
scores it):

- the knocker may show any melds that leave at most the knock limit; what it does
  not show is its deadwood (none left is gin). ``knock CARD`` without melds shows
  an arrangement of least deadwood; ``knock CARD []`` shows none.
- each defender then shows melds (``meld [..] [..]``, any melds of its hand;
  ``meld []``: none), lays off where the ending allows it, and says ``done``; its
  deadwood is every card it kept that is in no shown meld. A defender that says
  ``done`` without showing is shown an arrangement of least deadwood (C-7: the
  engine deciding for a player takes the best for them).
- the defenders show melds after gin and big gin too, without lay-offs (GR-7.2),
  and after a knock where ``layoff.onto`` is ``none``.

The state is the round's ``declared`` (what each player showed) and
``ender_deadwood``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...endings import Ending

if TYPE_CHECKING:
    from ..round import Round

__all__ = ["as_shown", "defenders_show", "unshown_deadwood", "show_least"]

_SHOWN_ENDINGS = (Ending.KNOCK, Ending.GIN, Ending.BIG_GIN)


def as_shown(rnd: Round) -> bool:
    """Whether the variant scores hands on the melds shown (``deadwood.arrangement: as_shown``)."""
    return rnd.variant.deadwood_arrangement == "as_shown"


def defenders_show(rnd: Round) -> bool:
    """Whether the defenders show melds after this ending: wherever they may lay off
    (GR-7.1), and with ``as_shown`` after every knock, gin and big gin."""
    if rnd.ender is None:
        return False
    if rnd.showdown_layoffs():
        return True
    return as_shown(rnd) and rnd.ending in _SHOWN_ENDINGS


def unshown_deadwood(rnd: Round, player: int) -> int:
    """The value of ``player``'s cards that are in no meld it showed (``as_shown``)."""
    used = {c.id for meld in rnd.declared[player] or () for c in meld}
    return rnd.value([c for c in rnd.hands[player] if c.id not in used])


def show_least(rnd: Round, player: int) -> None:
    """Show for ``player`` an arrangement of least deadwood of its hand (C-7)."""
    hand = rnd.hands[player]
    rnd.declared[player] = tuple(rnd.rules.solve(hand, check_contract=False).melds) if hand else ()
