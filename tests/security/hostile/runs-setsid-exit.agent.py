"""A program agent that leaves a grandchild in a session of its own (fork, setsid(),
fork; the middle process exits), then exits with code 3 at its first act: the game
stops ("exited (exit code 3) without answering") and rummydsl must kill the
grandchild, which holds no pipe and would sleep for a minute."""

import json
import os
import sys
import time


def main() -> int:
    for line in sys.stdin:
        message = json.loads(line)
        if message["type"] != "act":
            continue
        child = os.fork()
        if child == 0:
            os.setsid()
            if os.fork():
                os._exit(0)
            for descriptor in (0, 1, 2):
                os.close(descriptor)
            time.sleep(60)
            os._exit(0)
        os.waitpid(child, 0)
        return 3
    return 0


if __name__ == "__main__":
    sys.exit(main())
