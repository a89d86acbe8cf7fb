"""The agent protocol: a program in any language plays a seat over stdin and stdout.

In the spirit of chess's UCI: the engine starts the program once, writes one
JSON object a line to its stdin, and reads one line back whenever it must act.
docs/protocol.md is the reference; in short:

- ``{"type": "start", "protocol": 1, "seat": "P2", "variant": "gin_rummy", "players": 2}``
  once, when the program starts (no answer);
- ``{"type": "act", "observation": {...}, "legal": ["P2 draw stock", ...]}`` when the
  program's seat must act; the program answers one line: an action in the
  notation (``P2 draw stock``) or ``{"action": "P2 draw stock"}``;
- ``{"type": "round_over", "result": {...}}`` after each round (no answer);
- ``{"type": "game_over", "result": {...}}`` when the game ends (no answer);
- ``{"type": "quit"}`` at the end; the program should exit.

An answer that is not a legal action, a late answer (``timeout`` seconds), an
answer longer than :data:`MAX_LINE` or not UTF-8, a line written before the
program was asked, a program that stops reading its input, closes its output or
exits is an :class:`~rummydsl.errors.AgentError` naming the seat and the reason.

The program runs in a session (process group) of its own, with its standard
error discarded; :meth:`ProgramAgent.close` kills the whole group (so a
grandchild that kept the pipes open goes too) and reaps the program: nothing is
left running, and no zombie. A descendant that left the group (``setsid()``) and
its parent (a daemon's double fork) is found too, on Linux: the process running
the agents becomes a child subreaper (``prctl(PR_SET_CHILD_SUBREAPER)``, once), so
such an orphan is re-parented to it rather than to init; :meth:`ProgramAgent.close`
then walks ``/proc`` for every descendant of the program and every orphan of it
(a child of this process that carries the program's token in its environment),
kills them all and reaps its own.

Whether a line came "before it was asked" is decided by sequence, never by a clock:
just before each ``act`` is written, everything the program has written that
rummydsl has received (the rest of the read that held the last answer, and what the
pipe holds now) is judged; anything there is early. A line that reaches the pipe
after the ``act`` was written is the answer to it.
"""

from __future__ import annotations

import ctypes
import itertools
import json
import math
import os
import secrets
import selectors
import shlex
import signal
import subprocess
import sys
import time
from typing import Any

from .engine.actions import Action, player_name
from .engine.observe import Observation
from . import jsonbound
from .errors import AgentError, RummyDslError
from .limits import MAX_AGENT_LINE

__all__ = ["ProgramAgent", "PROTOCOL_VERSION", "MAX_LINE", "DEFAULT_TIMEOUT", "agent_timeout", "become_subreaper",
           "TOKEN_VARIABLE"]

PROTOCOL_VERSION = 1
#: The longest answer line read, in bytes (:data:`rummydsl.limits.MAX_AGENT_LINE`).
MAX_LINE = MAX_AGENT_LINE
#: Seconds a program has to answer one ``act`` message.
DEFAULT_TIMEOUT = 10.0
#: Seconds between checks that a program that has not answered yet is still running.
_POLL = 0.1
#: The environment variable that marks a program's processes (its value is the program's token).
TOKEN_VARIABLE = "RUMMYDSL_AGENT_TOKEN"
#: How many times :meth:`ProgramAgent.close` looks again for processes of a program that
#: forked while it was being killed (a fork bomb is bounded by this many sweeps).
_SWEEPS = 20
_PR_SET_CHILD_SUBREAPER = 36  # <linux/prctl.h>
_subreaper_pid = 0  # the process that has become a child subreaper (0: none yet)
_tokens = itertools.count(1)


