"""Putting melds on the table and laying off (SK-5, SK-6; the defenders' lay-offs of GR-7).

The meld step lets the player put down melds and add cards to table melds,
then say ``done`` (when the step is ``optional``; otherwise only once nothing
more can be put down). With a contract (SK-5) the first lay-down must meet it
while melds stay ``concealed_until_met``; after it, more melding in the same
turn only with ``then_meld_same_turn`` (SK-5.4), new melds only with
``new_melds_after`` (false: only lay-offs, CR-3), and lay-offs onto one's own
melds (``add_to_own``) or the others' (``add_to_opponents``). A player who has
met the contract and empties their hand here goes out (SK-8); going out before
meeting it is refused, and so is any meld or lay-off that would empty the hand
when ``going_out.final_discard`` is ``required`` (BR-3: the last card must be
discarded), or that would leave only the card taken from the pile this turn when
the discard step may not throw it (the turn could not end). A table meld keeps the kind it was laid as with
``kind_locked`` (SK-3.4); otherwise it may change kind as it grows.

The functions here judge groups for the other mechanics too (a knock's melds,
a defender's lay-offs).
"""

from __future__ import annotations

import itertools
from typing import TYPE_CHECKING, Sequence

from ...cards import Card
from ...errors import IllegalActionError
from ...variant.model import MeldStep
from ..actions import Action, Done, Layoff, Meld, player_name
from ..state import Phase, TableMeld
from .base import Mechanic
from .discard import barred
from .contractlist import _contract_melds, _meld
from .meldlist import MAX_LISTED, _judged_melds, single_melds
from .layoffs import (FINAL_DISCARD_REASON, LAST_CARD_REASON, TAKEN_LAST_REASON, _fits, _last_card_fits,
                      apply_layoff, check_layoff, final_discard_required, last_card_stays, layoff_targets,
                      list_layoffs, only_taken_left)

from ..fields import Field, seat_map
if TYPE_CHECKING:
    from ..round import Round

__all__ = [
    "MeldMechanic",
    "judge_melds",
    "first_kind",
    "layoff_targets",
    "check_layoff",
    "apply_layoff",
    "list_layoffs",
    "single_melds",
    "MAX_LISTED",
    "final_discard_required",
    "FINAL_DISCARD_REASON",
    "TAKEN_LAST_REASON",
    "too_few_left",
    "only_taken_left",
]

FIELDS: tuple[Field, ...] = (
    Field("met_contract", lambda rnd: [rnd.variant.contract is None] * rnd.players, "list",
          json=lambda rnd, text: seat_map(rnd.met_contract)),
    Field("melded_turns", lambda rnd: [0] * rnd.players, "list", json=lambda rnd, text: seat_map(rnd.melded_turns)),
    Field("laid_this_turn", lambda rnd: False, json=lambda rnd, text: rnd.laid_this_turn, turn=True),
    Field("contract_now", lambda rnd: False, turn=True),
)
"""``met_contract`` by seat; ``melded_turns``: in how many of their turns each seat put
a card on the table (BR-5); ``laid_this_turn``; ``contract_now``: the contract was met
this turn (SK-5.4)."""



Judged = list[tuple[tuple[Card, ...], str]]

def first_kind(rnd: Round, cards: Sequence[Card], pool: Sequence[Card]) -> str:
    """The first declared kind the group forms (the kind it is laid as)."""
    kinds = rnd.rules.kinds_of(cards, hand=pool)
    return next(k for k in rnd.rules.kind_names if k in kinds)


def judge_melds(rnd: Round, player: int, melds: Sequence[Sequence[Card]], pool: Sequence[Card],
                what: str) -> Judged:
    """The melds, made of distinct cards of ``pool``, each with the kind it is laid as.

    :raises IllegalActionError: (reason only) for a card not in ``pool`` or a group
        that forms no kind.
    """
    used: set[int] = set()
    out: Judged = []
    for meld in melds:
        cards = []
        for card in meld:
            held = rnd.find(pool, card, used)
            if held is None:
                raise IllegalActionError("", f"{player_name(player)} has no {card} {what}")
            used.add(held.id)
            cards.append(held)
        kinds = rnd.rules.kinds_of(cards, hand=pool)
        if not kinds:
            text = " ".join(str(c) for c in meld)
            raise IllegalActionError("", f"[{text}] is not a meld of this variant "
                                         f"(kinds: {', '.join(rnd.rules.kind_names)})")
        out.append((tuple(cards), next(k for k in rnd.rules.kind_names if k in kinds)))
    return out


def _listed_kinds(rnd: Round, player: int, melds: Sequence[Sequence[Card]], hand: Sequence[Card]) -> Judged:
    """:func:`judge_melds` of a listed lay-down (legal: its melds are groups of the cards
    held, each forming a kind): each group's first kind read from ``kinds_bits`` (the
    kinds read the cards alone but for wild cards under ``wild_unique_card``, judged
    with the hand as before)."""
    rules = rnd.rules
    if rules.wild_unique_card:
        return judge_melds(rnd, player, melds, hand, "in hand")
    names = rules.kind_names
    kinds_bits = rules.kinds_bits
    out: Judged = []
    for group in melds:
        bits = kinds_bits(group)
        out.append((tuple(group), names[(bits & -bits).bit_length() - 1]))
    return out


