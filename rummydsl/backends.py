"""Backends: where the games of a run are played, in local processes or as Ray tasks.

A :class:`Backend` takes the tasks of a run (:class:`~rummydsl.simulate.GameTask`,
each game with its own seed) and yields their outcomes **in task order**, so
:class:`~rummydsl.simulate.Statistics` sums them in game order and the figures are
the same whatever plays them: one process, N processes, or a Ray cluster.

- :class:`LocalBackend` plays in this process or in a pool of ``workers`` local
  processes (``rummydsl simulate --workers N``; all cores when not given).
- :class:`RayBackend` plays batches of consecutive games as Ray tasks, on a local
  Ray instance or an existing cluster (``rummydsl simulate --ray [ADDRESS]``; needs
  ``pip install 'rummydsl[ray]'``). Results stream back as they finish, are put
  back in game order with a bounded buffer, and a batch that Ray retries after a
  worker died is counted once.

Stop iterating (or ``close()`` the iterator) to cancel what is left.

>>> from rummydsl.simulate import make_tasks
>>> from rummydsl.variant import find_variant
>>> tasks = make_tasks(find_variant("gin_rummy"), count=3, seed=1, agents="greedy", hands=True, log=False)
>>> [outcome.index for outcome in LocalBackend(1).run(tasks)]
[0, 1, 2]
>>> batch_size(100_000, cpus=2), batch_size(10, cpus=2), batch_size(1_000, cpus=64)
(100, 2, 4)
"""

from __future__ import annotations

import atexit
import hashlib
import logging
import math
import os
import shutil
import tempfile
from dataclasses import dataclass, field, replace
from typing import Any, Generator, Iterator, Protocol, Sequence

from . import resources
from .errors import BackendError, RummyDslError
from .simulate import GameOutcome, GameTask, GameTasks, play_task
from .variant import is_variant_id, load_variant

__all__ = [
    "Backend",
    "LocalBackend",
    "RayBackend",
    "Batch",
    "BatchResult",
    "FailOnce",
    "VariantSource",
    "InOrder",
    "batch_size",
    "local_cpus",
    "play_batch",
    "ray_available",
    "AUTO_MIN_TASKS",
    "BATCHES_PER_CPU",
    "MAX_BATCH",
    "IN_FLIGHT_PER_CPU",
    "LOCAL_RESTARTS",
    "LOCAL_CHUNKS_PER_PROCESS",
]

AUTO_MIN_TASKS = 32
"""With ``workers`` not given, each local process gets at least this many tasks: a
process costs about half a CPU second to start (importing rummydsl, loading the
variant), about 30 Gin games, so a short run stays in one process."""

BATCHES_PER_CPU = 4
"""A Ray run is cut into at least this many batches per CPU of the cluster, so the
last batches are short and no CPU idles long at the end."""

MAX_BATCH = 100
"""At most this many games (or hands) per Ray task: a batch's results are small
(about 1 KB a game without ``--log``) and arrive often enough to stream."""

LOCAL_RESTARTS = 3
"""How many times a local run starts its pool again after a worker process died (killed,
out of memory) before it gives up: the lost games are played again from their seeds."""

LOCAL_CHUNKS_PER_PROCESS = 4
"""Chunks of tasks handed to the local pool but not yet consumed, per process: enough to
keep every process busy, few enough that memory stays flat in the number of tasks."""

IN_FLIGHT_PER_CPU = 2
"""Ray batches submitted but not yet consumed, per CPU of the cluster: enough to keep
every CPU busy while the driver waits for the oldest, few enough that the driver's
reorder buffer stays bounded (memory flat in the number of games)."""


def local_cpus() -> int:
    """The CPUs this process may use (its affinity mask where the system has one).

    >>> local_cpus() >= 1
    True
    """
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


class Backend(Protocol):
    """Plays tasks and yields their outcomes in task order."""

    def run(self, tasks: Sequence[GameTask]) -> Iterator[GameOutcome]:
        """The outcome of every task, in the order of ``tasks``.

        :raises RummyDslError: the error of the first task (in task order) that
            raised one, after the outcomes of the tasks before it.
        """
        ...


# -- local processes -------------------------------------------------------------


def _worker_start(variant: str) -> None:
    """Load the variant once per worker process (the loader caches it).

    A failure is left for :func:`~rummydsl.simulate.play_task` to raise: an
    initializer that raises makes the pool start workers again and again.
    """
    try:
        load_variant(variant)
    except RummyDslError:
        pass


