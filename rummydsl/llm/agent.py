"""``llm:PROGRAM``: a seat played by a language model behind any program that reads a prompt.

For each decision the agent starts PROGRAM, writes the prompt (:func:`generate_prompt`,
the legal moves listed) to its standard input, closes it, and reads the answer from its
standard output until the program exits. So a model runner of any kind sits behind it:
``ollama run llama3``, ``llm -m gpt-4o-mini``, a script calling an API. The answer is
read by :func:`parse_response`; an answer with no move, an illegal or an ambiguous one
is asked again, the reason at the top of the new prompt, at most :attr:`LLMAgent.retries`
more times; then the agent plays the fallback, the greedy agent's move (docs/llm.md),
and counts it in :attr:`LLMAgent.fallbacks`.

A program that cannot be started, exits with a failure code, answers nothing within the
time limit or writes more than :data:`MAX_ANSWER` bytes is an
:class:`~rummydsl.errors.AgentError` naming the seat (a broken runner is not a bad move:
playing on by the fallback would hide it). Settings come from the environment:
``RUMMYDSL_LLM_TIMEOUT`` (seconds per answer, default :data:`DEFAULT_TIMEOUT`),
``RUMMYDSL_LLM_RETRIES`` (default :data:`DEFAULT_RETRIES`) and ``RUMMYDSL_LLM_TRANSCRIPT``
(a file each prompt and answer is appended to).
"""

from __future__ import annotations

import os
import selectors
import shlex
import signal
import subprocess
import tempfile
import time
from typing import TextIO

from ..agents.basic import GreedyAgent
from ..engine.actions import Action, player_name
from ..engine.observe import Observation
from ..errors import ActionError, AgentError
from ..protocol import _wait_unreaped
from .parse import parse_response
from .prompt import generate_prompt

__all__ = ["LLMAgent", "DEFAULT_TIMEOUT", "DEFAULT_RETRIES", "MAX_ANSWER", "llm_settings"]

DEFAULT_TIMEOUT = 300.0
"""Seconds a program has to answer one prompt (a model on a CPU can be slow)."""
DEFAULT_RETRIES = 2
"""How many more times a bad answer is asked again before the fallback is played."""
MAX_ANSWER = 1 << 20
"""The most bytes of an answer read."""


def _number(seat: str, name: str, default: float, *, whole: bool) -> float:
    text = os.environ.get(name, "").strip()
    if not text:
        return default
    try:
        value = float(text)
    except ValueError:
        value = float("nan")
    ok = value >= 0 and value != float("inf") and (not whole or value == int(value)) and (whole or value > 0)
    if not ok:
        kind = "a whole number, 0 or more" if whole else "a positive number of seconds"
        raise AgentError(seat, f"{name} must be {kind}, got {text!r}")
    return value


def llm_settings(seat: int = 0) -> tuple[float, int, str | None]:
    """The time limit, the retries and the transcript file from the environment.

    :raises AgentError: for a value that is not a number of the right kind, naming the seat.
    """
    where = player_name(seat)
    timeout = _number(where, "RUMMYDSL_LLM_TIMEOUT", DEFAULT_TIMEOUT, whole=False)
    retries = int(_number(where, "RUMMYDSL_LLM_RETRIES", DEFAULT_RETRIES, whole=True))
    transcript = os.environ.get("RUMMYDSL_LLM_TRANSCRIPT", "").strip() or None
    return timeout, retries, transcript


