"""A hostile agent (issue 17): answers with terminal escapes (title, clear screen, C1 CSI).

The answer is quoted in the error and in the log's ``stopped`` line: never raw on a terminal.
"""

import json
import sys

for line in sys.stdin:
    message = json.loads(line)
    if message.get("type") == "act":
        sys.stdout.write("P2 \x1b]0;pwned\x07\x1b[2J\u009b2J\u202e draw\n")
        sys.stdout.flush()
    elif message.get("type") == "quit":
        break