def contract_ok(rnd: Round, melds: Sequence[tuple[tuple[Card, ...], str]], pool: Sequence[Card]) -> bool:
    """Whether the melds meet the contract, for some choice of each meld's kind."""
    contract = rnd.variant.contract
    if contract is None:
        return True
    choices = [sorted(rnd.rules.kinds_of(cards, hand=pool)) for cards, _ in melds]
    for kinds in itertools.product(*choices):
        if rnd.rules.contract is not None and rnd.rules.contract(
                [(kind, cards) for kind, (cards, _) in zip(kinds, melds)]):
            return True
    return False


def would_meet(rnd: Round, player: int, judged: Judged, pool: Sequence[Card]) -> bool:
    """Whether ``player`` has met the contract once ``judged`` is on the table."""
    if rnd.met_contract[player]:
        return True
    contract = rnd.variant.contract
    assert contract is not None
    if contract.concealed_until_met:
        return contract_ok(rnd, judged, pool)
    on_table = [(tuple(m.cards), m.kind) for m in rnd.table[player]]
    return contract_ok(rnd, [*on_table, *judged], pool)


def too_few_left(rnd: Round, player: int, judged: Judged, hand: Sequence[Card]) -> str | None:
    """Why putting ``judged`` down would leave ``player`` too few cards, or None.

    An emptied hand goes out, which needs the contract met (SK-8, CR-5) and is
    refused under ``final_discard: required`` (BR-3). A player who has still not
    met the contract must also keep two cards where the turn ends with a discard:
    the last card could not be discarded.
    """
    left = len(hand) - sum(len(cards) for cards, _ in judged)
    if left > 1:
        return None
    if left == 1:
        used = {c.id for cards, _ in judged for c in cards}
        if only_taken_left(rnd, [c for c in hand if c.id not in used]):
            return TAKEN_LAST_REASON
    if left == 0 and final_discard_required(rnd):
        return FINAL_DISCARD_REASON
    if left == 1 and last_card_stays(rnd):
        used = {c.id for cards, _ in judged for c in cards}
        card = next(c for c in hand if c.id not in used)
        new = [TableMeld(list(cards), kind) for cards, kind in judged]
        if not _last_card_fits(rnd, player, card, hand, new):
            return LAST_CARD_REASON
    if rnd.variant.contract is None or would_meet(rnd, player, judged, hand):
        return None
    if left == 0:
        return "a player cannot go out before meeting the contract"
    if rnd.variant.step("discard") is not None:
        return ("a player who has not met the contract keeps two cards: the last one could not be "
                "discarded, since going out before meeting the contract is refused")
    return None


#: The most single-meld actions :data:`_SINGLES` keeps (then it starts again).
_SINGLES_LIMIT = 1 << 14

_SINGLES: dict[int, tuple[tuple[Card, ...], Meld]] = {}
"""The single-meld actions the listing has built (``Meld(player, (group,))``), by the
group tuple's identity and the seat (``id(group) << 8 | player``), each with its group: the
listing's groups are the kept blocks' own tuples (:mod:`.meldblocks`), the same objects
from one listing to the next, and actions are immutable values, so a listing hands out the
same action each time it lists that meld. The entry holds its group, so no other tuple
takes its id while it is kept."""