class LLMAgent:
    """A seat played by a model behind ``command`` (``llm:PROGRAM`` in ``--agents``).

    :param command: the program and its arguments, split as a shell would (no shell runs).
    :param seat: the seat it plays (for error messages).
    :param timeout: seconds per answer; ``retries``: more tries after a bad answer;
        ``transcript``: a file each prompt and answer is appended to. Each is read from
        the environment when not given (:func:`llm_settings`).
    """

    def __init__(self, command: str, seat: int = 0, *, timeout: float | None = None, retries: int | None = None,
                 transcript: str | None = None) -> None:
        env_timeout, env_retries, env_transcript = llm_settings(seat)
        self.command = command
        self.seat = seat
        self.name = player_name(seat)
        self.timeout = env_timeout if timeout is None else timeout
        self.retries = env_retries if retries is None else retries
        self.transcript = env_transcript if transcript is None else transcript
        self.fallback = GreedyAgent()
        self.prompts = 0
        """Prompts sent (every try counts)."""
        self.fallbacks = 0
        """Decisions played by the fallback after every try failed."""
        try:
            self._args = shlex.split(command)
        except ValueError as problem:
            raise AgentError(self.name, f"cannot read the command {command!r}: {problem}") from None
        if not self._args:
            raise AgentError(self.name, "llm: needs a program to run")

    @property
    def spec(self) -> str:
        """The agent as ``--agents`` names it: ``llm:`` and the command."""
        return f"llm:{self.command}"

    def save_entry(self) -> dict[str, str]:
        """What a save holds of this seat (:func:`rummydsl.save.save_agents`): its name in
        ``--agents`` and ``"state": "program"``, as for a ``cmd:`` program. The model keeps
        no state between prompts (each prompt says all), so a resumed game starts the
        agent afresh from its command; its time limit, retries and transcript come from
        the environment then (``RUMMYDSL_LLM_*``), not from the save.

        >>> LLMAgent("ollama run llama3.2", 1).save_entry()
        {'agent': 'llm:ollama run llama3.2', 'state': 'program'}
        """
        return {"agent": self.spec, "state": "program"}

    def act(self, observation: Observation) -> Action:
        """Ask the model for a move, asking again after a bad answer, then the fallback.

        :raises AgentError: when the program cannot run or fails (not for a bad answer).
        """
        base = generate_prompt(observation, legal=True)
        problem = ""
        for _ in range(self.retries + 1):
            prompt = base if not problem else (
                f"Your last answer was refused: {problem}\nAnswer again with one legal move.\n\n" + base)
            answer = self._ask(prompt)
            try:
                move = parse_response(answer, observation)
            except ActionError as refused:
                problem = str(refused.reason)
                self._log(prompt, answer, f"refused: {problem}")
                continue
            self._log(prompt, answer, f"played: {move}")
            return observation.parse(move)
        self.fallbacks += 1
        action = self.fallback.act(observation)
        self._log("", "", f"fallback after {self.retries + 1} refused answers: {action}")
        return action

    def _log(self, prompt: str, answer: str, outcome: str) -> None:
        if self.transcript is None:
            return
        try:
            with open(self.transcript, "a", encoding="utf-8") as out:
                _write_entry(out, self.name, prompt, answer, outcome)
        except OSError as problem:
            raise AgentError(self.name, f"cannot write the transcript {self.transcript!r}: "
                             f"{problem.strerror or problem}") from None

    def _ask(self, prompt: str) -> str:
        """Run the program once on ``prompt``; its whole standard output.

        :raises AgentError: if it cannot start, fails, is late or answers too much.
        """
        self.prompts += 1
        with tempfile.TemporaryFile() as stdin:
            stdin.write(prompt.encode("utf-8"))
            stdin.seek(0)
            try:
                process = subprocess.Popen(self._args, stdin=stdin, stdout=subprocess.PIPE,
                                           stderr=subprocess.DEVNULL, start_new_session=True)
            except OSError as problem:
                raise AgentError(self.name, f"cannot start {self.command!r}: {problem.strerror or problem}") from None
        deadline = time.monotonic() + self.timeout
        exited = False
        try:
            data = self._read(process, deadline)
            exited = _wait_unreaped(process.pid, max(deadline - time.monotonic(), 0.0))
        finally:
            try:  # the program is not reaped yet, so its session id is still its own
                os.killpg(process.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
            process.wait()
            if process.stdout is not None:
                process.stdout.close()
        if not exited:
            raise AgentError(self.name, f"closed its output but did not exit within {self.timeout:g} seconds")
        code = process.returncode
        if code:
            raise AgentError(self.name, f"the program {self.command!r} failed (exit code {code})")
        return data.decode("utf-8", errors="replace")

    def _read(self, process: subprocess.Popen[bytes], deadline: float) -> bytes:
        """The program's standard output up to its end, by ``deadline``."""
        stream = process.stdout
        assert stream is not None
        data = b""
        with selectors.DefaultSelector() as selector:
            selector.register(stream, selectors.EVENT_READ)
            while True:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AgentError(self.name, f"no answer within {self.timeout:g} seconds "
                                     "(RUMMYDSL_LLM_TIMEOUT sets the limit)")
                if not selector.select(left):
                    continue
                chunk = os.read(stream.fileno(), 65_536)
                if not chunk:
                    return data
                data += chunk
                if len(data) > MAX_ANSWER:
                    raise AgentError(self.name, f"answered more than {MAX_ANSWER} bytes")

    def close(self) -> None:
        """Nothing to stop: each prompt's program has ended before :meth:`act` returns."""


def _write_entry(out: TextIO, seat: str, prompt: str, answer: str, outcome: str) -> None:
    if prompt:
        out.write(f">>>>> {seat} prompt\n{prompt}\n>>>>> {seat} answer\n{answer.rstrip()}\n")
    out.write(f">>>>> {seat} {outcome}\n\n")
