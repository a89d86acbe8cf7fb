"""A hostile agent (issue 17): answers every act with JSON nested 30,000 levels deep (within the 64 KiB answer line).

Before rummydsl bounded JSON nesting this was a RecursionError; the game must stop
cleanly, with the reason in the log's ``stopped`` line.
"""

import json
import sys

for line in sys.stdin:
    message = json.loads(line)
    if message.get("type") == "act":
        sys.stdout.write('{"action": ' + "[" * 30_000 + "]" * 30_000 + "}\n")
        sys.stdout.flush()
    elif message.get("type") == "quit":
        break
