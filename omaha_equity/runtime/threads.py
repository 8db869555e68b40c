"""The kernel threads, and long computations as short kernel calls: Ctrl-C between the calls,
sizes that keep them short. On the ground floor of the package (beside ``cards`` and ``games``):
the equity, range, ranking, category and study kernels all run on these threads.

A compiled kernel cannot be interrupted. Python runs signal handlers only between bytecodes,
and numba's compiled code calls back into Python now and then (to unpickle constants): a
``KeyboardInterrupt`` raised there comes out as a chain of ``SystemError`` (or, from a worker
thread, a crash). So every long computation here is a series of kernel calls of bounded
work, each run under :func:`deferred_interrupt`: a Ctrl-C during a call is noted, and
``KeyboardInterrupt`` is raised in plain Python as soon as the call returns.
:class:`PieceSizer` picks how much work goes into the next call from the time the previous
ones took, so a call lasts about ``CALL_SECONDS`` (``LIST_CALL_SECONDS`` for the hand-list
kernels) whatever the machine, the game or the load. It is the package's only call sizer.

Only the cutting of the work into calls varies with the timing; what is computed never does
(chunks with their own random streams, sums in a fixed order), so results stay the same.
"""

from __future__ import annotations

import _signal  # the signal module's C core: ``signal.signal`` wraps handlers in enums, 25 us a swap
import itertools
import os
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager

from ..errors import InputError
from ..validate import is_whole_number

# Threads whose names start with this may be ended with the process at any moment: the kernel
# threads below only ever run compiled computations (the program's fast exit, ``fast_exit``).
ABANDONABLE_THREAD_PREFIX = "omaha-equity-kernel"

# The length of one kernel call that PieceSizer aims at: how long a Ctrl-C waits, about.
CALL_SECONDS = 0.05
# The length aimed at by the calls of the hand-list kernels (ranges, partial and random hands):
# their work is cut into uneven pieces that the threads take one at a time
# (``across_threads(uneven=True)``), and longer calls keep every thread busy to the end of one.
LIST_CALL_SECONDS = 0.25


def quiet_idle_threads() -> None:
    """Make numba's OpenMP worker threads sleep, not spin, when they run out of work (the range
    matching kernels, ``ranges._kernels``, are numba parallel kernels; the others run on
    Python threads, :func:`across_threads`).

    libgomp (numba's OpenMP layer, its default here) keeps idle workers spinning for a while
    after each parallel region; on a busy machine they take the core the main thread needs,
    and every one of our short calls pays for it. Measured on 2 busy cores with another
    process burning one, median of several: heads-up preflop exact 200-340 ms spinning,
    36-80 ms passive; 1,000,000 Monte Carlo boards 3-way 1.0-1.6 s spinning, 0.4-0.8 s
    passive (numba's 'workqueue' layer did as well on big work but took 0.44 ms on a river
    query that one OpenMP thread answers in 0.13 ms; TBB is not installed).
    ``OMP_WAIT_POLICY=passive`` makes idle workers wait on a futex instead. libgomp reads it
    when it loads, at numba's first parallel call, so this must run before any kernel does;
    a value the user set is kept.
    """
    os.environ.setdefault("OMP_WAIT_POLICY", "passive")


class deferred_interrupt:  # noqa: N801  (used as a context manager, like a function of contextlib)
    """Hold back SIGINT while the body runs (a compiled kernel call), then deliver it.

    In the main thread, with Python's own SIGINT handler or another callable one installed,
    a Ctrl-C during the body is only noted; when the body returns the noted signal goes to
    the previous handler (Python's raises ``KeyboardInterrupt``). Elsewhere (another thread,
    SIGINT ignored or left to the system) the body runs unchanged.

    A class rather than a generator: every kernel call of a small query goes through it.
    """

    __slots__ = ("previous", "caught")

    def __enter__(self):
        previous = _signal.getsignal(_signal.SIGINT)
        if threading.current_thread() is not threading.main_thread() or not callable(previous):
            self.previous = None
            return self
        self.previous = previous
        self.caught = caught = []
        _signal.signal(_signal.SIGINT, lambda signum, frame: caught.append(signum))
        return self

    def __exit__(self, *error):
        previous = self.previous
        if previous is None:
            return False
        _signal.signal(_signal.SIGINT, previous)
        if self.caught:
            previous(_signal.SIGINT, None)
        return False


