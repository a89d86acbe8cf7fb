"""Hostile agent (issue 17, observe): plays the first legal action, but after a knock it
tries to lay off the card it believes the knock discarded face down (the pile's top as it
sees it), and it keeps the round_over results it hears. The engine must refuse cleanly
(exit 1 with the seat and the reason) or play on; never a traceback."""

import json
import sys

for line in sys.stdin:
    message = json.loads(line)
    kind = message.get("type")
    if kind == "quit":
        break
    if kind != "act":
        continue
    observation = message["observation"]
    legal = message["legal"]
    me = observation["you"]
    pile = observation.get("discards") or []
    if observation.get("phase") == "showdown" and pile and "knock_discard" in observation:
        print(f"{me} layoff {pile[-1]} on {observation['ender']}#1", flush=True)
        continue
    print(legal[0], flush=True)
