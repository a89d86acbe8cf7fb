"""A :class:`~.match.Match` read back from its JSON: every step replayed, each checked.

:func:`from_json` replays without history (each step in place); :class:`LazyHistory`
replays again keeping the history when the restored match is first undone.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any, Mapping

from ..errors import RecordError, RummyDslError
from ..variant import load_variant, shipped_variant_ids
from .match_state import MATCH_FORMAT, MATCH_VERSION, State
from .match_step import parse_step
from .match_undo import Delta
from .round import Round

if TYPE_CHECKING:
    from ..variant.model import Variant
    from .match import Match

__all__ = ["from_json", "LazyHistory"]


def from_json(cls: type[Match], data: Any, variant: Variant | None) -> Match:
    """See :meth:`Match.from_json <rummydsl.engine.match.Match.from_json>`."""
    if not isinstance(data, Mapping):
        raise RecordError(f"a match is a JSON object, not {type(data).__name__}")
    if data.get("format") != MATCH_FORMAT:
        raise RecordError(f"format: expected {MATCH_FORMAT!r}, got {data.get('format')!r}")
    if data.get("version") != MATCH_VERSION:
        raise RecordError(f"version: this rummydsl reads match version {MATCH_VERSION}, "
                          f"not {data.get('version')!r}")
    name = data.get("variant")
    if variant is None:
        if name not in shipped_variant_ids():
            raise RecordError(f"variant: {name!r} is not a shipped variant: pass the Variant to play it by")
        variant = load_variant(name)
    elif name != variant.id:
        raise RecordError(f"variant: the match is of {name!r}, not {variant.id!r}")
    players, chance, seed, steps = (data.get(k) for k in ("players", "chance", "seed", "steps"))
    if not isinstance(players, int) or isinstance(players, bool):
        raise RecordError(f"players: expected a number of players, got {players!r}")
    if chance not in ("seeded", "explicit"):
        raise RecordError(f"chance: expected 'seeded' or 'explicit', got {chance!r}")
    if (chance == "seeded" or seed is not None) and (not isinstance(seed, int) or isinstance(seed, bool)):
        raise RecordError(f"seed: expected an integer, got {seed!r}")
    if not isinstance(steps, list) or not all(isinstance(t, str) for t in steps):
        raise RecordError("steps: expected a list of actions written as text")
    redeals = _read_redeals(data.get("redeals", []), variant, len(steps))
    m = _replay(cls, variant, seed, players, chance, tuple(steps), redeals, history=False)
    # the replay kept no history (each step played in place: a third faster); the history
    # is replayed when first undone, to the very states a replay with history would keep
    m._history = True
    m._exclusive = False
    if len(steps) > max(redeals, default=0):  # a redeal cuts the history (resample)
        m._undo = LazyHistory(cls, variant, seed, players, chance, tuple(steps), redeals)
    return m


class LazyHistory:
    """The undo history of a match read by :func:`from_json`, built when first undone."""

    __slots__ = ("_args", "_chain")

    def __init__(self, *args: Any) -> None:
        self._args = args
        self._chain: tuple[State | Delta, Any] | None = None

    def chain(self) -> tuple[State | Delta, Any]:
        """The history, as :meth:`Match.apply <rummydsl.engine.match.Match.apply>` keeps it."""
        if self._chain is None:
            chain = _replay(*self._args, history=True)._undo
            assert isinstance(chain, tuple)  # the steps replayed once already: not empty
            self._chain = chain
        return self._chain


def _replay(cls: type[Match], variant: Variant, seed: int | None, players: int, chance: str,
            steps: tuple[str, ...], redeals: Mapping[int, tuple[tuple[int, ...], int]], *, history: bool) -> Match:
    """The match of these steps, each checked (:func:`from_json`, its fields read)."""
    try:
        m = cls.new(variant, seed=seed, players=players, chance=chance, history=history)
    except (RummyDslError, ValueError) as problem:
        raise RecordError(f"players: {problem}") from None
    for at, text in enumerate([*steps, None]):
        if at in redeals:
            _redeal(m, at, *redeals[at])
        if text is None:
            break
        try:
            m.apply(parse_step(m, text))
        except RummyDslError as problem:
            if m.stalled is not None:
                continue  # the game stopped after this step, as it did when played (Match.stalled)
            raise RecordError(f"steps[{at}]: {text!r}: {getattr(problem, 'reason', problem)}") from None
    return m


def _read_redeals(value: Any, variant: Variant, count: int) -> dict[int, tuple[tuple[int, ...], int]]:
    if not isinstance(value, list):
        raise RecordError("redeals: expected a list")
    size = variant.deck.size
    out: dict[int, tuple[tuple[int, ...], int]] = {}
    for k, item in enumerate(value):
        where = f"redeals[{k}]"
        if not isinstance(item, Mapping) or set(item) != {"at", "cards", "seed"}:
            raise RecordError(f"{where}: expected {{'at', 'cards', 'seed'}}")
        at, cards, seed = item["at"], item["cards"], item["seed"]
        if not isinstance(at, int) or isinstance(at, bool) or not 0 <= at <= count:
            raise RecordError(f"{where}.at: expected a step number from 0 to {count}, got {at!r}")
        if not isinstance(cards, list) or sorted(c for c in cards if isinstance(c, int)) != list(range(size)):
            raise RecordError(f"{where}.cards: expected every card id 0 to {size - 1} once")
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise RecordError(f"{where}.seed: expected an integer, got {seed!r}")
        out[at] = (tuple(cards), seed)
    return out


def _redeal(m: Match, at: int, cards: tuple[int, ...], seed: int) -> None:
    """Deal the round in play again as ``cards`` (a redeal :meth:`Match.resample` made)."""
    s = m._s
    rnd = s.round
    if s.round_start != at or rnd.actions or s.game.result is not None:
        raise RecordError(f"redeals: step {at} is not where a round is dealt")
    deck = m.variant.deck.cards
    new_round = Round.deal_cards(m.variant, [deck[i] for i in cards], dealer=rnd.dealer, players=rnd.players,
                                 scores=rnd.scores, number=rnd.number, sat_out=rnd.sat_out)
    new_round.earlier = rnd.earlier
    game = s.game.copy()
    game.rng = random.Random(seed)
    game.round = new_round
    m._s = s._replace(game=game, round=new_round, redeals=s.redeals + ((at, cards, seed),))
    m._undo = None
    m._shadow = None
    m._cache = None
    m._ids = None


