"""Where many independent pieces of work run: in this process, in worker processes on this
machine, or on a Dask cluster; used by ``omaha-equity batch`` and ``scripts/generate_rankings.py``.

Every executor has one operation, :meth:`Executor.map`: apply a function to each item of an
iterable and yield the results *in input order*, as soon as each one (and every one before it)
is done, with only a bounded number of items in flight (so a million-row input is read as the
work goes, not all at once). Items are meant to be chunks of work (a list of queries, a slice of
hand classes): sending one task costs about a millisecond on Dask and a few tenths of one to a
local process, so a task should carry many milliseconds of work.

- :class:`InProcessExecutor`: one item after another here (``workers=1``);
- :class:`ProcessExecutor`: ``N`` worker processes (``concurrent.futures``, no Dask needed);
  each worker process runs its kernels on one kernel thread (N processes x 1 thread);
- :class:`DaskExecutor`: a Dask ``distributed`` cluster given by its scheduler address
  (``tcp://HOST:8786``), a scheduler file, or a ``distributed.Client``; needs the optional
  extra: ``pip install 'omaha-equity[cluster]'``.

A ``warm_up`` callable given to :func:`make_executor` runs once in every worker process before
work arrives (loading compiled kernels and tables once, not per task).
"""

from __future__ import annotations

import collections
import multiprocessing
import os
import signal
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Iterator
from typing import Any, TypeVar

from .errors import InputError

Item = TypeVar("Item")
Result = TypeVar("Result")

CLUSTER_INSTALL_HINT = "pip install 'omaha-equity[cluster]'"
# Items in flight per worker: enough to keep every worker busy while results are collected
# in order, few enough that memory stays bounded.
ITEMS_IN_FLIGHT_PER_WORKER = 3


def local_core_count() -> int:
    """Cores this process may run on (the CPU affinity mask, else ``os.cpu_count()``)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


class Executor(ABC):
    """Runs ``function(item)`` for many items; see the module docstring.

    Attributes
    ----------
    worker_count : int
        Items that run at the same time (processes, or the Dask cluster's worker threads).
    description : str
        Where the work runs, for messages (``"2 local worker processes"``).
    """

    worker_count: int = 1
    description: str = "this process"

    @abstractmethod
    def map(self, function: Callable[[Item], Result], items: Iterable[Item]) -> Iterator[Result]:
        """``function(item)`` for every item, in input order, as soon as each is available.

        ``function`` must be a module-level function (it is pickled for worker processes).
        An exception raised by ``function`` is re-raised here, when its result is reached."""

    def close(self, cancel: bool = False) -> None:
        """Release the workers; with ``cancel``, work still queued or running is dropped
        (stopping at once), otherwise they finish cleanly."""

    def __enter__(self):
        return self

    def __exit__(self, exc_type, *exc_info):
        self.close(cancel=exc_type is not None)


class InProcessExecutor(Executor):
    """Runs every item in this process, one after another."""

    def __init__(self, warm_up: Callable[[], Any] | None = None):
        self.worker_count = 1
        self.description = "this process"
        self._warm_up = warm_up
        self._warmed = False

    def map(self, function, items):
        if self._warm_up is not None and not self._warmed:
            self._warm_up()
            self._warmed = True
        for item in items:
            yield function(item)


def _ordered(submit: Callable[[Any], Any], collect: Callable[[Any], Any], cancel: Callable[[Any], None],
             items: Iterable, in_flight: int) -> Iterator:
    """Submit items keeping at most ``in_flight`` pending, and yield results in input order."""
    pending: collections.deque = collections.deque()
    try:
        for item in items:
            pending.append(submit(item))
            if len(pending) >= in_flight:
                yield collect(pending.popleft())
        while pending:
            yield collect(pending.popleft())
    finally:
        # stopped early (Ctrl-C, an error, or the caller closed the generator): drop the rest
        for future in pending:
            cancel(future)


def _start_local_worker(warm_up: Callable[[], Any] | None) -> None:
    """Initializer of a local worker process: Ctrl-C is the parent's business (it stops the
    pool), the kernels get one thread (the processes are the parallelism), then warm up."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if "fork" in multiprocessing.get_all_start_methods():
        # numba's thread layer takes a multiprocessing lock when it starts (set_num_threads):
        # made in a fork-server child it is a named semaphore that a worker stopped mid-item
        # (close(cancel=True)) never releases, and the resource tracker warns of it at exit;
        # made for fork (this worker starts no process of its own) it has no name to leak
        multiprocessing.set_start_method("fork", force=True)
    import numba

    numba.set_num_threads(1)
    if warm_up is not None:
        warm_up()


