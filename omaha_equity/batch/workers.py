"""How many worker processes a batch gets when ``--workers`` is not given: chosen from the
work measured, not assumed.

Worker processes cost their start (a fork server that imports the package, each worker loading
its kernels: about a second of CPU on the project's 2-core machine) and every chunk's trip
there and back, while this process still reads, parses and writes every row. A batch of small
queries is done before workers would have started: 10,000 heads-up river spots took 2.8 s
with one worker and 3.1 s with two, before spots were scored together. So
:class:`MeasuredWorkers` runs the first chunks here, times them, and starts one worker process
per core only when the work left, at the rate measured, is more than
:data:`WORKERS_PAY_SECONDS` (the input's size known: its lines; else the work done so far
stands for the work left). The work is measured in this process's CPU seconds, not on the
clock: on a machine busy with other work the clock runs several times faster than the work,
and workers, which would share the same busy cores, pay even less there.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from ..runtime.executor import Executor, Item, ProcessExecutor, Result
from .run import LOCAL_CHUNK_SIZE

# Seconds of work left (at the rate measured here) above which worker processes are started:
# a few times what starting two of them costs.
WORKERS_PAY_SECONDS = 3.0


class MeasuredWorkers(Executor):
    """This process first; one worker process per core once the measured work says they pay
    (see the module docstring).

    Parameters
    ----------
    core_count : int
        Worker processes to start when they pay (1: never any).
    query_count : int or None
        Queries in the run (None: unknown, standard input).
    warm_up : callable, optional
        Run once in every worker process.
    notify : callable, optional
        One-line messages of the worker processes (``ProcessExecutor``).
    """

    def __init__(self, core_count: int, query_count: int | None, warm_up: Callable[[], Any] | None = None,
                 notify: Callable[[str], None] | None = None):
        self.core_count = core_count
        self.query_count = query_count
        self.worker_count = 1
        self.description = "this process"
        self._warm_up = warm_up
        self._notify = notify
        self._pool: ProcessExecutor | None = None
        self.measured_seconds = 0.0
        self.measured_queries = 0

    @property
    def choice(self) -> str:
        """What was chosen, for the progress line."""
        if self._pool is not None:
            return f"{self.worker_count} worker processes (measured work)"
        return "1 worker (measured work)"

    def queries_per_chunk(self) -> int:
        """Queries other than spots in one task (``run.queries_per_chunk``)."""
        return 1 if self._pool is None else LOCAL_CHUNK_SIZE

    def work_left_seconds(self) -> float:
        """The CPU seconds of work left at the rate measured so far."""
        if self.query_count is None:
            return self.measured_seconds
        left = max(self.query_count - self.measured_queries, 0)
        return self.measured_seconds * left / max(self.measured_queries, 1)

    def map(self, function: Callable[[Item], Result], items: Iterable[Item]) -> Iterator[Result]:
        items = iter(items)
        for item in items:
            started = time.process_time()
            result = function(item)
            self.measured_seconds += time.process_time() - started
            self.measured_queries += len(item)
            yield result
            if self.core_count > 1 and self.work_left_seconds() > WORKERS_PAY_SECONDS:
                break
        else:
            return
        self._pool = ProcessExecutor(self.core_count, self._warm_up, notify=self._notify)
        self.worker_count = self._pool.worker_count
        self.description = self._pool.description
        yield from self._pool.map(function, items)

    def close(self, cancel: bool = False) -> None:
        if self._pool is not None:
            self._pool.close(cancel=cancel)
