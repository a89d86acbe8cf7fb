"""A program agent that leaves ten sleepers, each in a session of its own and each
orphaned at once (a double fork with setsid()), and one that forks again while it is
killed is not needed: the sweep finds them all. It plays the first legal move all game."""

import json
import os
import sys
import time


def swarm(count: int) -> None:
    for _ in range(count):
        child = os.fork()
        if child:
            os.waitpid(child, 0)
            continue
        os.setsid()
        if os.fork():
            os._exit(0)
        for descriptor in (0, 1):
            os.close(descriptor)
        time.sleep(60)
        os._exit(0)


def main() -> int:
    started = False
    for line in sys.stdin:
        message = json.loads(line)
        if message["type"] == "quit":
            return 0
        if message["type"] != "act":
            continue
        if not started:
            started = True
            swarm(10)
        sys.stdout.write(message["legal"][0] + "\n")
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
