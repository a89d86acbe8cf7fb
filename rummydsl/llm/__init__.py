"""A harness for language models: prompts, legal moves and answers for any variant.

Three functions, in the form LLM game arenas use (Kaggle's kaggle-environments
harnesses), written once for every variant a user can write:

- :func:`get_legal_moves` (observation): the seat's legal moves in the card notation;
- :func:`generate_prompt` (observation, variant, legal=False): the rules from
  ``rummydsl explain`` with the values filled in, the seat's view, the moves so far, an
  instruction for each kind of decision open now (:mod:`~rummydsl.llm.phases`), the legal
  moves if asked, and how to answer;
- :func:`parse_response` (text, legal): the one move an answer means (a JSON object,
  ``{"move": ...}``, or the notation in prose), or an error a harness retries on.

:class:`LLMAgent` plays a seat through them (``--agents llm:PROGRAM``): PROGRAM reads a
prompt on its standard input and writes its answer. docs/llm.md is the guide.

>>> import rummydsl
>>> from rummydsl.llm import get_legal_moves, generate_prompt, parse_response
>>> m = rummydsl.Match.new("gin_rummy", seed=7)
>>> view = m.view(m.to_move)
>>> get_legal_moves(view)
['P1 draw discard', 'P1 pass']
>>> parse_response('I pass. {"move": "P1 pass"}', get_legal_moves(view))
'P1 pass'
"""

from __future__ import annotations

from .agent import LLMAgent
from .parse import AmbiguousMoveError, IllegalMoveError, NoMoveError, parse_response
from .phases import DECISIONS, decisions, instructions, situation
from .prompt import generate_prompt, get_legal_moves
from .view import public_moves

__all__ = ["get_legal_moves", "generate_prompt", "parse_response", "LLMAgent", "NoMoveError", "IllegalMoveError",
           "AmbiguousMoveError", "DECISIONS", "decisions", "situation", "instructions", "public_moves"]
