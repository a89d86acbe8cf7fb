"""Playing a run as Ray tasks, on a local Ray instance or a cluster (``simulate --ray [ADDRESS]``).

Ray is imported only when a :class:`RayBackend` is made (``pip install 'rummydsl[ray]'``).

>>> local_ray_options("/tmp/x")["address"]
'local'
"""

from __future__ import annotations

import logging
import math
import os
import shutil
import tempfile
from typing import Any, Generator, Sequence

from ..errors import BackendError
from ..simulate import GameOutcome, GameTask, GameTasks
from .batches import Batch, BatchResult, FailOnce, InOrder, batch_size, play_batch
from .source import VariantSource

__all__ = [
    "RayBackend",
    "ray_available",
    "private_ray_root",
    "local_ray_options",
    "local_ray_environment",
    "IN_FLIGHT_PER_CPU",
]




IN_FLIGHT_PER_CPU = 2
"""Ray batches submitted but not yet consumed, per CPU of the cluster: enough to keep
every CPU busy while the driver waits for the oldest, few enough that the driver's
reorder buffer stays bounded (memory flat in the number of games)."""


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
