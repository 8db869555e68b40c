"""The drivers of a run, written once for both payoffs (pot shares and chips per pot) and for
both kinds of inputs (every hand fixed, hand lists).

Exact enumeration: a compiled kernel takes a range of *units* (board slices, hands of the first
list) and returns arrays with one row per slab of them; :func:`sum_pieces` runs it over all
the units in calls of bounded time (``threads.run_in_pieces``: Ctrl-C and progress between
calls) shared among threads (``threads.across_threads``), and adds up every output over its
rows. Every output is an integer sum, so the totals do not depend on how the units are cut into
calls or shared among threads.

Monte Carlo: :func:`sample_chunks` runs the chunks of samples (``kernel_inputs.ChunkPlan``;
each chunk draws from its own random stream, ``runtime.random_state.chunk_random_state`` of the
seed and the chunk's index) in groups between two checks of the precision target, each group
in calls of bounded time; the payoff's kernel and tally come in a :class:`ChunkGroup`
(:class:`WholeChunks`: whole chunks per call; the all-in kernels resume their chunks a few deals
per call). The tally adds the chunks' sums in chunk order and the target is checked only where
a group ends, so the samples, the floats of their sums and where a run stops depend on the seed
alone, not on the threads nor on how the work is cut into calls.

What differs between the payoffs is data: the kernel and its bundles (bound in ``call``),
the tally, and when to stop.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from math import comb
from typing import Protocol

import numpy as np

from ..errors import caused_by_interrupt
from ..runtime.threads import PieceSizer, across_threads, run_in_pieces
from . import plan
from .fixed.hands import Prepared, exact_slices
from .kernel_inputs import ChunkPlan


def run_kernel(call: Callable[[int, int], tuple], first: int, count: int, uneven: bool = False,
               threads: int | None = None) -> tuple:
    """``call(first, count)``, a compiled kernel over units ``first ..``, cut into pieces that
    threads take one at a time (``threads.across_threads``; ``uneven``: several pieces per
    thread, for work uneven across units). Ctrl-C during the call comes out as a plain
    KeyboardInterrupt: when a piece runs on this thread, Python sees the interrupt as the kernel
    hands control back, often inside one of numba's own callbacks, which then reports it as a
    SystemError chained to the KeyboardInterrupt."""
    try:
        return across_threads(call, first, count, uneven=uneven, threads=threads)
    except SystemError as error:
        if caused_by_interrupt(error):
            raise KeyboardInterrupt from None
        raise


def sum_pieces(call: Callable[[int, int], tuple], unit_total: int, *, threads: int | None = None,
               uneven: bool = False, multiple: int | None = None, first: int | None = None,
               seconds: float | None = None, growth: int | None = None, from_last_call: bool = False,
               boundary: int | None = None,
               report: Callable[[int], None] | None = None,
               stop: Callable[[Sequence[np.ndarray], int], bool] | None = None) -> tuple[list[np.ndarray], int]:
    """Run ``call(first, count)`` over units ``0 .. unit_total - 1`` and add up its outputs.

    Parameters
    ----------
    call : callable(first, count) -> tuple of arrays
        A compiled kernel with its bundles bound; each output has one row per slab of units.
    unit_total : int
        Units of the whole run.
    threads : int, optional
        Threads to share a call among (None: numba's setting).
    uneven : bool
        Work uneven across units: several pieces per thread (``threads.across_threads``).
    multiple, first, seconds, growth, from_last_call : optional
        Calls of a multiple of ``multiple`` units (default: numba's thread count), the first
        call's units, the length of the later ones and how they are sized
        (``threads.run_in_pieces``).
    boundary : int, optional
        A call never crosses a multiple of it (where ``stop`` is asked).
    report : callable(units done), optional
        Called after each call (progress).
    stop : callable(sums, units done) -> bool, optional
        Called after each call that ends on a multiple of ``boundary`` or at the end (after
        every call without a ``boundary``); True ends the run there.

    Returns
    -------
    sums : list of arrays
        Each output summed over its rows (shape of one row).
    done : int
        Units run.
    """
    sums = IntegerSums()
    done = 0
    pieces = run_in_pieces(lambda first_unit, count: run_kernel(call, first_unit, count, uneven, threads),
                           unit_total, boundary=boundary, multiple=multiple,
                           first=first, seconds=seconds, growth=growth, from_last_call=from_last_call)
    for first_unit, count, outputs in pieces:
        sums.add(first_unit, outputs)
        done = first_unit + count
        if report is not None:
            report(done)
        at_check = boundary is None or done % boundary == 0 or done == unit_total
        if stop is not None and at_check and stop(sums.totals, done):
            break
    return sums.totals, done


class IntegerSums:
    """A tally of integer outputs: each output added up over its rows (``totals``, the shape of
    one row; empty before the first call). Integer sums, so in any order."""

    def __init__(self) -> None:
        self.totals: list[np.ndarray] = []

    def add(self, first: int, outputs: tuple) -> None:
        """Add the rows of a call's outputs (``first``, its first unit, is not needed)."""
        rows = [output.sum(axis=0) for output in outputs]
        self.totals = rows if not self.totals else [total + row for total, row in zip(self.totals, rows)]


def _as_outputs(outputs) -> tuple:
    """A kernel's outputs as a tuple (a kernel with one output returns the array itself)."""
    return outputs if isinstance(outputs, tuple) else (outputs,)


def enumerate_fixed_hands(prepared: Prepared, kernel: Callable, payoff_arguments: tuple,
                          progress: Callable[[int, int], None] | None, threads: int | None) -> tuple[int, list]:
    """Every completion of the board for fixed hands, on ``threads`` threads (None: numba's
    setting), in short calls: ``kernel`` is ``fixed._kernels.enumerate_boards`` (pot shares) or
    ``fixed._allin_kernels.enumerate_allin_boards`` (chips, with the pots' ``payoff_arguments``).
    ``progress(boards done, boards)`` after each call.

    Returns ``(boards, the kernel's outputs summed over slabs)``."""
    completions = comb(len(prepared.deck), prepared.dealt_count)
    total_slices = exact_slices(completions, prepared.high_rows.shape[0])
    sums, _ = sum_pieces(
        lambda first, count: _as_outputs(kernel(*prepared.kernel_arguments(), plan.BINOMIALS, prepared.hilo,
                                                *payoff_arguments, first, count, total_slices)),
        total_slices, threads=threads, multiple=threads,
        report=None if progress is None else lambda done: progress(completions * done // total_slices, completions))
    return completions, sums


class ChunkGroup(Protocol):
    """Chunks of a Monte Carlo run between two checks of its precision target, run by the
    payoff's kernel in calls and added up by its tally."""

    @property
    def units_left(self) -> int:
        """Units (of the payoff's calls: chunks, deals per chunk) still to run; 0 when done."""
        ...

    @property
    def samples_done(self) -> int:
        """Samples of the group run so far."""
        ...

    def advance(self, size: int) -> None:
        """One kernel call of ``size`` units (at most :attr:`units_left`)."""
        ...

    def finish(self) -> None:
        """Hand the group's sums, chunk by chunk in chunk order, to the tally (if not done
        call by call)."""
        ...


class WholeChunks:
    """A :class:`ChunkGroup` whose calls run whole chunks.

    Parameters
    ----------
    call : callable(first chunk, chunk count) -> tuple of arrays
        The compiled kernel with its bundles bound: one row per chunk in each output.
    chunks : ChunkPlan
        The run's chunks.
    first_chunk, chunk_count : int
        The group's chunks.
    tally : callable(first chunk, outputs)
        Adds each call's rows, called in chunk order.
    uneven, threads : optional
        As in :func:`run_kernel`.
    pilot : callable(outputs) -> bool, optional
        Called with the outputs of the group's first call: True discards them and runs those
        chunks again (the payoff picked another way to deal from them).
    """

    def __init__(self, call: Callable[[int, int], tuple], chunks: ChunkPlan, first_chunk: int, chunk_count: int,
                 tally: Callable[[int, tuple], None], *, uneven: bool = False, threads: int | None = None,
                 pilot: Callable[[tuple], bool] | None = None):
        self.call = call
        self.chunks = chunks
        self.first_chunk = first_chunk
        self.next_chunk = first_chunk
        self.end = first_chunk + chunk_count
        self.tally = tally
        self.uneven = uneven
        self.threads = threads
        self.pilot = pilot

    @property
    def units_left(self) -> int:
        return self.end - self.next_chunk

    @property
    def samples_done(self) -> int:
        return self.chunks.samples_in(self.first_chunk, self.next_chunk - self.first_chunk)

    def advance(self, size: int) -> None:
        outputs = _as_outputs(run_kernel(self.call, self.next_chunk, size, self.uneven, self.threads))
        pilot, self.pilot = self.pilot, None
        if pilot is not None and pilot(outputs):
            return
        self.tally(self.next_chunk, outputs)
        self.next_chunk += size

    def finish(self) -> None:
        pass


def sample_chunks(start: Callable[[int, int], ChunkGroup], chunks: ChunkPlan, check_every: int, sizer: PieceSizer,
                  *, progress: Callable[[int, int], None] | None = None,
                  precise_enough: Callable[[int], bool] | None = None) -> int:
    """The one Monte Carlo driver: run ``chunks`` in groups of ``check_every`` chunks.

    Parameters
    ----------
    start : callable(first chunk, chunk count) -> ChunkGroup
        The payoff's kernel and tally over a group of chunks.
    chunks : ChunkPlan
        Samples per chunk and of the whole run (the trials).
    check_every : int
        Chunks between two checks of ``precise_enough``.
    sizer : PieceSizer
        Sizes each call (in the group's units) to take about its target time.
    progress : callable(samples done, samples), optional
        Called after each call.
    precise_enough : callable(samples done) -> bool, optional
        Asked where each group ends (from the tally, which holds every chunk run so far);
        True ends the run there.

    Returns
    -------
    int
        Samples run.
    """
    done = 0
    for first_chunk in range(0, chunks.chunk_total, check_every):
        group = start(first_chunk, min(check_every, chunks.chunk_total - first_chunk))
        while group.units_left > 0:
            sizer.run(group.advance, group.units_left)
            if progress is not None:
                progress(done + group.samples_done, chunks.sample_count)
        group.finish()
        done += group.samples_done
        if precise_enough is not None and precise_enough(done):
            break
    return done
