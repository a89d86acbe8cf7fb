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
answer longer than :data:`MAX_LINE`, or a program that exits is an
:class:`~rummydsl.errors.AgentError` naming the seat and the reason.
"""

from __future__ import annotations

import json
import math
import os
import selectors
import shlex
import subprocess
import time
from typing import Any

from .engine.actions import Action, player_name
from .engine.observe import Observation
from .errors import AgentError, RummyDslError
from .limits import MAX_AGENT_LINE

__all__ = ["ProgramAgent", "PROTOCOL_VERSION", "MAX_LINE", "DEFAULT_TIMEOUT", "agent_timeout"]

PROTOCOL_VERSION = 1
#: The longest answer line read, in bytes (:data:`rummydsl.limits.MAX_AGENT_LINE`).
MAX_LINE = MAX_AGENT_LINE
#: Seconds a program has to answer one ``act`` message.
DEFAULT_TIMEOUT = 10.0


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
        try:
            process = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                       stderr=subprocess.DEVNULL)
        except OSError as problem:
            raise AgentError(self.name, f"cannot start {self.command!r}: {problem.strerror or problem}") from None
        self._process = process
        self._buffer = b""
        self._send({"type": "start", "protocol": PROTOCOL_VERSION, "seat": self.name,
                    "variant": observation.variant.id, "players": observation.players})
        return process

    def _send(self, message: dict[str, Any]) -> None:
        process = self._process
        assert process is not None and process.stdin is not None
        try:
            process.stdin.write(json.dumps(message).encode() + b"\n")
            process.stdin.flush()
        except (BrokenPipeError, OSError):
            code = process.poll()
            how = f" (exit code {code})" if code is not None else ""
            raise AgentError(self.name, f"the program {self.command!r} has exited{how}") from None

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
                if left <= 0 or not selector.select(left):
                    raise AgentError(self.name, f"no answer within {self.timeout:g} seconds")
                chunk = os.read(stream.fileno(), 65_536)
                if not chunk:
                    try:
                        code: int | None = process.wait(timeout=0.5)
                    except subprocess.TimeoutExpired:
                        code = None
                    how = f" (exit code {code})" if code is not None else ""
                    raise AgentError(self.name, f"the program {self.command!r} exited{how} without answering")
                self._buffer += chunk
        line, _, self._buffer = self._buffer.partition(b"\n")
        if len(line) > MAX_LINE:
            raise AgentError(self.name, f"answered more than {MAX_LINE} bytes on one line")
        return line.decode("utf-8", errors="replace").strip()

    # -- the agent ----------------------------------------------------------------

    def act(self, observation: Observation) -> Action:
        """Ask the program for an action and check it is legal.

        :raises AgentError: for a bad, illegal or late answer, or an exited program.
        """
        self._start(observation)
        legal = observation.legal_actions()
        self._send({"type": "act", "observation": observation.as_json(),
                    "legal": [str(a) for a in legal]})
        line = self._read_line()
        text = line
        if line.startswith("{"):
            try:
                message = json.loads(line)
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
            raise AgentError(self.name, f"answered {text[:80]!r}, which is not an action: {reason}") from None
        if action not in legal:
            reason = observation.why_illegal(action) or "not legal now"
            raise AgentError(self.name, f"answered {str(action)!r}, which is illegal: {reason}")
        return action

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
        """Send ``quit`` and stop the program (killed if it does not exit within a second)."""
        process = self._process
        self._process = None
        if process is None:
            return
        try:
            if process.poll() is None and process.stdin is not None:
                process.stdin.write(b'{"type": "quit"}\n')
                process.stdin.flush()
                process.stdin.close()
        except OSError:
            pass
        try:
            process.wait(timeout=1.0)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        finally:
            if process.stdout is not None:
                process.stdout.close()

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:  # noqa: BLE001 - never raise from a finaliser
            pass
