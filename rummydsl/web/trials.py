"""The playground's "try it": a posted rule compared with its parent by the lab, as a job.

``compare`` plays whole games on the same seeds under the parent and under the posted
rule (:func:`rummydsl.lab.run.run_lab`; a rule that extends nothing is played alone,
which gives ``simulate``'s figures), which takes seconds to minutes; so a request
starts a :class:`Trial` in a thread of its own and answers at once, and the page asks for
its progress. At most :data:`RUNNING` trials play at a time (the others wait their turn,
and no check or game request ever waits for them: they have their own threads), each of
at most :data:`MAX_TRIAL_GAMES` games; a server keeps at most :data:`MAX_TRIALS` of them,
forgetting the oldest finished first. A finished trial's result carries the lab's plots
(:func:`rummydsl.lab.report.plot_images`, drawn in the trial's thread) where matplotlib is
installed, and a note saying how to get them where it is not.

The posted text is written, once built and checked, to a file of a private temporary
folder, because the lab's players load variants by path; its ``extends:`` names a
shipped variant or a text of its session (:mod:`rummydsl.web.sessions`: that parent is
written to the folder too, and its own parents are reached in memory, the lab playing in
the trial's thread), and the folder is removed when the trial ends.
"""

from __future__ import annotations

import os
import secrets
import shutil
import tempfile
import threading
import time
from dataclasses import dataclass, field
from typing import Any, Mapping

from ..errors import RummyDslError
from ..limits import MAX_TRIAL_GAMES, MAX_TRIALS
from .games import MAX_SEED, GameProblem, whole_number
from .texts import build_text, quoted, reaching, valid_name

__all__ = [
    "MAX_TRIAL_GAMES",
    "MAX_TRIALS",
    "RUNNING",
    "Trial",
    "Trials",
]


RUNNING = 1
"""How many trials play at once."""


@dataclass
class Trial:
    """One comparison of a posted rule with its parent."""

    games: int
    seed: int
    state: str = "waiting"
    """``waiting``, ``running``, ``done`` or ``failed``."""
    done: int = 0
    result: dict[str, Any] | None = None
    error: str | None = None
    started: float = field(default_factory=time.monotonic)
    parents: dict[str, str] = field(default_factory=dict, repr=False)
    """The texts of the posted rule's session its ``extends:`` may reach, by id."""

    def as_json(self) -> dict[str, Any]:
        """What the page is told: the state, the games played of how many, and the result or the error."""
        out: dict[str, Any] = {"state": self.state, "done": self.done, "total": self.games, "seed": self.seed}
        if self.result is not None:
            out["result"] = self.result
        if self.error is not None:
            out["error"] = self.error
        return out


class Trials:
    """The trials of a server, each played in a thread of its own, :data:`RUNNING` at a time."""

    def __init__(self, limit: int = MAX_TRIALS, running: int = RUNNING) -> None:
        self.limit = limit
        self._trials: dict[str, Trial] = {}
        self._lock = threading.Lock()
        self._turns = threading.Semaphore(running)

    def start(self, text: Any, name: Any = None, games: Any = None, seed: Any = None,
              parents: Mapping[str, str] | None = None) -> tuple[str, Trial]:
        """Check ``text``, then start comparing it with its parent; the trial's id and itself.
        Its ``extends:`` may reach ``parents`` (its session's texts, :mod:`rummydsl.web.sessions`).

        :raises VariantError: for a text with problems (``check``'s messages).
        :raises GameProblem: for a text that extends nothing, bad ``games`` or ``seed``, or a full server.
        """
        count = 20 if games is None else whole_number(games, "games", 1, MAX_TRIAL_GAMES)
        seed_value = 1 if seed is None else whole_number(seed, "seed", 0, MAX_SEED)
        parents = dict(parents or {})
        variant = build_text(text, name, parents)
        trial = Trial(count, seed_value, parents=parents)
        with self._lock:
            if len(self._trials) >= self.limit:
                finished = [k for k, t in self._trials.items() if t.state in ("done", "failed")]
                if not finished:
                    raise GameProblem("the server is busy with other trials; try again in a minute", 503)
                del self._trials[min(finished, key=lambda k: self._trials[k].started)]
            key = secrets.token_urlsafe(12)
            self._trials[key] = trial
        thread = threading.Thread(target=self._play, args=(trial, str(text), valid_name(name), variant.parent),
                                  name=f"rummydsl-trial-{key[:6]}", daemon=True)
        thread.start()
        return key, trial

    def get(self, key: str) -> Trial:
        """The trial of id ``key``.

        :raises GameProblem: 404 for an id unknown (or forgotten).
        """
        with self._lock:
            trial = self._trials.get(key)
        if trial is None:
            raise GameProblem(f"no trial {quoted(key, 40)}: it never was, or it was forgotten; start a new one", 404)
        return trial

    def _play(self, trial: Trial, text: str, name: str, parent: str | None) -> None:
        with self._turns:
            trial.state = "running"
            folder = tempfile.mkdtemp(prefix="rummydsl-trial-")
            try:
                with reaching(trial.parents):
                    trial.result = _compare(trial, text, folder, name, parent, trial.parents)
                trial.state = "done"
            except RummyDslError as problem:
                trial.error = str(problem)
                trial.state = "failed"
            except Exception as problem:  # a fault of ours: the trial fails, the server stays up
                trial.error = f"internal error ({type(problem).__name__})"
                trial.state = "failed"
            finally:
                shutil.rmtree(folder, ignore_errors=True)