class PieceSizer:
    """How many units of work (chunks, slices, hands) to put in the next kernel call so that it
    takes about ``seconds`` (default ``CALL_SECONDS``): the first call has ``first`` units,
    later ones scale with the measured speed, at most ``most``, at most ``growth`` times the
    last call (None: no such bound) and in multiples of ``multiple`` (the thread count, so
    every thread gets a share). The speed is the slowest seen lately (a slow call counts at
    once, a fast one is averaged in), or with ``from_last_call`` the last call's alone: the
    hand-list calls, cut into uneven pieces, lose more to calls kept short after one slow call
    than a Ctrl-C waits for a long one.

    Usage: ``size = sizer.next()``; run the call; ``sizer.took(size, seconds)``; or wrap the
    call with :meth:`run`.
    """

    def __init__(self, first: int, most: int, multiple: int = 1, seconds: float | None = None,
                 growth: int | None = None, from_last_call: bool = False):
        self.multiple = max(1, multiple)
        self.most = max(most, 1)
        self.size = max(1, min(first, self.most))
        self.seconds = seconds
        self.growth = growth
        self.from_last_call = from_last_call
        self.seconds_per_unit: float | None = None

    def next(self) -> int:
        return self.size

    def took(self, size: int, seconds: float) -> None:
        """Record that ``size`` units took ``seconds``; size the next call from it."""
        per_unit = max(seconds, 1e-6) / max(size, 1)
        # a slow call counts at once (the machine got busy); a fast one is averaged in
        if self.from_last_call or self.seconds_per_unit is None or per_unit > self.seconds_per_unit:
            self.seconds_per_unit = per_unit
        else:
            self.seconds_per_unit = (self.seconds_per_unit + per_unit) / 2
        target = CALL_SECONDS if self.seconds is None else self.seconds
        units = int(target / self.seconds_per_unit)
        if self.growth is not None:
            units = min(units, self.growth * max(size, 1))
        units = max(self.multiple, units - units % self.multiple)
        self.size = max(1, min(units, self.most))

    def run(self, call: Callable[[int], object], limit: int | None = None):
        """``call(size)`` with the next size (at most ``limit``) under :func:`deferred_interrupt`,
        timed. Returns ``(size, call's result)``."""
        size = self.size if limit is None else max(1, min(self.size, limit))
        started = time.perf_counter()
        with deferred_interrupt():
            result = call(size)
        self.took(size, time.perf_counter() - started)
        return size, result


_pool: ThreadPoolExecutor | None = None
_pool_lock = threading.Lock()


def _forget_pool_after_fork() -> None:
    # a forked child has the pool object but not its threads: it would wait forever on it
    global _pool
    _pool = None


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_pool_after_fork)


def _thread_pool() -> ThreadPoolExecutor:
    """The process's kernel threads (one per core numba counts), started on first use."""
    global _pool
    with _pool_lock:
        if _pool is None:
            import numba

            # named so that the program's fast exit does not wait for them (fast_exit)
            _pool = ThreadPoolExecutor(max_workers=numba.config.NUMBA_NUM_THREADS,
                                       thread_name_prefix=ABANDONABLE_THREAD_PREFIX)
        return _pool


def thread_count() -> int:
    """How many threads a kernel call may use: numba's setting (``numba.set_num_threads``;
    one per core unless told otherwise), which ``--threads`` sets."""
    import numba

    return numba.get_num_threads()


def threads_to_run(threads: int | None) -> int:
    """The threads a run on our own pool (:func:`across_threads`) uses for ``threads`` asked
    for: as many, but no more than the cores numba started with (the pool's size); numba's
    setting (:func:`thread_count`) when None. Counts only: numba's setting is left alone."""
    import numba

    return thread_count() if threads is None else min(threads, numba.config.NUMBA_NUM_THREADS)


@contextmanager
def use_threads(threads: int | None):
    """Run the body with numba's thread count set to ``threads`` (capped at the cores numba
    started with), restoring the previous setting afterwards; None leaves it alone. The range
    kernels (numba parallel loops) and :func:`across_threads` follow that setting. Work is cut
    into fixed chunks whatever the thread count, so any count gives the same numbers.

    Raises
    ------
    InputError
        ``threads`` not a whole number of at least 1.
    """
    if threads is None:
        yield
        return
    if not is_whole_number(threads) or threads < 1:
        raise InputError(f"bad threads {threads!r}: expected a whole number of at least 1")
    import numba

    previous = numba.get_num_threads()
    wanted = min(int(threads), numba.config.NUMBA_NUM_THREADS)
    if wanted == previous:  # a batch of small queries asks for the same count every time
        yield
        return
    numba.set_num_threads(wanted)
    try:
        yield
    finally:
        numba.set_num_threads(previous)