class ProcessExecutor(Executor):
    """``worker_count`` worker processes on this machine (``concurrent.futures``).

    Workers are started by a fork server that has imported the package (``preload``) but never
    run a kernel: forking is then fast (no second import of numba) and safe (the OpenMP
    threads of numba's kernels are not fork-safe once started).
    """

    def __init__(self, worker_count: int, warm_up: Callable[[], Any] | None = None,
                 preload: Iterable[str] = ("omaha_equity.equity.calculate",)):
        from concurrent.futures import ProcessPoolExecutor

        if worker_count < 1:
            raise InputError(f"bad workers {worker_count}: expected at least 1")
        self.worker_count = worker_count
        self.description = f"{worker_count} local worker processes"
        if "forkserver" in multiprocessing.get_all_start_methods():
            context = multiprocessing.get_context("forkserver")
            context.set_forkserver_preload(list(preload))
        else:
            context = multiprocessing.get_context("spawn")
        self._pool = ProcessPoolExecutor(max_workers=worker_count, mp_context=context,
                                         initializer=_start_local_worker, initargs=(warm_up,))

    def map(self, function, items):
        return _ordered(lambda item: self._pool.submit(function, item), lambda future: future.result(),
                        lambda future: future.cancel(), items, self.worker_count * ITEMS_IN_FLIGHT_PER_WORKER)

    def close(self, cancel: bool = False) -> None:
        if not cancel:
            self._pool.shutdown(wait=True)
            return
        processes = list((getattr(self._pool, "_processes", None) or {}).values())
        self._pool.shutdown(wait=False, cancel_futures=True)
        # a worker busy with a long item would keep the interpreter waiting at exit: stop it
        for process in processes:
            if process.is_alive():
                process.terminate()
        for process in processes:
            process.join(timeout=5)


def _import_distributed():
    try:
        import distributed
    except ImportError:
        raise InputError(f"running on a Dask cluster needs Dask's distributed scheduler: {CLUSTER_INSTALL_HINT}") \
            from None
    return distributed


class DaskExecutor(Executor):
    """Items run as tasks on a Dask ``distributed`` cluster, results streamed back in order.

    Parameters
    ----------
    address : str, optional
        The scheduler, e.g. ``tcp://10.0.0.5:8786``.
    scheduler_file : str, optional
        A scheduler file written by ``dask scheduler --scheduler-file FILE``.
    client : distributed.Client, optional
        An existing client (e.g. of a ``distributed.LocalCluster``); it is not closed here.
    warm_up : callable, optional
        Run once on every worker now (``Client.run``), before any task.

    Raises
    ------
    InputError
        Dask is not installed (the message names ``pip install 'omaha-equity[cluster]'``), or
        the scheduler cannot be reached.
    """

    def __init__(self, address: str | None = None, scheduler_file: str | None = None, client=None,
                 warm_up: Callable[[], Any] | None = None):
        distributed = _import_distributed()
        self._own_client = client is None
        if client is None:
            try:
                if scheduler_file is not None:
                    client = distributed.Client(scheduler_file=scheduler_file, timeout="20s")
                else:
                    client = distributed.Client(address, timeout="20s")
            except (OSError, TimeoutError, ValueError) as error:
                where = scheduler_file or address
                raise InputError(f"cannot reach the Dask scheduler {where!r}: {error}") from None
        self.client = client
        self.worker_count = max(1, sum(client.nthreads().values()))
        self.description = f"Dask cluster {client.scheduler.address} ({self.worker_count} worker threads)"
        if warm_up is not None:
            client.run(warm_up)

    def map(self, function, items):
        return _ordered(lambda item: self.client.submit(function, item, pure=False),
                        lambda future: future.result(), lambda future: future.cancel(), items,
                        self.worker_count * ITEMS_IN_FLIGHT_PER_WORKER)

    def close(self, cancel: bool = False) -> None:
        if self._own_client:
            self.client.close()


def make_executor(workers: int | None = None, scheduler: str | None = None, scheduler_file: str | None = None,
                  client=None, warm_up: Callable[[], Any] | None = None) -> Executor:
    """The executor for these options.

    Parameters
    ----------
    workers : int, optional
        Local worker processes; default: one per core of this machine (:func:`local_core_count`).
        ``1`` runs everything in this process.
    scheduler, scheduler_file, client : optional
        A Dask cluster instead (see :class:`DaskExecutor`); ``workers`` must then be omitted.
    warm_up : callable, optional
        Run once in every worker process before any work (module-level function).

    Raises
    ------
    InputError
        Both a cluster and ``workers``, two ways of naming a cluster, or Dask not installed.
    """
    cluster_options = [option for option in (scheduler, scheduler_file, client) if option is not None]
    if len(cluster_options) > 1:
        raise InputError("give one of a scheduler address, a scheduler file or a client, not several")
    if cluster_options:
        if workers is not None:
            raise InputError("workers apply to this machine; a Dask cluster has its own workers")
        return DaskExecutor(scheduler, scheduler_file, client, warm_up=warm_up)
    workers = local_core_count() if workers is None else workers
    if workers < 1:
        raise InputError(f"bad workers {workers}: expected at least 1")
    if workers == 1:
        return InProcessExecutor(warm_up)
    return ProcessExecutor(workers, warm_up)
