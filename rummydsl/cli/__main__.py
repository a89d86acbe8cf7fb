"""``python -m rummydsl.cli``: the command line, as the ``rummydsl`` script runs it."""

from . import run

if __name__ == "__main__":  # pragma: no cover
    run()
