"""``python -m rummydsl.cli``: the command line, as the ``rummydsl`` script runs it."""

import sys

from . import main

if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
