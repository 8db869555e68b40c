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

Faults: a local worker process that dies (killed, out of memory) is replaced and the items it
and its pool held run again on a new pool, up to :data:`MAX_POOL_RESTARTS` times; local workers
end with this process however it ends (Linux: ``PR_SET_PDEATHSIG``; elsewhere a watchdog
thread). A Dask scheduler that goes away, a Dask task that cannot run, or a cluster left
without workers for ``worker_timeout`` seconds raise :class:`ExecutorLost` (one line) from
:meth:`Executor.map`, after every earlier result has been yielded.
"""

from __future__ import annotations

import collections
import contextlib
import json
import math
import multiprocessing
import os
import signal
import sys
import threading
import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Iterator
from typing import Any, TypeVar

from ..errors import InputError
from .threads import deferred_interrupt

Item = TypeVar("Item")
Result = TypeVar("Result")

CLUSTER_INSTALL_HINT = "pip install 'omaha-equity[cluster]'"
# Items in flight per worker: enough to keep every worker busy while results are collected
# in order, few enough that memory stays bounded.
ITEMS_IN_FLIGHT_PER_WORKER = 3
# Local pools started again after a worker process died, per executor: a worker killed now and
# then (the out-of-memory killer, a user) costs only its items' time; an item that kills every
# worker it reaches stops the run after this many tries instead of looping.
MAX_POOL_RESTARTS = 3
# Seconds to wait for a Dask cluster by default: the scheduler to answer, a worker to be there.
DEFAULT_WORKER_TIMEOUT = 60.0
# The longest wait for a Dask cluster that can be asked for (a day): a longer one is a mistake
# (dask cannot read infinite or huge durations), not a wish.
MAX_WORKER_TIMEOUT = 86_400.0
# Most local worker processes that can be asked for, even beyond the cores (--oversubscribe):
# each one is a Python process with its own compiled kernels, and the operating system refuses
# absurd counts with an OverflowError deep in multiprocessing.
MAX_WORKERS = 256
# The longest wait for a terminated worker process, or a stopped pool's manager thread, to end.
_STOP_SECONDS = 5.0
# How often a wait for a Dask result looks at the cluster (is the scheduler there, any worker?).
_DASK_POLL_SECONDS = 0.5


class ExecutorLost(RuntimeError):
    """The workers can no longer run the items: a local worker process died more than
    :data:`MAX_POOL_RESTARTS` times, the Dask scheduler went away, a Dask task could not run,
    or no Dask worker was there for ``worker_timeout`` seconds. The message is one line;
    results yielded before it are complete."""


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

    # a no-op by default, not abstract: an executor without workers has nothing to release
    def close(self, cancel: bool = False) -> None:  # noqa: B027
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


_PR_SET_PDEATHSIG = 1  # linux/prctl.h


def _exists(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # there, owned by someone else (the pid was reused)
        return False
    return True


def _watch_parent(parent_pid: int) -> None:
    while True:
        time.sleep(1.0)
        if not _exists(parent_pid):
            os._exit(1)


def _end_with_parent(parent_pid: int) -> None:
    """Make this worker process end when the program that started the pool ends, whatever
    ends it (``kill -9`` included): the pool's own shutdown never runs then.

    A worker's parent is multiprocessing's fork server, which exits once every holder of the
    write end of its "alive" pipe is gone: the program, and every worker, which inherits a copy
    it never uses. The worker closes its copy, so the fork server ends with the program; on
    Linux the kernel then sends the worker SIGKILL (``prctl(PR_SET_PDEATHSIG)``). Elsewhere a
    daemon thread looks for the program once a second."""
    from multiprocessing import forkserver

    server = getattr(forkserver, "_forkserver", None)
    alive_fd = getattr(server, "_forkserver_alive_fd", None)
    if isinstance(alive_fd, int):
        os.close(alive_fd)
        server._forkserver_alive_fd = None
    if sys.platform.startswith("linux"):
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        if libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) == 0:
            if not _exists(parent_pid):  # it ended before the line above took effect
                os._exit(1)
            return
    threading.Thread(target=_watch_parent, args=(parent_pid,), name="omaha-equity-parent-watch", daemon=True).start()


@contextlib.contextmanager
def _children_started_without_interrupts() -> Iterator[None]:
    """Around a call that may start processes (building a pool, ``submit``): a Ctrl-C there is
    held back until the call returns, so that no process is left half-started (its parent gone
    from under it, it would print a traceback) and no named semaphore half-made (see
    :meth:`ProcessExecutor._new_pool`), and SIGINT is blocked in this thread, so that the
    processes started here (multiprocessing's resource tracker, the fork server, which imports
    the package first, and the workers it forks) begin with it blocked and never see a Ctrl-C
    meant for the program: the pool stops them."""
    with deferred_interrupt():
        if threading.current_thread() is not threading.main_thread():
            yield
            return
        previous = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
        try:
            yield
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, previous)  # a held Ctrl-C is delivered now, then raised


def _start_local_worker(warm_up: Callable[[], Any] | None, parent_pid: int | None = None) -> None:
    """Initializer of a local worker process: end with the program (see :func:`_end_with_parent`),
    Ctrl-C is the parent's business (it stops the pool), the kernels get one thread (the
    processes are the parallelism), then warm up."""
    if parent_pid is not None:
        _end_with_parent(parent_pid)
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
    threads of numba's kernels are not fork-safe once started). They end with this process,
    whatever ends it. A worker that dies breaks its pool: a new pool is started and every item
    not yet collected is sent again (results are still yielded in order, each once), at most
    :data:`MAX_POOL_RESTARTS` times; then :meth:`map` raises :class:`ExecutorLost`.

    Parameters
    ----------
    worker_count : int
        Processes, at least 1.
    warm_up : callable, optional
        Run once in every worker process (module-level function).
    preload : iterable of str
        Modules the fork server imports.
    notify : callable, optional
        Called with a one-line message when a dead worker's items are sent again.
    """

    def __init__(self, worker_count: int, warm_up: Callable[[], Any] | None = None,
                 preload: Iterable[str] = ("omaha_equity.equity.calculate",),
                 notify: Callable[[str], None] | None = None):
        if worker_count < 1:
            raise InputError(f"bad workers {worker_count}: expected at least 1")
        self.worker_count = worker_count
        self.description = f"{worker_count} local worker processes"
        self.restarts = 0
        self._warm_up = warm_up
        self._notify = notify
        if "forkserver" in multiprocessing.get_all_start_methods():
            self._context = multiprocessing.get_context("forkserver")
            self._context.set_forkserver_preload(list(preload))
        else:
            self._context = multiprocessing.get_context("spawn")
        self._pool = self._new_pool()

    def _new_pool(self):
        from concurrent.futures import ProcessPoolExecutor

        # A pool's queues hold five named semaphores (files in /dev/shm), each made, then
        # registered with multiprocessing's resource tracker (the first one starts it: a
        # process), then given a finalizer that removes it. A Ctrl-C between two of these
        # steps would leave the file behind for good: the whole pool is built, or none.
        with _children_started_without_interrupts():
            return ProcessPoolExecutor(max_workers=self.worker_count, mp_context=self._context,
                                       initializer=_start_local_worker, initargs=(self._warm_up, os.getpid()))

    def map(self, function, items):
        in_flight = self.worker_count * ITEMS_IN_FLIGHT_PER_WORKER
        pending: collections.deque = collections.deque()  # [item, future], in input order
        try:
            for item in items:
                pending.append([item, self._submit(function, item, pending)])
                if len(pending) >= in_flight:
                    yield self._collect(function, pending)
            while pending:
                yield self._collect(function, pending)
        finally:
            # stopped early (Ctrl-C, an error, or the caller closed the generator): drop the rest
            for _, future in pending:
                future.cancel()

    def _submit(self, function, item, pending: collections.deque):
        from concurrent.futures.process import BrokenProcessPool

        while True:
            try:
                with _children_started_without_interrupts():
                    return self._pool.submit(function, item)
            except BrokenProcessPool:  # a worker died since the last look
                self._restart(function, pending)

    def _collect(self, function, pending: collections.deque):
        from concurrent.futures.process import BrokenProcessPool

        while True:
            try:
                result = pending[0][1].result()
            except BrokenProcessPool:
                self._restart(function, pending)
                continue
            pending.popleft()
            return result

    def _restart(self, function, pending: collections.deque) -> None:
        """A worker died and took its pool with it: a new pool runs every pending item again."""
        self._stop_pool(self._pool)
        if self.restarts >= MAX_POOL_RESTARTS:
            raise ExecutorLost(f"a local worker process died {self.restarts + 1} times (killed? out of memory?): "
                               "stopped")
        self.restarts += 1
        if self._notify is not None:
            self._notify(f"a worker process died; its work runs again on a new one "
                         f"({self.restarts} of at most {MAX_POOL_RESTARTS} restarts)")
        from concurrent.futures.process import BrokenProcessPool

        self._pool = self._new_pool()
        try:
            with _children_started_without_interrupts():
                for entry in pending:
                    entry[1] = self._pool.submit(function, entry[0])
        except BrokenProcessPool:  # the new pool lost a worker already (bounded: restarts are counted)
            self._restart(function, pending)

    @staticmethod
    def _stop_pool(pool) -> None:
        """Stop ``pool`` now: its queued items dropped, its workers terminated, and its manager
        thread ended, all before this returns.

        The pool's manager thread (``concurrent.futures``) holds the last references to the
        pool's queues; it ends on its own once the workers are gone, and the queues' named
        semaphores are removed by whichever thread drops those references: ``sem_unlink``, then
        a word to multiprocessing's resource tracker. Left to the manager thread, that happens
        after it has left ``threading.enumerate()``, unseen by the program's fast exit
        (``os._exit``), which can cut it between the two steps: the tracker then warns at exit of
        a leaked semaphore it cannot find. Joined here, the thread is gone for good and the
        semaphores are removed in this thread, when the references below are dropped; a Ctrl-C
        meanwhile is held back until then, so it cannot cut the removal either.
        """
        with deferred_interrupt():
            processes = list((getattr(pool, "_processes", None) or {}).values())
            manager = getattr(pool, "_executor_manager_thread", None)
            pool.shutdown(wait=False, cancel_futures=True)
            # a worker busy with a long item would keep the interpreter waiting at exit: stop it
            for process in processes:
                if process.is_alive():
                    process.terminate()
            for process in processes:
                process.join(timeout=_STOP_SECONDS)
            if manager is not None and manager is not threading.current_thread():
                manager.join(timeout=_STOP_SECONDS)  # its workers are gone: it ends at once
            del processes, manager  # the last references to the pool's queues, if it ended

    def close(self, cancel: bool = False) -> None:
        if not cancel:
            self._pool.shutdown(wait=True)
            return
        self._stop_pool(self._pool)