def become_subreaper() -> bool:
    """Make this process a child subreaper (Linux only; once per process, again after a fork).

    An orphaned descendant (a program's grandchild whose parent exited, after
    ``setsid()``) is then re-parented to this process, not to init, so
    :meth:`ProgramAgent.close` finds it. Returns whether this process is one.
    """
    global _subreaper_pid
    if _subreaper_pid == os.getpid():
        return True
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        done = bool(libc.prctl(_PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0)
    except (OSError, AttributeError):
        done = False
    if done:
        _subreaper_pid = os.getpid()
    return done


def agent_timeout(seat: str, default: float = DEFAULT_TIMEOUT) -> float:
    """The seconds a program has to answer: ``RUMMYDSL_AGENT_TIMEOUT`` if set, else ``default``.

    :raises AgentError: for a value that is not a positive number (``0``, ``-1``, ``inf``,
        ``soon``), naming the seat.
    """
    text = os.environ.get("RUMMYDSL_AGENT_TIMEOUT")
    if text is None or not text.strip():
        return default
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not value > 0 or math.isinf(value):
        raise AgentError(seat, f"RUMMYDSL_AGENT_TIMEOUT must be a positive number of seconds, got {text!r}")
    return value


class ProgramAgent:
    """A seat played by an external program (``cmd:PROGRAM`` in ``--agents``)."""

    def __init__(self, command: str, seat: int, *, timeout: float = DEFAULT_TIMEOUT) -> None:
        self.command = command
        self.seat = seat
        self.name = player_name(seat)
        self.timeout = agent_timeout(self.name, timeout)
        self._process: subprocess.Popen[bytes] | None = None
        self._buffer = b""
        self._started = False
        self._token = ""
        self._answers = 0  # accepted answers: a bad first line is most likely a start-up banner

    # -- the process ----------------------------------------------------------------

    def _start(self, observation: Observation) -> subprocess.Popen[bytes]:
        if self._process is not None:
            code = self._process.poll()
            if code is not None:
                raise AgentError(self.name, f"the program {self.command!r} has exited (exit code {code})")
            return self._process
        if self._started:
            raise AgentError(self.name, f"the program {self.command!r} has been stopped")
        self._started = True
        try:
            args = shlex.split(self.command)
        except ValueError as problem:
            raise AgentError(self.name, f"cannot read the command {self.command!r}: {problem}") from None
        if not args:
            raise AgentError(self.name, "cmd: needs a program to run")
        become_subreaper()
        self._token = f"{os.getpid()}-{next(_tokens)}-{secrets.token_hex(8)}"
        environment = {name: value for name, value in os.environ.items() if name != "RAY_AUTH_TOKEN"}
        environment[TOKEN_VARIABLE] = self._token  # and no Ray token (a local --ray instance's)
        try:
            process = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                       stderr=subprocess.DEVNULL, start_new_session=True, env=environment)
        except OSError as problem:
            raise AgentError(self.name, f"cannot start {self.command!r}: {problem.strerror or problem}") from None
        self._process = process
        self._buffer = b""
        assert process.stdin is not None
        os.set_blocking(process.stdin.fileno(), False)  # writes wait at most the timeout (_send)
        self._send({"type": "start", "protocol": PROTOCOL_VERSION, "seat": self.name,
                    "variant": observation.variant.id, "players": observation.players})
        return process

    def _send(self, message: dict[str, Any]) -> None:
        """Write one message, waiting at most :attr:`timeout` for the program to read it.

        :raises AgentError: if the program has exited or does not read its input in time.
        """
        process = self._process
        assert process is not None and process.stdin is not None
        data = json.dumps(message).encode() + b"\n"
        fd = process.stdin.fileno()
        deadline = time.monotonic() + self.timeout
        try:
            with selectors.DefaultSelector() as selector:
                selector.register(fd, selectors.EVENT_WRITE)
                while data:
                    try:
                        data = data[os.write(fd, data):]
                        continue
                    except BlockingIOError:
                        pass
                    left = deadline - time.monotonic()
                    if left <= 0 or not selector.select(left):
                        raise AgentError(self.name, f"did not read its input within {self.timeout:g} seconds")
        except (BrokenPipeError, OSError):
            code = process.poll()
            how = f" (exit code {code})" if code is not None else ""
            raise AgentError(self.name, f"the program {self.command!r} has exited{how}") from None

    def _check_nothing_pending(self) -> None:
        """Refuse a line the program wrote before it was asked (it would answer the wrong ``act``).

        :raises AgentError: quoting the start of the line.
        """
        process = self._process
        assert process is not None and process.stdout is not None
        with selectors.DefaultSelector() as selector:
            selector.register(process.stdout, selectors.EVENT_READ)
            while len(self._buffer) <= MAX_LINE and selector.select(0):
                chunk = os.read(process.stdout.fileno(), 65_536)
                if not chunk:
                    break  # end of output: the read after the act says so
                self._buffer += chunk
        if self._buffer.strip():
            text = self._buffer[:80].decode("utf-8", errors="replace")
            raise AgentError(self.name, f"wrote {text!r} before it was asked to act" + self._banner_hint())
        self._buffer = b""

    def _read_line(self) -> str:
        process = self._process
        assert process is not None and process.stdout is not None
        stream = process.stdout
        deadline = time.monotonic() + self.timeout
        with selectors.DefaultSelector() as selector:
            selector.register(stream, selectors.EVENT_READ)
            while b"\n" not in self._buffer:
                if len(self._buffer) > MAX_LINE:
                    raise AgentError(self.name, f"answered more than {MAX_LINE} bytes on one line")
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AgentError(self.name, f"no answer within {self.timeout:g} seconds")
                if not selector.select(min(left, _POLL)):
                    exited = process.poll()  # gone, though a grandchild may hold the pipe open
                    if exited is not None:
                        raise AgentError(self.name, f"the program {self.command!r} exited (exit code {exited})"
                                         " without answering")
                    continue
                chunk = os.read(stream.fileno(), 65_536)
                if not chunk:
                    # End of output: an exiting program closes it just before it exits; one
                    # that stays alive has closed it. Wait (for the exit, an event) at most
                    # the rest of the time limit to tell which, so no load can change the reason.
                    code: int | None = None
                    if _wait_unreaped(process.pid, max(deadline - time.monotonic(), 0.0)):
                        code = process.wait()
                    if code is None:
                        raise AgentError(self.name, f"the program {self.command!r} closed its output"
                                         " without answering")
                    raise AgentError(self.name, f"the program {self.command!r} exited (exit code {code})"
                                     " without answering")
                self._buffer += chunk
        line, _, self._buffer = self._buffer.partition(b"\n")
        if len(line) > MAX_LINE:
            raise AgentError(self.name, f"answered more than {MAX_LINE} bytes on one line")
        try:
            return line.decode("utf-8").strip()
        except UnicodeDecodeError:
            raise AgentError(self.name, f"answered {line[:40]!r}, which is not UTF-8") from None

    # -- the agent ----------------------------------------------------------------

    def act(self, observation: Observation) -> Action:
        """Ask the program for an action and check it is legal.

        :raises AgentError: for a bad, illegal or late answer, or an exited program.
        """
        self._start(observation)
        legal = observation.legal_actions()
        self._check_nothing_pending()
        self._send({"type": "act", "observation": observation.as_json(),
                    "legal": [str(a) for a in legal]})
        line = self._read_line()
        text = line
        if line.startswith("{"):
            try:
                message = jsonbound.loads(line)
            except jsonbound.JSONLimitError as problem:  # a stranger's program: within the JSON limits
                raise AgentError(self.name, f"answered {line[:40]!r}..., JSON past a limit at column "
                                 f"{problem.colno}: {problem.msg}") from None
            except json.JSONDecodeError:
                raise AgentError(self.name, f"answered {line[:80]!r}, which is not valid JSON") from None
            answer = message.get("action") if isinstance(message, dict) else None
            if not isinstance(answer, str):
                raise AgentError(self.name, f"answered {line[:80]!r}: a JSON answer needs an \"action\" string")
            text = answer
        try:
            action = observation.parse(text)
        except RummyDslError as problem:
            reason = getattr(problem, "reason", None) or str(problem)
            raise AgentError(self.name, f"answered {text[:80]!r}, which is not an action: {reason}"
                             + self._banner_hint()) from None
        if action not in legal:
            reason = observation.why_illegal(action) or "not legal now"
            raise AgentError(self.name, f"answered {str(action)!r}, which is illegal: {reason}")
        self._answers += 1
        return action

    def _banner_hint(self) -> str:
        """For a bad line before the first answer: what it most likely is (docs/protocol.md).

        A banner written at start-up reaches rummydsl before or after the first ``act``
        goes out, as the machine's load has it; either way it is this line.
        """
        if self._answers:
            return ""
        return ("; write nothing but answers on standard output (a start-up banner or a log line "
                "goes to standard error)")

    def round_over(self, result: dict[str, Any]) -> None:
        """Tell the program a round has ended (ignored if it has gone)."""
        if self._process is not None and self._process.poll() is None:
            try:
                self._send({"type": "round_over", "result": result})
            except AgentError:
                pass

    def game_over(self, result: dict[str, Any]) -> None:
        """Tell the program the game has ended (ignored if it has gone)."""
        if self._process is not None and self._process.poll() is None:
            try:
                self._send({"type": "game_over", "result": result})
            except AgentError:
                pass

    def close(self) -> None:
        """Send ``quit`` and stop the program: it has a second to exit, then its whole
        process group is killed (a grandchild holding the pipes too), and it is reaped."""
        process = self._process
        self._process = None
        if process is None:
            return
        try:
            if process.poll() is None and process.stdin is not None:
                os.write(process.stdin.fileno(), b'{"type": "quit"}\n')  # non-blocking: never waits
        except OSError:
            pass
        for stream in (process.stdin, process.stdout):
            if stream is not None:
                try:
                    stream.close()
                except OSError:
                    pass
        _wait_unreaped(process.pid, 1.0)
        for _ in range(_SWEEPS):  # each sweep kills what the last one missed (a fork while killed)
            # The program's own descendants only while it is unreaped (its id is not reused).
            found = _processes_of(process.pid if process.returncode is None else 0, self._token)
            try:
                os.killpg(process.pid, signal.SIGKILL)  # the group outlives its leader only by a leak
            except (ProcessLookupError, PermissionError):
                pass
            alive = [pid for pid, state in found.items() if state not in ("Z", "X")]
            for pid in alive:
                try:
                    os.kill(pid, signal.SIGKILL)
                except (ProcessLookupError, PermissionError):
                    pass
            _reap_orphans(found)
            if not alive:
                break
        process.wait()

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:  # noqa: BLE001 - never raise from a finaliser
            pass


