"""Helpers for engine tests: fixed positions written in card notation."""

from __future__ import annotations

import random
from functools import lru_cache
from typing import Mapping, Sequence

from rummydsl.cards import Card
from rummydsl.engine import Round
from rummydsl.variant import Variant, load_variant

HouseRules = Mapping[str, "tuple[str, str]"]
"""A module's house rules: a name, and the variant it extends with the YAML body it adds."""


def position(variant_id: str, *, dealer: str, hands: Mapping[str, str], stock: str,
             upcard: str | None = None, scores: Sequence[int] | None = None, number: int = 1) -> Round:
    """A round at a fixed position: seats P1.., cards as text, the stock top card first;
    ``number`` is the deal's number in its game (``round``)."""
    variant = load_variant(variant_id)
    deck = variant.deck
    seats = sorted(hands, key=lambda name: int(name[1:]))
    parsed = deck.parse_cards(" ".join(
        [*(hands[s] for s in seats), stock, upcard or ""]))
    at = 0
    dealt = []
    for seat in seats:
        size = len(hands[seat].split())
        dealt.append(parsed[at:at + size])
        at += size
    stock_cards = parsed[at:at + len(stock.split())]
    at += len(stock.split())
    up = parsed[at] if upcard else None
    return Round.from_setup(variant, dealer=int(dealer[1:]) - 1, hands=dealt, stock=stock_cards,
                            upcard=up, scores=scores, number=number)


def play(rnd: Round, *actions: str) -> Round:
    """Play ``actions``, then the moves play makes without asking (``Round.automatic``: a
    defender's ``done`` after gin, GR-7.1), as ``play_round`` would. Tests of the showdown
    after gin itself call ``rnd.apply``."""
    for action in actions:
        rnd.apply(action)
    while (move := rnd.automatic()) is not None:
        rnd.apply(move)
    return rnd


_HOUSES: dict[str, str] = {}


def house(name: str, parent: str, body: str) -> str:
    """A house-rule file extending ``parent`` (written once per session), returned as a path.

    Its folder is removed when the test process ends (thousands were left in /tmp)."""
    import atexit
    import os
    import shutil
    import tempfile
    from pathlib import Path

    key = f"{name}|{parent}|{body}"
    if key not in _HOUSES:
        folder = Path(tempfile.mkdtemp(prefix="rummydsl-house-"))
        atexit.register(shutil.rmtree, folder, ignore_errors=True)
        path = folder / f"{name}.yaml"
        if Path(parent).is_absolute():  # a parent is named relatively (docs/security.md)
            parent = os.path.relpath(parent, folder)
        path.write_text(f"rummydsl: 1\nid: {name}\nname: {name}\nextends: {parent}\n{body}", encoding="utf-8")
        _HOUSES[key] = str(path)
    return _HOUSES[key]


def variant(name: str, house_rules: HouseRules | None = None) -> Variant:
    """The variant ``name``: one of ``house_rules`` (written by :func:`house`) if it names
    one, else a shipped variant's id; each loaded once a session (the same object again)."""
    if house_rules and name in house_rules:
        parent, body = house_rules[name]
        return _variant(name, parent, body)
    return _variant(name, None, None)


@lru_cache(maxsize=None)
def _variant(name: str, parent: str | None, body: str | None) -> Variant:
    if parent is None or body is None:
        return load_variant(name)
    return load_variant(house(name, parent, body))


def dealt(name: str, house_rules: HouseRules | None = None, seed: int = 5) -> Round:
    """The round of :func:`variant` dealt from ``random.Random(seed)`` by P1, one a session:
    shared by every test that asks, so a test reads it and never plays on it (``.copy()``)."""
    rules = house_rules[name] if house_rules and name in house_rules else (None, None)
    return _dealt(name, *rules, seed)


@lru_cache(maxsize=None)
def _dealt(name: str, parent: str | None, body: str | None, seed: int) -> Round:
    chosen = _variant(name, parent, body)
    return Round.deal(chosen, random.Random(seed), dealer=0, players=chosen.players)


def plain_listing(rnd: Round, hand: Sequence[Card], high: int,
                  kinds: int | None = None) -> tuple[list[tuple[Card, ...]], list[int]]:
    """``meldlist._judged_melds`` group by group: the listing with no block kept (its memo
    of buckets left out) and no memo of groups, to compare the kept listing with."""
    from rummydsl.engine.mechanics import meldlist

    real = meldlist._listing

    def plain(rnd: Round) -> meldlist._Listing:
        memo, test, low, families, one_suit, _buckets = real(rnd)
        return {}, test, low, families, one_suit, None

    meldlist._listing = plain
    try:
        return meldlist._judged_melds(rnd, hand, high, kinds)
    finally:
        meldlist._listing = real
