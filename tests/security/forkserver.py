"""Real ``rummydsl`` processes without the start-up each time: a fork server.

One Python process (started as ``python -c``, in the folder and with the environment
the runs are given) imports rummydsl's command line and the modules its commands use,
then forks one child a run. A child is a process of its own, as ``python -m
rummydsl.cli ARGV`` is after its imports: its CPU time and address space limits are
set in it (a child's CPU time starts at zero), its standard streams are the run's
files (fd 0, 1 and 2, what would reach a terminal), it runs the command line's
``__main__`` as ``-m`` does (``sys.argv[0]`` the module's path, the folder first on
``sys.path``), prints an uncaught exception's traceback as the interpreter would and
exits with the command's code; a signal that ends it is reported as ``subprocess``
reports one (a negative code). ``/proc/self/environ`` is the server's, the runs'
environment. What a child cannot show is its own start-up (imports, the interpreter's
flags, what a command builds on first use: the server has run :func:`warm_ups`): the
tests that judge those start ``python -m rummydsl.cli`` afresh (tests/cli/test_imports.py,
tests/unit/test_melds_package.py).

The cost saved is the interpreter's start, the imports and the first-use builds: about
0.3 s of CPU a run of the hostile corpus (docs/performance.md, "The test suite's cost").
Before its first fork the server collects its garbage and moves every object it made
into the collector's permanent generation (``gc.collect``, ``gc.freeze``). Without it the
warm-ups left hundreds of thousands of objects promoted to the oldest generation since
its last full collection, so a child's first collection of that generation (a few
thousand allocations in) walked the server's whole heap, every module, schema, pattern
and deck table, writing into each object's header (about 25 ms of a 45 ms ``explain``,
the pages it wrote copied into the child). A child's collections now walk only what the
child makes, as a fresh process's walk only what it has made so far; the child's own
garbage is collected as before. The command line's argument parser (built at every
``main`` call, the command's arguments only: 3 to 5 ms of CPU) is built once a command in
the server by the warm-ups and reused by the children, as the in-process tests reuse it
(tests/conftest.py): argparse parses without changing it.
"""

from __future__ import annotations

import json
import os
import select
import shutil
import signal
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

SERVER = r'''
import atexit, json, os, resource, runpy, sys, traceback
sys.path[0] = os.getcwd()  # as -m puts the folder first
import rummydsl.cli
for name in ("rummydsl.cli.check", "rummydsl.cli.runs", "rummydsl.cli.rules", "rummydsl.simulate",
             "rummydsl.explainer", "rummydsl.conformance.command", "rummydsl.record", "rummydsl.engine",
             "rummydsl.agents", "rummydsl.backends", "rummydsl.runlog", "rummydsl.melds"):
    __import__(name)
requests, answers = os.fdopen(int(sys.argv[1]), "rb"), os.fdopen(int(sys.argv[2]), "wb")
import io
_build, _built = rummydsl.cli.build_parser, {}
def _parser(only=None):  # each command's parser built once, here, by the warm-ups: argparse parses without changing it
    if only not in _built:
        _built[only] = _build(only=only)
    return _built[only]
rummydsl.cli.build_parser = _parser  # main reads the name at each call
for argv, given in json.loads(sys.argv[3]):  # what each command builds on first use, built once here
    sink = io.StringIO()
    rummydsl.cli.main(argv, stdout=sink, stderr=sink, stdin=io.StringIO(given))
import gc
gc.collect()
gc.freeze()  # what the imports and warm-ups made is never walked again: a child's collections walk its own objects


def child(run):
    os.close(requests.fileno()); os.close(answers.fileno())
    if run["limits"]:
        cpu, memory = run["limits"]
        resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu))
        resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
    if run["cwd"]:
        os.chdir(run["cwd"])
        sys.path[0] = os.getcwd()
    for fd, path, flags in ((0, run["stdin"] or os.devnull, os.O_RDONLY),
                            (1, run["stdout"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC),
                            (2, run["stderr"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC)):
        opened = os.open(path, flags, 0o600)
        os.dup2(opened, fd)
        os.close(opened)
    sys.argv = ["-m", *run["argv"]]
    code = 0
    try:
        runpy._run_module_as_main("rummydsl.cli", alter_argv=True)
    except SystemExit as done:
        if done.code is None:
            code = 0
        elif isinstance(done.code, int):
            code = done.code & 0xFF
        else:
            print(done.code, file=sys.stderr)
            code = 1
    except BaseException:
        traceback.print_exc()
        code = 1
    try:
        atexit._run_exitfuncs()
        sys.stdout.flush()
        sys.stderr.flush()
    except BaseException:
        traceback.print_exc()
        code = code or 120
    os._exit(code)


for line in requests:
    run = json.loads(line)
    pid = os.fork()
    if pid == 0:
        try:
            child(run)
        finally:
            os._exit(1)  # never back into this loop
    answers.write(b"%d\n" % pid)
    answers.flush()
    _, status = os.waitpid(pid, 0)
    answers.write(b"%d\n" % os.waitstatus_to_exitcode(status))
    answers.flush()
'''


