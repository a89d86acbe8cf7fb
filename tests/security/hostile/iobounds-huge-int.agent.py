"""A hostile agent (issue 17): answers every act with JSON holding a 5,000-digit integer.

Python's json refuses integers past 4,300 digits with a ValueError; rummydsl must stop the
game cleanly, with the reason in the log's ``stopped`` line.
"""

import json
import sys

for line in sys.stdin:
    message = json.loads(line)
    if message.get("type") == "act":
        sys.stdout.write('{"action": ' + "9" * 5000 + "}\n")
        sys.stdout.flush()
    elif message.get("type") == "quit":
        break
