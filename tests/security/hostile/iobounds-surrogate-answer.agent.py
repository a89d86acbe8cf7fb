"""A hostile agent (issue 17): answers JSON whose action is a lone surrogate ("\\ud800").

JSON escapes can spell text that is not Unicode; the answer must be refused cleanly and
the ``stopped`` line written (as JSON, escaped).
"""

import json
import sys

for line in sys.stdin:
    message = json.loads(line)
    if message.get("type") == "act":
        sys.stdout.write('{"action": "P2 draw \\ud800 stock"}\n')
        sys.stdout.flush()
    elif message.get("type") == "quit":
        break
