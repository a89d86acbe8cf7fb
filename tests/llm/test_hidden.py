"""Hidden information in prompts (issue 19): dealing again every card hidden from a seat,
consistently with all it has seen (``Match.resample``), leaves that seat's prompt exactly
as it was, at every step of play of every shipped variant (its fewest players seeded, its
most dealt by chance; one game by greedy agents, who knock and lay off, one by random
agents, who reach the stock's floor), in every phase the variant has, the seat to move's
prompt and the others' alike; and the redeal does move hidden cards.
And no prompt names a card hidden from its seat that it never saw (reckoned from the true
state, apart from the observation): the redeal keeps the moves played as they were, so a
move that gave away a hidden card (a knock's face-down discard) would pass the first test.
Both hold in a later round too, whose prompt sums up the rounds before and whose seat's
moves (Observation.moves) span the game: an earlier knock's face-down discard stays hidden."""

from __future__ import annotations

import random
import string

import pytest

from rummydsl import Match
from rummydsl.agents import make_agents
from rummydsl.engine.actions import Discard, Draw, Knock, Layoff, Meld, Offer
from rummydsl.engine.match_view import PHASES
from rummydsl.llm import decisions, generate_prompt
from rummydsl.variant import load_variant, shipped_variant_ids

STEPS = 300
"""Steps played of each game (a hand of most variants, its showdown included)."""


def _secret_faces(m: Match, seat: int) -> set[str]:
    """The faces of every card hidden from ``seat`` now (the stock, what others hold unseen, a
    knock's face-down discard but its own) of which no copy was ever shown to it: reckoned
    from the true state and the rules, apart from the observation the prompt is built from."""
    rnd = m.round
    hidden = [c for c in rnd.stock]
    for p, hand in enumerate(rnd.hands):
        if p != seat:
            known = list(rnd.known[p])
            for card in hand:
                if card in known:
                    known.remove(card)
                else:
                    hidden.append(card)
    if rnd.face_down is not None and rnd.ender != seat:
        hidden.append(rnd.face_down)
    pile = [c for c in rnd.discards if c is not rnd.face_down]  # a knock's discard lies face down on it
    shown = [*rnd.hands[seat], *rnd.dealt[0][seat], *pile, *(c for melds in rnd.table for meld in melds
                                                                     for c in meld.cards)]
    shown += [rnd.upcard] if rnd.upcard is not None else []
    for action in rnd.actions:  # what each move put face up
        if isinstance(action, (Discard, Offer, Layoff)) or isinstance(action, Draw) and action.card is not None:
            shown.append(action.card)
        if isinstance(action, (Meld, Knock)):
            shown += [c for meld in action.melds or () for c in meld]
        if isinstance(action, Knock) and action.player == seat and action.card is not None:
            shown.append(action.card)
    seen = {str(c) for c in shown if c is not None}
    return {str(c) for c in hidden if not c.wild} - seen


_SPACED = bytes(b if chr(b) in string.ascii_letters + string.digits + "*" else 32 for b in range(256))
"""Every byte that is not in a token (``[0-9A-Za-z*]``) made a space."""


def _named_faces(prompt: str, faces: set[str]) -> set[str]:
    """The card faces of ``faces`` named in a prompt after its rules (asked of the faces
    hidden from a seat: the leaked ones). A token is a run of ``[0-9A-Za-z*]``: the text's
    other characters (a character not ASCII is a ``?`` first) are spaces, and it is split
    there, the tokens of ``re.split(r"[^0-9A-Za-z*]+", ...)`` in a third of the time."""
    game = prompt.split("# The game as you see it", 1)[1]
    return faces.intersection(game.encode("ascii", "replace").translate(_SPACED).decode("ascii").split())


def _cases() -> list[tuple[str, int, str]]:
    out = []
    for vid in shipped_variant_ids():
        low, high = load_variant(vid).players_range
        out.append((vid, low, "seeded"))
        if high != low:
            out.append((vid, high, "explicit"))
    return out


CASES = _cases()


UNREACHED = {"straight_gin": {"showdown"}}
"""Phases the games played do not ask a seat about: Straight Gin ends only by gin, after
which a defender has nothing to decide (play says 'done' for it)."""