class MeldMechanic(Mechanic):
    phase = Phase.MELD

    @staticmethod
    def _step(rnd: Round) -> MeldStep:
        step = rnd.variant.turn[rnd.step]
        assert isinstance(step, MeldStep)
        return step

    def options(self, rnd: Round, player: int) -> list[Action]:
        """The melds and lay-offs the player may make now, one action each."""
        out: list[Action] = []
        hand = rnd.hands[player]
        contract = rnd.variant.contract
        if contract is not None and not rnd.met_contract[player] and contract.concealed_until_met:
            found = _contract_melds(rnd, player)
            facts = getattr(contract.melds, "facts", None)
            most, big = getattr(facts, "max_melds", None), getattr(facts, "max_size", None)
            if most is not None and big is not None and most * big < len(hand) - 1:
                out.extend(found)  # every lay-down leaves two cards or more: none too big
                return out
            for meld in found:
                if sum(map(len, meld.melds)) >= len(hand) - 1 and too_few_left(
                        rnd, player, [(group, first_kind(rnd, group, hand)) for group in meld.melds],
                        hand) is not None:
                    continue
                out.append(meld)
            return out
        if contract is not None and rnd.contract_now and not contract.then_meld_same_turn:
            return out
        if contract is not None and rnd.met_contract[player] and not contract.new_melds_after:
            out.extend(list_layoffs(rnd, player))  # CR-3: after going down, only lay-offs
            return out
        groups = _judged_melds(rnd, hand, len(hand))[0]  # (single_melds)
        if not groups:
            return list_layoffs(rnd, player)  # type: ignore[return-value]  # (a new list, the caller's)
        short = len(hand) - 1  # a group of this many cards or more may leave too few
        made = _SINGLES
        for group in groups:
            if len(group) >= short and too_few_left(
                    rnd, player, [(group, first_kind(rnd, group, hand))], hand) is not None:
                continue
            key = id(group) << 8 | player
            got = made.get(key)
            if got is None or got[0] is not group or player > 255:
                meld = _meld(player, (group,))  # (Meld(player, (group,)), by its slots)
                if player <= 255:
                    if len(made) >= _SINGLES_LIMIT:
                        made.clear()
                    made[key] = (group, meld)
                out.append(meld)
            else:
                out.append(got[1])
        out.extend(list_layoffs(rnd, player))
        return out

    def legal(self, rnd: Round, player: int) -> list[Action]:
        """The options, then ``done`` where the step may end now: a new list each call."""
        options = self.options(rnd, player)
        if rnd.must_meld is not None:  # (no card drawn from deep: nothing pending)
            from .deep import keeps_use, pending

            if pending(rnd) is not None:  # R5-3: keep the deep-drawn card meldable, and meld it
                return [action for action in options if keeps_use(rnd, action)]
        step = rnd.variant.turn[rnd.step]  # (_step, inline: asked every decision)
        assert isinstance(step, MeldStep)
        if (step.optional or not options) and (len(rnd.hands[player]) != 1 or not self._last_card_held(rnd, player)):
            options.append(rnd.prebuilt.done[player])
        return options

    def check(self, rnd: Round, action: Action) -> str | None:
        from .deep import keeps_use, pending, pending_reason

        if isinstance(action, (Meld, Layoff)):
            if isinstance(action, Meld):
                rnd.plan(action, self._check_meld(rnd, action))
            else:
                check_layoff(rnd, action)
            if not keeps_use(rnd, action):
                return (f"this would leave {rnd.must_meld} (drawn from deep in the discard pile) "
                        f"with no meld or lay-off this turn (R5-3)")
            return None
        if isinstance(action, Done):
            if pending(rnd) is not None:
                return pending_reason(rnd)
            if not self._step(rnd).optional and self.options(rnd, action.player):
                return "melding is not optional in this variant: put down what you can"
            if self._last_card_held(rnd, action.player):
                return ("the last card cannot be discarded (going_out.final_discard: forbidden): "
                        "lay it off to go out")
            return None
        return "this is the meld step: meld, lay off, or 'done'"

    @staticmethod
    def _last_card_held(rnd: Round, player: int) -> bool:
        """Whether ``player`` holds one card that may not be discarded and can be laid off
        (``forbidden``): the turn may not go on to the discard step."""
        hand = rnd.hands[player]
        return len(hand) == 1 and last_card_stays(rnd) and _last_card_fits(rnd, player, hand[0], hand)

    @staticmethod
    def _check_meld(rnd: Round, action: Meld) -> Judged:
        player = action.player
        hand = rnd.hands[player]
        judged = judge_melds(rnd, player, action.melds, hand, "in hand")
        contract = rnd.variant.contract
        if contract is not None and not rnd.met_contract[player]:
            if contract.concealed_until_met and not contract_ok(rnd, judged, hand):
                raise IllegalActionError("", "the first melds put down must meet the contract")
        elif contract is not None and rnd.contract_now and not contract.then_meld_same_turn:
            raise IllegalActionError("", "no more melding in the turn the contract was met")
        elif contract is not None and not contract.new_melds_after:
            raise IllegalActionError("", "after meeting the contract a player only lays off: "
                                         "no new melds (contract.new_melds_after: false)")
        reason = too_few_left(rnd, player, judged, hand)
        if reason is not None:
            raise IllegalActionError("", reason)
        return judged

    def apply(self, rnd: Round, action: Action, listed: bool = False) -> None:
        player = action.player
        if isinstance(action, Done):
            rnd.next_step()
            return
        if isinstance(action, Layoff):
            apply_layoff(rnd, action, listed)
        else:
            assert isinstance(action, Meld)
            hand = rnd.hands[player]
            judged = rnd.planned(action) or (
                _listed_kinds(rnd, player, action.melds, hand) if listed  # legal: its kinds alone
                else self._check_meld(rnd, action))
            contract = rnd.variant.contract
            # a first lay-down that must meet the contract was checked to meet it (_check_meld)
            meets = (contract is not None and not rnd.met_contract[player] and contract.concealed_until_met
                     ) or would_meet(rnd, player, judged, hand)
            for cards, kind in judged:
                for card in cards:
                    rnd.remove(player, card)
                rnd.table[player].append(TableMeld(list(cards), kind, [player] * len(cards)))
            if not rnd.met_contract[player] and meets:
                rnd.met_contract[player] = True
                rnd.contract_now = True
        rnd.put_on_table(player)
        rnd.goes_out(player)  # SK-8, BR-3: going out by melding or laying off

    def apply_listed(self, rnd: Round, action: Action) -> None:
        if type(action) is Done:
            rnd.enter_step(rnd.step + 1)  # (next_step)
            return
        self.apply(rnd, action, True)