@dataclass(frozen=True)
class LocalBackend:
    """Play in this process, or in a pool of local processes started with ``spawn``.

    >>> LocalBackend(3).processes(100), LocalBackend(3).processes(2), LocalBackend(1).processes(100)
    (3, 2, 1)
    >>> LocalBackend(None).processes(10)  # a short run is not worth a second process
    1
    """

    workers: int | None = 1
    """How many processes; ``None``: every CPU, each with at least
    :data:`AUTO_MIN_TASKS` tasks."""

    def processes(self, count: int) -> int:
        """How many processes play a run of ``count`` tasks (1: this one)."""
        if self.workers is None:
            wanted = min(local_cpus(), count // AUTO_MIN_TASKS)
        else:
            wanted = min(self.workers, count)
        return max(1, wanted)

    def run(self, tasks: Sequence[GameTask]) -> Generator[GameOutcome, None, None]:
        """Play ``tasks``, yielding outcomes in task order; closing the generator stops the pool.

        Tasks go to the processes in chunks, a bounded window of them at a time (memory
        flat in the number of tasks). A worker process that dies (killed, out of memory)
        breaks the pool: a new pool plays the chunks that were lost again from their
        seeds, so no game is lost or counted twice, up to :data:`LOCAL_RESTARTS` times.

        :raises BackendError: when the pool broke more than :data:`LOCAL_RESTARTS` times.
        """
        processes = self.processes(len(tasks))
        if processes <= 1:
            for task in tasks:
                yield play_task(task)
            return
        import multiprocessing
        from collections import deque
        from concurrent.futures import Future, ProcessPoolExecutor
        from concurrent.futures.process import BrokenProcessPool

        context = multiprocessing.get_context("spawn")
        chunk = max(1, min(16, len(tasks) // (processes * 8)))
        starts = iter(range(0, len(tasks), chunk))
        window = processes * LOCAL_CHUNKS_PER_PROCESS
        pending: deque[tuple[int, Future[list[GameOutcome]]]] = deque()
        pool: ProcessPoolExecutor | None = None
        restarts = 0
        try:
            while True:
                if pool is None:
                    pool = ProcessPoolExecutor(processes, mp_context=context, initializer=_worker_start,
                                               initargs=(tasks[0].variant,))
                    held = list(pending)
                    pending.clear()
                    for start, future in held:  # after a restart: what the broken pool lost, again
                        if not (future.done() and not future.cancelled() and future.exception() is None):
                            future = pool.submit(_play_chunk, tasks[start:start + chunk])
                        pending.append((start, future))
                while len(pending) < window:
                    start = next(starts, -1)
                    if start < 0:
                        break
                    pending.append((start, pool.submit(_play_chunk, tasks[start:start + chunk])))
                if not pending:
                    return
                start, future = pending[0]
                try:
                    outcomes = future.result()
                except BrokenProcessPool:
                    restarts += 1
                    _stop(pool)
                    pool = None
                    if restarts > LOCAL_RESTARTS:
                        raise BackendError(
                            f"a worker process died {restarts} times (the last time playing game "
                            f"{tasks[start].index + 1} or one after it); the run stops") from None
                    continue
                pending.popleft()
                yield from outcomes
        finally:
            if pool is not None:
                _stop(pool)


def _play_chunk(tasks: Sequence[GameTask]) -> list[GameOutcome]:
    """Play consecutive tasks in a worker process (one round trip for several games)."""
    return [play_task(task) for task in tasks]


def _stop(pool: Any) -> None:
    """Stop a process pool now: cancel what has not started, end the processes that play."""
    workers = dict(getattr(pool, "_processes", None) or {})  # private, but the only way before 3.14
    pool.shutdown(wait=False, cancel_futures=True)
    for process in workers.values():
        if process.is_alive():
            process.terminate()
    for process in workers.values():
        process.join(timeout=5)


# -- batches, variant sources and the reorder buffer (what a Ray task needs) ---------


def batch_size(count: int, cpus: int) -> int:
    """Games per Ray task for a run of ``count`` games on ``cpus`` CPUs.

    At least :data:`BATCHES_PER_CPU` batches per CPU (an even end), at most
    :data:`MAX_BATCH` games per batch, at least 1.

    >>> batch_size(1_000, cpus=2), batch_size(1_000_000, cpus=200), batch_size(3, cpus=2)
    (100, 100, 1)
    """
    per_batch = math.ceil(count / (max(cpus, 1) * BATCHES_PER_CPU))
    return max(1, min(MAX_BATCH, per_batch))


@dataclass(frozen=True)
class VariantSource:
    """A variant as a worker on another machine can load it.

    A shipped variant travels as its id (every node has rummydsl installed); a
    file travels as the text of every file of its ``extends`` chain, laid out in
    their folders relative to one another, so a parent named by a relative path is
    found beside it on the worker.

    >>> from rummydsl.variant import find_variant
    >>> VariantSource.of(find_variant("ginski")).shipped
    'ginski'
    """

    shipped: str | None = None
    """The shipped variant's id, or ``None`` for a file."""
    files: tuple[tuple[str, str], ...] = ()
    """Each file of the chain, child first: its path relative to the chain's common
    folder, and its text."""

    @classmethod
    def of(cls, path: str) -> VariantSource:
        """The source of the variant file ``path`` (found with ``find_variant``).

        :raises VariantError: if the variant cannot be loaded.
        :raises BackendError: if a file of its chain cannot be read.
        """
        absolute = os.path.realpath(path)
        shipped_dir = os.path.realpath(resources.variants_dir())
        folder, name = os.path.split(absolute)
        if folder == shipped_dir and name.endswith(".yaml"):
            return cls(shipped=name[: -len(".yaml")])
        chain = [os.path.realpath(file) for file in load_variant(path).chain] or [absolute]
        texts: list[tuple[str, str]] = []
        for file in chain:
            try:
                with open(file, encoding="utf-8") as stream:
                    text = stream.read()
            except (OSError, UnicodeDecodeError) as problem:
                raise BackendError(f"cannot read {file!r} to send it to the workers: {problem}") from None
            texts.append((file, text))
            if _extends_an_id(text):  # the rest of the chain is shipped: the worker has it
                break
        common = os.path.commonpath([os.path.dirname(file) for file, _ in texts])
        return cls(files=tuple((os.path.relpath(file, common), text) for file, text in texts))

    def materialise(self) -> str:
        """A path or id on this machine that ``load_variant`` loads as this variant.

        Files are written once per process into a temporary folder (removed when the
        process exits) named after their content.
        """
        if self.shipped is not None:
            return self.shipped
        digest = hashlib.sha256(repr(self.files).encode("utf-8")).hexdigest()[:16]
        known = _MATERIALISED.get(digest)
        if known is not None:
            return known
        root = tempfile.mkdtemp(prefix=f"rummydsl-variant-{digest}-")
        atexit.register(shutil.rmtree, root, True)
        child = self.write_into(root)
        _MATERIALISED[digest] = child
        return child

    def write_into(self, root: str) -> str:
        """Write the chain's files under the folder ``root`` as they lay relative to each
        other, and return the path of the variant itself (the chain's first file)."""
        for relative, text in self.files:
            target = os.path.join(root, relative)
            os.makedirs(os.path.dirname(target), exist_ok=True)
            with open(target, "w", encoding="utf-8") as stream:
                stream.write(text)
        return os.path.join(root, self.files[0][0])


def _extends_an_id(text: str) -> bool:
    """Whether a variant file's ``extends`` names a shipped variant by id (not a file).

    >>> _extends_an_id("id: a\\nextends: gin_rummy\\n"), _extends_an_id("extends: ../base.yaml\\n")
    (True, False)
    """
    import yaml

    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError:
        return False
    parent = data.get("extends") if isinstance(data, dict) else None
    return isinstance(parent, str) and is_variant_id(parent)


_MATERIALISED: dict[str, str] = {}
"""Variant sources already written in this (worker) process, by content digest."""


@dataclass(frozen=True)
class FailOnce:
    """Fault injection for tests: the worker that starts batch ``batch`` exits abruptly
    (``os._exit``) the first time, which it marks by creating the file ``marker``;
    Ray's retry then plays the batch again."""

    batch: int
    marker: str

    def strike(self, batch: int) -> None:
        """Exit this process if ``batch`` is the one to fail and it has not failed yet."""
        if batch != self.batch:
            return
        try:
            descriptor = os.open(self.marker, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
        except FileExistsError:
            return
        os.close(descriptor)
        os._exit(70)


@dataclass(frozen=True)
class Batch:
    """Consecutive tasks played by one Ray task."""

    id: int
    """From 0, in task order: batch ``id`` holds the tasks just after batch ``id - 1``'s."""
    tasks: tuple[GameTask, ...]


@dataclass
class BatchResult:
    """What a Ray task sends back: the outcomes of its batch, in order, and the error
    that stopped it (its tasks after that one are not played)."""

    id: int
    outcomes: list[GameOutcome]
    error: RummyDslError | None = None


def play_batch(batch: Batch, sources: dict[str, VariantSource],
               fail_once: FailOnce | None = None) -> BatchResult:
    """Play a batch (in a Ray worker): each task's variant from ``sources`` (by the
    driver's path), the outcomes in order. A rummydsl error ends the batch and is
    sent back as data, so the driver raises it in game order.

    >>> from rummydsl.simulate import make_tasks
    >>> from rummydsl.variant import find_variant
    >>> path = find_variant("gin_rummy")
    >>> tasks = make_tasks(path, count=2, seed=4, agents="greedy", hands=True, log=False)
    >>> result = play_batch(Batch(0, tuple(tasks)), {path: VariantSource.of(path)})
    >>> [o.index for o in result.outcomes], result.error
    ([0, 1], None)
    """
    if fail_once is not None:
        fail_once.strike(batch.id)
    outcomes: list[GameOutcome] = []
    local: dict[str, str] = {}
    for task in batch.tasks:
        try:
            if task.variant not in local:
                source = sources.get(task.variant)
                local[task.variant] = source.materialise() if source is not None else task.variant
            outcomes.append(play_task(replace(task, variant=local[task.variant])))
        except RummyDslError as problem:
            return BatchResult(batch.id, outcomes, problem)
    return BatchResult(batch.id, outcomes)


@dataclass
class InOrder:
    """The driver's reorder buffer: batch results arrive in any order (and a retried
    batch could arrive twice); :meth:`release` gives them back in batch order, each once.

    >>> buffer = InOrder()
    >>> buffer.add(BatchResult(1, [])), buffer.release()
    (True, [])
    >>> buffer.add(BatchResult(0, [])), [r.id for r in buffer.release()]
    (True, [0, 1])
    >>> buffer.add(BatchResult(1, []))  # a duplicate is ignored
    False
    """

    next_id: int = 0
    """The first batch not yet released."""
    waiting: dict[int, BatchResult] = field(default_factory=dict)
    """Results that arrived before an earlier batch's."""

    def add(self, result: BatchResult) -> bool:
        """Keep ``result``; ``False`` (and nothing kept) if its batch was seen already."""
        if result.id < self.next_id or result.id in self.waiting:
            return False
        self.waiting[result.id] = result
        return True

    def release(self) -> list[BatchResult]:
        """The results that are next in order, removed from the buffer."""
        ready = []
        while self.next_id in self.waiting:
            ready.append(self.waiting.pop(self.next_id))
            self.next_id += 1
        return ready


# -- Ray -----------------------------------------------------------------------------


def ray_available() -> bool:
    """Whether Ray can be imported here (``pip install 'rummydsl[ray]'``)."""
    try:
        import ray  # noqa: F401
    except ImportError:
        return False
    return True


_RAY_MISSING = "--ray needs Ray, which is not installed; install it with pip install 'rummydsl[ray]'"


#: The environment variable that makes Ray take the loopback address as a node's address
#: (Ray's own switch for machines that run no cluster, read when ``ray`` is imported).
_RAY_CLUSTER_SWITCH = "RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER"
#: The longest path of the private folder of a local Ray instance: Ray puts Unix sockets
#: some 66 characters below it, and a socket's path has at most 107.
_MAX_RAY_ROOT = 40


def private_ray_root() -> str:
    """A new folder only this user can enter (0700), for a local Ray instance's files:
    under ``TMPDIR`` (``tempfile.gettempdir()``) where its path is short enough for Ray's
    sockets, else under ``/tmp``. Ray makes its own folder inside it world-writable; the
    private parent keeps other users out."""
    base = tempfile.gettempdir()
    if len(os.path.join(base, "rummydsl-ray-12345678")) > _MAX_RAY_ROOT:
        base = "/tmp"
    return tempfile.mkdtemp(prefix="rummydsl-ray-", dir=base)


def local_ray_options(root: str) -> dict[str, Any]:
    """The ``ray.init`` keywords of a local instance started by ``--ray`` without an address:
    a new instance (never one found on the machine), its node on the loopback address, no
    dashboard, its files in the private folder ``root``.

    >>> sorted(local_ray_options("/tmp/rummydsl-ray-x").items())  # doctest: +NORMALIZE_WHITESPACE
    [('_node_ip_address', '127.0.0.1'), ('_temp_dir', '/tmp/rummydsl-ray-x/r'), ('address', 'local'),
     ('include_dashboard', False)]
    """
    return {"address": "local", "include_dashboard": False, "_node_ip_address": "127.0.0.1",
            "_temp_dir": os.path.join(root, "r")}


def local_ray_environment(root: str | None = None) -> dict[str, str]:
    """The environment a local instance is started with (and the driver keeps while it runs):
    Ray's loopback switch, ``TMPDIR`` in the private folder ``root``, and token
    authentication with a new random token held only in the environment (so nothing is
    written to ``~/.ray``). A ``RAY_AUTH_MODE`` already set is respected."""
    import secrets

    changes = {_RAY_CLUSTER_SWITCH: "0"}
    if root is not None:
        changes["TMPDIR"] = root  # the workers' temporary files (a house rule's copy) go there too
    if "RAY_AUTH_MODE" not in os.environ:
        changes.update({"RAY_AUTH_MODE": "token", "RAY_AUTH_TOKEN": secrets.token_hex(32)})
    return changes


def _refresh_ray_config() -> None:
    """Make an imported Ray read its settings from the environment again (the
    authentication mode is read once, when first needed; Ray does the same when it turns
    token authentication on for a new local instance). Nothing where Ray has no such hook."""
    try:
        import importlib

        importlib.import_module("ray._raylet").Config.initialize("")
    except (ImportError, AttributeError):
        pass


class RayBackend:
    """Play batches of games as Ray tasks, on a local Ray instance or a cluster.

    ``address`` is a cluster's address (``ray://head:10001``, ``head:6379``, or
    ``auto`` for the cluster ``ray start`` started last on this machine), or ``None``:
    the cluster in ``RAY_ADDRESS`` if set, else a new local instance for this run only
    (:func:`local_ray_options`): every port it opens listens on the loopback address
    only, its files are in a private folder (:func:`private_ray_root`, removed by
    :meth:`close`), and it takes a token (:func:`local_ray_environment`). If Ray is
    already initialised in this process, that instance is used as it is.

    Each Ray task plays a :class:`Batch` of :func:`batch_size` consecutive games;
    at most :data:`IN_FLIGHT_PER_CPU` batches per cluster CPU are submitted and not
    yet consumed; results are taken as they finish (``ray.wait``) and released in
    game order by an :class:`InOrder` buffer. Tasks are idempotent (each game has
    its own seed), so Ray retries a batch whose worker died (``max_retries``); the
    buffer counts a batch once.

    :raises BackendError: if Ray is not installed.
    """

    def __init__(self, address: str | None = None, *, batch: int | None = None,
                 in_flight: int | None = None, max_retries: int = 3,
                 fail_once: FailOnce | None = None,
                 init_options: dict[str, Any] | None = None) -> None:
        if not ray_available():
            raise BackendError(_RAY_MISSING)
        if batch is not None and batch < 1:
            raise BackendError(f"a Ray batch must hold at least 1 game, got {batch!r}")
        if in_flight is not None and in_flight < 1:
            raise BackendError(f"at least 1 Ray batch must be in flight, got {in_flight!r}")
        self.address = address
        self.batch = batch
        """Games per batch; ``None``: :func:`batch_size` of the run and the cluster."""
        self.in_flight = in_flight
        """Batches submitted and not consumed; ``None``: :data:`IN_FLIGHT_PER_CPU` per CPU."""
        self.max_retries = max_retries
        self.fail_once = fail_once
        self.init_options = dict(init_options or {})
        """More keywords for ``ray.init`` when this backend starts Ray."""
        self.started = False
        """Whether this backend started (or connected) Ray, and so shuts it down in :meth:`close`."""
        self.root: str | None = None
        """The private folder of the local instance this backend started, else None."""
        self._saved: dict[str, str | None] = {}
        self._switch: Any = None

    def _connect(self) -> Any:
        import ray

        if ray.is_initialized():
            return ray
        options: dict[str, Any] = {"logging_level": logging.WARNING, "include_dashboard": False,
                                   "configure_logging": True, "address": self.address}
        local = self.address is None and not os.environ.get("RAY_ADDRESS")
        if local:
            self.root = private_ray_root()
            options.update(local_ray_options(self.root))
            self._set_environment(local_ray_environment(self.root))
        options.update(self.init_options)
        try:
            ray.init(**options)
        except (ConnectionError, RuntimeError, ValueError) as problem:
            self._restore()
            where = f"the Ray cluster at {self.address!r}" if self.address else "a Ray instance"
            raise BackendError(f"cannot start or reach {where}: {problem}") from None
        self.started = True
        return ray

    def _set_environment(self, changes: dict[str, str]) -> None:
        """Set ``changes`` in the environment (kept until :meth:`close`) and Ray's loopback
        switch, which Ray reads when imported: its module constant is set too."""
        for name, value in changes.items():
            self._saved.setdefault(name, os.environ.get(name))
            os.environ[name] = value
        _refresh_ray_config()
        try:
            import importlib

            constants: Any = importlib.import_module("ray._private.ray_constants")
        except ImportError:  # pragma: no cover - another Ray layout: the environment alone
            return
        if hasattr(constants, "ENABLE_RAY_CLUSTER"):
            self._switch = (constants, constants.ENABLE_RAY_CLUSTER)
            constants.ENABLE_RAY_CLUSTER = False

    def _restore(self) -> None:
        """Undo :meth:`_set_environment` and remove the private folder."""
        for name, value in self._saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value
        if self._saved:
            self._saved = {}
            _refresh_ray_config()
        if self._switch is not None:
            constants, value = self._switch
            constants.ENABLE_RAY_CLUSTER = value
            self._switch = None
        if self.root is not None:
            shutil.rmtree(self.root, ignore_errors=True)
            self.root = None

    def cpus(self) -> int:
        """The CPUs of the cluster (connecting to it first if need be)."""
        ray = self._connect()
        return max(1, int(ray.cluster_resources().get("CPU", 1)))

    def close(self) -> None:
        """Shut Ray down if this backend started it (a cluster itself keeps running)."""
        if self.started:
            import ray

            ray.shutdown()
            self.started = False
        self._restore()

    def __enter__(self) -> RayBackend:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def run(self, tasks: Sequence[GameTask]) -> Generator[GameOutcome, None, None]:
        """Play ``tasks`` as Ray batches, yielding outcomes in task order.

        :raises BackendError: when a batch fails past its retries, or Ray cannot be reached.
        :raises RummyDslError: a task's own error, in task order.
        """
        if not tasks:
            return
        ray = self._connect()
        cpus = self.cpus()
        size = self.batch or batch_size(len(tasks), cpus)
        limit = self.in_flight or IN_FLIGHT_PER_CPU * cpus
        # One variant for a whole simulate run (GameTasks): no need to make every task to learn it.
        paths = [tasks.variant] if isinstance(tasks, GameTasks) else dict.fromkeys(t.variant for t in tasks)
        sources = {path: VariantSource.of(path) for path in paths}
        sources_ref = ray.put(sources)
        remote = ray.remote(play_batch).options(max_retries=self.max_retries, num_cpus=1,
                                                retry_exceptions=False)
        batches = math.ceil(len(tasks) / size)
        pending: dict[Any, int] = {}
        submitted = 0
        buffer = InOrder()

        def submit() -> None:
            nonlocal submitted
            while submitted < batches and submitted < buffer.next_id + limit:
                batch = Batch(submitted, tuple(tasks[submitted * size:(submitted + 1) * size]))
                pending[remote.remote(batch, sources_ref, self.fail_once)] = submitted
                submitted += 1

        try:
            submit()
            while pending:
                (ready,), _ = ray.wait(list(pending), num_returns=1)
                batch_id = pending.pop(ready)
                result = self._result(ray, ready, batch_id, size, len(tasks))
                del ready
                buffer.add(result)
                for released in buffer.release():
                    yield from released.outcomes
                    if released.error is not None:
                        raise released.error
                submit()
        finally:
            for ref in pending:
                try:
                    ray.cancel(ref)
                except Exception:  # noqa: BLE001 - a task that ended meanwhile cannot be cancelled
                    pass
            pending.clear()

    def _result(self, ray: Any, ref: Any, batch_id: int, size: int, count: int) -> BatchResult:
        """The result of one batch, or a :class:`BackendError` naming its games."""
        try:
            result = ray.get(ref)
        except ray.exceptions.RayError as problem:
            cause = getattr(problem, "cause", None)
            if isinstance(cause, Exception) and not isinstance(cause, ray.exceptions.RayError):
                raise cause from None
            first, last = batch_id * size + 1, min((batch_id + 1) * size, count)
            summary = str(problem).strip().splitlines()[0] if str(problem).strip() else type(problem).__name__
            raise BackendError(f"batch {batch_id} (games {first} to {last}) failed on Ray after "
                               f"{self.max_retries} retries: {summary}") from None
        assert isinstance(result, BatchResult)
        return result
