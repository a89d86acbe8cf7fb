"""The planes written straight from a seat's observation (Planes.encode) are exactly the
planes written from the engine's tensor (Planes.encode_tensor, a copy of the match and
lists of counts), for every seat at every step of random play of every shipped variant,
seeded and dealt by chance (the deal under way included)."""

from __future__ import annotations

import random

import pytest

np = pytest.importorskip("numpy")

from rummydsl import Match  # noqa: E402
from rummydsl.envs.planes import Planes  # noqa: E402
from rummydsl.variant import load_variant, shipped_variant_ids  # noqa: E402

STEPS = 80


def _cases() -> list[tuple[str, int, str]]:
    out = []
    for vid in shipped_variant_ids():
        low, high = load_variant(vid).players_range
        out.append((vid, low, "seeded"))
        out.append((vid, high, "explicit"))
    return out


CASES = _cases()


@pytest.mark.parametrize("vid,players,chance", CASES, ids=[f"{v}-{n}-{c}" for v, n, c in CASES])
def test_the_fast_planes_are_the_tensors_planes(vid: str, players: int, chance: str) -> None:
    m = Match.new(vid, seed=1, players=players, chance=chance, history=False)
    planes = Planes(m)
    rng = random.Random(1)
    for step in range(STEPS):
        if m.over:
            break
        for seat in range(players):
            fast = planes.encode(m, seat)
            assert fast.shape == planes.shape and fast.dtype == np.int8
            assert np.array_equal(fast, planes.encode_tensor(m, seat)), f"{vid} step {step} seat {seat}"
        m.apply(rng.choice(m.legal_ids()))


def test_a_lay_down_being_chosen_is_in_the_fast_planes() -> None:
    m = Match.new("rummy", seed=2, history=False)
    planes = Planes(m)
    rng = random.Random(0)
    for _ in range(2000):
        if m.pending:
            seat = m.to_move
            fast = planes.encode(m, seat)
            assert fast[planes.names.index("chosen")].sum() > 0
            assert np.array_equal(fast, planes.encode_tensor(m, seat))
            return
        if m.over:
            m = Match.new("rummy", seed=rng.getrandbits(32), history=False)
        m.apply(rng.choice(m.legal_ids()))
    pytest.fail("no lay-down was chosen in 2000 random steps")


def test_each_call_gives_a_new_array() -> None:
    m = Match.new("gin_rummy", seed=1)
    planes = Planes(m)
    a = planes.encode(m, 0)
    a[0, :] = 1
    assert not np.array_equal(planes.encode(m, 0), a)


def test_a_deck_of_few_faces_gets_sixteen_columns(tmp_path: object) -> None:
    from pathlib import Path

    from rummydsl.envs.planes import MIN_COLUMNS

    path = Path(str(tmp_path)) / "tiny.yaml"
    path.write_text('rummydsl: 1\nid: tiny\nextends: gin_rummy\nname: Tiny\ndescription: Four cards.\n'
                    'deck: {suits: [S], ranks: [A, "2", "3", "4"]}\n'
                    'melds: {set: null, run: "size >= 2 and same(suit) and consecutive(rank)"}\n'
                    'deal: {hand_size: 1, upcard: false}\nupcard_offer: null\n'
                    'knock: {limit: 2, big_gin: false}\nstock: {floor: 0}\n', encoding="utf-8")
    for chance in ("seeded", "explicit"):
        m = Match.new(str(path), seed=3, chance=chance, history=False)
        planes = Planes(m)
        assert planes.faces == 4 and planes.shape[1] == MIN_COLUMNS
        assert "the deck's 4 faces first" in planes.spec()
        rng = random.Random(3)
        while not m.over and not m.game.results:
            for seat in range(2):
                fast = planes.encode(m, seat)
                assert np.array_equal(fast, planes.encode_tensor(m, seat))
                assert not fast[:planes.names.index("stock size"), 4:].any()
            m.apply(rng.choice(m.legal_ids()))


@pytest.mark.parametrize("vid", ["gin_rummy", "ginski", "contract_rummy", "rummy_500"])
def test_planes_kept_from_earlier_games_are_the_tensors_planes(vid: str) -> None:
    """One Planes over several whole games (scores that move, rounds after the first,
    the planes of numbers it keeps reused across games), every seat, every step."""
    planes = None
    rng = random.Random(4)
    for game in range(3):
        m = Match.new(vid, seed=10 + game, history=False)
        planes = planes or Planes(m)
        for _ in range(150 if vid == "contract_rummy" else 400):
            if m.over:
                break
            for seat in range(m.players):
                assert np.array_equal(planes.encode(m, seat), planes.encode_tensor(m, seat)), f"{vid} {game}"
            m.apply(rng.choice(m.legal_ids()))
