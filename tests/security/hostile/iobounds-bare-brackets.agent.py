"""A hostile agent (issue 17): answers every act with 60,000 ``[`` and no JSON object around them.

The answer is read as action notation: it must be refused as not an action, cleanly.
"""

import json
import sys

for line in sys.stdin:
    message = json.loads(line)
    if message.get("type") == "act":
        sys.stdout.write("[" * 60_000 + "\n")
        sys.stdout.flush()
    elif message.get("type") == "quit":
        break