@pytest.mark.parametrize("vid,players,chance", CASES, ids=[f"{v}-{n}-{c}" for v, n, c in CASES])
def test_a_redeal_of_what_a_seat_cannot_see_leaves_its_prompt_alone(vid: str, players: int, chance: str) -> None:
    phases: set[str] = set()
    moved = 0
    for seed, kind in ((5, "greedy"), (6, "random")):  # greedy knocks and lays off; random reaches the floor
        rng = random.Random(seed)
        m = Match.new(vid, seed=seed, players=players, chance=chance, history=False)
        agents = make_agents(kind, players, rng)
        for step in range(STEPS):
            if m.over:
                break
            if m.to_move < 0:
                m.apply(rng.choice(m.legal_ids()))
                continue
            seat = m.to_move if step % 2 else (m.to_move + 1 + step // 2) % players
            other = m.resample(seat, random.Random(step))
            mine = generate_prompt(m.view(seat), legal=True)
            theirs = other.observation(seat) if step % 3 else other.view(seat)  # either kind of observation
            assert generate_prompt(theirs, legal=True) == mine, \
                f"{vid} step {step}: seat {seat}'s prompt changed when its hidden cards were dealt again"
            leaked = _named_faces(mine, _secret_faces(m, seat))  # the deck's faces named and hidden
            assert not leaked, f"{vid} step {step}: seat {seat}'s prompt names {sorted(leaked)}, hidden from it"
            if not moved:  # the assertion below needs one redeal that moved a card: no state dumps after it
                moved += other.state()["round"] != m.state()["round"]
            phases.add(m.round.phase.value)
            m.apply(agents[m.to_move].act(m.view(m.to_move)))
    assert moved, f"{vid}: no redeal moved a hidden card, so the test showed nothing"
    missing = set(decisions(load_variant(vid))) & set(PHASES) - phases - UNREACHED.get(vid, set())
    assert not missing, f"{vid}: the phases {sorted(missing)} were never reached, so never tested"


LATER_STEPS = 24
"""Steps checked of each game's second round."""


@pytest.mark.parametrize("vid", shipped_variant_ids())
def test_in_a_later_round_the_rounds_before_give_nothing_away(vid: str) -> None:
    """The prompt's earlier rounds and the seat's moves of the whole game (Observation.moves)
    stay the same under a redeal and name no card hidden from the seat: every seat, at each
    of the first steps of the second round of a greedy game."""
    m = Match.new(vid, seed=8, history=False)
    rng = random.Random(8)
    agents = make_agents("greedy", m.players, rng)
    while m.round.number < 2:
        assert not m.over, f"{vid}: the game ended in its first round, so nothing was tested"
        m.apply(agents[m.to_move].act(m.view(m.to_move)) if m.to_move >= 0 else rng.choice(m.legal_ids()))
    for step in range(LATER_STEPS):
        if m.over or m.round.number > 2:
            break
        for seat in m.round.seated:
            mine = generate_prompt(m.view(seat), legal=True)
            assert "# Earlier rounds" in mine and "- Round 1: " in mine
            other = m.resample(seat, random.Random(step))
            assert generate_prompt(other.view(seat), legal=True) == mine, \
                f"{vid} round 2 step {step}: seat {seat}'s prompt changed when its hidden cards were dealt again"
            assert other.view(seat).moves() == m.view(seat).moves()
            leaked = _named_faces(mine, _secret_faces(m, seat))
            assert not leaked, f"{vid} round 2 step {step}: seat {seat}'s prompt names {sorted(leaked)}"
            for past, seen in ((p, m.view(seat).moves(round=p.number)) for p in m.game.past):
                hidden = {str(a.card) for a in past.actions if isinstance(a, Knock) and past.face_down
                          and a.player != seat and a.card is not None}
                knocks = [move.text for move in seen if " knock" in move.text]
                assert not any(card in text.split() for text in knocks for card in hidden), \
                    f"{vid}: seat {seat} reads an earlier round's face-down knock discard"
        m.apply(agents[m.to_move].act(m.view(m.to_move)) if m.to_move >= 0 else rng.choice(m.legal_ids()))
