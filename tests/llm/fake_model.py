"""A stand-in for a language model: reads a rummydsl prompt on stdin, answers on stdout.

Usage: ``python tests/llm/fake_model.py [MODE]``. It finds the legal moves the prompt
lists (a folded line's moves included) and answers one of them, chosen by a hash of the prompt (so the same prompt gets
the same answer). MODE says how it answers:

- ``json`` (the default): thinks aloud, then ``{"move": "..."}``;
- ``prose``: the move in a sentence;
- ``bad-first``: nonsense, and a legal move once told its answer was refused;
- ``illegal-first``: a move of another seat first, then a legal one;
- ``never``: always nonsense (the harness falls back);
- ``fail``: exits with code 3 and no answer.

No network, no model: the tests of rummydsl.llm and docs/llm.md run it.
"""

import hashlib
import json
import sys


def main() -> int:
    mode = sys.argv[1] if len(sys.argv) > 1 else "json"
    prompt = sys.stdin.read()
    if mode == "fail":
        return 3
    lines = prompt.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("Your legal moves"))
    legal = []
    for line in lines[start + 1:]:
        if not line.strip():
            break
        if not line.startswith("- ") or line.startswith("- ..."):
            continue  # the melds of a folded group of lay-downs, and the line that introduces them
        move = line[2:]
        if ", CARD one of: " in move:  # a folded line: one move per card it names
            template, cards = move.split(", CARD one of: ")
            legal += [template.replace("CARD", card, 1) for card in cards.split()]
        else:
            legal.append(move)
    refused = prompt.startswith("Your last answer was refused")
    pick = legal[int(hashlib.sha256(prompt.encode()).hexdigest(), 16) % len(legal)]
    if mode == "never" or (mode == "bad-first" and not refused):
        print("I am not sure what to do here.")
    elif mode == "illegal-first" and not refused:
        print(json.dumps({"move": "P9 draw stock"}))
    elif mode == "prose":
        print(f"Looking at my hand, I will play {pick} now.")
    else:
        print(f"My hand could go several ways; I choose this move.\n{json.dumps({'move': pick})}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
