"""Wall time of `rummydsl check variants/` next to the floor of importing its
dependencies (`python -c "import yaml, jsonschema, lark"`), as a ratio from one run.

    python benchmarks/bench_check.py [--runs 15]

Each command runs as a fresh process (that is what a user waits for); the table
shows the median and the best of the runs, and the ratio of medians.
"""

from __future__ import annotations

import argparse
import compileall
import importlib.util
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def timed(command: list[str], runs: int) -> list[float]:
    subprocess.run(command, check=True, capture_output=True, cwd=REPO)  # warm the file cache
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(command, check=True, capture_output=True, cwd=REPO)
        times.append(time.perf_counter() - start)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15)
    args = parser.parse_args()
    rummydsl = shutil.which("rummydsl") or sys.exit("install the package first: pip install .")
    # pip byte-compiles what it installs, so the floor's packages load from .pyc files;
    # do the same for rummydsl (an editable install, or PYTHONDONTWRITEBYTECODE, skips it).
    package = Path(importlib.util.find_spec("rummydsl").origin).parent
    compileall.compile_dir(str(package), quiet=1)
    cases = {
        "floor: import yaml, jsonschema, lark": [sys.executable, "-c", "import yaml, jsonschema, lark"],
        "python startup alone": [sys.executable, "-c", "pass"],
        "rummydsl check variants/": [rummydsl, "check", "variants/"],
        "rummydsl check --json variants/ tests/examples/good": [rummydsl, "check", "--json", "variants/",
                                                                 "tests/examples/good"],
    }
    results = {name: timed(command, args.runs) for name, command in cases.items()}
    floor = statistics.median(results["floor: import yaml, jsonschema, lark"])
    print(f"{'command':55} {'median ms':>10} {'best ms':>9} {'x floor':>8}")
    for name, times in results.items():
        median = statistics.median(times)
        print(f"{name:55} {median * 1000:10.1f} {min(times) * 1000:9.1f} {median / floor:8.2f}")


if __name__ == "__main__":
    main()