def _compare(trial: Trial, text: str, folder: str, name: str, parent: str | None,
             parents: Mapping[str, str]) -> dict[str, Any]:
    """The lab's comparison of the rule (written as ``name`` in ``folder``) with ``parent``,
    as the page shows it; a rule that extends nothing is played alone (``simulate``'s
    figures). A parent the session posted is written beside it (its own parents reached
    in memory: the caller's :func:`~rummydsl.web.texts.reaching`)."""
    from ..lab.output import as_json, text as table
    from ..lab.run import Arm, Plan, run_lab

    path = os.path.join(folder, name)
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(text)
    mine = Arm.load(path)
    if mine.label == parent:
        mine = Arm.load(path, label="yours")
    parent_name = parent
    if parent is not None and parent in parents:
        os.mkdir(os.path.join(folder, "parent"))  # a folder of its own: never the rule's file
        parent_name = os.path.join(folder, "parent", f"{parent}.yaml")
        with open(parent_name, "w", encoding="utf-8") as handle:
            handle.write(parents[parent])
    arms = [mine] if parent_name is None else [Arm.load(parent_name), mine]

    def heard(done: int, total: int | None, width: float | None) -> None:
        trial.done = done

    begun = time.monotonic()
    result = run_lab(Plan(arms, seed=trial.seed, games=trial.games), heard)
    seconds = time.monotonic() - begun
    out = as_json(result, "compare", seconds)
    out["variants"] = [{"label": arm.label, "id": arm.variant.id} for arm in arms]  # no server paths
    out["text"] = table(result, "compare", seconds)
    out.update(_plots(result))
    return out


_DRAWING = threading.Lock()
"""matplotlib's pyplot is not thread-safe: one trial's thread draws at a time."""

NO_PLOTS = "the lab's plots need matplotlib, which this server does not have: pip install 'rummydsl[report]'"
"""What the page says in place of the plots on a server without matplotlib."""


def _plots(result: Any) -> dict[str, Any]:
    """The lab's plots of ``result`` (those of ``compare --report``), drawn here in the
    trial's thread, never on the event loop: ``{"plots": [{"id", "alt", "src"}]}``, ``src``
    a PNG ``data:`` URI; without matplotlib no plots and ``"plots_note"`` saying why."""
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        return {"plots": [], "plots_note": NO_PLOTS}
    from ..lab.report import PLOTS, plot_images

    try:
        with _DRAWING:
            images = plot_images(result)
    except Exception as problem:  # a plot that cannot be drawn costs the plots, never the figures
        return {"plots": [], "plots_note": f"the lab's plots could not be drawn ({type(problem).__name__})"}
    return {"plots": [{"id": key, "alt": PLOTS[key], "src": src} for key, src in images.items()]}
