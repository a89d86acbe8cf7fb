"""The mechanics of play, one module each, all of the shape of :class:`.base.Mechanic`.

=========== ===================================================== ========================
module      mechanic                                              rules
=========== ===================================================== ========================
upcard      the first-turn upcard offer                           GR-4, GS-4
draw        the draw step, the stock floor, the pile turned over  GR-5, SK-4.1, GS-5, BR-4
melding     the meld step, contracts, lay-offs, going out         SK-5, SK-6, SK-8, BR-3
discard     the discard step, going out by the last card          GR-5, GS-5, BR-3
offer       offering a card and taking or declining it            SK-7
knock       knocking, gin, big gin, the defenders' showdown       GR-6, GR-7, GS-6
floor       the last-discard claim at the stock floor             GR-8
buying      buying the top discard out of turn                    CR-4
credit      who laid each table card; ``melded(p)``                R5-1, R5-4, R5-6
deep        deep draws into the discard pile, the meld they oblige R5-3
arrangement whose arrangement counts at a knock (least, as shown)     C-6, GR-7
voiding     the round void at the N-th pile draw, N throwbacks    (``void:``)
=========== ===================================================== ========================

``credit``, ``deep``, ``arrangement`` and ``voiding`` are helpers of the mechanics
above, not mechanics of their own.
"""

from __future__ import annotations

from ..fields import Field
from ..state import Phase
from . import buying, deep, draw, floor, knock, melding, offer, upcard, voiding
from .base import Mechanic
from .discard import DiscardMechanic
from .draw import DrawMechanic
from .floor import ClaimMechanic
from .knock import KnockMechanic, ShowdownMechanic
from .melding import MeldMechanic
from .offer import AnswerMechanic, OfferMechanic
from .upcard import UpcardOffer

__all__ = ["Mechanic", "FIELDS", "UPCARD", "DRAW", "MELD", "DISCARD", "OFFER", "ANSWER", "CLAIM", "KNOCK",
           "SHOWDOWN", "BUY", "STEPS", "BY_PHASE"]

UPCARD = UpcardOffer()
DRAW = DrawMechanic()
MELD = MeldMechanic()
DISCARD = DiscardMechanic()
OFFER = OfferMechanic()
ANSWER = AnswerMechanic()
CLAIM = ClaimMechanic()
KNOCK = KnockMechanic()
SHOWDOWN = ShowdownMechanic()
BUY = buying.BUY

#: The mechanic of each turn step name of the language (``turn:``).
STEPS: dict[str, Mechanic] = {"draw": DRAW, "meld": MELD, "discard": DISCARD, "offer": OFFER}

#: The mechanic that answers for each phase.
BY_PHASE: dict[Phase, Mechanic] = {
    Phase.UPCARD: UPCARD, Phase.DRAW: DRAW, Phase.MELD: MELD, Phase.DISCARD: DISCARD,
    Phase.OFFER: OFFER, Phase.ANSWER: ANSWER, Phase.CLAIM: CLAIM, Phase.SHOWDOWN: SHOWDOWN,
    Phase.BUY: BUY,
}

#: The state the mechanics declare (each module's ``FIELDS``), in the order a round sets it.
FIELDS: tuple[Field, ...] = (*upcard.FIELDS, *draw.FIELDS, *deep.FIELDS, *melding.FIELDS, *offer.FIELDS,
                             *floor.FIELDS, *voiding.FIELDS, *buying.FIELDS, *knock.FIELDS)