def _import_distributed():
    try:
        import distributed
    except ImportError:
        raise InputError(f"running on a Dask cluster needs Dask's distributed scheduler: {CLUSTER_INSTALL_HINT}") \
            from None
    return distributed


def _first_line(error: BaseException) -> str:
    text = str(error).strip().splitlines()
    return f"{type(error).__name__}: {text[0]}" if text else type(error).__name__


def check_scheduler_file(path: str) -> str:
    """The scheduler address in a Dask scheduler file (JSON with an ``address``).

    Raises
    ------
    InputError
        The file cannot be read or is not a scheduler file.
    """
    try:
        with open(path, encoding="utf-8") as file:
            content = json.load(file)
    except OSError as error:
        raise InputError(f"cannot read the scheduler file {path!r}: {error.strerror}") from None
    except (UnicodeDecodeError, ValueError, RecursionError):
        content = None
    if not isinstance(content, dict) or not isinstance(content.get("address"), str) or not content["address"]:
        raise InputError(f"{path!r} is not a Dask scheduler file: expected JSON with the scheduler's \"address\" "
                         "(as 'dask scheduler --scheduler-file FILE' writes it)")
    return content["address"]


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
    worker_timeout : float
        Seconds to wait for the scheduler to answer and for a first worker, and how long a
        run may go on with no worker at all before :meth:`map` gives up (default
        :data:`DEFAULT_WORKER_TIMEOUT`, a minute).
    notify : callable, optional
        Called with a one-line message when the cluster has no worker and the run waits.

    Raises
    ------
    InputError
        Dask is not installed (the message names ``pip install 'omaha-equity[cluster]'``), the
        scheduler file is not one, or the scheduler cannot be reached.
    ExecutorLost
        No worker joined within ``worker_timeout`` seconds.
    """

    def __init__(self, address: str | None = None, scheduler_file: str | None = None, client=None,
                 warm_up: Callable[[], Any] | None = None, worker_timeout: float = DEFAULT_WORKER_TIMEOUT,
                 notify: Callable[[str], None] | None = None):
        distributed = _import_distributed()
        self._own_client = client is None
        self.worker_timeout = worker_timeout
        self._notify = notify
        if client is None:
            where = address
            if scheduler_file is not None:
                where = check_scheduler_file(scheduler_file)
            try:
                client = distributed.Client(where, timeout=f"{worker_timeout}s")
            except Exception as error:  # refused, timed out, a bad address: all mean "not reachable"
                raise InputError(f"cannot reach the Dask scheduler {where!r}: {_first_line(error)}") from None
        self.client = client
        self.address = client.scheduler.address
        if not client.nthreads():
            self._say(f"waiting for a Dask worker at {self.address} (giving up after {worker_timeout:g} s: "
                      "--worker-timeout)")
            try:
                client.wait_for_workers(1, timeout=worker_timeout)
            except Exception:
                self.close(cancel=True)
                raise ExecutorLost(f"no Dask worker joined the scheduler {self.address} within {worker_timeout:g} s "
                                   "(--worker-timeout)") from None
        self.worker_count = max(1, sum(client.nthreads().values()))
        self.description = f"Dask cluster {self.address} ({self.worker_count} worker threads)"
        if warm_up is not None:
            client.run(warm_up)

    def _say(self, message: str) -> None:
        if self._notify is not None:
            self._notify(message)

    def map(self, function, items):
        return _ordered(lambda item: self.client.submit(function, item, pure=False), self._collect,
                        lambda future: future.cancel(), items, self.worker_count * ITEMS_IN_FLIGHT_PER_WORKER)

    def _collect(self, future):
        """The future's result, watching the cluster while it waits (see the class docstring)."""
        no_workers_since = None
        while True:
            try:
                return future.result(timeout=_DASK_POLL_SECONDS)
            except TimeoutError:
                pass
            except Exception as error:  # a chunk catches its own errors: this is the cluster's
                if self.client.status != "running":
                    raise ExecutorLost(f"lost the Dask scheduler {self.address}: stopped") from None
                raise ExecutorLost(f"a task failed on the Dask cluster {self.address} ({_first_line(error)}): "
                                   "stopped") from None
            try:
                if self.client.status != "running":
                    raise OSError("closed")
                workers = self.client.nthreads()
            except Exception:
                raise ExecutorLost(f"lost the Dask scheduler {self.address}: stopped") from None
            if workers:
                no_workers_since = None
                continue
            now = time.monotonic()
            if no_workers_since is None:
                no_workers_since = now
                self._say(f"no Dask worker left at {self.address}: waiting (giving up after "
                          f"{self.worker_timeout:g} s: --worker-timeout)")
            elif now - no_workers_since > self.worker_timeout:
                raise ExecutorLost(f"no Dask worker at {self.address} for {self.worker_timeout:g} s "
                                   "(--worker-timeout): stopped")

    def close(self, cancel: bool = False) -> None:
        if self._own_client:
            try:
                self.client.close(timeout=5)
            except Exception:  # a scheduler already gone: nothing left to close
                pass


