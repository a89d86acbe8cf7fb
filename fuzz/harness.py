"""What every atheris harness does: seed a corpus folder, instrument rummydsl, fuzz one target.

``fuzz/fuzz_<target>.py`` calls :func:`run`; its arguments are libFuzzer's
(``-max_total_time=600``, ``-jobs``, corpus folders). Without a corpus folder the
harness uses ``fuzz/work/<target>/`` and fills it with the target's seeds
(:mod:`seeds`) when it is empty; without ``-dict=`` it adds the target's
dictionary of tokens (``fuzz/dicts/<target>.dict``) if there is one, and without
``-timeout=`` a timeout of 120 s an input. A crash is
written by libFuzzer as ``crash-<sha1>`` in the current folder: copy it into
``tests/fuzz/corpus/<target>/`` with a name that says what it is, fix the
defect, and the corpus test replays it from then on.
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def run(target: str) -> None:
    """Fuzz ``target`` (a key of :data:`targets.TARGETS`) with atheris until libFuzzer stops."""
    try:
        import atheris
    except ImportError:
        sys.exit("atheris is not installed: pip install atheris (see fuzz/README.md)")
    with atheris.instrument_imports(include=["rummydsl", "targets"]):
        import targets

        from seeds import seeds, write_seeds

        args = list(sys.argv)
        folders = [a for a in args[1:] if not a.startswith("-")]
        if not folders:
            folder = HERE / "work" / target
            if not folder.is_dir() or not any(folder.iterdir()):
                write_seeds(target, folder)
            args.append(str(folder))
        if not any(a.startswith("-timeout=") for a in args):
            # Instrumented code runs tens of times slower: the first load of a variant
            # (schema, tables, solver) takes seconds then, and libFuzzer's default is
            # 1200 s; 120 s flags a real hang without flagging that.
            args.insert(1, "-timeout=120")
        dictionary = HERE / "dicts" / f"{target}.dict"
        if dictionary.is_file() and not any(a.startswith("-dict=") for a in args):
            args.insert(1, f"-dict={dictionary}")
        entry = targets.TARGETS[target]
        entry(seeds(target)[0])  # imports what the target imports lazily, while instrumenting
    atheris.Setup(args, entry)
    atheris.Fuzz()
