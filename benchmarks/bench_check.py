"""Time and CPU of `rummydsl check variants/` next to the floor of importing its
dependencies (`python -c "import yaml, jsonschema, lark"`), as ratios of medians.

    python benchmarks/bench_check.py [--runs 15]

Each command runs as a fresh process (that is what a user waits for), with the
interpreter that runs this script, on the package of this script's checkout (`rummydsl`
run as its installed script runs it: the entry point in pyproject.toml). The runs are
interleaved: each round runs every command once, in turn, so a change of the machine's
load during the benchmark weighs on all of them alike. For each command the table shows
the median wall time with its spread (lowest to highest run), the median CPU time (user
and system of the process, which a loaded machine disturbs less than the wall time), and
each median as a multiple of the floor's.
"""

from __future__ import annotations

import argparse
import compileall
import os
import re
import statistics
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def run_once(command: list[str], where: Path = REPO) -> tuple[float, float]:
    """Wall and CPU seconds (user + system) of one run of ``command`` in the folder ``where``."""
    start = time.perf_counter()
    process = subprocess.Popen(command, cwd=where, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - start
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode != 0:
        sys.exit(f"{' '.join(command)} exited with {process.returncode}")
    return wall, usage.ru_utime + usage.ru_stime


def script(checkout: Path) -> list[str]:
    """What the installed ``rummydsl`` script of ``checkout`` runs (its entry point in
    pyproject.toml), as a command of this interpreter (the floor's) that, started in
    ``checkout``, imports that checkout's package (a ``-c`` command's folder comes first
    on its path), whatever interpreter an installed script names."""
    found = re.search(r'^rummydsl = "([\w.]+):(\w+)"', (checkout / "pyproject.toml").read_text(encoding="utf-8"),
                      re.MULTILINE)
    if found is None:
        sys.exit(f"no rummydsl script in {checkout / 'pyproject.toml'}")
    module, function = found.groups()
    return [sys.executable, "-c", f"import sys; from {module} import {function}; sys.exit({function}())"]


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--runs", type=int, default=15, help="runs of each command (default: 15)")
    parser.add_argument("--before", type=Path, metavar="CHECKOUT",
                        help="also run the two check commands in another checkout (an older commit: "
                             "git worktree add, or git archive), interleaved with the rest")
    args = parser.parse_args()
    # pip byte-compiles what it installs, so the floor's packages load from .pyc files;
    # do the same for rummydsl (an editable install, or PYTHONDONTWRITEBYTECODE, skips it).
    checkouts = [REPO] if args.before is None else [REPO, args.before.resolve()]
    for checkout in checkouts:
        compileall.compile_dir(str(checkout / "rummydsl"), quiet=1)
    floor_name = "floor: import yaml, jsonschema, lark"
    cases: dict[str, tuple[list[str], Path]] = {
        floor_name: ([sys.executable, "-c", "import yaml, jsonschema, lark"], REPO),
        "python startup alone": ([sys.executable, "-c", "pass"], REPO),
    }
    for checkout in checkouts:
        tag = "" if checkout == REPO else " (before)"
        rummydsl = script(checkout)
        cases[f"rummydsl check variants/{tag}"] = ([*rummydsl, "check", "variants/"], checkout)
        cases[f"rummydsl check --json variants/ tests/examples/good{tag}"] = (
            [*rummydsl, "check", "--json", "variants/", "tests/examples/good"], checkout)
    for command, where in cases.values():
        run_once(command, where)  # warm the file cache
    walls: dict[str, list[float]] = {name: [] for name in cases}
    cpus: dict[str, list[float]] = {name: [] for name in cases}
    for _ in range(args.runs):
        for name, (command, where) in cases.items():
            wall, cpu = run_once(command, where)
            walls[name].append(wall)
            cpus[name].append(cpu)
    floor_wall, floor_cpu = statistics.median(walls[floor_name]), statistics.median(cpus[floor_name])
    print(f"{args.runs} interleaved runs each; load average at the end {os.getloadavg()[0]:.1f}")
    print(f"{'command':64} {'wall ms: median (low-high)':>27} {'x floor':>8} {'CPU ms: median (low-high)':>26} "
          f"{'x floor':>8}")
    for name in cases:
        wall, cpu = statistics.median(walls[name]), statistics.median(cpus[name])
        wall_text = f"{wall * 1000:.1f} ({min(walls[name]) * 1000:.0f}-{max(walls[name]) * 1000:.0f})"
        cpu_text = f"{cpu * 1000:.1f} ({min(cpus[name]) * 1000:.0f}-{max(cpus[name]) * 1000:.0f})"
        print(f"{name:64} {wall_text:>27} {wall / floor_wall:8.2f} {cpu_text:>26} {cpu / floor_cpu:8.2f}")


if __name__ == "__main__":
    main()