def make_executor(workers: int | None = None, scheduler: str | None = None, scheduler_file: str | None = None,
                  client=None, warm_up: Callable[[], Any] | None = None,
                  worker_timeout: float = DEFAULT_WORKER_TIMEOUT,
                  notify: Callable[[str], None] | None = None) -> Executor:
    """The executor for these options.

    Parameters
    ----------
    workers : int, optional
        Local worker processes, 1 to :data:`MAX_WORKERS`; default: one per core of this machine
        (:func:`local_core_count`). ``1`` runs everything in this process.
    scheduler, scheduler_file, client : optional
        A Dask cluster instead (see :class:`DaskExecutor`); ``workers`` must then be omitted.
    warm_up : callable, optional
        Run once in every worker process before any work (module-level function).
    worker_timeout : float
        Dask only: seconds to wait for the scheduler and for a worker (:class:`DaskExecutor`),
        finite, above 0 and at most :data:`MAX_WORKER_TIMEOUT` (a day).
    notify : callable, optional
        Gets one-line messages about faults the executor rides out (a worker replaced, a wait).

    Raises
    ------
    InputError
        Both a cluster and ``workers``, two ways of naming a cluster, ``workers`` or
        ``worker_timeout`` out of bounds, Dask not installed, or a scheduler that cannot be
        reached.
    ExecutorLost
        No Dask worker within ``worker_timeout`` seconds.
    """
    cluster_options = [option for option in (scheduler, scheduler_file, client) if option is not None]
    if len(cluster_options) > 1:
        raise InputError("give one of a scheduler address, a scheduler file or a client, not several")
    if not math.isfinite(worker_timeout) or not 0 < worker_timeout <= MAX_WORKER_TIMEOUT:
        raise InputError(f"bad worker timeout {worker_timeout!r}: expected seconds above 0, at most "
                         f"{MAX_WORKER_TIMEOUT:,.0f} (a day)")
    if cluster_options:
        if workers is not None:
            raise InputError("workers apply to this machine; a Dask cluster has its own workers")
        return DaskExecutor(scheduler, scheduler_file, client, warm_up=warm_up, worker_timeout=worker_timeout,
                            notify=notify)
    workers = local_core_count() if workers is None else workers
    if not 1 <= workers <= MAX_WORKERS:
        raise InputError(f"bad workers {workers}: expected 1 to {MAX_WORKERS} worker processes")
    if workers == 1:
        return InProcessExecutor(warm_up)
    return ProcessExecutor(workers, warm_up, notify=notify)