def _wait_unreaped(pid: int, seconds: float) -> bool:
    """Wait up to ``seconds`` for child ``pid`` to exit, without reaping it; whether it has.

    While the child is unreaped its process id (and so its process group id) cannot be
    reused, so killing the group afterwards cannot hit an unrelated process. The wait is
    for the event (a pidfd that becomes readable when the process exits, Linux 5.3+),
    with a poll of ``waitid`` where there is none.
    """
    def exited() -> bool:
        try:
            return os.waitid(os.P_PID, pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is not None
        except ChildProcessError:
            return True

    if exited():
        return True
    deadline = time.monotonic() + seconds
    try:
        descriptor = os.pidfd_open(pid)  # type: ignore[attr-defined,unused-ignore]
    except (AttributeError, OSError):
        descriptor = -1
    if descriptor >= 0:
        try:
            with selectors.DefaultSelector() as selector:
                selector.register(descriptor, selectors.EVENT_READ)
                while not exited():
                    left = deadline - time.monotonic()
                    if left <= 0:
                        return False
                    selector.select(left)
                return True
        finally:
            os.close(descriptor)
    while not exited():
        if time.monotonic() >= deadline:
            return False
        time.sleep(0.01)
    return True


def _process_table() -> dict[int, tuple[int, str]]:
    """Every process this user can see: process id -> (parent id, state letter), from
    ``/proc`` (empty where there is none)."""
    table: dict[int, tuple[int, str]] = {}
    try:
        names = os.listdir("/proc")
    except OSError:
        return table
    for name in names:
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as handle:
                fields = handle.read().rsplit(b")", 1)[1].split()
            table[int(name)] = (int(fields[1]), fields[0].decode("ascii", "replace"))
        except (OSError, IndexError, ValueError):
            continue  # gone meanwhile
    return table


def _carries(pid: int, token: str) -> bool:
    """Whether process ``pid`` was started with ``TOKEN_VARIABLE=token`` in its environment."""
    if not token:
        return False
    try:
        with open(f"/proc/{pid}/environ", "rb") as handle:
            environment = handle.read(1 << 20)
    except OSError:
        return False
    return f"{TOKEN_VARIABLE}={token}".encode() in environment.split(b"\0")


def _processes_of(leader: int, token: str) -> dict[int, str]:
    """The processes of the program ``leader`` (not itself), with their state letters: its
    descendants (none for a ``leader`` of 0), and every child of this process that carries
    the program's ``token`` (an orphan the subreaper took in) with its descendants."""
    table = _process_table()
    children: dict[int, list[int]] = {}
    for pid, (parent, _) in table.items():
        children.setdefault(parent, []).append(pid)
    me = os.getpid()
    roots = [leader] if leader else []
    roots += [pid for pid in children.get(me, ()) if pid != leader and _carries(pid, token)]
    found: dict[int, str] = {}
    todo = list(roots)
    while todo:
        pid = todo.pop()
        if pid != leader:
            found[pid] = table[pid][1]
        todo.extend(child for child in children.get(pid, ()) if child not in found and child != leader)
    return found


def _reap_orphans(found: dict[int, str]) -> None:
    """Reap those of ``found`` that are children of this process (orphans taken in by the
    subreaper), once they are dead: wait for each (an event) a bounded time."""
    for pid in found:
        try:
            if os.waitid(os.P_PID, pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is None:
                if not _wait_unreaped(pid, 5.0):
                    continue
            os.waitpid(pid, 0)
        except ChildProcessError:
            continue  # not ours: its own parent reaps it
