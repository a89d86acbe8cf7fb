"""A program agent that escapes its process group: it forks, the child calls setsid()
and forks again (a daemon's double fork), the middle process exits, and the grandchild
lingers for a minute. The agent itself plays the first legal move all game long.

With BOT_PIDFILE set, the middle process writes the grandchild's process id there. rummydsl must kill
the grandchild when the game ends (docs/security.md, "Program agents")."""

import json
import os
import sys
import time


def linger() -> None:
    child = os.fork()
    if child:
        os.waitpid(child, 0)  # the middle process exits at once: the grandchild is an orphan
        return
    os.setsid()
    grandchild = os.fork()
    if grandchild:
        name = os.environ.get("BOT_PIDFILE")
        if name:  # written before the agent plays on: it waits for this process
            with open(name, "a", encoding="utf-8") as handle:
                handle.write(f"{grandchild}\n")
        os._exit(0)
    for descriptor in (0, 1):
        os.close(descriptor)  # holds no pipe: only the kill of the tree ends it
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
            linger()
        sys.stdout.write(message["legal"][0] + "\n")
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
