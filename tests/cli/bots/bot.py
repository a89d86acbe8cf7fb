"""A test program for the agent protocol: ``bot.py BEHAVIOUR [N]``.

Reads one JSON message a line. To each ``act`` it answers as BEHAVIOUR says,
from its N-th act on (before that it plays the first legal move):

- ``legal``: the first legal move (all game long);
- ``json``: the first legal move as ``{"action": ...}``;
- ``garbage``: ``hello there``;
- ``nojson``: ``{"move": 1}`` (JSON without an action);
- ``illegal``: a well-formed move that is not legal now;
- ``silent``: nothing (it waits for the next message);
- ``flood``: two megabytes on one line;
- ``exit``: exits with code 3 without answering.

It writes every message it got to the file named by BOT_TRANSCRIPT, if set.
"""

import json
import os
import sys


def main() -> int:
    behaviour = sys.argv[1]
    start = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    transcript = os.environ.get("BOT_TRANSCRIPT")
    acts = 0
    for line in sys.stdin:
        message = json.loads(line)
        if transcript:
            with open(transcript, "a", encoding="utf-8") as handle:
                handle.write(message["type"] + "\n")
        if message["type"] == "quit":
            return 0
        if message["type"] != "act":
            continue
        acts += 1
        legal = message["legal"]
        answer = legal[0]
        if acts >= start:
            if behaviour == "json":
                answer = json.dumps({"action": legal[0]})
            elif behaviour == "garbage":
                answer = "hello there"
            elif behaviour == "nojson":
                answer = '{"move": 1}'
            elif behaviour == "illegal":
                me = message["observation"]["you"]
                answer = next(f"{me} {verb}" for verb in ("draw stock", "pass", "done", "take")
                              if f"{me} {verb}" not in legal)
            elif behaviour == "silent":
                continue
            elif behaviour == "flood":
                sys.stdout.write("x" * 2_000_000 + "\n")
                sys.stdout.flush()
                continue
            elif behaviour == "exit":
                return 3
        sys.stdout.write(answer + "\n")
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