WARM_GOOD = "id: warm_up\nname: Warm-up\nextends: gin_rummy\n"
WARM_BAD = "id: warm_up\nnme: Warm-up\nextends: gin_rummy\nknock: {limit: 'deadwood +'}\n"
WARM_ORPHAN = "id: warm_up\nname: Warm-up\nknock: {limit: 10}\n"
WARM_SUITE = "variant: gin_rummy\ncases: [{name: nothing}]\n"


def warm_ups(scratch: Path) -> list[tuple[list[str], str]]:
    """Commands the server runs once before it forks (argv and standard input), on files of
    its own in ``scratch``, never the runs' files: what a command builds on first use (the
    schema validator and its messages, the expression parser, every shipped variant (a file
    that extends nothing and misses keys is compared with all of them, to name the parent
    it may have forgotten: 16 loads, about 70 ms a child), the deck tables of Gin, a
    suite's loader, a record's reader) is then built in every child, as the imports are.
    A fresh process builds them at its first use; a child starts with them, which changes
    no command's output (the tests of tests/cli run commands in one process one after
    another, as the children now start)."""
    good, bad, suite, log = (scratch / "warm-up.variant.yaml", scratch / "warm-up-bad.variant.yaml",
                             scratch / "warm-up.suite.yaml", scratch / "warm-up.jsonl")
    orphan = scratch / "warm-up-orphan.variant.yaml"  # extends nothing, misses keys: every shipped variant loads
    orphan.write_text(WARM_ORPHAN, encoding="utf-8")
    good.write_text(WARM_GOOD, encoding="utf-8")
    bad.write_text(WARM_BAD, encoding="utf-8")
    suite.write_text(WARM_SUITE, encoding="utf-8")
    return [(["check", str(orphan)], ""), (["check", str(good)], ""), (["check", str(bad)], ""),
            (["explain", str(good)], ""),
            (["simulate", str(good), "--games", "1", "--seed", "1", "--workers", "1", "--log", str(log)], ""),
            (["replay", str(log)], ""), (["test", str(suite)], ""),
            (["melds", "skarney_gin", "--batch"], "AS 2S 3S 4D 5D\n")]


class ForkServer:
    """``run(argv, stdin, cwd)`` gives the exit code, stdout and stderr of ``rummydsl
    ARGV`` run in ``cwd`` (``folder`` if none) with ``env`` (the server's own, fixed when
    it starts), under ``limits`` (CPU seconds, address space bytes) if given. The server
    runs :func:`warm_ups` and then ``warm`` (more commands of the same form) before its
    first fork."""

    def __init__(self, folder: Path, env: dict[str, str], limits: tuple[int, int] | None, hang_guard: float,
                 warm: list[tuple[list[str], str]] | None = None) -> None:
        self.folder, self.limits, self.hang_guard = folder, limits, hang_guard
        self.scratch = Path(tempfile.mkdtemp(prefix="rummydsl-forks-"))  # each run's streams
        requests_read, self._requests = os.pipe()
        self._answers, answers_write = os.pipe()
        first = json.dumps(warm_ups(self.scratch) + (warm or []))
        self.process = subprocess.Popen([sys.executable, "-c", SERVER, str(requests_read), str(answers_write), first],
                                        cwd=folder, env=env, stdin=subprocess.DEVNULL,
                                        pass_fds=(requests_read, answers_write))
        os.close(requests_read)
        os.close(answers_write)
        self._read = b""  # what the server answered past the last line taken
        self.runs = 0

    def _answer(self, timeout: float | None) -> int | None:
        """The server's next line (a number), or None when ``timeout`` seconds pass first."""
        while b"\n" not in self._read:
            if timeout is not None and not select.select([self._answers], [], [], timeout)[0]:
                return None
            more = os.read(self._answers, 4096)
            if not more:
                raise RuntimeError(f"the fork server ended (exit {self.process.wait()})")
            self._read += more
        line, self._read = self._read.split(b"\n", 1)
        return int(line)

    def run(self, argv: list[str], stdin: Path | None = None, cwd: Path | None = None) -> tuple[int, bytes, bytes]:
        self.runs += 1
        out, err = self.scratch / f"{self.runs}.out", self.scratch / f"{self.runs}.err"
        request: dict[str, Any] = {"argv": argv, "stdin": str(stdin) if stdin else None, "stdout": str(out),
                                   "stderr": str(err), "limits": list(self.limits) if self.limits else None,
                                   "cwd": str(cwd) if cwd else None}
        os.write(self._requests, json.dumps(request).encode("utf-8") + b"\n")
        pid = self._answer(None)
        code = self._answer(self.hang_guard)
        if code is None:  # a guard against a run that never ends, not a speed test
            try:
                os.kill(pid, signal.SIGKILL)  # type: ignore[arg-type]
            except ProcessLookupError:
                pass
            self._answer(None)
            raise subprocess.TimeoutExpired(argv, self.hang_guard)
        try:
            return code, out.read_bytes(), err.read_bytes()
        finally:
            out.unlink()
            err.unlink()

    def close(self) -> None:
        os.close(self._requests)  # the server's loop ends
        os.close(self._answers)
        self.process.wait()
        shutil.rmtree(self.scratch, ignore_errors=True)