# Pieces per thread for work that is uneven across units (:func:`across_threads`).
UNEVEN_PIECES_PER_THREAD = 4


def across_threads(call: Callable[[int, int], tuple], first: int, count: int, uneven: bool = False,
                   threads: int | None = None) -> tuple:
    """``call(first, count)`` over the units ``first .. first + count - 1`` cut into contiguous
    pieces, one per thread (``uneven``: ``UNEVEN_PIECES_PER_THREAD`` per thread), run on up to
    ``threads`` threads (default :func:`thread_count`); the pieces' outputs are joined along
    their first axis, in unit order.

    ``call`` is a compiled kernel with ``nogil=True`` (it runs while other threads do) and
    ``error_model="numpy"`` (as numba compiles a parallel loop's body: no zero-divisor check on
    each integer division, whose divisors are never zero here; Monte Carlo about a tenth
    faster) that returns a tuple of arrays with one row per slab of its units; the rows are sums over
    disjoint units (or chunks with their own random streams), so the joined rows add up to
    the same totals however the units are cut: results do not depend on the thread count.
    Each thread takes the next piece when it is done with one, so with uneven work a thread
    held up by a slow piece or a busy machine does not hold up the others.
    With one thread, ``call`` runs once over all the units, on this thread.

    Why threads and not numba's ``prange``: a kernel compiled with ``parallel=True`` takes
    about 2.5 times as long to compile (numba's parfor passes and a gufunc per loop; heads-up
    preflop exact kernel: 6.6 s vs 2.6 s), which was most of a first run's wait. The price,
    measured on the exact kernel: its loop runs about a fifth slower than as a parfor body
    (heads-up preflop on one thread 23 ms -> 27 ms), still over 20 times faster than the peer.
    """
    threads = min(thread_count() if threads is None else threads, count)
    if threads <= 1:
        return call(first, count)
    pieces = min(count, threads * UNEVEN_PIECES_PER_THREAD if uneven else threads)
    bounds = [first + count * piece // pieces for piece in range(pieces + 1)]
    outputs: list = [None] * pieces
    next_piece = itertools.count()  # next() on it is atomic: threads never take the same piece
    stopping = threading.Event()

    def take_pieces():
        while not stopping.is_set():
            piece = next(next_piece)
            if piece >= pieces:
                return
            outputs[piece] = call(bounds[piece], bounds[piece + 1] - bounds[piece])

    pool = _thread_pool()
    try:
        # No Ctrl-C while the pool takes the work: submit may start a thread, and a
        # KeyboardInterrupt raised in Thread.start (which waits for the thread to run) leaves a
        # running thread the pool never recorded; nothing wakes it at exit and the interpreter
        # waits for it forever. Held back here, the interrupt comes out below instead.
        with deferred_interrupt():
            futures = [pool.submit(take_pieces) for _ in range(threads)]
        for future in futures:
            future.result()
    finally:
        stopping.set()  # after an error or Ctrl-C here, the other threads take no new piece
    import numpy as np  # lazy: the program's fast exit imports this module, and the CLI starts without numpy

    return tuple(np.concatenate(arrays) for arrays in zip(*outputs))


def run_in_pieces(call: Callable[[int, int], object], total: int, boundary: int | None = None,
                  multiple: int | None = None, first: int | None = None, seconds: float | None = None,
                  growth: int | None = None, from_last_call: bool = False):
    """Run ``call(first, count)`` over units ``0 .. total - 1`` in consecutive pieces sized by a
    :class:`PieceSizer` (``first`` units in the first piece, default one unit per thread; then
    pieces of about ``seconds``, at most ``growth`` times the last, sized as
    :class:`PieceSizer` says with ``from_last_call``), each under
    :func:`deferred_interrupt`; a piece never crosses a multiple of ``boundary`` (where a
    caller checks a stopping rule). Yields ``(first, count, result)`` after each call.

    ``multiple`` defaults to numba's current thread count.
    """
    if multiple is None:
        import numba

        multiple = numba.get_num_threads()
    sizer = PieceSizer(first=multiple if first is None else first, most=total, multiple=multiple,
                       seconds=seconds, growth=growth, from_last_call=from_last_call)
    done = 0
    while done < total:
        limit = total - done
        if boundary is not None:
            limit = min(limit, boundary - done % boundary)
        count, result = sizer.run(lambda count: call(done, count), limit)
        yield done, count, result
        done += count
