"""A program agent that answers its first act twice, both lines in one write: the
second is early by sequence (rummydsl has it before it sends the next act), so the
game stops with "wrote ... before it was asked to act", on any machine, under any load."""

import json
import os
import sys


def main() -> int:
    for line in sys.stdin:
        message = json.loads(line)
        if message["type"] == "quit":
            return 0
        if message["type"] != "act":
            continue
        answer = message["legal"][0] + "\n"
        os.write(1, (answer + answer).encode())
    return 0


if __name__ == "__main__":
    sys.exit(main())
