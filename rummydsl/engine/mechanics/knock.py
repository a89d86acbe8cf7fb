"""Knocking, gin and big gin (GR-6, GS-6), and the defenders' showdown (GR-7, GS-6.4).

After drawing, in any step of their turn, a player may knock: discard one card
face down and show melds, keeping at most the round's knock limit in deadwood
(``knock.limit``, an expression of the round, e.g. the upcard's value, GR-12;
without a limit any deadwood may knock, KR-3). The
knocker may name the melds to show, among the arrangements with least deadwood
(C-6), or any that keep to the limit with ``deadwood.arrangement: as_shown``
(:mod:`.arrangement`); otherwise the canonical one is shown. No deadwood is gin;
with ``knock.big_gin``, every card melded and no discard is big gin.

Then, when ``layoff.onto`` is ``ender_melds``, each defender in seat order from
the knocker's left shows melds (``meld``; one that shows none is scored on the
least deadwood, C-6), lays off cards onto the knocker's melds (chains
included) where the ending allows it (a plain knock, or any with
``after_gin``; GR-7.2: after gin a defender shows melds and lays off nothing),
and says ``done``; the round is scored after the last defender's ``done``. The
knocker never lays off (GR-7.3). With ``as_shown`` the defenders show melds
after every knock, gin included, also where ``layoff.onto`` is ``none``, and are
scored on what they showed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterator, Sequence

from ...cards import Card
from ...endings import Ending
from ...errors import IllegalActionError
from ...limits import MAX_HAND
from ...melds.discards import discard_deadwoods, parts_knock
from ..actions import Action, Done, Knock, Layoff, Meld, player_name
from ..state import Phase, TableMeld
from .arrangement import as_shown, defenders_show, show_least
from .base import Mechanic
from .discard import barred, taken_card_forbidden
from .melding import apply_layoff, check_layoff, first_kind, judge_melds, list_layoffs

from ..fields import Field, cards_json, seats
if TYPE_CHECKING:
    from ..round import Round

__all__ = ["KnockMechanic", "ShowdownMechanic", "knock_limit", "within_limit", "shown_melds"]

FIELDS: tuple[Field, ...] = (
    Field("ender", lambda rnd: None, json=lambda rnd, text: None if rnd.ender is None else player_name(rnd.ender)),
    Field("ending", lambda rnd: None, json=lambda rnd, text: None if rnd.ending is None else rnd.ending.value),
    Field("ender_deadwood", lambda rnd: 0),
    Field("face_down", lambda rnd: None, cards=True),
    Field("defenders", lambda rnd: [], "list", json=lambda rnd, text: seats(rnd.defenders)),
    Field("declared", lambda rnd: [None] * rnd.players, "list",
          json=lambda rnd, text: [None if d is None else [cards_json(m, text) for m in d] for d in rnd.declared]),
    Field("knock_limit", lambda rnd: knock_limit(rnd)),
)
"""Who ended the round (``ender``), how (``ending``) and with what deadwood; the card a
knock discarded ``face_down`` (GR-6.1: on the pile, seen by the knocker alone); the
``defenders`` still to show and lay off, in order; the melds each seat ``declared``;
the most deadwood a knock may keep this round (``knock_limit``)."""


Melds = tuple[tuple[Card, ...], ...]
_AFTER_DRAW = (Phase.MELD, Phase.DISCARD, Phase.OFFER)
"""The phases of a turn a knock may end."""


def knock_limit(rnd: Round) -> int | None:
    """The most deadwood a knock may keep this round, or None where no limit applies.

    None is "no number": with ``knock`` and no ``knock.limit`` any deadwood may knock
    (KR-3); without ``knock`` nobody knocks, which ``rnd.variant.knock is None`` says
    (never a number here: a limit expression may well give -1, knock-unreachable).
    """
    knock = rnd.variant.knock
    if knock is None or knock.limit is None:
        return None
    limit = knock.limit
    if isinstance(limit, int):
        return limit
    if not limit.constant:
        return int(limit(rnd.facts()))
    got = _CONSTANT_LIMITS.get(id(limit))  # a constant reads no round: worked out once
    if got is None or got[0] is not limit:
        got = _CONSTANT_LIMITS[id(limit)] = (limit, int(limit(rnd.facts())))
        if len(_CONSTANT_LIMITS) > 32:
            _CONSTANT_LIMITS.pop(next(iter(_CONSTANT_LIMITS)))
    return got[1]


_BITS = tuple(1 << i for i in range(128))
"""``1 << id`` for the first 128 card ids (a sum of these is a hand's bitmask)."""

_CONSTANT_LIMITS: dict[int, tuple[object, int]] = {}
"""The value of each constant ``knock.limit`` asked, by the expression object (the last few kept)."""


def within_limit(rnd: Round, deadwood: int) -> bool:
    """Whether a knock may keep ``deadwood`` this round (never without knocking;
    always with knocking and no limit)."""
    if rnd.variant.knock is None:
        return False
    limit = rnd.knock_limit
    return limit is None or deadwood <= limit


def shown_melds(rnd: Round, player: int, kept: Sequence[Card],
                melds: Sequence[Sequence[Card]] | None) -> tuple[Melds, int]:
    """The melds shown from ``kept`` and the deadwood left: as named, or the canonical best."""
    if melds is None:
        best = rnd.rules.solve(kept, check_contract=False)
        return tuple(best.melds), rnd.value(best.unmatched)
    judged = judge_melds(rnd, player, melds, kept, "to show")
    shown = tuple(cards for cards, _ in judged)
    used = {c.id for cards in shown for c in cards}
    return shown, rnd.value([c for c in kept if c.id not in used])


class KnockMechanic(Mechanic):
    """Not a step of its own: a knock may replace the rest of any turn after the draw."""

    phase = Phase.DISCARD

    @staticmethod
    def available(rnd: Round, player: int) -> bool:
        """Whether ``player`` may knock now (variant, turn, drawn, phase)."""
        return (rnd.variant.knock is not None and player == rnd.turn_player and rnd.drawn
                and rnd.phase in _AFTER_DRAW)

    def legal(self, rnd: Round, player: int) -> Sequence[Action]:
        # a list built only when there is a knock (most listings: none, one search)
        knock = rnd.variant.knock
        if knock is None or player != rnd.turn_player or not rnd.drawn or rnd.phase not in _AFTER_DRAW:
            return ()  # (not available)
        hand = rnd.hands[player]
        rules = rnd.rules
        limit = rnd.knock_limit
        taken = rnd.taken if rnd.forbid_taken else None
        knocks = rnd.prebuilt.knock[player]  # the same objects every listing (:mod:`..prebuilt`)
        out: list[Action] = []
        if limit is None:
            # KR-3: any deadwood may knock, so every discard is a knock: no search
            # per card (only big gin needs one).
            if knock.big_gin and rules.min_deadwood(hand) == 0:
                out.append(rnd.prebuilt.big_gin[player])
            out.extend(knocks[card.id] for card in rnd.distinct_faces([c for c in hand if c is not taken]))
            return out
        plain = rules.excludes_concealed_melds  # then the least deadwood is what a knock shows
        if plain:
            try:
                mask = sum([_BITS[card.id] for card in hand])  # the hand's bitmask by card id
            except IndexError:  # a deck past _BITS's cards
                mask = 0
                for card in hand:
                    mask |= 1 << card.id
            # Discarding a card lowers the least deadwood by at most its value, so by at
            # most the deck's highest (add it back unmatched to any arrangement of the
            # rest): a hand this far over the limit has no knock. Most turns are decided
            # by a floor of the least deadwood (no set chosen), the rest by one search.
            # The hand holds the deck's own cards: no check (but of its size, as the solver's).
            whole: int | None = None
            # a hand with a wild card, by its parts where they apply: its least deadwood and,
            # unless that leaves no knock, the discards that do (None) and a wild card's
            parts: tuple[int, set[int] | None, bool] | None = None
            sized = 0 < len(hand) <= MAX_HAND
            if sized:
                floor = rules.table_deadwood(mask, floor=True)  # (:mod:`rummydsl.melds.setvalues`)
                if floor is None:  # a hand with a wild card
                    parts = parts_knock(rules, mask, limit, rnd.highest_value)
                    if parts is not None:
                        whole = parts[0]
                else:
                    if floor - rnd.highest_value > limit and floor > 0:
                        return ()  # (no big gin either: some deadwood is left)
                    whole = rules.table_deadwood(mask)
            if whole is None:
                whole = rules.min_deadwood(hand)
            if whole - rnd.highest_value > limit and whole:
                return ()
            if knock.big_gin and whole == 0:
                out.append(rnd.prebuilt.big_gin[player])
            if whole - rnd.highest_value > limit:
                return out
            if parts is not None and (within := parts[1]) is not None:
                wild = parts[2]  # by the parts: only the discards that could leave a knock were asked
                if within or wild:  # (most listings: none; copies of a face leave the same deadwood,
                    # so the cards that knock are picked first, then one of each face)
                    out.extend([knocks[card.id] for card in rnd.distinct_faces(
                        [c for c in hand if (wild if c.wild else c.id in within) and c is not taken])])
                return out
            least = rules.table_deadwood(mask, discard=True) if sized and parts is None else None
            if (least if least is not None else rules.min_deadwood(hand, discard=True)) > limit:
                return out  # no discard leaves a knock (one search, not one per card)
            after = discard_deadwoods(rules, hand, ())  # each discard's, where one pass gives them
            if after is not None:
                left_of = {card.id: left for card, left in zip(hand, after)}
                for card in rnd.distinct_faces([c for c in hand if c is not taken]):
                    if left_of[card.id] <= limit:
                        out.append(knocks[card.id])
                return out
        elif knock.big_gin and rnd.value(rules.solve(hand, check_contract=False).unmatched) == 0:
            out.append(rnd.prebuilt.big_gin[player])
        for card in rnd.distinct_faces([c for c in hand if c is not taken]):
            kept = [c for c in hand if c is not card]
            # plain: the least deadwood is the unmatched value of the best arrangement
            left = rules.min_deadwood(kept) if plain else rnd.value(rules.solve(kept, check_contract=False).unmatched)
            if left <= limit:
                out.append(knocks[card.id])
        return out

    def check(self, rnd: Round, action: Action) -> str | None:
        assert isinstance(action, Knock)
        player = action.player
        knock = rnd.variant.knock
        if knock is None:
            return "this variant has no knocking"
        if not self.available(rnd, player):
            return "a player knocks only on their turn, after drawing"
        hand = rnd.hands[player]
        if action.card is None:
            if not knock.big_gin:
                return "big gin is off in this variant: knock with a discard"
            _, deadwood = shown_melds(rnd, player, hand, action.melds)
            if deadwood:
                return f"big gin needs every card melded; {deadwood} deadwood is left"
            return None
        held = rnd.holds(player, action.card, barred(rnd))
        if held is None:
            return f"{player_name(player)} does not hold {action.card}"
        if held is rnd.taken and taken_card_forbidden(rnd):
            return f"{held} was taken from the discard pile this turn and cannot be discarded now"
        kept = [c for c in hand if c is not held]
        shown, deadwood = shown_melds(rnd, player, kept, action.melds)
        rnd.plan(action, (shown, deadwood))
        if action.melds is not None and not as_shown(rnd):
            _, least = shown_melds(rnd, player, kept, None)
            if deadwood > least:  # C-6: the knocker picks among the least arrangements
                return f"the melds shown leave {deadwood} deadwood, but {least} is the least (C-6)"
        if not within_limit(rnd, deadwood):
            return f"knocking needs at most {rnd.knock_limit} deadwood; {deadwood} would be left"
        return None

    def apply(self, rnd: Round, action: Action) -> None:
        assert isinstance(action, Knock)
        player = action.player
        hand = rnd.hands[player]
        rnd.must_knock = False
        if action.card is None:
            kept = list(hand)
        else:
            held = rnd.holds(player, action.card, barred(rnd))
            assert held is not None
            kept = [c for c in hand if c is not held]
            rnd.remove(player, held)
            rnd.discards.append(held)  # face down; the round is over for the pile
            rnd.face_down = held
        shown, deadwood = rnd.planned(action) or shown_melds(rnd, player, kept, action.melds)
        for cards in shown:
            for card in cards:
                rnd.remove(player, card)
            rnd.table[player].append(TableMeld(list(cards), first_kind(rnd, cards, kept), [player] * len(cards)))
        rnd.declared[player] = shown
        rnd.ender_deadwood = deadwood
        rnd.ender = player
        rnd.ending = Ending.BIG_GIN if action.card is None else Ending.GIN if deadwood == 0 else Ending.KNOCK
        rnd.defenders = rnd.seats_after(player)
        if rnd.showdown() or defenders_show(rnd):  # GR-7.1: after gin too, without lay-offs
            rnd.phase = Phase.SHOWDOWN
            rnd.to_move = rnd.defenders[0]
            return
        rnd.finish(rnd.ending, player)


class ShowdownMechanic(Mechanic):
    phase = Phase.SHOWDOWN

    def legal(self, rnd: Round, player: int) -> Iterator[Action]:
        if rnd.showdown_layoffs():
            shown = [c for meld in rnd.declared[player] or () for c in meld]
            yield from list_layoffs(rnd, player, shown)  # GR-7.1: only deadwood is laid off
        yield rnd.prebuilt.done[player]

    def check(self, rnd: Round, action: Action) -> str | None:
        if isinstance(action, Meld):
            if rnd.declared[action.player] is not None:
                return "melds were already shown this round"
            hand = rnd.hands[action.player]
            judged = judge_melds(rnd, action.player, action.melds, hand, "in hand")
            if as_shown(rnd):
                return None  # any melds of the hand (deadwood.arrangement: as_shown)
            used = {c.id for cards, _ in judged for c in cards}
            rest = [c for c in hand if c.id not in used]
            left = rnd.rules.solve(rest, check_contract=False).deadwood if rest else 0
            least = rnd.rules.solve(hand, check_contract=False).deadwood
            if left > least:  # C-6: shown melds belong to an arrangement with least deadwood
                return f"the melds shown would leave {left} deadwood, but {least} is the least (C-6)"
            return None
        if isinstance(action, Layoff):
            if not rnd.showdown_layoffs():
                if rnd.ending not in (Ending.GIN, Ending.BIG_GIN):
                    return "this variant has no lay-offs (layoff.onto: none)"
                ending = "big gin" if rnd.ending == Ending.BIG_GIN else "gin"
                return (f"nothing is laid off after {ending} (GR-7.2; layoff.after_gin: false): "
                        f"show melds or say 'done'")
            held = check_layoff(rnd, action)
            declared = rnd.declared[action.player] or ()
            if any(c is held for meld in declared for c in meld):
                raise IllegalActionError("", f"{held} is in a meld already shown")
            return None
        if isinstance(action, Done):
            return None
        if not rnd.showdown_layoffs():
            ending = "big gin" if rnd.ending == Ending.BIG_GIN else "gin"
            return f"after {ending} a defender shows melds or says 'done' (GR-7.1)"
        return "after the knock a defender shows melds, lays off, or says 'done'"

    def apply(self, rnd: Round, action: Action) -> None:
        player = action.player
        if isinstance(action, Meld):
            judged = judge_melds(rnd, player, action.melds, rnd.hands[player], "in hand")
            rnd.declared[player] = tuple(cards for cards, _ in judged)
            return
        if isinstance(action, Layoff):
            apply_layoff(rnd, action)
            return
        rnd.defenders.pop(0)
        if rnd.declared[player] is None:
            if as_shown(rnd):
                show_least(rnd, player)  # C-7: the engine shows the least arrangement for them
            else:
                rnd.declared[player] = ()  # scored on the least deadwood (C-6)
        if rnd.defenders:
            rnd.to_move = rnd.defenders[0]
            return
        assert rnd.ender is not None and rnd.ending is not None
        rnd.finish(rnd.ending, rnd.ender)
